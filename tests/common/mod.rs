//! Models and search settings shared by the integration tests.
#![allow(
    dead_code,
    reason = "each test binary uses its own part of this module"
)]

use alldiff::{Model, SearchConfig, Strength, ValueOrder, VarId, VariableOrder};

/// N-Queens as three all-different constraints: rows, and both diagonals as views
/// `q[i] + i` and `q[i] - i`. The variables are named `q0`, `q1`, ...
pub fn queens(n: usize, strength: Strength) -> (Model, Vec<VarId>) {
    let mut model = Model::new();
    let q = model.int_vars(n, 1, n as i32).unwrap();
    for (i, &x) in q.iter().enumerate() {
        model.set_name(x, format!("q{i}")).unwrap();
    }
    for sign in [0, 1, -1] {
        model
            .all_different_with(
                q.iter().enumerate().map(|(i, &x)| x + sign * i as i32),
                strength,
            )
            .unwrap();
    }
    (model, q)
}

/// Every variable order with every value order (random with a fixed seed).
pub fn all_configs() -> Vec<SearchConfig> {
    let mut configs = Vec::new();
    for variable_order in [
        VariableOrder::InputOrder,
        VariableOrder::SmallestDomain,
        VariableOrder::DomOverWeightedDegree,
    ] {
        for value_order in [
            ValueOrder::Ascending,
            ValueOrder::Descending,
            ValueOrder::Random(7),
        ] {
            configs.push(SearchConfig {
                variable_order,
                value_order,
            });
        }
    }
    configs
}
