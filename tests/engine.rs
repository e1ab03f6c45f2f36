//! The engine against known answers: N-Queens counts, limits, cancellation, model errors.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

mod common;

use common::{all_configs, queens};

use alldiff::{
    Condition, Conflict, Context, CountStatus, Limits, Model, ModelError, Outcome, PostContext,
    Propagator, Relation, Restarts, SearchConfig, Solver, Step, StopReason, Strength, ValueOrder,
    VarId, Wake,
};

const A000170: [u64; 10] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724];

#[test]
fn queens_counts_match_oeis_for_every_strength_and_heuristic() {
    for strength in [Strength::Value, Strength::HiddenSingles, Strength::Domain] {
        for config in all_configs() {
            for (i, &expected) in A000170.iter().enumerate() {
                let n = i + 1;
                let (model, _) = queens(n, strength);
                let mut solver = Solver::with_config(model, config.clone());
                let count = solver.count(None);
                assert_eq!(
                    count.solutions, expected,
                    "n = {n}, {strength:?}, {config:?}"
                );
                assert_eq!(count.status, CountStatus::Complete);
            }
        }
    }
}

#[test]
fn every_queens_solution_is_valid_and_distinct() {
    let (model, q) = queens(8, Strength::Domain);
    let mut solver = Solver::new(model);
    let solutions: Vec<_> = solver.solutions().map(Result::unwrap).collect();
    assert_eq!(solutions.len(), 92);
    let mut seen = std::collections::HashSet::new();
    for s in &solutions {
        let rows: Vec<i32> = q.iter().map(|&x| s[x]).collect();
        for i in 0..8 {
            for j in i + 1..8 {
                assert_ne!(rows[i], rows[j]);
                assert_ne!((rows[i] - rows[j]).abs(), (j - i) as i32);
            }
        }
        assert!(seen.insert(rows));
    }
}

#[test]
fn thousand_queens_finds_a_solution_without_deep_recursion() {
    let n = 1000;
    let (model, q) = queens(n, Strength::Value);
    // Run on a thread with a small stack: the search must not recurse per level.
    let handle = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || {
            let mut solver = Solver::new(model);
            let outcome = solver.solve();
            (outcome, solver.statistics().peak_depth)
        })
        .unwrap();
    let (outcome, depth) = handle.join().unwrap();
    let Outcome::Solved(solution) = outcome else {
        panic!("1000-queens has solutions: {outcome:?}");
    };
    let rows: Vec<i32> = q.iter().map(|&x| solution[x]).collect();
    let distinct = |values: Vec<i32>| {
        let mut sorted = values.clone();
        sorted.sort_unstable();
        sorted.dedup();
        sorted.len() == values.len()
    };
    assert!(distinct(rows.clone()));
    assert!(distinct(
        rows.iter().enumerate().map(|(i, r)| r + i as i32).collect()
    ));
    assert!(distinct(
        rows.iter().enumerate().map(|(i, r)| r - i as i32).collect()
    ));
    assert!(depth > 100, "the search went deep: {depth}");
}

#[test]
fn statistics_count_nodes_failures_and_depth() {
    let (model, _) = queens(6, Strength::Value);
    let mut solver = Solver::new(model);
    let count = solver.count(None);
    assert_eq!(count.solutions, 4);
    let stats = solver.statistics();
    assert_eq!(stats.solutions, 4);
    assert!(stats.nodes > 0 && stats.failures > 0 && stats.propagations > stats.nodes);
    assert!(stats.peak_depth >= 1 && stats.peak_depth <= 6);
    // Binary branching: every node has a parent choice; the tree's leaves are the
    // failures and the solutions, and a full binary tree has one more leaf than
    // inner nodes.
    assert_eq!(stats.failures + stats.solutions, stats.nodes / 2 + 1);
    let text = stats.to_string();
    assert!(text.contains("%%%mzn-stat: nodes="));
    assert!(text.contains("%%%mzn-stat: peakDepth="));
    #[cfg(feature = "serde")]
    {
        let json = serde_json::to_value(stats).unwrap();
        assert!(json["peakDepth"].is_u64() && json["solveTime"].is_f64());
    }
}

#[test]
fn node_and_failure_limits_stop_the_search_and_say_so() {
    let (model, _) = queens(10, Strength::Value);
    let mut solver = Solver::new(model);
    solver.set_limits(Limits::none().with_nodes(50));
    let count = solver.count(None);
    assert_eq!(count.status, CountStatus::Stopped(StopReason::NodeLimit));
    assert_eq!(solver.statistics().nodes, 50);
    assert!(count.solutions < 724);

    solver.set_limits(Limits::none().with_failures(5));
    assert_eq!(
        solver.count(None).status,
        CountStatus::Stopped(StopReason::FailureLimit)
    );
    assert_eq!(solver.statistics().failures, 5);

    solver.set_limits(Limits::none().with_nodes(0));
    assert_eq!(solver.solve(), Outcome::Stopped(StopReason::NodeLimit));
}

#[test]
fn solutions_a_limit_stops_end_with_its_reason_and_nothing_after() {
    let (model, _) = queens(8, Strength::Value);
    let mut solver = Solver::new(model);
    // The count a node limit lets through is the enumeration's, then its reason.
    solver.set_limits(Limits::none().with_nodes(200));
    let counted = solver.count(None);
    assert_eq!(counted.status, CountStatus::Stopped(StopReason::NodeLimit));
    let mut solutions = solver.solutions();
    let found = solutions.by_ref().take_while(Result::is_ok).count();
    assert_eq!(found as u64, counted.solutions);
    assert_eq!(solutions.next(), None, "one stop item, then the end");
    let last = solver.solutions().last();
    assert_eq!(last, Some(Err(StopReason::NodeLimit)));
    // A search that ends has no such item.
    solver.set_limits(Limits::none());
    let all: Result<Vec<_>, _> = solver.solutions().collect();
    assert_eq!(all.map(|all| all.len()), Ok(92));
}

#[test]
fn a_search_a_limit_stopped_resumes_once_the_limit_is_raised() {
    let solutions = |step: Option<u64>| {
        let (model, q) = queens(8, Strength::Value);
        let mut solver = Solver::new(model);
        if step.is_some() {
            solver.set_limits(Limits::none().with_nodes(0));
        }
        let mut found = Vec::new();
        let mut stops = 0;
        let mut limit = 0;
        loop {
            match solver.advance() {
                Step::Solution => {
                    found.push(q.iter().map(|&x| solver.solution_value(x)).collect());
                }
                Step::Exhausted => return (found, stops, solver.statistics().clone()),
                Step::Stopped(reason) => {
                    assert_eq!(reason, StopReason::NodeLimit);
                    // Not raised: it stops again, where it was.
                    assert_eq!(solver.advance(), Step::Stopped(StopReason::NodeLimit));
                    stops += 1;
                    limit += step.unwrap();
                    solver.set_limits(Limits::none().with_nodes(limit));
                }
            }
        }
    };
    let (all, no_stops, stats): (Vec<Vec<Option<i32>>>, _, _) = solutions(None);
    assert_eq!((all.len(), no_stops), (92, 0));
    let (resumed, stops, resumed_stats) = solutions(Some(7));
    assert_eq!(resumed, all, "the same solutions in the same order");
    assert!(stops > 10, "{stops} stops");
    assert_eq!(resumed_stats.nodes, stats.nodes);
    assert_eq!(resumed_stats.failures, stats.failures);
}

#[test]
fn time_limit_stops_promptly() {
    let (model, _) = queens(30, Strength::Value);
    let mut solver = Solver::new(model);
    solver.set_limits(Limits::none().with_time(Duration::from_millis(100)));
    let started = Instant::now();
    let count = solver.count(None);
    let took = started.elapsed();
    assert_eq!(count.status, CountStatus::Stopped(StopReason::TimeLimit));
    assert!(took < Duration::from_millis(1000), "took {took:?}");
}

#[test]
fn an_untimed_search_counts_alike_and_still_keeps_a_time_limit() {
    let (model, _) = queens(8, Strength::Value);
    let mut solver = Solver::new(model);
    assert!(solver.measures_time());
    solver.measure_time(false);
    assert_eq!(solver.count(None).solutions, 92);
    assert_eq!(solver.statistics().solve_time, Duration::ZERO);
    solver.measure_time(true);
    assert_eq!(solver.count(None).solutions, 92);
    assert!(solver.statistics().solve_time > Duration::ZERO);

    // A limit set before the search, and one set between the steps of a search
    // begun without the clock: both stop it.
    let (model, _) = queens(30, Strength::Value);
    let mut solver = Solver::new(model);
    solver.measure_time(false);
    solver.set_limits(Limits::none().with_time(Duration::from_millis(100)));
    let started = Instant::now();
    assert_eq!(
        solver.count(None).status,
        CountStatus::Stopped(StopReason::TimeLimit)
    );
    assert!(started.elapsed() < Duration::from_millis(1000));
    solver.set_limits(Limits::none());
    assert!(matches!(solver.solutions().next(), Some(Ok(_))));
    // The node limit only ends the test if the time limit is not kept.
    let limits = Limits::none().with_nodes(50_000_000);
    solver.set_limits(limits.with_time(Duration::from_millis(100)));
    let started = Instant::now();
    while let Step::Solution = solver.advance() {}
    assert_eq!(solver.advance(), Step::Stopped(StopReason::TimeLimit));
    assert!(started.elapsed() < Duration::from_millis(1000));
}

#[test]
fn cancellation_from_another_thread_stops_the_search() {
    let (model, _) = queens(30, Strength::Value);
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&cancel);
    let worker = std::thread::spawn(move || {
        let mut solver = Solver::new(model);
        solver.set_limits(Limits::none().with_cancel(flag));
        solver.count(None)
    });
    std::thread::sleep(Duration::from_millis(50));
    cancel.store(true, Ordering::Relaxed);
    let count = worker.join().unwrap();
    assert_eq!(count.status, CountStatus::Stopped(StopReason::Cancelled));
}

#[test]
fn count_limit_is_reported_as_such() {
    let (model, _) = queens(8, Strength::Value);
    let mut solver = Solver::new(model);
    let count = solver.count(Some(2));
    assert_eq!(count.solutions, 2);
    assert_eq!(count.status, CountStatus::LimitReached);
}

#[test]
fn assumptions_restrict_and_reset_forgets_them() {
    let (model, q) = queens(8, Strength::HiddenSingles);
    let mut solver = Solver::new(model);
    solver.assume(q[0], 1).unwrap();
    assert_eq!(solver.count(None).solutions, 4);
    solver.assume(q[1], 2).unwrap(); // attacks q[0] diagonally
    assert_eq!(solver.solve(), Outcome::Unsatisfiable);
    solver.reset();
    assert_eq!(solver.count(None).solutions, 92);
    solver.assume(q[0], 99).unwrap();
    assert_eq!(solver.solve(), Outcome::Unsatisfiable);
}

#[test]
fn large_and_negative_domains_work() {
    let mut model = Model::new();
    let x = model.int_var(-5000, 5000).unwrap();
    let y = model.int_var(-5000, 5000).unwrap();
    let z = model.var_from_values([-5000, 4999]).unwrap();
    model.equal(x, z).unwrap();
    model.equal_offset(y, x, 1).unwrap();
    model
        .all_different_with([x, y, z], Strength::Value)
        .unwrap();
    // x == z forces x == z, which all-different forbids.
    assert_eq!(Solver::new(model).solve(), Outcome::Unsatisfiable);

    let mut model = Model::new();
    let vars = model.int_vars(3, -20_000, 20_000).unwrap();
    model
        .all_different_with(vars.clone(), Strength::Domain)
        .unwrap();
    model.equal_offset(vars[0], vars[1], -15_000).unwrap();
    let mut solver = Solver::new(model);
    let Outcome::Solved(s) = solver.solve() else {
        panic!("satisfiable");
    };
    assert_eq!(s[vars[0]], s[vars[1]] - 15_000);
    assert_eq!(s[vars[0]], -20_000);
}

#[test]
fn model_errors_name_what_is_wrong() {
    let mut model = Model::new();
    assert!(matches!(
        model.int_var(3, 1),
        Err(ModelError::EmptyDomain { .. })
    ));
    assert!(matches!(
        model.var_from_values([]),
        Err(ModelError::EmptyDomain { .. })
    ));
    assert!(matches!(
        model.int_var_array::<2>(3, 1),
        Err(ModelError::EmptyDomain { .. })
    ));
    // No variable, no domain to check: as `int_vars(0, ..)`.
    assert_eq!(model.int_var_array::<0>(3, 1), Ok([]));
    assert_eq!(model.var_count(), 0, "a refused array adds no variable");
    // The whole `i32` range is a domain like any other.
    assert!(model.int_var(i32::MIN, i32::MAX).is_ok());
    let mut other = Model::new();
    let foreign = other.int_var(0, 1).unwrap();
    let x = model.int_var(i32::MAX - 1, i32::MAX).unwrap();
    model.set_name(x, "x").unwrap();
    assert_eq!(
        model.not_equal(x, foreign),
        Err(ModelError::ForeignVariable { index: 0 })
    );
    assert_eq!(
        model.all_different(Vec::<VarId>::new()),
        Err(ModelError::NoVariables {
            constraint: "all_different"
        })
    );
    let err = model.all_different([x + 1]).unwrap_err();
    assert!(matches!(err, ModelError::OffsetOverflow { .. }));
    assert_eq!(
        err.to_string(),
        format!(
            "view x +1 overflows: the variable's values reach {}..={}",
            i32::MAX - 1,
            i32::MAX
        )
    );
    assert!(model.all_different([x - 5]).is_ok());
    // At every strength, including those that read the bounds when posting.
    for strength in [
        Strength::Value,
        Strength::HiddenSingles,
        Strength::Bounds,
        Strength::Domain,
    ] {
        let err = model
            .all_different_with([x - 5, x + 1], strength)
            .unwrap_err();
        assert!(
            matches!(err, ModelError::OffsetOverflow { .. }),
            "{strength:?}"
        );
    }
    // Posting a constraint value directly checks its views too.
    let direct = alldiff::constraints::AllDifferent::new(vec![x + 1], Strength::Value);
    assert!(matches!(
        model.post(direct),
        Err(ModelError::OffsetOverflow { .. })
    ));
    let mut solver = Solver::new(model);
    assert_eq!(
        solver.assume(foreign, 0),
        Err(ModelError::ForeignVariable { index: 0 })
    );
}

#[test]
fn restarts_find_solutions_prove_none_and_keep_the_solver_settings() {
    let (model, q) = queens(30, Strength::Value);
    let mut solver = Solver::new(model);
    let config = SearchConfig::new().value_order(ValueOrder::Random(0));
    solver.set_config(config.clone());
    solver.set_restarts(Some(Restarts::geometric(4, 2.0)));
    let Outcome::Solved(s) = solver.solve() else {
        panic!("30-queens has solutions");
    };
    let rows: Vec<i32> = q.iter().map(|&x| s[x]).collect();
    assert!((0..30).all(|i| {
        (i + 1..30).all(|j| rows[i] != rows[j] && (rows[i] - rows[j]).abs() != (j - i) as i32)
    }));
    assert_eq!(solver.config(), &config);
    assert_eq!(solver.restarts(), Some(Restarts::geometric(4, 2.0)));

    // No solution: the growing cutoff lets an attempt finish, and that is a proof.
    let (model, _) = queens(3, Strength::Value);
    let mut solver = Solver::new(model);
    solver.set_restarts(Some(Restarts::luby(1)));
    assert_eq!(solver.solve(), Outcome::Unsatisfiable);

    // The solver's failure limit applies to the whole run, restarts included.
    let (model, _) = queens(30, Strength::Value);
    let mut solver = Solver::new(model);
    solver.set_config(config);
    solver.set_restarts(Some(Restarts::luby(1)));
    solver.set_limits(Limits::none().with_failures(5));
    assert_eq!(solver.solve(), Outcome::Stopped(StopReason::FailureLimit));
    assert_eq!(solver.statistics().failures, 5);
    assert!(solver.statistics().restarts >= 2);
}

/// Keeps, as backtrackable state, each variable's domain as it last saw it, and counts
/// every call where that copy disagrees with the domains for a variable not listed as
/// modified: the solver must restore the state with the domains, and start it afresh
/// in each search.
#[derive(Clone, Debug)]
struct Mirror {
    vars: Vec<VarId>,
    disagreements: Arc<AtomicUsize>,
    fresh_starts: Arc<AtomicUsize>,
}

impl Propagator for Mirror {
    fn name(&self) -> &'static str {
        "mirror"
    }

    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        ctx.watch_all(self.vars.iter().copied(), Wake::Domain)?;
        ctx.set_initial_state(vec![0; 1 + self.vars.len()]);
        Ok(())
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let words: Vec<u64> = self
            .vars
            .iter()
            .map(|&var| ctx.values(var).fold(0, |word, v| word | 1 << v))
            .collect();
        if ctx.state()[0] == 0 {
            self.fresh_starts.fetch_add(1, Ordering::Relaxed);
        } else {
            for (k, &word) in words.iter().enumerate() {
                let listed = ctx.modified().contains(&(k as u32));
                if word != ctx.state()[1 + k] && !listed {
                    self.disagreements.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
        ctx.set_state(0, 1);
        for (k, &word) in words.iter().enumerate() {
            ctx.set_state(1 + k, word);
        }
        Ok(())
    }

    fn is_satisfied(&self, _: &dyn Fn(VarId) -> i32) -> bool {
        true
    }
}

#[test]
fn propagator_state_is_restored_on_backtracking_and_fresh_in_each_search() {
    let mut model = Model::new();
    let x = model.int_vars(5, 0, 4).unwrap();
    model.all_different(x.clone()).unwrap();
    let (disagreements, fresh_starts) = (Arc::default(), Arc::default());
    model
        .post(Mirror {
            vars: x,
            disagreements: Arc::clone(&disagreements),
            fresh_starts: Arc::clone(&fresh_starts),
        })
        .unwrap();
    let mut solver = Solver::new(model);
    assert_eq!(solver.count(None).solutions, 120);
    assert!(solver.statistics().failures + solver.statistics().solutions > 100);
    assert_eq!(solver.count(None).solutions, 120);
    assert_eq!(disagreements.load(Ordering::Relaxed), 0);
    assert_eq!(fresh_starts.load(Ordering::Relaxed), 2, "one per search");
}

/// Counts the 8-queens solutions with `fixed` columns and `excluded` ones applied as
/// plain assumptions of a fresh solver.
fn queens_with(fixed: &[(usize, i32)], excluded: &[(usize, i32)]) -> u64 {
    let (model, q) = queens(8, Strength::Value);
    let mut solver = Solver::new(model);
    for &(i, value) in fixed {
        solver.assume(q[i], value).unwrap();
    }
    for &(i, value) in excluded {
        solver.assume_not(q[i], value).unwrap();
    }
    solver.count(None).solutions
}

#[test]
fn levels_answer_as_the_same_assumptions_applied_in_each_search() {
    let (model, q) = queens(8, Strength::Value);
    let mut solver = Solver::new(model);
    assert_eq!(
        queens_with(&[], &[(0, 1)]),
        92 - queens_with(&[(0, 1)], &[])
    );

    assert!(solver.push_level([(q[0], 1)]).unwrap());
    assert_eq!(solver.count(None).solutions, queens_with(&[(0, 1)], &[]));
    assert!(solver.push_level([(q[1], 7)]).unwrap());
    solver.assume_not(q[2], 4).unwrap();
    let expected = queens_with(&[(0, 1), (1, 7)], &[(2, 4)]);
    assert!(expected > 0);
    assert_eq!(solver.count(None).solutions, expected);
    // Several searches in a row start from the same levels.
    assert_eq!(solver.count(None).solutions, expected);
    let statistics = solver.statistics().clone();
    assert!(solver.push_level([(q[3], 3)]).is_ok());
    assert_eq!(solver.statistics(), &statistics, "a level is no search");
    solver.pop_level();
    solver.reset();
    let both = queens_with(&[(0, 1), (1, 7)], &[]);
    assert!(both > expected);
    assert_eq!(solver.count(None).solutions, both);

    // q1 = 7 and q2 = 6 share a diagonal: propagation refutes the level.
    assert!(!solver.push_level([(q[2], 6)]).unwrap());
    assert_eq!(solver.count(None).solutions, 0);
    assert!(
        !solver.push_level([(q[3], 2)]).unwrap(),
        "stays refuted above"
    );
    solver.pop_level();
    solver.pop_level();
    assert_eq!(solver.count(None).solutions, both);

    solver.pop_level();
    solver.pop_level();
    assert_eq!(solver.levels(), 0);
    solver.pop_level();
    assert_eq!(solver.count(None).solutions, 92);
    let other = Model::new().int_var(0, 1).unwrap();
    assert!(solver.push_level([(other, 0)]).is_err());
    assert_eq!(solver.levels(), 0);
}

/// The model of issue 32: `x` in `0..=2`, `y` in `63..=64`, all different, six
/// solutions. Their values span 65, one more than a word: the bitmask path must not
/// be chosen for domains a search narrowed (`y = 63` fits one word with `x`), since a
/// later search or branch widens them again (before the fix: 3 solutions at bounds
/// strength, and at every strength after a search that assumed `y = 63`).
#[test]
fn all_different_over_a_word_and_a_bit_counts_every_solution_at_every_strength() {
    for strength in [
        Strength::Value,
        Strength::HiddenSingles,
        Strength::Bounds,
        Strength::Domain,
    ] {
        let model = || {
            let mut model = Model::new();
            let x = model.int_var(0, 2).unwrap();
            let y = model.int_var(63, 64).unwrap();
            model.all_different_with([x, y], strength).unwrap();
            (model, y)
        };
        let (fresh, _) = model();
        assert_eq!(Solver::new(fresh).count(None).solutions, 6, "{strength:?}");
        let (narrowed, y) = model();
        let mut solver = Solver::new(narrowed);
        solver.assume(y, 63).unwrap();
        assert_eq!(solver.count(None).solutions, 3, "{strength:?}, y = 63");
        solver.reset();
        assert_eq!(solver.count(None).solutions, 6, "{strength:?}, reset");
    }
}

/// The same for two all-different groups sharing a view, with their intersection:
/// `y` in `63..=64` fits one word with `x` in `0..=2` only once `y = 63` is assumed.
/// Before the fix, the intersection kept that window after the reset, read `y = 64`
/// as no value, and lost the solutions with `y = 64, z = 63`.
#[test]
fn intersection_over_a_word_and_a_bit_counts_every_solution() {
    let mut model = Model::new();
    let x = model.int_var(0, 2).unwrap();
    let y = model.int_var(63, 64).unwrap();
    let z = model.int_var(62, 63).unwrap();
    model.all_different([y, z]).unwrap();
    model.all_different([y, x]).unwrap();
    model.intersection([y, z], [y, x]).unwrap();
    let mut solver = Solver::new(model);
    solver.assume(y, 63).unwrap();
    assert_eq!(solver.count(None).solutions, 3);
    solver.reset();
    // x free; (y, z) one of (63, 62), (64, 62), (64, 63).
    assert_eq!(solver.count(None).solutions, 3 * 3);
}

/// A reified sum `<= i32::MAX` (or `>= i32::MIN`) has a negation whose right-hand side
/// lies one past `i32`; the negation is kept in `i64`, so it is accepted (it was
/// refused) and `b` tells whether the sum holds.
#[test]
fn reified_sums_at_the_ends_of_i32_are_accepted_and_count_as_brute_force() {
    let values = [
        i32::MAX / 2 - 1,
        i32::MAX / 2,
        i32::MAX / 2 + 1,
        i32::MAX / 2 + 2,
    ];
    for (relation, rhs, coefficient) in [
        (Relation::LessEq, i32::MAX, 1),
        (Relation::GreaterEq, i32::MIN, -1),
    ] {
        for half in [false, true] {
            let mut model = Model::new();
            let x = model.int_var(values[0], values[3]).unwrap();
            let y = model.int_var(values[0], values[3]).unwrap();
            let b = model.bool_var().unwrap();
            let condition = Condition::linear([(coefficient, x), (coefficient, y)], relation, rhs);
            match half {
                false => model.reify(b, condition).unwrap(),
                true => model.half_reify(b, condition).unwrap(),
            };
            let holds = |x: i64, y: i64| {
                let sum = i64::from(coefficient) * (x + y);
                match relation {
                    Relation::LessEq => sum <= i64::from(rhs),
                    _ => sum >= i64::from(rhs),
                }
            };
            let pairs = values
                .iter()
                .flat_map(|&x| values.iter().map(move |&y| (x, y)));
            let expected: usize = pairs
                .map(|(x, y)| match (holds(x.into(), y.into()), half) {
                    // b true exactly when it holds; half: b false always allowed.
                    (true, false) | (false, false) | (false, true) => 1,
                    (true, true) => 2,
                })
                .sum();
            let counted = Solver::new(model).count(None).solutions;
            assert_eq!(counted, expected as u64, "{relation:?} {rhs} half {half}");
        }
    }
}

#[test]
fn a_cloned_model_shares_the_variables_and_grows_on_its_own() {
    let (model, q) = queens(6, Strength::Value);
    let mut clone = model.clone();
    // The original's variables are the clone's: of 6 queens' 4 solutions, one has
    // its first queen in column 2 (2 4 6 1 3 5).
    let two = clone.int_var(2, 2).unwrap();
    clone.not_equal(q[0], two).unwrap();
    assert_eq!((model.var_count(), clone.var_count()), (6, 7));
    assert_eq!(model.constraint_count() + 1, clone.constraint_count());
    assert!(model.check_var(two).is_err());
    assert_eq!(Solver::new(model).count(None).solutions, 4);
    assert_eq!(Solver::new(clone).count(None).solutions, 3);
}
