//! The Hall intervals of any number of views, by the union-find forests of
//! López-Ortiz et al.: see [`HallIntervals::pass`].

use super::{HallIntervals, key_value, key_view};
use crate::propagator::Conflict;

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

impl HallIntervals {
    /// Ranks the bounds and runs both sweeps, with or without the fixed views (see
    /// [`HallIntervals::rank`]); a conflict if some interval holds more views than
    /// values.
    #[inline(never)]
    pub(super) fn pass<const LEAVE_OUT_FIXED: bool>(&mut self) -> Result<(), Conflict> {
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
