//! Running searches: for one solution, an optimum, a count, every solution in turn
//! or one step at a time, and how each ended.

use super::solution::Ending;
use super::{
    Goal, Objective, Optimization, SearchObserver, Solution, Solutions, Solver, StopReason,
};
use crate::error::ModelError;
use crate::ids::{VarId, View};

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

impl Solver {
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
    /// stopped the search, which ends the items with `Err(reason)`
    /// ([`Optimization::finish`] tells the same). The bound tightens in the
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
    ///     let improvement = improvement.expect("no limit is set");
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
            ending: Ending::default(),
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

    /// Iterates over the solutions of a new search: `Ok(solution)` for each, and a
    /// last `Err(reason)` if a limit stops the search before it ends.
    ///
    /// ```
    /// use alldiff::{Limits, Model, Solver, StopReason};
    /// let mut model = Model::new();
    /// let x = model.int_vars(3, 1, 3)?;
    /// model.all_different(x.iter().copied())?;
    /// let mut solver = Solver::new(model);
    /// let all: Result<Vec<_>, _> = solver.solutions().collect();
    /// assert_eq!(all.map(|all| all.len()), Ok(6));
    ///
    /// solver.set_limits(Limits::none().with_nodes(2));
    /// let last = solver.solutions().last();
    /// assert_eq!(last, Some(Err(StopReason::NodeLimit)));
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    pub fn solutions(&mut self) -> Solutions<'_> {
        self.fresh(Goal::All);
        Solutions {
            solver: self,
            ending: Ending::default(),
        }
    }

    /// The domains after propagating the assumptions at the root, without search;
    /// `None` if propagation alone proves there is no solution.
    pub fn root_domains(&mut self) -> Option<Vec<Vec<i32>>> {
        self.fresh(Goal::All);
        self.start_search(&mut (), None).then(|| {
            (0..self.store.var_count() as u32)
                .map(|v| self.store.values(v).collect())
                .collect()
        })
    }

    pub(super) fn next_outcome(&mut self, observer: &mut impl SearchObserver) -> Outcome {
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
    /// [`Solver::assume_not`]. A search a limit stopped goes on where it stopped if
    /// the limit was raised since ([`Solver::set_limits`]: the limits count the whole
    /// search, from its start), else stops again at once.
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

    /// The values of the model's first `n` variables (at most all of them), in the
    /// order they were made, in the solution [`Solver::advance`] reached (at other
    /// times, each one's smallest value left), as [`Solver::solution_value`] gives
    /// them: read straight from the domain words, without a look-up a variable, for a
    /// caller whose main variables are the model's first ones, such as the cells of a
    /// Sudoku.
    ///
    /// ```
    /// use alldiff::{Model, Solver, Step};
    /// let mut model = Model::new();
    /// let cells = model.int_vars(3, 1, 3)?;
    /// model.all_different(cells.iter().copied())?;
    /// let mut solver = Solver::new(model);
    /// assert_eq!(solver.advance(), Step::Solution);
    /// assert_eq!(solver.leading_solution_values(3).collect::<Vec<_>>(), [1, 2, 3]);
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    pub fn leading_solution_values(&self, n: usize) -> impl Iterator<Item = i32> + '_ {
        self.store.leading_mins(n)
    }

    /// A measure of the domains of the model's first `n` variables (at most all of
    /// them) that shrinks whenever one of them does: of two propagations of the same
    /// node, the one that prunes more leaves a smaller measure. Cheaper than their
    /// sizes; its value means nothing else.
    ///
    /// ```
    /// use alldiff::{Model, Solver};
    /// let mut model = Model::new();
    /// let x = model.int_var(1, 9)?;
    /// let mut solver = Solver::new(model);
    /// let before = solver.leading_measure(1);
    /// assert!(solver.push_level([(x, 5)])?);
    /// assert!(solver.leading_measure(1) < before);
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    pub fn leading_measure(&self, n: usize) -> u64 {
        self.store.leading_measure(n)
    }

    pub(super) fn current_solution(&self) -> Solution {
        Solution {
            values: (0..self.store.var_count() as u32)
                .map(|v| self.store.min(v))
                .collect(),
        }
    }
}
