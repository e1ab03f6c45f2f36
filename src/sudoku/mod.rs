//! Sudoku through the constraint engine.

mod grid;
mod validate;

pub use grid::{Grid, ParseError};
pub use validate::{Conflict, Unit, validate};
