//! Reading puzzles: positional arguments, a file, or standard input.
//!
//! Input is read line by line from a [`BufRead`] and handed on in chunks, so
//! memory stays flat however long the input is. A line is kept as raw bytes
//! ([`Item`]); whether it is UTF-8 is checked only when the per-item work asks
//! for its text, so a bad line becomes one failed item and never stops the
//! batch or swallows its neighbours.

use std::ffi::OsString;
use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use anyhow::Context as _;

/// Bytes of a line that are kept; the rest of a longer line is read and
/// dropped, and the item reports [`LineError::TooLong`]. Bounds memory even
/// for input without any newline.
pub(crate) const MAX_LINE_BYTES: usize = 4 << 20;

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
}

impl Item {
    /// An item with the given origin and content.
    pub(crate) fn new(origin: Origin, bytes: Vec<u8>) -> Self {
        let len = bytes.len();
        Item { origin, bytes, len }
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

    /// The line as text, without the line ending; surrounding white space is
    /// kept. Fails if the line is not UTF-8, contains a NUL byte, or is
    /// longer than [`MAX_LINE_BYTES`].
    pub(crate) fn text(&self) -> Result<&str, LineError> {
        let what = self.origin.noun();
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
        match text.bytes().position(|b| b == 0) {
            Some(at) => Err(LineError::Nul { what, byte: at + 1 }),
            None => Ok(text),
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
        }
    }
}

impl std::error::Error for LineError {}

/// True for lines that are not puzzles: empty, only white space, or a
/// comment (first non-blank byte is `#`).
pub(crate) fn is_skipped(line: &[u8]) -> bool {
    match line.iter().find(|b| !b.is_ascii_whitespace()) {
        None => true,
        Some(&first) => first == b'#',
    }
}

/// The puzzle lines of a [`BufRead`], numbered from 1, with blank and comment
/// lines skipped and line endings removed. Reads one line at a time.
pub(crate) struct Lines<R> {
    reader: R,
    line: u64,
    bytes_read: u64,
    failed: bool,
}

impl<R: BufRead> Lines<R> {
    /// Puzzle lines of `reader`.
    pub(crate) fn new(reader: R) -> Self {
        Lines {
            reader,
            line: 0,
            bytes_read: 0,
            failed: false,
        }
    }

    /// Bytes consumed from the reader so far, line endings and skipped lines
    /// included.
    pub(crate) fn bytes_read(&self) -> u64 {
        self.bytes_read
    }

    /// Reads the next physical line into `buf` (at most [`MAX_LINE_BYTES`]
    /// of it) and returns its full length, or `None` at the end of input.
    fn read_line(&mut self, buf: &mut Vec<u8>) -> io::Result<Option<usize>> {
        buf.clear();
        let mut consumed = 0usize;
        let mut len = 0usize;
        let mut ended = false;
        let mut last = None;
        while !ended {
            let available = match self.reader.fill_buf() {
                Ok(available) => available,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                break;
            }
            let (take, content) = match available.iter().position(|&b| b == b'\n') {
                Some(at) => {
                    ended = true;
                    (at + 1, at)
                }
                None => (available.len(), available.len()),
            };
            if let Some(&byte) = content.checked_sub(1).and_then(|i| available.get(i)) {
                last = Some(byte);
            }
            let keep = content.min(MAX_LINE_BYTES.saturating_sub(buf.len()));
            buf.extend_from_slice(&available[..keep]);
            len = len.saturating_add(content);
            consumed = consumed.saturating_add(take);
            self.reader.consume(take);
        }
        if consumed == 0 {
            return Ok(None);
        }
        self.bytes_read = self.bytes_read.saturating_add(consumed as u64);
        // A CRLF ending (or a final `\r`): the `\r` is part of the content
        // so far, and is dropped even from a line that was cut.
        if last == Some(b'\r') {
            len -= 1;
            buf.truncate(len);
        }
        Ok(Some(len))
    }
}

impl<R: Read> Lines<BufReader<R>> {
    /// True if the next read has to go to the underlying reader, and so may
    /// block.
    pub(crate) fn nothing_buffered(&self) -> bool {
        self.reader.buffer().is_empty()
    }
}

impl<R: BufRead> Iterator for Lines<R> {
    type Item = io::Result<Item>;

    fn next(&mut self) -> Option<io::Result<Item>> {
        if self.failed {
            return None;
        }
        let mut buf = Vec::new();
        loop {
            match self.read_line(&mut buf) {
                Ok(None) => return None,
                Ok(Some(mut len)) => {
                    self.line += 1;
                    if self.line == 1 && buf.starts_with(UTF8_BOM) {
                        buf.drain(..UTF8_BOM.len());
                        len -= UTF8_BOM.len();
                    }
                    let cut = len > buf.len();
                    if !cut && is_skipped(&buf) || cut && buf.first() == Some(&b'#') {
                        continue;
                    }
                    let bytes = std::mem::take(&mut buf);
                    return Some(Ok(Item {
                        origin: Origin::Line(self.line),
                        bytes,
                        len,
                    }));
                }
                Err(e) => {
                    self.failed = true;
                    return Some(Err(e));
                }
            }
        }
    }
}

/// The byte order mark some editors put at the start of a UTF-8 file.
const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// How big a chunk may grow before it is processed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ChunkLimits {
    /// At most this many items (at least 1 is always taken).
    pub(crate) items: usize,
    /// Stop adding items once their bytes reach this.
    pub(crate) bytes: usize,
}

impl Default for ChunkLimits {
    fn default() -> Self {
        ChunkLimits {
            items: 4096,
            bytes: 8 << 20,
        }
    }
}

/// A run of consecutive items, in input order.
#[derive(Debug, Default)]
pub(crate) struct Chunk {
    /// The items.
    pub(crate) items: Vec<Item>,
    /// Progress after this chunk, in the unit of [`Input::progress_total`].
    pub(crate) progress: u64,
}

/// What input lines are read from.
type Reader = BufReader<Box<dyn Read + Send>>;

/// Read buffer size for files and standard input.
pub(crate) const READ_BUFFER_BYTES: usize = 64 << 10;

/// An opened source of puzzles, read chunk by chunk.
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
        lines: Lines<Reader>,
        pending: Option<io::Error>,
        name: String,
        /// End a chunk when no more input is buffered, so that results of a
        /// slow stream (a person typing, a slow producer) come out at once.
        stream: bool,
    },
}

/// Fails with a usage error if the output file `output` (given as the option
/// `output_option`) is the `--input` file `input`, by the same name or another
/// (a relative path, a symbolic or hard link): writing it would destroy the
/// puzzles before they are read. Call it before anything is opened for writing.
/// Standard input (`-`) and an output that does not exist yet never collide.
pub(crate) fn ensure_not_input(
    output: &Path,
    output_option: &str,
    input: Option<&Path>,
) -> anyhow::Result<()> {
    let Some(input) = input.filter(|path| path.as_os_str() != "-") else {
        return Ok(());
    };
    if same_file(output, input) {
        anyhow::bail!(
            "{output_option} {} and --input {} are the same file: \
             writing it would destroy the puzzles; choose another {output_option} file",
            output.display(),
            input.display()
        );
    }
    Ok(())
}

/// True if both paths name one existing file.
fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        if let (Ok(a), Ok(b)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            return a.dev() == b.dev() && a.ino() == b.ino();
        }
    }
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

impl Input {
    /// Opens the input the command line names: the `PUZZLE` arguments, else the
    /// `--input` file (`-` is standard input), else standard input. The error
    /// names the path: it does not exist, is a directory, or cannot be read.
    pub(crate) fn open(puzzles: &[OsString], input: Option<&Path>) -> anyhow::Result<Input> {
        if !puzzles.is_empty() {
            return Ok(Input::from_arguments(puzzles.to_vec()));
        }
        match input {
            Some(path) if path.as_os_str() != "-" => Input::from_path(path),
            _ => Ok(Input::from_reader(io::stdin(), "standard input")),
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

    /// The puzzle lines of the file at `path`.
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
        let mut input = Input::lines(Box::new(file), &shown.to_string(), !regular);
        input.total = regular.then_some(meta.len());
        Ok(input)
    }

    /// The puzzle lines of a stream such as standard input; `name` is used
    /// in read errors. Lines are handed on as soon as they arrive, in chunks
    /// of what has been read so far.
    pub(crate) fn from_reader(reader: impl Read + Send + 'static, name: &str) -> Input {
        Input::lines(Box::new(reader), name, true)
    }

    fn lines(reader: Box<dyn Read + Send>, name: &str, stream: bool) -> Input {
        Input {
            kind: InputKind::Lines {
                lines: Lines::new(BufReader::with_capacity(READ_BUFFER_BYTES, reader)),
                pending: None,
                name: name.to_owned(),
                stream,
            },
            total: None,
        }
    }

    /// How much input there is, if known: bytes of a file, or the number of
    /// arguments. [`Chunk::progress`] counts in the same unit.
    pub(crate) fn progress_total(&self) -> Option<u64> {
        self.total
    }

    /// True when progress counts bytes (a file) rather than items.
    pub(crate) fn progress_in_bytes(&self) -> bool {
        matches!(self.kind, InputKind::Lines { .. })
    }

    /// The next chunk of items, `None` at the end. A read error is returned
    /// after the items read before it have been returned as a chunk.
    pub(crate) fn next_chunk(&mut self, limits: ChunkLimits) -> anyhow::Result<Option<Chunk>> {
        let max_items = limits.items.max(1);
        let mut chunk = Chunk::default();
        let mut bytes = 0usize;
        match &mut self.kind {
            InputKind::Arguments { args, next } => {
                for arg in args.by_ref() {
                    let item = Item::new(Origin::Argument(*next), arg.into_encoded_bytes());
                    *next += 1;
                    bytes = bytes.saturating_add(item.bytes.len());
                    chunk.items.push(item);
                    if chunk.items.len() >= max_items || bytes >= limits.bytes {
                        break;
                    }
                }
                chunk.progress = *next - 1;
            }
            InputKind::Lines {
                lines,
                pending,
                name,
                stream,
            } => {
                if let Some(e) = pending.take() {
                    return Err(read_error(e, name));
                }
                while let Some(item) = lines.next() {
                    match item {
                        Ok(item) => {
                            bytes = bytes.saturating_add(item.bytes.len());
                            chunk.items.push(item);
                            let idle = *stream && lines.nothing_buffered();
                            if idle || chunk.items.len() >= max_items || bytes >= limits.bytes {
                                break;
                            }
                        }
                        Err(e) if chunk.items.is_empty() => return Err(read_error(e, name)),
                        Err(e) => {
                            *pending = Some(e);
                            break;
                        }
                    }
                }
                chunk.progress = lines.bytes_read();
            }
        }
        Ok((!chunk.items.is_empty()).then_some(chunk))
    }
}

fn read_error(error: io::Error, name: &str) -> anyhow::Error {
    anyhow::Error::new(error).context(format!("cannot read {name}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Cursor, Read};
    use std::path::PathBuf;

    fn lines(input: &[u8]) -> Vec<(u64, Vec<u8>)> {
        Lines::new(Cursor::new(input.to_vec()))
            .map(|item| {
                let item = item.unwrap();
                (item.number(), item.bytes().to_vec())
            })
            .collect()
    }

    #[test]
    fn blank_and_comment_lines_are_skipped_but_counted() {
        let input = b"a\n\n   \n\t\n# comment\n   # indented comment\nb\n#\nc";
        assert_eq!(
            lines(input),
            vec![(1, b"a".to_vec()), (7, b"b".to_vec()), (9, b"c".to_vec())]
        );
    }

    #[test]
    fn white_space_around_a_puzzle_is_kept_and_hash_later_in_a_line_is_not_a_comment() {
        assert_eq!(lines(b"  x # y \n"), vec![(1, b"  x # y ".to_vec())]);
    }

    #[test]
    fn crlf_endings_are_stripped_and_a_lone_cr_inside_is_kept() {
        let input = b"a\r\n\r\nb\rc\r\nlast\r";
        assert_eq!(
            lines(input),
            vec![
                (1, b"a".to_vec()),
                (3, b"b\rc".to_vec()),
                (4, b"last".to_vec())
            ]
        );
    }

    #[test]
    fn empty_input_has_no_items() {
        assert!(lines(b"").is_empty());
        assert!(lines(b"\n\n# only comments\n").is_empty());
    }

    #[test]
    fn bad_bytes_are_kept_and_reported_by_text() {
        let input = b"ok\n\xff\xfe\nnul\0here\nab\xc3\n";
        let items: Vec<Item> = Lines::new(Cursor::new(input.to_vec()))
            .map(Result::unwrap)
            .collect();
        assert_eq!(items.len(), 4);
        assert_eq!(items[0].text(), Ok("ok"));
        assert_eq!(items[1].bytes(), b"\xff\xfe");
        assert_eq!(
            items[1].text().unwrap_err().to_string(),
            "line is not UTF-8 (byte 1)"
        );
        assert_eq!(
            items[2].text().unwrap_err().to_string(),
            "line contains a NUL byte (byte 4)"
        );
        assert_eq!(
            items[3].text().unwrap_err().to_string(),
            "line is not UTF-8 (byte 3)"
        );
        assert_eq!(items[3].number(), 4);
    }

    #[test]
    fn a_one_megabyte_line_is_whole_and_a_huge_one_is_cut_without_losing_the_next() {
        let mega = vec![b'5'; 1 << 20];
        let huge = vec![b'7'; MAX_LINE_BYTES + 10];
        let mut input = mega.clone();
        input.push(b'\n');
        input.extend_from_slice(&huge);
        input.extend_from_slice(b"\r\nnext\n");
        let items: Vec<Item> = Lines::new(BufReader::with_capacity(1000, Cursor::new(input)))
            .map(Result::unwrap)
            .collect();
        assert_eq!(items.len(), 3);
        assert_eq!(items[0].text().map(str::len), Ok(1 << 20));
        assert_eq!(items[1].bytes().len(), MAX_LINE_BYTES);
        assert_eq!(
            items[1].text(),
            Err(LineError::TooLong {
                what: "line",
                len: MAX_LINE_BYTES + 10
            })
        );
        assert_eq!((items[2].number(), items[2].text()), (3, Ok("next")));
    }

    /// A reader that fails after its data.
    struct FailingReader(Cursor<Vec<u8>>);

    impl Read for FailingReader {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            match self.0.read(buf)? {
                0 => Err(io::Error::other("disk on fire")),
                n => Ok(n),
            }
        }
    }

    #[test]
    fn a_read_error_comes_after_the_lines_before_it() {
        let reader = FailingReader(Cursor::new(b"a\nb\n".to_vec()));
        let mut input = Input::from_reader(reader, "test input");
        let chunk = input.next_chunk(ChunkLimits::default()).unwrap().unwrap();
        assert_eq!(chunk.items.len(), 2);
        let err = input.next_chunk(ChunkLimits::default()).unwrap_err();
        assert_eq!(format!("{err:#}"), "cannot read test input: disk on fire");
    }

    #[test]
    fn chunks_respect_item_and_byte_limits() {
        let text: String = (1..=10).map(|i| format!("{i:04}\n")).collect();
        let mut input = Input::from_reader(Cursor::new(text.into_bytes()), "t");
        let limits = ChunkLimits {
            items: 3,
            bytes: 1 << 20,
        };
        let sizes: Vec<usize> = std::iter::from_fn(|| input.next_chunk(limits).unwrap())
            .map(|c| c.items.len())
            .collect();
        assert_eq!(sizes, vec![3, 3, 3, 1]);

        let text: String = (1..=10).map(|i| format!("{i:04}\n")).collect();
        let mut input = Input::from_reader(Cursor::new(text.into_bytes()), "t");
        let limits = ChunkLimits {
            items: 100,
            bytes: 8,
        };
        let first = input.next_chunk(limits).unwrap().unwrap();
        assert_eq!(first.items.len(), 2);
        assert_eq!(first.progress, 10);
    }

    /// A slow stream: each read returns one line, as a person typing would.
    struct Trickle(std::vec::IntoIter<&'static [u8]>);

    impl Read for Trickle {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let Some(line) = self.0.next() else {
                return Ok(0);
            };
            assert!(buf.len() >= line.len());
            buf[..line.len()].copy_from_slice(line);
            Ok(line.len())
        }
    }

    #[test]
    fn a_stream_hands_on_what_has_arrived_without_waiting_for_a_full_chunk() {
        let parts: Vec<&'static [u8]> = vec![b"a\nb\n", b"# c\n", b"d\n", b"e"];
        let mut input = Input::from_reader(Trickle(parts.into_iter()), "t");
        let chunks: Vec<Vec<u64>> =
            std::iter::from_fn(|| input.next_chunk(ChunkLimits::default()).unwrap())
                .map(|c| c.items.iter().map(Item::number).collect())
                .collect();
        assert_eq!(chunks, vec![vec![1, 2], vec![4], vec![5]]);
    }

    #[test]
    fn a_byte_order_mark_at_the_start_is_dropped() {
        assert_eq!(
            lines(b"\xEF\xBB\xBFabc\r\n\xEF\xBB\xBFdef\n"),
            vec![(1, b"abc".to_vec()), (2, b"\xEF\xBB\xBFdef".to_vec())]
        );
        assert!(lines(b"\xEF\xBB\xBF# comment\n").is_empty());
    }

    #[test]
    fn arguments_are_items_in_order_and_never_skipped() {
        let args = vec![
            OsString::from("p1"),
            OsString::from(""),
            OsString::from("# not a comment"),
        ];
        let mut input = Input::from_arguments(args);
        assert_eq!(input.progress_total(), Some(3));
        let chunk = input.next_chunk(ChunkLimits::default()).unwrap().unwrap();
        let got: Vec<(String, &[u8])> = chunk
            .items
            .iter()
            .map(|i| (i.origin().to_string(), i.bytes()))
            .collect();
        assert_eq!(
            got,
            vec![
                ("argument 1".to_owned(), &b"p1"[..]),
                ("argument 2".to_owned(), &b""[..]),
                ("argument 3".to_owned(), &b"# not a comment"[..]),
            ]
        );
        assert!(input.next_chunk(ChunkLimits::default()).unwrap().is_none());
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("alldiff-cli-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_missing_file_is_an_error_naming_it() {
        let path = temp_dir("missing").join("no-such-file.txt");
        let err = Input::from_path(&path).err().expect("must fail");
        let msg = format!("{err:#}");
        assert!(msg.contains(&path.display().to_string()), "{msg}");
        assert!(msg.contains("No such file"), "{msg}");
    }

    #[test]
    fn a_directory_is_an_error_naming_it() {
        let dir = temp_dir("dir");
        let err = Input::from_path(&dir).err().expect("must fail");
        let msg = format!("{err:#}");
        assert!(msg.contains(&dir.display().to_string()), "{msg}");
        assert!(msg.contains("is a directory"), "{msg}");
    }

    #[test]
    fn an_empty_file_has_no_chunks_and_a_file_knows_its_size() {
        let dir = temp_dir("files");
        let empty = dir.join("empty.txt");
        std::fs::write(&empty, b"").unwrap();
        let mut input = Input::from_path(&empty).unwrap();
        assert!(input.next_chunk(ChunkLimits::default()).unwrap().is_none());

        let full = dir.join("full.txt");
        std::fs::write(&full, b"a\n# c\nb\n").unwrap();
        let mut input = Input::from_path(&full).unwrap();
        assert_eq!(input.progress_total(), Some(8));
        let chunk = input.next_chunk(ChunkLimits::default()).unwrap().unwrap();
        assert_eq!(chunk.items.len(), 2);
        assert_eq!(chunk.progress, 8);
    }

    #[test]
    fn an_output_over_the_input_is_refused_by_any_name() {
        let dir = temp_dir("same");
        let input = dir.join("in.txt");
        std::fs::write(&input, b"a\n").unwrap();
        let other = dir.join("out.txt");
        assert!(ensure_not_input(&other, "--trace", Some(&input)).is_ok());
        assert!(ensure_not_input(&input, "--trace", None).is_ok());
        assert!(ensure_not_input(Path::new("-"), "--trace", Some(Path::new("-"))).is_ok());
        let err = ensure_not_input(&input, "--trace", Some(&input)).unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains("--trace") && msg.contains("--input"), "{msg}");
        let dotted = dir.join(".").join("in.txt");
        assert!(ensure_not_input(&dotted, "--trace", Some(&input)).is_err());
        #[cfg(unix)]
        {
            let linked = dir.join("hard.txt");
            std::fs::hard_link(&input, &linked).unwrap();
            assert!(ensure_not_input(&linked, "--trace", Some(&input)).is_err());
            let symbolic = dir.join("soft.txt");
            std::os::unix::fs::symlink(&input, &symbolic).unwrap();
            assert!(ensure_not_input(&symbolic, "--trace", Some(&input)).is_err());
        }
    }
}
