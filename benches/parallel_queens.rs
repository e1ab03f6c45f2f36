//! One search on one thread and on several, alternating, with the median times and
//! the speed-up: counting the N-Queens solutions, or proving a Golomb ruler optimal.
//!
//! `cargo bench --bench parallel_queens -- [golomb] SIZE THREADS [RUNS]`
//!
//! Without `golomb`, counts the solutions on a SIZE×SIZE board (14: 365,596); with it,
//! minimises the length of a ruler of SIZE marks (10: 55). The models and searches are
//! the examples' (`examples/nqueens.rs`, all-different by value;
//! `examples/golomb_ruler.rs`, by bounds, branching on the marks in order). Each of the
//! RUNS rounds (3 by default) runs one thread, then THREADS threads
//! ([`alldiff::ParallelSolver`]); the answers must agree. Prints each run's wall time,
//! CPU time (all threads, from `/proc/self/stat`, where there is one) and nodes, then
//! the medians and their ratio. On a loaded machine the wall times understate the
//! speed-up; the CPU times still show the work the split adds.

use std::time::{Duration, Instant};

use alldiff::{
    OptimizeOutcome, ParallelSolver, Phase, Solver, Statistics, Strength, ValueOrder, VariableOrder,
};

#[allow(dead_code)]
#[path = "../examples/golomb_ruler.rs"]
mod golomb_ruler;

#[allow(dead_code)]
#[path = "../examples/nqueens.rs"]
mod nqueens;

const USAGE: &str = "usage: parallel_queens [golomb] SIZE THREADS [RUNS]";

/// The solver for the problem, as the example builds it.
fn build(golomb: bool, size: usize) -> Solver {
    if golomb {
        let ruler = golomb_ruler::golomb(size, Strength::Bounds).expect("a valid size");
        let mut solver = Solver::new(ruler.model);
        let phase = Phase::new(ruler.marks.iter().copied())
            .variable_order(VariableOrder::InputOrder)
            .value_order(ValueOrder::Ascending);
        solver.set_phases([phase]).expect("the model's marks");
        solver
    } else {
        let queens = nqueens::queens(size, Strength::Value).expect("a valid size");
        Solver::new(queens.model)
    }
}

/// The CPU time of the process so far, in seconds (all its threads, the finished
/// ones included): user plus system time from `/proc/self/stat`, in ticks of 1/100 s
/// (Linux's `USER_HZ`); 0 where there is no such file.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The fields after the command's closing parenthesis; utime and stime are the
    // 14th and 15th of the line, the 12th and 13th after it.
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let ticks: u64 = (after.split_whitespace().skip(11).take(2))
        .filter_map(|t| t.parse::<u64>().ok())
        .sum();
    ticks as f64 / 100.0
}

/// One run on `threads` threads: the answer (the count or the optimum), the
/// statistics, the wall time and the CPU seconds.
fn run(golomb: bool, size: usize, threads: usize) -> (i64, Statistics, Duration, f64) {
    let (start, cpu) = (Instant::now(), cpu_seconds());
    let mut parallel = ParallelSolver::new(threads, || build(golomb, size));
    let answer = if golomb {
        let length = build(golomb, size).model().vars().nth(size - 1);
        let length = length.expect("the last mark");
        match parallel.minimize(length).expect("the model's variable") {
            OptimizeOutcome::Optimal(best) => best.objective,
            other => panic!("no optimum: {other:?}"),
        }
    } else {
        i64::try_from(parallel.count(None).solutions).expect("a count below 2^63")
    };
    let stats = parallel.statistics().clone();
    (answer, stats, start.elapsed(), cpu_seconds() - cpu)
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // `cargo bench` appends `--bench`.
    let mut args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|arg| arg != "--bench")
        .collect();
    let golomb = args.first().is_some_and(|a| a == "golomb");
    if golomb {
        args.remove(0);
    }
    let number = |i: usize, default: Option<usize>| -> Result<usize, &str> {
        match args.get(i) {
            Some(arg) => arg.parse().map_err(|_| USAGE),
            None => default.ok_or(USAGE),
        }
    };
    let (size, threads, runs) = (number(0, None)?, number(1, None)?, number(2, Some(3))?);
    if size < 2 || runs == 0 {
        return Err(USAGE.into());
    }
    let (mut one, mut many) = (Vec::new(), Vec::new());
    for round in 1..=runs {
        let (answer1, stats1, time1, cpu1) = run(golomb, size, 1);
        let (answer, stats, time, cpu) = run(golomb, size, threads);
        if answer != answer1 {
            return Err(
                format!("{threads} threads answered {answer}, one thread {answer1}").into(),
            );
        }
        println!(
            "round {round}: answer {answer}; 1 thread {:.3} s (CPU {cpu1:.2} s), {} nodes; \
             {threads} threads {:.3} s (CPU {cpu:.2} s), {} nodes",
            time1.as_secs_f64(),
            stats1.nodes,
            time.as_secs_f64(),
            stats.nodes
        );
        one.push(time1);
        many.push(time);
    }
    let (one, many) = (median(&mut one), median(&mut many));
    println!(
        "median: 1 thread {:.3} s, {threads} threads {:.3} s, speed-up {:.2}x",
        one.as_secs_f64(),
        many.as_secs_f64(),
        one.as_secs_f64() / many.as_secs_f64()
    );
    Ok(())
}
