//! The value-major kernel: the fixed [`Shape`] of the groups, one call's copy of the
//! domains and of the value sets, and its [`Scratch`].
//!
//! A call copies the domains and the backtrackable state in ([`Kernel::propagate`]),
//! queues the work the changes since the last call start (`sync.rs`), applies the
//! rules to a fixpoint (singles in `singles.rs`, locked candidates in `locked.rs`,
//! both pruning through `removal.rs`), and writes the domains and the state back
//! (`write_back.rs`). With the `debug-checks` feature `debug.rs` checks the value
//! sets against the domains after each sync and each write-back.

#[cfg(feature = "debug-checks")]
mod debug;
mod locked;
mod removal;
mod singles;
mod sync;
mod write_back;

use super::queues::GroupWork;
use super::sets::{GroupSets, PerValue, PerVar, PerVarSets, VarSet, bits};
use super::{LockedCandidates, Vars};
#[cfg(feature = "debug-checks")]
use crate::invariant::uncounted;
use crate::propagator::{Conflict, Context};

/// The first state word once the sets are built.
const BUILT: u64 = 1;
/// The first state word once a call has run at the search's root: with
/// [`LockedCandidates::AtRoot`], locked candidates are done with.
const PAST_ROOT: u64 = 2;

/// The kernel for variable sets `W` words wide.
///
/// The backtrackable state (see
/// [`PostContext::set_initial_state`](crate::PostContext::set_initial_state)) holds, in this
/// order: a word that says how far the search has come ([`BUILT`], [`PAST_ROOT`], zero
/// before either); then `candidates`, `W` words a value. A call copies it in, works on
/// the copy, and writes back what changed.
#[derive(Clone, Debug)]
pub(super) struct Kernel<const W: usize> {
    shape: Shape<W>,
    /// For each value (window bit), where it is still possible: this call's copy of
    /// the backtrackable state.
    candidates: PerValue<VarSet<W>>,
    /// Each variable's domain word, shifted into the window, read at the start of a
    /// call.
    domains: PerVar<W>,
    scratch: Scratch<W>,
    /// What the last call that failed ran into (see [`Kernel::failed_groups`]).
    failure: Option<Failure>,
}

/// Where a call failed, kept for [`Kernel::failed_groups`].
#[derive(Clone, Copy, Debug)]
enum Failure {
    /// Variable `var` lost `value`, its last one.
    Emptied { var: usize, value: usize },
    /// Variable `emptied` lost its last value to its peer `fixed`, fixed to it.
    Peers { fixed: usize, emptied: usize },
    /// The group has fewer values left than variables, or lost one it must take.
    Group(usize),
    /// Two peers were fixed to the value.
    Clash(usize),
}

/// The groups and the window, fixed when the constraint is built.
#[derive(Clone, Debug)]
struct Shape<const W: usize> {
    /// Each group's variables, in blocks of 64 groups (one per word of a set of
    /// groups), the last padded with empty sets: a group taken from a word of groups
    /// is read from its block without a bounds check.
    groups: Vec<[VarSet<W>; 64]>,
    /// Each group's size.
    sizes: Vec<u32>,
    /// Per group, the values it must take, all of them, when it starts with as many
    /// values as variables (every Sudoku unit): it is then always tight, and losing
    /// one of them fails. Zero for the other groups.
    full: Vec<u64>,
    /// For each variable, the other variables of its groups.
    peers: PerVarSets<W>,
    /// Words in a set of groups.
    group_words: usize,
    /// Each variable's groups.
    group_sets: GroupSets<W>,
    /// Every value of the window.
    every_value: u64,
    /// How many values the window has.
    values: usize,
    /// How many variables there are.
    vars: usize,
}

impl<const W: usize> Shape<W> {
    /// How many groups there are.
    fn group_count(&self) -> usize {
        self.sizes.len()
    }

    /// Group `g`'s variables.
    fn group(&self, g: usize) -> VarSet<W> {
        self.groups[g / 64][g % 64]
    }
}

/// One call's work, empty between calls: a call that succeeds uses it up, and
/// [`Scratch::clear`] empties what a failed one leaves.
#[derive(Clone, Debug)]
struct Scratch<const W: usize> {
    /// Fixed variables whose value must leave their peers.
    fixed: VarSet<W>,
    /// Per value, the groups to examine for it.
    dirty: GroupWork,
    /// With locked candidates: per value, the groups examined since its places there
    /// were last compared with the overlapping groups. The comparison waits until the
    /// singles run out: most of it is then no longer needed.
    waiting: GroupWork,
    /// Values whose `candidates` this call changed.
    changed_values: u64,
    /// Variables whose domains this call pruned, to write back.
    touched: VarSet<W>,
    /// Variables that a hidden single fixed in this call.
    hidden: VarSet<W>,
    /// Whether this call's removals are recorded, each with its rule.
    recording: bool,
    /// When recording, per variable, the values locked candidates removed in this
    /// call.
    locked_removed: PerVar<W>,
    /// Per value, the variables newly fixed to it (see [`Kernel::sync`]).
    fixed_to: PerValue<VarSet<W>>,
}

impl<const W: usize> Scratch<W> {
    fn new(group_words: usize) -> Scratch<W> {
        Scratch {
            fixed: VarSet::EMPTY,
            dirty: GroupWork::new(group_words),
            waiting: GroupWork::new(group_words),
            changed_values: 0,
            touched: VarSet::EMPTY,
            hidden: VarSet::EMPTY,
            recording: false,
            locked_removed: PerVar::ZERO,
            fixed_to: PerValue([VarSet::EMPTY; 64]),
        }
    }

    /// Empties every field, as a call that fails leaves them: the one place that
    /// resets the call's work. A call that succeeds uses each up as it goes. Only the
    /// first `values` entries of the per-value fields are ever filled: a failure
    /// (most of a hard puzzle's nodes) clears those alone.
    fn clear(&mut self, values: usize) {
        self.fixed = VarSet::EMPTY;
        self.dirty.clear(values);
        self.waiting.clear(values);
        self.changed_values = 0;
        self.touched = VarSet::EMPTY;
        self.hidden = VarSet::EMPTY;
        // Only a recording call fills it.
        if self.recording {
            self.locked_removed = PerVar::ZERO;
        }
        self.recording = false;
        self.fixed_to.0[..values].fill(VarSet::EMPTY);
    }
}

/// Which rules a queue of (value, group) pairs is for.
#[derive(Clone, Copy, Debug)]
enum Rules {
    /// Hidden singles and the pigeonhole check; then, with `locked`, queue the pair
    /// for locked candidates.
    Singles { locked: bool },
    /// Locked candidates.
    Locked,
}

impl<const W: usize> Kernel<W> {
    /// The kernel for variables with the given domains (shifted into the window).
    pub(super) fn new(domains: &[u64], values: usize, groups: &[Vec<u32>]) -> Kernel<W> {
        let vars = domains.len();
        let sets: Vec<VarSet<W>> = groups
            .iter()
            .map(|g| {
                let mut set = VarSet::EMPTY;
                for &i in g {
                    set.insert(i as usize);
                }
                set
            })
            .collect();
        let group_words = sets.len().div_ceil(64).max(1);
        let mut blocks = vec![[VarSet::EMPTY; 64]; group_words];
        for (g, &set) in sets.iter().enumerate() {
            blocks[g / 64][g % 64] = set;
        }
        let mut peers = PerVarSets::new();
        let mut group_sets = vec![PerVar::ZERO; group_words];
        for (g, set) in sets.iter().enumerate() {
            for i in set.ones() {
                peers[i] = peers[i].or(*set);
                group_sets[g / 64][i] |= 1 << (g % 64);
            }
        }
        let more = group_sets.split_off(1);
        let mut initial = PerVar::ZERO;
        for (i, &domain) in domains.iter().enumerate() {
            initial[i] = domain;
        }
        for i in 0..vars {
            peers[i].remove(i);
        }
        let every_value = if values >= 64 {
            u64::MAX
        } else {
            (1u64 << values) - 1
        };
        let full = groups
            .iter()
            .map(|g| {
                let union = g.iter().fold(0, |union, &i| union | domains[i as usize]);
                if union.count_ones() as usize == g.len() {
                    union
                } else {
                    0
                }
            })
            .collect();
        Kernel {
            shape: Shape {
                full,
                sizes: groups.iter().map(|g| g.len() as u32).collect(),
                groups: blocks,
                peers,
                group_words,
                group_sets: GroupSets {
                    first: group_sets[0],
                    more,
                },
                every_value,
                values,
                vars,
            },
            candidates: PerValue([VarSet::EMPTY; 64]),
            domains: initial,
            scratch: Scratch::new(group_words),
            failure: None,
        }
    }

    /// The state built from the model's domains (in `domains` until the first call),
    /// if the rules change nothing there; else a state to be built by the first call.
    pub(super) fn initial_state(&self, locked: bool) -> Vec<u64> {
        let words = 1 + self.shape.values * W;
        let mut kernel = self.clone();
        if kernel.build().is_err() || kernel.fixpoint(locked).is_err() {
            return vec![0; words];
        }
        if !kernel.scratch.touched.is_empty() {
            return vec![0; words];
        }
        let mut state = Vec::with_capacity(words);
        state.push(BUILT);
        state.extend(
            kernel.candidates.0[..self.shape.values]
                .iter()
                .flat_map(|set| set.0),
        );
        state
    }

    pub(super) fn propagate(
        &mut self,
        ctx: &mut Context<'_>,
        vars: &Vars<'_>,
    ) -> Result<(), Conflict> {
        let store = ctx.words();
        match vars.contiguous {
            Some(first) => {
                let n = self.shape.vars;
                self.domains.0.as_flattened_mut()[..n].copy_from_slice(&store[first..first + n]);
            }
            None => {
                for (i, word) in vars.words.iter().enumerate() {
                    self.domains[i] = store[word.cell] << word.shift;
                }
            }
        }
        self.scratch.recording = ctx.is_recording();
        let state = ctx.state();
        let (stage, built) = (state[0], state[0] != 0);
        let locked = match vars.locked {
            LockedCandidates::Off => false,
            LockedCandidates::AtRoot => stage != PAST_ROOT,
            LockedCandidates::Always => true,
        };
        let result = if built {
            let candidates = state[1..].chunks_exact(W);
            for (set, words) in self.candidates.0.iter_mut().zip(candidates) {
                set.0.copy_from_slice(words);
            }
            self.sync(ctx.modified())
        } else {
            self.build()
        };
        #[cfg(feature = "debug-checks")]
        if result.is_ok() {
            let step = if built { "sync" } else { "build" };
            uncounted(|| self.check_sets(ctx, vars, step));
        }
        let result = result
            .and_then(|()| self.fixpoint(locked))
            .and_then(|()| self.write_back(ctx, vars, stage));
        match result {
            Ok(()) => {
                #[cfg(feature = "debug-checks")]
                uncounted(|| self.check_state(ctx, vars));
            }
            Err(Conflict) => self.scratch.clear(self.shape.values),
        }
        result
    }

    /// The groups the last failed call blames, to `blame` one at a time: the group
    /// that failed; for a variable a fixed peer left without values, the groups
    /// holding both; for one left without values otherwise, those of its groups where
    /// another variable is fixed to the value it lost last (all its groups if none
    /// is); for two peers fixed to one value, the groups holding both. Read after a
    /// failure, while the call's domains are still in place.
    pub(super) fn failed_groups(&self, mut blame: impl FnMut(usize)) {
        let shape = &self.shape;
        let groups_of = |var: usize| {
            (0..shape.group_words)
                .flat_map(move |w| bits(shape.group_sets.word(w)[var]).map(move |g| w * 64 + g))
        };
        // Whether two variables of group `g` are fixed to `value`.
        let two_fixed = |g: usize, value: usize| {
            let mut fixed = shape
                .group(g)
                .ones()
                .filter(|&k| self.domains[k] == 1 << value);
            fixed.nth(1).is_some()
        };
        match self.failure {
            None => {}
            Some(Failure::Group(g)) => blame(g),
            Some(Failure::Peers { fixed, emptied }) => {
                for w in 0..shape.group_words {
                    let groups = shape.group_sets.word(w);
                    bits(groups[fixed] & groups[emptied]).for_each(|g| blame(w * 64 + g));
                }
            }
            Some(Failure::Emptied { var, value }) => {
                // `var` itself still holds `value` alone: the other is its culprit.
                let fixing = || groups_of(var).filter(|&g| two_fixed(g, value));
                match fixing().next() {
                    Some(_) => fixing().for_each(blame),
                    None => groups_of(var).for_each(blame),
                }
            }
            Some(Failure::Clash(value)) => {
                (0..shape.group_count())
                    .filter(|&g| two_fixed(g, value))
                    .for_each(blame);
            }
        }
    }

    /// Applies the rules until the queued work is done.
    fn fixpoint(&mut self, locked: bool) -> Result<(), Conflict> {
        loop {
            while let Some(i) = self.scratch.fixed.pop_first() {
                let v = self.domains[i].trailing_zeros() as usize;
                let pruned = self.candidates[v].and(self.shape.peers[i]);
                if !pruned.is_empty() {
                    if let Err(conflict) = self.remove_inline::<true>(v, pruned) {
                        self.peer_emptied(i);
                        return Err(conflict);
                    }
                    // `v`'s one place in the groups of `i` is now `i`, fixed to it:
                    // nothing to examine there.
                    (self.scratch.dirty).remove_groups_of(v, i, &self.shape.group_sets);
                }
            }
            if let Some(v) = self.scratch.dirty.pop_value() {
                self.work_off(v, Rules::Singles { locked })?;
            } else if let Some(v) = self.scratch.waiting.pop_value() {
                self.work_off(v, Rules::Locked)?;
            } else {
                return Ok(());
            }
        }
    }

    /// The failure just found, a variable left without values by removing the value
    /// of its peer `fixed`, blamed on the two: found here, where the peer is known,
    /// it costs a word operation a word of groups where a search afterwards cost
    /// hundreds of instructions (on top1465, the blame fell from 14.9M instructions
    /// to 4.4M).
    #[cold]
    fn peer_emptied(&mut self, fixed: usize) {
        if let Some(Failure::Emptied { var, .. }) = self.failure {
            self.failure = Some(Failure::Peers {
                fixed,
                emptied: var,
            });
        }
    }

    /// Applies `rules` to value `v` in each group queued for it.
    #[inline(always)]
    fn work_off(&mut self, v: usize, rules: Rules) -> Result<(), Conflict> {
        for w in 0..self.shape.group_words {
            let taken = match rules {
                Rules::Singles { .. } => self.scratch.dirty.take(v, w),
                Rules::Locked => self.scratch.waiting.take(v, w),
            };
            match rules {
                Rules::Singles { .. } => self.examine(v, w, taken)?,
                Rules::Locked => {
                    for k in bits(taken) {
                        self.locked_candidates(v, w * 64 + k)?;
                    }
                }
            }
            if let Rules::Singles { locked: true } = rules {
                self.scratch.waiting.add_word(v, w, taken);
            }
        }
        Ok(())
    }
}
