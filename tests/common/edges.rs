//! Domains that reach the edges the engine's representations have: values on both
//! sides of a 64-value word boundary, spans of one word and a bit (60-70) and of two
//! (120-130), wide sparse spans, negative values, the ends of `i32`, and holes.
//!
//! A case draws one [`Window`] and then every domain inside it, so that the domains of
//! one model sit near each other (an all-different over `0..=2` and `63..=64` spans 65
//! values) while the window itself may lie anywhere. Every domain has few values, so a
//! brute-force oracle still enumerates the assignments; the store then picks the small
//! shape (span at most 64), the bitset (up to 4096) or the sparse table (wider).
//!
//! Use [`edge_domains`] for a whole case, or [`window`] and [`domain_in`] to draw more
//! from the same window (offsets, constants, tuples with [`value_in`]).

use alldiff::ModelError;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// Where a case's values lie: the smallest value and how many values the window spans.
#[derive(Clone, Copy, Debug)]
pub struct Window {
    /// The smallest value a domain of the case may hold.
    pub low: i32,
    /// The number of values from `low` on that a domain may hold (at least 1).
    pub span: u32,
}

impl Window {
    /// The largest value of the window.
    pub fn high(self) -> i32 {
        (i64::from(self.low) + i64::from(self.span) - 1) as i32
    }

    /// The `offset`-th value of the window, clamped to it.
    pub fn at(self, offset: u32) -> i32 {
        (i64::from(self.low) + i64::from(offset.min(self.span - 1))) as i32
    }
}

/// A window's span: a few values, a word and a bit, two words, a wide sparse span, or
/// the whole `i32` range.
fn span() -> impl Strategy<Value = u32> + Clone {
    prop_oneof![
        3 => 2u32..=8,
        4 => 60u32..=70,
        3 => 120u32..=130,
        1 => 4000u32..=4200,
        1 => Just(1u32 << 20),
        1 => Just(u32::MAX),
    ]
}

/// A window's lowest value, given its span: near zero, on either side of a multiple of
/// 64 (negative ones too), or against either end of `i32`.
fn low(span: u32) -> impl Strategy<Value = i32> + Clone {
    let top = i64::from(i32::MAX) - i64::from(span) + 1;
    let clamp = move |v: i64| v.clamp(i64::from(i32::MIN), top) as i32;
    prop_oneof![
        2 => (-3i64..=3).prop_map(clamp),
        4 => (-4i64..=4, -3i64..=3).prop_map(move |(k, d)| clamp(64 * k + d)),
        1 => (-3i64..=3, -2i64..=2).prop_map(move |(k, d)| clamp((1 << 20) * k + 64 + d)),
        2 => (0i64..=3).prop_map(move |d| clamp(i64::from(i32::MIN) + d)),
        2 => (0i64..=3).prop_map(move |d| clamp(top - d)),
    ]
}

/// A window for one case.
pub fn window() -> impl Strategy<Value = Window> + Clone {
    window_spanning(span())
}

/// A window of a span `spans` draws, lying where [`window`]'s lie.
pub fn window_spanning(
    spans: impl Strategy<Value = u32> + Clone,
) -> impl Strategy<Value = Window> + Clone {
    spans.prop_flat_map(|span| low(span).prop_map(move |low| Window { low, span }))
}

/// An offset into a window of `span` values, drawn towards its ends and its 64-value
/// word boundaries.
fn offset(span: u32) -> impl Strategy<Value = u32> + Clone {
    let last = span - 1;
    let near = move |base: u32| (0u32..=3).prop_map(move |d| base.saturating_add(d).min(last));
    prop_oneof![
        3 => 0..=last,
        2 => near(0),
        2 => (0u32..=3).prop_map(move |d| last.saturating_sub(d)),
        1 => near(62.min(last)),
        1 => near(126.min(last)),
    ]
}

/// A value of the window.
pub fn value_in(window: Window) -> impl Strategy<Value = i32> + Clone {
    offset(window.span).prop_map(move |o| window.at(o))
}

/// A domain of 1 to `max_size` values of the window: a run of consecutive values, a
/// run with a hole, values scattered over the window, or a run against either end. Sorted, without repeats.
pub fn domain_in(window: Window, max_size: usize) -> impl Strategy<Value = Vec<i32>> {
    let max_size = max_size.max(1);
    let run = (offset(window.span), 1..=max_size).prop_map(move |(start, len)| {
        (0..len as u32)
            .map(|i| window.at(start.saturating_add(i)))
            .collect::<Vec<_>>()
    });
    let holed = (
        offset(window.span),
        3..=max_size.max(3) + 1,
        any::<prop::sample::Index>(),
    )
        .prop_map(move |(start, len, hole)| {
            let hole = 1 + hole.index(len - 2) as u32;
            (0..len as u32)
                .filter(|&i| i != hole)
                .map(|i| window.at(start.saturating_add(i)))
                .collect::<Vec<_>>()
        });
    let scattered = prop::collection::vec(offset(window.span), 1..=max_size)
        .prop_map(move |offsets| offsets.into_iter().map(|o| window.at(o)).collect());
    // Against either end: two such domains of one case often lie a window apart.
    let end = (any::<bool>(), 1..=max_size).prop_map(move |(top, len)| {
        let last = window.span - 1;
        (0..len as u32)
            .map(|i| window.at(if top { last.saturating_sub(i) } else { i }))
            .collect()
    });
    prop_oneof![2 => run, 1 => holed, 2 => scattered, 2 => end].prop_map(
        move |mut values: Vec<i32>| {
            values.sort_unstable();
            values.dedup();
            values.truncate(max_size);
            values
        },
    )
}

/// `count` domains of `window`, each fixed to one value but `free` of them (drawn at
/// random, maybe the same) with 1 to `max_size` values: many variables, and still a
/// small brute force.
pub fn mostly_fixed(
    window: Window,
    count: usize,
    free: usize,
    max_size: usize,
) -> impl Strategy<Value = Vec<Vec<i32>>> {
    (
        prop::collection::vec(value_in(window), count),
        prop::collection::vec((0..count, domain_in(window, max_size)), free),
    )
        .prop_map(|(fixed, free)| {
            let mut domains: Vec<Vec<i32>> = fixed.into_iter().map(|v| vec![v]).collect();
            for (var, domain) in free {
                domains[var] = domain;
            }
            domains
        })
}

/// `count` domains of 1 to `max_size` values each, all in one window.
pub fn edge_domains(
    count: impl Into<prop::collection::SizeRange>,
    max_size: usize,
) -> impl Strategy<Value = Vec<Vec<i32>>> {
    let count = count.into();
    window().prop_flat_map(move |w| prop::collection::vec(domain_in(w, max_size), count.clone()))
}

/// Domains near zero (`-4..=4`) or at the edges, one case in `edge_weight + 1` near
/// zero: the old small generators' cases stay, the edges are added.
pub fn small_or_edge_domains(
    count: impl Into<prop::collection::SizeRange> + Clone,
    max_size: usize,
) -> impl Strategy<Value = Vec<Vec<i32>>> {
    let near_zero = Window { low: -4, span: 9 };
    let count_small: prop::collection::SizeRange = count.clone().into();
    prop_oneof![
        1 => prop::collection::vec(domain_in(near_zero, max_size), count_small),
        2 => edge_domains(count, max_size),
    ]
}

/// The smallest and the largest value of some domains (`(0, 0)` for none), in `i64`.
pub fn value_range(domains: &[Vec<i32>]) -> (i64, i64) {
    let values = || domains.iter().flatten().map(|&v| i64::from(v));
    (values().min().unwrap_or(0), values().max().unwrap_or(0))
}

/// A view's offset for values in `low..=high`: mostly small, sometimes a word or two
/// (moving the values across a 64-value word boundary), sometimes one that takes them
/// to either end of `i32` (a few past it, so that the model must refuse the view), or
/// `i32::MIN`, which no view may have.
pub fn offset_for(low: i64, high: i64) -> impl Strategy<Value = i32> + Clone {
    let clamp = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
    prop_oneof![
        8 => -2..=2i32,
        3 => (-2i64..=2, -2i64..=2).prop_map(move |(k, d)| clamp(64 * k + d)),
        1 => (-2i64..=2).prop_map(move |d| clamp(i64::from(i32::MAX) - high + d)),
        1 => (-2i64..=2).prop_map(move |d| clamp(i64::from(i32::MIN) - low + d)),
        1 => Just(i32::MIN),
    ]
}

/// Whether a model accepts the view `x + offset` of a variable over `domain`: every
/// value of the view fits `i32`, and the offset is not `i32::MIN` (which `x - c`
/// cannot negate).
pub fn view_fits(domain: &[i32], offset: i32) -> bool {
    let fits = |v: &i32| i32::try_from(i64::from(*v) + i64::from(offset)).is_ok();
    offset != i32::MIN && domain.iter().all(fits)
}

/// Checks what posting a constraint gave: accepted when every view fits (`fits`),
/// else refused with [`ModelError::OffsetOverflow`], a typed error (a panic fails the
/// test on its own).
pub fn check_posted<T: std::fmt::Debug>(
    posted: Result<T, ModelError>,
    fits: bool,
) -> Result<(), TestCaseError> {
    match posted {
        Ok(_) => prop_assert!(fits, "a view beyond i32 was accepted"),
        Err(ModelError::OffsetOverflow { .. }) => {
            prop_assert!(!fits, "a view that fits was refused")
        }
        Err(error) => prop_assert!(false, "refused with {error:?}"),
    }
    Ok(())
}
