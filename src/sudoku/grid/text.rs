//! Reading and printing grids: the line form, the grid form, and why a text is not a grid.
//!
//! The symbols and the text forms are described in the [`sudoku`](crate::sudoku) module docs,
//! which are public where this module is not.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::Grid;
use crate::sudoku::Cell;

/// The cell counts of the supported sizes, smallest first.
const USUAL_CELL_COUNTS: [usize; 4] = [16, 81, 256, 625];
/// The largest digit any grid can hold.
const MAX_DIGIT: usize = 25;

/// Where something is in a parsed text. Both numbers count characters (not bytes) from 1.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum TextPosition {
    /// The n-th character of a one-line text. Displays as `character 23`.
    Character(usize),
    /// A line and a column of a multi-line text. Displays as `row 4, column 7`.
    LineColumn {
        /// The line, from 1.
        line: usize,
        /// The column on that line, from 1.
        column: usize,
    },
}

impl fmt::Display for TextPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TextPosition::Character(index) => write!(f, "character {index}"),
            TextPosition::LineColumn { line, column } => write!(f, "row {line}, column {column}"),
        }
    }
}

/// Why a grid could not be built or parsed.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[non_exhaustive]
pub enum ParseError {
    /// The box size is not 2 to 5.
    #[error("box size {box_size} is not supported: it must be 2 to 5 (4x4 to 25x25)")]
    UnsupportedBoxSize {
        /// The box size asked for.
        box_size: usize,
    },
    /// The text holds no cells at all.
    #[error("0 cells: the input is empty")]
    Empty,
    /// The number of cells is not that of a supported size (or of the size asked for).
    #[error("{found} cells, a Sudoku has {expected}")]
    WrongCellCount {
        /// How many cells there are.
        found: usize,
        /// The nearest supported cell count when parsing, or the exact one when the box size
        /// was given.
        expected: usize,
    },
    /// A character that is neither a digit, a blank nor ignored (white space, `|`, `-`, `+`).
    #[error("{at}: {found:?} is not a digit or a blank")]
    InvalidCharacter {
        /// Where the character is.
        at: TextPosition,
        /// The character.
        found: char,
    },
    /// A digit larger than the side of the grid, such as `G` in a 9x9 grid.
    #[error(
        "{at}: {found:?} is too large for a {side}x{side} Sudoku (digits 1 to {})",
        symbol_of_side(*.side)
    )]
    DigitTooLarge {
        /// Where the digit is.
        at: TextPosition,
        /// The digit as written.
        found: char,
        /// The side of the grid, worked out from the number of cells.
        side: usize,
    },
    /// A cell value given to [`Grid::from_cells`] that is larger than the side of the grid.
    #[error(
        "{cell} holds {value}, but a {side}x{side} Sudoku has digits 1 to {} and 0 for a blank",
        symbol_of_side(*.side)
    )]
    CellOutOfRange {
        /// The cell.
        cell: Cell,
        /// The value found.
        value: u8,
        /// The side of the grid.
        side: usize,
    },
}

impl Grid {
    /// Reads a grid in the line form or the grid form (see the [`sudoku`](crate::sudoku) module
    /// docs); the size comes from the number of cells.
    ///
    /// # Errors
    ///
    /// The first character that is not a symbol, a blank or ignored
    /// ([`ParseError::InvalidCharacter`]); otherwise a cell count that is no supported size
    /// ([`ParseError::Empty`], [`ParseError::WrongCellCount`]); otherwise the first digit too
    /// large for that size ([`ParseError::DigitTooLarge`]). Messages never echo the input, so
    /// they stay short whatever its length.
    pub fn parse(text: &str) -> Result<Grid, ParseError> {
        Grid::parse_plain_line(text).map_or_else(|| Grid::scan(text), Ok)
    }

    /// [`Grid::parse`] for any text: every form, every error.
    fn scan(text: &str) -> Result<Grid, ParseError> {
        // A byte order mark is invisible in editors, so it is skipped and not counted.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let multi_line = text.trim().contains('\n');
        let largest = USUAL_CELL_COUNTS[USUAL_CELL_COUNTS.len() - 1];

        let mut cells = Vec::with_capacity(81);
        let mut count = 0_usize;
        // For each digit, the cell index, place and spelling of its first occurrence.
        let mut first_seen: [Option<(usize, TextPosition, char)>; MAX_DIGIT + 1] =
            [None; MAX_DIGIT + 1];
        let (mut line, mut column) = (1_usize, 0_usize);

        for (index, ch) in text.chars().enumerate() {
            if ch == '\n' {
                line += 1;
                column = 0;
                continue;
            }
            column += 1;
            let at = || {
                if multi_line {
                    TextPosition::LineColumn { line, column }
                } else {
                    TextPosition::Character(index + 1)
                }
            };
            match classify(ch) {
                Symbol::Ignored => {}
                Symbol::Invalid => {
                    return Err(ParseError::InvalidCharacter {
                        at: at(),
                        found: ch,
                    });
                }
                Symbol::Cell(value) => {
                    let seen = &mut first_seen[usize::from(value)];
                    if value != 0 && seen.is_none() {
                        *seen = Some((count, at(), ch));
                    }
                    // Past the largest size the count is all that matters.
                    if count < largest {
                        cells.push(value);
                    }
                    count += 1;
                }
            }
        }

        let box_size = match count {
            0 => return Err(ParseError::Empty),
            16 => 2,
            81 => 3,
            256 => 4,
            625 => 5,
            _ => {
                return Err(ParseError::WrongCellCount {
                    found: count,
                    expected: nearest_usual_count(count),
                });
            }
        };
        let side = box_size * box_size;
        let too_large = first_seen[side + 1..]
            .iter()
            .flatten()
            .min_by_key(|&&(cell, _, _)| cell);
        if let Some(&(_, at, found)) = too_large {
            return Err(ParseError::DigitTooLarge { at, found, side });
        }
        Ok(Grid { box_size, cells })
    }

    /// The line form: `side²` symbols, `.` for a blank. `Display` prints the same.
    pub fn to_line(&self) -> String {
        let bytes = self.cells.iter().map(|&value| symbol_byte(value)).collect();
        // Every symbol is one ASCII byte.
        String::from_utf8(bytes).unwrap_or_default()
    }

    /// The usual form of a 9x9 puzzle, 81 digits and dots on one line, read without
    /// the general scan; `None` for anything else.
    ///
    /// Both passes are branch-free over the 81 bytes, so that they compile to a few
    /// vector instructions: `'0'..='9'` less `'0'` is the cell (0 a blank), `'.'` a
    /// blank too, and any other byte sends the text to the general scan.
    fn parse_plain_line(text: &str) -> Option<Grid> {
        let bytes: &[u8; 81] = text.as_bytes().try_into().ok()?;
        let digit = |byte: u8| byte.wrapping_sub(b'0');
        let plain = bytes.iter().fold(true, |plain, &byte| {
            plain & ((digit(byte) <= 9) | (byte == b'.'))
        });
        plain.then(|| Grid {
            box_size: 3,
            cells: bytes
                .iter()
                .map(|&byte| if digit(byte) <= 9 { digit(byte) } else { 0 })
                .collect(),
        })
    }

    /// The grid form: one row per line, each ending in `\n`, symbols separated by spaces, boxes
    /// by `|` and lines of `-` and `+`:
    ///
    /// ```text
    /// 1 . | . 4
    /// . 4 | 1 .
    /// ----+----
    /// 4 . | . 1
    /// . 1 | 4 .
    /// ```
    pub fn to_grid_string(&self) -> String {
        let (box_size, side) = (self.box_size, self.side());
        // Each row is `2 * side - 1` symbols and spaces, plus two characters per `|`.
        let width = 2 * side - 1 + 2 * (box_size - 1);

        let mut separator = String::with_capacity(width + 1);
        for band in 0..box_size {
            if band > 0 {
                separator.push('+');
            }
            // Inner bands have a space on both sides of their symbols, outer bands on one.
            let outer = band == 0 || band == box_size - 1;
            let dashes = if outer {
                2 * box_size
            } else {
                2 * box_size + 1
            };
            separator.extend(std::iter::repeat_n('-', dashes));
        }
        separator.push('\n');

        let mut out = String::with_capacity((width + 1) * (side + box_size - 1));
        for (row, cells) in self.cells.chunks(side).enumerate() {
            if row > 0 && row % box_size == 0 {
                out.push_str(&separator);
            }
            for (col, &value) in cells.iter().enumerate() {
                if col > 0 {
                    out.push_str(if col % box_size == 0 { " | " } else { " " });
                }
                out.push(symbol(value));
            }
            out.push('\n');
        }
        out
    }
}

impl fmt::Display for Grid {
    /// The line form, as [`Grid::to_line`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        self.cells
            .iter()
            .try_for_each(|&value| f.write_char(symbol(value)))
    }
}

impl FromStr for Grid {
    type Err = ParseError;

    /// As [`Grid::parse`].
    fn from_str(text: &str) -> Result<Grid, ParseError> {
        Grid::parse(text)
    }
}

/// The symbol of a cell value: `.` for a blank, `1`-`9`, then `A` for 10 to `P` for 25.
pub(crate) fn symbol(value: u8) -> char {
    char::from(symbol_byte(value))
}

/// [`symbol`] as an ASCII byte (`?` past 25), worked out without a branch, so that
/// a line of them compiles to vector instructions: `'0'` plus the value, plus the
/// gap from `':'` to `'A'` for a letter.
fn symbol_byte(value: u8) -> u8 {
    let letter_gap = if value > 9 { b'A' - b':' } else { 0 };
    let digit_or_letter = b'0'.wrapping_add(value).wrapping_add(letter_gap);
    match value {
        0 => b'.',
        1..=25 => digit_or_letter,
        _ => b'?',
    }
}

/// The symbol of the largest digit of a grid of the given side.
pub(super) fn symbol_of_side(side: usize) -> char {
    u8::try_from(side).map_or('?', symbol)
}

/// The supported cell count nearest to `count`.
fn nearest_usual_count(count: usize) -> usize {
    USUAL_CELL_COUNTS
        .into_iter()
        .min_by_key(|usual| usual.abs_diff(count))
        .unwrap_or(81)
}

/// What a character of a text grid stands for.
enum Symbol {
    /// White space or a separator.
    Ignored,
    /// A cell: 0 for a blank, else a digit from 1 to 25.
    Cell(u8),
    /// Anything else.
    Invalid,
}

fn classify(ch: char) -> Symbol {
    match ch {
        '.' | '0' | '_' | '*' => Symbol::Cell(0),
        '|' | '-' | '+' => Symbol::Ignored,
        _ if ch.is_whitespace() => Symbol::Ignored,
        _ => match ch.to_digit(36).and_then(|digit| u8::try_from(digit).ok()) {
            Some(digit @ 1..=25) => Symbol::Cell(digit),
            _ => Symbol::Invalid,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::grid::tests::patterned;
    use proptest::prelude::*;

    const PUZZLE: &str =
        "3.65.84..52........87....31..3.1..8.9..863..5.5..9.6..13....25........74..52.63..";
    const SOLUTION: &str =
        "316578492529134768487629531263415987974863125851792643138947256692351874745286319";

    fn parse_error(text: &str) -> String {
        Grid::parse(text).unwrap_err().to_string()
    }

    #[test]
    fn every_value_has_its_symbol() {
        for value in 0..=u8::MAX {
            let expected = match value {
                0 => '.',
                1..=25 => char::from_digit(u32::from(value), 36)
                    .unwrap()
                    .to_ascii_uppercase(),
                _ => '?',
            };
            assert_eq!(symbol(value), expected, "{value}");
        }
    }

    #[test]
    fn classic_puzzle_parses_and_prints() {
        let puzzle = Grid::parse(PUZZLE).unwrap();
        assert_eq!(puzzle.box_size(), 3);
        assert_eq!(puzzle.side(), 9);
        assert_eq!(puzzle.cell_count(), 81);
        assert_eq!(puzzle.clue_count(), 32);
        assert!(!puzzle.is_complete());
        assert_eq!(puzzle.get(0, 0), Some(3));
        assert_eq!(puzzle.get(0, 1), None);
        assert_eq!(puzzle.get(8, 6), Some(3));
        assert_eq!(puzzle.to_line(), PUZZLE);
        assert_eq!(puzzle.to_string(), PUZZLE);
        assert_eq!(PUZZLE.parse::<Grid>(), Ok(puzzle));
    }

    #[test]
    fn classic_solution_prints_as_a_grid() {
        let solution = Grid::parse(SOLUTION).unwrap();
        assert!(solution.is_complete());
        assert_eq!(solution.clue_count(), 81);
        let printed = solution.to_grid_string();
        assert!(printed.starts_with("3 1 6 | 5 7 8 | 4 9 2\n"));
        let expected = "\
3 1 6 | 5 7 8 | 4 9 2
5 2 9 | 1 3 4 | 7 6 8
4 8 7 | 6 2 9 | 5 3 1
------+-------+------
2 6 3 | 4 1 5 | 9 8 7
9 7 4 | 8 6 3 | 1 2 5
8 5 1 | 7 9 2 | 6 4 3
------+-------+------
1 3 8 | 9 4 7 | 2 5 6
6 9 2 | 3 5 1 | 8 7 4
7 4 5 | 2 8 6 | 3 1 9
";
        assert_eq!(printed, expected);
        assert_eq!(Grid::parse(&printed), Ok(solution));
    }

    #[test]
    fn blanks_print_as_dots_in_the_grid_form() {
        let puzzle = Grid::parse(PUZZLE).unwrap();
        let printed = puzzle.to_grid_string();
        assert!(printed.starts_with("3 . 6 | 5 . 8 | 4 . .\n"));
        assert_eq!(Grid::parse(&printed), Ok(puzzle));
    }

    #[test]
    fn grid_form_of_4x4_and_16x16() {
        let small = Grid::parse("1..4.41.4..1.14.").unwrap();
        assert_eq!(
            small.to_grid_string(),
            "1 . | . 4\n. 4 | 1 .\n----+----\n4 . | . 1\n. 1 | 4 .\n"
        );
        let big = patterned(4).to_grid_string();
        let lines: Vec<&str> = big.lines().collect();
        assert_eq!(lines.len(), 16 + 3);
        assert_eq!(lines[0], "1 2 3 4 | 5 6 7 8 | 9 A B C | D E F G");
        assert_eq!(lines[4], "--------+---------+---------+--------");
        assert!(lines.iter().all(|line| line.len() == lines[0].len()));
    }

    #[test]
    fn every_blank_spelling_and_letter_case_is_read() {
        let grid = Grid::parse("1.0_*234........").unwrap();
        assert_eq!(grid.cells()[..6], [1, 0, 0, 0, 0, 2]);
        let lower = patterned(4).to_line().to_lowercase();
        assert_eq!(Grid::parse(&lower), Ok(patterned(4)));
    }

    #[test]
    fn surrounding_white_space_and_crlf_are_ignored() {
        let solution = Grid::parse(SOLUTION).unwrap();
        assert_eq!(
            Grid::parse(&format!("  \t{SOLUTION}\r\n")),
            Ok(solution.clone())
        );
        let crlf = solution.to_grid_string().replace('\n', "\r\n");
        assert_eq!(Grid::parse(&crlf), Ok(solution.clone()));
        let spaced = format!(
            "\n\n{}\n\n",
            solution.to_grid_string().replace('\n', "\n\n")
        );
        assert_eq!(Grid::parse(&spaced), Ok(solution.clone()));
        let rows: String = SOLUTION
            .as_bytes()
            .chunks(9)
            .map(|row| format!("{}\r\n", std::str::from_utf8(row).unwrap()))
            .collect();
        assert_eq!(Grid::parse(&rows), Ok(solution));
    }

    #[test]
    fn round_trips_for_every_size() {
        for box_size in 2..=5 {
            let mut grid = patterned(box_size);
            grid.set(0, 1, None);
            grid.set(box_size, box_size + 1, None);
            assert_eq!(Grid::parse(&grid.to_line()), Ok(grid.clone()));
            assert_eq!(Grid::parse(&grid.to_grid_string()), Ok(grid.clone()));
            let crlf = grid.to_grid_string().replace('\n', "\r\n");
            assert_eq!(Grid::parse(&crlf), Ok(grid.clone()));
            let empty = Grid::empty(box_size).unwrap();
            assert_eq!(Grid::parse(&empty.to_line()), Ok(empty.clone()));
            assert_eq!(Grid::parse(&empty.to_grid_string()), Ok(empty));
        }
    }

    #[test]
    fn wrong_counts_name_the_nearest_size() {
        assert_eq!(parse_error(&SOLUTION[..80]), "80 cells, a Sudoku has 81");
        assert_eq!(
            parse_error(&format!("{SOLUTION}1")),
            "82 cells, a Sudoku has 81"
        );
        assert_eq!(parse_error("1234"), "4 cells, a Sudoku has 16");
        assert_eq!(parse_error(&"1".repeat(200)), "200 cells, a Sudoku has 256");
        assert_eq!(parse_error(&"1".repeat(500)), "500 cells, a Sudoku has 625");
        assert_eq!(
            Grid::parse(&SOLUTION[..80]),
            Err(ParseError::WrongCellCount {
                found: 80,
                expected: 81
            })
        );
    }

    #[test]
    fn empty_input() {
        for text in ["", "   ", "\n\r\n\t", "+---+\n|   |\n"] {
            assert_eq!(Grid::parse(text), Err(ParseError::Empty), "{text:?}");
        }
        assert_eq!(parse_error(""), "0 cells: the input is empty");
    }

    #[test]
    fn bad_character_in_the_line_form() {
        let mut text = PUZZLE.to_owned();
        text.replace_range(22..23, "x");
        assert_eq!(
            parse_error(&text),
            "character 23: 'x' is not a digit or a blank"
        );
        // Surrounding white space counts as characters of the text.
        assert_eq!(
            parse_error(&format!("  {text}")),
            "character 25: 'x' is not a digit or a blank"
        );
    }

    #[test]
    fn bad_character_in_the_grid_form() {
        let mut lines: Vec<String> = SOLUTION
            .as_bytes()
            .chunks(9)
            .map(|row| String::from_utf8(row.to_vec()).unwrap())
            .collect();
        lines[3].replace_range(6..7, "x");
        let text = lines.join("\n");
        assert_eq!(
            parse_error(&text),
            "row 4, column 7: 'x' is not a digit or a blank"
        );
        assert_eq!(
            Grid::parse(&text),
            Err(ParseError::InvalidCharacter {
                at: TextPosition::LineColumn { line: 4, column: 7 },
                found: 'x'
            })
        );
    }

    #[test]
    fn control_characters_are_escaped() {
        let mut text = PUZZLE.to_owned();
        text.replace_range(4..5, "\0");
        assert_eq!(
            parse_error(&text),
            r"character 5: '\0' is not a digit or a blank"
        );
        assert_eq!(
            parse_error("12\u{1b}[31m"),
            r"character 3: '\u{1b}' is not a digit or a blank"
        );
        // Characters, not bytes, are counted.
        assert_eq!(
            parse_error("éé?"),
            "character 1: 'é' is not a digit or a blank"
        );
        assert_eq!(
            parse_error("12.é"),
            "character 4: 'é' is not a digit or a blank"
        );
    }

    #[test]
    fn a_one_megabyte_line_gives_a_short_message() {
        let digits = "1".repeat(1 << 20);
        let message = parse_error(&digits);
        assert_eq!(message, "1048576 cells, a Sudoku has 625");

        let garbage = format!("{}{}", &PUZZLE[..40], "x".repeat(1 << 20));
        let message = parse_error(&garbage);
        assert_eq!(message, "character 41: 'x' is not a digit or a blank");

        let late = format!("{}#", "1".repeat(1 << 20));
        let message = parse_error(&late);
        assert_eq!(message, "character 1048577: '#' is not a digit or a blank");
        assert!(message.len() < 80);
    }

    #[test]
    fn digit_too_large_for_the_size() {
        let mut text = PUZZLE.to_owned();
        text.replace_range(4..5, "G");
        assert_eq!(
            parse_error(&text),
            "character 5: 'G' is too large for a 9x9 Sudoku (digits 1 to 9)"
        );
        // The first too-large digit in reading order is reported, not the largest.
        text.replace_range(1..2, "a");
        assert_eq!(
            parse_error(&text),
            "character 2: 'a' is too large for a 9x9 Sudoku (digits 1 to 9)"
        );
        assert_eq!(
            parse_error("1.3.\n.5..\n....\n...."),
            "row 2, column 2: '5' is too large for a 4x4 Sudoku (digits 1 to 4)"
        );
        let mut big = patterned(4).to_line();
        big.replace_range(255..256, "H");
        assert_eq!(
            parse_error(&big),
            "character 256: 'H' is too large for a 16x16 Sudoku (digits 1 to G)"
        );
        let mut huge = patterned(5).to_line();
        huge.replace_range(0..1, "Q");
        assert_eq!(
            parse_error(&huge),
            "character 1: 'Q' is not a digit or a blank"
        );
    }

    /// Any grid of any size, with about a third of the cells blank.
    fn any_grid() -> impl Strategy<Value = Grid> {
        (2_usize..=5).prop_flat_map(|box_size| {
            let side = box_size * box_size;
            let max = u8::try_from(side).unwrap();
            let cell = prop_oneof![1 => Just(0_u8), 2 => 1..=max];
            proptest::collection::vec(cell, side * side)
                .prop_map(move |cells| Grid::from_cells(box_size, cells).unwrap())
        })
    }

    proptest! {
        #[test]
        fn plain_lines_read_as_the_general_scan_reads_them(line in "[0-9.]{81}") {
            prop_assert_eq!(Grid::parse_plain_line(&line), Some(Grid::scan(&line).unwrap()));
        }

        /// A line of 81 digits and dots with up to two characters replaced by bytes
        /// next to `'0'` and `'9'`, other symbols of the scan, or characters that are
        /// not ASCII: the fast path takes only what the scan reads the same, and leaves
        /// the rest (and its errors) to it.
        #[test]
        fn the_plain_line_path_agrees_with_the_scan_on_near_plain_lines(
            line in "[0-9.]{81}",
            changes in proptest::collection::vec(
                (
                    0..81_usize,
                    proptest::sample::select(
                        &['/', ':', '-', '+', '_', '*', ' ', '|', '\n', '\0', 'a', 'G', 'é'][..],
                    ),
                ),
                0..=2,
            ),
        ) {
            let mut chars: Vec<char> = line.chars().collect();
            for (at, ch) in changes {
                chars[at] = ch;
            }
            let line = String::from_iter(chars);
            if let Some(grid) = Grid::parse_plain_line(&line) {
                prop_assert_eq!(Ok(grid), Grid::scan(&line));
            }
            prop_assert_eq!(Grid::parse(&line), Grid::scan(&line));
        }

        #[test]
        fn line_form_round_trips(grid in any_grid()) {
            prop_assert_eq!(Grid::parse(&grid.to_line()), Ok(grid.clone()));
            prop_assert_eq!(grid.to_string().parse::<Grid>(), Ok(grid));
        }

        #[test]
        fn grid_form_round_trips(grid in any_grid()) {
            let printed = grid.to_grid_string();
            prop_assert_eq!(Grid::parse(&printed), Ok(grid.clone()));
            prop_assert_eq!(Grid::parse(&printed.replace('\n', "\r\n")), Ok(grid));
        }

        #[test]
        fn parse_never_panics(text in any::<String>()) {
            let _ = Grid::parse(&text);
        }

        #[test]
        fn parse_never_panics_on_near_grids(
            text in "[0-9a-zA-Z.|+_* \t\r\n\0-]{0,700}",
        ) {
            if let Ok(grid) = Grid::parse(&text) {
                prop_assert_eq!(Grid::parse(&grid.to_line()), Ok(grid));
            }
        }

        #[test]
        fn errors_stay_short(text in "[0-9a-zA-Z.#]{0,3000}") {
            if let Err(error) = Grid::parse(&text) {
                prop_assert!(error.to_string().len() < 100, "{}", error);
            }
        }
    }
}
