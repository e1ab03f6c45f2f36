//! Arithmetic constraints: orderings, `*`, `/`, `%`, `|x|`, `x^k`, minimum, maximum,
//! and element over an array of variables.
//!
//! Each takes views (`x + c`) wherever it takes variables. Results are computed in
//! `i64` (powers saturating there), so none overflows: one beyond the `i32` range is
//! no value of the result, and the operands' values that give it go (`abs` of a
//! domain holding `i32::MIN` removes `i32::MIN`, as `times` of `i32::MIN` by `-1`
//! finds no product).

use crate::constraints::{
    Arithmetic, ElementVar, Extremum, LessEq, Operation, Unary, UnaryOperation,
};
use crate::error::ModelError;
use crate::ids::{ConstraintId, View};
use crate::model::Model;

impl Model {
    /// `a < b`, propagated on bounds (see [`LessEq`]).
    ///
    /// ```
    /// use alldiff::{Model, Solver};
    /// let mut model = Model::new();
    /// let [x, y, z] = model.int_var_array(1, 5)?;
    /// model.less(x, y)?;        // x < y
    /// model.less_eq(y, z - 2)?; // y <= z - 2
    /// let domains = Solver::new(model).root_domains().unwrap();
    /// assert_eq!(domains, vec![vec![1, 2], vec![2, 3], vec![4, 5]]);
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    ///
    /// Errors: as [`Model::post`], for a view of another model or one that overflows.
    pub fn less(
        &mut self,
        a: impl Into<View>,
        b: impl Into<View>,
    ) -> Result<ConstraintId, ModelError> {
        self.atomic(|m| {
            let a = m.unit(a)?;
            let b = m.unit(b)?;
            m.post(LessEq::new(a, b, true))
        })
    }

    /// `a <= b`, propagated on bounds (see [`Model::less`]).
    pub fn less_eq(
        &mut self,
        a: impl Into<View>,
        b: impl Into<View>,
    ) -> Result<ConstraintId, ModelError> {
        self.atomic(|m| {
            let a = m.unit(a)?;
            let b = m.unit(b)?;
            m.post(LessEq::new(a, b, false))
        })
    }

    /// `a > b`: [`Model::less`] with the sides swapped.
    pub fn greater(
        &mut self,
        a: impl Into<View>,
        b: impl Into<View>,
    ) -> Result<ConstraintId, ModelError> {
        self.less(b, a)
    }

    /// `a >= b`: [`Model::less_eq`] with the sides swapped.
    pub fn greater_eq(
        &mut self,
        a: impl Into<View>,
        b: impl Into<View>,
    ) -> Result<ConstraintId, ModelError> {
        self.less_eq(b, a)
    }

    /// `z == x * y`, bounds reasoning over the signs, and domain consistent once `x`
    /// or `y` is fixed (see [`Arithmetic`]).
    ///
    /// ```
    /// use alldiff::{Model, Solver};
    /// let mut model = Model::new();
    /// let x = model.int_var(-3, 3)?;
    /// let y = model.int_var(2, 4)?;
    /// let z = model.int_var(7, 20)?;
    /// model.times(x, y, z)?;
    /// // z >= 7 makes x positive; x * y <= 12.
    /// let domains = Solver::new(model).root_domains().unwrap();
    /// assert_eq!(domains[0], vec![2, 3]);
    /// assert_eq!(domains[2], (7..=12).collect::<Vec<_>>());
    ///
    /// // Products beyond the 32-bit range are computed in 64 bits and clamped to z.
    /// let mut model = Model::new();
    /// let big = model.int_var(0, 100_000)?;
    /// let z = model.int_var(0, 10)?;
    /// model.times(big, big, z)?;
    /// assert_eq!(Solver::new(model).count(None).solutions, 4); // 0, 1, 2, 3 squared
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    ///
    /// Errors: as [`Model::post`] for the views. The product may leave the `i32`
    /// range: it is computed in `i64`, and only values of `z` are kept.
    pub fn times(
        &mut self,
        x: impl Into<View>,
        y: impl Into<View>,
        z: impl Into<View>,
    ) -> Result<ConstraintId, ModelError> {
        self.atomic(|m| {
            let x = m.unit(x)?;
            let y = m.unit(y)?;
            let z = m.unit(z)?;
            m.arithmetic(Operation::Times, x, y, z)
        })
    }

    /// `z == x / y`, truncated towards zero as Rust's `/` (`-7 / 2 == -3`). `y` is
    /// never 0: propagation removes 0 from it. Bounds consistent on `z` and `y`, and
    /// domain consistent once `x` or `y` is fixed (see [`Arithmetic`]).
    ///
    /// ```
    /// use alldiff::{Model, Solver};
    /// let mut model = Model::new();
    /// let x = model.int_var(-7, 7)?;
    /// let y = model.int_var(-1, 2)?;
    /// let z = model.int_var(5, 9)?;
    /// model.div(x, y, z)?;
    /// let mut solver = Solver::new(model);
    /// // y != 0; z = 5, 6, 7 from x = ±5.. with y = ±1 (x = 7, y = 2 gives 3).
    /// assert_eq!(solver.root_domains().unwrap()[1], vec![-1, 1]);
    /// assert_eq!(solver.count(None).solutions, 6);
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    ///
    /// Errors: as [`Model::post`] for the views (`i32::MIN / -1` is computed in
    /// `i64`: it is no value of `z`).
    pub fn div(
        &mut self,
        x: impl Into<View>,
        y: impl Into<View>,
        z: impl Into<View>,
    ) -> Result<ConstraintId, ModelError> {
        self.atomic(|m| {
            let x = m.unit(x)?;
            let y = m.unit(y)?;
            let z = m.unit(z)?;
            m.arithmetic(Operation::Divide, x, y, z)
        })
    }

    /// `z == x % y`, the remainder of [`Model::div`] as Rust's `%` (it has the sign of
    /// `x`: `-7 % 3 == -1`). `y` is never 0. Bounds reasoning, and domain consistent
    /// once `x` or `y` is fixed (see [`Arithmetic`]).
    ///
    /// ```
    /// use alldiff::{Model, Solver};
    /// let mut model = Model::new();
    /// let x = model.int_var(-9, 9)?;
    /// let z = model.int_var(-9, 9)?;
    /// let three = model.var_from_values([3])?;
    /// model.modulo(x, three, z)?;
    /// assert_eq!(Solver::new(model).root_domains().unwrap()[1], vec![-2, -1, 0, 1, 2]);
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    ///
    /// Errors: as [`Model::post`] for the views (a remainder never overflows).
    pub fn modulo(
        &mut self,
        x: impl Into<View>,
        y: impl Into<View>,
        z: impl Into<View>,
    ) -> Result<ConstraintId, ModelError> {
        self.atomic(|m| {
            let x = m.unit(x)?;
            let y = m.unit(y)?;
            let z = m.unit(z)?;
            m.arithmetic(Operation::Modulo, x, y, z)
        })
    }

    fn arithmetic(
        &mut self,
        operation: Operation,
        x: View,
        y: View,
        z: View,
    ) -> Result<ConstraintId, ModelError> {
        self.post(Arithmetic::new(operation, x, y, z))
    }

    /// `z == |x|`: bounds consistent, and domain consistent while `x` has at most 4096
    /// values (see [`Unary`]).
    ///
    /// ```
    /// use alldiff::{Model, Solver};
    /// let mut model = Model::new();
    /// let x = model.int_var(-5, 3)?;
    /// let z = model.int_var(4, 9)?;
    /// model.abs(x, z)?;
    /// let domains = Solver::new(model).root_domains().unwrap();
    /// assert_eq!(domains, vec![vec![-5, -4], vec![4, 5]]);
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    ///
    /// Errors: as [`Model::post`] for the views. `|i32::MIN|` is no `i32`: that value
    /// of `x` goes.
    pub fn abs(
        &mut self,
        x: impl Into<View>,
        z: impl Into<View>,
    ) -> Result<ConstraintId, ModelError> {
        self.atomic(|m| {
            let x = m.unit(x)?;
            let z = m.unit(z)?;
            m.post(Unary::new(UnaryOperation::Abs, x, z))
        })
    }

    /// `z == x^k` for a constant `k >= 0` (`x^0 == 1`). Bounds consistent, and domain
    /// consistent while `x` has at most 4096 values (see [`Unary`]). The exponent is a
    /// constant; a variable exponent can be modelled as a [`Model::table`] or an
    /// [`Model::element_var`] over the powers.
    ///
    /// ```
    /// use alldiff::{Model, Solver};
    /// let mut model = Model::new();
    /// let x = model.int_var(-4, 4)?;
    /// let z = model.int_var(2, 10)?;
    /// model.power(x, 2, z)?;
    /// let domains = Solver::new(model).root_domains().unwrap();
    /// assert_eq!(domains, vec![vec![-3, -2, 2, 3], vec![4, 9]]);
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    ///
    /// Errors: as [`Model::post`] for the views. The values of `x` whose power
    /// leaves the `i32` range go.
    pub fn power(
        &mut self,
        x: impl Into<View>,
        k: u32,
        z: impl Into<View>,
    ) -> Result<ConstraintId, ModelError> {
        self.atomic(|m| {
            let x = m.unit(x)?;
            let z = m.unit(z)?;
            m.post(Unary::new(UnaryOperation::Power(k), x, z))
        })
    }

    /// `z == max(xs)`, bounds consistent (see [`Extremum`]).
    ///
    /// ```
    /// use alldiff::{Model, Solver};
    /// let mut model = Model::new();
    /// let xs = model.int_vars(3, 0, 9)?;
    /// let top = model.int_var(0, 4)?;
    /// let bottom = model.int_var(3, 9)?;
    /// model.maximum(xs.iter().copied(), top)?;
    /// model.minimum(xs.iter().copied(), bottom)?;
    /// let domains = Solver::new(model).root_domains().unwrap();
    /// assert_eq!(domains[0], vec![3, 4]);
    /// assert_eq!(domains[3], vec![3, 4]);
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    ///
    /// Errors: [`ModelError::NoVariables`] for no `xs`; as [`Model::post`] for the
    /// views.
    pub fn maximum<V: Into<View>>(
        &mut self,
        xs: impl IntoIterator<Item = V>,
        z: impl Into<View>,
    ) -> Result<ConstraintId, ModelError> {
        self.atomic(|m| {
            let xs = m.units(xs)?;
            let z = m.unit(z)?;
            m.post(Extremum::new(xs, z, true))
        })
    }

    /// `z == min(xs)`, bounds consistent (see [`Model::maximum`]).
    ///
    /// Errors: [`ModelError::NoVariables`] for no `xs`; as [`Model::post`] for the
    /// views.
    pub fn minimum<V: Into<View>>(
        &mut self,
        xs: impl IntoIterator<Item = V>,
        z: impl Into<View>,
    ) -> Result<ConstraintId, ModelError> {
        self.atomic(|m| {
            let xs = m.units(xs)?;
            let z = m.unit(z)?;
            m.post(Extremum::new(xs, z, false))
        })
    }

    /// `value == array[index]` where the entries are views (variables) rather than the
    /// constants of [`Model::element`], `index` counted from 0. Bounds reasoning, and
    /// domain reasoning when the domains are small (see [`ElementVar`]).
    ///
    /// ```
    /// use alldiff::{Model, Solver};
    /// let mut model = Model::new();
    /// let a = model.int_var(0, 3)?;
    /// let b = model.int_var(10, 12)?;
    /// let i = model.int_var(0, 5)?;
    /// let v = model.int_var(5, 11)?;
    /// model.element_var([a, b], i, v)?;
    /// // a cannot reach 5: the index must be 1, so v == b.
    /// let domains = Solver::new(model).root_domains().unwrap();
    /// assert_eq!(domains[2], vec![1]);
    /// assert_eq!(domains[3], vec![10, 11]);
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    ///
    /// Errors: [`ModelError::InvalidConstraint`] for an empty array; as
    /// [`Model::post`] for the views.
    pub fn element_var<V: Into<View>>(
        &mut self,
        array: impl IntoIterator<Item = V>,
        index: impl Into<View>,
        value: impl Into<View>,
    ) -> Result<ConstraintId, ModelError> {
        self.atomic(|m| {
            let array = m.units(array)?;
            let index = m.unit(index)?;
            let value = m.unit(value)?;
            m.post(ElementVar::new(array, index, value))
        })
    }
}
