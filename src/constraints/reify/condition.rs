//! The built-in reifiable [`Condition`]s: a view compared with a constant, two views
//! compared, a view in (or out of) a set of constants, or a linear relation. While the
//! literal is open, the condition is checked on the current domains: if every remaining
//! assignment satisfies it (it is *entailed*), or none does (*disentailed*), the literal
//! is fixed. Once the literal is fixed, the condition (or its negation) is propagated as
//! the plain constraint would be: bounds for linear relations and `<=`, domains for
//! `==`, `!=` and sets.

use super::{IntoReifiable, Reifiable};
use crate::constraints::binary::{Equal, NotEqual};
use crate::constraints::linear::{Linear, Relation, SUM_OVERFLOW, sum_may_overflow};
use crate::constraints::support::{RetainSupported, Shifted, Sorted};
use crate::error::ModelError;
use crate::ids::{VarId, View};
use crate::propagator::{Conflict, Context, PostContext, Propagator, Wake};

/// A built-in constraint that a literal can be tied to with
/// [`Model::reify`](crate::Model::reify) (`b <-> C`) or
/// [`Model::half_reify`](crate::Model::half_reify) (`b -> C`); reified as a
/// [`PreparedCondition`] (see there for its propagation).
///
/// ```
/// use alldiff::{Condition, Relation};
/// # let mut model = alldiff::Model::new();
/// # let [x, y] = [0; 2].map(|_| model.int_var(0, 9).unwrap());
/// let small = Condition::compare(x, Relation::LessEq, 3); // x <= 3
/// let same = Condition::compare_views(x, Relation::Equal, y + 1); // x == y + 1
/// let prime = Condition::in_set(x, [2, 3, 5, 7]); // x in {2, 3, 5, 7}
/// let heavy = Condition::linear([(2, x), (3, y)], Relation::GreaterEq, 20); // 2x + 3y >= 20
/// # let _ = (small, same, prime, heavy);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Condition {
    /// `view ⋈ value`.
    Compare {
        /// The view compared.
        view: View,
        /// How it compares.
        relation: Relation,
        /// The constant.
        value: i32,
    },
    /// `a ⋈ b`.
    CompareViews {
        /// The left-hand view.
        a: View,
        /// How it compares.
        relation: Relation,
        /// The right-hand view.
        b: View,
    },
    /// `view ∈ values`.
    InSet {
        /// The view.
        view: View,
        /// The constants (any order, repeats ignored).
        values: Vec<i32>,
    },
    /// `view ∉ values`.
    NotInSet {
        /// The view.
        view: View,
        /// The constants (any order, repeats ignored).
        values: Vec<i32>,
    },
    /// `Σ coefficient · view ⋈ rhs`, as [`Model::linear`](crate::Model::linear).
    Linear {
        /// The terms `(coefficient, view)`.
        terms: Vec<(i32, View)>,
        /// How the sum compares.
        relation: Relation,
        /// The right-hand side.
        rhs: i32,
    },
}

impl Condition {
    /// `view ⋈ value`: `x == c`, `x != c`, `x <= c` or `x >= c`.
    pub fn compare(view: impl Into<View>, relation: Relation, value: i32) -> Condition {
        Condition::Compare {
            view: view.into(),
            relation,
            value,
        }
    }

    /// `a ⋈ b`: `x == y`, `x != y`, `x <= y` or `x >= y` (views, so `x <= y + 2` too).
    pub fn compare_views(a: impl Into<View>, relation: Relation, b: impl Into<View>) -> Condition {
        Condition::CompareViews {
            a: a.into(),
            relation,
            b: b.into(),
        }
    }

    /// `view ∈ values`.
    pub fn in_set(view: impl Into<View>, values: impl IntoIterator<Item = i32>) -> Condition {
        Condition::InSet {
            view: view.into(),
            values: values.into_iter().collect(),
        }
    }

    /// `view ∉ values`.
    pub fn not_in_set(view: impl Into<View>, values: impl IntoIterator<Item = i32>) -> Condition {
        Condition::NotInSet {
            view: view.into(),
            values: values.into_iter().collect(),
        }
    }

    /// `Σ coefficient · view ⋈ rhs`.
    pub fn linear<V: Into<View>>(
        terms: impl IntoIterator<Item = (i32, V)>,
        relation: Relation,
        rhs: i32,
    ) -> Condition {
        Condition::Linear {
            terms: terms.into_iter().map(|(a, v)| (a, v.into())).collect(),
            relation,
            rhs,
        }
    }
}

/// The values a view must take for a membership condition to hold.
#[derive(Clone, Debug)]
enum Set {
    AtMost(i32),
    AtLeast(i32),
    Point(i32),
    /// Sorted, without repeats.
    Values(Vec<i32>),
}

/// A condition as propagated, with its negation at hand.
#[derive(Clone, Debug)]
enum Cond {
    /// `view ∈ set`, or `∉` when negated.
    Member {
        view: View,
        set: Set,
        negated: bool,
        /// Values to remove, reused.
        scratch: Vec<i32>,
    },
    /// `a == b`, or `!=` when negated.
    Equality {
        eq: Equal,
        ne: NotEqual,
        a: View,
        b: View,
        negated: bool,
    },
    /// `x - y <= c` over two views of different variables (`x <= y + c`), the
    /// linear relations `<=` and `>=` of two unit terms; its negation is
    /// `y - x <= -c - 1`.
    Difference { x: View, y: View, c: i64 },
    /// `Σ terms ⋈ rhs`, with the constraint and its negation.
    Linear {
        terms: Vec<(i64, View)>,
        relation: Relation,
        rhs: i64,
        holds: Linear,
        fails: Linear,
    },
}

/// The negation of `Σ ⋈ rhs`, as a relation and a right-hand side (one past `i32` for
/// `Σ <= i32::MAX` or `Σ >= i32::MIN`, which the sum in `i64` takes).
fn negate(relation: Relation, rhs: i64) -> (Relation, i64) {
    match relation {
        Relation::Equal => (Relation::NotEqual, rhs),
        Relation::NotEqual => (Relation::Equal, rhs),
        Relation::LessEq => (Relation::GreaterEq, rhs + 1),
        Relation::GreaterEq => (Relation::LessEq, rhs - 1),
    }
}

/// `x - y <= c` on the bounds of two views of different variables: `x` at most
/// `max(y) + c`, `y` at least `min(x) - c`. One pass is the fixpoint (each bound
/// moved depends only on the other view's opposite bound). O(1).
fn at_most(ctx: &mut Context<'_>, x: View, y: View, c: i64) -> Result<(), Conflict> {
    let top = i64::from(ctx.max(y)) + c;
    if top < i64::from(ctx.min(x)) {
        return Err(Conflict);
    }
    if top < i64::from(ctx.max(x)) {
        // Between min(x) and max(x): an i32.
        ctx.set_max(x, top as i32)?;
    }
    let bottom = i64::from(ctx.min(x)) - c;
    if bottom > i64::from(ctx.min(y)) {
        // Between min(y) and max(y), since min(x) - c <= max(y).
        ctx.set_min(y, bottom as i32)?;
    }
    // Every value of x at most every value of y, plus c: done with.
    if i64::from(ctx.max(x)) - i64::from(ctx.min(y)) <= c {
        ctx.entailed();
    }
    Ok(())
}

impl Cond {
    fn new(condition: Condition) -> Cond {
        let member = |view, set, negated| Cond::Member {
            view,
            set,
            negated,
            scratch: Vec::new(),
        };
        let sorted = |mut values: Vec<i32>| {
            values.sort_unstable();
            values.dedup();
            Set::Values(values)
        };
        match condition {
            Condition::Compare {
                view,
                relation,
                value,
            } => match relation {
                Relation::Equal => member(view, Set::Point(value), false),
                Relation::NotEqual => member(view, Set::Point(value), true),
                Relation::LessEq => member(view, Set::AtMost(value), false),
                Relation::GreaterEq => member(view, Set::AtLeast(value), false),
            },
            Condition::InSet { view, values } => member(view, sorted(values), false),
            Condition::NotInSet { view, values } => member(view, sorted(values), true),
            Condition::CompareViews { a, relation, b } => match relation {
                Relation::Equal | Relation::NotEqual => Cond::Equality {
                    eq: Equal::new(a, b),
                    ne: NotEqual::new(a, b),
                    a,
                    b,
                    negated: relation == Relation::NotEqual,
                },
                // a ⋈ b as a - b ⋈ 0.
                _ => Cond::linear(&[(1, a), (-1, b)], relation, 0),
            },
            Condition::Linear {
                terms,
                relation,
                rhs,
            } => Cond::linear(&terms, relation, rhs),
        }
    }

    fn linear(terms: &[(i32, View)], relation: Relation, rhs: i32) -> Cond {
        // a·x - a·y ⋈ rhs with a = ±1 and ⋈ an inequality: a difference.
        if let [(a, u), (b, v)] = *terms
            && matches!((a, b), (1, -1) | (-1, 1))
            && u.var != v.var
        {
            let (x, y) = if a == 1 { (u, v) } else { (v, u) };
            let c = i64::from(rhs);
            match relation {
                Relation::LessEq => return Cond::Difference { x, y, c },
                Relation::GreaterEq => return Cond::Difference { x: y, y: x, c: -c },
                Relation::Equal | Relation::NotEqual => {}
            }
        }
        let (negated, negated_rhs) = negate(relation, i64::from(rhs));
        Cond::Linear {
            terms: terms.iter().map(|&(a, v)| (i64::from(a), v)).collect(),
            relation,
            rhs: i64::from(rhs),
            holds: Linear::new(terms, relation, i64::from(rhs)),
            fails: Linear::new(terms, negated, negated_rhs),
        }
    }

    fn post(&self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        match self {
            Cond::Member { view, set, .. } => {
                let wake = match set {
                    Set::AtMost(_) | Set::AtLeast(_) => Wake::Bounds,
                    Set::Point(_) | Set::Values(_) => Wake::Domain,
                };
                ctx.watch(*view, wake).map(drop)
            }
            Cond::Equality { a, b, .. } => ctx.watch_all([*a, *b], Wake::Domain),
            // Views' values fit `i32` and `|c| <= 2^31`: every sum below fits `i64`.
            Cond::Difference { x, y, .. } => ctx.watch_all([*x, *y], Wake::Bounds),
            Cond::Linear { terms, rhs, .. } => {
                ctx.watch_all(terms.iter().map(|&(_, v)| v), Wake::Bounds)?;
                // Entailment adds up the terms' bounds, and the negation moves the
                // right-hand side by one.
                let bounds = terms.iter().map(|&(a, v)| (a, (ctx.min(v), ctx.max(v))));
                if sum_may_overflow(i128::from(*rhs).abs() + 1, bounds) {
                    return Err(ModelError::InvalidConstraint {
                        constraint: ctx.constraint(),
                        reason: SUM_OVERFLOW.to_string(),
                    });
                }
                Ok(())
            }
        }
    }

    /// `Some(true)` if every assignment of the current domains satisfies the condition,
    /// `Some(false)` if none does, `None` otherwise.
    fn entailment(&self, ctx: &Context<'_>) -> Option<bool> {
        match self {
            Cond::Member {
                view, set, negated, ..
            } => {
                let (min, max) = (ctx.min(*view), ctx.max(*view));
                let inside = match set {
                    Set::AtMost(c) if max <= *c => Some(true),
                    Set::AtMost(c) if min > *c => Some(false),
                    Set::AtLeast(c) if min >= *c => Some(true),
                    Set::AtLeast(c) if max < *c => Some(false),
                    Set::Point(c) if !ctx.contains(*view, *c) => Some(false),
                    Set::Point(c) if min == max => Some(min == *c),
                    Set::Values(values) => {
                        // Counted over the smaller of the domain and the set: a domain
                        // may be four billion values wide.
                        let size = ctx.size(*view) as usize;
                        let inside = if size <= values.len() {
                            (ctx.values(*view))
                                .filter(|v| values.binary_search(v).is_ok())
                                .count()
                        } else {
                            (values.iter()).filter(|&&v| ctx.contains(*view, v)).count()
                        };
                        match inside {
                            0 => Some(false),
                            n if n == size => Some(true),
                            _ => None,
                        }
                    }
                    _ => None,
                };
                inside.map(|inside| inside != *negated)
            }
            Cond::Equality { a, b, negated, .. } => {
                let equal = match (ctx.value(*a), ctx.value(*b)) {
                    (Some(x), Some(y)) => Some(x == y),
                    _ if ctx.max(*a) < ctx.min(*b) || ctx.max(*b) < ctx.min(*a) => Some(false),
                    _ => {
                        // Stepped through both domains' gaps, never value by value.
                        let b_values = Shifted {
                            view: *b,
                            shifts: &[0],
                        };
                        let common = ctx.first_supported(*a, &b_values, ctx.min(*a));
                        common.is_none().then_some(false)
                    }
                };
                equal.map(|equal| equal != *negated)
            }
            &Cond::Difference { x, y, c } => {
                if i64::from(ctx.max(x)) - i64::from(ctx.min(y)) <= c {
                    Some(true)
                } else if i64::from(ctx.min(x)) - i64::from(ctx.max(y)) > c {
                    Some(false)
                } else {
                    None
                }
            }
            Cond::Linear {
                terms,
                relation,
                rhs,
                ..
            } => {
                let (lo, hi) = terms.iter().fold((0i64, 0i64), |(lo, hi), &(a, v)| {
                    let (x, y) = (a * i64::from(ctx.min(v)), a * i64::from(ctx.max(v)));
                    (lo + x.min(y), hi + x.max(y))
                });
                let rhs = *rhs;
                let equal = if lo == hi && lo == rhs {
                    Some(true)
                } else if rhs < lo || rhs > hi {
                    Some(false)
                } else {
                    None
                };
                match relation {
                    Relation::Equal => equal,
                    Relation::NotEqual => equal.map(|e| !e),
                    Relation::LessEq if hi <= rhs => Some(true),
                    Relation::LessEq if lo > rhs => Some(false),
                    Relation::GreaterEq if lo >= rhs => Some(true),
                    Relation::GreaterEq if hi < rhs => Some(false),
                    _ => None,
                }
            }
        }
    }

    /// Propagates the condition (`holds`) or its negation, and says when that leaves
    /// it entailed ([`Context::entailed`]): always for a view against constants, when
    /// the bounds no longer overlap for a difference, as [`Linear`] tells for a sum.
    fn enforce(&mut self, ctx: &mut Context<'_>, holds: bool) -> Result<(), Conflict> {
        match self {
            Cond::Member {
                view,
                set,
                negated,
                scratch,
            } => {
                let view = *view;
                let inside = holds != *negated;
                let settled = match (set, inside) {
                    (Set::AtMost(c), true) => ctx.set_max(view, *c).map(|_| true),
                    (Set::AtMost(c), false) => ctx
                        .set_min(view, c.checked_add(1).ok_or(Conflict)?)
                        .map(|_| true),
                    (Set::AtLeast(c), true) => ctx.set_min(view, *c).map(|_| true),
                    (Set::AtLeast(c), false) => ctx
                        .set_max(view, c.checked_sub(1).ok_or(Conflict)?)
                        .map(|_| true),
                    (Set::Point(c), true) => ctx.fix(view, *c).map(|_| true),
                    (Set::Point(c), false) => ctx.remove(view, *c).map(|_| true),
                    (Set::Values(values), true) => {
                        ctx.retain_supported(view, &Sorted(values), scratch)
                    }
                    (Set::Values(values), false) => values
                        .iter()
                        .try_for_each(|&v| ctx.remove(view, v).map(drop))
                        .map(|()| true),
                }?;
                // Every value left is inside (outside) the set now, unless the view
                // was too wide to read: then its bounds move again as they change.
                if settled {
                    ctx.entailed();
                }
                Ok(())
            }
            Cond::Equality {
                eq, ne, negated, ..
            } => {
                if holds != *negated {
                    eq.propagate(ctx)
                } else {
                    ne.propagate(ctx)
                }
            }
            &mut Cond::Difference { x, y, c } => match holds {
                true => at_most(ctx, x, y, c),
                false => at_most(ctx, y, x, -c - 1),
            },
            Cond::Linear {
                holds: h, fails, ..
            } => {
                if holds {
                    h.propagate(ctx)
                } else {
                    fails.propagate(ctx)
                }
            }
        }
    }

    fn holds(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        match self {
            Cond::Member {
                view, set, negated, ..
            } => {
                let v = i64::from(value(view.var)) + i64::from(view.offset);
                let inside = match set {
                    Set::AtMost(c) => v <= i64::from(*c),
                    Set::AtLeast(c) => v >= i64::from(*c),
                    Set::Point(c) => v == i64::from(*c),
                    Set::Values(values) => {
                        i32::try_from(v).is_ok_and(|v| values.binary_search(&v).is_ok())
                    }
                };
                inside != *negated
            }
            Cond::Equality { eq, negated, .. } => eq.is_satisfied(value) != *negated,
            &Cond::Difference { x, y, c } => {
                let at = |v: View| i64::from(value(v.var)) + i64::from(v.offset);
                at(x) - at(y) <= c
            }
            Cond::Linear { holds, .. } => holds.is_satisfied(value),
        }
    }
}

/// A [`Condition`] made ready to propagate, with its negation at hand (sets sorted,
/// sums built both ways): what [`Condition::into_reifiable`](IntoReifiable::into_reifiable)
/// gives, and what a bare [`Reified`](super::Reified) reifies.
///
/// # Propagation
///
/// A fixed literal propagates the condition or its negation as the plain constraints
/// do ([`Linear`], [`Equal`],
/// [`NotEqual`], or bounds and removals for a view
/// against constants). The entailment test costs O(1) for `x ⋈ c` and for
/// `x - y <= c` / `x - y >= c` over two variables (`x <= y + c`: propagated on the two
/// bounds directly, O(1), rather than as a [`Linear`]), O(n) for another linear
/// relation over n terms, O(|D| log |S|) for a set S, and O(min |D|) for `x == y` /
/// `x != y`; it allocates nothing. A condition against constants enforced, a
/// difference whose bounds no longer overlap and a sum its bounds settle are entailed
/// ([`Context::entailed`]). Posting reports [`ModelError::InvalidConstraint`] for a
/// linear condition whose sums could overflow 64-bit integers, as
/// [`Model::linear`](crate::Model::linear) does.
#[derive(Clone, Debug)]
pub struct PreparedCondition(Cond);

impl From<Condition> for PreparedCondition {
    fn from(condition: Condition) -> PreparedCondition {
        PreparedCondition(Cond::new(condition))
    }
}

impl IntoReifiable for Condition {
    type Reifiable = PreparedCondition;

    fn into_reifiable(self) -> PreparedCondition {
        self.into()
    }
}

impl Reifiable for PreparedCondition {
    #[inline]
    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        self.0.post(ctx)
    }

    #[inline]
    fn entailment(&mut self, ctx: &Context<'_>) -> Option<bool> {
        self.0.entailment(ctx)
    }

    #[inline]
    fn enforce(&mut self, ctx: &mut Context<'_>, holds: bool) -> Result<(), Conflict> {
        self.0.enforce(ctx, holds)
    }

    #[inline]
    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        self.0.holds(value)
    }

    fn is_idempotent(&self) -> bool {
        // Each kind reaches its fixpoint in one call: a view against constants and a
        // difference at once, `==`, `!=` and sums as their plain propagators do.
        true
    }
}
