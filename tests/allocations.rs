//! The search loop allocates nothing: once a solver has run, its buffers, queue and
//! trail are reused. Run with `cargo test --features count-allocations --test allocations`.
#![cfg(feature = "count-allocations")]

mod common;

use alldiff::sudoku::{Grid, SolveResult, SudokuSolver};
use alldiff::{Solver, Strength};

#[test]
fn counting_queens_again_allocates_nothing() {
    for strength in [Strength::Value, Strength::HiddenSingles, Strength::Domain] {
        let (model, _) = common::queens(8, strength);
        let mut solver = Solver::new(model);
        assert_eq!(solver.count(None).solutions, 92); // warms the buffers up
        let info = allocation_counter::measure(|| {
            assert_eq!(solver.count(None).solutions, 92);
        });
        assert_eq!(info.count_total, 0, "{strength:?}: {info:?}");
    }
}

#[test]
fn a_sudoku_batch_allocates_only_the_answers() {
    let puzzles = [
        "3.65.84..52........87....31..3.1..8.9..863..5.5..9.6..13....25........74..52.63..",
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
    ]
    .map(|p| Grid::parse(p).unwrap());
    let mut solver = SudokuSolver::new();
    for puzzle in &puzzles {
        assert!(matches!(solver.solve(puzzle), SolveResult::Unique(_)));
    }
    for puzzle in &puzzles {
        let info = allocation_counter::measure(|| {
            assert!(matches!(solver.count(puzzle, Some(2)).solutions, 1));
        });
        assert_eq!(info.count_total, 0, "{info:?}");
    }
}
