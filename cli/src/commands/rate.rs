//! `alldiff rate`: the grade of each puzzle.

use std::process::ExitCode;
use std::time::Instant;

use alldiff::Limits;
use alldiff::sudoku::{RateError, SolverOptions, SudokuSolver, rate_with};

use super::{drawn, new_solver, parse_item, stopped, write_header};
use crate::record::{Record, Stats, Style};
use crate::{Item, ItemReport, RateArgs, run_batch};

/// Rates every item, with one solver a thread (the batch's limits set on it)
/// for the puzzles that need search.
pub(crate) fn rate(args: RateArgs) -> anyhow::Result<ExitCode> {
    let limits = args.limits.limits();
    let style = Style::of(&args.puzzles.output, args.stats.stats);
    write_header(style)?;
    run_batch(
        &args.puzzles,
        || new_solver(SolverOptions::default(), &limits, style),
        |solver, item, _| rate_item(solver, item, style, &limits),
    )
}

fn rate_item(solver: &mut SudokuSolver, item: &Item, style: Style, limits: &Limits) -> ItemReport {
    let started = Instant::now();
    let grid = match parse_item(item, style) {
        Ok(grid) => grid,
        Err(report) => return report,
    };
    let rated = rate_with(solver, &grid);
    let time = started.elapsed();
    let verdict = |record: Record, line: &str| record.puzzle(&grid).grid(drawn(&grid, line));
    let mut record = match &rated {
        Ok(rating) => {
            let grade = rating.difficulty.name();
            verdict(Record::new(item, "rated", grade.to_owned()), grade)
                .grade(rating.difficulty)
                .field("nodes", rating.nodes)
                .field("failures", rating.failures)
        }
        Err(RateError::Stopped(reason)) => stopped(item, &grid, *reason),
        Err(e) => {
            let line = format!("error: {e}");
            let record = match e {
                RateError::NoSolution => Record::new(item, "none", line.clone()),
                RateError::MultipleSolutions => Record::new(item, "multiple", line.clone()),
                e => Record::error(item, e),
            };
            verdict(record, &line)
        }
    }
    .time(time);
    if style.stats {
        // Only a rated puzzle (one solution) has an explanation, within the limits.
        record = record.stats(
            rated
                .is_ok()
                .then(|| Stats::of_puzzle(&grid, limits))
                .flatten(),
        );
    }
    let text = record.render(style);
    match rated {
        Ok(_) => ItemReport::success(text),
        Err(RateError::Stopped(_)) => ItemReport::failure(text),
        // As everywhere, an error record is also a message on standard error.
        Err(e) => ItemReport::failure(text).with_diagnostic(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::Format;
    use crate::input::Origin;

    fn run(text: &str) -> ItemReport {
        let item = Item::new(Origin::Line(3), text.as_bytes().to_vec());
        rate_item(
            &mut SudokuSolver::new(),
            &item,
            Style::plain(Format::Line),
            &Limits::default(),
        )
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
