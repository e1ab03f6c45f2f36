//! Hidden singles and the pigeonhole check, value by value and group by group.
//! (Naked singles, a fixed variable's value leaving its peers, are in
//! [`Kernel::fixpoint`].)

use super::super::sets::{VarSet, bits, is_single};
use super::{Failure, Kernel};
use crate::propagator::Conflict;

/// Where a value's places in a group stand.
enum Places {
    None,
    One(usize),
    Many,
}

impl Places {
    /// Where the places `set` (in one group) stand.
    #[inline(always)]
    fn of<const W: usize>(set: VarSet<W>) -> Places {
        let mut found = Places::None;
        for (w, &word) in set.0.iter().enumerate() {
            if word != 0 {
                if matches!(found, Places::One(_)) || !is_single(word) {
                    return Places::Many;
                }
                found = Places::One(w * 64 + word.trailing_zeros() as usize);
            }
        }
        found
    }
}

impl<const W: usize> Kernel<W> {
    /// The values with a place left in group `g`.
    pub(super) fn values_in(&self, g: usize) -> u64 {
        let group = self.shape.group(g);
        (self.candidates.0[..self.shape.values].iter().enumerate())
            .filter(|(_, places)| places.intersects(group))
            .fold(0, |values, (v, _)| values | 1 << v)
    }

    /// Whether group `g` has exactly as many values left as variables.
    pub(super) fn is_tight(&self, g: usize) -> bool {
        self.shape.full[g] != 0 || self.values_in(g).count_ones() == self.shape.sizes[g]
    }

    /// Hidden singles of value `v` and the pigeonhole check in the groups of word `w`
    /// set in `groups`.
    pub(super) fn examine(&mut self, v: usize, w: usize, mut groups: u64) -> Result<(), Conflict> {
        let bit = 1u64 << v;
        while let Some((g, places)) = self.next_to_act_on(v, w, &mut groups) {
            match places {
                Places::None => self.no_place(g, bit)?,
                Places::One(i) if self.is_tight(g) => self.hidden_single(i, bit),
                _ => {}
            }
        }
        Ok(())
    }

    /// Takes the groups off `groups`, lowest first, up to the first where value `v`
    /// has no place, or one place in a variable not fixed to it yet: that group and
    /// its places. It only reads, so the places of `v` and the block of groups stay
    /// in registers across the groups that need nothing (most of them).
    #[inline(always)]
    fn next_to_act_on(&self, v: usize, w: usize, groups: &mut u64) -> Option<(usize, Places)> {
        let (block, candidates) = (&self.shape.groups[w], self.candidates[v]);
        while *groups != 0 {
            let k = groups.trailing_zeros() as usize;
            *groups &= *groups - 1;
            match Places::of(candidates.and(block[k % 64])) {
                Places::Many => {}
                Places::One(i) if self.domains[i] == 1 << v => {}
                places => return Some((w * 64 + k, places)),
            }
        }
        None
    }

    /// Fixes variable `i` to value `bit`, its one place in a tight group: rare next
    /// to the examinations that find none, so kept out of their loop.
    #[cold]
    #[inline(never)]
    fn hidden_single(&mut self, i: usize, bit: u64) {
        let others = self.domains[i] & !bit;
        for u in bits(others) {
            self.candidates[u].remove(i);
        }
        self.mark_groups(others, i);
        self.scratch.changed_values |= others;
        self.domains[i] = bit;
        self.scratch.touched.insert(i);
        self.scratch.hidden.insert(i);
        self.scratch.fixed.insert(i);
    }

    /// Value `bit` has no place left in group `g`: fails if too few values are left;
    /// if just enough are, the group has become tight, and its values are examined.
    fn no_place(&mut self, g: usize, bit: u64) -> Result<(), Conflict> {
        let full = self.shape.full[g];
        if full != 0 {
            return if full & bit != 0 {
                self.failure = Some(Failure::Group(g));
                Err(Conflict)
            } else {
                Ok(())
            };
        }
        let values = self.values_in(g);
        let count = values.count_ones();
        if count < self.shape.sizes[g] {
            self.failure = Some(Failure::Group(g));
            return Err(Conflict);
        }
        if count == self.shape.sizes[g] {
            for u in bits(values) {
                self.scratch.dirty.add(u, g);
            }
        }
        Ok(())
    }
}
