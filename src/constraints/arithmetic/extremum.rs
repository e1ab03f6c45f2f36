//! `z == max(xs)` and `z == min(xs)`.

use super::value_of;
use crate::constraints::Arithmetic;
use crate::error::ModelError;
use crate::ids::{VarId, View};
use crate::propagator::{Conflict, Context, PostContext, Propagator, Wake};

/// `z == max(xs)` or `z == min(xs)` over at least one view. Built by
/// [`Model::maximum`](crate::Model::maximum) and [`Model::minimum`](crate::Model::minimum).
///
/// Bounds consistent (label [`Arithmetic::BOUNDS`]), shown here for the maximum:
/// `z` between the largest minimum and the largest maximum of the `xs`; every `x`
/// at most `max(z)`; and when only one `x` can reach `min(z)`, that one at least
/// `min(z)`. The minimum is the mirror image.
///
/// Incremental, woken by bounds only: two trailed supports, `s` (an `x` whose
/// maximum is `max(z)`) and `t` (another `x` that reaches `min(z)`), spare the scan
/// over the `xs` while they hold. A call costs `O(k)` for `k` changed views, plus
/// `O(n)` over the `n` views when `max(z)` fell or a support was lost. One call
/// reaches the fixpoint (idempotent).
#[derive(Clone, Debug)]
pub struct Extremum {
    xs: Vec<View>,
    z: View,
    /// Whether it is the maximum (otherwise the minimum).
    is_max: bool,
}

/// The state word: the support `s` in the low half, `t` in the high half (`t ==
/// xs.len()` for none).
fn supports(word: u64) -> (usize, usize) {
    ((word & u64::from(u32::MAX)) as usize, (word >> 32) as usize)
}

impl Extremum {
    /// `z == max(xs)` if `is_max`, `z == min(xs)` otherwise.
    pub(crate) fn new(xs: Vec<View>, z: View, is_max: bool) -> Extremum {
        Extremum { xs, z, is_max }
    }

    /// A view's minimum as the maximum sees it: its maximum negated for the
    /// minimum, since `min(xs) == -max(-xs)`.
    fn lo(&self, ctx: &Context<'_>, view: View) -> i64 {
        match self.is_max {
            true => i64::from(ctx.min(view)),
            false => -i64::from(ctx.max(view)),
        }
    }

    /// A view's maximum as the maximum sees it (see [`Self::lo`]).
    fn hi(&self, ctx: &Context<'_>, view: View) -> i64 {
        match self.is_max {
            true => i64::from(ctx.max(view)),
            false => -i64::from(ctx.min(view)),
        }
    }

    /// Raises a view's minimum, as the maximum sees it, to `lo` (a value some view
    /// of this constraint has, so within `i32`).
    fn raise(&self, ctx: &mut Context<'_>, view: View, lo: i64) -> Result<(), Conflict> {
        if lo > self.lo(ctx, view) {
            match self.is_max {
                true => ctx.set_min(view, lo as i32)?,
                false => ctx.set_max(view, -lo as i32)?,
            };
        }
        Ok(())
    }

    /// Lowers a view's maximum, as the maximum sees it, to `hi`.
    fn lower(&self, ctx: &mut Context<'_>, view: View, hi: i64) -> Result<(), Conflict> {
        if hi < self.hi(ctx, view) {
            match self.is_max {
                true => ctx.set_max(view, hi as i32)?,
                false => ctx.set_min(view, -hi as i32)?,
            };
        }
        Ok(())
    }

    /// Restores `max(z) == max(x_s) >= max(x)` for every `x`, after `max(z)` fell
    /// (`z_fell`: every `x` is cut to it) or the support `s` was lost (a new one is
    /// found by a scan); returns `s`.
    fn settle_max(
        &self,
        ctx: &mut Context<'_>,
        mut s: usize,
        mut z_fell: bool,
    ) -> Result<usize, Conflict> {
        loop {
            let z_hi = self.hi(ctx, self.z);
            if z_fell {
                for &x in &self.xs {
                    self.lower(ctx, x, z_hi)?;
                }
            }
            if self.hi(ctx, self.xs[s]) == z_hi {
                return Ok(s);
            }
            let mut top = i64::MIN;
            for (i, &x) in self.xs.iter().enumerate() {
                let hi = self.hi(ctx, x);
                if hi > top {
                    (top, s) = (hi, i);
                }
            }
            self.lower(ctx, self.z, top)?;
            // A hole in z below `top` moves max(z) further down: cut again.
            z_fell = self.hi(ctx, self.z) < top;
            if !z_fell {
                return Ok(s);
            }
        }
    }

    /// Restores "some `x` other than `s` reaches `min(z)`, or `x_s >= min(z)`";
    /// returns `t`, the other one, or `xs.len()` for none.
    fn settle_min(&self, ctx: &mut Context<'_>, s: usize, t: usize) -> Result<usize, Conflict> {
        let z_lo = self.lo(ctx, self.z);
        let reaches = |i: usize| i != s && self.hi(ctx, self.xs[i]) >= z_lo;
        if t < self.xs.len() && reaches(t) {
            return Ok(t);
        }
        if let Some(t) = (0..self.xs.len()).find(|&i| reaches(i)) {
            return Ok(t);
        }
        // x_s alone reaches min(z): it is at least min(z), and min(z) at least its
        // minimum, until holes stop moving either.
        let x = self.xs[s];
        let mut lo = z_lo;
        loop {
            self.raise(ctx, x, lo)?;
            let x_lo = self.lo(ctx, x);
            self.raise(ctx, self.z, x_lo)?;
            lo = self.lo(ctx, self.z);
            if lo == x_lo {
                return Ok(self.xs.len());
            }
        }
    }
}

impl Propagator for Extremum {
    fn name(&self) -> &'static str {
        if self.is_max { "maximum" } else { "minimum" }
    }

    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        if self.xs.is_empty() {
            return Err(ModelError::NoVariables {
                constraint: self.name(),
            });
        }
        ctx.watch_all(self.xs.iter().copied(), Wake::Bounds)?;
        ctx.watch(self.z, Wake::Bounds)?;
        // s = 0, t = none: checked, and found again, on the first call.
        ctx.set_initial_state(vec![(self.xs.len() as u64) << 32]);
        Ok(())
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        ctx.set_label(Arithmetic::BOUNDS);
        // Only the changed views can have raised the largest minimum, and every x
        // stayed under max(z) unless max(z) fell (z changed).
        let (mut lo, mut z_fell) = (i64::MIN, false);
        for &i in ctx.modified() {
            match self.xs.get(i as usize) {
                Some(&x) => lo = lo.max(self.lo(ctx, x)),
                None => z_fell = true,
            }
        }
        self.raise(ctx, self.z, lo)?;
        let word = ctx.state()[0];
        let (s, t) = supports(word);
        let s = self.settle_max(ctx, s, z_fell)?;
        let t = self.settle_min(ctx, s, t)?;
        let settled = s as u64 | (t as u64) << 32;
        if settled != word {
            ctx.set_state(0, settled);
        }
        Ok(())
    }

    fn is_idempotent(&self) -> bool {
        true
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        let values = self.xs.iter().map(|&x| value_of(x, value));
        let extreme = if self.is_max {
            values.max()
        } else {
            values.min()
        };
        extreme == Some(value_of(self.z, value))
    }
}

#[cfg(test)]
mod tests {
    use crate::{Model, Solver};

    #[test]
    fn holes_move_the_bounds_until_they_settle() {
        let mut model = Model::new();
        let a = model.var_from_values([0, 1, 6, 8]).unwrap();
        let b = model.int_var(0, 3).unwrap();
        let z = model.var_from_values([4, 6, 7]).unwrap();
        model.maximum([a, b], z).unwrap();
        // a <= 7 leaves a at most 6, so z <= 6; only a reaches min(z) = 4, so
        // a >= 4: a = 6, and z follows.
        let domains = Solver::new(model).root_domains().unwrap();
        assert_eq!(domains, vec![vec![6], vec![0, 1, 2, 3], vec![6]]);
    }

    #[test]
    fn the_minimum_is_the_mirror_image() {
        let mut model = Model::new();
        let a = model.var_from_values([-8, -6, -1, 0]).unwrap();
        let b = model.int_var(-3, 0).unwrap();
        let z = model.var_from_values([-7, -6, -4]).unwrap();
        model.minimum([a, b], z).unwrap();
        let domains = Solver::new(model).root_domains().unwrap();
        assert_eq!(domains, vec![vec![-6], vec![-3, -2, -1, 0], vec![-6]]);
    }

    #[test]
    fn supports_follow_levels_pushed_and_popped() {
        let mut model = Model::new();
        let a = model.int_var(0, 9).unwrap();
        let b = model.int_var(0, 9).unwrap();
        let c = model.int_var(0, 9).unwrap();
        let z = model.int_var(0, 9).unwrap();
        model.maximum([a, b, c], z).unwrap();
        let mut solver = Solver::new(model);
        let all = (0..=9).collect::<Vec<_>>();
        let upto = |hi| (0..=hi).collect::<Vec<_>>();
        // max(z) falls: every x is cut to it.
        assert!(solver.push_level([(z, 5)]).unwrap());
        let domains = solver.root_domains().unwrap();
        assert_eq!(domains, vec![upto(5), upto(5), upto(5), vec![5]]);
        // Two of three cannot reach 5: the third is 5.
        assert!(solver.push_level([(a, 2)]).unwrap());
        assert!(solver.push_level([(c, 4)]).unwrap());
        let domains = solver.root_domains().unwrap();
        assert_eq!(domains, vec![vec![2], vec![5], vec![4], vec![5]]);
        solver.pop_level();
        let domains = solver.root_domains().unwrap();
        assert_eq!(domains, vec![vec![2], upto(5), upto(5), vec![5]]);
        solver.pop_level();
        solver.pop_level();
        // The support of max(z) is lost by fixing it lower: z follows the others.
        assert!(solver.push_level([(b, 7)]).unwrap());
        let domains = solver.root_domains().unwrap();
        assert_eq!(
            domains,
            vec![all.clone(), vec![7], all.clone(), (7..=9).collect()]
        );
        // z = max(a, 7, c) for each of the 100 pairs (a, c).
        assert_eq!(solver.count(None).solutions, 100);
    }
}
