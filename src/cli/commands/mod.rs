//! The subcommands' bodies: each turns one input item into one output record
//! through the library, and leaves reading, threading and writing to the batch
//! layer.

mod count;
mod explain;
mod fzn;
mod generate;
mod minizinc;
mod rate;
mod solve;
mod trace;
mod validate;

pub(crate) use count::count;
pub(crate) use explain::explain;
pub(crate) use fzn::fzn;
pub(crate) use generate::generate;
pub(crate) use minizinc::minizinc;
pub(crate) use rate::rate;
pub(crate) use solve::solve;
pub(crate) use trace::trace;
pub(crate) use validate::validate;

use alldiff::Limits;
use alldiff::sudoku::{Grid, ParseError, SolverOptions, SudokuSolver};

use crate::cli::{Format, Item, ItemReport};

/// The grid of an item, or the failure report that says why it is not one.
fn parse_item(item: &Item, format: Format) -> Result<Grid, ItemReport> {
    let text = item
        .text()
        .map_err(|e| ItemReport::error(format, item, &e).with_diagnostic(e.to_string()))?;
    parse_grid(text).map_err(|e| ItemReport::error(format, item, &e).with_diagnostic(e))
}

/// Parses a grid; the error is the library's message, except that a wrong
/// number of cells lists every size instead of naming the nearest one (243
/// cells are three 81-cell puzzles on one line, not a 256-cell one).
fn parse_grid(text: &str) -> Result<Grid, String> {
    Grid::parse(text).map_err(|e| match e {
        ParseError::WrongCellCount { found, .. } => {
            format!("{found} cells, but a Sudoku has 16, 81, 256 or 625 (one puzzle a line)")
        }
        e => e.to_string(),
    })
}

/// The per-thread state of solve and count: a solver with the batch's options and
/// limits, the same for every item.
fn new_solver(options: SolverOptions, limits: &Limits) -> SudokuSolver {
    let mut solver = SudokuSolver::with_options(options);
    solver.set_limits(limits.clone());
    solver
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wrong_cell_count_lists_every_size() {
        let three = vec!["1".repeat(81); 3].join(" ");
        let message = parse_grid(&three).unwrap_err();
        assert!(message.starts_with("243 cells, "), "{message}");
        assert!(message.contains("16, 81, 256 or 625"), "{message}");
        assert!(!message.contains("has 256"), "{message}");
        let message = parse_grid("12x4").unwrap_err();
        assert!(message.contains("'x'"), "{message}");
    }
}
