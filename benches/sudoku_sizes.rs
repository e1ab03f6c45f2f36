//! Times solving (counting up to two solutions) empty and partly blanked grids of
//! every size, for several propagation levels and variable orders.
//!
//! `cargo bench --bench sudoku_sizes`

use std::time::Instant;

use alldiff::sudoku::{
    GenerateOptions, Grid, Propagation, Removal, SolveResult, SolverOptions, SudokuSolver, generate,
};
use alldiff::{Limits, SearchConfig, VariableOrder};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let levels = [
        ("hidden", Propagation::HiddenSingles),
        ("hidden+locked", Propagation::LockedCandidates),
        ("domain+locked", Propagation::Full),
    ];
    let orders = [
        ("first-fail", VariableOrder::SmallestDomain),
        ("dom/wdeg", VariableOrder::DomOverWeightedDegree),
    ];
    for box_size in 3..=5 {
        let mut puzzles = vec![("empty".to_owned(), Grid::empty(box_size)?)];
        let cells = box_size.pow(4);
        for percent in [40, 50, 60, 67, 75] {
            for seed in 1..=3 {
                let options = GenerateOptions {
                    box_size,
                    removal: Removal::HideRandom {
                        blanks: cells * percent / 100,
                    },
                    seed,
                    ..Default::default()
                };
                puzzles.push((format!("{percent}%/{seed}"), generate(&options)?.puzzle));
            }
        }
        for (name, propagation) in levels {
            for (order_name, order) in orders {
                let mut solver = SudokuSolver::with_options(SolverOptions {
                    propagation,
                    search: SearchConfig::new().variable_order(order),
                });
                solver.set_limits(Limits::none().with_nodes(1_000_000));
                let start = Instant::now();
                let (mut worst, mut worst_name, mut stopped) = (0.0f64, String::new(), 0);
                for (pname, puzzle) in &puzzles {
                    let t = Instant::now();
                    if let SolveResult::Stopped(_) = solver.solve(puzzle) {
                        stopped += 1;
                    }
                    let e = t.elapsed().as_secs_f64();
                    if e > worst {
                        worst = e;
                        worst_name = pname.clone();
                    }
                }
                println!(
                    "box {box_size} {name:>14} {order_name:>10}: total {:8.3} s, worst {:8.3} s ({worst_name}), stopped {stopped}",
                    start.elapsed().as_secs_f64(),
                    worst
                );
            }
        }
    }
    Ok(())
}
