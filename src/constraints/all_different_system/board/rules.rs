//! The rules on the boards, to a fixpoint: naked singles (a fixed variable's value
//! leaves its peers; the variables in one board alone are fixed), hidden singles and
//! the pigeonhole check (a value with one place, or none, in a group).

use super::super::sets::bits;
use super::{Board, Cells, at_most_one, ones};
use crate::propagator::Conflict;

impl Board {
    /// Applies the rules until the queued work is done: the naked singles first, all
    /// of them at once, then the groups queued for each value.
    pub(super) fn fixpoint(&mut self) -> Result<(), Conflict> {
        loop {
            if self.scratch.pending != 0 {
                self.naked_singles()?;
            } else if self.scratch.dirty != 0 {
                let v = self.scratch.dirty.trailing_zeros() as usize;
                self.scratch.dirty &= self.scratch.dirty - 1;
                self.examine(v)?;
            } else {
                return Ok(());
            }
        }
    }

    /// The values of the pending fixed variables leave their peers, value by value;
    /// then the variables left in one board alone are the next pending ones. Fails
    /// when a variable is left in no board, or two peers are fixed to one value.
    fn naked_singles(&mut self) -> Result<(), Conflict> {
        let pending = std::mem::take(&mut self.scratch.pending);
        let mut lost_any = 0;
        for v in 0..self.shape.values {
            let fixed = self.boards[v] & pending;
            if fixed == 0 {
                continue;
            }
            let (mut peers, mut settled) = (0, 0);
            for i in ones(fixed) {
                peers |= self.shape.peers[i];
                settled |= self.shape.group_sets[i];
            }
            self.scratch.settled[v] |= settled;
            let gone = self.boards[v] & peers;
            if gone != 0 {
                if gone & fixed != 0 {
                    return Err(Conflict);
                }
                self.boards[v] &= !gone;
                self.scratch.lost[v] |= gone;
                self.scratch.dirty |= 1 << v;
                lost_any |= gone;
            }
        }
        self.solved |= pending;
        if lost_any != 0 {
            // Bit-sliced counts: the variables in at least one board, and in two.
            let (mut once, mut twice): (Cells, Cells) = (0, 0);
            for v in 0..self.shape.values {
                let board = self.boards[v];
                twice |= once & board;
                once |= board;
            }
            if once & lost_any != lost_any {
                return Err(Conflict);
            }
            self.scratch.pending = lost_any & !twice;
        }
        Ok(())
    }

    /// Hidden singles of value `v` and the pigeonhole check in the groups queued for
    /// it: those of the variables that lost it, and those just become tight.
    fn examine(&mut self, v: usize) -> Result<(), Conflict> {
        let lost = std::mem::take(&mut self.scratch.lost[v]);
        let mut groups = std::mem::take(&mut self.scratch.tight[v]);
        for i in ones(lost) {
            groups |= self.shape.group_sets[i];
        }
        // Where `v` has one place, fixed to it, nothing is left to find.
        groups &= !std::mem::take(&mut self.scratch.settled[v]);
        let board = self.boards[v];
        let mut fixed = self.solved | self.scratch.pending;
        while groups != 0 {
            let g = groups.trailing_zeros() as usize;
            groups &= groups - 1;
            let places = board & self.shape.groups[g];
            if places == 0 {
                self.no_place(g, v)?;
            } else if at_most_one(places) && places & fixed == 0 && self.is_tight(g) {
                self.hidden_single(places.trailing_zeros() as usize, v);
                fixed |= places;
            }
        }
        Ok(())
    }

    /// Fixes variable `i` to value `v`, its one place in a tight group: `i` leaves
    /// every other board.
    #[cold]
    #[inline(never)]
    fn hidden_single(&mut self, i: usize, v: usize) {
        let bit: Cells = 1 << i;
        for u in bits(self.shape.every_value & !(1 << v)) {
            if self.boards[u] & bit != 0 {
                self.boards[u] &= !bit;
                self.scratch.lost[u] |= bit;
                self.scratch.dirty |= 1 << u;
            }
        }
        self.scratch.pending |= bit;
        self.scratch.hidden |= bit;
    }

    /// Whether group `g` has exactly as many values left as variables.
    fn is_tight(&self, g: usize) -> bool {
        self.shape.full[g] != 0 || self.values_in(g).count_ones() == self.shape.sizes[g]
    }

    /// Value `v` has no place left in group `g`: fails if too few values are left;
    /// if just enough are, the group has become tight, and its values are examined.
    fn no_place(&mut self, g: usize, v: usize) -> Result<(), Conflict> {
        let full = self.shape.full[g];
        if full != 0 {
            return if full & 1 << v != 0 {
                Err(Conflict)
            } else {
                Ok(())
            };
        }
        let values = self.values_in(g);
        let count = values.count_ones();
        if count < self.shape.sizes[g] {
            return Err(Conflict);
        }
        if count == self.shape.sizes[g] {
            for u in bits(values) {
                self.scratch.tight[u] |= 1 << g;
                self.scratch.dirty |= 1 << u;
            }
        }
        Ok(())
    }
}
