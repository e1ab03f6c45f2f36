//! Magic squares: fill an N×N square with 1 to N² so that every row, column and both
//! diagonals add up to the same number, `N·(N² + 1)/2`.
//!
//! The numbers are all different (propagated with full domain consistency), and each line
//! is a linear equation posted with [`Model::sum`].
//!
//! ```text
//! cargo run --release --example magic_square -- 3   # a square, and all 8 of them counted
//! cargo run --release --example magic_square -- 9   # a square only (N up to 12)
//! ```

use std::process::ExitCode;

use alldiff::{
    Model, ModelError, Outcome, Relation, Restarts, SearchConfig, Solver, Strength, ValueOrder,
    VarId,
};

/// The largest N for which the example counts every square.
pub const COUNT_UP_TO: usize = 3;

/// The model and its cells, row by row.
pub struct Magic {
    /// The model.
    pub model: Model,
    /// `cells[row][col]`.
    pub cells: Vec<Vec<VarId>>,
}

/// Builds the model of an `n`×`n` magic square.
pub fn magic(n: usize) -> Result<Magic, ModelError> {
    let side = i32::try_from(n).unwrap_or(i32::MAX);
    let top = side.checked_mul(side).unwrap_or(i32::MAX);
    let total = (i64::from(side) * (i64::from(top) + 1) / 2)
        .try_into()
        .unwrap_or(i32::MAX);
    let mut model = Model::new();
    let cells: Vec<Vec<VarId>> = (0..n)
        .map(|_| model.int_vars(n, 1, top))
        .collect::<Result<_, _>>()?;
    model.all_different_with(cells.iter().flatten().copied(), Strength::Domain)?;
    for i in 0..n {
        model.sum(cells[i].iter().copied(), Relation::Equal, total)?;
        model.sum(cells.iter().map(|row| row[i]), Relation::Equal, total)?;
    }
    model.sum((0..n).map(|i| cells[i][i]), Relation::Equal, total)?;
    model.sum((0..n).map(|i| cells[i][n - 1 - i]), Relation::Equal, total)?;
    Ok(Magic { model, cells })
}

/// One magic square, row by row, or `None` if there is none.
///
/// As in the N-Queens example, the search picks values at random and restarts
/// ([`Solver::set_restarts`]), which keeps it from getting lost in one fruitless
/// subtree; `None` is still a proof.
pub fn solve(n: usize) -> Result<Option<Vec<Vec<i32>>>, ModelError> {
    let Magic { model, cells } = magic(n)?;
    let mut solver = Solver::with_config(
        model,
        SearchConfig::new().value_order(ValueOrder::Random(0)),
    );
    solver.set_restarts(Some(Restarts::geometric(64, 2.0)));
    match solver.solve() {
        Outcome::Solved(s) => {
            let rows = cells.iter().map(|row| row.iter().map(|&c| s[c]).collect());
            Ok(Some(rows.collect()))
        }
        // No limit is set, so only a completed search ends the restarts.
        Outcome::Unsatisfiable | Outcome::Stopped(_) => Ok(None),
    }
}

/// The number of `n`×`n` magic squares (rotations and reflections counted apart).
pub fn count(n: usize) -> Result<u64, ModelError> {
    let Magic { model, .. } = magic(n)?;
    Ok(Solver::new(model).count(None).solutions)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n = match args.as_slice() {
        [] => 3,
        [n] => match n.parse::<usize>() {
            Ok(n) if (1..=12).contains(&n) => n,
            _ => return usage(),
        },
        _ => return usage(),
    };
    let result = solve(n).and_then(|square| {
        match square {
            Some(rows) => {
                let width = (n * n).to_string().len();
                for row in rows {
                    let cells: Vec<String> = row.iter().map(|v| format!("{v:>width$}")).collect();
                    println!("{}", cells.join(" "));
                }
            }
            None => println!("there is no {n}x{n} magic square"),
        }
        if n <= COUNT_UP_TO {
            println!("{n}x{n} magic squares: {}", count(n)?);
        }
        Ok(())
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("magic_square: {e}");
            ExitCode::FAILURE
        }
    }
}

fn usage() -> ExitCode {
    eprintln!("usage: magic_square [N]   (N from 1 to 12, default 3)");
    ExitCode::from(2)
}
