//! The Sudoku model: one variable per cell, all-different on every unit.

use crate::constraints::{AllDifferentSystem, LockedCandidates};
use crate::sudoku::{Grid, ParseError, Unit};
use crate::{Model, ModelError, SearchConfig, Solver, Strength, VarId, VariableOrder};

/// How strongly the Sudoku model propagates: which Sudoku rules it applies, and
/// whether it posts one all-different constraint per unit or one
/// [`AllDifferentSystem`] over all units.
///
/// The per-unit choices are the grades of [`rate`](fn@super::rate), weakest first; the
/// system ones prune what the matching per-unit choice prunes, faster. Which is the
/// fastest where is told in the [`sudoku`](crate::sudoku) module docs; the numbers are
/// in `docs/performance.md`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Propagation {
    /// Value elimination only, per unit: naked singles.
    NakedSingles,
    /// Naked and hidden singles, per unit.
    HiddenSingles,
    /// Naked and hidden singles per unit, and locked candidates: an
    /// [`Intersection`](crate::constraints::Intersection) for every box and row, and
    /// every box and column, that overlap.
    LockedCandidates,
    /// Full all-different consistency (Régin's matching) on each unit, and locked
    /// candidates: also naked and hidden pairs, triples, ...
    Full,
    /// Naked and hidden singles on all units at once, by one
    /// [`AllDifferentSystem`]: what
    /// [`HiddenSingles`](Self::HiddenSingles) prunes, faster.
    SystemSingles,
    /// [`SystemSingles`](Self::SystemSingles) with the system's locked-candidates rule
    /// at every node ([`LockedCandidates::Always`]): what
    /// [`LockedCandidates`](Self::LockedCandidates) prunes.
    SystemLockedCandidates,
    /// [`SystemSingles`](Self::SystemSingles) with locked candidates at the root only
    /// ([`LockedCandidates::AtRoot`]): nearly the search trees of
    /// [`SystemLockedCandidates`](Self::SystemLockedCandidates) at about the cost of
    /// singles below the root. The default.
    #[default]
    SystemLockedCandidatesAtRoot,
    /// [`SystemSingles`](Self::SystemSingles), escalating on hard puzzles: a
    /// [`SudokuSolver`](super::SudokuSolver) search that is not over after
    /// [`ESCALATION_FAILURES`](super::ESCALATION_FAILURES) failed nodes looks whether locked
    /// candidates prune at its root, and if they do, starts again with them there
    /// ([`SystemLockedCandidatesAtRoot`](Self::SystemLockedCandidatesAtRoot)); else it
    /// goes on where it was. Puzzles that singles settle in a few nodes never pay for
    /// the rule; hard ones get most of its savings. A model alone cannot escalate:
    /// [`SudokuModel::new`] builds the model of `SystemSingles` for this choice.
    /// Restarting costs the hard puzzles more than the rule saves the easy ones: on
    /// hard collections it searches more than `SystemLockedCandidatesAtRoot` does.
    SystemAdaptive,
}

impl Propagation {
    /// Every choice: the per-unit ones weakest first, then the system ones.
    pub const ALL: [Propagation; 8] = [
        Propagation::NakedSingles,
        Propagation::HiddenSingles,
        Propagation::LockedCandidates,
        Propagation::Full,
        Propagation::SystemSingles,
        Propagation::SystemLockedCandidates,
        Propagation::SystemLockedCandidatesAtRoot,
        Propagation::SystemAdaptive,
    ];

    /// When the system applies locked candidates; `None` for the per-unit choices.
    fn system(self) -> Option<LockedCandidates> {
        match self {
            Propagation::SystemSingles | Propagation::SystemAdaptive => Some(LockedCandidates::Off),
            Propagation::SystemLockedCandidates => Some(LockedCandidates::Always),
            Propagation::SystemLockedCandidatesAtRoot => Some(LockedCandidates::AtRoot),
            Propagation::NakedSingles
            | Propagation::HiddenSingles
            | Propagation::LockedCandidates
            | Propagation::Full => None,
        }
    }

    /// The strength of the per-unit all-different constraints; `None` for the system
    /// choices, which post none.
    fn unit_strength(self) -> Option<Strength> {
        match self {
            Propagation::NakedSingles => Some(Strength::Value),
            Propagation::HiddenSingles | Propagation::LockedCandidates => {
                Some(Strength::HiddenSingles)
            }
            Propagation::Full => Some(Strength::Domain),
            Propagation::SystemSingles
            | Propagation::SystemLockedCandidates
            | Propagation::SystemLockedCandidatesAtRoot
            | Propagation::SystemAdaptive => None,
        }
    }

    /// Whether an [`Intersection`](crate::constraints::Intersection) is posted for every
    /// box and line that overlap.
    fn intersections(self) -> bool {
        matches!(self, Propagation::LockedCandidates | Propagation::Full)
    }
}

/// What a constraint of a [`SudokuModel`] stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SudokuConstraint {
    /// The all-different constraint of a row, column or box.
    Unit(Unit),
    /// The locked-candidates constraint of a box and a row or column that overlap
    /// ([`Propagation::LockedCandidates`], [`Propagation::Full`]).
    Intersection {
        /// The box ([`Unit::Box`]).
        box_unit: Unit,
        /// The row or column.
        line: Unit,
    },
    /// The one constraint over every unit (the `System` choices of [`Propagation`]).
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
    /// column and box (or one system over them all), and the locked-candidate
    /// constraints if asked for.
    ///
    /// # Errors
    ///
    /// [`ModelError::InvalidConstraint`] if `box_size` is not 2 to 5.
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
        if let Some(locked_candidates) = propagation.system() {
            let system = AllDifferentSystem::new(grid.units().map(unit_vars))
                .locked_candidates(locked_candidates);
            model.post(system)?;
            constraints.push(SudokuConstraint::System);
        }
        if let Some(strength) = propagation.unit_strength() {
            for unit in grid.units() {
                model.all_different_with(unit_vars(unit), strength)?;
                constraints.push(SudokuConstraint::Unit(unit));
            }
        }
        if propagation.intersections() {
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

    /// The model for the grid's size: [`SudokuModel::new`] without its error, since a
    /// grid's box size is always 2 to 5.
    pub fn for_grid(grid: &Grid, propagation: Propagation) -> SudokuModel {
        SudokuModel::new(grid.box_size(), propagation)
            .expect("every box size a grid has, with every propagation, builds")
    }

    /// A solver over this model with the grid's clues assumed, searching smallest
    /// domain first, and the model's cells.
    pub(crate) fn clued_solver(self, grid: &Grid) -> (Solver, Vec<VarId>) {
        let search = SearchConfig::new().variable_order(VariableOrder::SmallestDomain);
        let (model, cells) = self.into_parts();
        let mut solver = Solver::with_config(model, search);
        for (&var, &digit) in cells.iter().zip(grid.cells()) {
            if digit != 0 {
                let assumed = solver.assume(var, i32::from(digit));
                invariant!(assumed.is_ok(), "the model's own variable");
            }
        }
        (solver, cells)
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
    /// let sudoku = SudokuModel::new(3, Propagation::LockedCandidates)?;
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

    /// The model and the cell variables, to hand the model to a [`Solver`].
    pub fn into_parts(self) -> (Model, Vec<VarId>) {
        (self.model, self.cells)
    }
}
