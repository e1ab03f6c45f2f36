//! Running per-puzzle work over a batch, in parallel, streaming, in order.
//!
//! The input is read in chunks ([`ChunkLimits`]). Each chunk is processed on a
//! dedicated pool of worker threads (or on the calling thread when there is
//! one thread, to keep timing measurements clean), and its results are
//! written in input order and flushed before the next chunk's results. With
//! several threads, the next chunk is read on a reader thread while the
//! current one is processed. So memory stays flat, a killed run (Ctrl-C)
//! leaves every finished chunk written, and a closed output pipe ends the run
//! quietly.
//!
//! Each worker thread keeps one state made by a factory (a solver, say) and
//! reuses it for every item it processes, across chunks. The per-item work
//! returns an [`ItemReport`]: the record to print, whether the item succeeded,
//! and an optional diagnostic for standard error. The [`Summary`] of a run
//! gives the exit status. Both live in [`super::report`].

use std::io::{self, BufWriter, IsTerminal as _, Write};
use std::num::NonZeroUsize;
use std::panic::{self, AssertUnwindSafe};
use std::process::ExitCode;
use std::sync::{Mutex, mpsc};

use anyhow::Context as _;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

use super::args::{Format, PuzzleArgs};
use super::input::{Chunk, ChunkLimits, Input, Item};
use super::report::{ItemReport, Summary};

/// A file at least this big gets a progress bar (on a terminal).
const LONG_FILE_BYTES: u64 = 256 << 10;
/// At least this many `PUZZLE` arguments get a progress bar (on a terminal).
const LONG_ARGUMENT_COUNT: u64 = 4096;

/// How a batch runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BatchConfig {
    /// Worker threads; 1 runs everything on the calling thread.
    pub(crate) threads: NonZeroUsize,
    /// Handed to the per-item work.
    pub(crate) format: Format,
    /// Show a progress bar on standard error (only used with the real
    /// standard streams).
    pub(crate) progress: bool,
    /// Chunk sizes.
    pub(crate) chunk: ChunkLimits,
}

/// An opened input with its settings, ready to run.
pub(crate) struct Batch {
    input: Input,
    config: BatchConfig,
}

impl Batch {
    /// Opens the input named by `args` and settles format, threads and
    /// whether to show progress. Fails, naming the path, if the input file
    /// cannot be read.
    pub(crate) fn open(args: &PuzzleArgs) -> anyhow::Result<Batch> {
        let input = Input::open(&args.puzzles, args.input.as_deref())?;
        let long = match input.progress_total() {
            Some(total) if input.progress_in_bytes() => total >= LONG_FILE_BYTES,
            Some(total) => total >= LONG_ARGUMENT_COUNT,
            None => false,
        };
        // The bar is for someone watching a terminal while results go to a
        // file or pipe; results on the terminal show progress themselves.
        let progress = long && io::stderr().is_terminal() && !io::stdout().is_terminal();
        // Never more threads than arguments; a file's length is not known.
        let items = match input.progress_total() {
            Some(arguments) if !input.progress_in_bytes() => arguments,
            _ => 0,
        };
        let config = BatchConfig {
            threads: args.output.threads_for(items),
            format: args.output.format(),
            progress,
            chunk: ChunkLimits::default(),
        };
        Ok(Batch { input, config })
    }

    /// A batch over any input, for tests and for callers that build their own.
    #[cfg(test)]
    pub(crate) fn new(input: Input, config: BatchConfig) -> Batch {
        Batch { input, config }
    }

    /// Runs `work` on every item, writing records to standard output and
    /// diagnostics to standard error. See [`Batch::run_to`].
    pub(crate) fn run<S, M, W>(self, make_state: M, work: W) -> anyhow::Result<Summary>
    where
        S: Send,
        M: Fn() -> S + Sync,
        W: Fn(&mut S, &Item, Format) -> ItemReport + Sync,
    {
        let progress = self
            .config
            .progress
            .then(|| progress_bar(&self.input))
            .flatten();
        run_chunks(
            self.input,
            &self.config,
            &make_state,
            &work,
            io::stdout().lock(),
            io::stderr(),
            progress,
        )
    }

    /// Runs `work` on every item, each worker thread with its own state from
    /// `make_state` (made when first needed, then reused). Writes one record
    /// per item to `out`, in input order, flushing after each chunk, and each
    /// diagnostic to `err`. A panic in `work` or `make_state` becomes a failed
    /// item (and a fresh state); the batch goes on.
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
    ) -> anyhow::Result<Summary>
    where
        S: Send,
        M: Fn() -> S + Sync,
        W: Fn(&mut S, &Item, Format) -> ItemReport + Sync,
        O: Write,
        E: Write,
    {
        run_chunks(self.input, &self.config, &make_state, &work, out, err, None)
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
    S: Send,
    M: Fn() -> S + Sync,
    W: Fn(&mut S, &Item, Format) -> ItemReport + Sync,
{
    Ok(Batch::open(args)?.run(make_state, work)?.exit_code())
}

/// Clears the progress bar however the run ends.
struct BarGuard(ProgressBar);

impl Drop for BarGuard {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}

fn progress_bar(input: &Input) -> Option<ProgressBar> {
    let total = input.progress_total()?;
    let template = if input.progress_in_bytes() {
        "{bar:40} {binary_bytes}/{binary_total_bytes}, {eta} left"
    } else {
        "{bar:40} {pos}/{len} puzzles, {eta} left"
    };
    let style =
        ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar());
    Some(ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr()).with_style(style))
}

/// Whether to go on after writing a chunk.
#[derive(Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    Stop,
}

fn run_chunks<S, M, W, O, E>(
    mut input: Input,
    config: &BatchConfig,
    make_state: &M,
    work: &W,
    out: O,
    mut err: E,
    progress: Option<ProgressBar>,
) -> anyhow::Result<Summary>
where
    S: Send,
    M: Fn() -> S + Sync,
    W: Fn(&mut S, &Item, Format) -> ItemReport + Sync,
    O: Write,
    E: Write,
{
    let progress = progress.map(BarGuard);
    let bar = progress.as_ref().map(|guard| &guard.0);
    let mut out = BufWriter::with_capacity(64 << 10, out);
    let mut summary = Summary::default();
    let format = config.format;

    if config.threads.get() == 1 {
        let mut state = None;
        while let Some(chunk) = input.next_chunk(config.chunk)? {
            let reports: Vec<ItemReport> = chunk
                .items
                .iter()
                .map(|item| run_item(&mut state, make_state, work, item, format))
                .collect();
            if write_chunk(&mut out, &mut err, &chunk, &reports, &mut summary, bar)? == Flow::Stop {
                break;
            }
        }
        return Ok(summary);
    }

    let threads = config.threads.get();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("alldiff-worker-{i}"))
        .build()
        .context("cannot start the worker threads")?;
    let slots: Vec<Mutex<Option<S>>> = (0..threads).map(|_| Mutex::new(None)).collect();

    // Read ahead on a thread of its own. If the run stops early the receiver
    // is dropped, and the reader ends at its next send.
    let (sender, receiver) = mpsc::sync_channel::<anyhow::Result<Chunk>>(1);
    let limits = config.chunk;
    let reader = std::thread::Builder::new()
        .name("alldiff-reader".to_owned())
        .spawn(move || {
            loop {
                match input.next_chunk(limits) {
                    Ok(Some(chunk)) => {
                        if sender.send(Ok(chunk)).is_err() {
                            break;
                        }
                    }
                    Ok(None) => break,
                    Err(e) => {
                        let _ = sender.send(Err(e));
                        break;
                    }
                }
            }
        })
        .context("cannot start the input thread")?;

    for chunk in &receiver {
        let chunk = chunk?;
        let reports: Vec<ItemReport> = pool.install(|| {
            chunk
                .items
                .par_iter()
                .map(|item| run_shared(&slots, make_state, work, item, format))
                .collect()
        });
        if write_chunk(&mut out, &mut err, &chunk, &reports, &mut summary, bar)? == Flow::Stop {
            // The reader may be blocked reading; it is not waited for.
            return Ok(summary);
        }
    }
    if reader.join().is_err() {
        anyhow::bail!("the input thread failed; the output may be incomplete");
    }
    Ok(summary)
}

/// Runs one item with the calling worker's state, or with a fresh state if
/// that one is busy (work that itself uses rayon may nest).
fn run_shared<S, M, W>(
    slots: &[Mutex<Option<S>>],
    make_state: &M,
    work: &W,
    item: &Item,
    format: Format,
) -> ItemReport
where
    M: Fn() -> S,
    W: Fn(&mut S, &Item, Format) -> ItemReport,
{
    let slot = rayon::current_thread_index().and_then(|i| slots.get(i));
    if let Some(Ok(mut state)) = slot.map(Mutex::try_lock) {
        return run_item(&mut state, make_state, work, item, format);
    }
    run_item(&mut None, make_state, work, item, format)
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
        ItemReport::error(format, item, "internal error: the computation panicked")
    })
}

/// Writes a chunk's diagnostics and records, then flushes.
fn write_chunk<O: Write, E: Write>(
    out: &mut BufWriter<O>,
    err: &mut E,
    chunk: &Chunk,
    reports: &[ItemReport],
    summary: &mut Summary,
    bar: Option<&ProgressBar>,
) -> anyhow::Result<Flow> {
    let mut write_diagnostics = || {
        for (item, report) in chunk.items.iter().zip(reports) {
            if let Some(message) = report.diagnostic() {
                // Standard error going away is no reason to stop.
                let _ = writeln!(err, "alldiff: {}: {message}", item.origin());
            }
        }
        let _ = err.flush();
    };
    match bar {
        Some(bar) => bar.suspend(write_diagnostics),
        None => write_diagnostics(),
    }

    for report in reports {
        let written = out
            .write_all(report.record().as_bytes())
            .and_then(|()| out.write_all(b"\n"));
        if let Err(e) = written {
            return output_error(e, summary);
        }
        summary.count(report);
    }
    if let Err(e) = out.flush() {
        return output_error(e, summary);
    }
    if let Some(bar) = bar {
        bar.set_position(chunk.progress);
    }
    Ok(Flow::Continue)
}

fn output_error(error: io::Error, summary: &mut Summary) -> anyhow::Result<Flow> {
    if error.kind() == io::ErrorKind::BrokenPipe {
        summary.output_closed = true;
        Ok(Flow::Stop)
    } else {
        Err(anyhow::Error::new(error).context("cannot write the results"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::input::Origin;
    use crate::cli::report::{EXIT_FAILURE, EXIT_SUCCESS};
    use std::io::{Cursor, Read};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
    use std::time::Duration;

    fn config(threads: usize, chunk_items: usize) -> BatchConfig {
        BatchConfig {
            threads: NonZeroUsize::new(threads).unwrap(),
            format: Format::Line,
            progress: false,
            chunk: ChunkLimits {
                items: chunk_items,
                bytes: 1 << 20,
            },
        }
    }

    /// Echoes the text, failing items that are not text or start with `x`.
    fn echo(_: &mut (), item: &Item, format: Format) -> ItemReport {
        match item.text() {
            Err(e) => ItemReport::error(format, item, e),
            Ok(text) if text.starts_with('x') => {
                ItemReport::failure(format!("failed {text}")).with_diagnostic("starts with x")
            }
            Ok(text) => ItemReport::success(text),
        }
    }

    /// Runs a batch over `input`; returns the summary, stdout and stderr.
    fn run_on<R, S>(
        input: R,
        config: BatchConfig,
        make_state: impl Fn() -> S + Sync,
        work: impl Fn(&mut S, &Item, Format) -> ItemReport + Sync,
    ) -> (Summary, String, String)
    where
        R: Read + Send + 'static,
        S: Send,
    {
        let mut out = Vec::new();
        let mut err = Vec::new();
        let summary = Batch::new(Input::from_reader(input, "test input"), config)
            .run_to(make_state, work, &mut out, &mut err)
            .unwrap();
        (
            summary,
            String::from_utf8(out).unwrap(),
            String::from_utf8(err).unwrap(),
        )
    }

    #[test]
    fn one_record_per_item_and_bad_lines_do_not_hurt_neighbours() {
        let input = b"# header\r\nfirst\r\n\xff\xfebad\r\n\r\nnul\0byte\nx9\nlast".to_vec();
        for threads in [1, 2] {
            let (summary, out, err) =
                run_on(Cursor::new(input.clone()), config(threads, 2), || (), echo);
            assert_eq!(
                out,
                "first\n\
                 error: line is not UTF-8 (byte 1)\n\
                 error: line contains a NUL byte (byte 4)\n\
                 failed x9\n\
                 last\n"
            );
            assert_eq!(err, "alldiff: line 6: starts with x\n");
            assert_eq!(
                summary,
                Summary {
                    succeeded: 2,
                    failed: 3,
                    output_closed: false
                }
            );
            assert_eq!(summary.exit_status(), EXIT_FAILURE);
        }
    }

    #[test]
    fn json_error_records_name_the_line() {
        let mut cfg = config(1, 10);
        cfg.format = Format::Json;
        let (_, out, _) = run_on(Cursor::new(b"\n\n\xc0\n".to_vec()), cfg, || (), echo);
        let value: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(value["line"], 3);
        assert_eq!(value["status"], "error");
        assert_eq!(value["error"], "line is not UTF-8 (byte 1)");
        let item = Item::new(Origin::Argument(2), b"x\"y".to_vec());
        let report = ItemReport::error(Format::Json, &item, "bad \"quote\"");
        let value: serde_json::Value = serde_json::from_str(report.record()).unwrap();
        assert_eq!(value["argument"], 2);
        assert_eq!(value["error"], "bad \"quote\"");
        assert!(!report.is_success());
    }

    #[test]
    fn an_empty_input_writes_nothing_and_succeeds() {
        for threads in [1, 2] {
            let (summary, out, err) =
                run_on(Cursor::new(Vec::new()), config(threads, 10), || (), echo);
            assert_eq!((out.as_str(), err.as_str()), ("", ""));
            assert_eq!(summary, Summary::default());
            assert_eq!(summary.exit_status(), EXIT_SUCCESS);
        }
    }

    #[test]
    fn order_is_kept_when_items_take_varying_time() {
        let n = 3000u64;
        let input: String = (1..=n).map(|i| format!("{i}\n")).collect();
        let expected: String = (1..=n).map(|i| format!("{}\n", i * 2)).collect();
        let work = |_: &mut (), item: &Item, _| {
            let value: u64 = item.text().unwrap().parse().unwrap();
            // Early items of a chunk are slow, so later ones finish first.
            if value % 50 < 3 {
                std::thread::sleep(Duration::from_micros(300));
            }
            assert_eq!(item.number(), value);
            ItemReport::success((value * 2).to_string())
        };
        for (threads, chunk) in [(1, 4096), (2, 4096), (2, 64), (3, 7)] {
            let (summary, out, _) = run_on(
                Cursor::new(input.clone().into_bytes()),
                config(threads, chunk),
                || (),
                work,
            );
            assert_eq!(summary.succeeded, n, "threads {threads}, chunk {chunk}");
            assert!(
                out == expected,
                "order lost with threads {threads}, chunk {chunk}"
            );
        }
    }

    #[test]
    fn each_worker_makes_its_state_once_and_reuses_it() {
        let input: String = (0..2000).map(|i| format!("{i}\n")).collect();
        for threads in [1usize, 2] {
            let made = AtomicUsize::new(0);
            let (summary, _, _) = run_on(
                Cursor::new(input.clone().into_bytes()),
                config(threads, 100),
                || {
                    made.fetch_add(1, Ordering::Relaxed);
                    0u64
                },
                |uses: &mut u64, _: &Item, _| {
                    *uses += 1;
                    ItemReport::success(uses.to_string())
                },
            );
            assert_eq!(summary.succeeded, 2000);
            let made = made.load(Ordering::Relaxed);
            assert!(
                (1..=threads).contains(&made),
                "{made} states for {threads} threads"
            );
        }
    }

    #[test]
    fn a_panicking_item_fails_alone() {
        for threads in [1, 2] {
            let (summary, out, _) = run_on(
                Cursor::new(b"a\nboom\nc\n".to_vec()),
                config(threads, 10),
                || (),
                |_: &mut (), item: &Item, _| {
                    let text = item.text().unwrap_or_default();
                    if text == "boom" {
                        panic!("test panic, expected");
                    }
                    ItemReport::success(text)
                },
            );
            assert_eq!(
                out,
                "a\nerror: internal error: the computation panicked\nc\n"
            );
            assert_eq!((summary.succeeded, summary.failed), (2, 1));
        }
    }

    /// An endless input of numbered lines that counts the bytes handed out.
    struct Endless {
        next: u64,
        pending: Vec<u8>,
        produced: Arc<AtomicU64>,
    }

    impl Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let mut n = 0;
            while n < buf.len() {
                if self.pending.is_empty() {
                    self.next += 1;
                    self.pending = format!("{}\n", self.next).into_bytes();
                }
                let take = (buf.len() - n).min(self.pending.len());
                buf[n..n + take].copy_from_slice(&self.pending[..take]);
                self.pending.drain(..take);
                n += take;
            }
            self.produced.fetch_add(n as u64, Ordering::Relaxed);
            Ok(n)
        }
    }

    /// Output that accepts `room` bytes, then reports a broken pipe; records
    /// how much input had been read when it was first written to.
    struct ClosingPipe {
        room: usize,
        written: Vec<u8>,
        produced: Arc<AtomicU64>,
        produced_at_first_write: Option<u64>,
    }

    impl Write for ClosingPipe {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.produced_at_first_write
                .get_or_insert_with(|| self.produced.load(Ordering::Relaxed));
            if self.room == 0 {
                return Err(io::ErrorKind::BrokenPipe.into());
            }
            let n = buf.len().min(self.room);
            self.room -= n;
            self.written.extend_from_slice(&buf[..n]);
            Ok(n)
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn endless_input_streams_and_a_closed_pipe_ends_quietly() {
        for threads in [1, 2] {
            let produced = Arc::new(AtomicU64::new(0));
            let reader = Endless {
                next: 0,
                pending: Vec::new(),
                produced: Arc::clone(&produced),
            };
            let mut pipe = ClosingPipe {
                room: 100_000,
                written: Vec::new(),
                produced: Arc::clone(&produced),
                produced_at_first_write: None,
            };
            let mut err = Vec::new();
            let summary = Batch::new(Input::from_reader(reader, "endless"), config(threads, 1000))
                .run_to(|| (), echo, &mut pipe, &mut err)
                .unwrap();
            assert!(summary.output_closed);
            assert_eq!(summary.exit_status(), EXIT_SUCCESS);
            assert!(err.is_empty());
            // Results came out after a buffer or two had been read, not
            // after the input (which never ends).
            let read_first = pipe.produced_at_first_write.unwrap();
            let bound = 4 * crate::cli::input::READ_BUFFER_BYTES as u64;
            assert!(
                read_first <= bound,
                "read {read_first} bytes before writing"
            );
            let text = String::from_utf8(pipe.written).unwrap();
            assert!(text.starts_with("1\n2\n3\n"));
            let lines: Vec<&str> = text.lines().collect();
            let complete = &lines[..lines.len() - 1];
            for (i, line) in complete.iter().enumerate() {
                assert_eq!(line.parse::<usize>().unwrap(), i + 1);
            }
        }
    }

    /// Output that fails with an error other than a broken pipe.
    struct FullDisk;

    impl Write for FullDisk {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::other("no space left"))
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn other_write_errors_are_errors() {
        let err = Batch::new(
            Input::from_reader(Cursor::new(b"a\n".to_vec()), "t"),
            config(1, 10),
        )
        .run_to(|| (), echo, FullDisk, io::sink())
        .unwrap_err();
        assert_eq!(
            format!("{err:#}"),
            "cannot write the results: no space left"
        );
    }

    #[test]
    fn arguments_run_as_items() {
        let args = vec!["a".into(), "xb".into(), "".into()];
        let mut out = Vec::new();
        let mut err = Vec::new();
        let summary = Batch::new(Input::from_arguments(args), config(2, 10))
            .run_to(|| (), echo, &mut out, &mut err)
            .unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "a\nfailed xb\n\n");
        assert_eq!(
            String::from_utf8(err).unwrap(),
            "alldiff: argument 2: starts with x\n"
        );
        assert_eq!(summary.exit_status(), EXIT_FAILURE);
    }
}
