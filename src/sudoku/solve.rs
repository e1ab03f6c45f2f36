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
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SolverOptions {
    /// The model's propagation.
    pub propagation: Propagation,
    /// The search heuristic.
    pub search: SearchConfig,
}

impl Default for SolverOptions {
    /// [`Propagation::default`] (naked and hidden singles on all units at once, one
    /// [`AllDifferentSystem`](crate::constraints::AllDifferentSystem), and locked
    /// candidates at the root) with first fail, ties to
    /// the cells of the groups that failed most
    /// ([`VariableOrder::SmallestDomainWeightedDegree`]: the system blames the group
    /// a failure lay in), and ascending values (see the `sudoku` module docs).
    fn default() -> SolverOptions {
        SolverOptions {
            propagation: Propagation::default(),
            search: SearchConfig::new().variable_order(VariableOrder::SmallestDomainWeightedDegree),
        }
    }
}

impl SolverOptions {
    /// Singles only ([`Propagation::SystemSingles`]) with the default's search (weighted
    /// first fail), whatever the default propagation: no
    /// locked candidates even at the root, so faster where propagation alone settles
    /// most questions, as in the uniqueness checks of generation.
    pub fn singles() -> SolverOptions {
        SolverOptions {
            propagation: Propagation::SystemSingles,
            ..SolverOptions::default()
        }
    }
}

/// After how many failed nodes a [`Propagation::SystemAdaptive`] search looks whether
/// locked candidates prune at its root. Most generated puzzles, and most puzzles
/// with several solutions, fail fewer times with singles alone; hard puzzles fail
/// more (`docs/performance.md` has the counts).
pub const ESCALATION_FAILURES: u64 = 5;

/// The engine solver of one box size, and its cell variables.
#[derive(Debug)]
struct Engine {
    solver: Solver,
    cells: Vec<VarId>,
}

/// The engines of one box size: the options' own, and with
/// [`Propagation::SystemAdaptive`] the one a search escalates to.
#[derive(Debug, Default)]
struct Engines {
    main: Option<Engine>,
    escalated: Option<Engine>,
    /// The statistics of the main engine's search, when the latest search escalated.
    before_escalation: Option<Statistics>,
}

/// Solves Sudoku puzzles of every size, reusing its engine solvers.
///
/// The model of a size is built when a grid of that size first comes; each puzzle then
/// only resets the solver and assumes its clues, so a batch allocates almost nothing
/// per puzzle. Use one per thread.
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
    /// The engines of each box size, from 2, each built when a grid of its size
    /// first needs it (a 25x25 model is far costlier to build than a 9x9 one).
    engines: Vec<Engines>,
    /// The box size of the latest search.
    last: Option<usize>,
}

/// What a search of up to a number of solutions found.
#[derive(Debug, Default)]
struct Found {
    solutions: u64,
    /// The first solution, if kept.
    first: Option<Grid>,
    stopped: Option<StopReason>,
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
        propagation: Propagation,
        search: SearchConfig,
        limits: &Limits,
        timed: bool,
    ) -> Result<Engine, ModelError> {
        let (model, cells) = SudokuModel::new(box_size, propagation)?.into_parts();
        invariant!(
            (cells.iter().enumerate()).all(|(i, cell)| cell.index() == i),
            "the cells are the model's first variables, in order"
        );
        let mut solver = Solver::with_config(model, search);
        solver.set_limits(limits.clone());
        solver.measure_time(timed);
        Ok(Engine { solver, cells })
    }

    /// Resets the solver and assumes the grid's clues.
    fn load(&mut self, grid: &Grid) {
        let clues = (self.cells.iter().zip(grid.cells()))
            .filter(|&(_, &digit)| digit != 0)
            .map(|(&var, &digit)| (var, i32::from(digit)));
        let loaded = self.solver.reset_assuming(clues);
        invariant!(loaded.is_ok(), "the cells are the solver's own variables");
    }

    /// Starts a search of `grid` with locked candidates at the root (this engine's
    /// propagation), and stops after the root's propagation: its step, if the rule
    /// pruned more than singles did at the root, whose domains had the `singles`
    /// measure (or if the root settled the puzzle), with the search's limits less
    /// what the search `before` it used, ready to go on; `None` if the rule pruned
    /// nothing, so that the search would take the same nodes as before.
    fn root_if_locked_prune(
        &mut self,
        grid: &Grid,
        singles: u64,
        limits: &Limits,
        before: &Statistics,
    ) -> Option<Step> {
        self.load(grid);
        self.solver.set_limits(Limits {
            nodes: Some(0),
            failures: None,
            ..limits.clone()
        });
        let root = self.solver.advance();
        self.solver.set_limits(Limits {
            nodes: limits.nodes.map(|n| n.saturating_sub(before.nodes)),
            failures: (limits.failures).map(|n| n.saturating_sub(before.failures)),
            ..limits.clone()
        });
        let pruned = self.measure() < singles;
        (pruned || root != Step::Stopped(StopReason::NodeLimit)).then_some(root)
    }

    /// A measure of the cells' domains that shrinks whenever one of them does.
    fn measure(&self) -> u64 {
        self.solver.leading_measure(self.cells.len())
    }
}

impl Engines {
    fn solvers(&mut self) -> impl Iterator<Item = &mut Solver> {
        [&mut self.main, &mut self.escalated]
            .into_iter()
            .flatten()
            .map(|engine| &mut engine.solver)
    }

    /// The statistics of the latest search: with an escalation, the work of both
    /// engines (the solutions are the escalated search's, which finds again those
    /// the first found).
    fn statistics(&self) -> Statistics {
        let main = self.main.as_ref().map(|e| e.solver.statistics());
        match (&self.before_escalation, &self.escalated) {
            (Some(before), Some(escalated)) => {
                let mut total = escalated.solver.statistics().clone();
                total.add_work(before, 0);
                total.solve_time += before.solve_time;
                total
            }
            _ => main.cloned().unwrap_or_default(),
        }
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
            engines: BOX_SIZES.map(|_| Engines::default()).collect(),
            last: None,
        }
    }

    /// The options it was made with.
    pub fn options(&self) -> SolverOptions {
        self.options.clone()
    }

    /// Sets the limits of each following search (all sizes).
    pub fn set_limits(&mut self, limits: Limits) {
        for solver in self.engines.iter_mut().flat_map(Engines::solvers) {
            solver.set_limits(limits.clone());
        }
        self.limits = limits;
    }

    /// Whether searches measure their time (the statistics' solve time; on by
    /// default): see [`Solver::measure_time`]. A batch that never shows the time
    /// saves the clock's two reads a search step.
    pub fn measure_time(&mut self, on: bool) {
        for solver in self.engines.iter_mut().flat_map(Engines::solvers) {
            solver.measure_time(on);
        }
        self.timed = on;
    }

    /// Changes the search heuristic of each following search (all sizes).
    pub fn set_search(&mut self, search: SearchConfig) {
        for solver in self.engines.iter_mut().flat_map(Engines::solvers) {
            solver.set_config(search.clone());
        }
        self.options.search = search;
    }

    /// The engine's statistics of the latest search of a grid of `box_size` (the
    /// default statistics for a size never searched or not 2 to 5). After an
    /// escalation ([`Propagation::SystemAdaptive`]) they count the work of both
    /// searches, and the solutions of the second.
    pub fn statistics_for(&self, box_size: usize) -> Statistics {
        box_size
            .checked_sub(2)
            .and_then(|i| self.engines.get(i))
            .map(Engines::statistics)
            .unwrap_or_default()
    }

    /// The engine's statistics of the latest search.
    pub fn statistics(&self) -> Statistics {
        self.last
            .map(|b| self.statistics_for(b))
            .unwrap_or_default()
    }

    /// The propagation of the latest search's answer: the options' own, except
    /// with [`Propagation::SystemAdaptive`], which answers with
    /// [`Propagation::SystemSingles`] or, if it escalated,
    /// [`Propagation::SystemLockedCandidatesAtRoot`].
    pub fn latest_propagation(&self) -> Propagation {
        let escalated = (self.last)
            .and_then(|b| self.engines.get(b.checked_sub(2)?))
            .is_some_and(|engines| engines.before_escalation.is_some());
        match self.options.propagation {
            Propagation::SystemAdaptive if escalated => Propagation::SystemLockedCandidatesAtRoot,
            Propagation::SystemAdaptive => Propagation::SystemSingles,
            propagation => propagation,
        }
    }

    /// Solves `grid`, counting up to two solutions to prove uniqueness.
    pub fn solve(&mut self, grid: &Grid) -> SolveResult {
        let found = self.search(grid, Some(2), true);
        match (found.stopped, found.first) {
            (Some(reason), _) => SolveResult::Stopped(reason),
            (None, None) => SolveResult::None,
            (None, Some(first)) if found.solutions > 1 => SolveResult::Multiple(first),
            (None, Some(first)) => SolveResult::Unique(first),
        }
    }

    /// The first solution found, without proving it unique: `Ok(None)` when there is
    /// none.
    ///
    /// # Errors
    ///
    /// The [`StopReason`] if a limit stopped the search first.
    pub fn solve_first(&mut self, grid: &Grid) -> Result<Option<Grid>, StopReason> {
        let found = self.search(grid, Some(1), true);
        match found.stopped {
            Some(reason) => Err(reason),
            None => Ok(found.first),
        }
    }

    /// Counts the solutions of `grid`, stopping at `limit` if given.
    pub fn count(&mut self, grid: &Grid, limit: Option<u64>) -> Count {
        let found = self.search(grid, limit, false);
        Count {
            solutions: found.solutions,
            status: match found.stopped {
                Some(reason) => CountStatus::Stopped(reason),
                None if limit == Some(found.solutions) => CountStatus::LimitReached,
                None => CountStatus::Complete,
            },
        }
    }

    /// The main engine solver of `box_size` and its cell variables (row-major), built
    /// on first use; `None` for a size other than 2 to 5.
    pub(crate) fn engine(&mut self, box_size: usize) -> Option<(&mut Solver, &[VarId])> {
        let engine = self.engines_for(box_size)?.main.as_mut()?;
        Some((&mut engine.solver, &engine.cells))
    }

    /// The engines of `box_size` for a new search, the main one built on first use
    /// and nothing escalated yet; `None` for a size other than 2 to 5.
    fn engines_for(&mut self, box_size: usize) -> Option<&mut Engines> {
        let (options, limits, timed) = (self.options.clone(), &self.limits, self.timed);
        self.last = Some(box_size);
        let engines = self.engines.get_mut(box_size.checked_sub(2)?)?;
        engines.before_escalation = None;
        let propagation = options.propagation;
        built(
            &mut engines.main,
            box_size,
            propagation,
            options.search,
            limits,
            timed,
        );
        Some(engines)
    }

    /// Searches `grid` for up to `wanted` solutions (all without it), keeping the first
    /// as a grid if `keep_first` (counting needs none, and allocates nothing).
    /// [`Propagation::SystemAdaptive`] escalates: its search stops after the root's
    /// propagation, to measure the domains there, then after [`ESCALATION_FAILURES`]
    /// failures, to try locked candidates at the root, and goes on in the engine that
    /// searches fewer nodes from there.
    fn search(&mut self, grid: &Grid, wanted: Option<u64>, keep_first: bool) -> Found {
        let (options, limits, timed) = (self.options.clone(), self.limits.clone(), self.timed);
        let limits = &limits;
        let box_size = grid.box_size();
        let Some(engines) = self.engines_for(box_size) else {
            return Found::default();
        };
        let main = engines.main.as_mut().expect("built by engines_for");
        main.load(grid);
        let adaptive = options.propagation == Propagation::SystemAdaptive
            && limits.nodes.is_none_or(|nodes| nodes > 0)
            && limits
                .failures
                .is_none_or(|failures| failures > ESCALATION_FAILURES);
        let mut stage = if adaptive {
            main.solver.set_limits(Limits {
                nodes: Some(0),
                ..limits.clone()
            });
            Stage::Root
        } else {
            Stage::Settled
        };
        let mut found = Found::default();
        // The escalated engine's first step, taken by its probe of the root.
        let mut pending = None;
        loop {
            let engine = match (&mut engines.main, &mut engines.escalated) {
                (_, Some(escalated)) if engines.before_escalation.is_some() => escalated,
                (Some(main), _) => main,
                _ => unreachable!("the engine searching is built"),
            };
            let step = pending.take().unwrap_or_else(|| engine.solver.advance());
            match (step, stage) {
                (Step::Solution, _) => {
                    found.solutions += 1;
                    if keep_first && found.first.is_none() {
                        found.first = Some(engine.solution(grid));
                    }
                    if wanted == Some(found.solutions) {
                        break;
                    }
                }
                (Step::Exhausted, _) => break,
                (Step::Stopped(StopReason::NodeLimit), Stage::Root) => {
                    stage = Stage::Singles(engine.measure());
                    engine.solver.set_limits(Limits {
                        failures: Some(ESCALATION_FAILURES),
                        ..limits.clone()
                    });
                }
                (Step::Stopped(StopReason::FailureLimit), Stage::Singles(singles)) => {
                    stage = Stage::Settled;
                    engine.solver.set_limits(limits.clone());
                    let before = engine.solver.statistics().clone();
                    let escalated = built(
                        &mut engines.escalated,
                        box_size,
                        Propagation::SystemLockedCandidatesAtRoot,
                        options.search.clone(),
                        limits,
                        timed,
                    );
                    let Some(root) = escalated.root_if_locked_prune(grid, singles, limits, &before)
                    else {
                        continue;
                    };
                    engines.before_escalation = Some(before);
                    found = Found::default();
                    // Stopped after the root as asked: the search goes on from there.
                    pending = Some(root).filter(|&r| r != Step::Stopped(StopReason::NodeLimit));
                }
                (Step::Stopped(reason), _) => {
                    found.stopped = Some(reason);
                    break;
                }
            }
        }
        if adaptive && !matches!(stage, Stage::Settled) {
            let main = engines.main.as_mut().expect("built above");
            main.solver.set_limits(limits.clone());
        }
        found
    }
}

/// Where a [`Propagation::SystemAdaptive`] search stands.
#[derive(Clone, Copy, Debug)]
enum Stage {
    /// Stopped after the root's propagation, to measure the domains there.
    Root,
    /// Searching with singles until [`ESCALATION_FAILURES`]; the root's domains had
    /// this measure.
    Singles(u64),
    /// Searching to the end, in whichever engine.
    Settled,
}

/// The engine in `slot`, built on first use with `propagation`. Cannot fail: the box
/// size is 2 to 5, and every [`Propagation`] builds.
fn built<'a>(
    slot: &'a mut Option<Engine>,
    box_size: usize,
    propagation: Propagation,
    search: SearchConfig,
    limits: &Limits,
    timed: bool,
) -> &'a mut Engine {
    slot.get_or_insert_with(|| {
        Engine::new(box_size, propagation, search, limits, timed)
            .expect("every box size from 2 to 5 builds with every propagation")
    })
}
