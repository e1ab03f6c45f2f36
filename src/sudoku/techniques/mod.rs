//! The techniques a person solves with, on a board of candidates: naked and hidden
//! singles, locked candidates (pointing and claiming), and naked and hidden subsets
//! (pairs, triples, ...).
//!
//! A [`Board`] keeps the candidates of every cell as a bitmask. [`Board::next`] finds the
//! simplest [`Deduction`] up to a grade, trying the techniques from the simplest up, and
//! [`Board::apply`] applies one. [`rate`](fn@super::rate) and [`explain`](fn@super::explain)
//! both solve by this loop, so the grade of a puzzle and the hardest technique of its
//! explanation cannot disagree.
//!
//! Each grade's techniques, applied until none applies, prune exactly what the engine's
//! [`Propagation`](super::Propagation) of that grade prunes at the root: the closure of
//! monotone rules does not depend on their order, and each grade's rules are the
//! engine's, spelt out:
//!
//! | grade | techniques | the engine's propagation |
//! |---|---|---|
//! | easy | naked singles (a placed digit leaves its units) | `NakedSingles` (value elimination) |
//! | medium | + hidden singles | `HiddenSingles` |
//! | hard | + locked candidates | `LockedCandidates` (an intersection per box and line) |
//! | fiendish | + naked and hidden subsets of every size | `Full` (Régin's matching per unit) |
//!
//! A unit's subsets are found from a perfect matching of its open cells to its missing
//! digits ([`subsets`]): a value that no perfect matching uses is removed by a naked
//! subset, the cells of a strongly connected component that nothing leaves, or by a
//! hidden one, a component that nothing enters; the smallest of them is the simplest
//! subset, and when none is left the unit is all-different consistent, as the matching
//! propagator leaves it. The tests compare the grades with the engine's on generated
//! puzzles (`tests/sudoku_grading.rs`).

mod subsets;

use crate::sudoku::{Difficulty, Grid, Unit};

/// The candidates are contradictory: a cell has none, a digit has no place left in a
/// unit, or a unit's cells cannot all take different digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Contradiction;

/// One step of reasoning found on a [`Board`]. Cells are row-major indices, units are
/// numbered as [`Board::unit`] reads them, digits are `1..=side`, and digit sets are
/// masks (bit `d - 1` for digit `d`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Deduction {
    /// The cell has one candidate left.
    NakedSingle { cell: usize, digit: u8 },
    /// The digit has one place left in the unit.
    HiddenSingle { cell: usize, digit: u8, unit: usize },
    /// In `confining` (a box, or a row or column), the digit lies only at `cells`, all
    /// inside `cleared` (a row or column, or the box): it leaves `removed`, the other
    /// cells of `cleared` that hold it.
    LockedCandidates {
        digit: u8,
        confining: usize,
        cleared: usize,
        cells: Vec<usize>,
        removed: Vec<usize>,
    },
    /// `cells` of `unit` hold together as many candidates as they are, `digits` (naked),
    /// or are the only places of as many digits, `digits` (hidden): `removed` lists the
    /// candidates that leave each cell (other cells of the unit for a naked subset, the
    /// subset's own cells for a hidden one).
    Subset {
        hidden: bool,
        unit: usize,
        cells: Vec<usize>,
        digits: u32,
        removed: Vec<(usize, u32)>,
    },
}

impl Deduction {
    /// The digit placed, for a single.
    pub(crate) fn placement(&self) -> Option<(usize, u8)> {
        match *self {
            Deduction::NakedSingle { cell, digit }
            | Deduction::HiddenSingle { cell, digit, .. } => Some((cell, digit)),
            Deduction::LockedCandidates { .. } | Deduction::Subset { .. } => None,
        }
    }

    /// Calls `f` with each cell and digit the deduction removes (none for a single).
    pub(crate) fn for_each_removal(&self, mut f: impl FnMut(usize, u8)) {
        match self {
            Deduction::NakedSingle { .. } | Deduction::HiddenSingle { .. } => {}
            Deduction::LockedCandidates { digit, removed, .. } => {
                for &cell in removed {
                    f(cell, *digit);
                }
            }
            Deduction::Subset { removed, .. } => {
                for &(cell, mask) in removed {
                    for digit in digits(mask) {
                        f(cell, digit);
                    }
                }
            }
        }
    }
}

/// The mask bit of a digit.
pub(crate) fn bit(digit: u8) -> u32 {
    1 << (digit - 1)
}

/// The digits of a mask, smallest first.
pub(crate) fn digits(mut mask: u32) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let digit = mask.trailing_zeros() as u8 + 1;
            mask &= mask - 1;
            digit
        })
    })
}

/// The candidates of every cell of a grid, with the digits placed so far.
///
/// Units are numbered as [`Grid::units`] lists them: rows `0..side`, columns
/// `side..2 side`, boxes `2 side..3 side`.
#[derive(Clone, Debug)]
pub(crate) struct Board {
    box_size: usize,
    side: usize,
    /// The candidates of each cell; a placed cell keeps its digit alone.
    candidates: Vec<u32>,
    /// The digit placed in each cell, 0 while open.
    placed: Vec<u8>,
    /// The cells of every unit, `side` a unit, in reading order.
    unit_cells: Vec<usize>,
    /// The digits placed in each unit.
    unit_placed: Vec<u32>,
    /// How many cells are open.
    open: usize,
}

impl Board {
    /// The board of a puzzle: every digit a candidate of every cell, then the clues
    /// placed.
    ///
    /// # Errors
    ///
    /// [`Contradiction`] when two clues clash or leave a cell without candidates.
    pub(crate) fn new(grid: &Grid) -> Result<Board, Contradiction> {
        let side = grid.side();
        let mut board = Board {
            box_size: grid.box_size(),
            side,
            candidates: vec![(1 << side) - 1; side * side],
            placed: vec![0; side * side],
            unit_cells: grid.units().flat_map(|u| grid.unit_cells(u)).collect(),
            unit_placed: vec![0; 3 * side],
            open: side * side,
        };
        for (cell, &digit) in grid.cells().iter().enumerate() {
            if digit != 0 {
                board.place(cell, digit)?;
            }
        }
        Ok(board)
    }

    /// The side of the grid.
    pub(crate) fn side(&self) -> usize {
        self.side
    }

    /// The candidates of a cell (its digit alone once placed).
    pub(crate) fn candidates(&self, cell: usize) -> u32 {
        self.candidates[cell]
    }

    /// The digit placed in a cell, 0 while open.
    pub(crate) fn placed(&self, cell: usize) -> u8 {
        self.placed[cell]
    }

    /// Whether every cell is placed.
    pub(crate) fn is_solved(&self) -> bool {
        self.open == 0
    }

    /// The cells of a unit, in reading order.
    pub(crate) fn cells_of(&self, unit: usize) -> &[usize] {
        &self.unit_cells[unit * self.side..(unit + 1) * self.side]
    }

    /// The row, column and box of a cell.
    pub(crate) fn units_of(&self, cell: usize) -> [usize; 3] {
        let (row, col, b) = (cell / self.side, cell % self.side, self.box_size);
        [
            row,
            self.side + col,
            2 * self.side + (row / b) * b + col / b,
        ]
    }

    /// The [`Unit`] of a unit number.
    pub(crate) fn unit(&self, unit: usize) -> Unit {
        match unit / self.side {
            0 => Unit::Row(unit),
            1 => Unit::Column(unit - self.side),
            _ => Unit::Box(unit - 2 * self.side),
        }
    }

    /// Whether a digit is placed in one of the cell's units, which rules it out there
    /// without any technique.
    pub(crate) fn sees(&self, cell: usize, digit: u8) -> bool {
        self.units_of(cell)
            .iter()
            .any(|&u| self.unit_placed[u] & bit(digit) != 0)
    }

    /// Places a digit and removes it from the other cells of its units.
    ///
    /// # Errors
    ///
    /// [`Contradiction`] when the digit is not a candidate of the cell or the removal
    /// leaves a cell without candidates.
    pub(crate) fn place(&mut self, cell: usize, digit: u8) -> Result<(), Contradiction> {
        let mask = bit(digit);
        if self.placed[cell] != 0 || self.candidates[cell] & mask == 0 {
            return Err(Contradiction);
        }
        self.candidates[cell] = mask;
        self.placed[cell] = digit;
        self.open -= 1;
        for unit in self.units_of(cell) {
            self.unit_placed[unit] |= mask;
            for i in unit * self.side..(unit + 1) * self.side {
                let other = self.unit_cells[i];
                if other != cell {
                    self.remove(other, mask)?;
                }
            }
        }
        Ok(())
    }

    /// Removes candidates from a cell.
    ///
    /// # Errors
    ///
    /// [`Contradiction`] when none is left.
    fn remove(&mut self, cell: usize, mask: u32) -> Result<(), Contradiction> {
        let left = self.candidates[cell] & !mask;
        if left == 0 {
            return Err(Contradiction);
        }
        self.candidates[cell] = left;
        Ok(())
    }

    /// Applies a deduction found on this board.
    ///
    /// # Errors
    ///
    /// [`Contradiction`] when it leaves a cell without candidates.
    pub(crate) fn apply(&mut self, deduction: &Deduction) -> Result<(), Contradiction> {
        if let Some((cell, digit)) = deduction.placement() {
            return self.place(cell, digit);
        }
        let mut result = Ok(());
        deduction.for_each_removal(|cell, digit| {
            if result.is_ok() {
                result = self.remove(cell, bit(digit));
            }
        });
        result
    }

    /// The simplest deduction of a technique of at most `hardest`'s grade: a naked
    /// single, else a hidden single, else locked candidates, else the smallest subset.
    /// `None` when those techniques are stuck (or the board is solved).
    ///
    /// Cost, for side n (n² cells, 3n units), each technique tried only when the
    /// simpler ones found nothing: naked singles O(n²), hidden singles O(n²), locked
    /// candidates O(n² √n), subsets O(n⁴) bit operations (a matching and the strongly
    /// connected components of each unit); no allocation unless locked candidates or a
    /// subset are found.
    ///
    /// # Errors
    ///
    /// [`Contradiction`] when a technique finds the candidates contradictory.
    pub(crate) fn next(&self, hardest: Difficulty) -> Result<Option<Deduction>, Contradiction> {
        if let Some(single) = self.naked_single()? {
            return Ok(Some(single));
        }
        if hardest >= Difficulty::Medium
            && let Some(single) = self.hidden_single()?
        {
            return Ok(Some(single));
        }
        if hardest >= Difficulty::Hard
            && let Some(locked) = self.locked_candidates()
        {
            return Ok(Some(locked));
        }
        if hardest >= Difficulty::Fiendish {
            return self.subset();
        }
        Ok(None)
    }

    /// The first open cell, row-major, with one candidate.
    fn naked_single(&self) -> Result<Option<Deduction>, Contradiction> {
        for (cell, &mask) in self.candidates.iter().enumerate() {
            if self.placed[cell] == 0 && mask.count_ones() == 1 {
                let digit = mask.trailing_zeros() as u8 + 1;
                return Ok(Some(Deduction::NakedSingle { cell, digit }));
            }
        }
        Ok(None)
    }

    /// The first digit with one place left in a unit, boxes first, then rows, then
    /// columns (where people look first).
    fn hidden_single(&self) -> Result<Option<Deduction>, Contradiction> {
        let side = self.side;
        for unit in (2 * side..3 * side).chain(0..2 * side) {
            let (mut once, mut twice) = (0u32, 0u32);
            for &cell in self.cells_of(unit) {
                if self.placed[cell] == 0 {
                    let mask = self.candidates[cell];
                    twice |= once & mask;
                    once |= mask;
                }
            }
            let missing = self.all_digits() & !self.unit_placed[unit];
            if missing & !once != 0 {
                return Err(Contradiction);
            }
            let single = missing & once & !twice;
            if single != 0 {
                let digit = single.trailing_zeros() as u8 + 1;
                let cell = self
                    .cells_of(unit)
                    .iter()
                    .copied()
                    .find(|&c| self.placed[c] == 0 && self.candidates[c] & bit(digit) != 0)
                    .ok_or(Contradiction)?;
                return Ok(Some(Deduction::HiddenSingle { cell, digit, unit }));
            }
        }
        Ok(None)
    }

    /// Every digit, as a mask.
    pub(crate) fn all_digits(&self) -> u32 {
        // A side is at most 25.
        (1 << self.side) - 1
    }

    /// The union of the candidates of the open cells of `unit`, inside and outside the
    /// other unit `other`.
    fn split(&self, unit: usize, other: usize) -> (u32, u32) {
        let (mut inside, mut outside) = (0, 0);
        for &cell in self.cells_of(unit) {
            if self.placed[cell] == 0 {
                if self.units_of(cell).contains(&other) {
                    inside |= self.candidates[cell];
                } else {
                    outside |= self.candidates[cell];
                }
            }
        }
        (inside, outside)
    }

    /// The first locked candidates, box by box, each box's rows then its columns:
    /// pointing (the box confines the digit to the line) before claiming (the line
    /// confines it to the box).
    fn locked_candidates(&self) -> Option<Deduction> {
        let (side, b) = (self.side, self.box_size);
        for box_number in 0..side {
            let box_unit = 2 * side + box_number;
            let (band, stack) = (box_number / b, box_number % b);
            let lines = (0..b)
                .map(|i| band * b + i)
                .chain((0..b).map(|i| side + stack * b + i));
            for line in lines {
                let (box_in, box_out) = self.split(box_unit, line);
                let (line_in, line_out) = self.split(line, box_unit);
                invariant_eq!(box_in, line_in, "the same cells");
                let pointing = box_in & !box_out & line_out;
                let claiming = box_in & !line_out & box_out;
                for (confined, confining, cleared) in
                    [(pointing, box_unit, line), (claiming, line, box_unit)]
                {
                    if confined != 0 {
                        let digit = confined.trailing_zeros() as u8 + 1;
                        return Some(self.locked(digit, confining, cleared));
                    }
                }
            }
        }
        None
    }

    /// The locked candidates of `digit`, confined by `confining` to its cells in
    /// `cleared`.
    fn locked(&self, digit: u8, confining: usize, cleared: usize) -> Deduction {
        let holds =
            |&cell: &usize| self.placed[cell] == 0 && self.candidates[cell] & bit(digit) != 0;
        let cells = self
            .cells_of(confining)
            .iter()
            .copied()
            .filter(holds)
            .collect();
        let removed = self
            .cells_of(cleared)
            .iter()
            .copied()
            .filter(holds)
            .filter(|&cell| !self.units_of(cell).contains(&confining))
            .collect();
        Deduction::LockedCandidates {
            digit,
            confining,
            cleared,
            cells,
            removed,
        }
    }

    /// The smallest naked or hidden subset that removes a candidate (naked first at
    /// equal size, then the first unit).
    ///
    /// # Errors
    ///
    /// [`Contradiction`] when a unit's open cells cannot take its missing digits.
    fn subset(&self) -> Result<Option<Deduction>, Contradiction> {
        let mut best: Option<Deduction> = None;
        let size = |d: &Deduction| match d {
            Deduction::Subset { hidden, cells, .. } => (cells.len(), *hidden),
            _ => (usize::MAX, true),
        };
        for unit in 0..3 * self.side {
            let found = subsets::smallest(self, unit)?;
            if let Some(found) = found
                && best.as_ref().is_none_or(|b| size(&found) < size(b))
            {
                if size(&found) == (2, false) {
                    return Ok(Some(found));
                }
                best = Some(found);
            }
        }
        Ok(best)
    }
}

#[cfg(test)]
mod tests;
