//! Bounds consistency for all-different: Hall intervals found in O(n log n) by the
//! algorithm of López-Ortiz, Quimper, Tromp and van Beek ("A fast and simple
//! algorithm for bounds consistency of the alldifferent constraint", IJCAI 2003).
//!
//! A *Hall interval* is an interval of values `[a, b]` holding the whole domain
//! (read as the interval from its minimum to its maximum) of exactly `b - a + 1`
//! views: those views use up every value of it, so every other view whose minimum
//! lies in it moves its minimum above `b`, and whose maximum lies in it moves its
//! maximum below `a`. More views than values in some interval is a conflict.
//! [`Strength::Bounds`](crate::constraints::Strength::Bounds) posts it through
//! [`AllDifferent`].
//!
//! This file reads the bounds and decides what to run; `forests.rs` is the
//! algorithm above, for any number of views; `scan.rs` finds the same intervals for
//! at most [`SCAN_VIEWS`] unfixed views by a scan of their pairs, cheaper there;
//! `tests.rs` holds the unit tests.

mod forests;
mod scan;
#[cfg(test)]
mod tests;

use crate::constraints::AllDifferent;
use crate::ids::View;
#[cfg(feature = "debug-checks")]
use crate::invariant::uncounted;
use crate::propagator::{Conflict, Context};

/// One view's bounds during a pass.
#[derive(Clone, Copy, Debug, Default)]
struct Span {
    /// The minimum and the maximum + 1 (half-open), as read.
    lo: i64,
    hi: i64,
    /// The new bounds, as the pass narrows them.
    new_lo: i64,
    new_hi: i64,
    /// The ranks of `lo` and `hi` in [`HallIntervals::bounds`].
    min_rank: u32,
    max_rank: u32,
    /// Whether the pass takes the view in: every view but the fixed ones when they
    /// are left out (see [`HallIntervals::rank`]).
    active: bool,
}

impl Span {
    /// Reads bounds `min..=max` afresh; returns 1 if they hold more than one value,
    /// else 0.
    #[inline(always)]
    fn set(&mut self, min: i32, max: i32) -> usize {
        let (lo, hi) = (i64::from(min), i64::from(max) + 1);
        (self.lo, self.hi, self.new_lo, self.new_hi) = (lo, hi, lo, hi);
        usize::from(min != max)
    }
}

/// Where a Hall pass reads the views' bounds from, rather than through the
/// [`Context`] one view at a time.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bounds<'a> {
    /// Every view's bounds, just read (by value elimination).
    pub(crate) known: Option<&'a [(i32, i32)]>,
    /// When every view's domain is one word: each view's cell in [`Context::words`]
    /// and the value its bit 0 stands for (see `AllDifferent::cells`); else empty.
    pub(crate) cells: &'a [(u32, i32)],
}

/// The scratch state of the Hall-interval pass, kept between calls so that a warm
/// propagator allocates nothing. Nothing here is backtrackable: every call reads the
/// current bounds afresh, and the two sort orders only serve as good starting
/// permutations for the next sort.
#[derive(Clone, Debug, Default)]
pub(crate) struct HallIntervals {
    /// Each view's bounds, by index.
    spans: Vec<Span>,
    /// The views by ascending minimum, and by ascending maximum, each as a sort
    /// [`key`]: the bound and the view's index in one word, so that the sorts compare
    /// words, not bounds looked up by index.
    by_min: Vec<u64>,
    by_max: Vec<u64>,
    /// The distinct minima and maxima + 1 of the active views, ascending, between
    /// two sentinels: each as its count of values not taken by a fixed view left out
    /// (see [`HallIntervals::rank`]), and as the smallest value of that count.
    bounds: Vec<i64>,
    values: Vec<i64>,
    /// The values of the fixed views left out, ascending.
    fixed_values: Vec<i64>,
    /// The union-find style forests of the paper: `t` links each bound to the next
    /// one with capacity left, `h` to the end of its Hall interval, `d` holds the
    /// capacities.
    t: Vec<u32>,
    h: Vec<u32>,
    d: Vec<i64>,
    /// The scan's table (see [`HallIntervals::scan`]): the unfixed views by ascending
    /// maximum, each as its index and its maximum + 1's count of values not taken
    /// by a fixed view.
    order: Vec<u32>,
    ends: Vec<i64>,
    /// The unfixed views by ascending minimum, each as a sort [`key`] of its minimum
    /// and its number in `order`.
    mins: Vec<u64>,
    /// The Hall intervals the scan found, half-open.
    halls: Vec<(i64, i64)>,
    /// `by_size[k]`: how many unfixed views have k values (k up to the number of
    /// views; larger ones are not counted), for [`HallIntervals::may_prune`].
    by_size: Vec<u32>,
    /// The calls since the size test last skipped a pass (see [`PROBE`]).
    misses: u32,
}

/// After this many calls in a row whose size test ([`HallIntervals::may_prune`])
/// skipped nothing, the test runs on one call in [`PROBE`] only: where it never pays
/// (views of few values each, but spread apart, as a Golomb ruler's distances) it
/// then costs next to nothing, and it comes back on the first time it pays again.
const MISSES: u32 = 4;

/// See [`MISSES`].
const PROBE: u32 = 16;

/// The most unfixed views [`HallIntervals::scan`] takes (one bit each in a word);
/// more go through the forests of [`HallIntervals::pass`].
const SCAN_VIEWS: usize = 64;

/// The sort key of view `view` by bound `value`: the value in the high half
/// (shifted so that unsigned order is the values' order), the index in the low.
fn key(value: i64, view: usize) -> u64 {
    let high = (value as i32 as u32) ^ (1 << 31);
    (u64::from(high) << 32) | view as u64
}

/// The bound of a sort [`key`].
fn key_value(key: u64) -> i64 {
    i64::from(((key >> 32) as u32 ^ (1 << 31)) as i32)
}

/// The view's index of a sort [`key`].
fn key_view(key: u64) -> usize {
    (key & 0xffff_ffff) as usize
}

/// Whether a view's bounds as read (half-open) hold one value.
fn is_fixed(span: &Span) -> bool {
    span.hi - span.lo == 1
}

/// Sorts `keys` ascending. The order of the last call is nearly right (a few bounds
/// moved), so an insertion sort finishes it in O(n) plus the moves; past a budget of
/// 8n moves (the bounds were reordered wholesale, say after a backtrack), it hands
/// over to a general O(n log n) sort.
fn resort(keys: &mut [u64]) {
    let mut budget = 8 * keys.len();
    for i in 1..keys.len() {
        let item = keys[i];
        let mut j = i;
        while j > 0 && keys[j - 1] > item {
            if budget == 0 {
                keys[j] = item;
                keys.sort_unstable();
                return;
            }
            budget -= 1;
            keys[j] = keys[j - 1];
            j -= 1;
        }
        keys[j] = item;
    }
}

impl HallIntervals {
    /// One pass over `views`: conflict if some interval holds more views than values,
    /// otherwise every minimum and maximum moved out of the Hall intervals that do
    /// not contain its view. Pushes onto `fixed` the index of every view this pass
    /// fixed, and returns whether another pass might prune more: when a new bound
    /// fell into a hole of the domain (the store moved it further), or when views
    /// share a variable (`shared`). Without holes and shared variables one pass
    /// reaches bounds consistency: the lower-bound pass leaves the Hall intervals the
    /// upper-bound pass needs unchanged.
    ///
    /// The caller has done value elimination: no fixed view's value is left in
    /// another view. Then, when no two views share a variable, the pass is skipped
    /// if the views' sizes show that it can move nothing
    /// ([`HallIntervals::may_prune`], tested on fewer calls where it has not paid
    /// lately: see [`MISSES`]). (With shared variables, a view fixed by a
    /// pass may fix others that value elimination has not seen yet.)
    ///
    /// O(n log n) for n views: two sorts (linear plus the moves when the order
    /// changed little since the last call, see [`resort`]) and two near-linear
    /// sweeps; O(n) when skipped. With at most [`SCAN_VIEWS`] unfixed views (and no
    /// shared variable), the sorts and a scan of the pairs of unfixed views instead
    /// ([`HallIntervals::scan`]).
    pub(crate) fn propagate(
        &mut self,
        ctx: &mut Context<'_>,
        views: &[View],
        bounds: Bounds<'_>,
        shared: bool,
        fixed: &mut Vec<u32>,
    ) -> Result<bool, Conflict> {
        if views.is_empty() {
            return Ok(false);
        }
        let test = !shared && (self.misses < MISSES || self.misses.is_multiple_of(PROBE));
        let unfixed = self.read(ctx, views, bounds, test);
        // Fewer than two unfixed views is the test's first case, free: the pass
        // leaves the fixed views out, and needs two others.
        if (test && !self.may_prune(unfixed)) || (!shared && unfixed < 2) {
            self.misses = 0;
            #[cfg(feature = "debug-checks")]
            uncounted(|| self.check_nothing_to_prune());
            return Ok(false);
        }
        self.misses = self.misses.saturating_add(1);
        if shared {
            self.sort();
            self.pass::<false>()?;
        } else if unfixed <= SCAN_VIEWS {
            if !self.scan()? {
                return Ok(false);
            }
        } else {
            self.sort();
            self.pass::<true>()?;
        }
        ctx.set_label(AllDifferent::HALL_INTERVAL);
        let mut again = false;
        for (i, (span, &view)) in self.spans.iter().zip(views).enumerate() {
            let mut changed = false;
            if span.new_lo > span.lo {
                let lo = i32::try_from(span.new_lo).map_err(|_| Conflict)?;
                ctx.set_min(view, lo)?;
                again |= self.skipped_free(lo, ctx.min(view));
                changed = true;
            }
            if span.new_hi < span.hi {
                let hi = i32::try_from(span.new_hi - 1).map_err(|_| Conflict)?;
                ctx.set_max(view, hi)?;
                again |= self.skipped_free(ctx.max(view) + 1, hi + 1);
                changed = true;
            }
            if changed {
                again |= shared;
                if ctx.is_fixed(view) {
                    fixed.push(i as u32);
                }
            }
        }
        Ok(again)
    }

    /// Reads the bounds (see [`Bounds`]), and with `sizes` counts the unfixed views
    /// of each size into `by_size`. Returns the number of unfixed views.
    fn read(
        &mut self,
        ctx: &Context<'_>,
        views: &[View],
        bounds: Bounds<'_>,
        sizes: bool,
    ) -> usize {
        let Bounds { known, cells } = bounds;
        let n = views.len();
        if self.spans.len() != n {
            self.spans = vec![Span::default(); n];
            self.by_min = (0..n as u64).collect();
            self.by_max = (0..n as u64).collect();
        }
        let mut unfixed = 0;
        if let Some(known) = known {
            for (span, &(min, max)) in self.spans.iter_mut().zip(known) {
                unfixed += span.set(min, max);
            }
        } else if cells.is_empty() {
            for (span, &view) in self.spans.iter_mut().zip(views) {
                let (min, max) = ctx.bounds(view);
                unfixed += span.set(min, max);
            }
        } else {
            let words = ctx.words();
            for (span, &(cell, base)) in self.spans.iter_mut().zip(cells) {
                let word = words[cell as usize];
                // Each bound is a value of the view, so it fits an `i32`.
                let min = base + word.trailing_zeros() as i32;
                unfixed += span.set(min, base + (63 - word.leading_zeros()) as i32);
            }
        }
        if sizes {
            self.by_size.clear();
            self.by_size.resize(n + 1, 0);
            for (i, span) in self.spans.iter().enumerate() {
                let size = match cells.get(i) {
                    _ if is_fixed(span) => continue,
                    Some(&(cell, _)) => ctx.words()[cell as usize].count_ones(),
                    None => ctx.size(views[i]),
                };
                if let Some(count) = self.by_size.get_mut(size as usize) {
                    *count += 1;
                }
            }
        }
        unfixed
    }

    /// Whether a pass might move a bound or fail, given that value elimination is
    /// done and `unfixed` views are not fixed (their sizes counted in `by_size`).
    ///
    /// An interval that moves a bound (a Hall interval with another view's bound in
    /// it) or holds more views than values holds an unfixed view: fixed views alone
    /// fill distinct values, and value elimination has taken those values out of every
    /// other view, so that none of its bounds lies on them. Each unfixed view inside
    /// the interval has none of the fixed views' values either, so it has at most as
    /// many values as the interval holds unfixed views. So the pass needs k unfixed
    /// views of at most k values each, for some k. O(n).
    fn may_prune(&self, unfixed: usize) -> bool {
        let mut small = 0;
        (2..=unfixed).any(|k| {
            small += self.by_size[k] as usize;
            small >= k
        })
    }

    /// Whether the values `from..to` hold one that no fixed view left out takes: a
    /// bound moved over it (into a hole of the domain) may let another pass prune more.
    fn skipped_free(&self, from: i32, to: i32) -> bool {
        let (from, to) = (i64::from(from), i64::from(to));
        let fixed = self.fixed_values.partition_point(|&v| v < to)
            - self.fixed_values.partition_point(|&v| v < from);
        to - from > fixed as i64
    }

    /// Checks, with the `debug-checks` feature, that a pass
    /// [`HallIntervals::may_prune`] skipped would indeed have moved nothing: the pass
    /// over every view, fixed or not.
    #[cfg(feature = "debug-checks")]
    fn check_nothing_to_prune(&mut self) {
        self.sort();
        let failed = self.pass::<false>().is_err();
        let moved = (self.spans.iter()).any(|s| s.new_lo != s.lo || s.new_hi != s.hi);
        assert!(!failed && !moved, "a skipped Hall pass would have pruned");
    }

    /// Sorts the views by their bounds as read.
    fn sort(&mut self) {
        let spans = &self.spans;
        for k in &mut self.by_min {
            let v = key_view(*k);
            *k = key(spans[v].lo, v);
        }
        resort(&mut self.by_min);
        self.sort_by_max();
    }

    /// Sorts the views by their maxima as read.
    fn sort_by_max(&mut self) {
        let spans = &self.spans;
        // By the maximum itself, which fits an `i32`: the same order as by `hi`.
        for k in &mut self.by_max {
            let v = key_view(*k);
            *k = key(spans[v].hi - 1, v);
        }
        resort(&mut self.by_max);
    }
}
