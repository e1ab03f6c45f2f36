//! Depth-first search with propagation at every node.
//!
//! The [`Solver`] owns a [`Model`] and searches it: propagate to a fixpoint, pick an
//! unfixed variable and a value ([`SearchConfig`], [`Phase`]), branch `x = v`, and on
//! failure undo and branch `x != v` (or `x <= v` then `x > v` when splitting domains).
//! The decisions live on an explicit stack, so the depth of the search never touches
//! the call stack, and undo information is a trail of changed words, so each node
//! costs only what it changes.
//!
//! Optimisation is branch and bound on the same search ([`Solver::minimize`]): after
//! each solution the objective must be strictly better, a bound applied at every node
//! from then on. Restarts ([`Restarts`]) go back up after a growing number of failures.

mod assumptions;
mod branching;
mod limits;
mod observer;
mod optimize;
mod restarts;
mod solution;
mod stats;

use std::time::Instant;

pub use branching::{Phase, SearchConfig, ValueOrder, VariableOrder};
pub use limits::{Limits, StopReason};
pub use observer::{Branch, Decision, SearchObserver};
pub use optimize::{Improvement, Objective, Optimization, OptimizeOutcome};
pub use restarts::Restarts;
pub use solution::{Solution, Solutions};
pub use stats::Statistics;

use assumptions::{Assumption, Level};
use optimize::Bound;
use restarts::Schedule;

use crate::error::ModelError;
use crate::ids::{ConstraintId, VarId, View};
use crate::model::Model;
use crate::propagator::{NO_PROPAGATOR, Pruning, Queue, Run};
use crate::store::Store;
use branching::Brancher;

/// How a search for one solution ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A solution.
    Solved(Solution),
    /// Proven: no (more) solutions.
    Unsatisfiable,
    /// A limit stopped the search first.
    Stopped(StopReason),
}

/// How a count of solutions ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum CountStatus {
    /// Every solution was counted.
    Complete,
    /// The count reached the requested maximum; there may be more.
    LimitReached,
    /// A search limit stopped the count; the number is a lower bound.
    Stopped(StopReason),
}

/// The result of [`Solver::count`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Count {
    /// Solutions found.
    pub solutions: u64,
    /// Whether that is all of them.
    pub status: CountStatus,
}

/// A decision on the stack: the node it made and where to undo to.
#[derive(Clone, Copy, Debug)]
struct Choice {
    var: u32,
    /// The branch taken first; the other is its negation.
    branch: Branch,
    value: i32,
    mark: usize,
    /// The node this choice branched from.
    parent: u64,
    /// That node's depth in the search tree.
    parent_depth: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// The next call starts from the root.
    Fresh,
    /// At a fixpoint, ready to branch.
    Open,
    /// At a solution that was reported; the next call backtracks first.
    AtSolution,
    Exhausted,
    Stopped(StopReason),
}

/// What the running search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Goal {
    /// Every solution, in turn: no restarts (they would find solutions again).
    All,
    /// One solution: restarts until the first.
    First,
    /// Better and better solutions: restarts throughout, a bound after each solution.
    Optimize(Objective),
}

/// Where [`Solver::advance`] left the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// At a solution, in the domains: read it with [`Solver::solution_value`].
    Solution,
    /// No solution is left.
    Exhausted,
    /// A limit stopped the search.
    Stopped(StopReason),
}

/// Searches a model. Create it once and reuse it: [`Solver::reset`] and
/// [`Solver::assume`] let one solver answer many related questions (such as many
/// Sudoku puzzles over the same empty grid) without allocating.
///
/// ```
/// use alldiff::{Model, Outcome, Solver};
/// let mut model = Model::new();
/// let x = model.int_var(1, 2)?;
/// let y = model.int_var(1, 2)?;
/// model.not_equal(x, y)?;
/// let mut solver = Solver::new(model);
/// let Outcome::Solved(s) = solver.solve() else { panic!("satisfiable") };
/// assert_ne!(s[x], s[y]);
/// assert_eq!(solver.count(None).solutions, 2);
/// # Ok::<(), alldiff::ModelError>(())
/// ```
pub struct Solver {
    model: Model,
    store: Store,
    queue: Queue,
    brancher: Brancher,
    limits: Limits,
    stats: Statistics,
    phases: Vec<Phase>,
    restarts: Option<Restarts>,
    goal: Goal,
    /// The running search's restart schedule, and the failure count at which it
    /// restarts next (`u64::MAX`: never).
    schedule: Option<Schedule>,
    restart_at: u64,
    /// When optimising, the bound the solutions found so far set.
    bound: Option<Bound>,
    assumptions: Vec<Assumption>,
    levels: Vec<Level>,
    /// The trail length with every level applied and propagated.
    levels_end: usize,
    stack: Vec<Choice>,
    modified: Vec<u32>,
    pruned: Option<Vec<Pruning>>,
    /// Forget prunings once the observer has seen them (see `stream_prunings`).
    stream_prunings: bool,
    state: State,
    node: u64,
    /// The current node's depth in the search tree: decisions from the root, `!=`
    /// branches included (the stack holds only choices with a branch left).
    depth: u32,
    started: Instant,
}

impl std::fmt::Debug for Solver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solver")
            .field("model", &self.model)
            .field("config", &self.brancher.config())
            .field("phases", &self.phases)
            .field("restarts", &self.restarts)
            .field("limits", &self.limits)
            .field("statistics", &self.stats)
            .finish()
    }
}

impl Solver {
    /// A solver for `model` with the default search (smallest domain, ascending).
    pub fn new(model: Model) -> Solver {
        Solver::with_config(model, SearchConfig::default())
    }

    /// A solver for `model` with the given search choices.
    pub fn with_config(model: Model, config: SearchConfig) -> Solver {
        let queue = Queue::new(model.var_count(), &model.propagators);
        let vars_of = model.propagators.watched_vars();
        let brancher = Brancher::new(config, vars_of, model.var_count());
        Solver {
            store: model.vars.store.clone(),
            queue,
            brancher,
            limits: Limits::default(),
            stats: Statistics::default(),
            phases: Vec::new(),
            restarts: None,
            goal: Goal::All,
            schedule: None,
            restart_at: u64::MAX,
            bound: None,
            assumptions: Vec::new(),
            levels: Vec::new(),
            levels_end: 0,
            stack: Vec::new(),
            modified: Vec::new(),
            pruned: None,
            stream_prunings: false,
            state: State::Fresh,
            node: 0,
            depth: 0,
            started: Instant::now(),
            model,
        }
    }

    /// The model being solved.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The search choices.
    pub fn config(&self) -> SearchConfig {
        self.brancher.config()
    }

    /// Changes the search choices for the next search. With phases
    /// ([`Solver::set_phases`]) these are the choices of the final phase, over the
    /// variables the phases leave unfixed.
    pub fn set_config(&mut self, config: SearchConfig) {
        self.brancher.set_config(config);
        self.fresh(Goal::All);
    }

    /// Branches on the phases' variables first, phase after phase, each with its own
    /// orders; then on every variable left with the solver's [`SearchConfig`], so
    /// every solution is complete. A variable may appear in several phases; one left
    /// out (such as an auxiliary variable propagation fixes) needs no phase. An empty
    /// list goes back to the solver's choices alone. Applies from the next search.
    ///
    /// Choosing among `n` phase variables takes `O(n)` per node.
    ///
    /// # Errors
    ///
    /// [`ModelError::ForeignVariable`] for a variable of another model; the phases
    /// are then unchanged.
    pub fn set_phases(
        &mut self,
        phases: impl IntoIterator<Item = Phase>,
    ) -> Result<(), ModelError> {
        let phases: Vec<Phase> = phases.into_iter().collect();
        for &var in phases.iter().flat_map(Phase::vars) {
            self.model.check_var(var)?;
        }
        let raw = |p: &Phase| (p.vars().iter().map(|v| v.raw()).collect(), p.config());
        self.brancher.set_phases(phases.iter().map(raw));
        self.phases = phases;
        self.fresh(Goal::All);
        Ok(())
    }

    /// The phases in force (see [`Solver::set_phases`]).
    pub fn phases(&self) -> &[Phase] {
        &self.phases
    }

    /// Restarts [`Solver::solve`] (until its solution) and optimisations
    /// ([`Solver::minimize`], throughout) by `restarts`, or not at all (`None`, the
    /// default). Searches that enumerate ([`Solver::count`], [`Solver::solutions`],
    /// [`Solver::advance`] from a fresh start) never restart. Limits, statistics and
    /// the variable and value orders span the whole run: a restart keeps dom/wdeg
    /// weights, a random value order's generator and the best objective so far.
    pub fn set_restarts(&mut self, restarts: Option<Restarts>) {
        self.restarts = restarts;
    }

    /// The restart policy in force.
    pub fn restarts(&self) -> Option<Restarts> {
        self.restarts
    }

    /// Sets the limits of each following search. An optimisation or a run with
    /// restarts is one search: the limits apply to all of it.
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The statistics of the latest search (all of it, restarts included).
    pub fn statistics(&self) -> &Statistics {
        &self.stats
    }

    /// Restricts `var` to `value` in every following search, until [`Solver::reset`].
    /// A value outside the domain makes the problem unsatisfiable.
    pub fn assume(&mut self, var: VarId, value: i32) -> Result<(), ModelError> {
        self.model.check_var(var)?;
        self.assumptions.push(Assumption::Equal(var.raw(), value));
        self.fresh(Goal::All);
        Ok(())
    }

    /// Removes `value` from `var` in every following search, until [`Solver::reset`].
    pub fn assume_not(&mut self, var: VarId, value: i32) -> Result<(), ModelError> {
        self.model.check_var(var)?;
        self.assumptions
            .push(Assumption::NotEqual(var.raw(), value));
        self.fresh(Goal::All);
        Ok(())
    }

    /// Forgets every assumption (not the levels): the next search starts from the
    /// model's domains and the levels.
    pub fn reset(&mut self) {
        self.assumptions.clear();
        self.fresh(Goal::All);
    }

    /// The next search starts anew, for `goal`.
    fn fresh(&mut self, goal: Goal) {
        self.state = State::Fresh;
        self.goal = goal;
    }

    /// Restricts each `var` to its `value` in every following search, until the
    /// matching [`Solver::pop_level`], like [`Solver::assume`], but applied and
    /// propagated once, now, instead of at the start of each search. Levels stack:
    /// a search starts from all of them, then applies its own assumptions. Returns
    /// whether the levels are still consistent as far as propagation tells (if not,
    /// every search finds nothing until the level is popped).
    ///
    /// Many searches that share most of their assumptions (such as the uniqueness
    /// checks of a Sudoku generator, which each take one more clue away) then share
    /// that work.
    ///
    /// # Errors
    ///
    /// [`ModelError::ForeignVariable`] for a variable of another model; nothing is
    /// pushed then.
    pub fn push_level(
        &mut self,
        assumptions: impl IntoIterator<Item = (VarId, i32)>,
    ) -> Result<bool, ModelError> {
        let assumptions = assumptions
            .into_iter()
            .map(|(var, value)| Ok((self.model.check_var(var).map(|()| var.raw())?, value)))
            .collect::<Result<Vec<(u32, i32)>, ModelError>>()?;
        self.fresh(Goal::All);
        // Propagating the level is no search: the latest search's statistics stay.
        let propagations = self.stats.propagations;
        let (mut failed, mark) = match self.levels.last() {
            // Back where the levels end: a mark already, this level's.
            Some(level) => {
                self.store.undo_to(self.levels_end);
                (level.failed, self.levels_end)
            }
            None => (!self.start_levels(), self.store.mark()),
        };
        if !failed {
            self.queue.clear();
            for &(var, value) in &assumptions {
                match self.store.fix(var, value) {
                    Ok(event) => self.queue.notify(var, event, NO_PROPAGATOR),
                    Err(_) => failed = true,
                }
            }
            failed = failed || self.propagate().is_err();
            self.queue.clear();
        }
        self.levels.push(Level {
            assumptions,
            mark,
            failed,
        });
        self.levels_end = self.store.mark();
        self.stats.propagations = propagations;
        Ok(!failed)
    }

    /// Takes the latest level pushed off (nothing if there is none).
    pub fn pop_level(&mut self) {
        if let Some(level) = self.levels.pop() {
            self.store.undo_to(level.mark);
            self.levels_end = level.mark;
            self.fresh(Goal::All);
        }
    }

    /// The number of levels pushed and not popped.
    pub fn levels(&self) -> usize {
        self.levels.len()
    }

    /// Resets the domains and propagates at the root, below the first level; whether
    /// that succeeded.
    fn start_levels(&mut self) -> bool {
        self.store.reset_from(&self.model.vars.store);
        self.queue.schedule_all();
        let consistent = self.propagate().is_ok();
        self.queue.clear();
        consistent
    }

    /// The first solution of a new search.
    pub fn solve(&mut self) -> Outcome {
        self.solve_observed(&mut ())
    }

    /// [`Solver::solve`], reporting to `observer`.
    pub fn solve_observed(&mut self, observer: &mut impl SearchObserver) -> Outcome {
        self.fresh(Goal::First);
        self.next_outcome(observer)
    }

    /// The solutions of a new branch-and-bound search minimising `objective`, each
    /// strictly smaller than the one before; the last is the minimum unless a limit
    /// stopped the search ([`Optimization::finish`] tells). The bound tightens in the
    /// running search: after each solution, every node restricts the objective below
    /// it. Restarts ([`Solver::set_restarts`]) and limits apply to the whole search.
    ///
    /// ```
    /// use alldiff::{Model, OptimizeOutcome, Relation, Solver};
    /// let mut model = Model::new();
    /// let x = model.int_var(0, 10)?;
    /// let y = model.int_var(0, 10)?;
    /// model.linear([(2, x), (3, y)], Relation::GreaterEq, 12)?;
    /// // cost = x + y, a defined variable: x + y - cost = 0.
    /// let cost = model.int_var(0, 20)?;
    /// model.linear([(1, x), (1, y), (-1, cost)], Relation::Equal, 0)?;
    /// let mut solver = Solver::new(model);
    /// let mut optimization = solver.minimize(cost)?;
    /// let mut last = i64::MAX;
    /// for improvement in optimization.by_ref() {
    ///     assert!(improvement.objective < last);
    ///     last = improvement.objective;
    /// }
    /// let OptimizeOutcome::Optimal(best) = optimization.finish() else { panic!() };
    /// assert_eq!(best.objective, 4); // y = 4, or x = 3 and y = 2, ...
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`ModelError::ForeignVariable`] for a view of another model.
    pub fn minimize(&mut self, objective: impl Into<View>) -> Result<Optimization<'_>, ModelError> {
        self.optimize(Objective::Minimize(objective.into()))
    }

    /// [`Solver::minimize`], the larger the better.
    ///
    /// # Errors
    ///
    /// [`ModelError::ForeignVariable`] for a view of another model.
    pub fn maximize(&mut self, objective: impl Into<View>) -> Result<Optimization<'_>, ModelError> {
        self.optimize(Objective::Maximize(objective.into()))
    }

    /// [`Solver::minimize`] or [`Solver::maximize`], as `objective` says.
    ///
    /// # Errors
    ///
    /// [`ModelError::ForeignVariable`] for a view of another model.
    pub fn optimize(&mut self, objective: Objective) -> Result<Optimization<'_>, ModelError> {
        self.model.check_view(objective.view())?;
        self.fresh(Goal::Optimize(objective));
        Ok(Optimization {
            solver: self,
            objective,
            best: None,
        })
    }

    /// Counts solutions of a new search, stopping at `limit` if given.
    pub fn count(&mut self, limit: Option<u64>) -> Count {
        self.count_observed(limit, &mut ())
    }

    /// [`Solver::count`], reporting to `observer`.
    pub fn count_observed(
        &mut self,
        limit: Option<u64>,
        observer: &mut impl SearchObserver,
    ) -> Count {
        self.fresh(Goal::All);
        let mut solutions = 0;
        loop {
            if limit.is_some_and(|limit| solutions >= limit) {
                return Count {
                    solutions,
                    status: CountStatus::LimitReached,
                };
            }
            match self.step(observer) {
                Step::Solution => solutions += 1,
                Step::Exhausted => {
                    return Count {
                        solutions,
                        status: CountStatus::Complete,
                    };
                }
                Step::Stopped(reason) => {
                    return Count {
                        solutions,
                        status: CountStatus::Stopped(reason),
                    };
                }
            }
        }
    }

    /// Iterates over the solutions of a new search. When it ends,
    /// [`Solutions::stopped`] tells a finished search from one a limit stopped.
    pub fn solutions(&mut self) -> Solutions<'_> {
        self.fresh(Goal::All);
        Solutions { solver: self }
    }

    /// The domains after propagating the assumptions at the root, without search;
    /// `None` if propagation alone proves there is no solution.
    pub fn root_domains(&mut self) -> Option<Vec<Vec<i32>>> {
        self.fresh(Goal::All);
        self.start_search(&mut (), Instant::now()).then(|| {
            (0..self.store.var_count() as u32)
                .map(|v| self.store.values(v).collect())
                .collect()
        })
    }

    /// Records every value each propagator removes, for traces and explanations.
    /// Costs time; off by default. While on, each node's prunings also go to the
    /// observer's [`SearchObserver::on_prunings`], and they are kept for
    /// [`Solver::take_prunings`].
    pub fn record_prunings(&mut self, on: bool) {
        self.pruned = on.then(Vec::new);
        self.stream_prunings = false;
    }

    /// Like [`Solver::record_prunings`], but each node's prunings are forgotten once
    /// the observer has seen them, so memory stays flat however long the search;
    /// [`Solver::take_prunings`] then returns nothing. Traces use this.
    pub fn stream_prunings(&mut self, on: bool) {
        self.pruned = on.then(Vec::new);
        self.stream_prunings = on;
    }

    /// Whether prunings are recorded: `None` (off), `Some(false)` (kept, see
    /// [`Solver::record_prunings`]) or `Some(true)` (streamed, see
    /// [`Solver::stream_prunings`]).
    pub fn pruning_mode(&self) -> Option<bool> {
        self.pruned.as_ref().map(|_| self.stream_prunings)
    }

    /// The domains a new search starts from, before any propagation: the model's,
    /// with the levels' and the assumptions applied (a contradictory assumption leaves
    /// a domain empty).
    pub fn start_domains(&self) -> Vec<Vec<i32>> {
        let mut domains: Vec<Vec<i32>> = (0..self.model.vars.store.var_count() as u32)
            .map(|v| self.model.vars.store.values(v).collect())
            .collect();
        let levels = self.levels.iter().flat_map(|l| &l.assumptions);
        let assumptions = levels
            .map(|&(var, value)| Assumption::Equal(var, value))
            .chain(self.assumptions.iter().copied());
        for assumption in assumptions {
            if let Some(domain) = domains.get_mut(assumption.var() as usize) {
                domain.retain(|&v| assumption.admits(v));
            }
        }
        domains
    }

    /// Takes the prunings recorded since the last call (see [`Solver::record_prunings`]).
    pub fn take_prunings(&mut self) -> Vec<Pruning> {
        self.pruned.as_mut().map(std::mem::take).unwrap_or_default()
    }

    fn next_outcome(&mut self, observer: &mut impl SearchObserver) -> Outcome {
        match self.step(observer) {
            Step::Solution => Outcome::Solved(self.current_solution()),
            Step::Exhausted => Outcome::Unsatisfiable,
            Step::Stopped(reason) => Outcome::Stopped(reason),
        }
    }

    /// Searches on to the next solution and leaves it in the domains, to be read with
    /// [`Solver::solution_value`], instead of building a [`Solution`]: for a caller
    /// that copies the values straight where it keeps them, or only asks whether
    /// another solution exists. It goes on from where the latest search stopped
    /// (after [`Solver::solve`], to the next solution), or starts a new one after
    /// [`Solver::new`], [`Solver::reset`], [`Solver::assume`] or
    /// [`Solver::assume_not`].
    ///
    /// ```
    /// use alldiff::{Model, Solver, Step};
    /// let mut model = Model::new();
    /// let x = model.int_var(1, 2)?;
    /// let mut solver = Solver::new(model);
    /// assert_eq!(solver.advance(), Step::Solution);
    /// assert_eq!(solver.solution_value(x), Some(1));
    /// assert_eq!(solver.advance(), Step::Solution);
    /// assert_eq!(solver.solution_value(x), Some(2));
    /// assert_eq!(solver.advance(), Step::Exhausted);
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    pub fn advance(&mut self) -> Step {
        self.step(&mut ())
    }

    /// The value of `var` in the solution [`Solver::advance`] reached (at other
    /// times, its smallest value left); `None` for a variable of another model.
    #[inline]
    pub fn solution_value(&self, var: VarId) -> Option<i32> {
        self.model.vars.owns(var).then(|| self.store.min(var.raw()))
    }

    fn current_solution(&self) -> Solution {
        Solution {
            values: (0..self.store.var_count() as u32)
                .map(|v| self.store.min(v))
                .collect(),
        }
    }

    fn var_id(&self, raw: u32) -> VarId {
        self.model.vars.var_at(raw)
    }

    /// Panics if the solution in the domains violates a constraint: a propagator
    /// let a wrong assignment through. Debug builds check every solution, except
    /// when counting allocations (`is_satisfied` may allocate; the search must not).
    #[cfg(all(debug_assertions, not(feature = "count-allocations")))]
    fn check_solution(&self) {
        let value = |var: VarId| self.store.min(var.raw());
        if let Some(c) = self.model.first_violated(&value) {
            let name = self.model.constraint_name(c).unwrap_or("?");
            panic!("solution violates constraint {} ({name})", c.index());
        }
    }

    /// Runs the search until the next solution, exhaustion or a limit.
    fn step(&mut self, observer: &mut impl SearchObserver) -> Step {
        let _span = tracing::debug_span!(
            target: "alldiff::search",
            "solve",
            variables = self.model.var_count(),
            constraints = self.model.constraint_count(),
        )
        .entered();
        let resumed = Instant::now();
        let step = self.search(observer, resumed);
        self.stats.solve_time += resumed.elapsed();
        match step {
            Step::Solution => self.state = State::AtSolution,
            Step::Exhausted => self.state = State::Exhausted,
            Step::Stopped(reason) => self.state = State::Stopped(reason),
        }
        step
    }

    /// [`Solver::step`], which began at `now`.
    fn search(&mut self, observer: &mut impl SearchObserver, now: Instant) -> Step {
        match self.state {
            State::Fresh => {
                if !self.start_search(observer, now) {
                    return Step::Exhausted;
                }
            }
            State::Open => {}
            State::AtSolution => {
                if !self.backtrack(observer) {
                    return Step::Exhausted;
                }
            }
            State::Exhausted => return Step::Exhausted,
            State::Stopped(reason) => return Step::Stopped(reason),
        }
        loop {
            self.state = State::Open;
            let Some((var, branch, value)) = self.brancher.decide(&self.store) else {
                #[cfg(all(debug_assertions, not(feature = "count-allocations")))]
                self.check_solution();
                self.stats.solutions += 1;
                self.solution_found();
                tracing::trace!(target: "alldiff::search", node = self.node, "solution");
                observer.on_solution(self.node);
                return Step::Solution;
            };
            if let Some(reason) =
                self.limits
                    .exceeded(self.stats.nodes, self.stats.failures, self.started)
            {
                return Step::Stopped(reason);
            }
            if self.stats.failures >= self.restart_at {
                self.restart(observer);
                continue;
            }
            let mark = self.store.mark();
            let parent = self.node;
            let parent_depth = self.depth;
            self.stack.push(Choice {
                var,
                branch,
                value,
                mark,
                parent,
                parent_depth,
            });
            self.stats.peak_depth = self.stats.peak_depth.max(self.stack.len() as u32);
            let applied = self.branch(observer, var, value, branch, (parent, parent_depth));
            if !applied && !self.backtrack(observer) {
                return Step::Exhausted;
            }
        }
    }

    /// A solution is in the domains: when optimising, the next must be better; when
    /// looking for one, no more restarts.
    fn solution_found(&mut self) {
        match self.goal {
            Goal::All => {}
            Goal::First => self.restart_at = u64::MAX,
            Goal::Optimize(objective) => {
                let var = objective.view().var.raw();
                let best = self.store.min(var);
                self.bound = Some(Bound::new(objective, best));
                self.stats.objective = Some(i64::from(best) + i64::from(objective.view().offset));
            }
        }
    }

    /// Goes back to the highest node with a branch left (the search above it is
    /// done) and chooses anew from there, with the next cutoff.
    fn restart(&mut self, observer: &mut impl SearchObserver) {
        let Some(schedule) = self.schedule.as_mut() else {
            return;
        };
        schedule.advance();
        self.restart_at = self.stats.failures.saturating_add(schedule.cutoff());
        let Some(&top) = self.stack.first() else {
            return;
        };
        self.stack.clear();
        self.store.undo_to(top.mark);
        self.node = top.parent;
        self.depth = top.parent_depth;
        self.stats.restarts += 1;
        tracing::trace!(target: "alldiff::search", to = top.parent, "restart");
        observer.on_backtrack(top.parent, top.parent_depth);
    }

    /// Resets the domains (to the levels, if any), applies the assumptions and
    /// propagates at the root.
    fn start_search(&mut self, observer: &mut impl SearchObserver, now: Instant) -> bool {
        self.stats = Statistics::default();
        self.started = now;
        self.stack.clear();
        self.node = 0;
        self.depth = 0;
        self.brancher.restart();
        self.bound = None;
        self.schedule = match self.goal {
            Goal::All => None,
            Goal::First | Goal::Optimize(_) => self.restarts.map(Schedule::new),
        };
        self.restart_at = self.schedule.map_or(u64::MAX, |s| s.cutoff());
        let levels_failed = match self.levels.last() {
            // The levels are propagated: only the assumptions need waking anyone.
            // Their changes are undone with the search's, back to the levels' end.
            Some(level) => {
                self.store.undo_to(self.levels_end);
                self.queue.clear();
                level.failed
            }
            // Every propagator is queued with all its variables: no need to wake
            // anyone for the assumptions. Nothing is trailed until the first choice:
            // no backtrack goes above the root.
            None => {
                self.store.reset_from(&self.model.vars.store);
                self.queue.schedule_all();
                false
            }
        };
        if levels_failed {
            return self.fail(observer, None);
        }
        // Without levels every propagator is queued already: no one to wake, and no
        // event to work out.
        let applied = match self.levels.is_empty() {
            true => (self.assumptions.iter()).all(|a| a.apply(&mut self.store).is_ok()),
            false => self
                .assumptions
                .iter()
                .all(|a| match a.apply(&mut self.store) {
                    Ok(event) => {
                        self.queue.notify(a.var(), event, NO_PROPAGATOR);
                        true
                    }
                    Err(_) => false,
                }),
        };
        if !applied {
            self.queue.clear();
            return self.fail(observer, None);
        }
        match self.propagate_node(observer) {
            Ok(()) => true,
            Err(constraint) => self.fail(observer, Some(constraint)),
        }
    }

    /// Counts a failure at the current node; always `false`.
    fn fail(&mut self, observer: &mut impl SearchObserver, constraint: Option<u32>) -> bool {
        self.stats.failures += 1;
        if let Some(c) = constraint {
            self.brancher.failed(c);
        }
        tracing::trace!(
            target: "alldiff::propagate",
            node = self.node,
            constraint = constraint,
            "failure"
        );
        observer.on_failure(self.node, constraint.map(ConstraintId));
        false
    }

    /// Creates a node for `var branch value` and propagates it, with the objective's
    /// bound when optimising. `false` if it failed.
    fn branch(
        &mut self,
        observer: &mut impl SearchObserver,
        var: u32,
        value: i32,
        branch: Branch,
        (parent, parent_depth): (u64, u32),
    ) -> bool {
        self.stats.nodes += 1;
        self.node = self.stats.nodes;
        self.depth = parent_depth + 1;
        let depth = self.depth;
        tracing::trace!(
            target: "alldiff::search",
            node = self.node,
            parent,
            depth,
            var,
            op = branch.symbol(),
            value,
            "decision"
        );
        observer.on_decision(&Decision {
            node: self.node,
            parent,
            depth,
            var: self.var_id(var),
            branch,
            value,
        });
        let change = match branch {
            Branch::Equal => self.store.fix(var, value),
            Branch::NotEqual => self.store.remove(var, value),
            Branch::LessEqual => self.store.set_max(var, value),
            // A split's value is below the maximum: `value + 1` does not overflow.
            Branch::Greater => self.store.set_min(var, value + 1),
        };
        match change {
            Ok(event) => self.queue.notify(var, event, NO_PROPAGATOR),
            Err(_) => return self.fail(observer, None),
        }
        if let Some(bound) = self.bound {
            match bound.apply(&mut self.store) {
                Ok(event) => self.queue.notify(bound.var(), event, NO_PROPAGATOR),
                Err(_) => return self.fail(observer, None),
            }
        }
        match self.propagate_node(observer) {
            Ok(()) => true,
            Err(constraint) => self.fail(observer, Some(constraint)),
        }
    }

    /// Undoes the latest choice and takes its other branch, repeating while that
    /// fails. `false` when no choice is left: the search is exhausted.
    fn backtrack(&mut self, observer: &mut impl SearchObserver) -> bool {
        while let Some(choice) = self.stack.pop() {
            self.store.undo_to(choice.mark);
            tracing::trace!(
                target: "alldiff::search",
                from = self.node,
                to = choice.parent,
                depth = choice.parent_depth,
                "backtrack"
            );
            observer.on_backtrack(choice.parent, choice.parent_depth);
            if self.branch(
                observer,
                choice.var,
                choice.value,
                choice.branch.negated(),
                (choice.parent, choice.parent_depth),
            ) {
                return true;
            }
        }
        false
    }

    /// [`Solver::propagate`] at the current node, handing what it pruned to the
    /// observer when prunings are recorded.
    fn propagate_node(&mut self, observer: &mut impl SearchObserver) -> Result<(), u32> {
        let start = self.pruned.as_ref().map_or(0, Vec::len);
        let result = self.propagate();
        if let Some(log) = self.pruned.as_mut() {
            if log.len() > start {
                observer.on_prunings(self.node, &log[start..]);
            }
            if self.stream_prunings {
                log.clear();
            }
        }
        result
    }

    /// Runs woken propagators until none is left, or one fails (its index).
    fn propagate(&mut self) -> Result<(), u32> {
        self.model.propagators.fixpoint(Run {
            store: &mut self.store,
            queue: &mut self.queue,
            modified: &mut self.modified,
            pruned: &mut self.pruned,
            vars: &self.model.vars,
            calls: &mut self.stats.propagations,
        })
    }
}
