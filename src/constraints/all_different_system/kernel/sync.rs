//! Synchronisation: the changes to the domains since the last call, taken out of the
//! value sets and queued as work; or, at a search's first call without built sets,
//! the sets built from the domains.

use super::super::sets::{PerValue, VarSet, bits, is_single};
use super::{Failure, Kernel};
use crate::propagator::Conflict;

impl<const W: usize> Kernel<W> {
    /// Queues the work the `modified` variables' changes since the last call start:
    /// the values each lost, in its groups, and its peers if it became fixed. Fails
    /// when newly fixed variables leave a peer no value.
    pub(super) fn sync(&mut self, modified: &[u32]) -> Result<(), Conflict> {
        // One variable alone (a search decision) is cheaper a value at a time.
        if let &[i] = modified {
            self.take_lost(i as usize);
            return Ok(());
        }
        // Several fixed variables are taken value-major, all at once: at a search's
        // first call every clue is one, and each lost all its other values. The
        // others are taken after, out of this loop, which is then tight: there every
        // variable counts as modified, and most that are not clues still have every
        // value, so lost none (and are not fixed, unless the window has one value).
        let whole = if is_single(self.shape.every_value) {
            0
        } else {
            self.shape.every_value
        };
        let (mut newly_fixed, mut groups, mut rest) = (VarSet::EMPTY, 0u64, VarSet::<W>::EMPTY);
        for &i in modified {
            let i = i as usize;
            let domain = self.domains[i];
            if domain == whole {
                continue;
            }
            if is_single(domain) {
                newly_fixed.insert(i);
                self.scratch.fixed_to[domain.trailing_zeros() as usize].insert(i);
                groups |= self.shape.group_sets.first[i];
            } else {
                rest.insert(i);
            }
        }
        for i in rest.ones() {
            self.take_lost(i);
        }
        if newly_fixed.is_empty() {
            return Ok(());
        }
        self.leave_peers(newly_fixed, groups)
    }

    /// Takes the values variable `i` lost since the last call out of their sets and
    /// queues its groups for them; queues `i` if it is fixed.
    #[inline(always)]
    fn take_lost(&mut self, i: usize) {
        let domain = self.domains[i];
        // `i`'s word and bit, found once for every value it lost: a `VarSet`
        // method per value measured 3% slower here.
        let (w, bit) = ((i / 64) % W, 1u64 << (i % 64));
        let mut lost = 0u64;
        for v in bits(self.shape.every_value & !domain) {
            let places = &mut self.candidates[v].0[w];
            if *places & bit != 0 {
                *places &= !bit;
                lost |= 1 << v;
            }
        }
        if lost != 0 {
            self.mark_groups(lost, i);
            self.scratch.changed_values |= lost;
        }
        if is_single(domain) {
            self.scratch.fixed.insert(i);
        }
    }

    /// Takes each value out of the other newly fixed variables and out of the peers
    /// of those fixed to it, value by value (see [`Kernel::sync`]); `groups` holds
    /// the first word of the newly fixed variables' groups.
    fn leave_peers(&mut self, newly_fixed: VarSet<W>, groups: u64) -> Result<(), Conflict> {
        for v in 0..self.shape.values {
            let fixed_to = std::mem::replace(&mut self.scratch.fixed_to[v], VarSet::EMPTY);
            let (mut peers, mut solved) = (VarSet::EMPTY, 0u64);
            for i in fixed_to.ones() {
                peers = peers.or(self.shape.peers[i]);
                solved |= self.shape.group_sets.first[i];
            }
            if peers.intersects(fixed_to) {
                // Two peers fixed to one value.
                self.failure = Some(Failure::Clash(v));
                return Err(Conflict);
            }
            let places = self.candidates[v];
            // The variables newly fixed to other values: their domains are single
            // already.
            let others = places.and(newly_fixed).minus(fixed_to);
            if !others.is_empty() {
                self.candidates[v] = places.minus(others);
                self.scratch.changed_values |= 1 << v;
                (self.scratch.dirty).add_groups_of_all(v, groups, others, &self.shape.group_sets);
            }
            let from_peers = places.and(peers).minus(newly_fixed);
            if !from_peers.is_empty() {
                self.remove_from::<false>(v, from_peers)?;
            }
            // Its one place in the groups of each variable fixed to it is that variable:
            // nothing to examine there.
            (self.scratch.dirty).remove_groups_of_all(v, solved, fixed_to, &self.shape.group_sets);
        }
        // Sync comes first in a call: only the removals above touched variables, and
        // those they fixed are queued here, once, instead of tested at every removal.
        self.queue_fixed(self.scratch.touched);
        Ok(())
    }

    /// Builds the value sets from the domains and queues everything; fails a group
    /// with fewer values than variables.
    pub(super) fn build(&mut self) -> Result<(), Conflict> {
        self.candidates = PerValue([VarSet::EMPTY; 64]);
        for i in 0..self.shape.vars {
            let domain = self.domains[i];
            for v in bits(domain) {
                self.candidates[v].insert(i);
            }
            if is_single(domain) {
                self.scratch.fixed.insert(i);
            }
        }
        for g in 0..self.shape.group_count() {
            if self.values_in(g).count_ones() < self.shape.sizes[g] {
                self.failure = Some(Failure::Group(g));
                return Err(Conflict);
            }
        }
        self.scratch.changed_values = self.shape.every_value;
        let groups = self.shape.group_count();
        for v in bits(self.shape.every_value) {
            self.scratch.dirty.add_all(v, groups);
        }
        Ok(())
    }
}
