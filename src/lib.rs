//! alldiff: a constraint-satisfaction engine.
#![forbid(unsafe_code)]
#![warn(missing_docs, unreachable_pub)]

pub mod constraints;
mod model;
mod propagator;
mod search;
mod store;
pub mod sudoku;

pub use constraints::{Relation, Strength};
pub use model::{ConstraintId, MAX_DOMAIN_SPAN, Model, ModelError, VarId, View};
pub use propagator::{Conflict, Context, Priority, Propagator, Pruning, Wake};
pub use search::{
    Branch, Count, CountStatus, Decision, Limits, Outcome, SearchConfig, SearchObserver, Solution,
    Solutions, Solver, Statistics, StopReason, ValueOrder, VariableOrder,
};

/// The modelling guide, `docs/modelling.md`, whose code blocks run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../docs/modelling.md")]
pub struct ModellingGuide;
