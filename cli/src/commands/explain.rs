//! `alldiff explain`: the solution of each puzzle as human steps.

use std::process::ExitCode;
use std::time::Instant;

use alldiff::sudoku::{ExplainError, ExplainOptions, explain_with};
use serde_json::Value;

use super::{parse_item, stopped, write_header};
use crate::args::ExplainArgs;
use crate::record::{Record, Stats, Style, compact};
use crate::{Item, ItemReport, run_batch};

/// Explains every item: its steps one a line (`line`), between the puzzle and
/// solution grids (`grid`), or one JSON object (`json`); the readable steps, or
/// the engine's log with `--verbose`. `--timeout` and `--node-limit` bound the
/// library's search: a puzzle they stop prints `stopped: <reason>`.
pub(crate) fn explain(args: ExplainArgs) -> anyhow::Result<ExitCode> {
    let style = Style::of(&args.puzzles.output, args.stats.stats);
    let options = ExplainOptions {
        verbose: args.verbose,
        limits: args.limits.limits(),
    };
    write_header(style)?;
    run_batch(
        &args.puzzles,
        || (),
        |_, item, _| explain_item(item, style, &options),
    )
}

fn explain_item(item: &Item, style: Style, options: &ExplainOptions) -> ItemReport {
    let started = Instant::now();
    let grid = match parse_item(item, style) {
        Ok(grid) => grid,
        Err(report) => return report,
    };
    let explanation = match explain_with(&grid, options) {
        Ok(explanation) => explanation,
        Err(ExplainError::Stopped(reason)) => {
            let record = stopped(item, &grid, reason).time(started.elapsed());
            return ItemReport::failure(record.render(style));
        }
        Err(e) => {
            let status = match &e {
                ExplainError::InvalidClues(_) => "invalid",
                ExplainError::NoSolution => "none",
                ExplainError::MultipleSolutions => "multiple",
                _ => "error",
            };
            let mut record = match status {
                "error" => Record::error(item, &e),
                _ => {
                    Record::new(item, status, format!("error: {e}")).label("Reason", e.to_string())
                }
            };
            if let ExplainError::InvalidClues(conflict) = &e {
                record = record.field("conflicts", vec![conflict.to_string()]);
            }
            if style.stats {
                record = record.stats(None);
            }
            let text = record.puzzle(&grid).time(started.elapsed()).render(style);
            return ItemReport::failure(text).with_diagnostic(e.to_string());
        }
    };
    let time = started.elapsed();
    let steps = explanation.to_string();
    let solution = explanation.solution();
    // The library's JSON form: puzzle, solution, guesses and steps.
    let mut json = serde_json::to_value(&explanation).unwrap_or(Value::Null);
    let mut record = Record::new(
        item,
        "explained",
        format!("{steps}solution {}", solution.to_line()),
    )
    .puzzle(&grid)
    .solution(Some(solution))
    .grid(format!(
        "{}\n{steps}\n{}",
        grid.to_grid_string(),
        solution.to_grid_string().trim_end()
    ))
    .compact(format!("{steps}\n{}", compact(solution)))
    .label("Steps", steps.clone())
    .field("guesses", json["guesses"].take())
    .field("steps", json["steps"].take())
    .time(time);
    if style.stats {
        record = record.stats(Some(Stats::of(&explanation)));
    }
    ItemReport::success(record.render(style))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::Format;
    use crate::input::Origin;
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
            Style::plain(format),
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
        // Every format shows the log.
        let grid = run_with(CLASSIC, Format::Grid, true).record().to_owned();
        assert!(grid.contains(lines[0]), "{grid}");
        let json = run_with(CLASSIC, Format::Json, true).record().to_owned();
        let json: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(json["steps"][0]["technique"], "value_elimination");
        assert_eq!(json["solution"], SOLUTION);
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
        assert_eq!(json["status"], "invalid");
        let conflict = json["conflicts"][0].as_str().unwrap();
        assert!(conflict.starts_with("row 1 has 3 twice"), "{conflict}");
        let open = run(&".".repeat(16), Format::Line);
        assert_eq!(
            open.record(),
            "error: the puzzle has more than one solution"
        );
    }

    #[test]
    fn limits_stop_both_forms() {
        use alldiff::Limits;
        let empty = Item::new(Origin::Line(3), ".".repeat(81).into_bytes());
        let classic = Item::new(Origin::Line(1), CLASSIC.as_bytes().to_vec());
        for verbose in [false, true] {
            let options = |nodes| ExplainOptions {
                verbose,
                limits: Limits::none().with_nodes(nodes),
            };
            let report = explain_item(&empty, Style::plain(Format::Line), &options(2));
            assert!(!report.is_success());
            assert_eq!(report.record(), "stopped: node limit reached");
            assert_eq!(report.diagnostic(), None);
            let report = explain_item(&classic, Style::plain(Format::Json), &options(2));
            let json: serde_json::Value = serde_json::from_str(report.record()).unwrap();
            assert_eq!(json["status"], "explained", "{json}");
        }
        assert!(
            !run(".".repeat(16).as_str(), Format::Line)
                .diagnostic()
                .unwrap()
                .is_empty()
        );
    }
}
