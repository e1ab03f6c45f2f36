//! The Sudoku model: one variable per cell, all-different on every unit.

use crate::constraints::{AllDifferentSystem, LockedCandidates};
use crate::sudoku::{Grid, ParseError, Unit};
use crate::{Model, ModelError, Strength, VarId};

/// How strongly the Sudoku model propagates: the strength of its all-different
/// constraints, and whether boxes and lines prune each other (locked candidates).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Propagation {
    /// The strength of the `3·side` all-different constraints.
    pub strength: Strength,
    /// When boxes and lines prune each other: an
    /// [`Intersection`](crate::constraints::Intersection) for every box–row and
    /// box–column pair that overlap, or the system's locked-candidates rule when
    /// `system` is set. [`LockedCandidates::AtRoot`] needs `system`.
    pub locked_candidates: LockedCandidates,
    /// Whether all units are propagated together by one
    /// [`AllDifferentSystem`](crate::constraints::AllDifferentSystem) (naked and hidden
    /// singles) instead of one all-different per unit. `strength` then only matters if
    /// it is [`Strength::Domain`], which adds the per-unit matching.
    pub system: bool,
}

impl Propagation {
    /// Value elimination only: naked singles.
    pub const NAKED_SINGLES: Propagation = Propagation {
        strength: Strength::Value,
        locked_candidates: LockedCandidates::Off,
        system: false,
    };
    /// Naked and hidden singles.
    pub const HIDDEN_SINGLES: Propagation = Propagation {
        strength: Strength::HiddenSingles,
        locked_candidates: LockedCandidates::Off,
        system: false,
    };
    /// Singles and locked candidates.
    pub const LOCKED_CANDIDATES: Propagation = Propagation {
        strength: Strength::HiddenSingles,
        locked_candidates: LockedCandidates::Always,
        system: false,
    };
    /// Full all-different consistency (Régin) on each unit, and locked candidates.
    pub const FULL: Propagation = Propagation {
        strength: Strength::Domain,
        locked_candidates: LockedCandidates::Always,
        system: false,
    };
    /// Naked and hidden singles on all units at once, by one
    /// [`AllDifferentSystem`](crate::constraints::AllDifferentSystem): what
    /// [`HIDDEN_SINGLES`](Self::HIDDEN_SINGLES) prunes, faster.
    pub const SYSTEM: Propagation = Propagation {
        strength: Strength::HiddenSingles,
        locked_candidates: LockedCandidates::Off,
        system: true,
    };
    /// [`SYSTEM`](Self::SYSTEM) with locked candidates: what
    /// [`LOCKED_CANDIDATES`](Self::LOCKED_CANDIDATES) prunes.
    pub const SYSTEM_LOCKED: Propagation = Propagation {
        strength: Strength::HiddenSingles,
        locked_candidates: LockedCandidates::Always,
        system: true,
    };
    /// [`SYSTEM`](Self::SYSTEM) with locked candidates at the root only
    /// ([`LockedCandidates::AtRoot`]): nearly the search trees of
    /// [`SYSTEM_LOCKED`](Self::SYSTEM_LOCKED) at about the cost of singles below the
    /// root.
    pub const SYSTEM_ROOT_LOCKED: Propagation = Propagation {
        strength: Strength::HiddenSingles,
        locked_candidates: LockedCandidates::AtRoot,
        system: true,
    };
}

impl Default for Propagation {
    /// [`SYSTEM`](Self::SYSTEM): naked and hidden singles on all units at once; the
    /// fastest on generated puzzles and on puzzles with several solutions, and at
    /// least half the `sudoku` crate's throughput on every file measured.
    /// [`SYSTEM_ROOT_LOCKED`](Self::SYSTEM_ROOT_LOCKED) is faster on hard collections
    /// such as 17-clue and `top1465` puzzles (see the `sudoku` module docs).
    fn default() -> Propagation {
        Propagation::SYSTEM
    }
}

/// What a constraint of a [`SudokuModel`] stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SudokuConstraint {
    /// The all-different constraint of a row, column or box.
    Unit(Unit),
    /// The locked-candidates constraint of a box and a row or column that overlap
    /// ([`Propagation::locked_candidates`]).
    Intersection {
        /// The box ([`Unit::Box`]).
        box_unit: Unit,
        /// The row or column.
        line: Unit,
    },
    /// The one constraint over every unit ([`Propagation::system`]).
    System,
}

/// The Sudoku model of one box size, with the variable of every cell.
///
/// ```
/// use alldiff::sudoku::{Propagation, SudokuModel};
/// use alldiff::{Outcome, Solver};
///
/// let sudoku = SudokuModel::new(2, Propagation::default())?;
/// let (model, cells) = sudoku.into_parts();
/// assert_eq!(model.name(cells[5]), "r2c2");
/// let mut solver = Solver::new(model);
/// solver.assume(cells[0], 1)?;
/// assert!(matches!(solver.solve(), Outcome::Solved(_)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct SudokuModel {
    box_size: usize,
    model: Model,
    cells: Vec<VarId>,
    constraints: Vec<SudokuConstraint>,
}

impl SudokuModel {
    /// Builds the model for `box_size` (2 to 5): `side²` variables over `1..=side`
    /// named `r1c1`, `r1c2`, ... row-major, an all-different constraint for every row,
    /// column and box, and the locked-candidate constraints if asked for.
    ///
    /// # Errors
    ///
    /// [`ModelError::InvalidConstraint`] if `box_size` is not 2 to 5, or if locked
    /// candidates at the root are asked for without `system`.
    pub fn new(box_size: usize, propagation: Propagation) -> Result<SudokuModel, ModelError> {
        let grid =
            Grid::empty(box_size).map_err(|error: ParseError| ModelError::InvalidConstraint {
                constraint: "sudoku",
                reason: error.to_string(),
            })?;
        let side = grid.side();
        let mut model = Model::new();
        let cells = model.int_vars(side * side, 1, side as i32)?;
        for (index, &cell) in cells.iter().enumerate() {
            model.set_name(cell, format!("r{}c{}", index / side + 1, index % side + 1))?;
        }
        let unit_vars = |unit: Unit| -> Vec<VarId> {
            grid.unit_cells(unit).map(|index| cells[index]).collect()
        };
        let mut constraints = Vec::new();
        if propagation.locked_candidates == LockedCandidates::AtRoot && !propagation.system {
            return Err(ModelError::InvalidConstraint {
                constraint: "sudoku",
                reason: "locked candidates at the root need the system".to_owned(),
            });
        }
        if propagation.system {
            let system = AllDifferentSystem::new(&model, grid.units().map(unit_vars))?
                .locked_candidates(propagation.locked_candidates);
            model.post(system)?;
            constraints.push(SudokuConstraint::System);
        }
        if !propagation.system || propagation.strength == Strength::Domain {
            for unit in grid.units() {
                model.all_different_with(unit_vars(unit), propagation.strength)?;
                constraints.push(SudokuConstraint::Unit(unit));
            }
        }
        if propagation.locked_candidates == LockedCandidates::Always && !propagation.system {
            for b in 0..side {
                let box_vars = unit_vars(Unit::Box(b));
                let (band, stack) = (b / box_size, b % box_size);
                for i in 0..box_size {
                    for line in [
                        Unit::Row(band * box_size + i),
                        Unit::Column(stack * box_size + i),
                    ] {
                        model.intersection(box_vars.iter().copied(), unit_vars(line))?;
                        constraints.push(SudokuConstraint::Intersection {
                            box_unit: Unit::Box(b),
                            line,
                        });
                    }
                }
            }
        }
        Ok(SudokuModel {
            box_size,
            model,
            cells,
            constraints,
        })
    }

    /// The box size.
    pub fn box_size(&self) -> usize {
        self.box_size
    }

    /// The model.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The variable of every cell, row-major (index `row * side + col`).
    pub fn cells(&self) -> &[VarId] {
        &self.cells
    }

    /// What each constraint stands for, indexed by its position in the model
    /// ([`ConstraintId::index`](crate::ConstraintId::index), or
    /// [`Pruning::constraint`](crate::Pruning::constraint)).
    ///
    /// ```
    /// use alldiff::sudoku::{Propagation, SudokuConstraint, SudokuModel, Unit};
    ///
    /// let sudoku = SudokuModel::new(3, Propagation::LOCKED_CANDIDATES)?;
    /// assert_eq!(sudoku.constraints().len(), sudoku.model().constraint_count());
    /// assert_eq!(sudoku.constraints()[0], SudokuConstraint::Unit(Unit::Row(0)));
    /// assert_eq!(
    ///     sudoku.constraints()[27],
    ///     SudokuConstraint::Intersection { box_unit: Unit::Box(0), line: Unit::Row(0) },
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn constraints(&self) -> &[SudokuConstraint] {
        &self.constraints
    }

    /// The model and the cell variables, to hand the model to a [`Solver`](crate::Solver).
    pub fn into_parts(self) -> (Model, Vec<VarId>) {
        (self.model, self.cells)
    }
}
