//! Narrowing a view to the values a propagator supports (element, table, equality,
//! differences, membership), reading the view value by value only where few values
//! can stay: a domain of the whole `i32` range narrowed to `{i32::MIN, 0, i32::MAX}`
//! costs three values, not four billion. Built on the public [`Context`] only, as a
//! user's propagator could be.

use crate::{Conflict, Context, View};

/// The most values removed from inside an interval domain at once: each chunk of 64
/// values it punches holes in takes a word, so past this many a propagator moves only
/// the bounds and leaves the values inside to the search, one at a time.
const PUNCH_LIMIT: u64 = 1 << 16;

/// The values a propagator keeps in a view, found from either end without reading
/// the view's values one by one.
pub(super) trait Support {
    /// Whether `value` is supported.
    fn accepts(&self, ctx: &Context<'_>, value: i32) -> bool;

    /// A value at least `from`, with nothing supported from `from` up to it (the
    /// smallest supported value at least `from`, or any value below that one);
    /// `None` if nothing from `from` up is supported.
    fn skip_up(&self, ctx: &Context<'_>, from: i32) -> Option<i32>;

    /// [`Support::skip_up`] downwards: a value at most `from`, with nothing supported
    /// between it and `from`.
    fn skip_down(&self, ctx: &Context<'_>, from: i32) -> Option<i32>;

    /// How many values the support holds as a list (0 if it is, or stands on, a
    /// domain kept as an interval, whose size goes by its span).
    fn listed(&self, ctx: &Context<'_>) -> u64;
}

/// The values of a sorted, deduplicated list.
pub(super) struct Sorted<'a>(pub(super) &'a [i32]);

impl Support for Sorted<'_> {
    fn accepts(&self, _: &Context<'_>, value: i32) -> bool {
        self.0.binary_search(&value).is_ok()
    }

    fn skip_up(&self, _: &Context<'_>, from: i32) -> Option<i32> {
        self.0.get(self.0.partition_point(|&v| v < from)).copied()
    }

    fn skip_down(&self, _: &Context<'_>, from: i32) -> Option<i32> {
        let end = self.0.partition_point(|&v| v <= from);
        end.checked_sub(1).map(|i| self.0[i])
    }

    fn listed(&self, _: &Context<'_>) -> u64 {
        self.0.len() as u64
    }
}

/// The values within `lo..=hi` that `keep` accepts: a range no wider than the values
/// it stands for (an element's indices).
pub(super) struct Within<F> {
    pub(super) lo: i32,
    pub(super) hi: i32,
    pub(super) keep: F,
}

impl<F: Fn(&Context<'_>, i32) -> bool> Support for Within<F> {
    fn accepts(&self, ctx: &Context<'_>, value: i32) -> bool {
        (self.lo..=self.hi).contains(&value) && (self.keep)(ctx, value)
    }

    fn skip_up(&self, _: &Context<'_>, from: i32) -> Option<i32> {
        (from <= self.hi).then(|| from.max(self.lo))
    }

    fn skip_down(&self, _: &Context<'_>, from: i32) -> Option<i32> {
        (from >= self.lo).then(|| from.min(self.hi))
    }

    fn listed(&self, _: &Context<'_>) -> u64 {
        (i64::from(self.hi) - i64::from(self.lo) + 1).max(0) as u64
    }
}

/// The values `v` with `v + shift` in `view` for one of the `shifts`: `view`'s own
/// values for the shift 0 (equality), a union of shifted copies for a difference.
pub(super) struct Shifted<'a> {
    pub(super) view: View,
    pub(super) shifts: &'a [i64],
}

impl Shifted<'_> {
    /// Per shifted copy, its nearest value from `from`, upwards (`up`) or downwards.
    fn nearest<'c>(
        &'c self,
        ctx: &'c Context<'_>,
        from: i32,
        up: bool,
    ) -> impl Iterator<Item = i32> + 'c {
        self.shifts.iter().filter_map(move |&shift| {
            let at = i64::from(from) + shift;
            // Past one end of i32 the copy holds nothing that way; past the other, all.
            let at = if up {
                at.max(i64::from(i32::MIN))
            } else {
                at.min(i64::from(i32::MAX))
            };
            let at = i32::try_from(at).ok()?;
            let value = if up {
                ctx.value_at_least(self.view, at)
            } else {
                ctx.value_at_most(self.view, at)
            }?;
            i32::try_from(i64::from(value) - shift).ok()
        })
    }
}

impl Support for Shifted<'_> {
    fn accepts(&self, ctx: &Context<'_>, value: i32) -> bool {
        self.shifts.iter().any(|&shift| {
            i32::try_from(i64::from(value) + shift).is_ok_and(|w| ctx.contains(self.view, w))
        })
    }

    fn skip_up(&self, ctx: &Context<'_>, from: i32) -> Option<i32> {
        self.nearest(ctx, from, true).min()
    }

    fn skip_down(&self, ctx: &Context<'_>, from: i32) -> Option<i32> {
        self.nearest(ctx, from, false).max()
    }

    fn listed(&self, ctx: &Context<'_>) -> u64 {
        if ctx.is_interval(self.view) {
            0
        } else {
            u64::from(ctx.size(self.view)) * self.shifts.len() as u64
        }
    }
}

/// Narrowing to a [`Support`], on the context of any propagator.
pub(super) trait RetainSupported {
    /// The smallest value of `view`, at least `from`, that `support` accepts: the two
    /// step past each other's gaps, so a wide interval and a short list meet at once.
    fn first_supported(&self, view: View, support: &impl Support, from: i32) -> Option<i32>;

    /// The largest value of `view`, at most `from`, that `support` accepts.
    fn last_supported(&self, view: View, support: &impl Support, from: i32) -> Option<i32>;

    /// Whether removing `count` values from inside `view` would cost by their span:
    /// `view` is an interval and `count` is past [`PUNCH_LIMIT`].
    fn punches_wide(&self, view: View, count: u64) -> bool;

    /// Keeps in `view` only the values `support` accepts. The bounds move first, to
    /// supported values; then the values between them are read and the others
    /// removed, unless `view` is an interval holding more than twice the values the
    /// support lists plus [`PUNCH_LIMIT`] (a FlatZinc `var int` spans 2 * 10^8): then
    /// the values inside stay. `Ok(true)` when every value left is supported,
    /// `Ok(false)` when only the bounds are. `scratch` is reused for the removals.
    fn retain_supported(
        &mut self,
        view: View,
        support: &impl Support,
        scratch: &mut Vec<i32>,
    ) -> Result<bool, Conflict>;
}

impl RetainSupported for Context<'_> {
    fn first_supported(&self, view: View, support: &impl Support, from: i32) -> Option<i32> {
        let mut at = from;
        loop {
            let value = self.value_at_least(view, support.skip_up(self, at)?)?;
            if support.accepts(self, value) {
                return Some(value);
            }
            at = value.checked_add(1)?;
        }
    }

    fn last_supported(&self, view: View, support: &impl Support, from: i32) -> Option<i32> {
        let mut at = from;
        loop {
            let value = self.value_at_most(view, support.skip_down(self, at)?)?;
            if support.accepts(self, value) {
                return Some(value);
            }
            at = value.checked_sub(1)?;
        }
    }

    fn punches_wide(&self, view: View, count: u64) -> bool {
        self.is_interval(view) && count > PUNCH_LIMIT
    }

    fn retain_supported(
        &mut self,
        view: View,
        support: &impl Support,
        scratch: &mut Vec<i32>,
    ) -> Result<bool, Conflict> {
        let lo = self.first_supported(view, support, self.min(view));
        let hi = self.last_supported(view, support, self.max(view));
        let (Some(lo), Some(hi)) = (lo, hi) else {
            return Err(Conflict);
        };
        self.set_min(view, lo)?;
        self.set_max(view, hi)?;
        let unlisted = u64::from(self.size(view)).saturating_sub(2 * support.listed(self));
        if self.punches_wide(view, unlisted) {
            return Ok(false);
        }
        scratch.clear();
        scratch.extend(self.values(view).filter(|&v| !support.accepts(self, v)));
        for &v in scratch.iter() {
            self.remove(view, v)?;
        }
        Ok(true)
    }
}
