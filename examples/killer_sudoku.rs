//! Killer Sudoku: a Sudoku without givens, whose cells are split into cages; the digits of a
//! cage are different and add up to the cage's sum.
//!
//! The Sudoku rules are 27 all-different constraints over 81 variables; each cage adds one more
//! all-different and one linear equation posted with [`Model::sum`]. The program solves the
//! puzzle and proves that its solution is unique by counting up to two solutions.
//!
//! ```text
//! cargo run --release --example killer_sudoku
//! ```

use std::process::ExitCode;

use alldiff::sudoku::Grid;
use alldiff::{Count, Model, ModelError, Outcome, Relation, Solver, VarId};

/// The cages: cells marked with the same letter form one cage.
pub const CAGES: [&str; 9] = [
    "abbbccddd",
    "aeffcghhh",
    "ieffggjkl",
    "immnngjkl",
    "ompnqqqkl",
    "orpssqtuu",
    "vrrswwttu",
    "vxxywwzzA",
    "vBByyyCCA",
];

/// The sum of each cage.
pub const SUMS: [(char, i32); 29] = [
    ('a', 12),
    ('b', 9),
    ('c', 19),
    ('d', 18),
    ('e', 12),
    ('f', 17),
    ('g', 18),
    ('h', 11),
    ('i', 12),
    ('j', 8),
    ('k', 12),
    ('l', 14),
    ('m', 18),
    ('n', 24),
    ('o', 6),
    ('p', 13),
    ('q', 16),
    ('r', 11),
    ('s', 15),
    ('t', 17),
    ('u', 21),
    ('v', 15),
    ('w', 19),
    ('x', 11),
    ('y', 22),
    ('z', 11),
    ('A', 4),
    ('B', 9),
    ('C', 11),
];

/// The model and its 81 cells, row by row.
pub struct Killer {
    /// The model.
    pub model: Model,
    /// The cells, row-major.
    pub cells: [VarId; 81],
}

fn invalid(reason: String) -> ModelError {
    ModelError::InvalidConstraint {
        constraint: "killer_sudoku",
        reason,
    }
}

/// Builds a killer Sudoku from a cage layout (9 rows of 9 cage letters) and cage sums.
pub fn killer(cages: &[&str], sums: &[(char, i32)]) -> Result<Killer, ModelError> {
    let layout: Vec<char> = cages.iter().flat_map(|row| row.chars()).collect();
    if cages.len() != 9 || layout.len() != 81 {
        return Err(invalid(
            "the cage layout must be 9 rows of 9 letters".to_string(),
        ));
    }
    let mut model = Model::new();
    let cells = model.int_var_array::<81>(1, 9)?;
    for i in 0..9 {
        model.all_different((0..9).map(|c| cells[i * 9 + c]))?; // row i
        model.all_different((0..9).map(|r| cells[r * 9 + i]))?; // column i
        let (top, left) = (i / 3 * 3, i % 3 * 3);
        model.all_different((0..9).map(|k| cells[(top + k / 3) * 9 + left + k % 3]))?; // box i
    }
    for &(letter, sum) in sums {
        let cage: Vec<VarId> = (0..81)
            .filter(|&i| layout[i] == letter)
            .map(|i| cells[i])
            .collect();
        if cage.is_empty() {
            return Err(invalid(format!("cage {letter} has a sum but no cells")));
        }
        model.all_different(cage.iter().copied())?;
        model.sum(cage, Relation::Equal, sum)?;
    }
    if let Some(c) = layout.iter().find(|&&c| !sums.iter().any(|&(l, _)| l == c)) {
        return Err(invalid(format!("cage {c} has no sum")));
    }
    Ok(Killer { model, cells })
}

/// The solution of the built-in puzzle as a grid, and the count of solutions up to 2.
pub fn solve() -> Result<(Option<Grid>, Count), ModelError> {
    let Killer { model, cells } = killer(&CAGES, &SUMS)?;
    let mut solver = Solver::new(model);
    let grid = match solver.solve() {
        Outcome::Solved(s) => {
            let digits = cells.iter().map(|&c| s[c] as u8).collect();
            Grid::from_cells(3, digits).ok()
        }
        _ => None,
    };
    Ok((grid, solver.count(Some(2))))
}

fn main() -> ExitCode {
    if std::env::args().len() > 1 {
        eprintln!("usage: killer_sudoku");
        return ExitCode::from(2);
    }
    println!(
        "cages (sums: {}):",
        SUMS.map(|(l, s)| format!("{l}={s}")).join(" ")
    );
    for row in CAGES {
        println!("  {row}");
    }
    match solve() {
        Ok((grid, count)) => {
            match grid {
                Some(grid) => print!("solution:\n{}", grid.to_grid_string()),
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
            eprintln!("killer_sudoku: {e}");
            ExitCode::FAILURE
        }
    }
}
