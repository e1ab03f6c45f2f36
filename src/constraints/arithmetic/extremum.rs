//! `z == max(xs)` and `z == min(xs)`.

use super::{Range, bounds, restrict, value_of};
use crate::error::ModelError;
use crate::ids::{VarId, View};
use crate::propagator::{Conflict, Context, PostContext, Propagator, Rule, Wake};

/// `z == max(xs)` or `z == min(xs)` over at least one view. Built by
/// [`Model::maximum`](crate::Model::maximum) and [`Model::minimum`](crate::Model::minimum).
///
/// Bounds consistent (rule [`Rule::ArithmeticBounds`]), shown here for the maximum:
/// `z` between the largest minimum and the largest maximum of the `xs`; every `x`
/// at most `max(z)`; and when only one `x` can reach `min(z)`, that one at least
/// `min(z)`. The minimum is the mirror image. `O(n)` per call over `n` views.
#[derive(Clone, Debug)]
pub struct Extremum {
    xs: Vec<View>,
    z: View,
    /// Whether it is the maximum (otherwise the minimum).
    is_max: bool,
}

impl Extremum {
    /// `z == max(xs)` if `is_max`, `z == min(xs)` otherwise.
    pub(crate) fn new(xs: Vec<View>, z: View, is_max: bool) -> Extremum {
        Extremum { xs, z, is_max }
    }

    /// A view's bounds as the maximum sees them: negated for the minimum, since
    /// `min(xs) == -max(-xs)`.
    fn range(&self, ctx: &Context<'_>, view: View) -> Range {
        let (lo, hi) = bounds(ctx, view);
        if self.is_max { (lo, hi) } else { (-hi, -lo) }
    }

    /// Narrows a view to `lo..=hi` as the maximum sees it (`±i64::MAX` for no bound).
    fn narrow(&self, ctx: &mut Context<'_>, view: View, (lo, hi): Range) -> Result<(), Conflict> {
        let range = if self.is_max { (lo, hi) } else { (-hi, -lo) };
        restrict(ctx, view, Some(range))
    }
}

impl Propagator for Extremum {
    fn name(&self) -> &'static str {
        if self.is_max { "maximum" } else { "minimum" }
    }

    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        if self.xs.is_empty() {
            return Err(ModelError::NoVariables {
                constraint: self.name(),
            });
        }
        ctx.watch_all(self.xs.iter().copied(), Wake::Bounds)?;
        ctx.watch(self.z, Wake::Bounds)?;
        Ok(())
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        ctx.set_rule(Rule::ArithmeticBounds);
        let (mut lo, mut hi) = (i64::MIN, i64::MIN);
        for &x in &self.xs {
            let (x_lo, x_hi) = self.range(ctx, x);
            lo = lo.max(x_lo);
            hi = hi.max(x_hi);
        }
        self.narrow(ctx, self.z, (lo, hi))?;
        let (z_lo, z_hi) = self.range(ctx, self.z);
        let mut reaching = None;
        let mut count = 0;
        for &x in &self.xs {
            self.narrow(ctx, x, (-i64::MAX, z_hi))?;
            if self.range(ctx, x).1 >= z_lo {
                reaching = Some(x);
                count += 1;
            }
        }
        match (count, reaching) {
            (1, Some(x)) => self.narrow(ctx, x, (z_lo, i64::MAX)),
            (0, _) => Err(Conflict),
            _ => Ok(()),
        }
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        let values = self.xs.iter().map(|&x| value_of(x, value));
        let extreme = if self.is_max {
            values.max()
        } else {
            values.min()
        };
        extreme == Some(value_of(self.z, value))
    }
}
