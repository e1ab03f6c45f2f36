//! Global constraints over arrays: circuits, cardinalities, inverse permutations and
//! lexicographic orderings.

use super::Model;
use crate::constraints::{
    AllDifferent, Circuit, Count, GlobalCardinality, Inverse, Lex, Strength, check_values,
};
use crate::error::ModelError;
use crate::ids::{ConstraintId, View};

impl Model {
    /// The views as propagators take them (see `Model::unit`), each checked to
    /// belong to this model.
    fn checked_views<V: Into<View>>(
        &mut self,
        views: impl IntoIterator<Item = V>,
    ) -> Result<Vec<View>, ModelError> {
        let views = self.units(views)?;
        for &view in &views {
            self.check_view(view)?;
        }
        Ok(views)
    }

    /// `succ` forms one Hamiltonian cycle: node `i` (its position in `succ`, from 0)
    /// is followed by node `succ[i] - offset`, and following the successors from any
    /// node visits every node once before coming back. `offset` is 0 for 0-based
    /// successors and 1 for MiniZinc's 1-based `circuit`. With one node, its successor
    /// is itself.
    ///
    /// Posts a domain-consistent all-different ([`Strength::Domain`]) and the
    /// no-subtour propagator [`Circuit`] (path ends and strong connectivity); returns
    /// the latter's id.
    ///
    /// ```
    /// use alldiff::{Model, Solver};
    /// let mut model = Model::new();
    /// let succ = model.int_vars(4, 0, 3)?;
    /// model.circuit(succ.iter().copied(), 0)?;
    /// // (4 - 1)! = 6 tours of four nodes.
    /// assert_eq!(Solver::new(model).count(None).solutions, 6);
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    ///
    /// Errors: [`ModelError::NoVariables`] for no successors, and
    /// [`ModelError::InvalidConstraint`] when `offset + n - 1` leaves the `i32` range.
    pub fn circuit<V: Into<View>>(
        &mut self,
        succ: impl IntoIterator<Item = V>,
        offset: i32,
    ) -> Result<ConstraintId, ModelError> {
        self.successors(succ, offset, false)
    }

    /// The nodes that are not their own successor (`succ[i] - offset != i`) form one
    /// cycle, as in [`Model::circuit`]; the others are out of it. MiniZinc's
    /// `subcircuit`: every node out (no cycle at all) is allowed.
    ///
    /// ```
    /// use alldiff::{Model, Solver};
    /// let mut model = Model::new();
    /// let succ = model.int_vars(3, 1, 3)?; // 1-based
    /// model.subcircuit(succ.iter().copied(), 1)?;
    /// // Three cycles of two nodes, two of three, and the empty one.
    /// assert_eq!(Solver::new(model).count(None).solutions, 6);
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    ///
    /// Errors: as [`Model::circuit`].
    pub fn subcircuit<V: Into<View>>(
        &mut self,
        succ: impl IntoIterator<Item = V>,
        offset: i32,
    ) -> Result<ConstraintId, ModelError> {
        self.successors(succ, offset, true)
    }

    fn successors<V: Into<View>>(
        &mut self,
        succ: impl IntoIterator<Item = V>,
        offset: i32,
        sub: bool,
    ) -> Result<ConstraintId, ModelError> {
        self.atomic(|m| {
            let succ = m.checked_views(succ)?;
            let id = m.post(Circuit::new(succ.clone(), offset, sub))?;
            m.post(AllDifferent::new(succ, Strength::Domain))?;
            Ok(id)
        })
    }

    /// For each `k`, exactly `counts[k]` of the views `xs` take the value
    /// `values[k]`; values not listed may occur any number of times (see
    /// [`GlobalCardinality`] for the propagation). A negative count cannot be met.
    ///
    /// ```
    /// use alldiff::{Model, Solver};
    /// let mut model = Model::new();
    /// let shifts = model.int_vars(4, 1, 3)?; // four people, shifts 1..=3
    /// // Shift 1 needs two people, shift 2 one, shift 3 one.
    /// model.global_cardinality(shifts.iter().copied(), &[1, 2, 3], &[2, 1, 1])?;
    /// assert_eq!(Solver::new(model).count(None).solutions, 12); // 4! / 2!
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    ///
    /// Errors: [`ModelError::InvalidConstraint`] when `values` and `counts` differ in
    /// length or a value is listed twice; [`ModelError::NoVariables`] for no views.
    pub fn global_cardinality<V: Into<View>>(
        &mut self,
        xs: impl IntoIterator<Item = V>,
        values: &[i32],
        counts: &[i32],
    ) -> Result<ConstraintId, ModelError> {
        self.atomic(|m| {
            let xs = m.checked_views(xs)?;
            check_values(values, counts.len())?;
            let counts = counts.iter().map(|&c| Count::Constant(c)).collect();
            m.post(GlobalCardinality::new(xs, values.to_vec(), counts))
        })
    }

    /// [`Model::global_cardinality`] with counts that are views of variables: the
    /// number of views `xs` equal to `values[k]` is the value of `counts[k]`.
    ///
    /// ```
    /// use alldiff::{Model, Solver};
    /// let mut model = Model::new();
    /// let xs = model.int_vars(3, 0, 1)?;
    /// let [zeros, ones] = model.int_var_array(0, 3)?;
    /// model.global_cardinality_vars(xs.iter().copied(), &[0, 1], [zeros, ones])?;
    /// model.equal(ones, zeros + 1)?; // one more 1 than 0s: two 1s
    /// assert_eq!(Solver::new(model).count(None).solutions, 3);
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    ///
    /// Errors: as [`Model::global_cardinality`].
    pub fn global_cardinality_vars<V: Into<View>, C: Into<View>>(
        &mut self,
        xs: impl IntoIterator<Item = V>,
        values: &[i32],
        counts: impl IntoIterator<Item = C>,
    ) -> Result<ConstraintId, ModelError> {
        self.atomic(|m| {
            let xs = m.checked_views(xs)?;
            let counts = m.checked_views(counts)?;
            check_values(values, counts.len())?;
            let counts = counts.into_iter().map(Count::View).collect();
            m.post(GlobalCardinality::new(xs, values.to_vec(), counts))
        })
    }

    /// `f` and `g` are inverse permutations: `f[i] == j + g_offset` exactly when
    /// `g[j] == i + f_offset`, positions counted from 0. Each offset is the value that
    /// stands for the first position of its array: `inverse(f, 0, g, 0)` for 0-based
    /// values, `inverse(f, 1, g, 1)` for MiniZinc's 1-based `inverse`. Propagated as
    /// described on [`Inverse`].
    ///
    /// ```
    /// use alldiff::{Model, Solver};
    /// let mut model = Model::new();
    /// let queen_of_row = model.int_vars(3, 0, 2)?;
    /// let row_of_queen = model.int_vars(3, 0, 2)?;
    /// model.inverse(queen_of_row.iter().copied(), 0, row_of_queen.iter().copied(), 0)?;
    /// let two = model.var_from_values([2])?;
    /// model.equal(queen_of_row[0], two)?;
    /// let domains = Solver::new(model).root_domains().unwrap();
    /// assert_eq!(domains[5], vec![0]); // the queen 2 is in row 0
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    ///
    /// Errors: [`ModelError::InvalidConstraint`] for arrays of different lengths or
    /// offsets that take positions out of the `i32` range; [`ModelError::NoVariables`]
    /// for empty arrays.
    pub fn inverse<V: Into<View>, W: Into<View>>(
        &mut self,
        f: impl IntoIterator<Item = V>,
        f_offset: i32,
        g: impl IntoIterator<Item = W>,
        g_offset: i32,
    ) -> Result<ConstraintId, ModelError> {
        self.atomic(|m| {
            let f = m.checked_views(f)?;
            let g = m.checked_views(g)?;
            same_length("inverse", f.len(), g.len())?;
            m.post(Inverse::new(f, f_offset, g, g_offset))
        })
    }

    /// `xs` comes strictly before `ys` in lexicographic order: at the first position
    /// where they differ, `xs` is smaller, and they are not equal. The usual tool to
    /// break the symmetry between interchangeable rows of a model. Propagated as
    /// described on [`Lex`].
    ///
    /// ```
    /// use alldiff::{Model, Solver};
    /// let mut model = Model::new();
    /// let a = model.int_vars(2, 0, 1)?;
    /// let b = model.int_vars(2, 0, 1)?;
    /// model.lex_less(a.iter().copied(), b.iter().copied())?;
    /// // 4 · 3 / 2 ordered pairs of distinct rows.
    /// assert_eq!(Solver::new(model).count(None).solutions, 6);
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    ///
    /// Errors: [`ModelError::InvalidConstraint`] for arrays of different lengths,
    /// [`ModelError::NoVariables`] for empty ones.
    pub fn lex_less<V: Into<View>, W: Into<View>>(
        &mut self,
        xs: impl IntoIterator<Item = V>,
        ys: impl IntoIterator<Item = W>,
    ) -> Result<ConstraintId, ModelError> {
        self.lex(xs, ys, true)
    }

    /// `xs` comes before `ys` in lexicographic order, or equals it
    /// ([`Model::lex_less`] allowing equality).
    ///
    /// ```
    /// use alldiff::{Model, Solver};
    /// let mut model = Model::new();
    /// let a = model.int_vars(2, 0, 1)?;
    /// let b = model.int_vars(2, 0, 1)?;
    /// model.lex_less_eq(a.iter().copied(), b.iter().copied())?;
    /// assert_eq!(Solver::new(model).count(None).solutions, 10);
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    ///
    /// Errors: as [`Model::lex_less`].
    pub fn lex_less_eq<V: Into<View>, W: Into<View>>(
        &mut self,
        xs: impl IntoIterator<Item = V>,
        ys: impl IntoIterator<Item = W>,
    ) -> Result<ConstraintId, ModelError> {
        self.lex(xs, ys, false)
    }

    fn lex<V: Into<View>, W: Into<View>>(
        &mut self,
        xs: impl IntoIterator<Item = V>,
        ys: impl IntoIterator<Item = W>,
        strict: bool,
    ) -> Result<ConstraintId, ModelError> {
        self.atomic(|m| {
            let xs = m.checked_views(xs)?;
            let ys = m.checked_views(ys)?;
            let name = if strict { "lex_less" } else { "lex_less_eq" };
            same_length(name, xs.len(), ys.len())?;
            m.post(Lex::new(xs, ys, strict))
        })
    }
}

/// Two arrays of a constraint must have the same length.
fn same_length(constraint: &'static str, a: usize, b: usize) -> Result<(), ModelError> {
    if a == b {
        return Ok(());
    }
    Err(ModelError::InvalidConstraint {
        constraint,
        reason: format!("the arrays have different lengths, {a} and {b}"),
    })
}
