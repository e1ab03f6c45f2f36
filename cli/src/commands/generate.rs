//! `alldiff generate`: new puzzles, reproducible from a seed, generated on
//! every thread and written in order as they are done.

use std::collections::BTreeMap;
use std::collections::hash_map::RandomState;
use std::hash::BuildHasher as _;
use std::io::{self, BufWriter, IsTerminal as _, Write as _};
use std::panic::{self, AssertUnwindSafe};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use alldiff::Limits;
use alldiff::sudoku::{
    GenerateError, GenerateOptions, Generated, Removal, SolverOptions, SudokuSolver, default_hints,
    generate_with,
};
use anyhow::Context as _;
use clap::ValueEnum as _;

use crate::GenerateArgs;
use crate::args::SymmetryArg;
use crate::batch::{EXIT_INTERRUPTED, interrupt_flag};
use crate::progress::{Progress, Unit};
use crate::record::{Record, Source, Stats, Style, compact};
use crate::report::{EXIT_FAILURE, EXIT_SUCCESS};

/// Puzzles a worker may start ahead of the output, per thread: bounds the
/// puzzles waiting for a slow one.
const WINDOW_PER_THREAD: u64 = 64;
/// Output is flushed at least this often while puzzles come out.
const FLUSH_DELAY: Duration = Duration::from_millis(20);
/// How often the writer looks at the clock (deadline, progress bar).
const TICK: Duration = Duration::from_millis(50);

/// What a worker sends: the puzzle's index, its seed, and the result (`Err`
/// if generation panicked).
type Finished = (u64, u64, std::thread::Result<Result<Made, GenerateError>>);

/// A generated puzzle, the time it took, and with `--stats` its statistics.
struct Made {
    generated: Generated,
    time: Duration,
    stats: Option<Option<Stats>>,
}

/// Generates `--count` puzzles; puzzle `i` uses seed `seed + i`. Puzzles are
/// generated on a pool of workers and written in order as soon as every one
/// before them is; with `--timeout`, the run stops at the deadline. An
/// interrupt (Ctrl-C) flushes the puzzles written and ends the process with
/// status [`EXIT_INTERRUPTED`].
pub(crate) fn generate(args: GenerateArgs) -> anyhow::Result<ExitCode> {
    let seed = args.seed.unwrap_or_else(random_seed);
    if args.seed.is_none() && io::stderr().is_terminal() {
        eprintln!("alldiff: seed {seed}");
    }
    let hints = hints(&args)?;
    let options = GenerateOptions {
        box_size: args.box_size(),
        hints,
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
    let style = Style::of(&args.output, args.stats.stats);
    let threads = args.output.threads_for(args.count).get();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("alldiff-worker-{i}"))
        .build()
        .context("cannot start the worker threads")?;
    let count = args.count;
    let window = WINDOW_PER_THREAD.saturating_mul(threads as u64);
    let shared = Arc::new(Workers::default());
    let (sender, receiver) = mpsc::channel::<Finished>();
    for _ in 0..threads {
        let (shared, sender) = (Arc::clone(&shared), sender.clone());
        pool.spawn(move || {
            // Each worker keeps one solver, so the model is built once per thread.
            let mut solver = SudokuSolver::with_options(SolverOptions::singles());
            while let Some(index) = shared.next(count, window) {
                let options = GenerateOptions {
                    seed: seed.wrapping_add(index),
                    ..options
                };
                let result = panic::catch_unwind(AssertUnwindSafe(|| {
                    let started = Instant::now();
                    let generated = generate_with(&mut solver, &options)?;
                    let time = started.elapsed();
                    let stats = (style.stats)
                        .then(|| Stats::of_puzzle(&generated.puzzle, &Limits::default()));
                    Ok(Made {
                        generated,
                        time,
                        stats,
                    })
                }));
                if result.is_err() {
                    solver = SudokuSolver::with_options(SolverOptions::singles());
                }
                if sender.send((index, options.seed, result)).is_err() {
                    break;
                }
            }
        });
    }
    drop(sender);
    let written = write_in_order(&args, style, &receiver, &shared);
    // Workers still running (past a deadline) stop at their next puzzle; the
    // process does not wait for them.
    shared.stop();
    let failed = written?;
    Ok(ExitCode::from(if failed {
        EXIT_FAILURE
    } else {
        EXIT_SUCCESS
    }))
}

/// The next puzzle to start, shared by the workers, and how far the output
/// has come.
#[derive(Default)]
struct Workers {
    next: AtomicU64,
    written: Mutex<u64>,
    advanced: Condvar,
    stopped: AtomicBool,
}

impl Workers {
    /// The index of the next puzzle to generate, once it is less than
    /// `window` ahead of the output; `None` when all are taken or the run
    /// has stopped.
    fn next(&self, count: u64, window: u64) -> Option<u64> {
        let index = self.next.fetch_add(1, Ordering::Relaxed);
        if index >= count {
            return None;
        }
        let mut written = self.written.lock().unwrap_or_else(PoisonError::into_inner);
        while index >= written.saturating_add(window) && !self.stopped.load(Ordering::Relaxed) {
            written = self
                .advanced
                .wait(written)
                .unwrap_or_else(PoisonError::into_inner);
        }
        (!self.stopped.load(Ordering::Relaxed)).then_some(index)
    }

    fn wrote(&self, written: u64) {
        *self.written.lock().unwrap_or_else(PoisonError::into_inner) = written;
        self.advanced.notify_all();
    }

    fn stop(&self) {
        let _guard = self.written.lock().unwrap_or_else(PoisonError::into_inner);
        self.stopped.store(true, Ordering::Relaxed);
        self.advanced.notify_all();
    }
}

/// Writes the puzzles in order as they come; returns whether any failed
/// (or the deadline came first). An impossible request is an error.
fn write_in_order(
    args: &GenerateArgs,
    style: Style,
    receiver: &mpsc::Receiver<Finished>,
    workers: &Workers,
) -> anyhow::Result<bool> {
    let deadline = args.timeout.map(|timeout| Instant::now() + timeout);
    let interrupted = interrupt_flag();
    let mut progress = Progress::on_terminal(Some(args.count), Unit::Puzzles);
    let mut out = BufWriter::new(io::stdout().lock());
    if let Some(header) = style.csv_header() {
        writeln!(out, "{header}")?;
    }
    let mut waiting = BTreeMap::new();
    let mut written = 0u64;
    let mut failed = false;
    let mut flushed = Instant::now();
    let result = loop {
        if written == args.count {
            break Ok(failed);
        }
        let wait = deadline.map_or(TICK, |d| {
            d.saturating_duration_since(Instant::now()).min(TICK)
        });
        match receiver.recv_timeout(wait) {
            Ok((index, seed, result)) => {
                waiting.insert(index, (seed, result));
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => {
                break Err(anyhow::anyhow!("the worker threads ended early"));
            }
        }
        let before = written;
        while let Some((seed, result)) = waiting.remove(&written) {
            let index = written;
            written += 1;
            let message = match result {
                Ok(Ok(made)) => {
                    let mut record = record(&made.generated, index, seed, made.time, args);
                    if let Some(stats) = made.stats {
                        record = record.stats(stats);
                    }
                    let text = record.render(style);
                    let line = |out: &mut BufWriter<_>| writeln!(out, "{text}");
                    match &progress {
                        Some(p) => p.bar().suspend(|| line(&mut out)),
                        None => line(&mut out),
                    }?;
                    continue;
                }
                // The same for every puzzle: the request itself is impossible.
                Ok(Err(
                    e @ (GenerateError::TooFewHints { .. }
                    | GenerateError::TooMany { .. }
                    | GenerateError::BlanksNotSymmetric { .. }
                    | GenerateError::UnsupportedBoxSize { .. }),
                )) => {
                    out.flush()?;
                    return finish(progress, Err(e.into()));
                }
                Ok(Err(e)) => e.to_string(),
                Err(_) => "internal error: the generation panicked".to_owned(),
            };
            failed = true;
            out.flush()?;
            note(
                &progress,
                &format!("puzzle {} (seed {seed}): {message}", index + 1),
            );
        }
        if written > before {
            workers.wrote(written);
            if let Some(p) = &progress {
                p.bar().set_position(written);
            }
        }
        if flushed.elapsed() >= FLUSH_DELAY || written == args.count {
            out.flush()?;
            flushed = Instant::now();
        }
        if interrupted.load(Ordering::SeqCst) {
            out.flush()?;
            finish(progress, ());
            std::process::exit(i32::from(EXIT_INTERRUPTED));
        }
        if let Some(p) = &mut progress {
            p.show_if_due();
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            out.flush()?;
            let missing = args.count - written;
            note(
                &progress,
                &format!(
                    "stopped: time limit reached; {missing} of {} puzzles not generated",
                    args.count
                ),
            );
            break Ok(true);
        }
    };
    out.flush()?;
    finish(progress, result)
}

/// A message on standard error, around the progress bar.
fn note(progress: &Option<Progress>, message: &str) {
    let write = || eprintln!("alldiff: {message}");
    match progress {
        Some(p) => p.bar().suspend(write),
        None => write(),
    }
}

fn finish<T>(progress: Option<Progress>, result: T) -> T {
    if let Some(p) = progress {
        p.finish();
    }
    result
}

/// The clue count to ask the library for. A symmetry removes clues (or with
/// `--hide-random` blanks cells) in whole orbits, so some counts cannot be
/// reached: an impossible `--hints` or `--hide-random` is a usage error naming
/// the nearest possible counts, and an impossible default is moved to the
/// nearest possible count above it, with a note on standard error.
fn hints(args: &GenerateArgs) -> anyhow::Result<Option<usize>> {
    // A random symmetry is drawn among those that can keep the count (the
    // diagonal keeps any), so only the count itself is checked, by the library.
    if args.minimal || args.symmetry == SymmetryArg::Random {
        return Ok(args.hints);
    }
    let box_size = args.box_size();
    let side = box_size * box_size;
    let cells = side * side;
    let orbits = Orbits::new(side, args.symmetry);
    let symmetry = args
        .symmetry
        .to_possible_value()
        .map_or_else(String::new, |value| value.get_name().to_owned());
    // The possible counts nearest `clues` clues, as clues or as blanks.
    let nearest = |clues: usize, as_blanks: bool| {
        let (below, above) = orbits.nearest(clues);
        let mut counts: Vec<usize> = [below, above]
            .into_iter()
            .flatten()
            .map(|n| if as_blanks { cells - n } else { n })
            .collect();
        counts.sort_unstable();
        let counts: Vec<String> = counts.iter().map(ToString::to_string).collect();
        counts.join(" and ")
    };
    if let Some(blanks) = args.hide_random {
        if blanks <= cells && !orbits.reachable(cells - blanks) {
            anyhow::bail!(
                "--hide-random {blanks} cannot keep --symmetry {symmetry} on a {side}x{side} \
                 grid ({}); the nearest possible counts are {}",
                orbits.describe(),
                nearest(cells - blanks, true)
            );
        }
        return Ok(None);
    }
    match args.hints {
        Some(hints) if hints <= cells && !orbits.reachable(hints) => {
            anyhow::bail!(
                "--hints {hints} cannot keep --symmetry {symmetry} on a {side}x{side} grid ({}); \
                 the nearest possible counts are {}",
                orbits.describe(),
                nearest(hints, false)
            )
        }
        Some(hints) => Ok(Some(hints)),
        None => {
            let default = default_hints(box_size);
            if orbits.reachable(default) {
                return Ok(None);
            }
            // The nearest count above: removal stops at the first orbit that
            // would go below the target, so fewer clues are often out of reach
            // (a quarter turn reaches 32 clues far more often than 29).
            let chosen = match orbits.nearest(default) {
                (_, Some(above)) => above,
                (below, None) => below.unwrap_or(default),
            };
            eprintln!(
                "alldiff: --symmetry {symmetry} cannot keep the default {default} clues on a \
                 {side}x{side} grid ({}); generating {chosen} (choose with --hints)",
                orbits.describe()
            );
            Ok(Some(chosen))
        }
    }
}

/// How a symmetry splits the cells of a grid: `fixed` cells that are their
/// own orbit (the centre, the cells on the axis), and `orbits` orbits of
/// `size` cells each. A clue count is reachable when it is a sum of orbits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Orbits {
    fixed: usize,
    orbits: usize,
    size: usize,
}

impl Orbits {
    fn new(side: usize, symmetry: SymmetryArg) -> Orbits {
        let cells = side * side;
        let odd = side % 2;
        let (fixed, size) = match symmetry {
            SymmetryArg::None => (cells, 1),
            SymmetryArg::Rotate180 => (odd, 2),
            SymmetryArg::Rotate90 => (odd, 4),
            SymmetryArg::Mirror | SymmetryArg::Flip => (odd * side, 2),
            SymmetryArg::Diagonal => (side, 2),
            // Never asked: `hints` returns before (one cell at a time here).
            SymmetryArg::Random => (cells, 1),
        };
        Orbits {
            fixed,
            orbits: (cells - fixed) / size,
            size,
        }
    }

    /// True if `hints` clues can be kept: whole orbits plus fixed cells.
    fn reachable(self, hints: usize) -> bool {
        let whole = (hints / self.size).min(self.orbits);
        // Fewer whole orbits only leave more for the fixed cells, so the most
        // whole orbits that fit is the one to try.
        hints - whole * self.size <= self.fixed
    }

    /// The reachable counts nearest `hints` below and above it.
    fn nearest(self, hints: usize) -> (Option<usize>, Option<usize>) {
        let cells = self.fixed + self.orbits * self.size;
        let below = (0..hints).rev().find(|&n| self.reachable(n));
        let above = (hints + 1..=cells).find(|&n| self.reachable(n));
        (below, above)
    }

    /// Why some counts are impossible, for messages.
    fn describe(self) -> String {
        match self.fixed {
            0 => format!("its cells go in groups of {}", self.size),
            1 => format!(
                "its cells go in groups of {}, plus the centre cell",
                self.size
            ),
            n => format!(
                "its cells go in groups of {}, plus {n} cells on the axis",
                self.size
            ),
        }
    }
}

/// The record of one generated puzzle.
fn record(
    generated: &Generated,
    index: u64,
    seed: u64,
    time: Duration,
    args: &GenerateArgs,
) -> Record {
    let Generated {
        puzzle, solution, ..
    } = generated;
    let (line, grid, drawn) = if args.with_solution {
        (
            format!("{puzzle} {solution}"),
            format!("{}\n{}", puzzle.to_grid_string(), solution.to_grid_string()),
            format!("{}\n{}", compact(puzzle), compact(solution)),
        )
    } else {
        (puzzle.to_line(), puzzle.to_grid_string(), compact(puzzle))
    };
    let symmetry = generated.symmetry.name();
    let mut record = Record::new(Source::index(index), "generated", line)
        .puzzle(puzzle)
        .grid(grid)
        .compact(drawn)
        .result(if args.with_solution {
            solution.to_line()
        } else {
            String::new()
        })
        .label("Seed", seed.to_string())
        .label("Symmetry", symmetry.to_owned())
        .field("seed", seed)
        .field("hints", puzzle.clue_count())
        .field("attempts", generated.attempts)
        .field("symmetry", symmetry)
        .time(time);
    if args.with_solution {
        record = record.solution(Some(solution));
    }
    if let Some(difficulty) = args.difficulty {
        record = record.grade(difficulty.into());
    }
    record
}

/// A seed that differs from run to run: the standard library's per-process
/// random hash keys over the clock and the process id.
fn random_seed() -> u64 {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    RandomState::new().hash_one((nanos, std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sizes of the orbits by brute force: the cells each symmetry maps
    /// together, as the library groups them.
    fn orbit_sizes(side: usize, symmetry: SymmetryArg) -> Vec<usize> {
        let n = side - 1;
        let mut seen = vec![false; side * side];
        let mut sizes = Vec::new();
        for r in 0..side {
            for c in 0..side {
                if seen[r * side + c] {
                    continue;
                }
                let mut orbit = match symmetry {
                    SymmetryArg::None => vec![(r, c)],
                    SymmetryArg::Rotate180 => vec![(r, c), (n - r, n - c)],
                    SymmetryArg::Rotate90 => vec![(r, c), (c, n - r), (n - r, n - c), (n - c, r)],
                    SymmetryArg::Mirror => vec![(r, c), (r, n - c)],
                    SymmetryArg::Flip => vec![(r, c), (n - r, c)],
                    SymmetryArg::Diagonal => vec![(r, c), (c, r)],
                    SymmetryArg::Random => vec![(r, c)],
                };
                orbit.sort_unstable();
                orbit.dedup();
                for &(r, c) in &orbit {
                    seen[r * side + c] = true;
                }
                sizes.push(orbit.len());
            }
        }
        sizes
    }

    #[test]
    fn reachable_counts_are_the_sums_of_orbits() {
        for side in [4, 9, 16, 25] {
            for symmetry in SymmetryArg::value_variants() {
                let mut sums = vec![false; side * side + 1];
                sums[0] = true;
                for size in orbit_sizes(side, *symmetry) {
                    for total in (size..sums.len()).rev() {
                        sums[total] |= sums[total - size];
                    }
                }
                let orbits = Orbits::new(side, *symmetry);
                for (hints, &possible) in sums.iter().enumerate() {
                    assert_eq!(
                        orbits.reachable(hints),
                        possible,
                        "{side}x{side} {symmetry:?} {hints}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_nearest_counts_of_a_quarter_turn() {
        let orbits = Orbits::new(9, SymmetryArg::Rotate90);
        assert_eq!(orbits.nearest(30), (Some(29), Some(32)));
        assert_eq!(
            Orbits::new(4, SymmetryArg::Rotate90).nearest(6),
            (Some(4), Some(8))
        );
    }
}
