//! The work queues: per value, the groups to examine for it ([`GroupWork`]).

use super::sets::{GroupSets, PerValue, PerVar, VarSet, bits};

/// Per value, a set of groups (the first 64, then the next 64, and so on), and the
/// values whose set is not empty: work queued by value and group.
#[derive(Clone, Debug)]
pub(super) struct GroupWork {
    first: PerValue<u64>,
    more: Vec<PerValue<u64>>,
    values: u64,
}

impl GroupWork {
    pub(super) fn new(group_words: usize) -> GroupWork {
        GroupWork {
            first: PerValue([0; 64]),
            more: vec![PerValue([0; 64]); group_words - 1],
            values: 0,
        }
    }

    /// Whether nothing is queued (for the debug checks).
    #[cfg(feature = "debug-checks")]
    pub(super) fn is_empty(&self) -> bool {
        let no_groups = |words: &PerValue<u64>| words.0.iter().all(|&w| w == 0);
        self.values == 0 && no_groups(&self.first) && self.more.iter().all(no_groups)
    }

    /// Empties the queue, whose values are all below `values`.
    pub(super) fn clear(&mut self, values: usize) {
        self.first.0[..values].fill(0);
        for more in &mut self.more {
            more.0[..values].fill(0);
        }
        self.values = 0;
    }

    /// Calls `f` on each word of the queue past the first, with the same word of the
    /// variables' groups. With at most 64 groups (most systems) there is none, and
    /// one length is read instead of the two a zip compares.
    #[inline(always)]
    fn for_more<const W: usize>(
        &mut self,
        sets: &GroupSets<W>,
        mut f: impl FnMut(&mut PerValue<u64>, &PerVar<W>),
    ) {
        if self.more.is_empty() {
            return;
        }
        for (work, more) in self.more.iter_mut().zip(&sets.more) {
            f(work, more);
        }
    }

    /// Queues each of the `values` in the groups of variable `i`.
    pub(super) fn add_groups_of<const W: usize>(
        &mut self,
        values: u64,
        i: usize,
        sets: &GroupSets<W>,
    ) {
        let first = sets.first[i];
        for v in bits(values) {
            self.first[v] |= first;
        }
        self.for_more(sets, |work, more| {
            for v in bits(values) {
                work[v] |= more[i];
            }
        });
        self.values |= values;
    }

    /// Queues value `v` in the groups of the variables `set`, whose first words of
    /// groups are already gathered in `first`.
    pub(super) fn add_groups_of_all<const W: usize>(
        &mut self,
        v: usize,
        first: u64,
        set: VarSet<W>,
        sets: &GroupSets<W>,
    ) {
        self.first[v] |= first;
        self.for_more(sets, |work, more| {
            for i in set.ones() {
                work[v] |= more[i];
            }
        });
        self.values |= 1 << v;
    }

    /// Takes value `v` in the groups of the variables `set` off the queue, whose
    /// first words of groups are already gathered in `first`.
    pub(super) fn remove_groups_of_all<const W: usize>(
        &mut self,
        v: usize,
        first: u64,
        set: VarSet<W>,
        sets: &GroupSets<W>,
    ) {
        self.first[v] &= !first;
        self.for_more(sets, |work, more| {
            for i in set.ones() {
                work[v] &= !more[i];
            }
        });
    }

    /// Takes value `v` in the groups of variable `i` off the queue.
    pub(super) fn remove_groups_of<const W: usize>(
        &mut self,
        v: usize,
        i: usize,
        sets: &GroupSets<W>,
    ) {
        self.first[v] &= !sets.first[i];
        self.for_more(sets, |work, more| work[v] &= !more[i]);
    }

    /// Queues value `v` in group `g`.
    pub(super) fn add(&mut self, v: usize, g: usize) {
        self.add_word(v, g / 64, 1 << (g % 64));
    }

    /// Queues value `v` in the groups of word `w` set in `groups`.
    pub(super) fn add_word(&mut self, v: usize, w: usize, groups: u64) {
        match w {
            0 => self.first[v] |= groups,
            w => self.more[w - 1][v] |= groups,
        }
        self.values |= u64::from(groups != 0) << v;
    }

    /// Queues value `v` in all of `groups` groups.
    pub(super) fn add_all(&mut self, v: usize, groups: usize) {
        let all = |w: usize| match groups - w * 64 {
            64.. => u64::MAX,
            n => (1 << n) - 1,
        };
        self.first[v] = all(0);
        for (w, work) in self.more.iter_mut().enumerate() {
            work[v] = all(w + 1);
        }
        self.values |= 1 << v;
    }

    /// Takes a value with queued groups off the queue; its groups stay until taken
    /// with [`GroupWork::take`].
    pub(super) fn pop_value(&mut self) -> Option<usize> {
        let v = (self.values != 0).then(|| self.values.trailing_zeros() as usize)?;
        self.values &= self.values - 1;
        Some(v)
    }

    /// Takes word `w` of value `v`'s queued groups.
    pub(super) fn take(&mut self, v: usize, w: usize) -> u64 {
        match w {
            0 => std::mem::take(&mut self.first[v]),
            _ => std::mem::take(&mut self.more[w - 1][v]),
        }
    }
}
