//! Golomb rulers: `m` marks on a ruler, the first at 0, such that every two marks are a
//! different distance apart; the shortest such ruler is wanted (a minimisation).
//!
//! The marks ascend, `x[0] = 0 < x[1] < ... < x[m-1]`; each distance `x[j] - x[i]`
//! (`0 < i < j`) is a variable of its own, defined with `linear`, and the distances
//! are all different; a distance from mark 0 is the mark itself, as MiniZinc
//! flattens it (fewer variables and propagators, the same pruning). The mirror image of a ruler is a ruler of the same length, so the
//! first gap is asked to be shorter than the last. The search branches on the marks
//! only, smallest first ([`Phase`]): the distances follow by propagation. Branch and
//! bound ([`Solver::minimize`]) prints each shorter ruler as it is found, then the
//! optimum, proven.
//!
//! The all-different is propagated to domain consistency ([`Strength::Domain`]). The
//! distances are packed, so Hall intervals ([`Strength::Bounds`]) prune far more than
//! value elimination, and on these rulers Régin's matching explores the same nodes
//! as they do; it costs less, since the distances fit a window of at most 256 values,
//! where it runs on words. The same model is `benches/gecode/golomb.mzn`, for
//! `scripts/compare-gecode.sh`.
//!
//! ```text
//! cargo run --release --example golomb_ruler -- 8     # length 34: 0 1 4 9 15 22 32 34
//! ```

use std::process::ExitCode;

use alldiff::{
    Model, ModelError, OptimizeOutcome, Phase, Relation, Solver, Statistics, Strength, ValueOrder,
    VarId, VariableOrder,
};

/// The Golomb ruler model and its variables.
pub struct Golomb {
    /// The model.
    pub model: Model,
    /// The marks, ascending; `marks[0]` is 0 and the last is the length.
    pub marks: Vec<VarId>,
}

/// Builds the model for `m` marks (at least 2), each at most `m * m` (longer than
/// any optimal ruler), the all-different propagated with `strength`.
pub fn golomb(m: usize, strength: Strength) -> Result<Golomb, ModelError> {
    let mut model = Model::new();
    let longest = i32::try_from(m * m).unwrap_or(i32::MAX);
    // j - i gaps, all different, are at least 1 + 2 + ... + (j - i) long.
    let least = |gaps: usize| {
        let gaps = i32::try_from(gaps).unwrap_or(i32::MAX);
        gaps.saturating_mul(gaps.saturating_add(1)) / 2
    };
    let mut marks = vec![model.int_var(0, 0)?];
    for j in 1..m {
        // Mark j is its distance from mark 0, so it is at least that long.
        marks.push(model.int_var(least(j), longest)?);
    }
    for pair in marks.windows(2).skip(1) {
        // x[i] - x[i+1] <= -1 (x[0] < x[1] holds by the domains).
        model.linear([(1, pair[0]), (-1, pair[1])], Relation::LessEq, -1)?;
    }
    // The distances from mark 0 are the marks themselves, as MiniZinc makes them.
    let mut distances = marks[1..].to_vec();
    for i in 1..m {
        for j in i + 1..m {
            let d = model.int_var(least(j - i), longest)?;
            model.linear([(1, marks[j]), (-1, marks[i]), (-1, d)], Relation::Equal, 0)?;
            distances.push(d);
        }
    }
    model.all_different_with(distances.iter().copied(), strength)?;
    if m >= 3 {
        // The first gap is shorter than the last (they differ: all distances do).
        let (first, last) = (distances[0], *distances.last().expect("m >= 3"));
        model.linear([(1, first), (-1, last)], Relation::LessEq, -1)?;
    }
    Ok(Golomb { model, marks })
}

/// The marks of an optimal ruler with `m` marks, calling `on_ruler` with each shorter
/// ruler as it is found (the optimal one last); `None` if there is none (never, for
/// `m >= 2`). With them, the statistics of the whole search, the proof included.
pub fn solve(
    m: usize,
    strength: Strength,
    mut on_ruler: impl FnMut(&[i32]),
) -> Result<(Option<Vec<i32>>, Statistics), ModelError> {
    let Golomb { model, marks } = golomb(m, strength)?;
    let mut solver = Solver::new(model);
    solver.set_phases([Phase::new(marks.iter().copied())
        .variable_order(VariableOrder::InputOrder)
        .value_order(ValueOrder::Ascending)])?;
    let length = *marks.last().expect("at least one mark");
    let mut optimization = solver.minimize(length)?;
    for improvement in optimization.by_ref().flatten() {
        let ruler: Vec<i32> = marks.iter().map(|&x| improvement.solution[x]).collect();
        on_ruler(&ruler);
    }
    let statistics = optimization.statistics().clone();
    let best = match optimization.finish() {
        OptimizeOutcome::Optimal(best) => Some(marks.iter().map(|&x| best.solution[x]).collect()),
        // No limit is set: the search ends with the optimum or with none.
        OptimizeOutcome::Unsatisfiable | OptimizeOutcome::Stopped { .. } => None,
    };
    Ok((best, statistics))
}

#[path = "shared/args.rs"]
#[allow(
    clippy::duplicate_mod,
    reason = "tests/examples.rs includes several examples"
)]
mod args;

const USAGE: &str = "usage: golomb_ruler M   (marks, from 2 to 12)";

fn main() -> ExitCode {
    let Some(m) = args::size(USAGE, 2..=12) else {
        return ExitCode::from(2);
    };
    let start = std::time::Instant::now();
    let show = |ruler: &[i32]| {
        ruler
            .iter()
            .map(i32::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };
    let result = solve(m, Strength::Domain, |ruler| {
        println!("length {}: {}", ruler.last().unwrap_or(&0), show(ruler));
    });
    match result {
        Ok((None, _)) => {
            println!("no ruler with {m} marks");
            ExitCode::FAILURE
        }
        Ok((Some(ruler), stats)) => {
            println!(
                "optimal: length {}: {}",
                ruler.last().unwrap_or(&0),
                show(&ruler)
            );
            println!("nodes: {}, failures: {}", stats.nodes, stats.failures);
            println!("time: {:.3?}", start.elapsed());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("golomb_ruler: {e}");
            ExitCode::FAILURE
        }
    }
}
