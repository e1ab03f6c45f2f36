//! Differences between two views: `a - b` is one of a set of constants.

use super::support::{RetainSupported, Shifted};
use crate::error::ModelError;
use crate::ids::{VarId, View};
use crate::propagator::{Conflict, Context, InferenceLabel, PostContext, Propagator, Wake};

/// `a - b ∈ offsets`. Built by [`Model::difference_in`](crate::Model::difference_in) and
/// [`Model::distance`](crate::Model::distance).
///
/// This is a disjunction of offset equalities, `a == b + c₁ OR a == b + c₂ OR …`. Its most common use is distance:
/// [`Model::distance`](crate::Model::distance) posts `|a - b| == d`, which is
/// `a - b ∈ {-d, d}` — "next to" in the Zebra puzzle is `distance(a, b, 1)`.
///
/// Propagation is domain consistent (but on a view kept as an interval far wider than
/// its supported values, whose bounds alone move to supported values): a value of `a` stays while some `b` value is at one of the
/// allowed differences from it, and likewise for `b`.
#[derive(Clone, Debug)]
pub struct DifferenceIn {
    a: View,
    b: View,
    offsets: Vec<i64>,
    /// The offsets negated.
    negated: Vec<i64>,
    scratch: Vec<i32>,
}

impl DifferenceIn {
    /// The label of its removals ([`Context::set_label`]): values without support on the
    /// other side.
    pub const SUPPORT: InferenceLabel = InferenceLabel::new("difference support");

    pub(crate) fn new(a: View, b: View, mut offsets: Vec<i32>) -> DifferenceIn {
        offsets.sort_unstable();
        offsets.dedup();
        let offsets: Vec<i64> = offsets.into_iter().map(i64::from).collect();
        DifferenceIn {
            a,
            b,
            negated: offsets.iter().map(|&c| -c).collect(),
            offsets,
            scratch: Vec::new(),
        }
    }
}

impl Propagator for DifferenceIn {
    fn name(&self) -> &'static str {
        "difference_in"
    }

    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        ctx.watch(self.a, Wake::Domain)?;
        ctx.watch(self.b, Wake::Domain)?;
        Ok(())
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        ctx.set_label(DifferenceIn::SUPPORT);
        let (a, b) = (self.a, self.b);
        // a = b + c: a's value v needs v - c in b; b's value w needs w + c in a.
        let from_b = Shifted {
            view: b,
            shifts: &self.negated,
        };
        ctx.retain_supported(a, &from_b, &mut self.scratch)?;
        let from_a = Shifted {
            view: a,
            shifts: &self.offsets,
        };
        ctx.retain_supported(b, &from_a, &mut self.scratch)
            .map(drop)
    }

    fn is_idempotent(&self) -> bool {
        // After pruning `a` by `b` and then `b` by `a`, every value left in `a` still has
        // its partner in `b` (a partner is only removed when it has none in `a`), unless
        // `a` and `b` are the same variable.
        self.a.var != self.b.var
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        let at = |view: View| i64::from(value(view.var)) + i64::from(view.offset);
        self.offsets.contains(&(at(self.a) - at(self.b)))
    }
}

#[cfg(test)]
mod tests {
    use crate::{Model, ModelError, Outcome, Solver};

    #[test]
    fn distance_keeps_neighbours_only() {
        let mut model = Model::new();
        let a = model.var_from_values([1]).unwrap();
        let b = model.int_var(1, 5).unwrap();
        model.distance(a, b, 1).unwrap();
        assert_eq!(
            Solver::new(model).root_domains().unwrap(),
            vec![vec![1], vec![2]]
        );

        let mut model = Model::new();
        let a = model.var_from_values([1, 5]).unwrap();
        let b = model.int_var(1, 5).unwrap();
        model.distance(a, b, 1).unwrap();
        let mut solver = Solver::new(model);
        assert_eq!(solver.root_domains().unwrap()[1], vec![2, 4]);
        assert_eq!(solver.count(None).solutions, 2);
    }

    #[test]
    fn difference_in_finds_the_conflict() {
        let mut model = Model::new();
        let a = model.var_from_values([1, 2]).unwrap();
        let b = model.var_from_values([1, 2]).unwrap();
        model.difference_in(a, b, &[3, -3, 7]).unwrap();
        assert_eq!(Solver::new(model).solve(), Outcome::Unsatisfiable);
    }

    #[test]
    fn bad_parameters_are_refused() {
        let mut model = Model::new();
        let a = model.int_var(1, 2).unwrap();
        assert!(matches!(
            model.distance(a, a, -1),
            Err(ModelError::InvalidConstraint { .. })
        ));
        assert!(matches!(
            model.difference_in(a, a, &[]),
            Err(ModelError::InvalidConstraint { .. })
        ));
    }
}
