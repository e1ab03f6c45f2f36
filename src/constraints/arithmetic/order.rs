//! `a <= b` and `a < b` over views.

use super::{bounds, restrict, value_of};
use crate::error::ModelError;
use crate::ids::{VarId, View};
use crate::propagator::{Conflict, Context, InferenceLabel, PostContext, Propagator, Wake};

/// `a + gap <= b`: `a <= b` with `gap` 0, `a < b` with `gap` 1. Built by
/// [`Model::less`](crate::Model::less), [`less_eq`](crate::Model::less_eq),
/// [`greater`](crate::Model::greater) and [`greater_eq`](crate::Model::greater_eq).
///
/// Bounds consistent: `a` loses the values above `max(b) - gap`, `b` those below
/// `min(a) + gap`, in `O(1)`; one call reaches the fixpoint unless `a` and `b` view
/// the same variable.
#[derive(Clone, Debug)]
pub struct LessEq {
    a: View,
    b: View,
    gap: i64,
}

impl LessEq {
    /// The label of its removals ([`Context::set_label`]): `a < b` or `a <= b` moves a
    /// bound.
    pub const ORDERING: InferenceLabel = InferenceLabel::new("ordering");

    /// `a <= b` if not `strict`, `a < b` if `strict`.
    pub(crate) fn new(a: View, b: View, strict: bool) -> LessEq {
        LessEq {
            a,
            b,
            gap: i64::from(strict),
        }
    }
}

impl Propagator for LessEq {
    fn name(&self) -> &'static str {
        if self.gap == 0 { "less_eq" } else { "less" }
    }

    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        ctx.watch(self.a, Wake::Bounds)?;
        ctx.watch(self.b, Wake::Bounds)?;
        Ok(())
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        ctx.set_label(LessEq::ORDERING);
        let (min_a, _) = bounds(ctx, self.a);
        let (_, max_b) = bounds(ctx, self.b);
        restrict(ctx, self.a, Some((min_a, max_b - self.gap)))?;
        let (min_a, _) = bounds(ctx, self.a);
        restrict(ctx, self.b, Some((min_a + self.gap, max_b)))
    }

    fn is_idempotent(&self) -> bool {
        self.a.var != self.b.var
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        value_of(self.a, value) + self.gap <= value_of(self.b, value)
    }
}
