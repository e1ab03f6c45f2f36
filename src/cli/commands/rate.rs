//! `alldiff rate`: the grade of each puzzle.

use std::process::ExitCode;

use alldiff::Limits;
use alldiff::sudoku::{RateError, rate_with_limits};
use serde_json::json;

use super::{parse_item, stopped};
use crate::cli::{Format, Item, ItemReport, RateArgs, run_batch};

/// Rates every item.
pub(crate) fn rate(args: RateArgs) -> anyhow::Result<ExitCode> {
    let limits = args.limits.limits();
    run_batch(
        &args.puzzles,
        || (),
        |_, item, format| rate_item(item, format, &limits),
    )
}

fn rate_item(item: &Item, format: Format, limits: &Limits) -> ItemReport {
    let grid = match parse_item(item, format) {
        Ok(grid) => grid,
        Err(report) => return report,
    };
    match rate_with_limits(&grid, limits) {
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
        Err(RateError::Stopped(reason)) => stopped(item, format, &grid, reason),
        // As everywhere, an error record is also a message on standard error.
        Err(e) => ItemReport::error(format, item, &e).with_diagnostic(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::input::Origin;

    fn run(text: &str) -> ItemReport {
        let item = Item::new(Origin::Line(3), text.as_bytes().to_vec());
        rate_item(&item, Format::Line, &Limits::none())
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
            multiple.diagnostic(),
            Some("the puzzle has more than one solution")
        );
        assert_eq!(
            run(&format!("11{}", ".".repeat(14))).record(),
            "error: the puzzle has no solution"
        );
    }
}
