//! Random FlatZinc models for `tests/flatzinc_properties.rs`, each as its text and a
//! brute-force oracle: the builtins ([`builtins`]) and variables that `int_lin_eq`
//! defines as another plus a constant ([`offsets`]). Their integer domains and
//! constants come from one window of `common::edges` per case (word boundaries,
//! negative values, the ends of `i32`, holes), with few values each, so that brute
//! force stays small; the oracles compute in `i64` or wider.

pub mod builtins;
pub mod offsets;

use proptest::prelude::*;

use crate::common::edges::{Window, value_in};

/// Every variable selection of `int_search` and `bool_search`.
pub const VARIABLE: [&str; 9] = [
    "input_order",
    "first_fail",
    "anti_first_fail",
    "smallest",
    "largest",
    "occurrence",
    "most_constrained",
    "max_regret",
    "dom_w_deg",
];

/// Every value selection.
pub const VALUE: [&str; 8] = [
    "indomain_min",
    "indomain_max",
    "indomain_middle",
    "indomain_median",
    "indomain_split",
    "indomain_reverse_split",
    "indomain_interval",
    "indomain_random",
];

/// The annotations of `fzn_all_different_int`: none (bounds), those that ask for
/// domain or value propagation, and `bounds`, which names the default.
pub const STRENGTH: [&str; 6] = [
    "",
    " :: domain",
    " :: domain_propagation",
    " :: value",
    " :: value_propagation",
    " :: bounds",
];

/// `[p0, p2]` for the indices `[0, 2]` and the prefix `p`.
pub fn list(names: &[usize], prefix: &str) -> String {
    let names: Vec<String> = names.iter().map(|i| format!("{prefix}{i}")).collect();
    format!("[{}]", names.join(", "))
}

/// A FlatZinc set of `values` (sorted, without repeats): a range when they are
/// consecutive, else a set literal (a domain with holes).
pub fn set(values: &[i32]) -> String {
    let (first, last) = (values[0], values[values.len() - 1]);
    if i64::from(last) - i64::from(first) + 1 == values.len() as i64 {
        format!("{first}..{last}")
    } else {
        let values: Vec<String> = values.iter().map(i32::to_string).collect();
        format!("{{{}}}", values.join(", "))
    }
}

/// A constant for a case in `window`: a value of the window, or a small one.
pub fn constant_in(window: Window) -> impl Strategy<Value = i32> + Clone {
    prop_oneof![2 => value_in(window), 1 => -3..=3i32]
}
