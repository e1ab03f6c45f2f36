//! The human steps of an explanation: what each one applies, where, and how it reads.

use std::fmt;

use crate::sudoku::grid::symbol;
use crate::sudoku::{Cell, Grid, Unit};

/// The technique a step applies. Serialized in snake case (`hidden_single`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum Technique {
    /// A cell with one candidate left takes it.
    NakedSingle,
    /// A digit with one place left in a unit goes there.
    HiddenSingle,
    /// The digits of fixed cells leave the other cells of their unit.
    ValueElimination,
    /// A digit confined to where a box and a line overlap, in one of them, leaves the
    /// rest of the other (pointing and claiming).
    LockedCandidates,
    /// Naked and hidden pairs, triples, ...: digits no arrangement of the unit uses
    /// there, found by all-different matching.
    Subset,
    /// A removal by a rule that has no Sudoku name.
    Propagation,
    /// A search decision: try a digit in a cell.
    Guess,
    /// The guess failed: the digit is not in the cell.
    Backtrack,
    /// The candidates contradict each other: the latest guess was wrong.
    Contradiction,
}

impl Technique {
    /// The name used in [`ExplanationStep`]'s display: `naked single`, `hidden single`, ...
    pub fn name(self) -> &'static str {
        match self {
            Technique::NakedSingle => "naked single",
            Technique::HiddenSingle => "hidden single",
            Technique::ValueElimination => "value elimination",
            Technique::LockedCandidates => "locked candidates",
            Technique::Subset => "naked/hidden subset via all-different matching",
            Technique::Propagation => "propagation",
            Technique::Guess => "guess",
            Technique::Backtrack => "backtrack",
            Technique::Contradiction => "contradiction",
        }
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A digit placed in a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Placement {
    /// The cell.
    pub cell: Cell,
    /// The digit, `1..=side`.
    pub digit: u8,
}

/// Candidates removed from a cell.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Elimination {
    /// The cell.
    pub cell: Cell,
    /// The digits removed, in the order removed.
    pub digits: Vec<u8>,
}

/// One step of an [`Explanation`].
///
/// Displayed as `r4c3 = 6 (hidden single in box 4)`, `r2c5 <> 7 (locked candidates:
/// box 2, row 2)`, `r1c2 <> 3, 5; r1c4 <> 3 (value elimination in row 1)`,
/// `guess r5c5 = 3`, `r5c5 <> 3 (backtrack)` or `contradiction in row 3`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ExplanationStep {
    /// What it applies.
    pub technique: Technique,
    /// Where: the unit the candidates were removed from or the digit placed in; for
    /// locked candidates, the unit that confines the digit, then the unit it leaves
    /// (`box 2, row 2`: pointing; `row 2, box 2`: claiming). Empty for naked singles
    /// and search decisions. Serialized as `"row 1"`, ...
    #[cfg_attr(feature = "serde", serde(serialize_with = "units_as_text"))]
    pub units: Vec<Unit>,
    /// The guesses in force after the step (a guess counts itself).
    pub depth: u32,
    /// The digit placed, for singles and guesses.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub placed: Option<Placement>,
    /// The candidates removed, for eliminations and backtracks.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub removed: Vec<Elimination>,
}

#[cfg(feature = "serde")]
fn units_as_text<S: serde::Serializer>(units: &[Unit], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(units.iter().map(ToString::to_string))
}

fn write_digits(f: &mut fmt::Formatter<'_>, digits: &[u8]) -> fmt::Result {
    for (i, &digit) in digits.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{}", symbol(digit))?;
    }
    Ok(())
}

impl fmt::Display for ExplanationStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.technique == Technique::Guess {
            f.write_str("guess ")?;
        }
        if let Some(Placement { cell, digit }) = self.placed {
            write!(f, "{cell} = {}", symbol(digit))?;
        }
        for (i, removal) in self.removed.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{} <> ", removal.cell)?;
            write_digits(f, &removal.digits)?;
        }
        if self.technique == Technique::Guess {
            return Ok(());
        }
        let units = || {
            self.units
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        };
        match (self.technique, self.units.is_empty()) {
            (Technique::Contradiction, true) => f.write_str("contradiction"),
            (Technique::Contradiction, false) => write!(f, "contradiction in {}", units()),
            (Technique::LockedCandidates, false) => {
                write!(f, " ({}: {})", self.technique, units())
            }
            (technique, true) => write!(f, " ({technique})"),
            (technique, false) => write!(f, " ({technique} in {})", units()),
        }
    }
}

/// A puzzle's solution as steps, in the order the engine took them.
///
/// `Display` prints one step a line, indented two spaces per guess in force; the
/// serde form (for JSON) holds the puzzle and solution in the line form, the number
/// of guesses and the steps.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Explanation {
    #[cfg_attr(feature = "serde", serde(serialize_with = "grid_as_line"))]
    puzzle: Grid,
    #[cfg_attr(feature = "serde", serde(serialize_with = "grid_as_line"))]
    solution: Grid,
    guesses: usize,
    steps: Vec<ExplanationStep>,
}

#[cfg(feature = "serde")]
fn grid_as_line<S: serde::Serializer>(grid: &Grid, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(&grid.to_line())
}

impl Explanation {
    /// The explanation of `puzzle`, solved as `solution` by `steps`.
    pub(super) fn new(puzzle: Grid, solution: Grid, steps: Vec<ExplanationStep>) -> Explanation {
        let guesses = steps
            .iter()
            .filter(|s| s.technique == Technique::Guess)
            .count();
        Explanation {
            puzzle,
            solution,
            guesses,
            steps,
        }
    }

    /// The puzzle explained.
    pub fn puzzle(&self) -> &Grid {
        &self.puzzle
    }

    /// Its (unique) solution.
    pub fn solution(&self) -> &Grid {
        &self.solution
    }

    /// The steps, in order.
    pub fn steps(&self) -> &[ExplanationStep] {
        &self.steps
    }

    /// How many guesses the search made (0 when propagation alone solves it).
    pub fn guesses(&self) -> usize {
        self.guesses
    }
}

impl fmt::Display for Explanation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for step in &self.steps {
            let indent = match step.technique {
                Technique::Guess => step.depth.saturating_sub(1),
                _ => step.depth,
            };
            for _ in 0..indent {
                f.write_str("  ")?;
            }
            writeln!(f, "{step}")?;
        }
        Ok(())
    }
}
