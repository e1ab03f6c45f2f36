//! `alldiff count`: the number of solutions of each puzzle, up to a limit.

use std::process::ExitCode;
use std::time::Instant;

use alldiff::sudoku::SudokuSolver;
use alldiff::{Count, CountStatus};
use serde_json::json;

use super::{new_solver, parse_item, write_header};
use crate::record::{Record, Style};
use crate::{CountArgs, Item, ItemReport, run_batch};

/// Counts the solutions of every item.
pub(crate) fn count(args: CountArgs) -> anyhow::Result<ExitCode> {
    let limits = args.limits.limits();
    let limit = args.limit.get();
    let options = args.propagation.options();
    let style = Style::of(&args.puzzles.output, false);
    write_header(style)?;
    let new_solver = || new_solver(options.clone(), &limits, style);
    run_batch(&args.puzzles, new_solver, |state, item, _| {
        count_item(state, item, style, limit)
    })
}

fn count_item(solver: &mut SudokuSolver, item: &Item, style: Style, limit: u64) -> ItemReport {
    let started = Instant::now();
    let grid = match parse_item(item, style) {
        Ok(grid) => grid,
        Err(report) => return report,
    };
    let count = solver.count(&grid, Some(limit));
    let (status, words) = match count.status {
        CountStatus::Complete if count.solutions == 1 => ("complete", "1 solution".to_owned()),
        CountStatus::Complete => ("complete", format!("{} solutions", count.solutions)),
        CountStatus::LimitReached => (
            "limit",
            format!(
                "{} solutions (the limit; there may be more)",
                count.solutions
            ),
        ),
        CountStatus::Stopped(_) => ("stopped", line(count)),
    };
    let mut record = Record::new(item, status, line(count))
        .puzzle(&grid)
        .grid(format!("{}{words}\n", grid.to_grid_string()))
        .label("Solutions", words)
        .field("count", count.solutions)
        .field("complete", count.status == CountStatus::Complete)
        .field("statistics", json!(solver.statistics()))
        .time(started.elapsed());
    if let CountStatus::Stopped(reason) = count.status {
        record = record.field("reason", reason.to_string());
    }
    let text = record.render(style);
    // No solution is a failure, as in `solve`; the record still says 0.
    match count.status {
        CountStatus::Stopped(_) => ItemReport::failure(text),
        CountStatus::Complete if count.solutions == 0 => ItemReport::failure(text),
        CountStatus::Complete | CountStatus::LimitReached => ItemReport::success(text),
    }
}

/// The `line` record: the number, or `stopped: <reason>`.
fn line(count: Count) -> String {
    match count.status {
        CountStatus::Stopped(reason) => format!("stopped: {reason}"),
        CountStatus::Complete | CountStatus::LimitReached => count.solutions.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::Format;
    use crate::input::Origin;
    use alldiff::Limits;
    use alldiff::sudoku::SolverOptions;

    fn run(text: &str, format: Format, limit: u64, limits: &Limits) -> ItemReport {
        let item = Item::new(Origin::Argument(1), text.as_bytes().to_vec());
        count_item(
            &mut new_solver(SolverOptions::default(), limits, Style::plain(format)),
            &item,
            Style::plain(format),
            limit,
        )
    }

    #[test]
    fn counts_up_to_the_limit() {
        let empty = ".".repeat(16);
        assert_eq!(run(&empty, Format::Line, 5, &Limits::none()).record(), "5");
        assert_eq!(
            run(&empty, Format::Line, 1000, &Limits::none()).record(),
            "288"
        );
        let value: serde_json::Value =
            serde_json::from_str(run(&empty, Format::Json, 5, &Limits::none()).record()).unwrap();
        assert_eq!(value["argument"], 1);
        assert_eq!(value["count"], 5);
        assert_eq!(value["complete"], false);
    }

    #[test]
    fn a_stopped_count_is_a_failure() {
        let limits = Limits::none().with_nodes(3);
        let report = run(&".".repeat(81), Format::Line, 1000, &limits);
        assert!(!report.is_success());
        assert_eq!(report.record(), "stopped: node limit reached");
    }

    #[test]
    fn no_solution_is_a_failure_that_prints_0() {
        let report = run(
            &format!("11{}", ".".repeat(14)),
            Format::Line,
            2,
            &Limits::none(),
        );
        assert!(!report.is_success());
        assert_eq!(report.record(), "0");
        assert!(run(&".".repeat(16), Format::Line, 2, &Limits::none()).is_success());
    }
}
