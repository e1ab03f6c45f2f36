//! Explaining a solution as human steps, from what the engine's propagators did.
//!
//! [`explain`] solves the puzzle with the strongest propagation ([`Propagation::FULL`]:
//! singles, locked candidates and full all-different consistency) while recording
//! every value each propagator removes, with the rule it named, and every decision
//! of the search. Each run of removals one propagator made in one call becomes one
//! [`Step`], named after the propagator's rule and the unit (row, column, box, or box
//! and line) its constraint stands for. A cell left with one candidate by
//! eliminations gets a [`Technique::NakedSingle`] step of its own. Search decisions
//! are [`Technique::Guess`] steps, their refutations [`Technique::Backtrack`] steps,
//! and failed propagation [`Technique::Contradiction`] steps; the steps of a branch
//! that failed stay in the explanation, one level deeper ([`Step::depth`]).

use std::fmt;

use crate::sudoku::grid::symbol;
use crate::sudoku::model::SudokuConstraint;
use crate::sudoku::{Conflict, Grid, Propagation, SudokuModel, Unit, validate};
use crate::{
    Branch, ConstraintId, Decision, ModelError, Outcome, Pruning, SearchConfig, SearchObserver,
    Solver, VarId, VariableOrder,
};

/// A cell of the grid, 0-based; displayed 1-based as `r4c3`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    /// The row, from 0 at the top.
    pub row: usize,
    /// The column, from 0 at the left.
    pub col: usize,
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "r{}c{}",
            self.row.saturating_add(1),
            self.col.saturating_add(1)
        )
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Cell {
    /// As its display form, `"r4c3"`.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

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
    /// The name used in [`Step`]'s display: `naked single`, `hidden single`, ...
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

    /// The technique of a propagator's rule name.
    fn of_rule(rule: &str) -> Technique {
        match rule {
            "value elimination" => Technique::ValueElimination,
            "hidden single" => Technique::HiddenSingle,
            "locked candidates" => Technique::LockedCandidates,
            "all-different matching" => Technique::Subset,
            _ => Technique::Propagation,
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
pub struct Step {
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

impl fmt::Display for Step {
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
    steps: Vec<Step>,
}

#[cfg(feature = "serde")]
fn grid_as_line<S: serde::Serializer>(grid: &Grid, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(&grid.to_line())
}

impl Explanation {
    /// The puzzle explained.
    pub fn puzzle(&self) -> &Grid {
        &self.puzzle
    }

    /// Its (unique) solution.
    pub fn solution(&self) -> &Grid {
        &self.solution
    }

    /// The steps, in order.
    pub fn steps(&self) -> &[Step] {
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

/// Why a puzzle cannot be explained.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ExplainError {
    /// Two clues break a rule (the first conflict found).
    #[error("the clues break the rules: {0}")]
    InvalidClues(Conflict),
    /// The puzzle has no solution.
    #[error("the puzzle has no solution")]
    NoSolution,
    /// The puzzle has two or more solutions.
    #[error("the puzzle has more than one solution")]
    MultipleSolutions,
    /// A model could not be built (never with the built-in model).
    #[error(transparent)]
    Model(#[from] ModelError),
}

/// Explains how to solve a puzzle, as the steps the engine took.
///
/// The puzzle is solved with the strongest propagation ([`Propagation::FULL`]: singles,
/// locked candidates and full all-different consistency, so that guesses come only
/// when needed) and first-fail search, recording every value each propagator removes
/// with the rule it named, and every decision. Each run of removals one propagator
/// made in one call becomes one [`Step`], named after the rule and the unit its
/// constraint stands for ([`SudokuModel::constraints`]); a cell left with one
/// candidate by eliminations gets a [`Technique::NakedSingle`] step. Decisions are
/// [`Technique::Guess`] and [`Technique::Backtrack`] steps, failed propagation a
/// [`Technique::Contradiction`]; the steps of a failed branch stay in the explanation,
/// one level deeper ([`Step::depth`]).
///
/// ```
/// use alldiff::sudoku::{Grid, Technique, explain};
///
/// let puzzle: Grid = ".2343.1221.3432.".parse()?;
/// let explanation = explain(&puzzle)?;
/// assert_eq!(explanation.guesses(), 0);
/// assert_eq!(explanation.solution().to_line(), "1234341221434321");
/// assert!(explanation.steps().iter().any(|s| s.technique == Technique::NakedSingle));
/// println!("{explanation}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// [`ExplainError::InvalidClues`] when two clues clash, [`ExplainError::NoSolution`]
/// and [`ExplainError::MultipleSolutions`] for a puzzle without exactly one solution.
pub fn explain(grid: &Grid) -> Result<Explanation, ExplainError> {
    if let Some(conflict) = validate(grid).into_iter().next() {
        return Err(ExplainError::InvalidClues(conflict));
    }
    let sudoku = SudokuModel::new(grid.box_size(), Propagation::FULL)?;
    let constraints = sudoku.constraints().to_vec();
    let (model, cells) = sudoku.into_parts();
    let search = SearchConfig::new().variable_order(VariableOrder::SmallestDomain);
    let mut solver = Solver::with_config(model, search);
    for (&var, &digit) in cells.iter().zip(grid.cells()) {
        if digit != 0 {
            solver.assume(var, i32::from(digit))?;
        }
    }
    solver.stream_prunings(true);
    let mut recorder = Recorder::new(grid, &cells, constraints, solver.start_domains());
    let outcome = solver.solve_observed(&mut recorder);
    solver.stream_prunings(false);
    let Outcome::Solved(found) = outcome else {
        // No limit is set, so the search ended: no solution.
        return Err(ExplainError::NoSolution);
    };
    if solver.count(Some(2)).solutions > 1 {
        return Err(ExplainError::MultipleSolutions);
    }
    let mut solution = grid.clone();
    let side = grid.side();
    for (index, &var) in cells.iter().enumerate() {
        let digit = found.get(var).and_then(|v| u8::try_from(v).ok());
        solution
            .set_checked(index / side, index % side, digit)
            .map_err(|_| ExplainError::NoSolution)?;
    }
    let guesses = recorder
        .steps
        .iter()
        .filter(|s| s.technique == Technique::Guess)
        .count();
    Ok(Explanation {
        puzzle: grid.clone(),
        solution,
        guesses,
        steps: recorder.steps,
    })
}

/// The observer that turns the search into steps, keeping the candidates of every
/// open node to tell naked singles and what a hidden single placed.
struct Recorder {
    box_size: usize,
    side: usize,
    /// The cell of each variable (by raw index), if it is one.
    cell_of: Vec<Option<usize>>,
    constraints: Vec<SudokuConstraint>,
    /// Candidate masks (bit `d` for digit `d`) per cell, for the current node and
    /// each ancestor, indexed by the engine's depth.
    states: Vec<Vec<u64>>,
    /// Guesses in force at each node, indexed by node id.
    guess_depth: Vec<u32>,
    /// The engine depth of the current node.
    depth: usize,
    steps: Vec<Step>,
}

impl Recorder {
    fn new(
        grid: &Grid,
        cells: &[VarId],
        constraints: Vec<SudokuConstraint>,
        start: Vec<Vec<i32>>,
    ) -> Recorder {
        let mut cell_of = vec![None; start.len()];
        for (index, var) in cells.iter().enumerate() {
            if let Some(slot) = cell_of.get_mut(var.index()) {
                *slot = Some(index);
            }
        }
        let mut masks = vec![0u64; cells.len()];
        for (index, var) in cells.iter().enumerate() {
            for &value in start.get(var.index()).into_iter().flatten() {
                masks[index] |= bit(value);
            }
        }
        Recorder {
            box_size: grid.box_size(),
            side: grid.side(),
            cell_of,
            constraints,
            states: vec![masks],
            guess_depth: vec![0],
            depth: 0,
            steps: Vec::new(),
        }
    }

    fn cell(&self, index: usize) -> Cell {
        Cell {
            row: index / self.side,
            col: index % self.side,
        }
    }

    /// Whether the cell at `index` is in `unit`, a box.
    fn in_box(&self, index: usize, unit: Unit) -> bool {
        let (row, col) = (index / self.side, index % self.side);
        let b = self.box_size;
        unit == Unit::Box((row / b) * b + col / b)
    }

    fn units(&self, constraint: u32) -> Vec<Unit> {
        match self.constraints.get(constraint as usize) {
            Some(&SudokuConstraint::Unit(unit)) => vec![unit],
            Some(&SudokuConstraint::Intersection { box_unit, line }) => vec![box_unit, line],
            Some(&SudokuConstraint::System) | None => Vec::new(),
        }
    }

    fn current_guesses(&self, node: u64) -> u32 {
        usize::try_from(node)
            .ok()
            .and_then(|n| self.guess_depth.get(n))
            .copied()
            .unwrap_or(0)
    }

    fn masks(&mut self) -> &mut Vec<u64> {
        if self.states.len() <= self.depth {
            let top = self.states.last().cloned().unwrap_or_default();
            self.states.resize(self.depth + 1, top);
        }
        &mut self.states[self.depth]
    }

    /// Removes `value` from the cell of `var`: the cell and whether it was there.
    fn remove(&mut self, var: u32, value: i32) -> Option<(usize, u8)> {
        let index = (*self.cell_of.get(var as usize)?)?;
        let digit = u8::try_from(value).ok()?;
        let masks = self.masks();
        let mask = masks.get_mut(index)?;
        let present = *mask & bit(value) != 0;
        *mask &= !bit(value);
        present.then_some((index, digit))
    }

    /// The single candidate left in a cell, if one is.
    fn single(&mut self, index: usize) -> Option<u8> {
        let mask = *self.masks().get(index)?;
        (mask.count_ones() == 1).then(|| mask.trailing_zeros() as u8)
    }

    /// The steps of one run of prunings by one constraint and rule.
    fn group(&mut self, constraint: u32, rule: &'static str, prunings: &[Pruning], guesses: u32) {
        let mut removed: Vec<(usize, Vec<u8>)> = Vec::new();
        for p in prunings {
            if let Some((index, digit)) = self.remove(p.var, p.value) {
                match removed.iter_mut().find(|(i, _)| *i == index) {
                    Some((_, digits)) => digits.push(digit),
                    None => removed.push((index, vec![digit])),
                }
            }
        }
        if removed.is_empty() {
            return;
        }
        let technique = Technique::of_rule(rule);
        let mut units = self.units(constraint);
        if let [box_unit, line] = units[..] {
            // An intersection removes from the box (the line confines the digit) or
            // from the line (the box does): name the units in that order, or just
            // the unit cleared for a plain elimination.
            let from_box = removed
                .iter()
                .all(|&(index, _)| self.in_box(index, box_unit));
            let (confining, cleared) = if from_box {
                (line, box_unit)
            } else {
                (box_unit, line)
            };
            units = match technique {
                Technique::ValueElimination => vec![cleared],
                _ => vec![confining, cleared],
            };
        }
        if technique == Technique::HiddenSingle {
            for (index, digits) in removed {
                let cell = self.cell(index);
                let step = match self.single(index) {
                    Some(digit) => Step {
                        technique,
                        units: units.clone(),
                        depth: guesses,
                        placed: Some(Placement { cell, digit }),
                        removed: Vec::new(),
                    },
                    None => Step {
                        technique: Technique::Propagation,
                        units: units.clone(),
                        depth: guesses,
                        placed: None,
                        removed: vec![Elimination { cell, digits }],
                    },
                };
                self.steps.push(step);
            }
            return;
        }
        let cells: Vec<usize> = removed.iter().map(|&(index, _)| index).collect();
        self.steps.push(Step {
            technique,
            units,
            depth: guesses,
            placed: None,
            removed: removed
                .into_iter()
                .map(|(index, digits)| Elimination {
                    cell: self.cell(index),
                    digits,
                })
                .collect(),
        });
        self.naked_singles(&cells, guesses);
    }

    /// A naked-single step for each of `cells` left with one candidate.
    fn naked_singles(&mut self, cells: &[usize], guesses: u32) {
        for &index in cells {
            if let Some(digit) = self.single(index) {
                self.steps.push(Step {
                    technique: Technique::NakedSingle,
                    units: Vec::new(),
                    depth: guesses,
                    placed: Some(Placement {
                        cell: self.cell(index),
                        digit,
                    }),
                    removed: Vec::new(),
                });
            }
        }
    }
}

/// The mask bit of a value (none for values outside 0..64).
fn bit(value: i32) -> u64 {
    u32::try_from(value)
        .ok()
        .and_then(|v| 1u64.checked_shl(v))
        .unwrap_or(0)
}

impl SearchObserver for Recorder {
    fn on_decision(&mut self, decision: &Decision) {
        let parent = self.current_guesses(decision.parent);
        let guesses = parent + u32::from(decision.branch == Branch::Equal);
        if let Ok(node) = usize::try_from(decision.node) {
            if self.guess_depth.len() <= node {
                self.guess_depth.resize(node + 1, guesses);
            }
            self.guess_depth[node] = guesses;
        }
        // The parent's candidates are those one level up: start from them.
        let depth = decision.depth as usize;
        self.states.truncate(depth);
        self.depth = depth;
        let Some(index) = self.cell_of.get(decision.var.index()).copied().flatten() else {
            return;
        };
        let cell = self.cell(index);
        let Ok(digit) = u8::try_from(decision.value) else {
            return;
        };
        match decision.branch {
            Branch::Equal => {
                if let Some(mask) = self.masks().get_mut(index) {
                    *mask &= bit(decision.value);
                }
                self.steps.push(Step {
                    technique: Technique::Guess,
                    units: Vec::new(),
                    depth: guesses,
                    placed: Some(Placement { cell, digit }),
                    removed: Vec::new(),
                });
            }
            Branch::NotEqual => {
                let _ = self.remove(decision.var.raw(), decision.value);
                self.steps.push(Step {
                    technique: Technique::Backtrack,
                    units: Vec::new(),
                    depth: guesses,
                    placed: None,
                    removed: vec![Elimination {
                        cell,
                        digits: vec![digit],
                    }],
                });
                self.naked_singles(&[index], guesses);
            }
        }
    }

    fn on_prunings(&mut self, node: u64, prunings: &[Pruning]) {
        let guesses = self.current_guesses(node);
        let mut start = 0;
        while start < prunings.len() {
            let (constraint, rule) = (prunings[start].constraint, prunings[start].rule);
            let len = prunings[start..]
                .iter()
                .take_while(|p| p.constraint == constraint && p.rule == rule)
                .count();
            self.group(constraint, rule, &prunings[start..start + len], guesses);
            start += len;
        }
    }

    fn on_failure(&mut self, node: u64, constraint: Option<ConstraintId>) {
        let units = constraint
            .and_then(|c| u32::try_from(c.index()).ok())
            .map(|c| self.units(c))
            .unwrap_or_default();
        self.steps.push(Step {
            technique: Technique::Contradiction,
            units,
            depth: self.current_guesses(node),
            placed: None,
            removed: Vec::new(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLASSIC: &str =
        "3.65.84..52........87....31..3.1..8.9..863..5.5..9.6..13....25........74..52.63..";
    const CLASSIC_SOLUTION: &str =
        "316578492529134768487629531263415987974863125851792643138947256692351874745286319";
    const INKALA: &str =
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

    /// Candidate masks per cell: the clues fixed, every other cell open.
    fn start(grid: &Grid) -> Vec<u64> {
        let all = ((1u64 << (grid.side() + 1)) - 1) & !1;
        grid.cells()
            .iter()
            .map(|&d| if d == 0 { all } else { 1 << d })
            .collect()
    }

    fn index(grid: &Grid, cell: Cell) -> usize {
        cell.row * grid.side() + cell.col
    }

    /// Replays the steps on candidate grids, one per guess level, checking each step
    /// against the candidates it is applied to; returns the root level's grid and
    /// the grid of the last level (where the solution was found).
    fn replay(explanation: &Explanation) -> Vec<u64> {
        let puzzle = explanation.puzzle();
        let mut levels = vec![start(puzzle)];
        for step in explanation.steps() {
            let depth = step.depth as usize;
            if step.technique == Technique::Guess {
                assert_eq!(depth, levels.len().min(depth), "{step}");
                levels.truncate(depth);
                let parent = levels.last().cloned().unwrap();
                levels.push(parent);
            } else {
                levels.truncate(depth + 1);
            }
            let masks = levels.last_mut().unwrap();
            if let Some(Placement { cell, digit }) = step.placed {
                let mask = &mut masks[index(puzzle, cell)];
                assert!(*mask & (1 << digit) != 0, "{step}: not a candidate");
                if step.technique == Technique::NakedSingle {
                    assert_eq!(*mask, 1 << digit, "{step}: not the last candidate");
                }
                if step.technique == Technique::HiddenSingle {
                    let unit = step.units[0];
                    let others = puzzle
                        .unit_cells(unit)
                        .filter(|&i| i != index(puzzle, cell))
                        .filter(|&i| masks[i] & (1 << digit) != 0)
                        .count();
                    assert_eq!(others, 0, "{step}: not hidden in {unit}");
                    let mask = &mut masks[index(puzzle, cell)];
                    *mask = 1 << digit;
                } else {
                    *mask = 1 << digit;
                }
            }
            for Elimination { cell, digits } in &step.removed {
                for &digit in digits {
                    let mask = &mut masks[index(puzzle, *cell)];
                    assert!(*mask & (1 << digit) != 0, "{step}: {digit} already gone");
                    *mask &= !(1 << digit);
                }
            }
        }
        levels.pop().unwrap()
    }

    fn solved(explanation: &Explanation, masks: &[u64]) -> bool {
        masks
            .iter()
            .zip(explanation.solution().cells())
            .all(|(&mask, &digit)| mask == 1 << digit)
    }

    #[test]
    fn singles_and_eliminations_replay_to_the_solution_without_guessing() {
        let explanation = explain(&CLASSIC.parse().unwrap()).unwrap();
        assert_eq!(explanation.solution().to_line(), CLASSIC_SOLUTION);
        assert_eq!(explanation.guesses(), 0);
        assert!(explanation.steps().iter().all(|s| {
            s.depth == 0
                && !matches!(
                    s.technique,
                    Technique::Guess | Technique::Backtrack | Technique::Contradiction
                )
        }));
        for technique in [
            Technique::NakedSingle,
            Technique::HiddenSingle,
            Technique::ValueElimination,
            Technique::LockedCandidates,
        ] {
            assert!(
                explanation.steps().iter().any(|s| s.technique == technique),
                "no {technique}"
            );
        }
        let masks = replay(&explanation);
        assert!(solved(&explanation, &masks), "{explanation}");
        // Every removed candidate is wrong, every placed digit right.
        let solution = explanation.solution();
        for step in explanation.steps() {
            for Elimination { cell, digits } in &step.removed {
                let answer = solution.get(cell.row, cell.col).unwrap();
                assert!(!digits.contains(&answer), "{step}");
            }
            if let Some(Placement { cell, digit }) = step.placed {
                assert_eq!(solution.get(cell.row, cell.col), Some(digit), "{step}");
            }
        }
        // Every blank is placed once, by a single.
        let placed = explanation.steps().iter().filter(|s| s.placed.is_some());
        let blanks = CLASSIC.chars().filter(|&c| c == '.').count();
        assert_eq!(placed.count(), blanks);
    }

    #[test]
    fn steps_print_as_cells_digits_and_technique() {
        let explanation = explain(&CLASSIC.parse().unwrap()).unwrap();
        let text = explanation.to_string();
        assert_eq!(text.lines().count(), explanation.steps().len());
        assert!(
            text.starts_with(
                "r1c2 <> 3, 4, 5, 6, 8; r1c5 <> 3, 4, 5, 6, 8; r1c8 <> 3, 4, 5, 6, 8; \
                 r1c9 <> 3, 4, 5, 6, 8 (value elimination in row 1)\n"
            ),
            "{text}"
        );
        assert!(
            text.contains("\nr3c7 = 5 (hidden single in row 3)\n"),
            "{text}"
        );
        assert!(text.contains("\nr3c1 = 4 (naked single)\n"), "{text}");
        assert!(
            text.contains(" (locked candidates: column 5, box 8)\n"),
            "{text}"
        );
        let step = Step {
            technique: Technique::LockedCandidates,
            units: vec![Unit::Box(1), Unit::Row(1)],
            depth: 0,
            placed: None,
            removed: vec![Elimination {
                cell: Cell { row: 1, col: 4 },
                digits: vec![7],
            }],
        };
        assert_eq!(
            step.to_string(),
            "r2c5 <> 7 (locked candidates: box 2, row 2)"
        );
    }

    #[test]
    fn a_hard_puzzle_needs_guesses_and_replays_through_its_backtracks() {
        let explanation = explain(&INKALA.parse().unwrap()).unwrap();
        assert!(explanation.guesses() > 0);
        let steps = explanation.steps();
        assert!(steps.iter().any(|s| s.technique == Technique::Backtrack));
        assert!(
            steps
                .iter()
                .any(|s| s.technique == Technique::Contradiction)
        );
        let masks = replay(&explanation);
        assert!(solved(&explanation, &masks));
        let guess = steps
            .iter()
            .find(|s| s.technique == Technique::Guess)
            .unwrap();
        let line = guess.to_string();
        assert!(
            line.starts_with("guess r") && line.contains(" = "),
            "{line}"
        );
        let backtrack = steps
            .iter()
            .find(|s| s.technique == Technique::Backtrack)
            .unwrap();
        assert!(
            backtrack.to_string().ends_with(" (backtrack)"),
            "{backtrack}"
        );
        // Deductions before the first guess are sound.
        let solution = explanation.solution();
        for step in steps.iter().take_while(|s| s.technique != Technique::Guess) {
            for Elimination { cell, digits } in &step.removed {
                let answer = solution.get(cell.row, cell.col).unwrap();
                assert!(!digits.contains(&answer), "{step}");
            }
        }
    }

    #[test]
    #[cfg(feature = "serde")]
    fn the_machine_form_is_json() {
        let explanation = explain(&CLASSIC.parse().unwrap()).unwrap();
        let json = serde_json::to_value(&explanation).unwrap();
        assert_eq!(json["puzzle"], CLASSIC);
        assert_eq!(json["solution"], CLASSIC_SOLUTION);
        assert_eq!(json["guesses"], 0);
        let steps = json["steps"].as_array().unwrap();
        assert_eq!(steps.len(), explanation.steps().len());
        let single = steps
            .iter()
            .find(|s| s["technique"] == "hidden_single")
            .unwrap();
        assert_eq!(single["units"][0], "row 3");
        assert_eq!(single["placed"]["cell"], "r3c7");
        assert_eq!(single["placed"]["digit"], 5);
        assert!(single.get("removed").is_none());
        assert_eq!(steps[0]["removed"][0]["cell"], "r1c2");
    }

    #[test]
    fn bad_puzzles_are_typed_errors() {
        let clash: Grid = format!("33{}", &CLASSIC[2..]).parse().unwrap();
        assert!(matches!(explain(&clash), Err(ExplainError::InvalidClues(c)) if c.digit == 3));
        // r1c2 is 1: any other digit the clues allow there leaves no solution.
        let wrong = (2..=9u8)
            .map(|d| {
                let mut grid: Grid = CLASSIC.parse().unwrap();
                grid.set(0, 1, Some(d));
                grid
            })
            .find(|g| validate(g).is_empty())
            .unwrap();
        assert_eq!(explain(&wrong), Err(ExplainError::NoSolution));
        let open = Grid::empty(2).unwrap();
        assert_eq!(explain(&open), Err(ExplainError::MultipleSolutions));
        assert_eq!(
            ExplainError::MultipleSolutions.to_string(),
            "the puzzle has more than one solution"
        );
    }
}
