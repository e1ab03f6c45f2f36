//! `alldiff rate`: the grade of each puzzle.

use std::process::ExitCode;

use alldiff::sudoku::{RateError, SudokuSolver, rate_with};
use serde_json::json;

use super::parse_item;
use crate::cli::{Format, Item, ItemReport, RateArgs, run_batch};

/// Rates every item, with one solver a thread for the puzzles that need search.
pub(crate) fn rate(args: RateArgs) -> anyhow::Result<ExitCode> {
    let limits = args.limits.limits();
    let new_solver = || {
        let mut solver = SudokuSolver::new();
        solver.set_limits(limits.clone());
        solver
    };
    run_batch(&args.puzzles, new_solver, |solver, item, format| {
        rate_item(solver, item, format)
    })
}

fn rate_item(solver: &mut SudokuSolver, item: &Item, format: Format) -> ItemReport {
    let grid = match parse_item(item, format) {
        Ok(grid) => grid,
        Err(report) => return report,
    };
    match rate_with(solver, &grid) {
        Ok(rating) => {
            let grade = rating.difficulty.name();
            ItemReport::success(match format {
                Format::Line => grade.to_owned(),
                Format::Grid => format!("{}{grade}\n", grid.to_grid_string()),
                Format::Json => json!({
                    item.origin().noun(): item.number(),
                    "status": "rated",
                    "difficulty": grade,
                    "nodes": rating.nodes,
                    "failures": rating.failures,
                })
                .to_string(),
            })
        }
        Err(RateError::Stopped(reason)) => ItemReport::failure(match format {
            Format::Line => format!("stopped: {reason}"),
            Format::Grid => format!("{}stopped: {reason}\n", grid.to_grid_string()),
            Format::Json => json!({
                item.origin().noun(): item.number(),
                "status": "stopped",
                "reason": reason.to_string(),
            })
            .to_string(),
        }),
        Err(e) => ItemReport::error(format, item, &e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::input::Origin;

    fn run(text: &str) -> ItemReport {
        let item = Item::new(Origin::Line(3), text.as_bytes().to_vec());
        rate_item(&mut SudokuSolver::new(), &item, Format::Line)
    }

    #[test]
    fn grades_and_errors() {
        let classic =
            "3.65.84..52........87....31..3.1..8.9..863..5.5..9.6..13....25........74..52.63..";
        assert_eq!(run(classic).record(), "medium");
        let multiple = run(&".".repeat(16));
        assert!(!multiple.is_success());
        assert_eq!(
            multiple.record(),
            "error: the puzzle has more than one solution"
        );
        assert_eq!(
            run(&format!("11{}", ".".repeat(14))).record(),
            "error: the puzzle has no solution"
        );
    }
}
