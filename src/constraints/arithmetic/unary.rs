//! `z == |x|` and `z == x^k`.

use super::{
    Range, Scratch, bounds, keep_magnitude_above, moved, negated, nonnegative, restrict, support,
    value_of,
};
use crate::constraints::Arithmetic;
use crate::error::ModelError;
use crate::ids::{VarId, View};
use crate::propagator::{Conflict, Context, PostContext, Propagator, Wake};

/// The operation of a [`Unary`] constraint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum UnaryOperation {
    /// `|x|`.
    Abs,
    /// `x^k` for a constant `k >= 0` (`x^0 == 1`, also for `x == 0`).
    Power(u32),
}

impl UnaryOperation {
    /// The result for a nonnegative `t`, nondecreasing in `t` (saturating).
    fn magnitude(self, t: i64) -> i64 {
        match self {
            UnaryOperation::Abs => t,
            UnaryOperation::Power(k) => t.saturating_pow(k),
        }
    }

    /// Whether the result is the same for `x` and `-x` (otherwise it has the sign of `x`).
    fn is_even(self) -> bool {
        match self {
            UnaryOperation::Abs => true,
            UnaryOperation::Power(k) => k % 2 == 0,
        }
    }

    /// `|x|` or `x^k` (saturating).
    pub fn apply(self, x: i64) -> i64 {
        let m = self.magnitude(x.saturating_abs());
        if x < 0 && !self.is_even() { -m } else { m }
    }

    /// The largest `t >= 0` with `magnitude(t) <= v`, for `v >= 0` (not for `x^0`).
    fn root_floor(self, v: i64) -> i64 {
        let UnaryOperation::Power(k) = self else {
            return v;
        };
        let mut t = (v as f64).powf(1.0 / f64::from(k)).round() as i64;
        while t > 0 && self.magnitude(t) > v {
            t -= 1;
        }
        while self.magnitude(t + 1) <= v {
            t += 1;
        }
        t
    }

    /// The smallest `t >= 0` with `magnitude(t) >= v` (not for `x^0`).
    fn root_ceil(self, v: i64) -> i64 {
        if v <= 0 {
            return 0;
        }
        let t = self.root_floor(v);
        if self.magnitude(t) < v { t + 1 } else { t }
    }

    /// The smallest interval holding the results over `lo..=hi`; its ends are reached.
    pub(super) fn image(self, (lo, hi): Range) -> Range {
        if !self.is_even() {
            return (self.apply(lo), self.apply(hi));
        }
        let near = if lo <= 0 && 0 <= hi {
            0
        } else {
            lo.abs().min(hi.abs())
        };
        let far = lo.saturating_abs().max(hi.saturating_abs());
        (self.magnitude(near), self.magnitude(far))
    }
}

/// `z == op(x)` for a [`UnaryOperation`]: `|x|` or `x^k`. Built by
/// [`Model::abs`](crate::Model::abs) and [`Model::power`](crate::Model::power).
///
/// # Propagation
///
/// Bounds consistent both ways (label [`Arithmetic::BOUNDS`]): `z` within the
/// results over the bounds of `x`, and `x` within the roots of the bounds of `z`
/// (for `|x|` and even `k`, `x` also loses the values too close to 0, the two signs
/// being symmetric). Domain consistent (label [`Arithmetic::SUPPORT`]) while `x`
/// has at most 4096 values. `O(log)` on bounds per call, plus `O(n log n)` over the
/// `n` values of `x` for the domain reasoning.
///
/// `|x|` over two domains of at most 64 values each (their values at most 64 apart,
/// as all-interval's steps and intervals) is domain consistent in `O(1)` word
/// operations instead: `x` keeps its values in `z ∪ -z` (`z`'s word mirrored around
/// 0, a bit reversal and two shifts), then `z` its values in `x ∪ -x`. One call
/// reaches the fixpoint (the propagator is then idempotent).
///
/// Results are computed in `i64` (a power saturating there): one beyond the `i32`
/// range (`|i32::MIN|`, `x^k` for a large `x` or `k`) is no value of `z`, so the values
/// of `x` that give it go.
#[derive(Clone, Debug)]
pub struct Unary {
    operation: UnaryOperation,
    x: View,
    z: View,
    /// `|x|` over two small domains: propagated on their words.
    words: bool,
    scratch: Scratch,
}

impl Unary {
    /// `z == op(x)`.
    pub(crate) fn new(operation: UnaryOperation, x: View, z: View) -> Unary {
        Unary {
            operation,
            x,
            z,
            words: false,
            scratch: Scratch::default(),
        }
    }

    /// `z == |x|` on the words of two small domains: domain consistent in one pass.
    fn propagate_words(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let (x, z) = (self.x.var, self.z.var);
        let (Some((wx, bx)), Some((wz, bz))) = (ctx.small_word(x), ctx.small_word(z)) else {
            unreachable!("a small domain stays small");
        };
        let bx = i64::from(bx) + i64::from(self.x.offset);
        let bz = i64::from(bz) + i64::from(self.z.offset);
        // The nonnegative values of z: bit i is bz + i >= 0.
        let zn = nonnegative(wz, bz);
        let keep_x = wx & mirror(zn, bz, bx);
        if keep_x == 0 {
            return Err(Conflict);
        }
        let keep_z = zn & mirror(keep_x, bx, bz);
        ctx.set_label(Arithmetic::SUPPORT);
        if keep_x != wx {
            ctx.retain_small(x, keep_x)?;
        }
        if keep_z != wz {
            ctx.retain_small(z, keep_z)?;
        }
        Ok(())
    }

    /// Narrows the bounds of `x` to the roots of the bounds of `z`.
    fn narrow_x(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let op = self.operation;
        let (lo, hi) = bounds(ctx, self.z);
        if op.is_even() {
            if hi < 0 {
                return Err(Conflict);
            }
            let far = op.root_floor(hi);
            restrict(ctx, self.x, Some((-far, far)))?;
            let near = op.root_ceil(lo);
            keep_magnitude_above(ctx, self.x, near - 1, &mut self.scratch)
        } else {
            // The smallest x whose result is at least v, and the largest at most v.
            let at_least = |v: i64| {
                if v >= 0 {
                    op.root_ceil(v)
                } else {
                    -op.root_floor(-v)
                }
            };
            let at_most = |v: i64| {
                if v >= 0 {
                    op.root_floor(v)
                } else {
                    -op.root_ceil(-v)
                }
            };
            restrict(ctx, self.x, Some((at_least(lo), at_most(hi))))
        }
    }
}

impl Propagator for Unary {
    fn name(&self) -> &'static str {
        match self.operation {
            UnaryOperation::Abs => "abs",
            UnaryOperation::Power(_) => "power",
        }
    }

    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        ctx.watch(self.x, Wake::Domain)?;
        ctx.watch(self.z, Wake::Domain)?;
        self.words = self.operation == UnaryOperation::Abs
            && ctx.small_word(self.x.var).is_some()
            && ctx.small_word(self.z.var).is_some();
        Ok(())
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        if self.words {
            return self.propagate_words(ctx);
        }
        let op = self.operation;
        ctx.set_label(Arithmetic::BOUNDS);
        restrict(ctx, self.z, Some(op.image(bounds(ctx, self.x))))?;
        if op != UnaryOperation::Power(0) {
            self.narrow_x(ctx)?;
        }
        ctx.set_label(Arithmetic::SUPPORT);
        support(
            ctx,
            self.x,
            self.z,
            |v| Some(op.apply(v)),
            &mut self.scratch,
        )
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        self.operation.apply(value_of(self.x, value)) == value_of(self.z, value)
    }

    fn is_idempotent(&self) -> bool {
        self.words
    }
}

/// The values of `word` (bit `i` for `from + i`) and their negations, as a word whose bit
/// `i` stands for `to + i`; values outside that window are dropped.
fn mirror(word: u64, from: i64, to: i64) -> u64 {
    moved(word, from, 0, to) | negated(word.reverse_bits(), from, 0, to)
}

#[cfg(test)]
mod tests {
    use super::UnaryOperation::{Abs, Power};

    #[test]
    fn roots_and_images() {
        assert_eq!((Power(2).root_floor(15), Power(2).root_ceil(15)), (3, 4));
        assert_eq!((Power(3).root_floor(27), Power(3).root_ceil(27)), (3, 3));
        assert_eq!(Power(2).root_floor(0), 0);
        assert_eq!(Power(31).root_floor(i64::from(i32::MAX)), 1);
        assert_eq!(
            Power(1).root_floor(i64::from(i32::MAX)),
            i64::from(i32::MAX)
        );
        assert_eq!(Power(3).image((-2, 3)), (-8, 27));
        assert_eq!(Power(2).image((-2, 3)), (0, 9));
        assert_eq!(Power(2).image((-5, -2)), (4, 25));
        assert_eq!(Power(0).image((-5, 5)), (1, 1));
        assert_eq!(Abs.image((-7, -3)), (3, 7));
        assert_eq!(Abs.apply(-4), 4);
        assert_eq!(Power(3).apply(-2), -8);
    }
}
