//! Constants that reach the edges along with the domains of [`super::edges`]: view
//! offsets and coefficients drawn from a case's window, so that a view may move its
//! values across a word boundary, back to zero, or past an end of `i32`.

use proptest::prelude::*;

use super::edges::{Window, value_in};

/// A view's offset over a domain of `window`: none, a few, about one word either way,
/// minus a value of the window (its values come near zero), or a value of the window
/// (near an end of `i32`, the view overflows).
pub fn offset_in(window: Window) -> impl Strategy<Value = i32> + Clone {
    prop_oneof![
        6 => Just(0),
        3 => -2..=2i32,
        1 => (62..=66i32, any::<bool>()).prop_map(|(o, down)| if down { -o } else { o }),
        1 => value_in(window).prop_map(|v| v.checked_neg().unwrap_or(i32::MAX)),
        1 => value_in(window),
    ]
}

/// A coefficient: ±1 mostly, small, or a value of `window` (up to an end of `i32`).
pub fn coefficient_in(window: Window) -> impl Strategy<Value = i32> + Clone {
    prop_oneof![
        4 => prop_oneof![Just(1), Just(-1)],
        2 => -3..=3i32,
        1 => value_in(window),
    ]
}

/// `value` clamped into `i32`: a constant computed in a wider type.
pub fn clamp_i32(value: i128) -> i32 {
    value.clamp(i32::MIN.into(), i32::MAX.into()) as i32
}

/// The window of one case: near zero one time in three (the old small generators'
/// cases), else at the edges ([`super::edges::window`]).
pub fn case_window() -> impl Strategy<Value = Window> + Clone {
    prop_oneof![
        1 => Just(Window { low: -5, span: 11 }),
        2 => super::edges::window(),
    ]
}

/// A right-hand side for `Σ coefficient · (domains[var] + offset)`: the sum at one
/// assignment (picked by `picks`) moved by a little, so that `=` often has solutions
/// wherever the window lies; or, now and then, a value of the window.
pub fn rhs_for(
    window: Window,
    domains: Vec<Vec<i32>>,
    terms: Vec<(i32, (usize, i32))>,
) -> impl Strategy<Value = i32> {
    let reached = (
        prop::collection::vec(any::<prop::sample::Index>(), terms.len()),
        -2..=2i128,
    )
        .prop_map(move |(picks, delta)| {
            let sum: i128 = (terms.iter().zip(picks))
                .map(|(&(a, (var, offset)), pick)| {
                    let value = *pick.get(&domains[var]);
                    i128::from(a) * (i128::from(value) + i128::from(offset))
                })
                .sum();
            clamp_i32(sum + delta)
        });
    prop_oneof![3 => reached, 1 => value_in(window)]
}

/// The offset that moves the lowest value of `domain` to `target` (clamped into
/// `i32`): a view of a domain far out that reaches small values, indices and
/// products that fit.
pub fn offset_to(domain: &[i32], target: i32) -> i32 {
    let lowest = domain.iter().min().copied().unwrap_or(0);
    clamp_i32(i128::from(target) - i128::from(lowest))
}
