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

use std::io::{self, Write as _};

use alldiff::sudoku::{Grid, ParseError, SolverOptions, SudokuSolver};
use alldiff::{Limits, StopReason};

use crate::record::{Record, Style};
use crate::{Item, ItemReport};

/// The grid of an item, or the failure report that says why it is not one
/// (also written to standard error; a grid of several lines is named by them).
/// Of a puzzle and its solution on one line, the puzzle: only `validate` checks
/// the solution.
fn parse_item(item: &Item, style: Style) -> Result<Grid, ItemReport> {
    let text = item.text().map_err(|e| not_a_puzzle(item, style, e))?;
    let puzzle = split_pair(text).map_or(text, |(puzzle, _)| puzzle);
    parse_grid(puzzle).map_err(|e| not_a_puzzle(item, style, item.in_context(e)))
}

/// A puzzle and a solution on one line: two words of equal length.
fn split_pair(text: &str) -> Option<(&str, &str)> {
    // The usual line has no white space: it is not looked at word by word (that
    // cost 1,200 instructions a puzzle).
    let bytes = text.as_bytes();
    if !bytes.contains(&b' ') && !bytes.contains(&b'\t') {
        return None;
    }
    let mut words = text.split_whitespace();
    let (first, second) = (words.next()?, words.next()?);
    (words.next().is_none() && first.len() == second.len() && first.len() >= 16)
        .then_some((first, second))
}

/// The failure report of an item that is not a puzzle, with the message on
/// standard error too.
fn not_a_puzzle(item: &Item, style: Style, message: impl ToString) -> ItemReport {
    let message = message.to_string();
    ItemReport::failure(Record::error(item, &message).render(style)).with_diagnostic(message)
}

/// Writes the CSV header line, if `style` is csv, before the records.
fn write_header(style: Style) -> io::Result<()> {
    match style.csv_header() {
        Some(header) => writeln!(io::stdout().lock(), "{header}"),
        None => Ok(()),
    }
}

/// Parses a grid; the error is the library's message, except that a wrong
/// number of cells lists every size instead of naming the nearest one (243
/// cells are three 81-cell puzzles on one line, not a 256-cell one).
fn parse_grid(text: &str) -> Result<Grid, String> {
    Grid::parse(text).map_err(|e| match e {
        ParseError::WrongCellCount { found, .. } if text.contains('\n') => {
            format!("{found} cells, but a Sudoku has 16, 81, 256 or 625")
        }
        ParseError::WrongCellCount { found, .. } => {
            format!("{found} cells, but a Sudoku has 16, 81, 256 or 625 (one puzzle a line)")
        }
        e => e.to_string(),
    })
}

/// The `grid` text of a verdict on a puzzle: the puzzle drawn, then the
/// verdict on a line of its own.
fn drawn(grid: &Grid, verdict: &str) -> String {
    format!("{}{verdict}\n", grid.to_grid_string())
}

/// The record of a puzzle whose search a limit stopped (rate, explain):
/// status `stopped` with its `reason`, `stopped: <reason>` as the line (after
/// the puzzle in the grid format). The caller adds the time and renders it.
fn stopped(item: &Item, grid: &Grid, reason: StopReason) -> Record {
    let line = format!("stopped: {reason}");
    Record::new(item, "stopped", line.clone())
        .puzzle(grid)
        .grid(drawn(grid, &line))
        .field("reason", reason.to_string())
        .label("Reason", reason.to_string())
}

/// The per-thread state of solve, count and rate: a solver with the batch's options
/// and limits, the same for every item, that reads the clock only if the records
/// show a time.
fn new_solver(options: SolverOptions, limits: &Limits, style: Style) -> SudokuSolver {
    let mut solver = SudokuSolver::with_options(options);
    solver.set_limits(limits.clone());
    solver.measure_time(style.shows_time());
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
