//! Reification of any constraint that can state its negation ([`Reifiable`]), against
//! brute force: fully (`b <-> C`) and half (`b -> C`) reified tables and a
//! reifiable constraint of this file's own ([`SameParity`]), with literals negated or
//! not, mixed with clauses and all-different, under every search order. The domains,
//! offsets and tuple entries come from one window per case (`common::edges`: word
//! boundaries, spans of a word and a bit or two, negative values, the ends of `i32`,
//! holes); a constraint the model refuses must be one whose views leave `i32`. The
//! tables are sparse (a few tuples near the views' values) or dense (most assignments
//! of the domains), so that the negation, a negative table, has values to remove.
//!
//! Beyond agreeing with brute force, a reified table must do what its documentation
//! claims at the root when no variable appears twice: fix an open literal exactly when
//! the domains entail the table or its negation, and, with the literal false, keep
//! exactly the values some assignment outside the table uses.

mod common;

use std::collections::BTreeSet;

use alldiff::constraints::Table;
use alldiff::{
    Conflict, Context, Literal, Model, ModelError, PostContext, Reifiable, Solver, VarId, View,
    Wake,
};
use common::constants::{case_window, clamp_i32, offset_in};
use common::edges::{Window, domain_in, value_in, view_fits};
use common::refusal::accepted_over;
use proptest::prelude::*;

/// `x + y` is even: a reifiable constraint written outside the library. Its negation,
/// `x + y` odd, is the same propagation with the other parity.
#[derive(Clone, Debug)]
struct SameParity {
    x: View,
    y: View,
}

/// The parity (0 or 1) every value of `view` has, if they all have one.
fn parity(ctx: &Context<'_>, view: View) -> Option<i32> {
    let mut values = ctx.values(view).map(|v| v.rem_euclid(2));
    let first = values.next()?;
    values.all(|p| p == first).then_some(first)
}

/// Removes the values of `view` whose parity is not `wanted`.
fn keep_parity(ctx: &mut Context<'_>, view: View, wanted: i32) -> Result<(), Conflict> {
    let wrong: Vec<i32> = ctx
        .values(view)
        .filter(|v| v.rem_euclid(2) != wanted)
        .collect();
    wrong
        .into_iter()
        .try_for_each(|v| ctx.remove(view, v).map(drop))
}

impl Reifiable for SameParity {
    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        ctx.watch_all([self.x, self.y], Wake::Domain)
    }

    fn entailment(&mut self, ctx: &Context<'_>) -> Option<bool> {
        Some(parity(ctx, self.x)? == parity(ctx, self.y)?)
    }

    /// Once one side has one parity, the other takes the parity the sum needs.
    fn enforce(&mut self, ctx: &mut Context<'_>, holds: bool) -> Result<(), Conflict> {
        let flip = i32::from(!holds);
        if let Some(p) = parity(ctx, self.x) {
            keep_parity(ctx, self.y, p ^ flip)?;
        }
        if let Some(p) = parity(ctx, self.y) {
            keep_parity(ctx, self.x, p ^ flip)?;
        }
        Ok(())
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        let at = |v: View| i64::from(value(v.var)) + i64::from(v.offset);
        (at(self.x) + at(self.y)).rem_euclid(2) == 0
    }

    fn is_idempotent(&self) -> bool {
        true
    }
}

/// A literal: a Boolean variable's index, negated or not.
type Lit = (usize, bool);
/// A view: a variable's index and an offset.
type ViewSpec = (usize, i32);

#[derive(Clone, Debug)]
enum Kind {
    Table(Vec<ViewSpec>, Vec<Vec<i32>>),
    SameParity(ViewSpec, ViewSpec),
}

#[derive(Clone, Debug)]
enum Spec {
    /// `b <-> C` (full) or `b -> C` (half, `true`).
    Reify(Lit, Kind, bool),
    Or(Vec<Lit>),
    AllDifferent(Vec<ViewSpec>),
}

fn at(values: &[i32], (var, offset): ViewSpec) -> i128 {
    i128::from(values[var]) + i128::from(offset)
}

fn lit_true(values: &[i32], (var, negated): Lit) -> bool {
    (values[var] == 1) != negated
}

fn literal(vars: &[VarId], (var, negated): Lit) -> Literal {
    let lit = Literal::from(vars[var]);
    if negated { !lit } else { lit }
}

fn view(vars: &[VarId], (var, offset): ViewSpec) -> View {
    vars[var] + offset
}

impl Kind {
    fn holds(&self, values: &[i32]) -> bool {
        match self {
            Kind::Table(views, tuples) => tuples.iter().any(|tuple| {
                (views.iter().zip(tuple)).all(|(&v, &entry)| at(values, v) == i128::from(entry))
            }),
            Kind::SameParity(x, y) => (at(values, *x) + at(values, *y)).rem_euclid(2) == 0,
        }
    }

    fn views(&self) -> Vec<ViewSpec> {
        match self {
            Kind::Table(views, _) => views.clone(),
            Kind::SameParity(x, y) => vec![*x, *y],
        }
    }

    fn post(&self, model: &mut Model, b: Literal, vars: &[VarId], half: bool) -> PostResult {
        let v = |spec: &ViewSpec| view(vars, *spec);
        match (self, half) {
            (Kind::Table(views, tuples), false) => {
                model.reify(b, Table::new(views.iter().map(v), tuples))
            }
            (Kind::Table(views, tuples), true) => {
                model.half_reify(b, Table::new(views.iter().map(v), tuples))
            }
            (Kind::SameParity(x, y), false) => model.reify(b, SameParity { x: v(x), y: v(y) }),
            (Kind::SameParity(x, y), true) => model.half_reify(b, SameParity { x: v(x), y: v(y) }),
        }
    }
}

type PostResult = Result<alldiff::ConstraintId, ModelError>;

impl Spec {
    fn holds(&self, values: &[i32]) -> bool {
        match self {
            Spec::Reify(b, kind, half) => {
                let (b, c) = (lit_true(values, *b), kind.holds(values));
                if *half { !b || c } else { b == c }
            }
            Spec::Or(lits) => lits.iter().any(|&l| lit_true(values, l)),
            Spec::AllDifferent(views) => {
                let seen: BTreeSet<i128> = views.iter().map(|&v| at(values, v)).collect();
                seen.len() == views.len()
            }
        }
    }

    fn post(&self, model: &mut Model, vars: &[VarId]) -> Result<(), ModelError> {
        let posted = match self {
            Spec::Reify(b, kind, half) => kind.post(model, literal(vars, *b), vars, *half),
            Spec::Or(lits) => model.or(lits.iter().map(|&l| literal(vars, l))),
            Spec::AllDifferent(views) => model.all_different(views.iter().map(|&v| view(vars, v))),
        };
        posted.map(drop)
    }

    /// Whether the model may refuse the spec: one of its views leaves `i32`.
    fn may_refuse(&self, domains: &[Vec<i32>]) -> bool {
        let views = match self {
            Spec::Reify(_, kind, _) => kind.views(),
            Spec::Or(_) => Vec::new(),
            Spec::AllDifferent(views) => views.clone(),
        };
        (views.iter()).any(|&(var, offset)| !view_fits(&domains[var], offset))
    }
}

#[derive(Clone, Debug)]
struct Problem {
    /// The first `bools` variables are Boolean.
    bools: usize,
    domains: Vec<Vec<i32>>,
    specs: Vec<Spec>,
}

/// A view of one of the integer variables (after `bools` Booleans).
fn int_view(bools: usize, vars: usize, window: Window) -> impl Strategy<Value = ViewSpec> + Clone {
    (bools..vars, offset_in(window))
}

/// The values of `view` over `domains`, clamped into `i32` (a view past it is refused).
fn view_values(domains: &[Vec<i32>], (var, offset): ViewSpec) -> Vec<i32> {
    (domains[var].iter())
        .map(|&v| clamp_i32(i128::from(v) + i128::from(offset)))
        .collect()
}

/// Every assignment of the views' values: the tuples a dense table picks from.
fn assignments(domains: &[Vec<i32>], views: &[ViewSpec]) -> Vec<Vec<i32>> {
    views.iter().fold(vec![Vec::new()], |partial, &v| {
        let values = view_values(domains, v);
        (partial.iter())
            .flat_map(|tuple| {
                values.iter().map(move |&x| {
                    let mut longer = tuple.clone();
                    longer.push(x);
                    longer
                })
            })
            .collect()
    })
}

/// Tuples for `views`: a few, each entry a value of its view's or of the window (so
/// that some match), or most assignments of the views' values (so that the negation
/// removes values), in any order, maybe repeated.
fn tuples(
    domains: Vec<Vec<i32>>,
    views: Vec<ViewSpec>,
    window: Window,
) -> BoxedStrategy<Vec<Vec<i32>>> {
    let entry = |values: Vec<i32>| {
        prop_oneof![
            2 => any::<prop::sample::Index>().prop_map(move |pick| *pick.get(&values)),
            1 => value_in(window),
        ]
    };
    let tuple: Vec<_> = (views.iter())
        .map(|&v| entry(view_values(&domains, v)))
        .collect();
    let sparse = prop::collection::vec(tuple, 0..=6);
    let all = assignments(&domains, &views);
    let dense = prop::collection::vec(prop::bool::weighted(0.8), all.len()).prop_map(move |keep| {
        let mut kept: Vec<Vec<i32>> = (all.iter().zip(keep))
            .filter(|(_, keep)| *keep)
            .map(|(tuple, _)| tuple.clone())
            .collect();
        kept.reverse();
        if let Some(first) = kept.first().cloned() {
            kept.push(first);
        }
        kept
    });
    prop_oneof![sparse, dense].boxed()
}

/// A reified table over 1 to 3 views, or a reified [`SameParity`].
fn reified(bools: usize, domains: Vec<Vec<i32>>, window: Window) -> BoxedStrategy<Spec> {
    let vars = domains.len();
    let view = int_view(bools, vars, window);
    let table = prop::collection::vec(view.clone(), 1..=3).prop_flat_map(move |views| {
        let tuples = tuples(domains.clone(), views.clone(), window);
        tuples.prop_map(move |tuples| Kind::Table(views.clone(), tuples))
    });
    let parity = (view.clone(), view).prop_map(|(x, y)| Kind::SameParity(x, y));
    let lit = (0..bools, any::<bool>());
    (lit, prop_oneof![2 => table, 1 => parity], any::<bool>())
        .prop_map(|(b, kind, half)| Spec::Reify(b, kind, half))
        .boxed()
}

/// 1 to 3 Booleans, 1 to 3 integers of up to 4 values in one window, and 1 to 3
/// constraints, reified ones mostly.
fn problem() -> impl Strategy<Value = Problem> {
    (1usize..=3, 1usize..=3, case_window()).prop_flat_map(|(bools, ints, window)| {
        let bool_domain = prop_oneof![
            3 => Just(vec![0, 1]),
            1 => Just(vec![0]),
            1 => Just(vec![1]),
        ];
        (
            prop::collection::vec(bool_domain, bools),
            prop::collection::vec(domain_in(window, 4), ints),
        )
            .prop_flat_map(move |(b, i)| {
                let domains: Vec<Vec<i32>> = b.into_iter().chain(i).collect();
                let vars = domains.len();
                let lits = prop::collection::vec((0..bools, any::<bool>()), 1..=3);
                let spec = prop_oneof![
                    4 => reified(bools, domains.clone(), window),
                    1 => lits.prop_map(Spec::Or),
                    1 => prop::collection::vec(int_view(bools, vars, window), 2..=3)
                        .prop_map(Spec::AllDifferent),
                ];
                prop::collection::vec(spec, 1..=3).prop_map(move |specs| Problem {
                    bools,
                    domains: domains.clone(),
                    specs,
                })
            })
    })
}

/// One reified table over distinct variables: a literal, then 1 to 3 integers of up
/// to 4 values in one window, each the variable of one view.
#[derive(Clone, Debug)]
struct LoneTable {
    domains: Vec<Vec<i32>>,
    views: Vec<ViewSpec>,
    tuples: Vec<Vec<i32>>,
    /// `b -> table` rather than `b <-> table`.
    half: bool,
}

fn lone_table() -> impl Strategy<Value = LoneTable> {
    (1usize..=3, case_window()).prop_flat_map(|(ints, window)| {
        let literal = prop_oneof![Just(vec![0, 1]), Just(vec![0]), Just(vec![1])];
        (
            literal,
            prop::collection::vec(domain_in(window, 4), ints),
            prop::collection::vec(offset_in(window), ints),
            any::<bool>(),
        )
            .prop_flat_map(move |(b, ints, offsets, half)| {
                let domains: Vec<Vec<i32>> = std::iter::once(b).chain(ints).collect();
                let views: Vec<ViewSpec> = (1..).zip(offsets).collect();
                (tuples(domains.clone(), views.clone(), window)).prop_map(move |tuples| LoneTable {
                    domains: domains.clone(),
                    views: views.clone(),
                    tuples,
                    half,
                })
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn reified_tables_and_own_constraints_match_brute_force(problem in problem()) {
        let may_refuse = |s: &Spec| s.may_refuse(&problem.domains);
        let specs = accepted_over(&problem.domains, &problem.specs, Spec::post, may_refuse)?;
        let problem = &Problem { specs, ..problem.clone() };
        prop_assert!(problem.bools < problem.domains.len());
        let expected = common::brute_force(&problem.domains, &|values| {
            problem.specs.iter().all(|s| s.holds(values))
        });
        let build = || {
            common::build_model(&problem.domains, &problem.specs, |spec, model, vars| {
                spec.post(model, vars).unwrap()
            })
        };
        common::check_solutions(&expected, &common::all_configs(), &build)?;
    }

    /// At the root, over distinct variables: an open literal is fixed exactly when the
    /// domains entail the table (full reification only) or its negation; a false
    /// literal under full reification keeps exactly the values of the assignments
    /// outside the table.
    #[test]
    fn a_reified_table_decides_its_literal_and_its_negation_is_arc_consistent(
        table in lone_table(),
    ) {
        let LoneTable { domains, views, tuples, half } = table;
        let mut model = Model::new();
        let vars = common::vars(&mut model, &domains);
        let kind = Kind::Table(views.clone(), tuples);
        let fits = views.iter().all(|&(var, offset)| view_fits(&domains[var], offset));
        let posted = kind.post(&mut model, vars[0].into(), &vars, half);
        common::edges::check_posted(posted, fits)?;
        if !fits {
            return Ok(());
        }
        let ints = &domains[1..];
        let inside: Vec<bool> = common::brute_force(ints, &|_| true)
            .into_iter()
            .map(|mut values| {
                values.insert(0, 0);
                kind.holds(&values)
            })
            .collect();
        let root = Solver::new(model).root_domains();
        match domains[0].as_slice() {
            [0, 1] => {
                let expected: &[i32] = match (inside.iter().all(|&t| t), inside.iter().any(|&t| t)) {
                    (true, _) if !half => &[1],
                    (_, false) => &[0],
                    _ => &[0, 1],
                };
                prop_assert_eq!(&root.unwrap()[0], expected);
            }
            [0] if !half => {
                let outside = common::brute_force(ints, &|values| {
                    let mut all = vec![0];
                    all.extend_from_slice(values);
                    !kind.holds(&all)
                });
                let mut kept = vec![BTreeSet::new(); ints.len()];
                for assignment in &outside {
                    for (set, &v) in kept.iter_mut().zip(assignment) {
                        set.insert(v);
                    }
                }
                match root {
                    None => prop_assert!(outside.is_empty(), "failed with an assignment outside"),
                    Some(root) => {
                        let kept: Vec<Vec<i32>> =
                            kept.into_iter().map(|s| s.into_iter().collect()).collect();
                        prop_assert_eq!(&root[1..], kept.as_slice());
                    }
                }
            }
            _ => {}
        }
    }
}
