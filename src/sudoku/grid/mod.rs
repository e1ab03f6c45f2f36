//! The Sudoku grid: storage, geometry, and reading and writing cells ([`text`] reads and
//! prints it).
//!
//! The symbols and the text forms are described in the [`sudoku`](crate::sudoku) module docs,
//! which are public where this module is not.

use std::fmt;

use thiserror::Error;

use crate::sudoku::Cell;

mod text;

pub(crate) use text::symbol;
use text::symbol_of_side;
pub use text::{ParseError, TextPosition};

/// The smallest supported box size (a 4x4 grid).
const MIN_BOX_SIZE: usize = 2;
/// The largest supported box size (a 25x25 grid).
const MAX_BOX_SIZE: usize = 5;

/// A Sudoku grid of box size 2 to 5, with some cells filled in.
///
/// The grid always holds valid values (blanks, or digits `1..=side`), but it may break the
/// Sudoku rules; see [`validate`](fn@super::validate).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Grid {
    box_size: usize,
    cells: Vec<u8>,
}

/// One row, column or box of a grid: a set of `side` cells that must hold different digits.
///
/// The number inside is 0-based; boxes are numbered row-major (box 0 is at the top left, box 1
/// to its right). `Display` is 1-based: `row 1`, `column 3`, `box 9`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Unit {
    /// A row, numbered from the top.
    Row(usize),
    /// A column, numbered from the left.
    Column(usize),
    /// A box, numbered row-major from the top left.
    Box(usize),
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (name, index) = match *self {
            Unit::Row(index) => ("row", index),
            Unit::Column(index) => ("column", index),
            Unit::Box(index) => ("box", index),
        };
        write!(f, "{name} {}", index.saturating_add(1))
    }
}

/// Why a cell could not be read or written.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[non_exhaustive]
pub enum CellError {
    /// The row or the column is not inside the grid.
    #[error("{cell} is outside a {side}x{side} grid")]
    OutOfBounds {
        /// The cell asked for.
        cell: Cell,
        /// The side of the grid.
        side: usize,
    },
    /// The digit is 0 or larger than the side of the grid (a blank is written `None`).
    #[error(
        "{digit} is not a digit of a {side}x{side} Sudoku: use 1 to {} (or None for a blank)",
        symbol_of_side(*.side)
    )]
    DigitOutOfRange {
        /// The digit given.
        digit: u8,
        /// The side of the grid.
        side: usize,
    },
}

impl Grid {
    /// A grid of the given box size with every cell blank.
    ///
    /// # Errors
    ///
    /// [`ParseError::UnsupportedBoxSize`] unless `box_size` is 2 to 5.
    pub fn empty(box_size: usize) -> Result<Grid, ParseError> {
        let side = side_of(box_size)?;
        Ok(Grid {
            box_size,
            cells: vec![0; side * side],
        })
    }

    /// A grid from its cells, row-major: `0` for a blank, `1..=side` for a digit.
    ///
    /// # Errors
    ///
    /// [`ParseError::UnsupportedBoxSize`] unless `box_size` is 2 to 5,
    /// [`ParseError::WrongCellCount`] unless there are `side²` cells, and
    /// [`ParseError::CellOutOfRange`] for the first value larger than `side`.
    pub fn from_cells(box_size: usize, cells: Vec<u8>) -> Result<Grid, ParseError> {
        let side = side_of(box_size)?;
        if cells.len() != side * side {
            return Err(ParseError::WrongCellCount {
                found: cells.len(),
                expected: side * side,
            });
        }
        if let Some((index, &value)) = cells
            .iter()
            .enumerate()
            .find(|&(_, &value)| usize::from(value) > side)
        {
            return Err(ParseError::CellOutOfRange {
                cell: Cell::at_index(index, side),
                value,
                side,
            });
        }
        Ok(Grid { box_size, cells })
    }

    /// A grid of the box size from cells the caller knows are right: `side²` of
    /// them, each `0..=side` (checked in debug builds and with `debug-checks`), such as a solver's solution.
    pub(crate) fn from_solution(box_size: usize, cells: Vec<u8>) -> Grid {
        invariant!(Grid::from_cells(box_size, cells.clone()).is_ok());
        Grid { box_size, cells }
    }

    /// The box size: 2 to 5.
    pub fn box_size(&self) -> usize {
        self.box_size
    }

    /// The number of rows (and of columns, digits, boxes): `box_size²`.
    pub fn side(&self) -> usize {
        self.box_size * self.box_size
    }

    /// The number of cells: `side²`.
    pub fn cell_count(&self) -> usize {
        self.cells.len()
    }

    /// The digit at a cell (0-based): `None` for a blank, and for a cell outside the grid
    /// ([`get_checked`](Self::get_checked) tells the two apart). Never panics.
    pub fn get(&self, row: usize, col: usize) -> Option<u8> {
        self.get_checked(row, col).ok().flatten()
    }

    /// The digit at a cell (0-based), or `Ok(None)` for a blank.
    ///
    /// # Errors
    ///
    /// [`CellError::OutOfBounds`] if `row` or `col` is not below [`side`](Self::side).
    pub fn get_checked(&self, row: usize, col: usize) -> Result<Option<u8>, CellError> {
        let index = self.index_of(row, col)?;
        Ok(match self.cells[index] {
            0 => None,
            digit => Some(digit),
        })
    }

    /// Writes a digit (`1..=side`) or a blank (`None`) at a cell (0-based).
    ///
    /// # Panics
    ///
    /// If the cell is outside the grid or the digit is out of range; see
    /// [`set_checked`](Self::set_checked).
    pub fn set(&mut self, row: usize, col: usize, digit: Option<u8>) {
        if let Err(error) = self.set_checked(row, col, digit) {
            panic!("{error}");
        }
    }

    /// Writes a digit (`1..=side`) or a blank (`None`) at a cell (0-based).
    ///
    /// # Errors
    ///
    /// [`CellError::OutOfBounds`] if the cell is outside the grid,
    /// [`CellError::DigitOutOfRange`] if the digit is 0 or above [`side`](Self::side). The grid
    /// is unchanged on error.
    pub fn set_checked(
        &mut self,
        row: usize,
        col: usize,
        digit: Option<u8>,
    ) -> Result<(), CellError> {
        let index = self.index_of(row, col)?;
        let side = self.side();
        let value = match digit {
            None => 0,
            Some(digit) if digit != 0 && usize::from(digit) <= side => digit,
            Some(digit) => return Err(CellError::DigitOutOfRange { digit, side }),
        };
        self.cells[index] = value;
        Ok(())
    }

    /// The cells, row-major: `0` for a blank, `1..=side` for a digit. The cell at `(row, col)`
    /// is at index `row * side + col`.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The number of filled (non-blank) cells.
    pub fn clue_count(&self) -> usize {
        self.cells.iter().filter(|&&value| value != 0).count()
    }

    /// Whether every cell is filled. This says nothing about conflicts.
    pub fn is_complete(&self) -> bool {
        self.cells.iter().all(|&value| value != 0)
    }

    /// Every unit of the grid: the rows, then the columns, then the boxes, each from 0.
    pub fn units(&self) -> impl Iterator<Item = Unit> + use<> {
        let side = self.side();
        (0..side)
            .map(Unit::Row)
            .chain((0..side).map(Unit::Column))
            .chain((0..side).map(Unit::Box))
    }

    /// The indices into [`cells`](Self::cells) of the cells of a unit, in reading order.
    /// A unit whose number is not below [`side`](Self::side) has no cells.
    pub fn unit_cells(&self, unit: Unit) -> impl Iterator<Item = usize> + use<> {
        let (box_size, side) = (self.box_size, self.side());
        let number = match unit {
            Unit::Row(number) | Unit::Column(number) | Unit::Box(number) => number,
        };
        let len = if number < side { side } else { 0 };
        (0..len).map(move |i| match unit {
            Unit::Row(row) => row * side + i,
            Unit::Column(col) => i * side + col,
            Unit::Box(b) => {
                let row = (b / box_size) * box_size + i / box_size;
                let col = (b % box_size) * box_size + i % box_size;
                row * side + col
            }
        })
    }

    /// The index into `cells` of a cell, if it is inside the grid.
    fn index_of(&self, row: usize, col: usize) -> Result<usize, CellError> {
        let side = self.side();
        if row < side && col < side {
            Ok(row * side + col)
        } else {
            Err(CellError::OutOfBounds {
                cell: Cell::new(row, col),
                side,
            })
        }
    }
}

/// The side of a grid of the given box size, if that size is supported.
fn side_of(box_size: usize) -> Result<usize, ParseError> {
    if (MIN_BOX_SIZE..=MAX_BOX_SIZE).contains(&box_size) {
        Ok(box_size * box_size)
    } else {
        Err(ParseError::UnsupportedBoxSize { box_size })
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A complete, conflict-free grid of the given box size, from the usual shifting pattern.
    pub(crate) fn patterned(box_size: usize) -> Grid {
        let side = box_size * box_size;
        let cells = (0..side * side)
            .map(|index| {
                let (row, col) = (index / side, index % side);
                let value = (box_size * (row % box_size) + row / box_size + col) % side + 1;
                u8::try_from(value).unwrap()
            })
            .collect();
        Grid::from_cells(box_size, cells).unwrap()
    }

    #[test]
    fn constructors_check_their_input() {
        for box_size in [0, 1, 6, usize::MAX] {
            assert_eq!(
                Grid::empty(box_size),
                Err(ParseError::UnsupportedBoxSize { box_size })
            );
        }
        assert_eq!(
            Grid::empty(1).unwrap_err().to_string(),
            "box size 1 is not supported: it must be 2 to 5 (4x4 to 25x25)"
        );
        let empty = Grid::empty(3).unwrap();
        assert_eq!(empty.cells(), &[0; 81][..]);
        assert_eq!(empty.clue_count(), 0);
        assert_eq!(
            Grid::from_cells(3, vec![0; 80]).unwrap_err().to_string(),
            "80 cells, a Sudoku has 81"
        );
        let mut cells = vec![0; 81];
        cells[12] = 10;
        assert_eq!(
            Grid::from_cells(3, cells).unwrap_err().to_string(),
            "r2c4 holds 10, but a 9x9 Sudoku has digits 1 to 9 and 0 for a blank"
        );
        assert_eq!(
            Grid::from_cells(2, patterned(2).cells().to_vec()),
            Ok(patterned(2))
        );
    }

    #[test]
    fn get_and_set() {
        let mut grid = Grid::empty(4).unwrap();
        grid.set(15, 0, Some(16));
        assert_eq!(grid.get(15, 0), Some(16));
        assert_eq!(grid.cells()[15 * 16], 16);
        assert_eq!(grid.to_line().chars().nth(15 * 16), Some('G'));
        grid.set(15, 0, None);
        assert_eq!(grid, Grid::empty(4).unwrap());

        assert_eq!(
            grid.set_checked(0, 16, Some(1)),
            Err(CellError::OutOfBounds {
                cell: Cell::new(0, 16),
                side: 16
            })
        );
        assert_eq!(
            grid.set_checked(0, 0, Some(17)).unwrap_err().to_string(),
            "17 is not a digit of a 16x16 Sudoku: use 1 to G (or None for a blank)"
        );
        assert!(grid.set_checked(0, 0, Some(0)).is_err());
        assert_eq!(grid, Grid::empty(4).unwrap());
        assert_eq!(
            grid.get_checked(usize::MAX, 2).unwrap_err().to_string(),
            format!("r{}c3 is outside a 16x16 grid", usize::MAX)
        );
        assert_eq!(grid.get_checked(2, 2), Ok(None));
        // Outside the grid, `get` answers `None` rather than panicking.
        assert_eq!(grid.get(16, 0), None);
        assert_eq!(grid.get(0, usize::MAX), None);
    }

    #[test]
    #[should_panic(expected = "r10c1 is outside a 9x9 grid")]
    fn set_outside_the_grid_panics() {
        Grid::empty(3).unwrap().set(9, 0, Some(1));
    }

    #[test]
    #[should_panic(expected = "is not a digit of a 4x4 Sudoku")]
    fn set_a_digit_too_large_panics() {
        Grid::empty(2).unwrap().set(0, 0, Some(5));
    }

    #[test]
    fn units_and_their_cells() {
        let grid = Grid::empty(3).unwrap();
        let units: Vec<Unit> = grid.units().collect();
        assert_eq!(units.len(), 27);
        assert_eq!(units[0], Unit::Row(0));
        assert_eq!(units[9], Unit::Column(0));
        assert_eq!(units[26], Unit::Box(8));
        let cells = |unit| grid.unit_cells(unit).collect::<Vec<_>>();
        assert_eq!(cells(Unit::Row(1)), (9..18).collect::<Vec<_>>());
        assert_eq!(cells(Unit::Column(2)), [2, 11, 20, 29, 38, 47, 56, 65, 74]);
        assert_eq!(cells(Unit::Box(4)), [30, 31, 32, 39, 40, 41, 48, 49, 50]);
        assert_eq!(cells(Unit::Box(8)), [60, 61, 62, 69, 70, 71, 78, 79, 80]);
        assert!(cells(Unit::Box(9)).is_empty());
        assert!(cells(Unit::Row(usize::MAX)).is_empty());
        assert_eq!(Unit::Row(0).to_string(), "row 1");
        assert_eq!(Unit::Column(2).to_string(), "column 3");
        assert_eq!(Unit::Box(8).to_string(), "box 9");
    }

    #[test]
    fn every_cell_is_in_one_unit_of_each_kind() {
        for box_size in 2..=5 {
            let grid = Grid::empty(box_size).unwrap();
            let mut seen = vec![0_usize; grid.cell_count()];
            for unit in grid.units() {
                for index in grid.unit_cells(unit) {
                    seen[index] += 1;
                }
            }
            assert!(seen.iter().all(|&count| count == 3), "box size {box_size}");
        }
    }
}
