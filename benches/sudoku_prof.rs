//! Throughput of the default Sudoku solver over a puzzle file, counting up to two
//! solutions per puzzle, in-process and single-threaded; the loop repeats the file
//! for at least `BENCH_SECS` seconds (default 3), like the `sudoku` crate's bench.
//! Meant for `perf record` and for side-by-side comparisons.
//!
//! `cargo bench --bench sudoku_prof -- PATH [LIMIT] [PRESET] [ORDER]`
//!
//! PRESET: `default`, `hidden`, `locked`, `system`, `system+locked`, `system+root-locked`,
//! `full`;
//! ORDER: `default`, `first-fail`, `dom/wdeg`.

use std::time::{Duration, Instant};

use alldiff::sudoku::{Grid, Propagation, SolveResult, SolverOptions, SudokuSolver};
use alldiff::{SearchConfig, VariableOrder};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1).filter(|arg| arg != "--bench");
    let path = args
        .next()
        .ok_or("usage: sudoku_prof PATH [LIMIT] [PRESET] [ORDER]")?;
    let limit: usize = args.next().map_or(Ok(usize::MAX), |s| s.parse())?;
    let mut options = SolverOptions::default();
    match args.next().as_deref() {
        None | Some("default") => {}
        Some("hidden") => options.propagation = Propagation::HiddenSingles,
        Some("locked") => options.propagation = Propagation::LockedCandidates,
        Some(other) => options.propagation = preset(other).ok_or("unknown preset")?,
    }
    match args.next().as_deref() {
        None | Some("default") => {}
        Some("first-fail") => {
            options.search = SearchConfig::new().variable_order(VariableOrder::SmallestDomain)
        }
        Some("dom/wdeg") => {
            options.search =
                SearchConfig::new().variable_order(VariableOrder::DomOverWeightedDegree)
        }
        Some(_) => return Err("unknown order".into()),
    }
    let secs: f64 = std::env::var("BENCH_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3.0);
    let text = std::fs::read_to_string(&path)?;
    let puzzles: Vec<Grid> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .take(limit)
        .map(|l| Grid::parse(l.get(..81).unwrap_or(l)))
        .collect::<Result<_, _>>()?;
    let mut solver = SudokuSolver::with_options(options);
    let (mut unique, mut multiple, mut none, mut nodes) = (0usize, 0usize, 0usize, 0u64);
    for puzzle in &puzzles {
        match solver.solve(puzzle) {
            SolveResult::Unique(_) => unique += 1,
            SolveResult::Multiple(_) => multiple += 1,
            SolveResult::None => none += 1,
            SolveResult::Stopped(_) => {}
        }
        nodes += solver.statistics().nodes;
    }
    let start = Instant::now();
    let mut solved = 0usize;
    loop {
        for puzzle in &puzzles {
            std::hint::black_box(solver.solve(puzzle));
        }
        solved += puzzles.len();
        if start.elapsed() >= Duration::from_secs_f64(secs) {
            break;
        }
    }
    let rate = solved as f64 / start.elapsed().as_secs_f64();
    println!(
        "{path}: n={} unique={unique} multiple={multiple} none={none} nodes/puzzle={:.1} | count<=2: {rate:.0} puzzles/s",
        puzzles.len(),
        nodes as f64 / puzzles.len() as f64
    );
    Ok(())
}

fn preset(name: &str) -> Option<Propagation> {
    match name {
        "system" => Some(Propagation::SystemSingles),
        "system+locked" => Some(Propagation::SystemLockedCandidates),
        "system+root-locked" => Some(Propagation::SystemLockedCandidatesAtRoot),
        "full" => Some(Propagation::Full),
        _ => None,
    }
}
