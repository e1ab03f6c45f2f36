//! Sudoku through the constraint engine.
