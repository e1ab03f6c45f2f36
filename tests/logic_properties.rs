//! Booleans, logic constraints and reification against brute force: on small random
//! models that mix clauses, conjunctions, parity, reified `or`/`and` and reified or
//! half-reified conditions with all-different and linear constraints, the solver finds
//! exactly the assignments that enumeration finds, under every search order. Some models
//! have over 128 variables (mostly fixed, with long clauses whose watches must move far),
//! some a domain wider than 64 values.

mod common;

use std::collections::BTreeSet;

use alldiff::{Condition, Literal, Model, Relation, Solver, VarId, View};
use proptest::prelude::*;

/// A literal as the oracle sees it: a Boolean variable's index, negated or not.
type Lit = (usize, bool);
/// A view: a variable's index and an offset.
type ViewSpec = (usize, i32);

#[derive(Clone, Debug)]
enum CondSpec {
    Compare(ViewSpec, Relation, i32),
    CompareViews(ViewSpec, Relation, ViewSpec),
    InSet(ViewSpec, Vec<i32>),
    NotInSet(ViewSpec, Vec<i32>),
    Linear(Vec<(i32, ViewSpec)>, Relation, i32),
}

#[derive(Clone, Debug)]
enum Spec {
    Or(Vec<Lit>),
    And(Vec<Lit>),
    Xor(Vec<Lit>),
    Implies(Lit, Lit),
    ReifyOr(Lit, Vec<Lit>),
    ReifyAnd(Lit, Vec<Lit>),
    Reify(Lit, CondSpec, bool),
    AllDifferent(Vec<ViewSpec>),
    Linear(Vec<(i32, ViewSpec)>, Relation, i32),
}

fn holds_relation(relation: Relation, lhs: i64, rhs: i64) -> bool {
    match relation {
        Relation::Equal => lhs == rhs,
        Relation::NotEqual => lhs != rhs,
        Relation::LessEq => lhs <= rhs,
        Relation::GreaterEq => lhs >= rhs,
    }
}

fn at(values: &[i32], (var, offset): ViewSpec) -> i64 {
    i64::from(values[var]) + i64::from(offset)
}

fn lit_true(values: &[i32], (var, negated): Lit) -> bool {
    (values[var] == 1) != negated
}

fn sum(values: &[i32], terms: &[(i32, ViewSpec)]) -> i64 {
    terms
        .iter()
        .map(|&(a, v)| i64::from(a) * at(values, v))
        .sum()
}

impl CondSpec {
    fn holds(&self, values: &[i32]) -> bool {
        match self {
            CondSpec::Compare(v, relation, c) => {
                holds_relation(*relation, at(values, *v), i64::from(*c))
            }
            CondSpec::CompareViews(a, relation, b) => {
                holds_relation(*relation, at(values, *a), at(values, *b))
            }
            CondSpec::InSet(v, set) => set.iter().any(|&c| i64::from(c) == at(values, *v)),
            CondSpec::NotInSet(v, set) => set.iter().all(|&c| i64::from(c) != at(values, *v)),
            CondSpec::Linear(terms, relation, rhs) => {
                holds_relation(*relation, sum(values, terms), i64::from(*rhs))
            }
        }
    }

    fn build(&self, vars: &[VarId]) -> Condition {
        let v = |(var, offset): ViewSpec| -> View { vars[var] + offset };
        match self {
            CondSpec::Compare(x, relation, c) => Condition::compare(v(*x), *relation, *c),
            CondSpec::CompareViews(a, relation, b) => {
                Condition::compare_views(v(*a), *relation, v(*b))
            }
            CondSpec::InSet(x, set) => Condition::in_set(v(*x), set.iter().copied()),
            CondSpec::NotInSet(x, set) => Condition::not_in_set(v(*x), set.iter().copied()),
            CondSpec::Linear(terms, relation, rhs) => {
                Condition::linear(terms.iter().map(|&(a, x)| (a, v(x))), *relation, *rhs)
            }
        }
    }
}

impl Spec {
    fn holds(&self, values: &[i32]) -> bool {
        let t = |l: &Lit| lit_true(values, *l);
        match self {
            Spec::Or(lits) => lits.iter().any(t),
            Spec::And(lits) => lits.iter().all(t),
            Spec::Xor(lits) => lits.iter().filter(|l| t(l)).count() % 2 == 1,
            Spec::Implies(a, b) => !t(a) || t(b),
            Spec::ReifyOr(target, lits) => t(target) == lits.iter().any(t),
            Spec::ReifyAnd(target, lits) => t(target) == lits.iter().all(t),
            Spec::Reify(b, cond, half) => {
                let c = cond.holds(values);
                if *half { !t(b) || c } else { t(b) == c }
            }
            Spec::AllDifferent(views) => {
                let seen: BTreeSet<i64> = views.iter().map(|&v| at(values, v)).collect();
                seen.len() == views.len()
            }
            Spec::Linear(terms, relation, rhs) => {
                holds_relation(*relation, sum(values, terms), i64::from(*rhs))
            }
        }
    }

    fn post(&self, model: &mut Model, vars: &[VarId]) {
        let lit = |&(var, negated): &Lit| -> Literal {
            if negated {
                !vars[var]
            } else {
                vars[var].into()
            }
        };
        let lits = |ls: &[Lit]| -> Vec<Literal> { ls.iter().map(lit).collect() };
        let v = |(var, offset): ViewSpec| -> View { vars[var] + offset };
        let posted = match self {
            Spec::Or(ls) => model.or(lits(ls)),
            Spec::And(ls) => model.and(lits(ls)),
            Spec::Xor(ls) => model.xor(lits(ls)),
            Spec::Implies(a, b) => model.implies(lit(a), lit(b)),
            Spec::ReifyOr(target, ls) => model.reify_or(lit(target), lits(ls)),
            Spec::ReifyAnd(target, ls) => model.reify_and(lit(target), lits(ls)),
            Spec::Reify(b, cond, false) => model.reify(lit(b), cond.build(vars)),
            Spec::Reify(b, cond, true) => model.half_reify(lit(b), cond.build(vars)),
            Spec::AllDifferent(views) => model.all_different(views.iter().map(|&x| v(x))),
            Spec::Linear(terms, relation, rhs) => {
                model.linear(terms.iter().map(|&(a, x)| (a, v(x))), *relation, *rhs)
            }
        };
        posted.unwrap();
    }
}

#[derive(Clone, Debug)]
struct Problem {
    /// The first `bools` variables are Boolean.
    bools: usize,
    domains: Vec<Vec<i32>>,
    specs: Vec<Spec>,
}

fn lit(bools: usize, negate: f64) -> impl Strategy<Value = Lit> + Clone {
    (0..bools, prop::bool::weighted(negate))
}

fn view(vars: usize) -> impl Strategy<Value = ViewSpec> + Clone {
    (0..vars, -2..=2i32)
}

fn terms(vars: usize) -> impl Strategy<Value = Vec<(i32, ViewSpec)>> + Clone {
    prop::collection::vec((-3..=3i32, view(vars)), 1..=3)
}

/// `b <-> C` or `b -> C`, for every kind of condition.
fn reified(bools: usize, vars: usize, values: i32, negate: f64) -> impl Strategy<Value = Spec> {
    let set = prop::collection::vec(-values..=values, 0..=4);
    let cond = prop_oneof![
        (view(vars), common::relation(), -values..=values)
            .prop_map(|(x, r, c)| CondSpec::Compare(x, r, c)),
        (view(vars), common::relation(), view(vars))
            .prop_map(|(a, r, b)| CondSpec::CompareViews(a, r, b)),
        (view(vars), set.clone()).prop_map(|(x, s)| CondSpec::InSet(x, s)),
        (view(vars), set).prop_map(|(x, s)| CondSpec::NotInSet(x, s)),
        (terms(vars), common::relation(), -6..=6i32)
            .prop_map(|(t, r, c)| CondSpec::Linear(t, r, c)),
        // x - y ⋈ c, as `int_lin_le_reif` states a precedence: propagated on bounds.
        (
            view(vars),
            view(vars),
            any::<bool>(),
            common::relation(),
            -6..=6i32
        )
            .prop_map(|(x, y, flip, r, c)| {
                let a = if flip { -1 } else { 1 };
                CondSpec::Linear(vec![(a, x), (-a, y)], r, c)
            }),
    ];
    (lit(bools, negate), cond, any::<bool>()).prop_map(|(b, c, half)| Spec::Reify(b, c, half))
}

/// Any constraint: logic, reified, all-different or linear.
fn spec(bools: usize, vars: usize, values: i32, negate: f64) -> impl Strategy<Value = Spec> {
    let lit = move || lit(bools, negate);
    let lits = move |max: usize| prop::collection::vec(lit(), 1..=max);
    let long = bools.max(2);
    prop_oneof![
        1 => lits(long).prop_map(Spec::Or),
        1 => lits(3).prop_map(Spec::And),
        1 => lits(long).prop_map(Spec::Xor),
        1 => (lit(), lit()).prop_map(|(a, b)| Spec::Implies(a, b)),
        1 => (lit(), lits(long)).prop_map(|(t, ls)| Spec::ReifyOr(t, ls)),
        1 => (lit(), lits(long)).prop_map(|(t, ls)| Spec::ReifyAnd(t, ls)),
        3 => reified(bools, vars, values, negate),
        1 => prop::collection::vec(view(vars), 1..=3).prop_map(Spec::AllDifferent),
        1 => (terms(vars), common::relation(), -6..=6i32).prop_map(|(t, r, c)| Spec::Linear(t, r, c)),
    ]
}

/// How the Booleans are drawn: each is fixed with probability `fixed`, to 0 unless
/// `ones` says 1; each literal is negated with probability `negate`.
#[derive(Clone, Copy, Debug)]
struct Bools {
    fixed: f64,
    ones: f64,
    negate: f64,
}

/// Booleans, then integers over subsets of `-values..=values` of up to `width` values,
/// then `specs` constraints.
fn problem(
    bools: std::ops::RangeInclusive<usize>,
    ints: std::ops::RangeInclusive<usize>,
    how: Bools,
    (values, width): (i32, usize),
    (specs, reified_only): (std::ops::RangeInclusive<usize>, bool),
) -> impl Strategy<Value = Problem> {
    (bools, ints).prop_flat_map(move |(bools, ints)| {
        // Drawn as "free", which shrinks to fixed: shrinking keeps brute force small.
        let bool_domain = (
            prop::bool::weighted(1.0 - how.fixed),
            prop::bool::weighted(how.ones),
        )
            .prop_map(|(free, one)| {
                if free {
                    vec![0, 1]
                } else {
                    vec![i32::from(one)]
                }
            });
        // A wide domain is the whole range less a few holes.
        let int_domain = if width > 64 {
            prop::collection::btree_set(-values..=values, 0..=8)
                .prop_map(move |holes| (-values..=values).filter(|v| !holes.contains(v)).collect())
                .boxed()
        } else {
            prop::collection::btree_set(-values..=values, 1..=width)
                .prop_map(|s| s.into_iter().collect::<Vec<i32>>())
                .boxed()
        };
        (
            prop::collection::vec(bool_domain, bools),
            prop::collection::vec(int_domain, ints),
            prop::collection::vec(
                if reified_only {
                    reified(bools, bools + ints, values, how.negate).boxed()
                } else {
                    spec(bools, bools + ints, values, how.negate).boxed()
                },
                specs.clone(),
            ),
        )
            .prop_map(move |(b, i, specs)| Problem {
                bools,
                domains: b.into_iter().chain(i).collect(),
                specs,
            })
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
        spec.post(&mut model, &vars);
    }
    (model, vars)
}

fn check(problem: &Problem, configs: &[alldiff::SearchConfig]) -> Result<(), TestCaseError> {
    prop_assert!(problem.bools <= problem.domains.len());
    common::check_solutions(&brute_force(problem), configs, &|| build(problem))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn small_models_match_brute_force(problem in problem(
        1..=5, 0..=3, Bools { fixed: 0.2, ones: 0.5, negate: 0.5 }, (3, 4), (1..=5, false),
    )) {
        check(&problem, &common::all_configs())?;
    }

    /// Reified and half-reified conditions alone, so that each kind is met often.
    #[test]
    fn reified_conditions_match_brute_force(problem in problem(
        1..=3, 1..=3, Bools { fixed: 0.2, ones: 0.5, negate: 0.5 }, (3, 4), (1..=2, true),
    )) {
        check(&problem, &common::all_configs())?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// Over 128 variables, nearly all fixed Booleans: long clauses and parity constraints
    /// whose watches must skip many false or fixed literals.
    #[test]
    fn many_variables_match_brute_force(problem in problem(
        130..=140, 0..=2, Bools { fixed: 0.96, ones: 0.1, negate: 0.1 }, (3, 3), (2..=6, false),
    )) {
        check(&problem, &common::all_configs()[..3])?;
    }

    /// An integer domain wider than 64 values under reified conditions.
    #[test]
    fn wide_domains_match_brute_force(problem in problem(
        2..=4, 1..=1, Bools { fixed: 0.1, ones: 0.5, negate: 0.5 }, (40, 81), (1..=4, false),
    )) {
        check(&problem, &common::all_configs()[..3])?;
    }
}

/// "At least `k` of the literals are true" through `linear`: each negated literal `¬b`
/// counts as `1 - b`, coefficient -1 and one less on the right-hand side.
#[test]
fn counting_literals_through_linear_matches_enumeration() {
    let negated = [false, true, false, true, true];
    for k in 0..=6 {
        for relation in [
            Relation::Equal,
            Relation::GreaterEq,
            Relation::LessEq,
            Relation::NotEqual,
        ] {
            let mut model = Model::new();
            let b = model.bool_vars(negated.len()).unwrap();
            let shift = negated.iter().filter(|&&n| n).count() as i32;
            let terms = b
                .iter()
                .zip(negated)
                .map(|(&v, n)| (if n { -1 } else { 1 }, v));
            model.linear(terms, relation, k - shift).unwrap();
            let expected = (0u32..32)
                .filter(|bits| {
                    let count = (0..5)
                        .filter(|&i| (bits >> i & 1 == 1) != negated[i])
                        .count();
                    holds_relation(relation, count as i64, i64::from(k))
                })
                .count() as u64;
            assert_eq!(
                Solver::new(model).count(None).solutions,
                expected,
                "{relation} {k}"
            );
        }
    }
}
