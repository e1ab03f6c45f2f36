//! The propagation queue: who watches each variable, and which propagators are
//! waiting to run with which of their variables modified.

use fixedbitset::FixedBitSet;
use smallvec::SmallVec;

use super::{Priority, Propagators};
use crate::store::Event;

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
    /// The watch lists of the posted propagators over `var_count` variables.
    pub(crate) fn new(var_count: usize, propagators: &Propagators) -> Queue {
        let count = propagators.len();
        let mut queue = Queue {
            watches: vec![SmallVec::new(); var_count],
            pending: vec![Vec::new(); count],
            queued: FixedBitSet::with_capacity(count),
            levels: Default::default(),
            idempotent: FixedBitSet::with_capacity(count),
            sole_idempotent: Vec::new(),
            wake_no_one: FixedBitSet::with_capacity(count),
            priorities: Vec::with_capacity(count),
            counts: Vec::with_capacity(count),
        };
        for index in 0..count {
            let (propagator, watched) = propagators.get(index);
            queue.priorities.push(propagator.priority());
            queue.counts.push(watched.len() as u32);
            for (local, &(var, events)) in watched.iter().enumerate() {
                queue.watches[var as usize].push(Watch {
                    propagator: index as u32,
                    local: local as u32,
                    events,
                });
            }
            // A variable seen twice (say `x` and `x + 1`) changes under the propagator's
            // feet: its own changes must wake it again to reach the fixpoint.
            let mut distinct: Vec<u32> = watched.iter().map(|&(var, _)| var).collect();
            distinct.sort_unstable();
            distinct.dedup();
            let repeats = distinct.len() < watched.len();
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
        for index in 0..count {
            let (_, watched) = propagators.get(index);
            let sole = (watched.iter())
                .all(|&(var, _)| queue.sole_idempotent[var as usize] == index as u32);
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
    pub(super) fn wakes_no_one(&self, propagator: u32) -> bool {
        self.wake_no_one.contains(propagator as usize)
    }

    /// Whether a change of `var` by `source` may wake anyone: not when its only
    /// watcher is `source` itself, idempotent.
    #[inline(always)]
    pub(super) fn may_wake(&self, var: u32, source: u32) -> bool {
        source == NO_PROPAGATOR || self.sole_idempotent[var as usize] != source
    }

    /// [`Queue::notify`] once it is known that someone may need waking.
    pub(super) fn wake_watchers(&mut self, var: u32, event: Event, source: u32) {
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
    use crate::Model;
    use crate::error::ModelError;
    use crate::ids::VarId;
    use crate::propagator::{Conflict, Context, PostContext, Propagator, Wake};

    /// A propagator over the variables, woken by the events, idempotent or not, that
    /// prunes nothing.
    #[derive(Debug)]
    struct Watcher(Vec<VarId>, Wake, bool);

    impl Propagator for Watcher {
        fn name(&self) -> &'static str {
            "watcher"
        }
        fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
            ctx.watch_all(self.0.iter().copied(), self.1)
        }
        fn propagate(&mut self, _: &mut Context<'_>) -> Result<(), Conflict> {
            Ok(())
        }
        fn is_satisfied(&self, _: &dyn Fn(VarId) -> i32) -> bool {
            true
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
        let mut queue = Queue::new(2, &model.propagators);
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
        let queue = Queue::new(3, &model.propagators);
        (0..model.propagators.len() as u32)
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
