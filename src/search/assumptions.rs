//! What every search of a solver starts from: assumptions, and levels of them.

use smallvec::SmallVec;

use crate::store::{Event, Store, Wipeout};

/// A restriction every search of the solver starts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Assumption {
    /// The variable takes the value.
    Equal(u32, i32),
    /// The variable does not take the value.
    NotEqual(u32, i32),
    /// The variable takes the value or less (a parallel search's subproblem).
    AtMost(u32, i32),
    /// The variable takes the value or more (a parallel search's subproblem).
    AtLeast(u32, i32),
}

impl Assumption {
    /// Applies it to the store.
    #[inline(always)]
    pub(super) fn apply(self, store: &mut Store) -> Result<Event, Wipeout> {
        match self {
            Assumption::Equal(var, value) => store.fix(var, value),
            Assumption::NotEqual(var, value) => store.remove(var, value),
            Assumption::AtMost(var, value) => store.set_max(var, value),
            Assumption::AtLeast(var, value) => store.set_min(var, value),
        }
    }

    /// Applies it to a store where no change needs saving or waking anyone (a
    /// search's start without levels): false if it wipes out the domain. An
    /// equality, the usual assumption, is one word written in place.
    #[inline(always)]
    pub(super) fn apply_unsaved(self, store: &mut Store) -> bool {
        match self {
            Assumption::Equal(var, value) => store.fix_unsaved(var, value),
            _ => self.apply(store).is_ok(),
        }
    }

    pub(super) fn var(self) -> u32 {
        match self {
            Assumption::Equal(var, _)
            | Assumption::NotEqual(var, _)
            | Assumption::AtMost(var, _)
            | Assumption::AtLeast(var, _) => var,
        }
    }

    /// Whether its variable may take `value`.
    pub(super) fn admits(self, value: i32) -> bool {
        match self {
            Assumption::Equal(_, x) => x == value,
            Assumption::NotEqual(_, x) => x != value,
            Assumption::AtMost(_, x) => value <= x,
            Assumption::AtLeast(_, x) => value >= x,
        }
    }
}

/// Assumptions pushed with [`Solver::push_level`](crate::Solver::push_level): applied and propagated once, kept
/// below every search until popped.
#[derive(Clone, Debug)]
pub(super) struct Level {
    /// Inline up to four: a Sudoku generator's levels are orbits of clues.
    pub(super) assumptions: SmallVec<[(u32, i32); 4]>,
    /// The trail length before the level was applied.
    pub(super) mark: usize,
    /// Whether this level or one below contradicts the model.
    pub(super) failed: bool,
}
