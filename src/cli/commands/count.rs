//! `alldiff count`: the number of solutions of each puzzle, up to a limit.

use std::process::ExitCode;

use alldiff::sudoku::SudokuSolver;
use alldiff::{Count, CountStatus, Statistics};
use serde_json::json;

use super::{new_solver, parse_item};
use crate::cli::{CountArgs, Format, Item, ItemReport, run_batch};

/// Counts the solutions of every item.
pub(crate) fn count(args: CountArgs) -> anyhow::Result<ExitCode> {
    let limits = args.limits.limits();
    let limit = args.limit.get();
    let options = args.propagation.options();
    let new_solver = || new_solver(options, &limits);
    run_batch(&args.puzzles, new_solver, |state, item, format| {
        count_item(state, item, format, limit)
    })
}

fn count_item(solver: &mut SudokuSolver, item: &Item, format: Format, limit: u64) -> ItemReport {
    let grid = match parse_item(item, format) {
        Ok(grid) => grid,
        Err(report) => return report,
    };
    let count = solver.count(&grid, Some(limit));
    let text = match format {
        Format::Line => line(count),
        Format::Grid => {
            let words = match count.status {
                CountStatus::Complete if count.solutions == 1 => "1 solution".to_owned(),
                CountStatus::Complete => format!("{} solutions", count.solutions),
                CountStatus::LimitReached => {
                    format!(
                        "{} solutions (the limit; there may be more)",
                        count.solutions
                    )
                }
                CountStatus::Stopped(_) => line(count),
            };
            format!("{}{words}\n", grid.to_grid_string())
        }
        Format::Json => json_record(item, count, &solver.statistics()),
    };
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

fn json_record(item: &Item, count: Count, statistics: &Statistics) -> String {
    let status = match count.status {
        CountStatus::Complete => "complete",
        CountStatus::LimitReached => "limit",
        CountStatus::Stopped(_) => "stopped",
    };
    let mut object = json!({
        item.origin().noun(): item.number(),
        "status": status,
        "count": count.solutions,
        "complete": count.status == CountStatus::Complete,
        "statistics": statistics,
    });
    if let CountStatus::Stopped(reason) = count.status {
        object["reason"] = json!(reason.to_string());
    }
    object.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::input::Origin;
    use alldiff::Limits;
    use alldiff::sudoku::SolverOptions;

    fn run(text: &str, format: Format, limit: u64, limits: &Limits) -> ItemReport {
        let item = Item::new(Origin::Argument(1), text.as_bytes().to_vec());
        count_item(
            &mut new_solver(SolverOptions::default(), limits),
            &item,
            format,
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
