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
