//! The page's FlatZinc box: a model as MiniZinc writes it for a solver, solved in
//! the browser by `alldiff-flatzinc`, with the search tree of the run.

use alldiff::trace::{Header, Trace, TraceRecorder, ViewOptions};
use alldiff::{Limits, StopReason};
use alldiff_flatzinc::{self as flatzinc, FlatZincModel, RunOptions, RunStatus};
use serde_json::{Value, json};

use crate::api::{TREE_EVENTS, TREE_NODES};

/// At most this many solutions are printed with `all`; the run then ends as
/// MiniZinc's `-n` would.
pub const MAX_SOLUTIONS: u64 = 1_000;

/// Solves `text`: the output as MiniZinc prints it (each solution, then `----------`;
/// `==========` once every solution was printed or the optimum proven,
/// `=====UNSATISFIABLE=====` when there is none), the warnings, the search's
/// counts, and the search tree as the trace viewer's page (`tree`). `all` asks for
/// every solution of a satisfaction problem (`-a`), at most [`MAX_SOLUTIONS`].
pub fn solve(text: &str, all: bool) -> Value {
    let problem = match FlatZincModel::parse(text) {
        Ok(problem) => problem,
        Err(e) => return json!({ "error": e.to_string() }),
    };
    let options = RunOptions {
        all,
        solutions: all.then_some(MAX_SOLUTIONS),
        limits: Limits::default(),
        ..RunOptions::default()
    };
    let mut solver = problem.solver(&options);
    solver.stream_prunings(true);
    let header = Header::describe(&solver, "FlatZinc model");
    let mut bytes = Vec::new();
    let mut output = String::new();
    let outcome = match TraceRecorder::new(&mut bytes, header, Some(TREE_EVENTS)) {
        Ok(mut recorder) => {
            let outcome =
                flatzinc::run_on(&problem, &mut solver, &options, &mut recorder, |s, _| {
                    output.push_str(&problem.format_solution(s));
                    output.push_str("----------\n");
                });
            // Writing to memory cannot fail.
            let _ = recorder.finish(&outcome.statistics);
            outcome
        }
        Err(e) => return json!({ "error": e.to_string() }),
    };
    let status = outcome.status.of(&problem);
    let (name, ending) = match status {
        RunStatus::Complete => ("complete", "==========\n"),
        RunStatus::Unsatisfiable => ("unsatisfiable", "=====UNSATISFIABLE=====\n"),
        RunStatus::SolutionLimit => ("solution limit", ""),
        RunStatus::Stopped { solved: true, .. } | RunStatus::Narrowed { solved: true } => {
            ("unknown beyond the solutions shown", "")
        }
        RunStatus::Stopped { .. } | RunStatus::Narrowed { .. } => {
            ("unknown", "=====UNKNOWN=====\n")
        }
    };
    output.push_str(ending);
    let stopped = match status {
        RunStatus::Stopped { reason, .. } => Some(reason),
        _ => None,
    };
    let tree = Trace::parse(&bytes[..]).map(|t| {
        t.to_html(ViewOptions {
            max_nodes: TREE_NODES,
        })
    });
    let stats = &outcome.statistics;
    json!({
        "output": output,
        "status": name,
        "stopped": stopped.map(|r: StopReason| r.to_string()),
        "warnings": problem.warnings(),
        "nodes": stats.nodes,
        "failures": stats.failures,
        "solutions": stats.solutions,
        "tree": tree.ok(),
    })
}
