//! Identifiers: variables, views of them, and posted constraints. They sit below
//! both the model and the propagators, which name them.

/// A variable of one model. Cheap to copy; only meaningful to the model that made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId {
    pub(crate) model: u32,
    pub(crate) index: u32,
}

impl VarId {
    /// The variable's position in its model, from 0 in creation order.
    pub fn index(self) -> usize {
        self.index as usize
    }

    /// Its index as the store numbers it.
    pub(crate) fn raw(self) -> u32 {
        self.index
    }

    /// The view `self + offset`.
    pub fn plus(self, offset: i32) -> View {
        View { var: self, offset }
    }
}

/// A posted constraint, in posting order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ConstraintId(pub(crate) u32);

impl ConstraintId {
    /// The constraint's position in its model, from 0 in posting order.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A variable seen through an offset: the value of `x + c`. Constraints take views
/// wherever they take variables, so `all_different(q[i] + i)` needs no extra variables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct View {
    /// The underlying variable.
    pub var: VarId,
    /// Added to the variable's value.
    pub offset: i32,
}

impl From<VarId> for View {
    fn from(var: VarId) -> View {
        View { var, offset: 0 }
    }
}

impl std::ops::Add<i32> for VarId {
    type Output = View;
    fn add(self, offset: i32) -> View {
        self.plus(offset)
    }
}

impl std::ops::Sub<i32> for VarId {
    type Output = View;
    /// `x - c`. An offset of `i32::MIN` cannot be negated; posting such a view
    /// reports [`ModelError::OffsetOverflow`](crate::ModelError::OffsetOverflow).
    fn sub(self, offset: i32) -> View {
        self.plus(offset.checked_neg().unwrap_or(i32::MIN))
    }
}

/// A Boolean literal: a 0/1 variable, or its negation. `true` is the value 1 of the
/// variable, and `false` the value 0; a negated literal is true when the variable is 0.
///
/// Boolean variables are plain [`VarId`]s over `{0, 1}` (see
/// [`Model::bool_var`](crate::Model::bool_var)), so they go wherever an integer variable
/// goes (sums, all-different, solutions); a literal is only needed to negate one. `!b`
/// makes the negated literal of a variable, and `b.into()` (or `Literal::from(b)`) the
/// positive one, which lets both sit in one list:
///
/// ```
/// use alldiff::{Literal, Model, Solver};
/// let mut model = Model::new();
/// let [a, b] = model.bool_var_array()?;
/// model.or([a.into(), !b])?; // a or not b
/// assert_eq!(!!Literal::from(a), Literal::from(a));
/// assert_eq!(Solver::new(model).count(None).solutions, 3);
/// # Ok::<(), alldiff::ModelError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Literal {
    /// The variable, whose values must lie in `{0, 1}` (checked when a constraint over
    /// the literal is posted).
    pub var: VarId,
    /// Whether the literal is `var == 0` rather than `var == 1`.
    pub negated: bool,
}

impl Literal {
    /// The variable value that makes the literal true: 1, or 0 if negated.
    pub fn true_value(self) -> i32 {
        i32::from(!self.negated)
    }

    /// Whether the literal is true when its variable takes `value` (any nonzero value
    /// counts as 1).
    pub fn holds(self, value: i32) -> bool {
        (value != 0) != self.negated
    }
}

impl From<VarId> for Literal {
    fn from(var: VarId) -> Literal {
        Literal {
            var,
            negated: false,
        }
    }
}

impl std::ops::Not for Literal {
    type Output = Literal;
    fn not(self) -> Literal {
        Literal {
            var: self.var,
            negated: !self.negated,
        }
    }
}

impl std::ops::Not for VarId {
    type Output = Literal;
    /// The negated literal of a 0/1 variable: true when it is 0.
    fn not(self) -> Literal {
        !Literal::from(self)
    }
}
