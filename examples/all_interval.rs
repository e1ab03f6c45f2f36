//! All-interval series (CSPLib 007): a permutation of `0..n` whose adjacent differences
//! `|x[i+1] - x[i]|` are a permutation of `1..n`; the example counts them all.
//!
//! The series is all-different, and so are the intervals. Each interval is stated in one
//! of two ways ([`Intervals`]): as MiniZinc flattens `abs(x[i+1] - x[i])`, a variable for
//! the step `x[i+1] - x[i]`, defined with `linear`, and the interval its absolute value
//! ([`Model::abs`]) (the same model is `benches/gecode/all_interval.mzn`, for
//! `scripts/compare-gecode.sh`); or directly, [`Model::abs_difference`], one propagator
//! that also prunes the holes the step's bounds cannot carry back to the series, so the
//! search is smaller. The search branches on the series in order, smallest value first
//! ([`Phase`]). No symmetry is broken: a series reversed, or with each value `v` replaced
//! by `n - 1 - v`, is another series, so the count is a multiple of 4 from `n = 3` on.
//! The program counts with the direct form.
//!
//! ```text
//! cargo run --release --example all_interval -- 11    # 648 series
//! ```

use std::process::ExitCode;

use alldiff::{
    Model, ModelError, Outcome, Phase, Relation, Solver, Statistics, Strength, ValueOrder, VarId,
    VariableOrder,
};

/// How each interval `|x[i+1] - x[i]|` is stated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Intervals {
    /// As MiniZinc flattens it: a step variable, `linear` and [`Model::abs`].
    Flattened,
    /// One [`Model::abs_difference`] per interval.
    AbsDifference,
}

/// The all-interval model and its variables.
pub struct AllInterval {
    /// The model.
    pub model: Model,
    /// The series, a permutation of `0..n`.
    pub series: Vec<VarId>,
    /// `intervals[i] = |series[i+1] - series[i]|`, a permutation of `1..n`.
    pub intervals: Vec<VarId>,
}

/// Builds the model for series of length `n` (at least 1), both all-different
/// constraints propagated with `strength`, the intervals stated as `intervals` says.
pub fn all_interval(
    n: usize,
    strength: Strength,
    intervals_as: Intervals,
) -> Result<AllInterval, ModelError> {
    let top = i32::try_from(n.max(1) - 1).unwrap_or(i32::MAX);
    let mut model = Model::new();
    let series = model.int_vars(n, 0, top)?;
    let mut intervals = Vec::with_capacity(n.saturating_sub(1));
    for pair in series.windows(2) {
        let interval = model.int_var(1, top)?;
        match intervals_as {
            Intervals::Flattened => {
                let step = model.int_var(-top, top)?;
                // step = x[i+1] - x[i].
                model.linear(
                    [(1, pair[1]), (-1, pair[0]), (-1, step)],
                    Relation::Equal,
                    0,
                )?;
                model.abs(step, interval)?;
            }
            Intervals::AbsDifference => {
                model.abs_difference(pair[1], pair[0], interval)?;
            }
        }
        intervals.push(interval);
    }
    model.all_different_with(series.iter().copied(), strength)?;
    if !intervals.is_empty() {
        model.all_different_with(intervals.iter().copied(), strength)?;
    }
    Ok(AllInterval {
        model,
        series,
        intervals,
    })
}

/// The solver of the model for length `n`, branching on the series in order, smallest
/// value first.
pub fn solver(
    n: usize,
    strength: Strength,
    intervals: Intervals,
) -> Result<(Solver, Vec<VarId>), ModelError> {
    let AllInterval { model, series, .. } = all_interval(n, strength, intervals)?;
    let mut solver = Solver::new(model);
    solver.set_phases([Phase::new(series.iter().copied())
        .variable_order(VariableOrder::InputOrder)
        .value_order(ValueOrder::Ascending)])?;
    Ok((solver, series))
}

/// The number of all-interval series of length `n`, and the search's statistics.
pub fn count(
    n: usize,
    strength: Strength,
    intervals: Intervals,
) -> Result<(u64, Statistics), ModelError> {
    let (mut solver, _) = solver(n, strength, intervals)?;
    let count = solver.count(None);
    Ok((count.solutions, solver.statistics().clone()))
}

/// The first series of length `n` in the search's order (lexicographically smallest),
/// or `None` if there is none.
pub fn first(
    n: usize,
    strength: Strength,
    intervals: Intervals,
) -> Result<Option<Vec<i32>>, ModelError> {
    let (mut solver, series) = solver(n, strength, intervals)?;
    Ok(match solver.solve() {
        Outcome::Solved(s) => Some(series.iter().map(|&x| s[x]).collect()),
        Outcome::Unsatisfiable | Outcome::Stopped(_) => None,
    })
}

#[path = "shared/args.rs"]
#[allow(
    clippy::duplicate_mod,
    reason = "tests/examples.rs includes several examples"
)]
mod args;

const USAGE: &str = "usage: all_interval N   (length, from 1 to 30)";

fn main() -> ExitCode {
    let Some(n) = args::size(USAGE, 1..=30) else {
        return ExitCode::from(2);
    };
    let start = std::time::Instant::now();
    let result = first(n, Strength::Domain, Intervals::AbsDifference).and_then(|series| {
        if let Some(series) = series {
            let text: Vec<String> = series.iter().map(i32::to_string).collect();
            println!("first: {}", text.join(" "));
        }
        count(n, Strength::Domain, Intervals::AbsDifference)
    });
    match result {
        Ok((solutions, stats)) => {
            println!("{solutions} all-interval series of length {n}");
            println!("nodes: {}, failures: {}", stats.nodes, stats.failures);
            println!("time: {:.3?}", start.elapsed());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("all_interval: {e}");
            ExitCode::FAILURE
        }
    }
}
