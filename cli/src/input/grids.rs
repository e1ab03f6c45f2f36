//! Puzzles spread over several lines, told apart from one-line puzzles line by
//! line as they arrive.
//!
//! A grid is a run of lines whose rows all hold one row of a Sudoku: 4, 9, 16
//! or 25 cells (digits `1`-`9`, letters `A`-`P` and the blanks `.0_*`; white
//! space and `|`, `-`, `+` are layout) and no digit too large for that size
//! (so `done` is not a row of a 4x4 grid), with separator lines (no cells, such as
//! `------+-------+------`) anywhere. That covers alldiff's own `--format grid`,
//! qqwing's readable and compact forms, and plain lines of 9 characters. A grid
//! ends when it has as many rows as cells in a row; a blank line or a line that
//! is a whole puzzle by itself ends it early, and it is then an error that
//! names its lines. Comment lines are skipped, even inside a grid; separator
//! lines right after a grid (a bottom border) are skipped too.
//!
//! A line of 16 cells is either a whole 4x4 puzzle or a row of a 16x16 grid.
//! Outside a grid it starts a 16x16 grid when it has layout (white space or `|`
//! between cells, as `--format grid` prints rows), or when it holds a digit
//! above 4 and no digit twice (so it cannot be a 4x4 puzzle, and can be a
//! row); otherwise it is a 4x4 puzzle. So a 16x16 grid written without layout
//! whose first row has only blanks and digits 1 to 4 reads as a 4x4 puzzle
//! followed by an incomplete grid.
//!
//! A line with a comma is a row of comma-separated values, as CSV files of
//! puzzles give them (`puzzle,solution`, qqwing's `--csv`): its fields that hold
//! something, unquoted and trimmed, are read on separated by spaces: a puzzle, a
//! puzzle and its solution (as `generate --with-solution` writes them), or a row
//! of a grid written with commas. The input's first such row is skipped as a
//! header when its first field is a word (`quizzes,solutions`, `Puzzle,`).
//!
//! The decision about a line never waits for the next one, so a puzzle is
//! handed on as soon as its last line has arrived.

use std::io::{self, BufRead, BufReader, Read};

use super::lines::{Line, Lines};
use super::{Item, Origin};

/// Cell counts of whole puzzles: 4x4, 9x9, 16x16 and 25x25.
const PUZZLE_CELLS: [usize; 4] = [16, 81, 256, 625];

/// What a line holds, as far as telling rows from puzzles goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Shape {
    /// Cells: digits, letters and blanks.
    cells: usize,
    /// A character that is neither a cell nor layout.
    invalid: bool,
    /// White space or `|` between two cells.
    layout: bool,
    /// The largest digit (0 if there is none).
    max: u32,
    /// Some digit appears twice.
    repeated: bool,
}

impl Shape {
    fn of(bytes: &[u8]) -> Shape {
        let mut shape = Shape {
            cells: 0,
            invalid: false,
            layout: false,
            max: 0,
            repeated: false,
        };
        let mut seen = 0u32;
        let mut gap = false;
        let mut visit = |symbol: Symbol| {
            let digit = match symbol {
                Symbol::Cell(digit) => digit,
                Symbol::Gap => {
                    gap = true;
                    return;
                }
                Symbol::Separator => return,
                Symbol::Invalid => {
                    shape.invalid = true;
                    return;
                }
            };
            shape.layout |= gap && shape.cells > 0;
            gap = false;
            shape.cells += 1;
            if digit > 0 {
                shape.repeated |= seen & (1 << digit) != 0;
                seen |= 1 << digit;
                shape.max = shape.max.max(digit);
            }
        };
        if bytes.is_ascii() {
            // The usual case, a byte at a time.
            bytes
                .iter()
                .for_each(|&byte| visit(Symbol::of(char::from(byte))));
        } else {
            match std::str::from_utf8(bytes) {
                Ok(text) => text.chars().for_each(|ch| visit(Symbol::of(ch))),
                Err(_) => visit(Symbol::Invalid),
            }
        }
        shape
    }

    /// True for a separator line: layout only.
    fn is_separator(self) -> bool {
        self.cells == 0 && !self.invalid
    }

    /// The width of the grid this line can be the first row of.
    fn row_width(self) -> Option<usize> {
        let fits = !self.invalid && self.max as usize <= self.cells;
        match self.cells {
            _ if !fits => None,
            4 | 9 | 25 => Some(self.cells),
            16 if self.layout || (self.max > 4 && !self.repeated) => Some(16),
            _ => None,
        }
    }

    /// True if the line is a whole puzzle by itself and not a row of a grid
    /// of `width` (unknown before the first row).
    fn ends_grid(self, width: Option<usize>) -> bool {
        match width {
            Some(width) => PUZZLE_CELLS.contains(&self.cells) && self.cells != width,
            None => PUZZLE_CELLS.contains(&self.cells) && self.row_width().is_none(),
        }
    }
}

/// True for the usual one-line puzzle, told without a closer look: 81, 256
/// or 625 letters, digits and dots (no grid row has that many cells). The test
/// has no branch per byte, so that it compiles to vector instructions.
fn is_plain(line: &Line) -> bool {
    PUZZLE_CELLS[1..].contains(&line.bytes.len())
        && line.bytes.iter().fold(true, |plain, &byte| {
            plain & (byte.is_ascii_alphanumeric() | (byte == b'.'))
        })
}

/// What a character of a line stands for, as [`Grid::parse`] reads it.
///
/// [`Grid::parse`]: alldiff::sudoku::Grid::parse
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Symbol {
    /// A cell: 0 for a blank, else its digit.
    Cell(u32),
    /// White space or `|`: layout between cells.
    Gap,
    /// `-` or `+`.
    Separator,
    /// Neither.
    Invalid,
}

impl Symbol {
    fn of(ch: char) -> Symbol {
        match ch {
            '.' | '0' | '_' | '*' => Symbol::Cell(0),
            '1'..='9' => Symbol::Cell(u32::from(ch) - u32::from('0')),
            'a'..='p' => Symbol::Cell(u32::from(ch) - u32::from('a') + 10),
            'A'..='P' => Symbol::Cell(u32::from(ch) - u32::from('A') + 10),
            '|' => Symbol::Gap,
            '-' | '+' => Symbol::Separator,
            _ if ch.is_whitespace() => Symbol::Gap,
            _ => Symbol::Invalid,
        }
    }
}

/// A row of comma-separated values: its fields that hold something, unquoted and
/// trimmed, joined by a space; `None` for a header, a first row whose first field
/// is a word of letters (no puzzle has only letters and the length of a word).
fn csv_row(bytes: &[u8], first: bool) -> Option<Vec<u8>> {
    let fields = bytes.split(|&b| b == b',').map(|field| {
        let field = field.trim_ascii();
        let unquoted = field
            .strip_prefix(b"\"")
            .and_then(|f| f.strip_suffix(b"\""));
        unquoted.unwrap_or(field).trim_ascii()
    });
    let mut fields = fields.filter(|field| !field.is_empty()).peekable();
    let word = |field: &&[u8]| {
        !PUZZLE_CELLS.contains(&field.len())
            && field
                .iter()
                .all(|&b| b.is_ascii_alphabetic() || b == b'_' || b == b' ')
    };
    if first && fields.peek().is_some_and(word) {
        return None;
    }
    Some(fields.collect::<Vec<_>>().join(&b' '))
}

/// A grid being read.
#[derive(Debug)]
struct Pending {
    first: u64,
    last: u64,
    width: Option<usize>,
    rows: usize,
    text: Vec<u8>,
}

impl Pending {
    fn new(line: &Line) -> Pending {
        Pending {
            first: line.number,
            last: line.number,
            width: None,
            rows: 0,
            text: Vec::new(),
        }
    }

    fn push(&mut self, line: Line, cells: usize) {
        if !self.text.is_empty() {
            self.text.push(b'\n');
        }
        self.text.extend_from_slice(&line.bytes);
        self.last = line.number;
        if cells > 0 {
            self.rows += 1;
            self.width.get_or_insert(cells);
        }
    }

    fn is_complete(&self) -> bool {
        self.width == Some(self.rows)
    }

    /// The item: a grid, or (not complete) the error that says why not.
    fn into_item(self) -> Item {
        let complete = self.is_complete();
        let mut item = Item::new(Origin::Line(self.first), self.text);
        item.last = self.last;
        if !complete {
            item.incomplete = Some((self.rows, self.width));
        }
        item
    }
}

/// The puzzles of a [`BufRead`]: one-line puzzles and multi-line grids, with
/// blank and comment lines skipped. With `grids` off, every line that is not
/// blank or a comment is one item.
pub(super) struct Puzzles<R> {
    lines: Lines<R>,
    grids: bool,
    pending: Option<Pending>,
    /// A line read past the end of an incomplete grid, to be read again.
    held: Option<Line>,
    /// The last item was a complete grid: separator lines are its border.
    after_grid: bool,
    /// A read error that came while a grid was pending, returned next.
    error: Option<io::Error>,
    /// A line other than a blank or a comment has been read: a CSV header can
    /// only come before.
    started: bool,
}

impl<R: BufRead> Puzzles<R> {
    /// The puzzles of `reader`.
    pub(super) fn new(reader: R, grids: bool) -> Self {
        Puzzles {
            lines: Lines::new(reader),
            grids,
            pending: None,
            held: None,
            after_grid: false,
            error: None,
            started: false,
        }
    }

    /// Bytes consumed from the reader so far.
    pub(super) fn bytes_read(&self) -> u64 {
        self.lines.bytes_read()
    }

    /// The next item, `None` at the end; a read error is returned once, after
    /// the items before it (an unfinished grid is reported first).
    pub(super) fn next_item(&mut self) -> io::Result<Option<Item>> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        loop {
            let line = match self.held.take() {
                Some(line) => line,
                None => match self.lines.next_line() {
                    Ok(Some(line)) => line,
                    Ok(None) => return Ok(self.pending.take().map(Pending::into_item)),
                    Err(e) => match self.pending.take() {
                        Some(pending) => {
                            self.error = Some(e);
                            return Ok(Some(pending.into_item()));
                        }
                        None => return Err(e),
                    },
                },
            };
            if line.is_blank() {
                self.after_grid = false;
                match self.pending.take() {
                    Some(pending) => return Ok(Some(pending.into_item())),
                    None => continue,
                }
            }
            if line.is_comment() {
                continue;
            }
            let first = !std::mem::replace(&mut self.started, true);
            let mut line = line;
            if self.grids && !line.is_cut() && line.bytes.contains(&b',') {
                // Read on as its fields separated by spaces: a puzzle, a puzzle and
                // its solution, or a row of a grid written with commas.
                match csv_row(&line.bytes, first) {
                    Some(bytes) => {
                        line.len = bytes.len();
                        line.bytes = bytes;
                    }
                    None => continue,
                }
            }
            let shape =
                (self.grids && !line.is_cut() && !(self.pending.is_none() && is_plain(&line)))
                    .then(|| Shape::of(&line.bytes));
            if let Some(pending) = &mut self.pending {
                match shape {
                    Some(shape) if !shape.ends_grid(pending.width) => {
                        pending.push(line, shape.cells);
                        if pending.is_complete() {
                            self.after_grid = true;
                            return Ok(self.pending.take().map(Pending::into_item));
                        }
                        continue;
                    }
                    _ => {
                        self.held = Some(line);
                        return Ok(self.pending.take().map(Pending::into_item));
                    }
                }
            }
            match shape {
                Some(shape) if shape.is_separator() && self.after_grid => continue,
                Some(shape) if shape.is_separator() || shape.row_width().is_some() => {
                    self.after_grid = false;
                    let mut pending = Pending::new(&line);
                    pending.push(line, shape.cells);
                    self.pending = Some(pending);
                }
                _ => {
                    self.after_grid = false;
                    let mut item = Item::new(Origin::Line(line.number), line.bytes);
                    item.len = line.len;
                    return Ok(Some(item));
                }
            }
        }
    }
}

impl<R: Read> Puzzles<BufReader<R>> {
    /// True if the next item may have to wait for the underlying reader.
    pub(super) fn may_block(&self) -> bool {
        self.held.is_none() && self.error.is_none() && self.lines.nothing_buffered()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alldiff::sudoku::Grid;
    use std::io::Cursor;

    const PUZZLE: &str =
        "3.65.84..52........87....31..3.1..8.9..863..5.5..9.6..13....25........74..52.63..";

    /// The items of `text`: (first line, text or error message).
    fn items(text: &str) -> Vec<(u64, Result<String, String>)> {
        let mut puzzles = Puzzles::new(Cursor::new(text.as_bytes().to_vec()), true);
        std::iter::from_fn(|| puzzles.next_item().unwrap())
            .map(|item| {
                let text = item.text().map(str::to_owned).map_err(|e| e.to_string());
                (item.number(), text)
            })
            .collect()
    }

    /// The grids read from `text`, as lines, with their first line numbers.
    fn grids(text: &str) -> Vec<(u64, String)> {
        items(text)
            .into_iter()
            .map(|(line, text)| {
                let text = text.unwrap_or_else(|e| panic!("line {line}: {e}"));
                let grid = Grid::parse(&text).unwrap_or_else(|e| panic!("line {line}: {e}"));
                (line, grid.to_line())
            })
            .collect()
    }

    fn rows(line: &str, side: usize) -> String {
        line.as_bytes()
            .chunks(side)
            .map(|row| format!("{}\n", std::str::from_utf8(row).unwrap()))
            .collect()
    }

    /// The 4x4, 9x9, 16x16 and 25x25 grids used below, in the line form.
    fn every_size() -> Vec<Grid> {
        let mut grids = vec![
            Grid::parse("1..4.41.4..1.14.").unwrap(),
            Grid::parse(PUZZLE).unwrap(),
        ];
        for box_size in [4, 5] {
            let side = box_size * box_size;
            // A pattern solution with a few blanks.
            let cells = (0..side * side)
                .map(|i| {
                    let (r, c) = (i / side, i % side);
                    let value = (r * box_size + r / box_size + c) % side + 1;
                    if (r + c) % 3 == 0 { 0 } else { value as u8 }
                })
                .collect();
            grids.push(Grid::from_cells(box_size, cells).unwrap());
        }
        grids
    }

    #[test]
    fn one_line_puzzles_and_grids_of_every_size_mix() {
        let sizes = every_size();
        let mut text = String::new();
        let mut expected = Vec::new();
        let mut line = 1u64;
        for grid in &sizes {
            // The line form, then the grid form with a blank line after it,
            // then plain rows with no blank line after them.
            for form in [
                format!("{}\n", grid.to_line()),
                format!("{}\n", grid.to_grid_string()),
                rows(&grid.to_line(), grid.side()),
            ] {
                expected.push((line, grid.to_line()));
                line += form.lines().count() as u64;
                text.push_str(&form);
            }
        }
        assert_eq!(grids(&text), expected);
    }

    #[test]
    fn qqwing_readable_and_compact_forms() {
        let readable = "\
 . . 7 | . . 8 | . . .
 . 1 . | . 4 3 | . . 9
 . . . | . . . | . . .
-------|-------|-------
 . . 4 | . 8 . | . . 3
 . . . | 7 3 9 | . . .
 . . . | . . 2 | . 1 .
-------|-------|-------
 . . 2 | . . . | 4 8 .
 3 9 . | 5 . . | 2 7 .
 4 . 5 | . . 1 | 3 . .

";
        let compact = ".......82\n4......3.\n.21...5..\n..4....6.\n635..9...\n..8...9..\n\
                       9...6.2.8\n.1..4.6..\n3..9.2.4.\n\n";
        let text = format!("{readable}{compact}# done\n");
        let read = grids(&text);
        assert_eq!(read.len(), 2);
        assert_eq!((read[0].0, &read[0].1[..9]), (1, "..7..8..."));
        assert_eq!((read[1].0, &read[1].1[..9]), (13, ".......82"));
    }

    #[test]
    fn borders_and_comments_inside_a_grid() {
        let framed = format!(
            "+-----+\n| 1 . | . 4 |\n# a note\n| . 4 | 1 . |\n+-----+\n| 4 . | . 1 |\n\
             | . 1 | 4 . |\n+-----+\n{PUZZLE}\n"
        );
        assert_eq!(
            grids(&framed),
            vec![(1, "1..4.41.4..1.14.".to_owned()), (9, PUZZLE.to_owned())]
        );
    }

    #[test]
    fn csv_rows_give_their_fields_and_a_first_row_of_words_is_a_header() {
        let solution = "4".repeat(81);
        let kaggle = format!("quizzes,solutions\n{PUZZLE},{solution}\n");
        let pair = format!("{PUZZLE} {solution}");
        assert_eq!(items(&kaggle), vec![(2, Ok(pair.clone()))]);
        // qqwing's --csv: a header of one word, a trailing comma; quotes and spaces.
        let qqwing = format!("Puzzle,\n{PUZZLE},\n \"{PUZZLE}\" , {solution} \n");
        assert_eq!(
            items(&qqwing),
            vec![(2, Ok(PUZZLE.to_owned())), (3, Ok(pair.clone()))]
        );
        // A header only comes first: later, a row of words is an item (an error
        // for the commands), and so is a first row that is not a word.
        let later = format!("{PUZZLE},\nquizzes,solutions\n");
        assert_eq!(
            items(&later),
            vec![
                (1, Ok(PUZZLE.to_owned())),
                (2, Ok("quizzes solutions".to_owned()))
            ]
        );
        let bad_first = "53..7x,\n";
        assert_eq!(items(bad_first), vec![(1, Ok("53..7x".to_owned()))]);
        // A row ends a grid being read, which is then cut short.
        let cut = format!("123456789\n{PUZZLE},\n");
        let read = items(&cut);
        assert_eq!(read.len(), 2);
        assert!(read[0].1.is_err(), "{read:?}");
        assert_eq!(read[1], (2, Ok(PUZZLE.to_owned())));
        // A grid whose rows are comma-separated cells, and a puzzle in 81 fields.
        let comma_rows: String = (PUZZLE.as_bytes().chunks(9))
            .map(|row| {
                format!(
                    "{}\n",
                    row.iter()
                        .map(|&c| char::from(c).to_string())
                        .collect::<Vec<_>>()
                        .join(",")
                )
            })
            .collect();
        let fields = PUZZLE
            .chars()
            .map(String::from)
            .collect::<Vec<_>>()
            .join(",");
        assert_eq!(
            grids(&format!("{comma_rows}{fields}\n")),
            vec![(1, PUZZLE.to_owned()), (10, PUZZLE.to_owned())]
        );
    }

    #[test]
    fn a_grid_cut_short_is_an_error_naming_its_lines() {
        let short = format!("{PUZZLE}\n123456789\n.........\n\n{PUZZLE}\n");
        let read = items(&short);
        assert_eq!(read.len(), 3);
        assert_eq!(
            read[1],
            (
                2,
                Err(
                    "the grid on lines 2-3 has 2 rows of 9 cells, but a 9x9 Sudoku has 9 rows"
                        .to_owned()
                )
            )
        );
        assert_eq!(read[2], (5, Ok(PUZZLE.to_owned())));
        // A one-line puzzle ends a grid too, and is read itself.
        let read = items(&format!("1 2 | 3 4\n{PUZZLE}\n-----\n"));
        assert_eq!(read.len(), 3);
        assert!(read[0].1.as_ref().unwrap_err().contains("has 1 row of 4"));
        assert_eq!(read[1], (2, Ok(PUZZLE.to_owned())));
        assert_eq!(
            read[2],
            (3, Err("line 3 holds separators but no cells".to_owned()))
        );
    }

    #[test]
    fn a_bad_row_stays_in_its_grid() {
        let mut text = rows(PUZZLE, 9);
        text.replace_range(12..13, "x");
        let read = items(&text);
        assert_eq!(read.len(), 1);
        let grid_text = read[0].1.as_ref().unwrap();
        let error = Grid::parse(grid_text).unwrap_err().to_string();
        assert_eq!(error, "row 2, column 3: 'x' is not a digit or a blank");
    }

    #[test]
    fn sixteen_cells_are_a_4x4_puzzle_unless_they_look_like_a_row() {
        let small = ["1..4.41.4..1.14.", "................", "1234341221434321"];
        for line in small {
            let text = format!("{line}\n{line}\n");
            assert_eq!(grids(&text).len(), 2, "{line}");
        }
        // A digit above 4 and no digit twice: a row of a 16x16 grid.
        let big = every_size()[2].to_line();
        assert_eq!(grids(&rows(&big, 16)), vec![(1, big)]);
    }

    #[test]
    fn words_are_not_rows() {
        // Letters are digits from 10, too large for a row of 4 or 9 cells.
        let read = items("done\nabcdefghi\n");
        assert_eq!(read.len(), 2);
        assert_eq!(read[0], (1, Ok("done".to_owned())));
    }

    #[test]
    fn symbols_are_read_as_the_grid_parser_reads_them() {
        let chars = (0u8..128)
            .map(char::from)
            .chain(['é', '\u{a0}', '\u{3000}']);
        for ch in chars {
            // 16 copies: a 4x4 grid if `ch` is a blank or a cell digit.
            let parsed = Grid::parse(&String::from(ch).repeat(16));
            let expected = match parsed {
                Ok(grid) => Symbol::Cell(u32::from(grid.cells()[0])),
                Err(alldiff::sudoku::ParseError::InvalidCharacter { .. }) => Symbol::Invalid,
                Err(alldiff::sudoku::ParseError::DigitTooLarge { .. }) => {
                    Symbol::Cell(ch.to_digit(36).unwrap())
                }
                Err(_) if matches!(ch, '-' | '+') => Symbol::Separator,
                Err(_) => Symbol::Gap,
            };
            assert_eq!(Symbol::of(ch), expected, "{ch:?}");
        }
    }

    #[test]
    fn grids_can_be_turned_off() {
        let mut puzzles = Puzzles::new(Cursor::new(b"1234\n5678\n".to_vec()), false);
        let first = puzzles.next_item().unwrap().unwrap();
        assert_eq!(first.text(), Ok("1234"));
    }
}
