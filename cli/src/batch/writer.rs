//! Writing results in input order as they finish: a reorder buffer in front of
//! the output.

use std::collections::VecDeque;
use std::io::{self, BufWriter, Write};
use std::time::{Duration, Instant};

use crate::input::Origin;
use crate::progress::Progress;
use crate::report::{ItemReport, Summary};

/// A finished item, waiting for its turn.
#[derive(Debug)]
pub(super) struct Done {
    /// Where the item came from, for its diagnostic.
    pub(super) origin: Origin,
    /// What to write.
    pub(super) report: ItemReport,
    /// Progress after the item (see [`crate::input::Input::next_item`]).
    pub(super) progress: u64,
}

/// Why writing stopped before the end.
#[derive(Debug)]
pub(super) enum Stopped {
    /// The reader of the output went away (a broken pipe): a quiet end.
    Closed,
    /// Another write error.
    Failed(io::Error),
    /// An interrupt (Ctrl-C): what was written is flushed, nothing more is.
    Interrupted,
}

/// The output of a batch: records go out in input order, each as soon as
/// every record before it has gone out.
///
/// Item `i` (from 0) is handed in by [`Ordered::finish`] in any order; the
/// records of items `written..` that are finished wait in a buffer, which the
/// caller keeps bounded by not starting item `written + window` or later.
/// Memory is that of the waiting records. Output is buffered; it is flushed
/// by [`Ordered::flush`] (before the input may wait), [`Ordered::flush_if_due`]
/// (on a timer) and at the end.
pub(super) struct Ordered<O: Write, E: Write> {
    out: BufWriter<O>,
    err: E,
    progress: Option<Progress>,
    /// Records of items `written`, `written + 1`, ..., if finished.
    waiting: VecDeque<Option<Done>>,
    written: u64,
    summary: Summary,
    /// When the oldest record not yet flushed was written.
    unflushed_since: Option<Instant>,
    stopped: Option<Stopped>,
}

impl<O: Write, E: Write> Ordered<O, E> {
    /// Records go to `out`, diagnostics to `err` (as `alldiff: line N:
    /// MESSAGE`), and the progress to `progress`.
    pub(super) fn new(out: O, err: E, progress: Option<Progress>) -> Self {
        Ordered {
            out: BufWriter::with_capacity(64 << 10, out),
            err,
            progress,
            waiting: VecDeque::new(),
            written: 0,
            summary: Summary::default(),
            unflushed_since: None,
            stopped: None,
        }
    }

    /// Items written (or, once stopped, that were to be written) so far: the
    /// index of the next item to write.
    pub(super) fn written(&self) -> u64 {
        self.written
    }

    /// True once writing has stopped before the end.
    pub(super) fn is_stopped(&self) -> bool {
        self.stopped.is_some()
    }

    /// Hands in item `index`, and writes every record that is now next in
    /// line. Returns true if anything was written.
    pub(super) fn finish(&mut self, index: u64, done: Done) -> bool {
        if self.is_stopped() {
            return false;
        }
        let Some(offset) = index
            .checked_sub(self.written)
            .and_then(|offset| usize::try_from(offset).ok())
        else {
            return false;
        };
        if offset == 0 && self.waiting.is_empty() {
            // Next in line with nothing waiting (always so with one thread).
            self.write(&done);
            self.written += 1;
            return true;
        }
        if self.waiting.len() <= offset {
            self.waiting.resize_with(offset + 1, || None);
        }
        self.waiting[offset] = Some(done);
        let before = self.written;
        while let Some(Some(_)) = self.waiting.front() {
            let Some(Some(done)) = self.waiting.pop_front() else {
                break;
            };
            self.write(&done);
            self.written += 1;
            if self.is_stopped() {
                break;
            }
        }
        self.written > before
    }

    fn write(&mut self, done: &Done) {
        if let Some(message) = done.report.diagnostic() {
            let mut write = || {
                // Standard error going away is no reason to stop.
                let _ = writeln!(self.err, "alldiff: {}: {message}", done.origin);
                let _ = self.err.flush();
            };
            match &self.progress {
                Some(progress) => progress.bar().suspend(write),
                None => write(),
            }
        }
        let written = self
            .out
            .write_all(done.report.record().as_bytes())
            .and_then(|()| self.out.write_all(b"\n"));
        match written {
            Ok(()) => {
                self.summary.count(&done.report);
                self.unflushed_since.get_or_insert_with(Instant::now);
                if let Some(progress) = &self.progress {
                    progress.bar().set_position(done.progress);
                }
            }
            Err(e) => self.stop(e),
        }
    }

    /// Flushes what has been written.
    pub(super) fn flush(&mut self) {
        if self.unflushed_since.take().is_some()
            && !self.is_stopped()
            && let Err(e) = self.out.flush()
        {
            self.stop(e);
        }
    }

    /// Flushes if the oldest record not flushed was written `delay` ago.
    pub(super) fn flush_if_due(&mut self, delay: Duration) {
        if self
            .unflushed_since
            .is_some_and(|since| since.elapsed() >= delay)
        {
            self.flush();
        }
    }

    /// Shows the progress bar once the run is long.
    pub(super) fn show_progress_if_due(&mut self) {
        if let Some(progress) = &mut self.progress {
            progress.show_if_due();
        }
    }

    /// Stops on an interrupt: flushes what was written; nothing more will be.
    pub(super) fn interrupt(&mut self) {
        self.flush();
        self.stopped.get_or_insert(Stopped::Interrupted);
        if let Some(progress) = &self.progress {
            progress.finish();
        }
    }

    fn stop(&mut self, error: io::Error) {
        self.stopped = Some(if error.kind() == io::ErrorKind::BrokenPipe {
            Stopped::Closed
        } else {
            Stopped::Failed(error)
        });
    }

    /// Flushes, clears the progress bar, and returns the counts of what was
    /// written and why writing stopped early, if it did.
    pub(super) fn end(mut self) -> (Summary, Option<Stopped>) {
        self.flush();
        if let Some(progress) = &self.progress {
            progress.finish();
        }
        let mut summary = self.summary;
        summary.output_closed = matches!(self.stopped, Some(Stopped::Closed));
        (summary, self.stopped)
    }
}
