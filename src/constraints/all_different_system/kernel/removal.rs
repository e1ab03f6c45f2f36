//! Removal: a value leaves some variables' domains and its set, and the groups of
//! those variables are queued for it.

use super::super::sets::{VarSet, is_single};
use super::{Failure, Kernel};
use crate::propagator::Conflict;

impl<const W: usize> Kernel<W> {
    /// Removes value `v` from the variables `set`, which all have it: out of line,
    /// for the callers other than the naked singles' loop. Without `FIXED`, the
    /// variables it leaves fixed are not queued: for a caller that removes many
    /// values from the same variables and queues them once after (see
    /// [`Kernel::queue_fixed`]), which costs less than a test per value removed.
    #[inline(never)]
    pub(super) fn remove_from<const FIXED: bool>(
        &mut self,
        v: usize,
        set: VarSet<W>,
    ) -> Result<(), Conflict> {
        self.remove_inline::<FIXED>(v, set)
    }

    /// [`Kernel::remove_from`] inlined, for the naked singles' loop, which makes
    /// most of the calls: the call itself cost a tenth of them (and inlined in the
    /// other callers too, it costs more than it saves).
    #[inline(always)]
    pub(super) fn remove_inline<const FIXED: bool>(
        &mut self,
        v: usize,
        set: VarSet<W>,
    ) -> Result<(), Conflict> {
        let bit = 1u64 << v;
        self.candidates[v] = self.candidates[v].minus(set);
        self.scratch.changed_values |= bit;
        self.scratch.touched = self.scratch.touched.or(set);
        // Gathered in registers, written once: the loop's stores to the domains could
        // otherwise alias them.
        let (mut fixed, mut groups) = (VarSet::EMPTY, 0u64);
        for (w, &word) in set.0.iter().enumerate() {
            let mut rest = word;
            while rest != 0 {
                let j = w * 64 + rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let domain = self.domains[j] & !bit;
                if domain == 0 {
                    self.failure = Some(Failure::Emptied { var: j, value: v });
                    return Err(Conflict);
                }
                self.domains[j] = domain;
                if FIXED {
                    fixed.0[w] |= u64::from(is_single(domain)) << (j % 64);
                }
                groups |= self.shape.group_sets.first[j];
            }
        }
        self.scratch.fixed = self.scratch.fixed.or(fixed);
        (self.scratch.dirty).add_groups_of_all(v, groups, set, &self.shape.group_sets);
        Ok(())
    }

    /// Queues the variables of `set` that are fixed, for their values to leave their
    /// peers. They are found with the value sets, which must describe the domains:
    /// a few word operations a value instead of a test a variable.
    pub(super) fn queue_fixed(&mut self, set: VarSet<W>) {
        let (mut once, mut twice) = (VarSet::EMPTY, VarSet::EMPTY);
        for &places in &self.candidates.0[..self.shape.values] {
            twice = twice.or(once.and(places));
            once = once.or(places);
        }
        self.scratch.fixed = self.scratch.fixed.or(set.and(once.minus(twice)));
    }

    /// Queues the groups of variable `i` for each of the `values`.
    pub(super) fn mark_groups(&mut self, values: u64, i: usize) {
        (self.scratch.dirty).add_groups_of(values, i, &self.shape.group_sets);
    }
}
