//! One search on several threads: embarrassingly parallel search.
//!
//! The tree is split at the top into many subproblems (by default 30 per thread):
//! starting from the root, the open node with the largest search space is branched
//! on with the solver's own choices ([`SearchConfig`](super::SearchConfig), phases),
//! both branches (`x = v` and `x != v`, or `x <= v` and `x > v`), until the open
//! nodes are enough. Each subproblem is the list of decisions leading to
//! one, applied as assumptions; siblings are complementary, so the subproblems
//! partition the solutions. Worker threads take the subproblems in left-to-right
//! order from a shared counter (the uneven ones balance out) and search each with a
//! solver of their own, which a [`SolverSource`] makes: a clone of the model, or
//! the caller's closure for a search set up otherwise.
//!
//! Counting sums the workers' counts; finding one solution stops every worker once one
//! has found one; optimising shares the best objective in an atomic, which every
//! worker reads at each node as its branch-and-bound bound. Limits span the whole run
//! (a shared stop flag), statistics are summed over workers.

mod split;
mod subproblems;
#[cfg(test)]
mod tests;

use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use super::assumptions::Assumption;
use super::optimize::Bound;
use super::{
    Count, CountStatus, Goal, Improvement, Limits, Objective, OptimizeOutcome, Outcome,
    SearchObserver, Solution, Solver, Statistics, Step, StopReason,
};
use crate::error::ModelError;
use crate::ids::{ConstraintId, View};
use crate::model::Model;
use split::{Subproblem, split};
pub use subproblems::SplitDecision;

/// The subproblems per thread unless [`ParallelSolver::set_subproblems_per_thread`]
/// says otherwise: enough for uneven subproblems to balance out, few enough that
/// splitting costs next to nothing.
const SUBPROBLEMS_PER_THREAD: usize = 30;

/// The nodes a worker counts before adding them to the shared total, when a node or
/// failure limit or a cancellation flag is set: a run may overshoot a node limit by
/// this many nodes per thread.
const FLUSH_EVERY: u64 = 32;

/// Searches one problem on several threads: counts its solutions, finds one, or
/// finds an optimum, with the same answers as one [`Solver`] (the same count, the
/// same optimal objective; *a* solution, not necessarily the first one a single
/// thread would find).
///
/// Each thread searches a solver of its own, made by the [`SolverSource`] it is
/// given: a [`Model`] (each thread searches a clone with the default search), or a
/// closure that makes a [`Solver`] set up as wanted, which must make the same
/// model (the same variables and constraints, in the same order) and set up the
/// search the same way each time (orders, phases, restarts, assumptions, levels).
/// The [`ParallelSolver`]'s own limits apply to the whole run; the built solvers'
/// limits are ignored. With one thread it is exactly the built solver's search.
///
/// ```
/// use alldiff::{Model, Outcome, ParallelSolver, Restarts, Solver};
/// // 8 queens: rows and both diagonals all different.
/// let mut model = Model::new();
/// let q = model.int_vars(8, 1, 8)?;
/// for sign in [0, 1, -1] {
///     model.all_different(q.iter().enumerate().map(|(i, &x)| x + sign * i as i32))?;
/// }
/// let mut parallel = ParallelSolver::new(2, model.clone());
/// assert_eq!(parallel.count(None).solutions, 92);
/// assert!(parallel.statistics().nodes > 0);
///
/// // A search set up otherwise: a closure makes each thread's solver.
/// let mut parallel = ParallelSolver::new(2, || {
///     let mut solver = Solver::new(model.clone());
///     solver.set_restarts(Some(Restarts::luby(10)));
///     solver
/// });
/// assert!(matches!(parallel.solve(), Outcome::Solved(_)));
/// # Ok::<(), alldiff::ModelError>(())
/// ```
pub struct ParallelSolver<S> {
    source: S,
    threads: usize,
    subproblems_per_thread: usize,
    limits: Limits,
    stats: Statistics,
}

/// What makes each thread's solver of a [`ParallelSolver`]: a [`Model`] (a solver
/// with the default search on a clone of it) or a closure `Fn() -> Solver`.
pub trait SolverSource {
    /// A new solver, on the same model set up the same way as every other it makes.
    fn solver(&self) -> Solver;
}

impl SolverSource for Model {
    fn solver(&self) -> Solver {
        Solver::new(self.clone())
    }
}

impl<F: Fn() -> Solver> SolverSource for F {
    fn solver(&self) -> Solver {
        self()
    }
}

impl<S> std::fmt::Debug for ParallelSolver<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParallelSolver")
            .field("threads", &self.threads)
            .field("subproblems_per_thread", &self.subproblems_per_thread)
            .field("limits", &self.limits)
            .field("statistics", &self.stats)
            .finish()
    }
}

impl<S: SolverSource> ParallelSolver<S> {
    /// Searches with `threads` threads (0: as many as the machine runs at once), each
    /// with a solver `source` makes; at most [`ParallelSolver::max_threads`], which a
    /// larger count is cut down to ([`ParallelSolver::threads`] tells).
    pub fn new(threads: usize, source: S) -> ParallelSolver<S> {
        let threads = match threads {
            0 => cores(),
            n => n.min(Self::max_threads()),
        };
        ParallelSolver {
            source,
            threads,
            subproblems_per_thread: SUBPROBLEMS_PER_THREAD,
            limits: Limits::default(),
            stats: Statistics::default(),
        }
    }

    /// The number of threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The most threads a parallel search starts: 4 for each core the machine runs
    /// at once. Past that, threads only cost memory and start-up time (each holds a
    /// solver of its own), and a huge count would try to start them all.
    pub fn max_threads() -> usize {
        cores().saturating_mul(4)
    }

    /// Splits the search into about `count` subproblems per thread (at least 1; 30
    /// by default). More balance uneven subtrees better; each costs a propagation
    /// from the root.
    pub fn set_subproblems_per_thread(&mut self, count: usize) {
        self.subproblems_per_thread = count.max(1);
    }

    /// Sets the limits of each following search, over all threads: the time from
    /// the start of the run, the nodes and failures summed over the threads and the
    /// splitting (checked every few nodes per thread, so a run may overshoot a node
    /// or failure limit by a few dozen nodes per thread; the splitting itself, a few
    /// nodes per subproblem, always runs to its end), and the cancellation flag.
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The statistics of the latest search: nodes, failures, propagations,
    /// solutions and restarts summed over the threads (splitting included), the peak
    /// depth the deepest of them (counting a subproblem's decisions), the solve time
    /// the run's wall time. After [`solve`](Self::solve) the solutions are the one it
    /// returns (other threads may have found one before they stopped).
    pub fn statistics(&self) -> &Statistics {
        &self.stats
    }

    /// Counts the solutions, stopping at `limit` if given: the same count as
    /// [`Solver::count`] on one built solver.
    ///
    /// # Panics
    ///
    /// If a closure source makes models of different sizes, or panics itself.
    pub fn count(&mut self, limit: Option<u64>) -> Count {
        if self.threads == 1 || limit == Some(0) {
            let mut solver = self.single();
            let count = solver.count(limit);
            self.stats = solver.statistics().clone();
            return count;
        }
        let found = AtomicU64::new(0);
        let stopped = self.run(Goal::All, |worker, shared| {
            worker.count(shared, limit, &found)
        });
        let solutions = found.into_inner();
        let status = match (limit, stopped) {
            (Some(limit), _) if solutions >= limit => CountStatus::LimitReached,
            (_, Some(reason)) => CountStatus::Stopped(reason),
            (_, None) => CountStatus::Complete,
        };
        Count {
            solutions: limit.map_or(solutions, |limit| solutions.min(limit)),
            status,
        }
    }

    /// Finds a solution: the first any thread finds, after which the others stop.
    /// Satisfiable exactly when [`Solver::solve`] on one built solver finds one.
    ///
    /// # Panics
    ///
    /// If a closure source makes models of different sizes, or panics itself.
    pub fn solve(&mut self) -> Outcome {
        if self.threads == 1 {
            let mut solver = self.single();
            let outcome = solver.solve();
            self.stats = solver.statistics().clone();
            return outcome;
        }
        let first = Mutex::new(None);
        let stopped = self.run(Goal::First, |worker, shared| worker.solve(shared, &first));
        match (
            first.into_inner().unwrap_or_else(PoisonError::into_inner),
            stopped,
        ) {
            (Some(solution), _) => {
                // Other threads may have found one too before they saw the stop: the
                // run reports the one it returns, as one thread would.
                self.stats.solutions = 1;
                Outcome::Solved(solution)
            }
            (None, Some(reason)) => Outcome::Stopped(reason),
            (None, None) => Outcome::Unsatisfiable,
        }
    }

    /// Branch and bound on every thread with one bound: the best objective found by
    /// any thread, which each reads at every node. Proves the same optimum as
    /// [`Solver::optimize`] on one built solver (the optimal solution may differ
    /// where several are optimal). `objective`'s view may be one of any model the
    /// source makes: it names a variable by its index.
    ///
    /// ```
    /// use alldiff::{Model, Objective, OptimizeOutcome, ParallelSolver, Relation};
    /// let mut model = Model::new();
    /// let x = model.int_vars(4, 0, 9)?;
    /// model.all_different(x.iter().copied())?;
    /// // x0 + x1 >= x2 + x3 + 5
    /// model.linear([(1, x[0]), (1, x[1]), (-1, x[2]), (-1, x[3])], Relation::GreaterEq, 5)?;
    /// let mut parallel = ParallelSolver::new(2, model);
    /// let outcome = parallel.optimize(Objective::Minimize(x[0].into()))?;
    /// let OptimizeOutcome::Optimal(best) = outcome else { panic!("satisfiable") };
    /// assert_eq!(best.objective, 0); // x0 = 0, x1 = 9, x2 = 1, x3 = 2
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`ModelError::ForeignVariable`] if the view's index is not a variable of the
    /// built models, [`ModelError::OffsetOverflow`] if its offset overflows.
    ///
    /// # Panics
    ///
    /// If a closure source makes models of different sizes, or panics itself.
    pub fn optimize(&mut self, objective: Objective) -> Result<OptimizeOutcome, ModelError> {
        let mut solver = self.single();
        let objective = translate(objective, solver.model())?;
        if self.threads == 1 {
            let outcome = solver.optimize(objective)?.finish();
            self.stats = solver.statistics().clone();
            return Ok(outcome);
        }
        let shared_bound = Arc::new(SharedBound::new(objective));
        let best = Mutex::new(None);
        let stopped = self.run_with(solver, Goal::Optimize(objective), |worker, shared| {
            worker.optimize(shared, &shared_bound, &best)
        });
        let best = best.into_inner().unwrap_or_else(PoisonError::into_inner);
        self.stats.objective = best.as_ref().map(|b: &Improvement| b.objective);
        Ok(match (best, stopped) {
            (best, Some(reason)) => OptimizeOutcome::Stopped { best, reason },
            (Some(best), None) => OptimizeOutcome::Optimal(best),
            (None, None) => OptimizeOutcome::Unsatisfiable,
        })
    }

    /// [`ParallelSolver::optimize`], the smaller the better.
    ///
    /// # Errors
    ///
    /// As [`ParallelSolver::optimize`].
    pub fn minimize(&mut self, objective: impl Into<View>) -> Result<OptimizeOutcome, ModelError> {
        self.optimize(Objective::Minimize(objective.into()))
    }

    /// [`ParallelSolver::optimize`], the larger the better.
    ///
    /// # Errors
    ///
    /// As [`ParallelSolver::optimize`].
    pub fn maximize(&mut self, objective: impl Into<View>) -> Result<OptimizeOutcome, ModelError> {
        self.optimize(Objective::Maximize(objective.into()))
    }

    /// A built solver with the run's limits.
    fn single(&self) -> Solver {
        let mut solver = self.source.solver();
        solver.set_limits(self.limits.clone());
        solver
    }

    /// [`ParallelSolver::run_with`] a newly built solver.
    fn run(
        &mut self,
        goal: Goal,
        work: impl Fn(&mut Worker, &Shared) -> Statistics + Sync,
    ) -> Option<StopReason> {
        let solver = self.single();
        self.run_with(solver, goal, work)
    }

    /// Splits the search of `solver` for `goal` into subproblems, then runs `work`
    /// on every thread (the first with `solver`, the others with solvers of their
    /// own) until none is left or the run stops; the statistics summed, and the
    /// limit that stopped the run, if one did.
    fn run_with(
        &mut self,
        mut solver: Solver,
        goal: Goal,
        work: impl Fn(&mut Worker, &Shared) -> Statistics + Sync,
    ) -> Option<StopReason> {
        let started = Instant::now();
        let base = solver.assumptions.len();
        let (subproblems, split_stats) = split(
            &mut solver,
            goal,
            self.threads * self.subproblems_per_thread,
        );
        let shared = Shared::new(subproblems, &self.limits, started, &split_stats);
        let shape = (
            solver.model().var_count(),
            solver.model().constraint_count(),
        );
        // Each thread's solver is made here and moved to it, with its own set-up's
        // assumption count (the first's was taken before the splitting): a model is
        // `Send`, not `Sync` (nor need a user's propagators be).
        let others: Vec<(Solver, usize)> = (1..self.threads)
            .map(|_| {
                let solver = self.source.solver();
                let model = solver.model();
                assert_eq!(
                    (model.var_count(), model.constraint_count()),
                    shape,
                    "ParallelSolver: the source made models of different sizes"
                );
                let base = solver.assumptions.len();
                (solver, base)
            })
            .collect();
        let work = &work;
        let shared_ref = &shared;
        let stats = std::thread::scope(|scope| {
            let handles: Vec<_> = std::iter::once((solver, base))
                .chain(others)
                .map(|(solver, base)| {
                    scope.spawn(move || work(&mut Worker::new(solver, base, goal), shared_ref))
                })
                .collect();
            let mut total = split_stats;
            for handle in handles {
                match handle.join() {
                    Ok(stats) => add(&mut total, &stats, 0),
                    Err(panic) => std::panic::resume_unwind(panic),
                }
            }
            total
        });
        self.stats = stats;
        self.stats.solve_time = started.elapsed();
        shared.reason()
    }
}

/// `objective`, on the variable of `model` with the same index.
fn translate(objective: Objective, model: &Model) -> Result<Objective, ModelError> {
    let view = objective.view();
    let index = view.var.index();
    let var = (index < model.var_count())
        .then(|| model.vars.var_at(view.var.raw()))
        .ok_or(ModelError::ForeignVariable { index })?;
    let view = View { var, ..view };
    model.check_view(view)?;
    Ok(match objective {
        Objective::Minimize(_) => Objective::Minimize(view),
        Objective::Maximize(_) => Objective::Maximize(view),
    })
}

/// Adds `stats` (of a search `depth` decisions below the root) to `total`.
fn add(total: &mut Statistics, stats: &Statistics, depth: u32) {
    total.add_work(stats, depth);
    total.solutions += stats.solutions;
}

/// The number of threads the machine runs at once, or 1 if that cannot be known.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, NonZeroUsize::get)
}

/// What the threads share: the subproblems, the next one to take, the stop flag and
/// why the run stopped, the nodes and failures so far against the limits.
struct Shared<'a> {
    subproblems: Vec<Subproblem>,
    next: AtomicUsize,
    /// Set to stop every thread: every worker's search has it as its cancellation flag.
    stop: Arc<AtomicBool>,
    /// The limit that stopped the run (the first, if several did).
    reason: Mutex<Option<StopReason>>,
    limits: &'a Limits,
    started: Instant,
    /// Whether the workers count nodes and failures for the limits.
    counted: bool,
    nodes: AtomicU64,
    failures: AtomicU64,
}

impl<'a> Shared<'a> {
    /// The run's shared state, the splitting's nodes and failures counted already.
    fn new(
        subproblems: Vec<Subproblem>,
        limits: &'a Limits,
        started: Instant,
        split: &Statistics,
    ) -> Shared<'a> {
        Shared {
            subproblems,
            next: AtomicUsize::new(0),
            stop: Arc::new(AtomicBool::new(false)),
            reason: Mutex::new(None),
            limits,
            started,
            counted: limits.nodes.is_some() || limits.failures.is_some() || limits.cancel.is_some(),
            nodes: AtomicU64::new(split.nodes),
            failures: AtomicU64::new(split.failures),
        }
    }

    /// Stops every thread: because of `reason`, or because the run is done (`None`).
    fn halt(&self, reason: Option<StopReason>) {
        if let Some(reason) = reason {
            let mut first = self.reason.lock().unwrap_or_else(PoisonError::into_inner);
            first.get_or_insert(reason);
        }
        self.stop.store(true, Ordering::Relaxed);
    }

    fn reason(&self) -> Option<StopReason> {
        *self.reason.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The next subproblem, unless none is left or the run stops (checking the
    /// limits first), with the limits its search runs under: the time left, and
    /// the stop flag.
    fn take(&self) -> Option<(&Subproblem, Limits)> {
        if let Some(reason) = self.limits.exceeded(
            self.nodes.load(Ordering::Relaxed),
            self.failures.load(Ordering::Relaxed),
            Some(self.started),
        ) {
            self.halt(Some(reason));
        }
        if self.stopped() {
            return None;
        }
        let subproblem = self
            .subproblems
            .get(self.next.fetch_add(1, Ordering::Relaxed))?;
        let limits = Limits {
            time: (self.limits.time).map(|limit| limit.saturating_sub(self.started.elapsed())),
            cancel: Some(Arc::clone(&self.stop)),
            ..Limits::default()
        };
        Some((subproblem, limits))
    }
}

/// A thread's solver, with the number of assumptions its own set-up made (each
/// subproblem's follow them).
struct Worker {
    solver: Solver,
    base: usize,
    goal: Goal,
    stats: Statistics,
}

impl Worker {
    fn new(solver: Solver, base: usize, goal: Goal) -> Worker {
        Worker {
            solver,
            base,
            goal,
            stats: Statistics::default(),
        }
    }

    /// Takes subproblems and calls `each` at each solution of their searches, until
    /// none is left, the run stops or `each` says to stop (`false`); returns the
    /// statistics of all of them. `extra` is an assumption to add to each subproblem
    /// as it starts (the bound, when optimising).
    fn search(
        &mut self,
        shared: &Shared,
        extra: impl Fn() -> Option<Option<Assumption>>,
        mut each: impl FnMut(&Solver) -> bool,
    ) -> Statistics {
        let mut budget = Budget {
            shared,
            nodes: 0,
            failures: 0,
        };
        'subproblems: while let Some((subproblem, limits)) = shared.take() {
            let solver = &mut self.solver;
            solver.assumptions.truncate(self.base);
            solver.assumptions.extend_from_slice(&subproblem.decisions);
            match extra() {
                Some(Some(bound)) => solver.assumptions.push(bound),
                Some(None) => {}
                // No value can beat the bound: nothing to search.
                None => continue,
            }
            solver.set_limits(limits);
            solver.fresh(self.goal);
            let step = loop {
                match solver.step(&mut budget) {
                    Step::Solution if each(solver) => {}
                    step => break step,
                }
            };
            budget.flush();
            add(
                &mut self.stats,
                &solver.stats,
                subproblem.decisions.len() as u32,
            );
            match step {
                Step::Exhausted => {}
                // `each` stopped, or the stop flag did: the run's reason is set.
                Step::Solution | Step::Stopped(StopReason::Cancelled) => break 'subproblems,
                Step::Stopped(reason) => {
                    shared.halt(Some(reason));
                    break 'subproblems;
                }
            }
        }
        std::mem::take(&mut self.stats)
    }

    /// Counts solutions into `found`; stops the run once it reaches `limit`.
    fn count(&mut self, shared: &Shared, limit: Option<u64>, found: &AtomicU64) -> Statistics {
        let mut local = 0;
        let stats = self.search(
            shared,
            || Some(None),
            |_| match limit {
                None => {
                    local += 1;
                    true
                }
                Some(limit) => {
                    let reached = found.fetch_add(1, Ordering::Relaxed) + 1 >= limit;
                    if reached {
                        shared.halt(None);
                    }
                    !reached
                }
            },
        );
        found.fetch_add(local, Ordering::Relaxed);
        stats
    }

    /// Finds a solution into `first`, unless another thread did first; then stops
    /// the run.
    fn solve(&mut self, shared: &Shared, first: &Mutex<Option<Solution>>) -> Statistics {
        self.search(
            shared,
            || Some(None),
            |solver| {
                let mut first = first.lock().unwrap_or_else(PoisonError::into_inner);
                first.get_or_insert_with(|| solver.current_solution());
                shared.halt(None);
                false
            },
        )
    }

    /// Branch and bound, each subproblem starting from the best objective so far,
    /// every improvement published to `bound` and, if still the best, to `best`.
    fn optimize(
        &mut self,
        shared: &Shared,
        bound: &Arc<SharedBound>,
        best: &Mutex<Option<Improvement>>,
    ) -> Statistics {
        self.solver.shared_bound = Some(Arc::clone(bound));
        let stats = self.search(
            shared,
            || bound.assumption(),
            |solver| {
                let solution = solver.current_solution();
                let objective = bound.objective.value(&solution);
                bound.offer(solver.store.min(bound.objective.view().var.raw()));
                let mut best = best.lock().unwrap_or_else(PoisonError::into_inner);
                let better = best.as_ref().is_none_or(|b| match bound.objective {
                    Objective::Minimize(_) => objective < b.objective,
                    Objective::Maximize(_) => objective > b.objective,
                });
                if better {
                    *best = Some(Improvement {
                        objective,
                        solution,
                    });
                }
                true
            },
        );
        self.solver.shared_bound = None;
        stats
    }
}

/// Counts a worker's nodes and failures, adding them to the run's every few nodes
/// and stopping the run at its node or failure limit or its cancellation.
struct Budget<'a, 'b> {
    shared: &'a Shared<'b>,
    nodes: u64,
    failures: u64,
}

impl Budget<'_, '_> {
    fn flush(&mut self) {
        if !self.shared.counted {
            return;
        }
        let shared = self.shared;
        let nodes = shared.nodes.fetch_add(self.nodes, Ordering::Relaxed) + self.nodes;
        let failures = shared.failures.fetch_add(self.failures, Ordering::Relaxed) + self.failures;
        self.nodes = 0;
        self.failures = 0;
        // The time limit is each search's own (the time left when it started).
        let limits = Limits {
            time: None,
            ..shared.limits.clone()
        };
        if let Some(reason) = limits.exceeded(nodes, failures, Some(shared.started)) {
            shared.halt(Some(reason));
        }
    }
}

impl SearchObserver for Budget<'_, '_> {
    #[inline]
    fn on_decision(&mut self, _decision: &super::Decision) {
        self.nodes += 1;
        if self.nodes >= FLUSH_EVERY {
            self.flush();
        }
    }

    #[inline]
    fn on_failure(&mut self, _node: u64, _constraint: Option<ConstraintId>) {
        self.failures += 1;
    }
}

/// The best objective found by any thread of a parallel optimisation, as the
/// objective variable's value, negated when the variable is maximised (so smaller is better);
/// `i64::MAX` before the first solution.
#[derive(Debug)]
pub(super) struct SharedBound {
    objective: Objective,
    best: AtomicI64,
}

impl SharedBound {
    fn new(objective: Objective) -> SharedBound {
        SharedBound {
            objective,
            best: AtomicI64::new(i64::MAX),
        }
    }

    fn sign(&self) -> i64 {
        match self.objective.minimizes_var() {
            true => 1,
            false => -1,
        }
    }

    /// The best value of the objective's variable so far.
    fn best(&self) -> Option<i32> {
        match self.best.load(Ordering::Relaxed) {
            i64::MAX => None,
            // The stored value is an `i32` or its negation.
            best => Some((best * self.sign()) as i32),
        }
    }

    /// A solution where the objective's variable is `value`.
    fn offer(&self, value: i32) {
        self.best
            .fetch_min(i64::from(value) * self.sign(), Ordering::Relaxed);
    }

    /// The bound at a node: the best of any thread, which includes the worker's own
    /// (it offers each of its solutions before searching on).
    #[inline]
    pub(super) fn tighten(&self, own: Option<Bound>) -> Option<Bound> {
        self.best()
            .map(|best| Bound::new(self.objective, best))
            .or(own)
    }

    /// The assumption a subproblem starts from: `Some(None)` before any solution,
    /// `None` if no value can beat the best.
    fn assumption(&self) -> Option<Option<Assumption>> {
        let Some(best) = self.best() else {
            return Some(None);
        };
        let var = self.objective.view().var.raw();
        match self.objective.minimizes_var() {
            true => best
                .checked_sub(1)
                .map(|v| Some(Assumption::AtMost(var, v))),
            false => best
                .checked_add(1)
                .map(|v| Some(Assumption::AtLeast(var, v))),
        }
    }
}
