//! `z == |x - y|` as one propagator.

use super::{
    Scratch, UnaryOperation, bounds, moved, negated, nonnegative, restrict, support, value_of,
    word_values,
};
use crate::constraints::Arithmetic;
use crate::error::ModelError;
use crate::ids::{VarId, View};
use crate::propagator::{Conflict, Context, PostContext, Propagator, Wake};

/// `z == |x - y|`, the distance between two views, without a variable for `x - y`.
/// Built by [`Model::abs_difference`](crate::Model::abs_difference). All-interval series
/// and Golomb-like models state their intervals this way.
///
/// # Propagation
///
/// When all three domains have at most 64 values each (values at most 64 apart, as the
/// series and intervals of all-interval), domain consistent (label
/// [`Arithmetic::SUPPORT`]) on their words: `x` keeps the values `b ± w` for `b` in
/// `y` and `w >= 0` in `z` (two shifts of `z`'s word, one of them bit-reversed, per value
/// of `y`), then `y` the values `a ± w` for the `a` left in `x`, then `z` the distances
/// between the values left. One call reaches the fixpoint (the propagator is then
/// idempotent); `O(|x| + |y|)` word operations.
///
/// Otherwise bounds consistent on the hulls (label [`Arithmetic::BOUNDS`]): `z`
/// within the magnitudes of `x - y`, and `x` within `y ± z`, its bounds out of the gap
/// `(max y - min z, min y + min z)` (and `y` likewise); once `x` or `y` is fixed, domain
/// consistent between the other and `z` while it has at most 4096 values. `O(1)` per
/// call on bounds, `O(n log n)` over the `n` values of the other view once one is
/// fixed.
///
/// The decomposition `d == x - y`, `z == |d|` (as MiniZinc flattens `abs(x - y)`)
/// propagates only the bounds of `d` back to `x` and `y`: with `y` fixed to `b`, `x`
/// keeps the whole interval `b - max z ..= b + max z`, here only `b ± z`.
///
/// Differences are computed in `i64`: one beyond the `i32` range is no value of `z`.
#[derive(Clone, Debug)]
pub struct AbsDifference {
    x: View,
    y: View,
    z: View,
    /// All three domains are one word each: propagated on the words.
    words: bool,
    scratch: Scratch,
}

impl AbsDifference {
    /// `z == |x - y|`.
    pub(crate) fn new(x: View, y: View, z: View) -> AbsDifference {
        AbsDifference {
            x,
            y,
            z,
            words: false,
            scratch: Scratch::default(),
        }
    }

    /// Domain consistency on the words of three small domains, in one pass.
    fn propagate_words(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let [(wx, bx), (wy, by), (wz, bz)] = [self.x, self.y, self.z].map(|view| {
            let (word, base) = ctx
                .small_word(view.var)
                .expect("a small domain stays small");
            (word, i64::from(base) + i64::from(view.offset))
        });
        // The distances, z's nonnegative values: bit i is bz + i >= 0.
        let zn = nonnegative(wz, bz);
        let rz = zn.reverse_bits();
        // x keeps b + w and b - w for b in y, w in z.
        let mut around_y = 0;
        for b in word_values(wy, by) {
            around_y |= moved(zn, bz, b, bx) | negated(rz, bz, b, bx);
        }
        let keep_x = wx & around_y;
        if keep_x == 0 {
            return Err(Conflict);
        }
        // y keeps a + w and a - w for the a left in x: each has its support there.
        let mut around_x = 0;
        for a in word_values(keep_x, bx) {
            around_x |= moved(zn, bz, a, by) | negated(rz, bz, a, by);
        }
        let keep_y = wy & around_x;
        // z keeps b - a and a - b (the nonnegative ones) for a, b left.
        let ry = keep_y.reverse_bits();
        let mut distances = 0;
        for a in word_values(keep_x, bx) {
            distances |= moved(keep_y, by, -a, bz) | negated(ry, by, a, bz);
        }
        let keep_z = zn & distances;
        ctx.set_label(Arithmetic::SUPPORT);
        for (view, old, new) in [
            (self.x, wx, keep_x),
            (self.y, wy, keep_y),
            (self.z, wz, keep_z),
        ] {
            if new != old {
                ctx.retain_small(view.var, new)?;
            }
        }
        Ok(())
    }

    /// Bounds reasoning on the hulls, then domain reasoning once `x` or `y` is fixed.
    fn propagate_bounds(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        ctx.set_label(Arithmetic::BOUNDS);
        let (x, y, z) = (self.x, self.y, self.z);
        let (xl, xh) = bounds(ctx, x);
        let (yl, yh) = bounds(ctx, y);
        restrict(ctx, z, Some(UnaryOperation::Abs.image((xl - yh, xh - yl))))?;
        narrow_around(ctx, x, y, z)?;
        narrow_around(ctx, y, x, z)?;
        ctx.set_label(Arithmetic::SUPPORT);
        if let Some(b) = ctx.value(y) {
            let b = i64::from(b);
            support(ctx, x, z, |a| Some((a - b).abs()), &mut self.scratch)?;
        } else if let Some(a) = ctx.value(x) {
            let a = i64::from(a);
            support(ctx, y, z, |b| Some((a - b).abs()), &mut self.scratch)?;
        }
        Ok(())
    }
}

/// Narrows the bounds of `x` to `y ± z` on the hulls: within `min y - max z ..= max y +
/// max z`, and out of the values closer than `min z` to every value of `y`.
fn narrow_around(ctx: &mut Context<'_>, x: View, y: View, z: View) -> Result<(), Conflict> {
    let (yl, yh) = bounds(ctx, y);
    let (zl, zh) = bounds(ctx, z);
    restrict(ctx, x, Some((yl - zh, yh + zh)))?;
    // Too close to every y: yh - zl < v < yl + zl.
    let (gap_lo, gap_hi) = (yh - zl + 1, yl + zl - 1);
    let (xl, xh) = bounds(ctx, x);
    if gap_lo <= xl && xl <= gap_hi {
        restrict(ctx, x, Some((gap_hi + 1, xh)))?;
    }
    let (xl, xh) = bounds(ctx, x);
    if gap_lo <= xh && xh <= gap_hi {
        restrict(ctx, x, Some((xl, gap_lo - 1)))?;
    }
    Ok(())
}

impl Propagator for AbsDifference {
    fn name(&self) -> &'static str {
        "abs_difference"
    }

    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        ctx.watch(self.x, Wake::Domain)?;
        ctx.watch(self.y, Wake::Domain)?;
        ctx.watch(self.z, Wake::Domain)?;
        self.words = [self.x, self.y, self.z]
            .iter()
            .all(|view| ctx.small_word(view.var).is_some());
        Ok(())
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        if self.words {
            self.propagate_words(ctx)
        } else {
            self.propagate_bounds(ctx)
        }
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        (value_of(self.x, value) - value_of(self.y, value)).abs() == value_of(self.z, value)
    }

    fn is_idempotent(&self) -> bool {
        self.words
    }
}
