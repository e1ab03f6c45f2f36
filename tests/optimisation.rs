//! Branch and bound, restarts and search phases through the public API: the outcomes,
//! the statistics, limits over the whole run, and split decisions in traces.

mod common;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

#[cfg(feature = "trace")]
use alldiff::trace::{self, Trace};
use alldiff::{
    Branch, Limits, Model, ModelError, Objective, OptimizeOutcome, Outcome, Phase, Relation,
    Restarts, SearchConfig, Solver, StopReason, Strength, ValueOrder, VarId, VariableOrder,
};
use common::queens;

/// N-queens with an objective: the sum of the first `k` queens' columns, defined
/// through a variable of its own.
fn queens_sum(n: usize, k: usize) -> (Model, Vec<VarId>, VarId) {
    let (mut model, q) = queens(n, Strength::Value);
    let total = model.int_var(0, (n * k) as i32).unwrap();
    let terms = q[..k].iter().map(|&x| (1, x)).chain([(-1, total)]);
    model.linear(terms, Relation::Equal, 0).unwrap();
    (model, q, total)
}

#[test]
fn minimize_reports_better_solutions_then_proves_the_optimum() {
    let (model, q, total) = queens_sum(8, 3);
    let mut solver = Solver::new(model);
    let mut optimization = solver.minimize(total).unwrap();
    assert_eq!(optimization.objective(), Objective::Minimize(total.into()));
    let objectives: Vec<i64> = optimization
        .by_ref()
        .map(|i| i.unwrap().objective)
        .collect();
    assert!(objectives.len() > 1, "{objectives:?}");
    assert!(objectives.windows(2).all(|w| w[0] > w[1]));
    let best = optimization.best().cloned().unwrap();
    let OptimizeOutcome::Optimal(optimal) = optimization.finish() else {
        panic!("no limit set");
    };
    assert_eq!(optimal, best);
    // Brute force: the smallest sum of the first three queens over all 92 solutions.
    let (model, ..) = queens_sum(8, 3);
    let smallest = Solver::new(model)
        .solutions()
        .map(Result::unwrap)
        .map(|s| q[..3].iter().map(|&x| i64::from(s[x])).sum::<i64>())
        .min();
    assert_eq!(Some(optimal.objective), smallest);
    let stats = solver.statistics();
    assert_eq!(stats.solutions, objectives.len() as u64);
    assert_eq!(stats.objective, Some(optimal.objective));
    let text = stats.to_string();
    assert!(text.contains(&format!("%%%mzn-stat: objective={}", optimal.objective)));
    assert!(!text.contains("restarts="));
}

#[test]
fn a_choice_point_the_new_bound_refutes_gets_no_node() {
    // b >= a + 1, minimise b, a then b smallest first: a = 0, b = 1 is the first
    // solution and the optimum. Back at each choice point, b <= 0 alone fails there:
    // neither `b != 1` nor `a != 0` is tried.
    let mut model = Model::new();
    let a = model.int_var(0, 3).unwrap();
    let b = model.int_var(0, 3).unwrap();
    model
        .linear([(1, a), (-1, b)], Relation::LessEq, -1)
        .unwrap();
    let mut solver = Solver::new(model);
    solver
        .set_phases([Phase::new([a, b]).variable_order(VariableOrder::InputOrder)])
        .unwrap();
    let optimization = solver.minimize(b).unwrap();
    let OptimizeOutcome::Optimal(optimal) = optimization.finish() else {
        panic!("no limit set");
    };
    assert_eq!((optimal.objective, optimal.solution[a]), (1, 0));
    let stats = solver.statistics();
    assert_eq!((stats.nodes, stats.failures, stats.solutions), (2, 0, 1));
}

#[test]
fn maximize_a_view_counts_its_offset() {
    let mut model = Model::new();
    let x = model.int_var(1, 5).unwrap();
    let y = model.int_var(1, 5).unwrap();
    model.linear([(1, x), (1, y)], Relation::LessEq, 7).unwrap();
    model.not_equal(x, y).unwrap();
    let mut solver = Solver::new(model);
    let OptimizeOutcome::Optimal(best) = solver.maximize(x + 10).unwrap().finish() else {
        panic!("satisfiable");
    };
    assert_eq!((best.objective, best.solution[x]), (15, 5));
    assert_eq!(best.solution[y], 1);
    // The same through `optimize`.
    let outcome = solver
        .optimize(Objective::Maximize(x.plus(10)))
        .unwrap()
        .finish();
    assert_eq!(outcome, OptimizeOutcome::Optimal(best));
}

#[test]
fn optimisation_errors_and_unsatisfiable_models() {
    let mut other = Model::new();
    let foreign = other.int_var(0, 1).unwrap();
    let mut model = Model::new();
    let x = model.int_var(0, 1).unwrap();
    let y = model.int_var(0, 1).unwrap();
    let z = model.int_var(0, 1).unwrap();
    model.all_different([x, y, z]).unwrap();
    let mut solver = Solver::new(model);
    assert!(matches!(
        solver.minimize(foreign),
        Err(ModelError::ForeignVariable { .. })
    ));
    assert!(matches!(
        solver.set_phases([Phase::new([foreign])]),
        Err(ModelError::ForeignVariable { .. })
    ));
    assert!(solver.phases().is_empty());
    assert_eq!(
        solver.minimize(x).unwrap().finish(),
        OptimizeOutcome::Unsatisfiable
    );
}

#[test]
fn limits_apply_to_the_whole_optimisation() {
    // A time limit already past: stopped before any solution.
    let (model, _, total) = queens_sum(10, 4);
    let mut solver = Solver::new(model);
    solver.set_limits(Limits::none().with_time(Duration::ZERO));
    assert_eq!(
        solver.minimize(total).unwrap().finish(),
        OptimizeOutcome::Stopped {
            best: None,
            reason: StopReason::TimeLimit
        }
    );
    // Cancelled after the first solution: that one is the best so far.
    let cancel = Arc::new(AtomicBool::new(false));
    solver.set_limits(Limits::none().with_cancel(cancel.clone()));
    let mut optimization = solver.minimize(total).unwrap();
    let first = optimization.next().unwrap().unwrap();
    cancel.store(true, std::sync::atomic::Ordering::Relaxed);
    // The iterator says so: one item with the reason, then nothing.
    assert_eq!(optimization.next(), Some(Err(StopReason::Cancelled)));
    assert_eq!(optimization.next(), None);
    let outcome = optimization.finish();
    assert_eq!(
        outcome,
        OptimizeOutcome::Stopped {
            best: Some(first),
            reason: StopReason::Cancelled
        }
    );
    // A node limit counts the nodes of every improvement's search together.
    let (model, _, total) = queens_sum(10, 4);
    let mut solver = Solver::new(model);
    let all = solver.minimize(total).unwrap().finish();
    let nodes = solver.statistics().nodes;
    solver.set_limits(Limits::none().with_nodes(nodes / 2));
    let OptimizeOutcome::Stopped { best, reason } = solver.minimize(total).unwrap().finish() else {
        panic!("half the nodes cannot prove the optimum");
    };
    assert_eq!(reason, StopReason::NodeLimit);
    let OptimizeOutcome::Optimal(optimal) = all else {
        panic!("no limit")
    };
    assert!(best.is_none_or(|b| b.objective >= optimal.objective));
}

#[test]
fn restarts_keep_the_optimum_and_add_up_the_statistics() {
    let (model, _, total) = queens_sum(10, 4);
    let mut solver = Solver::new(model);
    let OptimizeOutcome::Optimal(plain) = solver.minimize(total).unwrap().finish() else {
        panic!("no limit")
    };
    for config in [
        SearchConfig::new().variable_order(VariableOrder::DomOverWeightedDegree),
        SearchConfig::new().value_order(ValueOrder::Random(5)),
    ] {
        let (model, _, total) = queens_sum(10, 4);
        let mut solver = Solver::with_config(model, config.clone());
        solver.set_restarts(Some(Restarts::luby(2)));
        let mut optimization = solver.minimize(total).unwrap();
        let improvements = optimization.by_ref().map(Result::unwrap).count() as u64;
        let OptimizeOutcome::Optimal(best) = optimization.finish() else {
            panic!("no limit")
        };
        assert_eq!(best.objective, plain.objective);
        // The user's orders stay; the statistics count every attempt.
        assert_eq!(solver.config(), &config);
        let stats = solver.statistics();
        assert!(stats.restarts > 0, "{stats:?}");
        assert_eq!(stats.solutions, improvements);
        assert!(stats.to_string().contains("%%%mzn-stat: restarts="));
    }
}

#[test]
fn restarts_stop_at_the_first_solution_and_never_apply_to_enumeration() {
    let (model, _) = queens(8, Strength::Value);
    let mut solver = Solver::with_config(
        model,
        SearchConfig::new().value_order(ValueOrder::Random(1)),
    );
    solver.set_restarts(Some(Restarts::luby(1)));
    assert!(matches!(solver.solve(), Outcome::Solved(_)));
    assert_eq!(solver.count(None).solutions, 92);
    assert_eq!(solver.statistics().restarts, 0);
    assert_eq!(solver.solutions().map(Result::unwrap).count(), 92);
}

#[test]
#[cfg(feature = "trace")]
fn split_decisions_are_traced_and_replayed() {
    let (model, _) = queens(6, Strength::Value);
    let mut solver = Solver::with_config(
        model,
        SearchConfig::new().value_order(ValueOrder::ReverseSplit),
    );
    let mut file = Vec::new();
    let (count, _) = trace::count_traced(&mut solver, "6-queens", &mut file, None, None).unwrap();
    assert_eq!(count.solutions, 4);
    let text = String::from_utf8(file.clone()).unwrap();
    assert!(text.contains(r#""op":">""#) && text.contains(r#""op":"<=""#));
    let trace = Trace::parse(&file[..]).unwrap();
    // Every decision's variable keeps only the values its branch admits.
    for node in trace.nodes() {
        let Some((var, op, value)) = node.decision else {
            continue;
        };
        assert!(matches!(op, Branch::LessEqual | Branch::Greater));
        let domains = trace.replay(node.id).unwrap();
        assert!(domains[var as usize].iter().all(|&v| op.admits(value, v)));
    }
    for node in trace.solution_nodes() {
        assert!(trace.replay(node).unwrap().iter().all(|d| d.len() == 1));
    }
}

#[test]
fn phases_branch_on_their_variables_first() {
    let mut model = Model::new();
    let x = model.int_vars(3, 0, 3).unwrap();
    let y = model.int_vars(3, 0, 3).unwrap();
    model.all_different(x.iter().copied()).unwrap();
    let mut solver = Solver::new(model);
    // y first, largest values first, in the order given; then x by the default.
    let phase = Phase::new(y.iter().rev().copied())
        .variable_order(VariableOrder::InputOrder)
        .value_order(ValueOrder::Descending);
    solver.set_phases([phase.clone()]).unwrap();
    assert_eq!(solver.phases(), [phase]);
    let mut decided = Vec::new();
    struct Decisions<'a>(&'a mut Vec<(VarId, Branch, i32)>);
    impl alldiff::SearchObserver for Decisions<'_> {
        fn on_decision(&mut self, d: &alldiff::Decision) {
            self.0.push((d.var, d.branch, d.value));
        }
    }
    let Outcome::Solved(s) = solver.solve_observed(&mut Decisions(&mut decided)) else {
        panic!("satisfiable");
    };
    let first: Vec<VarId> = decided.iter().take(3).map(|d| d.0).collect();
    assert_eq!(first, [y[2], y[1], y[0]]);
    assert!(y.iter().all(|&v| s[v] == 3));
    assert_eq!(x.iter().map(|&v| s[v]).collect::<Vec<_>>(), [0, 1, 2]);
    // No phases: back to the default over every variable.
    solver.set_phases([]).unwrap();
    let Outcome::Solved(s) = solver.solve() else {
        panic!("satisfiable");
    };
    assert!(y.iter().all(|&v| s[v] == 0));
}

/// The first decision of a search over one variable with `values`.
fn first_decision(values: &[i32], order: ValueOrder) -> (Branch, i32) {
    struct First(Option<(Branch, i32)>);
    impl alldiff::SearchObserver for First {
        fn on_decision(&mut self, d: &alldiff::Decision) {
            self.0.get_or_insert((d.branch, d.value));
        }
    }
    let mut model = Model::new();
    model.var_from_values(values.iter().copied()).unwrap();
    let mut solver = Solver::with_config(model, SearchConfig::new().value_order(order));
    let mut first = First(None);
    let _ = solver.solve_observed(&mut first);
    first.0.unwrap()
}

#[test]
fn middle_and_split_value_orders_choose_around_the_middle() {
    // mid = (1 + 9) / 2 = 5: 7 is nearer than 2.
    assert_eq!(
        first_decision(&[1, 2, 7, 9], ValueOrder::Middle),
        (Branch::Equal, 7)
    );
    // As near: the smaller. Negative bounds round down.
    assert_eq!(
        first_decision(&[3, 7], ValueOrder::Middle),
        (Branch::Equal, 3)
    );
    assert_eq!(
        first_decision(&[-4, -1], ValueOrder::Split),
        (Branch::LessEqual, -3)
    );
    assert_eq!(
        first_decision(&[1, 2, 7, 9], ValueOrder::Split),
        (Branch::LessEqual, 5)
    );
    assert_eq!(
        first_decision(&[1, 2, 7, 9], ValueOrder::ReverseSplit),
        (Branch::Greater, 5)
    );
    // The extremes of `i32` do not overflow.
    assert_eq!(
        first_decision(&[i32::MAX - 1, i32::MAX], ValueOrder::ReverseSplit),
        (Branch::Greater, i32::MAX - 1)
    );
}
