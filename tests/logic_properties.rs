//! Booleans, logic constraints and reification against brute force: on small random
//! models that mix clauses, conjunctions, parity, reified `or`/`and` and reified or
//! half-reified conditions with all-different and linear constraints, the solver finds
//! exactly the assignments that enumeration finds, under every search order. The
//! integer domains, the views' offsets and the constants come from one window per case
//! (`common::edges`: word boundaries, spans of a word and a bit or two, negative values,
//! the ends of `i32`, holes); a constraint the model refuses must be one whose views
//! leave `i32` or whose sums could overflow `i64`, and the oracle
//! (in `i128`) checks the others. Some models have more variables than the store copies
//! (mostly fixed, with long clauses whose watches must move far), some a domain wider
//! than 64 values.

mod common;

use std::collections::BTreeSet;

use alldiff::{Condition, Literal, Model, ModelError, Relation, Solver, VarId, View};
use common::constants::{case_window, coefficient_in, offset_in, rhs_for};
use common::edges::{Window, domain_in, value_in, view_fits, window_spanning};
use common::refusal::{accepted_over, sum_may_overflow};
use common::relation_holds;
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

fn at(values: &[i32], (var, offset): ViewSpec) -> i128 {
    i128::from(values[var]) + i128::from(offset)
}

fn lit_true(values: &[i32], (var, negated): Lit) -> bool {
    (values[var] == 1) != negated
}

fn sum(values: &[i32], terms: &[(i32, ViewSpec)]) -> i128 {
    terms
        .iter()
        .map(|&(a, v)| i128::from(a) * at(values, v))
        .sum()
}

/// Whether a view of `domains` leaves `i32` (the model refuses it).
fn overflows(domains: &[Vec<i32>], &(var, offset): &ViewSpec) -> bool {
    !view_fits(&domains[var], offset)
}

impl CondSpec {
    fn holds(&self, values: &[i32]) -> bool {
        match self {
            CondSpec::Compare(v, relation, c) => {
                relation_holds(*relation, at(values, *v), i128::from(*c))
            }
            CondSpec::CompareViews(a, relation, b) => {
                relation_holds(*relation, at(values, *a), at(values, *b))
            }
            CondSpec::InSet(v, set) => set.iter().any(|&c| i128::from(c) == at(values, *v)),
            CondSpec::NotInSet(v, set) => set.iter().all(|&c| i128::from(c) != at(values, *v)),
            CondSpec::Linear(terms, relation, rhs) => {
                relation_holds(*relation, sum(values, terms), i128::from(*rhs))
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

    /// Whether the model may refuse the condition: a view leaves `i32`, or a linear
    /// one's sums could overflow.
    fn may_refuse(&self, domains: &[Vec<i32>]) -> bool {
        let overflows = |v: &ViewSpec| overflows(domains, v);
        match self {
            CondSpec::Compare(x, _, _) | CondSpec::InSet(x, _) | CondSpec::NotInSet(x, _) => {
                overflows(x)
            }
            CondSpec::CompareViews(a, _, b) => overflows(a) || overflows(b),
            CondSpec::Linear(terms, _, rhs) => {
                terms.iter().any(|(_, v)| overflows(v)) || sum_may_overflow(domains, terms, *rhs)
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
                let seen: BTreeSet<i128> = views.iter().map(|&v| at(values, v)).collect();
                seen.len() == views.len()
            }
            Spec::Linear(terms, relation, rhs) => {
                relation_holds(*relation, sum(values, terms), i128::from(*rhs))
            }
        }
    }

    fn post(&self, model: &mut Model, vars: &[VarId]) -> Result<(), ModelError> {
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
        posted.map(drop)
    }

    /// Whether the model may refuse the spec (see [`CondSpec::may_refuse`]).
    fn may_refuse(&self, domains: &[Vec<i32>]) -> bool {
        match self {
            Spec::Reify(_, cond, _) => cond.may_refuse(domains),
            Spec::AllDifferent(views) => views.iter().any(|v| overflows(domains, v)),
            Spec::Linear(terms, _, rhs) => {
                terms.iter().any(|(_, v)| overflows(domains, v))
                    || sum_may_overflow(domains, terms, *rhs)
            }
            _ => false,
        }
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

fn view(vars: usize, window: Window) -> impl Strategy<Value = ViewSpec> + Clone {
    (0..vars, offset_in(window))
}

/// 1 to 3 terms over views of `vars` variables.
fn terms(vars: usize, window: Window) -> impl Strategy<Value = Vec<(i32, ViewSpec)>> + Clone {
    prop::collection::vec((coefficient_in(window), view(vars, window)), 1..=3)
}

/// A linear `terms ⋈ rhs`, the right-hand side one the sum nearly reaches.
fn linear<T: std::fmt::Debug + 'static>(
    window: Window,
    domains: Vec<Vec<i32>>,
    terms: impl Strategy<Value = Vec<(i32, ViewSpec)>> + 'static,
    make: impl Fn(Vec<(i32, ViewSpec)>, Relation, i32) -> T + Clone + 'static,
) -> BoxedStrategy<T> {
    terms
        .prop_flat_map(move |terms| {
            let make = make.clone();
            let rhs = rhs_for(window, domains.clone(), terms.clone());
            (rhs, common::relation()).prop_map(move |(rhs, r)| make(terms.clone(), r, rhs))
        })
        .boxed()
}

/// `b <-> C` or `b -> C`, for every kind of condition, its constants drawn from
/// `window`.
fn reified(
    bools: usize,
    domains: Vec<Vec<i32>>,
    window: Window,
    negate: f64,
) -> BoxedStrategy<Spec> {
    let vars = domains.len();
    let view = view(vars, window);
    let set = prop::collection::vec(value_in(window), 0..=4);
    // x - y ⋈ c, as `int_lin_le_reif` states a precedence: propagated on bounds.
    let difference = (view.clone(), view.clone(), any::<bool>()).prop_map(|(x, y, flip)| {
        let a = if flip { -1 } else { 1 };
        vec![(a, x), (-a, y)]
    });
    let cond = prop_oneof![
        (view.clone(), common::relation(), value_in(window))
            .prop_map(|(x, r, c)| CondSpec::Compare(x, r, c)),
        (view.clone(), common::relation(), view.clone())
            .prop_map(|(a, r, b)| CondSpec::CompareViews(a, r, b)),
        (view.clone(), set.clone()).prop_map(|(x, s)| CondSpec::InSet(x, s)),
        (view, set).prop_map(|(x, s)| CondSpec::NotInSet(x, s)),
        linear(
            window,
            domains.clone(),
            terms(vars, window),
            CondSpec::Linear
        ),
        linear(window, domains, difference, CondSpec::Linear),
    ];
    (lit(bools, negate), cond.boxed(), any::<bool>())
        .prop_map(|(b, c, half)| Spec::Reify(b, c, half))
        .boxed()
}

/// Any constraint: logic, reified, all-different or linear.
fn spec(
    bools: usize,
    domains: Vec<Vec<i32>>,
    window: Window,
    negate: f64,
) -> impl Strategy<Value = Spec> {
    let vars = domains.len();
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
        3 => reified(bools, domains.clone(), window, negate),
        1 => prop::collection::vec(view(vars, window), 1..=3).prop_map(Spec::AllDifferent),
        1 => linear(window, domains, terms(vars, window), Spec::Linear),
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

/// How the integers are drawn: from a window `windows` draws, each of up to `width`
/// of its values, or, with `whole`, the whole window less up to 8 holes.
#[derive(Clone, Debug)]
struct Ints<W> {
    count: std::ops::RangeInclusive<usize>,
    windows: W,
    width: usize,
    whole: bool,
}

/// Booleans, then integers as `ints` says, then `specs` constraints.
fn problem<W: Strategy<Value = Window> + Clone>(
    bools: std::ops::RangeInclusive<usize>,
    how: Bools,
    ints: Ints<W>,
    (specs, reified_only): (std::ops::RangeInclusive<usize>, bool),
) -> impl Strategy<Value = Problem> {
    let Ints {
        count,
        windows,
        width,
        whole,
    } = ints;
    (bools, count, windows).prop_flat_map(move |(bools, ints, window)| {
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
        let int_domain = if whole {
            let span = window.span;
            prop::collection::btree_set(1..span - 1, 0..=8)
                .prop_map(move |holes| {
                    (0..span)
                        .filter(|i| !holes.contains(i))
                        .map(|i| window.at(i))
                        .collect()
                })
                .boxed()
        } else {
            domain_in(window, width).boxed()
        };
        let specs = specs.clone();
        (
            prop::collection::vec(bool_domain, bools),
            prop::collection::vec(int_domain, ints),
        )
            .prop_flat_map(move |(b, i)| {
                let domains: Vec<Vec<i32>> = b.into_iter().chain(i).collect();
                let spec = if reified_only {
                    reified(bools, domains.clone(), window, how.negate).boxed()
                } else {
                    spec(bools, domains.clone(), window, how.negate).boxed()
                };
                prop::collection::vec(spec, specs.clone()).prop_map(move |specs| Problem {
                    bools,
                    domains: domains.clone(),
                    specs,
                })
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
        spec.post(&mut model, &vars).unwrap();
    }
    (model, vars)
}

/// The solver agrees with brute force under `configs`, over the specs the model
/// accepts; each refusal must be one [`Spec::may_refuse`] allows.
fn check(problem: &Problem, configs: &[alldiff::SearchConfig]) -> Result<(), TestCaseError> {
    prop_assert!(problem.bools <= problem.domains.len());
    let may_refuse = |s: &Spec| s.may_refuse(&problem.domains);
    let specs = accepted_over(&problem.domains, &problem.specs, Spec::post, may_refuse)?;
    let problem = &Problem {
        specs,
        ..problem.clone()
    };
    common::check_solutions(&brute_force(problem), configs, &|| build(problem))
}

/// Small integer domains: near zero or at the edges, up to 4 values each.
fn small_ints(
    count: std::ops::RangeInclusive<usize>,
) -> Ints<impl Strategy<Value = Window> + Clone> {
    Ints {
        count,
        windows: case_window(),
        width: 4,
        whole: false,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn small_models_match_brute_force(problem in problem(
        1..=5, Bools { fixed: 0.2, ones: 0.5, negate: 0.5 }, small_ints(0..=3), (1..=5, false),
    )) {
        check(&problem, &common::all_configs())?;
    }

    /// Reified and half-reified conditions alone, so that each kind is met often.
    #[test]
    fn reified_conditions_match_brute_force(problem in problem(
        1..=3, Bools { fixed: 0.2, ones: 0.5, negate: 0.5 }, small_ints(1..=3), (1..=2, true),
    )) {
        check(&problem, &common::all_configs())?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// More variables than the store copies, nearly all fixed Booleans: long clauses
    /// and parity constraints whose watches must skip many false or fixed literals.
    #[test]
    fn many_variables_match_brute_force(problem in problem(
        common::TRAILING_PADDING..=common::TRAILING_PADDING + 10,
        Bools { fixed: 0.98, ones: 0.1, negate: 0.1 },
        Ints { width: 3, ..small_ints(0..=2) },
        (2..=6, false),
    )) {
        prop_assert!(common::domain_cells(&problem.domains) > common::COPY_CELLS);
        check(&problem, &common::all_configs()[..3])?;
    }

    /// An integer domain wider than 64 values (a window of a word and a bit, or two,
    /// less a few holes) under reified conditions.
    #[test]
    fn wide_domains_match_brute_force(problem in problem(
        2..=4,
        Bools { fixed: 0.1, ones: 0.5, negate: 0.5 },
        Ints { count: 1..=1, windows: window_spanning(65u32..=130), width: 0, whole: true },
        (1..=4, false),
    )) {
        prop_assert!(common::has_multi_word_domain(&problem.domains));
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
                    relation_holds(relation, count as i128, i128::from(k))
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
