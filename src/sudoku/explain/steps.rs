//! The human steps of an explanation: what each one applies, where, and how it reads.

use std::fmt;

use crate::sudoku::grid::symbol;
use crate::sudoku::{Cell, Difficulty, Grid, Unit};

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
    /// Cells of a unit that hold, between them, as many candidates as they are (a naked
    /// pair, triple, ...): those digits leave the unit's other cells.
    NakedSubset,
    /// Digits that have, between them, as many places in a unit as they are (a hidden
    /// pair, triple, ...): those cells lose their other candidates.
    HiddenSubset,
    /// Naked and hidden pairs, triples, ...: digits no arrangement of the unit uses
    /// there, found by all-different matching (the engine's log, which does not tell
    /// the subset).
    Subset,
    /// A removal under a propagator's label that has no Sudoku name.
    Propagation,
    /// A search decision: try a digit in a cell.
    Guess,
    /// The guess failed: the digit is not in the cell.
    Backtrack,
    /// The candidates contradict each other: the latest guess was wrong.
    Contradiction,
}

impl Technique {
    /// Every technique, in declaration order: the readable form's techniques, easiest
    /// first, then those of the engine's log and of search.
    ///
    /// ```
    /// use alldiff::sudoku::Technique;
    /// assert!(Technique::ALL.contains(&Technique::HiddenSubset));
    /// assert_eq!(Technique::ALL[0], Technique::NakedSingle);
    /// ```
    pub const ALL: [Technique; 11] = [
        Technique::NakedSingle,
        Technique::HiddenSingle,
        Technique::ValueElimination,
        Technique::LockedCandidates,
        Technique::NakedSubset,
        Technique::HiddenSubset,
        Technique::Subset,
        Technique::Propagation,
        Technique::Guess,
        Technique::Backtrack,
        Technique::Contradiction,
    ];

    /// The name used in [`ExplanationStep`]'s display: `naked single`, `hidden single`, ...
    pub fn name(self) -> &'static str {
        match self {
            Technique::NakedSingle => "naked single",
            Technique::HiddenSingle => "hidden single",
            Technique::ValueElimination => "value elimination",
            Technique::LockedCandidates => "locked candidates",
            Technique::NakedSubset => "naked subset",
            Technique::HiddenSubset => "hidden subset",
            Technique::Subset => "naked/hidden subset via all-different matching",
            Technique::Propagation => "propagation",
            Technique::Guess => "guess",
            Technique::Backtrack => "backtrack",
            Technique::Contradiction => "contradiction",
        }
    }

    /// The grade of a puzzle whose hardest technique this is, as [`rate`](fn@crate::sudoku::rate)
    /// grades: naked singles (and value elimination) `easy`, hidden singles `medium`,
    /// locked candidates `hard`, subsets `fiendish`, search (guesses, backtracks,
    /// contradictions) `diabolical`; `None` for [`Technique::Propagation`].
    ///
    /// ```
    /// use alldiff::sudoku::{Difficulty, Technique};
    /// assert_eq!(Technique::HiddenSubset.difficulty(), Some(Difficulty::Fiendish));
    /// ```
    pub fn difficulty(self) -> Option<Difficulty> {
        Some(match self {
            Technique::NakedSingle | Technique::ValueElimination => Difficulty::Easy,
            Technique::HiddenSingle => Difficulty::Medium,
            Technique::LockedCandidates => Difficulty::Hard,
            Technique::NakedSubset | Technique::HiddenSubset | Technique::Subset => {
                Difficulty::Fiendish
            }
            Technique::Guess | Technique::Backtrack | Technique::Contradiction => {
                Difficulty::Diabolical
            }
            Technique::Propagation => return None,
        })
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
/// The readable form ([`explain`](fn@super::explain)) prints a placement as
/// `r4c3 = 6 (naked single)`, `r4c3 = 6 (hidden single in box 4)` or
/// `r5c5 = 3 (guess among 3, 7)`, and eliminations with the pattern that justifies
/// them: `r1c4 <> 8; r1c5 <> 8 (locked candidates: box 1 has 8 only at r1c1, r1c2,
/// in row 1)`, `r1c3 <> 3, 7 (naked pair 3, 7 at r1c1, r1c4 in row 1)`,
/// `r2c2 <> 1, 5 (hidden triple 2, 4, 9 at r2c2, r2c6, r2c8 in row 2)`. The engine's
/// log ([`ExplainOptions::verbose`](super::ExplainOptions::verbose)) prints
/// `r2c5 <> 7 (locked candidates: box 2, row 2)`, `r1c2 <> 3, 5; r1c4 <> 3 (value
/// elimination in row 1)`, `guess r5c5 = 3`, `r5c5 <> 3 (backtrack)` or
/// `contradiction in row 3`.
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
    /// The cells of the pattern, in reading order: where a locked digit lies in the
    /// unit confining it, or the cells of a naked or hidden subset. Empty for other
    /// steps and in the engine's log.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub cells: Vec<Cell>,
    /// The digits of the pattern, smallest first: the locked digit, the subset's
    /// digits, or the candidates a readable guess chose among. Empty for other steps
    /// and in the engine's log.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub digits: Vec<u8>,
    /// The guesses in force after the step (a guess counts itself) in the engine's
    /// log; always 0 in the readable form, whose guesses are never undone.
    pub depth: u32,
    /// The digit placed, for singles and guesses.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub placed: Option<Placement>,
    /// The candidates removed, for eliminations and backtracks; in the readable form
    /// only those that a later placement needs.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub removed: Vec<Elimination>,
}

impl ExplanationStep {
    /// A step with nothing placed or removed, no pattern, at depth 0.
    pub(super) fn new(technique: Technique, units: Vec<Unit>) -> ExplanationStep {
        ExplanationStep {
            technique,
            units,
            cells: Vec::new(),
            digits: Vec::new(),
            depth: 0,
            placed: None,
            removed: Vec::new(),
        }
    }
}

#[cfg(feature = "serde")]
fn units_as_text<S: serde::Serializer>(units: &[Unit], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(units.iter().map(ToString::to_string))
}

/// Writes items separated by `, `.
fn write_list<T: fmt::Display>(
    f: &mut fmt::Formatter<'_>,
    items: impl IntoIterator<Item = T>,
) -> fmt::Result {
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{item}")?;
    }
    Ok(())
}

/// The name of a subset of `size` cells: `pair`, `triple`, `quad`, `set of 5`, ...
fn subset_name(size: usize) -> String {
    match size {
        2 => "pair".to_owned(),
        3 => "triple".to_owned(),
        4 => "quad".to_owned(),
        _ => format!("set of {size}"),
    }
}

impl fmt::Display for ExplanationStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let readable = !self.digits.is_empty();
        if self.technique == Technique::Guess && !readable {
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
            write_list(f, removal.digits.iter().map(|&d| symbol(d)))?;
        }
        let digits = self.digits.iter().map(|&d| symbol(d));
        match (self.technique, &self.units[..]) {
            (Technique::Guess, _) if readable => {
                f.write_str(" (guess among ")?;
                write_list(f, digits)?;
                f.write_str(")")
            }
            (Technique::Guess, _) => Ok(()),
            (Technique::Contradiction, []) => f.write_str("contradiction"),
            (Technique::Contradiction, units) => {
                f.write_str("contradiction in ")?;
                write_list(f, units)
            }
            (Technique::LockedCandidates, [confining, cleared]) if readable => {
                write!(f, " (locked candidates: {confining} has ")?;
                write_list(f, digits)?;
                f.write_str(" only at ")?;
                write_list(f, &self.cells)?;
                write!(f, ", in {cleared})")
            }
            (Technique::NakedSubset | Technique::HiddenSubset, units) if readable => {
                let kind = match self.technique {
                    Technique::NakedSubset => "naked",
                    _ => "hidden",
                };
                write!(f, " ({kind} {} ", subset_name(self.cells.len()))?;
                write_list(f, digits)?;
                f.write_str(" at ")?;
                write_list(f, &self.cells)?;
                f.write_str(" in ")?;
                write_list(f, units)?;
                f.write_str(")")
            }
            (Technique::LockedCandidates, units) if !units.is_empty() => {
                write!(f, " ({}: ", self.technique)?;
                write_list(f, units)?;
                f.write_str(")")
            }
            (technique, []) => write!(f, " ({technique})"),
            (technique, units) => {
                write!(f, " ({technique} in ")?;
                write_list(f, units)?;
                f.write_str(")")
            }
        }
    }
}

/// A puzzle's solution as steps, in solving order.
///
/// `Display` prints one step a line (indented two spaces per guess in force, in the
/// engine's log); the serde form (for JSON) holds the puzzle and solution in the line
/// form, the number of guesses and the steps.
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

    /// How many guesses the steps make (0 when techniques alone solve it).
    pub fn guesses(&self) -> usize {
        self.guesses
    }

    /// The grade of the hardest technique used ([`Technique::difficulty`]; easy for a
    /// complete grid). For the readable explanation ([`explain`](fn@super::explain)) it is
    /// the puzzle's grade, as [`rate`](fn@crate::sudoku::rate) gives it.
    ///
    /// ```
    /// use alldiff::sudoku::{Difficulty, Grid, explain};
    ///
    /// let puzzle: Grid = "3.65.84..52........87....31..3.1..8.9..863..5.5..9.6..13....25........74..52.63..".parse()?;
    /// assert_eq!(explain(&puzzle)?.difficulty(), Difficulty::Medium);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn difficulty(&self) -> Difficulty {
        self.steps
            .iter()
            .filter_map(|s| s.technique.difficulty())
            .max()
            .unwrap_or(Difficulty::Easy)
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
