//! Random small models over every constraint family: building never panics (bad
//! parts are typed errors), and every solution the solver reports satisfies every
//! posted constraint, checked here independently of the propagators.
#![no_main]

use alldiff::constraints::{AllDifferentSystem, LockedCandidates};
use alldiff::{
    Model, Relation, SearchConfig, Solver, Strength, ValueOrder, VarId, VariableOrder, View,
};
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;

type RawView = (u8, i8);

#[derive(Arbitrary, Debug)]
enum Part {
    AllDifferent(Vec<RawView>, u8),
    NotEqual(RawView, RawView),
    Equal(RawView, RawView),
    Linear(Vec<(i8, RawView)>, u8, i16),
    Element(Vec<i8>, RawView, RawView),
    Table(Vec<RawView>, Vec<Vec<i8>>),
    DifferenceIn(RawView, RawView, Vec<i8>),
    /// Groups of variables, each all different, propagated together.
    System(Vec<Vec<u8>>, u8),
}

#[derive(Arbitrary, Debug)]
struct Input {
    domains: Vec<Vec<i8>>,
    parts: Vec<Part>,
    variable_order: u8,
    value_order: u8,
    seed: u64,
}

/// A posted constraint as the oracle sees it.
enum Check {
    AllDifferent(Vec<View>),
    NotEqual(View, View),
    Equal(View, View),
    Linear(Vec<(i64, View)>, Relation, i64),
    Element(Vec<i64>, View, View),
    Table(Vec<View>, Vec<Vec<i64>>),
    DifferenceIn(View, View, Vec<i64>),
    System(Vec<Vec<View>>),
}

const RELATIONS: [Relation; 4] = [
    Relation::Equal,
    Relation::NotEqual,
    Relation::LessEq,
    Relation::GreaterEq,
];

impl Check {
    fn holds(&self, at: &dyn Fn(View) -> i64) -> bool {
        match self {
            Check::AllDifferent(views) => {
                let mut values: Vec<i64> = views.iter().map(|&v| at(v)).collect();
                values.sort_unstable();
                values.windows(2).all(|w| w[0] != w[1])
            }
            Check::NotEqual(a, b) => at(*a) != at(*b),
            Check::Equal(a, b) => at(*a) == at(*b),
            Check::Linear(terms, relation, rhs) => {
                relation.holds(terms.iter().map(|&(a, v)| a * at(v)).sum(), *rhs)
            }
            Check::Element(array, index, value) => usize::try_from(at(*index))
                .ok()
                .and_then(|i| array.get(i))
                .is_some_and(|&x| x == at(*value)),
            Check::Table(views, tuples) => {
                let row: Vec<i64> = views.iter().map(|&v| at(v)).collect();
                tuples.contains(&row)
            }
            Check::DifferenceIn(a, b, offsets) => offsets.contains(&(at(*a) - at(*b))),
            Check::System(groups) => groups
                .iter()
                .all(|group| Check::AllDifferent(group.clone()).holds(at)),
        }
    }
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
    let view = |(var, offset): RawView| vars[usize::from(var) % vars.len()] + i32::from(offset);
    let small = |values: &[i8]| {
        values
            .iter()
            .take(8)
            .map(|&v| i32::from(v))
            .collect::<Vec<_>>()
    };
    let mut checks: Vec<Check> = Vec::new();
    for part in input.parts.iter().take(6) {
        let (check, result) = match part {
            Part::AllDifferent(list, strength) => {
                let views: Vec<View> = list.iter().take(6).map(|&v| view(v)).collect();
                let strength = [Strength::Value, Strength::HiddenSingles, Strength::Domain]
                    [usize::from(*strength) % 3];
                let result = model.all_different_with(views.clone(), strength);
                (Check::AllDifferent(views), result)
            }
            Part::NotEqual(a, b) => (
                Check::NotEqual(view(*a), view(*b)),
                model.not_equal(view(*a), view(*b)),
            ),
            Part::Equal(a, b) => (
                Check::Equal(view(*a), view(*b)),
                model.equal(view(*a), view(*b)),
            ),
            Part::Linear(terms, relation, rhs) => {
                let terms: Vec<(i32, View)> = terms
                    .iter()
                    .take(4)
                    .map(|&(a, v)| (i32::from(a), view(v)))
                    .collect();
                let relation = RELATIONS[usize::from(*relation) % 4];
                let result = model.linear(terms.iter().copied(), relation, i32::from(*rhs));
                let terms = terms.iter().map(|&(a, v)| (i64::from(a), v)).collect();
                (Check::Linear(terms, relation, i64::from(*rhs)), result)
            }
            Part::Element(array, index, value) => {
                let array = small(array);
                let result = model.element(&array, view(*index), view(*value));
                let array = array.into_iter().map(i64::from).collect();
                (Check::Element(array, view(*index), view(*value)), result)
            }
            Part::Table(list, tuples) => {
                let views: Vec<View> = list.iter().take(3).map(|&v| view(v)).collect();
                let tuples: Vec<Vec<i32>> = tuples.iter().take(12).map(|t| small(t)).collect();
                let result = model.table(views.clone(), &tuples);
                let tuples = tuples
                    .into_iter()
                    .map(|t| t.into_iter().map(i64::from).collect())
                    .collect();
                (Check::Table(views, tuples), result)
            }
            Part::DifferenceIn(a, b, offsets) => {
                let offsets = small(offsets);
                let result = model.difference_in(view(*a), view(*b), &offsets);
                let offsets = offsets.into_iter().map(i64::from).collect();
                (Check::DifferenceIn(view(*a), view(*b), offsets), result)
            }
            Part::System(groups, locked) => {
                let groups: Vec<Vec<VarId>> = groups
                    .iter()
                    .take(4)
                    .map(|g| {
                        g.iter()
                            .take(6)
                            .map(|&v| vars[usize::from(v) % vars.len()])
                            .collect()
                    })
                    .collect();
                let when = match locked % 3 {
                    0 => LockedCandidates::Off,
                    1 => LockedCandidates::AtRoot,
                    _ => LockedCandidates::Always,
                };
                let system = AllDifferentSystem::new(groups.iter().cloned());
                let result = model.post(system.locked_candidates(when));
                let views = groups
                    .into_iter()
                    .map(|g| g.into_iter().map(View::from).collect())
                    .collect();
                (Check::System(views), result)
            }
        };
        if result.is_ok() {
            checks.push(check);
        }
    }
    let config = SearchConfig {
        variable_order: [
            VariableOrder::InputOrder,
            VariableOrder::SmallestDomain,
            VariableOrder::DomOverWeightedDegree,
        ][usize::from(input.variable_order) % 3],
        value_order: [
            ValueOrder::Ascending,
            ValueOrder::Descending,
            ValueOrder::Random(input.seed),
        ][usize::from(input.value_order) % 3],
    };
    let mut solver = Solver::with_config(model, config);
    for solution in solver.solutions().take(200) {
        let at = |v: View| i64::from(solution[v.var]) + i64::from(v.offset);
        for check in &checks {
            assert!(
                check.holds(&at),
                "a reported solution breaks a posted constraint"
            );
        }
    }
});
