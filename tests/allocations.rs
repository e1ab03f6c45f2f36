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

#[test]
fn a_deep_wide_sum_keeps_memory_by_its_width_not_its_depth() {
    // 3,000 variables over 0..=10,000,000, neighbours different, their sum 20,000:
    // each of the 3,000 levels lowers the maximum of every unfixed variable, 2.25M
    // bound changes in all. Kept one by one (by the store's trail and the sum's own
    // log), they took 80 MB; the store keeps like changes as runs and the sum drops
    // its log past a few entries a term.
    use alldiff::{Model, Outcome, Relation, SearchConfig, VariableOrder};
    let n = 3000;
    let mut model = Model::new();
    let x = model.int_vars(n, 0, 10_000_000).unwrap();
    for pair in x.windows(2) {
        model.not_equal(pair[0], pair[1]).unwrap();
    }
    model
        .linear(x.iter().map(|&v| (1, v)), Relation::Equal, 20_000)
        .unwrap();
    let config = SearchConfig::new().variable_order(VariableOrder::InputOrder);
    let mut solver = Solver::with_config(model, config);
    let info = allocation_counter::measure(|| {
        let Outcome::Solved(s) = solver.solve() else {
            panic!("the sum has solutions");
        };
        assert_eq!(x.iter().map(|&v| i64::from(s[v])).sum::<i64>(), 20_000);
    });
    assert!(info.bytes_max < 8 << 20, "{info:?}");
}
