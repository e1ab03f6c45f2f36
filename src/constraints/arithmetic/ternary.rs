//! `z == x * y`, `z == x / y` and `z == x % y`.

use super::{
    Range, Scratch, bounds, div_ceil, div_floor, hull, keep_magnitude_above, restrict, sign_parts,
    support, value_of,
};
use crate::error::ModelError;
use crate::ids::{VarId, View};
use crate::propagator::{Conflict, Context, InferenceLabel, PostContext, Propagator, Wake};

/// The operation of an [`Arithmetic`] constraint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Operation {
    /// `x * y`.
    Times,
    /// `x / y`, truncated towards zero as Rust's `/` does; `y` is never 0.
    Divide,
    /// `x % y`, the remainder of [`Operation::Divide`] as Rust's `%` gives it (with the
    /// sign of `x`); `y` is never 0.
    Modulo,
}

impl Operation {
    /// `x ∘ y`, or `None` for a division by 0.
    pub fn apply(self, x: i64, y: i64) -> Option<i64> {
        match self {
            Operation::Times => Some(x * y),
            Operation::Divide => x.checked_div(y),
            Operation::Modulo => x.checked_rem(y),
        }
    }

    /// The smallest interval holding `x ∘ y` for `x` and `y` in the given intervals
    /// (`None` if there is no such value). Exact for `*` and `/`: the ends are reached.
    fn image(self, x: Range, y: Range) -> Option<Range> {
        match self {
            Operation::Times => corners(x, y, |a, b| a * b),
            Operation::Divide => {
                let [neg, pos] = sign_parts(y);
                let part = |y: Option<Range>| y.and_then(|y| corners(x, y, |a, b| a / b));
                hull(part(neg), part(pos))
            }
            Operation::Modulo => remainders(x, y),
        }
    }
}

/// The smallest and largest of `f` at the four corners of `x × y`.
fn corners(x: Range, y: Range, f: impl Fn(i64, i64) -> i64) -> Option<Range> {
    let values = [f(x.0, y.0), f(x.0, y.1), f(x.1, y.0), f(x.1, y.1)];
    Some((*values.iter().min()?, *values.iter().max()?))
}

/// The hull of `x % y` for `x` in `x` and `y` in `y` (0 left out).
fn remainders(x: Range, y: Range) -> Option<Range> {
    let [neg, pos] = sign_parts(y);
    // The largest and the smallest |y|.
    let far = y.0.abs().max(y.1.abs());
    let near = match (neg, pos) {
        (Some(n), Some(p)) => (-n.1).min(p.0),
        (Some(n), None) => -n.1,
        (None, Some(p)) => p.0,
        (None, None) => return None,
    };
    // For 0 <= lo <= hi: below `near`, x % y is x; otherwise anything in 0..far.
    let natural = |(lo, hi): Range| {
        if hi < near {
            (lo, hi)
        } else {
            (0, hi.min(far - 1))
        }
    };
    // x % y is -((-x) % y).
    let negative = (x.0 < 0).then(|| {
        let (lo, hi) = natural((-x.1.min(-1), -x.0));
        (-hi, -lo)
    });
    hull(negative, (x.1 >= 0).then(|| natural((x.0.max(0), x.1))))
}

/// `z == x ∘ y` for an [`Operation`] `∘`. Built by [`Model::times`](crate::Model::times),
/// [`Model::div`](crate::Model::div) and [`Model::modulo`](crate::Model::modulo).
///
/// # Propagation
///
/// Interval reasoning on the bounds (label [`Arithmetic::BOUNDS`]), with 0 left
/// out of divisors and factors where it cannot be:
///
/// - `*`: `z` within the products of the bounds of `x` and `y` (both ends reached:
///   bounds consistent on `z`); `x` within the quotients of the bounds of `z` by the
///   nonzero parts of `y`, rounded inwards, and the same for `y` (bounds(R) consistent:
///   each bound of `x` has real support in the other two intervals); neither is 0 when
///   `z` cannot be. For `x * x`, prefer [`Model::power`](crate::Model::power), whose
///   reasoning knows both factors are equal.
/// - `/`: 0 leaves `y`; `z` within the quotients of the bounds of `x` by the nonzero
///   parts of `y`; `y` keeps the bounds for which some `x` within its bounds gives a
///   quotient within those of `z` (bounds consistent on `y`); `x` within `z·y + r`
///   (`|r| < |y|`, with the sign of `x`) over those `y`.
/// - `%`: 0 leaves `y`; `z` within `±(max |y| - 1)` on the sides of 0 that `x` reaches
///   (or equal to `x` when `|x| < min |y|`); `|y| > |z|`; `x` has the sign of `z` and
///   `|x| >= |z|`.
///
/// Once `x` or `y` is fixed, the other and `z` are domain consistent (label
/// [`Arithmetic::SUPPORT`]) while the free one has at most 4096 values. Each call
/// is `O(1)` on bounds, plus `O(n log n)` for that domain reasoning over `n` values.
///
/// `x ∘ y` may leave the `i32` range (`i32::MIN / -1`, a product of two large
/// factors): it is computed in `i64` and only values of `z` are kept.
#[derive(Clone, Debug)]
pub struct Arithmetic {
    operation: Operation,
    x: View,
    y: View,
    z: View,
    scratch: Scratch,
}

impl Arithmetic {
    /// Label ([`Context::set_label`]): an arithmetic constraint's bounds (`*`, `/`, `%`,
    /// `|x|`, `x^k`, `|x - y|`, min, max), shared by [`Unary`](crate::constraints::Unary),
    /// [`AbsDifference`](crate::constraints::AbsDifference) and
    /// [`Extremum`](crate::constraints::Extremum).
    pub const BOUNDS: InferenceLabel = InferenceLabel::new("arithmetic bounds");
    /// Label ([`Context::set_label`]): an arithmetic constraint's values without support on
    /// the other side, shared as [`Arithmetic::BOUNDS`] is.
    pub const SUPPORT: InferenceLabel = InferenceLabel::new("arithmetic support");

    /// `z == x ∘ y`.
    pub(crate) fn new(operation: Operation, x: View, y: View, z: View) -> Arithmetic {
        Arithmetic {
            operation,
            x,
            y,
            z,
            scratch: Scratch::default(),
        }
    }

    /// Narrows `x` and `y` from the bounds of the others.
    fn narrow_operands(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let (x, y, z) = (self.x, self.y, self.z);
        match self.operation {
            Operation::Times => {
                if !ctx.contains(z, 0) {
                    ctx.remove(x, 0)?;
                    ctx.remove(y, 0)?;
                }
                restrict_factor(ctx, x, y, z)?;
                restrict_factor(ctx, y, x, z)
            }
            Operation::Divide => {
                let (xs, zs) = (bounds(ctx, x), bounds(ctx, z));
                let [neg, pos] = sign_parts(bounds(ctx, y));
                let pos = pos.and_then(|ys| dividends(xs, zs, ys));
                // x / y is (-x) / (-y).
                let flip = |(lo, hi): Range| (-hi, -lo);
                let neg = neg
                    .and_then(|ys| dividends(flip(xs), zs, flip(ys)))
                    .map(|(xs, ys)| (flip(xs), flip(ys)));
                restrict(ctx, x, hull(neg.map(|p| p.0), pos.map(|p| p.0)))?;
                restrict(ctx, y, hull(neg.map(|p| p.1), pos.map(|p| p.1)))
            }
            Operation::Modulo => {
                let (lo, hi) = bounds(ctx, z);
                // x has the sign of z, and |x| >= |z|.
                let x_range = match (lo > 0, hi < 0) {
                    (true, _) => (lo, i64::MAX),
                    (_, true) => (i64::MIN, hi),
                    _ => (i64::MIN, i64::MAX),
                };
                restrict(ctx, x, Some(x_range))?;
                // |y| > |z| >= near.
                let near = if lo > 0 { lo } else { (-hi).max(0) };
                keep_magnitude_above(ctx, y, near, &mut self.scratch)
            }
        }
    }
}

/// Narrows `x` in `z == x * y` to the quotients `z / y` over the nonzero values of `y`.
fn restrict_factor(ctx: &mut Context<'_>, x: View, y: View, z: View) -> Result<(), Conflict> {
    let (zs, ys) = (bounds(ctx, z), bounds(ctx, y));
    if zs.0 <= 0 && 0 <= zs.1 && ys.0 <= 0 && 0 <= ys.1 {
        return Ok(()); // 0 * anything
    }
    let [neg, pos] = sign_parts(ys);
    let quotients = |ys: Option<Range>| {
        let ys = ys?;
        let lo = corners(zs, ys, div_ceil)?.0;
        let hi = corners(zs, ys, div_floor)?.1;
        Some((lo, hi))
    };
    restrict(ctx, x, hull(quotients(neg), quotients(pos)))
}

/// For `z == x / y` with `y` in `ys`, all positive: the hull of the possible `x`
/// and the bounds of `y` that some `x` in `xs` supports, if any.
///
/// With `y > 0`, `x / y >= lo` iff `x >= a(y)` and `x / y <= hi` iff `x <= b(y)`,
/// both linear in `y`: `a(y) = lo·y` for `lo > 0`, else `(lo - 1)·y + 1`; `b(y) = hi·y`
/// for `hi < 0`, else `(hi + 1)·y - 1`. `y` is supported iff `a(y) <= max(x)` and
/// `b(y) >= min(x)`.
fn dividends(xs: Range, (lo, hi): Range, ys: Range) -> Option<(Range, Range)> {
    let a = if lo > 0 { (lo, 0) } else { (lo - 1, 1) };
    let b = if hi < 0 { (hi, 0) } else { (hi + 1, -1) };
    // y with a(y) <= max(x), and with -b(y) <= -min(x).
    let ys = linear_at_most(ys, a, xs.1)?;
    let ys = linear_at_most(ys, (-b.0, -b.1), -xs.0)?;
    let at = |(k, c): (i64, i64), y: i64| k * y + c;
    let x_lo = at(a, ys.0).min(at(a, ys.1)).max(xs.0);
    let x_hi = at(b, ys.0).max(at(b, ys.1)).min(xs.1);
    Some(((x_lo, x_hi), ys))
}

/// The `y` of `ys` with `k·y + c <= bound`, if any.
fn linear_at_most((lo, hi): Range, (k, c): (i64, i64), bound: i64) -> Option<Range> {
    let (lo, hi) = match k {
        0 if c <= bound => (lo, hi),
        0 => return None,
        k if k > 0 => (lo, hi.min(div_floor(bound - c, k))),
        k => (lo.max(div_ceil(bound - c, k)), hi),
    };
    (lo <= hi).then_some((lo, hi))
}

impl Propagator for Arithmetic {
    fn name(&self) -> &'static str {
        match self.operation {
            Operation::Times => "times",
            Operation::Divide => "div",
            Operation::Modulo => "modulo",
        }
    }

    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        ctx.watch(self.x, Wake::Domain)?;
        ctx.watch(self.y, Wake::Domain)?;
        ctx.watch(self.z, Wake::Domain)?;
        // Nothing to refuse: every bound is computed in i64, where products and
        // quotients of i32 values cannot overflow, and clamped to z's domain.
        Ok(())
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let (x, y, z, operation) = (self.x, self.y, self.z, self.operation);
        ctx.set_label(Arithmetic::BOUNDS);
        if operation != Operation::Times {
            ctx.remove(y, 0)?;
        }
        restrict(ctx, z, operation.image(bounds(ctx, x), bounds(ctx, y)))?;
        self.narrow_operands(ctx)?;
        ctx.set_label(Arithmetic::SUPPORT);
        if let Some(b) = ctx.value(y) {
            let b = i64::from(b);
            support(ctx, x, z, |a| operation.apply(a, b), &mut self.scratch)?;
        }
        if let Some(a) = ctx.value(x) {
            let a = i64::from(a);
            support(ctx, y, z, |b| operation.apply(a, b), &mut self.scratch)?;
        }
        Ok(())
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        let (x, y) = (value_of(self.x, value), value_of(self.y, value));
        self.operation.apply(x, y) == Some(value_of(self.z, value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_are_the_hulls() {
        assert_eq!(Operation::Times.image((-2, 3), (4, 5)), Some((-10, 15)));
        assert_eq!(Operation::Divide.image((-7, 7), (-2, 3)), Some((-7, 7)));
        assert_eq!(Operation::Divide.image((7, 9), (2, 3)), Some((2, 4)));
        assert_eq!(Operation::Divide.image((1, 1), (0, 0)), None);
        assert_eq!(Operation::Modulo.image((-9, 9), (5, 5)), Some((-4, 4)));
        assert_eq!(Operation::Modulo.image((1, 3), (5, 7)), Some((1, 3)));
        // y may be 1 or -1, giving 0.
        assert_eq!(Operation::Modulo.image((-3, -1), (-7, 5)), Some((-3, 0)));
    }

    #[test]
    fn dividends_of_a_quotient() {
        // x / y == 3 with y in 2..=4: x in 6..=19, and with x in 0..=10 only y = 2, 3.
        assert_eq!(dividends((0, 100), (3, 3), (2, 4)), Some(((6, 15), (2, 4))));
        assert_eq!(dividends((0, 10), (3, 3), (2, 4)), Some(((6, 10), (2, 3))));
        // x / y == 0 with y in 1..=5: |x| < y.
        assert_eq!(dividends((-9, 9), (0, 0), (1, 5)), Some(((-4, 4), (1, 5))));
        assert_eq!(dividends((7, 9), (0, 0), (1, 5)), None);
    }
}
