//! Sudoku through the constraint engine.
//!
//! [`Grid`] holds a puzzle or a solution of box size 2 to 5 (4x4 to 25x25) and reads and prints
//! it.

mod grid;

pub use grid::{CellError, Grid, ParseError, TextPosition, Unit};
