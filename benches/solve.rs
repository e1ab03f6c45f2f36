//! Criterion benchmarks: Sudoku solving (first solution, and proven unique),
//! generation, and N-Queens counting. The puzzles are generated here from fixed
//! seeds, so the benchmarks need no files. Throughput against the anchors on the
//! shared puzzle files is measured by `scripts/compare-anchors.sh`.

use std::hint::black_box;

use alldiff::sudoku::{
    GenerateOptions, Grid, SolveResult, SolverOptions, SudokuSolver, Symmetry, generate,
    generate_with,
};
use alldiff::{Model, Solver, Strength};
use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};

/// Minimal puzzles (no clue can be removed): the hardest the generator makes.
fn minimal_puzzles(count: u64) -> Vec<Grid> {
    (0..count)
        .map(|seed| {
            let options = GenerateOptions {
                seed,
                minimal: true,
                symmetry: Symmetry::Rotate180,
                ..GenerateOptions::default()
            };
            generate(&options).expect("a minimal puzzle").puzzle
        })
        .collect()
}

fn sudoku(c: &mut Criterion) {
    let puzzles = minimal_puzzles(200);
    let mut solver = SudokuSolver::new();
    let mut group = c.benchmark_group("sudoku");
    group.throughput(Throughput::Elements(puzzles.len() as u64));
    group.bench_function("solve_first", |b| {
        b.iter(|| {
            for puzzle in &puzzles {
                black_box(solver.solve_first(puzzle).ok());
            }
        })
    });
    group.bench_function("solve_unique", |b| {
        b.iter(|| {
            for puzzle in &puzzles {
                let result = solver.solve(puzzle);
                debug_assert!(matches!(result, SolveResult::Unique(_)));
                black_box(result);
            }
        })
    });
    group.finish();

    // As the command line generates: one reused solver, singles only.
    let mut generator = SudokuSolver::with_options(SolverOptions::singles());
    let mut group = c.benchmark_group("generate");
    group.sample_size(20);
    let mut seed = 0;
    for (name, minimal, hints) in [("hints_30", false, Some(30)), ("minimal", true, None)] {
        group.bench_function(name, |b| {
            b.iter_batched(
                || {
                    seed += 1;
                    GenerateOptions {
                        seed,
                        minimal,
                        hints,
                        ..GenerateOptions::default()
                    }
                },
                |options| black_box(generate_with(&mut generator, &options).expect("generated")),
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

fn queens_model(n: usize) -> Model {
    let mut model = Model::new();
    let q = model.int_vars(n, 1, n as i32).expect("domain");
    let views = |offset: i32| {
        q.iter()
            .enumerate()
            .map(move |(i, &x)| x + offset * i as i32)
    };
    for offset in [0, 1, -1] {
        model
            .all_different_with(views(offset), Strength::Domain)
            .expect("views in range");
    }
    model
}

fn queens(c: &mut Criterion) {
    let mut group = c.benchmark_group("queens_count");
    group.sample_size(10);
    for n in [8, 10] {
        group.bench_function(format!("n{n}"), |b| {
            b.iter_batched(
                || Solver::new(queens_model(n)),
                |mut solver| black_box(solver.count(None)),
                BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, sudoku, queens);
criterion_main!(benches);
