//! The splitting partitions the tree; the threads agree with one.

use super::*;
use crate::Strength;

/// n queens, three all-different constraints.
fn queens(n: usize) -> Solver {
    let mut model = Model::new();
    let q = model.int_vars(n, 1, n as i32).unwrap();
    for sign in [0, 1, -1] {
        let views = q.iter().enumerate().map(|(i, &x)| x + sign * i as i32);
        model.all_different_with(views, Strength::Value).unwrap();
    }
    Solver::new(model)
}

/// The solutions of `solver` under the subproblem's decisions.
fn solutions_of(solver: &mut Solver, subproblem: &Subproblem) -> Vec<Solution> {
    solver.assumptions.clear();
    solver.assumptions.extend_from_slice(&subproblem.decisions);
    solver.fresh(Goal::All);
    let mut solutions = Vec::new();
    while solver.step(&mut ()) == Step::Solution {
        solutions.push(solver.current_solution());
    }
    solutions
}

#[test]
fn subproblems_partition_the_solutions() {
    let mut all: Vec<Solution> = queens(8).solutions().collect::<Result<_, _>>().unwrap();
    all.sort_by(|a, b| a.values().cmp(b.values()));
    assert_eq!(all.len(), 92);
    for target in [1, 2, 7, 60, 500] {
        let mut solver = queens(8);
        let (subproblems, stats) = split(&mut solver, Goal::All, target);
        assert!(
            subproblems.len() >= target.min(30),
            "{target}: {}",
            subproblems.len()
        );
        assert!(stats.propagations > 0);
        let mut found: Vec<Solution> = (subproblems.iter())
            .flat_map(|s| solutions_of(&mut solver, s))
            .collect();
        found.sort_by(|a, b| a.values().cmp(b.values()));
        // Each solution in exactly one subproblem.
        assert_eq!(found, all, "target {target}");
    }
}

#[test]
fn splits_with_domain_splitting_and_keeps_assumptions() {
    use crate::{SearchConfig, ValueOrder};
    let build = || {
        let mut solver = queens(6);
        solver.set_config(SearchConfig::new().value_order(ValueOrder::Split));
        let first = solver.model().vars().next().unwrap();
        solver.assume_not(first, 2).unwrap();
        solver
    };
    let expected = build().count(None).solutions;
    let mut solver = build();
    let (subproblems, _) = split(&mut solver, Goal::All, 40);
    assert_eq!(solver.assumptions.len(), 1);
    assert!(subproblems.iter().any(|s| {
        (s.decisions.iter()).any(|d| matches!(d, Assumption::AtMost(..) | Assumption::AtLeast(..)))
    }));
    let total: usize = (subproblems.iter())
        .map(|s| {
            let mut solver = build();
            solver.assumptions.extend_from_slice(&s.decisions);
            solver.fresh(Goal::All);
            let mut count = 0;
            while solver.step(&mut ()) == Step::Solution {
                count += 1;
            }
            count
        })
        .sum();
    assert_eq!(total as u64, expected);
}

#[test]
fn an_unsatisfiable_root_has_no_subproblems() {
    let mut solver = queens(3);
    let (subproblems, _) = split(&mut solver, Goal::All, 10);
    let mut count = 0;
    for s in &subproblems {
        count += solutions_of(&mut solver, s).len();
    }
    assert_eq!(count, 0);
}

/// The public split: each subproblem's decisions, assumed by a fresh solver, find
/// its share of the solutions, and the shares add up; bounds branches included.
#[test]
fn public_subproblems_partition_the_count() {
    use crate::{Branch, SearchConfig, SplitDecision, ValueOrder};
    for order in [ValueOrder::Ascending, ValueOrder::Split] {
        let config = SearchConfig::new().value_order(order);
        let mut solver = queens(7);
        solver.set_config(config.clone());
        let subproblems = solver.subproblems(10);
        assert!(subproblems.len() > 1);
        let mut total = 0;
        for decisions in &subproblems {
            // A solver of the same model (its variables are the model's own).
            let mut worker = Solver::with_config(solver.model().clone(), config.clone());
            worker.assume_decisions(decisions).unwrap();
            total += worker.count(None).solutions;
        }
        assert_eq!(total, 40);
        // The solver that split goes on as before.
        assert_eq!(solver.count(None).solutions, 40);
    }
    // Nothing is greater than `i32::MAX`.
    let mut model = Model::new();
    let x = model.int_var(i32::MAX - 1, i32::MAX).unwrap();
    let mut solver = Solver::new(model);
    let decision = SplitDecision {
        var: x,
        branch: Branch::Greater,
        value: i32::MAX,
    };
    solver.assume_decisions(&[decision]).unwrap();
    assert_eq!(solver.count(None).solutions, 0);
}
