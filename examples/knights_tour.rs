//! A closed knight's tour: a knight visits every square of an N×N board once, by
//! knight moves, and its last move leads back to the first square.
//!
//! One successor variable per square, numbered row by row from 0: `next[s]` is the
//! square the knight jumps to from `s`, so its domain is the knight moves from `s`.
//! The tour is one Hamiltonian cycle of these successors: [`Model::circuit`]. The
//! search branches on the square with the fewest moves left (first fail, the idea
//! behind Warnsdorff's rule).
//!
//! ```text
//! cargo run --release --example knights_tour -- 8
//! ```
//!
//! A closed tour needs an even number of squares (every move changes the square's
//! colour) and N of at least 6.

use std::process::ExitCode;

use alldiff::{Model, ModelError, Outcome, Solver, VarId};

/// The eight knight moves as (row, column) steps.
const MOVES: [(i32, i32); 8] = [
    (-2, -1),
    (-2, 1),
    (-1, -2),
    (-1, 2),
    (1, -2),
    (1, 2),
    (2, -1),
    (2, 1),
];

/// The squares a knight reaches from `square` on an `n`×`n` board, ascending.
pub fn moves(n: usize, square: usize) -> Vec<usize> {
    let side = n as i32;
    let (row, col) = ((square / n) as i32, (square % n) as i32);
    let mut to: Vec<usize> = MOVES
        .iter()
        .map(|&(dr, dc)| (row + dr, col + dc))
        .filter(|&(r, c)| (0..side).contains(&r) && (0..side).contains(&c))
        .map(|(r, c)| (r * side + c) as usize)
        .collect();
    to.sort_unstable();
    to
}

/// The model: a successor variable per square, its domain the knight moves.
pub fn model(n: usize) -> Result<(Model, Vec<VarId>), ModelError> {
    let mut model = Model::new();
    let next = (0..n * n)
        .map(|s| model.var_from_values(moves(n, s).into_iter().map(|t| t as i32)))
        .collect::<Result<Vec<VarId>, ModelError>>()?;
    model.circuit(next.iter().copied(), 0)?;
    Ok((model, next))
}

/// A closed tour as the squares in visiting order from square 0, or `None` if the
/// board has none.
pub fn tour(n: usize) -> Result<Option<Vec<usize>>, ModelError> {
    // On the smallest boards some square has no move at all.
    if (0..n * n).any(|s| moves(n, s).is_empty()) {
        return Ok(None);
    }
    let (model, next) = model(n)?;
    let mut solver = Solver::new(model);
    let Outcome::Solved(solution) = solver.solve() else {
        return Ok(None);
    };
    let mut order = vec![0];
    while order.len() < n * n {
        let last = *order.last().expect("starts with square 0");
        order.push(solution[next[last]] as usize);
    }
    Ok(Some(order))
}

/// Checks a tour: every square once, and every move, the closing one too, a knight
/// move. The error says what is wrong.
pub fn verify(n: usize, order: &[usize]) -> Result<(), String> {
    if order.len() != n * n {
        return Err(format!("{} squares visited, not {}", order.len(), n * n));
    }
    let mut seen = vec![false; n * n];
    for &s in order {
        if s >= n * n || std::mem::replace(&mut seen[s], true) {
            return Err(format!("square {s} is off the board or visited twice"));
        }
    }
    for (i, &from) in order.iter().enumerate() {
        let to = order[(i + 1) % order.len()];
        let (dr, dc) = ((from / n).abs_diff(to / n), (from % n).abs_diff(to % n));
        if !matches!((dr, dc), (1, 2) | (2, 1)) {
            return Err(format!("{from} -> {to} is not a knight move"));
        }
    }
    Ok(())
}

/// The board with each square's move number (from 1), one line per row.
pub fn board(n: usize, order: &[usize]) -> String {
    let mut number = vec![0; n * n];
    for (i, &s) in order.iter().enumerate() {
        number[s] = i + 1;
    }
    let width = (n * n).to_string().len();
    number
        .chunks(n)
        .map(|row| {
            let cells: Vec<String> = row.iter().map(|k| format!("{k:>width$}")).collect();
            cells.join(" ") + "\n"
        })
        .collect()
}

#[path = "shared/args.rs"]
#[allow(
    clippy::duplicate_mod,
    reason = "tests/examples.rs includes several examples"
)]
mod args;

const USAGE: &str = "usage: knights_tour N   (N from 1 to 30)";

fn main() -> ExitCode {
    let Some(n) = args::size(USAGE, 1..=30) else {
        return ExitCode::from(2);
    };
    let start = std::time::Instant::now();
    match tour(n) {
        Ok(Some(order)) => {
            print!("{}", board(n, &order));
            match verify(n, &order) {
                Ok(()) => println!("verified: every square once, every move a knight move"),
                Err(e) => {
                    eprintln!("knights_tour: invalid tour: {e}");
                    return ExitCode::FAILURE;
                }
            }
        }
        Ok(None) => println!("no closed knight's tour on a {n}x{n} board"),
        Err(e) => {
            eprintln!("knights_tour: {e}");
            return ExitCode::FAILURE;
        }
    }
    println!("time: {:.3?}", start.elapsed());
    ExitCode::SUCCESS
}
