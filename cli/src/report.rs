//! What a batch reports: one record for each item ([`ItemReport`]), and for the
//! run the counts that give the exit status ([`Summary`]).

use std::fmt::Display;
use std::process::ExitCode;

use super::args::Format;
use super::input::Item;
use super::record::{Record, Style};

/// Exit status: every item succeeded.
pub(crate) const EXIT_SUCCESS: u8 = 0;
/// Exit status: at least one item failed.
pub(crate) const EXIT_FAILURE: u8 = 1;
/// Exit status: usage error, or input or output that cannot be used.
pub(crate) const EXIT_USAGE: u8 = 2;

/// What the per-item work produced for one item.
#[derive(Debug, Clone, PartialEq, Eq)]
#[must_use]
pub(crate) struct ItemReport {
    record: String,
    success: bool,
    diagnostic: Option<String>,
}

impl ItemReport {
    /// The item succeeded; `record` is written to standard output.
    pub(crate) fn success(record: impl Into<String>) -> Self {
        ItemReport {
            record: record.into(),
            success: true,
            diagnostic: None,
        }
    }

    /// The item failed (unsolvable, not unique, invalid, malformed); `record`
    /// is still written to standard output, so that output stays one record
    /// per input puzzle, and the run exits with status 1.
    pub(crate) fn failure(record: impl Into<String>) -> Self {
        ItemReport {
            record: record.into(),
            success: false,
            diagnostic: None,
        }
    }

    /// A failure whose record is the error itself, written the same way by
    /// every subcommand ([`Record::error`]): `error: MESSAGE` for `line`,
    /// and `{"line":N,"status":"error","puzzle":null,"error":"MESSAGE",...}`
    /// for `json` (`"argument"` instead of `"line"` for a `PUZZLE` argument).
    pub(crate) fn error(format: Format, item: &Item, message: impl Display) -> Self {
        ItemReport::failure(Record::error(item, message).render(Style::plain(format)))
    }

    /// Adds a message for standard error; the batch writes it as
    /// `alldiff: line N: MESSAGE`.
    pub(crate) fn with_diagnostic(mut self, message: impl Into<String>) -> Self {
        self.diagnostic = Some(message.into());
        self
    }

    /// True if the item succeeded.
    pub(crate) fn is_success(&self) -> bool {
        self.success
    }

    /// What is written to standard output for the item (a newline follows).
    pub(crate) fn record(&self) -> &str {
        &self.record
    }

    /// The message for standard error, if any.
    pub(crate) fn diagnostic(&self) -> Option<&str> {
        self.diagnostic.as_deref()
    }
}

/// Counts of a finished (or stopped) batch.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Summary {
    /// Items whose report was a success and was written.
    pub(crate) succeeded: u64,
    /// Items whose report was a failure and was written.
    pub(crate) failed: u64,
    /// The output was closed by its reader (a broken pipe) before the end.
    pub(crate) output_closed: bool,
}

impl Summary {
    /// Items written.
    #[cfg(test)]
    pub(crate) fn total(&self) -> u64 {
        self.succeeded + self.failed
    }

    /// [`EXIT_SUCCESS`] if no written item failed, else [`EXIT_FAILURE`]. A
    /// closed output is not an error.
    pub(crate) fn exit_status(&self) -> u8 {
        if self.failed == 0 {
            EXIT_SUCCESS
        } else {
            EXIT_FAILURE
        }
    }

    /// [`Self::exit_status`] as the process's exit code.
    pub(crate) fn exit_code(&self) -> ExitCode {
        ExitCode::from(self.exit_status())
    }

    /// Counts a written item.
    pub(crate) fn count(&mut self, report: &ItemReport) {
        if report.is_success() {
            self.succeeded += 1;
        } else {
            self.failed += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn exit_status_follows_failures() {
        let ok = Summary {
            succeeded: 5,
            failed: 0,
            output_closed: false,
        };
        assert_eq!(ok.exit_status(), 0);
        assert_eq!(ok.total(), 5);
        let failed = Summary { failed: 1, ..ok };
        assert_eq!(failed.exit_status(), 1);
        assert_eq!(failed.total(), 6);
        let closed = Summary {
            output_closed: true,
            ..ok
        };
        assert_eq!(closed.exit_status(), 0);
        assert_eq!(Summary::default().exit_status(), 0);
        assert_eq!((EXIT_SUCCESS, EXIT_FAILURE, EXIT_USAGE), (0, 1, 2));
    }
}
