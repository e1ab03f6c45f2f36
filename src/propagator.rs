//! Propagators: how a constraint removes values, and the queue that runs them to a
//! fixpoint.
//!
//! A constraint is a value implementing [`Propagator`], posted to a model with
//! [`Model::post`](crate::Model::post). The solver wakes a propagator when a domain of
//! one of its variables changes in a way it asked for ([`Wake`]), and the propagator
//! removes values through the [`Context`] it is given. It reports a [`Conflict`] when it
//! finds that no solution extends the current domains. Propagation repeats until no
//! propagator has anything left to do: the fixpoint.
//!
//! # Writing a constraint
//!
//! 1. Store the variables (or [`View`]s) the constraint is about.
//! 2. Say which they are ([`Propagator::variables`]) and what should wake it
//!    ([`Propagator::wakes_on`]).
//! 3. Prune in [`Propagator::propagate`]: read domains and remove values through the
//!    [`Context`]; each removal that empties a domain returns `Err(Conflict)`, which
//!    `?` passes on.
//! 4. Say when a full assignment satisfies it ([`Propagator::is_satisfied`]): the solver's
//!    tests and users' checks rely on it.
//!
//! Here is `x < y` over two variables, complete:
//!
//! ```
//! use alldiff::{Conflict, Context, Model, Propagator, Solver, VarId, Wake};
//!
//! #[derive(Debug)]
//! struct LessThan { x: VarId, y: VarId }
//!
//! impl Propagator for LessThan {
//!     fn name(&self) -> &'static str { "less_than" }
//!     fn variables(&self) -> Vec<VarId> { vec![self.x, self.y] }
//!     fn wakes_on(&self) -> Wake { Wake::Bounds }
//!     fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
//!         // x < y: x is at most max(y) - 1, y at least min(x) + 1.
//!         let max_y = ctx.max(self.y);
//!         ctx.set_max(self.x, max_y - 1)?;
//!         let min_x = ctx.min(self.x);
//!         ctx.set_min(self.y, min_x + 1)?;
//!         Ok(())
//!     }
//!     fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
//!         value(self.x) < value(self.y)
//!     }
//! }
//!
//! let mut model = Model::new();
//! let x = model.int_var(1, 3)?;
//! let y = model.int_var(1, 3)?;
//! model.post(LessThan { x, y })?;
//! let mut solver = Solver::new(model);
//! assert_eq!(solver.count(None).solutions, 3); // (1,2), (1,3), (2,3)
//! # Ok::<(), alldiff::ModelError>(())
//! ```

use std::fmt;

use fixedbitset::FixedBitSet;
use smallvec::SmallVec;

use crate::model::{VarId, View};
use crate::store::{Event, Store, Wipeout, small_event};

/// The current domains admit no solution. Returned by propagators; the solver
/// backtracks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conflict;

impl From<Wipeout> for Conflict {
    fn from(_: Wipeout) -> Conflict {
        Conflict
    }
}

/// Which domain changes wake a propagator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wake {
    /// Any removed value.
    Domain,
    /// A moved minimum or maximum (or a fixed variable).
    Bounds,
    /// A variable that became fixed.
    Fixed,
}

impl Wake {
    fn events(self) -> Event {
        match self {
            Wake::Domain => Event::DOMAIN,
            Wake::Bounds => Event::BOUNDS | Event::FIXED,
            Wake::Fixed => Event::FIXED,
        }
    }
}

/// When a woken propagator runs: all cheap ones first, then the expensive ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Priority {
    /// Linear time or less in the number of variables.
    Cheap,
    /// Anything more costly, such as matching-based all-different.
    Expensive,
}

/// A constraint's propagation algorithm.
pub trait Propagator: fmt::Debug + Send {
    /// The constraint's kind, for statistics and traces (`all_different`, ...).
    fn name(&self) -> &'static str;

    /// The variables the constraint watches. The position of a variable in this list
    /// is its *local index*, as [`Context::modified`] reports it.
    fn variables(&self) -> Vec<VarId>;

    /// The views the constraint reads, with their offsets, so that posting can check
    /// that no offset overflows. Default: each variable with offset 0.
    fn views(&self) -> Vec<View> {
        self.variables().into_iter().map(View::from).collect()
    }

    /// Removes values that no solution can take, given the current domains.
    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict>;

    /// Whether the constraint holds when every variable has the given value.
    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool;

    /// Which domain changes wake the propagator. Default: any.
    fn wakes_on(&self) -> Wake {
        Wake::Domain
    }

    /// When it runs relative to others. Default: [`Priority::Cheap`].
    fn priority(&self) -> Priority {
        Priority::Cheap
    }

    /// The backtrackable state the propagator keeps in the solver, as every search
    /// starts it: as many words as it needs, read once when it is posted. The words are
    /// read with [`Context::state`] and written with [`Context::set_state`], and the
    /// solver puts them back with the domains whenever it backtracks, so that what a
    /// propagator derived incrementally always matches the domains. Default: none.
    fn initial_state(&self) -> Vec<u64> {
        Vec::new()
    }

    /// Whether one call always reaches the propagator's own fixpoint, so that its own
    /// changes need not wake it again. Default: `false` (it is woken by its own
    /// changes, which is always correct).
    fn is_idempotent(&self) -> bool {
        false
    }
}

/// A propagator's access to the domains while it runs. Every change goes through
/// here, so that it is trailed and wakes the propagators that watch the variable.
pub struct Context<'a> {
    pub(crate) store: &'a mut Store,
    pub(crate) queue: &'a mut Queue,
    pub(crate) current: u32,
    pub(crate) modified: &'a [u32],
    /// Where the propagator's state words sit in the store.
    pub(crate) state: (usize, usize),
    pub(crate) pruned: &'a mut Option<Vec<Pruning>>,
    pub(crate) rule: &'static str,
}

/// The store's words, written directly (see [`Context::owned_words`]).
pub(crate) struct OwnedWords<'a> {
    cells: &'a mut [u64],
    /// Where the propagator's state words start.
    state: usize,
}

impl OwnedWords<'_> {
    /// Sets the word at `cell`: a domain of the propagator's, to a subset of it.
    #[inline(always)]
    pub(crate) fn narrow(&mut self, cell: usize, word: u64) {
        debug_assert!(
            word != 0 && word & !self.cells[cell] == 0,
            "a non-empty subset"
        );
        self.cells[cell] = word;
    }

    /// Sets the words from `cell` on, each a domain of the propagator's, to a subset
    /// of it.
    #[inline(always)]
    pub(crate) fn narrow_all(&mut self, cell: usize, words: &[u64]) {
        let cells = &mut self.cells[cell..cell + words.len()];
        debug_assert!(
            cells
                .iter()
                .zip(words)
                .all(|(&c, &w)| w != 0 && w & !c == 0),
            "non-empty subsets"
        );
        cells.copy_from_slice(words);
    }

    /// Sets word `index` of the propagator's state.
    #[inline(always)]
    pub(crate) fn set_state(&mut self, index: usize, word: u64) {
        self.cells[self.state + index] = word;
    }
}

/// One value removed by one propagator, recorded when someone listens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pruning {
    /// The constraint that removed it.
    pub constraint: u32,
    /// The rule that removed it, as the propagator named it.
    pub rule: &'static str,
    /// The variable.
    pub var: u32,
    /// The value removed.
    pub value: i32,
}

impl Context<'_> {
    /// The local indices (positions in [`Propagator::variables`]) of the variables
    /// whose domains changed since this propagator last ran. Every variable is listed
    /// on the first run. May hold repeats.
    pub fn modified(&self) -> &[u32] {
        self.modified
    }

    /// Names the rule that the next removals apply, for traces and explanations.
    pub fn set_rule(&mut self, rule: &'static str) {
        self.rule = rule;
    }

    /// The number of values left.
    pub fn size(&self, view: impl Into<View>) -> u32 {
        self.store.size(view.into().var.raw())
    }

    /// Whether one value is left.
    pub fn is_fixed(&self, view: impl Into<View>) -> bool {
        self.store.is_fixed(view.into().var.raw())
    }

    /// The value, if only one is left.
    pub fn value(&self, view: impl Into<View>) -> Option<i32> {
        let view = view.into();
        self.is_fixed(view).then(|| self.min(view))
    }

    /// The smallest value left.
    pub fn min(&self, view: impl Into<View>) -> i32 {
        let view = view.into();
        self.store.min(view.var.raw()) + view.offset
    }

    /// The largest value left.
    pub fn max(&self, view: impl Into<View>) -> i32 {
        let view = view.into();
        self.store.max(view.var.raw()) + view.offset
    }

    /// Whether `value` is still possible.
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

    /// Removes `value`. `Ok(true)` if it was there.
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

    /// Removes every value but `value`.
    pub fn fix(&mut self, view: impl Into<View>, value: i32) -> Result<bool, Conflict> {
        let view = view.into();
        let raw = value.checked_sub(view.offset).ok_or(Conflict)?;
        let var = view.var.raw();
        self.record_all(var, |v| v != raw);
        let event = self.store.fix(var, raw)?;
        self.changed(var, event);
        Ok(!event.is_none())
    }

    /// Removes every value below `min`.
    pub fn set_min(&mut self, view: impl Into<View>, min: i32) -> Result<bool, Conflict> {
        let view = view.into();
        let raw = min.saturating_sub(view.offset);
        let var = view.var.raw();
        self.record_all(var, |v| v < raw);
        let event = self.store.set_min(var, raw)?;
        self.changed(var, event);
        Ok(!event.is_none())
    }

    /// Removes every value above `max`.
    pub fn set_max(&mut self, view: impl Into<View>, max: i32) -> Result<bool, Conflict> {
        let view = view.into();
        let raw = max.saturating_sub(view.offset);
        let var = view.var.raw();
        self.record_all(var, |v| v > raw);
        let event = self.store.set_max(var, raw)?;
        self.changed(var, event);
        Ok(!event.is_none())
    }

    /// The propagator's backtrackable state: as many words as
    /// [`Propagator::initial_state`] gave.
    pub fn state(&self) -> &[u64] {
        &self.store.words()[self.state.0..self.state.1]
    }

    /// Sets word `index` of the propagator's state; backtracking puts the old word back.
    ///
    /// # Panics
    ///
    /// If `index` is not below the length of [`Propagator::initial_state`].
    pub fn set_state(&mut self, index: usize, word: u64) {
        assert!(
            index < self.state.1 - self.state.0,
            "state word {index} out of range"
        );
        self.store.set_word(self.state.0 + index, word);
    }

    /// Whether removals are being recorded with their rules (see
    /// [`Solver::record_prunings`](crate::Solver::record_prunings)).
    pub(crate) fn is_recording(&self) -> bool {
        self.pruned.is_some()
    }

    /// Narrows the small domain of `var`, whose word the store keeps at `cell` (see
    /// [`Store::small_cell`]), to `word`, a non-empty subset of it: what
    /// [`Context::retain_small`] does, for a propagator that knows where the word is
    /// and when nothing is recorded.
    #[inline(always)]
    pub(crate) fn narrow_small(&mut self, var: u32, cell: usize, word: u64) {
        let old = self.store.words()[cell];
        debug_assert!(word != 0 && word & !old == 0, "a non-empty subset");
        if old != word {
            self.store.set_word(cell, word);
            if self.queue.may_wake(var, self.current) {
                self.queue
                    .wake_watchers(var, small_event(old, word), self.current);
            }
        }
    }

    /// Every domain word; see [`Store::small_cell`].
    pub(crate) fn words(&self) -> &[u64] {
        self.store.words()
    }

    /// Every word of the store, to write the propagator's narrowed domains and its
    /// state straight into, when that is all a change needs: nothing is recorded, no
    /// other propagator watches its variables (no one to wake), and the store copies
    /// its cells at each choice point (nothing to save). `None` otherwise: then
    /// [`Context::narrow_small`] and [`Context::set_state`] do the rest.
    pub(crate) fn owned_words(&mut self) -> Option<OwnedWords<'_>> {
        let owned = !self.is_recording() && self.queue.wakes_no_one(self.current);
        let cells = self.store.unsaved_words().filter(|_| owned)?;
        Some(OwnedWords {
            cells,
            state: self.state.0,
        })
    }

    /// The domain of a variable with at most 64 values, as a bitmask whose bit `i`
    /// stands for `base + i`, with `base`. `None` for larger domains.
    pub(crate) fn small_word(&self, var: u32) -> Option<(u64, i32)> {
        self.store.small_word(var)
    }

    /// Keeps only the bits of `keep` in a small domain (see [`Self::small_word`]).
    #[inline(always)]
    pub(crate) fn retain_small(&mut self, var: u32, keep: u64) -> Result<bool, Conflict> {
        if self.pruned.is_some() {
            let (word, base) = self.store.small_word(var).expect("small domain");
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

    fn record(&mut self, var: u32, value: i32) {
        if let Some(log) = self.pruned.as_mut() {
            log.push(Pruning {
                constraint: self.current,
                rule: self.rule,
                var,
                value,
            });
        }
    }

    fn record_all(&mut self, var: u32, removed: impl Fn(i32) -> bool) {
        if let Some(log) = self.pruned.as_mut() {
            for value in self.store.values(var).filter(|&v| removed(v)) {
                log.push(Pruning {
                    constraint: self.current,
                    rule: self.rule,
                    var,
                    value,
                });
            }
        }
    }

    fn changed(&mut self, var: u32, event: Event) {
        if !event.is_none() {
            self.queue.notify(var, event, self.current);
        }
    }
}

/// Who watches a variable: a propagator, the variable's local index there, and the
/// events it wants.
#[derive(Clone, Copy, Debug)]
struct Watch {
    propagator: u32,
    local: u32,
    events: Event,
}

/// The propagation queue: watch lists, pending modifications and two FIFO levels.
#[derive(Debug, Default)]
pub(crate) struct Queue {
    watches: Vec<SmallVec<[Watch; 4]>>,
    /// Local indices modified since each propagator last ran.
    pending: Vec<Vec<u32>>,
    queued: FixedBitSet,
    levels: [std::collections::VecDeque<u32>; 2],
    /// Propagators whose own changes do not wake them.
    idempotent: FixedBitSet,
    /// Per variable, its one watcher if that is idempotent (its own changes never
    /// wake anyone), else [`NO_PROPAGATOR`].
    sole_idempotent: Vec<u32>,
    /// Propagators that are the sole idempotent watcher of all their variables: their
    /// changes never wake anyone.
    wake_no_one: FixedBitSet,
    priorities: Vec<Priority>,
    /// Each propagator's number of variables, so that scheduling them all at the
    /// start of every search allocates nothing.
    counts: Vec<u32>,
}

/// No propagator: changes made by search decisions.
pub(crate) const NO_PROPAGATOR: u32 = u32::MAX;

impl Queue {
    pub(crate) fn new(var_count: usize, propagators: &[Box<dyn Propagator>]) -> Queue {
        let mut queue = Queue {
            watches: vec![SmallVec::new(); var_count],
            pending: vec![Vec::new(); propagators.len()],
            queued: FixedBitSet::with_capacity(propagators.len()),
            levels: Default::default(),
            idempotent: FixedBitSet::with_capacity(propagators.len()),
            sole_idempotent: Vec::new(),
            wake_no_one: FixedBitSet::with_capacity(propagators.len()),
            priorities: propagators.iter().map(|p| p.priority()).collect(),
            counts: Vec::with_capacity(propagators.len()),
        };
        for (index, propagator) in propagators.iter().enumerate() {
            let events = propagator.wakes_on().events();
            let vars = propagator.variables();
            queue.counts.push(vars.len() as u32);
            for (local, var) in vars.iter().enumerate() {
                queue.watches[var.index()].push(Watch {
                    propagator: index as u32,
                    local: local as u32,
                    events,
                });
            }
            // A variable seen twice (say `x` and `x + 1`) changes under the propagator's
            // feet: its own changes must wake it again to reach the fixpoint.
            let mut distinct = vars.clone();
            distinct.sort_unstable();
            distinct.dedup();
            let repeats = distinct.len() < vars.len();
            queue
                .idempotent
                .set(index, propagator.is_idempotent() && !repeats);
        }
        queue.sole_idempotent = queue
            .watches
            .iter()
            .map(|watches| match watches.as_slice() {
                [only] if queue.idempotent.contains(only.propagator as usize) => only.propagator,
                _ => NO_PROPAGATOR,
            })
            .collect();
        for (index, propagator) in propagators.iter().enumerate() {
            let sole = (propagator.variables().iter())
                .all(|var| queue.sole_idempotent[var.index()] == index as u32);
            queue.wake_no_one.set(index, sole);
        }
        queue
    }

    /// Queues every propagator with all of its variables marked modified.
    pub(crate) fn schedule_all(&mut self) {
        self.clear();
        for index in 0..self.counts.len() {
            self.pending[index].extend(0..self.counts[index]);
            self.push(index as u32);
        }
    }

    fn push(&mut self, propagator: u32) {
        if !self.queued.put(propagator as usize) {
            let level = self.priorities[propagator as usize] as usize;
            self.levels[level].push_back(propagator);
        }
    }

    /// Wakes the watchers of `var` interested in `event`, except `source` when its
    /// own changes do not wake it.
    #[inline(always)]
    pub(crate) fn notify(&mut self, var: u32, event: Event, source: u32) {
        if self.may_wake(var, source) {
            self.wake_watchers(var, event, source);
        }
    }

    /// Whether no change by `propagator` can wake anyone (see [`Queue::may_wake`]).
    fn wakes_no_one(&self, propagator: u32) -> bool {
        self.wake_no_one.contains(propagator as usize)
    }

    /// Whether a change of `var` by `source` may wake anyone: not when its only
    /// watcher is `source` itself, idempotent.
    #[inline(always)]
    fn may_wake(&self, var: u32, source: u32) -> bool {
        source == NO_PROPAGATOR || self.sole_idempotent[var as usize] != source
    }

    /// [`Queue::notify`] once it is known that someone may need waking.
    fn wake_watchers(&mut self, var: u32, event: Event, source: u32) {
        let Queue {
            watches,
            pending,
            queued,
            levels,
            idempotent,
            priorities,
            ..
        } = self;
        for watch in &watches[var as usize] {
            let propagator = watch.propagator as usize;
            if !watch.events.intersects(event)
                || (watch.propagator == source && idempotent.contains(propagator))
            {
                continue;
            }
            pending[propagator].push(watch.local);
            if !queued.put(propagator) {
                levels[priorities[propagator] as usize].push_back(watch.propagator);
            }
        }
    }

    /// The next propagator to run, with its modified local indices moved into `modified`.
    pub(crate) fn pop(&mut self, modified: &mut Vec<u32>) -> Option<u32> {
        let propagator = self.levels[0]
            .pop_front()
            .or_else(|| self.levels[1].pop_front())?;
        self.queued.set(propagator as usize, false);
        // Copied, not swapped: each list keeps its own capacity, so that once warm
        // the queue allocates nothing.
        let pending = &mut self.pending[propagator as usize];
        modified.clear();
        modified.extend_from_slice(pending);
        pending.clear();
        Some(propagator)
    }

    /// Empties the queue after a conflict.
    pub(crate) fn clear(&mut self) {
        for level in &mut self.levels {
            for &p in level.iter() {
                self.pending[p as usize].clear();
            }
            level.clear();
        }
        self.queued.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Model, Solver};

    /// A propagator over the variables, woken by the events, idempotent or not, that
    /// prunes nothing.
    #[derive(Debug)]
    struct Watcher(Vec<VarId>, Wake, bool);

    impl Propagator for Watcher {
        fn name(&self) -> &'static str {
            "watcher"
        }
        fn variables(&self) -> Vec<VarId> {
            self.0.clone()
        }
        fn propagate(&mut self, _: &mut Context<'_>) -> Result<(), Conflict> {
            Ok(())
        }
        fn is_satisfied(&self, _: &dyn Fn(VarId) -> i32) -> bool {
            true
        }
        fn wakes_on(&self) -> Wake {
            self.1
        }
        fn is_idempotent(&self) -> bool {
            self.2
        }
    }

    #[test]
    fn notify_wakes_only_matching_watchers_once() {
        let mut model = Model::new();
        let x = model.int_var(0, 5).unwrap();
        let y = model.int_var(0, 5).unwrap();
        model
            .post(Watcher(vec![x, y], Wake::Domain, false))
            .unwrap();
        model.post(Watcher(vec![y, x], Wake::Fixed, false)).unwrap();
        let solver = Solver::new(model);
        let mut queue = Queue::new(2, solver.propagators());
        queue.notify(x.raw(), Event::DOMAIN, NO_PROPAGATOR);
        queue.notify(y.raw(), Event::DOMAIN | Event::FIXED, NO_PROPAGATOR);
        let mut modified = Vec::new();
        assert_eq!(queue.pop(&mut modified), Some(0));
        assert_eq!(modified, vec![0, 1]);
        assert_eq!(queue.pop(&mut modified), Some(1));
        assert_eq!(modified, vec![0]);
        assert_eq!(queue.pop(&mut modified), None);
    }

    /// Which propagators of the model `post` builds on three variables wake no one.
    fn wake_no_one(post: impl FnOnce(&mut Model, &[VarId])) -> Vec<bool> {
        let mut model = Model::new();
        let x = model.int_vars(3, 0, 5).unwrap();
        post(&mut model, &x);
        let solver = Solver::new(model);
        let queue = Queue::new(3, solver.propagators());
        (0..solver.propagators().len() as u32)
            .map(|p| queue.wakes_no_one(p))
            .collect()
    }

    #[test]
    fn a_sole_idempotent_watcher_of_all_its_variables_wakes_no_one() {
        // Alone on its variables; the other one is not idempotent.
        let alone = wake_no_one(|m, x| {
            m.post(Watcher(vec![x[0], x[1]], Wake::Domain, true))
                .unwrap();
            m.post(Watcher(vec![x[2]], Wake::Domain, false)).unwrap();
        });
        assert_eq!(alone, vec![true, false]);
        // Sharing one variable.
        let sharing = wake_no_one(|m, x| {
            m.post(Watcher(vec![x[0], x[1]], Wake::Domain, true))
                .unwrap();
            m.post(Watcher(vec![x[1], x[2]], Wake::Domain, true))
                .unwrap();
        });
        assert_eq!(sharing, vec![false, false]);
        // A variable seen twice: its own changes must wake it.
        let twice = wake_no_one(|m, x| {
            m.post(Watcher(vec![x[0], x[0]], Wake::Domain, true))
                .unwrap();
        });
        assert_eq!(twice, vec![false]);
    }
}
