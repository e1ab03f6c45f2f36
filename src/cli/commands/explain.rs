//! `alldiff explain`: the solution of each puzzle as human steps.

use std::process::ExitCode;

use alldiff::sudoku::{ExplainOptions, explain_with};

use super::parse_item;
use crate::cli::args::ExplainArgs;
use crate::cli::{Format, Item, ItemReport, run_batch};

/// Explains every item: its steps one a line (`line`), between the puzzle and
/// solution grids (`grid`), or one JSON object (`json`); the readable steps, or the
/// engine's log with `--verbose`.
pub(crate) fn explain(args: ExplainArgs) -> anyhow::Result<ExitCode> {
    let options = ExplainOptions {
        verbose: args.verbose,
        ..ExplainOptions::default()
    };
    run_batch(
        &args.puzzles,
        || (),
        |_, item, format| explain_item(item, format, &options),
    )
}

fn explain_item(item: &Item, format: Format, options: &ExplainOptions) -> ItemReport {
    let grid = match parse_item(item, format) {
        Ok(grid) => grid,
        Err(report) => return report,
    };
    let explanation = match explain_with(&grid, options) {
        Ok(explanation) => explanation,
        Err(e) => return ItemReport::error(format, item, &e).with_diagnostic(e.to_string()),
    };
    let steps = explanation.to_string();
    let solution = explanation.solution();
    let record = match format {
        Format::Line => format!("{steps}solution {}", solution.to_line()),
        Format::Grid => format!(
            "{}\n{steps}\n{}",
            grid.to_grid_string(),
            solution.to_grid_string().trim_end()
        ),
        Format::Json => {
            let mut json = match serde_json::to_value(&explanation) {
                Ok(json) => json,
                Err(e) => return ItemReport::error(format, item, &e),
            };
            let key = item.origin().noun();
            if let Some(object) = json.as_object_mut() {
                object.insert(key.to_owned(), item.number().into());
            }
            json.to_string()
        }
    };
    ItemReport::success(record)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::input::Origin;
    use alldiff::sudoku::Grid;

    const CLASSIC: &str =
        "3.65.84..52........87....31..3.1..8.9..863..5.5..9.6..13....25........74..52.63..";
    const SOLUTION: &str =
        "316578492529134768487629531263415987974863125851792643138947256692351874745286319";

    fn run_with(text: &str, format: Format, verbose: bool) -> ItemReport {
        let options = ExplainOptions {
            verbose,
            ..ExplainOptions::default()
        };
        explain_item(
            &Item::new(Origin::Line(3), text.as_bytes().to_vec()),
            format,
            &options,
        )
    }

    fn run(text: &str, format: Format) -> ItemReport {
        run_with(text, format, false)
    }

    #[test]
    fn line_form_is_the_steps_then_the_solution() {
        let report = run(CLASSIC, Format::Line);
        assert!(report.is_success());
        let lines: Vec<&str> = report.record().lines().collect();
        // One placement a blank, by a single, and nothing else.
        assert_eq!(lines.len(), 49 + 1, "{}", report.record());
        assert!(
            lines[..49]
                .iter()
                .all(|l| l.ends_with("(naked single)") || l.contains("(hidden single in ")),
            "{}",
            report.record()
        );
        assert_eq!(lines.last(), Some(&format!("solution {SOLUTION}").as_str()));
        assert!(!report.record().contains("guess"));
    }

    #[test]
    fn verbose_is_the_engine_log() {
        let report = run_with(CLASSIC, Format::Line, true);
        assert!(report.is_success());
        let lines: Vec<&str> = report.record().lines().collect();
        assert!(
            lines[0].ends_with("(value elimination in row 1)"),
            "{}",
            lines[0]
        );
        assert!(lines.contains(&"r3c7 = 5 (hidden single in row 3)"));
        assert!(report.record().contains("(locked candidates: "));
        assert_eq!(lines.last(), Some(&format!("solution {SOLUTION}").as_str()));
    }

    #[test]
    fn grid_form_frames_the_steps_with_the_grids() {
        let record = run(CLASSIC, Format::Grid).record().to_owned();
        let puzzle: Grid = CLASSIC.parse().unwrap();
        assert!(record.starts_with(&puzzle.to_grid_string()), "{record}");
        let solution: Grid = SOLUTION.parse().unwrap();
        assert!(
            record.ends_with(solution.to_grid_string().trim_end()),
            "{record}"
        );
    }

    #[test]
    fn json_form_is_one_object_with_the_line_number() {
        let report = run(CLASSIC, Format::Json);
        assert!(!report.record().contains('\n'));
        let json: serde_json::Value = serde_json::from_str(report.record()).unwrap();
        assert_eq!(json["line"], 3);
        assert_eq!(json["solution"], SOLUTION);
        assert_eq!(json["guesses"], 0);
        assert!(json["steps"].as_array().is_some_and(|s| !s.is_empty()));
    }

    #[test]
    fn bad_puzzles_are_error_records() {
        let report = run("12345", Format::Line);
        assert!(!report.is_success());
        assert!(
            report.record().starts_with("error: 5 cells"),
            "{}",
            report.record()
        );
        let clash = format!("33{}", &CLASSIC[2..]);
        let report = run(&clash, Format::Json);
        assert!(!report.is_success());
        let json: serde_json::Value = serde_json::from_str(report.record()).unwrap();
        assert_eq!(json["line"], 3);
        let error = json["error"].as_str().unwrap();
        assert!(
            error.starts_with("the clues break the rules: row 1 has 3 twice"),
            "{error}"
        );
        let open = run(&".".repeat(16), Format::Line);
        assert_eq!(
            open.record(),
            "error: the puzzle has more than one solution"
        );
    }
}
