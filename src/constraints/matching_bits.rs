//! Régin's filtering for all-different on bitmasks, when every view's values fit one
//! window of `64·W` values, `W` words (N-Queens up to 32 and small permutations in one
//! word, Golomb rulers' distances in two): the same pruning as
//! [`Matching`](super::matching::Matching), with sets of values as words instead of a
//! graph built per call.
//!
//! A maximum matching of views to values is kept between calls (each view's value,
//! dropped when it left the view) and completed by augmenting paths. An unmatched
//! value `v` of a view `x` matched to `u` belongs to some maximum matching exactly when
//! `x` can move to `v` and the views displaced in turn end on a free value or on `u`:
//! in the graph from each matched value to the values of its view, `v` reaches a free
//! value or `u`. The values that reach a free value are found by growing that set from
//! the free values; among the others, which reach which is the transitive closure
//! (Warshall's, one set per value).
//!
use crate::propagator::Conflict;

/// No value, or no view.
const NONE: u16 = u16::MAX;

/// A set of window values, bit `v % 64` of word `v / 64` for value `v`.
pub(crate) type Set<const W: usize> = [u64; W];

/// Whether `v` (below `64·W`) is in a set. The word's index is taken modulo `W`, a
/// no-op that spares the bounds check (one word: always word 0).
#[inline(always)]
fn has<const W: usize>(set: &Set<W>, v: usize) -> bool {
    set[v / 64 % W] >> (v % 64) & 1 == 1
}

/// Adds `v` (below `64·W`) to a set.
#[inline(always)]
pub(crate) fn insert<const W: usize>(set: &mut Set<W>, v: usize) {
    set[v / 64 % W] |= 1 << (v % 64);
}

/// The values `lo..=hi` (below `64·W`).
#[inline(always)]
pub(crate) fn range_set<const W: usize>(lo: usize, hi: usize) -> Set<W> {
    std::array::from_fn(|w| {
        let (first, last) = (w * 64, w * 64 + 63);
        if hi < first || lo > last {
            0
        } else {
            (!0u64 << (lo.max(first) - first)) & (!0u64 >> (last - hi.min(last)))
        }
    })
}

#[inline(always)]
fn meets<const W: usize>(a: &Set<W>, b: &Set<W>) -> bool {
    (0..W).any(|i| a[i] & b[i] != 0)
}

#[inline(always)]
fn minus<const W: usize>(a: &Set<W>, b: &Set<W>) -> Set<W> {
    std::array::from_fn(|i| a[i] & !b[i])
}

#[inline(always)]
fn and<const W: usize>(a: &Set<W>, b: &Set<W>) -> Set<W> {
    std::array::from_fn(|i| a[i] & b[i])
}

#[inline(always)]
fn or_into<const W: usize>(a: &mut Set<W>, b: &Set<W>) {
    for i in 0..W {
        a[i] |= b[i];
    }
}

/// The smallest value of a set, if any.
#[inline(always)]
fn first<const W: usize>(set: &Set<W>) -> Option<usize> {
    (0..W)
        .find(|&i| set[i] != 0)
        .map(|i| i * 64 + set[i].trailing_zeros() as usize)
}

/// Calls `f` with each value of a set, ascending (a word at a time: one word's loop is
/// the plain bit loop).
#[inline(always)]
fn each<const W: usize>(set: Set<W>, mut f: impl FnMut(usize)) {
    for (w, mut word) in set.into_iter().enumerate() {
        while word != 0 {
            f(w * 64 + word.trailing_zeros() as usize);
            word &= word - 1;
        }
    }
}

/// The matching kept between calls: each view's value, or [`NONE`].
#[derive(Clone, Debug, Default)]
pub(crate) struct BitMatching {
    mates: Vec<u16>,
}

/// One call's state: the masks and the matching, values (`V` of them) to views.
struct Search<'a, const W: usize, const V: usize> {
    masks: &'a [Set<W>],
    mates: &'a mut [u16],
    owner: [u16; V],
    matched: Set<W>,
    visited: Set<W>,
}

impl<const W: usize, const V: usize> Search<'_, W, V> {
    /// An augmenting path from the unmatched view `x`, depth first (at most one level
    /// per view).
    fn augment(&mut self, x: usize) -> bool {
        let mask = self.masks[x];
        if let Some(v) = first(&minus(&minus(&mask, &self.matched), &self.visited)) {
            self.assign(x, v);
            return true;
        }
        for (w, &word) in mask.iter().enumerate() {
            let mut candidates = word & !self.visited[w];
            while candidates != 0 {
                let v = w * 64 + candidates.trailing_zeros() as usize;
                candidates &= candidates - 1;
                if has(&self.visited, v) {
                    continue;
                }
                insert(&mut self.visited, v);
                if self.augment(usize::from(self.owner[v % V])) {
                    self.assign(x, v);
                    return true;
                }
            }
        }
        false
    }

    /// Matches `x` with `v` (whose previous view, if any, has already moved).
    fn assign(&mut self, x: usize, v: usize) {
        self.mates[x] = v as u16;
        self.owner[v % V] = x as u16;
        insert(&mut self.matched, v);
    }
}

impl BitMatching {
    /// Narrows each view's mask (a set of window values, `W` words: `V = 64·W`
    /// values) to the values that some maximum matching gives it; `Err` if no matching
    /// covers every view. There are at most `V` views (more cannot differ), and `V` is
    /// below 65,535 (a value's number fits 16 bits).
    ///
    /// Cost: O(n·V) word operations for the repair, O(k²·W) for the closure of the k
    /// matched values that reach no free value, O(n·W + V·W) for the rest; nothing is
    /// allocated once warm (the per-value rows live on the stack).
    pub(crate) fn filter<const W: usize, const V: usize>(
        &mut self,
        masks: &mut [Set<W>],
    ) -> Result<(), Conflict> {
        const { assert!(V == 64 * W && V < NONE as usize) };
        let n = masks.len();
        if n > V {
            return Err(Conflict);
        }
        self.mates.resize(n, NONE);
        let mut search = Search::<W, V> {
            masks,
            mates: &mut self.mates,
            owner: [NONE; V],
            matched: [0; W],
            visited: [0; W],
        };
        // Keep the previous pairs that are still edges.
        for x in 0..n {
            let v = usize::from(search.mates[x]);
            if v < V && has(&search.masks[x], v) && !has(&search.matched, v) {
                search.assign(x, v);
            } else {
                search.mates[x] = NONE;
            }
        }
        for x in 0..n {
            if search.mates[x] == NONE {
                search.visited = [0; W];
                if !search.augment(x) {
                    return Err(Conflict);
                }
            }
        }
        let (owner, matched) = (search.owner, search.matched);
        let mut union = [0; W];
        for mask in masks.iter() {
            or_into(&mut union, mask);
        }
        // The values from which a path reaches a free value.
        let mut to_free = minus(&union, &matched);
        loop {
            let before = to_free;
            each(minus(&matched, &to_free), |u| {
                if meets(&masks[usize::from(owner[u % V])], &to_free) {
                    insert(&mut to_free, u);
                }
            });
            if to_free == before {
                break;
            }
        }
        // Among the others, what reaches what (their paths never meet `to_free`).
        let closed = minus(&matched, &to_free);
        let mut reach = [[0u64; W]; V];
        each(closed, |u| reach[u % V] = masks[usize::from(owner[u % V])]);
        each(closed, |k| {
            let row = reach[k % V];
            each(closed, |i| {
                if has(&reach[i % V], k) {
                    or_into(&mut reach[i % V], &row);
                }
            });
        });
        for (x, mask) in masks.iter_mut().enumerate() {
            let u = usize::from(self.mates[x]);
            if has(&to_free, u) {
                // Every value of x that reaches a free value, u among them.
                *mask = and(mask, &to_free);
                continue;
            }
            let mut keep = [0; W];
            insert(&mut keep, u);
            each(*mask, |v| {
                if v != u && has(&reach[v % V], u) {
                    insert(&mut keep, v);
                }
            });
            *mask = keep;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::BitMatching;
    use crate::constraints::matching::Matching;

    /// The masks after filtering with a fresh matching, or `None` on failure.
    fn filter(masks: &[u64]) -> Option<Vec<u64>> {
        let mut masks: Vec<[u64; 1]> = masks.iter().map(|&m| [m]).collect();
        BitMatching::default().filter::<1, 64>(&mut masks).ok()?;
        Some(masks.into_iter().map(|[m]| m).collect())
    }

    #[test]
    fn a_pair_locks_its_two_values() {
        // {0, 1}, {0, 1}, {0, 1, 2}: the third view loses 0 and 1.
        assert_eq!(filter(&[0b11, 0b11, 0b111]), Some(vec![0b11, 0b11, 0b100]));
    }

    #[test]
    fn free_values_keep_their_edges() {
        assert_eq!(filter(&[0b111, 0b111]), Some(vec![0b111, 0b111]));
    }

    #[test]
    fn too_few_values_fail() {
        assert_eq!(filter(&[0b11, 0b11, 0b11]), None);
    }

    #[test]
    fn a_chain_of_forced_values() {
        // {0}, {0, 1}, {1, 2}: 1 then 2 are forced.
        assert_eq!(filter(&[0b1, 0b11, 0b110]), Some(vec![0b1, 0b10, 0b100]));
    }

    #[test]
    fn a_cycle_keeps_both_directions() {
        // {0, 1}, {1, 2}, {0, 2}, {0, 1, 2, 3}: the first three use 0..=2, so the
        // last is 3; they form one cycle, and keep all their values.
        assert_eq!(
            filter(&[0b011, 0b110, 0b101, 0b1111]),
            Some(vec![0b011, 0b110, 0b101, 0b1000])
        );
    }

    #[test]
    fn a_hall_set_across_two_words() {
        // {63, 64}, {63, 64}, {62, 63, 64, 65}: the third view keeps 62 and 65.
        let pair = [1 << 63, 1];
        let mut masks = vec![pair, pair, [3 << 62, 3]];
        BitMatching::default().filter::<2, 128>(&mut masks).unwrap();
        assert_eq!(masks, vec![pair, pair, [1 << 62, 2]]);
    }

    /// The general matching's removals, applied to the masks.
    fn general<const W: usize>(masks: &[[u64; W]]) -> Option<Vec<[u64; W]>> {
        let mut start = vec![0u32];
        let mut values = Vec::new();
        for m in masks {
            values.extend((0..64 * W as u32).filter(|&v| m[v as usize / 64] >> (v % 64) & 1 == 1));
            start.push(values.len() as u32);
        }
        let mut out = masks.to_vec();
        Matching::default()
            .filter(64 * W, &start, &values, |x, v| {
                out[x][v as usize / 64] &= !(1u64 << (v % 64));
            })
            .ok()?;
        Some(out)
    }

    /// Places `pattern`'s 12 bits at `shift` in a set of `W` words.
    fn place<const W: usize>(pattern: u64, shift: u32) -> [u64; W] {
        let mut set = [0; W];
        for b in 0..12 {
            if pattern >> b & 1 == 1 {
                let v = (shift + b) as usize;
                set[v / 64] |= 1 << (v % 64);
            }
        }
        set
    }

    /// The bitmask filtering with a matching kept from a call on wider masks, and the
    /// general matching, on the same masks: views of up to 12 values at `shifts`
    /// (bounded by `W` words).
    fn same_as_general<const W: usize, const V: usize>(
        masks: &[u64],
        wider: &[u64],
        shifts: &[u32],
    ) -> Result<(), TestCaseError> {
        let masks: Vec<[u64; W]> = masks
            .iter()
            .zip(shifts)
            .map(|(&m, &s)| place(m, s % (64 * W as u32 - 11)))
            .collect();
        let mut kept = BitMatching::default();
        let mut before: Vec<[u64; W]> = masks
            .iter()
            .zip(wider)
            .zip(shifts)
            .map(|((m, &w), &s)| {
                let extra = place::<W>(w & 0xfff, s % (64 * W as u32 - 11));
                std::array::from_fn(|i| m[i] | extra[i])
            })
            .collect();
        let _ = kept.filter::<W, V>(&mut before);
        let mut after = masks.clone();
        let got = kept.filter::<W, V>(&mut after).ok().map(|()| after);
        prop_assert_eq!(got, general(&masks));
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// The same pruning as the general matching, whatever matching is kept from a
        /// previous call (here: from the masks before some values left).
        #[test]
        fn prunes_what_the_general_matching_prunes(
            masks in prop::collection::vec(1u64..(1 << 12), 1..=10),
            wider in prop::collection::vec(any::<u64>(), 10),
            shift in 0u32..52,
        ) {
            same_as_general::<1, 64>(&masks, &wider, &vec![shift; masks.len()])?;
        }

        /// The same on two and four words (windows of 65 to 256 values): each view's
        /// values at its own place, across word boundaries.
        #[test]
        fn prunes_what_the_general_matching_prunes_on_several_words(
            masks in prop::collection::vec(1u64..(1 << 12), 1..=12),
            wider in prop::collection::vec(any::<u64>(), 12),
            shifts in prop::collection::vec(0u32..245, 12),
            close in 0u32..4,
        ) {
            // Views near one another share values (Hall sets), or spread wide.
            let shifts: Vec<u32> = shifts.iter().map(|&s| if close > 0 { 55 + s % 20 } else { s }).collect();
            same_as_general::<2, 128>(&masks, &wider, &shifts)?;
            same_as_general::<4, 256>(&masks, &wider, &shifts)?;
        }
    }
}
