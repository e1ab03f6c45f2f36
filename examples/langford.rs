//! Langford pairings L(2, n) (CSPLib 024): a row of `2n` places holds `1..=n` twice each,
//! the two copies of `k` with exactly `k` other numbers between them; the example counts
//! the pairings up to reversal.
//!
//! `first[k-1]` is the place (from 1) of the first copy of `k`; the second copy is at
//! `first[k-1] + k + 1`, a view ([`View`]) rather than a variable, and the `2n` places are
//! all different. A pairing read backwards is a pairing, with the first 1 moved from place
//! `p` to place `2n - 1 - p`; the two differ in parity, so asking for `p <= n - 1` keeps
//! exactly one pairing of each mirror pair. The search takes the smallest domain first,
//! smallest value first (the same model is `benches/gecode/langford.mzn`, for
//! `scripts/compare-gecode.sh`). Pairings exist only when `n % 4` is 0 or 3.
//!
//! ```text
//! cargo run --release --example langford -- 11    # 17,792 pairings up to reversal
//! ```

use std::process::ExitCode;

use alldiff::{Model, ModelError, Outcome, Solver, Statistics, Strength, VarId, View};

/// The Langford model and its variables.
pub struct Langford {
    /// The model.
    pub model: Model,
    /// `first[k-1]` is the place, from 1, of the first copy of `k`.
    pub first: Vec<VarId>,
}

/// Builds the model for `n` pairs, the all-different propagated with `strength`.
///
/// # Errors
///
/// [`ModelError::EmptyDomain`] for `n = 1`, where no place is left for the first 1
/// (no pairing of 1 exists; for 2 the model has no solution).
pub fn langford(n: usize, strength: Strength) -> Result<Langford, ModelError> {
    let n32 = i32::try_from(n).unwrap_or(i32::MAX / 4);
    let mut model = Model::new();
    let mut first = Vec::with_capacity(n);
    for k in 1..=n32 {
        // The second copy, at first + k + 1, is at most 2n; the mirror image of a
        // pairing has its first 1 at 2n - 1 - p, so p <= n - 1 keeps one of the two.
        let last = if k == 1 {
            n32 - 1
        } else {
            n32.saturating_mul(2) - k - 1
        };
        first.push(model.int_var(1, last)?);
    }
    let places: Vec<View> = first
        .iter()
        .map(|&p| View::from(p))
        .chain(first.iter().zip(2..).map(|(&p, gap)| p + gap))
        .collect();
    model.all_different_with(places, strength)?;
    Ok(Langford { model, first })
}

/// The number of Langford pairings of `n` up to reversal, and the search's statistics.
pub fn count(n: usize, strength: Strength) -> Result<(u64, Statistics), ModelError> {
    let Langford { model, .. } = langford(n, strength)?;
    let mut solver = Solver::new(model);
    let count = solver.count(None);
    Ok((count.solutions, solver.statistics().clone()))
}

/// The row of `2n` numbers of the first pairing found, or `None` if there is none.
pub fn first_pairing(n: usize, strength: Strength) -> Result<Option<Vec<usize>>, ModelError> {
    let Langford { model, first } = langford(n, strength)?;
    let Outcome::Solved(s) = Solver::new(model).solve() else {
        return Ok(None);
    };
    let mut row = vec![0; 2 * n];
    for (k, &p) in (1..).zip(&first) {
        let place = usize::try_from(s[p] - 1).expect("places start at 1");
        row[place] = k;
        row[place + k + 1] = k;
    }
    Ok(Some(row))
}

#[path = "shared/args.rs"]
#[allow(
    clippy::duplicate_mod,
    reason = "tests/examples.rs includes several examples"
)]
mod args;

const USAGE: &str = "usage: langford N   (pairs, from 3 to 30)";

fn main() -> ExitCode {
    let Some(n) = args::size(USAGE, 3..=30) else {
        return ExitCode::from(2);
    };
    let start = std::time::Instant::now();
    let result = first_pairing(n, Strength::Domain).and_then(|row| {
        match row {
            Some(row) => {
                let text: Vec<String> = row.iter().map(usize::to_string).collect();
                println!("first: {}", text.join(" "));
            }
            None => println!("no pairing of {n}"),
        }
        count(n, Strength::Domain)
    });
    match result {
        Ok((pairings, stats)) => {
            println!("{pairings} Langford pairings of {n} up to reversal");
            println!("nodes: {}, failures: {}", stats.nodes, stats.failures);
            println!("time: {:.3?}", start.elapsed());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("langford: {e}");
            ExitCode::FAILURE
        }
    }
}
