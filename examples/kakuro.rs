//! Kakuro: write digits 1 to 9 in the white cells so that each run (a maximal horizontal or
//! vertical line of white cells) adds up to its clue, with no digit repeated in a run.
//!
//! Each run is one all-different constraint and one linear equation posted with
//! [`Model::sum`]. The program solves the puzzle and proves that its solution is unique by
//! counting up to two solutions.
//!
//! ```text
//! cargo run --release --example kakuro
//! ```

use std::process::ExitCode;

use alldiff::{Count, Model, ModelError, Outcome, Relation, Solver, VarId};

/// The board: `.` is a white cell, `#` a black one.
pub const SHAPE: [&str; 5] = ["..#..", ".....", "#...#", ".....", "..#.."];

/// The clues of the across runs, in reading order of their first cells.
pub const ACROSS: [i32; 7] = [9, 4, 22, 18, 34, 16, 15];

/// The clues of the down runs, in reading order of their top cells.
pub const DOWN: [i32; 7] = [15, 27, 33, 3, 7, 17, 16];

/// A run: the (row, column) of its cells, in order.
pub type Run = Vec<(usize, usize)>;

/// The across and the down runs of a board, each in reading order of its first cell.
/// Lines of a single white cell are not runs.
pub fn runs(shape: &[&str]) -> (Vec<Run>, Vec<Run>) {
    let board: Vec<Vec<bool>> = shape
        .iter()
        .map(|r| r.chars().map(|c| c == '.').collect())
        .collect();
    let white = |r: usize, c: usize| {
        board
            .get(r)
            .and_then(|row| row.get(c))
            .copied()
            .unwrap_or(false)
    };
    let (mut across, mut down) = (Vec::new(), Vec::new());
    for (r, row) in board.iter().enumerate() {
        for c in 0..row.len() {
            if white(r, c) && (c == 0 || !white(r, c - 1)) {
                let run: Run = (c..).take_while(|&k| white(r, k)).map(|k| (r, k)).collect();
                if run.len() > 1 {
                    across.push(run);
                }
            }
            if white(r, c) && (r == 0 || !white(r - 1, c)) {
                let run: Run = (r..).take_while(|&k| white(k, c)).map(|k| (k, c)).collect();
                if run.len() > 1 {
                    down.push(run);
                }
            }
        }
    }
    (across, down)
}

/// The model and the white cells' variables (`cells[row][col]`, `None` for black cells).
pub struct Kakuro {
    /// The model.
    pub model: Model,
    /// The variables of the white cells.
    pub cells: Vec<Vec<Option<VarId>>>,
}

/// Builds a Kakuro from its board and clues; `None` clues leave a run's sum free (its
/// digits still differ).
pub fn kakuro(
    shape: &[&str],
    across: &[Option<i32>],
    down: &[Option<i32>],
) -> Result<Kakuro, ModelError> {
    let (across_runs, down_runs) = runs(shape);
    if across_runs.len() != across.len() || down_runs.len() != down.len() {
        return Err(ModelError::InvalidConstraint {
            constraint: "kakuro",
            reason: format!(
                "the board has {} across and {} down runs, but {} and {} clues were given",
                across_runs.len(),
                down_runs.len(),
                across.len(),
                down.len()
            ),
        });
    }
    let mut model = Model::new();
    let mut cells = Vec::new();
    for row in shape {
        let mut vars = Vec::new();
        for c in row.chars() {
            vars.push(if c == '.' {
                Some(model.int_var(1, 9)?)
            } else {
                None
            });
        }
        cells.push(vars);
    }
    for (run, &clue) in across_runs
        .iter()
        .zip(across)
        .chain(down_runs.iter().zip(down))
    {
        let vars: Vec<VarId> = run.iter().filter_map(|&(r, c)| cells[r][c]).collect();
        model.all_different(vars.iter().copied())?;
        if let Some(sum) = clue {
            model.sum(vars, Relation::Equal, sum)?;
        }
    }
    Ok(Kakuro { model, cells })
}

/// A filled board: rows of digits, 0 for black cells.
pub type Filled = Vec<Vec<i32>>;

/// The solution of the built-in puzzle and the count of solutions up to 2.
pub fn solve() -> Result<(Option<Filled>, Count), ModelError> {
    let Kakuro { model, cells } = kakuro(&SHAPE, &ACROSS.map(Some), &DOWN.map(Some))?;
    let mut solver = Solver::new(model);
    let grid = match solver.solve() {
        Outcome::Solved(s) => Some(
            cells
                .iter()
                .map(|row| row.iter().map(|c| c.map_or(0, |v| s[v])).collect())
                .collect(),
        ),
        _ => None,
    };
    Ok((grid, solver.count(Some(2))))
}

fn main() -> ExitCode {
    if std::env::args().len() > 1 {
        eprintln!("usage: kakuro");
        return ExitCode::from(2);
    }
    println!("board:");
    for row in SHAPE {
        println!("  {row}");
    }
    let list = |clues: &[i32]| {
        clues
            .iter()
            .map(i32::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };
    println!(
        "across clues: {}\ndown clues:   {}",
        list(&ACROSS),
        list(&DOWN)
    );
    match solve() {
        Ok((grid, count)) => {
            match grid {
                Some(rows) => {
                    println!("solution:");
                    for row in rows {
                        let cells: Vec<String> = row
                            .iter()
                            .map(|&d| {
                                if d == 0 {
                                    "#".to_string()
                                } else {
                                    d.to_string()
                                }
                            })
                            .collect();
                        println!("  {}", cells.join(" "));
                    }
                }
                None => println!("no solution"),
            }
            let unique = if count.solutions == 1 {
                " (unique)"
            } else {
                ""
            };
            println!("solutions counted up to 2: {}{unique}", count.solutions);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("kakuro: {e}");
            ExitCode::FAILURE
        }
    }
}
