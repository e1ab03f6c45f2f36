//! Splitting the top of the tree into subproblems that partition its solutions.

use super::add;
use crate::search::assumptions::Assumption;
use crate::search::{Branch, Goal, Solver, Statistics};

/// The decisions from the root to a node, as assumptions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Subproblem {
    pub(super) decisions: Vec<Assumption>,
}

/// The assumption that `var branch value` makes.
fn assumption(var: u32, branch: Branch, value: i32) -> Assumption {
    match branch {
        Branch::Equal => Assumption::Equal(var, value),
        Branch::NotEqual => Assumption::NotEqual(var, value),
        Branch::LessEqual => Assumption::AtMost(var, value),
        // A split's value is below the maximum: `value + 1` does not overflow.
        Branch::Greater => Assumption::AtLeast(var, value + 1),
    }
}

/// An open node of the splitting.
struct Open {
    subproblem: Subproblem,
    /// The branches from the root: `false` for a decision's first branch, `true`
    /// for its negation; they sort in search order.
    path: Vec<bool>,
    /// The size of its search space: the sum of log2 of the domain sizes.
    size: f64,
    /// The decision the solver makes there; `None` at a solution, and on an auxiliary
    /// variable (two subproblems would share their solutions).
    decision: Option<(u32, Branch, i32)>,
}

/// Splits the search of `solver` for `goal` into about `target` subproblems (or
/// fewer, if the tree is smaller), in left-to-right order, which partition its
/// solutions; with the statistics of the splitting (each node it propagated). The
/// solver keeps its own assumptions, the first ones of each subproblem's.
///
/// The open node with the largest search space (domain sizes multiplied) is
/// branched on first: splitting level by level would leave most of the work in the
/// chain of `x != v` branches, one subproblem holding half of the tree.
/// `O(target²)` comparisons, and `O(target)` propagations from the root.
pub(super) fn split(
    solver: &mut Solver,
    goal: Goal,
    target: usize,
) -> (Vec<Subproblem>, Statistics) {
    let base = solver.assumptions.len();
    let mut stats = Statistics::default();
    let mut open = |decisions: Vec<Assumption>, path: Vec<bool>, stats: &mut Statistics| {
        solver.assumptions.truncate(base);
        solver.assumptions.extend_from_slice(&decisions);
        solver.fresh(goal);
        let consistent = solver.start_search(&mut (), None);
        add(stats, &solver.stats, 0);
        consistent.then(|| Open {
            subproblem: Subproblem { decisions },
            path,
            size: (0..solver.store.var_count() as u32)
                .map(|v| f64::from(solver.store.size(v)).log2())
                .sum(),
            decision: (solver.brancher.decide(&solver.store))
                .filter(|chosen| !chosen.auxiliary)
                .map(|chosen| (chosen.var, chosen.branch, chosen.value)),
        })
    };
    let mut nodes: Vec<Open> = open(Vec::new(), Vec::new(), &mut stats)
        .into_iter()
        .collect();
    // Each expansion adds at most one subproblem; a tree with many failures at the
    // top may need more, but not many more.
    let mut budget = 4 * target.max(1);
    while nodes.len() < target && budget > 0 {
        let largest = (nodes.iter().enumerate())
            .filter(|(_, node)| node.decision.is_some())
            .max_by(|(_, a), (_, b)| a.size.total_cmp(&b.size))
            .map(|(i, _)| i);
        let Some(largest) = largest else {
            break;
        };
        let node = nodes.swap_remove(largest);
        let (var, branch, value) = node.decision.expect("chosen for its decision");
        for (second, branch) in [(false, branch), (true, branch.negated())] {
            let mut decisions = node.subproblem.decisions.clone();
            decisions.push(assumption(var, branch, value));
            let mut path = node.path.clone();
            path.push(second);
            stats.nodes += 1;
            nodes.extend(open(decisions, path, &mut stats));
        }
        budget -= 1;
    }
    solver.assumptions.truncate(base);
    nodes.sort_by(|a, b| a.path.cmp(&b.path));
    stats.peak_depth = (nodes.iter())
        .map(|node| node.path.len() as u32)
        .max()
        .unwrap_or(0);
    let subproblems = nodes.into_iter().map(|node| node.subproblem).collect();
    (subproblems, stats)
}
