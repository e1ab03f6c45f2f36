//! Difficulty: the hardest technique a puzzle needs, or the weakest propagation that
//! solves it without guessing, which is the same.

use std::fmt;
use std::str::FromStr;

use crate::sudoku::techniques::{Board, Contradiction};
use crate::sudoku::{Grid, SudokuSolver};
use crate::{CountStatus, Limits, StopReason};

/// How hard a puzzle is: the hardest technique a person needs, trying the simplest
/// first (see [`rate`]). Each grade's techniques prune, together, what one
/// [`Propagation`](crate::sudoku::Propagation) does at the root, so a grade is also the
/// weakest propagation that solves the puzzle without guessing. Displayed (and parsed)
/// in lower case: `easy`, `medium`, `hard`, `fiendish`, `diabolical`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum Difficulty {
    /// Naked singles alone solve it: a digit placed leaves its row, column and box, and
    /// a cell with one candidate left takes it
    /// ([`Propagation::NakedSingles`](crate::sudoku::Propagation::NakedSingles)).
    Easy,
    /// Hidden singles are needed: a digit with one place left in a unit goes there
    /// ([`Propagation::HiddenSingles`](crate::sudoku::Propagation::HiddenSingles)).
    Medium,
    /// Locked candidates are needed: a digit confined to where a box and a line cross,
    /// in one of them, leaves the rest of the other
    /// ([`Propagation::LockedCandidates`](crate::sudoku::Propagation::LockedCandidates)).
    Hard,
    /// Naked or hidden subsets are needed: pairs, triples, ... of cells holding as many
    /// digits between them, or the only places of as many digits, in a unit; that is,
    /// full all-different consistency on each unit
    /// ([`Propagation::Full`](crate::sudoku::Propagation::Full)).
    Fiendish,
    /// No technique above solves it without guessing; [`Rating`] tells how much search.
    Diabolical,
}

impl Difficulty {
    /// Every grade, easiest first.
    pub const ALL: [Difficulty; 5] = [
        Difficulty::Easy,
        Difficulty::Medium,
        Difficulty::Hard,
        Difficulty::Fiendish,
        Difficulty::Diabolical,
    ];

    /// The next grade up, `None` for [`Difficulty::Diabolical`].
    pub fn harder(self) -> Option<Difficulty> {
        Difficulty::ALL
            .into_iter()
            .skip_while(|&d| d != self)
            .nth(1)
    }

    /// The lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
            Difficulty::Fiendish => "fiendish",
            Difficulty::Diabolical => "diabolical",
        }
    }
}

impl fmt::Display for Difficulty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a [`Difficulty`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown difficulty {0:?}: expected easy, medium, hard, fiendish or diabolical")]
pub struct UnknownDifficulty(pub String);

impl FromStr for Difficulty {
    type Err = UnknownDifficulty;
    fn from_str(s: &str) -> Result<Difficulty, UnknownDifficulty> {
        Difficulty::ALL
            .into_iter()
            .find(|d| d.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownDifficulty(s.to_owned()))
    }
}

/// A puzzle's grade and, for [`Difficulty::Diabolical`], the search it takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Rating {
    /// The grade.
    pub difficulty: Difficulty,
    /// Search nodes to solve it and prove the solution unique, by the solver's search
    /// (for [`rate`], [`SudokuSolver::new`]'s, the search `solve` makes); 0 unless
    /// diabolical.
    pub nodes: u64,
    /// Failed nodes of that search; 0 unless diabolical.
    pub failures: u64,
}

/// Why a puzzle cannot be rated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RateError {
    /// The puzzle has no solution.
    #[error("the puzzle has no solution")]
    NoSolution,
    /// The puzzle has two or more solutions: no grade without guessing applies.
    #[error("the puzzle has more than one solution")]
    MultipleSolutions,
    /// The search limit stopped the rating.
    #[error("rating stopped: {0}")]
    Stopped(StopReason),
}

/// Rates a puzzle: the weakest grade whose techniques solve it without guessing, or
/// [`Difficulty::Diabolical`] with the nodes and failures of the search that solves it
/// and proves it unique ([`SudokuSolver`] with its default options, as `solve` does).
///
/// The techniques run from the simplest up (see [`Difficulty`]): naked singles until
/// they stall, then hidden singles, and so on, a harder technique only when every
/// easier one is stuck; the grade is the hardest technique used. Each grade's
/// techniques prune what its [`Propagation`](crate::sudoku::Propagation) does at the
/// root, so the grade is that of the weakest propagation that solves the puzzle, found
/// without running the stronger ones: most puzzles finish on singles.
///
/// ```
/// use alldiff::sudoku::{Difficulty, Grid, rate};
/// let puzzle: Grid = ".2343.1221.3432.".parse()?;
/// assert_eq!(rate(&puzzle)?.difficulty, Difficulty::Easy);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// [`RateError::NoSolution`] or [`RateError::MultipleSolutions`] for a puzzle that has
/// not exactly one solution.
pub fn rate(grid: &Grid) -> Result<Rating, RateError> {
    rate_with_limit(grid, None)
}

/// [`rate`], with a node limit on the search of diabolical puzzles.
///
/// # Errors
///
/// As [`rate`], and [`RateError::Stopped`] when the node limit is reached.
pub fn rate_with_limit(grid: &Grid, node_limit: Option<u64>) -> Result<Rating, RateError> {
    let limits = match node_limit {
        Some(nodes) => Limits::none().with_nodes(nodes),
        None => Limits::none(),
    };
    rate_with_limits(grid, &limits)
}

/// [`rate`], with any [`Limits`] (nodes, failures, time, cancellation) on the search
/// of diabolical puzzles; the grades below need no search and are not limited.
///
/// # Errors
///
/// As [`rate`], and [`RateError::Stopped`] when a limit is reached.
pub fn rate_with_limits(grid: &Grid, limits: &Limits) -> Result<Rating, RateError> {
    if let Some(difficulty) = grade(grid)? {
        return Ok(solved(difficulty));
    }
    let mut solver = SudokuSolver::new();
    solver.set_limits(limits.clone());
    search(&mut solver, grid)
}

/// [`rate`], searching diabolical puzzles with `solver`, its options and its limits
/// ([`SudokuSolver::set_limits`]): rating many puzzles with one solver (one per
/// thread) builds the engine's model once. The nodes and failures are those of its
/// search.
///
/// ```
/// use alldiff::sudoku::{Difficulty, Grid, SudokuSolver, rate_with};
///
/// let mut solver = SudokuSolver::new();
/// let inkala: Grid = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..".parse()?;
/// let rating = rate_with(&mut solver, &inkala)?;
/// assert_eq!(rating.difficulty, Difficulty::Diabolical);
/// assert!(rating.nodes > 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// As [`rate`], and [`RateError::Stopped`] when one of the solver's limits is reached.
pub fn rate_with(solver: &mut SudokuSolver, grid: &Grid) -> Result<Rating, RateError> {
    match grade(grid)? {
        Some(difficulty) => Ok(solved(difficulty)),
        None => search(solver, grid),
    }
}

/// The rating of a puzzle solved by techniques.
fn solved(difficulty: Difficulty) -> Rating {
    Rating {
        difficulty,
        nodes: 0,
        failures: 0,
    }
}

/// The grade whose techniques solve the puzzle, escalating only when the easier ones
/// stall; `None` when every technique stalls.
///
/// Cost: O(cells) a placement for singles; locked candidates and subsets are looked
/// for only once the singles stall.
///
/// # Errors
///
/// [`RateError::NoSolution`] when the techniques find the clues contradictory.
fn grade(grid: &Grid) -> Result<Option<Difficulty>, RateError> {
    let contradiction = |_: Contradiction| RateError::NoSolution;
    let mut board = Board::new(grid).map_err(contradiction)?;
    let mut level = Difficulty::Easy;
    loop {
        match board.next(level).map_err(contradiction)? {
            Some(deduction) => board.apply(&deduction).map_err(contradiction)?,
            None if board.is_solved() => return Ok(Some(level)),
            None => match level.harder() {
                Some(Difficulty::Diabolical) | None => return Ok(None),
                Some(harder) => level = harder,
            },
        }
    }
}

/// The rating of a puzzle that needs search: count up to two solutions.
fn search(solver: &mut SudokuSolver, grid: &Grid) -> Result<Rating, RateError> {
    let count = solver.count(grid, Some(2));
    let stats = solver.statistics();
    match (count.solutions, count.status) {
        (_, CountStatus::Stopped(reason)) => Err(RateError::Stopped(reason)),
        (0, _) => Err(RateError::NoSolution),
        (1, _) => Ok(Rating {
            difficulty: Difficulty::Diabolical,
            nodes: stats.nodes,
            failures: stats.failures,
        }),
        _ => Err(RateError::MultipleSolutions),
    }
}
