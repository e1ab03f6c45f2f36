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
//!
//! This file makes a solver and sets it up (orders, phases, restarts, limits,
//! assumptions, levels, prunings); `solve.rs` runs searches and says how they ended,
//! `engine.rs` is the search loop itself.

mod assumptions;
mod branching;
mod config;
mod engine;
mod limits;
mod observer;
mod optimize;
mod orders;
mod parallel;
mod restarts;
mod selectors;
mod solution;
mod solve;
mod stats;

use std::sync::Arc;
use std::time::Instant;

use smallvec::SmallVec;

pub use config::{Phase, SearchConfig};
pub(crate) use limits::clock_now;
pub use limits::{Limits, StopReason};
pub use observer::{Branch, Decision, SearchObserver};
pub use optimize::{Improvement, Objective, Optimization, OptimizeOutcome};
pub use orders::{ValueOrder, ValueOrderSelector, VariableOrder};
pub use parallel::{ParallelSolver, SolverSource, SplitDecision};
pub use restarts::Restarts;
pub use selectors::{Domains, ValueSelector, VariableSelector};
pub use solution::{Solution, Solutions};
pub use solve::{Count, CountStatus, Outcome, Step};
pub use stats::Statistics;

use assumptions::{Assumption, Level};
use branching::Chosen;
use engine::Choice;
use optimize::Bound;
use restarts::Schedule;

use crate::error::ModelError;
use crate::ids::VarId;
use crate::model::Model;
use crate::propagator::{NO_PROPAGATOR, Pruning, Queue};
use crate::store::Store;
use branching::Brancher;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// The next call starts from the root.
    Fresh,
    /// At a fixpoint, ready to branch.
    Open,
    /// At a solution that was reported; the next call backtracks first.
    AtSolution,
    Exhausted,
    /// Stopped by a limit at an open node, before taking its decision, which the
    /// search takes when it resumes.
    Stopped(StopReason, Chosen),
    /// At a solution that failed its check ([`StopReason::WrongSolution`]): the
    /// search goes no further.
    Wrong(StopReason),
}

impl State {
    /// Why the search stopped, if it did.
    fn stop_reason(self) -> Option<StopReason> {
        match self {
            State::Stopped(reason, _) | State::Wrong(reason) => Some(reason),
            _ => None,
        }
    }
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
    /// In a parallel optimisation, the best objective any worker found: read at
    /// every node to tighten `bound`.
    shared_bound: Option<Arc<parallel::SharedBound>>,
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
    /// When the running search started, if the clock was read then (see `timed`).
    started: Option<Instant>,
    /// Whether each step measures its time ([`Solver::measure_time`]).
    timed: bool,
    /// Whether each solution is checked against every constraint
    /// ([`Solver::check_solutions`]).
    checked: bool,
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
    pub fn with_config(mut model: Model, config: SearchConfig) -> Solver {
        let Model {
            vars, propagators, ..
        } = &mut model;
        let entailed = propagators.entailed_cell(&mut vars.store);
        let queue = Queue::new(model.var_count(), &model.propagators, entailed);
        let vars_of = model.propagators.watched_vars();
        let brancher = Brancher::new(config, vars_of, model.vars().collect());
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
            shared_bound: None,
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
            started: None,
            timed: true,
            checked: false,
            model,
        }
    }

    /// The model being solved.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The search choices.
    pub fn config(&self) -> &SearchConfig {
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
        let choices = |p: &Phase| (p.vars().to_vec(), p.config().clone());
        self.brancher.set_phases(phases.iter().map(choices));
        self.phases = phases;
        self.fresh(Goal::All);
        Ok(())
    }

    /// Declares variables that only complete a solution, such as those a modelling
    /// layer introduces (MiniZinc's `var_is_introduced`, a half reification's
    /// literal): the search branches on them after every other variable, and once it
    /// has found a solution, it tries no other values of them under the same values of
    /// the others. Solutions that differ only there are one solution: counting and
    /// enumerating see each assignment of the other variables once. Branch and bound
    /// searches them as any other variable, so that an objective may depend on them.
    /// A variable in a phase ([`Solver::set_phases`]) is branched on there, as any
    /// other. Replaces the previous set; applies from the next search.
    ///
    /// ```
    /// use alldiff::{Condition, Model, Relation, Solver};
    /// // x >= 2 or y >= 2, each side implied by a literal of its own: r1 -> x >= 2,
    /// // r2 -> y >= 2, r1 or r2. Where both hold, either literal may be false.
    /// let mut model = Model::new();
    /// let [x, y] = model.int_var_array(1, 2)?;
    /// let [r1, r2] = model.bool_var_array()?;
    /// model.half_reify(r1, Condition::compare(x, Relation::GreaterEq, 2))?;
    /// model.half_reify(r2, Condition::compare(y, Relation::GreaterEq, 2))?;
    /// model.or([r1, r2])?;
    /// let mut solver = Solver::new(model);
    /// assert_eq!(solver.count(None).solutions, 5);
    /// solver.set_auxiliary([r1, r2])?;
    /// assert_eq!(solver.count(None).solutions, 3); // (1, 2), (2, 1), (2, 2)
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`ModelError::ForeignVariable`] for a variable of another model; the set is
    /// then unchanged.
    pub fn set_auxiliary(
        &mut self,
        vars: impl IntoIterator<Item = VarId>,
    ) -> Result<(), ModelError> {
        let vars: Vec<VarId> = vars.into_iter().collect();
        for &var in &vars {
            self.model.check_var(var)?;
        }
        self.brancher.set_auxiliary(vars);
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

    /// Sets the limits of each following search, and of a search a limit stopped,
    /// which [`Solver::advance`] then resumes. An optimisation or a run with restarts
    /// is one search: the limits apply to all of it.
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Whether searches measure their time, [`Statistics::solve_time`]: on by
    /// default. Each step of a search then reads the clock twice, some tens of
    /// nanoseconds; a caller running many tiny searches whose times it never shows
    /// (a Sudoku generator's uniqueness checks) may turn it off. Off, the solve time
    /// stays zero and the clock is read only for a time limit. On
    /// `wasm32-unknown-unknown` (a browser) there is no clock to read: the solve time
    /// stays zero either way.
    pub fn measure_time(&mut self, on: bool) {
        self.timed = on;
    }

    /// Whether searches measure their time ([`Solver::measure_time`]).
    pub fn measures_time(&self) -> bool {
        self.timed
    }

    /// Whether every solution the search reaches is checked against every
    /// constraint ([`Propagator::is_satisfied`](crate::Propagator::is_satisfied)) before
    /// it is reported: off by default, on in alldiff's own tests and with `alldiff fzn
    /// --check-solutions`. A solution that violates one is an internal error (a
    /// propagator let a wrong assignment through): it is not reported, and the search
    /// stops with [`StopReason::WrongSolution`], which [`Outcome::Stopped`],
    /// [`CountStatus::Stopped`], the last item of [`Solutions`] (`Err(reason)`),
    /// [`OptimizeOutcome::Stopped`] and [`Step::Stopped`] carry as they carry a limit. The check costs one call of
    /// each constraint's `is_satisfied` per solution. (With the `debug-checks` feature
    /// every solution is checked anyway; a violation panics unless this is on.)
    pub fn check_solutions(&mut self, on: bool) {
        self.checked = on;
    }

    /// Whether solutions are checked ([`Solver::check_solutions`]).
    pub fn checks_solutions(&self) -> bool {
        self.checked
    }

    /// Each variable's weighted degree as dom/wdeg reads it now.
    #[cfg(test)]
    pub(crate) fn weighted_degrees(&self) -> &[u64] {
        self.brancher.weighted_degrees()
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

    /// [`Solver::reset`], then [`Solver::assume`] of each `(var, value)`: one call
    /// instead of one an assumption, for a caller that loads many (such as a Sudoku
    /// solver loading a puzzle's clues).
    ///
    /// # Errors
    ///
    /// [`ModelError::ForeignVariable`] for a variable of another model; the solver is
    /// reset then, with no assumption.
    pub fn reset_assuming(
        &mut self,
        assumptions: impl IntoIterator<Item = (VarId, i32)>,
    ) -> Result<(), ModelError> {
        self.reset();
        for (var, value) in assumptions {
            if let Err(error) = self.model.check_var(var) {
                self.assumptions.clear();
                return Err(error);
            }
            self.assumptions.push(Assumption::Equal(var.raw(), value));
        }
        Ok(())
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
            .collect::<Result<SmallVec<[(u32, i32); 4]>, ModelError>>()?;
        self.fresh(Goal::All);
        // Propagating the level is no search: the latest search's statistics stay.
        let propagations = self.stats.propagations;
        let (mut failed, mark) = match self.levels.last() {
            // Back where the levels end: a mark already, this level's.
            Some(&Level { failed, .. }) => {
                self.undo_to(self.levels_end);
                (failed, self.levels_end)
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
            self.undo_to(level.mark);
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
        self.reset_store();
        self.queue.schedule_all();
        let consistent = self.propagate().is_ok();
        self.queue.clear();
        consistent
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
}
