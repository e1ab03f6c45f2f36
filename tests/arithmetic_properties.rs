//! The arithmetic constraints (orderings, `*`, `/`, `%`, `|x|`, `x^k`, minimum,
//! maximum, element over variables) against brute force: on small random models
//! mixing them with `all_different` and `linear`, the solver finds exactly the
//! assignments that enumeration finds, for several search orders, and root
//! propagation never removes a value some solution uses. Then exact root pruning and
//! the overflow errors, one constraint at a time.

mod common;

use std::collections::BTreeSet;

use alldiff::{Model, ModelError, Relation, SearchConfig, Solver, VarId, View};
use proptest::prelude::*;

/// A view as the oracle sees it: (variable index, offset).
type V = (usize, i32);

/// A constraint as the oracle understands it.
#[derive(Clone, Debug)]
enum Spec {
    Less(V, V, bool),
    Times(V, V, V),
    Div(V, V, V),
    Mod(V, V, V),
    Abs(V, V),
    Power(V, u32, V),
    Extremum(Vec<V>, V, bool),
    ElementVar(Vec<V>, V, V),
    AllDifferent(Vec<V>),
    Linear(Vec<(i32, V)>, Relation, i32),
}

impl Spec {
    fn holds(&self, values: &[i32]) -> bool {
        let at = |(var, offset): V| i64::from(values[var]) + i64::from(offset);
        match self {
            Spec::Less(a, b, strict) => at(*a) + i64::from(*strict) <= at(*b),
            Spec::Times(x, y, z) => at(*x) * at(*y) == at(*z),
            Spec::Div(x, y, z) => at(*x).checked_div(at(*y)) == Some(at(*z)),
            Spec::Mod(x, y, z) => at(*x).checked_rem(at(*y)) == Some(at(*z)),
            Spec::Abs(x, z) => at(*x).abs() == at(*z),
            Spec::Power(x, k, z) => at(*x).pow(*k) == at(*z),
            Spec::Extremum(xs, z, is_max) => {
                let values = xs.iter().map(|&x| at(x));
                let extreme = if *is_max { values.max() } else { values.min() };
                extreme == Some(at(*z))
            }
            Spec::ElementVar(xs, i, z) => usize::try_from(at(*i))
                .ok()
                .and_then(|i| xs.get(i))
                .is_some_and(|&x| at(x) == at(*z)),
            Spec::AllDifferent(views) => {
                let seen: BTreeSet<i64> = views.iter().map(|&v| at(v)).collect();
                seen.len() == views.len()
            }
            Spec::Linear(terms, relation, rhs) => {
                let lhs = terms.iter().map(|&(a, v)| i64::from(a) * at(v)).sum();
                relation.holds(lhs, i64::from(*rhs))
            }
        }
    }

    fn post(&self, model: &mut Model, vars: &[VarId]) -> Result<(), ModelError> {
        let v = |(var, offset): V| -> View { vars[var] + offset };
        let vs = |views: &[V]| views.iter().map(|&x| v(x)).collect::<Vec<_>>();
        match self {
            Spec::Less(a, b, true) => model.less(v(*a), v(*b)),
            Spec::Less(a, b, false) => model.greater_eq(v(*b), v(*a)),
            Spec::Times(x, y, z) => model.times(v(*x), v(*y), v(*z)),
            Spec::Div(x, y, z) => model.div(v(*x), v(*y), v(*z)),
            Spec::Mod(x, y, z) => model.modulo(v(*x), v(*y), v(*z)),
            Spec::Abs(x, z) => model.abs(v(*x), v(*z)),
            Spec::Power(x, k, z) => model.power(v(*x), *k, v(*z)),
            Spec::Extremum(xs, z, true) => model.maximum(vs(xs), v(*z)),
            Spec::Extremum(xs, z, false) => model.minimum(vs(xs), v(*z)),
            Spec::ElementVar(xs, i, z) => model.element_var(vs(xs), v(*i), v(*z)),
            Spec::AllDifferent(views) => model.all_different(vs(views)),
            Spec::Linear(terms, relation, rhs) => {
                model.linear(terms.iter().map(|&(a, x)| (a, v(x))), *relation, *rhs)
            }
        }
        .map(drop)
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

fn relation() -> impl Strategy<Value = Relation> {
    prop_oneof![
        Just(Relation::Equal),
        Just(Relation::NotEqual),
        Just(Relation::LessEq),
        Just(Relation::GreaterEq),
    ]
}

/// Every kind of constraint over views of `vars` variables: the arithmetic ones
/// three times as often as `all_different` and `linear`.
fn spec(vars: usize) -> impl Strategy<Value = Spec> {
    let v = move || view(vars);
    let views = move || prop::collection::vec(view(vars), 1..=4);
    prop_oneof![
        1 => (v(), v(), any::<bool>()).prop_map(|(a, b, s)| Spec::Less(a, b, s)),
        2 => (v(), v(), v()).prop_map(|(x, y, z)| Spec::Times(x, y, z)),
        2 => (v(), v(), v()).prop_map(|(x, y, z)| Spec::Div(x, y, z)),
        2 => (v(), v(), v()).prop_map(|(x, y, z)| Spec::Mod(x, y, z)),
        1 => (v(), v()).prop_map(|(x, z)| Spec::Abs(x, z)),
        1 => (v(), 0..=3u32, v()).prop_map(|(x, k, z)| Spec::Power(x, k, z)),
        2 => (views(), v(), any::<bool>()).prop_map(|(xs, z, m)| Spec::Extremum(xs, z, m)),
        2 => (views(), v(), v()).prop_map(|(xs, i, z)| Spec::ElementVar(xs, i, z)),
        1 => views().prop_map(Spec::AllDifferent),
        1 => (prop::collection::vec((-2..=2i32, v()), 1..=3), relation(), -4..=4i32)
            .prop_map(|(t, r, c)| Spec::Linear(t, r, c)),
    ]
}

fn domain(values: std::ops::RangeInclusive<i32>, size: usize) -> impl Strategy<Value = Vec<i32>> {
    prop::collection::btree_set(values, 1..=size).prop_map(|s| s.into_iter().collect())
}

/// 1 to 5 variables over subsets of -4..=4, with 1 to 3 constraints.
fn problem() -> impl Strategy<Value = Problem> {
    (1usize..=5).prop_flat_map(|vars| {
        (
            prop::collection::vec(domain(-4..=4, 5), vars),
            prop::collection::vec(spec(vars), 1..=3),
        )
            .prop_map(|(domains, specs)| Problem { domains, specs })
    })
}

/// 130 variables (more than 128 store cells), all fixed but 5 with 1 to 3 values
/// each, under 2 to 5 constraints over any of them.
fn many_variables() -> impl Strategy<Value = Problem> {
    const VARS: usize = 130;
    (
        prop::collection::vec(-4..=4i32, VARS),
        prop::collection::vec((0..VARS, domain(-4..=4, 3)), 5),
        prop::collection::vec(spec(VARS), 2..=5),
    )
        .prop_map(|(fixed, free, specs)| {
            let mut domains: Vec<Vec<i32>> = fixed.into_iter().map(|v| vec![v]).collect();
            for (var, domain) in free {
                domains[var] = domain;
            }
            Problem { domains, specs }
        })
}

/// Every assignment satisfying every constraint, by enumeration.
fn brute_force(problem: &Problem) -> BTreeSet<Vec<i32>> {
    fn walk(problem: &Problem, var: usize, values: &mut Vec<i32>, found: &mut BTreeSet<Vec<i32>>) {
        if var == problem.domains.len() {
            if problem.specs.iter().all(|s| s.holds(values)) {
                found.insert(values.clone());
            }
            return;
        }
        for &v in &problem.domains[var] {
            values[var] = v;
            walk(problem, var + 1, values, found);
        }
    }
    let mut found = BTreeSet::new();
    walk(problem, 0, &mut vec![0; problem.domains.len()], &mut found);
    found
}

fn build(problem: &Problem) -> (Model, Vec<VarId>) {
    let mut model = Model::new();
    let vars: Vec<VarId> = problem
        .domains
        .iter()
        .map(|d| model.var_from_values(d.iter().copied()).unwrap())
        .collect();
    for spec in &problem.specs {
        spec.post(&mut model, &vars).unwrap();
    }
    (model, vars)
}

/// The solver agrees with brute force under each configuration, and root
/// propagation keeps every value a solution uses.
fn check(problem: &Problem, configs: &[SearchConfig]) -> Result<(), TestCaseError> {
    let expected = brute_force(problem);
    for &config in configs {
        let (model, vars) = build(problem);
        let mut solver = Solver::with_config(model, config);
        let found: Vec<Vec<i32>> = solver
            .solutions()
            .map(|s| vars.iter().map(|&x| s[x]).collect())
            .collect();
        let distinct: BTreeSet<Vec<i32>> = found.iter().cloned().collect();
        prop_assert_eq!(distinct.len(), found.len(), "a solution was reported twice");
        prop_assert_eq!(&distinct, &expected, "{:?}", config);
    }
    let (model, _) = build(problem);
    match Solver::new(model).root_domains() {
        None => prop_assert!(expected.is_empty(), "root failed on a satisfiable model"),
        Some(domains) => {
            for solution in &expected {
                for (var, value) in solution.iter().enumerate() {
                    prop_assert!(
                        domains[var].contains(value),
                        "root removed {value} of #{var}"
                    );
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn small_models_match_brute_force(problem in problem()) {
        let configs = common::all_configs();
        check(&problem, &[configs[0], configs[4], configs[8]])?;
    }

    #[test]
    fn many_variables_match_brute_force(problem in many_variables()) {
        check(&problem, &[SearchConfig::default()])?;
    }
}
