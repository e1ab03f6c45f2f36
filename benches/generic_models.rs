//! One search of a generic model, with its answer and statistics printed as MiniZinc
//! prints them, so that `scripts/compare-gecode.sh` reads this and Gecode alike.
//!
//! `cargo bench --bench generic_models -- MODEL SIZE STRENGTH`
//!
//! MODEL is `golomb` (minimise the length of a ruler of SIZE marks), `all_interval`
//! (count the series of length SIZE, the intervals as MiniZinc flattens them),
//! `all_interval_fused` (the same with [`alldiff::Model::abs_difference`]; Gecode has
//! no such propagator, so `scripts/compare-gecode.sh` runs the flattened one), `langford` (count the pairings of SIZE up to
//! reversal) or `queens` (count the solutions on a SIZE×SIZE board); STRENGTH is the
//! all-different's, `value`, `bounds` or `domain`. The models and searches are the
//! examples' (`examples/golomb_ruler.rs`, ...); `benches/gecode/*.mzn` are the same models
//! in MiniZinc. Prints `answer=` (the optimum or the count), then the `%%%mzn-stat:`
//! lines of [`alldiff::Statistics`].

use all_interval::Intervals::{AbsDifference, Flattened};
use alldiff::{Statistics, Strength};

#[allow(dead_code)]
#[path = "../examples/golomb_ruler.rs"]
mod golomb_ruler;

#[allow(dead_code)]
#[path = "../examples/all_interval.rs"]
mod all_interval;

#[allow(dead_code)]
#[path = "../examples/langford.rs"]
mod langford;

#[allow(dead_code)]
#[path = "../examples/nqueens.rs"]
mod nqueens;

const USAGE: &str = "usage: generic_models golomb|all_interval|all_interval_fused|langford|queens SIZE value|bounds|domain";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // `cargo bench` appends `--bench`.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|arg| arg != "--bench")
        .collect();
    let [model, size, strength] = args.as_slice() else {
        return Err(USAGE.into());
    };
    let size: usize = size.parse().map_err(|_| USAGE)?;
    let strength = match strength.as_str() {
        "value" => Strength::Value,
        "bounds" => Strength::Bounds,
        "domain" => Strength::Domain,
        _ => return Err(USAGE.into()),
    };
    let (answer, stats): (i64, Statistics) = match model.as_str() {
        "golomb" => {
            let (marks, stats) = golomb_ruler::solve(size, strength, |_| {})?;
            let length = marks.and_then(|m| m.last().copied()).ok_or("no ruler")?;
            (i64::from(length), stats)
        }
        "all_interval" => counted(all_interval::count(size, strength, Flattened)?),
        "all_interval_fused" => counted(all_interval::count(size, strength, AbsDifference)?),
        "langford" => counted(langford::count(size, strength)?),
        "queens" => counted(nqueens::count(size, strength)?),
        _ => return Err(USAGE.into()),
    };
    println!("answer={answer}");
    println!("{stats}");
    Ok(())
}

/// A count as an answer.
fn counted((count, stats): (u64, Statistics)) -> (i64, Statistics) {
    (i64::try_from(count).unwrap_or(i64::MAX), stats)
}
