//! The `debug-checks` feature only: the value sets, kept incrementally, checked against the sets
//! recomputed from scratch from the domains, after each sync (in the kernel's copy)
//! and after each write-back (in the store), and the scratch checked empty after
//! each call that succeeds.

use super::super::Vars;
use super::super::sets::{PerValue, VarSet, bits};
use super::{Kernel, Scratch};
use crate::propagator::Context;

impl<const W: usize> Kernel<W> {
    /// Checks this call's value sets against its copy of the domains, after `step`.
    ///
    /// # Panics
    ///
    /// If a value's set differs from the variables whose domains hold it: the
    /// message names the value and the variables in one and not the other.
    pub(super) fn check_sets(&self, ctx: &Context<'_>, vars: &Vars<'_>, step: &str) {
        let domains: Vec<u64> = (0..self.shape.vars).map(|i| self.domains[i]).collect();
        self.check_against(&domains, &self.candidates, step, &value_name(ctx, vars));
    }

    /// Checks the backtrackable state the call wrote against the domains in the
    /// store, and that the call used up its scratch.
    ///
    /// # Panics
    ///
    /// If a value's set in the state differs from the variables whose domains in the
    /// store hold it (the message names the value and the variables), or if work is
    /// left in the scratch.
    pub(super) fn check_state(&self, ctx: &Context<'_>, vars: &Vars<'_>) {
        let store = ctx.words();
        let domains: Vec<u64> = (vars.words.iter())
            .map(|word| store[word.cell] << word.shift)
            .collect();
        let state = ctx.state();
        assert_ne!(state[0], 0, "all_different_system: the state is built");
        let mut sets = PerValue([VarSet::<W>::EMPTY; 64]);
        for (set, words) in sets.0.iter_mut().zip(state[1..].chunks_exact(W)) {
            set.0.copy_from_slice(words);
        }
        self.check_against(&domains, &sets, "write-back", &value_name(ctx, vars));
        self.scratch.check_used_up();
    }

    /// Checks `sets` against the sets recomputed from `domains`, value by value.
    fn check_against(
        &self,
        domains: &[u64],
        sets: &PerValue<VarSet<W>>,
        step: &str,
        name: &dyn Fn(usize) -> String,
    ) {
        let mut scratch = PerValue([VarSet::<W>::EMPTY; 64]);
        for (i, &domain) in domains.iter().enumerate() {
            assert_eq!(
                domain & !self.shape.every_value,
                0,
                "all_different_system after {step}: variable {i} has values outside the window"
            );
            for v in bits(domain) {
                scratch[v].insert(i);
            }
        }
        for v in 0..64 {
            let (kept, recomputed) = (sets[v], scratch[v]);
            assert!(
                kept == recomputed,
                "all_different_system after {step}: the set of {} differs from the \
                 domains: it holds variables {:?} that lack it and misses {:?} that have it",
                name(v),
                kept.minus(recomputed).ones().collect::<Vec<_>>(),
                recomputed.minus(kept).ones().collect::<Vec<_>>(),
            );
        }
    }
}

impl<const W: usize> Scratch<W> {
    /// Checks that a call that succeeded used up its work.
    ///
    /// # Panics
    ///
    /// If a field still holds work, naming the field.
    fn check_used_up(&self) {
        let empty = [
            ("fixed", self.fixed.is_empty()),
            ("dirty", self.dirty.is_empty()),
            ("waiting", self.waiting.is_empty()),
            ("changed_values", self.changed_values == 0),
            ("touched", self.touched.is_empty()),
            ("hidden", self.hidden.is_empty()),
            (
                "locked_removed",
                self.locked_removed.0.iter().flatten().all(|&w| w == 0),
            ),
            ("fixed_to", self.fixed_to.0.iter().all(|set| set.is_empty())),
        ];
        for (field, is_empty) in empty {
            assert!(
                is_empty,
                "all_different_system: a call left work in `{field}`"
            );
        }
    }
}

/// The name of a window bit in messages: the value it stands for, and the bit.
fn value_name(ctx: &Context<'_>, vars: &Vars<'_>) -> impl Fn(usize) -> String {
    // The value bit 0 of the window stands for.
    let base = vars.vars.first().and_then(|&var| {
        let (_, base) = ctx.small_word(var)?;
        Some(i64::from(base) - i64::from(vars.words[0].shift))
    });
    move |v| match base {
        Some(base) => format!("value {} (window bit {v})", base + v as i64),
        None => format!("window bit {v}"),
    }
}
