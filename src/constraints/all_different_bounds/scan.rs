//! The Hall intervals of at most [`SCAN_VIEWS`](super::SCAN_VIEWS) unfixed views, by a scan of the
//! pairs of views on a word of view bits: see [`HallIntervals::scan`].

use super::{HallIntervals, is_fixed, key, key_value, key_view, resort};
use crate::propagator::Conflict;

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

impl HallIntervals {
    /// What [`HallIntervals::pass`] does with the fixed views left out, for at most
    /// [`SCAN_VIEWS`](super::SCAN_VIEWS) unfixed views, by trying every interval from an unfixed view's
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
    pub(super) fn scan(&mut self) -> Result<bool, Conflict> {
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
}
