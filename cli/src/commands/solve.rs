//! `alldiff solve`: the unique solution of each puzzle (or the first one found
//! with `--first`), optionally recording a search trace of the first puzzle.

use std::fs::File;
use std::io::BufWriter;
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use alldiff::sudoku::{Grid, Propagation, SolveResult, SolverOptions, SudokuModel, SudokuSolver};
use alldiff::trace::{Written, count_traced, solve_traced};
use alldiff::{Limits, Solver, Statistics, StopReason};
use anyhow::Context as _;
use serde_json::json;

use super::{new_solver, parse_item, write_header};
use crate::args::Format;
use crate::args::PuzzleArgs;
use crate::output_file::{Read, ensure_not_read};
use crate::record::{Record, Stats, Style, compact};
use crate::{Item, ItemReport, SolveArgs, run_batch};

/// What `solve` found for one puzzle.
#[derive(Debug)]
enum Answer {
    /// The only solution.
    Unique(Grid),
    /// One of several solutions.
    Multiple(Grid),
    /// A solution, not proven unique (`--first`).
    Found(Grid),
    /// No solution.
    None,
    /// A limit stopped the search.
    Stopped(StopReason),
}

/// The trace to record: the open file, taken by the first puzzle that is a grid.
struct TraceRequest {
    path: PathBuf,
    file: Mutex<Option<File>>,
    cap: u64,
    /// The propagation and search of the puzzles' solver, which the trace follows.
    options: SolverOptions,
    /// Why the trace could not be written: the run then ends with status 2.
    failure: Mutex<Option<anyhow::Error>>,
}

/// Solves every item.
pub(crate) fn solve(args: SolveArgs) -> anyhow::Result<ExitCode> {
    let limits = args.limits.limits();
    let options = args.propagation.options();
    let first = args.first;
    let mut puzzles = args.puzzles.clone();
    let trace = match &args.trace {
        Some(path) => {
            ensure_not_read(path, "--trace", puzzles_read(&args.puzzles).as_slice())?;
            let file = File::create(path)
                .with_context(|| format!("cannot create the trace file {}", path.display()))?;
            // One thread, so the first puzzle of the input is the one traced.
            puzzles.output.threads = Some(NonZeroUsize::MIN);
            Some(TraceRequest {
                path: path.clone(),
                file: Mutex::new(Some(file)),
                cap: args.trace_cap,
                options: options.clone(),
                failure: Mutex::new(None),
            })
        }
        None => None,
    };
    let style = Style::of(&puzzles.output, args.stats.stats);
    write_header(style)?;
    let new_solver = || new_solver(options.clone(), &limits, style);
    let code = run_batch(&puzzles, new_solver, |state, item, _| {
        solve_item(state, item, style, &limits, first, trace.as_ref())
    })?;
    if let Some(trace) = trace {
        let untouched = trace.file.lock().map(|f| f.is_some()).unwrap_or(false);
        if untouched {
            eprintln!(
                "alldiff: no puzzle to trace: {} is empty",
                trace.path.display()
            );
        }
        let failure = trace
            .failure
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(error) = failure {
            return Err(error.context(format!("cannot write the trace {}", trace.path.display())));
        }
    }
    Ok(code)
}

/// What the puzzles are read from: nothing for `PUZZLE` arguments, else the
/// `--input` file or standard input.
fn puzzles_read(args: &PuzzleArgs) -> Option<Read<'_>> {
    match &args.input {
        _ if !args.puzzles.is_empty() => None,
        Some(path) if path.as_os_str() != "-" => Some(Read::File {
            what: "the --input file",
            path,
        }),
        _ => Some(Read::StandardInput),
    }
}

fn solve_item(
    solver: &mut SudokuSolver,
    item: &Item,
    style: Style,
    limits: &Limits,
    first: bool,
    trace: Option<&TraceRequest>,
) -> ItemReport {
    // The clock is read only if the record shows the time.
    let started = style.shows_time().then(Instant::now);
    let grid = match parse_item(item, style) {
        Ok(grid) => grid,
        Err(report) => return report,
    };
    let answer = if first {
        match solver.solve_first(&grid) {
            Ok(Some(solution)) => Answer::Found(solution),
            Ok(None) => Answer::None,
            Err(reason) => Answer::Stopped(reason),
        }
    } else {
        match solver.solve(&grid) {
            SolveResult::Unique(solution) => Answer::Unique(solution),
            SolveResult::Multiple(solution) => Answer::Multiple(solution),
            SolveResult::None => Answer::None,
            SolveResult::Stopped(reason) => Answer::Stopped(reason),
        }
    };
    let time = started.map_or(Duration::ZERO, |started| started.elapsed());
    let diagnostic = trace
        .and_then(|t| t.file.lock().ok()?.take().map(|file| (t, file)))
        .and_then(|(t, file)| {
            let name = format!("sudoku {0}x{0}, {1}", grid.side(), item.origin());
            match record_trace(
                &grid,
                file,
                t,
                solver.latest_propagation(),
                first,
                limits,
                &name,
            ) {
                Ok(written) if written.truncated() => Some(format!(
                    "the trace was cut after {} event lines ({} more dropped); raise --trace-cap",
                    written.events, written.dropped
                )),
                Ok(_) => None,
                Err(e) => {
                    // Reported once, at the end, as the run's error.
                    if let Ok(mut failure) = t.failure.lock() {
                        failure.get_or_insert(e);
                    }
                    None
                }
            }
        });
    let mut record = record(
        item,
        &grid,
        &answer,
        &solver.statistics(),
        time,
        style.format,
    );
    if style.stats {
        // Only a unique solution has an explanation; it is searched within the limits.
        let unique = matches!(answer, Answer::Unique(_) | Answer::Found(_));
        record = record.stats(unique.then(|| Stats::of_puzzle(&grid, limits)).flatten());
    }
    let text = record.into_text(style);
    let report = match answer {
        Answer::Unique(_) | Answer::Found(_) => ItemReport::success(text),
        _ => ItemReport::failure(text),
    };
    match diagnostic {
        Some(message) => report.with_diagnostic(message),
        None => report,
    }
}

/// Writes a trace of the search that gave [`SudokuSolver`]'s answer, with
/// `propagation`: counting to two solutions, or to the first with `--first`.
fn record_trace(
    grid: &Grid,
    file: File,
    request: &TraceRequest,
    propagation: Propagation,
    first: bool,
    limits: &Limits,
    name: &str,
) -> anyhow::Result<Written> {
    let cap = request.cap;
    let (model, cells) = SudokuModel::new(grid.box_size(), propagation)?.into_parts();
    let mut solver = Solver::with_config(model, request.options.search.clone());
    for (&var, &digit) in cells.iter().zip(grid.cells()) {
        if digit != 0 {
            solver.assume(var, i32::from(digit))?;
        }
    }
    solver.set_limits(limits.clone());
    let writer = BufWriter::new(file);
    let written = if first {
        solve_traced(&mut solver, name, writer, Some(cap))?.1
    } else {
        count_traced(&mut solver, name, writer, Some(cap), Some(2))?.1
    };
    Ok(written)
}

/// The record of one answer, with the parts `format` writes. The line format
/// writes the line alone: the grids and JSON fields the others draw cost more
/// than many a solve (`docs/performance.md`).
fn record(
    item: &Item,
    puzzle: &Grid,
    answer: &Answer,
    statistics: &Statistics,
    time: Duration,
    format: Format,
) -> Record {
    let (status, solution) = match answer {
        Answer::Unique(g) => ("unique", Some(g)),
        Answer::Multiple(g) => ("multiple", Some(g)),
        Answer::Found(g) => ("solved", Some(g)),
        Answer::None => ("none", None),
        Answer::Stopped(_) => ("stopped", None),
    };
    let line = match answer {
        Answer::Unique(g) | Answer::Found(g) => g.to_line(),
        Answer::Multiple(_) => "multiple".to_owned(),
        Answer::None => "none".to_owned(),
        Answer::Stopped(reason) => format!("stopped: {reason}"),
    };
    if format == Format::Line {
        return Record::new(item, status, line).time(time);
    }
    let grid = match answer {
        Answer::Unique(g) | Answer::Found(g) => g.to_grid_string(),
        Answer::Multiple(g) => format!(
            "{}multiple: more than one solution; this is one of them\n",
            g.to_grid_string()
        ),
        Answer::None => "No solution exists\n".to_owned(),
        Answer::Stopped(_) => format!("{line}\n"),
    };
    let mut record = Record::new(item, status, line)
        .puzzle(puzzle)
        .solution(solution)
        .grid(grid)
        .field("statistics", json!(statistics))
        .time(time);
    if let Answer::Unique(g) | Answer::Found(g) = answer {
        record = record.compact(compact(g));
    }
    if let Answer::Stopped(reason) = answer {
        record = record
            .field("reason", reason.to_string())
            .label("Reason", reason.to_string());
    }
    record
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::Format;
    use crate::input::Origin;

    const CLASSIC: &str =
        "3.65.84..52........87....31..3.1..8.9..863..5.5..9.6..13....25........74..52.63..";

    fn run(text: &str, format: Format, first: bool) -> ItemReport {
        let style = Style::plain(format);
        let mut state = new_solver(SolverOptions::default(), &Limits::none(), style);
        let item = Item::new(Origin::Line(1), text.as_bytes().to_vec());
        solve_item(&mut state, &item, style, &Limits::none(), first, None)
    }

    #[test]
    fn every_answer_has_its_word() {
        let unique = run(CLASSIC, Format::Line, false);
        assert!(unique.is_success());
        assert!(unique.record().starts_with("316578492"));
        assert_eq!(
            run(&".".repeat(16), Format::Line, false).record(),
            "multiple"
        );
        assert_eq!(
            run(&format!("11{}", ".".repeat(14)), Format::Line, false).record(),
            "none"
        );
        assert_eq!(
            run(&format!("11{}", ".".repeat(14)), Format::Grid, false).record(),
            "No solution exists\n"
        );
        let first = run(&".".repeat(16), Format::Line, true);
        assert!(first.is_success());
        assert_eq!(first.record().len(), 16);
    }

    #[test]
    fn json_has_status_solution_and_statistics() {
        let value: serde_json::Value =
            serde_json::from_str(run(CLASSIC, Format::Json, false).record()).unwrap();
        assert_eq!(value["line"], 1);
        assert_eq!(value["status"], "unique");
        assert!(value["statistics"]["nodes"].is_u64());
    }
}
