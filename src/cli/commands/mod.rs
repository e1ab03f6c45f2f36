//! The subcommands' bodies: each turns one input item into one output record
//! through the library, and leaves reading, threading and writing to the batch
//! layer.

mod count;
mod explain;
mod generate;
mod rate;
mod solve;
mod trace;
mod validate;

pub(crate) use count::count;
pub(crate) use explain::explain;
pub(crate) use generate::generate;
pub(crate) use rate::rate;
pub(crate) use solve::solve;
pub(crate) use trace::trace;
pub(crate) use validate::validate;

use alldiff::Limits;
use alldiff::sudoku::{Grid, SolverOptions, SudokuSolver};

use crate::cli::{Format, Item, ItemReport};

/// The grid of an item, or the failure report that says why it is not one.
fn parse_item(item: &Item, format: Format) -> Result<Grid, ItemReport> {
    let text = item
        .text()
        .map_err(|e| ItemReport::error(format, item, &e).with_diagnostic(e.to_string()))?;
    Grid::parse(text)
        .map_err(|e| ItemReport::error(format, item, &e).with_diagnostic(e.to_string()))
}

/// The per-thread state of solve and count: a solver with the batch's options and
/// limits, the same for every item.
fn new_solver(options: SolverOptions, limits: &Limits) -> SudokuSolver {
    let mut solver = SudokuSolver::with_options(options);
    solver.set_limits(limits.clone());
    solver
}
