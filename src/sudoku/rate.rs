//! Difficulty: the weakest propagation that solves a puzzle without guessing.

use std::fmt;
use std::str::FromStr;

use crate::sudoku::{Grid, Propagation, SudokuModel};
use crate::{CountStatus, Limits, Solver, StopReason};

/// How hard a puzzle is, from the weakest propagation that solves it at the root.
/// Displayed (and parsed) in lower case: `easy`, `medium`, `hard`, `fiendish`,
/// `diabolical`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Difficulty {
    /// Naked singles alone solve it ([`Propagation::NakedSingles`]).
    Easy,
    /// Hidden singles are needed ([`Propagation::HiddenSingles`]).
    Medium,
    /// Locked candidates are needed ([`Propagation::LockedCandidates`]).
    Hard,
    /// Full all-different consistency on each unit is needed ([`Propagation::Full`]):
    /// naked and hidden pairs, triples, ...
    Fiendish,
    /// No level solves it without search; [`Rating`] tells how much search.
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
    /// Search nodes to solve it and prove the solution unique, with full propagation
    /// and first-fail ascending search; 0 unless diabolical.
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

/// The propagation of each grade that needs no search, easiest first.
const LEVELS: [(Difficulty, Propagation); 4] = [
    (Difficulty::Easy, Propagation::NakedSingles),
    (Difficulty::Medium, Propagation::HiddenSingles),
    (Difficulty::Hard, Propagation::LockedCandidates),
    (Difficulty::Fiendish, Propagation::Full),
];

/// Rates a puzzle: the weakest propagation level that fixes every cell at the root
/// (with the clues assumed), or [`Difficulty::Diabolical`] with the nodes and failures
/// of a search with full propagation, first-fail, ascending values, counting up to two
/// solutions.
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
    let mut last = None;
    for (difficulty, propagation) in LEVELS {
        let mut solver = solver_for(grid, propagation);
        let Some(domains) = solver.root_domains() else {
            // Propagation never removes a value of a solution.
            return Err(RateError::NoSolution);
        };
        if domains.iter().all(|d| d.len() == 1) {
            return Ok(Rating {
                difficulty,
                nodes: 0,
                failures: 0,
            });
        }
        last = Some(solver);
    }
    let Some(mut solver) = last else {
        return Err(RateError::NoSolution);
    };
    solver.set_limits(limits.clone());
    let count = solver.count(Some(2));
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

/// A solver over the grid's model at `propagation`, with its clues assumed.
fn solver_for(grid: &Grid, propagation: Propagation) -> Solver {
    SudokuModel::for_grid(grid, propagation)
        .clued_solver(grid)
        .0
}
