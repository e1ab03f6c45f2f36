//! What the page asks for, as plain Rust: each function takes the page's text and
//! returns the JSON the page reads. The WebAssembly exports (`lib.rs`) only pass
//! these through, so the answers are tested on the host (`cargo test -p
//! alldiff-web`) as well as in the browser (`web/tests/browser.py`).
//!
//! Every answer is an object; a puzzle that does not parse, or a request that
//! cannot be met, answers `{"error": "..."}` with the library's message, never a
//! panic.

use alldiff::sudoku::{
    self, Cell, Difficulty, ExplanationStep, GenerateOptions, Grid, SolveResult, SudokuModel,
    SudokuSolver, Symmetry, Unit,
};
use alldiff::trace::{self, Trace, ViewOptions};
use alldiff::{Limits, Solver};
use serde_json::{Value, json};

/// The nodes the search-tree page holds at most: a tree of this many nodes draws
/// and replays at once in the viewer; the page says how many more the trace has.
pub const TREE_NODES: usize = 20_000;

/// The trace's event lines at most (nodes, prunings, failures): a 9x9 solve writes
/// a few thousand, a hard 16x16 one may write far more; the rest are counted.
pub const TREE_EVENTS: u64 = 400_000;

fn error(message: impl std::fmt::Display) -> Value {
    json!({ "error": message.to_string() })
}

/// The puzzle in `text` (line form or grid form), or the parser's message.
fn parse(text: &str) -> Result<Grid, Value> {
    text.parse::<Grid>().map_err(error)
}

/// A cell as the page indexes it: row-major from 0.
fn index(cell: Cell, side: usize) -> usize {
    cell.row * side + cell.column
}

/// The cells of a unit, as indices.
fn unit_cells(grid: &Grid, unit: Unit) -> Vec<usize> {
    grid.unit_cells(unit).collect()
}

/// The puzzle read back: its line, side and box size.
pub fn read(text: &str) -> Value {
    match parse(text) {
        Ok(grid) => json!({
            "line": grid.to_line(),
            "side": grid.side(),
            "box": grid.box_size(),
            "clues": grid.clue_count(),
        }),
        Err(e) => e,
    }
}

/// The broken rules: each repeated digit with its unit and cells, and the set of
/// every conflicting cell.
pub fn validate(text: &str) -> Value {
    let grid = match parse(text) {
        Ok(grid) => grid,
        Err(e) => return e,
    };
    let side = grid.side();
    let repeated = sudoku::validate(&grid);
    let mut conflicts: Vec<usize> = repeated
        .iter()
        .flat_map(|r| r.cells.iter().map(|&c| index(c, side)))
        .collect();
    conflicts.sort_unstable();
    conflicts.dedup();
    let messages: Vec<String> = repeated.iter().map(ToString::to_string).collect();
    json!({ "side": side, "conflicts": conflicts, "messages": messages })
}

/// Solves, proving uniqueness: `status` is `unique`, `multiple` (one solution
/// given), `none` or `stopped`, with the search's nodes and failures.
pub fn solve(text: &str) -> Value {
    let grid = match parse(text) {
        Ok(grid) => grid,
        Err(e) => return e,
    };
    let mut solver = SudokuSolver::new();
    let result = solver.solve(&grid);
    let stats = solver.statistics();
    let (status, solution) = match result {
        SolveResult::Unique(g) => ("unique", Some(g.to_line())),
        SolveResult::Multiple(g) => ("multiple", Some(g.to_line())),
        SolveResult::None => ("none", None),
        SolveResult::Stopped(reason) => return error(format!("stopped: {reason}")),
    };
    json!({
        "status": status,
        "solution": solution,
        "nodes": stats.nodes,
        "failures": stats.failures,
    })
}

/// Solves each line of `text` (one puzzle per line), each with a fresh answer but
/// one solver, as a batch does: the solutions, for the page's timing of many
/// puzzles (`web/measure.py`).
pub fn solve_many(text: &str) -> Value {
    let mut solver = SudokuSolver::new();
    let mut solved = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let answer = match line.parse::<Grid>() {
            Ok(grid) => match solver.solve(&grid) {
                SolveResult::Unique(g) | SolveResult::Multiple(g) => g.to_line(),
                SolveResult::None => "none".to_owned(),
                SolveResult::Stopped(_) => "stopped".to_owned(),
            },
            Err(e) => format!("error: {e}"),
        };
        solved.push(answer);
    }
    json!({ "solutions": solved })
}

/// The grade, with the nodes a diabolical puzzle's search took.
pub fn rate(text: &str) -> Value {
    let grid = match parse(text) {
        Ok(grid) => grid,
        Err(e) => return e,
    };
    match sudoku::rate(&grid) {
        Ok(rating) => json!({
            "difficulty": rating.difficulty.name(),
            "nodes": rating.nodes,
            "failures": rating.failures,
        }),
        Err(e) => error(e),
    }
}

/// One explanation step as the page shows it: its text, technique, the cells to
/// highlight (the pattern's, the units', the cells changed) and what it places.
fn step_json(step: &ExplanationStep, grid: &Grid) -> Value {
    let side = grid.side();
    let units: Vec<Vec<usize>> = step.units.iter().map(|&u| unit_cells(grid, u)).collect();
    let pattern: Vec<usize> = step.cells.iter().map(|&c| index(c, side)).collect();
    let removed: Vec<Value> = step
        .removed
        .iter()
        .map(|e| json!({ "cell": index(e.cell, side), "digits": e.digits }))
        .collect();
    let placed = step
        .placed
        .map(|p| json!({ "cell": index(p.cell, side), "digit": p.digit }));
    json!({
        "text": step.to_string(),
        "technique": step.technique.name(),
        "units": units,
        "pattern": pattern,
        "removed": removed,
        "placed": placed,
    })
}

/// Every step of the human explanation, in order, with the grade and guesses.
pub fn explain(text: &str) -> Value {
    let grid = match parse(text) {
        Ok(grid) => grid,
        Err(e) => return e,
    };
    match sudoku::explain(&grid) {
        Ok(explanation) => {
            let steps: Vec<Value> = explanation
                .steps()
                .iter()
                .map(|s| step_json(s, &grid))
                .collect();
            json!({
                "steps": steps,
                "difficulty": explanation.difficulty().name(),
                "guesses": explanation.guesses(),
                "solution": explanation.solution().to_line(),
            })
        }
        Err(e) => error(e),
    }
}

/// The next placement: the explanation's steps up to and including its first
/// placement (the eliminations it needs, then the placement itself).
pub fn hint(text: &str) -> Value {
    let grid = match parse(text) {
        Ok(grid) => grid,
        Err(e) => return e,
    };
    if grid.is_complete() {
        return error("the grid is full: there is nothing left to place");
    }
    match sudoku::explain(&grid) {
        Ok(explanation) => {
            let steps = explanation.steps();
            let end = steps
                .iter()
                .position(|s| s.placed.is_some())
                .map_or(steps.len(), |i| i + 1);
            let steps: Vec<Value> = steps[..end].iter().map(|s| step_json(s, &grid)).collect();
            json!({ "steps": steps })
        }
        Err(e) => error(e),
    }
}

/// The symmetry named `name` (as [`Symmetry::name`] writes it).
fn symmetry(name: &str) -> Option<Symmetry> {
    [
        Symmetry::None,
        Symmetry::Rotate180,
        Symmetry::Rotate90,
        Symmetry::Mirror,
        Symmetry::Flip,
        Symmetry::Diagonal,
        Symmetry::Random,
    ]
    .into_iter()
    .find(|s| s.name() == name)
}

/// A new puzzle of box size `box_size` (2 to 4) with `hints` clues (0: the size's
/// default), the symmetry named `symmetry` and the difficulty named `difficulty`
/// (empty: any), from `seed` (the page passes `crypto.getRandomValues`' numbers,
/// so the library needs no entropy source of its own).
pub fn generate(
    box_size: u32,
    hints: u32,
    symmetry_name: &str,
    difficulty: &str,
    seed: u64,
) -> Value {
    let Some(symmetry) = symmetry(symmetry_name) else {
        return error(format!("unknown symmetry {symmetry_name:?}"));
    };
    let difficulty = match difficulty {
        "" | "any" => None,
        name => match name.parse::<Difficulty>() {
            Ok(d) => Some(d),
            Err(e) => return error(e),
        },
    };
    let options = GenerateOptions {
        box_size: box_size as usize,
        hints: (hints > 0).then_some(hints as usize),
        symmetry,
        difficulty,
        seed,
        ..GenerateOptions::default()
    };
    match sudoku::generate(&options) {
        Ok(generated) => json!({
            "puzzle": generated.puzzle.to_line(),
            "solution": generated.solution.to_line(),
            "clues": generated.puzzle.clue_count(),
            "symmetry": generated.symmetry.name(),
            "attempts": generated.attempts,
        }),
        Err(e) => error(e),
    }
}

/// The search tree of the solve (counting to two solutions, as `solve` does, with
/// the propagation the solver would use) as the trace viewer's page: the same
/// page `alldiff trace view` writes, made by the library from the same files.
pub fn tree_page(text: &str) -> Result<String, String> {
    let grid = text.parse::<Grid>().map_err(|e| e.to_string())?;
    // The propagation the page's solve used (the adaptive choice answers with
    // singles or, once escalated, with locked candidates at the root): the trace
    // follows that one.
    let mut sudoku_solver = SudokuSolver::new();
    let _ = sudoku_solver.solve(&grid);
    let propagation = sudoku_solver.latest_propagation();
    let (model, cells) = SudokuModel::new(grid.box_size(), propagation)
        .map_err(|e| e.to_string())?
        .into_parts();
    let mut solver = Solver::with_config(model, sudoku_solver.options().search);
    for (&var, &digit) in cells.iter().zip(grid.cells()) {
        if digit != 0 {
            // A clue that contradicts the others fails the root; the page shows it.
            if solver.assume(var, i32::from(digit)).is_err() {
                return Err(format!("the clue {digit} cannot be assumed"));
            }
        }
    }
    solver.set_limits(Limits::default());
    let name = format!("sudoku {0}x{0}", grid.side());
    let mut bytes = Vec::new();
    trace::count_traced(&mut solver, &name, &mut bytes, Some(TREE_EVENTS), Some(2))
        .map_err(|e| e.to_string())?;
    let trace = Trace::parse(&bytes[..]).map_err(|e| e.to_string())?;
    Ok(trace.to_html(ViewOptions {
        max_nodes: TREE_NODES,
    }))
}
