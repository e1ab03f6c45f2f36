//! Bounds all-different, disjunctive and cumulative against brute force: on small
//! random models mixed with other constraints, the solver finds exactly the
//! assignments that enumeration finds, under every search order. Also: bounds
//! all-different reaches bounds consistency at the root, and prunes Golomb rulers
//! far better than value elimination.

mod common;

use std::collections::BTreeSet;

use alldiff::{
    CountStatus, Model, Outcome, Relation, SearchConfig, Solver, Statistics, Strength, ValueOrder,
    VarId, VariableOrder,
};
use proptest::prelude::*;

/// The solver's solutions under `config`, checked to be distinct, and its count.
fn solve_all(model: Model, vars: &[VarId], config: SearchConfig) -> BTreeSet<Vec<i32>> {
    let mut solver = Solver::with_config(model, config);
    let found: Vec<Vec<i32>> = solver
        .solutions()
        .map(|s| vars.iter().map(|&x| s[x]).collect())
        .collect();
    let distinct: BTreeSet<Vec<i32>> = found.iter().cloned().collect();
    assert_eq!(distinct.len(), found.len(), "a solution was reported twice");
    let count = solver.count(None);
    assert_eq!(count.status, CountStatus::Complete);
    assert_eq!(count.solutions, distinct.len() as u64);
    distinct
}

/// A few search orders (all nine would make the suites slow).
fn some_configs() -> Vec<SearchConfig> {
    let all = common::all_configs();
    vec![all[0], all[4], all[8]]
}

fn domain(values: std::ops::RangeInclusive<i32>, size: usize) -> impl Strategy<Value = Vec<i32>> {
    prop::collection::btree_set(values, 1..=size).prop_map(|s| s.into_iter().collect())
}

/// A view `vars[var] + offset`, as the oracle reads it.
type ViewSpec = (usize, i32);

fn at(values: &[i32], (var, offset): ViewSpec) -> i32 {
    values[var] + offset
}

fn all_distinct(values: impl IntoIterator<Item = i32>) -> bool {
    let mut seen = BTreeSet::new();
    values.into_iter().all(|v| seen.insert(v))
}

// ---------------------------------------------------------------- bounds all-different

#[derive(Clone, Debug)]
struct AllDiffProblem {
    domains: Vec<Vec<i32>>,
    /// Each all-different's views.
    groups: Vec<Vec<ViewSpec>>,
    /// `a != b` side constraints.
    not_equal: Vec<(ViewSpec, ViewSpec)>,
}

fn alldiff_problem() -> impl Strategy<Value = AllDiffProblem> {
    (1usize..=6).prop_flat_map(|n| {
        let view = (0..n, -2..=2i32);
        (
            prop::collection::vec(domain(-3..=4, 5), n),
            prop::collection::vec(prop::collection::vec(view.clone(), 1..=n + 1), 1..=3),
            prop::collection::vec((view.clone(), view), 0..=2),
        )
            .prop_map(|(domains, groups, not_equal)| AllDiffProblem {
                domains,
                groups,
                not_equal,
            })
    })
}

impl AllDiffProblem {
    fn holds(&self, values: &[i32]) -> bool {
        self.groups
            .iter()
            .all(|g| all_distinct(g.iter().map(|&v| at(values, v))))
            && self
                .not_equal
                .iter()
                .all(|&(a, b)| at(values, a) != at(values, b))
    }

    fn build(&self, strength: Strength) -> (Model, Vec<VarId>) {
        let mut model = Model::new();
        let xs = common::vars(&mut model, &self.domains);
        for group in &self.groups {
            model
                .all_different_with(group.iter().map(|&(v, o)| xs[v] + o), strength)
                .unwrap();
        }
        for &((a, oa), (b, ob)) in &self.not_equal {
            model.not_equal(xs[a] + oa, xs[b] + ob).unwrap();
        }
        (model, xs)
    }
}

/// Bounds consistency by brute force, to a fixpoint: each domain read as its
/// interval, a bound without a support (an assignment of the other views within
/// their intervals, all different) goes, and the store skips holes.
fn bounds_consistent(domains: &[Vec<i32>], views: &[ViewSpec]) -> Option<Vec<Vec<i32>>> {
    let mut domains = domains.to_vec();
    loop {
        let intervals: Vec<Vec<i32>> = domains
            .iter()
            .map(|d| Some((*d.first()?..=*d.last()?).collect()))
            .collect::<Option<_>>()?;
        let solutions = common::brute_force(&intervals, &|values| {
            all_distinct(views.iter().map(|&v| at(values, v)))
        });
        let mut changed = false;
        for (var, domain) in domains.iter_mut().enumerate() {
            let supported = |value: i32| solutions.iter().any(|s| s[var] == value);
            while domain.first().is_some_and(|&v| !supported(v)) {
                domain.remove(0);
                changed = true;
            }
            while domain.last().is_some_and(|&v| !supported(v)) {
                domain.pop();
                changed = true;
            }
        }
        // Value elimination: a fixed view's value leaves the other views.
        for i in 0..domains.len() {
            if let [value] = domains[i][..] {
                let taken = value + views[i].1;
                for (j, domain) in domains.iter_mut().enumerate() {
                    if j != i && domain.contains(&(taken - views[j].1)) {
                        domain.retain(|&v| v + views[j].1 != taken);
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            return Some(domains);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    /// Bounds all-different has the solutions of brute force (and of value strength),
    /// with views, holes, repeated variables and side constraints.
    #[test]
    fn bounds_all_different_matches_brute_force(problem in alldiff_problem()) {
        let expected = common::brute_force(&problem.domains, &|v| problem.holds(v));
        for config in some_configs() {
            for strength in [Strength::Bounds, Strength::Value] {
                let (model, xs) = problem.build(strength);
                prop_assert_eq!(&solve_all(model, &xs, config), &expected, "{:?}", strength);
            }
        }
    }

    /// On one all-different over distinct variables, the root domains are exactly
    /// the fixpoint of bounds consistency and value elimination.
    #[test]
    fn bounds_all_different_is_bounds_consistent(
        domains in (1usize..=6).prop_flat_map(|n| prop::collection::vec(domain(0..=5, 4), n)),
        offsets in prop::collection::vec(-1..=1i32, 6),
    ) {
        let views: Vec<ViewSpec> = (0..domains.len()).map(|i| (i, offsets[i])).collect();
        let mut model = Model::new();
        let xs = common::vars(&mut model, &domains);
        model.all_different_with(views.iter().map(|&(v, o)| xs[v] + o), Strength::Bounds).unwrap();
        let found = Solver::new(model).root_domains();
        prop_assert_eq!(found, bounds_consistent(&domains, &views));
    }
}

/// 131 variables (over 128 store cells), one with a domain over 64 values wide: `x0`
/// in `{0} ∪ 1000..=1070`, `xk` in `{k, k + 1}` for `k` in `1..130`, and `x130 = 130`.
fn staircase(model: &mut Model) -> Vec<VarId> {
    let mut xs = vec![model.var_from_values((1000..=1070).chain([0])).unwrap()];
    for k in 1..130 {
        xs.push(model.var_from_values([k, k + 1]).unwrap());
    }
    xs.push(model.var_from_values([130]).unwrap());
    xs
}

/// Many variables with tiny domains (over 128 store cells) and a wide domain (over
/// 64 values): view `k` takes `k` or `k + 1` up to a view fixed to 130, which makes
/// each of them take `k`; view 0 then takes 0 or one of 71 values far away.
#[test]
fn bounds_all_different_on_large_and_wide_models() {
    for strength in [Strength::Bounds, Strength::Value] {
        for config in some_configs() {
            let mut model = Model::new();
            let xs = staircase(&mut model);
            model.all_different_with(xs, strength).unwrap();
            let mut solver = Solver::with_config(model, config);
            assert_eq!(solver.count(None).solutions, 72, "{strength:?} {config:?}");
        }
    }
}

// ---------------------------------------------------------------- Golomb rulers

/// A Golomb ruler with `marks` marks and length at most `length`: marks
/// `0 = x0 < x1 < ...`, their pairwise differences all different (the first smaller
/// than the last, against the mirror image). Returns the model and its marks.
fn golomb(marks: usize, length: i32, strength: Strength) -> (Model, Vec<VarId>) {
    let mut model = Model::new();
    let mut x = vec![model.var_from_values([0]).unwrap()];
    x.extend(model.int_vars(marks - 1, 1, length).unwrap());
    for w in x.windows(2) {
        model
            .linear([(1, w[0]), (-1, w[1])], Relation::LessEq, -1)
            .unwrap();
    }
    let mut differences = Vec::new();
    for i in 0..marks {
        for j in i + 1..marks {
            let d = model.int_var(1, length).unwrap();
            model
                .linear([(1, d), (-1, x[j]), (1, x[i])], Relation::Equal, 0)
                .unwrap();
            differences.push(d);
        }
    }
    let last = *differences.last().unwrap();
    model
        .linear([(1, differences[0]), (-1, last)], Relation::LessEq, -1)
        .unwrap();
    model.all_different_with(differences, strength).unwrap();
    (model, x)
}

/// The search that finds a ruler of the optimal length `best` and the one that
/// proves none shorter exists, marks in order, smallest value first.
fn golomb_searches(marks: usize, best: i32, strength: Strength) -> (Statistics, Statistics) {
    let config = SearchConfig::new()
        .variable_order(VariableOrder::InputOrder)
        .value_order(ValueOrder::Ascending);
    let (model, x) = golomb(marks, best, strength);
    let mut solver = Solver::with_config(model, config);
    let Outcome::Solved(ruler) = solver.solve() else {
        panic!("a ruler of length {best} exists");
    };
    assert_eq!(ruler[x[marks - 1]], best);
    let found = solver.statistics().clone();
    let (model, _) = golomb(marks, best - 1, strength);
    let mut solver = Solver::with_config(model, config);
    assert!(matches!(solver.solve(), Outcome::Unsatisfiable));
    (found, solver.statistics().clone())
}

#[test]
fn golomb_6_bounds_needs_fewer_nodes_than_value() {
    let (found_value, proof_value) = golomb_searches(6, 17, Strength::Value);
    let (found_bounds, proof_bounds) = golomb_searches(6, 17, Strength::Bounds);
    assert!(
        proof_bounds.nodes * 2 < proof_value.nodes,
        "{proof_bounds:?} vs {proof_value:?}"
    );
    assert!(found_bounds.nodes <= found_value.nodes);
}

/// Node counts for the report: `cargo test --release --test scheduling_properties
/// golomb_node_counts -- --ignored --nocapture`.
#[test]
#[ignore = "minutes in debug builds; run in release"]
fn golomb_node_counts() {
    for (marks, best) in [(8, 34), (9, 44)] {
        for strength in [Strength::Value, Strength::Bounds, Strength::Domain] {
            let (found, proof) = golomb_searches(marks, best, strength);
            println!(
                "m={marks} {strength:?}: find length {best}: {} nodes, {:?}; prove none of {}: {} nodes, {:?}",
                found.nodes,
                found.solve_time,
                best - 1,
                proof.nodes,
                proof.solve_time
            );
        }
    }
}

// ---------------------------------------------------------------- disjunctive, cumulative

#[derive(Clone, Debug)]
struct TaskProblem {
    /// Start domains; task `i` starts at `vars[i] + offsets[i]`.
    domains: Vec<Vec<i32>>,
    offsets: Vec<i32>,
    durations: Vec<i32>,
    demands: Vec<i32>,
    capacity: i32,
    /// A side constraint `vars[a] != vars[b] + c`, to mix with another propagator.
    not_equal: Option<(usize, usize, i32)>,
}

/// A start domain: a few values near 0, sometimes one far away (a domain wider than
/// 64 values).
fn start_domain() -> impl Strategy<Value = Vec<i32>> {
    (domain(-1..=6, 4), any::<bool>()).prop_map(|(mut d, far)| {
        if far {
            d.push(100);
        }
        d
    })
}

fn task_problem() -> impl Strategy<Value = TaskProblem> {
    (1usize..=5).prop_flat_map(|n| {
        (
            prop::collection::vec(start_domain(), n),
            prop::collection::vec(-1..=1i32, n),
            prop::collection::vec(0..=3i32, n),
            prop::collection::vec(0..=3i32, n),
            0..=4i32,
            prop::option::of((0..n, 0..n, -2..=2i32)),
        )
            .prop_map(
                |(domains, offsets, durations, demands, capacity, not_equal)| TaskProblem {
                    domains,
                    offsets,
                    durations,
                    demands,
                    capacity,
                    not_equal,
                },
            )
    })
}

impl TaskProblem {
    fn side_holds(&self, values: &[i32]) -> bool {
        self.not_equal
            .is_none_or(|(a, b, c)| values[a] != values[b] + c)
    }

    fn build(&self, post: impl FnOnce(&mut Model, Vec<alldiff::View>)) -> (Model, Vec<VarId>) {
        let mut model = Model::new();
        let xs = common::vars(&mut model, &self.domains);
        let starts = xs.iter().zip(&self.offsets).map(|(&x, &o)| x + o).collect();
        post(&mut model, starts);
        if let Some((a, b, c)) = self.not_equal {
            model.not_equal(xs[a], xs[b] + c).unwrap();
        }
        (model, xs)
    }

    /// The tasks `(start, end, demand)` of an assignment, leaving out empty ones.
    fn tasks(&self, values: &[i32]) -> Vec<(i32, i32, i32)> {
        (0..values.len())
            .map(|i| {
                let start = values[i] + self.offsets[i];
                (start, start + self.durations[i], self.demands[i])
            })
            .filter(|&(s, e, c)| e > s && c > 0)
            .collect()
    }

    fn disjunctive_holds(&self, values: &[i32]) -> bool {
        // Demands play no part here: every task of positive duration counts.
        let tasks: Vec<(i32, i32)> = (0..values.len())
            .map(|i| {
                (
                    values[i] + self.offsets[i],
                    values[i] + self.offsets[i] + self.durations[i],
                )
            })
            .filter(|&(s, e)| e > s)
            .collect();
        tasks
            .iter()
            .enumerate()
            .all(|(k, &(s1, e1))| tasks[k + 1..].iter().all(|&(s2, e2)| e1 <= s2 || e2 <= s1))
    }

    fn cumulative_holds(&self, values: &[i32]) -> bool {
        let tasks = self.tasks(values);
        (-10..=110).all(|t| {
            let load: i32 = tasks
                .iter()
                .filter(|&&(s, e, _)| s <= t && t < e)
                .map(|t| t.2)
                .sum();
            load <= self.capacity
        })
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn disjunctive_matches_brute_force(problem in task_problem()) {
        let expected = common::brute_force(&problem.domains, &|v| {
            problem.disjunctive_holds(v) && problem.side_holds(v)
        });
        for config in some_configs() {
            let (model, xs) = problem.build(|model, starts| {
                model.disjunctive(starts, &problem.durations).unwrap();
            });
            prop_assert_eq!(&solve_all(model, &xs, config), &expected);
        }
    }

    #[test]
    fn cumulative_matches_brute_force(problem in task_problem()) {
        let expected = common::brute_force(&problem.domains, &|v| {
            problem.cumulative_holds(v) && problem.side_holds(v)
        });
        for config in some_configs() {
            let (model, xs) = problem.build(|model, starts| {
                model
                    .cumulative(starts, &problem.durations, &problem.demands, problem.capacity)
                    .unwrap();
            });
            prop_assert_eq!(&solve_all(model, &xs, config), &expected);
        }
    }

    /// Root propagation keeps every value some solution uses.
    #[test]
    fn scheduling_root_propagation_is_sound(problem in task_problem()) {
        for unary in [true, false] {
            let expected = common::brute_force(&problem.domains, &|v| {
                let holds = if unary { problem.disjunctive_holds(v) } else { problem.cumulative_holds(v) };
                holds && problem.side_holds(v)
            });
            let (model, _) = problem.build(|model, starts| {
                if unary {
                    model.disjunctive(starts, &problem.durations).unwrap();
                } else {
                    model
                        .cumulative(starts, &problem.durations, &problem.demands, problem.capacity)
                        .unwrap();
                }
            });
            match Solver::new(model).root_domains() {
                None => prop_assert!(expected.is_empty()),
                Some(domains) => {
                    for solution in &expected {
                        for (var, value) in solution.iter().enumerate() {
                            prop_assert!(domains[var].contains(value), "unary {unary}: {value} of {var} removed");
                        }
                    }
                }
            }
        }
    }
}

/// Over 128 store cells and a domain over 64 values wide: task `k` (1 long) starts
/// at `k` or `k + 1`, up to a task fixed at 130, which makes each start at `k`; task
/// 0 then starts at 0 or at one of 71 times far away.
#[test]
fn scheduling_on_large_and_wide_models() {
    for unary in [true, false] {
        for config in some_configs() {
            let mut model = Model::new();
            let xs = staircase(&mut model);
            let ones = vec![1; xs.len()];
            if unary {
                model.disjunctive(xs, &ones).unwrap();
            } else {
                model.cumulative(xs, &ones, &ones, 1).unwrap();
            }
            let mut solver = Solver::with_config(model, config);
            assert_eq!(solver.count(None).solutions, 72, "unary {unary} {config:?}");
        }
    }
}
