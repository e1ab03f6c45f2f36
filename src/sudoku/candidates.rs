//! Printing a grid of candidates (pencil marks).

use crate::sudoku::grid::symbol;

/// Prints the candidates of every cell as an aligned grid with box separators.
///
/// `cells` holds each cell's candidate digits, row-major, for a grid of `box_size`
/// (`side = box_size²` cells a row). Each cell shows its digits as symbols (`1`-`9`,
/// then `A`-`P`) in the order given; a cell with no candidate left shows `!`, and a
/// cell missing from `cells` (too short a slice) shows `?`. Cells beyond `side²` are
/// ignored. Each column is as wide as its widest cell; `|` separates the boxes of a
/// row and a `-+-` line the bands. Every line ends with `\n`, without trailing
/// spaces.
///
/// ```
/// use alldiff::sudoku::format_candidates;
///
/// let cells: Vec<Vec<u8>> = [
///     vec![1], vec![2, 3], vec![4], vec![2, 3],
///     vec![2, 3], vec![4], vec![1], vec![2, 3],
///     vec![2, 3], vec![1], vec![2, 3], vec![4],
///     vec![4], vec![2, 3], vec![2, 3], vec![1],
/// ].to_vec();
/// assert_eq!(format_candidates(2, &cells), "\
/// 1  23 | 4  23
/// 23 4  | 1  23
/// ------+------
/// 23 1  | 23 4
/// 4  23 | 23 1
/// ");
/// ```
pub fn format_candidates(box_size: usize, cells: &[Vec<u8>]) -> String {
    let side = box_size.saturating_mul(box_size);
    let text: Vec<String> = (0..side.saturating_mul(side))
        .map(|index| match cells.get(index) {
            None => "?".to_owned(),
            Some(digits) if digits.is_empty() => "!".to_owned(),
            Some(digits) => digits.iter().map(|&d| symbol(d)).collect(),
        })
        .collect();
    let widths: Vec<usize> = (0..side)
        .map(|col| {
            (0..side)
                .map(|row| text[row * side + col].chars().count())
                .max()
                .unwrap_or(1)
        })
        .collect();
    let separator = widths
        .chunks(box_size.max(1))
        .map(|stack| "-".repeat(stack.iter().sum::<usize>() + stack.len().saturating_sub(1)))
        .collect::<Vec<_>>()
        .join("-+-");
    let mut out = String::new();
    for row in 0..side {
        if row > 0 && row % box_size == 0 {
            out.push_str(&separator);
            out.push('\n');
        }
        let mut line = String::new();
        for (col, &width) in widths.iter().enumerate() {
            if col > 0 {
                line.push_str(if col % box_size == 0 { " | " } else { " " });
            }
            let cell = &text[row * side + col];
            line.push_str(cell);
            let pad = width.saturating_sub(cell.chars().count());
            line.extend(std::iter::repeat_n(' ', pad));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nine_by_nine_columns_align_and_bands_are_separated() {
        let mut cells = vec![vec![5u8]; 81];
        cells[1] = vec![1, 2, 3, 4];
        cells[80] = vec![];
        let text = format_candidates(3, &cells);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 11);
        assert_eq!(lines[0], "5 1234 5 | 5 5 5 | 5 5 5");
        assert_eq!(lines[1], "5 5    5 | 5 5 5 | 5 5 5");
        assert_eq!(lines[3], "---------+-------+------");
        assert_eq!(lines[7], lines[3]);
        assert_eq!(lines[10], "5 5    5 | 5 5 5 | 5 5 !");
        // Every `|` lines up.
        let bars: Vec<Vec<usize>> = lines
            .iter()
            .filter(|l| !l.starts_with('-'))
            .map(|l| l.match_indices('|').map(|(i, _)| i).collect())
            .collect();
        assert!(bars.windows(2).all(|w| w[0] == w[1]), "{text}");
    }

    #[test]
    fn letters_for_large_digits_and_placeholders_for_missing_cells() {
        let cells = vec![vec![10u8, 16], vec![1]];
        let text = format_candidates(4, &cells);
        assert_eq!(text.lines().count(), 16 + 3);
        assert!(text.starts_with("AG 1 ? ? | ? ? ? ?"), "{text}");
        assert_eq!(format_candidates(0, &[]), "");
    }
}
