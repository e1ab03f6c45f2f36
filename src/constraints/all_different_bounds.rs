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
//! [`AllDifferent`](crate::constraints::AllDifferent).

use crate::ids::View;
use crate::propagator::{Conflict, Context, Rule};

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

/// Appends bound `value` to a pass's table (see [`HallIntervals::rank`]) as its count,
/// `value` less the `passed` fixed values below it, unless that count is the `last`
/// one; returns its rank.
#[inline(always)]
fn push_bound<const LEAVE_OUT_FIXED: bool>(
    bounds: &mut Vec<i64>,
    values: &mut Vec<i64>,
    last: &mut i64,
    value: i64,
    passed: usize,
) -> u32 {
    let count = value - passed as i64;
    if count != *last {
        *last = count;
        bounds.push(count);
        if LEAVE_OUT_FIXED {
            values.push(value);
        }
    }
    bounds.len() as u32 - 1
}

/// The value bound `w` of a pass's table stands for (see [`HallIntervals::rank`]): the
/// bound itself, or with the fixed views left out, the smallest value of its count.
#[inline(always)]
fn value_at<const LEAVE_OUT_FIXED: bool>(bounds: &[i64], values: &[i64], w: u32) -> i64 {
    if LEAVE_OUT_FIXED {
        values[w as usize]
    } else {
        bounds[w as usize]
    }
}

/// Whether a view's bounds as read (half-open) hold one value.
fn is_fixed(span: &Span) -> bool {
    span.hi - span.lo == 1
}

/// Moves bound `from` out of the Hall intervals `halls` while `step` gives where one
/// sends it, and returns where it stops.
fn leave_halls(
    halls: &[(i64, i64)],
    from: i64,
    step: impl Fn(i64, (i64, i64)) -> Option<i64>,
) -> i64 {
    let mut bound = from;
    while let Some(next) = halls.iter().find_map(|&hall| step(bound, hall)) {
        bound = next;
    }
    bound
}

/// Follows `t` while it points up, and returns where it stops.
fn path_max(t: &[u32], mut i: u32) -> u32 {
    while t[i as usize] > i {
        i = t[i as usize];
    }
    i
}

/// Follows `t` while it points down, and returns where it stops.
fn path_min(t: &[u32], mut i: u32) -> u32 {
    while t[i as usize] < i {
        i = t[i as usize];
    }
    i
}

/// Points every node on the path from `start` to `end` at `to` (path compression).
fn path_set(t: &mut [u32], start: u32, end: u32, to: u32) {
    let mut l = start;
    while l != end {
        let k = l;
        l = t[k as usize];
        t[k as usize] = to;
    }
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
            #[cfg(debug_assertions)]
            self.check_nothing_to_prune();
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
        ctx.set_rule(Rule::HallInterval);
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

    /// Checks, in debug builds, that a pass [`HallIntervals::may_prune`] skipped
    /// would indeed have moved nothing: the pass over every view, fixed or not.
    #[cfg(debug_assertions)]
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

    /// What [`HallIntervals::pass`] does with the fixed views left out, for at most
    /// [`SCAN_VIEWS`] unfixed views, by trying every interval from an unfixed view's
    /// minimum to another's maximum: cheaper than the forests for few views, and
    /// O(1) per interval tried.
    ///
    /// The values are counted as in [`HallIntervals::rank`]: only those no fixed
    /// view takes. The views are numbered by ascending maximum; going down through
    /// the minima, `inside` collects the numbers of the views whose minimum is at
    /// least the current one `a`, so that its k-th bit from the bottom, view `j`,
    /// closes the interval from `a` to `j`'s maximum holding k views. More views than
    /// values is a conflict, as many a Hall interval. Those found, each view's bounds
    /// move out of every Hall interval that holds a bound of the view but not the
    /// whole view (chaining: moved past one, a bound may land in the next). Returns
    /// whether it found a Hall interval: otherwise no bound moves.
    ///
    /// The views are sorted by maximum (see [`resort`]), the unfixed ones' minima
    /// after them (in that order, they are nearly sorted by minimum too); then one
    /// step per pair of unfixed views (a view and another whose minimum is at least
    /// as large), cut short once the values already exceed the views left; the moves
    /// take O(n·h) for h Hall intervals, only when some are found.
    fn scan(&mut self) -> Result<bool, Conflict> {
        self.sort_by_max();
        let HallIntervals {
            spans,
            by_max,
            mins,
            fixed_values,
            order,
            ends,
            halls,
            ..
        } = self;
        // The views by ascending maximum, each with its maximum + 1's count: the
        // fixed views passed are those below it (none on it). And their minima with
        // their numbers, nearly sorted already.
        order.clear();
        ends.clear();
        mins.clear();
        fixed_values.clear();
        for &k in by_max.iter() {
            let v = key_view(k);
            let span = &spans[v];
            if is_fixed(span) {
                fixed_values.push(span.lo);
                continue;
            }
            mins.push(key(span.lo, order.len()));
            order.push(v as u32);
            ends.push(span.hi - fixed_values.len() as i64);
        }
        resort(mins);
        // Down through the minima, each distinct one once all the views with it are
        // in `inside`; `below` counts the fixed values below it.
        halls.clear();
        let (mut inside, mut count) = (0u64, 0i64);
        let mut below = fixed_values.len();
        let mut down = mins.iter().rev().peekable();
        while let Some(&k) = down.next() {
            inside |= 1 << key_view(k);
            count += 1;
            let a = key_value(k);
            if down.peek().is_some_and(|&&m| key_value(m) == a) {
                continue;
            }
            while below > 0 && fixed_values[below - 1] > a {
                below -= 1;
            }
            let start = a - below as i64;
            let (mut rest, mut held) = (inside, 0);
            while rest != 0 {
                let j = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                held += 1;
                let values = ends[j] - start;
                if values < held {
                    return Err(Conflict);
                }
                if values == held {
                    halls.push((a, spans[order[j] as usize].hi));
                } else if values > count {
                    // Every later interval holds more values than the views left.
                    break;
                }
            }
        }
        if halls.is_empty() {
            return Ok(false);
        }
        for span in spans.iter_mut().filter(|s| !is_fixed(s)) {
            span.new_lo = leave_halls(halls, span.lo, |v, (a, e)| {
                (a <= v && v < e && e < span.hi).then_some(e)
            });
            span.new_hi = leave_halls(halls, span.hi, |v, (a, e)| {
                (span.lo < a && a < v && v <= e).then_some(a)
            });
        }
        Ok(true)
    }

    /// Ranks the bounds and runs both sweeps, with or without the fixed views (see
    /// [`HallIntervals::rank`]); a conflict if some interval holds more views than
    /// values.
    #[inline(never)]
    fn pass<const LEAVE_OUT_FIXED: bool>(&mut self) -> Result<(), Conflict> {
        self.rank::<LEAVE_OUT_FIXED>();
        self.filter_lower::<LEAVE_OUT_FIXED>()?;
        self.filter_upper::<LEAVE_OUT_FIXED>()
    }

    /// Merges the minima and maxima + 1 of the active views into `bounds`, giving
    /// each its ranks. With `LEAVE_OUT_FIXED`, the fixed views are left out, and their
    /// values taken out of the value line: each bound counts the values below it that
    /// no fixed view takes. That needs value elimination done (no fixed view's value
    /// in another view, so no two fixed views on one value and none on another view's
    /// minimum), and then gives the same Hall intervals over the other views: such an
    /// interval of k unfixed views and the fixed views inside holds k values no fixed
    /// view takes, and conversely. A bound moves to the smallest value of its count
    /// (the other values of that count are fixed views', gone from the view).
    fn rank<const LEAVE_OUT_FIXED: bool>(&mut self) {
        let HallIntervals {
            spans,
            by_min,
            by_max,
            bounds,
            values,
            fixed_values,
            ..
        } = self;
        if LEAVE_OUT_FIXED {
            for span in spans.iter_mut() {
                span.active = span.hi - span.lo > 1;
            }
        }
        bounds.clear();
        values.clear();
        fixed_values.clear();
        // The first sentinel, set once the smallest bound is known.
        bounds.push(0);
        if LEAVE_OUT_FIXED {
            values.push(0);
        }
        let mut last = i64::MIN;
        let mut mins = by_min.iter().peekable();
        for &k in by_max.iter() {
            if LEAVE_OUT_FIXED && !spans[key_view(k)].active {
                continue;
            }
            let end = key_value(k) + 1;
            // The minima up to `end`, and the fixed values below it.
            while let Some(&&m) = mins.peek() {
                let (min, span) = (key_value(m), &mut spans[key_view(m)]);
                let fixed = LEAVE_OUT_FIXED && !span.active;
                if min > end || (min == end && fixed) {
                    break;
                }
                mins.next();
                if fixed {
                    fixed_values.push(min);
                    continue;
                }
                let passed = fixed_values.len();
                span.min_rank =
                    push_bound::<LEAVE_OUT_FIXED>(bounds, values, &mut last, min, passed);
            }
            let passed = fixed_values.len();
            spans[key_view(k)].max_rank =
                push_bound::<LEAVE_OUT_FIXED>(bounds, values, &mut last, end, passed);
        }
        bounds[0] = bounds[1] - 2;
        bounds.push(last + 2);
        if LEAVE_OUT_FIXED {
            let rest = mins.filter(|&&m| !spans[key_view(m)].active);
            fixed_values.extend(rest.map(|&m| key_value(m)));
            values[0] = values[1] - 2;
            values.push(values[values.len() - 1] + 2);
        }
        let len = bounds.len();
        self.t.resize(len, 0);
        self.h.resize(len, 0);
        self.d.resize(len, 0);
    }

    /// Raises minima out of Hall intervals, visiting views by ascending maximum.
    fn filter_lower<const LEAVE_OUT_FIXED: bool>(&mut self) -> Result<(), Conflict> {
        let HallIntervals {
            spans,
            by_max,
            bounds,
            values,
            t,
            h,
            d,
            ..
        } = self;
        for (i, (((t, h), d), pair)) in (t.iter_mut().zip(h.iter_mut()).zip(d.iter_mut()))
            .skip(1)
            .zip(bounds.windows(2))
            .enumerate()
        {
            (*t, *h, *d) = (i as u32, i as u32, pair[1] - pair[0]);
        }
        for &k in by_max.iter() {
            let span = &mut spans[key_view(k)];
            if LEAVE_OUT_FIXED && !span.active {
                continue;
            }
            let (x, y) = (span.min_rank, span.max_rank);
            let mut z = path_max(t, x + 1);
            let j = t[z as usize];
            d[z as usize] -= 1;
            if d[z as usize] == 0 {
                t[z as usize] = z + 1;
                z = path_max(t, z + 1);
                t[z as usize] = j;
            }
            path_set(t, x + 1, z, z);
            let room = bounds[z as usize] - bounds[y as usize];
            if d[z as usize] < room {
                return Err(Conflict);
            }
            if h[x as usize] > x {
                let w = path_max(h, h[x as usize]);
                span.new_lo = value_at::<LEAVE_OUT_FIXED>(bounds, values, w);
                path_set(h, x, w, w);
            }
            if d[z as usize] == room {
                let start = h[y as usize];
                path_set(h, start, j - 1, y);
                h[y as usize] = j - 1;
            }
        }
        Ok(())
    }

    /// Lowers maxima out of Hall intervals, visiting views by descending minimum.
    fn filter_upper<const LEAVE_OUT_FIXED: bool>(&mut self) -> Result<(), Conflict> {
        let HallIntervals {
            spans,
            by_min,
            bounds,
            values,
            t,
            h,
            d,
            ..
        } = self;
        for (i, (((t, h), d), pair)) in (t.iter_mut().zip(h.iter_mut()).zip(d.iter_mut()))
            .zip(bounds.windows(2))
            .enumerate()
        {
            (*t, *h, *d) = (i as u32 + 1, i as u32 + 1, pair[1] - pair[0]);
        }
        for &k in by_min.iter().rev() {
            let span = &mut spans[key_view(k)];
            if LEAVE_OUT_FIXED && !span.active {
                continue;
            }
            let (x, y) = (span.max_rank, span.min_rank);
            let mut z = path_min(t, x - 1);
            let j = t[z as usize];
            d[z as usize] -= 1;
            if d[z as usize] == 0 {
                t[z as usize] = z - 1;
                z = path_min(t, z - 1);
                t[z as usize] = j;
            }
            path_set(t, x - 1, z, z);
            let room = bounds[y as usize] - bounds[z as usize];
            if d[z as usize] < room {
                return Err(Conflict);
            }
            if h[x as usize] < x {
                let w = path_min(h, h[x as usize]);
                span.new_hi = value_at::<LEAVE_OUT_FIXED>(bounds, values, w);
                path_set(h, x, w, w);
            }
            if d[z as usize] == room {
                let start = h[y as usize];
                path_set(h, start, j + 1, y);
                h[y as usize] = j + 1;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::propagator::Pruning;
    use crate::{Model, Rule, Solver, Strength, View};

    /// Root domains after one bounds all-different over `domains`, each shifted by
    /// its offset.
    fn root(domains: &[&[i32]], offsets: &[i32]) -> Option<Vec<Vec<i32>>> {
        let mut model = Model::new();
        let views: Vec<View> = domains
            .iter()
            .zip(offsets)
            .map(|(d, &o)| model.var_from_values(d.iter().copied()).unwrap() + o)
            .collect();
        model.all_different_with(views, Strength::Bounds).unwrap();
        Solver::new(model).root_domains()
    }

    #[test]
    fn resort_sorts_nearly_sorted_and_scrambled_orders() {
        let keys: Vec<u64> = (0..40)
            .map(|i| super::key((i * 37 % 41) as i64 - 20, i))
            .collect();
        let mut expected = keys.clone();
        expected.sort_unstable();
        // One item out of place: the insertion sort alone.
        let mut nearly = expected.clone();
        nearly.swap(3, 4);
        super::resort(&mut nearly);
        assert_eq!(nearly, expected);
        // Reversed: over the budget, the general sort takes over.
        let mut reversed: Vec<u64> = expected.iter().rev().copied().collect();
        super::resort(&mut reversed);
        assert_eq!(reversed, expected);
    }

    #[test]
    fn hall_interval_moves_the_other_bounds() {
        // [1, 2] holds two views: the third's minimum moves to 3.
        assert_eq!(
            root(&[&[1, 2], &[1, 2], &[1, 2, 3, 4]], &[0, 0, 0]),
            Some(vec![vec![1, 2], vec![1, 2], vec![3, 4]])
        );
        // ... and the maximum to 0.
        assert_eq!(
            root(&[&[1, 2], &[1, 2], &[-1, 0, 1, 2]], &[0, 0, 0]),
            Some(vec![vec![1, 2], vec![1, 2], vec![-1, 0]])
        );
        // [2, 4] holds three: the fourth's minimum, inside it, moves past it, and
        // the bounds of a view around it stay.
        assert_eq!(
            root(&[&[2, 3, 4], &[2, 4], &[3, 4], &[2, 3, 4, 5]], &[0; 4]),
            Some(vec![vec![2, 3, 4], vec![2, 4], vec![3, 4], vec![5]])
        );
        assert_eq!(
            root(&[&[2, 3, 4], &[2, 4], &[3, 4], &[1, 2, 3, 4, 5]], &[0; 4]),
            Some(vec![
                vec![2, 3, 4],
                vec![2, 4],
                vec![3, 4],
                vec![1, 2, 3, 4, 5]
            ])
        );
    }

    #[test]
    fn only_bounds_count_not_holes() {
        // {1, 3} reads as [1, 3]: no Hall interval among the first two, nothing moves
        // (domain strength would remove 1 and 3 from the third).
        assert_eq!(
            root(&[&[1, 3], &[1, 3], &[1, 2, 3]], &[0; 3]),
            Some(vec![vec![1, 3], vec![1, 3], vec![1, 2, 3]])
        );
        // A new minimum in a hole moves on to the next value, and that may open a
        // second round: [1, 2] pushes x2 to 3, a hole, so to 5, which fixes it and
        // leaves the others by value elimination.
        assert_eq!(
            root(
                &[&[1, 2], &[1, 2], &[1, 5], &[3, 4, 5, 6], &[4, 5, 7]],
                &[0; 5]
            ),
            Some(vec![
                vec![1, 2],
                vec![1, 2],
                vec![5],
                vec![3, 4, 6],
                vec![4, 7]
            ])
        );
    }

    #[test]
    fn a_bound_moved_past_a_hole_can_close_a_new_hall_interval() {
        // [1, 2] pushes x2 from 1 to 3, a hole, so to 4: then x2 and x3 fill [4, 5],
        // which pushes x4 to 6 in a second pass.
        assert_eq!(
            root(
                &[&[1, 2], &[1, 2], &[1, 4, 5], &[4, 5], &[4, 5, 6]],
                &[0; 5]
            ),
            Some(vec![
                vec![1, 2],
                vec![1, 2],
                vec![4, 5],
                vec![4, 5],
                vec![6]
            ])
        );
    }

    #[test]
    fn offsets_shift_the_intervals() {
        // x0 + 10 and x1 + 10 fill [11, 12]; x2 (no offset) loses 11 and 12.
        assert_eq!(
            root(&[&[1, 2], &[1, 2], &[11, 12, 13]], &[10, 10, 0]),
            Some(vec![vec![1, 2], vec![1, 2], vec![13]])
        );
        // x0 + 1 and x1 + 1 fill [2, 3]; x2 - 5 over [2, 4] moves to 4.
        assert_eq!(
            root(&[&[1, 2], &[1, 2], &[7, 8, 9]], &[1, 1, -5]),
            Some(vec![vec![1, 2], vec![1, 2], vec![9]])
        );
    }

    #[test]
    fn too_many_views_for_an_interval_conflict() {
        assert_eq!(root(&[&[1, 2], &[1, 2], &[2, 1]], &[0; 3]), None);
        // Holes do not help: three views over [1, 3] and a fourth fixed to 2.
        assert_eq!(
            root(&[&[1, 3], &[1, 3], &[1, 3], &[5]], &[0, 0, 0, -3]),
            None
        );
    }

    #[test]
    fn prunings_name_hall_intervals_and_eliminations() {
        let mut model = Model::new();
        let x = model.var_from_values([1, 2]).unwrap();
        let y = model.var_from_values([1, 2]).unwrap();
        let z = model.var_from_values([1, 2, 3, 4]).unwrap();
        let w = model.var_from_values([4]).unwrap();
        model
            .all_different_with([x, y, z, w], Strength::Bounds)
            .unwrap();
        let mut solver = Solver::new(model);
        solver.record_prunings(true);
        assert_eq!(
            solver.root_domains(),
            Some(vec![vec![1, 2], vec![1, 2], vec![3], vec![4]])
        );
        let mut found: Vec<(usize, i32, Rule)> = solver
            .take_prunings()
            .into_iter()
            .map(
                |Pruning {
                     var, value, rule, ..
                 }| (var.index(), value, rule),
            )
            .collect();
        found.sort_by_key(|&(var, value, _)| (var, value));
        assert_eq!(
            found,
            vec![
                (2, 1, Rule::HallInterval),
                (2, 2, Rule::HallInterval),
                (2, 4, Rule::ValueElimination),
            ]
        );
    }
}
