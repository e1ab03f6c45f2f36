//! The arithmetic constraints (orderings, `*`, `/`, `%`, `|x|`, `|x - y|`, `x^k`, minimum,
//! maximum, element over variables) against brute force: on small random models
//! mixing them with `all_different` and `linear`, the solver finds exactly the
//! assignments that enumeration finds, for several search orders, root propagation
//! never removes a value some solution uses, and levels pushed and popped propagate
//! as a fresh solver does. `arithmetic_pruning_properties.rs` takes them one at a
//! time: exact root pruning, wide domains and the ends of `i32`.
//!
//! Domains, offsets and constants reach the edges (`common::edges`): word boundaries,
//! negative values and the ends of `i32`. A constraint whose views or results could
//! leave `i32` may be refused with a `ModelError`; every other must be accepted and give
//! the oracle's answer, computed in `i128`.

mod common;

use std::collections::BTreeSet;

use alldiff::{Model, ModelError, Relation, SearchConfig, VarId, View};
use common::constants::{case_window, coefficient_in, offset_in, offset_to, rhs_for};
use common::edges::{Window, domain_in, mostly_fixed, view_fits};
use proptest::prelude::*;

type V = (usize, i32);

/// A constraint as the oracle understands it.
#[derive(Clone, Debug)]
enum Spec {
    Less(V, V, bool),
    Times(V, V, V),
    Div(V, V, V),
    Mod(V, V, V),
    Abs(V, V),
    AbsDifference(V, V, V),
    Power(V, u32, V),
    Extremum(Vec<V>, V, bool),
    ElementVar(Vec<V>, V, V),
    AllDifferent(Vec<V>),
    Linear(Vec<(i32, V)>, Relation, i32),
}

impl common::specs::Spec for Spec {
    fn holds(&self, values: &[i32]) -> bool {
        let at = |(var, offset): V| i128::from(values[var]) + i128::from(offset);
        match self {
            Spec::Less(a, b, strict) => at(*a) + i128::from(*strict) <= at(*b),
            Spec::Times(x, y, z) => at(*x) * at(*y) == at(*z),
            Spec::Div(x, y, z) => at(*x).checked_div(at(*y)) == Some(at(*z)),
            Spec::Mod(x, y, z) => at(*x).checked_rem(at(*y)) == Some(at(*z)),
            Spec::Abs(x, z) => at(*x).abs() == at(*z),
            Spec::AbsDifference(x, y, z) => (at(*x) - at(*y)).abs() == at(*z),
            Spec::Power(x, k, z) => at(*x).checked_pow(*k) == Some(at(*z)),
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
                let seen: BTreeSet<i128> = views.iter().map(|&v| at(v)).collect();
                seen.len() == views.len()
            }
            Spec::Linear(terms, relation, rhs) => {
                let lhs = terms.iter().map(|&(a, v)| i128::from(a) * at(v)).sum();
                common::relation_holds(*relation, lhs, i128::from(*rhs))
            }
        }
    }

    /// Whether the model may refuse this spec: a view leaves `i32`; `|x|`, `|x - y|`
    /// or `x^k` over the views' bounds can leave it; or a linear sum could overflow 64
    /// bits. Products, quotients and remainders are computed wide and never refused.
    fn may_refuse(&self, domains: &[Vec<i32>]) -> bool {
        let hull = |(var, offset): V| {
            let d = &domains[var];
            let shift = |v: i32| i128::from(v) + i128::from(offset);
            (shift(d[0]), shift(d[d.len() - 1]))
        };
        let overflows = |&(var, offset): &V| !view_fits(&domains[var], offset);
        let views: Vec<V> = match self {
            Spec::Less(a, b, _) => vec![*a, *b],
            Spec::Times(x, y, z)
            | Spec::Div(x, y, z)
            | Spec::Mod(x, y, z)
            | Spec::AbsDifference(x, y, z) => vec![*x, *y, *z],
            Spec::Abs(x, z) | Spec::Power(x, _, z) => vec![*x, *z],
            Spec::Extremum(xs, z, _) => xs.iter().chain([z]).copied().collect(),
            Spec::ElementVar(xs, i, z) => xs.iter().chain([i, z]).copied().collect(),
            Spec::AllDifferent(views) => views.clone(),
            Spec::Linear(terms, ..) => terms.iter().map(|&(_, v)| v).collect(),
        };
        let beyond = |v: i128| v.abs() > i128::from(i32::MAX);
        views.iter().any(overflows)
            || match self {
                Spec::Abs(x, _) => beyond(hull(*x).0),
                Spec::AbsDifference(x, y, _) => {
                    let ((x_lo, x_hi), (y_lo, y_hi)) = (hull(*x), hull(*y));
                    beyond(x_hi - y_lo) || beyond(x_lo - y_hi)
                }
                Spec::Power(x, k, _) => {
                    let (lo, hi) = hull(*x);
                    let magnitude = lo.abs().max(hi.abs());
                    magnitude
                        .checked_pow(*k)
                        .is_none_or(|p| p > i128::from(i32::MAX))
                        && magnitude > 1
                }
                Spec::Linear(terms, _, rhs) => {
                    let magnitude: i128 = (terms.iter())
                        .map(|&(a, x)| {
                            let (lo, hi) = hull(x);
                            i128::from(a).abs() * lo.abs().max(hi.abs())
                        })
                        .sum();
                    magnitude + i128::from(*rhs).abs() > i128::from(i64::MAX / 2)
                }
                _ => false,
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
            Spec::AbsDifference(x, y, z) => model.abs_difference(v(*x), v(*y), v(*z)),
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

type Problem = common::specs::Problem<Spec>;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn small_models_match_brute_force(problem in problem()) {
        let configs = common::all_configs();
        problem.check(&[configs[0].clone(), configs[4].clone(), configs[8].clone()])?;
    }
}

// Fewer cases: each posts and searches 260 variables, four times over (about 20 ms
// a case in a debug build); the windows and specs are drawn as in the small models.
proptest! {
    #![proptest_config(ProptestConfig::with_cases(250))]

    #[test]
    fn many_variables_match_brute_force(problem in many_variables()) {
        prop_assert!(common::domain_cells(&problem.domains) > common::COPY_CELLS);
        let configs = common::all_configs();
        problem.check(&[SearchConfig::default(), configs[8].clone()])?;
    }
}

/// A view of one of the variables of `domains`: an offset from the window (see
/// `offset_in`), or one that moves the variable's lowest value near zero, where
/// products, powers and indices meet the other views' values.
fn view(domains: &[Vec<i32>], window: Window) -> impl Strategy<Value = V> + use<> {
    let domains = domains.to_vec();
    (0..domains.len()).prop_flat_map(move |var| {
        let near_zero = (-2..=2i32).prop_map({
            let domain = domains[var].clone();
            move |t| offset_to(&domain, t)
        });
        let offset = prop_oneof![3 => offset_in(window), 1 => near_zero];
        offset.prop_map(move |o| (var, o))
    })
}

/// Every kind of constraint over views of the variables of `domains`: the arithmetic
/// ones three times as often as `all_different` and `linear`. Exponents are mostly
/// 0 to 3, now and then up to 40 (a refusal unless the base is -1, 0 or 1).
fn spec(window: Window, domains: Vec<Vec<i32>>) -> impl Strategy<Value = Spec> {
    let v = || view(&domains, window);
    let views = || prop::collection::vec(view(&domains, window), 1..=4);
    let exponent = prop_oneof![4 => 0..=3u32, 1 => 4..=40u32];
    let terms = prop::collection::vec((coefficient_in(window), v()), 1..=3);
    let linear = (terms, common::relation()).prop_flat_map({
        let domains = domains.clone();
        move |(terms, relation)| {
            rhs_for(window, domains.clone(), terms.clone())
                .prop_map(move |rhs| Spec::Linear(terms.clone(), relation, rhs))
        }
    });
    prop_oneof![
        1 => (v(), v(), any::<bool>()).prop_map(|(a, b, s)| Spec::Less(a, b, s)),
        2 => (v(), v(), v()).prop_map(|(x, y, z)| Spec::Times(x, y, z)),
        2 => (v(), v(), v()).prop_map(|(x, y, z)| Spec::Div(x, y, z)),
        2 => (v(), v(), v()).prop_map(|(x, y, z)| Spec::Mod(x, y, z)),
        2 => (v(), v()).prop_map(|(x, z)| Spec::Abs(x, z)),
        2 => (v(), v(), v()).prop_map(|(x, y, z)| Spec::AbsDifference(x, y, z)),
        2 => (v(), exponent, v()).prop_map(|(x, k, z)| Spec::Power(x, k, z)),
        2 => (views(), v(), any::<bool>()).prop_map(|(xs, z, m)| Spec::Extremum(xs, z, m)),
        2 => (views(), v(), v()).prop_map(|(xs, i, z)| Spec::ElementVar(xs, i, z)),
        1 => views().prop_map(Spec::AllDifferent),
        1 => linear,
    ]
}

/// `count` specs over `domains`, drawn once the domains are known.
fn with_specs(
    window: Window,
    domains: impl Strategy<Value = Vec<Vec<i32>>>,
    count: std::ops::RangeInclusive<usize>,
) -> impl Strategy<Value = Problem> {
    domains.prop_flat_map(move |domains| {
        prop::collection::vec(spec(window, domains.clone()), count.clone()).prop_map(move |specs| {
            Problem {
                domains: domains.clone(),
                specs,
            }
        })
    })
}

/// 1 to 5 variables of up to 5 values in one window (near zero or at the edges),
/// with 1 to 3 constraints.
fn problem() -> impl Strategy<Value = Problem> {
    (case_window(), 1usize..=5).prop_flat_map(|(window, vars)| {
        with_specs(
            window,
            prop::collection::vec(domain_in(window, 5), vars),
            1..=3,
        )
    })
}

/// More variables than the store copies the cells of (so it trails), all fixed but 5
/// with 1 to 3 values each, under 2 to 5 constraints over any of them.
fn many_variables() -> impl Strategy<Value = Problem> {
    case_window().prop_flat_map(|window| {
        let domains = mostly_fixed(window, common::TRAILING_PADDING, 5, 3);
        with_specs(window, domains, 2..=5)
    })
}

/// Minima and maxima sharing variables, with holes from `!=` and `linear`, taken
/// through a random walk of pushed and popped levels (each fixes one variable).
#[derive(Clone, Debug)]
struct Walk {
    problem: Problem,
    /// `Some((var, value))` pushes a level, `None` pops the latest.
    steps: Vec<Option<(usize, i32)>>,
}

fn walk() -> impl Strategy<Value = Walk> {
    (case_window(), 2usize..=5).prop_flat_map(|(window, vars)| {
        prop::collection::vec(domain_in(window, 6), vars).prop_flat_map(move |domains| {
            let extremum = (
                prop::collection::vec(view(&domains, window), 1..=5),
                view(&domains, window),
                any::<bool>(),
            )
                .prop_map(|(xs, z, m)| Spec::Extremum(xs, z, m));
            let linear = (
                prop::collection::vec((coefficient_in(window), view(&domains, window)), 1..=2),
                common::relation(),
            )
                .prop_flat_map({
                    let domains = domains.clone();
                    move |(terms, relation)| {
                        rhs_for(window, domains.clone(), terms.clone())
                            .prop_map(move |rhs| Spec::Linear(terms.clone(), relation, rhs))
                    }
                });
            let specs = prop::collection::vec(prop_oneof![3 => extremum, 1 => linear], 1..=4);
            let picked = {
                let domains = domains.clone();
                (0..vars, any::<prop::sample::Index>())
                    .prop_map(move |(var, pick)| (var, *pick.get(&domains[var])))
            };
            let step = prop::option::weighted(0.7, picked);
            (specs, prop::collection::vec(step, 1..=8)).prop_map(move |(specs, steps)| Walk {
                problem: Problem {
                    domains: domains.clone(),
                    specs,
                },
                steps,
            })
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// After each step of the walk, the levels propagate as a fresh solver does
    /// (see `common::check_levels`), over the specs the model accepts.
    #[test]
    fn levels_propagate_as_a_fresh_solver(case in walk()) {
        let problem = case.problem.accepted()?;
        common::check_levels(&problem.brute_force(), &case.steps, &|| problem.build())?;
    }
}
