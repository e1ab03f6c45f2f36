//! A solution, and the iterator over the solutions of one search.

use super::{SearchObserver, Solver, Statistics, Step, StopReason};
use crate::ids::VarId;

/// A value for every variable of a model.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Solution {
    pub(super) values: Vec<i32>,
}

impl Solution {
    /// The value of `var`. Variables of another model give a meaningless answer or
    /// `None` if out of range; use [`Solution::value`] with the model's own variables.
    pub fn get(&self, var: VarId) -> Option<i32> {
        self.values.get(var.index()).copied()
    }

    /// The value of `var`.
    ///
    /// # Panics
    /// If `var` does not belong to the model that was solved.
    pub fn value(&self, var: VarId) -> i32 {
        self.values[var.index()]
    }

    /// All values, indexed by [`VarId::index`].
    pub fn values(&self) -> &[i32] {
        &self.values
    }
}

impl std::ops::Index<VarId> for Solution {
    type Output = i32;
    fn index(&self, var: VarId) -> &i32 {
        &self.values[var.index()]
    }
}

/// The solutions of one search, in search order. See [`Solver::solutions`].
///
/// Each item is `Ok(solution)`; a search that a limit stops ends with one
/// `Err(reason)` item, so that a stopped enumeration cannot pass for a complete one.
/// `collect::<Result<Vec<_>, _>>()` gathers every solution or says why it could not.
/// After the end (exhausted or stopped) it yields nothing more.
#[derive(Debug)]
pub struct Solutions<'a> {
    pub(super) solver: &'a mut Solver,
    pub(super) ending: Ending,
}

/// Where an iterator over a search's solutions stands: once the search is
/// exhausted, or its stop yielded as one `Err(reason)` item, the iterator yields
/// nothing more (a stopped solver would stop again at once, forever).
#[derive(Debug, Default)]
pub(super) struct Ending {
    ended: bool,
}

impl Ending {
    /// The next item of `solver`'s search: `Ok(item(solver))` at a solution.
    pub(super) fn next<T>(
        &mut self,
        solver: &mut Solver,
        observer: &mut impl SearchObserver,
        item: impl FnOnce(&Solver) -> T,
    ) -> Option<Result<T, StopReason>> {
        if self.ended {
            return None;
        }
        match solver.step(observer) {
            Step::Solution => Some(Ok(item(solver))),
            Step::Exhausted => {
                self.ended = true;
                None
            }
            Step::Stopped(reason) => {
                self.ended = true;
                Some(Err(reason))
            }
        }
    }
}

impl Solutions<'_> {
    /// The statistics so far.
    pub fn statistics(&self) -> &Statistics {
        self.solver.statistics()
    }

    /// The next solution, as [`Iterator::next`], reporting the search to `observer`
    /// (for example a trace recorder).
    pub fn next_observed(
        &mut self,
        observer: &mut impl SearchObserver,
    ) -> Option<Result<Solution, StopReason>> {
        (self.ending).next(self.solver, observer, Solver::current_solution)
    }
}

impl Iterator for Solutions<'_> {
    type Item = Result<Solution, StopReason>;

    fn next(&mut self) -> Option<Result<Solution, StopReason>> {
        self.next_observed(&mut ())
    }
}

impl std::iter::FusedIterator for Solutions<'_> {}
