//! Write-back: the narrowed domains go to the store, each removal labelled when
//! recorded, and the value sets that changed to the backtrackable state.

use super::super::sets::{VarSet, bits};
use super::super::{LockedCandidates, Vars};
use super::{BUILT, Kernel, PAST_ROOT};
use crate::constraints::{AllDifferent, Intersection};
use crate::propagator::{Conflict, Context};

impl<const W: usize> Kernel<W> {
    /// Writes the pruned values back to the domains, labelling each removal, and
    /// what changed to the backtrackable state, whose first word was `stage`.
    pub(super) fn write_back(
        &mut self,
        ctx: &mut Context<'_>,
        vars: &Vars<'_>,
        stage: u64,
    ) -> Result<(), Conflict> {
        let next = match vars.locked {
            LockedCandidates::AtRoot => PAST_ROOT,
            _ => BUILT,
        };
        if let Some(mut owned) = ctx.owned_words() {
            match vars.contiguous {
                // All at once, the untouched words as they were: cheaper than finding
                // the touched ones.
                Some(first) => {
                    owned.narrow_all(first, &self.domains.0.as_flattened()[..self.shape.vars]);
                }
                None => {
                    for i in self.scratch.touched.ones() {
                        let word = vars.words[i];
                        owned.narrow(word.cell, self.domains[i] >> word.shift);
                    }
                }
            }
            self.write_state(stage, next, |k, words| owned.set_state(k, words));
        } else {
            if !ctx.is_recording() {
                for i in self.scratch.touched.ones() {
                    let (var, word) = (vars.vars[i], vars.words[i]);
                    ctx.narrow_small(var, word.cell, self.domains[i] >> word.shift);
                }
            } else {
                for i in self.scratch.touched.ones() {
                    let (var, word) = (vars.vars[i], vars.words[i]);
                    let locked = std::mem::take(&mut self.scratch.locked_removed[i]);
                    let hidden = self.scratch.hidden.contains(i);
                    if locked != 0 && !hidden {
                        ctx.set_label(Intersection::CONFINED);
                        ctx.retain_small(var, !(locked >> word.shift))?;
                    }
                    ctx.set_label(if hidden {
                        AllDifferent::ONLY_PLACE
                    } else {
                        AllDifferent::VALUE_ELIMINATION
                    });
                    ctx.retain_small(var, self.domains[i] >> word.shift)?;
                }
            }
            self.write_state(stage, next, |k, words| {
                for (j, &word) in words.iter().enumerate() {
                    ctx.set_state(k + j, word);
                }
            });
        }
        self.scratch.touched = VarSet::EMPTY;
        self.scratch.hidden = VarSet::EMPTY;
        self.scratch.changed_values = 0;
        Ok(())
    }

    /// Hands `set` the state words that changed, each run with the index of its
    /// first: the first word, from `stage` to `next`, and the set of each value this
    /// call changed, whole (a copy, where word by word each took a bounds check).
    #[inline(always)]
    fn write_state(&self, stage: u64, next: u64, mut set: impl FnMut(usize, &[u64])) {
        if stage != next {
            set(0, &[next]);
        }
        for v in bits(self.scratch.changed_values) {
            set(1 + v * W, &self.candidates[v].0);
        }
    }
}
