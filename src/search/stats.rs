//! Search statistics, named like MiniZinc's standard statistics.

use std::fmt;
use std::time::Duration;

/// Counters of one search, restarts included. Serialised (and displayed) with
/// MiniZinc's names: `nodes`, `failures`, `propagations`, `peakDepth`, `solutions`,
/// `solveTime` (seconds), and, only when the search restarted or optimised,
/// `restarts` and `objective`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", default))]
pub struct Statistics {
    /// Search nodes: every branch taken (both `x = v` and `x != v`).
    pub nodes: u64,
    /// Nodes whose propagation failed (the root included).
    pub failures: u64,
    /// Propagator runs.
    pub propagations: u64,
    /// The deepest the decision stack went: the choices open at once (a trace
    /// summary's `decision_depth`). A refutation (`x != v`, taken when `x = v` is
    /// undone) opens no choice, so the search tree, where it is a node one level
    /// down, can be deeper (a trace summary's `tree_depth`).
    pub peak_depth: u32,
    /// Solutions found. When optimising, each is better than the one before: this is
    /// the number of improving solutions.
    pub solutions: u64,
    /// Restarts (see [`crate::Restarts`]).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_zero"))]
    pub restarts: u64,
    /// When optimising, the objective value of the best solution found so far.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub objective: Option<i64>,
    /// Wall time spent searching.
    #[cfg_attr(
        feature = "serde",
        serde(serialize_with = "seconds", deserialize_with = "from_seconds")
    )]
    pub solve_time: Duration,
}

impl Statistics {
    /// Adds the work of `other`, a search `depth` decisions below this one's root:
    /// its nodes, failures, propagations and restarts, and its depth if deeper (not
    /// its solutions, objective or time, which depend on how the searches relate):
    /// for a caller that splits one search into several, such as a parallel search
    /// or a Sudoku solver that escalates to stronger propagation.
    ///
    /// ```
    /// use alldiff::Statistics;
    /// let mut total = Statistics { nodes: 10, peak_depth: 3, ..Statistics::default() };
    /// let below = Statistics { nodes: 5, peak_depth: 4, solutions: 1, ..Statistics::default() };
    /// total.add_work(&below, 2);
    /// assert_eq!((total.nodes, total.peak_depth, total.solutions), (15, 6, 0));
    /// ```
    pub fn add_work(&mut self, other: &Statistics, depth: u32) {
        self.nodes += other.nodes;
        self.failures += other.failures;
        self.propagations += other.propagations;
        self.restarts += other.restarts;
        self.peak_depth = self.peak_depth.max(other.peak_depth + depth);
    }
}

#[cfg(feature = "serde")]
fn is_zero(count: &u64) -> bool {
    *count == 0
}

#[cfg(feature = "serde")]
fn seconds<S: serde::Serializer>(time: &Duration, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_f64(time.as_secs_f64())
}

#[cfg(feature = "serde")]
fn from_seconds<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Duration, D::Error> {
    let seconds = <f64 as serde::Deserialize>::deserialize(deserializer)?;
    Duration::try_from_secs_f64(seconds).map_err(serde::de::Error::custom)
}

impl fmt::Display for Statistics {
    /// One `%%%mzn-stat: name=value` line per counter, as MiniZinc prints them
    /// (`restarts` and `objective` only when there are some).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "%%%mzn-stat: nodes={}", self.nodes)?;
        writeln!(f, "%%%mzn-stat: failures={}", self.failures)?;
        writeln!(f, "%%%mzn-stat: propagations={}", self.propagations)?;
        writeln!(f, "%%%mzn-stat: peakDepth={}", self.peak_depth)?;
        writeln!(f, "%%%mzn-stat: solutions={}", self.solutions)?;
        if self.restarts > 0 {
            writeln!(f, "%%%mzn-stat: restarts={}", self.restarts)?;
        }
        if let Some(objective) = self.objective {
            writeln!(f, "%%%mzn-stat: objective={objective}")?;
        }
        writeln!(
            f,
            "%%%mzn-stat: solveTime={:.6}",
            self.solve_time.as_secs_f64()
        )?;
        write!(f, "%%%mzn-stat-end")
    }
}
