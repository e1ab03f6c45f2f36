//! Hidden singles and the pigeonhole check, value by value and group by group.
//! (Naked singles, a fixed variable's value leaving its peers, are in
//! [`Kernel::fixpoint`].)

use super::super::sets::{bits, is_single};
use super::{Failure, Kernel};
use crate::propagator::Conflict;

/// Where value `v`'s places in group `g` stand.
enum Places {
    None,
    One(usize),
    Many,
}

impl<const W: usize> Kernel<W> {
    /// Where value `v` can go in group `g`.
    fn places(&self, v: usize, g: usize) -> Places {
        let places = self.candidates[v].and(self.shape.groups[g]);
        let mut found = Places::None;
        for (w, &word) in places.0.iter().enumerate() {
            if word != 0 {
                if matches!(found, Places::One(_)) || !is_single(word) {
                    return Places::Many;
                }
                found = Places::One(w * 64 + word.trailing_zeros() as usize);
            }
        }
        found
    }

    /// The values with a place left in group `g`.
    pub(super) fn values_in(&self, g: usize) -> u64 {
        let group = self.shape.groups[g];
        (self.candidates.0[..self.shape.values].iter().enumerate())
            .filter(|(_, places)| places.intersects(group))
            .fold(0, |values, (v, _)| values | 1 << v)
    }

    /// Whether group `g` has exactly as many values left as variables.
    pub(super) fn is_tight(&self, g: usize) -> bool {
        self.shape.full[g] != 0 || self.values_in(g).count_ones() == self.shape.sizes[g]
    }

    /// Hidden single of value `v` and the pigeonhole check in group `g`.
    pub(super) fn examine(&mut self, v: usize, g: usize) -> Result<(), Conflict> {
        let bit = 1u64 << v;
        match self.places(v, g) {
            Places::None => self.no_place(g, bit),
            Places::One(i) if self.domains[i] != bit && self.is_tight(g) => {
                self.hidden_single(i, bit);
                Ok(())
            }
            _ => Ok(()),
        }
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
