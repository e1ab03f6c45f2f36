//! Solving Sudoku puzzles with a reusable engine solver.

use crate::sudoku::{Grid, Propagation, SudokuModel};
use crate::{
    Count, CountStatus, Limits, ModelError, SearchConfig, Solver, Statistics, Step, StopReason,
    VarId, VariableOrder,
};

/// The answer to a puzzle, with uniqueness proven.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveResult {
    /// Exactly one solution.
    Unique(Grid),
    /// Two or more solutions; this is one of them.
    Multiple(Grid),
    /// No solution (contradictory clues included).
    None,
    /// A limit stopped the search before the answer was known.
    Stopped(StopReason),
}

/// How a [`SudokuSolver`] propagates and searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SolverOptions {
    /// The model's propagation.
    pub propagation: Propagation,
    /// The search heuristic.
    pub search: SearchConfig,
}

impl Default for SolverOptions {
    /// [`Propagation::default`] (naked and hidden singles on all units at once, one
    /// [`AllDifferentSystem`](crate::constraints::AllDifferentSystem)) with first fail
    /// and ascending values (see the `sudoku` module docs). With a single constraint,
    /// dom/wdeg has no weights to tell variables apart and makes the same choices, more
    /// slowly.
    fn default() -> SolverOptions {
        SolverOptions {
            propagation: Propagation::default(),
            search: SearchConfig::new().variable_order(VariableOrder::SmallestDomain),
        }
    }
}

impl SolverOptions {
    /// Singles only ([`Propagation::SystemSingles`]) with first fail, whatever the default: no
    /// locked candidates even at the root, so faster where propagation alone settles
    /// most questions, as in the uniqueness checks of generation.
    pub fn singles() -> SolverOptions {
        SolverOptions {
            propagation: Propagation::SystemSingles,
            ..SolverOptions::default()
        }
    }
}

/// The engine solver of one box size, and its cell variables.
#[derive(Debug)]
struct Engine {
    solver: Solver,
    cells: Vec<VarId>,
}

/// Solves Sudoku puzzles of every size, reusing one engine solver per box size.
///
/// Creating it builds the models of all four sizes once; each puzzle then only resets
/// the solver and assumes its clues, so a batch allocates almost nothing per puzzle.
/// Use one per thread.
///
/// ```
/// use alldiff::sudoku::{Grid, SolveResult, SudokuSolver};
///
/// let mut solver = SudokuSolver::new();
/// let puzzle: Grid = ".2343.1221.3432.".parse()?;
/// let SolveResult::Unique(solution) = solver.solve(&puzzle) else { panic!("unique") };
/// assert_eq!(solution.to_line(), "1234341221434321");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct SudokuSolver {
    options: SolverOptions,
    limits: Limits,
    /// Whether searches measure their time ([`SudokuSolver::measure_time`]).
    timed: bool,
    /// One engine per box size, from 2, each built when a grid of its size first
    /// comes (a 25x25 model is far costlier to build than a 9x9 one).
    engines: Vec<Option<Engine>>,
    /// The box size of the latest search.
    last: Option<usize>,
}

impl Engine {
    /// The solution the solver has reached, as a grid of the puzzle's size.
    fn solution(&self, puzzle: &Grid) -> Grid {
        // The cells are the model's first variables, and their domains 1..=side.
        let values = self.solver.leading_solution_values(self.cells.len());
        Grid::from_solution(puzzle.box_size(), values.map(|value| value as u8).collect())
    }

    fn new(
        box_size: usize,
        options: SolverOptions,
        limits: &Limits,
        timed: bool,
    ) -> Result<Engine, ModelError> {
        let (model, cells) = SudokuModel::new(box_size, options.propagation)?.into_parts();
        debug_assert!(
            (cells.iter().enumerate()).all(|(i, cell)| cell.raw() as usize == i),
            "the cells are the model's first variables, in order"
        );
        let mut solver = Solver::with_config(model, options.search);
        solver.set_limits(limits.clone());
        solver.measure_time(timed);
        Ok(Engine { solver, cells })
    }
}

const BOX_SIZES: std::ops::RangeInclusive<usize> = 2..=5;

impl Default for SudokuSolver {
    /// As [`SudokuSolver::new`].
    fn default() -> SudokuSolver {
        SudokuSolver::new()
    }
}

impl SudokuSolver {
    /// A solver with the default options.
    pub fn new() -> SudokuSolver {
        SudokuSolver::with_options(SolverOptions::default())
    }

    /// A solver with the given propagation and search. The model of each size is
    /// built when a grid of that size first comes.
    pub fn with_options(options: SolverOptions) -> SudokuSolver {
        SudokuSolver {
            options,
            limits: Limits::none(),
            timed: true,
            engines: BOX_SIZES.map(|_| None).collect(),
            last: None,
        }
    }

    /// The options it was made with.
    pub fn options(&self) -> SolverOptions {
        self.options
    }

    /// Sets the limits of each following search (all sizes).
    pub fn set_limits(&mut self, limits: Limits) {
        for engine in self.engines.iter_mut().flatten() {
            engine.solver.set_limits(limits.clone());
        }
        self.limits = limits;
    }

    /// Whether searches measure their time (the statistics' solve time; on by
    /// default): see [`Solver::measure_time`]. A batch that never shows the time
    /// saves the clock's two reads a search step.
    pub fn measure_time(&mut self, on: bool) {
        for engine in self.engines.iter_mut().flatten() {
            engine.solver.measure_time(on);
        }
        self.timed = on;
    }

    /// Changes the search heuristic of each following search (all sizes).
    pub fn set_search(&mut self, search: SearchConfig) {
        self.options.search = search;
        for engine in self.engines.iter_mut().flatten() {
            engine.solver.set_config(search);
        }
    }

    /// The engine's statistics of the latest search of a grid of `box_size` (the
    /// default statistics for a size never searched or not 2 to 5).
    pub fn statistics_for(&self, box_size: usize) -> Statistics {
        box_size
            .checked_sub(2)
            .and_then(|i| self.engines.get(i)?.as_ref())
            .map(|e| e.solver.statistics().clone())
            .unwrap_or_default()
    }

    /// The engine's statistics of the latest search.
    pub fn statistics(&self) -> Statistics {
        self.last
            .map(|b| self.statistics_for(b))
            .unwrap_or_default()
    }

    /// Solves `grid`, counting up to two solutions to prove uniqueness.
    pub fn solve(&mut self, grid: &Grid) -> SolveResult {
        let Some(engine) = self.load(grid) else {
            return SolveResult::None;
        };
        let first = match engine.solver.advance() {
            Step::Solution => engine.solution(grid),
            Step::Exhausted => return SolveResult::None,
            Step::Stopped(reason) => return SolveResult::Stopped(reason),
        };
        match engine.solver.advance() {
            Step::Solution => SolveResult::Multiple(first),
            Step::Exhausted => SolveResult::Unique(first),
            Step::Stopped(reason) => SolveResult::Stopped(reason),
        }
    }

    /// The first solution found, without proving it unique: `Ok(None)` when there is
    /// none.
    ///
    /// # Errors
    ///
    /// The [`StopReason`] if a limit stopped the search first.
    pub fn solve_first(&mut self, grid: &Grid) -> Result<Option<Grid>, StopReason> {
        let Some(engine) = self.load(grid) else {
            return Ok(None);
        };
        match engine.solver.advance() {
            Step::Solution => Ok(Some(engine.solution(grid))),
            Step::Exhausted => Ok(None),
            Step::Stopped(reason) => Err(reason),
        }
    }

    /// Counts the solutions of `grid`, stopping at `limit` if given.
    pub fn count(&mut self, grid: &Grid, limit: Option<u64>) -> Count {
        match self.load(grid) {
            Some(engine) => engine.solver.count(limit),
            None => Count {
                solutions: 0,
                status: CountStatus::Complete,
            },
        }
    }

    /// The engine solver of `box_size` and its cell variables (row-major), built on
    /// first use; `None` for a size other than 2 to 5.
    pub(crate) fn engine(&mut self, box_size: usize) -> Option<(&mut Solver, &[VarId])> {
        let engine = self.engine_of(box_size)?;
        Some((&mut engine.solver, &engine.cells))
    }

    fn engine_of(&mut self, box_size: usize) -> Option<&mut Engine> {
        self.last = Some(box_size);
        let slot = self.engines.get_mut(box_size.checked_sub(2)?)?;
        if slot.is_none() {
            // Cannot fail: the box size is 2 to 5, and every `Propagation` builds.
            *slot = Engine::new(box_size, self.options, &self.limits, self.timed).ok();
        }
        slot.as_mut()
    }

    /// Resets the engine of the grid's size and assumes its clues.
    fn load(&mut self, grid: &Grid) -> Option<&mut Engine> {
        let engine = self.engine_of(grid.box_size())?;
        let clues = (engine.cells.iter().zip(grid.cells()))
            .filter(|&(_, &digit)| digit != 0)
            .map(|(&var, &digit)| (var, i32::from(digit)));
        engine.solver.reset_assuming(clues);
        Some(engine)
    }
}
