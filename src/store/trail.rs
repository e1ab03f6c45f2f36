//! Undoing: marks (choice points), the trail of saved cells, and the copy mode of
//! small stores (see the module docs of [`crate::store`]).

use super::{Saved, Store};

/// The most cells a store may have for its marks to copy them all (see the module
/// docs): enough for a 9x9 Sudoku model (100 cells), which is faster with copies, and
/// below a 16x16 one (321 cells), which is not (`docs/performance.md`).
pub(super) const COPY_CELLS: usize = 128;

impl Store {
    /// Returns to the domains and state words of `other`, the store this one was
    /// cloned from (so the variables and their layouts are the same): only the cells
    /// are copied, and the trail starts empty. Changes are not trailed until the next
    /// [`Store::mark`]: there is nothing below it to undo to.
    pub(crate) fn reset_from(&mut self, other: &Store) {
        let n = other.cells.len();
        debug_assert!(self.cells.len() >= n, "a clone of `other`");
        self.cells[..n].copy_from_slice(&other.cells);
        // The chunk words this store made since the clone: no hole in them yet.
        self.cells[n..].fill(!0);
        self.trail.clear();
        self.copying = self.cells.len() <= COPY_CELLS && self.chunks.is_empty();
        self.copies.clear();
        self.next_epoch();
        // Every cell counts as saved in this epoch.
        self.stamps.fill(self.epoch);
    }

    /// Every word, to change without saving, when no change needs saving: the marks
    /// copy all the cells. `None` when the store trails.
    pub(crate) fn unsaved_words(&mut self) -> Option<&mut [u64]> {
        self.copying.then_some(&mut self.cells)
    }

    /// Sets a word (say, of propagator state), saving the old one for backtracking.
    #[inline(always)]
    pub(crate) fn set_word(&mut self, cell: usize, word: u64) {
        if self.cells[cell] != word {
            self.save(cell);
            self.cells[cell] = word;
        }
    }

    #[inline(always)]
    pub(super) fn save(&mut self, cell: usize) {
        if self.stamps[cell] != self.epoch {
            self.stamps[cell] = self.epoch;
            self.trail.push(Saved {
                cell: cell as u32,
                word: self.cells[cell],
            });
        }
    }

    /// A choice point: undoing to it restores the domains of now.
    pub(crate) fn mark(&mut self) -> usize {
        if self.copying {
            let mark = self.copies.len() / self.cells.len().max(1);
            self.copies.extend_from_slice(&self.cells);
            return mark;
        }
        self.next_epoch();
        self.trail.len()
    }

    /// Restores every cell changed since `mark`, which stays a choice point to undo to.
    pub(crate) fn undo_to(&mut self, mark: usize) {
        if self.copying {
            let n = self.cells.len();
            self.copies.truncate((mark + 1) * n);
            self.cells.copy_from_slice(&self.copies[mark * n..]);
            return;
        }
        while self.trail.len() > mark {
            let Saved { cell, word } = self.trail.pop().expect("trail longer than mark");
            self.cells[cell as usize] = word;
        }
        self.next_epoch();
    }

    fn next_epoch(&mut self) {
        if self.epoch == u32::MAX {
            self.stamps.fill(0);
            self.epoch = 0;
        }
        self.epoch += 1;
    }
}
