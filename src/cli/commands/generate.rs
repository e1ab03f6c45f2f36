//! `alldiff generate`: new puzzles, reproducible from a seed, generated on
//! every thread and written in order.

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher as _;
use std::io::{self, BufWriter, IsTerminal as _, Write as _};
use std::process::ExitCode;
use std::time::{SystemTime, UNIX_EPOCH};

use alldiff::sudoku::{
    GenerateError, GenerateOptions, Generated, Removal, SolverOptions, SudokuSolver, generate_with,
};
use anyhow::Context as _;
use rayon::prelude::*;
use serde_json::json;

use crate::cli::report::{EXIT_FAILURE, EXIT_SUCCESS};
use crate::cli::{Format, GenerateArgs};

/// Puzzles generated per thread before a batch of results is written.
const PER_THREAD: u64 = 8;

/// Generates `--count` puzzles; puzzle `i` uses seed `seed + i`.
pub(crate) fn generate(args: GenerateArgs) -> anyhow::Result<ExitCode> {
    let seed = args.seed.unwrap_or_else(random_seed);
    if args.seed.is_none() && io::stderr().is_terminal() {
        eprintln!("alldiff: seed {seed}");
    }
    let options = GenerateOptions {
        box_size: args.box_size(),
        hints: args.hints,
        symmetry: args.symmetry.into(),
        minimal: args.minimal,
        difficulty: args.difficulty.map(Into::into),
        removal: match args.hide_random {
            Some(blanks) => Removal::HideRandom { blanks },
            None => Removal::Unique,
        },
        seed,
        attempts: args.attempts,
    };
    let format = args.output.format();
    let threads = args.output.threads_for(args.count).get();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("alldiff-worker-{i}"))
        .build()
        .context("cannot start the worker threads")?;
    // Each worker keeps one solver, so the model is built once per thread.
    let one = |solver: &mut SudokuSolver, index: u64| {
        let options = GenerateOptions {
            seed: seed.wrapping_add(index),
            ..options
        };
        (index, options.seed, generate_with(solver, &options))
    };
    let new_solver = || SudokuSolver::with_options(SolverOptions::singles());
    let mut own_solver = new_solver();

    let mut out = BufWriter::new(io::stdout().lock());
    let mut failed = false;
    let step = PER_THREAD * threads as u64;
    let mut start = 0;
    while start < args.count {
        let end = args.count.min(start.saturating_add(step));
        let results: Vec<_> = if threads == 1 {
            (start..end).map(|i| one(&mut own_solver, i)).collect()
        } else {
            pool.install(|| {
                (start..end)
                    .into_par_iter()
                    .map_init(new_solver, |solver, i| one(solver, i))
                    .collect()
            })
        };
        for (index, seed, result) in results {
            match result {
                Ok(generated) => {
                    writeln!(out, "{}", record(&generated, index, seed, format, &args))?;
                }
                // The same for every puzzle: the request itself is impossible.
                Err(
                    e @ (GenerateError::TooFewHints { .. }
                    | GenerateError::TooMany { .. }
                    | GenerateError::UnsupportedBoxSize { .. }),
                ) => {
                    out.flush()?;
                    return Err(e.into());
                }
                Err(e) => {
                    out.flush()?;
                    eprintln!("alldiff: puzzle {} (seed {seed}): {e}", index + 1);
                    failed = true;
                }
            }
        }
        out.flush()?;
        start = end;
    }
    Ok(ExitCode::from(if failed {
        EXIT_FAILURE
    } else {
        EXIT_SUCCESS
    }))
}

/// One generated puzzle in `format`.
fn record(
    generated: &Generated,
    index: u64,
    seed: u64,
    format: Format,
    args: &GenerateArgs,
) -> String {
    let Generated {
        puzzle, solution, ..
    } = generated;
    match format {
        Format::Line if args.with_solution => format!("{puzzle} {solution}"),
        Format::Line => puzzle.to_line(),
        Format::Grid if args.with_solution => {
            format!("{}\n{}", puzzle.to_grid_string(), solution.to_grid_string())
        }
        Format::Grid => puzzle.to_grid_string(),
        Format::Json => {
            let mut object = json!({
                "index": index,
                "seed": seed,
                "puzzle": puzzle.to_line(),
                "hints": puzzle.clue_count(),
                "attempts": generated.attempts,
            });
            if args.with_solution {
                object["solution"] = json!(solution.to_line());
            }
            object.to_string()
        }
    }
}

/// A seed that differs from run to run: the standard library's per-process
/// random hash keys over the clock and the process id.
fn random_seed() -> u64 {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    RandomState::new().hash_one((nanos, std::process::id()))
}
