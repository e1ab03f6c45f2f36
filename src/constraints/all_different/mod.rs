//! All-different: the views take pairwise different values. The strengths and their
//! costs are described on [`Strength`].

use crate::constraints::all_different_bounds::{Bounds, HallIntervals};
use crate::constraints::matching::Matching;
use crate::constraints::matching_bits::{BitMatching, insert, range_set};
use crate::constraints::value_index::ValueIndex;
use crate::constraints::word_window::window_shifts;
use crate::error::ModelError;
use crate::ids::{VarId, View};
use crate::propagator::{
    Conflict, Context, InferenceLabel, PostContext, Priority, Propagator, Wake,
};

/// How hard an all-different constraint prunes. Each strength does all the previous
/// one does, except that [`Strength::Bounds`] does no hidden singles:
///
/// | strength | removes | cost per call |
/// |---|---|---|
/// | [`Strength::Value`] | a fixed view's value from the others | O(n) per newly fixed view |
/// | [`Strength::HiddenSingles`] | also: when the views must use every value of their union (as many values as views), a value with one place left fixes that view; fails when fewer values than views remain | O(n + d) |
/// | [`Strength::Bounds`] | value elimination, and every minimum and maximum that lies in a Hall interval of other views (bounds consistency, reading each domain as the interval from its minimum to its maximum: holes play no part) | O(n log n) |
/// | [`Strength::Domain`] | every value that no solution of this constraint alone uses (Régin's matching algorithm: naked and hidden pairs, triples, ... all at once) | O(n + d) plus matching repair |
///
/// n is the number of views, d the sum of their domain sizes. When every view has at
/// most 64 values and their values fit one 64-value window (Sudoku, small N-Queens),
/// the first two strengths run on bitmasks in registers, and so does Régin's
/// matching; it also runs on two or four words per view when the views' initial
/// values lie within 128 or 256 of one another (Golomb rulers' distances), instead of
/// building a graph per call.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Strength {
    /// Value elimination: a fixed view's value is removed from the others.
    /// The strength of Gecode's default all-different.
    #[default]
    Value,
    /// Value elimination, plus hidden singles and a pigeonhole check.
    HiddenSingles,
    /// Value elimination, plus bounds consistency by Hall intervals (López-Ortiz et
    /// al., 2003), as Gecode's and MiniZinc's bounds all-different: far stronger than
    /// [`Strength::Value`] when the views' values are packed (Golomb rulers,
    /// permutations), at a cost of O(n log n) per call.
    Bounds,
    /// Domain consistency (generalised arc consistency) by Régin's algorithm.
    Domain,
}

/// The most views the bitmask path handles: more cannot differ within 64 values.
const MAX_WINDOW_VIEWS: usize = 64;

/// The widest window (values from the smallest to the largest) of Régin on several
/// words; wider ones build the general matching's graph.
const MAX_WIDE_VALUES: i64 = 256;

/// The words of the mask of values that one batch of value elimination removes
/// (see [`AllDifferent::take_batch`]): golomb rulers' distances fit.
const BATCH_WORDS: usize = 4;

/// The all-different constraint over views.
#[derive(Clone, Debug)]
pub struct AllDifferent {
    views: Vec<View>,
    strength: Strength,
    /// When the views' values fit one 64-value window: how far each view's domain word
    /// shifts left into it, found when posted ([`window_shifts`]).
    window: Option<Vec<u32>>,
    work: Vec<u32>,
    counts: Vec<u32>,
    /// The values in play, numbered for `counts` and the matching.
    values: ValueIndex,
    matching: Matching,
    /// The matching of the bitmask paths' Régin filtering.
    bit_matching: BitMatching,
    /// At domain strength, when the views' initial values are more than 64 but at
    /// most [`MAX_WIDE_VALUES`] apart: the smallest and the number of words
    /// (2 or 4) of the window they fit in, for Régin on several words.
    wide: Option<(i64, usize)>,
    /// The masks of the several-word path and their copy before filtering.
    wide_masks: Vec<u64>,
    domain_start: Vec<u32>,
    domain_values: Vec<u32>,
    /// With a view wider than the views are many: the smaller views' values, and each
    /// view's values as the matching sees them (see [`Self::list_reduced_domains`]).
    small_values: Vec<i32>,
    listed_values: Vec<i32>,
    removals: Vec<(usize, u32)>,
    /// Each view's bounds during value elimination.
    bounds: Vec<(i32, i32)>,
    hall: HallIntervals,
    /// When every view's domain is one word: each view's cell in [`Context::words`]
    /// and the value its bit 0 stands for (offset included), to read the domains
    /// straight from the words.
    cells: Vec<(u32, i32)>,
    /// Whether two views share a variable (then a Hall pass may enable another).
    shared: bool,
}

/// The labels of its removals ([`Context::set_label`]), shared by the constraints that
/// reason the same way ([`NotEqual`](crate::constraints::NotEqual),
/// [`Intersection`](crate::constraints::Intersection),
/// [`AllDifferentSystem`](crate::constraints::AllDifferentSystem)).
impl AllDifferent {
    /// A fixed view's value leaves the other views.
    pub const VALUE_ELIMINATION: InferenceLabel = InferenceLabel::new("value elimination");
    /// In views that must use every value of their union, a value with one place left
    /// goes there.
    pub const ONLY_PLACE: InferenceLabel = InferenceLabel::new("only place for a value");
    /// Values outside every maximum matching of views to values (Régin).
    pub const MATCHING: InferenceLabel = InferenceLabel::new("all-different matching");
    /// Bounds moved out of a Hall interval: an interval of values that as many other
    /// views fill.
    pub const HALL_INTERVAL: InferenceLabel = InferenceLabel::new("Hall interval");
}

impl AllDifferent {
    /// The constraint over `views`, propagated with `strength`.
    pub fn new(views: Vec<View>, strength: Strength) -> AllDifferent {
        AllDifferent {
            views,
            strength,
            window: None,
            work: Vec::new(),
            counts: Vec::new(),
            values: ValueIndex::default(),
            matching: Matching::default(),
            bit_matching: BitMatching::default(),
            wide: None,
            wide_masks: Vec::new(),
            domain_start: Vec::new(),
            domain_values: Vec::new(),
            small_values: Vec::new(),
            listed_values: Vec::new(),
            removals: Vec::new(),
            bounds: Vec::new(),
            hall: HallIntervals::default(),
            cells: Vec::new(),
            shared: false,
        }
    }

    /// The strength it propagates with.
    pub fn strength(&self) -> Strength {
        self.strength
    }

    /// Value elimination and (but at value and bounds strength) hidden singles on
    /// bitmasks, then writes back.
    ///
    /// The masks live in fixed arrays on the stack: a window holds at most 64 values,
    /// so more than 64 views can never all differ.
    fn propagate_bits(&mut self, ctx: &mut Context<'_>, shifts: &[u32]) -> Result<(), Conflict> {
        // Small arrays for the common case keep the zeroing cheap.
        match self.views.len() {
            0..=16 => self.propagate_bits_in::<16>(ctx, shifts),
            17..=MAX_WINDOW_VIEWS => self.propagate_bits_in::<MAX_WINDOW_VIEWS>(ctx, shifts),
            _ => Err(Conflict),
        }
    }

    /// [`Self::propagate_bits`] with arrays of `N >= views` entries.
    fn propagate_bits_in<const N: usize>(
        &mut self,
        ctx: &mut Context<'_>,
        shifts: &[u32],
    ) -> Result<(), Conflict> {
        let n = self.views.len();
        let mut masks = [0u64; N];
        self.window_masks(ctx, shifts, &mut masks);
        let read = masks;
        let masks = &mut masks[..n];
        // Each view's mask before a hidden single fixed it (0 if none did), and the
        // order the hidden singles were found in.
        let mut before_hidden = [0u64; N];
        let mut hidden_order = [0u8; N];
        let mut hidden = 0;
        loop {
            eliminate_fixed(masks)?;
            if matches!(self.strength, Strength::Value | Strength::Bounds) {
                break;
            }
            let (mut once, mut twice) = (0u64, 0u64);
            for &m in masks.iter() {
                twice |= once & m;
                once |= m;
            }
            let values = once.count_ones() as usize;
            if values < n {
                return Err(Conflict);
            }
            if values > n {
                break;
            }
            let singles = once & !twice;
            let mut progress = false;
            for (i, m) in masks.iter_mut().enumerate() {
                let mine = *m & singles;
                if mine != 0 && *m != mine {
                    if mine & (mine - 1) != 0 {
                        return Err(Conflict);
                    }
                    before_hidden[i] = *m;
                    hidden_order[hidden] = i as u8;
                    hidden += 1;
                    *m = mine;
                    progress = true;
                }
            }
            if !progress {
                break;
            }
        }
        // Write back, naming each removal: first every value elimination (a view fixed
        // by a hidden single loses what was eliminated before it), then the hidden
        // singles in the order found, so that each digit has one place left when its
        // single is recorded.
        ctx.set_label(AllDifferent::VALUE_ELIMINATION);
        for i in 0..n {
            let before = before_hidden[i];
            let keep = if before != 0 { before } else { masks[i] };
            if keep != read[i] {
                ctx.retain_small(self.views[i].var, keep >> shifts[i])?;
            }
        }
        if hidden > 0 {
            ctx.set_label(AllDifferent::ONLY_PLACE);
            for &i in &hidden_order[..hidden] {
                let i = usize::from(i);
                ctx.retain_small(self.views[i].var, masks[i] >> shifts[i])?;
            }
        }
        Ok(())
    }

    /// Each view's domain word shifted into the window, in `masks[..views]`.
    #[inline(always)]
    fn window_masks(&self, ctx: &Context<'_>, shifts: &[u32], masks: &mut [u64]) {
        if self.cells.is_empty() {
            for (i, view) in self.views.iter().enumerate() {
                let (word, _) = ctx.small_word(view.var).expect("window of small domains");
                masks[i] = word << shifts[i];
            }
        } else {
            let words = ctx.words();
            for ((mask, &(cell, _)), &shift) in masks.iter_mut().zip(&self.cells).zip(shifts) {
                *mask = words[cell as usize] << shift;
            }
        }
    }

    /// Régin's filtering on the window's bitmasks ([`BitMatching`]), after value
    /// elimination; skipped when it can remove nothing ([`no_hall_set`]).
    fn regin_bits(&mut self, ctx: &mut Context<'_>, shifts: &[u32]) -> Result<(), Conflict> {
        let n = self.views.len();
        let mut masks = [0u64; MAX_WINDOW_VIEWS];
        self.window_masks(ctx, shifts, &mut masks);
        let masks = &mut masks[..n];
        if no_hall_set(masks.iter().map(|m| m.count_ones())) {
            return Ok(());
        }
        self.bit_matching
            .filter::<1, 64>(masks.as_chunks_mut::<1>().0)?;
        ctx.set_label(AllDifferent::MATCHING);
        for i in 0..n {
            ctx.retain_small(self.views[i].var, masks[i] >> shifts[i])?;
        }
        Ok(())
    }

    /// Régin's filtering on `W` words per view ([`BitMatching`]) over the window of
    /// `V = 64·W` values from `base` on, after value elimination; skipped when it can
    /// remove nothing ([`no_hall_set`]). A view's mask is made from its bounds when it
    /// has no holes, else from its values: O(n·W + d), then the filtering.
    fn regin_words<const W: usize, const V: usize>(
        &mut self,
        ctx: &mut Context<'_>,
        base: i64,
    ) -> Result<(), Conflict> {
        if no_hall_set(self.views.iter().map(|&view| ctx.size(view))) {
            return Ok(());
        }
        let n = self.views.len();
        self.wide_masks.clear();
        self.wide_masks.resize(2 * n * W, 0);
        let (masks, before) = self.wide_masks.split_at_mut(n * W);
        let masks = masks.as_chunks_mut::<W>().0;
        for (mask, &view) in masks.iter_mut().zip(&self.views) {
            let lo = (i64::from(ctx.min(view)) - base) as usize;
            let hi = (i64::from(ctx.max(view)) - base) as usize;
            if ctx.size(view) as usize == hi - lo + 1 {
                *mask = range_set(lo, hi);
            } else {
                for v in ctx.values(view) {
                    insert(mask, (i64::from(v) - base) as usize);
                }
            }
        }
        before.copy_from_slice(masks.as_flattened());
        self.bit_matching.filter::<W, V>(masks)?;
        ctx.set_label(AllDifferent::MATCHING);
        for (i, (mask, old)) in masks.iter().zip(before.as_chunks::<W>().0).enumerate() {
            for w in 0..W {
                let mut gone = old[w] & !mask[w];
                while gone != 0 {
                    let v = base + (w * 64) as i64 + i64::from(gone.trailing_zeros());
                    gone &= gone - 1;
                    ctx.remove(self.views[i], v as i32)?;
                }
            }
        }
        Ok(())
    }

    /// Value elimination from the views fixed since the last call, chaining: nothing
    /// when none was (the last call left no fixed view's value in another view, and
    /// fixing a view moves a bound, so it is listed in [`Context::modified`]); else on
    /// the window's bitmasks when the views' values fit one
    /// ([`Self::propagate_bits`], O(n) word operations per round), else from the
    /// views fixed ([`Self::eliminate_queued`]). Leaves `work` empty; returns
    /// whether `bounds` holds every view's bounds (see [`Self::eliminate_queued`]).
    fn eliminate(&mut self, ctx: &mut Context<'_>) -> Result<bool, Conflict> {
        self.queue_fixed(ctx);
        if self.work.is_empty() {
            return Ok(false);
        }
        self.on_window(
            ctx,
            |this, ctx, shifts| {
                this.work.clear();
                this.propagate_bits(ctx, shifts).map(|()| false)
            },
            Self::eliminate_queued,
        )
    }

    /// Queues in `work` the views fixed since the last call.
    fn queue_fixed(&mut self, ctx: &Context<'_>) {
        self.work.clear();
        let modified = ctx.modified().iter().copied();
        if self.cells.is_empty() {
            let views = &self.views;
            self.work
                .extend(modified.filter(|&i| ctx.is_fixed(views[i as usize])));
        } else {
            let (cells, words) = (&self.cells, ctx.words());
            self.work.extend(modified.filter(|&i| {
                let word = words[cells[i as usize].0 as usize];
                word & (word - 1) == 0
            }));
        }
    }

    /// Runs `bits` with the shifts of the window when the views' values fit one, else
    /// `general`.
    fn on_window<R>(
        &mut self,
        ctx: &mut Context<'_>,
        bits: impl FnOnce(&mut Self, &mut Context<'_>, &[u32]) -> R,
        general: impl FnOnce(&mut Self, &mut Context<'_>) -> R,
    ) -> R {
        match self.window.take() {
            Some(shifts) => {
                let result = bits(self, ctx, &shifts);
                self.window = Some(shifts);
                result
            }
            None => general(self, ctx),
        }
    }

    /// Value elimination from the views fixed since the last call, chaining.
    fn eliminate_general(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        self.queue_fixed(ctx);
        self.eliminate_queued(ctx)?;
        Ok(())
    }

    /// Value elimination from the views queued in `work`, chaining, a batch at a time
    /// ([`Self::take_batch`]): every other view whose bounds reach the batch's values
    /// loses them in one store call ([`Context::remove_mask`]), and the views that
    /// fixes go into a later batch. More views fixed to the batch's values than it
    /// has values is a conflict. The views' bounds are read once per call (and again
    /// for a view that lost a value): a view whose bounds miss the batch is passed
    /// over without the call. The bounds kept may be wider than the domain (a view
    /// sharing its variable with one that lost a value, never one of the batch), which
    /// only lets a call through that removes nothing or wipes out a view fixed to a
    /// value of the batch, a conflict indeed. O(n) per batch plus the words of the
    /// domains. Returns whether it ran (then `bounds` holds every view's bounds, exact
    /// unless views share a variable).
    fn eliminate_queued(&mut self, ctx: &mut Context<'_>) -> Result<bool, Conflict> {
        if self.work.is_empty() {
            return Ok(false);
        }
        ctx.set_label(AllDifferent::VALUE_ELIMINATION);
        self.bounds.clear();
        self.bounds
            .extend(self.views.iter().map(|&view| ctx.bounds(view)));
        while !self.work.is_empty() {
            let (from, last, mask, values) = self.take_batch();
            let mut fixed = 0;
            for (j, &view) in self.views.iter().enumerate() {
                let (lo, hi) = (i64::from(self.bounds[j].0), i64::from(self.bounds[j].1));
                if hi < from || lo > last {
                    continue;
                }
                let offset = (lo - from) as usize;
                if lo == hi && mask[offset / 64] >> (offset % 64) & 1 == 1 {
                    fixed += 1;
                    continue;
                }
                if ctx.remove_mask(view, from, &mask)? {
                    self.bounds[j] = ctx.bounds(view);
                    if ctx.is_fixed(view) {
                        self.work.push(j as u32);
                    }
                }
            }
            if fixed > values {
                return Err(Conflict);
            }
        }
        Ok(true)
    }

    /// Takes out of `work` the queued views whose values lie in the [`BATCH_WORDS`]
    /// words from the smallest on; the others stay queued. Returns that smallest
    /// value, the largest of the batch, the mask of its values (bit `i` for
    /// `from + i`) and their number.
    fn take_batch(&mut self) -> (i64, i64, [u64; BATCH_WORDS], usize) {
        let bounds = &self.bounds;
        let value = |i: u32| {
            let (min, max) = bounds[i as usize];
            invariant_eq!(min, max, "a queued view is fixed");
            i64::from(min)
        };
        let from = (self.work.iter()).map(|&i| value(i)).min().unwrap_or(0);
        let (mut last, mut mask, mut values) = (from, [0u64; BATCH_WORDS], 0);
        self.work.retain(|&i| {
            let offset = (value(i) - from) as usize;
            let Some(word) = mask.get_mut(offset / 64) else {
                return true;
            };
            let bit = 1u64 << (offset % 64);
            values += usize::from(*word & bit == 0);
            *word |= bit;
            last = last.max(value(i));
            false
        });
        (from, last, mask, values)
    }

    /// Hidden singles and the pigeonhole check by counting each value's places.
    fn hidden_singles_general(&mut self, ctx: &mut Context<'_>) -> Result<bool, Conflict> {
        // A view with more values than there are views leaves more values than views
        // in the union: no single, no failure (and no count over a wide domain).
        if (self.views.iter()).any(|&view| ctx.size(view) as usize > self.views.len()) {
            return Ok(false);
        }
        self.values.build(ctx, &self.views);
        if self.values.len() < self.views.len() {
            return Err(Conflict);
        }
        self.counts.clear();
        self.counts.resize(self.values.len(), 0);
        for &view in &self.views {
            for v in ctx.values(view) {
                self.counts[self.values.index(v)] += 1;
            }
        }
        let used = self.counts.iter().filter(|&&c| c > 0).count();
        if used < self.views.len() {
            return Err(Conflict);
        }
        if used > self.views.len() {
            return Ok(false);
        }
        ctx.set_label(AllDifferent::ONLY_PLACE);
        let mut progress = false;
        for i in 0..self.views.len() {
            let view = self.views[i];
            if ctx.is_fixed(view) {
                continue;
            }
            let single = ctx
                .values(view)
                .find(|&v| self.counts[self.values.index(v)] == 1);
            if let Some(value) = single {
                ctx.fix(view, value)?;
                self.work.push(i as u32);
                progress = true;
            }
        }
        Ok(progress)
    }

    /// Régin's domain-consistent filtering, over the values in play numbered densely.
    /// Skipped when it can remove nothing ([`no_hall_set`]).
    fn regin(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        if no_hall_set(self.views.iter().map(|&view| ctx.size(view))) {
            return Ok(());
        }
        let n = self.views.len();
        if self.views.iter().any(|&view| ctx.size(view) as usize > n) {
            self.list_reduced_domains(ctx);
        } else {
            self.values.build(ctx, &self.views);
            if self.values.len() < n {
                return Err(Conflict);
            }
            self.domain_start.clear();
            self.domain_values.clear();
            self.domain_start.push(0);
            for &view in &self.views {
                let values = &self.values;
                self.domain_values
                    .extend(ctx.values(view).map(|v| values.index(v) as u32));
                self.domain_start.push(self.domain_values.len() as u32);
            }
        }
        let removals = &mut self.removals;
        removals.clear();
        self.matching
            .filter(
                self.values.len(),
                &self.domain_start,
                &self.domain_values,
                |x, v| {
                    removals.push((x, v));
                },
            )
            .map_err(|()| Conflict)?;
        ctx.set_label(AllDifferent::MATCHING);
        for &(x, v) in removals.iter() {
            ctx.remove(self.views[x], self.values.value(v as usize))?;
        }
        Ok(())
    }

    /// Lists the views' values for the matching when some view has more values than
    /// there are views. Such a view is in no Hall set: of its values, only those of
    /// the smaller views can go, and any `n` of the others leave it as free as all of
    /// them do. So it is given its values that the smaller views have, and enough of
    /// its others to have `n`: the graph stays as small as the smaller views' values,
    /// however wide the big domains (a `var int` without bounds spans 2 * 10^8).
    fn list_reduced_domains(&mut self, ctx: &Context<'_>) {
        let n = self.views.len();
        let small = &mut self.small_values;
        small.clear();
        for &view in &self.views {
            if ctx.size(view) as usize <= n {
                small.extend(ctx.values(view));
            }
        }
        small.sort_unstable();
        small.dedup();
        let listed = &mut self.listed_values;
        listed.clear();
        self.domain_start.clear();
        self.domain_start.push(0);
        for &view in &self.views {
            let start = listed.len();
            if ctx.size(view) as usize <= n {
                listed.extend(ctx.values(view));
            } else {
                listed.extend(small.iter().copied().filter(|&v| ctx.contains(view, v)));
                let shared = listed.len() - start;
                let others = ctx.values(view).filter(|v| small.binary_search(v).is_err());
                listed.extend(others.take(n.saturating_sub(shared)));
                listed[start..].sort_unstable();
            }
            self.domain_start.push(listed.len() as u32);
        }
        self.values.build_listed(listed.iter().copied());
        let values = &self.values;
        self.domain_values.clear();
        (self.domain_values).extend(listed.iter().map(|&v| values.index(v) as u32));
    }
}

/// Whether Régin's filtering would remove nothing from views of these sizes, once value
/// elimination has run. It removes a value only outside a Hall set (views whose union
/// has as many values as views) and fails only on a set with fewer values than views;
/// the fixed views' values are gone from the others, so such a set has an unfixed part
/// that is one itself, whose views each have at most as many values as there are
/// unfixed views. So: true when every unfixed view has more. O(n).
fn no_hall_set(sizes: impl Iterator<Item = u32>) -> bool {
    let (mut unfixed, mut smallest) = (0, u32::MAX);
    for size in sizes {
        if size > 1 {
            unfixed += 1;
            smallest = smallest.min(size);
        }
    }
    smallest > unfixed
}

/// Removes each fixed mask's bit from the others until nothing changes.
fn eliminate_fixed(masks: &mut [u64]) -> Result<(), Conflict> {
    loop {
        let mut fixed = 0u64;
        for &m in masks.iter() {
            if m & (m.wrapping_sub(1)) == 0 {
                if m == 0 || fixed & m != 0 {
                    return Err(Conflict);
                }
                fixed |= m;
            }
        }
        let mut changed = false;
        for m in masks.iter_mut() {
            if *m & (*m - 1) != 0 && *m & fixed != 0 {
                *m &= !fixed;
                if *m == 0 {
                    return Err(Conflict);
                }
                changed |= *m & (*m - 1) == 0;
            }
        }
        if !changed {
            return Ok(());
        }
    }
}

impl Propagator for AllDifferent {
    fn name(&self) -> &'static str {
        "all_different"
    }

    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        let wake = match self.strength {
            Strength::Value => Wake::Fixed,
            Strength::Bounds => Wake::Bounds,
            Strength::HiddenSingles | Strength::Domain => Wake::Domain,
        };
        let mut vars: Vec<VarId> = self.views.iter().map(|v| v.var).collect();
        vars.sort_unstable();
        vars.dedup();
        self.shared = vars.len() < self.views.len();
        // Watching checks the views, before their bounds are read.
        ctx.watch_all(self.views.iter().copied(), wake)?;
        let cells = (self.views.iter()).map(|&view| {
            let cell = ctx.small_cell(view.var)?;
            let (_, base) = ctx.small_word(view.var)?;
            Some((u32::try_from(cell).ok()?, base.checked_add(view.offset)?))
        });
        self.cells = cells.collect::<Option<_>>().unwrap_or_default();
        self.window = window_shifts(ctx, &self.views);
        if self.strength == Strength::Domain {
            let lo = self.views.iter().map(|&v| i64::from(ctx.min(v))).min();
            let hi = self.views.iter().map(|&v| i64::from(ctx.max(v))).max();
            if let (Some(lo), Some(hi)) = (lo, hi) {
                let span = hi - lo + 1;
                if span > 64 && span <= MAX_WIDE_VALUES {
                    self.wide = Some((lo, if span <= 128 { 2 } else { 4 }));
                }
            }
        }
        Ok(())
    }

    fn priority(&self) -> Priority {
        match self.strength {
            Strength::Bounds | Strength::Domain => Priority::Expensive,
            _ => Priority::Cheap,
        }
    }

    fn is_idempotent(&self) -> bool {
        true
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        if self.strength == Strength::Bounds {
            // The bounds value elimination read, when they are exact (no shared
            // variable): the Hall pass need not read them again.
            let mut read = self.eliminate(ctx)?;
            loop {
                let known = (read && !self.shared).then_some(self.bounds.as_slice());
                let again = self.hall.propagate(
                    ctx,
                    &self.views,
                    Bounds {
                        known,
                        cells: &self.cells,
                    },
                    self.shared,
                    &mut self.work,
                )?;
                if !again && self.work.is_empty() {
                    return Ok(());
                }
                read = self.eliminate_queued(ctx)?;
            }
        }
        let on_bits = self.on_window::<Result<bool, Conflict>>(
            ctx,
            |this, ctx, shifts| {
                this.propagate_bits(ctx, shifts)?;
                if this.strength == Strength::Domain {
                    this.regin_bits(ctx, shifts)?;
                }
                Ok(true)
            },
            |this, ctx| {
                this.eliminate_general(ctx)?;
                if this.strength == Strength::HiddenSingles {
                    while this.hidden_singles_general(ctx)? {
                        this.eliminate_queued(ctx)?;
                    }
                }
                Ok(false)
            },
        )?;
        if on_bits {
            return Ok(());
        }
        if self.strength == Strength::Domain {
            match self.wide {
                Some((base, 2)) => self.regin_words::<2, 128>(ctx, base)?,
                Some((base, _)) => self.regin_words::<4, 256>(ctx, base)?,
                None => self.regin(ctx)?,
            }
        }
        Ok(())
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        let mut seen: Vec<i64> = self
            .views
            .iter()
            .map(|v| i64::from(value(v.var)) + i64::from(v.offset))
            .collect();
        seen.sort_unstable();
        seen.windows(2).all(|w| w[0] != w[1])
    }
}

#[cfg(test)]
mod tests;
