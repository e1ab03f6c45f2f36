//! How the steps are derived: an observer of the search that turns the propagators'
//! prunings and the search's decisions into [`ExplanationStep`]s.

use crate::constraints::{AllDifferent, Intersection};
use crate::sudoku::model::SudokuConstraint;
use crate::sudoku::{Cell, Elimination, ExplanationStep, Grid, Placement, Technique, Unit};
use crate::{Branch, ConstraintId, Decision, InferenceLabel, Pruning, SearchObserver, VarId};

impl Technique {
    /// The Sudoku technique of the label a propagator gave a removal: the engine
    /// names its reasoning generically, and only this layer knows the Sudoku words.
    fn of_label(label: InferenceLabel) -> Technique {
        match label {
            AllDifferent::VALUE_ELIMINATION => Technique::ValueElimination,
            AllDifferent::ONLY_PLACE => Technique::HiddenSingle,
            Intersection::CONFINED => Technique::LockedCandidates,
            AllDifferent::MATCHING => Technique::Subset,
            _ => Technique::Propagation,
        }
    }
}

/// The observer that turns the search into steps, keeping the candidates of every
/// open node to tell naked singles and what a hidden single placed.
pub(super) struct Recorder {
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
    steps: Vec<ExplanationStep>,
}

impl Recorder {
    pub(super) fn new(
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
        Cell::at_index(index, self.side)
    }

    /// The steps recorded, in order.
    pub(super) fn into_steps(self) -> Vec<ExplanationStep> {
        self.steps
    }

    /// Whether the cell at `index` is in `unit`, a box.
    fn in_box(&self, index: usize, unit: Unit) -> bool {
        let (row, col) = (index / self.side, index % self.side);
        let b = self.box_size;
        unit == Unit::Box((row / b) * b + col / b)
    }

    fn units(&self, constraint: ConstraintId) -> Vec<Unit> {
        match self.constraints.get(constraint.index()) {
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
    fn remove(&mut self, var: VarId, value: i32) -> Option<(usize, u8)> {
        let index = (*self.cell_of.get(var.index())?)?;
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

    /// The steps of one run of prunings by one constraint under one label.
    fn group(
        &mut self,
        constraint: ConstraintId,
        label: InferenceLabel,
        prunings: &[Pruning],
        guesses: u32,
    ) {
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
        let technique = Technique::of_label(label);
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
                    Some(digit) => ExplanationStep {
                        cells: Vec::new(),
                        digits: Vec::new(),
                        technique,
                        units: units.clone(),
                        depth: guesses,
                        placed: Some(Placement { cell, digit }),
                        removed: Vec::new(),
                    },
                    None => ExplanationStep {
                        cells: Vec::new(),
                        digits: Vec::new(),
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
        self.steps.push(ExplanationStep {
            cells: Vec::new(),
            digits: Vec::new(),
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
                self.steps.push(ExplanationStep {
                    cells: Vec::new(),
                    digits: Vec::new(),
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
                self.steps.push(ExplanationStep {
                    cells: Vec::new(),
                    digits: Vec::new(),
                    technique: Technique::Guess,
                    units: Vec::new(),
                    depth: guesses,
                    placed: Some(Placement { cell, digit }),
                    removed: Vec::new(),
                });
            }
            Branch::NotEqual => {
                let _ = self.remove(decision.var, decision.value);
                self.steps.push(ExplanationStep {
                    cells: Vec::new(),
                    digits: Vec::new(),
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
            // A domain split (never the Sudoku solver's own search): the digits on
            // the other side go, as after a failed guess.
            Branch::LessEqual | Branch::Greater => {
                let digits: Vec<u8> = (0..64)
                    .filter(|&d| !decision.branch.admits(decision.value, d))
                    .filter_map(|d| self.remove(decision.var, d).map(|(_, digit)| digit))
                    .collect();
                self.steps.push(ExplanationStep {
                    cells: Vec::new(),
                    digits: Vec::new(),
                    technique: Technique::Backtrack,
                    units: Vec::new(),
                    depth: guesses,
                    placed: None,
                    removed: vec![Elimination { cell, digits }],
                });
                self.naked_singles(&[index], guesses);
            }
        }
    }

    fn on_prunings(&mut self, node: u64, prunings: &[Pruning]) {
        let guesses = self.current_guesses(node);
        let mut start = 0;
        while start < prunings.len() {
            let (constraint, label) = (prunings[start].constraint, prunings[start].label);
            let len = prunings[start..]
                .iter()
                .take_while(|p| p.constraint == constraint && p.label == label)
                .count();
            self.group(constraint, label, &prunings[start..start + len], guesses);
            start += len;
        }
    }

    fn on_failure(&mut self, node: u64, constraint: Option<ConstraintId>) {
        let units = constraint.map(|c| self.units(c)).unwrap_or_default();
        self.steps.push(ExplanationStep {
            cells: Vec::new(),
            digits: Vec::new(),
            technique: Technique::Contradiction,
            units,
            depth: self.current_guesses(node),
            placed: None,
            removed: Vec::new(),
        });
    }
}
