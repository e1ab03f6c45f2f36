//! Arithmetic constraints over views: orderings (`x < y`, ...), `z == x * y`,
//! `z == x / y`, `z == x % y`, `z == |x|`, `z == x^k`, `z == min(xs)`, `z == max(xs)`.
//!
//! Every propagator computes in `i64` and clamps what it derives to the domains.
//! Products, quotients, remainders, `|x|` and `|x - y|` of `i32` values cannot
//! overflow there, and powers saturate; a result beyond `i32` is no value of the
//! result view, so the operands' values that give it go (`|i32::MIN|` included).

mod abs_difference;
mod extremum;
mod order;
mod ternary;
mod unary;

pub use abs_difference::AbsDifference;
pub use extremum::Extremum;
pub use order::LessEq;
pub use ternary::{Arithmetic, Operation};
pub use unary::{Unary, UnaryOperation};

use crate::constraints::linear::div_ceil;
use crate::constraints::support::RetainSupported;
use crate::ids::{VarId, View};
use crate::propagator::{Conflict, Context};

/// An interval of values, both ends included, computed in `i64`.
type Range = (i64, i64);

/// The most values a domain may have for the domain reasoning of
/// [`support`]; larger domains are propagated on their bounds only.
const SUPPORT_LIMIT: u32 = 4096;

/// A view's current bounds.
fn bounds(ctx: &Context<'_>, view: View) -> Range {
    (i64::from(ctx.min(view)), i64::from(ctx.max(view)))
}

/// A view's value in a full assignment.
fn value_of(view: View, value: &dyn Fn(VarId) -> i32) -> i64 {
    i64::from(value(view.var)) + i64::from(view.offset)
}

/// The smallest interval holding both (either may be empty: `None`).
fn hull(a: Option<Range>, b: Option<Range>) -> Option<Range> {
    match (a, b) {
        (Some(a), Some(b)) => Some((a.0.min(b.0), a.1.max(b.1))),
        (a, b) => a.or(b),
    }
}

/// The smallest interval holding every value.
fn hull_of(values: impl IntoIterator<Item = i64>) -> Option<Range> {
    values.into_iter().map(|v| Some((v, v))).fold(None, hull)
}

/// Removes from `view` every value outside `range`; `None` (no value possible) is a
/// conflict.
fn restrict(ctx: &mut Context<'_>, view: View, range: Option<Range>) -> Result<(), Conflict> {
    let (lo, hi) = range.ok_or(Conflict)?;
    let (min, max) = bounds(ctx, view);
    if lo > hi || lo > max || hi < min {
        return Err(Conflict);
    }
    // Inside (min, max], both fit i32.
    if lo > min {
        ctx.set_min(view, lo as i32)?;
    }
    if hi < max {
        ctx.set_max(view, hi as i32)?;
    }
    Ok(())
}

/// `a / b` rounded down (`b != 0`).
pub(super) fn div_floor(a: i64, b: i64) -> i64 {
    let q = a / b;
    if a % b != 0 && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

/// The negative and the positive values of `range`, without 0.
fn sign_parts((lo, hi): Range) -> [Option<Range>; 2] {
    [
        (lo <= -1).then_some((lo, hi.min(-1))),
        (hi >= 1).then_some((lo.max(1), hi)),
    ]
}

/// Removes from `view` every value `v` with `|v| <= near`: `O(1)` when they are at
/// one end of the domain, `O(min(n, near))` over its `n` values otherwise. A gap
/// around 0 that would punch too many holes in an interval domain
/// ([`RetainSupported::punches_wide`]) is left to the bounds, which jump it when they reach it.
fn keep_magnitude_above(
    ctx: &mut Context<'_>,
    view: View,
    near: i64,
    scratch: &mut Scratch,
) -> Result<(), Conflict> {
    let (lo, hi) = bounds(ctx, view);
    if near < 0 || lo > near || hi < -near {
        return Ok(());
    }
    if lo >= -near {
        return restrict(ctx, view, Some((near + 1, hi)));
    }
    if hi <= near {
        return restrict(ctx, view, Some((lo, -near - 1)));
    }
    // -near > lo and near < hi: the 2 * near + 1 values of the gap are in the domain's span.
    if ctx.punches_wide(view, 2 * near as u64 + 1) {
        return Ok(());
    }
    if 2 * near < i64::from(ctx.size(view)) {
        // -near > lo and near < hi: both fit i32.
        for v in -near..=near {
            ctx.remove(view, v as i32)?;
        }
        return Ok(());
    }
    scratch.removed.clear();
    let inside = ctx.values(view).filter(|v| i64::from(*v).abs() <= near);
    scratch.removed.extend(inside);
    for &v in &scratch.removed {
        ctx.remove(view, v)?;
    }
    Ok(())
}

/// `word` shifted left by `by` (right for a negative `by`), bits past either end lost.
fn shift(word: u64, by: i64) -> u64 {
    match by {
        0..=63 => word << by,
        -63..=-1 => word >> -by,
        _ => 0,
    }
}

/// The nonnegative values of a small domain's word (bit `i` for `base + i`).
fn nonnegative(word: u64, base: i64) -> u64 {
    if base >= 0 {
        word
    } else {
        word & shift(!0, -base)
    }
}

/// `{v + delta}` for the values `v` of a small domain's word (bit `i` for `base + i`),
/// as a word whose bit `i` stands for `to + i` (values outside that window dropped).
fn moved(word: u64, base: i64, delta: i64, to: i64) -> u64 {
    shift(word, base + delta - to)
}

/// `{delta - v}` for the values `v` of a small domain's word given reversed
/// (`word.reverse_bits()`: bit `63 - i` for `base + i`), as a word whose bit `i` stands
/// for `to + i`: `delta - base - i` is bit `63 - i` moved by `delta - base - to - 63`.
fn negated(reversed: u64, base: i64, delta: i64, to: i64) -> u64 {
    shift(reversed, delta - base - to - 63)
}

/// The values of a small domain's word (bit `i` for `base + i`), ascending.
fn word_values(mut word: u64, base: i64) -> impl Iterator<Item = i64> {
    std::iter::from_fn(move || {
        (word != 0).then(|| {
            let i = word.trailing_zeros();
            word &= word - 1;
            base + i64::from(i)
        })
    })
}

/// Reusable buffers for [`support`] and [`keep_magnitude_above`].
#[derive(Clone, Debug, Default)]
pub(super) struct Scratch {
    pub(in crate::constraints) removed: Vec<i32>,
    image: Vec<i64>,
}

/// Domain consistency of `to == f(from)` (`f` gives `None` where it is undefined):
/// `from` keeps the values whose image `to` holds, `to` the images of those. When
/// `from` is fixed, fixes `to`. Otherwise does nothing if `from` has more than
/// [`SUPPORT_LIMIT`] values, and only narrows the bounds of `to` if it has more.
///
/// `O(n log n + m)` for `n` values of `from` and `m` of `to`.
pub(super) fn support(
    ctx: &mut Context<'_>,
    from: View,
    to: View,
    f: impl Fn(i64) -> Option<i64>,
    scratch: &mut Scratch,
) -> Result<(), Conflict> {
    if let Some(v) = ctx.value(from) {
        let image = f(i64::from(v)).and_then(|w| i32::try_from(w).ok());
        return ctx.fix(to, image.ok_or(Conflict)?).map(drop);
    }
    if ctx.size(from) > SUPPORT_LIMIT {
        return Ok(());
    }
    scratch.removed.clear();
    scratch.image.clear();
    for v in ctx.values(from) {
        let image =
            f(i64::from(v)).filter(|&w| i32::try_from(w).is_ok_and(|w| ctx.contains(to, w)));
        match image {
            Some(w) => scratch.image.push(w),
            None => scratch.removed.push(v),
        }
    }
    for &v in &scratch.removed {
        ctx.remove(from, v)?;
    }
    scratch.image.sort_unstable();
    scratch.image.dedup();
    restrict(ctx, to, hull_of(scratch.image.iter().copied()))?;
    if ctx.size(to) <= SUPPORT_LIMIT {
        scratch.removed.clear();
        scratch.removed.extend(
            ctx.values(to)
                .filter(|&w| scratch.image.binary_search(&i64::from(w)).is_err()),
        );
        for &w in &scratch.removed {
            ctx.remove(to, w)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounded_division() {
        for (a, b, floor, ceil) in [
            (7, 2, 3, 4),
            (-7, 2, -4, -3),
            (7, -2, -4, -3),
            (-7, -2, 3, 4),
        ] {
            assert_eq!((div_floor(a, b), div_ceil(a, b)), (floor, ceil), "{a}/{b}");
        }
        assert_eq!((div_floor(6, -3), div_ceil(6, -3)), (-2, -2));
    }

    #[test]
    fn parts_and_hulls() {
        assert_eq!(sign_parts((-3, 5)), [Some((-3, -1)), Some((1, 5))]);
        assert_eq!(sign_parts((0, 0)), [None, None]);
        assert_eq!(sign_parts((2, 5)), [None, Some((2, 5))]);
        assert_eq!(hull_of([3, -1, 7]), Some((-1, 7)));
        assert_eq!(hull(None, None), None);
    }
}
