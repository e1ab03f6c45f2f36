//! Linear constraints: `a₁·x₁ + a₂·x₂ + … + aₙ·xₙ  ⋈  c`, where `⋈` is a [`Relation`].

use crate::error::ModelError;
use crate::ids::{VarId, View};
use crate::propagator::{Conflict, Context, PostContext, Propagator, Rule, Wake};

/// How the left-hand side of a linear constraint compares with its right-hand side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Relation {
    /// `sum == c`.
    Equal,
    /// `sum != c`.
    NotEqual,
    /// `sum <= c`.
    LessEq,
    /// `sum >= c`.
    GreaterEq,
}

impl Relation {
    /// Whether `lhs ⋈ rhs` holds.
    pub fn holds(self, lhs: i64, rhs: i64) -> bool {
        match self {
            Relation::Equal => lhs == rhs,
            Relation::NotEqual => lhs != rhs,
            Relation::LessEq => lhs <= rhs,
            Relation::GreaterEq => lhs >= rhs,
        }
    }

    fn symbol(self) -> &'static str {
        match self {
            Relation::Equal => "==",
            Relation::NotEqual => "!=",
            Relation::LessEq => "<=",
            Relation::GreaterEq => ">=",
        }
    }
}

impl std::fmt::Display for Relation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.symbol())
    }
}

/// One term `coefficient · view` of a linear constraint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Term {
    coef: i64,
    view: View,
}

impl Term {
    fn min(self, ctx: &Context<'_>) -> i64 {
        if self.coef >= 0 {
            self.coef * i64::from(ctx.min(self.view))
        } else {
            self.coef * i64::from(ctx.max(self.view))
        }
    }

    fn max(self, ctx: &Context<'_>) -> i64 {
        if self.coef >= 0 {
            self.coef * i64::from(ctx.max(self.view))
        } else {
            self.coef * i64::from(ctx.min(self.view))
        }
    }

    /// Enforces `coef · view <= bound`.
    fn at_most(self, ctx: &mut Context<'_>, bound: i64) -> Result<bool, Conflict> {
        match self.coef {
            0 => Ok(false),
            c if c > 0 => set_max(ctx, self.view, bound.div_euclid(c)),
            // c·x <= b with c < 0  ⇔  x >= b / c, rounded up.
            c => set_min(ctx, self.view, div_ceil(bound, c)),
        }
    }
}

/// `a / b` rounded towards positive infinity (`b != 0`).
pub(super) fn div_ceil(a: i64, b: i64) -> i64 {
    let (q, r) = (a / b, a % b);
    if r != 0 && ((r > 0) == (b > 0)) {
        q + 1
    } else {
        q
    }
}

pub(super) fn set_max(ctx: &mut Context<'_>, view: View, max: i64) -> Result<bool, Conflict> {
    if max < i64::from(ctx.min(view)) {
        return Err(Conflict);
    }
    match i32::try_from(max) {
        Ok(max) => ctx.set_max(view, max),
        Err(_) => Ok(false), // above every i32 value: nothing to remove
    }
}

pub(super) fn set_min(ctx: &mut Context<'_>, view: View, min: i64) -> Result<bool, Conflict> {
    if min > i64::from(ctx.max(view)) {
        return Err(Conflict);
    }
    match i32::try_from(min) {
        Ok(min) => ctx.set_min(view, min),
        Err(_) => Ok(false),
    }
}

/// `Σ aᵢ·xᵢ ⋈ c`. Built by [`Model::linear`](crate::Model::linear) and
/// [`Model::sum`](crate::Model::sum), which check that the sums fit in `i64`.
///
/// # Propagation
///
/// `=`, `<=` and `>=` are propagated on bounds: each term's bound is tightened by what the
/// other terms can at least contribute, repeated until nothing moves. `!=` waits until all terms
/// but one are fixed, then removes the one value the last term must not take.
///
/// Sums are computed in `i64`. [`Model::linear`](crate::Model::linear) checks, when the constraint
/// is posted, that no sum of the terms over the variables' initial domains can leave the `i64`
/// range, and reports [`ModelError::InvalidConstraint`](crate::ModelError::InvalidConstraint)
/// otherwise, so propagation never overflows.
#[derive(Clone, Debug)]
pub struct Linear {
    terms: Vec<Term>,
    relation: Relation,
    rhs: i64,
}

impl Linear {
    /// The constraint; the caller has checked the `i64` range (see the type docs).
    pub(crate) fn new(terms: &[(i32, View)], relation: Relation, rhs: i32) -> Linear {
        Linear {
            terms: terms
                .iter()
                .map(|&(coef, view)| Term {
                    coef: i64::from(coef),
                    view,
                })
                .collect(),
            relation,
            rhs: i64::from(rhs),
        }
    }

    /// One pass of `Σ terms <= rhs` (with all terms' signs flipped when `negate`).
    /// `Ok(true)` if a bound moved.
    fn at_most(&self, ctx: &mut Context<'_>, negate: bool) -> Result<bool, Conflict> {
        let sign = if negate { -1 } else { 1 };
        let rhs = sign * self.rhs;
        let term = |t: &Term| Term {
            coef: sign * t.coef,
            view: t.view,
        };
        let min_sum: i64 = self.terms.iter().map(|t| term(t).min(ctx)).sum();
        if min_sum > rhs {
            return Err(Conflict);
        }
        // Everything else contributes at least min_sum - t.min, so t may reach
        // slack + t.min: only a term wider than the slack can lose values.
        let slack = rhs - min_sum;
        let mut changed = false;
        for t in self.terms.iter().map(term) {
            let low = t.min(ctx);
            if t.max(ctx) - low > slack {
                changed |= t.at_most(ctx, slack + low)?;
            }
        }
        Ok(changed)
    }

    fn not_equal(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let mut open = None;
        let mut fixed_sum = 0i64;
        for t in &self.terms {
            match ctx.value(t.view) {
                Some(v) => fixed_sum += t.coef * i64::from(v),
                None if open.is_none() => open = Some(*t),
                None => return Ok(()), // two unfixed terms: nothing to do yet
            }
        }
        let rest = self.rhs - fixed_sum;
        match open {
            None if rest == 0 => Err(Conflict),
            None => Ok(()),
            Some(t) if t.coef != 0 && rest % t.coef == 0 => {
                if let Ok(v) = i32::try_from(rest / t.coef) {
                    ctx.remove(t.view, v)?;
                }
                Ok(())
            }
            Some(t) if t.coef == 0 && rest == 0 => Err(Conflict),
            Some(_) => Ok(()),
        }
    }
}

impl Propagator for Linear {
    fn name(&self) -> &'static str {
        "linear"
    }

    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        let wake = match self.relation {
            Relation::NotEqual => Wake::Fixed,
            _ => Wake::Bounds,
        };
        ctx.watch_all(self.terms.iter().map(|t| t.view), wake)
    }

    fn is_idempotent(&self) -> bool {
        true
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        ctx.set_rule(Rule::LinearBounds);
        match self.relation {
            Relation::LessEq => while self.at_most(ctx, false)? {},
            Relation::GreaterEq => while self.at_most(ctx, true)? {},
            Relation::Equal => loop {
                let down = self.at_most(ctx, false)?;
                let up = self.at_most(ctx, true)?;
                if !down && !up {
                    break;
                }
            },
            Relation::NotEqual => {
                ctx.set_rule(Rule::LinearDisequality);
                self.not_equal(ctx)?;
            }
        }
        Ok(())
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        holds(
            self.terms.iter().map(|t| (t.coef, t.view)),
            self.relation,
            self.rhs,
            value,
        )
    }
}

/// Whether `Σ coef · view ⋈ rhs` holds at the values `value` gives, computed exactly.
pub(super) fn holds(
    terms: impl Iterator<Item = (i64, View)>,
    relation: Relation,
    rhs: i64,
    value: &dyn Fn(VarId) -> i32,
) -> bool {
    let lhs: i128 = terms
        .map(|(coef, view)| {
            i128::from(coef) * (i128::from(value(view.var)) + i128::from(view.offset))
        })
        .sum();
    match relation {
        Relation::Equal => lhs == i128::from(rhs),
        Relation::NotEqual => lhs != i128::from(rhs),
        Relation::LessEq => lhs <= i128::from(rhs),
        Relation::GreaterEq => lhs >= i128::from(rhs),
    }
}

#[cfg(test)]
mod tests {
    use super::{Relation, div_ceil};
    use crate::{Model, ModelError, Outcome, Solver};

    #[test]
    fn div_ceil_rounds_up_for_every_sign() {
        assert_eq!(div_ceil(7, 2), 4);
        assert_eq!(div_ceil(-7, 2), -3);
        assert_eq!(div_ceil(7, -2), -3);
        assert_eq!(div_ceil(-7, -2), 4);
        assert_eq!(div_ceil(6, -2), -3);
    }

    #[test]
    fn equality_tightens_bounds_to_the_fixpoint() {
        // x + 2y == 10, x in 0..=9, y in 0..=9, and y >= 4 through x <= 2.
        let mut model = Model::new();
        let x = model.int_var(0, 2).unwrap();
        let y = model.int_var(0, 9).unwrap();
        model.linear([(1, x), (2, y)], Relation::Equal, 10).unwrap();
        let domains = Solver::new(model).root_domains().unwrap();
        // 2y in 8..=10 gives y in 4..=5; then x = 10 - 2y in 0..=2 (bounds only).
        assert_eq!(domains[1], vec![4, 5]);
        assert_eq!(domains[0], vec![0, 1, 2]);
    }

    #[test]
    fn negative_coefficients_and_views() {
        // (x + 1) - y <= -3 over 0..=5: y >= x + 4, so x <= 1 and y >= 4.
        let mut model = Model::new();
        let x = model.int_var(0, 5).unwrap();
        let y = model.int_var(0, 5).unwrap();
        model
            .linear([(1, x + 1), (-1, y.into())], Relation::LessEq, -3)
            .unwrap();
        let domains = Solver::new(model).root_domains().unwrap();
        assert_eq!(domains, vec![vec![0, 1], vec![4, 5]]);
    }

    #[test]
    fn greater_eq_finds_the_conflict() {
        let mut model = Model::new();
        let xs = model.int_vars(3, 0, 2).unwrap();
        model.sum(xs, Relation::GreaterEq, 7).unwrap();
        assert_eq!(Solver::new(model).solve(), Outcome::Unsatisfiable);
    }

    #[test]
    fn not_equal_prunes_the_last_open_term() {
        let mut model = Model::new();
        let x = model.var_from_values([3]).unwrap();
        let y = model.int_var(0, 5).unwrap();
        model
            .linear([(2, x), (3, y)], Relation::NotEqual, 12)
            .unwrap();
        let domains = Solver::new(model).root_domains().unwrap();
        assert_eq!(domains[1], vec![0, 1, 3, 4, 5]); // 6 + 3·2 = 12 is gone

        let mut model = Model::new();
        let x = model.var_from_values([3]).unwrap();
        model.sum([x, x], Relation::NotEqual, 6).unwrap();
        assert_eq!(Solver::new(model).solve(), Outcome::Unsatisfiable);
    }

    #[test]
    fn sums_that_could_overflow_are_refused() {
        let mut model = Model::new();
        let x = model.var_from_values([i32::MIN, i32::MIN + 1]).unwrap();
        let err = model
            .linear(
                [(i32::MIN, x), (i32::MIN, x), (i32::MIN, x)],
                Relation::Equal,
                0,
            )
            .unwrap_err();
        assert!(matches!(err, ModelError::InvalidConstraint { .. }));
    }

    #[test]
    fn empty_sums_are_refused() {
        let mut model = Model::new();
        let none: [crate::VarId; 0] = [];
        assert!(matches!(
            model.sum(none, Relation::Equal, 0),
            Err(ModelError::NoVariables { .. })
        ));
    }
}
