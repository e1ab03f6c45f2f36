//! The 64-value window that the small domains of a propagator's views share, for the
//! propagators that work on their domain words as bitmasks (all-different and the
//! intersection of two groups).

use crate::ids::View;
use crate::propagator::PostContext;

/// How far each view's domain word shifts left into one 64-value window that holds
/// the values of every view; `None` when some view's domain is more than one word or
/// the values do not fit one window.
///
/// Found when the propagator is posted, from the model's domains: every later call's
/// domains are subsets of those. A window found from one call's domains may not hold
/// the next call's, which a backtrack, a new search or a popped level widens again.
pub(crate) fn window_shifts<'a>(
    ctx: &PostContext<'_>,
    views: impl IntoIterator<Item = &'a View>,
) -> Option<Vec<u32>> {
    let words = (views.into_iter())
        .map(|view| {
            let (word, base) = ctx.small_word(view.var)?;
            Some((word, i64::from(base) + i64::from(view.offset)))
        })
        .collect::<Option<Vec<(u64, i64)>>>()?;
    let base = words.iter().map(|&(_, b)| b).min()?;
    let fits = |&(word, view_base): &(u64, i64)| {
        let shift = view_base - base;
        let top = 63 - i64::from(word.leading_zeros());
        (shift + top < 64).then_some(shift as u32)
    };
    words.iter().map(fits).collect()
}
