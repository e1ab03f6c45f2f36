//! What the `tracing` instrumentation costs when nobody listens. Run with and without
//! `--features trace-off` (which compiles every callsite out) and compare:
//!
//! ```text
//! cargo test --release --test overhead -- --ignored --nocapture
//! cargo test --release --features trace-off --test overhead -- --ignored --nocapture
//! ```

use std::time::Instant;

mod common;

use alldiff::{Solver, Strength};

#[test]
#[ignore = "a timing, run by hand in release mode"]
fn count_ten_queens() {
    let (model, _) = common::queens(10, Strength::Value);
    let mut solver = Solver::new(model);
    // Eleven counts in one run; the median resists a busy machine's preemptions.
    let mut times: Vec<f64> = (0..11)
        .map(|_| {
            let start = Instant::now();
            let count = solver.count(None);
            let elapsed = start.elapsed();
            assert_eq!(count.solutions, 724);
            elapsed.as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    println!(
        "10-queens: {} nodes, median of 11 counts {:.3} ms",
        solver.statistics().nodes,
        times[times.len() / 2]
    );
}

#[test]
#[cfg(feature = "trace")]
#[ignore = "a timing, run by hand in release mode"]
fn count_ten_queens_recording_a_trace() {
    let (model, _) = common::queens(10, Strength::Value);
    let mut solver = Solver::new(model);
    let mut bytes = 0;
    let mut times: Vec<f64> = (0..5)
        .map(|_| {
            let mut file = Vec::new();
            let start = Instant::now();
            let (count, written) =
                alldiff::trace::count_traced(&mut solver, "10-queens", &mut file, None, None)
                    .unwrap();
            let elapsed = start.elapsed();
            assert_eq!(count.solutions, 724);
            assert!(!written.truncated());
            bytes = file.len();
            elapsed.as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    println!(
        "10-queens traced: {bytes} bytes, median of 5 counts {:.3} ms",
        times[times.len() / 2]
    );
}
