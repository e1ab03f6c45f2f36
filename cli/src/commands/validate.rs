//! `alldiff validate`: the rule breaks of each grid, or of each solution
//! against its puzzle.

use std::process::ExitCode;
use std::time::Instant;

use alldiff::sudoku::{check_solution, validate as conflicts};

use super::{not_a_puzzle, parse_grid, split_pair, write_header};
use crate::record::{Record, Style};
use crate::{Item, ItemReport, ValidateArgs, run_batch};

/// Validates every item: a grid, or a puzzle and its solution separated by
/// white space (as `generate --with-solution` prints them).
pub(crate) fn validate(args: ValidateArgs) -> anyhow::Result<ExitCode> {
    let style = Style::of(&args.puzzles.output, false);
    write_header(style)?;
    run_batch(
        &args.puzzles,
        || (),
        |_, item, _| validate_item(item, style),
    )
}

fn validate_item(item: &Item, style: Style) -> ItemReport {
    let started = Instant::now();
    let text = match item.text() {
        Ok(text) => text,
        Err(e) => return not_a_puzzle(item, style, e),
    };
    let parsed = match split_pair(text) {
        Some((puzzle, solution)) => {
            parse_grid(puzzle).and_then(|p| Ok((p, Some(parse_grid(solution)?))))
        }
        None => parse_grid(text).map(|g| (g, None)),
    };
    let (grid, solution) = match parsed {
        Ok(parsed) => parsed,
        Err(e) => return not_a_puzzle(item, style, item.in_context(e)),
    };
    let problems: Vec<String> = match &solution {
        Some(solution) => match check_solution(&grid, solution) {
            Ok(()) => Vec::new(),
            Err(e) => e.problems().iter().map(ToString::to_string).collect(),
        },
        None => conflicts(&grid).iter().map(ToString::to_string).collect(),
    };
    let shown = solution.as_ref().unwrap_or(&grid);
    let valid = problems.is_empty();
    let verdict = if valid {
        "valid".to_owned()
    } else {
        format!("invalid: {}", problems.join("; "))
    };
    let status = if valid { "valid" } else { "invalid" };
    let mut record = Record::new(item, status, verdict.clone())
        .puzzle(&grid)
        .grid(format!("{}{verdict}\n", shown.to_grid_string()))
        .time(started.elapsed());
    if solution.is_some() {
        record = record.solution(solution.as_ref());
    }
    if !valid {
        record = record.label("Conflicts", problems.join("; "));
    }
    let text = record.field("conflicts", problems).render(style);
    if valid {
        ItemReport::success(text)
    } else {
        ItemReport::failure(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::Format;
    use crate::input::Origin;

    const BOARD: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    fn run(text: &str, format: Format) -> ItemReport {
        validate_item(
            &Item::new(Origin::Line(1), text.as_bytes().to_vec()),
            Style::plain(format),
        )
    }

    #[test]
    fn a_valid_board_is_valid() {
        let report = run(BOARD, Format::Line);
        assert!(report.is_success());
        assert_eq!(report.record(), "valid");
    }

    #[test]
    fn every_conflict_is_listed() {
        let bad = format!("8{}", &BOARD[1..]);
        let report = run(&bad, Format::Line);
        assert!(!report.is_success());
        assert_eq!(
            report.record(),
            "invalid: column 1 has 8 twice: r1c1, r4c1; box 1 has 8 twice: r1c1, r3c3"
        );
        let json: serde_json::Value =
            serde_json::from_str(run(&bad, Format::Json).record()).unwrap();
        assert_eq!(json["status"], "invalid");
        assert_eq!(json["conflicts"].as_array().unwrap().len(), 2);
    }

    #[test]
    fn a_solution_is_checked_against_its_puzzle() {
        let puzzle =
            "3.65.84..52........87....31..3.1..8.9..863..5.5..9.6..13....25........74..52.63..";
        let solution =
            "316578492529134768487629531263415987974863125851792643138947256692351874745286319";
        assert_eq!(
            run(&format!("{puzzle} {solution}"), Format::Line).record(),
            "valid"
        );
        let wrong_clue = format!("4{}", &puzzle[1..]);
        let report = run(&format!("{wrong_clue} {solution}"), Format::Line);
        assert_eq!(report.record(), "invalid: r1c1 is 3 but the puzzle gives 4");
    }

    #[test]
    fn a_malformed_line_is_one_error_record() {
        let report = run("12345", Format::Line);
        assert!(!report.is_success());
        assert!(
            report.record().starts_with("error: 5 cells"),
            "{}",
            report.record()
        );
    }
}
