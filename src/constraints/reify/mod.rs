//! Reification: a Boolean literal tied to whether a constraint holds. Fully reified,
//! `b <-> C`; half reified, `b -> C`.
//!
//! Any constraint that can state its negation is reified the same way: it implements
//! [`Reifiable`], saying whether the current domains entail it or its negation and
//! propagating either on demand, and [`Reified`] ties a literal to it:
//!
//! - `b` open: an entailed `C` makes `b` true (full reification only), a disentailed
//!   `C` makes it false;
//! - `b` true: `C` is propagated;
//! - `b` false: the negation of `C` is propagated (full reification only).
//!
//! The built-in reifiable constraints: every [`Condition`] (a view against constants,
//! two views compared, a view in or out of a set, a linear relation; see
//! `condition.rs`) and [`Table`](crate::constraints::Table), whose negation is a
//! negative table (see `table.rs`). An element constraint over constants,
//! `array[index] == value`, is the table of the pairs `(i, array[i])` over
//! `(index, value)`.

mod condition;

use std::fmt;

use super::logic::{set_literal, truth, watch_literal};
use crate::error::ModelError;
use crate::ids::{Literal, VarId};
use crate::propagator::{Conflict, Context, InferenceLabel, PostContext, Propagator};

pub use condition::{Condition, PreparedCondition};

/// A constraint that can be reified: it says whether the current domains entail it
/// or its negation, and propagates either on demand. [`Model::reify`](crate::Model::reify)
/// (`b <-> C`) and [`Model::half_reify`](crate::Model::half_reify) (`b -> C`) take any
/// type implementing it, through [`IntoReifiable`].
///
/// [`Reified`] runs it inside its own propagator, which watches the literal and then
/// the views [`Reifiable::post`] watches: [`Context::modified`] stays empty (read
/// the domains each call), the state words set at posting are the constraint's own,
/// and [`Context::entailed`], called from [`Reifiable::enforce`], ends the reified
/// propagator below that node (`b` is fixed then, and what it enforces holds).
///
/// Here `x` is a multiple of `k`, with its negation:
///
/// ```
/// use alldiff::{Conflict, Context, Model, ModelError, PostContext, Reifiable, Solver, VarId, Wake};
///
/// #[derive(Clone, Debug)]
/// struct Multiple { x: VarId, k: i32 }
///
/// impl Reifiable for Multiple {
///     fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
///         ctx.watch(self.x, Wake::Domain).map(drop)
///     }
///     fn entailment(&mut self, ctx: &Context<'_>) -> Option<bool> {
///         let mut values = ctx.values(self.x).map(|v| v % self.k == 0);
///         let first = values.next()?;
///         values.all(|m| m == first).then_some(first)
///     }
///     fn enforce(&mut self, ctx: &mut Context<'_>, holds: bool) -> Result<(), Conflict> {
///         let wrong: Vec<i32> = ctx.values(self.x).filter(|v| (v % self.k == 0) != holds).collect();
///         wrong.into_iter().try_for_each(|v| ctx.remove(self.x, v).map(drop))
///     }
///     fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
///         value(self.x) % self.k == 0
///     }
///     fn is_idempotent(&self) -> bool { true }
/// }
///
/// let mut model = Model::new();
/// let b = model.bool_var()?;
/// let x = model.int_var(1, 9)?;
/// model.reify(b, Multiple { x, k: 3 })?;
/// model.and([!b])?; // x is not a multiple of 3
/// assert_eq!(Solver::new(model).root_domains().unwrap()[1], [1, 2, 4, 5, 7, 8]);
/// # Ok::<(), alldiff::ModelError>(())
/// ```
pub trait Reifiable: fmt::Debug + Send + Clone + 'static {
    /// Registers the views the constraint reads, as [`Propagator::post`] does, and
    /// checks its parameters: an error leaves the model as it was.
    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError>;

    /// `Some(true)` if every assignment of the current domains satisfies the
    /// constraint (it is entailed), `Some(false)` if none does (its negation is), and
    /// `None` otherwise. `None` where unsure is sound: the literal is then fixed later,
    /// by the search. Called while the literal is open.
    fn entailment(&mut self, ctx: &Context<'_>) -> Option<bool>;

    /// Propagates the constraint (`holds`) or its negation (`!holds`), as a
    /// [`Propagator::propagate`] would: removes values no solution of it uses, and
    /// fails if none is left.
    fn enforce(&mut self, ctx: &mut Context<'_>, holds: bool) -> Result<(), Conflict>;

    /// Whether the constraint holds when every variable has the given value (see
    /// [`Propagator::is_satisfied`]); its negation holds exactly when it does not.
    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool;

    /// Whether one [`Reifiable::enforce`] call, either way, reaches its own fixpoint
    /// (see [`Propagator::is_idempotent`]). Default: `false`.
    fn is_idempotent(&self) -> bool {
        false
    }
}

/// What [`Model::reify`](crate::Model::reify) and
/// [`Model::half_reify`](crate::Model::half_reify) take: a [`Reifiable`] constraint,
/// or a description that becomes one (a [`Condition`] becomes a
/// [`PreparedCondition`]), as `IntoIterator` is to `Iterator`.
pub trait IntoReifiable {
    /// The constraint as reified.
    type Reifiable: Reifiable;

    /// The constraint as reified.
    fn into_reifiable(self) -> Self::Reifiable;
}

impl<C: Reifiable> IntoReifiable for C {
    type Reifiable = C;

    fn into_reifiable(self) -> C {
        self
    }
}

/// A literal tied to a [`Reifiable`] constraint `C`: `b <-> C` (full) or `b -> C`
/// (half). Built by [`Model::reify`](crate::Model::reify) and
/// [`Model::half_reify`](crate::Model::half_reify); a bare `Reified` is that of a
/// [`Condition`].
///
/// # Propagation
///
/// While `b` is open, an entailed `C` makes it true (full reification only) and a
/// disentailed `C` false ([`Reifiable::entailment`]). A true `b` propagates `C`, a
/// false one (full only) the negation of `C` ([`Reifiable::enforce`]). Once `b` is
/// fixed from the constraint, or `b -> C` has `b` false, the propagator is entailed
/// ([`Context::entailed`]) and not woken again below that node; so it is once what
/// `b` enforces says it is. What each check and each propagation costs is the
/// constraint's: see [`PreparedCondition`] and [`Table`](crate::constraints::Table).
#[derive(Clone, Debug)]
pub struct Reified<C = PreparedCondition> {
    lit: Literal,
    constraint: C,
    /// `b -> C` only.
    half: bool,
}

impl Reified {
    /// The label of its removals ([`Context::set_label`]): an entailed or disentailed
    /// constraint fixes the literal, and a fixed literal posts the constraint or its
    /// negation.
    pub const REIFICATION: InferenceLabel = InferenceLabel::new("reification");
}

impl<C: Reifiable> Reified<C> {
    /// `lit <-> constraint`. Posting it ([`Model::post`](crate::Model::post)) reports
    /// [`ModelError::InvalidConstraint`] for a literal over a variable that is not
    /// 0/1, and what the constraint's [`Reifiable::post`] reports (a
    /// [`Condition`]'s: as [`Model::linear`](crate::Model::linear) does for sums that
    /// could overflow).
    pub fn full(
        lit: impl Into<Literal>,
        constraint: impl IntoReifiable<Reifiable = C>,
    ) -> Reified<C> {
        Reified {
            lit: lit.into(),
            constraint: constraint.into_reifiable(),
            half: false,
        }
    }

    /// `lit -> constraint`; posting it reports what [`Reified::full`] says.
    pub fn half(
        lit: impl Into<Literal>,
        constraint: impl IntoReifiable<Reifiable = C>,
    ) -> Reified<C> {
        Reified {
            lit: lit.into(),
            constraint: constraint.into_reifiable(),
            half: true,
        }
    }
}

impl<C: Reifiable> Propagator for Reified<C> {
    fn name(&self) -> &'static str {
        if self.half { "half_reified" } else { "reified" }
    }

    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        watch_literal(ctx, self.lit)?;
        self.constraint.post(ctx)
    }

    fn is_idempotent(&self) -> bool {
        // Fixing `b` from an entailed (disentailed) constraint leaves nothing to
        // propagate: the rest is the constraint's own fixpoint.
        self.constraint.is_idempotent()
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        ctx.set_label(<Reified>::REIFICATION);
        match truth(ctx, self.lit) {
            Some(true) => self.constraint.enforce(ctx, true)?,
            Some(false) if !self.half => self.constraint.enforce(ctx, false)?,
            // `b -> C` with `b` false: nothing left to say.
            Some(false) => ctx.entailed(),
            None => match self.constraint.entailment(ctx) {
                Some(true) if !self.half => {
                    set_literal(ctx, self.lit, true)?;
                    ctx.entailed();
                }
                Some(false) => {
                    set_literal(ctx, self.lit, false)?;
                    ctx.entailed();
                }
                _ => {}
            },
        }
        Ok(())
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        let b = self.lit.holds(value(self.lit.var));
        let c = self.constraint.is_satisfied(value);
        if self.half { !b || c } else { b == c }
    }

    fn reads_modified(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests;
