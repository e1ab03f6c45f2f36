//! Quasigroup completion: fill a partly filled Latin square, so that every symbol appears
//! once in each row and each column, or prove that it cannot be done.
//!
//! One variable per cell over `1..=n`; every row and every column is all different,
//! propagated with full domain consistency; the given cells are fixed.
//!
//! ```text
//! cargo run --release --example latin_square
//! ```

use std::process::ExitCode;

use alldiff::{Model, ModelError, Outcome, Solver, Strength};

/// A partial 6×6 square that can be completed (0 is an empty cell).
pub const OPEN: [[u8; 6]; 6] = [
    [1, 0, 0, 0, 0, 6],
    [0, 0, 4, 0, 0, 0],
    [0, 3, 0, 0, 2, 0],
    [0, 0, 0, 5, 0, 0],
    [0, 0, 1, 0, 0, 4],
    [6, 0, 0, 0, 0, 0],
];

/// A partial 5×5 square that cannot be completed: the first row needs a 5 in its last
/// cell, but that column already has one. No row or column repeats a symbol, so the
/// givens themselves break no rule.
pub const CLOSED: [[u8; 5]; 5] = [
    [1, 2, 3, 4, 0],
    [0, 0, 0, 0, 5],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
];

/// A completion of the partial square `givens` (rows of equal length `n`, 0 for empty,
/// `1..=n` for a symbol), or `None` if there is none.
pub fn complete<R: AsRef<[u8]>>(givens: &[R]) -> Result<Option<Vec<Vec<i32>>>, ModelError> {
    let n = givens.len();
    let side = i32::try_from(n).unwrap_or(i32::MAX);
    let mut model = Model::new();
    let mut cells = Vec::with_capacity(n);
    for row in givens {
        let row = row.as_ref();
        if row.len() != n {
            return Err(ModelError::InvalidConstraint {
                constraint: "latin_square",
                reason: format!("a row has {} cells in a square of side {n}", row.len()),
            });
        }
        let mut vars = Vec::with_capacity(n);
        for &given in row {
            vars.push(match given {
                0 => model.int_var(1, side)?,
                v if i32::from(v) <= side => model.var_from_values([i32::from(v)])?,
                v => {
                    return Err(ModelError::InvalidConstraint {
                        constraint: "latin_square",
                        reason: format!("symbol {v} is not in 1..={n}"),
                    });
                }
            });
        }
        cells.push(vars);
    }
    for i in 0..n {
        model.all_different_with(cells[i].iter().copied(), Strength::Domain)?;
        model.all_different_with(cells.iter().map(|row| row[i]), Strength::Domain)?;
    }
    Ok(match Solver::new(model).solve() {
        Outcome::Solved(s) => Some(
            cells
                .iter()
                .map(|row| row.iter().map(|&c| s[c]).collect())
                .collect(),
        ),
        _ => None,
    })
}

fn show<R: AsRef<[u8]>>(title: &str, givens: &[R]) -> Result<(), ModelError> {
    println!("{title}:");
    for row in givens {
        let cells: Vec<String> = row
            .as_ref()
            .iter()
            .map(|&v| {
                if v == 0 {
                    ".".to_string()
                } else {
                    v.to_string()
                }
            })
            .collect();
        println!("  {}", cells.join(" "));
    }
    match complete(givens)? {
        Some(rows) => {
            println!("completed:");
            for row in rows {
                let cells: Vec<String> = row.iter().map(i32::to_string).collect();
                println!("  {}", cells.join(" "));
            }
        }
        None => println!("no completion exists (proven by search)"),
    }
    println!();
    Ok(())
}

fn main() -> ExitCode {
    if std::env::args().len() > 1 {
        eprintln!("usage: latin_square");
        return ExitCode::from(2);
    }
    match show("a partial 6x6 square", &OPEN).and_then(|()| show("a partial 5x5 square", &CLOSED)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("latin_square: {e}");
            ExitCode::FAILURE
        }
    }
}
