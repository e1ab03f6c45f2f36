//! N-Queens: place N queens on an N×N board so that none attacks another.
//!
//! One variable per row holds the column of that row's queen, so no two queens share a row by
//! construction. Columns differ, and so do both diagonals: queens in rows `i` and `j` share a
//! diagonal when `q[i] + i == q[j] + j` or `q[i] - i == q[j] - j`, so the diagonals are two
//! more all-different constraints over the *views* `q[i] + i` and `q[i] - i`.
//!
//! Counting takes the smallest domain first and the smallest value first, with value
//! elimination ([`Strength::Value`]): more nodes than domain consistency, but each so
//! much cheaper that it counts fastest (far faster than at
//! [`Strength::Domain`], see `docs/performance.md`). `count(n, Strength::Domain)` is the
//! search of `../shared/anchors/minizinc/queens.mzn` on Gecode (`scripts/compare-gecode.sh`).
//!
//! ```text
//! cargo run --release --example nqueens -- 8          # one solution, as a board
//! cargo run --release --example nqueens -- 8 --count  # the number of solutions (92)
//! ```

use std::process::ExitCode;

use alldiff::{
    Model, ModelError, Outcome, Restarts, SearchConfig, Solver, Statistics, Strength, ValueOrder,
    VarId,
};

/// The N-Queens model and its variables: `rows[i]` is the column (from 1) of the queen in
/// row `i`.
pub struct Queens {
    /// The model.
    pub model: Model,
    /// One variable per row.
    pub rows: Vec<VarId>,
}

/// Builds the model for an `n`×`n` board, the all-different constraints propagated
/// with `strength`.
pub fn queens(n: usize, strength: Strength) -> Result<Queens, ModelError> {
    let side = i32::try_from(n).unwrap_or(i32::MAX);
    let mut model = Model::new();
    let rows = model.int_vars(n, 1, side)?;
    model.all_different_with(rows.iter().copied(), strength)?;
    model.all_different_with(rows.iter().zip(0..).map(|(&q, i)| q + i), strength)?;
    model.all_different_with(rows.iter().zip(0..).map(|(&q, i)| q - i), strength)?;
    Ok(Queens { model, rows })
}

/// The number of solutions for an `n`×`n` board, and the search's statistics.
pub fn count(n: usize, strength: Strength) -> Result<(u64, Statistics), ModelError> {
    let Queens { model, .. } = queens(n, strength)?;
    let mut solver = Solver::new(model);
    let count = solver.count(None);
    Ok((count.solutions, solver.statistics().clone()))
}

/// One solution as the column (from 1) of each row's queen, or `None` if there is none.
///
/// Search times for one solution are heavy-tailed: for some `n` the first-fail heuristic
/// wanders for minutes in a subtree without solutions, so the search picks values at
/// random and restarts ([`Solver::set_restarts`]); a "no solution" answer is still a
/// proof.
pub fn solve(n: usize) -> Result<Option<Vec<i32>>, ModelError> {
    let Queens { model, rows } = queens(n, Strength::default())?;
    let mut solver = Solver::with_config(
        model,
        SearchConfig::new().value_order(ValueOrder::Random(0)),
    );
    solver.set_restarts(Some(Restarts::geometric(64, 2.0)));
    match solver.solve() {
        Outcome::Solved(s) => Ok(Some(rows.iter().map(|&q| s[q]).collect())),
        // No limit is set, so only a completed search ends the restarts.
        Outcome::Unsatisfiable | Outcome::Stopped(_) => Ok(None),
    }
}

/// The board, one line per row, `Q` for a queen and `.` for an empty square.
pub fn board(columns: &[i32]) -> String {
    let n = columns.len();
    let mut text = String::new();
    for &c in columns {
        for col in 1..=n {
            text.push_str(if col as i32 == c { "Q " } else { ". " });
        }
        text.pop();
        text.push('\n');
    }
    text
}

const USAGE: &str = "usage: nqueens N [--count]   (N from 1 to 100000)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (n, counting) = match args.as_slice() {
        [n] => (n, false),
        [n, flag] if flag == "--count" => (n, true),
        _ => return usage(),
    };
    let Some(n) = n
        .parse::<usize>()
        .ok()
        .filter(|n| (1..=100_000).contains(n))
    else {
        return usage();
    };
    let start = std::time::Instant::now();
    let result = if counting {
        count(n, Strength::Value).map(|(solutions, stats)| {
            println!("{n}-queens: {solutions} solutions");
            println!("nodes: {}, failures: {}", stats.nodes, stats.failures);
        })
    } else {
        solve(n).map(|solution| match solution {
            Some(columns) if n <= 40 => print!("{}", board(&columns)),
            Some(columns) => {
                let list: Vec<String> = columns.iter().map(i32::to_string).collect();
                println!("queen columns by row: {}", list.join(" "));
            }
            None => println!("{n}-queens has no solution"),
        })
    };
    match result {
        Ok(()) => {
            println!("time: {:.3?}", start.elapsed());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("nqueens: {e}");
            ExitCode::FAILURE
        }
    }
}

fn usage() -> ExitCode {
    eprintln!("{USAGE}");
    ExitCode::from(2)
}
