//! Régin's filtering for all-different on bitmasks, when every view's values fit one
//! 64-value window (N-Queens up to 32, small permutations): the same pruning as
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
//! (Warshall's, one word per value).
//!
//! Cost: O(n·64) words for the repair, O(k²) word operations for the closure of the k
//! matched values that reach no free value, O(n) for the rest; nothing is allocated.

use crate::propagator::Conflict;

/// No value, or no view.
const NONE: u8 = u8::MAX;

/// The matching kept between calls: each view's value bit, or [`NONE`].
#[derive(Clone, Debug, Default)]
pub(crate) struct BitMatching {
    mates: Vec<u8>,
}

/// One call's state: the masks and the matching, values to views.
struct Search<'a> {
    masks: &'a [u64],
    mates: &'a mut [u8],
    owner: [u8; 64],
    matched: u64,
    visited: u64,
}

impl Search<'_> {
    /// An augmenting path from the unmatched view `x`, depth first (at most one level
    /// per view, 64).
    fn augment(&mut self, x: usize) -> bool {
        let free = self.masks[x] & !self.matched & !self.visited;
        if free != 0 {
            self.assign(x, free.trailing_zeros());
            return true;
        }
        let mut candidates = self.masks[x] & !self.visited;
        while candidates != 0 {
            let v = candidates.trailing_zeros();
            candidates &= candidates - 1;
            if self.visited >> v & 1 == 1 {
                continue;
            }
            self.visited |= 1 << v;
            if self.augment(usize::from(self.owner[v as usize])) {
                self.assign(x, v);
                return true;
            }
        }
        false
    }

    /// Matches `x` with `v` (whose previous view, if any, has already moved).
    fn assign(&mut self, x: usize, v: u32) {
        self.mates[x] = v as u8;
        self.owner[v as usize] = x as u8;
        self.matched |= 1 << v;
    }
}

impl BitMatching {
    /// Narrows each view's mask (bit `v` for the window's value `v`) to the values that
    /// some maximum matching gives it; `Err` if no matching covers every view. There
    /// are at most 64 views (more cannot differ within 64 values).
    pub(crate) fn filter(&mut self, masks: &mut [u64]) -> Result<(), Conflict> {
        let n = masks.len();
        if n > 64 {
            return Err(Conflict);
        }
        self.mates.resize(n, NONE);
        let mut search = Search {
            masks,
            mates: &mut self.mates,
            owner: [NONE; 64],
            matched: 0,
            visited: 0,
        };
        // Keep the previous pairs that are still edges.
        for x in 0..n {
            let v = search.mates[x];
            if v != NONE && search.masks[x] >> v & 1 == 1 && search.matched >> v & 1 == 0 {
                search.assign(x, u32::from(v));
            } else {
                search.mates[x] = NONE;
            }
        }
        for x in 0..n {
            if search.mates[x] == NONE {
                search.visited = 0;
                if !search.augment(x) {
                    return Err(Conflict);
                }
            }
        }
        let (owner, matched) = (search.owner, search.matched);
        let union = masks.iter().fold(0, |all, &m| all | m);
        // The values from which a path reaches a free value.
        let mut to_free = union & !matched;
        loop {
            let before = to_free;
            let mut rest = matched & !to_free;
            while rest != 0 {
                let u = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                if masks[usize::from(owner[u])] & to_free != 0 {
                    to_free |= 1 << u;
                }
            }
            if to_free == before {
                break;
            }
        }
        // Among the others, what reaches what (their paths never meet `to_free`).
        let closed = matched & !to_free;
        let mut reach = [0u64; 64];
        let mut rest = closed;
        while rest != 0 {
            let u = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            reach[u] = masks[usize::from(owner[u])];
        }
        let mut pivots = closed;
        while pivots != 0 {
            let k = pivots.trailing_zeros();
            pivots &= pivots - 1;
            let mut rest = closed;
            while rest != 0 {
                let i = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                if reach[i] >> k & 1 == 1 {
                    reach[i] |= reach[k as usize];
                }
            }
        }
        for (x, mask) in masks.iter_mut().enumerate() {
            let u = self.mates[x];
            if to_free >> u & 1 == 1 {
                // Every value of x that reaches a free value, u among them.
                *mask &= to_free;
                continue;
            }
            let mut keep = 1u64 << u;
            let mut others = *mask & !keep;
            while others != 0 {
                let v = others.trailing_zeros() as usize;
                others &= others - 1;
                if reach[v] >> u & 1 == 1 {
                    keep |= 1 << v;
                }
            }
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
        let mut masks = masks.to_vec();
        BitMatching::default().filter(&mut masks).ok()?;
        Some(masks)
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

    /// The general matching's removals, applied to the masks.
    fn general(masks: &[u64]) -> Option<Vec<u64>> {
        let mut start = vec![0u32];
        let mut values = Vec::new();
        for &m in masks {
            values.extend((0..64u32).filter(|v| m >> v & 1 == 1));
            start.push(values.len() as u32);
        }
        let mut out = masks.to_vec();
        Matching::default()
            .filter(64, &start, &values, |x, v| out[x] &= !(1u64 << v))
            .ok()?;
        Some(out)
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
            let masks: Vec<u64> = masks.iter().map(|m| m << shift).collect();
            let mut kept = BitMatching::default();
            let mut before: Vec<u64> = masks.iter().zip(&wider).map(|(m, w)| m | (w & (0xfff << shift))).collect();
            let _ = kept.filter(&mut before);
            let mut after = masks.clone();
            let got = kept.filter(&mut after).ok().map(|()| after);
            prop_assert_eq!(got, general(&masks));
        }
    }
}
