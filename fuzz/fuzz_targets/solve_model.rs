//! Random small models: building never panics (bad parts are errors), and every
//! solution the solver reports satisfies every constraint, checked independently.
#![no_main]

use alldiff::{Model, SearchConfig, Solver, Strength, ValueOrder, VarId, VariableOrder, View};
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
enum Part {
    AllDifferent(Vec<(u8, i8)>, u8),
    NotEqual((u8, i8), (u8, i8)),
    Equal((u8, i8), (u8, i8)),
}

#[derive(Arbitrary, Debug)]
struct Input {
    domains: Vec<Vec<i8>>,
    parts: Vec<Part>,
    variable_order: u8,
    value_order: u8,
    seed: u64,
}

fuzz_target!(|input: Input| {
    let mut model = Model::new();
    let mut vars: Vec<VarId> = Vec::new();
    for domain in input.domains.iter().take(6) {
        if let Ok(var) = model.var_from_values(domain.iter().take(8).map(|&v| i32::from(v))) {
            vars.push(var);
        }
    }
    if vars.is_empty() {
        return;
    }
    let view = |(var, offset): (u8, i8)| -> View { vars[usize::from(var) % vars.len()] + i32::from(offset) };
    // What the oracle checks: (views, kind) with kind 0 = all different, 1 = !=, 2 = ==.
    let mut posted: Vec<(Vec<View>, u8)> = Vec::new();
    for part in input.parts.iter().take(6) {
        let (views, kind, result) = match part {
            Part::AllDifferent(list, strength) => {
                let views: Vec<View> = list.iter().take(6).map(|&v| view(v)).collect();
                let strength = [Strength::Value, Strength::HiddenSingles, Strength::Domain][usize::from(*strength) % 3];
                let result = model.all_different_with(views.clone(), strength);
                (views, 0, result)
            }
            Part::NotEqual(a, b) => (vec![view(*a), view(*b)], 1, model.not_equal(view(*a), view(*b))),
            Part::Equal(a, b) => (vec![view(*a), view(*b)], 2, model.equal(view(*a), view(*b))),
        };
        if result.is_ok() {
            posted.push((views, kind));
        }
    }
    let config = SearchConfig {
        variable_order: [VariableOrder::InputOrder, VariableOrder::SmallestDomain, VariableOrder::DomOverWeightedDegree]
            [usize::from(input.variable_order) % 3],
        value_order: [ValueOrder::Ascending, ValueOrder::Descending, ValueOrder::Random(input.seed)]
            [usize::from(input.value_order) % 3],
    };
    let mut solver = Solver::with_config(model, config);
    for solution in solver.solutions().take(200) {
        for (views, kind) in &posted {
            let values: Vec<i64> = views
                .iter()
                .map(|v| i64::from(solution[v.var]) + i64::from(v.offset))
                .collect();
            let holds = match kind {
                0 => {
                    let mut sorted = values.clone();
                    sorted.sort_unstable();
                    sorted.windows(2).all(|w| w[0] != w[1])
                }
                1 => values[0] != values[1],
                _ => values[0] == values[1],
            };
            assert!(holds, "reported solution breaks a constraint: {views:?} {values:?}");
        }
    }
});
