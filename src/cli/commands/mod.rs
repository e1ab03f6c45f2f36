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
pub(crate) use explain::{ExplainArgs, explain};
pub(crate) use generate::generate;
pub(crate) use rate::rate;
pub(crate) use solve::solve;
pub(crate) use trace::trace;
pub(crate) use validate::validate;

use alldiff::sudoku::{Grid, SolverOptions, SudokuSolver};
use alldiff::{Limits, ModelError};

use crate::cli::input::Origin;
use crate::cli::{Format, Item, Outcome};

/// The grid of an item, or the failed outcome that reports why it is not one.
fn parse_item(item: &Item, format: Format) -> Result<Grid, Outcome> {
    let text = item
        .text()
        .map_err(|e| Outcome::error(format, item, &e).with_diagnostic(e.to_string()))?;
    Grid::parse(text).map_err(|e| Outcome::error(format, item, &e).with_diagnostic(e.to_string()))
}

/// The JSON key that says where an item came from: `line` or `argument`, as
/// [`Outcome::error`] writes it.
fn origin_key(item: &Item) -> &'static str {
    match item.origin() {
        Origin::Line(_) => "line",
        Origin::Argument(_) => "argument",
    }
}

/// A worker thread's solver; building it cannot fail with the built-in model,
/// but if it did every item would report the error.
type SolverState = Result<SudokuSolver, ModelError>;

/// The per-thread state of solve and count: a solver with the batch's options and
/// limits, the same for every item.
fn new_solver(options: SolverOptions, limits: &Limits) -> SolverState {
    let mut solver = SudokuSolver::with_options(options);
    solver.set_limits(limits.clone());
    Ok(solver)
}

/// The worker's solver, or the failed outcome that reports why there is none.
fn solver_of<'s>(
    state: &'s mut SolverState,
    item: &Item,
    format: Format,
) -> Result<&'s mut SudokuSolver, Outcome> {
    state.as_mut().map_err(|e| {
        Outcome::error(format, item, format!("cannot build the solver: {e}"))
            .with_diagnostic(e.to_string())
    })
}
