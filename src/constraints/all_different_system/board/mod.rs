//! The board kernel: the value-major kernel for systems whose variables fit one
//! 128-bit board and whose groups fit one 64-bit set, with singles only.
//!
//! Each value keeps a board, a `u128` of the variables where it is still possible;
//! each group is a board mask, each variable has the board of its peers and the word
//! of its groups. Nothing of the call follows the variables one by one while the
//! rules run: a value leaving variables is one AND-NOT on its board, the naked singles
//! are the variables found in exactly one board (counted bit-sliced over all boards at
//! once), a hidden single is a group's board holding one variable. The domains are
//! worked out from the boards only at the end, from what left each board, and written
//! back. `rules.rs` has the fixpoint; `debug.rs` (debug builds) checks the boards.
//!
//! It prunes exactly what the general kernel (`kernel/`) prunes with
//! [`LockedCandidates::Off`](super::LockedCandidates::Off): both stop at the fixpoint
//! of the same rules, which is unique; the order in which they apply the rules differs.

#[cfg(all(debug_assertions, not(feature = "count-allocations")))]
mod debug;
mod rules;

use super::Vars;
use super::sets::{PerValue, bits, is_single};

/// One `T` per group, indexed by a group's bit without a bounds check.
type PerGroup<T> = PerValue<T>;
use crate::propagator::{Conflict, Context, Rule};

/// The most variables a board holds.
pub(super) const BOARD_VARIABLES: usize = 128;
/// The most groups the board kernel takes (one word of groups per variable).
pub(super) const BOARD_GROUPS: usize = 64;

/// The first state word once the boards are built.
const BUILT: u64 = 1;

/// A set of variables, bit `i` for variable `i`.
type Cells = u128;

/// Whether `cells` holds at most one variable.
fn at_most_one(cells: Cells) -> bool {
    cells & cells.wrapping_sub(1) == 0
}

/// The variables of `cells`, lowest first: a word at a time, since a `u128`'s
/// lowest bit costs a branch and its clearing a borrow.
fn ones(cells: Cells) -> impl Iterator<Item = usize> {
    bits(cells as u64).chain(bits((cells >> 64) as u64).map(|i| i + 64))
}

/// The kernel of a system of at most [`BOARD_VARIABLES`] variables and
/// [`BOARD_GROUPS`] groups, singles only.
///
/// The backtrackable state holds, in this order: a word that says whether the boards
/// are built ([`BUILT`], or zero); the two words of `solved`; then the boards, two
/// words a value. A call copies it in, works on the copy, and writes it back.
#[derive(Clone, Debug)]
pub(super) struct Board {
    shape: Shape,
    /// Per value, the variables where it is still possible: this call's copy of the
    /// state.
    boards: PerValue<Cells>,
    /// The variables fixed whose value has left their peers: this call's copy of the
    /// state. At the end of a call, exactly the fixed variables.
    solved: Cells,
    /// Each variable's domain word, shifted into the window, read at the start of a
    /// call and narrowed at its end from what left the boards.
    domains: [u64; BOARD_VARIABLES],
    scratch: Scratch,
}

/// The groups and the window, fixed when the constraint is built.
#[derive(Clone, Debug)]
struct Shape {
    /// Each group's variables.
    groups: PerGroup<Cells>,
    /// How many groups there are.
    group_count: usize,
    /// Each group's size.
    sizes: PerGroup<u32>,
    /// Per group, the values it must take, all of them, when it starts with as many
    /// values as variables (every Sudoku unit): it is then always tight, and losing
    /// one of them fails. Zero for the other groups.
    full: PerGroup<u64>,
    /// For each variable, the other variables of its groups.
    peers: [Cells; BOARD_VARIABLES],
    /// For each variable, its groups.
    group_sets: [u64; BOARD_VARIABLES],
    /// Every value of the window.
    every_value: u64,
    /// How many values the window has.
    values: usize,
    /// How many variables there are.
    vars: usize,
    /// Every variable.
    all: Cells,
}

/// One call's work, empty between calls: a call that succeeds uses it up, and
/// [`Scratch::clear`] empties what a failed one leaves.
#[derive(Clone, Debug)]
struct Scratch {
    /// Fixed variables whose value must still leave their peers.
    pending: Cells,
    /// Per value, the variables that lost it since its groups were examined.
    lost: PerValue<Cells>,
    /// Per value, groups to examine besides those of `lost` (groups just become
    /// tight).
    tight: PerValue<u64>,
    /// Per value, groups not to examine for it: those of the variables fixed to it
    /// since it was last examined, where its one place is settled.
    settled: PerValue<u64>,
    /// The values with something in `lost` or `tight`.
    dirty: u64,
    /// The boards as the sync left them: what left them since is what the domains
    /// lose.
    synced: PerValue<Cells>,
    /// Per value, the variables newly fixed to it (the sync's bulk path).
    fixed_to: PerValue<Cells>,
    /// Variables that a hidden single fixed in this call (named by rule when recorded).
    hidden: Cells,
}

impl Scratch {
    fn new() -> Scratch {
        Scratch {
            pending: 0,
            lost: PerValue([0; 64]),
            tight: PerValue([0; 64]),
            settled: PerValue([0; 64]),
            dirty: 0,
            synced: PerValue([0; 64]),
            fixed_to: PerValue([0; 64]),
            hidden: 0,
        }
    }

    /// Empties every field, as a call that fails leaves them; only the first
    /// `values` entries of the per-value ones are ever filled.
    fn clear(&mut self, values: usize) {
        self.pending = 0;
        self.lost.0[..values].fill(0);
        self.tight.0[..values].fill(0);
        self.settled.0[..values].fill(0);
        self.dirty = 0;
        self.fixed_to.0[..values].fill(0);
        self.hidden = 0;
    }
}

impl Board {
    /// Whether a system of `vars` variables and `groups` groups fits a board.
    pub(super) fn fits(vars: usize, groups: usize) -> bool {
        vars <= BOARD_VARIABLES && groups <= BOARD_GROUPS
    }

    /// The kernel for variables with the given domains (shifted into the window);
    /// they must [fit](Board::fits).
    pub(super) fn new(domains: &[u64], values: usize, groups: &[Vec<u32>]) -> Board {
        let vars = domains.len();
        debug_assert!(Board::fits(vars, groups.len()));
        let mut masks = PerValue([0 as Cells; 64]);
        let (mut sizes, mut full) = (PerValue([0; 64]), PerValue([0; 64]));
        for (g, group) in groups.iter().enumerate() {
            masks[g] = group.iter().fold(0, |set, &i| set | 1 << i);
            sizes[g] = group.len() as u32;
            let union = group
                .iter()
                .fold(0, |union, &i| union | domains[i as usize]);
            if union.count_ones() as usize == group.len() {
                full[g] = union;
            }
        }
        let mut peers = [0; BOARD_VARIABLES];
        let mut group_sets = [0; BOARD_VARIABLES];
        for (g, &mask) in masks.0[..groups.len()].iter().enumerate() {
            for i in ones(mask) {
                peers[i] |= mask & !(1 << i);
                group_sets[i] |= 1 << g;
            }
        }
        let mut initial = [0; BOARD_VARIABLES];
        initial[..vars].copy_from_slice(domains);
        Board {
            shape: Shape {
                full,
                sizes,
                groups: masks,
                group_count: groups.len(),
                peers,
                group_sets,
                every_value: if values >= 64 {
                    u64::MAX
                } else {
                    (1 << values) - 1
                },
                values,
                vars,
                all: if vars == BOARD_VARIABLES {
                    Cells::MAX
                } else {
                    (1 << vars) - 1
                },
            },
            boards: PerValue([0; 64]),
            solved: 0,
            domains: initial,
            scratch: Scratch::new(),
        }
    }

    /// The state built from the model's domains (in `domains` until the first call),
    /// if the rules change nothing there; else a state to be built by the first call.
    pub(super) fn initial_state(&self) -> Vec<u64> {
        let words = 3 + 2 * self.shape.values;
        let mut kernel = self.clone();
        if kernel.build().is_err() || kernel.fixpoint().is_err() {
            return vec![0; words];
        }
        let changed = (0..self.shape.values).any(|v| kernel.boards[v] != kernel.scratch.synced[v]);
        if changed {
            return vec![0; words];
        }
        let mut state = Vec::with_capacity(words);
        state.extend([BUILT, kernel.solved as u64, (kernel.solved >> 64) as u64]);
        for v in 0..self.shape.values {
            let board = kernel.boards[v];
            state.extend([board as u64, (board >> 64) as u64]);
        }
        state
    }

    pub(super) fn propagate(
        &mut self,
        ctx: &mut Context<'_>,
        vars: &Vars<'_>,
    ) -> Result<(), Conflict> {
        let n = self.shape.vars;
        {
            let store = ctx.words();
            match vars.contiguous {
                Some(first) => self.domains[..n].copy_from_slice(&store[first..first + n]),
                None => {
                    for (i, word) in vars.words.iter().enumerate() {
                        self.domains[i] = store[word.cell] << word.shift;
                    }
                }
            }
        }
        let state = ctx.state();
        let built = state[0] != 0;
        let result = if built {
            self.solved = Cells::from(state[1]) | Cells::from(state[2]) << 64;
            for (v, pair) in state[3..].chunks_exact(2).enumerate() {
                self.boards[v] = Cells::from(pair[0]) | Cells::from(pair[1]) << 64;
            }
            self.sync(ctx.modified());
            Ok(())
        } else {
            self.build()
        };
        #[cfg(all(debug_assertions, not(feature = "count-allocations")))]
        if result.is_ok() {
            self.check_boards(&self.domains[..n], &self.boards, "sync");
        }
        let result = result
            .and_then(|()| self.fixpoint())
            .and_then(|()| self.write_back(ctx, vars, built));
        match result {
            Ok(()) => {
                #[cfg(all(debug_assertions, not(feature = "count-allocations")))]
                self.check_state(ctx, vars);
            }
            Err(Conflict) => self.scratch.clear(self.shape.values),
        }
        result
    }

    /// Takes the `modified` variables' changes since the last call out of the boards
    /// and queues the work they start. Variables newly fixed leave the other boards
    /// all at once, value by value; the others, a lost value at a time.
    fn sync(&mut self, modified: &[u32]) {
        let mut fixed = 0;
        for &i in modified {
            let i = i as usize;
            let (domain, bit) = (self.domains[i], 1 << i);
            debug_assert_ne!(domain, 0, "the store never leaves a domain empty");
            if is_single(domain) {
                fixed |= bit;
                self.scratch.fixed_to[domain.trailing_zeros() as usize] |= bit;
                continue;
            }
            for v in bits(self.shape.every_value & !domain) {
                if self.boards[v] & bit != 0 {
                    self.boards[v] &= !bit;
                    self.scratch.lost[v] |= bit;
                    self.scratch.dirty |= 1 << v;
                }
            }
        }
        if fixed != 0 {
            for v in 0..self.shape.values {
                let fixed_to = std::mem::take(&mut self.scratch.fixed_to[v]);
                let gone = self.boards[v] & fixed & !fixed_to;
                if gone != 0 {
                    self.boards[v] &= !gone;
                    self.scratch.lost[v] |= gone;
                    self.scratch.dirty |= 1 << v;
                }
            }
            self.scratch.pending = fixed & !self.solved;
        }
        let values = self.shape.values;
        self.scratch.synced.0[..values].copy_from_slice(&self.boards.0[..values]);
    }

    /// Builds the boards from the domains and queues everything; fails a group with
    /// fewer values than variables.
    fn build(&mut self) -> Result<(), Conflict> {
        self.boards = PerValue([0; 64]);
        self.solved = 0;
        for i in 0..self.shape.vars {
            let domain = self.domains[i];
            for v in bits(domain) {
                self.boards[v] |= 1 << i;
            }
            if is_single(domain) {
                self.scratch.pending |= 1 << i;
            }
        }
        for g in 0..self.shape.group_count {
            if self.values_in(g).count_ones() < self.shape.sizes[g] {
                return Err(Conflict);
            }
        }
        for v in 0..self.shape.values {
            self.scratch.lost[v] = self.shape.all;
        }
        self.scratch.dirty = self.shape.every_value;
        self.scratch.synced = self.boards;
        Ok(())
    }

    /// Narrows the domains by what left the boards since the sync and writes them
    /// back, each removal named by its rule when recorded, and the state.
    fn write_back(
        &mut self,
        ctx: &mut Context<'_>,
        vars: &Vars<'_>,
        built: bool,
    ) -> Result<(), Conflict> {
        let mut touched = 0;
        for v in 0..self.shape.values {
            // Groups settled after the value's last examination have nothing left.
            self.scratch.settled[v] = 0;
            let gone = self.scratch.synced[v] & !self.boards[v];
            touched |= gone;
            for i in ones(gone) {
                self.domains[i] &= !(1 << v);
            }
        }
        let hidden = std::mem::take(&mut self.scratch.hidden);
        if let Some(mut owned) = ctx.owned_words() {
            match vars.contiguous {
                Some(first) => owned.narrow_all(first, &self.domains[..self.shape.vars]),
                None => {
                    for i in ones(touched) {
                        let word = vars.words[i];
                        owned.narrow(word.cell, self.domains[i] >> word.shift);
                    }
                }
            }
            if !built {
                owned.set_state(0, BUILT);
            }
            owned.set_state(1, self.solved as u64);
            owned.set_state(2, (self.solved >> 64) as u64);
            for v in 0..self.shape.values {
                let board = self.boards[v];
                owned.set_state(3 + 2 * v, board as u64);
                owned.set_state(4 + 2 * v, (board >> 64) as u64);
            }
        } else {
            let recording = ctx.is_recording();
            for i in ones(touched) {
                let (var, word) = (vars.vars[i].raw(), vars.words[i]);
                let domain = self.domains[i] >> word.shift;
                if recording {
                    ctx.set_rule(if hidden & 1 << i != 0 {
                        Rule::HiddenSingle
                    } else {
                        Rule::ValueElimination
                    });
                    ctx.retain_small(var, domain)?;
                } else {
                    ctx.narrow_small(var, word.cell, domain);
                }
            }
            for k in 0..3 + 2 * self.shape.values {
                let word = self.state_word(k);
                if ctx.state()[k] != word {
                    ctx.set_state(k, word);
                }
            }
        }
        Ok(())
    }

    /// State word `k` as this call leaves it: [`BUILT`], `solved`, the boards.
    #[inline(always)]
    fn state_word(&self, k: usize) -> u64 {
        let cells = match k {
            0 => return BUILT,
            1 | 2 => self.solved,
            _ => self.boards[(k - 3) / 2],
        };
        if k % 2 == 1 {
            cells as u64
        } else {
            (cells >> 64) as u64
        }
    }

    /// The values with a place left in group `g`.
    fn values_in(&self, g: usize) -> u64 {
        let group = self.shape.groups[g];
        (0..self.shape.values)
            .filter(|&v| self.boards[v] & group != 0)
            .fold(0, |values, v| values | 1 << v)
    }
}
