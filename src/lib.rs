//! alldiff: a constraint-satisfaction engine with fast all-different propagation,
//! and a Sudoku toolkit built on it.
//!
//! Build a [`Model`] (variables with finite integer domains, constraints over them),
//! hand it to a [`Solver`], and ask for one solution, every solution, or a count.
//!
//! ```
//! use alldiff::{Model, Outcome, Solver, Strength};
//!
//! // Four queens on a 4x4 board: one per column, q[i] is the row of column i.
//! let mut model = Model::new();
//! let q = model.int_vars(4, 1, 4)?;
//! model.all_different(q.iter().copied())?; // different rows
//! model.all_different(q.iter().enumerate().map(|(i, &x)| x + i as i32))?; // diagonals
//! model.all_different_with(q.iter().enumerate().map(|(i, &x)| x - i as i32), Strength::Domain)?;
//!
//! let mut solver = Solver::new(model);
//! let Outcome::Solved(solution) = solver.solve() else { panic!("4-queens has solutions") };
//! let rows: Vec<i32> = q.iter().map(|&x| solution[x]).collect();
//! assert!(rows == [2, 4, 1, 3] || rows == [3, 1, 4, 2]);
//! assert_eq!(solver.count(None).solutions, 2);
//! println!("{}", solver.statistics()); // nodes, failures, propagations, peakDepth, solveTime
//! # Ok::<(), alldiff::ModelError>(())
//! ```
//!
//! The parts:
//! - [`Model`]: variables ([`VarId`]), views (`x + c`, [`View`]) and constraints;
//!   mistakes are [`ModelError`]s that name the culprit.
//! - [`constraints`]: the built-in constraints; all-different comes in four
//!   [`Strength`]s. Write your own by implementing [`Propagator`].
//! - [`Solver`]: depth-first search with propagation to a fixpoint at every node,
//!   [`SearchConfig`] for variable and value choice (built-in orders, or your own
//!   [`VariableSelector`] and [`ValueSelector`]), [`Limits`] for nodes, failures,
//!   time and cancellation, [`Statistics`] after every search, and a
//!   [`SearchObserver`] to watch it.
//! - [`sudoku`]: grids of 4x4 to 25x25, validation, solving, counting, generation and
//!   rating, all through the public modelling API.
//! - `trace` (with the `trace` feature): record a search as a JSON Lines trace, and
//!   read it back (summary, Graphviz tree, domains at any node). The search also emits
//!   `tracing` events under the targets `alldiff::search` and `alldiff::propagate`.
//!
//! # Features
//!
//! The default is none: the engine, the constraints and the Sudoku toolkit, on
//! `rand`, `fixedbitset`, `smallvec`, `tracing` and `thiserror`. The FlatZinc reader
//! is the `alldiff-flatzinc` crate and the command line the `alldiff-cli` crate
//! (the `alldiff` binary), both in this workspace; neither is a dependency of this one.
//!
//! - `serde`: `Serialize` (and `Deserialize` where a type is read back) for the
//!   result types: [`Statistics`], [`Count`], [`StopReason`], [`Branch`], the Sudoku
//!   [`Rating`](sudoku::Rating) and [`Explanation`](sudoku::Explanation).
//! - `trace`: the `trace` module, which records a search as a JSON Lines trace and
//!   reads it back; it turns on `serde` and adds `serde_json`.
//! - `trace-off`: compiles every `tracing` callsite out, to measure what the
//!   instrumentation costs.
//! - `count-allocations`: replaces the global allocator with a counting one, for
//!   `tests/allocations.rs` only.
//! - `debug-checks`: checks the propagators as the search runs, in any build, and
//!   panics on a violation: each call removes no value a solution of its constraint
//!   uses (brute force over small domains), each propagator run again at a fixpoint
//!   removes nothing, and every solution satisfies every constraint. For tests; slow.
//!   (Checking solutions alone, without a panic, is a solver option:
//!   [`Solver::check_solutions`].)
#![forbid(unsafe_code)]
#![warn(missing_docs, unreachable_pub)]

// First: the modules after it use its macros.
#[macro_use]
mod invariant;
pub mod constraints;
mod error;
mod ids;
mod model;
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExample;
mod propagator;
mod search;
mod store;
pub mod sudoku;
#[cfg(feature = "trace")]
pub mod trace;
mod variables;

pub use constraints::{Condition, IntoReifiable, Reifiable, Relation, Strength};
pub use error::ModelError;
pub use ids::{ConstraintId, Literal, VarId, View};
pub use model::Model;
pub use propagator::OwnedWords;
pub use propagator::{
    Conflict, Context, InferenceLabel, PostContext, Priority, Propagator, PropagatorClone, Pruning,
    Wake,
};
pub use search::{
    Branch, Count, CountStatus, Decision, Domains, Improvement, Limits, Objective, Optimization,
    OptimizeOutcome, Outcome, ParallelSolver, Phase, Restarts, SearchConfig, SearchObserver,
    Solution, Solutions, Solver, SolverSource, SplitDecision, Statistics, Step, StopReason,
    ValueOrder, ValueOrderSelector, ValueSelector, VariableOrder, VariableSelector,
};
pub use store::COPY_CELLS;

/// The modelling guide, `docs/modelling.md`, whose code blocks run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../docs/modelling.md")]
pub struct ModellingGuide;
