//! Linear constraints against brute force. Those of two to four terms (which
//! `Model::linear` posts as a dedicated propagator): on small random models mixing them
//! with longer linear constraints, `all_different` at every strength and `!=`, the
//! solver finds exactly the assignments enumeration finds, for several search orders,
//! and root propagation never removes a value some solution uses; also with more store
//! cells than the store copies and with domains of several words and intervals.
//!
//! Long sums (five terms or more, `Linear`, incremental past eight): the same over models of
//! many terms on Boolean and small domains, with more store cells than the store copies
//! and with wide domains; and their propagation, at the root and then under levels pushed and
//! popped one by one (backtracking the sums kept from call to call), reaches exactly
//! the bounds fixpoint that a from-scratch oracle computes.
//!
//! Domains, offsets, coefficients and right-hand sides reach the edges (`common::edges`):
//! word boundaries, negative values and the ends of `i32`. A constraint whose sum could
//! overflow 64 bits, or a view that leaves `i32`, must be refused with a `ModelError`;
//! every other must be accepted and give the oracle's answer, computed in `i128`.

mod common;

use std::collections::BTreeSet;

use alldiff::{Model, ModelError, Relation, SearchConfig, Strength, VarId, View};
use common::constants::{case_window, coefficient_in, offset_in, rhs_for};
use common::domain;
use common::edges::{Window, domain_in, mostly_fixed, view_fits};
use common::refusal::sum_may_overflow;
use proptest::prelude::*;

/// A view as the oracle sees it: (variable index, offset).
type V = (usize, i32);

#[derive(Clone, Debug)]
enum Spec {
    Linear(Vec<(i32, V)>, Relation, i32),
    AllDifferent(Vec<V>, Strength),
    NotEqual(V, V),
}

impl common::specs::Spec for Spec {
    fn holds(&self, values: &[i32]) -> bool {
        let at = |(var, offset): V| i128::from(values[var]) + i128::from(offset);
        match self {
            Spec::Linear(terms, relation, rhs) => {
                let lhs = terms.iter().map(|&(a, v)| i128::from(a) * at(v)).sum();
                common::relation_holds(*relation, lhs, i128::from(*rhs))
            }
            Spec::AllDifferent(views, _) => {
                let seen: BTreeSet<i128> = views.iter().map(|&v| at(v)).collect();
                seen.len() == views.len()
            }
            Spec::NotEqual(a, b) => at(*a) != at(*b),
        }
    }

    fn post(&self, model: &mut Model, vars: &[VarId]) -> Result<(), ModelError> {
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
        .map(drop)
    }

    /// Whether the model may refuse this spec: a view leaves `i32`, or the terms'
    /// magnitudes and the right-hand side add up past `i64::MAX / 2` (what
    /// `Model::linear` promises to refuse).
    fn may_refuse(&self, domains: &[Vec<i32>]) -> bool {
        let overflows = |&(var, offset): &V| !view_fits(&domains[var], offset);
        match self {
            Spec::Linear(terms, _, rhs) => {
                terms.iter().any(|(_, v)| overflows(v)) || sum_may_overflow(domains, terms, *rhs)
            }
            Spec::AllDifferent(views, _) => views.iter().any(overflows),
            Spec::NotEqual(a, b) => overflows(a) || overflows(b),
        }
    }
}

type Problem = common::specs::Problem<Spec>;

fn view(vars: usize, window: Window) -> impl Strategy<Value = V> {
    (0..vars, offset_in(window))
}

fn strength() -> impl Strategy<Value = Strength> {
    prop_oneof![
        Just(Strength::Value),
        Just(Strength::HiddenSingles),
        Just(Strength::Bounds),
        Just(Strength::Domain),
    ]
}

/// A linear constraint of `len` terms over any of `vars` (repeats allowed), with
/// coefficients and offsets from `window` and a right-hand side that some
/// assignment of `domains` nearly reaches.
fn linear(
    window: Window,
    domains: Vec<Vec<i32>>,
    vars: Vec<usize>,
    len: std::ops::RangeInclusive<usize>,
) -> impl Strategy<Value = Spec> {
    let view = (prop::sample::select(vars), offset_in(window));
    let terms = prop::collection::vec((coefficient_in(window), view), len);
    (terms, common::relation()).prop_flat_map(move |(terms, relation)| {
        rhs_for(window, domains.clone(), terms.clone())
            .prop_map(move |rhs| Spec::Linear(terms.clone(), relation, rhs))
    })
}

/// Mostly two- and three-term linear constraints (some zero coefficients and repeated
/// variables), with longer ones, all-different and `!=`.
fn spec(window: Window, domains: Vec<Vec<i32>>) -> impl Strategy<Value = Spec> {
    let vars = domains.len();
    let all: Vec<usize> = (0..vars).collect();
    prop_oneof![
        6 => linear(window, domains.clone(), all.clone(), 2..=3),
        1 => linear(window, domains, all, 1..=5),
        1 => (prop::collection::vec(view(vars, window), 2..=4), strength())
            .prop_map(|(v, s)| Spec::AllDifferent(v, s)),
        1 => (view(vars, window), view(vars, window)).prop_map(|(a, b)| Spec::NotEqual(a, b)),
    ]
}

/// `specs` over `domains`, drawn once the domains are known.
fn with_specs<S: Strategy<Value = Spec>>(
    domains: impl Strategy<Value = Vec<Vec<i32>>>,
    specs: impl Fn(Vec<Vec<i32>>) -> S + Clone,
    count: std::ops::RangeInclusive<usize>,
) -> impl Strategy<Value = Problem> {
    domains.prop_flat_map(move |domains| {
        prop::collection::vec(specs(domains.clone()), count.clone()).prop_map(move |specs| {
            Problem {
                domains: domains.clone(),
                specs,
            }
        })
    })
}

/// 1 to 5 variables of up to 6 values in one window (near zero or at the edges),
/// with 1 to 4 constraints.
fn problem() -> impl Strategy<Value = Problem> {
    (case_window(), 1usize..=5).prop_flat_map(|(window, vars)| {
        let domains = prop::collection::vec(domain_in(window, 6), vars);
        with_specs(domains, move |d| spec(window, d), 1..=4)
    })
}

/// More variables than the store copies the cells of (so it trails), all fixed but 5
/// with 1 to 4 values each, under 2 to 6 constraints over any of them.
fn many_variables() -> impl Strategy<Value = Problem> {
    case_window().prop_flat_map(|window| {
        let domains = mostly_fixed(window, common::TRAILING_PADDING, 5, 4);
        with_specs(domains, move |d| spec(window, d), 2..=6)
    })
}

/// The lowest value of a wide domain spanning `span` values: negative, near zero, or
/// against either end of `i32`.
fn wide_low(span: i32) -> impl Strategy<Value = i32> {
    prop_oneof![
        3 => -3000..=0i32,
        1 => i32::MIN..=i32::MIN + 2,
        1 => (0..=2).prop_map(move |d| i32::MAX - span + 1 - d),
    ]
}

/// A domain of 65 to 150 values with up to 30 holes (a bitset of several words) or,
/// one time in four (a free variable of 4000 values makes a slow case), spanning 4090
/// to 4200 values with up to 5 (a bitset of 64 words up to 4096, an interval past),
/// lying where [`wide_low`] says. The ends are never holes, so the span stays.
fn wide_domain() -> impl Strategy<Value = Vec<i32>> {
    let shape = prop_oneof![
        3 => (65..=150i32, 0..=30usize),
        1 => (4090..=4200i32, 0..=5usize),
    ];
    shape.prop_flat_map(|(span, holes)| {
        let holes = prop::collection::btree_set(1..span - 1, 0..=holes);
        (wide_low(span), holes).prop_map(move |(low, holes)| {
            (0..span)
                .filter(|i| !holes.contains(i))
                .map(|i| low + i)
                .collect::<Vec<i32>>()
        })
    })
}

/// The window of the wide cases' constants: small ones, around zero.
const WIDE_CONSTANTS: Window = Window {
    low: -60,
    span: 121,
};

/// Three variables: a wide one ([`wide_domain`]) and two small ones, under constraints
/// whose right-hand sides reach across the wide domain. The small ones have up to 3
/// values: the brute force walks up to 5000 x 9 assignments.
fn wide() -> impl Strategy<Value = Problem> {
    let domains = (wide_domain(), domain(-10..=10, 3), domain(-10..=10, 3))
        .prop_map(|(wide, y, z)| vec![wide, y, z]);
    with_specs(domains, |d| spec(WIDE_CONSTANTS, d), 1..=3)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn small_models_match_brute_force(problem in problem()) {
        let configs = common::all_configs();
        problem.check(&[configs[0].clone(), configs[4].clone(), configs[8].clone()])?;
    }

    #[test]
    fn many_variables_match_brute_force(problem in many_variables()) {
        prop_assert!(common::domain_cells(&problem.domains) > common::COPY_CELLS);
        let configs = common::all_configs();
        problem.check(&[SearchConfig::default(), configs[8].clone()])?;
    }
}

/// A long sum of four to twelve terms (up to eight, `Linear` reads them all at each
/// call; more, it keeps their sums from call to call) over `vars` (repeats allowed),
/// whose right-hand side some assignment nearly reaches, so that it prunes and fails at
/// various depths.
fn long_sum(
    window: Window,
    domains: Vec<Vec<i32>>,
    vars: Vec<usize>,
) -> impl Strategy<Value = Spec> {
    linear(window, domains, vars, 4..=12)
}

/// A long sum over every variable of `domains`.
fn long_sum_over_all(window: Window, domains: Vec<Vec<i32>>) -> impl Strategy<Value = Spec> {
    let all = (0..domains.len()).collect();
    long_sum(window, domains, all)
}

/// A Boolean domain, or up to `size` values of the window.
fn bool_or_domain(window: Window, size: usize) -> impl Strategy<Value = Vec<i32>> {
    prop_oneof![
        1 => Just(vec![0, 1]),
        1 => domain(0..=1, 2),
        2 => domain_in(window, size),
    ]
}

/// 5 to 9 variables, Boolean or of up to 3 values of a window, under 2 to 4 long sums
/// and now and then `!=` or a short linear.
fn long_sums() -> impl Strategy<Value = Problem> {
    (case_window(), 5usize..=9).prop_flat_map(|(window, vars)| {
        let domains = prop::collection::vec(bool_or_domain(window, 3), vars);
        domains.prop_flat_map(move |domains| {
            let extra = prop_oneof![
                (view(vars, window), view(vars, window)).prop_map(|(a, b)| Spec::NotEqual(a, b)),
                spec(window, domains.clone()),
            ];
            (
                prop::collection::vec(long_sum_over_all(window, domains.clone()), 2..=4),
                prop::collection::vec(extra, 0..=1),
            )
                .prop_map(move |(mut specs, extra)| {
                    specs.extend(extra);
                    Problem {
                        domains: domains.clone(),
                        specs,
                    }
                })
        })
    })
}

/// More Boolean variables than the store copies the cells of, all fixed but 8, under
/// long sums of up to 12 terms over the free ones and the first 8 (mostly fixed).
fn many_long_sums() -> impl Strategy<Value = Problem> {
    const VARS: usize = common::TRAILING_PADDING;
    (
        case_window(),
        prop::collection::vec(0..=1i32, VARS),
        prop::collection::btree_set(0..VARS, 8),
    )
        .prop_flat_map(|(window, fixed, free)| {
            let mut domains: Vec<Vec<i32>> = fixed.into_iter().map(|v| vec![v]).collect();
            for &var in &free {
                domains[var] = vec![0, 1];
            }
            let vars: Vec<usize> = free.into_iter().chain(0..8).collect();
            prop::collection::vec(long_sum(window, domains.clone(), vars), 2..=4).prop_map(
                move |specs| Problem {
                    domains: domains.clone(),
                    specs,
                },
            )
        })
}

/// One wide variable ([`wide_domain`]) and three small ones of up to 2 values, under
/// long sums that reach across it.
fn wide_long_sums() -> impl Strategy<Value = Problem> {
    let domains =
        (wide_domain(), prop::collection::vec(domain(-3..=3, 2), 3)).prop_map(|(wide, small)| {
            let mut domains = vec![wide];
            domains.extend(small);
            domains
        });
    with_specs(domains, |d| long_sum_over_all(WIDE_CONSTANTS, d), 1..=3)
}

/// The bounds fixpoint of the linear specs over `domains`, computed from scratch as
/// `Linear` defines it (each term against the others' bounds, a repeated variable
/// counted once per term; `!=` once all terms but one are fixed); `None` for a wipeout.
fn bounds_fixpoint(mut domains: Vec<Vec<i32>>, specs: &[Spec]) -> Option<Vec<Vec<i32>>> {
    let contribution =
        |a: i32, v: i32, offset: i32| i128::from(a) * (i128::from(v) + i128::from(offset));
    loop {
        let before = domains.clone();
        for spec in specs {
            let Spec::Linear(terms, relation, rhs) = spec else {
                unreachable!("linear specs only")
            };
            let rhs = i128::from(*rhs);
            let bounds = |domains: &[Vec<i32>], &(a, (var, offset)): &(i32, V)| {
                let values = domains[var].iter().map(|&v| contribution(a, v, offset));
                (values.clone().min().unwrap(), values.max().unwrap())
            };
            if *relation == Relation::NotEqual {
                let open: Vec<usize> = (0..terms.len())
                    .filter(|&t| domains[terms[t].1.0].len() > 1)
                    .collect();
                let fixed: i128 = (terms.iter())
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
/// back to the fixpoint below it. Over the specs the model accepts.
fn check_fixpoints(problem: &Problem, fixes: &[(usize, usize)]) -> Result<(), TestCaseError> {
    let problem = &problem.accepted()?;
    let (model, vars) = problem.build();
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

/// 5 to 8 variables of up to 6 values of a window (or Boolean), under 1 to 3 long sums
/// only, with the variables to fix level by level.
fn fixpoint_case() -> impl Strategy<Value = (Problem, Vec<(usize, usize)>)> {
    (case_window(), 5usize..=8).prop_flat_map(|(window, vars)| {
        let domains = prop::collection::vec(bool_or_domain(window, 6), vars);
        (
            with_specs(domains, move |d| long_sum_over_all(window, d), 1..=3),
            prop::collection::vec((0..vars, 0..6usize), 0..=5),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn long_sums_match_brute_force(problem in long_sums()) {
        let configs = common::all_configs();
        problem.check(&[configs[0].clone(), configs[4].clone(), configs[8].clone()])?;
    }

    #[test]
    fn many_long_sums_match_brute_force(problem in many_long_sums()) {
        prop_assert!(common::domain_cells(&problem.domains) > common::COPY_CELLS);
        let configs = common::all_configs();
        problem.check(&[SearchConfig::default(), configs[5].clone()])?;
    }

    #[test]
    fn long_sums_reach_the_bounds_fixpoint((problem, fixes) in fixpoint_case()) {
        check_fixpoints(&problem, &fixes)?;
    }
}

// Few cases: a wide variable no constraint pins down gives thousands of solutions,
// each found under two configurations.
proptest! {
    #![proptest_config(ProptestConfig::with_cases(20))]

    #[test]
    fn wide_long_sums_match_brute_force(problem in wide_long_sums()) {
        prop_assert!(common::has_multi_word_domain(&problem.domains));
        let configs = common::all_configs();
        problem.check(&[SearchConfig::default(), configs[4].clone()])?;
    }
}

// Few cases: a wide variable no constraint pins down gives thousands of solutions,
// each found under two configurations.
proptest! {
    #![proptest_config(ProptestConfig::with_cases(20))]

    #[test]
    fn wide_domains_match_brute_force(problem in wide()) {
        prop_assert!(common::has_multi_word_domain(&problem.domains));
        let configs = common::all_configs();
        problem.check(&[SearchConfig::default(), configs[4].clone()])?;
    }
}
