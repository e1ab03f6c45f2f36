//! Recorded search traces: write them while solving, read them back afterwards.
//!
//! A trace is a JSON Lines file (format described in `docs/trace-format.md`): one
//! header record describing the problem, then one record per event of the search
//! (nodes, prunings, failures) in the order they happened, then the solver's final
//! [`Statistics`](crate::Statistics). Node ids and parent ids rebuild the search tree
//! exactly; the prunings and decisions on a node's path rebuild its domains.
//!
//! Writing: [`TraceRecorder`] is a [`SearchObserver`](crate::SearchObserver) that
//! writes to any [`std::io::Write`]; [`solve_traced`] and [`count_traced`] set it up
//! around a search. Reading: [`Trace::parse`] checks the file and builds the tree;
//! [`Trace::summary`], [`Trace::to_dot`], [`Trace::replay`] and [`Trace::to_html`]
//! (an interactive page) look at it.
//!
//! ```
//! use alldiff::{Model, Solver};
//! use alldiff::trace::{self, Trace};
//!
//! let mut model = Model::new();
//! let q = model.int_vars(5, 1, 5)?;
//! model.all_different(q.iter().copied())?;
//! model.all_different(q.iter().enumerate().map(|(i, &x)| x + i as i32))?;
//! model.all_different(q.iter().enumerate().map(|(i, &x)| x - i as i32))?;
//! let mut solver = Solver::new(model);
//!
//! let mut file = Vec::new();
//! let (outcome, written) = trace::solve_traced(&mut solver, "5-queens", &mut file, None)?;
//! assert!(!written.truncated());
//!
//! let trace = Trace::parse(&file[..])?;
//! let summary = trace.summary();
//! assert_eq!(summary.nodes, solver.statistics().nodes);
//! assert_eq!(summary.solutions, 1);
//! let solution = trace.solution_nodes()[0];
//! let domains = trace.replay(solution)?;
//! assert!(domains.iter().all(|d| d.len() == 1));
//! # let _ = outcome;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod dot;
mod format;
mod read;
mod record;
mod summary;
mod view;

pub use dot::DotOptions;
pub use format::{
    ConstraintInfo, FORMAT_NAME, FORMAT_VERSION, FailureRecord, Header, NodeRecord, NodeStatus,
    PruneRecord, Record, TruncatedRecord, VariableInfo,
};
pub use read::{Incomplete, Node, Trace, TraceError};
pub use record::{TraceRecorder, Written, count_traced, solve_traced};
pub use summary::{ConstraintCount, Phases, Summary};
pub use view::ViewOptions;

/// Runs the examples of `docs/tracing.md` as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../docs/tracing.md")]
struct TracingGuide;
