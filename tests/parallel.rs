//! Parallel search ([`ParallelSolver`]) against one thread and brute force: on small
//! random models (all different, linear, not equal over views; every variable and
//! value order, domain splitting included, with or without a phase and restarts; few
//! or many subproblems), 1, 2 and 3
//! threads count exactly the solutions one [`Solver`] counts and brute force finds,
//! prove the same optimum, and find a solution exactly when there is one, a real one.
//! Limits, a count limit and cancellation stop a parallel run. The domains lie near
//! zero or at the edges (`common::edges`), and each case posts its all-different
//! constraints at one strength or as a system (`common::postings`).

mod common;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use alldiff::{
    CountStatus, Limits, Model, Objective, OptimizeOutcome, Outcome, ParallelSolver, Phase,
    Relation, Restarts, SearchConfig, Solver, StopReason, Strength, ValueOrder, VarId,
    VariableOrder,
};
use common::edges::{small_or_edge_domains, view_fits};
use common::postings::{Posting, build_with_groups, posting};
use proptest::prelude::*;

/// A constraint over (variable index, offset) views.
#[derive(Clone, Debug)]
enum Spec {
    AllDifferent(Vec<(usize, i32)>),
    NotEqual((usize, i32), (usize, i32)),
    /// `Σ coef * x <= rhs`.
    AtMost(Vec<(i32, usize)>, i32),
}

impl Spec {
    /// An all-different's views.
    fn group(&self) -> Option<Vec<(usize, i32)>> {
        match self {
            Spec::AllDifferent(views) => Some(views.clone()),
            _ => None,
        }
    }

    /// Whether the values satisfy it, in `i64`.
    fn holds(&self, values: &[i32]) -> bool {
        let at = |(var, offset): (usize, i32)| i64::from(values[var]) + i64::from(offset);
        match self {
            Spec::AllDifferent(views) => {
                (0..views.len()).all(|i| views[i + 1..].iter().all(|&b| at(views[i]) != at(b)))
            }
            Spec::NotEqual(a, b) => at(*a) != at(*b),
            Spec::AtMost(terms, rhs) => {
                let sum = terms.iter().map(|&(c, x)| at((x, 0)) * i64::from(c));
                sum.sum::<i64>() <= i64::from(*rhs)
            }
        }
    }

    /// Whether the model accepts its views: their values fit `i32`.
    fn fits(&self, domains: &[Vec<i32>]) -> bool {
        let views = match self {
            Spec::AllDifferent(views) => views.clone(),
            Spec::NotEqual(a, b) => vec![*a, *b],
            Spec::AtMost(..) => Vec::new(),
        };
        views
            .iter()
            .all(|&(x, offset)| view_fits(&domains[x], offset))
    }

    /// Posts it, but an all-different (see [`build`]).
    fn post(&self, model: &mut Model, vars: &[VarId]) {
        let v = |(var, offset): (usize, i32)| vars[var] + offset;
        match self {
            Spec::AllDifferent(_) => return,
            Spec::NotEqual(a, b) => model.not_equal(v(*a), v(*b)),
            Spec::AtMost(terms, rhs) => model.linear(
                terms.iter().map(|&(c, x)| (c, vars[x])),
                Relation::LessEq,
                *rhs,
            ),
        }
        .unwrap();
    }
}

#[derive(Clone, Debug)]
struct Problem {
    domains: Vec<Vec<i32>>,
    specs: Vec<Spec>,
    /// The objective: this variable, minimised or maximised.
    goal: usize,
    maximize: bool,
    /// How the all-different constraints are posted.
    posting: Posting,
}

/// Domains near zero or at the edges; the constraints whose views would reach past
/// `i32` are left out (engine_properties checks that the model refuses them).
fn problem() -> impl Strategy<Value = Problem> {
    (2usize..=6).prop_flat_map(|vars| {
        let view = (0..vars, -1..=1i32);
        let spec = prop_oneof![
            prop::collection::vec(view.clone(), 2..=vars).prop_map(Spec::AllDifferent),
            (view.clone(), view).prop_map(|(a, b)| Spec::NotEqual(a, b)),
            (
                prop::collection::vec((-2..=2i32, 0..vars), 1..=3),
                -3..=5i32
            )
                .prop_map(|(terms, rhs)| Spec::AtMost(terms, rhs)),
        ];
        (
            small_or_edge_domains(vars, 4),
            prop::collection::vec(spec, 0..=4),
            0..vars,
            any::<bool>(),
            posting(),
        )
            .prop_map(|(domains, specs, goal, maximize, posting)| Problem {
                specs: specs.into_iter().filter(|s| s.fits(&domains)).collect(),
                domains,
                goal,
                maximize,
                posting,
            })
    })
}

/// Every variable order with every value order, domain splitting included.
fn configs() -> Vec<SearchConfig> {
    let mut configs = common::all_configs();
    for value_order in [
        ValueOrder::Split,
        ValueOrder::ReverseSplit,
        ValueOrder::Middle,
    ] {
        configs.push(SearchConfig::new().value_order(value_order));
    }
    configs.push(
        SearchConfig::new()
            .variable_order(VariableOrder::DomOverWeightedDegree)
            .value_order(ValueOrder::Split),
    );
    configs
}

/// How the solver searches: its orders, optionally a first phase over the
/// variables in reverse, largest values first, and optionally Luby restarts.
#[derive(Clone, Debug)]
struct Search {
    config: SearchConfig,
    phase: bool,
    restarts: bool,
}

/// A solver for the problem, searching as `search` says.
fn build(problem: &Problem, search: &Search) -> Solver {
    let groups: Vec<_> = problem.specs.iter().filter_map(Spec::group).collect();
    let (model, vars) =
        build_with_groups(&problem.domains, &groups, problem.posting, |model, vars| {
            problem.specs.iter().for_each(|spec| spec.post(model, vars));
        })
        .expect("the all-different constraints posted as they must be");
    let mut solver = Solver::with_config(model, search.config.clone());
    if search.phase {
        let phase = Phase::new(vars.iter().rev().copied())
            .variable_order(VariableOrder::InputOrder)
            .value_order(ValueOrder::Descending);
        solver.set_phases([phase]).unwrap();
    }
    solver.set_restarts(search.restarts.then(|| Restarts::luby(1)));
    solver
}

fn objective(problem: &Problem, solver: &Solver) -> Objective {
    let var = solver.model().vars().nth(problem.goal).unwrap();
    match problem.maximize {
        true => Objective::Maximize(var.into()),
        false => Objective::Minimize(var.into()),
    }
}

/// The objective value of an optimal outcome, `None` if unsatisfiable.
fn optimum(outcome: OptimizeOutcome) -> Option<i64> {
    match outcome {
        OptimizeOutcome::Optimal(best) => Some(best.objective),
        OptimizeOutcome::Unsatisfiable => None,
        OptimizeOutcome::Stopped { .. } => panic!("no limit was set"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(800))]

    /// 1, 2 and 3 threads count what one solver and brute force count, prove the same
    /// optimum, and solve exactly the satisfiable problems, with a real solution.
    #[test]
    fn parallel_search_answers_as_one_thread(
        problem in problem(),
        config in 0usize..13,
        phase in any::<bool>(),
        restarts in any::<bool>(),
        per_thread in 1usize..=12,
    ) {
        let config = Search { config: configs()[config].clone(), phase, restarts };
        let solutions = common::brute_force(&problem.domains, &|values| {
            problem.specs.iter().all(|s| s.holds(values))
        });
        let mut single = build(&problem, &config);
        let count = single.count(None).solutions;
        prop_assert_eq!(count, solutions.len() as u64);
        let objective = objective(&problem, &single);
        let best = optimum(single.optimize(objective).unwrap().finish());
        let values = solutions.iter().map(|s| i64::from(s[problem.goal]));
        let brute = if problem.maximize { values.max() } else { values.min() };
        prop_assert_eq!(best, brute);
        for threads in 1..=3 {
            let mut parallel = ParallelSolver::new(threads, || build(&problem, &config));
            parallel.set_subproblems_per_thread(per_thread);
            let counted = parallel.count(None);
            prop_assert_eq!(counted.solutions, count, "{} threads", threads);
            prop_assert_eq!(counted.status, CountStatus::Complete);
            prop_assert!(parallel.statistics().solutions >= count);
            prop_assert_eq!(optimum(parallel.optimize(objective).unwrap()), best);
            match parallel.solve() {
                Outcome::Solved(s) => {
                    prop_assert!(solutions.contains(s.values()));
                    prop_assert_eq!(parallel.statistics().solutions, 1);
                }
                Outcome::Unsatisfiable => {
                    prop_assert!(solutions.is_empty());
                    prop_assert_eq!(parallel.statistics().solutions, 0);
                }
                Outcome::Stopped(reason) => prop_assert!(false, "stopped: {reason}"),
            }
            if count > 1 {
                let limited = parallel.count(Some(count - 1));
                prop_assert_eq!(limited.solutions, count - 1);
                prop_assert_eq!(limited.status, CountStatus::LimitReached);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// With some variables auxiliary, 1, 2 and 3 threads count what one solver counts:
    /// the brute-force solutions seen on the other variables (the split never
    /// divides the completions of one solution between subproblems).
    #[test]
    fn auxiliary_variables_count_alike_on_every_thread_count(
        problem in problem(),
        config in 0usize..13,
        auxiliary in prop::collection::vec(any::<bool>(), 6),
        per_thread in 1usize..=12,
    ) {
        let config = Search { config: configs()[config].clone(), phase: false, restarts: false };
        let build = || {
            let mut solver = build(&problem, &config);
            let vars: Vec<VarId> = solver.model().vars().collect();
            let aux = vars.iter().zip(&auxiliary).filter(|&(_, &a)| a).map(|(&v, _)| v);
            solver.set_auxiliary(aux).unwrap();
            solver
        };
        let solutions = common::brute_force(&problem.domains, &|values| {
            problem.specs.iter().all(|s| s.holds(values))
        });
        let projected: std::collections::BTreeSet<Vec<i32>> = (solutions.iter())
            .map(|s| s.iter().zip(&auxiliary).filter(|&(_, &a)| !a).map(|(&v, _)| v).collect())
            .collect();
        prop_assert_eq!(build().count(None).solutions, projected.len() as u64);
        for threads in 1..=3 {
            let mut parallel = ParallelSolver::new(threads, build);
            parallel.set_subproblems_per_thread(per_thread);
            prop_assert_eq!(parallel.count(None).solutions, projected.len() as u64, "{} threads", threads);
        }
    }
}

/// n queens by value, default search.
fn queens(n: usize) -> Solver {
    Solver::new(common::queens(n, Strength::Value).0)
}

#[test]
fn queens_counts_agree() {
    for threads in [1, 2, 3, 4] {
        let mut parallel = ParallelSolver::new(threads, || queens(8));
        assert_eq!(parallel.count(None).solutions, 92, "{threads} threads");
        let stats = parallel.statistics();
        assert_eq!(stats.solutions, 92);
        assert!(stats.nodes > 0 && stats.propagations > 0 && stats.peak_depth > 0);
    }
    // One thread is the sequential search itself, statistics included.
    let mut single = queens(8);
    single.count(None);
    let mut parallel = ParallelSolver::new(1, || queens(8));
    parallel.count(None);
    let (a, b) = (single.statistics(), parallel.statistics());
    assert_eq!(
        (a.nodes, a.failures, a.propagations),
        (b.nodes, b.failures, b.propagations)
    );
}

#[test]
fn a_model_given_directly_is_cloned_for_each_thread() {
    let (model, _) = common::queens(8, Strength::Value);
    for threads in [1, 2, 3] {
        let mut parallel = ParallelSolver::new(threads, model.clone());
        assert_eq!(parallel.count(None).solutions, 92, "{threads} threads");
        assert!(matches!(parallel.solve(), Outcome::Solved(_)));
    }
    // The model given is still whole, and searched by one solver counts alike.
    assert_eq!(Solver::new(model).count(None).solutions, 92);
}

#[test]
fn a_thread_count_past_the_cap_is_cut_down_to_it() {
    let (model, _) = common::queens(6, Strength::Value);
    let max = ParallelSolver::<alldiff::Model>::max_threads();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    assert_eq!(max, 4 * cores);
    for (asked, runs) in [(0, cores), (max, max), (max + 1, max), (usize::MAX, max)] {
        let mut parallel = ParallelSolver::new(asked, model.clone());
        assert_eq!(parallel.threads(), runs, "{asked} asked");
        assert_eq!(parallel.count(None).solutions, 4, "{asked} asked");
    }
}

#[test]
fn limits_stop_a_parallel_run() {
    let mut parallel = ParallelSolver::new(2, || queens(10));
    parallel.set_limits(Limits::none().with_nodes(300));
    let count = parallel.count(None);
    assert_eq!(count.status, CountStatus::Stopped(StopReason::NodeLimit));
    assert!(count.solutions < 724);
    // Checked every 32 nodes per thread, the splitting's nodes included.
    assert!(
        parallel.statistics().nodes < 300 + 4 * 32,
        "{:?}",
        parallel.statistics()
    );

    parallel.set_limits(Limits::none().with_failures(50));
    let count = parallel.count(None);
    assert_eq!(count.status, CountStatus::Stopped(StopReason::FailureLimit));

    let cancel = Arc::new(AtomicBool::new(true));
    parallel.set_limits(Limits::none().with_cancel(cancel));
    assert_eq!(parallel.solve(), Outcome::Stopped(StopReason::Cancelled));
    let q0 = queens(10).model().vars().next().unwrap();
    match parallel.minimize(q0).unwrap() {
        OptimizeOutcome::Stopped { reason, .. } => assert_eq!(reason, StopReason::Cancelled),
        other => panic!("not stopped: {other:?}"),
    }

    parallel.set_limits(Limits::none().with_time(Duration::ZERO));
    let count = parallel.count(None);
    assert_eq!(count.status, CountStatus::Stopped(StopReason::TimeLimit));

    // A count limit stops every thread at exactly that count.
    parallel.set_limits(Limits::none());
    let count = parallel.count(Some(5));
    assert_eq!(
        (count.solutions, count.status),
        (5, CountStatus::LimitReached)
    );
}

#[test]
fn a_stopped_optimisation_keeps_its_best() {
    let mut parallel = ParallelSolver::new(2, || queens(10));
    // Maximise the first queen's column plus the last's: a search with many
    // improvements; a small node limit stops it with the best so far.
    let q = queens(10).model().vars().next().unwrap();
    parallel.set_limits(Limits::none().with_nodes(40));
    match parallel.maximize(q).unwrap() {
        OptimizeOutcome::Stopped { reason, best } => {
            assert_eq!(reason, StopReason::NodeLimit);
            if let Some(best) = best {
                assert_eq!(parallel.statistics().objective, Some(best.objective));
            }
        }
        OptimizeOutcome::Optimal(best) => assert_eq!(best.objective, 10),
        OptimizeOutcome::Unsatisfiable => panic!("10 queens have solutions"),
    }
    parallel.set_limits(Limits::none());
    let OptimizeOutcome::Optimal(best) = parallel.maximize(q).unwrap() else {
        panic!("10 queens have solutions")
    };
    assert_eq!(best.objective, 10);
}

#[test]
fn a_foreign_objective_is_an_error() {
    let mut parallel = ParallelSolver::new(2, || queens(4));
    let mut other = Model::new();
    let far = other.int_vars(9, 0, 1).unwrap()[8];
    assert!(parallel.minimize(far).is_err());
}
