//! Reading puzzles: positional arguments, a file, or standard input.
//!
//! Input is read line by line ([`lines`]) and handed on item by item, so
//! memory stays flat however long the input is, and a puzzle is handed on as
//! soon as its last line has arrived. Lines are grouped into puzzles by
//! [`grids`]: one-line puzzles, and grids spread over several lines. An item
//! is kept as raw bytes ([`Item`]); whether it is UTF-8 is checked only when
//! the per-item work asks for its text, so a bad line becomes one failed item
//! and never stops the batch or swallows its neighbours.

mod grids;
mod lines;

use std::ffi::OsString;
use std::fmt;
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::Path;

use anyhow::Context as _;

use grids::Puzzles;
pub(crate) use lines::MAX_LINE_BYTES;

/// Where an item came from, for messages: `line 7` or `argument 2`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Origin {
    /// 1-based line number in the file or standard input.
    Line(u64),
    /// 1-based position among the `PUZZLE` arguments.
    Argument(u64),
}

impl Origin {
    /// The 1-based number, whichever kind it is.
    pub(crate) fn number(self) -> u64 {
        match self {
            Origin::Line(n) | Origin::Argument(n) => n,
        }
    }

    /// `line` or `argument`: the word in messages, and the key of a JSON
    /// record's number.
    pub(crate) fn noun(self) -> &'static str {
        match self {
            Origin::Line(_) => "line",
            Origin::Argument(_) => "argument",
        }
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.noun(), self.number())
    }
}

/// One puzzle of the input, as raw bytes without its line ending.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Item {
    origin: Origin,
    bytes: Vec<u8>,
    /// Length of the whole line; more than `bytes.len()` if it was cut.
    len: usize,
    /// The last line of a grid spread over several lines (else the first).
    last: u64,
    /// A grid cut short: its rows and the cells of its first row.
    incomplete: Option<(usize, Option<usize>)>,
}

impl Item {
    /// An item with the given origin and content.
    pub(crate) fn new(origin: Origin, bytes: Vec<u8>) -> Self {
        let len = bytes.len();
        Item {
            origin,
            bytes,
            len,
            last: origin.number(),
            incomplete: None,
        }
    }

    /// Where the item came from.
    pub(crate) fn origin(&self) -> Origin {
        self.origin
    }

    /// The 1-based line (or argument) number.
    pub(crate) fn number(&self) -> u64 {
        self.origin.number()
    }

    /// The raw bytes, without the line ending (`\n` or `\r\n`); surrounding
    /// white space is kept. For a line longer than [`MAX_LINE_BYTES`] this is
    /// only its beginning.
    #[cfg(test)]
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// `message` about the item, naming its lines if it is a grid spread
    /// over several lines (a one-line item is named by the batch).
    pub(crate) fn in_context(&self, message: impl fmt::Display) -> String {
        match self.origin {
            Origin::Line(first) if self.last > first => {
                format!("the grid on {}: {message}", Span(first, self.last))
            }
            _ => message.to_string(),
        }
    }

    /// The item as text, without the line ending (the lines of a grid are
    /// joined by `\n`); surrounding white space is kept. Fails if the item is
    /// not UTF-8, contains a NUL byte, is longer than [`MAX_LINE_BYTES`], or
    /// is a grid cut short.
    pub(crate) fn text(&self) -> Result<&str, LineError> {
        let what = self.origin.noun();
        if let Some((rows, width)) = self.incomplete {
            return Err(LineError::IncompleteGrid {
                first: self.origin.number(),
                last: self.last,
                rows,
                width,
            });
        }
        if self.len > self.bytes.len() {
            return Err(LineError::TooLong {
                what,
                len: self.len,
            });
        }
        let text = std::str::from_utf8(&self.bytes).map_err(|e| LineError::NotUtf8 {
            what,
            byte: e.valid_up_to() + 1,
        })?;
        // `contains` looks a word at a time; the position is only for the message.
        match text.as_bytes().contains(&0) {
            true => Err(LineError::Nul {
                what,
                byte: text.bytes().position(|b| b == 0).unwrap_or_default() + 1,
            }),
            false => Ok(text),
        }
    }
}

/// Why a line cannot be handed on as text. Byte positions are 1-based.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum LineError {
    /// The line is not valid UTF-8; `byte` is the first bad byte.
    NotUtf8 {
        /// `"line"` or `"argument"`.
        what: &'static str,
        /// 1-based position of the first byte that is not UTF-8.
        byte: usize,
    },
    /// The line contains a NUL byte.
    Nul {
        /// `"line"` or `"argument"`.
        what: &'static str,
        /// 1-based position of the first NUL byte.
        byte: usize,
    },
    /// The line is longer than [`MAX_LINE_BYTES`].
    TooLong {
        /// `"line"` or `"argument"`.
        what: &'static str,
        /// Length of the line in bytes.
        len: usize,
    },
    /// Lines that began a grid but were cut short by a blank line, a
    /// one-line puzzle or the end of the input.
    IncompleteGrid {
        /// The grid's first line.
        first: u64,
        /// Its last line.
        last: u64,
        /// Its rows (lines with cells).
        rows: usize,
        /// The cells of its first row; `None` if it has only separators.
        width: Option<usize>,
    },
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::NotUtf8 { what, byte } => write!(f, "{what} is not UTF-8 (byte {byte})"),
            LineError::Nul { what, byte } => write!(f, "{what} contains a NUL byte (byte {byte})"),
            LineError::TooLong { what, len } => write!(
                f,
                "{what} is too long ({len} bytes; at most {MAX_LINE_BYTES} are accepted)"
            ),
            LineError::IncompleteGrid {
                first,
                last,
                rows,
                width: Some(width),
            } => write!(
                f,
                "the grid on {} has {rows} row{} of {width} cells, \
                 but a {width}x{width} Sudoku has {width} rows",
                Span(*first, *last),
                if *rows == 1 { "" } else { "s" }
            ),
            LineError::IncompleteGrid {
                first,
                last,
                width: None,
                ..
            } => write!(f, "{} holds separators but no cells", Span(*first, *last)),
        }
    }
}

impl std::error::Error for LineError {}

/// Lines `first` to `last`, for messages: `line 3` or `lines 3-11`.
struct Span(u64, u64);

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Span(first, last) if first == last => write!(f, "line {first}"),
            Span(first, last) => write!(f, "lines {first}-{last}"),
        }
    }
}

/// What input lines are read from.
type Reader = BufReader<Box<dyn Read + Send>>;

/// Read buffer size for files and standard input.
pub(crate) const READ_BUFFER_BYTES: usize = 64 << 10;

/// An opened source of puzzles, read item by item.
pub(crate) struct Input {
    kind: InputKind,
    total: Option<u64>,
}

enum InputKind {
    Arguments {
        args: std::vec::IntoIter<OsString>,
        next: u64,
    },
    Lines {
        puzzles: Puzzles<Reader>,
        name: String,
        /// A stream (standard input, a pipe): reading may wait for a slow
        /// producer.
        stream: bool,
    },
}

impl Input {
    /// Opens the input the command line names: the `PUZZLE` arguments, else the
    /// `--input` file (`-` is standard input), else standard input. Lines are
    /// grouped into puzzles, one-line or grids (see [`grids`]). The error
    /// names the path: it does not exist, is a directory, or cannot be read.
    pub(crate) fn open(puzzles: &[OsString], input: Option<&Path>) -> anyhow::Result<Input> {
        if !puzzles.is_empty() {
            return Ok(Input::from_arguments(puzzles.to_vec()));
        }
        match input {
            Some(path) if path.as_os_str() != "-" => Input::from_path(path),
            _ => Ok(Input::lines(
                Box::new(io::stdin()),
                "standard input",
                true,
                true,
            )),
        }
    }

    /// Each argument is one item, numbered from 1, never skipped.
    pub(crate) fn from_arguments(args: Vec<OsString>) -> Input {
        let total = Some(args.len() as u64);
        Input {
            kind: InputKind::Arguments {
                args: args.into_iter(),
                next: 1,
            },
            total,
        }
    }

    /// The puzzles of the file at `path`, one-line or grids.
    pub(crate) fn from_path(path: &Path) -> anyhow::Result<Input> {
        let shown = path.display();
        let file = File::open(path).with_context(|| format!("cannot open {shown}"))?;
        let meta = file
            .metadata()
            .with_context(|| format!("cannot read {shown}"))?;
        if meta.is_dir() {
            anyhow::bail!("cannot read {shown}: it is a directory, not a file of puzzles");
        }
        // A named pipe or a device is read as a stream.
        let regular = meta.is_file();
        let mut input = Input::lines(Box::new(file), &shown.to_string(), !regular, true);
        input.total = regular.then_some(meta.len());
        Ok(input)
    }

    /// The lines of a stream, one item each (no grids); `name` is used in
    /// read errors. Items are handed on as soon as they arrive.
    #[cfg(test)]
    pub(crate) fn from_reader(reader: impl Read + Send + 'static, name: &str) -> Input {
        Input::lines(Box::new(reader), name, true, false)
    }

    /// The puzzles of a stream, one-line or grids, as [`Input::open`] reads
    /// standard input.
    #[cfg(test)]
    pub(crate) fn puzzles_from_reader(reader: impl Read + Send + 'static, name: &str) -> Input {
        Input::lines(Box::new(reader), name, true, true)
    }

    fn lines(reader: Box<dyn Read + Send>, name: &str, stream: bool, grids: bool) -> Input {
        let reader = BufReader::with_capacity(READ_BUFFER_BYTES, reader);
        Input {
            kind: InputKind::Lines {
                puzzles: Puzzles::new(reader, grids),
                name: name.to_owned(),
                stream,
            },
            total: None,
        }
    }

    /// How much input there is, if known: bytes of a file, or the number of
    /// arguments. [`Input::next_item`] counts progress in the same unit.
    pub(crate) fn progress_total(&self) -> Option<u64> {
        self.total
    }

    /// True when progress counts bytes (a file) rather than items.
    pub(crate) fn progress_in_bytes(&self) -> bool {
        matches!(self.kind, InputKind::Lines { .. })
    }

    /// True if the next [`Input::next_item`] may wait for a slow producer:
    /// the time to write out what is done.
    pub(crate) fn may_block(&self) -> bool {
        match &self.kind {
            InputKind::Arguments { .. } => false,
            InputKind::Lines {
                puzzles, stream, ..
            } => *stream && puzzles.may_block(),
        }
    }

    /// The next item and the progress after it (in the unit of
    /// [`Input::progress_total`]), `None` at the end. A read error comes
    /// after the items read before it, and ends the input.
    pub(crate) fn next_item(&mut self) -> anyhow::Result<Option<(Item, u64)>> {
        match &mut self.kind {
            InputKind::Arguments { args, next } => Ok(args.next().map(|arg| {
                let item = Item::new(Origin::Argument(*next), arg.into_encoded_bytes());
                *next += 1;
                (item, *next - 1)
            })),
            InputKind::Lines { puzzles, name, .. } => match puzzles.next_item() {
                Ok(item) => Ok(item.map(|item| (item, puzzles.bytes_read()))),
                Err(e) => Err(read_error(e, name)),
            },
        }
    }
}

fn read_error(error: io::Error, name: &str) -> anyhow::Error {
    anyhow::Error::new(error).context(format!("cannot read {name}"))
}

#[cfg(test)]
mod tests;
