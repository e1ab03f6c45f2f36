//! The FlatZinc reader on files MiniZinc 2.6 wrote (`tests/flatzinc/NAME.fzn`, made
//! from `NAME.mzn` by `tests/flatzinc/regenerate.sh`): counts, optima,
//! unsatisfiability, the output lines, every builtin family, and errors.

use alldiff::flatzinc::{self, FlatZincModel, RunOptions, RunStatus};

fn read(name: &str) -> FlatZincModel {
    let path = format!("{}/tests/flatzinc/{name}.fzn", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    FlatZincModel::parse(&text).unwrap_or_else(|e| panic!("{name}.fzn: {e}"))
}

/// Runs `problem` and returns the status and the printed solutions.
fn solve(problem: &FlatZincModel, options: &RunOptions) -> (RunStatus, Vec<String>) {
    let mut printed = Vec::new();
    let outcome = flatzinc::run(problem, options, &mut (), |solution, _| {
        printed.push(problem.format_solution(solution));
    });
    assert_eq!(outcome.statistics.solutions, printed.len() as u64);
    (outcome.status, printed)
}

fn all() -> RunOptions {
    RunOptions {
        all: true,
        ..RunOptions::default()
    }
}

#[test]
fn eight_queens_has_92_solutions_with_the_annotated_search_and_with_free_search() {
    let problem = read("queens");
    let (status, solutions) = solve(&problem, &all());
    assert_eq!((status, solutions.len()), (RunStatus::Complete, 92));
    assert!(solutions[0].starts_with("q = array1d(1..8, ["));
    let free = RunOptions {
        free: true,
        ..all()
    };
    assert_eq!(solve(&problem, &free).1.len(), 92);
    // The first solution only, then three.
    let (status, first) = solve(&problem, &RunOptions::default());
    assert_eq!((status, first.len()), (RunStatus::SolutionLimit, 1));
    let three = RunOptions {
        solutions: Some(3),
        ..RunOptions::default()
    };
    assert_eq!(solve(&problem, &three).1.len(), 3);
}

#[test]
fn send_more_money_prints_each_letter() {
    let (status, solutions) = solve(&read("send_more_money"), &all());
    assert_eq!(status, RunStatus::Complete);
    assert_eq!(
        solutions,
        ["S = 9;\nE = 5;\nN = 6;\nD = 7;\nM = 1;\nO = 0;\nR = 8;\nY = 2;\n"]
    );
}

#[test]
fn knapsack_improves_to_the_proven_optimum() {
    let problem = read("knapsack");
    let mut objectives = Vec::new();
    let outcome = flatzinc::run(&problem, &RunOptions::default(), &mut (), |_, objective| {
        objectives.push(objective.unwrap());
    });
    assert_eq!(outcome.status, RunStatus::Complete);
    assert_eq!(objectives.last(), Some(&38));
    assert!(objectives.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(outcome.statistics.objective, Some(38));
}

#[test]
fn pigeons_are_unsatisfiable() {
    let (status, solutions) = solve(&read("pigeons"), &all());
    assert_eq!((status, solutions.len()), (RunStatus::Unsatisfiable, 0));
}

#[test]
fn output_prints_2d_arrays_booleans_and_fixed_values() {
    let (_, solutions) = solve(&read("output"), &all());
    assert_eq!(
        solutions,
        ["some = true;\n\
          grid = array2d(1..2, 1..3, [1, 2, 3, 4, 5, 6]);\n\
          flags = array1d(1..3, [true, false, true]);\n"]
    );
}
