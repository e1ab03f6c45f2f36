//! Linear constraints of two and three terms (which `Model::linear` posts as a dedicated
//! propagator) against brute force: on small random models mixing them with longer
//! linear constraints, `all_different` at every strength and `!=`, the solver finds
//! exactly the assignments enumeration finds, for several search orders, and root
//! propagation never removes a value some solution uses; also with more than 128 store
//! cells and with domains of several words and intervals.

mod common;

use std::collections::BTreeSet;

use alldiff::{Model, Relation, SearchConfig, Strength, VarId, View};
use proptest::prelude::*;

/// A view as the oracle sees it: (variable index, offset).
type V = (usize, i32);

#[derive(Clone, Debug)]
enum Spec {
    Linear(Vec<(i32, V)>, Relation, i32),
    AllDifferent(Vec<V>, Strength),
    NotEqual(V, V),
}

impl Spec {
    fn holds(&self, values: &[i32]) -> bool {
        let at = |(var, offset): V| i64::from(values[var]) + i64::from(offset);
        match self {
            Spec::Linear(terms, relation, rhs) => {
                let lhs = terms.iter().map(|&(a, v)| i64::from(a) * at(v)).sum();
                relation.holds(lhs, i64::from(*rhs))
            }
            Spec::AllDifferent(views, _) => {
                let seen: BTreeSet<i64> = views.iter().map(|&v| at(v)).collect();
                seen.len() == views.len()
            }
            Spec::NotEqual(a, b) => at(*a) != at(*b),
        }
    }

    fn post(&self, model: &mut Model, vars: &[VarId]) {
        let v = |(var, offset): V| -> View { vars[var] + offset };
        match self {
            Spec::Linear(terms, relation, rhs) => {
                model.linear(terms.iter().map(|&(a, x)| (a, v(x))), *relation, *rhs)
            }
            Spec::AllDifferent(views, strength) => {
                model.all_different_with(views.iter().map(|&x| v(x)), *strength)
            }
            Spec::NotEqual(a, b) => model.not_equal(v(*a), v(*b)),
        }
        .unwrap();
    }
}

#[derive(Clone, Debug)]
struct Problem {
    domains: Vec<Vec<i32>>,
    specs: Vec<Spec>,
}

fn view(vars: usize) -> impl Strategy<Value = V> {
    (0..vars, prop_oneof![3 => Just(0), 1 => -2..=2i32])
}

fn strength() -> impl Strategy<Value = Strength> {
    prop_oneof![
        Just(Strength::Value),
        Just(Strength::HiddenSingles),
        Just(Strength::Bounds),
        Just(Strength::Domain),
    ]
}

/// Mostly two- and three-term linear constraints (unit coefficients half the time,
/// some zero ones and repeated variables), with longer ones, all-different and `!=`.
fn spec(vars: usize, rhs: i32) -> impl Strategy<Value = Spec> {
    let coef = prop_oneof![2 => prop_oneof![Just(1), Just(-1)], 1 => -3..=3i32];
    let terms = move |len| prop::collection::vec((coef.clone(), view(vars)), len);
    prop_oneof![
        6 => (terms(2..=3), common::relation(), -rhs..=rhs).prop_map(|(t, r, c)| Spec::Linear(t, r, c)),
        1 => (terms(1..=5), common::relation(), -rhs..=rhs).prop_map(|(t, r, c)| Spec::Linear(t, r, c)),
        1 => (prop::collection::vec(view(vars), 2..=4), strength())
            .prop_map(|(v, s)| Spec::AllDifferent(v, s)),
        1 => (view(vars), view(vars)).prop_map(|(a, b)| Spec::NotEqual(a, b)),
    ]
}

fn domain(values: std::ops::RangeInclusive<i32>, size: usize) -> impl Strategy<Value = Vec<i32>> {
    prop::collection::btree_set(values, 1..=size).prop_map(|s| s.into_iter().collect())
}

/// 1 to 5 variables over subsets of -5..=5, with 1 to 4 constraints.
fn problem() -> impl Strategy<Value = Problem> {
    (1usize..=5).prop_flat_map(|vars| {
        (
            prop::collection::vec(domain(-5..=5, 6), vars),
            prop::collection::vec(spec(vars, 6), 1..=4),
        )
            .prop_map(|(domains, specs)| Problem { domains, specs })
    })
}

/// 130 variables (more than 128 store cells), all fixed but 5 with 1 to 4 values
/// each, under 2 to 6 constraints over any of them.
fn many_variables() -> impl Strategy<Value = Problem> {
    const VARS: usize = 130;
    (
        prop::collection::vec(-4..=4i32, VARS),
        prop::collection::vec((0..VARS, domain(-4..=4, 4)), 5),
        prop::collection::vec(spec(VARS, 6), 2..=6),
    )
        .prop_map(|(fixed, free, specs)| {
            let mut domains: Vec<Vec<i32>> = fixed.into_iter().map(|v| vec![v]).collect();
            for (var, domain) in free {
                domains[var] = domain;
            }
            Problem { domains, specs }
        })
}

/// Three variables: one of 65 to 150 values with holes (a bitset of several words) or
/// of 5000 with a few (an interval), and two small ones, under constraints whose
/// right-hand sides reach across the wide domain.
fn wide() -> impl Strategy<Value = Problem> {
    let wide_domain = prop_oneof![
        (
            -100..=0i32,
            65..=150i32,
            prop::collection::btree_set(0..150i32, 0..=30)
        )
            // Holes inside only: the ends keep the span over 64 values.
            .prop_map(|(lo, span, holes)| (lo..lo + span)
                .filter(|v| *v == lo || *v == lo + span - 1 || !holes.contains(&(v - lo)))
                .collect::<Vec<i32>>()),
        (-3000..=0i32, prop::collection::btree_set(0..5000i32, 0..=5)).prop_map(|(lo, holes)| {
            (lo..lo + 5000)
                .filter(|v| !holes.contains(&(v - lo)))
                .collect::<Vec<i32>>()
        }),
    ];
    (
        wide_domain,
        domain(-10..=10, 5),
        domain(-10..=10, 5),
        prop::collection::vec(spec(3, 60), 1..=3),
    )
        .prop_map(|(wide, y, z, specs)| Problem {
            domains: vec![wide, y, z],
            specs,
        })
}

fn build(problem: &Problem) -> (Model, Vec<VarId>) {
    let mut model = Model::new();
    let vars = common::vars(&mut model, &problem.domains);
    for spec in &problem.specs {
        spec.post(&mut model, &vars);
    }
    (model, vars)
}

/// The solver agrees with brute force under each configuration, and root
/// propagation keeps every value a solution uses.
fn check(problem: &Problem, configs: &[SearchConfig]) -> Result<(), TestCaseError> {
    let expected = common::brute_force(&problem.domains, &|values| {
        problem.specs.iter().all(|s| s.holds(values))
    });
    common::check_solutions(&expected, configs, &|| build(problem))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn small_models_match_brute_force(problem in problem()) {
        let configs = common::all_configs();
        check(&problem, &[configs[0], configs[4], configs[8]])?;
    }

    #[test]
    fn many_variables_match_brute_force(problem in many_variables()) {
        prop_assert!(common::domain_cells(&problem.domains) > common::COPY_CELLS);
        let configs = common::all_configs();
        check(&problem, &[SearchConfig::default(), configs[8]])?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(30))]

    #[test]
    fn wide_domains_match_brute_force(problem in wide()) {
        prop_assert!(common::has_multi_word_domain(&problem.domains));
        let configs = common::all_configs();
        check(&problem, &[SearchConfig::default(), configs[4]])?;
    }
}
