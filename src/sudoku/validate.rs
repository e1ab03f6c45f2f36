//! Checking a grid against the Sudoku rules, and a solution against its puzzle.
//!
//! Described in the [`sudoku`](crate::sudoku) module docs.

use std::fmt;

use thiserror::Error;

use super::Cell;
use super::grid::{Grid, Unit, symbol};

/// The most problems [`SolutionError`] shows in its message; the rest are counted.
const SHOWN_PROBLEMS: usize = 5;

/// A digit that appears more than once in a unit: a break of the Sudoku rule, as
/// [`validate`] reports it.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct RepeatedDigit {
    /// The row, column or box.
    pub unit: Unit,
    /// The repeated digit, `1..=side`.
    pub digit: u8,
    /// Every cell of the unit holding the digit, in reading order.
    pub cells: Vec<Cell>,
}

impl fmt::Display for RepeatedDigit {
    /// As `row 1 has 8 twice: r1c1, r1c5`, 1-based.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let times = match self.cells.len() {
            2 => "twice".to_owned(),
            3 => "three times".to_owned(),
            4 => "four times".to_owned(),
            n => format!("{n} times"),
        };
        write!(f, "{} has {} {times}:", self.unit, symbol(self.digit))?;
        for (i, cell) in self.cells.iter().enumerate() {
            let comma = if i == 0 { "" } else { "," };
            write!(f, "{comma} {cell}")?;
        }
        Ok(())
    }
}

/// Every repeated digit of a grid: by unit (rows, then columns, then boxes, each from the
/// first), then by digit. An empty list means no digit is repeated in any unit.
pub fn validate(grid: &Grid) -> Vec<RepeatedDigit> {
    let side = grid.side();
    let cells = grid.cells();
    // For each digit, the cells of the current unit that hold it.
    let mut holders: Vec<Vec<usize>> = vec![Vec::new(); side + 1];
    let mut conflicts = Vec::new();
    for unit in grid.units() {
        holders.iter_mut().for_each(Vec::clear);
        for index in grid.unit_cells(unit) {
            holders[usize::from(cells[index])].push(index);
        }
        for (digit, indices) in holders.iter().enumerate().skip(1) {
            if indices.len() > 1 {
                conflicts.push(RepeatedDigit {
                    unit,
                    digit: u8::try_from(digit).unwrap_or(u8::MAX),
                    cells: indices
                        .iter()
                        .map(|&index| Cell::at_index(index, side))
                        .collect(),
                });
            }
        }
    }
    conflicts
}

/// One thing wrong with a proposed solution.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum SolutionProblem {
    /// The solution is not the size of the puzzle.
    SizeMismatch {
        /// The side of the puzzle.
        puzzle_side: usize,
        /// The side of the solution.
        solution_side: usize,
    },
    /// A cell of the solution is blank.
    Blank {
        /// The cell.
        cell: Cell,
    },
    /// A cell of the solution does not hold the clue the puzzle gives.
    ClueChanged {
        /// The cell.
        cell: Cell,
        /// The digit of the puzzle.
        clue: u8,
        /// The digit of the solution.
        found: u8,
    },
    /// A digit is repeated in a unit of the solution.
    RepeatedDigit(RepeatedDigit),
}

impl fmt::Display for SolutionProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolutionProblem::SizeMismatch {
                puzzle_side: p,
                solution_side: s,
            } => write!(f, "the puzzle is {p}x{p} but the solution is {s}x{s}"),
            SolutionProblem::Blank { cell } => write!(f, "{cell} is blank"),
            SolutionProblem::ClueChanged { cell, clue, found } => write!(
                f,
                "{cell} is {} but the puzzle gives {}",
                symbol(*found),
                symbol(*clue)
            ),
            SolutionProblem::RepeatedDigit(repeated) => repeated.fmt(f),
        }
    }
}

/// Why a grid is not a solution of a puzzle: every problem found, never none.
///
/// The message shows the first few problems and counts the rest, e.g.
/// `not a solution: r1c3 is 4 but the puzzle gives 5; row 1 has 4 twice: r1c3, r1c7`.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[error("not a solution: {}", summary(.problems))]
pub struct SolutionError {
    problems: Vec<SolutionProblem>,
}

impl SolutionError {
    /// The problems: a size mismatch alone, or else the changed clues, the blanks and the
    /// conflicts, in that order, each in reading order.
    pub fn problems(&self) -> &[SolutionProblem] {
        &self.problems
    }
}

/// Checks that `solution` solves `puzzle`: same size, complete, without conflicts, and agreeing
/// with every clue of the puzzle.
///
/// # Errors
///
/// A [`SolutionError`] listing every problem found.
pub fn check_solution(puzzle: &Grid, solution: &Grid) -> Result<(), SolutionError> {
    let (puzzle_side, solution_side) = (puzzle.side(), solution.side());
    if puzzle_side != solution_side {
        return Err(SolutionError {
            problems: vec![SolutionProblem::SizeMismatch {
                puzzle_side,
                solution_side,
            }],
        });
    }
    let side = puzzle_side;
    let pairs = || puzzle.cells().iter().zip(solution.cells()).enumerate();

    let changed = pairs().filter_map(|(index, (&clue, &found))| {
        (clue != 0 && found != 0 && clue != found).then_some(SolutionProblem::ClueChanged {
            cell: Cell::at_index(index, side),
            clue,
            found,
        })
    });
    let blanks = pairs().filter_map(|(index, (_, &found))| {
        (found == 0).then_some(SolutionProblem::Blank {
            cell: Cell::at_index(index, side),
        })
    });
    let conflicts = validate(solution)
        .into_iter()
        .map(SolutionProblem::RepeatedDigit);

    let problems: Vec<_> = changed.chain(blanks).chain(conflicts).collect();
    if problems.is_empty() {
        Ok(())
    } else {
        Err(SolutionError { problems })
    }
}

/// The first few problems, joined by `; `, and how many more there are.
fn summary(problems: &[SolutionProblem]) -> String {
    let mut text = problems
        .iter()
        .take(SHOWN_PROBLEMS)
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ");
    if problems.len() > SHOWN_PROBLEMS {
        text.push_str(&format!("; and {} more", problems.len() - SHOWN_PROBLEMS));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::grid::tests::patterned;
    use proptest::prelude::*;

    const BOARD: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    const PUZZLE: &str =
        "3.65.84..52........87....31..3.1..8.9..863..5.5..9.6..13....25........74..52.63..";
    const SOLUTION: &str =
        "316578492529134768487629531263415987974863125851792643138947256692351874745286319";

    fn grid(text: &str) -> Grid {
        Grid::parse(text).unwrap()
    }

    fn messages(conflicts: &[RepeatedDigit]) -> Vec<String> {
        conflicts.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn a_valid_board_has_no_conflicts() {
        assert!(validate(&grid(BOARD)).is_empty());
        assert!(validate(&grid(PUZZLE)).is_empty());
        assert!(validate(&grid(SOLUTION)).is_empty());
        for box_size in 2..=5 {
            assert!(validate(&Grid::empty(box_size).unwrap()).is_empty());
            assert!(validate(&patterned(box_size)).is_empty());
        }
    }

    #[test]
    fn a_changed_cell_gives_two_conflicts() {
        let mut board = grid(BOARD);
        board.set(0, 0, Some(8));
        let conflicts = validate(&board);
        assert_eq!(
            messages(&conflicts),
            [
                "column 1 has 8 twice: r1c1, r4c1",
                "box 1 has 8 twice: r1c1, r3c3",
            ]
        );
        assert_eq!(
            conflicts[0],
            RepeatedDigit {
                unit: Unit::Column(0),
                digit: 8,
                cells: vec![Cell::new(0, 0), Cell::new(3, 0)],
            }
        );
        assert_eq!(conflicts[1].unit, Unit::Box(0));
        assert_eq!(conflicts[1].cells, [Cell::new(0, 0), Cell::new(2, 2)]);
    }

    #[test]
    fn conflicts_come_by_unit_then_digit() {
        // Row 1: 1 1 2 2; so column 1 and 2 each hold one of them, box 1 holds 1 twice, box 2
        // holds 2 twice.
        let conflicts = validate(&grid("1122 .... .... ...."));
        assert_eq!(
            messages(&conflicts),
            [
                "row 1 has 1 twice: r1c1, r1c2",
                "row 1 has 2 twice: r1c3, r1c4",
                "box 1 has 1 twice: r1c1, r1c2",
                "box 2 has 2 twice: r1c3, r1c4",
            ]
        );
    }

    #[test]
    fn repeats_are_counted_in_words_then_numbers() {
        let mut big = Grid::empty(4).unwrap();
        for col in 0..5 {
            big.set(0, col, Some(10));
        }
        for col in [0, 4, 8] {
            big.set(1, col, Some(16));
        }
        for row in [2, 3, 4, 5] {
            big.set(row, 15, Some(1));
        }
        assert_eq!(
            messages(&validate(&big)),
            [
                "row 1 has A 5 times: r1c1, r1c2, r1c3, r1c4, r1c5",
                "row 2 has G three times: r2c1, r2c5, r2c9",
                "column 16 has 1 four times: r3c16, r4c16, r5c16, r6c16",
                "box 1 has A four times: r1c1, r1c2, r1c3, r1c4",
                "box 4 has 1 twice: r3c16, r4c16",
                "box 8 has 1 twice: r5c16, r6c16",
            ]
        );
    }

    #[test]
    fn the_classic_solution_solves_its_puzzle() {
        assert_eq!(check_solution(&grid(PUZZLE), &grid(SOLUTION)), Ok(()));
        assert_eq!(check_solution(&grid(SOLUTION), &grid(SOLUTION)), Ok(()));
        let empty = Grid::empty(3).unwrap();
        assert_eq!(check_solution(&empty, &grid(SOLUTION)), Ok(()));
    }

    #[test]
    fn a_changed_clue_is_reported_with_its_conflicts() {
        let mut solution = grid(SOLUTION);
        solution.set(0, 2, Some(4));
        let error = check_solution(&grid(PUZZLE), &solution).unwrap_err();
        assert_eq!(
            error.problems()[0],
            SolutionProblem::ClueChanged {
                cell: Cell::new(0, 2),
                clue: 6,
                found: 4
            }
        );
        let problems: Vec<String> = error.problems().iter().map(ToString::to_string).collect();
        assert_eq!(
            problems,
            [
                "r1c3 is 4 but the puzzle gives 6",
                "row 1 has 4 twice: r1c3, r1c7",
                "column 3 has 4 twice: r1c3, r5c3",
                "box 1 has 4 twice: r1c3, r3c1",
            ]
        );
        assert_eq!(
            error.to_string(),
            "not a solution: r1c3 is 4 but the puzzle gives 6; row 1 has 4 twice: r1c3, r1c7; \
             column 3 has 4 twice: r1c3, r5c3; box 1 has 4 twice: r1c3, r3c1"
        );
    }

    #[test]
    fn blanks_are_reported_and_the_message_is_cut_short() {
        let puzzle = grid(PUZZLE);
        let error = check_solution(&puzzle, &puzzle).unwrap_err();
        assert_eq!(error.problems().len(), 81 - 32);
        assert_eq!(
            error.problems()[0],
            SolutionProblem::Blank {
                cell: Cell::new(0, 1)
            }
        );
        assert_eq!(
            error.to_string(),
            "not a solution: r1c2 is blank; r1c5 is blank; r1c8 is blank; r1c9 is blank; \
             r2c3 is blank; and 44 more"
        );
    }

    #[test]
    fn sizes_must_match() {
        let error = check_solution(&Grid::empty(3).unwrap(), &patterned(2)).unwrap_err();
        assert_eq!(
            error.problems(),
            [SolutionProblem::SizeMismatch {
                puzzle_side: 9,
                solution_side: 4
            }]
        );
        assert_eq!(
            error.to_string(),
            "not a solution: the puzzle is 9x9 but the solution is 4x4"
        );
    }

    /// Any grid of any size, with about half of the cells blank, so that conflicts are common.
    fn any_grid() -> impl Strategy<Value = Grid> {
        (2_usize..=4).prop_flat_map(|box_size| {
            let side = box_size * box_size;
            let max = u8::try_from(side).unwrap();
            let cell = prop_oneof![Just(0_u8), 1..=max];
            proptest::collection::vec(cell, side * side)
                .prop_map(move |cells| Grid::from_cells(box_size, cells).unwrap())
        })
    }

    /// Whether two cells (as indices) share a unit.
    fn share_unit(grid: &Grid, a: usize, b: usize) -> [bool; 3] {
        let (side, size) = (grid.side(), grid.box_size());
        let (ra, ca, rb, cb) = (a / side, a % side, b / side, b % side);
        [
            ra == rb,
            ca == cb,
            (ra / size, ca / size) == (rb / size, cb / size),
        ]
    }

    proptest! {
        /// Against a brute-force oracle: every pair of equal digits sharing a unit is in exactly
        /// one conflict of that unit, and every conflict is made of such pairs.
        #[test]
        fn validate_matches_pairwise_checks(grid in any_grid()) {
            let cells = grid.cells();
            let mut pairs = 0;
            for a in 0..cells.len() {
                for b in a + 1..cells.len() {
                    if cells[a] != 0 && cells[a] == cells[b] {
                        pairs += share_unit(&grid, a, b).iter().filter(|&&shared| shared).count();
                    }
                }
            }
            let conflicts = validate(&grid);
            let mut counted = 0;
            for conflict in &conflicts {
                let n = conflict.cells.len();
                prop_assert!(n >= 2);
                counted += n * (n - 1) / 2;
                let in_unit: Vec<usize> = grid.unit_cells(conflict.unit).collect();
                for &Cell { row, column } in &conflict.cells {
                    prop_assert_eq!(grid.get(row, column), Some(conflict.digit));
                    prop_assert!(in_unit.contains(&(row * grid.side() + column)));
                }
            }
            prop_assert_eq!(counted, pairs);
            let mut sorted = conflicts.clone();
            sorted.sort_by_key(|conflict| (conflict.unit, conflict.digit));
            prop_assert_eq!(sorted, conflicts);
        }

        #[test]
        fn a_complete_grid_without_conflicts_solves_itself(grid in any_grid()) {
            let result = check_solution(&grid, &grid);
            prop_assert_eq!(result.is_ok(), grid.is_complete() && validate(&grid).is_empty());
        }
    }
}
