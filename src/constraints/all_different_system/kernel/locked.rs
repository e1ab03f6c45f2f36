//! Locked candidates: in a tight group, a value whose places all lie in the part
//! shared with another group leaves the rest of that other group.

use super::super::sets::{VarSet, bits};
use super::Kernel;
use crate::propagator::Conflict;

impl<const W: usize> Kernel<W> {
    /// Locked candidates of value `v` from group `g`, if tight, into the groups that
    /// hold all its places there.
    pub(super) fn locked_candidates(&mut self, v: usize, g: usize) -> Result<(), Conflict> {
        let places = self.candidates[v].and(self.shape.group(g));
        // With one place, the hidden single and its peers already say it all.
        if !places.has_two() {
            return Ok(());
        }
        // Most systems have at most 64 groups: one word of them, no loop.
        let common = self.holding(places, g, 0);
        if common != 0 {
            self.lock_into(v, g, 0, common)?;
        }
        for w in 1..self.shape.group_words {
            let common = self.holding(places, g, w);
            self.lock_into(v, g, w, common)?;
        }
        Ok(())
    }

    /// Locked candidates of value `v` from group `g` into the groups of word `w` in
    /// `holding`, which hold all its places in `g`.
    #[inline(always)]
    fn lock_into(&mut self, v: usize, g: usize, w: usize, holding: u64) -> Result<(), Conflict> {
        for h in bits(holding) {
            // Every place is shared with group `h`, whose other variables lose `v` if
            // this group must take it.
            let pruned =
                (self.candidates[v].and(self.shape.group(w * 64 + h))).minus(self.shape.group(g));
            if !pruned.is_empty() && self.is_tight(g) {
                self.lock(v, pruned)?;
            }
        }
        Ok(())
    }

    /// Removes value `v` from the variables `pruned` by locked candidates: rare, so
    /// kept out of the loop that looks for them.
    #[cold]
    #[inline(never)]
    fn lock(&mut self, v: usize, pruned: VarSet<W>) -> Result<(), Conflict> {
        if self.scratch.recording {
            for j in pruned.ones() {
                self.scratch.locked_removed[j] |= 1 << v;
            }
        }
        self.remove_from::<true>(v, pruned)
    }

    /// Word `w` of the groups other than `g` that hold every variable of `places`:
    /// those of each variable, intersected a variable at a time. Most often none is
    /// left after two.
    #[inline(always)]
    fn holding(&self, places: VarSet<W>, g: usize, w: usize) -> u64 {
        let groups_of = self.shape.group_sets.word(w);
        let mut common = if w == g / 64 {
            !(1 << (g % 64))
        } else {
            u64::MAX
        };
        for (k, &word) in places.0.iter().enumerate() {
            let mut rest = word;
            while rest != 0 {
                common &= groups_of[k * 64 + rest.trailing_zeros() as usize];
                if common == 0 {
                    return 0;
                }
                rest &= rest - 1;
            }
        }
        common
    }
}
