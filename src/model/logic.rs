//! Booleans, logic and reification: the [`Model`] methods over 0/1 variables and
//! [`Literal`]s.
//!
//! A Boolean variable is a plain [`VarId`] over `{0, 1}`, not a type of its own: it then
//! goes wherever an integer variable goes with no conversion (a sum counts the true ones,
//! a [`Solution`](crate::Solution) reads it as 0 or 1, the search branches on it like any
//! other variable). Only its negation needs a type, [`Literal`] (`!b`); the logic
//! constraints take literals and check, when posted, that each literal's variable is 0/1.
//!
//! Counting true variables is a [`Model::linear`] over them. A negated literal counts as
//! `1 - b`: move the 1 to the right-hand side and give `b` the coefficient -1, so "at
//! least two of `a`, `b`, `¬c`" is `a + b + (1 - c) >= 2`, that is `a + b - c >= 1`:
//!
//! ```
//! use alldiff::{Model, Relation, Solver};
//! let mut model = Model::new();
//! let [a, b, c] = model.bool_var_array()?;
//! model.linear([(1, a), (1, b), (-1, c)], Relation::GreaterEq, 1)?;
//! // (a, b, c) = 010, 100, 110, 111: 001, 011 and 101 count one, 000 none.
//! assert_eq!(Solver::new(model).count(None).solutions, 4);
//! # Ok::<(), alldiff::ModelError>(())
//! ```

use std::any::Any;

use super::Model;
use crate::constraints::{Clause, Condition, Conjunction, IntoReifiable, Reified, ReifiedOr, Xor};
use crate::error::ModelError;
use crate::ids::{ConstraintId, Literal, VarId};

fn to_literals<L: Into<Literal>>(lits: impl IntoIterator<Item = L>) -> Vec<Literal> {
    lits.into_iter().map(Into::into).collect()
}

impl Model {
    /// A Boolean variable: an integer variable over `{0, 1}` (see [`Literal`] for its
    /// negation).
    pub fn bool_var(&mut self) -> Result<VarId, ModelError> {
        self.int_var(0, 1)
    }

    /// `count` Boolean variables. Where the count is a constant,
    /// [`Model::bool_var_array`] gives an array instead.
    pub fn bool_vars(&mut self, count: usize) -> Result<Vec<VarId>, ModelError> {
        self.int_vars(count, 0, 1)
    }

    /// `N` Boolean variables, as an array (see [`Model::int_var_array`]).
    pub fn bool_var_array<const N: usize>(&mut self) -> Result<[VarId; N], ModelError> {
        self.int_var_array(0, 1)
    }

    /// A clause: at least one of the literals is true. Propagated with two watched
    /// literals (see [`Clause`]).
    ///
    /// ```
    /// use alldiff::{Model, Solver};
    /// let mut model = Model::new();
    /// let [rain, umbrella, wet] = model.bool_var_array()?;
    /// model.or([!rain, umbrella.into(), wet.into()])?; // rain -> umbrella or wet
    /// model.implies(umbrella, !wet)?;
    /// model.and([rain])?;
    /// model.xor([umbrella, wet])?; // exactly one of the two
    /// assert_eq!(Solver::new(model).count(None).solutions, 2);
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    ///
    /// Errors (here and in every method over literals): [`ModelError::NoVariables`] for
    /// no literals, [`ModelError::ForeignVariable`] for a variable of another model, and
    /// [`ModelError::InvalidConstraint`] naming a literal's variable whose values are not
    /// within `{0, 1}`.
    pub fn or<L: Into<Literal>>(
        &mut self,
        literals: impl IntoIterator<Item = L>,
    ) -> Result<ConstraintId, ModelError> {
        self.post(Clause::new(to_literals(literals)))
    }

    /// Every literal is true.
    pub fn and<L: Into<Literal>>(
        &mut self,
        literals: impl IntoIterator<Item = L>,
    ) -> Result<ConstraintId, ModelError> {
        self.post(Conjunction::new(to_literals(literals)))
    }

    /// An odd number of the literals are true (`l₁ ⊕ … ⊕ lₙ`); "exactly one of two" is
    /// `xor([a, b])`. For an even number, negate one literal; `b <-> xor(lits)` is
    /// `xor(lits ∪ {¬b})`. Propagated when all literals but one are fixed (see [`Xor`]).
    pub fn xor<L: Into<Literal>>(
        &mut self,
        literals: impl IntoIterator<Item = L>,
    ) -> Result<ConstraintId, ModelError> {
        self.post(Xor::new(to_literals(literals)))
    }

    /// `a -> b`: the clause `¬a ∨ b`.
    pub fn implies(
        &mut self,
        a: impl Into<Literal>,
        b: impl Into<Literal>,
    ) -> Result<ConstraintId, ModelError> {
        self.post(Clause::new(vec![!a.into(), b.into()]))
    }

    /// `target <-> (l₁ ∨ … ∨ lₙ)` (see [`ReifiedOr`]).
    ///
    /// ```
    /// use alldiff::{Model, Solver};
    /// let mut model = Model::new();
    /// let [any, all, x, y] = model.bool_var_array()?;
    /// model.reify_or(any, [x, y])?;
    /// model.reify_and(all, [x, y])?;
    /// model.and([any.into(), !all])?; // one of x, y but not both
    /// assert_eq!(Solver::new(model).count(None).solutions, 2);
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    pub fn reify_or<L: Into<Literal>>(
        &mut self,
        target: impl Into<Literal>,
        literals: impl IntoIterator<Item = L>,
    ) -> Result<ConstraintId, ModelError> {
        self.post(ReifiedOr::new(target.into(), to_literals(literals)))
    }

    /// `target <-> (l₁ ∧ … ∧ lₙ)`, posted as `¬target <-> (¬l₁ ∨ … ∨ ¬lₙ)`.
    pub fn reify_and<L: Into<Literal>>(
        &mut self,
        target: impl Into<Literal>,
        literals: impl IntoIterator<Item = L>,
    ) -> Result<ConstraintId, ModelError> {
        let negated = to_literals(literals).into_iter().map(|lit| !lit);
        self.post(ReifiedOr::new(!target.into(), negated))
    }

    /// `b <-> constraint`: `b` is true exactly when the constraint holds (full
    /// reification; see [`Reified`]). The constraint is a [`Condition`],
    /// a [`Table`](crate::constraints::Table), or any other [`Reifiable`](crate::Reifiable)
    /// constraint, one of your own included.
    ///
    /// ```
    /// use alldiff::{Condition, Model, Relation, Solver};
    /// let mut model = Model::new();
    /// let xs = model.int_vars(3, 1, 3)?;
    /// model.all_different(xs.iter().copied())?;
    /// // b[i] <-> xs[i] == i + 1: how many fixed points has a permutation of 1..=3?
    /// let b = model.bool_vars(3)?;
    /// for (i, (&x, &b)) in xs.iter().zip(&b).enumerate() {
    ///     model.reify(b, Condition::compare(x, Relation::Equal, i as i32 + 1))?;
    /// }
    /// model.sum(b.iter().copied(), Relation::Equal, 1)?; // exactly one
    /// assert_eq!(Solver::new(model).count(None).solutions, 3);
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    ///
    /// Errors: as [`Model::or`] for the literal, [`ModelError::ForeignVariable`] and
    /// [`ModelError::OffsetOverflow`] for the constraint's views, and what the
    /// constraint reports when posted ([`Reifiable::post`](crate::Reifiable::post)): for
    /// a linear condition whose sums could overflow 64-bit integers,
    /// [`ModelError::InvalidConstraint`] (as [`Model::linear`]).
    pub fn reify<C: IntoReifiable + 'static>(
        &mut self,
        b: impl Into<Literal>,
        constraint: C,
    ) -> Result<ConstraintId, ModelError> {
        self.atomic(|m| {
            let constraint = m.unit_if_condition(constraint)?;
            m.post(Reified::full(b, constraint))
        })
    }

    /// `b -> constraint`: a true `b` enforces the constraint, a false one says nothing
    /// (half reification; a constraint that cannot hold makes `b` false). Takes what
    /// [`Model::reify`] takes; errors as [`Model::reify`].
    ///
    /// ```
    /// use alldiff::{Condition, Model, Relation, Solver};
    /// let mut model = Model::new();
    /// let weekend = model.bool_var()?;
    /// let day = model.int_var(1, 7)?;
    /// model.half_reify(weekend, Condition::in_set(day, [6, 7]))?;
    /// assert_eq!(Solver::new(model).count(None).solutions, 7 + 2);
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    pub fn half_reify<C: IntoReifiable + 'static>(
        &mut self,
        b: impl Into<Literal>,
        constraint: C,
    ) -> Result<ConstraintId, ModelError> {
        self.atomic(|m| {
            let constraint = m.unit_if_condition(constraint)?;
            m.post(Reified::half(b, constraint))
        })
    }

    /// A [`Condition`] over views as propagators take them (a scaled view becomes an
    /// auxiliary variable, [`Model::unit_condition`]); any other constraint as it is,
    /// since only the model's own description can be rewritten here.
    fn unit_if_condition<C: 'static>(&mut self, constraint: C) -> Result<C, ModelError> {
        let mut slot = Some(constraint);
        if let Some(condition) = (&mut slot as &mut dyn Any).downcast_mut::<Option<Condition>>()
            && let Some(inner) = condition.take()
        {
            *condition = Some(self.unit_condition(inner)?);
        }
        Ok(slot.expect("put back above"))
    }
}
