//! The records of a trace file, one JSON object per line, told apart by `"type"`.

use serde::{Deserialize, Serialize};

use crate::search::{Branch, Statistics};

/// The value of the header's `format` field.
pub const FORMAT_NAME: &str = "alldiff-trace";

/// The format version this crate writes and reads.
pub const FORMAT_VERSION: u32 = 1;

/// One line of a trace.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Record {
    /// The first line: what was solved.
    Header(Header),
    /// A search node, with how its propagation ended.
    Node(NodeRecord),
    /// Values one constraint removed from one variable at one node.
    Prune(PruneRecord),
    /// A node's propagation failed.
    Failure(FailureRecord),
    /// The event cap was reached: later events were not written.
    Truncated(TruncatedRecord),
    /// The last line: the solver's statistics for the search.
    Statistics(Statistics),
}

/// The problem: its variables and constraints.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// Always [`FORMAT_NAME`].
    pub format: String,
    /// The format version, [`FORMAT_VERSION`] when written by this crate.
    pub version: u32,
    /// The problem's name, as the caller gave it.
    pub problem: String,
    /// Every variable, indexed by variable number.
    pub variables: Vec<VariableInfo>,
    /// Every constraint, indexed by constraint number.
    pub constraints: Vec<ConstraintInfo>,
}

/// A variable of the traced problem.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VariableInfo {
    /// Its name (the model's name for it, or `#index`).
    pub name: String,
    /// The values it starts the search with (the model's domain with the solver's
    /// assumptions applied), ascending.
    pub domain: Vec<i32>,
}

/// A constraint of the traced problem.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConstraintInfo {
    /// Its kind (`all_different`, `not_equal`, ...).
    pub kind: String,
}

/// How a node's propagation ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeStatus {
    /// Propagation reached a fixpoint with unfixed variables: the search branches
    /// here (unless a limit stopped it first).
    Branch,
    /// Propagation failed.
    Failed,
    /// Every variable is fixed: a solution.
    Solution,
}

/// A search node. The root has id 0 and no decision; every other node was made by
/// one decision `var op value` from its parent. Ids count up by one in creation order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeRecord {
    /// The node's id.
    pub id: u64,
    /// The parent's id; absent for the root.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<u64>,
    /// Decisions from the root.
    pub depth: u32,
    /// The variable decided on (its index in the header); absent for the root.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub var: Option<u32>,
    /// `=`, `!=`, `<=` or `>`; absent for the root.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub op: Option<Branch>,
    /// The value decided on; absent for the root.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<i32>,
    /// How its propagation ended.
    pub status: NodeStatus,
    /// Microseconds from the start of the recording to the end of this node's
    /// propagation; absent in traces written without timing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_us: Option<u64>,
}

/// Values removed by one constraint under one inference label from one variable
/// during a node's propagation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PruneRecord {
    /// The node whose propagation removed them.
    pub node: u64,
    /// The constraint that removed them (its index in the header).
    pub constraint: u32,
    /// The rule: the [`InferenceLabel`](crate::InferenceLabel)'s name, as the
    /// constraint labelled the removal (`value elimination`, `linear bounds`, ...).
    pub rule: String,
    /// The variable (its index in the header).
    pub var: u32,
    /// The values removed, in the order removed.
    pub values: Vec<i32>,
}

/// A failed propagation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailureRecord {
    /// The node that failed.
    pub node: u64,
    /// The constraint that found the failure; `null` when the decision (or an
    /// assumption, at the root) emptied a domain by itself.
    pub constraint: Option<u32>,
}

/// The trace was cut at its event cap.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TruncatedRecord {
    /// Events (node, prune and failure lines) written.
    pub written: u64,
    /// Events left out.
    pub dropped: u64,
}

impl Header {
    /// The side of the grid if the header describes a Sudoku model: 16, 81, 256 or
    /// 625 variables named `r1c1`, `r1c2`, ... row-major, over the digits `1..=side`.
    /// `alldiff trace replay` and the viewer then draw domains as a candidate grid.
    pub fn grid_side(&self) -> Option<usize> {
        let count = self.variables.len();
        let side = (2..=5usize).map(|b| b * b).find(|s| s * s == count)?;
        let digits = 1..=i32::try_from(side).ok()?;
        self.variables
            .iter()
            .enumerate()
            .all(|(i, v)| {
                v.name == format!("r{}c{}", i / side + 1, i % side + 1)
                    && v.domain.iter().all(|d| digits.contains(d))
            })
            .then_some(side)
    }
}
