//! The physical lines of a [`BufRead`], numbered from 1, with their endings
//! removed and their length bounded.

use std::io::{self, BufRead, BufReader, Read};

/// Bytes of a line that are kept; the rest of a longer line is read and
/// dropped, and the item reports [`LineError::TooLong`](super::LineError).
/// Bounds memory even for input without any newline.
pub(crate) const MAX_LINE_BYTES: usize = 4 << 20;

/// Bytes read of a line before the input is given up as not text (a device
/// such as `/dev/zero`, a binary file): the rest of a line too long to keep is
/// skipped up to this, so an endless line ends the run rather than being read
/// for ever.
const MAX_LINE_END: usize = 64 << 20;

/// The byte order mark some editors put at the start of a UTF-8 file.
const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// One physical line, without its ending (`\n` or `\r\n`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Line {
    /// 1-based line number.
    pub(super) number: u64,
    /// The content, at most [`MAX_LINE_BYTES`] of it.
    pub(super) bytes: Vec<u8>,
    /// Length of the whole line; more than `bytes.len()` if it was cut.
    pub(super) len: usize,
}

impl Line {
    /// True if the line was longer than [`MAX_LINE_BYTES`] and was cut.
    pub(super) fn is_cut(&self) -> bool {
        self.len > self.bytes.len()
    }

    /// True for a line of nothing but white space.
    pub(super) fn is_blank(&self) -> bool {
        !self.is_cut() && self.bytes.iter().all(u8::is_ascii_whitespace)
    }

    /// True for a comment: its first non-blank byte is `#`.
    pub(super) fn is_comment(&self) -> bool {
        self.bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'#')
    }
}

/// The physical lines of a reader, read one at a time.
pub(super) struct Lines<R> {
    reader: R,
    line: u64,
    bytes_read: u64,
    failed: bool,
}

impl<R: BufRead> Lines<R> {
    /// The lines of `reader`.
    pub(super) fn new(reader: R) -> Self {
        Lines {
            reader,
            line: 0,
            bytes_read: 0,
            failed: false,
        }
    }

    /// Bytes consumed from the reader so far, line endings included.
    pub(super) fn bytes_read(&self) -> u64 {
        self.bytes_read
    }

    /// The next line, `None` at the end of the input or after a read error
    /// (which is returned once).
    pub(super) fn next_line(&mut self) -> io::Result<Option<Line>> {
        if self.failed {
            return Ok(None);
        }
        let mut bytes = Vec::new();
        match self.read_line(&mut bytes) {
            Ok(None) => Ok(None),
            Ok(Some(mut len)) => {
                self.line += 1;
                if self.line == 1 && bytes.starts_with(UTF8_BOM) {
                    bytes.drain(..UTF8_BOM.len());
                    len -= UTF8_BOM.len();
                }
                Ok(Some(Line {
                    number: self.line,
                    bytes,
                    len,
                }))
            }
            Err(e) => {
                self.failed = true;
                Err(e)
            }
        }
    }

    /// Reads the next physical line into `buf` (at most [`MAX_LINE_BYTES`]
    /// of it) and returns its full length, or `None` at the end of input.
    /// Fails on a line that has not ended after [`MAX_LINE_END`] bytes.
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
            let (take, content) = match find_newline(available) {
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
            if !ended && len > MAX_LINE_END {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "line {} does not end within {} MiB: this is not a file of puzzles",
                        self.line + 1,
                        MAX_LINE_END >> 20
                    ),
                ));
            }
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

/// The index of the first `\n` in `bytes`. It looks 16 bytes at a time, each
/// chunk tested without a branch per byte (vector instructions), and only the
/// chunk that holds the newline byte by byte: a third of the instructions of a
/// plain search over a puzzle line.
fn find_newline(bytes: &[u8]) -> Option<usize> {
    const CHUNK: usize = 16;
    let newline_in = |chunk: &[u8]| chunk.iter().fold(false, |found, &b| found | (b == b'\n'));
    let chunks = bytes.chunks(CHUNK);
    for (i, chunk) in chunks.enumerate() {
        if newline_in(chunk) {
            return chunk
                .iter()
                .position(|&b| b == b'\n')
                .map(|at| i * CHUNK + at);
        }
    }
    None
}

impl<R: Read> Lines<BufReader<R>> {
    /// True if the next read has to go to the underlying reader, and so may
    /// block.
    pub(super) fn nothing_buffered(&self) -> bool {
        self.reader.buffer().is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn lines(input: &[u8]) -> Vec<(u64, Vec<u8>)> {
        let mut lines = Lines::new(Cursor::new(input.to_vec()));
        std::iter::from_fn(|| lines.next_line().unwrap())
            .map(|line| (line.number, line.bytes))
            .collect()
    }

    #[test]
    fn every_line_is_numbered_and_crlf_endings_are_stripped() {
        let input = b"a\r\n\r\nb\rc\r\nlast\r";
        assert_eq!(
            lines(input),
            vec![
                (1, b"a".to_vec()),
                (2, b"".to_vec()),
                (3, b"b\rc".to_vec()),
                (4, b"last".to_vec())
            ]
        );
        assert!(lines(b"").is_empty());
    }

    #[test]
    fn blank_and_comment_lines_are_recognised() {
        let line = |text: &[u8]| Line {
            number: 1,
            bytes: text.to_vec(),
            len: text.len(),
        };
        assert!(line(b" \t").is_blank() && !line(b" \t").is_comment());
        assert!(line(b"   # note").is_comment());
        assert!(!line(b"1 # note").is_comment() && !line(b"1").is_blank());
    }

    #[test]
    fn a_one_megabyte_line_is_whole_and_a_huge_one_is_cut_without_losing_the_next() {
        let mega = vec![b'5'; 1 << 20];
        let huge = vec![b'7'; MAX_LINE_BYTES + 10];
        let mut input = mega.clone();
        input.push(b'\n');
        input.extend_from_slice(&huge);
        input.extend_from_slice(b"\r\nnext\n");
        let mut lines = Lines::new(BufReader::with_capacity(1000, Cursor::new(input)));
        let all: Vec<Line> = std::iter::from_fn(|| lines.next_line().unwrap()).collect();
        assert_eq!(all.len(), 3);
        assert_eq!(all[0].bytes, mega);
        assert!(all[1].is_cut());
        assert_eq!(
            (all[1].bytes.len(), all[1].len),
            (MAX_LINE_BYTES, MAX_LINE_BYTES + 10)
        );
        assert_eq!((all[2].number, &all[2].bytes[..]), (3, &b"next"[..]));
    }

    #[test]
    fn a_line_without_end_is_an_error_after_the_bound() {
        let mut input = vec![b'0'; MAX_LINE_END + (1 << 16)];
        input.extend_from_slice(b"\nnext\n");
        let mut lines = Lines::new(BufReader::new(Cursor::new(input)));
        let error = lines.next_line().unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::InvalidData);
        assert!(
            error.to_string().starts_with("line 1 does not end"),
            "{error}"
        );
        assert!(lines.next_line().unwrap().is_none());
    }

    #[test]
    fn the_newline_search_finds_the_first_one_wherever_it_is() {
        for len in 0..70 {
            let mut bytes: Vec<u8> = (0..len).map(|i| b'0' + (i % 10) as u8).collect();
            assert_eq!(find_newline(&bytes), None, "{len}");
            for at in 0..len {
                bytes[at] = b'\n';
                if at + 9 < len {
                    bytes[at + 9] = b'\n';
                }
                assert_eq!(find_newline(&bytes), Some(at), "{len} {at}");
                bytes[at] = b'0';
                if at + 9 < len {
                    bytes[at + 9] = b'0';
                }
            }
        }
    }

    #[test]
    fn a_byte_order_mark_at_the_start_is_dropped() {
        assert_eq!(
            lines(b"\xEF\xBB\xBFabc\r\n\xEF\xBB\xBFdef\n"),
            vec![(1, b"abc".to_vec()), (2, b"\xEF\xBB\xBFdef".to_vec())]
        );
    }
}
