//! Sudoku through the constraint engine.
//!
//! [`Grid`] holds a puzzle or a solution of box size 2 to 5 (4x4 to 25x25) and reads and prints
//! it; [`validate`] lists the broken rules of a grid and [`check_solution`] checks a solution
//! against its puzzle.
//!
//! # The grid
//!
//! A grid is made of `side × side` cells, where `side = box_size²`; the supported box sizes are
//! 2 to 5, that is 4x4, 9x9, 16x16 and 25x25 grids. The cells are kept row-major in a vector of
//! `u8`: `0` is a blank and `1..=side` a digit. Grid coordinates (rows, columns, cell indices,
//! unit numbers) are 0-based in the API and 1-based in messages (`r1c1` is the top-left cell).
//!
//! # Symbols
//!
//! Digits are written `1` to `9`, then letters from `A` for 10 up to `P` for 25, so a 16x16 grid
//! uses `1`-`9` and `A`-`G`, and a 25x25 grid `1`-`9` and `A`-`P`. Letters are case-insensitive
//! when parsing and printed in upper case. A blank is printed as `.` and may be written `.`, `0`,
//! `_` or `*`.
//!
//! # Text forms
//!
//! [`Grid::parse`] reads two forms, and works out the size from the number of cells (16, 81, 256
//! or 625):
//!
//! - the *line form*: every cell on one line, e.g. `3.65.84..52...` (81 symbols for a 9x9 grid),
//!   optionally surrounded by white space; [`Grid::to_line`] and `Display` print it;
//! - the *grid form*: one or more lines, as printed by [`Grid::to_grid_string`].
//!
//! In both forms, white space (including `\r` and blank lines) and the separators `|`, `-` and
//! `+` are ignored.
//!
//! Parsing never panics. A [`ParseError`] says where the problem is: `character 23` in the line
//! form, `row 4, column 7` (line and column of the text) in the grid form, both counting
//! characters from 1.
//!
//! ```
//! use alldiff::sudoku::Grid;
//!
//! let grid: Grid = "
//!     1 . | . 4
//!     . 4 | 1 .
//!     ----+----
//!     4 . | . 1
//!     . 1 | 4 .
//! ".parse()?;
//! assert_eq!(grid.side(), 4);
//! assert_eq!(grid.get(0, 3), Some(4));
//! assert_eq!(grid.get(0, 1), None);
//! assert_eq!(grid.to_line(), "1..4.41.4..1.14.");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Validation
//!
//! The rule is that no digit appears twice in a [`Unit`] (a row, a column or a box). [`validate`]
//! lists every break of it as a [`Conflict`]; blanks are never conflicts, so a partly filled
//! puzzle validates as long as its clues agree. [`check_solution`] also asks for a complete grid
//! that keeps every clue of the puzzle.
//!
//! ```
//! use alldiff::sudoku::{Grid, validate};
//!
//! let grid: Grid = "1..1 .... .... 1...".parse()?;
//! let conflicts = validate(&grid);
//! assert_eq!(conflicts.len(), 2);
//! assert_eq!(conflicts[0].to_string(), "row 1 has 1 twice: r1c1, r1c4");
//! assert_eq!(conflicts[1].to_string(), "column 1 has 1 twice: r1c1, r4c1");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod grid;
mod validate;

pub use grid::{CellError, Grid, ParseError, TextPosition, Unit};
pub use validate::{Conflict, SolutionError, SolutionProblem, check_solution, validate};
