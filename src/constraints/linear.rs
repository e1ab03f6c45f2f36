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
    /// The least and the greatest value the term takes over the current domain.
    #[inline(always)]
    fn bounds(self, ctx: &Context<'_>) -> (i64, i64) {
        let (min, max) = (
            self.coef * i64::from(ctx.min(self.view)),
            self.coef * i64::from(ctx.max(self.view)),
        );
        if self.coef >= 0 {
            (min, max)
        } else {
            (max, min)
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

    /// Enforces `coef · view >= bound`.
    fn at_least(self, ctx: &mut Context<'_>, bound: i64) -> Result<bool, Conflict> {
        match self.coef {
            0 => Ok(false),
            c if c > 0 => set_min(ctx, self.view, div_ceil(bound, c)),
            // c·x >= b with c < 0  ⇔  x <= b / c = -b / -c, rounded down.
            c => set_max(ctx, self.view, (-bound).div_euclid(-c)),
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

/// A term's bounds before a change, to put back on backtracking.
#[derive(Clone, Copy, Debug)]
struct Change {
    term: u32,
    low: i64,
    high: i64,
}

/// What [`Linear`] knows of its terms from call to call: each term's bounds as last
/// seen, their sums, and the log of changes that backtracking undoes.
///
/// The log is the propagator's own trail. Its length (plus one) is the propagator's
/// one state word, which the store puts back when the search backtracks: each call
/// first undoes the log down to that length, so that the bounds and sums are those of
/// the node the search is at, then reads the terms [`Context::modified`] lists. A state
/// word of 0 (each search starts from it) means nothing is known yet: every term is read.
#[derive(Clone, Debug, Default)]
struct Sums {
    /// Per term, the least and greatest value it takes, as last seen.
    bounds: Vec<(i64, i64)>,
    /// The sums of the terms' least and greatest values.
    low: i64,
    high: i64,
    /// The changes of `bounds` since the sums were set up, oldest first.
    log: Vec<Change>,
    /// The term indices by decreasing span at set-up (the widest first), and those
    /// spans: no term in `order[k..]` is wider than `spans[k]`, since domains only
    /// shrink below the node where they were set up.
    order: Vec<u32>,
    spans: Vec<i64>,
    /// Whether the propagator was posted, and so keeps the sums from call to call
    /// (`true`), or is run by another one, such as [`Reified`](crate::Reified), whose
    /// state and modified variables are not its own: then every call reads every term.
    incremental: bool,
}

impl Sums {
    /// Reads every term and orders them by span. `trusted`: domains only shrink from
    /// here while the state word stays set, so the spans may stop the scans; otherwise
    /// every `spans` entry is `i64::MAX` and each scan reads every term's bounds.
    fn set_up(&mut self, terms: &[Term], ctx: &Context<'_>, trusted: bool) {
        self.log.clear();
        self.bounds.clear();
        self.bounds.extend(terms.iter().map(|t| t.bounds(ctx)));
        self.low = self.bounds.iter().map(|b| b.0).sum();
        self.high = self.bounds.iter().map(|b| b.1).sum();
        self.order.clear();
        self.order.extend(0..terms.len() as u32);
        self.spans.clear();
        if trusted {
            let span = |i: u32| self.bounds[i as usize].1 - self.bounds[i as usize].0;
            let mut order = std::mem::take(&mut self.order);
            order.sort_unstable_by_key(|&i| std::cmp::Reverse(span(i)));
            self.spans.extend(order.iter().map(|&i| span(i)));
            self.order = order;
        } else {
            self.spans.resize(terms.len(), i64::MAX);
        }
    }

    /// Brings the bounds and sums to the current domains: undoes the log to the
    /// length the state word gives, then reads the modified terms. O(undone changes +
    /// modified terms); O(n) when set up.
    fn sync(&mut self, terms: &[Term], ctx: &Context<'_>) {
        if !self.incremental {
            return self.set_up(terms, ctx, false);
        }
        let mark = ctx.state()[0] as usize;
        if mark == 0 || mark - 1 > self.log.len() {
            // Nothing known in this search (or a log that is not this store's, which
            // cannot happen: then no span at set-up is trusted).
            return self.set_up(terms, ctx, mark == 0);
        }
        while self.log.len() > mark - 1 {
            let change = self.log.pop().expect("longer than the mark");
            let bounds = &mut self.bounds[change.term as usize];
            self.low += change.low - bounds.0;
            self.high += change.high - bounds.1;
            *bounds = (change.low, change.high);
        }
        for &i in ctx.modified() {
            self.refresh(terms, ctx, i as usize);
        }
    }

    /// Reads term `i` again.
    #[inline]
    fn refresh(&mut self, terms: &[Term], ctx: &Context<'_>, i: usize) {
        let (low, high) = terms[i].bounds(ctx);
        let old = self.bounds[i];
        if (low, high) != old {
            if self.incremental {
                self.log.push(Change {
                    term: i as u32,
                    low: old.0,
                    high: old.1,
                });
            }
            self.low += low - old.0;
            self.high += high - old.1;
            self.bounds[i] = (low, high);
        }
    }

    /// Saves the log's length in the state word, for backtracking to undo to.
    fn save(&self, ctx: &mut Context<'_>) {
        if self.incremental {
            ctx.set_state(0, self.log.len() as u64 + 1);
        }
    }

    /// `Σ terms <= rhs`: each term at most its least value plus the slack that the
    /// others' least values leave. Only terms wider than the slack can lose values,
    /// and `order` lists the widest first: the scan stops at the first narrower one.
    fn at_most(&mut self, terms: &[Term], ctx: &mut Context<'_>, rhs: i64) -> Result<(), Conflict> {
        let slack = rhs - self.low;
        if slack < 0 {
            return Err(Conflict);
        }
        for k in 0..self.order.len() {
            if self.spans[k] <= slack {
                break;
            }
            let i = self.order[k] as usize;
            let (low, high) = self.bounds[i];
            if high - low > slack {
                terms[i].at_most(ctx, low + slack)?;
                self.refresh(terms, ctx, i);
            }
        }
        Ok(())
    }

    /// `Σ terms >= rhs`, as [`Sums::at_most`].
    fn at_least(
        &mut self,
        terms: &[Term],
        ctx: &mut Context<'_>,
        rhs: i64,
    ) -> Result<(), Conflict> {
        let slack = self.high - rhs;
        if slack < 0 {
            return Err(Conflict);
        }
        for k in 0..self.order.len() {
            if self.spans[k] <= slack {
                break;
            }
            let i = self.order[k] as usize;
            let (low, high) = self.bounds[i];
            if high - low > slack {
                terms[i].at_least(ctx, high - slack)?;
                self.refresh(terms, ctx, i);
            }
        }
        Ok(())
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
/// The bounds are incremental: the propagator keeps each term's least and greatest value
/// and their sums from call to call, reads only the terms whose bounds moved, and undoes
/// its own log of changes when the search backtracks (one state word holds the log's
/// length). A call costs O(m + w) for m moved terms and w terms wider than the slack
/// (their bounds move), plus the changes undone since the last call; the first call of
/// each search reads all n terms and sorts them by span, O(n log n). `!=` costs O(n) a
/// call.
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
    /// Boxed: [`Reified`](crate::Reified) holds two `Linear`s by value.
    sums: Box<Sums>,
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
            sums: Box::default(),
        }
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
            _ => {
                // The length of the log plus one; 0: not set up in this search.
                ctx.set_initial_state(vec![0]);
                self.sums.incremental = true;
                Wake::Bounds
            }
        };
        ctx.watch_all(self.terms.iter().map(|t| t.view), wake)
    }

    fn is_idempotent(&self) -> bool {
        true
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        if self.relation == Relation::NotEqual {
            ctx.set_rule(Rule::LinearDisequality);
            return self.not_equal(ctx);
        }
        ctx.set_rule(Rule::LinearBounds);
        let Linear {
            terms, sums, rhs, ..
        } = self;
        sums.sync(terms, ctx);
        // Narrowing the greatest values changes no least one, so one pass of `<=` (or
        // of `>=`) is its own fixpoint; `==` alternates until neither sum moves.
        match self.relation {
            Relation::LessEq => sums.at_most(terms, ctx, *rhs)?,
            Relation::GreaterEq => sums.at_least(terms, ctx, *rhs)?,
            _ => {
                sums.at_most(terms, ctx, *rhs)?;
                loop {
                    let low = sums.low;
                    sums.at_least(terms, ctx, *rhs)?;
                    if sums.low == low {
                        break;
                    }
                    let high = sums.high;
                    sums.at_most(terms, ctx, *rhs)?;
                    if sums.high == high {
                        break;
                    }
                }
            }
        }
        sums.save(ctx);
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
