//! The splitting of [`ParallelSolver`](super::ParallelSolver), public: for a caller
//! that spreads the subproblems over other processes or machines (the Python
//! binding's Dask tasks), each of which rebuilds the model and searches one.

use super::split::split;
use crate::error::ModelError;
use crate::ids::VarId;
use crate::search::assumptions::Assumption;
use crate::search::{Branch, Goal, Solver};

/// One decision of a subproblem: `var branch value`, such as `x != 3` or `y > 5`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SplitDecision {
    /// The variable.
    pub var: VarId,
    /// `=`, `!=`, `<=` or `>`.
    pub branch: Branch,
    /// The value.
    pub value: i32,
}

impl Solver {
    /// Splits the search into about `target` subproblems (fewer if the tree is
    /// smaller), each the list of decisions that leads to it, in search order. They
    /// partition the solutions: searching each after [`Solver::assume_decisions`] and
    /// adding the counts gives [`Solver::count`]. This is the split
    /// [`ParallelSolver`](crate::ParallelSolver) makes, branching with the solver's own
    /// choices; the solver's own assumptions stay below each subproblem (and are not
    /// part of its list).
    ///
    /// ```
    /// use alldiff::{Model, Solver};
    /// let mut model = Model::new();
    /// let q = model.int_vars(6, 1, 6)?;
    /// for sign in [0, 1, -1] {
    ///     model.all_different(q.iter().enumerate().map(|(i, &x)| x + sign * i as i32))?;
    /// }
    /// let mut solver = Solver::new(model.clone());
    /// let subproblems = solver.subproblems(8);
    /// let mut total = 0;
    /// for decisions in &subproblems {
    ///     let mut worker = Solver::new(model.clone());
    ///     worker.assume_decisions(decisions)?;
    ///     total += worker.count(None).solutions;
    /// }
    /// assert_eq!(total, 4);
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    pub fn subproblems(&mut self, target: usize) -> Vec<Vec<SplitDecision>> {
        let (subproblems, _) = split(self, Goal::All, target);
        self.fresh(Goal::All);
        let decision = |assumption: Assumption| {
            let (var, branch, value) = match assumption {
                Assumption::Equal(var, value) => (var, Branch::Equal, value),
                Assumption::NotEqual(var, value) => (var, Branch::NotEqual, value),
                Assumption::AtMost(var, value) => (var, Branch::LessEqual, value),
                // `AtLeast(v)` is `> v - 1`; the split only makes it from `> v`.
                Assumption::AtLeast(var, value) => (var, Branch::Greater, value - 1),
            };
            SplitDecision {
                var: self.model.vars.var_at(var),
                branch,
                value,
            }
        };
        (subproblems.into_iter())
            .map(|subproblem| subproblem.decisions.into_iter().map(decision).collect())
            .collect()
    }

    /// Adds each decision as an assumption of every following search, until
    /// [`Solver::reset`]: `=` and `!=` as [`Solver::assume`] and
    /// [`Solver::assume_not`], `<=` and `>` as bounds. Used to search one subproblem
    /// of [`Solver::subproblems`].
    ///
    /// # Errors
    ///
    /// [`ModelError::ForeignVariable`] for a variable of another model; the
    /// decisions before it stay assumed.
    pub fn assume_decisions(&mut self, decisions: &[SplitDecision]) -> Result<(), ModelError> {
        for decision in decisions {
            self.model.check_var(decision.var)?;
            let (var, value) = (decision.var.raw(), decision.value);
            let assumption = match decision.branch {
                Branch::Equal => Assumption::Equal(var, value),
                Branch::NotEqual => Assumption::NotEqual(var, value),
                Branch::LessEqual => Assumption::AtMost(var, value),
                Branch::Greater => match value.checked_add(1) {
                    Some(value) => Assumption::AtLeast(var, value),
                    // Nothing is greater than `i32::MAX`: at least and not it.
                    None => {
                        self.assumptions.push(Assumption::AtLeast(var, value));
                        Assumption::NotEqual(var, value)
                    }
                },
            };
            self.assumptions.push(assumption);
        }
        self.fresh(Goal::All);
        Ok(())
    }
}
