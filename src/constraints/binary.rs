//! Constraints between two views: `a != b` and `a == b` (with offsets, `a == b + c`).

use super::support::{RetainSupported, Shifted};
use crate::constraints::AllDifferent;
use crate::error::ModelError;
use crate::ids::{VarId, View};
use crate::propagator::{Conflict, Context, InferenceLabel, PostContext, Propagator, Wake};

fn view_value(view: View, value: &dyn Fn(VarId) -> i32) -> i64 {
    i64::from(value(view.var)) + i64::from(view.offset)
}

/// `a != b`: once one side is fixed, its value leaves the other.
#[derive(Clone, Debug)]
pub struct NotEqual {
    a: View,
    b: View,
}

impl NotEqual {
    /// The constraint `a != b`.
    pub fn new(a: View, b: View) -> NotEqual {
        NotEqual { a, b }
    }
}

impl Propagator for NotEqual {
    fn name(&self) -> &'static str {
        "not_equal"
    }

    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        ctx.watch(self.a, Wake::Fixed)?;
        ctx.watch(self.b, Wake::Fixed)?;
        Ok(())
    }

    fn is_idempotent(&self) -> bool {
        true
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        ctx.set_label(AllDifferent::VALUE_ELIMINATION);
        // Once one side is fixed and its value gone from the other, the constraint
        // holds below: entailed, it is not run again when the other side is fixed
        // (among thousands of pairwise disequalities, most runs would be those).
        if let Some(v) = ctx.value(self.a) {
            ctx.remove(self.b, v)?;
            ctx.entailed();
        } else if let Some(v) = ctx.value(self.b) {
            ctx.remove(self.a, v)?;
            ctx.entailed();
        }
        Ok(())
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        view_value(self.a, value) != view_value(self.b, value)
    }
}

/// `a == b`: both keep only the values they share (a view kept as an interval far
/// wider than the other's values, only its bounds; see `Context::retain_supported`).
#[derive(Clone, Debug)]
pub struct Equal {
    a: View,
    b: View,
    scratch: Vec<i32>,
}

impl Equal {
    /// The label of its removals ([`Context::set_label`]): two views that must be equal
    /// keep only their common values.
    pub const EQUALITY: InferenceLabel = InferenceLabel::new("equality");

    /// The constraint `a == b`.
    pub fn new(a: View, b: View) -> Equal {
        Equal {
            a,
            b,
            scratch: Vec::new(),
        }
    }

    /// Removes from `to` every value `from` lacks.
    fn restrict(&mut self, ctx: &mut Context<'_>, from: View, to: View) -> Result<(), Conflict> {
        let support = Shifted {
            view: from,
            shifts: &[0],
        };
        ctx.retain_supported(to, &support, &mut self.scratch)
            .map(drop)
    }
}

impl Propagator for Equal {
    fn name(&self) -> &'static str {
        "equal"
    }

    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        ctx.watch(self.a, Wake::Domain)?;
        ctx.watch(self.b, Wake::Domain)?;
        Ok(())
    }

    fn is_idempotent(&self) -> bool {
        true
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        ctx.set_label(Equal::EQUALITY);
        let (a, b) = (self.a, self.b);
        self.restrict(ctx, a, b)?;
        self.restrict(ctx, b, a)
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        view_value(self.a, value) == view_value(self.b, value)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Model, Outcome, Solver};

    #[test]
    fn not_equal_removes_the_fixed_value_and_finds_the_conflict() {
        let mut model = Model::new();
        let x = model.var_from_values([2]).unwrap();
        let y = model.int_var(1, 3).unwrap();
        model.not_equal(x, y).unwrap();
        let mut solver = Solver::new(model);
        assert_eq!(solver.root_domains().unwrap()[1], vec![1, 3]);

        let mut model = Model::new();
        let x = model.var_from_values([2]).unwrap();
        let y = model.var_from_values([3]).unwrap();
        model.not_equal(x, y + -1).unwrap();
        assert_eq!(Solver::new(model).solve(), Outcome::Unsatisfiable);
    }

    #[test]
    fn equal_with_offset_keeps_the_shared_values() {
        let mut model = Model::new();
        let x = model.var_from_values([1, 2, 5, 9]).unwrap();
        let y = model.var_from_values([0, 3, 4, 20]).unwrap();
        model.equal_offset(x, y, 1).unwrap(); // x == y + 1
        let mut solver = Solver::new(model);
        assert_eq!(solver.root_domains().unwrap(), vec![vec![1, 5], vec![0, 4]]);
        assert_eq!(solver.count(None).solutions, 2);
    }
}
