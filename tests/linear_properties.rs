//! Linear constraints against brute force. Those of two and three terms (which
//! `Model::linear` posts as a dedicated propagator): on small random models mixing them
//! with longer linear constraints, `all_different` at every strength and `!=`, the
//! solver finds exactly the assignments enumeration finds, for several search orders,
//! and root propagation never removes a value some solution uses; also with more than
//! 128 store cells and with domains of several words and intervals.
//!
//! Long sums (four terms or more, `Linear`, incremental past eight): the same over models of
//! many terms on Boolean and small domains, with more than 128 store cells and with
//! wide domains; and their propagation, at the root and then under levels pushed and
//! popped one by one (backtracking the sums kept from call to call), reaches exactly
//! the bounds fixpoint that a from-scratch oracle computes.

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

/// A domain of 65 to 150 values with holes (a bitset of several words) or of 5000
/// with a few (an interval).
fn wide_domain() -> impl Strategy<Value = Vec<i32>> {
    prop_oneof![
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
    ]
}

/// Three variables: a wide one ([`wide_domain`]) and two small ones, under constraints
/// whose right-hand sides reach across the wide domain.
fn wide() -> impl Strategy<Value = Problem> {
    (
        wide_domain(),
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

/// Four to twelve terms (up to eight, `Linear` reads them all at each call; more, it
/// keeps their sums from call to call), coefficients mostly ±1 or small, over any of
/// `vars` variables (repeats allowed), with offsets now and then.
fn long_terms(vars: usize) -> impl Strategy<Value = Vec<(i32, V)>> {
    let coef = prop_oneof![2 => prop_oneof![Just(1), Just(-1)], 2 => -4..=4i32, 1 => -20..=20i32];
    prop::collection::vec((coef, view(vars)), 4..=12)
}

/// A long sum whose right-hand side lies near the middle of what the terms reach, so
/// that it prunes and fails at various depths.
fn long_sum(vars: usize, reach: i32) -> impl Strategy<Value = Spec> {
    (long_terms(vars), common::relation(), -reach..=reach)
        .prop_map(|(t, r, c)| Spec::Linear(t, r, c))
}

/// 5 to 9 variables, Boolean or over subsets of -3..=3 of up to 3 values, under 2 to 4
/// long sums and now and then `!=` or a short linear.
fn long_sums() -> impl Strategy<Value = Problem> {
    let domain = prop_oneof![
        1 => Just(vec![0, 1]),
        1 => domain(0..=1, 2),
        2 => domain(-3..=3, 3),
    ];
    (5usize..=9).prop_flat_map(move |vars| {
        let extra = prop_oneof![
            (view(vars), view(vars)).prop_map(|(a, b)| Spec::NotEqual(a, b)),
            spec(vars, 4),
        ];
        (
            prop::collection::vec(domain.clone(), vars),
            prop::collection::vec(long_sum(vars, 8), 2..=4),
            prop::collection::vec(extra, 0..=1),
        )
            .prop_map(|(domains, mut specs, extra)| {
                specs.extend(extra);
                Problem { domains, specs }
            })
    })
}

/// 140 Boolean variables (more than 128 store cells), all fixed but 8, under long sums
/// of up to 12 terms over the free ones and some fixed ones.
fn many_long_sums() -> impl Strategy<Value = Problem> {
    const VARS: usize = 140;
    (
        prop::collection::vec(0..=1i32, VARS),
        prop::collection::btree_set(0..VARS, 8),
        prop::collection::vec(long_terms(16), 2..=4),
        prop::collection::vec((common::relation(), -6..=6i32), 4),
    )
        .prop_map(|(fixed, free, terms, relations)| {
            let mut domains: Vec<Vec<i32>> = fixed.into_iter().map(|v| vec![v]).collect();
            let free: Vec<usize> = free.into_iter().collect();
            for &var in &free {
                domains[var] = vec![0, 1];
            }
            // Terms over 16 variables: the 8 free ones and the first 8 (mostly fixed).
            let var = |i: usize| if i < 8 { free[i] } else { i - 8 };
            let specs = (terms.into_iter().zip(relations))
                .map(|(terms, (relation, rhs))| {
                    let terms = terms.into_iter().map(|(a, (v, o))| (a, (var(v), o)));
                    Spec::Linear(terms.collect(), relation, rhs)
                })
                .collect();
            Problem { domains, specs }
        })
}

/// One wide variable ([`wide_domain`]) and three small ones, under long sums that
/// reach across it.
fn wide_long_sums() -> impl Strategy<Value = Problem> {
    (
        wide_domain(),
        prop::collection::vec(domain(-3..=3, 3), 3),
        prop::collection::vec(long_sum(4, 60), 1..=3),
    )
        .prop_map(|(wide, small, specs)| {
            let mut domains = vec![wide];
            domains.extend(small);
            Problem { domains, specs }
        })
}

/// The bounds fixpoint of the linear specs over `domains`, computed from scratch as
/// `Linear` defines it (each term against the others' bounds, a repeated variable
/// counted once per term; `!=` once all terms but one are fixed); `None` for a wipeout.
fn bounds_fixpoint(mut domains: Vec<Vec<i32>>, specs: &[Spec]) -> Option<Vec<Vec<i32>>> {
    let contribution = |a: i32, v: i32, offset: i32| i64::from(a) * i64::from(v + offset);
    loop {
        let before = domains.clone();
        for spec in specs {
            let Spec::Linear(terms, relation, rhs) = spec else {
                unreachable!("linear specs only")
            };
            let rhs = i64::from(*rhs);
            let bounds = |domains: &[Vec<i32>], &(a, (var, offset)): &(i32, V)| {
                let values = domains[var].iter().map(|&v| contribution(a, v, offset));
                (values.clone().min().unwrap(), values.max().unwrap())
            };
            if *relation == Relation::NotEqual {
                let open: Vec<usize> = (0..terms.len())
                    .filter(|&t| domains[terms[t].1.0].len() > 1)
                    .collect();
                let fixed: i64 = (terms.iter())
                    .filter(|(_, (var, _))| domains[*var].len() == 1)
                    .map(|&(a, (var, offset))| contribution(a, domains[var][0], offset))
                    .sum();
                match open[..] {
                    [] if fixed == rhs => return None,
                    [t] => {
                        let (a, (var, offset)) = terms[t];
                        domains[var].retain(|&v| fixed + contribution(a, v, offset) != rhs);
                    }
                    _ => {}
                }
            } else {
                for t in 0..terms.len() {
                    let (low, high) = (terms.iter().enumerate())
                        .filter(|&(u, _)| u != t)
                        .map(|(_, term)| bounds(&domains, term))
                        .fold((0, 0), |(l, h), (a, b)| (l + a, h + b));
                    let (a, (var, offset)) = terms[t];
                    domains[var].retain(|&v| {
                        let c = contribution(a, v, offset);
                        match relation {
                            Relation::LessEq => c + low <= rhs,
                            Relation::GreaterEq => c + high >= rhs,
                            _ => c + low <= rhs && c + high >= rhs,
                        }
                    });
                    if domains[var].is_empty() {
                        return None;
                    }
                }
            }
            if domains.iter().any(Vec::is_empty) {
                return None;
            }
        }
        if domains == before {
            return Some(domains);
        }
    }
}

/// Root propagation reaches the oracle's fixpoint; so does each level pushed (one
/// more variable fixed to a value of its fixpoint domain), and each level popped comes
/// back to the fixpoint below it.
fn check_fixpoints(problem: &Problem, fixes: &[(usize, usize)]) -> Result<(), TestCaseError> {
    let (model, vars) = build(problem);
    let mut solver = alldiff::Solver::new(model);
    let root = bounds_fixpoint(problem.domains.clone(), &problem.specs);
    prop_assert_eq!(&solver.root_domains(), &root);
    let mut stack = vec![root];
    for &(var, pick) in fixes {
        let Some(Some(domains)) = stack.last() else {
            break;
        };
        let value = domains[var][pick % domains[var].len()];
        let mut fixed = domains.clone();
        fixed[var] = vec![value];
        let expected = bounds_fixpoint(fixed, &problem.specs);
        let consistent = solver.push_level([(vars[var], value)]).unwrap();
        prop_assert_eq!(consistent, expected.is_some());
        if consistent {
            prop_assert_eq!(&solver.root_domains(), &expected);
        }
        stack.push(expected);
    }
    while stack.len() > 1 {
        solver.pop_level();
        stack.pop();
        let below = stack.last().unwrap();
        if below.is_some() {
            prop_assert_eq!(&solver.root_domains(), below);
        }
    }
    Ok(())
}

/// 5 to 8 variables over subsets of -4..=4 (or Boolean), under 1 to 3 long sums only,
/// with the variables to fix level by level.
fn fixpoint_case() -> impl Strategy<Value = (Problem, Vec<(usize, usize)>)> {
    let domain = prop_oneof![1 => Just(vec![0, 1]), 3 => domain(-4..=4, 6)];
    (5usize..=8).prop_flat_map(move |vars| {
        (
            prop::collection::vec(domain.clone(), vars),
            prop::collection::vec(long_sum(vars, 12), 1..=3),
            prop::collection::vec((0..vars, 0..6usize), 0..=5),
        )
            .prop_map(|(domains, specs, fixes)| (Problem { domains, specs }, fixes))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn long_sums_match_brute_force(problem in long_sums()) {
        let configs = common::all_configs();
        check(&problem, &[configs[0], configs[4], configs[8]])?;
    }

    #[test]
    fn many_long_sums_match_brute_force(problem in many_long_sums()) {
        prop_assert!(common::domain_cells(&problem.domains) > common::COPY_CELLS);
        let configs = common::all_configs();
        check(&problem, &[SearchConfig::default(), configs[5]])?;
    }

    #[test]
    fn long_sums_reach_the_bounds_fixpoint((problem, fixes) in fixpoint_case()) {
        check_fixpoints(&problem, &fixes)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(30))]

    #[test]
    fn wide_long_sums_match_brute_force(problem in wide_long_sums()) {
        prop_assert!(common::has_multi_word_domain(&problem.domains));
        let configs = common::all_configs();
        check(&problem, &[SearchConfig::default(), configs[4]])?;
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
