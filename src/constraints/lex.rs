//! Lexicographic ordering of two arrays of views, for symmetry breaking.

use crate::error::ModelError;
use crate::ids::{VarId, View};
use crate::propagator::{Conflict, Context, InferenceLabel, PostContext, Propagator, Wake};

/// `xs <=lex ys` (or `<lex` when strict): at the first position where the arrays
/// differ, `xs` holds the smaller value; equal arrays satisfy only the non-strict
/// form. Built by [`Model::lex_less_eq`](crate::Model::lex_less_eq) and
/// [`Model::lex_less`](crate::Model::lex_less).
///
/// The propagation of Frisch, Hnich, Kiziltan, Miguel and Walsh ("Global constraints
/// for lexicographic orderings", CP 2002), recomputed from the bounds at each call
/// instead of maintained incrementally: `alpha` is the first position whose two
/// views are not fixed to one value; the suffix after it is scanned for whether it
/// can still come out `<=` (or `<`) when the two views at `alpha` are equal (the role
/// of Frisch's `beta`). The views at `alpha` are then made `x <= y`, or `x < y` when
/// equality there cannot be completed; when that fixes them to one value, `alpha`
/// moves on. When no variable occurs twice, this is generalised arc consistent:
/// every value left has a support. Cost O(n) per call (the suffix is scanned once
/// however far `alpha` moves), no allocation.
#[derive(Clone, Debug)]
pub struct Lex {
    xs: Vec<View>,
    ys: Vec<View>,
    strict: bool,
}

impl Lex {
    /// The label of its removals ([`Context::set_label`]): the first position not fixed
    /// equal is ordered.
    pub const ORDER: InferenceLabel = InferenceLabel::new("lexicographic order");

    /// `xs <=lex ys`, or `<lex` when `strict`; the arrays have the same length (the
    /// model method checks).
    pub(crate) fn new(xs: Vec<View>, ys: Vec<View>, strict: bool) -> Lex {
        Lex { xs, ys, strict }
    }

    /// Whether the views from `from` on can still be ordered as the constraint asks,
    /// all earlier positions being equal; with the position that decided it (`n` if
    /// none did). The positions before that one can only be equal, so the answer
    /// holds from any of them on too.
    fn suffix_feasible(&self, ctx: &Context<'_>, from: usize) -> (usize, bool) {
        for (at, (&x, &y)) in self.xs.iter().zip(&self.ys).enumerate().skip(from) {
            let (min_x, max_y) = (ctx.min(x), ctx.max(y));
            if min_x < max_y {
                return (at, true);
            }
            // Equality is the only hope here, with the value min_x == max_y, which
            // both domains hold (their minimum and maximum).
            if min_x > max_y {
                return (at, false);
            }
        }
        (self.xs.len(), !self.strict)
    }
}

impl Propagator for Lex {
    fn name(&self) -> &'static str {
        if self.strict {
            "lex_less"
        } else {
            "lex_less_eq"
        }
    }

    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        ctx.watch_all(self.xs.iter().copied(), Wake::Bounds)?;
        ctx.watch_all(self.ys.iter().copied(), Wake::Bounds)
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        ctx.set_label(Lex::ORDER);
        let n = self.xs.len();
        let mut alpha = 0;
        // The suffix scan, reused while alpha stays before the position it stopped at.
        let mut suffix = (0, true);
        while alpha < n {
            let (x, y) = (self.xs[alpha], self.ys[alpha]);
            match (ctx.value(x), ctx.value(y)) {
                (Some(a), Some(b)) if a == b => {
                    alpha += 1;
                    continue;
                }
                _ => {}
            }
            // x <= y at alpha, strictly if equality cannot be completed after it.
            if suffix.0 <= alpha {
                suffix = self.suffix_feasible(ctx, alpha + 1);
            }
            let gap = i32::from(!suffix.1);
            let max_y = ctx.max(y);
            ctx.set_max(x, max_y.saturating_sub(gap))?;
            let min_x = ctx.min(x);
            ctx.set_min(y, min_x.saturating_add(gap))?;
            // Still apart (x < y possible): every later value has a support.
            if !(ctx.is_fixed(x) && ctx.is_fixed(y) && ctx.min(x) == ctx.min(y)) {
                return Ok(());
            }
            alpha += 1;
        }
        // Every position equal.
        if self.strict { Err(Conflict) } else { Ok(()) }
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        let at = |view: View| i64::from(value(view.var)) + i64::from(view.offset);
        let xs = self.xs.iter().map(|&x| at(x));
        let ys = self.ys.iter().map(|&y| at(y));
        match xs.cmp(ys) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Equal => !self.strict,
            std::cmp::Ordering::Greater => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Model, ModelError, Solver, VarId};

    fn root(xs: &[&[i32]], ys: &[&[i32]], strict: bool) -> Option<Vec<Vec<i32>>> {
        let mut model = Model::new();
        let mut vars = |ds: &[&[i32]]| -> Vec<VarId> {
            ds.iter()
                .map(|d| model.var_from_values(d.iter().copied()).unwrap())
                .collect()
        };
        let (xs, ys) = (vars(xs), vars(ys));
        if strict {
            model.lex_less(xs, ys).unwrap();
        } else {
            model.lex_less_eq(xs, ys).unwrap();
        }
        Solver::new(model).root_domains()
    }

    #[test]
    fn the_first_free_position_is_ordered() {
        // x0 <= y0: x0 loses 3, y0 loses 0.
        let d = root(&[&[0, 1, 3], &[0, 5]], &[&[1, 2], &[0, 5]], false).unwrap();
        assert_eq!(d, vec![vec![0, 1], vec![0, 5], vec![1, 2], vec![0, 5]]);
    }

    #[test]
    fn equality_that_cannot_be_completed_forces_strictness() {
        // The suffix (x1, y1) = ({5}, {2}) is greater: x0 < y0 strictly.
        let d = root(&[&[1, 2, 3], &[5]], &[&[1, 2, 3], &[2]], false).unwrap();
        assert_eq!(d, vec![vec![1, 2], vec![5], vec![2, 3], vec![2]]);
        // Strict and equal suffix: the same.
        let d = root(&[&[1, 2, 3], &[4]], &[&[1, 2, 3], &[4]], true).unwrap();
        assert_eq!(d, vec![vec![1, 2], vec![4], vec![2, 3], vec![4]]);
        // Non-strict and equal suffix: equality is fine.
        let d = root(&[&[1, 2, 3], &[4]], &[&[1, 2, 3], &[4]], false).unwrap();
        assert_eq!(d, vec![vec![1, 2, 3], vec![4], vec![1, 2, 3], vec![4]]);
    }

    #[test]
    fn forced_equality_moves_on() {
        // x0 <= y0 forces both to 2; then x1 <= y1.
        let d = root(&[&[2, 3], &[4, 6]], &[&[1, 2], &[3, 5]], false).unwrap();
        assert_eq!(d, vec![vec![2], vec![4], vec![2], vec![5]]);
        // Everything equal and strict: no solution.
        assert_eq!(root(&[&[1], &[2]], &[&[1], &[2]], true), None);
        assert!(root(&[&[1], &[2]], &[&[1], &[2]], false).is_some());
    }

    #[test]
    fn lengths_must_agree() {
        let mut model = Model::new();
        let xs = model.int_vars(3, 0, 2).unwrap();
        let ys = model.int_vars(2, 0, 2).unwrap();
        assert!(matches!(
            model.lex_less(xs.clone(), ys.clone()),
            Err(ModelError::InvalidConstraint { .. })
        ));
        assert!(matches!(
            model.lex_less_eq(xs, ys),
            Err(ModelError::InvalidConstraint { .. })
        ));
    }
}
