//! The propagation queue: who watches each variable, and which propagators are
//! waiting to run with which of their variables modified.
//!
//! A variable's watchers are kept in three lists, one per kind of change: a value gone
//! from inside the domain wakes only the watchers of [`Wake::Domain`](super::Wake), a
//! moved bound those and the watchers of bounds, a fixed variable every watcher. Each
//! list keeps the posting order, so a change wakes the same propagators in the same
//! order as one list filtered by event would, without looking at the others.

use fixedbitset::FixedBitSet;

use super::{Priority, Propagators};
use crate::store::{Event, Store};

/// Who watches a variable: a propagator, the variable's local index there, and the
/// propagator whose own changes do not wake it (itself when idempotent).
#[derive(Clone, Copy, Debug)]
struct Watch {
    propagator: u32,
    local: u32,
    /// The source to skip: `propagator` if it is idempotent, else [`NEVER`].
    skip: u32,
    /// The propagator's queue level (its [`Priority`]), kept here so that waking
    /// reads nothing else of it but its [`Waiting`].
    level: u32,
}

/// A propagator's place in the queue: the local indices modified since it last ran,
/// and whether it is [`IDLE`], [`QUEUED`] or [`ENTAILED`]. Together, so that a wake
/// touches one entry.
#[derive(Clone, Debug, Default)]
struct Waiting {
    locals: Vec<u32>,
    state: u8,
}

/// Not in the queue: a wake queues it.
const IDLE: u8 = 0;
/// In the queue: a wake adds its local index.
const QUEUED: u8 = 1;
/// Entailed (see [`Queue::entail`]): a wake does nothing. Never in the queue.
const ENTAILED: u8 = 2;

/// The local index of a watch whose propagator does not read
/// [`Context::modified`](super::Context::modified): nothing is recorded.
const UNREAD: u32 = u32::MAX;

/// No source: a watch of a propagator that its own changes wake. Differs from every
/// propagator and from [`NO_PROPAGATOR`].
const NEVER: u32 = u32::MAX - 1;

/// The kinds of change that pick a watch list, each as the events of the watchers it
/// wakes: a value gone inside the domain, a moved bound, a fixed variable.
fn kinds() -> [Event; 3] {
    let bounds = Event::DOMAIN | Event::BOUNDS;
    [Event::DOMAIN, bounds, bounds | Event::FIXED]
}

/// The watch list of one kind of change for every variable, flat: variable `v`'s is
/// `watches[starts[v]..starts[v + 1]]`.
#[derive(Debug, Default)]
struct WatchLists {
    starts: Vec<u32>,
    watches: Vec<Watch>,
}

impl WatchLists {
    /// The watchers of each variable in `all` (with their events) that `kind` wakes,
    /// in order.
    fn new(all: &[Vec<(Watch, Event)>], kind: Event) -> WatchLists {
        let mut lists = WatchLists {
            starts: Vec::with_capacity(all.len() + 1),
            watches: Vec::new(),
        };
        lists.starts.push(0);
        for watches in all {
            let woken = watches.iter().filter(|(_, events)| events.intersects(kind));
            lists.watches.extend(woken.map(|&(watch, _)| watch));
            lists.starts.push(lists.watches.len() as u32);
        }
        lists
    }

    #[inline(always)]
    fn of(&self, var: u32) -> &[Watch] {
        let var = var as usize;
        &self.watches[self.starts[var] as usize..self.starts[var + 1] as usize]
    }
}

/// A first-in first-out queue of propagators, each in it at most once: a ring of a
/// power-of-two length at least the number of propagators, so it never grows.
#[derive(Debug, Default)]
struct Fifo {
    ring: Vec<u32>,
    head: usize,
    len: usize,
}

impl Fifo {
    fn new(count: usize) -> Fifo {
        Fifo {
            ring: vec![0; count.next_power_of_two()],
            head: 0,
            len: 0,
        }
    }

    #[inline(always)]
    fn push(&mut self, propagator: u32) {
        let mask = self.ring.len() - 1;
        self.ring[(self.head + self.len) & mask] = propagator;
        self.len += 1;
    }

    #[inline(always)]
    fn pop(&mut self) -> Option<u32> {
        if self.len == 0 {
            return None;
        }
        let propagator = self.ring[self.head];
        self.head = (self.head + 1) & (self.ring.len() - 1);
        self.len -= 1;
        Some(propagator)
    }

    /// The propagators queued, first to last.
    fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        let mask = self.ring.len() - 1;
        (0..self.len).map(move |i| self.ring[(self.head + i) & mask])
    }

    fn clear(&mut self) {
        self.head = 0;
        self.len = 0;
    }
}

/// The propagation queue: watch lists, pending modifications and two FIFO levels.
#[derive(Debug, Default)]
pub(crate) struct Queue {
    /// Per kind of change (see [`kinds`]), the watchers it wakes.
    lists: [WatchLists; 3],
    /// Per propagator, its modified local indices and its state ([`IDLE`], ...).
    waiting: Vec<Waiting>,
    levels: [Fifo; 2],
    /// Per variable, its one watcher if that is idempotent (its own changes never
    /// wake anyone), else [`NO_PROPAGATOR`].
    sole_idempotent: Vec<u32>,
    /// Propagators that are the sole idempotent watcher of all their variables: their
    /// changes never wake anyone.
    wake_no_one: FixedBitSet,
    priorities: Vec<Priority>,
    /// Each propagator's number of variables (0 if it does not read them as
    /// modified), so that scheduling them all at the start of every search, every
    /// variable marked modified, allocates nothing.
    counts: Vec<u32>,
    /// The entailed propagators, in the order they were found entailed (see
    /// [`Queue::entail`]).
    entailed: Vec<u32>,
    /// The store's word that holds how many of `entailed` the domains stand for: it
    /// is trailed with them, so that after backtracking [`Queue::revive`] wakes up
    /// those found entailed since.
    entailed_cell: usize,
}

/// No propagator: changes made by search decisions.
pub(crate) const NO_PROPAGATOR: u32 = u32::MAX;

impl Queue {
    /// The watch lists of the posted propagators over `var_count` variables, with
    /// the count of entailed propagators kept in the store's word `entailed_cell`.
    pub(crate) fn new(var_count: usize, propagators: &Propagators, entailed_cell: usize) -> Queue {
        let count = propagators.len();
        let mut watches: Vec<Vec<(Watch, Event)>> = vec![Vec::new(); var_count];
        let mut idempotent = FixedBitSet::with_capacity(count);
        let mut priorities = Vec::with_capacity(count);
        let mut counts = Vec::with_capacity(count);
        for index in 0..count {
            let (propagator, watched) = propagators.get(index);
            priorities.push(propagator.priority());
            let reads_modified = propagator.reads_modified();
            counts.push(if reads_modified {
                watched.len() as u32
            } else {
                0
            });
            // A variable seen twice (say `x` and `x + 1`) changes under the propagator's
            // feet: its own changes must wake it again to reach the fixpoint.
            let mut distinct: Vec<u32> = watched.iter().map(|&(var, _)| var).collect();
            distinct.sort_unstable();
            distinct.dedup();
            let repeats = distinct.len() < watched.len();
            let idem = propagator.is_idempotent() && !repeats;
            idempotent.set(index, idem);
            for (local, &(var, events)) in watched.iter().enumerate() {
                let watch = Watch {
                    propagator: index as u32,
                    local: if reads_modified { local as u32 } else { UNREAD },
                    skip: if idem { index as u32 } else { NEVER },
                    level: propagator.priority() as u32,
                };
                watches[var as usize].push((watch, events));
            }
        }
        let sole_idempotent: Vec<u32> = (watches.iter())
            .map(|watches| match watches.as_slice() {
                [(only, _)] if idempotent.contains(only.propagator as usize) => only.propagator,
                _ => NO_PROPAGATOR,
            })
            .collect();
        let mut wake_no_one = FixedBitSet::with_capacity(count);
        for index in 0..count {
            let (_, watched) = propagators.get(index);
            let sole =
                (watched.iter()).all(|&(var, _)| sole_idempotent[var as usize] == index as u32);
            wake_no_one.set(index, sole);
        }
        Queue {
            lists: kinds().map(|kind| WatchLists::new(&watches, kind)),
            waiting: vec![Waiting::default(); count],
            levels: [Fifo::new(count), Fifo::new(count)],
            sole_idempotent,
            wake_no_one,
            priorities,
            counts,
            entailed: Vec::new(),
            entailed_cell,
        }
    }

    /// Marks `propagator`, which is running, entailed: no change wakes it until
    /// [`Queue::revive`] finds that the store has gone back to before this call. Not
    /// if its own changes have queued it again: it runs once more, and says so again
    /// then (so that the queue never holds an entailed propagator). O(1).
    pub(super) fn entail(&mut self, propagator: u32, store: &mut Store) {
        let waiting = &mut self.waiting[propagator as usize];
        if waiting.state == IDLE {
            waiting.state = ENTAILED;
            self.entailed.push(propagator);
            store.set_word(self.entailed_cell, self.entailed.len() as u64);
        }
    }

    /// Whether `propagator` is entailed (for the `debug-checks` feature's checks).
    #[cfg(feature = "debug-checks")]
    pub(super) fn is_entailed(&self, propagator: u32) -> bool {
        self.waiting[propagator as usize].state == ENTAILED
    }

    /// Wakes up again the propagators found entailed since the point the store's
    /// domains are now at: to call after every undo or reset of the store, before
    /// anything is notified. O(1) plus O(1) per propagator revived.
    pub(crate) fn revive(&mut self, store: &Store) {
        let kept = store.words()[self.entailed_cell] as usize;
        while self.entailed.len() > kept {
            let propagator = self.entailed.pop().expect("longer than kept");
            let waiting = &mut self.waiting[propagator as usize];
            invariant!(
                waiting.state == ENTAILED && waiting.locals.is_empty(),
                "entailed, and the queue empty"
            );
            waiting.state = IDLE;
        }
    }

    /// Queues every propagator with all of its variables marked modified.
    pub(crate) fn schedule_all(&mut self) {
        invariant!(self.entailed.is_empty(), "revived since the reset");
        self.clear();
        for index in 0..self.counts.len() {
            self.waiting[index].locals.extend(0..self.counts[index]);
            self.push(index as u32);
        }
    }

    fn push(&mut self, propagator: u32) {
        let waiting = &mut self.waiting[propagator as usize];
        if waiting.state == IDLE {
            waiting.state = QUEUED;
            let level = self.priorities[propagator as usize] as usize;
            self.levels[level].push(propagator);
        }
    }

    /// Wakes the watchers of `var` interested in `event`, except `source` when its
    /// own changes do not wake it.
    #[inline(always)]
    pub(crate) fn notify(&mut self, var: u32, event: Event, source: u32) {
        if !event.is_none() && self.may_wake(var, source) {
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

    /// [`Queue::notify`] once it is known that someone may need waking: walks the
    /// watch list of the event's kind, a change that removed something (every event
    /// but [`Event::NONE`] has [`Event::DOMAIN`]).
    #[inline(always)]
    pub(super) fn wake_watchers(&mut self, var: u32, event: Event, source: u32) {
        invariant!(event.intersects(Event::DOMAIN), "a change removes a value");
        let kind = if event.intersects(Event::FIXED) {
            2
        } else if event.intersects(Event::BOUNDS) {
            1
        } else {
            0
        };
        let Queue {
            lists,
            waiting,
            levels,
            ..
        } = self;
        for watch in lists[kind].of(var) {
            if watch.skip == source {
                continue;
            }
            let waiting = &mut waiting[watch.propagator as usize];
            // Queued already is the common case: one test, as for a flag.
            if waiting.state != QUEUED {
                if waiting.state == ENTAILED {
                    continue;
                }
                waiting.state = QUEUED;
                levels[watch.level as usize].push(watch.propagator);
            }
            if watch.local != UNREAD {
                waiting.locals.push(watch.local);
            }
        }
    }

    /// The next propagator to run, with its modified local indices moved into `modified`.
    pub(crate) fn pop(&mut self, modified: &mut Vec<u32>) -> Option<u32> {
        let propagator = self.levels[0].pop().or_else(|| self.levels[1].pop())?;
        let waiting = &mut self.waiting[propagator as usize];
        invariant_eq!(waiting.state, QUEUED, "only queued propagators are queued");
        waiting.state = IDLE;
        // Copied, not swapped: each list keeps its own capacity, so that once warm
        // the queue allocates nothing.
        modified.clear();
        modified.extend_from_slice(&waiting.locals);
        waiting.locals.clear();
        Some(propagator)
    }

    /// Empties the queue after a conflict.
    pub(crate) fn clear(&mut self) {
        for level in &mut self.levels {
            for p in level.iter() {
                let waiting = &mut self.waiting[p as usize];
                waiting.locals.clear();
                waiting.state = IDLE;
            }
            level.clear();
        }
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
    #[derive(Clone, Debug)]
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
        let mut queue = Queue::new(2, &model.propagators, 0);
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
        let queue = Queue::new(3, &model.propagators, 0);
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
