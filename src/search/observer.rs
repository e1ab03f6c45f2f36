//! Watching a search as it runs.
//!
//! The search loop is generic over a [`SearchObserver`]; every hook has an empty
//! default, so the `()` observer used by plain `solve` compiles to nothing.

use crate::ids::{ConstraintId, VarId};
use crate::propagator::Pruning;

/// The ways a binary choice branches. A choice is `=` then `!=` (the value choices
/// that pick one value), or `<=` then `>` (domain splitting, [`ValueOrder::Split`]),
/// or `>` then `<=` ([`ValueOrder::ReverseSplit`]).
///
/// [`ValueOrder::Split`]: crate::ValueOrder::Split
/// [`ValueOrder::ReverseSplit`]: crate::ValueOrder::ReverseSplit
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum Branch {
    /// `var = value`, the first alternative.
    #[cfg_attr(feature = "serde", serde(rename = "="))]
    Equal,
    /// `var != value`, taken after the first failed or was exhausted.
    #[cfg_attr(feature = "serde", serde(rename = "!="))]
    NotEqual,
    /// `var <= value`: the values above `value` are removed.
    #[cfg_attr(feature = "serde", serde(rename = "<="))]
    LessEqual,
    /// `var > value`: the values up to `value` are removed.
    #[cfg_attr(feature = "serde", serde(rename = ">"))]
    Greater,
}

impl Branch {
    /// `=`, `!=`, `<=` or `>`.
    pub fn symbol(self) -> &'static str {
        match self {
            Branch::Equal => "=",
            Branch::NotEqual => "!=",
            Branch::LessEqual => "<=",
            Branch::Greater => ">",
        }
    }

    /// The other branch of the same choice: `=` and `!=`, `<=` and `>`.
    pub fn negated(self) -> Branch {
        match self {
            Branch::Equal => Branch::NotEqual,
            Branch::NotEqual => Branch::Equal,
            Branch::LessEqual => Branch::Greater,
            Branch::Greater => Branch::LessEqual,
        }
    }

    /// Whether `candidate` satisfies `var op value`.
    pub fn admits(self, value: i32, candidate: i32) -> bool {
        match self {
            Branch::Equal => candidate == value,
            Branch::NotEqual => candidate != value,
            Branch::LessEqual => candidate <= value,
            Branch::Greater => candidate > value,
        }
    }
}

/// A search node created by a decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    /// This node's id; the root is 0 and ids grow in creation order.
    pub node: u64,
    /// The parent node's id.
    pub parent: u64,
    /// The number of decisions from the root to this node, second branches included
    /// (so it can exceed the decision-stack depth counted by `peakDepth`).
    pub depth: u32,
    /// The variable branched on.
    pub var: VarId,
    /// `=`, `!=`, `<=` or `>`.
    pub branch: Branch,
    /// The value.
    pub value: i32,
}

/// Hooks called by the search; implement the ones you need.
pub trait SearchObserver {
    /// A node was created by a decision (before its propagation).
    fn on_decision(&mut self, _decision: &Decision) {}
    /// Propagation at `node` failed; `constraint` is the one that found it, or `None`
    /// when the decision itself emptied a domain.
    fn on_failure(&mut self, _node: u64, _constraint: Option<ConstraintId>) {}
    /// `node` is a solution.
    fn on_solution(&mut self, _node: u64) {}
    /// Propagation at `node` removed these values, in the order removed. Called once
    /// per propagation that removed something (before [`SearchObserver::on_failure`]
    /// if it then failed), and only while the solver records prunings
    /// ([`crate::Solver::record_prunings`]).
    fn on_prunings(&mut self, _node: u64, _prunings: &[Pruning]) {}
    /// The search undid its latest choice and is back at `node` (the choice's parent),
    /// `depth` decisions from the root, about to take the other branch; or, on a
    /// restart, back at the highest node with a branch left, to branch there anew.
    fn on_backtrack(&mut self, _node: u64, _depth: u32) {}
}

impl SearchObserver for () {}
