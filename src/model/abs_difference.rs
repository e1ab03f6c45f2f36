//! The distance between two variables as a variable: `z == |x - y|`.

use crate::constraints::AbsDifference;
use crate::error::ModelError;
use crate::ids::{ConstraintId, View};
use crate::model::Model;

impl Model {
    /// `z == |x - y|`, one propagator instead of a variable for `x - y`, a linear
    /// constraint and [`Model::abs`]. Domain consistent when the three domains have at
    /// most 64 values each (values at most 64 apart), bounds consistent otherwise and
    /// domain consistent once `x` or `y` is fixed (see [`AbsDifference`]). For a
    /// constant distance, [`Model::distance`].
    ///
    /// The intervals of an all-interval series are `abs_difference(x[i + 1], x[i],
    /// interval[i])`. With `y` fixed to 4 and `z` odd, `x` keeps only the values at an
    /// odd distance from 4:
    ///
    /// ```
    /// use alldiff::{Model, Solver};
    /// let mut model = Model::new();
    /// let x = model.int_var(0, 9)?;
    /// let y = model.var_from_values([4])?;
    /// let z = model.var_from_values([1, 3, 7])?;
    /// model.abs_difference(x, y, z)?;
    /// let domains = Solver::new(model).root_domains().unwrap();
    /// assert_eq!(domains, vec![vec![1, 3, 5, 7], vec![4], vec![1, 3]]);
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    ///
    /// Errors: as [`Model::post`] for the views. A distance beyond the `i32` range
    /// is no value of `z`.
    pub fn abs_difference(
        &mut self,
        x: impl Into<View>,
        y: impl Into<View>,
        z: impl Into<View>,
    ) -> Result<ConstraintId, ModelError> {
        self.atomic(|m| {
            let x = m.unit(x)?;
            let y = m.unit(y)?;
            let z = m.unit(z)?;
            m.post(AbsDifference::new(x, y, z))
        })
    }
}
