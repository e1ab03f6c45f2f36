//! The Sudoku toolkit: `alldiff._alldiff.sudoku_*` functions over puzzle text.

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use alldiff::sudoku::{
    self, Difficulty, ExplainOptions, GenerateOptions, Grid, SolveResult, SudokuSolver, Symmetry,
};
use alldiff::{Limits, StopReason};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::{run, stopped};

/// Search nodes a puzzle is solved within on the calling thread, with the GIL
/// released but without a thread of its own; a harder one is searched again by
/// [`run`], where Ctrl-C reaches it. Spawning a thread per puzzle would cost as
/// much as solving an easy one.
const INLINE_NODES: u64 = 20_000;

thread_local! {
    /// The solver each Python thread reuses: it keeps its engines across puzzles.
    static INLINE: RefCell<SudokuSolver> = RefCell::new({
        let mut solver = SudokuSolver::new();
        solver.set_limits(Limits::none().with_nodes(INLINE_NODES));
        solver
    });
}

fn parse(text: &str) -> PyResult<Grid> {
    Grid::parse(text).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Runs `work` with a solver: first inline under a node limit, then, if that
/// limit stopped it, on a thread of its own without one.
fn with_solver<T: Send>(
    py: Python<'_>,
    work: impl Fn(&mut SudokuSolver) -> Result<T, StopReason> + Send + Sync,
) -> PyResult<T> {
    let inline = py.detach(|| INLINE.with(|solver| work(&mut solver.borrow_mut())));
    match inline {
        Err(StopReason::NodeLimit) => {}
        other => return other.map_err(stopped),
    }
    let cancel = Arc::new(AtomicBool::new(false));
    let limits = Limits::none().with_cancel(cancel.clone());
    run(py, &cancel, move || {
        let mut solver = SudokuSolver::new();
        solver.set_limits(limits);
        work(&mut solver)
    })?
    .map_err(stopped)
}

/// The solution of a puzzle as one line, or `None` if it has none.
#[pyfunction]
fn sudoku_solve(py: Python<'_>, puzzle: &str) -> PyResult<Option<String>> {
    let grid = parse(puzzle)?;
    with_solver(py, |solver| match solver.solve(&grid) {
        SolveResult::Unique(solution) | SolveResult::Multiple(solution) => {
            Ok(Some(solution.to_line()))
        }
        SolveResult::None => Ok(None),
        SolveResult::Stopped(reason) => Err(reason),
    })
}

/// The number of solutions, up to `limit`.
#[pyfunction]
#[pyo3(signature = (puzzle, limit=None))]
fn sudoku_count(py: Python<'_>, puzzle: &str, limit: Option<u64>) -> PyResult<u64> {
    let grid = parse(puzzle)?;
    with_solver(py, |solver| {
        let count = solver.count(&grid, limit);
        match count.status {
            alldiff::CountStatus::Stopped(reason) => Err(reason),
            _ => Ok(count.solutions),
        }
    })
}

/// The rules the clues break, each as `row 1 has 8 twice: r1c1, r1c5`.
#[pyfunction]
fn sudoku_validate(puzzle: &str) -> PyResult<Vec<String>> {
    let grid = parse(puzzle)?;
    Ok(sudoku::validate(&grid)
        .iter()
        .map(ToString::to_string)
        .collect())
}

/// `(difficulty, nodes, failures)`.
#[pyfunction]
fn sudoku_rate(py: Python<'_>, puzzle: &str) -> PyResult<(String, u64, u64)> {
    let grid = parse(puzzle)?;
    let cancel = Arc::new(AtomicBool::new(false));
    let limits = Limits::none().with_cancel(cancel.clone());
    let rating = run(py, &cancel, || sudoku::rate_with_limits(&grid, &limits))?
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok((rating.difficulty.to_string(), rating.nodes, rating.failures))
}

fn difficulty(name: &str) -> PyResult<Difficulty> {
    let all = [
        Difficulty::Easy,
        Difficulty::Medium,
        Difficulty::Hard,
        Difficulty::Fiendish,
    ];
    let mut known = all.to_vec();
    let mut next = all[3].harder();
    while let Some(d) = next {
        known.push(d);
        next = d.harder();
    }
    (known.into_iter())
        .find(|d| d.name().eq_ignore_ascii_case(name))
        .ok_or_else(|| PyValueError::new_err(format!("unknown difficulty {name:?}")))
}

fn symmetry(name: &str) -> PyResult<Symmetry> {
    Ok(match name {
        "none" => Symmetry::None,
        "rotate180" => Symmetry::Rotate180,
        "rotate90" => Symmetry::Rotate90,
        "mirror" => Symmetry::Mirror,
        "flip" => Symmetry::Flip,
        "diagonal" => Symmetry::Diagonal,
        "random" => Symmetry::Random,
        _ => return Err(PyValueError::new_err(format!("unknown symmetry {name:?}"))),
    })
}

/// `(puzzle, solution)` lines. Generation runs with the GIL released but to its
/// end: its searches are bounded (a few hundred thousand nodes an attempt), and the
/// library's generator takes no cancellation flag.
#[pyfunction]
#[pyo3(signature = (hints=None, seed=0, box_size=3, symmetry_name="none", minimal=false, difficulty_name=None))]
fn sudoku_generate(
    py: Python<'_>,
    hints: Option<usize>,
    seed: u64,
    box_size: usize,
    symmetry_name: &str,
    minimal: bool,
    difficulty_name: Option<&str>,
) -> PyResult<(String, String)> {
    let options = GenerateOptions {
        box_size,
        hints,
        symmetry: symmetry(symmetry_name)?,
        minimal,
        difficulty: difficulty_name.map(difficulty).transpose()?,
        seed,
        ..GenerateOptions::default()
    };
    let generated = py
        .detach(|| sudoku::generate(&options))
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok((generated.puzzle.to_line(), generated.solution.to_line()))
}

/// `(text, steps, difficulty, guesses, solution)`.
#[pyfunction]
fn sudoku_explain(
    py: Python<'_>,
    puzzle: &str,
) -> PyResult<(String, Vec<String>, String, usize, String)> {
    let grid = parse(puzzle)?;
    let cancel = Arc::new(AtomicBool::new(false));
    let options = ExplainOptions {
        limits: Limits::none().with_cancel(cancel.clone()),
        ..ExplainOptions::default()
    };
    let explanation = run(py, &cancel, || sudoku::explain_with(&grid, &options))?
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok((
        explanation.to_string(),
        explanation
            .steps()
            .iter()
            .map(ToString::to_string)
            .collect(),
        explanation.difficulty().to_string(),
        explanation.guesses(),
        explanation.solution().to_line(),
    ))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(sudoku_solve, m)?)?;
    m.add_function(wrap_pyfunction!(sudoku_count, m)?)?;
    m.add_function(wrap_pyfunction!(sudoku_validate, m)?)?;
    m.add_function(wrap_pyfunction!(sudoku_rate, m)?)?;
    m.add_function(wrap_pyfunction!(sudoku_generate, m)?)?;
    m.add_function(wrap_pyfunction!(sudoku_explain, m)?)?;
    m.add_function(wrap_pyfunction!(crate::search::trace_html, m)?)?;
    m.add_function(wrap_pyfunction!(crate::search::trace_summary, m)?)?;
    Ok(())
}
