//! Times the Sudoku solver over a puzzle file, one puzzle a line, for every
//! propagation level and variable order, counting up to two solutions per puzzle.
//!
//! `cargo bench --bench sudoku_bench -- PATH [LIMIT]`

use std::time::Instant;

use alldiff::sudoku::{Grid, Propagation, SolveResult, SolverOptions, SudokuSolver};
use alldiff::{SearchConfig, VariableOrder};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1).filter(|arg| arg != "--bench");
    let path = args.next().ok_or("usage: sudoku_bench PATH [LIMIT]")?;
    let limit: usize = args.next().map_or(Ok(usize::MAX), |s| s.parse())?;
    let text = std::fs::read_to_string(&path)?;
    let puzzles: Vec<Grid> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(limit)
        .map(Grid::parse)
        .collect::<Result<_, _>>()?;
    let levels = [
        ("value", Propagation::NakedSingles),
        ("hidden", Propagation::HiddenSingles),
        ("hidden+locked", Propagation::LockedCandidates),
        ("domain+locked", Propagation::Full),
        ("system", Propagation::SystemSingles),
        (
            "system+root-locked",
            Propagation::SystemLockedCandidatesAtRoot,
        ),
        ("system+locked", Propagation::SystemLockedCandidates),
    ];
    let orders = [
        ("first-fail", VariableOrder::SmallestDomain),
        ("dom/wdeg", VariableOrder::DomOverWeightedDegree),
    ];
    println!("{} puzzles from {path}", puzzles.len());
    for (name, propagation) in levels {
        for (order_name, order) in orders {
            let options = SolverOptions {
                propagation,
                search: SearchConfig::new().variable_order(order),
            };
            let mut solver = SudokuSolver::with_options(options);
            let (mut nodes, mut unique) = (0u64, 0usize);
            let start = Instant::now();
            for puzzle in &puzzles {
                if let SolveResult::Unique(_) = solver.solve(puzzle) {
                    unique += 1;
                }
                nodes += solver.statistics().nodes;
            }
            let secs = start.elapsed().as_secs_f64();
            println!(
                "{name:>14} {order_name:>10}: {secs:8.3} s  {:9.0} puzzles/s  {:8.1} nodes/puzzle  unique {unique}",
                puzzles.len() as f64 / secs,
                nodes as f64 / puzzles.len() as f64
            );
        }
    }
    Ok(())
}
