//! What a propagator sees while it runs: the domains, through a [`Context`] that
//! trails every change and wakes the watchers, and the [`Pruning`]s it leaves when
//! someone records them.

use std::ops::RangeInclusive;

use super::{Conflict, InferenceLabel, Queue};
use crate::ids::{ConstraintId, VarId, View};
use crate::store::{Event, Store, mask_values, small_event};
use crate::variables::Variables;

/// A propagator's access to the domains while it runs. Every change goes through
/// here, so that it is trailed and wakes the propagators that watch the variable.
pub struct Context<'a> {
    pub(super) store: &'a mut Store,
    pub(super) queue: &'a mut Queue,
    pub(super) current: u32,
    pub(super) modified: &'a [u32],
    /// Where the propagator's state words sit in the store.
    pub(super) state: (usize, usize),
    pub(super) pruned: &'a mut Option<Vec<Pruning>>,
    pub(super) label: InferenceLabel,
    /// The model's variables, to name them in prunings.
    pub(super) vars: &'a Variables,
}

/// The store's words, for a propagator to write its narrowed small domains and its
/// state straight into, without trailing or waking anyone: what
/// [`Context::owned_words`] gives when nothing else needs to hear of the change.
///
/// Each write must keep the store consistent, which is the caller's to ensure (checked
/// in debug builds and with the `debug-checks` feature): a domain word may only
/// shrink, never to nothing, and only at the cell of a small domain of one of the
/// propagator's own variables ([`PostContext::small_cell`](crate::PostContext::small_cell)).
/// Breaking that is no undefined behaviour, but the search goes wrong.
pub struct OwnedWords<'a> {
    cells: &'a mut [u64],
    /// Where the propagator's state words start.
    state: usize,
}

impl OwnedWords<'_> {
    /// Sets the word at `cell`, a small domain of the propagator's, to `word`, a
    /// non-empty subset of it.
    ///
    /// # Panics
    ///
    /// If `cell` is past the store's words.
    #[inline(always)]
    pub fn narrow(&mut self, cell: usize, word: u64) {
        invariant!(
            word != 0 && word & !self.cells[cell] == 0,
            "a non-empty subset"
        );
        self.cells[cell] = word;
    }

    /// Sets the words from `cell` on, each a small domain of the propagator's, to
    /// `words`, each a non-empty subset of its word: one copy for a propagator whose
    /// variables' words lie side by side.
    ///
    /// # Panics
    ///
    /// If the words run past the store's.
    #[inline(always)]
    pub fn narrow_all(&mut self, cell: usize, words: &[u64]) {
        let cells = &mut self.cells[cell..cell + words.len()];
        invariant!(
            cells
                .iter()
                .zip(words)
                .all(|(&c, &w)| w != 0 && w & !c == 0),
            "non-empty subsets"
        );
        cells.copy_from_slice(words);
    }

    /// Sets the words of the propagator's state from `index` on, as
    /// [`Context::set_state`] does each.
    ///
    /// # Panics
    ///
    /// If the words run past the store's.
    #[inline(always)]
    pub fn set_state(&mut self, index: usize, words: &[u64]) {
        let start = self.state + index;
        self.cells[start..start + words.len()].copy_from_slice(words);
    }
}

/// One value removed by one propagator, recorded when someone listens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pruning {
    /// The constraint that removed it.
    pub constraint: ConstraintId,
    /// The reasoning that removed it, as the propagator labelled it.
    pub label: InferenceLabel,
    /// The variable.
    pub var: VarId,
    /// The value removed.
    pub value: i32,
}

impl Context<'_> {
    /// The local indices (as [`PostContext::watch`](crate::PostContext::watch) gave
    /// them) of the watched variables whose domains changed, in a way their watch
    /// asked for, since this propagator last ran. Every variable is listed on the
    /// first run. May hold repeats.
    pub fn modified(&self) -> &[u32] {
        self.modified
    }

    /// Says that the constraint now holds for every assignment of the current
    /// domains (it is *entailed*, or subsumed): the propagator is not run again until
    /// the search backtracks above this point, however its variables change below.
    /// Call it only when that is true of every assignment left, whatever the
    /// propagator's state; calling it after pruning in the same run is fine. Costs one
    /// trailed word; a propagator that never calls it pays nothing.
    ///
    /// ```
    /// use alldiff::{Conflict, Context, Model, ModelError, PostContext, Propagator, Solver, VarId, Wake};
    ///
    /// /// `x <= y`, done with once every value of `x` is at most every value of `y`.
    /// #[derive(Clone, Debug)]
    /// struct AtMost { x: VarId, y: VarId }
    ///
    /// impl Propagator for AtMost {
    ///     fn name(&self) -> &'static str { "at_most" }
    ///     fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
    ///         ctx.watch_all([self.x, self.y], Wake::Bounds)
    ///     }
    ///     fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
    ///         let max_y = ctx.max(self.y);
    ///         ctx.set_max(self.x, max_y)?;
    ///         let min_x = ctx.min(self.x);
    ///         ctx.set_min(self.y, min_x)?;
    ///         if ctx.max(self.x) <= ctx.min(self.y) {
    ///             ctx.entailed();
    ///         }
    ///         Ok(())
    ///     }
    ///     fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
    ///         value(self.x) <= value(self.y)
    ///     }
    /// }
    ///
    /// let mut model = Model::new();
    /// let x = model.int_var(1, 3)?;
    /// let y = model.int_var(1, 3)?;
    /// model.post(AtMost { x, y })?;
    /// assert_eq!(Solver::new(model).count(None).solutions, 6);
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    #[inline]
    pub fn entailed(&mut self) {
        self.queue.entail(self.current, self.store);
    }

    /// Labels the reasoning that the next removals apply, for traces and
    /// explanations: one of the propagator's own [`InferenceLabel`]s. A call starts
    /// with [`InferenceLabel::UNNAMED`].
    pub fn set_label(&mut self, label: InferenceLabel) {
        self.label = label;
    }

    /// The number of values left.
    #[inline]
    pub fn size(&self, view: impl Into<View>) -> u32 {
        self.store.size(view.into().var.raw())
    }

    /// Whether one value is left.
    #[inline]
    pub fn is_fixed(&self, view: impl Into<View>) -> bool {
        self.store.is_fixed(view.into().var.raw())
    }

    /// The value, if only one is left.
    #[inline]
    pub fn value(&self, view: impl Into<View>) -> Option<i32> {
        let view = view.into();
        self.is_fixed(view).then(|| self.min(view))
    }

    /// The smallest value left.
    #[inline]
    pub fn min(&self, view: impl Into<View>) -> i32 {
        let view = view.into();
        self.store.min(view.var.raw()) + view.offset
    }

    /// The largest value left.
    #[inline]
    pub fn max(&self, view: impl Into<View>) -> i32 {
        let view = view.into();
        self.store.max(view.var.raw()) + view.offset
    }

    /// The smallest and the largest value left: [`Context::min`] and
    /// [`Context::max`] in one read.
    #[inline]
    pub fn bounds(&self, view: impl Into<View>) -> (i32, i32) {
        let view = view.into();
        let (min, max) = self.store.bounds(view.var.raw());
        (min + view.offset, max + view.offset)
    }

    /// Whether `value` is still possible.
    #[inline]
    pub fn contains(&self, view: impl Into<View>, value: i32) -> bool {
        let view = view.into();
        value
            .checked_sub(view.offset)
            .is_some_and(|v| self.store.contains(view.var.raw(), v))
    }

    /// The values left, ascending.
    pub fn values(&self, view: impl Into<View>) -> impl Iterator<Item = i32> + '_ {
        let view = view.into();
        self.store
            .values(view.var.raw())
            .map(move |v| v + view.offset)
    }

    /// The smallest value left that is at least `at`: a scan of the domain's words
    /// from `at`, or a jump for a domain kept as an interval.
    pub fn value_at_least(&self, view: impl Into<View>, at: i32) -> Option<i32> {
        let view = view.into();
        let raw = (i64::from(at) - i64::from(view.offset)).max(i64::from(i32::MIN));
        let raw = i32::try_from(raw).ok()?;
        let value = self.store.values_from(view.var.raw(), raw).next()?;
        Some(value + view.offset)
    }

    /// The largest value left that is at most `at`, as [`Context::value_at_least`].
    pub fn value_at_most(&self, view: impl Into<View>, at: i32) -> Option<i32> {
        let view = view.into();
        let raw = (i64::from(at) - i64::from(view.offset)).min(i64::from(i32::MAX));
        let raw = i32::try_from(raw).ok()?;
        let value = self.store.value_at_most(view.var.raw(), raw)?;
        Some(value + view.offset)
    }

    /// Whether the domain is kept as an interval with holes: made of values spread
    /// wider than 4096 and nearly contiguous, it is held by its bounds and one word
    /// per 64-value stretch with a hole, so reading its values one by one, or
    /// removing many from inside it, costs by its span rather than by a word count.
    pub fn is_interval(&self, view: impl Into<View>) -> bool {
        self.store.is_interval(view.into().var.raw())
    }

    /// Removes `value`. `Ok(true)` if it was there.
    #[inline]
    pub fn remove(&mut self, view: impl Into<View>, value: i32) -> Result<bool, Conflict> {
        let view = view.into();
        let Some(raw) = value.checked_sub(view.offset) else {
            return Ok(false);
        };
        let var = view.var.raw();
        if self.pruned.is_some() && self.store.contains(var, raw) {
            self.record(var, raw);
        }
        let event = self.store.remove(var, raw)?;
        self.changed(var, event);
        Ok(!event.is_none())
    }

    /// Removes every value `from + i` for a bit `i` of `mask` (bit `i % 64` of word
    /// `i / 64`), in one pass over the words of a small or bitset domain: what a
    /// removal of each would do. Values outside the domain, or outside `i32`, are
    /// passed over. `Ok(true)` if one was there.
    #[inline]
    pub fn remove_mask(
        &mut self,
        view: impl Into<View>,
        from: i64,
        mask: &[u64],
    ) -> Result<bool, Conflict> {
        let view = view.into();
        let from = from - i64::from(view.offset);
        let var = view.var.raw();
        if self.pruned.is_some() {
            for value in mask_values(from, mask) {
                if self.store.contains(var, value) {
                    self.record(var, value);
                }
            }
        }
        let event = self.store.remove_mask(var, from, mask)?;
        self.changed(var, event);
        Ok(!event.is_none())
    }

    /// Removes every value but `value`.
    #[inline]
    pub fn fix(&mut self, view: impl Into<View>, value: i32) -> Result<bool, Conflict> {
        let view = view.into();
        let raw = value.checked_sub(view.offset).ok_or(Conflict)?;
        let var = view.var.raw();
        if self.pruned.is_some() {
            self.record_all(var, i32::MIN..=i32::MAX, Some(raw));
        }
        let event = self.store.fix(var, raw)?;
        self.changed(var, event);
        Ok(!event.is_none())
    }

    /// Removes every value below `min`.
    #[inline]
    pub fn set_min(&mut self, view: impl Into<View>, min: i32) -> Result<bool, Conflict> {
        let view = view.into();
        let raw = (i64::from(min) - i64::from(view.offset)).max(i64::from(i32::MIN));
        // Above every value the variable can hold: nothing is left.
        let raw = i32::try_from(raw).map_err(|_| Conflict)?;
        let var = view.var.raw();
        if self.pruned.is_some()
            && let Some(below) = raw.checked_sub(1)
        {
            self.record_all(var, i32::MIN..=below, None);
        }
        let event = self.store.set_min(var, raw)?;
        self.changed(var, event);
        Ok(!event.is_none())
    }

    /// Removes every value above `max`.
    #[inline]
    pub fn set_max(&mut self, view: impl Into<View>, max: i32) -> Result<bool, Conflict> {
        let view = view.into();
        let raw = (i64::from(max) - i64::from(view.offset)).min(i64::from(i32::MAX));
        // Below every value the variable can hold: nothing is left.
        let raw = i32::try_from(raw).map_err(|_| Conflict)?;
        let var = view.var.raw();
        if self.pruned.is_some()
            && let Some(above) = raw.checked_add(1)
        {
            self.record_all(var, above..=i32::MAX, None);
        }
        let event = self.store.set_max(var, raw)?;
        self.changed(var, event);
        Ok(!event.is_none())
    }

    /// The propagator's backtrackable state: as many words as
    /// [`PostContext::set_initial_state`](crate::PostContext::set_initial_state) gave.
    pub fn state(&self) -> &[u64] {
        &self.store.words()[self.state.0..self.state.1]
    }

    /// Sets word `index` of the propagator's state; backtracking puts the old word back.
    ///
    /// # Panics
    ///
    /// If `index` is not below the length of [`PostContext::set_initial_state`](crate::PostContext::set_initial_state).
    pub fn set_state(&mut self, index: usize, word: u64) {
        assert!(
            index < self.state.1 - self.state.0,
            "state word {index} out of range"
        );
        self.store.set_word(self.state.0 + index, word);
    }

    /// Whether removals are being recorded with their labels (see
    /// [`Solver::record_prunings`](crate::Solver::record_prunings)): a propagator
    /// that writes words directly ([`Context::narrow_small`]) records nothing, so it
    /// goes through [`Context::retain_small`] then.
    pub fn is_recording(&self) -> bool {
        self.pruned.is_some()
    }

    /// The domain of `var` as one word, if its values lie at most 64 apart (a *small*
    /// domain, which it stays): bit `i` stands for the value `base + i`; with `base`.
    /// `None` for a larger domain. Such a word lets a propagator test and narrow many
    /// values at once ([`Context::retain_small`]).
    ///
    /// ```
    /// use alldiff::{Conflict, Context, Model, ModelError, PostContext, Propagator, Solver, VarId, Wake};
    ///
    /// /// `x` and `y` take values of different parity, on small domains.
    /// #[derive(Clone, Debug)]
    /// struct OtherParity { x: VarId, y: VarId }
    ///
    /// impl Propagator for OtherParity {
    ///     fn name(&self) -> &'static str { "other_parity" }
    ///     fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
    ///         ctx.watch_all([self.x, self.y], Wake::Domain)
    ///     }
    ///     fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
    ///         for (a, b) in [(self.x, self.y), (self.y, self.x)] {
    ///             let (Some((word, base)), Some((_, other))) = (ctx.small_word(a), ctx.small_word(b))
    ///             else { continue };
    ///             // The bits of the even values of `a`, and whether `a` has any odd one.
    ///             let even = if base % 2 == 0 { 0x5555_5555_5555_5555 } else { !0x5555_5555_5555_5555 };
    ///             let parities = [word & even != 0, word & !even != 0];
    ///             // Keep in `b` only the parities `a` lacks.
    ///             let b_even = if other % 2 == 0 { 0x5555_5555_5555_5555 } else { !0x5555_5555_5555_5555u64 };
    ///             let keep = match parities {
    ///                 [true, true] => !0,
    ///                 [true, false] => !b_even,
    ///                 _ => b_even,
    ///             };
    ///             ctx.retain_small(b, keep)?;
    ///         }
    ///         Ok(())
    ///     }
    ///     fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
    ///         (value(self.x) - value(self.y)) % 2 != 0
    ///     }
    /// }
    ///
    /// let mut model = Model::new();
    /// let x = model.int_var(1, 4)?;
    /// let y = model.int_var(2, 2)?;
    /// model.post(OtherParity { x, y })?;
    /// assert_eq!(Solver::new(model).count(None).solutions, 2); // x = 1 or 3
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    #[inline]
    pub fn small_word(&self, var: VarId) -> Option<(u64, i32)> {
        self.store.small_word(var.raw())
    }

    /// Keeps only the values of the small domain of `var` whose bits are set in
    /// `keep` (bit `i` for `base + i`, as [`Context::small_word`] gives them).
    /// `Ok(true)` if a value was removed.
    ///
    /// # Panics
    ///
    /// If the domain of `var` is not small ([`Context::small_word`] is `None`).
    #[inline(always)]
    pub fn retain_small(&mut self, var: VarId, keep: u64) -> Result<bool, Conflict> {
        let var = var.raw();
        if self.pruned.is_some() {
            let (word, base) = self.store.small_word(var).expect("a small domain");
            let mut gone = word & !keep;
            while gone != 0 {
                self.record(var, base + gone.trailing_zeros() as i32);
                gone &= gone - 1;
            }
        }
        let event = self.store.retain_small(var, keep)?;
        self.changed(var, event);
        Ok(!event.is_none())
    }

    /// Every word of the store: each small domain's word lies at the cell
    /// [`PostContext::small_cell`](crate::PostContext::small_cell) gives, which never
    /// moves, so a propagator that reads many small domains in its inner loop finds
    /// the cells once, when posted, and then reads the words here without a look-up.
    /// (What else the words hold is the store's business.)
    #[inline]
    pub fn words(&self) -> &[u64] {
        self.store.words()
    }

    /// Narrows the small domain of `var`, whose word is at `cell` (see
    /// [`PostContext::small_cell`](crate::PostContext::small_cell)), to `word`: what
    /// [`Context::retain_small`] does, without looking up where the word is, and
    /// recording nothing (see [`Context::is_recording`]).
    ///
    /// `word` must be a non-empty subset of the word at `cell`, and `cell` the one
    /// of `var` (checked in debug builds and with the `debug-checks` feature):
    /// otherwise the search goes wrong.
    #[inline(always)]
    pub fn narrow_small(&mut self, var: VarId, cell: usize, word: u64) {
        let var = var.raw();
        let old = self.store.words()[cell];
        invariant!(word != 0 && word & !old == 0, "a non-empty subset");
        invariant_eq!(self.store.small_cell(var), Some(cell), "the word of `var`");
        if old != word {
            self.store.set_word(cell, word);
            if self.queue.may_wake(var, self.current) {
                self.queue
                    .wake_watchers(var, small_event(old, word), self.current);
            }
        }
    }

    /// Every word of the store, to write the propagator's narrowed small domains and
    /// its state straight into, when that is all a change needs: nothing is recorded,
    /// no other propagator watches its variables (no one to wake), and the store
    /// copies its words at each choice point (nothing to save; a store of at most
    /// [`COPY_CELLS`](crate::COPY_CELLS) words without an interval domain does).
    /// `None` otherwise: then [`Context::narrow_small`] and [`Context::set_state`] do
    /// the rest.
    pub fn owned_words(&mut self) -> Option<OwnedWords<'_>> {
        let owned = !self.is_recording() && self.queue.wakes_no_one(self.current);
        let cells = self.store.unsaved_words().filter(|_| owned)?;
        Some(OwnedWords {
            cells,
            state: self.state.0,
        })
    }

    #[cold]
    #[inline(never)]
    fn record(&mut self, var: u32, value: i32) {
        if let Some(log) = self.pruned.as_mut() {
            log.push(Pruning {
                constraint: ConstraintId(self.current),
                label: self.label,
                var: self.vars.var_at(var),
                value,
            });
        }
    }

    /// Records the values of `var` in `range` but `except`: reads only those (a set
    /// bound on a wide domain records what it removed, not the whole domain).
    #[cold]
    #[inline(never)]
    fn record_all(&mut self, var: u32, range: RangeInclusive<i32>, except: Option<i32>) {
        if let Some(log) = self.pruned.as_mut() {
            let values = self.store.values_from(var, *range.start());
            for value in values.take_while(|v| v <= range.end()) {
                if Some(value) != except {
                    log.push(Pruning {
                        constraint: ConstraintId(self.current),
                        label: self.label,
                        var: self.vars.var_at(var),
                        value,
                    });
                }
            }
        }
    }

    #[inline(always)]
    fn changed(&mut self, var: u32, event: Event) {
        self.queue.notify(var, event, self.current);
    }
}
