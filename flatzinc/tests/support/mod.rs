//! What the FlatZinc test files share: reading models, running them with every
//! solution checked, and counting solutions.
#![allow(
    dead_code,
    reason = "each test binary uses its own part of this module"
)]

use alldiff_flatzinc::{self as flatzinc, FlatZincModel, RunOptions, RunStatus};

/// A model of `tests/flatzinc/`, by name.
pub fn read(name: &str) -> FlatZincModel {
    let path = format!("{}/tests/flatzinc/{name}.fzn", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    FlatZincModel::parse(&text).unwrap_or_else(|e| panic!("{name}.fzn: {e}"))
}

/// `options` with every solution checked against every constraint
/// (`--check-solutions`): a wrong one stops the run, and the test fails on the status.
pub fn checked(options: &RunOptions) -> RunOptions {
    RunOptions {
        check_solutions: true,
        ..options.clone()
    }
}

/// Runs `problem`, its solutions checked, and returns the status and the printed
/// solutions.
pub fn solve(problem: &FlatZincModel, options: &RunOptions) -> (RunStatus, Vec<String>) {
    let mut printed = Vec::new();
    let outcome = flatzinc::run(problem, &checked(options), &mut (), |solution, _| {
        printed.push(problem.format_solution(solution));
    });
    assert_eq!(outcome.statistics.solutions, printed.len() as u64);
    (outcome.status, printed)
}

pub fn all() -> RunOptions {
    RunOptions {
        all: true,
        ..RunOptions::default()
    }
}

/// Parses hand-written FlatZinc.
pub fn text(fzn: &str) -> Result<FlatZincModel, String> {
    FlatZincModel::parse(fzn).map_err(|e| e.to_string())
}

/// The number of solutions of hand-written FlatZinc.
pub fn count_text(fzn: &str) -> usize {
    let problem = text(fzn).unwrap();
    let (status, solutions) = solve(&problem, &all());
    let done = match solutions.is_empty() {
        true => RunStatus::Unsatisfiable,
        false => RunStatus::Complete,
    };
    assert_eq!(status, done);
    solutions.len()
}
