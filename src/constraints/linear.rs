//! Linear constraints: `a₁·x₁ + a₂·x₂ + … + aₙ·xₙ  ⋈  c`, where `⋈` is a [`Relation`].

pub use super::relation::Relation;
use crate::error::ModelError;
use crate::ids::{VarId, View};
use crate::propagator::{Conflict, Context, InferenceLabel, PostContext, Propagator, Wake};

/// One term `coefficient · view` of a linear constraint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Term {
    coef: i64,
    view: View,
    /// For a posted propagator over a domain of at most 64 values: the store cell
    /// of its one word (it never moves) and the view's value for bit 0, so that the
    /// bounds are read straight from the word.
    small: Option<(u32, i64)>,
}

impl Term {
    /// The least and the greatest value the term takes over the current domain.
    #[inline(always)]
    fn bounds(self, ctx: &Context<'_>) -> (i64, i64) {
        // A domain of at most 64 values gives both bounds from one word.
        let (min, max) = match self.small {
            Some((cell, base)) => {
                let word = ctx.words()[cell as usize];
                (
                    base + i64::from(word.trailing_zeros()),
                    base + i64::from(63 - word.leading_zeros()),
                )
            }
            None => match ctx.small_word(self.view.var) {
                Some((word, base)) => {
                    let base = i64::from(base) + i64::from(self.view.offset);
                    (
                        base + i64::from(word.trailing_zeros()),
                        base + i64::from(63 - word.leading_zeros()),
                    )
                }
                None => (i64::from(ctx.min(self.view)), i64::from(ctx.max(self.view))),
            },
        };
        let (min, max) = (self.coef * min, self.coef * max);
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

/// Why a sum is refused when [`sum_may_overflow`].
pub(crate) const SUM_OVERFLOW: &str = "the sum of the terms could overflow 64-bit integers";

/// Whether propagating a sum `Σ aᵢ·vᵢ` against a right-hand side of magnitude
/// `rhs` could overflow `i64`, the terms given as `(aᵢ, (min vᵢ, max vᵢ))`:
/// propagation adds and subtracts partial sums and the right-hand side, so a factor
/// of two is kept in hand.
pub(crate) fn sum_may_overflow(
    rhs: i128,
    terms: impl IntoIterator<Item = (i64, (i32, i32))>,
) -> bool {
    let magnitude = terms.into_iter().fold(rhs.abs(), |sum, (a, (min, max))| {
        let reach = i128::from(min).abs().max(i128::from(max).abs());
        sum + i128::from(a).abs() * reach
    });
    magnitude > i128::from(i64::MAX / 2)
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

/// The most entries a term may have on [`Sums`]'s log, on average, before it is
/// dropped: enough that backtracking rarely reads every term again.
const LOG_PER_TERM: usize = 4;

/// A term's bounds before a change, to put back on backtracking.
#[derive(Clone, Copy, Debug)]
struct Change {
    term: u32,
    low: i64,
    high: i64,
}

/// A term with its least and greatest value as last seen.
#[derive(Clone, Copy, Debug)]
struct Slot {
    term: Term,
    low: i64,
    high: i64,
}

/// What [`Linear`] knows of its terms from call to call: each term's bounds as last
/// seen, their sums, and the log of changes that backtracking undoes.
///
/// The log is the propagator's own trail. Its length (plus one) and its generation are
/// the propagator's one state word, which the store puts back when the search
/// backtracks: each call first undoes the log down to that length, so that the bounds
/// and sums are those of the node the search is at, then reads the terms
/// [`Context::modified`] lists. A state word of 0 (each search starts from it) means
/// nothing is known yet: every term is read.
///
/// The log is kept to a few entries per term (see [`Sums::save`]): past that it is
/// dropped and a new generation starts, so that a search deep in a wide sum keeps
/// memory by its width, not by its width times its depth. A state word of an older
/// generation then reads every term again, O(n), as a non-incremental call would.
#[derive(Clone, Debug, Default)]
struct Sums {
    /// The terms, in the order given (their local indices).
    slots: Vec<Slot>,
    /// The sums of the terms' least and greatest values.
    low: i64,
    high: i64,
    /// The changes of the slots' bounds since the sums were set up, oldest first.
    log: Vec<Change>,
    /// The state word as this call found it.
    mark: u64,
    /// The log's generation: a state word of another one is of a dropped log.
    generation: u32,
    /// The slots by decreasing span at set-up (the widest first), each with that
    /// span: no term after an entry is wider than its span, since domains only shrink
    /// below the node where the sums were set up.
    order: Vec<(i64, u32)>,
    /// Whether the propagator keeps the sums from call to call (`true`: it was posted,
    /// with more than [`SCANNED`] terms), or reads every term at each call: a short sum,
    /// where reading the terms costs less than keeping the log, or one run by another
    /// propagator, such as [`Reified`](crate::constraints::Reified), whose state and modified
    /// variables are not its own.
    incremental: bool,
}

/// The most terms a posted [`Linear`] reads afresh at each call rather than keeping
/// their sums from call to call: reading a few bounds costs less than the log, the
/// state word and the scan order that incrementality needs.
const SCANNED: usize = 8;

impl Sums {
    /// Reads every term; `order`: and orders them by span, for the scans (an
    /// incremental propagator, whose domains only shrink from here while the state
    /// word stays set), with a new log.
    fn set_up(&mut self, ctx: &Context<'_>, order: bool) {
        self.read_terms(ctx);
        if order {
            self.new_log();
            self.order.clear();
            // Equal spans in the order given: the store saves like variables' bounds
            // one after the other, and keeps them as one run on its trail.
            let spans = self.slots.iter().map(|s| s.high - s.low);
            self.order.extend(spans.zip(0..));
            self.order
                .sort_unstable_by_key(|&(span, i)| (std::cmp::Reverse(span), i));
        }
    }

    /// Brings the bounds and sums to the current domains: undoes the log to the
    /// length the state word gives, then reads the modified terms. O(undone changes +
    /// modified terms); O(n log n) when set up; O(n) when not incremental.
    fn sync(&mut self, ctx: &Context<'_>) {
        if !self.incremental {
            return self.set_up(ctx, false);
        }
        self.mark = ctx.state()[0];
        if self.mark == 0 {
            return self.set_up(ctx, true);
        }
        if (self.mark >> 32) as u32 != self.generation {
            // A node of a dropped log, in this search: the spans at set-up still bound
            // every term's.
            self.new_log();
            return self.read_terms(ctx);
        }
        let kept = (self.mark as u32 as usize).wrapping_sub(1);
        if kept > self.log.len() {
            // Cannot happen: the state word holds a length the log had.
            return self.set_up(ctx, true);
        }
        while self.log.len() > kept {
            let change = self.log.pop().expect("longer than the mark");
            let slot = &mut self.slots[change.term as usize];
            self.low += change.low - slot.low;
            self.high += change.high - slot.high;
            (slot.low, slot.high) = (change.low, change.high);
        }
        for &i in ctx.modified() {
            self.refresh(ctx, i as usize);
        }
    }

    /// Reads term `i` again.
    #[inline(always)]
    fn refresh(&mut self, ctx: &Context<'_>, i: usize) {
        let slot = &mut self.slots[i];
        let (low, high) = slot.term.bounds(ctx);
        if (low, high) != (slot.low, slot.high) {
            if self.incremental {
                self.log.push(Change {
                    term: i as u32,
                    low: slot.low,
                    high: slot.high,
                });
            }
            self.low += low - slot.low;
            self.high += high - slot.high;
            (slot.low, slot.high) = (low, high);
        }
    }

    /// Reads every term into the slots and the sums.
    fn read_terms(&mut self, ctx: &Context<'_>) {
        let (mut low, mut high) = (0, 0);
        for slot in &mut self.slots {
            let (l, h) = slot.term.bounds(ctx);
            (slot.low, slot.high) = (l, h);
            (low, high) = (low + l, high + h);
        }
        (self.low, self.high) = (low, high);
    }

    /// Empties the log, in a new generation: state words of the old one are stale.
    fn new_log(&mut self) {
        self.log.clear();
        self.generation = self.generation.wrapping_add(1);
    }

    /// `Σ terms == rhs` when not incremental: each pass over the terms narrows each
    /// one both ways against the sums as the pass found them (still sound after
    /// another term moved: a bound from a wider sum is only weaker), and passes repeat
    /// until neither sum moves, the bounds fixpoint. O(n) a pass.
    fn narrow_equal(&mut self, ctx: &mut Context<'_>, rhs: i64) -> Result<(), Conflict> {
        loop {
            let (below, above) = (rhs - self.low, self.high - rhs);
            if below < 0 || above < 0 {
                return Err(Conflict);
            }
            let (mut low, mut high) = (self.low, self.high);
            for slot in &mut self.slots {
                let span = slot.high - slot.low;
                if span > below.min(above) {
                    if span > below {
                        slot.term.at_most(ctx, slot.low + below)?;
                    }
                    if span > above {
                        slot.term.at_least(ctx, slot.high - above)?;
                    }
                    let (l, h) = slot.term.bounds(ctx);
                    (low, high) = (low + l - slot.low, high + h - slot.high);
                    (slot.low, slot.high) = (l, h);
                }
            }
            if (low, high) == (self.low, self.high) {
                return Ok(());
            }
            (self.low, self.high) = (low, high);
        }
    }

    /// Saves the log's generation and length in the state word, for backtracking to
    /// undo to. A log longer than [`LOG_PER_TERM`] entries a term is dropped first:
    /// the bounds and sums are the current domains', a new generation's start.
    fn save(&mut self, ctx: &mut Context<'_>) {
        if !self.incremental {
            return;
        }
        if self.log.len() > LOG_PER_TERM * self.slots.len() {
            self.new_log();
        }
        let mark = u64::from(self.generation) << 32 | (self.log.len() as u64 + 1);
        if mark != self.mark {
            ctx.set_state(0, mark);
        }
    }

    /// `Σ terms <= rhs` (`AT_MOST`) or `Σ terms >= rhs`: each term at most its least
    /// value plus the slack that the others' least values leave (or at least its
    /// greatest value minus the slack the others' greatest values leave). Only terms
    /// wider than the slack can lose values: incremental, `order` lists the widest
    /// first and the scan stops at the first narrower one; otherwise every term is
    /// looked at.
    fn narrow<const AT_MOST: bool>(
        &mut self,
        ctx: &mut Context<'_>,
        rhs: i64,
    ) -> Result<(), Conflict> {
        let slack = if AT_MOST {
            rhs - self.low
        } else {
            self.high - rhs
        };
        if slack < 0 {
            return Err(Conflict);
        }
        if !self.incremental {
            // Every term, the sums kept in registers (a conflict leaves them stale:
            // the next call reads every term again).
            let (mut low, mut high) = (self.low, self.high);
            for slot in &mut self.slots {
                if slot.high - slot.low > slack {
                    if AT_MOST {
                        slot.term.at_most(ctx, slot.low + slack)?;
                    } else {
                        slot.term.at_least(ctx, slot.high - slack)?;
                    }
                    let (l, h) = slot.term.bounds(ctx);
                    (low, high) = (low + l - slot.low, high + h - slot.high);
                    (slot.low, slot.high) = (l, h);
                }
            }
            (self.low, self.high) = (low, high);
            return Ok(());
        }
        for k in 0..self.order.len() {
            let (span, i) = self.order[k];
            if span <= slack {
                break;
            }
            let slot = self.slots[i as usize];
            if slot.high - slot.low > slack {
                if AT_MOST {
                    slot.term.at_most(ctx, slot.low + slack)?;
                } else {
                    slot.term.at_least(ctx, slot.high - slack)?;
                }
                self.refresh(ctx, i as usize);
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
/// but one are fixed, then removes the one value the last term must not take. An
/// inequality whose greatest (least) sum is within the bound is entailed
/// ([`Context::entailed`](crate::Context::entailed)) and not woken again below.
///
/// A sum of more than eight terms is incremental: the propagator keeps each term's least and greatest value
/// and their sums from call to call, reads only the terms whose bounds moved, and undoes
/// its own log of changes when the search backtracks (one state word holds the log's
/// length). A call costs O(m + w) for m moved terms and w terms that were wider than
/// the slack when the search started (the terms are scanned widest first, and only a
/// term wider than the slack can lose values), plus the changes undone since the last
/// call; the first call of each search reads all n terms and sorts them by span,
/// O(n log n). A sum of at most eight terms, or one run inside
/// [`Reified`](crate::constraints::Reified), which does not post it, reads all n terms at every
/// call instead and keeps no state, O(n) a pass. `!=` costs O(n) a call.
///
/// Sums are computed in `i64`. [`Model::linear`](crate::Model::linear) checks, when the constraint
/// is posted, that no sum of the terms over the variables' initial domains can leave the `i64`
/// range, and reports [`ModelError::InvalidConstraint`]
/// otherwise, so propagation never overflows.
#[derive(Clone, Debug)]
pub struct Linear {
    relation: Relation,
    rhs: i64,
    /// The terms and what is known of them; boxed, since
    /// [`Reified`](crate::constraints::Reified) holds two `Linear`s by value.
    sums: Box<Sums>,
}

impl Linear {
    /// Label ([`Context::set_label`]): each term's bounds, from what the other terms'
    /// bounds leave the sum.
    pub const BOUNDS: InferenceLabel = InferenceLabel::new("linear bounds");
    /// Label ([`Context::set_label`]): a `!=` with one unfixed term left removes the value
    /// that would make it equal.
    pub const DISEQUALITY: InferenceLabel = InferenceLabel::new("linear disequality");

    /// The constraint; the caller has checked the `i64` range (see the type docs). The
    /// right-hand side is an `i64` so that a negation may move it one past `i32`.
    pub(crate) fn new(terms: &[(i32, View)], relation: Relation, rhs: i64) -> Linear {
        let slots = terms.iter().map(|&(coef, view)| Slot {
            term: Term {
                coef: i64::from(coef),
                view,
                small: None,
            },
            low: 0,
            high: 0,
        });
        Linear {
            relation,
            rhs,
            sums: Box::new(Sums {
                slots: slots.collect(),
                ..Sums::default()
            }),
        }
    }

    fn not_equal(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let mut open = None;
        let mut fixed_sum = 0i64;
        for t in self.sums.slots.iter().map(|s| s.term) {
            match ctx.value(t.view) {
                Some(v) => fixed_sum += t.coef * i64::from(v),
                None if open.is_none() => open = Some(t),
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
            _ if self.sums.slots.len() <= SCANNED => Wake::Bounds,
            _ => {
                // The log's generation and length plus one; 0: not set up in this
                // search.
                ctx.set_initial_state(vec![0]);
                self.sums.incremental = true;
                Wake::Bounds
            }
        };
        ctx.watch_all(self.sums.slots.iter().map(|s| s.term.view), wake)?;
        for slot in &mut self.sums.slots {
            let view = slot.term.view;
            if let (Some((_, base)), Some(cell)) =
                (ctx.small_word(view.var), ctx.small_cell(view.var))
            {
                let base = i64::from(base) + i64::from(view.offset);
                slot.term.small = u32::try_from(cell).ok().map(|cell| (cell, base));
            }
        }
        Ok(())
    }

    fn is_idempotent(&self) -> bool {
        true
    }

    /// Only a long sum keeps its sums from call to call, and reads what changed.
    fn reads_modified(&self) -> bool {
        self.sums.incremental
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        if self.relation == Relation::NotEqual {
            ctx.set_label(Linear::DISEQUALITY);
            return self.not_equal(ctx);
        }
        ctx.set_label(Linear::BOUNDS);
        let (sums, rhs) = (&mut self.sums, self.rhs);
        sums.sync(ctx);
        // Narrowing the greatest values changes no least one, so one pass of `<=` (or
        // of `>=`) is its own fixpoint; `==` repeats both until neither sum moves.
        match self.relation {
            Relation::LessEq => sums.narrow::<true>(ctx, rhs)?,
            Relation::GreaterEq => sums.narrow::<false>(ctx, rhs)?,
            _ if !sums.incremental => sums.narrow_equal(ctx, rhs)?,
            _ => {
                sums.narrow::<true>(ctx, rhs)?;
                loop {
                    let low = sums.low;
                    sums.narrow::<false>(ctx, rhs)?;
                    if sums.low == low {
                        break;
                    }
                    let high = sums.high;
                    sums.narrow::<true>(ctx, rhs)?;
                    if sums.high == high {
                        break;
                    }
                }
            }
        }
        sums.save(ctx);
        // An inequality that every assignment left satisfies is done with.
        if (self.relation == Relation::LessEq && sums.high <= rhs)
            || (self.relation == Relation::GreaterEq && sums.low >= rhs)
        {
            ctx.entailed();
        }
        Ok(())
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        holds(
            self.sums.slots.iter().map(|s| (s.term.coef, s.term.view)),
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
    fn a_long_sum_narrows_the_terms_wider_than_the_slack() {
        // 3x + 2y + z + w <= 6 over 0..=3: the slack is 6, only 3x (span 9) exceeds it.
        let mut model = Model::new();
        let [x, y, z, w] = model.int_var_array(0, 3).unwrap();
        model
            .linear([(3, x), (2, y), (1, z), (1, w)], Relation::LessEq, 6)
            .unwrap();
        let domains = Solver::new(model).root_domains().unwrap();
        assert_eq!(domains[0], vec![0, 1, 2]);
        assert!(domains[1..].iter().all(|d| *d == vec![0, 1, 2, 3]));
    }

    #[test]
    fn a_long_equality_narrows_both_ways() {
        // x + y + z + w == 15, x in 0..=2, the others in 0..=5: y, z, w >= 3; then
        // x - 4v + y + z == 1 with v in 0..=3: v >= 2 one way, v <= 2 the other.
        let mut model = Model::new();
        let x = model.int_var(0, 2).unwrap();
        let [y, z, w] = model.int_var_array(0, 5).unwrap();
        let v = model.int_var(0, 3).unwrap();
        model.sum([x, y, z, w], Relation::Equal, 15).unwrap();
        model
            .linear([(1, x), (-4, v), (1, y), (1, z)], Relation::Equal, 1)
            .unwrap();
        let domains = Solver::new(model).root_domains().unwrap();
        assert_eq!(domains[0], vec![0, 1, 2]);
        for d in &domains[1..4] {
            assert_eq!(*d, vec![3, 4, 5]);
        }
        assert_eq!(domains[4], vec![2]);
    }

    #[test]
    fn a_bound_in_a_hole_moves_to_the_next_value() {
        // x + y + z + w <= 3 with x in {0, 4, 5}: x <= 3 leaves 0.
        let mut model = Model::new();
        let x = model.var_from_values([0, 4, 5]).unwrap();
        let bits = model.int_vars(3, 0, 1).unwrap();
        model
            .sum([x, bits[0], bits[1], bits[2]], Relation::LessEq, 3)
            .unwrap();
        let domains = Solver::new(model).root_domains().unwrap();
        assert_eq!(domains[0], vec![0]);
        assert!(domains[1..].iter().all(|d| *d == vec![0, 1]));
    }

    #[test]
    fn the_kept_sums_follow_levels_pushed_and_popped() {
        // At most two of five Booleans: fixing two to 1 fixes the others to 0, and
        // popping the level gives them back.
        let mut model = Model::new();
        let bits = model.int_vars(5, 0, 1).unwrap();
        model
            .sum(bits.iter().copied(), Relation::LessEq, 2)
            .unwrap();
        let mut solver = Solver::new(model);
        let open = vec![vec![0, 1]; 5];
        assert_eq!(solver.root_domains().unwrap(), open);
        assert!(solver.push_level([(bits[0], 1)]).unwrap());
        assert!(solver.push_level([(bits[3], 1)]).unwrap());
        let fixed = solver.root_domains().unwrap();
        assert_eq!(fixed, vec![vec![1], vec![0], vec![0], vec![1], vec![0]]);
        solver.pop_level();
        let one = solver.root_domains().unwrap();
        assert_eq!(one[0], vec![1]);
        assert!(one[1..].iter().all(|d| *d == vec![0, 1]));
        assert!(!solver.push_level([(bits[1], 1), (bits[2], 1)]).unwrap());
        solver.pop_level();
        solver.pop_level();
        assert_eq!(solver.root_domains().unwrap(), open);
        assert_eq!(solver.count(None).solutions, 16); // 1 + 5 + 10
    }

    #[test]
    fn a_dropped_log_is_read_again_on_backtracking() {
        // A sum of ten terms (more than `SCANNED`: kept from call to call) equal to 30
        // over 0..=5: a search for every solution goes deep enough to drop the log
        // many times and backtracks above each drop. The count is the number of ways,
        // by dynamic programming over the terms.
        let coefs = [2, 3, 1, 4, 3, 1, 2, 1, 2, 3];
        let rhs = 30;
        let mut model = Model::new();
        let xs = model.int_vars(coefs.len(), 0, 5).unwrap();
        let terms = coefs.iter().zip(&xs).map(|(&c, &x)| (c, x));
        model.linear(terms, Relation::Equal, rhs as i32).unwrap();
        let mut ways = vec![0u64; rhs + 1];
        ways[0] = 1;
        for c in coefs {
            let before = std::mem::replace(&mut ways, vec![0; rhs + 1]);
            for (sum, n) in before.iter().enumerate() {
                for v in 0..=5 {
                    if let Some(w) = ways.get_mut(sum + c as usize * v) {
                        *w += n;
                    }
                }
            }
        }
        assert_eq!(Solver::new(model).count(None).solutions, ways[rhs]);
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
