//! A cell of a grid, by its row and column.

use std::fmt;

/// A cell of a grid, 0-based; displayed 1-based as `r4c3` (row 4, column 3).
///
/// It names a cell wherever one is reported: in a [`RepeatedDigit`](super::RepeatedDigit),
/// a [`SolutionProblem`](super::SolutionProblem), an error or a step of an
/// [`Explanation`](super::Explanation). Serialized as its display form.
///
/// ```
/// use alldiff::sudoku::Cell;
///
/// let cell = Cell::new(3, 2);
/// assert_eq!(cell.to_string(), "r4c3");
/// assert_eq!((cell.row, cell.column), (3, 2));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    /// The row, from 0 at the top.
    pub row: usize,
    /// The column, from 0 at the left.
    pub column: usize,
}

impl Cell {
    /// The cell at `row` and `column`, both from 0.
    pub const fn new(row: usize, column: usize) -> Cell {
        Cell { row, column }
    }

    /// The cell at `index` in the row-major cells of a grid of `side` columns.
    pub(crate) const fn at_index(index: usize, side: usize) -> Cell {
        Cell {
            row: index / side,
            column: index % side,
        }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "r{}c{}",
            self.row.saturating_add(1),
            self.column.saturating_add(1)
        )
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Cell {
    /// As its display form, `"r4c3"`.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn displays_one_based_and_orders_row_major() {
        assert_eq!(Cell::new(0, 0).to_string(), "r1c1");
        assert_eq!(Cell::at_index(12, 9), Cell::new(1, 3));
        assert_eq!(
            Cell::new(usize::MAX, 24).to_string(),
            format!("r{}c25", usize::MAX)
        );
        assert!(Cell::new(0, 8) < Cell::new(1, 0));
    }
}
