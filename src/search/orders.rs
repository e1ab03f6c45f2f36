//! The built-in variable and value orders, as the selectors they implement. The
//! value choices live here; the scans that pick a variable live with the brancher
//! (`branching.rs`), in the module whose hot loop inlines them.

use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

use super::Branch;
use super::branching::select_among;
use super::selectors::{Domains, ValueSelector, VariableSelector};
use crate::ids::VarId;
use crate::store::Store;

/// Which unfixed variable the next decision is about.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum VariableOrder {
    /// The first unfixed variable in creation order.
    InputOrder,
    /// The unfixed variable with the fewest values left ("first fail"); ties go to
    /// the earliest created.
    #[default]
    SmallestDomain,
    /// The smallest ratio of domain size to weighted degree (dom/wdeg): every failure
    /// adds one to the weight of the constraint that found it, and a variable's
    /// degree is the sum of the weights of the constraints on it.
    DomOverWeightedDegree,
    /// The unfixed variable with the most values left (MiniZinc's `anti_first_fail`).
    LargestDomain,
    /// The unfixed variable with the smallest value left (MiniZinc's `smallest`).
    SmallestValue,
    /// The unfixed variable with the largest value left (MiniZinc's `largest`).
    LargestValue,
    /// The unfixed variable on the most constraints, counted when the solver is made
    /// (MiniZinc's `occurrence`).
    MostConstraints,
    /// The fewest values left, ties to the variable on the most constraints
    /// (MiniZinc's `most_constrained`).
    SmallestDomainMostConstraints,
    /// The fewest values left, ties to the largest weighted degree (as in
    /// [`DomOverWeightedDegree`](VariableOrder::DomOverWeightedDegree)), then to the
    /// earliest created: first fail, steered towards where the search failed. On
    /// Sudoku, whose system of groups blames the group that failed
    /// ([`Propagator::blame`](crate::Propagator::blame)), it searches a third fewer nodes than first fail on
    /// `top1465` and the hardest collection (a sixth fewer on 17-clue puzzles).
    SmallestDomainWeightedDegree,
    /// The largest difference between the two smallest values left (MiniZinc's
    /// `max_regret`).
    MaxRegret,
}

impl VariableOrder {
    /// Whether the order reads the weighted degrees, which failures then raise.
    pub(super) fn reads_weights(self) -> bool {
        matches!(
            self,
            VariableOrder::DomOverWeightedDegree | VariableOrder::SmallestDomainWeightedDegree
        )
    }
}

/// Which value of the chosen variable the decision tries first, and how it branches.
/// `mid` below is the middle of the bounds, `(min + max) / 2` rounded down. An order
/// is a [`ValueSelector`] through [`ValueOrder::selector`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ValueOrder {
    /// The smallest value: `x = min`, then `x != min`.
    #[default]
    Ascending,
    /// The largest value: `x = max`, then `x != max`.
    Descending,
    /// A value drawn uniformly at random from a generator seeded with this number;
    /// the same seed gives the same search.
    Random(u64),
    /// The value nearest `mid` (the smaller of two as near): `x = v`, then `x != v`.
    Middle,
    /// The median of the values left, the lower of the two middle ones when their
    /// number is even: `x = v`, then `x != v` (MiniZinc's `indomain_median`).
    Median,
    /// Binary domain splitting: `x <= mid`, then `x > mid`.
    Split,
    /// Binary domain splitting, upper half first: `x > mid`, then `x <= mid`.
    ReverseSplit,
    /// The first interval of consecutive values: `x <= v` then `x > v`, where `v`
    /// is the last value before the first gap; a domain without a gap is split as
    /// [`ValueOrder::Split`] splits it (MiniZinc's `indomain_interval`).
    Interval,
}

impl ValueOrder {
    /// The order as a [`ValueSelector`], with its own generator for
    /// [`ValueOrder::Random`]: for a selector of the user's that leaves some
    /// decisions to a built-in order.
    pub fn selector(self) -> ValueOrderSelector {
        let seed = match self {
            ValueOrder::Random(seed) => seed,
            _ => 0,
        };
        ValueOrderSelector {
            order: self,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        }
    }
}

/// A [`ValueOrder`] as a [`ValueSelector`] (see [`ValueOrder::selector`]): the order,
/// and the generator of [`ValueOrder::Random`], which a new search reseeds.
#[derive(Clone, Debug)]
pub struct ValueOrderSelector {
    order: ValueOrder,
    rng: Xoshiro256PlusPlus,
}

impl ValueOrderSelector {
    /// The decision about `var`, unfixed: the branch to take first and its value.
    #[inline(always)]
    pub(super) fn choose(&mut self, store: &Store, var: u32) -> (Branch, i32) {
        match self.order {
            ValueOrder::Ascending => (Branch::Equal, store.min(var)),
            ValueOrder::Descending => (Branch::Equal, store.max(var)),
            ValueOrder::Random(_) => {
                let pick = self.rng.random_range(0..store.size(var)) as usize;
                let value = store.values(var).nth(pick);
                (Branch::Equal, value.expect("pick within domain size"))
            }
            ValueOrder::Middle => (Branch::Equal, nearest_middle(store, var)),
            ValueOrder::Median => (Branch::Equal, median(store, var)),
            ValueOrder::Split => (Branch::LessEqual, middle(store, var)),
            ValueOrder::ReverseSplit => (Branch::Greater, middle(store, var)),
            ValueOrder::Interval => (Branch::LessEqual, first_interval_end(store, var)),
        }
    }
}

impl ValueSelector for ValueOrderSelector {
    fn select(&mut self, var: VarId, domains: &Domains<'_>) -> (Branch, i32) {
        self.choose(domains.store, var.raw())
    }

    fn new_search(&mut self) {
        *self = self.order.selector();
    }
}

impl VariableSelector for VariableOrder {
    /// The built-in order's choice; ties go to the earliest in `vars`.
    fn select(&mut self, vars: &[VarId], domains: &Domains<'_>) -> Option<VarId> {
        let var = select_among(*self, vars.iter().map(|v| v.raw()), domains)?;
        vars.iter().copied().find(|v| v.raw() == var)
    }
}

/// `(min + max) / 2` rounded down; below `max` when `var` is unfixed, so both halves
/// of a split are non-empty.
fn middle(store: &Store, var: u32) -> i32 {
    let sum = i64::from(store.min(var)) + i64::from(store.max(var));
    sum.div_euclid(2) as i32
}

/// The value nearest [`middle`], the smaller of two as near.
fn nearest_middle(store: &Store, var: u32) -> i32 {
    let mid = middle(store, var);
    // Values ascend: the nearest is the last at or below `mid`, or the first above
    // it if that is nearer.
    let mut below = None;
    for v in store.values(var) {
        if v > mid {
            return match below {
                Some(b) if i64::from(mid) - i64::from(b) <= i64::from(v) - i64::from(mid) => b,
                _ => v,
            };
        }
        below = Some(v);
    }
    store.max(var)
}

/// Whether `var`'s values are every integer from its minimum to its maximum, as
/// far as its size tells (not for all of `i32`, whose size saturates).
fn has_no_gap(store: &Store, var: u32) -> bool {
    let (min, max) = store.bounds(var);
    i64::from(max) - i64::from(min) + 1 == i64::from(store.size(var))
}

/// The lower median of the values left: the `(size - 1) / 2`-th, from 0, ascending.
fn median(store: &Store, var: u32) -> i32 {
    let index = (store.size(var) - 1) / 2;
    if has_no_gap(store, var) {
        return store.min(var) + index as i32;
    }
    let value = store.values(var).nth(index as usize);
    value.expect("the median is within the domain")
}

/// The last value before the first gap in `var`'s values, or [`middle`] if there is
/// none: below the maximum, so both branches of the split keep values. Linear in
/// the length of the first interval.
fn first_interval_end(store: &Store, var: u32) -> i32 {
    if has_no_gap(store, var) {
        return middle(store, var);
    }
    let mut values = store.values(var);
    let mut end = store.min(var);
    for v in values.by_ref().skip(1) {
        if v != end + 1 {
            break;
        }
        end = v;
    }
    end
}
