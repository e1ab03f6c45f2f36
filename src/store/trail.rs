//! Undoing: marks (choice points), the trail of saved cells, and the copy mode of
//! small stores (see the module docs of [`crate::store`]).

use super::{RUN, Saved, Store};

/// The most words (*cells*) a solver's store of domains may have for it to copy them
/// all at each choice point and back when it backtracks; a larger store, or one
/// with a domain kept as an interval (values spread wider than 4096 and nearly
/// contiguous), saves each word before its first change instead (the *trail*).
/// A domain of at most 64 values takes one word, a wider one two and one per 64
/// values of its span; each propagator's state adds its own.
///
/// Enough for a 9x9 Sudoku model (100 cells) and a 9-mark Golomb ruler's (36
/// two-word domains, about 150 cells), which are faster with copies, and below a
/// 16x16 Sudoku model (321 cells), which is not (`docs/performance.md`). Public
/// for tests that must reach past it, so that they exercise the trail.
pub const COPY_CELLS: usize = 256;

/// [`Store::mark`] looks for runs in the entries of a level only when the level has
/// at least `RUNS_FROM.0` of them and the trail at least `RUNS_FROM.1`: a trail
/// shorter than that (768 KB) costs little memory, and most searches' never grows so
/// long, so they never pay for the look.
pub(super) const RUNS_FROM: (usize, usize) = (64, 1 << 16);

impl Store {
    /// Returns to the domains and state words of `other`, the store this one was
    /// cloned from (so the variables and their layouts are the same): only the cells
    /// are copied, and the trail starts empty. Changes are not trailed until the next
    /// [`Store::mark`]: there is nothing below it to undo to.
    pub(crate) fn reset_from(&mut self, other: &Store) {
        let n = other.cells.len();
        invariant!(self.cells.len() >= n, "a clone of `other`");
        self.cells[..n].copy_from_slice(&other.cells);
        // The chunk words this store made since the clone: no hole in them yet.
        self.cells[n..].fill(!0);
        self.trail.clear();
        self.level_start = 0;
        self.has_runs = false;
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
        let len = self.trail.len();
        if len >= RUNS_FROM.1 && len - self.level_start >= RUNS_FROM.0 {
            self.make_runs();
        }
        self.next_epoch();
        self.level_start = self.trail.len();
        self.level_start
    }

    /// Rewrites the entries saved since the latest mark, in place, with each stretch
    /// of them at evenly spaced cells and with the same old word as one run: a
    /// propagator that moves the same bound of many like variables (a wide sum
    /// lowering every maximum, a value leaving many equal domains) then keeps two
    /// entries a level instead of one a variable. The top entry of a run is its
    /// length, marked [`RUN`], and its spacing; the one below, its first cell and the
    /// word. O(entries), at most once per entry.
    fn make_runs(&mut self) {
        let end = self.trail.len();
        let (mut kept, mut i) = (self.level_start, self.level_start);
        while i < end {
            let head = self.trail[i];
            let first = u64::from(head.cell);
            let stride = self
                .trail
                .get(i + 1)
                .map_or(0, |e| u64::from(e.cell).wrapping_sub(first));
            let mut j = i + 1;
            if (1..u64::from(RUN)).contains(&stride) {
                let continues = |k: usize, e: &Saved| {
                    e.word == head.word && u64::from(e.cell) == first + (k - i) as u64 * stride
                };
                while self.trail.get(j).is_some_and(|e| continues(j, e)) {
                    j += 1;
                }
            }
            self.trail[kept] = head;
            kept += 1;
            if j - i >= 2 {
                self.trail[kept] = Saved {
                    cell: RUN | (j - i) as u32,
                    word: stride,
                };
                kept += 1;
            }
            i = j;
        }
        self.has_runs |= kept < end;
        self.trail.truncate(kept);
    }

    /// Restores every cell changed since `mark`, which stays a choice point to undo to.
    pub(crate) fn undo_to(&mut self, mark: usize) {
        if self.copying {
            let n = self.cells.len();
            self.copies.truncate((mark + 1) * n);
            self.cells.copy_from_slice(&self.copies[mark * n..]);
            return;
        }
        if !self.has_runs {
            // The plain loop: most searches never make a run, nor pay to look for one.
            while self.trail.len() > mark {
                let Saved { cell, word } = self.trail.pop().expect("trail longer than mark");
                self.cells[cell as usize] = word;
            }
        }
        while self.trail.len() > mark {
            let Saved { cell, word } = self.trail.pop().expect("trail longer than mark");
            if cell & RUN == 0 {
                self.cells[cell as usize] = word;
                continue;
            }
            // A run's top entry: its length and spacing; its first cell and word below.
            let (count, stride) = ((cell & !RUN) as usize, word as usize);
            let Saved { cell, word } = self.trail.pop().expect("a run has a head");
            for c in (cell as usize..).step_by(stride).take(count) {
                self.cells[c] = word;
            }
        }
        self.level_start = mark;
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
