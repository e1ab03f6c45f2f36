//! Limits on a search, and the reasons a search stops early.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::ids::ConstraintId;

/// The time now, where the platform has a clock: `None` on
/// `wasm32-unknown-unknown` (a browser), where `Instant::now` panics. There, solve
/// times stay zero and a time limit never stops a search: a page that needs one
/// cancels through [`Limits::cancel`]'s flag or bounds the nodes instead.
pub(crate) fn clock_now() -> Option<Instant> {
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    return None;
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    Some(Instant::now())
}

/// When to give up. All limits are off by default; each applies to one search (one
/// call of `solve`, `count`, one `solutions` iterator, or one optimisation, from its
/// first improving solution to the proof), restarts included.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop after this many search nodes.
    pub nodes: Option<u64>,
    /// Stop after this many failed nodes.
    pub failures: Option<u64>,
    /// Stop after this much wall time. Ignored on `wasm32-unknown-unknown` (a
    /// browser), which has no clock the library can read: cancel there instead.
    pub time: Option<Duration>,
    /// Stop once another thread sets this flag.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// No limits.
    pub fn none() -> Limits {
        Limits::default()
    }

    /// Adds a node limit.
    pub fn with_nodes(mut self, nodes: u64) -> Limits {
        self.nodes = Some(nodes);
        self
    }

    /// Adds a failure limit.
    pub fn with_failures(mut self, failures: u64) -> Limits {
        self.failures = Some(failures);
        self
    }

    /// Adds a wall-time limit.
    pub fn with_time(mut self, time: Duration) -> Limits {
        self.time = Some(time);
        self
    }

    /// Adds a cancellation flag: setting it to `true` from any thread stops the search.
    pub fn with_cancel(mut self, cancel: Arc<AtomicBool>) -> Limits {
        self.cancel = Some(cancel);
        self
    }

    /// Which limit, if any, is exceeded now; `started` is when the search started, if
    /// the clock was read then (it is, when a time limit is set).
    pub(crate) fn exceeded(
        &self,
        nodes: u64,
        failures: u64,
        started: Option<Instant>,
    ) -> Option<StopReason> {
        if self.nodes.is_some_and(|limit| nodes >= limit) {
            return Some(StopReason::NodeLimit);
        }
        if self.failures.is_some_and(|limit| failures >= limit) {
            return Some(StopReason::FailureLimit);
        }
        if self
            .cancel
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
        {
            return Some(StopReason::Cancelled);
        }
        if (self.time.zip(started)).is_some_and(|(limit, started)| started.elapsed() >= limit) {
            return Some(StopReason::TimeLimit);
        }
        None
    }
}

/// Why a search stopped before it finished: a limit, or a solution that failed its
/// check ([`Solver::check_solutions`](crate::Solver::check_solutions)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum StopReason {
    /// The node limit was reached.
    NodeLimit,
    /// The failure limit was reached.
    FailureLimit,
    /// The time limit passed.
    TimeLimit,
    /// The cancellation flag was set.
    Cancelled,
    /// A solution the search reached violates a constraint: a propagator let a wrong
    /// assignment through, an internal error. The solution is not reported; the
    /// search stays stopped. Only with [`Solver::check_solutions`](crate::Solver::check_solutions).
    WrongSolution {
        /// The first constraint it violates, in posting order.
        constraint: ConstraintId,
        /// That constraint's kind ([`Propagator::name`](crate::Propagator::name)).
        name: &'static str,
    },
}

/// A stop is an error to a caller that wanted every solution: the last item of
/// [`Solutions`](crate::Solutions) is `Err(reason)`, which `?` passes on.
impl std::error::Error for StopReason {}

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StopReason::NodeLimit => f.write_str("node limit reached"),
            StopReason::FailureLimit => f.write_str("failure limit reached"),
            StopReason::TimeLimit => f.write_str("time limit reached"),
            StopReason::Cancelled => f.write_str("cancelled"),
            StopReason::WrongSolution { constraint, name } => write!(
                f,
                "a solution violates constraint #{} ({name})",
                constraint.index()
            ),
        }
    }
}
