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
        2 => (v(), v()).prop_map(|(x, z)| Spec::Abs(x, z)),
        2 => (v(), 0..=3u32, v()).prop_map(|(x, k, z)| Spec::Power(x, k, z)),
        2 => (views(), v(), any::<bool>()).prop_map(|(xs, z, m)| Spec::Extremum(xs, z, m)),
        2 => (views(), v(), v()).prop_map(|(xs, i, z)| Spec::ElementVar(xs, i, z)),
        1 => views().prop_map(Spec::AllDifferent),
        1 => (prop::collection::vec((-2..=2i32, v()), 1..=3), common::relation(), -4..=4i32)
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
    common::brute_force(&problem.domains, &|values| {
        problem.specs.iter().all(|s| s.holds(values))
    })
}

fn build(problem: &Problem) -> (Model, Vec<VarId>) {
    let mut model = Model::new();
    let vars = common::vars(&mut model, &problem.domains);
    for spec in &problem.specs {
        spec.post(&mut model, &vars).unwrap();
    }
    (model, vars)
}

/// The solver agrees with brute force under each configuration, and root
/// propagation keeps every value a solution uses.
fn check(problem: &Problem, configs: &[SearchConfig]) -> Result<(), TestCaseError> {
    common::check_solutions(&brute_force(problem), configs, &|| build(problem))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn small_models_match_brute_force(problem in problem()) {
        let configs = common::all_configs();
        check(&problem, &[configs[0], configs[4], configs[8]])?;
    }

    #[test]
    fn many_variables_match_brute_force(problem in many_variables()) {
        let configs = common::all_configs();
        check(&problem, &[SearchConfig::default(), configs[8]])?;
    }
}

/// One arithmetic constraint over wide domains: `x` spans 70 to 5000 values (beyond
/// both the 64 of a one-word domain and the 4096 of the domain reasoning).
#[derive(Clone, Debug)]
struct Wide {
    operation: usize,
    x: (i32, i32),
    y: Vec<i32>,
    z: (i32, i32),
}

impl Wide {
    const NAMES: [&'static str; 6] = ["times", "div", "modulo", "abs", "square", "cube"];

    /// `op(x, y)`, if defined (`y` is ignored by the unary ones).
    fn apply(&self, x: i64, y: i64) -> Option<i64> {
        match self.operation {
            0 => Some(x * y),
            1 => x.checked_div(y),
            2 => x.checked_rem(y),
            3 => Some(x.abs()),
            4 => Some(x * x),
            _ => Some(x * x * x),
        }
    }

    fn is_binary(&self) -> bool {
        self.operation < 3
    }
}

/// `x` spans 0 (a random share of its values are negative); `z` is a random part of
/// the results' hull, so that most cases have solutions.
fn wide() -> impl Strategy<Value = Wide> {
    (
        0..6usize,
        prop_oneof![6 => 70..=200i64, 1 => 4100..=4500i64],
        0..=100i64,
        domain(-5..=5, 4),
        (0..=100i64, 0..=100i64),
    )
        .prop_map(|(operation, width, negative, y, (start, length))| {
            // Cubes stay within the 32-bit range.
            let width = if operation == 5 {
                width.min(1000)
            } else {
                width
            };
            let x_lo = -width * negative / 100;
            let case = Wide {
                operation,
                x: (x_lo as i32, (x_lo + width) as i32),
                y,
                z: (0, 0),
            };
            let results: Vec<i64> = (case.x.0..=case.x.1)
                .flat_map(|x| case.y.iter().map(move |&y| (x, y)))
                .filter_map(|(x, y)| case.apply(x.into(), y.into()))
                .collect();
            let lo = results.iter().copied().min().unwrap_or(0);
            let hi = results.iter().copied().max().unwrap_or(0);
            let z_lo = lo + (hi - lo) * start / 100;
            let z_hi = (z_lo + (hi - z_lo) * length / 100).min(z_lo + 20_000);
            Wide {
                z: (z_lo as i32, z_hi as i32),
                ..case
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn wide_domains_match_enumeration(case in wide()) {
        let mut expected = BTreeSet::new();
        let ys: Vec<i32> = if case.is_binary() { case.y.clone() } else { vec![0] };
        for x in case.x.0..=case.x.1 {
            for &y in &ys {
                let z = case.apply(x.into(), y.into());
                if let Some(z) = z.filter(|z| (case.z.0.into()..=case.z.1.into()).contains(z)) {
                    expected.insert((x, y, z as i32));
                }
            }
        }
        let mut model = Model::new();
        let x = model.int_var(case.x.0, case.x.1).unwrap();
        let y = model.var_from_values(ys.iter().copied()).unwrap();
        let z = model.int_var(case.z.0, case.z.1).unwrap();
        match case.operation {
            0 => model.times(x, y, z),
            1 => model.div(x, y, z),
            2 => model.modulo(x, y, z),
            3 => model.abs(x, z),
            4 => model.power(x, 2, z),
            _ => model.power(x, 3, z),
        }.unwrap();
        let mut solver = Solver::new(model);
        let found: BTreeSet<(i32, i32, i32)> =
            solver.solutions().map(|s| (s[x], s[y], s[z])).collect();
        prop_assert_eq!(found, expected, "{}", Wide::NAMES[case.operation]);
    }
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
    (2usize..=5).prop_flat_map(|vars| {
        let extremum = (
            prop::collection::vec(view(vars), 1..=5),
            view(vars),
            any::<bool>(),
        )
            .prop_map(|(xs, z, m)| Spec::Extremum(xs, z, m));
        let linear = (
            prop::collection::vec((-2..=2i32, view(vars)), 1..=2),
            common::relation(),
            -3..=3i32,
        )
            .prop_map(|(t, r, c)| Spec::Linear(t, r, c));
        let specs = prop::collection::vec(prop_oneof![3 => extremum, 1 => linear], 1..=4);
        let step = prop::option::weighted(0.7, (0..vars, -5..=5i32));
        (
            prop::collection::vec(domain(-5..=5, 6), vars),
            specs,
            prop::collection::vec(step, 1..=8),
        )
            .prop_map(|(domains, specs, steps)| Walk {
                problem: Problem { domains, specs },
                steps,
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// After each step of the walk, the levels propagate as a fresh solver does
    /// (see `common::check_levels`).
    #[test]
    fn levels_propagate_as_a_fresh_solver(case in walk()) {
        common::check_levels(&brute_force(&case.problem), &case.steps, &|| build(&case.problem))?;
    }
}

/// Exact root domains after posting `build`'s constraints on fresh variables.
fn root(build: impl FnOnce(&mut Model) -> Result<(), ModelError>) -> Vec<Vec<i32>> {
    let mut model = Model::new();
    build(&mut model).unwrap();
    Solver::new(model)
        .root_domains()
        .expect("consistent at the root")
}

fn range(lo: i32, hi: i32) -> Vec<i32> {
    (lo..=hi).collect()
}

#[test]
fn times_prunes_over_the_signs() {
    let domains = root(|m| {
        let x = m.int_var(-4, 4)?;
        let y = m.int_var(-3, -1)?;
        let z = m.int_var(5, 12)?;
        m.times(x, y, z).map(drop)
    });
    // z > 0 and y < 0: x < 0; then |x| >= 2 and |y| >= 2 for a product of 5 or more.
    assert_eq!(domains, vec![range(-4, -2), range(-3, -2), range(5, 12)]);
    // A fixed factor makes the other and the product domain consistent.
    let domains = root(|m| {
        let x = m.int_var(-5, 5)?;
        let three = m.var_from_values([-3])?;
        let z = m.var_from_values([-9, -7, 0, 4, 6, 12])?;
        m.times(x, three, z).map(drop)
    });
    assert_eq!(
        domains,
        vec![vec![-4, -2, 0, 3], vec![-3], vec![-9, 0, 6, 12]]
    );
}

#[test]
fn div_removes_zero_and_bounds_the_divisor() {
    let domains = root(|m| {
        let x = m.int_var(-10, 10)?;
        let y = m.int_var(-3, 3)?;
        let z = m.var_from_values([4])?;
        m.div(x, y, z).map(drop)
    });
    // x / y == 4 needs |y| <= 2 and 4|y| <= |x| <= 4|y| + |y| - 1.
    assert_eq!(domains, vec![range(-9, 9), vec![-2, -1, 1, 2], vec![4]]);
    let domains = root(|m| {
        let x = m.int_var(-7, 7)?;
        let y = m.var_from_values([-2])?;
        let z = m.int_var(-10, 10)?;
        m.div(x, y, z).map(drop)
    });
    assert_eq!(domains, vec![range(-7, 7), vec![-2], range(-3, 3)]);
    // A divisor that can only be 0: no solution.
    let mut model = Model::new();
    let x = model.int_var(0, 3).unwrap();
    let zero = model.var_from_values([0]).unwrap();
    model.div(x, zero, x).unwrap();
    assert_eq!(Solver::new(model).root_domains(), None);
}

#[test]
fn modulo_follows_the_sign_of_the_dividend() {
    let domains = root(|m| {
        let x = m.int_var(-10, 10)?;
        let y = m.int_var(-4, 4)?;
        let z = m.int_var(2, 3)?;
        m.modulo(x, y, z).map(drop)
    });
    // z > 0: x > 0 with x >= z, and |y| > z.
    assert_eq!(domains, vec![range(2, 10), vec![-4, -3, 3, 4], range(2, 3)]);
    let domains = root(|m| {
        let x = m.int_var(-7, -1)?;
        let y = m.var_from_values([-3, 3])?;
        let z = m.int_var(-9, 9)?;
        m.modulo(x, y, z).map(drop)
    });
    assert_eq!(domains, vec![range(-7, -1), vec![-3, 3], range(-2, 0)]);
}

#[test]
fn abs_and_power_keep_the_supported_values() {
    let domains = root(|m| {
        let x = m.int_var(-5, 5)?;
        let z = m.int_var(-30, 10)?;
        m.power(x, 3, z).map(drop)
    });
    assert_eq!(domains, vec![range(-3, 2), vec![-27, -8, -1, 0, 1, 8]]);
    let domains = root(|m| {
        let x = m.int_var(-3, 3)?;
        let z = m.int_var(-5, 5)?;
        m.power(x, 0, z).map(drop)
    });
    assert_eq!(domains, vec![range(-3, 3), vec![1]]);
    // Bounds first, then the domain reasoning once x is small.
    let domains = root(|m| {
        let x = m.int_var(-3000, 3000)?;
        let z = m.int_var(-50, 17)?;
        m.power(x, 2, z).map(drop)
    });
    assert_eq!(domains, vec![range(-4, 4), vec![0, 1, 4, 9, 16]]);
    // Too wide for the domain reasoning: bounds, with the middle cut for an even power.
    let domains = root(|m| {
        let x = m.int_var(-5000, 5000)?;
        let z = m.int_var(100, 16_000_000)?;
        m.power(x, 2, z).map(drop)
    });
    let mut x = range(-4000, -10);
    x.extend(range(10, 4000));
    assert_eq!(domains[0], x);
    assert_eq!(domains[1].len(), 16_000_000 - 99);
    let domains = root(|m| {
        let x = m.int_var(-3000, 3000)?;
        let z = m.int_var(5, 17)?;
        m.abs(x + 1, z).map(drop)
    });
    let mut x = range(-18, -6);
    x.extend(range(4, 16));
    assert_eq!(domains, vec![x, range(5, 17)]);
}

#[test]
fn orderings_minimum_and_maximum_prune_bounds() {
    let domains = root(|m| {
        let x = m.int_var(-5, 5)?;
        let y = m.int_var(-5, 5)?;
        let minus_two = m.var_from_values([-2])?;
        m.greater(x, y + 3)?; // x > y + 3
        m.greater_eq(y, minus_two).map(drop)
    });
    assert_eq!(domains, vec![range(2, 5), range(-2, 1), vec![-2]]);
    let domains = root(|m| {
        let a = m.int_var(-9, 9)?;
        let b = m.int_var(3, 9)?;
        let low = m.int_var(-20, 5)?;
        let minus_four = m.var_from_values([-4])?;
        m.minimum([a, b], low)?;
        m.less(low, minus_four).map(drop)
    });
    // Only a can be the minimum below -4.
    assert_eq!(domains[0], range(-9, -5));
    assert_eq!(domains[2], range(-9, -5));
}

#[test]
fn element_var_removes_unreachable_indices_on_bounds() {
    // Wide domains: bounds reasoning only.
    let domains = root(|m| {
        let xs = [
            m.int_var(0, 100)?,
            m.int_var(200, 300)?,
            m.int_var(150, 250)?,
        ];
        let i = m.int_var(-3, 7)?;
        let v = m.int_var(120, 190)?;
        m.element_var(xs, i, v).map(drop)
    });
    assert_eq!(domains[3], vec![2]);
    assert_eq!(domains[2], range(150, 190));
    assert_eq!(domains[4], range(150, 190));
}

#[test]
fn overflow_is_refused_when_posting_and_names_the_constraint() {
    let refused = |build: &dyn Fn(&mut Model) -> Result<alldiff::ConstraintId, ModelError>| {
        let mut model = Model::new();
        match build(&mut model) {
            Err(ModelError::InvalidConstraint { constraint, .. }) => constraint,
            other => panic!("expected an overflow error, got {other:?}"),
        }
    };
    let accepted = |build: &dyn Fn(&mut Model) -> Result<alldiff::ConstraintId, ModelError>| {
        build(&mut Model::new()).is_ok()
    };
    // 46341² > i32::MAX >= 46340².
    let times = |v: i32| {
        move |m: &mut Model| {
            let x = m.int_var(-v, 0)?;
            let z = m.int_var(0, 10)?;
            m.times(x, x, z)
        }
    };
    assert_eq!(refused(&times(46341)), "times");
    assert!(accepted(&times(46340)));
    // i32::MIN / -1.
    let div = |y_lo: i32| {
        move |m: &mut Model| {
            let x = m.int_var(i32::MIN, i32::MIN + 3)?;
            let y = m.int_var(y_lo, 3)?;
            let z = m.int_var(-5, 5)?;
            m.div(x, y, z)
        }
    };
    assert_eq!(refused(&div(-1)), "div");
    assert!(accepted(&div(1)));
    // |i32::MIN|.
    let abs = |lo: i32| {
        move |m: &mut Model| {
            let x = m.int_var(lo, lo + 3)?;
            let z = m.int_var(0, 5)?;
            m.abs(x, z)
        }
    };
    assert_eq!(refused(&abs(i32::MIN)), "abs");
    assert!(accepted(&abs(i32::MIN + 1)));
    // 2^31 overflows, (-2)^31 and 2^30 do not.
    let power = |lo: i32, hi: i32, k: u32| {
        move |m: &mut Model| {
            let x = m.int_var(lo, hi)?;
            let z = m.int_var(0, 5)?;
            m.power(x, k, z)
        }
    };
    assert_eq!(refused(&power(-2, 2, 31)), "power");
    assert!(accepted(&power(-2, 1, 31)));
    assert!(accepted(&power(-2, 2, 30)));
    assert_eq!(refused(&power(0, 10, 100)), "power");
}

#[test]
fn values_at_the_ends_of_the_range_stay_exact() {
    let mut model = Model::new();
    let x = model.var_from_values([i32::MIN, i32::MIN + 1]).unwrap();
    let minus_one = model.var_from_values([-1]).unwrap();
    let z = model.int_var(-1, 1).unwrap();
    model.modulo(x, minus_one, z).unwrap();
    let top = model.int_var(i32::MAX - 2, i32::MAX).unwrap();
    let next = model.int_var(i32::MAX - 2, i32::MAX).unwrap();
    model.less(top, next).unwrap();
    model.maximum([top, next, x], next).unwrap();
    let mut solver = Solver::new(model);
    assert_eq!(solver.count(None).solutions, 2 * 3);
    let domains = solver.root_domains().unwrap();
    assert_eq!(domains[2], vec![0]);
    assert_eq!(domains[3], vec![i32::MAX - 2, i32::MAX - 1]);

    let mut model = Model::new();
    let low = model.var_from_values([i32::MIN]).unwrap();
    let y = model.int_var(i32::MIN, i32::MIN + 5).unwrap();
    model.less(y, low).unwrap();
    assert_eq!(Solver::new(model).root_domains(), None);
}

#[test]
fn empty_operand_lists_and_foreign_variables_are_refused() {
    let mut model = Model::new();
    let z = model.int_var(0, 3).unwrap();
    let none: [VarId; 0] = [];
    assert!(matches!(
        model.maximum(none, z),
        Err(ModelError::NoVariables {
            constraint: "maximum"
        })
    ));
    let stranger = Model::new().int_var(0, 3).unwrap();
    assert!(matches!(
        model.times(z, stranger, z),
        Err(ModelError::ForeignVariable { .. })
    ));
    assert_eq!(model.constraint_count(), 0);
}
