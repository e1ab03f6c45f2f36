//! Progress bars on standard error, for runs long enough to need one.
//!
//! A bar is made hidden and shown once the run has lasted [`SHOW_AFTER`], so
//! quick runs never flash one; it is only made when standard error is a
//! terminal, so pipes, files and tests never get one.

use std::io::{self, IsTerminal as _};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A run shows its bar once it has lasted this long.
pub(crate) const SHOW_AFTER: Duration = Duration::from_secs(1);

/// How often a shown bar redraws by itself (its clock and spinner move even
/// when nothing finishes).
const REDRAW: Duration = Duration::from_millis(200);

/// What a bar counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unit {
    /// Bytes of an input file (or stream, when the total is not known).
    Bytes,
    /// Puzzles.
    Puzzles,
}

/// A progress bar that shows itself once the run is long.
#[derive(Debug)]
pub(crate) struct Progress {
    bar: ProgressBar,
    started: Instant,
    shown: bool,
}

impl Progress {
    /// A hidden bar counting `unit` up to `total` (a spinner when the total
    /// is not known); `None` unless standard error is a terminal.
    pub(crate) fn on_terminal(total: Option<u64>, unit: Unit) -> Option<Progress> {
        io::stderr()
            .is_terminal()
            .then(|| Progress::hidden(total, unit))
    }

    fn hidden(total: Option<u64>, unit: Unit) -> Progress {
        let template = match (unit, total) {
            (Unit::Bytes, Some(_)) => {
                "{bar:40} {binary_bytes}/{binary_total_bytes} [{elapsed}], {eta} left"
            }
            (Unit::Bytes, None) => "{spinner} {binary_bytes} read [{elapsed}]",
            (Unit::Puzzles, Some(_)) => "{spinner} {bar:40} {pos}/{len} puzzles [{elapsed}]",
            (Unit::Puzzles, None) => "{spinner} {pos} puzzles [{elapsed}]",
        };
        let style =
            ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar());
        Progress {
            bar: ProgressBar::with_draw_target(total, ProgressDrawTarget::hidden())
                .with_style(style),
            started: Instant::now(),
            shown: false,
        }
    }

    /// The bar, to move and to suspend while writing to a terminal.
    pub(crate) fn bar(&self) -> &ProgressBar {
        &self.bar
    }

    /// Shows the bar if the run has lasted [`SHOW_AFTER`]; call it often.
    pub(crate) fn show_if_due(&mut self) {
        if !self.shown && self.started.elapsed() >= SHOW_AFTER {
            self.shown = true;
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.bar.enable_steady_tick(REDRAW);
        }
    }

    /// Clears the bar.
    pub(crate) fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bar_stays_hidden_until_the_run_is_long() {
        let mut progress = Progress::hidden(Some(10), Unit::Puzzles);
        progress.show_if_due();
        assert!(!progress.shown);
        progress.bar().set_position(3);
        progress.started -= SHOW_AFTER;
        progress.show_if_due();
        assert!(progress.shown);
        progress.finish();
        for unit in [Unit::Bytes, Unit::Puzzles] {
            assert!(!Progress::hidden(None, unit).shown);
        }
    }
}
