//! Two Sudoku variants through the same modelling API: Sudoku X, where both long diagonals
//! also hold 1 to 9 once each, and jigsaw Sudoku, where the 3×3 boxes are replaced by nine
//! irregular regions.
//!
//! A variant is a list of *units* (groups of nine cells that are all different); the model
//! is one all-different constraint per unit. The givens are read with
//! [`Grid::parse`](alldiff::sudoku::Grid::parse). Each puzzle is solved and its solution
//! proven unique by counting up to two.
//!
//! ```text
//! cargo run --release --example sudoku_variants
//! ```

use std::process::ExitCode;

use alldiff::sudoku::Grid;
use alldiff::{Count, Model, ModelError, Outcome, Solver, VarId};

/// A Sudoku X puzzle, row by row.
pub const X_PUZZLE: &str =
    "3..2........5......4.39......962......58.7.6.......1..........2.....4....9.1.....";

/// The regions of the jigsaw puzzle: cells with the same letter form one region.
pub const JIGSAW_REGIONS: [&str; 9] = [
    "ABBBBBBBC",
    "AAAABBCCC",
    "ADDACCCCC",
    "ADEEEEEEF",
    "ADDEEFFFF",
    "DDDDEHFFF",
    "HHHHHHFII",
    "GHGGGHIII",
    "GGGGGIIII",
];

/// The jigsaw puzzle, row by row.
pub const JIGSAW_PUZZLE: &str =
    "3.1.........6...51.1.43........4.....2.5...7.....8.9..........76....93...9.7.....";

/// A group of nine cells (indices, row-major) that hold different digits.
pub type Unit = Vec<usize>;

/// The nine rows and nine columns.
pub fn lines() -> Vec<Unit> {
    let rows = (0..9).map(|r| (0..9).map(|c| r * 9 + c).collect());
    let cols = (0..9).map(|c| (0..9).map(|r| r * 9 + c).collect());
    rows.chain(cols).collect()
}

/// Sudoku X: rows, columns, the 3×3 boxes and both diagonals.
pub fn x_units() -> Vec<Unit> {
    let mut units = lines();
    for b in 0..9 {
        let (top, left) = (b / 3 * 3, b % 3 * 3);
        units.push((0..9).map(|k| (top + k / 3) * 9 + left + k % 3).collect());
    }
    units.push((0..9).map(|i| i * 9 + i).collect());
    units.push((0..9).map(|i| i * 9 + 8 - i).collect());
    units
}

/// Jigsaw Sudoku: rows, columns and the regions of a layout of 9 rows of 9 letters, each
/// letter marking the cells of one region.
pub fn jigsaw_units(regions: &[&str]) -> Result<Vec<Unit>, ModelError> {
    let layout: Vec<char> = regions.iter().flat_map(|row| row.chars()).collect();
    if layout.len() != 81 {
        return Err(ModelError::InvalidConstraint {
            constraint: "jigsaw",
            reason: "the layout must be 9 rows of 9 letters".to_string(),
        });
    }
    let mut letters = layout.clone();
    letters.sort_unstable();
    letters.dedup();
    let mut units = lines();
    for letter in letters {
        let region: Unit = (0..layout.len()).filter(|&i| layout[i] == letter).collect();
        if region.len() != 9 {
            return Err(ModelError::InvalidConstraint {
                constraint: "jigsaw",
                reason: format!("region {letter} has {} cells, not 9", region.len()),
            });
        }
        units.push(region);
    }
    Ok(units)
}

/// The model of a 9×9 puzzle with the given units, and its cells.
pub fn model(units: &[Unit], givens: &Grid) -> Result<(Model, Vec<VarId>), ModelError> {
    let mut model = Model::new();
    let mut cells = Vec::with_capacity(81);
    for &given in givens.cells() {
        cells.push(match given {
            0 => model.int_var(1, 9)?,
            d => model.var_from_values([i32::from(d)])?,
        });
    }
    if cells.len() != 81 {
        return Err(ModelError::InvalidConstraint {
            constraint: "sudoku_variants",
            reason: format!("the grid has {} cells, not 81", cells.len()),
        });
    }
    for unit in units {
        let vars: Option<Vec<VarId>> = unit.iter().map(|&i| cells.get(i).copied()).collect();
        let vars = vars.ok_or_else(|| ModelError::InvalidConstraint {
            constraint: "sudoku_variants",
            reason: format!("unit {unit:?} has a cell outside the grid"),
        })?;
        model.all_different(vars)?;
    }
    Ok((model, cells))
}

/// The solution (if any) and the count of solutions up to 2.
pub fn solve(units: &[Unit], givens: &Grid) -> Result<(Option<Grid>, Count), ModelError> {
    let (model, cells) = model(units, givens)?;
    let mut solver = Solver::new(model);
    let grid = match solver.solve() {
        Outcome::Solved(s) => Grid::from_cells(3, cells.iter().map(|&c| s[c] as u8).collect()).ok(),
        _ => None,
    };
    Ok((grid, solver.count(Some(2))))
}

/// The grid with 3×3 box lines (`boxes`), or as plain rows when the regions are irregular.
fn text(grid: &Grid, boxes: bool) -> String {
    if boxes {
        return grid.to_grid_string();
    }
    let mut text = String::new();
    for row in grid.cells().chunks(9) {
        let cells: Vec<String> = row
            .iter()
            .map(|&d| {
                if d == 0 {
                    ".".to_string()
                } else {
                    d.to_string()
                }
            })
            .collect();
        text.push_str(&cells.join(" "));
        text.push('\n');
    }
    text
}

fn show(title: &str, units: &[Unit], puzzle: &str, boxes: bool) -> Result<(), String> {
    let givens: Grid = puzzle.parse().map_err(|e| format!("{e}"))?;
    println!("{title}:\n{}", text(&givens, boxes));
    let (grid, count) = solve(units, &givens).map_err(|e| e.to_string())?;
    match grid {
        Some(grid) => println!("solution:\n{}", text(&grid, boxes)),
        None => println!("no solution"),
    }
    let unique = if count.solutions == 1 {
        " (unique)"
    } else {
        ""
    };
    println!("solutions counted up to 2: {}{unique}\n", count.solutions);
    Ok(())
}

fn main() -> ExitCode {
    if std::env::args().len() > 1 {
        eprintln!("usage: sudoku_variants");
        return ExitCode::from(2);
    }
    let result = show("Sudoku X", &x_units(), X_PUZZLE, true).and_then(|()| {
        println!("jigsaw regions:");
        for row in JIGSAW_REGIONS {
            println!("  {row}");
        }
        let units = jigsaw_units(&JIGSAW_REGIONS).map_err(|e| e.to_string())?;
        show("jigsaw Sudoku", &units, JIGSAW_PUZZLE, false)
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sudoku_variants: {e}");
            ExitCode::FAILURE
        }
    }
}
