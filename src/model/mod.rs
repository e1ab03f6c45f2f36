//! The model: variables with finite domains, and the constraints posted on them.
//!
//! A [`Model`] only describes a problem; a [`Solver`](crate::Solver) takes it and
//! searches. Every mistake in a model is found here, when it is made, and reported
//! as a [`ModelError`] that names the variable or constraint at fault.

mod abs_difference;
mod arithmetic;
mod globals;
mod logic;
mod scaled;
mod scheduling;

use std::fmt;

use crate::constraints::{
    AllDifferent, AllDifferentSystem, SUM_OVERFLOW, Strength, sum_may_overflow,
};
use crate::constraints::{
    DifferenceIn, Element, Equal, Intersection, Linear, NotEqual, Relation, SmallLinear, Table,
};
use crate::error::ModelError;
use crate::ids::{ConstraintId, VarId, View};
use crate::propagator::{Propagator, Propagators};
use crate::variables::Variables;

/// A constraint problem under construction: variables, their domains, constraints.
///
/// ```
/// use alldiff::Model;
/// let mut model = Model::new();
/// let x = model.int_var(1, 3)?;
/// let y = model.int_var(1, 3)?;
/// model.all_different([x, y])?;
/// assert_eq!(model.var_count(), 2);
/// # Ok::<(), alldiff::ModelError>(())
/// ```
///
/// A clone is the same model, twice: the variables of one are the variables of
/// the other, and each can then grow on its own (as [`ParallelSolver`](crate::ParallelSolver)
/// gives each worker its own copy).
#[derive(Clone)]
pub struct Model {
    pub(crate) vars: Variables,
    pub(crate) propagators: Propagators,
    scaling: scaled::Scaling,
}

impl Default for Model {
    fn default() -> Model {
        Model::new()
    }
}

impl fmt::Debug for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Model")
            .field("variables", &self.var_count())
            .field("constraints", &self.propagators)
            .finish()
    }
}

impl Model {
    /// An empty model.
    pub fn new() -> Model {
        Model {
            vars: Variables::new(),
            propagators: Propagators::default(),
            scaling: scaled::Scaling::default(),
        }
    }

    /// A variable taking the values `min..=max`: any range of `i32`, held in a few
    /// words however wide (values removed from inside it cost a word per 64-value
    /// chunk they fall in).
    pub fn int_var(&mut self, min: i32, max: i32) -> Result<VarId, ModelError> {
        self.vars.add_range(min, max)
    }

    /// A variable taking exactly the given values (in any order, repeats ignored). Its
    /// memory goes by the number of values, however far apart they are.
    pub fn var_from_values(
        &mut self,
        values: impl IntoIterator<Item = i32>,
    ) -> Result<VarId, ModelError> {
        let mut values: Vec<i32> = values.into_iter().collect();
        values.sort_unstable();
        values.dedup();
        self.vars.add(&values)
    }

    /// `count` variables over `min..=max`. Where the count is a constant,
    /// [`Model::int_var_array`] gives an array instead.
    pub fn int_vars(&mut self, count: usize, min: i32, max: i32) -> Result<Vec<VarId>, ModelError> {
        (0..count).map(|_| self.int_var(min, max)).collect()
    }

    /// `N` variables over `min..=max`, as an array: for a count known when the
    /// program is written, which the array's type then carries (and a pattern can
    /// name each variable).
    ///
    /// ```
    /// use alldiff::{Model, VarId};
    /// let mut model = Model::new();
    /// let [x, y, z] = model.int_var_array(0, 9)?; // N = 3, from the pattern
    /// let digits: [VarId; 4] = model.int_var_array(0, 9)?;
    /// let row = model.int_var_array::<9>(1, 9)?;
    /// model.all_different(digits)?;
    /// model.all_different(row)?;
    /// assert_eq!((x.index(), z.index(), model.var_count()), (0, 2, 16));
    /// # let _ = y;
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    pub fn int_var_array<const N: usize>(
        &mut self,
        min: i32,
        max: i32,
    ) -> Result<[VarId; N], ModelError> {
        let vars = self.int_vars(N, min, max)?;
        Ok(std::array::from_fn(|i| vars[i]))
    }

    /// Gives a variable a name for printing and error messages.
    pub fn set_name(&mut self, var: VarId, name: impl Into<String>) -> Result<(), ModelError> {
        self.vars.set_name(var, name.into())
    }

    /// The variable's name: the one given, or `#index`.
    pub fn name(&self, var: VarId) -> String {
        self.vars.name(var)
    }

    /// The number of variables.
    pub fn var_count(&self) -> usize {
        self.vars.count()
    }

    /// The variables, in creation order.
    pub fn vars(&self) -> impl ExactSizeIterator<Item = VarId> + '_ {
        (0..self.var_count() as u32).map(|index| self.vars.var_at(index))
    }

    /// The number of posted constraints.
    pub fn constraint_count(&self) -> usize {
        self.propagators.len()
    }

    /// The name of a posted constraint's kind (`all_different`, `not_equal`, ...).
    pub fn constraint_name(&self, constraint: ConstraintId) -> Option<&'static str> {
        self.propagators.name(constraint.index())
    }

    /// The first constraint that a full assignment violates, by each constraint's
    /// [`Propagator::is_satisfied`]; `None` if it satisfies them all.
    ///
    /// ```
    /// use alldiff::Model;
    /// let mut model = Model::new();
    /// let (x, y) = (model.int_var(1, 2)?, model.int_var(1, 2)?);
    /// let different = model.not_equal(x, y)?;
    /// assert_eq!(model.first_violated(&|_| 1), Some(different));
    /// assert_eq!(model.first_violated(&|v| if v == x { 1 } else { 2 }), None);
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    pub fn first_violated(&self, value: &dyn Fn(VarId) -> i32) -> Option<ConstraintId> {
        self.propagators.violated(value)
    }

    /// The initial domain of a variable, ascending. It lists every value: see
    /// [`Model::domain_size`] for a variable that may span the whole `i32` range.
    pub fn domain(&self, var: VarId) -> Result<Vec<i32>, ModelError> {
        self.check_var(var)?;
        Ok(self.vars.store.values(var.raw()).collect())
    }

    /// The number of values in the initial domain of a variable, without listing them.
    pub fn domain_size(&self, var: VarId) -> Result<u32, ModelError> {
        self.check_var(var)?;
        Ok(self.vars.store.size(var.raw()))
    }

    /// The smallest and largest values of a variable's initial domain, without
    /// listing them (for a variable that may span the whole `i32` range).
    ///
    /// ```
    /// use alldiff::Model;
    /// let mut model = Model::new();
    /// let x = model.var_from_values([-7, 3, 40])?;
    /// assert_eq!(model.bounds(x)?, (-7, 40));
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    pub fn bounds(&self, var: VarId) -> Result<(i32, i32), ModelError> {
        self.check_var(var)?;
        Ok(self.vars.store.bounds(var.raw()))
    }

    /// Checks that a variable belongs to this model.
    pub fn check_var(&self, var: VarId) -> Result<(), ModelError> {
        self.vars.check_var(var)
    }

    /// Checks that a view belongs to this model, that its scale is not 0 and that
    /// none of its values leaves `i32`.
    pub fn check_view(&self, view: View) -> Result<(), ModelError> {
        self.vars.check_view(view)
    }

    /// Posts any constraint: a built-in one or a user's own [`Propagator`], which
    /// registers its variables ([`Propagator::post`]); each is checked to belong to
    /// this model and, through its view, to stay within the 32-bit value range. On
    /// error the model is unchanged.
    pub fn post(
        &mut self,
        constraint: impl Propagator + 'static,
    ) -> Result<ConstraintId, ModelError> {
        self.propagators.post(&mut self.vars, Box::new(constraint))
    }

    /// All the views take different values, with the default strength
    /// ([`Strength::Value`]).
    pub fn all_different<V: Into<View>>(
        &mut self,
        views: impl IntoIterator<Item = V>,
    ) -> Result<ConstraintId, ModelError> {
        self.all_different_with(views, Strength::default())
    }

    /// All the views take different values, propagated with the given strength.
    pub fn all_different_with<V: Into<View>>(
        &mut self,
        views: impl IntoIterator<Item = V>,
        strength: Strength,
    ) -> Result<ConstraintId, ModelError> {
        self.atomic(|m| {
            let views = m.units(views)?;
            m.post(AllDifferent::new(views, strength))
        })
    }

    /// Several groups of variables, each all-different, propagated together as one
    /// [`AllDifferentSystem`] (naked and hidden singles on all groups at once). Every
    /// value of every variable must fit one window of 64 values.
    ///
    /// # Errors
    ///
    /// As [`AllDifferentSystem::new`], and [`ModelError::NoVariables`] without any.
    pub fn all_different_system<G, I>(&mut self, groups: G) -> Result<ConstraintId, ModelError>
    where
        G: IntoIterator<Item = I>,
        I: IntoIterator<Item = VarId>,
    {
        self.post(AllDifferentSystem::new(groups))
    }

    /// Two overlapping all-different groups prune each other: a value that one group
    /// can only place in the views it shares with the other is removed from the rest of
    /// the other group (see [`Intersection`]). Post it beside
    /// [`all_different`](Self::all_different) on each group.
    pub fn intersection<V: Into<View>>(
        &mut self,
        a: impl IntoIterator<Item = V>,
        b: impl IntoIterator<Item = V>,
    ) -> Result<ConstraintId, ModelError> {
        self.atomic(|m| {
            let (a, b) = (m.units(a)?, m.units(b)?);
            m.post(Intersection::new(a, b))
        })
    }

    /// `a != b`.
    pub fn not_equal(
        &mut self,
        a: impl Into<View>,
        b: impl Into<View>,
    ) -> Result<ConstraintId, ModelError> {
        self.atomic(|m| {
            let (a, b) = (m.unit(a)?, m.unit(b)?);
            m.post(NotEqual::new(a, b))
        })
    }

    /// `a == b`.
    pub fn equal(
        &mut self,
        a: impl Into<View>,
        b: impl Into<View>,
    ) -> Result<ConstraintId, ModelError> {
        self.atomic(|m| {
            let (a, b) = (m.unit(a)?, m.unit(b)?);
            m.post(Equal::new(a, b))
        })
    }

    /// `a == b + offset`.
    pub fn equal_offset(
        &mut self,
        a: VarId,
        b: VarId,
        offset: i32,
    ) -> Result<ConstraintId, ModelError> {
        self.equal(a, b.plus(offset))
    }

    /// `Σ coefficient · view  ⋈  rhs`, for example `2x - 3y + z <= 7`:
    ///
    /// ```
    /// use alldiff::{Model, Relation};
    /// let mut model = Model::new();
    /// let [x, y, z] = model.int_var_array(0, 9)?;
    /// model.linear([(2, x), (-3, y), (1, z)], Relation::LessEq, 7)?;
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    ///
    /// A variable may appear in several terms (it is then propagated more weakly than if
    /// its coefficients were added up). `=`, `<=`, `>=` are propagated on bounds, `!=`
    /// once all but one term are fixed (see [`Linear`]). Two to four terms over distinct
    /// variables (differences such as `d == x - y`, orderings, short sums) get a
    /// dedicated propagator that prunes the same, faster.
    ///
    /// Errors: [`ModelError::NoVariables`] for no terms, and
    /// [`ModelError::InvalidConstraint`] if the sum of the terms over the initial domains
    /// could leave the range of `i64` (only possible with huge coefficients and values).
    pub fn linear<V: Into<View>>(
        &mut self,
        terms: impl IntoIterator<Item = (i32, V)>,
        relation: Relation,
        rhs: i32,
    ) -> Result<ConstraintId, ModelError> {
        self.atomic(|m| {
            let terms = (terms.into_iter())
                .map(|(coef, view)| m.unit_term(coef, view.into()))
                .collect::<Result<_, _>>()?;
            m.linear_units(terms, relation, rhs)
        })
    }

    /// [`Model::linear`] over views `x + c`.
    fn linear_units(
        &mut self,
        terms: Vec<(i32, View)>,
        relation: Relation,
        rhs: i32,
    ) -> Result<ConstraintId, ModelError> {
        for &(_, view) in &terms {
            self.check_view(view)?;
        }
        let store = &self.vars.store;
        let bounds = (terms.iter()).map(|&(a, v)| {
            let (min, max) = store.bounds(v.var.raw());
            let bounds = (min.saturating_add(v.offset), max.saturating_add(v.offset));
            (i64::from(a), bounds)
        });
        if sum_may_overflow(i128::from(rhs), bounds) {
            return Err(ModelError::InvalidConstraint {
                constraint: "linear",
                reason: SUM_OVERFLOW.to_string(),
            });
        }
        // Two to four terms (differences, orderings, short sums): the dedicated propagator.
        let small = (self.post_small_linear::<2>(&terms, relation, rhs))
            .or_else(|| self.post_small_linear::<3>(&terms, relation, rhs))
            .or_else(|| self.post_small_linear::<4>(&terms, relation, rhs));
        small.unwrap_or_else(|| self.post(Linear::new(&terms, relation, i64::from(rhs))))
    }

    /// Posts the dedicated propagator of `N` terms, if `terms` are `N` and fit it.
    fn post_small_linear<const N: usize>(
        &mut self,
        terms: &[(i32, View)],
        relation: Relation,
        rhs: i32,
    ) -> Option<Result<ConstraintId, ModelError>> {
        let terms = <[_; N]>::try_from(terms).ok()?;
        SmallLinear::new(terms, relation, rhs).map(|small| self.post(small))
    }

    /// `Σ views  ⋈  rhs`: [`Model::linear`] with every coefficient 1.
    ///
    /// ```
    /// use alldiff::{Model, Relation};
    /// let mut model = Model::new();
    /// let cells = model.int_vars(3, 1, 9)?;
    /// model.all_different(cells.iter().copied())?;
    /// model.sum(cells.iter().copied(), Relation::Equal, 6)?; // a cage of 1, 2, 3
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    pub fn sum<V: Into<View>>(
        &mut self,
        views: impl IntoIterator<Item = V>,
        relation: Relation,
        rhs: i32,
    ) -> Result<ConstraintId, ModelError> {
        self.linear(views.into_iter().map(|v| (1, v)), relation, rhs)
    }

    /// `value == array[index]`, with `index` counted from 0: the index variable can only
    /// take values in `0..array.len()`, and the value only entries of the array.
    /// Propagated to domain consistency both ways (see [`Element`]).
    ///
    /// ```
    /// use alldiff::{Model, Solver};
    /// let mut model = Model::new();
    /// let i = model.int_var(0, 9)?;
    /// let price = model.int_var(0, 100)?;
    /// model.element(&[30, 20, 50], i, price)?;
    /// assert_eq!(Solver::new(model).root_domains().unwrap()[0], vec![0, 1, 2]);
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    ///
    /// Errors: [`ModelError::InvalidConstraint`] for an empty array.
    pub fn element(
        &mut self,
        array: &[i32],
        index: impl Into<View>,
        value: impl Into<View>,
    ) -> Result<ConstraintId, ModelError> {
        self.atomic(|m| {
            let (index, value) = (m.unit(index)?, m.unit(value)?);
            m.check_view(index)?;
            m.check_view(value)?;
            if array.is_empty() {
                return Err(ModelError::InvalidConstraint {
                    constraint: "element",
                    reason: "the array is empty".to_string(),
                });
            }
            m.post(Element::new(array.to_vec(), index, value))
        })
    }

    /// The views take, position by position, the values of one of the `tuples`
    /// (an extensional or *table* constraint). Propagated to generalised arc
    /// consistency (see [`Table`]). No tuples at all means no solution.
    ///
    /// ```
    /// use alldiff::{Model, Solver};
    /// let mut model = Model::new();
    /// let [x, y] = model.int_var_array(0, 9)?;
    /// model.table([x, y], &[vec![1, 2], vec![2, 4], vec![3, 6]])?;
    /// assert_eq!(Solver::new(model).count(None).solutions, 3);
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    ///
    /// Errors: [`ModelError::NoVariables`] for no views, and
    /// [`ModelError::InvalidConstraint`] for a tuple whose length is not the number of
    /// views.
    pub fn table<V: Into<View>>(
        &mut self,
        views: impl IntoIterator<Item = V>,
        tuples: &[Vec<i32>],
    ) -> Result<ConstraintId, ModelError> {
        self.atomic(|m| {
            let views = m.units(views)?;
            m.post(Table::new(views, tuples))
        })
    }

    /// `a - b` is one of `offsets`: `a == b + c` for some `c` in `offsets`, a
    /// disjunction of offset equalities. Propagated to domain consistency (see
    /// [`DifferenceIn`]).
    ///
    /// Errors: [`ModelError::InvalidConstraint`] for no offsets.
    pub fn difference_in(
        &mut self,
        a: impl Into<View>,
        b: impl Into<View>,
        offsets: &[i32],
    ) -> Result<ConstraintId, ModelError> {
        self.atomic(|m| {
            let (a, b) = (m.unit(a)?, m.unit(b)?);
            m.check_view(a)?;
            m.check_view(b)?;
            if offsets.is_empty() {
                return Err(ModelError::InvalidConstraint {
                    constraint: "difference_in",
                    reason: "no offsets given".to_string(),
                });
            }
            m.post(DifferenceIn::new(a, b, offsets.to_vec()))
        })
    }

    /// `|a - b| == distance`: for example "the Norwegian lives next to the blue house"
    /// is `model.distance(norwegian, blue, 1)`. It is [`Model::difference_in`] with the
    /// offsets `-distance` and `distance`.
    ///
    /// ```
    /// use alldiff::{Model, Solver};
    /// let mut model = Model::new();
    /// let norwegian = model.var_from_values([1])?;
    /// let blue = model.int_var(1, 5)?;
    /// model.distance(norwegian, blue, 1)?;
    /// assert_eq!(Solver::new(model).root_domains().unwrap()[1], vec![2]);
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    ///
    /// Errors: [`ModelError::InvalidConstraint`] for a negative distance.
    pub fn distance(
        &mut self,
        a: impl Into<View>,
        b: impl Into<View>,
        distance: i32,
    ) -> Result<ConstraintId, ModelError> {
        if distance < 0 {
            return Err(ModelError::InvalidConstraint {
                constraint: "distance",
                reason: format!("the distance {distance} is negative"),
            });
        }
        self.difference_in(a, b, &[-distance, distance])
    }
}
