//! Entailment (subsumption): a propagator that says its constraint holds for every
//! assignment left ([`Context::entailed`]) is not run again below that point, and runs
//! again once the search backtracks above it. On small random models made of the
//! propagators that use it (half-reified and reified differences and sums, plain
//! inequalities of two to four and more than eight terms, clauses, `t <-> or(...)`, and
//! a propagator of this file's own), the solver finds exactly the brute-force
//! solutions under every search order, with levels pushed and popped, and when
//! minimising; a propagator wrongly said entailed, or an entailment not undone on
//! backtracking, loses or adds solutions here.

mod common;

use std::collections::BTreeSet;

use alldiff::{
    Condition, Conflict, Context, Literal, Model, ModelError, PostContext, Propagator, Relation,
    Solver, VarId, View, Wake,
};
use proptest::prelude::*;

/// `x + d <= y`, entailed once every value of `x + d` is at most every value of `y`:
/// a propagator outside the library that uses [`Context::entailed`].
#[derive(Debug)]
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
    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let max_y = ctx.max(self.y);
        ctx.set_max(self.x, max_y - self.d)?;
        let min_x = ctx.min(self.x);
        ctx.set_min(self.y, min_x + self.d)?;
        if ctx.max(self.x) + self.d <= ctx.min(self.y) {
            ctx.entailed();
        }
        Ok(())
    }
    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        value(self.x) + self.d <= value(self.y)
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

fn holds(relation: Relation, lhs: i64, rhs: i64) -> bool {
    match relation {
        Relation::LessEq => lhs <= rhs,
        Relation::GreaterEq => lhs >= rhs,
        Relation::Equal => lhs == rhs,
        Relation::NotEqual => lhs != rhs,
    }
}

fn sum(values: &[i32], terms: &[(i32, usize)]) -> i64 {
    terms
        .iter()
        .map(|&(a, x)| i64::from(a) * i64::from(values[x]))
        .sum()
}

impl Spec {
    fn holds(&self, values: &[i32]) -> bool {
        match self {
            &Spec::Disjunctive(b, x, dx, y, dy) => {
                if lit_true(values, b) {
                    values[x] + dx <= values[y]
                } else {
                    values[y] + dy <= values[x]
                }
            }
            Spec::Reified(b, terms, relation, rhs, full) => {
                let c = holds(*relation, sum(values, terms), i64::from(*rhs));
                let b = lit_true(values, *b);
                if *full { b == c } else { !b || c }
            }
            Spec::Linear(terms, relation, rhs) => {
                holds(*relation, sum(values, terms), i64::from(*rhs))
            }
            Spec::Clause(lits) => lits.iter().any(|&l| lit_true(values, l)),
            Spec::ReifyOr(t, lits) => {
                lit_true(values, *t) == lits.iter().any(|&l| lit_true(values, l))
            }
            &Spec::Precedes(x, d, y) => values[x] + d <= values[y],
        }
    }

    fn post(&self, model: &mut Model, vars: &[VarId]) {
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
                model.half_reify(b, before).unwrap();
                model.half_reify(!b, after).unwrap();
            }
            Spec::Reified(b, t, relation, rhs, full) => {
                let condition = Condition::linear(terms(t), *relation, *rhs);
                let b = literal(vars, *b);
                match full {
                    true => model.reify(b, condition).unwrap(),
                    false => model.half_reify(b, condition).unwrap(),
                };
            }
            Spec::Linear(t, relation, rhs) => {
                model.linear(terms(t), *relation, *rhs).unwrap();
            }
            Spec::Clause(lits) => {
                model.or(lits.iter().map(|&l| literal(vars, l))).unwrap();
            }
            Spec::ReifyOr(t, lits) => {
                let lits = lits.iter().map(|&l| literal(vars, l));
                model.reify_or(literal(vars, *t), lits).unwrap();
            }
            &Spec::Precedes(x, d, y) => {
                model
                    .post(Precedes {
                        x: vars[x],
                        d,
                        y: vars[y],
                    })
                    .unwrap();
            }
        }
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

/// `bools` Booleans (some fixed) and `ints` integers over subsets of 0..=4, with up to
/// `specs` constraints; `terms` bounds the length of sums.
fn problem(
    bools: usize,
    ints: usize,
    specs: usize,
    terms: std::ops::RangeInclusive<usize>,
) -> impl Strategy<Value = Problem> {
    let n = bools + ints;
    let bool_domain = prop_oneof![Just(vec![0, 1]), Just(vec![0]), Just(vec![1])];
    let int_domain = prop::collection::btree_set(0..=4i32, 1..=4)
        .prop_map(|d| d.into_iter().collect::<Vec<i32>>());
    let lit = (0..bools, any::<bool>());
    let int = bools..n;
    let term = (prop_oneof![Just(1), Just(-1), -3..=3i32], int.clone());
    let inequality = prop_oneof![Just(Relation::LessEq), Just(Relation::GreaterEq)];
    let spec = prop_oneof![
        3 => (lit.clone(), int.clone(), 0..=3i32, int.clone(), 0..=3i32)
            .prop_filter("two tasks", |(_, x, _, y, _)| x != y)
            .prop_map(|(b, x, dx, y, dy)| Spec::Disjunctive(b, x, dx, y, dy)),
        2 => (lit.clone(), prop::collection::vec(term.clone(), terms.clone()),
              common::relation(), -6..=10i32, any::<bool>())
            .prop_map(|(b, t, r, k, full)| Spec::Reified(b, t, r, k, full)),
        2 => (prop::collection::vec(term, terms), inequality, -6..=10i32)
            .prop_map(|(t, r, k)| Spec::Linear(t, r, k)),
        1 => prop::collection::vec(lit.clone(), 1..=3).prop_map(Spec::Clause),
        1 => (lit.clone(), prop::collection::vec(lit, 1..=3))
            .prop_map(|(t, lits)| Spec::ReifyOr(t, lits)),
        2 => (int.clone(), -1..=2i32, int)
            .prop_filter("two variables", |(x, _, y)| x != y)
            .prop_map(|(x, d, y)| Spec::Precedes(x, d, y)),
    ];
    let domains = (
        prop::collection::vec(bool_domain, bools),
        prop::collection::vec(int_domain, ints),
    )
        .prop_map(|(b, i)| b.into_iter().chain(i).collect::<Vec<_>>());
    let step = prop::option::weighted(0.7, (0..n, 0..=4i32));
    (
        domains,
        prop::collection::vec(spec, 1..=specs),
        prop::collection::vec(step, 0..=4),
    )
        .prop_map(move |(domains, specs, steps)| Problem {
            domains,
            bools,
            specs,
            steps,
        })
}

fn build(problem: &Problem) -> (Model, Vec<VarId>) {
    common::build_model(&problem.domains, &problem.specs, Spec::post)
}

/// The solutions under every search order, with levels, and the least value of the
/// last integer when minimising, against enumeration.
fn check(problem: &Problem) -> Result<(), TestCaseError> {
    prop_assert!(problem.bools < problem.domains.len());
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
        .map(|s| s.solution.value(vars[last]));
    prop_assert_eq!(best, expected.iter().map(|s| s[last]).min());
    // A second search on the same solver starts with nothing entailed.
    prop_assert_eq!(solver.count(None).solutions, expected.len() as u64);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn small_models_match_brute_force(problem in problem(2, 4, 6, 2..=4)) {
        check(&problem)?;
    }

    /// Sums of nine terms or more: the incremental `Linear`, which keeps a log.
    #[test]
    fn long_sums_match_brute_force(problem in problem(1, 9, 3, 9..=10)) {
        check(&problem)?;
    }
}

/// Many fixed Booleans and domains over 64 values: over 128 store cells, so that the
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
        .map(|s| (s[x], s[y]))
        .collect();
    let expected: BTreeSet<(i32, i32)> = (0..=4)
        .flat_map(|x| (0..=4).map(move |y| (x, y)))
        .filter(|&(x, y)| x + 2 <= y)
        .collect();
    assert_eq!(found, expected);
}
