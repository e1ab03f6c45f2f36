//! What a domain change did ([`Event`]), or that it emptied the domain ([`Wipeout`]).

use std::ops::BitOr;

/// What a domain change did, as a set of flags; propagators wake on these.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Event(u8);

impl Event {
    /// Nothing changed.
    pub(crate) const NONE: Event = Event(0);
    /// Some value was removed.
    pub(crate) const DOMAIN: Event = Event(1);
    /// The minimum or maximum moved (always with `DOMAIN`).
    pub(crate) const BOUNDS: Event = Event(2);
    /// The domain became a single value (always with `DOMAIN`).
    pub(crate) const FIXED: Event = Event(4);

    /// Whether the two sets of flags share one.
    pub(crate) fn intersects(self, other: Event) -> bool {
        self.0 & other.0 != 0
    }

    /// Whether no flag is set.
    pub(crate) fn is_none(self) -> bool {
        self.0 == 0
    }
}

impl BitOr for Event {
    type Output = Event;
    fn bitor(self, rhs: Event) -> Event {
        Event(self.0 | rhs.0)
    }
}

/// A domain became empty: the current state has no solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Wipeout;

/// The event of a small domain going from `old` to `new`, a non-empty subset.
pub(crate) fn small_event(old: u64, new: u64) -> Event {
    let mut event = Event::DOMAIN;
    // `new` is a subset of `old`: the minimum went if the lowest bit did, and the
    // maximum went exactly when what went outweighs what is left.
    let gone = old & !new;
    if gone & old & old.wrapping_neg() != 0 || gone > new {
        event = event | Event::BOUNDS;
    }
    if new & (new - 1) == 0 {
        event = event | Event::FIXED;
    }
    event
}
