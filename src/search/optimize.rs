//! Branch and bound: the solutions of a search, each better than the one before.

use super::solution::Ending;
use super::{SearchObserver, Solution, Solver, Statistics, StopReason};
use crate::ids::View;
use crate::store::{Event, Store, Wipeout};

/// What to optimise: the value of a view (`x + c`). To optimise a linear expression,
/// define a variable equal to it with [`crate::Model::linear`] and optimise that.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Objective {
    /// The smaller the better.
    Minimize(View),
    /// The larger the better.
    Maximize(View),
}

impl Objective {
    /// The view optimised.
    pub fn view(self) -> View {
        match self {
            Objective::Minimize(view) | Objective::Maximize(view) => view,
        }
    }

    /// The objective's value in `solution` (a solution of the model optimised).
    ///
    /// # Panics
    /// If the view's variable does not belong to that model.
    pub fn value(self, solution: &Solution) -> i64 {
        let view = self.view();
        view.value_at(solution.value(view.var))
    }

    /// Whether the objective's variable is minimised: the objective minimised through a
    /// positive scale, or maximised through a negative one.
    pub(super) fn minimizes_var(self) -> bool {
        matches!(self, Objective::Minimize(_)) == (self.view().scale > 0)
    }
}

/// A solution better than every one found before it, with its objective value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Improvement {
    /// The objective's value in [`Improvement::solution`].
    pub objective: i64,
    /// The solution.
    pub solution: Solution,
}

/// How an optimisation ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptimizeOutcome {
    /// The best solution, proven optimal: none better exists.
    Optimal(Improvement),
    /// Proven: no solution at all.
    Unsatisfiable,
    /// A limit stopped the search before the proof.
    Stopped {
        /// The best solution found, if any.
        best: Option<Improvement>,
        /// The limit.
        reason: StopReason,
    },
}

/// The bound in force once a solution was found: the objective's variable must do
/// better than `best`, its value in that solution. Applied at every node, after the
/// decision, so it holds in the rest of the running search without a restart; the
/// bound itself lives outside the trail, so backtracking keeps it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Bound {
    var: u32,
    minimize: bool,
    best: i32,
}

impl Bound {
    /// The bound after a solution where the objective's variable is `best`.
    pub(super) fn new(objective: Objective, best: i32) -> Bound {
        Bound {
            var: objective.view().var.raw(),
            minimize: objective.minimizes_var(),
            best,
        }
    }

    /// The variable it restricts.
    pub(super) fn var(self) -> u32 {
        self.var
    }

    /// Restricts the domain to the values better than the best.
    #[inline]
    pub(super) fn apply(self, store: &mut Store) -> Result<Event, Wipeout> {
        match self.minimize {
            true => store.set_max(self.var, self.best.checked_sub(1).ok_or(Wipeout)?),
            false => store.set_min(self.var, self.best.checked_add(1).ok_or(Wipeout)?),
        }
    }
}

/// The improving solutions of a branch-and-bound search, as they are found; made by
/// [`Solver::minimize`], [`Solver::maximize`] and [`Solver::optimize`]. Each item is
/// `Ok(improvement)`, strictly better than the one before; a search that a limit
/// stops ends with one `Err(reason)` item, so that when the items end without one,
/// the last improvement is optimal. [`Optimization::finish`] runs to the end and
/// says the same as an [`OptimizeOutcome`].
#[derive(Debug)]
pub struct Optimization<'a> {
    pub(super) solver: &'a mut Solver,
    pub(super) objective: Objective,
    pub(super) best: Option<Improvement>,
    pub(super) ending: Ending,
}

impl Optimization<'_> {
    /// The objective.
    pub fn objective(&self) -> Objective {
        self.objective
    }

    /// The best solution so far.
    pub fn best(&self) -> Option<&Improvement> {
        self.best.as_ref()
    }

    /// The statistics so far, over the whole optimisation (restarts included).
    pub fn statistics(&self) -> &Statistics {
        self.solver.statistics()
    }

    /// The next improving solution, as [`Iterator::next`], reporting the search to
    /// `observer` (for example a trace recorder).
    pub fn next_observed(
        &mut self,
        observer: &mut impl SearchObserver,
    ) -> Option<Result<Improvement, StopReason>> {
        let objective = self.objective;
        let next = self.ending.next(self.solver, observer, |solver| {
            let solution = solver.current_solution();
            Improvement {
                objective: objective.value(&solution),
                solution,
            }
        });
        if let Some(Ok(improvement)) = &next {
            self.best = Some(improvement.clone());
        }
        next
    }

    /// Searches on to the end and tells how it ended: the optimum proven, no solution
    /// at all, or stopped by a limit with the best so far.
    pub fn finish(mut self) -> OptimizeOutcome {
        while self.next().is_some() {}
        match (self.solver.state.stop_reason(), self.best) {
            (Some(reason), best) => OptimizeOutcome::Stopped { best, reason },
            (None, Some(best)) => OptimizeOutcome::Optimal(best),
            (None, None) => OptimizeOutcome::Unsatisfiable,
        }
    }
}

impl Iterator for Optimization<'_> {
    type Item = Result<Improvement, StopReason>;

    fn next(&mut self) -> Option<Result<Improvement, StopReason>> {
        self.next_observed(&mut ())
    }
}

impl std::iter::FusedIterator for Optimization<'_> {}
