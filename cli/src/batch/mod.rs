//! Running per-puzzle work over a batch, in parallel, streaming, in order.
//!
//! Worker threads (a rayon pool, or the calling thread alone when there is
//! one thread, to keep timing measurements clean) take the items one at a
//! time from the input and hand each result to an ordered writer
//! ([`writer::Ordered`]), which writes it as soon as every result before it
//! is written. So a slow producer gets each answer as soon as its puzzle and
//! those before it are done, memory stays flat (a worker does not start an
//! item more than a window ahead of the output), and a closed output pipe
//! ends the run quietly. Output is flushed before the input may wait, and
//! otherwise within [`FLUSH_DELAY`] of being written.
//!
//! An interrupt (Ctrl-C, SIGINT) writes every finished result that comes
//! before all unfinished ones, flushes, and ends the process with status
//! [`EXIT_INTERRUPTED`]: the lines written are exactly the first lines of a
//! full run.
//!
//! Each worker thread keeps one state made by a factory (a solver, say) and
//! reuses it for every item it processes. The per-item work returns an
//! [`ItemReport`]: the record to print, whether the item succeeded, and an
//! optional diagnostic for standard error. The [`Summary`] of a run gives the
//! exit status. Both live in [`super::report`].

mod writer;

use std::io::{self, IsTerminal as _, Write};
use std::num::NonZeroUsize;
use std::panic::{self, AssertUnwindSafe};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, Once, PoisonError};
use std::time::Duration;

use anyhow::Context as _;

use super::args::{Format, PuzzleArgs};
use super::input::{Input, Item};
use super::progress::{Progress, Unit};
use super::report::{ItemReport, Summary};
use writer::{Done, Ordered, Stopped};

/// Exit status after an interrupt (Ctrl-C): 128 + SIGINT, as shells report it.
pub(crate) const EXIT_INTERRUPTED: u8 = 130;

/// Output written is flushed at most this long after (sooner when the input
/// may wait, or the buffer fills).
const FLUSH_DELAY: Duration = Duration::from_millis(20);
/// How often the watcher looks for an interrupt and for output to flush.
const TICK: Duration = Duration::from_millis(10);
/// Items a worker may start ahead of the output, per thread (at least
/// [`MIN_WINDOW`]): bounds the results waiting for a slow one.
const WINDOW_PER_THREAD: u64 = 64;
const MIN_WINDOW: u64 = 1024;

/// How a batch runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BatchConfig {
    /// Worker threads; 1 runs everything on the calling thread.
    pub(crate) threads: NonZeroUsize,
    /// Handed to the per-item work.
    pub(crate) format: Format,
    /// Show a progress bar on standard error once the run is long (only used
    /// with the real standard streams).
    pub(crate) progress: bool,
}

/// An opened input with its settings, ready to run.
pub(crate) struct Batch {
    input: Input,
    config: BatchConfig,
}

/// How a run ended, for [`Batch::run_to`].
#[cfg(test)]
#[derive(Debug)]
pub(crate) struct Ran {
    /// What was written.
    pub(crate) summary: Summary,
    /// The run was interrupted.
    pub(crate) interrupted: bool,
}

impl Batch {
    /// Opens the input named by `args` and settles format, threads and
    /// whether to show progress. Fails, naming the path, if the input file
    /// cannot be read.
    pub(crate) fn open(args: &PuzzleArgs) -> anyhow::Result<Batch> {
        let input = Input::open(&args.puzzles, args.input.as_deref())?;
        // The bar is for someone watching a terminal while results go to a
        // file or pipe; results on the terminal show progress themselves.
        let progress = !io::stdout().is_terminal();
        // Never more threads than arguments; a file's length is not known.
        let items = match input.progress_total() {
            Some(arguments) if !input.progress_in_bytes() => arguments,
            _ => 0,
        };
        let config = BatchConfig {
            threads: args.output.threads_for(items),
            format: args.output.format(),
            progress,
        };
        Ok(Batch { input, config })
    }

    /// A batch over any input, for tests.
    #[cfg(test)]
    pub(crate) fn new(input: Input, config: BatchConfig) -> Batch {
        Batch { input, config }
    }

    /// Runs `work` on every item, writing records to standard output and
    /// diagnostics to standard error. See [`Batch::run_to`]; an interrupt
    /// (Ctrl-C) ends the process with status [`EXIT_INTERRUPTED`] once the
    /// finished results are written.
    pub(crate) fn run<S, M, W>(self, make_state: M, work: W) -> anyhow::Result<Summary>
    where
        M: Fn() -> S + Sync,
        W: Fn(&mut S, &Item, Format) -> ItemReport + Sync,
    {
        let unit = if self.input.progress_in_bytes() {
            Unit::Bytes
        } else {
            Unit::Puzzles
        };
        let progress = self
            .config
            .progress
            .then(|| Progress::on_terminal(self.input.progress_total(), unit))
            .flatten();
        let interrupt = Interrupt {
            flag: interrupt_flag(),
            exit: true,
        };
        let output = Ordered::new(io::stdout(), io::stderr(), progress);
        Ok(run_stream(self, &make_state, &work, output, interrupt)?.0)
    }

    /// Runs `work` on every item, each worker thread with its own state from
    /// `make_state` (made when first needed, then reused). Writes one record
    /// per item to `out`, in input order, and each diagnostic to `err`. A
    /// panic in `work` or `make_state` becomes a failed item (and a fresh
    /// state); the batch goes on. Setting `interrupt` stops the run as Ctrl-C
    /// does, except that the items being processed are finished (not
    /// written) and the run returns.
    ///
    /// Returns the counts; a closed `out` (broken pipe) ends the run early
    /// with `output_closed` set. Fails on a read error or a write error other
    /// than a broken pipe, after writing the results of the items before it.
    #[cfg(test)]
    pub(crate) fn run_to<S, M, W, O, E>(
        self,
        make_state: M,
        work: W,
        out: O,
        err: E,
        interrupt: &AtomicBool,
    ) -> anyhow::Result<Ran>
    where
        M: Fn() -> S + Sync,
        W: Fn(&mut S, &Item, Format) -> ItemReport + Sync,
        O: Write + Send,
        E: Write + Send,
    {
        let interrupt = Interrupt {
            flag: interrupt,
            exit: false,
        };
        let output = Ordered::new(out, err, None);
        let (summary, interrupted) = run_stream(self, &make_state, &work, output, interrupt)?;
        Ok(Ran {
            summary,
            interrupted,
        })
    }
}

/// Opens the batch named by `args`, runs it on the standard streams, and
/// returns the exit code. The usual body of a puzzle-consuming subcommand.
pub(crate) fn run_batch<S, M, W>(
    args: &PuzzleArgs,
    make_state: M,
    work: W,
) -> anyhow::Result<ExitCode>
where
    M: Fn() -> S + Sync,
    W: Fn(&mut S, &Item, Format) -> ItemReport + Sync,
{
    Ok(Batch::open(args)?.run(make_state, work)?.exit_code())
}

/// The flag a Ctrl-C (SIGINT) sets, with the handler installed on first use.
/// A second Ctrl-C ends the process at once.
pub(crate) fn interrupt_flag() -> &'static AtomicBool {
    static INTERRUPTED: AtomicBool = AtomicBool::new(false);
    static HANDLER: Once = Once::new();
    HANDLER.call_once(|| {
        // Without a handler, Ctrl-C keeps its default: the process ends.
        let _ = ctrlc::set_handler(|| {
            if INTERRUPTED.swap(true, Ordering::SeqCst) {
                std::process::exit(i32::from(EXIT_INTERRUPTED));
            }
        });
    });
    &INTERRUPTED
}

/// What stops a run, and whether it then ends the process.
#[derive(Clone, Copy)]
struct Interrupt<'a> {
    flag: &'a AtomicBool,
    exit: bool,
}

/// The input, shared by the workers.
struct Feed {
    input: Input,
    /// The index of the next item.
    next: u64,
    /// The read error that ended the input.
    error: Option<anyhow::Error>,
}

/// What the workers and the watcher share.
struct Shared<O: Write, E: Write> {
    feed: Mutex<Feed>,
    writer: Mutex<Ordered<O, E>>,
    /// Signalled when the writer moves on or stops, if a worker waits.
    advanced: Condvar,
    /// A worker waits on `advanced` (read and written with the writer
    /// locked): waking no one would cost a system call per item.
    waiting: AtomicBool,
    /// Set (with the writer locked) when writing has stopped: no more items
    /// are started.
    stop: AtomicBool,
    window: u64,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl<O: Write, E: Write> Shared<O, E> {
    /// The next item to work on, with its index and progress; `None` at the
    /// end of the input or once writing has stopped. Waits while the item
    /// would be a window ahead of the output, and flushes the output when
    /// the input may wait.
    fn next(&self) -> Option<(u64, Item, u64)> {
        let mut feed = lock(&self.feed);
        {
            let mut writer = lock(&self.writer);
            while !self.stop.load(Ordering::Relaxed) && feed.next >= writer.written() + self.window
            {
                self.waiting.store(true, Ordering::Relaxed);
                writer = self
                    .advanced
                    .wait(writer)
                    .unwrap_or_else(PoisonError::into_inner);
                self.waiting.store(false, Ordering::Relaxed);
            }
            if self.stop.load(Ordering::Relaxed) {
                return None;
            }
            if feed.input.may_block() {
                writer.flush();
            }
        }
        match feed.input.next_item() {
            Ok(Some((item, progress))) => {
                let index = feed.next;
                feed.next += 1;
                Some((index, item, progress))
            }
            Ok(None) => None,
            Err(e) => {
                feed.error.get_or_insert(e);
                None
            }
        }
    }

    /// Hands a result to the writer.
    fn finish(&self, index: u64, done: Done) {
        let mut writer = lock(&self.writer);
        let advanced = writer.finish(index, done);
        if writer.is_stopped() {
            self.stop.store(true, Ordering::Relaxed);
        }
        if (advanced && self.waiting.load(Ordering::Relaxed)) || writer.is_stopped() {
            self.advanced.notify_all();
        }
    }

    /// Stops for an interrupt: flushes what was written, and ends the
    /// process or has the workers stop.
    fn interrupt(&self, exit: bool) {
        let mut writer = lock(&self.writer);
        writer.interrupt();
        if exit {
            std::process::exit(i32::from(EXIT_INTERRUPTED));
        }
        self.stop.store(true, Ordering::Relaxed);
        self.advanced.notify_all();
    }
}

/// Runs the batch; returns the counts and whether it was interrupted.
fn run_stream<S, M, W, O, E>(
    Batch { input, config }: Batch,
    make_state: &M,
    work: &W,
    output: Ordered<O, E>,
    interrupt: Interrupt<'_>,
) -> anyhow::Result<(Summary, bool)>
where
    M: Fn() -> S + Sync,
    W: Fn(&mut S, &Item, Format) -> ItemReport + Sync,
    O: Write + Send,
    E: Write + Send,
{
    let threads = config.threads.get();
    let pool = match threads {
        1 => None,
        _ => Some(
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .thread_name(|i| format!("alldiff-worker-{i}"))
                .build()
                .context("cannot start the worker threads")?,
        ),
    };
    let shared = Shared {
        feed: Mutex::new(Feed {
            input,
            next: 0,
            error: None,
        }),
        writer: Mutex::new(output),
        advanced: Condvar::new(),
        waiting: AtomicBool::new(false),
        stop: AtomicBool::new(false),
        window: MIN_WINDOW.max(WINDOW_PER_THREAD.saturating_mul(threads as u64)),
    };
    let format = config.format;
    let work_loop = || {
        let mut state = None;
        while let Some((index, item, progress)) = shared.next() {
            let report = run_item(&mut state, make_state, work, &item, format);
            let origin = item.origin();
            shared.finish(
                index,
                Done {
                    origin,
                    report,
                    progress,
                },
            );
        }
    };
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let watcher = std::thread::Builder::new()
            .name("alldiff-watcher".to_owned())
            .spawn_scoped(scope, || watch(&shared, &done, interrupt))
            .context("cannot start the output thread")?;
        match &pool {
            None => work_loop(),
            Some(pool) => pool.scope(|scope| {
                for _ in 0..threads {
                    scope.spawn(|_| work_loop());
                }
            }),
        }
        done.store(true, Ordering::Release);
        watcher.thread().unpark();
        anyhow::Ok(())
    })?;

    let feed = shared
        .feed
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner);
    let writer = shared
        .writer
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner);
    let (summary, stopped) = writer.end();
    match (stopped, feed.error) {
        (Some(Stopped::Failed(e)), _) => {
            Err(anyhow::Error::new(e).context("cannot write the results"))
        }
        (Some(Stopped::Interrupted), _) => Ok((summary, true)),
        (Some(Stopped::Closed), _) | (None, None) => Ok((summary, false)),
        (None, Some(e)) => Err(e),
    }
}

/// Until `done`: flushes output written [`FLUSH_DELAY`] ago, shows the
/// progress bar once the run is long, and stops the run on an interrupt.
fn watch<O: Write, E: Write>(shared: &Shared<O, E>, done: &AtomicBool, interrupt: Interrupt<'_>) {
    while !done.load(Ordering::Acquire) {
        std::thread::park_timeout(TICK);
        if interrupt.flag.load(Ordering::SeqCst) {
            shared.interrupt(interrupt.exit);
            return;
        }
        let mut writer = lock(&shared.writer);
        writer.flush_if_due(FLUSH_DELAY);
        writer.show_progress_if_due();
    }
}

/// Runs one item, making the state if there is none. A panic becomes a
/// failed item and drops the state, which may be inconsistent.
fn run_item<S, M, W>(
    state: &mut Option<S>,
    make_state: &M,
    work: &W,
    item: &Item,
    format: Format,
) -> ItemReport
where
    M: Fn() -> S,
    W: Fn(&mut S, &Item, Format) -> ItemReport,
{
    let result = panic::catch_unwind(AssertUnwindSafe(|| {
        let state = state.get_or_insert_with(make_state);
        work(state, item, format)
    }));
    result.unwrap_or_else(|_| {
        *state = None;
        let message = "internal error: the computation panicked";
        ItemReport::error(format, item, message).with_diagnostic(message)
    })
}

#[cfg(test)]
mod tests;
