//! Debug builds only: the boards, kept incrementally, checked against the boards
//! recomputed from the domains after each sync (in the kernel's copy) and after each
//! write-back (in the store), with the solved variables and the scratch.

use super::super::Vars;
use super::super::sets::{PerValue, bits, is_single};
use super::{Board, Cells, ones};
use crate::propagator::Context;

impl Board {
    /// Checks `boards` against the boards recomputed from `domains`, after `step`.
    ///
    /// # Panics
    ///
    /// If a board differs from the variables whose domains hold its value, naming
    /// the value and the variables in one and not the other.
    pub(super) fn check_boards(&self, domains: &[u64], boards: &PerValue<Cells>, step: &str) {
        let mut recomputed = PerValue([0 as Cells; 64]);
        for (i, &domain) in domains.iter().enumerate() {
            assert_eq!(
                domain & !self.shape.every_value,
                0,
                "all_different_system (boards) after {step}: variable {i} has values outside the window"
            );
            for v in bits(domain) {
                recomputed[v] |= 1 << i;
            }
        }
        for v in 0..64 {
            let (kept, expected) = (boards[v], recomputed[v]);
            assert!(
                kept == expected,
                "all_different_system (boards) after {step}: the board of window bit {v} \
                 holds variables {:?} that lack it and misses {:?} that have it",
                ones(kept & !expected).collect::<Vec<_>>(),
                ones(expected & !kept).collect::<Vec<_>>(),
            );
        }
    }

    /// Checks the state the call wrote against the domains in the store: the boards,
    /// and `solved` as exactly the fixed variables; and that the scratch is used up.
    ///
    /// # Panics
    ///
    /// If they differ, or work is left in the scratch.
    pub(super) fn check_state(&self, ctx: &Context<'_>, vars: &Vars<'_>) {
        let store = ctx.words();
        let domains: Vec<u64> = (vars.words.iter())
            .map(|word| store[word.cell] << word.shift)
            .collect();
        let state = ctx.state();
        assert_ne!(
            state[0], 0,
            "all_different_system (boards): the state is built"
        );
        let mut boards = PerValue([0 as Cells; 64]);
        for (v, pair) in state[3..].chunks_exact(2).enumerate() {
            boards[v] = Cells::from(pair[0]) | Cells::from(pair[1]) << 64;
        }
        self.check_boards(&domains, &boards, "write-back");
        let solved = Cells::from(state[1]) | Cells::from(state[2]) << 64;
        let fixed = (domains.iter().enumerate())
            .filter(|&(_, &d)| is_single(d))
            .fold(0 as Cells, |set, (i, _)| set | 1 << i);
        assert_eq!(
            solved, fixed,
            "all_different_system (boards): solved is the fixed variables"
        );
        let scratch = &self.scratch;
        let used_up = scratch.pending == 0
            && scratch.dirty == 0
            && scratch.hidden == 0
            && scratch.lost.0.iter().all(|&c| c == 0)
            && scratch.tight.0.iter().all(|&g| g == 0)
            && scratch.settled.0.iter().all(|&g| g == 0)
            && scratch.fixed_to.0.iter().all(|&c| c == 0);
        assert!(
            used_up,
            "all_different_system (boards): a call left work in its scratch"
        );
    }
}
