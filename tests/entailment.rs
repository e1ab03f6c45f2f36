//! Entailment (subsumption): a propagator that says its constraint holds for every
//! assignment left ([`Context::entailed`]) is not run again below that point, and runs
//! again once the search backtracks above it. On small random models made of the
//! propagators that use it (half-reified and reified differences and sums, plain
//! inequalities of two to four and more than eight terms, clauses, `t <-> or(...)`, and
//! a propagator of this file's own), the solver finds exactly the brute-force
//! solutions under every search order, with levels pushed and popped, and when
//! minimising; a propagator wrongly said entailed, or an entailment not undone on
//! backtracking, loses or adds solutions here. The integer domains, offsets,
//! coefficients and right-hand sides come from one window per case (`common::edges`:
//! word boundaries, spans of a word and a bit or two, negative values, the ends of
//! `i32`, holes); a constraint the model refuses must be one whose views leave `i32`
//! or whose sums could overflow, and the oracle (in `i128`) checks the others.

mod common;

use std::collections::BTreeSet;

use alldiff::{
    Condition, Conflict, Context, Literal, Model, ModelError, PostContext, Propagator, Relation,
    Solver, VarId, View, Wake,
};
use common::constants::{case_window, coefficient_in, offset_in, rhs_for};
use common::edges::{Window, domain_in, value_in, view_fits};
use common::refusal::{accepted_over, sum_may_overflow};
use common::relation_holds;
use proptest::prelude::*;

/// `x + d <= y`, entailed once every value of `x + d` is at most every value of `y`:
/// a propagator outside the library that uses [`Context::entailed`].
#[derive(Clone, Debug)]
struct Precedes {
    x: VarId,
    d: i32,
    y: VarId,
}

impl Propagator for Precedes {
    fn name(&self) -> &'static str {
        "precedes"
    }
    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        ctx.watch_all([self.x, self.y], Wake::Bounds)
    }
    /// In `i64`: `x` below `i32::MIN` or `y` above `i32::MAX` is a conflict, a
    /// bound past the other end no bound at all.
    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let d = i64::from(self.d);
        let max_x = i64::from(ctx.max(self.y)) - d;
        if max_x < i64::from(i32::MIN) {
            return Err(Conflict);
        }
        if let Ok(max_x) = i32::try_from(max_x) {
            ctx.set_max(self.x, max_x)?;
        }
        let min_y = i64::from(ctx.min(self.x)) + d;
        if min_y > i64::from(i32::MAX) {
            return Err(Conflict);
        }
        if let Ok(min_y) = i32::try_from(min_y) {
            ctx.set_min(self.y, min_y)?;
        }
        if i64::from(ctx.max(self.x)) + d <= i64::from(ctx.min(self.y)) {
            ctx.entailed();
        }
        Ok(())
    }
    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        i64::from(value(self.x)) + i64::from(self.d) <= i64::from(value(self.y))
    }
}

/// A literal: a variable's index, negated or not.
type Lit = (usize, bool);

#[derive(Clone, Debug)]
enum Spec {
    /// `b -> x + dx <= y` and `!b -> y + dy <= x`: a disjunctive pair, as job-shop
    /// models state that two tasks do not overlap.
    Disjunctive(Lit, usize, i32, usize, i32),
    /// `b <-> Σ terms ⋈ rhs` (full) or `b -> Σ terms ⋈ rhs` (half).
    Reified(Lit, Vec<(i32, usize)>, Relation, i32, bool),
    /// `Σ terms ⋈ rhs`, an inequality.
    Linear(Vec<(i32, usize)>, Relation, i32),
    /// `or(lits)`.
    Clause(Vec<Lit>),
    /// `t <-> or(lits)`.
    ReifyOr(Lit, Vec<Lit>),
    /// [`Precedes`].
    Precedes(usize, i32, usize),
}

fn lit_true(values: &[i32], (var, negated): Lit) -> bool {
    (values[var] == 1) != negated
}

fn literal(vars: &[VarId], (var, negated): Lit) -> Literal {
    let lit = Literal::from(vars[var]);
    if negated { !lit } else { lit }
}

fn sum(values: &[i32], terms: &[(i32, usize)]) -> i128 {
    terms
        .iter()
        .map(|&(a, x)| i128::from(a) * i128::from(values[x]))
        .sum()
}

/// `values[x] + d`, wide enough not to overflow.
fn at(values: &[i32], x: usize, d: i32) -> i64 {
    i64::from(values[x]) + i64::from(d)
}

/// The terms as views without offsets, as [`sum_may_overflow`] reads them.
fn views(terms: &[(i32, usize)]) -> Vec<(i32, (usize, i32))> {
    terms.iter().map(|&(a, x)| (a, (x, 0))).collect()
}

impl Spec {
    fn holds(&self, values: &[i32]) -> bool {
        match self {
            &Spec::Disjunctive(b, x, dx, y, dy) => {
                if lit_true(values, b) {
                    at(values, x, dx) <= at(values, y, 0)
                } else {
                    at(values, y, dy) <= at(values, x, 0)
                }
            }
            Spec::Reified(b, terms, relation, rhs, full) => {
                let c = relation_holds(*relation, sum(values, terms), i128::from(*rhs));
                let b = lit_true(values, *b);
                if *full { b == c } else { !b || c }
            }
            Spec::Linear(terms, relation, rhs) => {
                relation_holds(*relation, sum(values, terms), i128::from(*rhs))
            }
            Spec::Clause(lits) => lits.iter().any(|&l| lit_true(values, l)),
            Spec::ReifyOr(t, lits) => {
                lit_true(values, *t) == lits.iter().any(|&l| lit_true(values, l))
            }
            &Spec::Precedes(x, d, y) => at(values, x, d) <= at(values, y, 0),
        }
    }

    /// Whether the model may refuse the spec: a view leaves `i32`, or a sum could
    /// overflow.
    fn may_refuse(&self, domains: &[Vec<i32>]) -> bool {
        match self {
            &Spec::Disjunctive(_, x, dx, y, dy) => {
                !view_fits(&domains[x], dx) || !view_fits(&domains[y], dy)
            }
            Spec::Reified(_, terms, _, rhs, _) | Spec::Linear(terms, _, rhs) => {
                sum_may_overflow(domains, &views(terms), *rhs)
            }
            Spec::Clause(_) | Spec::ReifyOr(..) | Spec::Precedes(..) => false,
        }
    }

    fn post(&self, model: &mut Model, vars: &[VarId]) -> Result<(), ModelError> {
        let terms = |terms: &[(i32, usize)]| -> Vec<(i32, View)> {
            terms
                .iter()
                .map(|&(a, x)| (a, View::from(vars[x])))
                .collect()
        };
        match self {
            &Spec::Disjunctive(b, x, dx, y, dy) => {
                let b = literal(vars, b);
                let before = Condition::compare_views(vars[x] + dx, Relation::LessEq, vars[y]);
                let after = Condition::compare_views(vars[y] + dy, Relation::LessEq, vars[x]);
                model.half_reify(b, before)?;
                model.half_reify(!b, after)?;
            }
            Spec::Reified(b, t, relation, rhs, full) => {
                let condition = Condition::linear(terms(t), *relation, *rhs);
                let b = literal(vars, *b);
                match full {
                    true => model.reify(b, condition)?,
                    false => model.half_reify(b, condition)?,
                };
            }
            Spec::Linear(t, relation, rhs) => {
                model.linear(terms(t), *relation, *rhs)?;
            }
            Spec::Clause(lits) => {
                model.or(lits.iter().map(|&l| literal(vars, l)))?;
            }
            Spec::ReifyOr(t, lits) => {
                let lits = lits.iter().map(|&l| literal(vars, l));
                model.reify_or(literal(vars, *t), lits)?;
            }
            &Spec::Precedes(x, d, y) => {
                model.post(Precedes {
                    x: vars[x],
                    d,
                    y: vars[y],
                })?;
            }
        }
        Ok(())
    }
}

#[derive(Clone, Debug)]
struct Problem {
    /// The Booleans first, then the integers.
    domains: Vec<Vec<i32>>,
    bools: usize,
    specs: Vec<Spec>,
    /// Levels to push (`Some((var, value))`) and pop (`None`), for `check_levels`.
    steps: Vec<Option<(usize, i32)>>,
}

/// A constraint over `bools` Booleans and the integers after them, its constants
/// drawn from `window`; `terms` bounds the length of sums.
fn spec(
    bools: usize,
    domains: &[Vec<i32>],
    window: Window,
    terms: std::ops::RangeInclusive<usize>,
) -> BoxedStrategy<Spec> {
    let n = domains.len();
    let lit = (0..bools, any::<bool>());
    let int = bools..n;
    let term = (coefficient_in(window), int.clone());
    let inequality = prop_oneof![Just(Relation::LessEq), Just(Relation::GreaterEq)];
    // A right-hand side some assignment nearly reaches.
    let with_rhs = {
        let domains = domains.to_vec();
        move |terms: Vec<(i32, usize)>| {
            let rhs = rhs_for(window, domains.clone(), views(&terms));
            (Just(terms), rhs)
        }
    };
    let sum = prop::collection::vec(term, terms).prop_flat_map(with_rhs);
    prop_oneof![
        3 => (lit.clone(), int.clone(), offset_in(window), int.clone(), offset_in(window))
            .prop_filter("two tasks", |(_, x, _, y, _)| x != y)
            .prop_map(|(b, x, dx, y, dy)| Spec::Disjunctive(b, x, dx, y, dy)),
        2 => (lit.clone(), sum.clone(), common::relation(), any::<bool>())
            .prop_map(|(b, (t, k), r, full)| Spec::Reified(b, t, r, k, full)),
        2 => (sum, inequality).prop_map(|((t, k), r)| Spec::Linear(t, r, k)),
        1 => prop::collection::vec(lit.clone(), 1..=3).prop_map(Spec::Clause),
        1 => (lit.clone(), prop::collection::vec(lit, 1..=3))
            .prop_map(|(t, lits)| Spec::ReifyOr(t, lits)),
        2 => (int.clone(), prop_oneof![3 => -1..=2i32, 1 => offset_in(window)], int)
            .prop_filter("two variables", |(x, _, y)| x != y)
            .prop_map(|(x, d, y)| Spec::Precedes(x, d, y)),
    ]
    .boxed()
}

/// `bools` Booleans (some fixed) and `ints` integers of up to `size` values of one
/// window (near zero or at the edges), with up to `specs` constraints; `terms` bounds
/// the length of sums.
fn problem(
    bools: usize,
    (ints, size): (usize, usize),
    specs: usize,
    terms: std::ops::RangeInclusive<usize>,
) -> impl Strategy<Value = Problem> {
    let n = bools + ints;
    let bool_domain = prop_oneof![Just(vec![0, 1]), Just(vec![0]), Just(vec![1])];
    case_window().prop_flat_map(move |window| {
        let domains = (
            prop::collection::vec(bool_domain.clone(), bools),
            prop::collection::vec(domain_in(window, size), ints),
        )
            .prop_map(|(b, i)| b.into_iter().chain(i).collect::<Vec<_>>());
        let terms = terms.clone();
        domains.prop_flat_map(move |domains| {
            let step = prop::option::weighted(0.7, (0..n, value_in(window)));
            (
                prop::collection::vec(spec(bools, &domains, window, terms.clone()), 1..=specs),
                prop::collection::vec(step, 0..=4),
            )
                .prop_map(move |(specs, steps)| Problem {
                    domains: domains.clone(),
                    bools,
                    specs,
                    steps,
                })
        })
    })
}

fn build(problem: &Problem) -> (Model, Vec<VarId>) {
    common::build_model(&problem.domains, &problem.specs, |spec, model, vars| {
        spec.post(model, vars).unwrap();
    })
}

/// The solutions under every search order, with levels, and the least value of the
/// last integer when minimising, against enumeration, over the specs the model
/// accepts (each refusal one [`Spec::may_refuse`] allows).
fn check(problem: &Problem) -> Result<(), TestCaseError> {
    prop_assert!(problem.bools < problem.domains.len());
    let may_refuse = |s: &Spec| s.may_refuse(&problem.domains);
    let specs = accepted_over(&problem.domains, &problem.specs, Spec::post, may_refuse)?;
    let problem = &Problem {
        specs,
        ..problem.clone()
    };
    let expected = common::brute_force(&problem.domains, &|values| {
        problem.specs.iter().all(|s| s.holds(values))
    });
    let build = || build(problem);
    common::check_solutions(&expected, &common::all_configs(), &build)?;
    common::check_levels(&expected, &problem.steps, &build)?;
    // Branch and bound: every new bound backtracks into nodes found entailed above.
    let last = problem.domains.len() - 1;
    let (model, vars) = build();
    let mut solver = Solver::new(model);
    let best = solver
        .minimize(vars[last])
        .unwrap()
        .last()
        .map(|s| s.map(|s| s.solution.value(vars[last])));
    let optimum = expected.iter().map(|s| s[last]).min();
    prop_assert_eq!(best.transpose(), Ok(optimum));
    // A second search on the same solver starts with nothing entailed.
    prop_assert_eq!(solver.count(None).solutions, expected.len() as u64);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn small_models_match_brute_force(problem in problem(2, (4, 4), 6, 2..=4)) {
        check(&problem)?;
    }

    /// Sums of nine terms or more: the incremental `Linear`, which keeps a log. Up to
    /// 3 values each (loose sums over 4^9 assignments took a minute).
    #[test]
    fn long_sums_match_brute_force(problem in problem(1, (9, 3), 3, 9..=10)) {
        check(&problem)?;
    }
}

/// Many fixed Booleans and domains over 64 values: more store cells than the 256 it
/// copies, so that the
/// store trails instead of copying, and the count of entailed propagators is trailed
/// with the domains.
#[test]
fn a_trailed_store_revives_entailed_propagators() {
    let mut model = Model::new();
    let ints: Vec<VarId> = (0..4).map(|_| model.int_var(0, 200).unwrap()).collect();
    // x_i + 1 <= x_j or x_j + 1 <= x_i for each pair, as disjunctive pairs, over 0..=3.
    for &x in &ints {
        model.linear([(1, x)], Relation::LessEq, 3).unwrap();
    }
    for i in 0..4 {
        for j in i + 1..4 {
            let b = model.bool_var().unwrap();
            let before = Condition::compare_views(ints[i] + 1, Relation::LessEq, ints[j]);
            let after = Condition::compare_views(ints[j] + 1, Relation::LessEq, ints[i]);
            model.half_reify(b, before).unwrap();
            model.half_reify(!Literal::from(b), after).unwrap();
        }
    }
    // 130 clauses `f or t` with `f` fixed false: 260 more cells, each `t` true.
    for _ in 0..130 {
        let f = model.int_var(0, 0).unwrap();
        let t = model.bool_var().unwrap();
        model.or([f, t]).unwrap();
    }
    // The four integers take distinct values of 0..=3, in any of 4! orders; each
    // pair's Boolean is then fixed by the order.
    let expected = 24;
    let mut solver = Solver::new(model);
    assert_eq!(solver.count(None).solutions, expected);
    assert_eq!(solver.count(None).solutions, expected);
}

/// An entailed propagator is not run again: `b -> x + 1 <= y` with `b` false is
/// entailed at the root, and a search over `x` and `y` runs it once.
#[test]
fn an_entailed_propagator_is_not_run_again() {
    let mut model = Model::new();
    let b = model.int_var(0, 0).unwrap();
    let x = model.int_var(0, 9).unwrap();
    let y = model.int_var(0, 9).unwrap();
    let condition = Condition::compare_views(x + 1, Relation::LessEq, y);
    model.half_reify(b, condition).unwrap();
    let mut solver = Solver::new(model);
    assert_eq!(solver.count(None).solutions, 100);
    assert_eq!(solver.statistics().propagations, 1);
}

/// The set of values each `Precedes` alone admits, as a sanity check of the oracle.
#[test]
fn precedes_alone_matches_its_definition() {
    let mut model = Model::new();
    let x = model.int_var(0, 4).unwrap();
    let y = model.int_var(0, 4).unwrap();
    model.post(Precedes { x, d: 2, y }).unwrap();
    let found: BTreeSet<(i32, i32)> = Solver::new(model)
        .solutions()
        .map(Result::unwrap)
        .map(|s| (s[x], s[y]))
        .collect();
    let expected: BTreeSet<(i32, i32)> = (0..=4)
        .flat_map(|x| (0..=4).map(move |y| (x, y)))
        .filter(|&(x, y)| x + 2 <= y)
        .collect();
    assert_eq!(found, expected);
}
