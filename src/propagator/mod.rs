//! Propagators: how a constraint removes values, and the queue that runs them to a
//! fixpoint.
//!
//! A constraint is a value implementing [`Propagator`], posted to a model with
//! [`Model::post`](crate::Model::post). The solver wakes a propagator when a domain of
//! one of its variables changes in a way it asked for ([`Wake`]), and the propagator
//! removes values through the [`Context`] it is given. It reports a [`Conflict`] when it
//! finds that no solution extends the current domains. Propagation repeats until no
//! propagator has anything left to do: the fixpoint.
//!
//! # Writing a constraint
//!
//! 1. Store the variables (or [`View`](crate::View)s) the constraint is about.
//! 2. Register them when the constraint is posted ([`Propagator::post`]): each
//!    [`PostContext::watch`] says what should wake the propagator for that variable
//!    ([`Wake`]: any removal, a moved bound, or fixing) and gives the variable's
//!    *local index*, by which [`Context::modified`] reports it.
//! 3. Prune in [`Propagator::propagate`]: read domains and remove values through the
//!    [`Context`]; each removal that empties a domain returns `Err(Conflict)`, which
//!    `?` passes on. Optionally, name the reasoning for traces with
//!    [`Context::set_label`] and an [`InferenceLabel`] the propagator declares.
//! 4. Say when a full assignment satisfies it ([`Propagator::is_satisfied`]): solvers
//!    that check their solutions ([`Solver::check_solutions`](crate::Solver::check_solutions))
//!    check every one against it, and the `debug-checks` feature checks each call of
//!    `propagate` against it where the domains are small.
//! 5. Optionally, say when every assignment left satisfies it ([`Context::entailed`]):
//!    it is then not woken again until the search backtracks above that point.
//!
//! Here is `x < y` over two variables, complete:
//!
//! ```
//! use alldiff::{Conflict, Context, Model, ModelError, PostContext, Propagator, Solver, VarId, Wake};
//!
//! #[derive(Clone, Debug)]
//! struct LessThan { x: VarId, y: VarId }
//!
//! impl Propagator for LessThan {
//!     fn name(&self) -> &'static str { "less_than" }
//!     fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
//!         // Only the bounds matter: a hole inside a domain changes nothing here.
//!         ctx.watch(self.x, Wake::Bounds)?;
//!         ctx.watch(self.y, Wake::Bounds)?;
//!         Ok(())
//!     }
//!     fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
//!         // x < y: x is at most max(y) - 1, y at least min(x) + 1.
//!         let max_y = ctx.max(self.y);
//!         ctx.set_max(self.x, max_y - 1)?;
//!         let min_x = ctx.min(self.x);
//!         ctx.set_min(self.y, min_x + 1)?;
//!         Ok(())
//!     }
//!     fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
//!         value(self.x) < value(self.y)
//!     }
//! }
//!
//! let mut model = Model::new();
//! let x = model.int_var(1, 3)?;
//! let y = model.int_var(1, 3)?;
//! model.post(LessThan { x, y })?;
//! let mut solver = Solver::new(model);
//! assert_eq!(solver.count(None).solutions, 3); // (1,2), (1,3), (2,3)
//! # Ok::<(), alldiff::ModelError>(())
//! ```
//!
//! The module's parts: the trait and its vocabulary here, [`PostContext`] for
//! posting (`post.rs`), [`Context`] for pruning (`context.rs`), the
//! [`InferenceLabel`]s prunings are recorded under (`label.rs`), the watch lists and
//! queue (`queue.rs`), the
//! posted propagators with the fixpoint loop that runs them (`set.rs`), and the
//! `debug-checks` feature's checks of each call and each fixpoint (`checks.rs`).

pub(crate) mod checks;
mod context;
mod label;
mod post;
mod queue;
mod set;

use std::fmt;

pub use context::{Context, OwnedWords, Pruning};
pub use label::InferenceLabel;
pub use post::PostContext;
pub(crate) use queue::{NO_PROPAGATOR, Queue};
pub(crate) use set::{Propagators, Run};

use crate::error::ModelError;
use crate::ids::VarId;
use crate::store::{Event, Wipeout};

/// The current domains admit no solution. Returned by propagators; the solver
/// backtracks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conflict;

impl From<Wipeout> for Conflict {
    fn from(_: Wipeout) -> Conflict {
        Conflict
    }
}

/// Which changes of one watched variable wake a propagator (see [`PostContext::watch`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Wake {
    /// Any removed value.
    Domain,
    /// A moved minimum or maximum (or a fixed variable).
    Bounds,
    /// A variable that became fixed.
    Fixed,
}

impl Wake {
    fn events(self) -> Event {
        match self {
            Wake::Domain => Event::DOMAIN,
            Wake::Bounds => Event::BOUNDS | Event::FIXED,
            Wake::Fixed => Event::FIXED,
        }
    }
}

/// When a woken propagator runs: all cheap ones first, then the expensive ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Priority {
    /// Linear time or less in the number of variables.
    Cheap,
    /// Anything more costly, such as matching-based all-different.
    Expensive,
}

/// A constraint's propagation algorithm.
///
/// A propagator is `Clone` (through [`PropagatorClone`], implemented for every
/// `Clone` type), so that a [`Model`](crate::Model) can be cloned: for a user's own
/// constraint, `#[derive(Clone)]` is all it takes.
pub trait Propagator: fmt::Debug + Send + PropagatorClone {
    /// The constraint's kind, for statistics and traces (`all_different`, ...).
    fn name(&self) -> &'static str;

    /// Called once, when the constraint is posted: registers the variables it
    /// watches, each with the changes that wake it ([`PostContext::watch`]), and the
    /// backtrackable state it keeps ([`PostContext::set_initial_state`]). It may read
    /// the initial domains to check its parameters; an error leaves the model as it was.
    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError>;

    /// Removes values that no solution can take, given the current domains.
    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict>;

    /// Whether the constraint holds when every variable has the given value (any
    /// values of the domains, not only those of a solution). Solvers that check their
    /// solutions ([`Solver::check_solutions`](crate::Solver::check_solutions)) check
    /// each against every constraint; the `debug-checks` feature also checks each
    /// call of [`propagate`](Propagator::propagate) against it, by brute force over
    /// small domains.
    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool;

    /// When it runs relative to others. Default: [`Priority::Cheap`].
    fn priority(&self) -> Priority {
        Priority::Cheap
    }

    /// Whether one call always reaches the propagator's own fixpoint, so that its own
    /// changes need not wake it again. Default: `false` (it is woken by its own
    /// changes, which is always correct).
    fn is_idempotent(&self) -> bool {
        false
    }

    /// Whether [`Context::modified`] is read. Default: `true`. A propagator that looks
    /// at all its variables each time says `false`: the queue then records no local
    /// index when a variable changes, and [`Context::modified`] stays empty for it.
    fn reads_modified(&self) -> bool {
        true
    }

    /// After a failed [`propagate`](Propagator::propagate): the variables the failure
    /// involved, when the propagator can name fewer than all of its own (a system of
    /// groups names the group that failed). dom/wdeg
    /// ([`VariableOrder::DomOverWeightedDegree`](crate::VariableOrder)) then raises
    /// the weighted degrees of these alone, as it would if that part were a
    /// constraint of its own. Default: none named, every variable blamed.
    fn blame(&self, _culprits: &mut Vec<VarId>) {}
}

/// Cloning a boxed [`Propagator`], which `Clone` itself cannot do for a trait object.
/// Implemented for every propagator that is `Clone`: never implement it by hand.
pub trait PropagatorClone {
    /// A boxed copy of this propagator, in the state it is in.
    fn clone_box(&self) -> Box<dyn Propagator>;
}

impl<T: Propagator + Clone + 'static> PropagatorClone for T {
    fn clone_box(&self) -> Box<dyn Propagator> {
        Box::new(self.clone())
    }
}

impl Clone for Box<dyn Propagator> {
    fn clone(&self) -> Box<dyn Propagator> {
        self.clone_box()
    }
}
