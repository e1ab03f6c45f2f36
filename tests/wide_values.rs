//! Wide values: domains whose values lie far apart, or span a wide interval with
//! holes, cost by their number of values, and every constraint gives the same
//! answers over them as brute force over the few values in play (all-different at
//! every strength). The values sit at both ends of `i32`, on both sides of one and two
//! 64-value words, and in windows starting one before or after a multiple of 64.

use alldiff::{
    Condition, Model, Outcome, Relation, SearchConfig, Solver, Strength, ValueOrder, VarId,
    VariableOrder,
};
use proptest::prelude::*;

#[test]
fn domain_all_different_at_both_ends_of_i32_solves() {
    for strength in [Strength::Value, Strength::HiddenSingles, Strength::Domain] {
        let mut model = Model::new();
        let x = model.int_var(i32::MIN, i32::MIN + 1).unwrap();
        let y = model.int_var(i32::MAX - 1, i32::MAX).unwrap();
        model.all_different_with([x, y], strength).unwrap();
        let mut solver = Solver::new(model);
        let Outcome::Solved(s) = solver.solve() else {
            panic!("satisfiable");
        };
        assert_eq!((s[x], s[y]), (i32::MIN, i32::MAX - 1), "{strength:?}");
        assert_eq!(solver.count(None).solutions, 4);
    }
}

#[test]
fn matching_over_far_apart_values_prunes_a_hall_set() {
    // {MIN, MAX} twice is a Hall set: the third view must take 0.
    let mut model = Model::new();
    let a = model.var_from_values([i32::MIN, i32::MAX]).unwrap();
    let b = model.var_from_values([i32::MAX, i32::MIN]).unwrap();
    let c = model.var_from_values([i32::MIN, 0, i32::MAX]).unwrap();
    model
        .all_different_with([a, b, c], Strength::Domain)
        .unwrap();
    let domains = Solver::new(model).root_domains().unwrap();
    assert_eq!(domains[c.index()], vec![0]);
    assert_eq!(domains[a.index()], vec![i32::MIN, i32::MAX]);
}

#[test]
fn the_whole_i32_range_is_a_domain() {
    let mut model = Model::new();
    let x = model.int_var(i32::MIN, i32::MAX).unwrap();
    let ends = model.var_from_values([i32::MIN, i32::MAX]).unwrap();
    let zero = model.var_from_values([0]).unwrap();
    // x differs from both ends and from 0, and lies at most 1 from MIN... or MAX.
    model.not_equal(x, zero).unwrap();
    model.all_different([x, ends]).unwrap();
    model
        .linear([(1, x)], Relation::LessEq, i32::MIN + 2)
        .unwrap();
    let config = SearchConfig::new().value_order(ValueOrder::Descending);
    let mut solver = Solver::with_config(model, config);
    let Outcome::Solved(s) = solver.solve() else {
        panic!("satisfiable");
    };
    assert_eq!((s[x], s[ends]), (i32::MIN + 2, i32::MAX));
    // MIN, MIN + 1 and MIN + 2 for x, each with both ends but x's own.
    assert_eq!(solver.count(None).solutions, 5);
}

/// Each constraint that keeps a set of supported values narrows a view of the whole
/// `i32` range (what a FlatZinc `var int` is, clamped) to them at the root, reading
/// only where values can stay: read value by value, each of these domains would take
/// four billion steps and gigabytes of removals.
#[test]
fn supported_values_narrow_the_whole_i32_range_at_once() {
    type Post = fn(&mut Model, VarId, VarId);
    let cases: [(&str, Post, [&[i32]; 2]); 6] = [
        (
            "element",
            |m, i, w| {
                m.element(&[10, 3, 30, 27, 33, 0], i, w).unwrap();
            },
            [&[0, 1, 2, 3, 4, 5], &[0, 3, 10, 27, 30, 33]],
        ),
        (
            "element_var",
            |m, i, w| {
                let a = m.var_from_values([1, 2]).unwrap();
                let b = m.var_from_values([5]).unwrap();
                m.element_var([a, b], i, w).unwrap();
            },
            [&[0, 1], &[1, 2, 5]],
        ),
        (
            "table",
            |m, x, y| {
                m.table([x, y], &[vec![1, 2], vec![5, -7]]).unwrap();
            },
            [&[1, 5], &[-7, 2]],
        ),
        (
            "equal",
            |m, x, y| {
                let small = m.var_from_values([3, 7]).unwrap();
                m.equal(x, small).unwrap();
                m.equal(y, x).unwrap();
            },
            [&[3, 7], &[3, 7]],
        ),
        (
            "difference_in",
            |m, x, y| {
                let small = m.var_from_values([0, 10]).unwrap();
                m.difference_in(small, x, &[1, -1]).unwrap();
                m.difference_in(y, small, &[2]).unwrap();
            },
            [&[-1, 1, 9, 11], &[2, 12]],
        ),
        (
            "inverse",
            |m, x, y| {
                let g = m.int_vars(2, 0, 1).unwrap();
                m.inverse([x, y], 0, g, 0).unwrap();
            },
            [&[0, 1], &[0, 1]],
        ),
    ];
    for (name, post, expected) in cases {
        let mut model = Model::new();
        let x = model.int_var(i32::MIN, i32::MAX).unwrap();
        let y = model.int_var(i32::MIN, i32::MAX).unwrap();
        post(&mut model, x, y);
        let domains = Solver::new(model).root_domains().expect(name);
        assert_eq!(domains[x.index()], expected[0], "{name}");
        assert_eq!(domains[y.index()], expected[1], "{name}");
    }
}

/// The same for a reified membership, whose set is read rather than the domain, and
/// for an intersection of groups, which sees a domain wider than its group holds more
/// values than views without numbering them.
#[test]
fn membership_and_intersection_beside_the_whole_i32_range() {
    let mut model = Model::new();
    let x = model.int_var(i32::MIN, i32::MAX).unwrap();
    let b = model.bool_var().unwrap();
    model.reify(b, Condition::in_set(x, [6, 7, 100])).unwrap();
    model.reify(b, Condition::in_set(x, [7, 100, 200])).unwrap();
    let mut solver = Solver::new(model);
    solver.assume(b, 1).unwrap();
    let domains = solver.root_domains().expect("satisfiable");
    assert_eq!(domains[x.index()], [7, 100]);
    let Outcome::Solved(s) = solver.solve() else {
        panic!("satisfiable");
    };
    assert!([7, 100].contains(&s[x]));

    // Two fixed views of a group agree: the intersection fails at once.
    let mut model = Model::new();
    let x = model.int_var(i32::MIN, i32::MAX).unwrap();
    let (a, c) = (model.int_var(4, 4).unwrap(), model.int_var(4, 4).unwrap());
    let d = model.int_var(0, 9).unwrap();
    model.intersection([x, a, c], [x, d]).unwrap();
    assert!(Solver::new(model).root_domains().is_none());
}

#[test]
fn holes_inside_a_wide_interval_are_kept_and_undone() {
    let mut model = Model::new();
    let x = model.int_var(-5_000_000, 5_000_000).unwrap();
    let punch: Vec<i32> = (-3..=3).map(|i| i * 1000).collect();
    for &v in &punch {
        let fixed = model.var_from_values([v]).unwrap();
        model.not_equal(x, fixed).unwrap();
    }
    // x below 2,500 and above -2,500: only the holes at -2000..=2000 go inside.
    model.linear([(1, x)], Relation::LessEq, 2_500).unwrap();
    model.linear([(1, x)], Relation::GreaterEq, -2_500).unwrap();
    let mut solver = Solver::new(model);
    let root = solver.root_domains().unwrap();
    assert_eq!(root[x.index()].len(), 5_001 - 5);
    assert!(!root[x.index()].contains(&1_000) && root[x.index()].contains(&1_001));
    // Random value choice reaches far into the interval and back.
    let config = SearchConfig::new().value_order(ValueOrder::Random(7));
    solver.set_config(config);
    assert_eq!(solver.count(None).solutions, 5_001 - 5);
}

/// A model of `n` variables over `0..=10_000_000`: the sum of the first 1,000 is
/// fixed, the first 500 are all different in groups of 100, neighbours differ. Solves
/// with values near the bottom of each domain. (A sum over all `n` would tighten every
/// bound at each of the `n` levels of the search: a trail of `n`² entries, whatever
/// the domains.)
fn ten_million_wide(n: usize) -> (Model, Vec<VarId>) {
    let mut model = Model::new();
    let x = model.int_vars(n, 0, 10_000_000).unwrap();
    for group in x.chunks(100).take(5) {
        model.all_different(group.iter().copied()).unwrap();
    }
    for pair in x.windows(2) {
        model.not_equal(pair[0], pair[1]).unwrap();
    }
    model
        .linear(
            x.iter().take(1_000).map(|&v| (1, v)),
            Relation::Equal,
            60_000,
        )
        .unwrap();
    (model, x)
}

/// Solves [`ten_million_wide`] and checks the solution.
fn solve_ten_million_wide(n: usize) {
    let (model, x) = ten_million_wide(n);
    let config = SearchConfig::new().variable_order(VariableOrder::InputOrder);
    let mut solver = Solver::with_config(model, config);
    let Outcome::Solved(s) = solver.solve() else {
        panic!("satisfiable");
    };
    let values: Vec<i64> = x.iter().map(|&v| i64::from(s[v])).collect();
    assert_eq!(values.iter().take(1_000).sum::<i64>(), 60_000);
    assert!(values.windows(2).all(|p| p[0] != p[1]));
    for group in values.chunks(100).take(5) {
        let mut sorted = group.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), group.len());
    }
}

#[test]
fn two_thousand_variables_over_ten_million_values_solve() {
    solve_ten_million_wide(2_000);
}

/// The full size, for a release build (`cargo test --release --test wide_values --
/// --ignored`), where it runs in about a second and its peak memory can be measured;
/// a debug build takes minutes.
#[test]
#[ignore]
fn ten_thousand_variables_over_ten_million_values_solve() {
    solve_ten_million_wide(10_000);
}

/// Values far apart, at both ends of `i32` and in between, and on both sides of the
/// word boundaries at -64 and 64.
const FAR: [i32; 11] = [
    i32::MIN,
    i32::MIN + 1,
    -2_000_000_000,
    -70_000,
    -65,
    -64,
    0,
    63,
    1 << 30,
    i32::MAX - 1,
    i32::MAX,
];

/// Offsets inside one wide window: within a word, on both sides of one and two
/// 64-value words, and beyond several.
const NEAR: [i32; 11] = [0, 1, 63, 64, 65, 127, 128, 129, 200, 4_097, 9_999];

/// Where a window of 10,000 values may start: at both ends of `i32`, inside, and one
/// before or after a multiple of 64 (negative too).
const WINDOWS: [i32; 7] = [i32::MIN, -1_000_000_000, -193, 0, 63, 65, i32::MAX - 9_999];

/// How a variable's domain is made before its values in play are enforced.
#[derive(Clone, Copy, Debug)]
enum Shape {
    /// Exactly the values in play.
    Values,
    /// The whole window (an interval), narrowed to the values by a table.
    Interval,
    /// The window with a few holes (an interval with holes), narrowed by a table.
    Holes,
}

#[derive(Clone, Debug)]
struct Case {
    /// The values in play of each of 4 variables, ascending.
    values: Vec<Vec<i32>>,
    /// The window, if the values lie in one (else they are the far values).
    window: Option<i32>,
    shapes: Vec<Shape>,
    constraint: usize,
    /// Coefficients, offsets, tuples: the constraint's parameters, drawn small.
    coefs: Vec<i32>,
    picks: Vec<usize>,
    relation: Relation,
    config: SearchConfig,
}

fn case() -> impl Strategy<Value = Case> {
    let sets = prop::collection::vec(prop::collection::btree_set(0usize..FAR.len(), 1..=3), 4);
    let shape = prop_oneof![
        Just(Shape::Values),
        Just(Shape::Interval),
        Just(Shape::Holes)
    ];
    let relation = prop_oneof![
        Just(Relation::Equal),
        Just(Relation::NotEqual),
        Just(Relation::LessEq),
        Just(Relation::GreaterEq),
    ];
    let variable_order = prop_oneof![
        Just(VariableOrder::InputOrder),
        Just(VariableOrder::SmallestDomain),
        Just(VariableOrder::DomOverWeightedDegree),
    ];
    let value_order = prop_oneof![
        Just(ValueOrder::Ascending),
        Just(ValueOrder::Descending),
        any::<u64>().prop_map(ValueOrder::Random),
    ];
    (
        sets,
        prop::option::of(0usize..WINDOWS.len()),
        prop::collection::vec(shape, 4),
        0usize..11,
        prop::collection::vec(-2i32..=2, 4),
        prop::collection::vec(0usize..64, 12),
        relation,
        (variable_order, value_order),
    )
        .prop_map(
            |(sets, window, shapes, constraint, coefs, picks, relation, (var, val))| {
                let window = window.map(|w| WINDOWS[w]);
                let values = sets
                    .into_iter()
                    .map(|set| {
                        set.into_iter()
                            .map(|i| match window {
                                Some(base) => base + NEAR[i],
                                None => FAR[i],
                            })
                            .collect()
                    })
                    .collect();
                Case {
                    values,
                    window,
                    shapes,
                    constraint,
                    coefs,
                    picks,
                    relation,
                    config: SearchConfig::new().variable_order(var).value_order(val),
                }
            },
        )
}

/// Every assignment of the domains, in lexicographic order.
fn assignments(domains: &[Vec<i32>]) -> Vec<Vec<i32>> {
    domains.iter().fold(vec![Vec::new()], |all, domain| {
        all.iter()
            .flat_map(|prefix| {
                domain
                    .iter()
                    .map(move |&v| [prefix.as_slice(), &[v]].concat())
            })
            .collect()
    })
}

/// Whether an assignment satisfies a case's constraint.
type Check = Box<dyn Fn(&[i32]) -> bool>;

fn all_different(values: &[i64]) -> bool {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    sorted.windows(2).all(|w| w[0] != w[1])
}

impl Case {
    /// The variables, each made in its shape and narrowed to its values in play.
    fn vars(&self, model: &mut Model) -> Vec<VarId> {
        let mut vars = Vec::new();
        for (values, &shape) in self.values.iter().zip(&self.shapes) {
            let var = match (self.window, shape) {
                (None, _) | (_, Shape::Values) => model.var_from_values(values.clone()).unwrap(),
                (Some(base), Shape::Interval) => model.int_var(base, base + 9_999).unwrap(),
                (Some(base), Shape::Holes) => model
                    .var_from_values((base..=base + 9_999).filter(|v| (v - base) % 97 != 5))
                    .unwrap(),
            };
            if self.window.is_some() && !matches!(shape, Shape::Values) {
                let tuples: Vec<Vec<i32>> = values.iter().map(|&v| vec![v]).collect();
                model.table([var], &tuples).unwrap();
            }
            vars.push(var);
        }
        vars
    }

    /// A value in play picked by `picks[i]`.
    fn pick(&self, i: usize) -> i32 {
        let all: Vec<i32> = self.values.iter().flatten().copied().collect();
        all[self.picks[i] % all.len()]
    }

    /// Posts the constraint; returns the check of an assignment.
    fn post(&self, model: &mut Model, x: &[VarId]) -> Check {
        let base = self.window.unwrap_or(0);
        let strength = [
            Strength::Value,
            Strength::HiddenSingles,
            Strength::Bounds,
            Strength::Domain,
        ];
        match self.constraint {
            c @ 0..=3 => {
                model
                    .all_different_with(x.iter().copied(), strength[c])
                    .unwrap();
                Box::new(|v: &[i32]| {
                    all_different(&v.iter().map(|&a| i64::from(a)).collect::<Vec<_>>())
                })
            }
            4 => {
                model.not_equal(x[0], x[1]).unwrap();
                model.equal(x[2], x[3]).unwrap();
                Box::new(|v: &[i32]| v[0] != v[1] && v[2] == v[3])
            }
            5 => {
                let coefs = self.coefs.clone();
                let terms: Vec<(i32, VarId)> =
                    coefs.iter().copied().zip(x.iter().copied()).collect();
                let rhs = self.pick(0).wrapping_add(self.pick(1)) / 2;
                let relation = self.relation;
                model.linear(terms, relation, rhs).unwrap();
                Box::new(move |v: &[i32]| {
                    let lhs: i64 = v
                        .iter()
                        .zip(&coefs)
                        .map(|(&a, &c)| i64::from(a) * i64::from(c))
                        .sum();
                    relation.holds(lhs, i64::from(rhs))
                })
            }
            6 => {
                // Index x0 - (base + 1), so that a window's values index the array
                // (an offset of `-i32::MIN` would not be an `i32`); far values as they
                // are.
                let shift = if self.window.is_some() {
                    -(base + 1)
                } else {
                    0
                };
                let array: Vec<i32> = (0..10_000).map(|i| self.pick(i % 12)).collect();
                model.element(&array, x[0] + shift, x[1]).unwrap();
                Box::new(move |v: &[i32]| {
                    let i = i64::from(v[0]) + i64::from(shift);
                    usize::try_from(i).ok().and_then(|i| array.get(i)) == Some(&v[1])
                })
            }
            7 => {
                let tuples: Vec<Vec<i32>> = (0..4)
                    .map(|t| (0..3).map(|k| self.pick((t * 3 + k) % 12)).collect())
                    .collect();
                model.table(x[..3].iter().copied(), &tuples).unwrap();
                Box::new(move |v: &[i32]| tuples.contains(&v[..3].to_vec()))
            }
            8 => {
                let (a, b) = (vec![x[0], x[1], x[2]], vec![x[0], x[1], x[3]]);
                model.all_different(a.clone()).unwrap();
                model.all_different(b.clone()).unwrap();
                model.intersection(a, b).unwrap();
                Box::new(|v: &[i32]| {
                    let w: Vec<i64> = v.iter().map(|&a| i64::from(a)).collect();
                    all_different(&w[..3]) && all_different(&[w[0], w[1], w[3]])
                })
            }
            9 => {
                let offsets: Vec<i32> = (0..3)
                    .filter_map(|k| {
                        i32::try_from(i64::from(self.pick(2 * k)) - i64::from(self.pick(2 * k + 1)))
                            .ok()
                    })
                    .chain([1])
                    .collect();
                model.difference_in(x[0], x[1], &offsets).unwrap();
                Box::new(move |v: &[i32]| {
                    offsets
                        .iter()
                        .any(|&d| i64::from(v[0]) - i64::from(v[1]) == i64::from(d))
                })
            }
            _ => {
                // A shifted view of wide values, with the offset that keeps them in i32.
                let shift = if base > 0 || self.window.is_none() {
                    -1
                } else {
                    1
                };
                let fits = self.values[0]
                    .iter()
                    .chain(&self.values[1])
                    .all(|&v| v.checked_add(shift).is_some());
                if !fits {
                    return Box::new(|_: &[i32]| true);
                }
                model
                    .all_different_with([x[0] + shift, x[1].into()], Strength::Domain)
                    .unwrap();
                Box::new(move |v: &[i32]| i64::from(v[0]) + i64::from(shift) != i64::from(v[1]))
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn every_constraint_over_wide_values_matches_brute_force(case in case()) {
        let mut model = Model::new();
        let x = case.vars(&mut model);
        let check = case.post(&mut model, &x);
        let expected: Vec<Vec<i32>> =
            assignments(&case.values).into_iter().filter(|v| check(v)).collect();
        let mut solver = Solver::with_config(model, case.config);
        let mut found: Vec<Vec<i32>> = solver
            .solutions().map(Result::unwrap)
            .map(|s| x.iter().map(|&v| s[v]).collect())
            .collect();
        found.sort();
        prop_assert_eq!(found, expected);
    }
}

/// A view whose offset takes the bound it is given past the other end of `i32` (the
/// variable at `i32::MAX`, the view `a - i32::MAX` at 0, asked to be at least 3)
/// leaves nothing: the bound was once clamped, kept the variable's one value, and
/// the circuit then indexed its nodes by a value out of range and panicked.
#[test]
fn a_bound_beyond_i32_through_an_offset_empties_the_view() {
    for (value, offset, first) in [(i32::MAX, -i32::MAX, 3), (i32::MIN, i32::MAX, -5)] {
        for sub in [true, false] {
            let mut model = Model::new();
            let a = model.var_from_values([value]).unwrap();
            if sub {
                model.subcircuit([a + offset], first).unwrap();
            } else {
                model.circuit([a + offset], first).unwrap();
            }
            let outcome = Solver::new(model).solve();
            assert_eq!(outcome, Outcome::Unsatisfiable, "{value} {offset} {sub}");
        }
        let mut model = Model::new();
        let a = model.var_from_values([value]).unwrap();
        model
            .linear([(1, a + offset)], Relation::GreaterEq, first)
            .unwrap();
        model
            .linear([(1, a + offset)], Relation::LessEq, first)
            .unwrap();
        assert_eq!(Solver::new(model).solve(), Outcome::Unsatisfiable);
    }
}
