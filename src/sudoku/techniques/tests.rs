//! Each technique's detection on hand-made positions: an empty grid whose candidates
//! are cut down by hand to show one pattern.

use super::*;

const ALL: u32 = 0x1ff;

/// An empty board of box size `box_size` with some cells' candidates cut to `keep`.
fn board(box_size: usize, keep: &[(usize, u32)]) -> Board {
    let mut board = Board::new(&Grid::empty(box_size).unwrap()).unwrap();
    for &(cell, mask) in keep {
        board.candidates[cell] &= mask;
    }
    board
}

/// The candidates of the cells of a row (0-based), 9x9.
fn row(r: usize) -> impl Iterator<Item = usize> {
    (0..9).map(move |c| r * 9 + c)
}

fn mask(digits: &[u8]) -> u32 {
    digits.iter().fold(0, |m, &d| m | bit(d))
}

#[test]
fn nothing_applies_on_an_empty_grid() {
    let board = board(3, &[]);
    assert_eq!(board.next(Difficulty::Fiendish), Ok(None));
    assert!(!board.is_solved());
}

#[test]
fn naked_single_is_a_cell_with_one_candidate() {
    let board = board(3, &[(40, mask(&[7]))]);
    let expected = Deduction::NakedSingle { cell: 40, digit: 7 };
    assert_eq!(board.next(Difficulty::Easy), Ok(Some(expected.clone())));
    let mut board = board;
    board.apply(&expected).unwrap();
    assert_eq!(board.placed(40), 7);
    // The digit left the row, the column and the box, and nowhere else.
    for cell in 0..81 {
        let peer = cell != 40
            && board
                .units_of(cell)
                .iter()
                .any(|u| board.units_of(40).contains(u));
        assert_eq!(board.candidates(cell) & bit(7) == 0, peer, "cell {cell}");
        assert_eq!(board.sees(cell, 7), peer || cell == 40, "cell {cell}");
    }
}

#[test]
fn hidden_single_is_a_digit_with_one_place_in_a_unit() {
    // 4 leaves box 1 but for r2c3 (cell 11).
    let keep: Vec<(usize, u32)> = [0, 1, 2, 9, 10, 18, 19, 20]
        .iter()
        .map(|&c| (c, ALL & !bit(4)))
        .collect();
    let board = board(3, &keep);
    assert_eq!(board.next(Difficulty::Easy), Ok(None));
    let expected = Deduction::HiddenSingle {
        cell: 11,
        digit: 4,
        unit: 18,
    };
    assert_eq!(board.next(Difficulty::Medium), Ok(Some(expected.clone())));
    assert_eq!(board.unit(18), Unit::Box(0));
}

#[test]
fn a_naked_single_comes_before_a_hidden_one() {
    let mut keep: Vec<(usize, u32)> = [0, 1, 2, 9, 10, 18, 19, 20]
        .iter()
        .map(|&c| (c, ALL & !bit(4)))
        .collect();
    keep.push((80, mask(&[2])));
    let board = board(3, &keep);
    assert_eq!(
        board.next(Difficulty::Fiendish),
        Ok(Some(Deduction::NakedSingle { cell: 80, digit: 2 }))
    );
}

#[test]
fn pointing_removes_the_digit_from_the_rest_of_the_line() {
    // In box 1, 5 only in row 1 (r1c1, r1c2; r1c3 lost it too).
    let keep: Vec<(usize, u32)> = [2, 9, 10, 11, 18, 19, 20]
        .iter()
        .map(|&c| (c, ALL & !bit(5)))
        .collect();
    let board = board(3, &keep);
    assert_eq!(board.next(Difficulty::Medium), Ok(None));
    let expected = Deduction::LockedCandidates {
        digit: 5,
        confining: 18,
        cleared: 0,
        cells: vec![0, 1],
        removed: (3..9).collect(),
    };
    assert_eq!(board.next(Difficulty::Hard), Ok(Some(expected.clone())));
    let mut board = board;
    board.apply(&expected).unwrap();
    assert!((3..9).all(|c| board.candidates(c) == ALL & !bit(5)));
    assert_eq!(board.next(Difficulty::Hard), Ok(None));
}

#[test]
fn claiming_removes_the_digit_from_the_rest_of_the_box() {
    // In row 1, 6 only in box 1.
    let keep: Vec<(usize, u32)> = (3..9).map(|c| (c, ALL & !bit(6))).collect();
    let board = board(3, &keep);
    assert_eq!(board.next(Difficulty::Medium), Ok(None));
    assert_eq!(
        board.next(Difficulty::Hard),
        Ok(Some(Deduction::LockedCandidates {
            digit: 6,
            confining: 0,
            cleared: 18,
            cells: vec![0, 1, 2],
            removed: vec![9, 10, 11, 18, 19, 20],
        }))
    );
}

#[test]
fn naked_pair_removes_its_digits_from_the_rest_of_the_unit() {
    // r1c1 and r1c5 hold 1 and 2 alone: a pair in row 1 only (different boxes).
    let board = board(3, &[(0, mask(&[1, 2])), (4, mask(&[1, 2]))]);
    assert_eq!(board.next(Difficulty::Hard), Ok(None));
    let expected = Deduction::Subset {
        hidden: false,
        unit: 0,
        cells: vec![0, 4],
        digits: mask(&[1, 2]),
        removed: [1, 2, 3, 5, 6, 7, 8]
            .iter()
            .map(|&c| (c, mask(&[1, 2])))
            .collect(),
    };
    assert_eq!(board.next(Difficulty::Fiendish), Ok(Some(expected.clone())));
}

/// The cells and digits of the naked subset found in row 1, where nothing simpler
/// applies, and how many cells it removes from.
fn naked_subset_in_row_1(board: &Board) -> (Vec<usize>, u32, usize) {
    assert_eq!(board.next(Difficulty::Hard), Ok(None));
    match board.next(Difficulty::Fiendish) {
        Ok(Some(Deduction::Subset {
            hidden: false,
            unit: 0,
            cells,
            digits,
            removed,
        })) => (cells, digits, removed.len()),
        other => panic!("not a naked subset in row 1: {other:?}"),
    }
}

#[test]
fn naked_triple_needs_no_cell_with_all_three() {
    let board = board(
        3,
        &[(0, mask(&[1, 2])), (4, mask(&[2, 3])), (8, mask(&[1, 3]))],
    );
    assert_eq!(
        naked_subset_in_row_1(&board),
        (vec![0, 4, 8], mask(&[1, 2, 3]), 6)
    );
}

#[test]
fn hidden_pair_keeps_only_its_digits_in_its_cells() {
    // In row 1, 1 and 2 only at r1c1 and r1c4 (different boxes: no claiming).
    let keep: Vec<(usize, u32)> = row(0)
        .filter(|&c| c != 0 && c != 3)
        .map(|c| (c, ALL & !mask(&[1, 2])))
        .collect();
    let board = board(3, &keep);
    assert_eq!(board.next(Difficulty::Hard), Ok(None));
    assert_eq!(
        board.next(Difficulty::Fiendish),
        Ok(Some(Deduction::Subset {
            hidden: true,
            unit: 0,
            cells: vec![0, 3],
            digits: mask(&[1, 2]),
            removed: vec![(0, ALL & !mask(&[1, 2])), (3, ALL & !mask(&[1, 2]))],
        }))
    );
}

#[test]
fn the_smaller_of_a_naked_subset_and_its_hidden_complement_is_named() {
    // Row 1: r1c2..r1c8 hold 1..7 between them (a naked septuple), so 8 and 9 have
    // only r1c1 and r1c9: the hidden pair is the simpler name.
    let keep: Vec<(usize, u32)> = (1..8).map(|c| (c, mask(&[1, 2, 3, 4, 5, 6, 7]))).collect();
    let board = board(3, &keep);
    let Ok(Some(Deduction::Subset {
        hidden: true,
        cells,
        digits,
        ..
    })) = board.next(Difficulty::Fiendish)
    else {
        panic!("a hidden pair")
    };
    assert_eq!((cells, digits), (vec![0, 8], mask(&[8, 9])));
}

#[test]
fn large_subsets_are_found_in_large_grids() {
    // 16x16: in row 1, six cells (over two boxes) hold 1..6 between them.
    let six = (1..=6).fold(0, |m, d| m | bit(d));
    let keep: Vec<(usize, u32)> = (0..6).map(|c| (c, six)).collect();
    let board = board(4, &keep);
    assert_eq!(naked_subset_in_row_1(&board), ((0..6).collect(), six, 10));
}

#[test]
fn contradictions_are_found() {
    // Two clues of the same digit in a row.
    let mut grid = Grid::empty(3).unwrap();
    grid.set(0, 0, Some(3));
    grid.set(0, 8, Some(3));
    assert!(Board::new(&grid).is_err());
    // 9 has no place in row 1.
    let keep: Vec<(usize, u32)> = row(0).map(|c| (c, ALL & !bit(9))).collect();
    assert_eq!(board(3, &keep).next(Difficulty::Medium), Err(Contradiction));
    // Three cells of row 1 share two digits: no matching.
    let pair = mask(&[1, 2]);
    let board = board(3, &[(0, pair), (4, pair), (8, pair)]);
    assert_eq!(board.next(Difficulty::Hard), Ok(None));
    assert_eq!(board.next(Difficulty::Fiendish), Err(Contradiction));
    // Placing a digit that is not a candidate.
    let mut one = self::board(3, &[(0, mask(&[1]))]);
    assert_eq!(one.place(0, 2), Err(Contradiction));
    one.place(0, 1).unwrap();
    assert_eq!(one.place(0, 1), Err(Contradiction));
}

#[test]
fn solving_a_small_grid_by_singles_places_every_cell() {
    let grid: Grid = ".2343.1221.3432.".parse().unwrap();
    let mut board = Board::new(&grid).unwrap();
    while let Some(deduction) = board.next(Difficulty::Easy).unwrap() {
        board.apply(&deduction).unwrap();
    }
    assert!(board.is_solved());
    let line: String = (0..16)
        .map(|c| char::from(b'0' + board.placed(c)))
        .collect();
    assert_eq!(line, "1234341221434321");
}
