//! Scheduling constraints: tasks with fixed durations on shared resources.

use crate::constraints::{Cumulative, Disjunctive};
use crate::error::ModelError;
use crate::ids::{ConstraintId, View};
use crate::model::Model;

impl Model {
    /// The tasks starting at `starts` and lasting `durations` (fixed, one per start)
    /// do not overlap in time: a machine that runs one task at a time. Tasks of
    /// duration 0 are free. Propagated by pairwise precedences and an overload
    /// check (see [`Disjunctive`]).
    ///
    /// ```
    /// use alldiff::{Model, Solver};
    /// let mut model = Model::new();
    /// let a = model.int_var(0, 2)?; // lasts 3
    /// let b = model.int_var(0, 4)?; // lasts 5
    /// model.disjunctive([a, b], &[3, 5])?;
    /// // b first would end at 5 or later, past a's latest start: a goes first, so
    /// // b starts at 3 or later, and a by 4 - 3 = 1.
    /// let domains = Solver::new(model).root_domains().unwrap();
    /// assert_eq!(domains, vec![vec![0, 1], vec![3, 4]]);
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`ModelError::InvalidConstraint`] when the number of durations differs from
    /// the number of starts, for a negative duration, or when a start plus its
    /// duration may leave the `i32` range; [`ModelError::NoVariables`] for no tasks.
    pub fn disjunctive<V: Into<View>>(
        &mut self,
        starts: impl IntoIterator<Item = V>,
        durations: &[i32],
    ) -> Result<ConstraintId, ModelError> {
        self.atomic(|m| {
            let starts = m.units(starts)?;
            m.post(Disjunctive::new(starts, durations.to_vec()))
        })
    }

    /// The tasks starting at `starts`, lasting `durations` and each using `demands`
    /// of a resource (all fixed, one per start) never use more than `capacity` at
    /// once. Tasks of duration or demand 0 are free. Propagated by time-tabling on
    /// the tasks' compulsory parts (see [`Cumulative`]).
    ///
    /// ```
    /// use alldiff::{Model, Solver};
    /// let mut model = Model::new();
    /// // A resource of capacity 2. Task a (3 long, demand 2) starts at 1 or 2, so
    /// // it surely runs over [2, 4) and uses all of it there: b (2 long, demand 1)
    /// // cannot start before 4.
    /// let a = model.int_var(1, 2)?;
    /// let b = model.int_var(1, 6)?;
    /// model.cumulative([a, b], &[3, 2], &[2, 1], 2)?;
    /// let domains = Solver::new(model).root_domains().unwrap();
    /// assert_eq!(domains[1], vec![4, 5, 6]);
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`ModelError::InvalidConstraint`] when the numbers of durations or demands
    /// differ from the number of starts, for a negative duration, demand or
    /// capacity, or when a start plus its duration may leave the `i32` range;
    /// [`ModelError::NoVariables`] for no tasks.
    pub fn cumulative<V: Into<View>>(
        &mut self,
        starts: impl IntoIterator<Item = V>,
        durations: &[i32],
        demands: &[i32],
        capacity: i32,
    ) -> Result<ConstraintId, ModelError> {
        self.atomic(|m| {
            let starts = m.units(starts)?;
            m.post(Cumulative::new(
                starts,
                durations.to_vec(),
                demands.to_vec(),
                capacity,
            ))
        })
    }
}
