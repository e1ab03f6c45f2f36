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
        View {
            var: self,
            scale: 1,
            offset,
        }
    }

    /// The view `scale * self`.
    pub fn times(self, scale: i32) -> View {
        View {
            var: self,
            scale,
            offset: 0,
        }
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

/// A variable seen through a scale and an offset: the value of `a * x + c`, written
/// `x + c`, `x - c`, `a * x`, `x * a`, `-x`, `2 * x + 1`, ... The model's constraints
/// take views wherever they take variables, so `all_different(q[i] + i)` needs no
/// extra variables, and a place value folds into the view (`1000 * s + 100 * e`).
///
/// The scale is never 0, and every value of a view must fit in `i32`: a view that
/// overflows (or whose building overflowed) is refused when posted
/// ([`ModelError::OffsetOverflow`](crate::ModelError::OffsetOverflow),
/// [`ModelError::ScaleOverflow`](crate::ModelError::ScaleOverflow)).
///
/// Propagators see unit views (`x + c`) only: the model posts a constraint over a
/// scaled view on an auxiliary variable equal to it, linked to `x` value by value
/// (see [`Model`](crate::Model)); [`PostContext::watch`](crate::PostContext::watch)
/// refuses a scaled view.
///
/// ```
/// use alldiff::{Model, Solver};
/// let mut model = Model::new();
/// let [x, y] = model.int_var_array(0, 9)?;
/// model.equal(3 * x, -y + 12)?; // 3x = 12 - y
/// assert_eq!(Solver::new(model).count(None).solutions, 4); // x = 1..=4
/// # Ok::<(), alldiff::ModelError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct View {
    /// The underlying variable.
    pub var: VarId,
    /// Multiplies the variable's value: 1 for `x + c`, never 0.
    pub scale: i32,
    /// Added to the scaled value.
    pub offset: i32,
}

impl View {
    /// Whether the view is `x + c`, as every propagator takes it.
    pub fn is_unit(self) -> bool {
        self.scale == 1
    }

    /// The view's value when its variable takes `value` (in `i64`: it cannot overflow).
    pub fn value_at(self, value: i32) -> i64 {
        i64::from(self.scale) * i64::from(value) + i64::from(self.offset)
    }

    /// The view `self + offset`; an overflowing offset is refused when posted.
    pub fn plus(self, offset: i32) -> View {
        let offset = (self.offset.checked_add(offset)).unwrap_or(i32::MIN);
        View { offset, ..self }
    }

    /// The view `scale * self`; a scale or offset that overflows is refused when
    /// posted.
    pub fn times(self, scale: i32) -> View {
        match (
            self.scale.checked_mul(scale),
            self.offset.checked_mul(scale),
        ) {
            (Some(scale), Some(offset)) => View {
                var: self.var,
                scale,
                offset,
            },
            // Scale 0 stands for the overflow: refused as any scale 0 is.
            _ => View {
                var: self.var,
                scale: 0,
                offset: self.offset,
            },
        }
    }
}

impl From<VarId> for View {
    fn from(var: VarId) -> View {
        var.plus(0)
    }
}

impl std::ops::Add<i32> for View {
    type Output = View;
    fn add(self, offset: i32) -> View {
        self.plus(offset)
    }
}

impl std::ops::Sub<i32> for View {
    type Output = View;
    /// `v - c`; an offset that overflows is refused when posted.
    fn sub(self, offset: i32) -> View {
        self.plus(offset.checked_neg().unwrap_or(i32::MIN))
    }
}

impl std::ops::Mul<i32> for View {
    type Output = View;
    fn mul(self, scale: i32) -> View {
        self.times(scale)
    }
}

impl std::ops::Mul<View> for i32 {
    type Output = View;
    fn mul(self, view: View) -> View {
        view.times(self)
    }
}

impl std::ops::Neg for View {
    type Output = View;
    fn neg(self) -> View {
        self.times(-1)
    }
}

impl std::ops::Mul<i32> for VarId {
    type Output = View;
    fn mul(self, scale: i32) -> View {
        self.times(scale)
    }
}

impl std::ops::Mul<VarId> for i32 {
    type Output = View;
    fn mul(self, var: VarId) -> View {
        var.times(self)
    }
}

impl std::ops::Neg for VarId {
    type Output = View;
    fn neg(self) -> View {
        self.times(-1)
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
