//! Bounds all-different, disjunctive and cumulative against brute force: on small
//! random models mixed with other constraints, the solver finds exactly the
//! assignments that enumeration finds, under every search order. Also: bounds
//! all-different reaches bounds consistency at the root, and prunes Golomb rulers
//! far better than value elimination. Domains, offsets, durations, demands and
//! capacities reach the edges (`common::edges`: word boundaries, spans of a word and a
//! bit or two, negative values, the ends of `i32`, holes); a constraint the model
//! refuses must be one whose views or task ends leave `i32`, and the oracle (in `i64`)
//! checks the others.

mod common;

use std::collections::BTreeSet;

use alldiff::{
    ConstraintId, CountStatus, Model, ModelError, Outcome, Relation, SearchConfig, Solver,
    Statistics, Strength, ValueOrder, VarId, VariableOrder, View,
};
use common::constants::{case_window, offset_in};
use common::edges::{
    Window, check_posted, domain_in, offset_for, small_or_edge_domains, value_range, view_fits,
    window_spanning,
};
use common::postings::{POSTINGS, post_all_different};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// The solver's solutions under `config`, checked to be distinct, and its count.
fn solve_all(model: Model, vars: &[VarId], config: &SearchConfig) -> BTreeSet<Vec<i32>> {
    let mut solver = Solver::with_config(model, config.clone());
    let found: Vec<Vec<i32>> = solver
        .solutions()
        .map(Result::unwrap)
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
    vec![all[0].clone(), all[4].clone(), all[8].clone()]
}

/// A view `vars[var] + offset`, as the oracle reads it.
type ViewSpec = (usize, i32);

fn at(values: &[i32], (var, offset): ViewSpec) -> i64 {
    i64::from(values[var]) + i64::from(offset)
}

fn all_distinct(values: impl IntoIterator<Item = i64>) -> bool {
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

/// Domains near zero or at the edges, views whose offsets may take them across a
/// word boundary, to an end of `i32` or past it.
fn alldiff_problem() -> impl Strategy<Value = AllDiffProblem> {
    (1usize..=6)
        .prop_flat_map(|n| small_or_edge_domains(n, 5))
        .prop_flat_map(|domains| {
            let n = domains.len();
            let (low, high) = value_range(&domains);
            let view = (0..n, offset_for(low, high));
            (
                Just(domains),
                prop::collection::vec(prop::collection::vec(view.clone(), 1..=n + 1), 1..=3),
                prop::collection::vec((view.clone(), view), 0..=2),
            )
        })
        .prop_map(|(domains, groups, not_equal)| AllDiffProblem {
            domains,
            groups,
            not_equal,
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

    /// Whether a view of the problem fits `i32`.
    fn fits(&self, &(var, offset): &ViewSpec) -> bool {
        view_fits(&self.domains[var], offset)
    }

    /// The problem without the constraints the model must refuse (a view beyond
    /// `i32`): each, posted alone, must be refused with a typed error, and the others
    /// accepted.
    fn accepted(&self) -> Result<AllDiffProblem, TestCaseError> {
        let mut model = Model::new();
        let xs = common::vars(&mut model, &self.domains);
        let view = |&(v, o): &ViewSpec| xs[v] + o;
        let mut groups = Vec::new();
        for group in &self.groups {
            let fits = group.iter().all(|v| self.fits(v));
            check_posted(model.all_different(group.iter().map(view)), fits)?;
            groups.extend(fits.then(|| group.clone()));
        }
        let mut not_equal = Vec::new();
        for pair in &self.not_equal {
            let fits = self.fits(&pair.0) && self.fits(&pair.1);
            check_posted(model.not_equal(view(&pair.0), view(&pair.1)), fits)?;
            not_equal.extend(fits.then_some(*pair));
        }
        Ok(AllDiffProblem {
            domains: self.domains.clone(),
            groups,
            not_equal,
        })
    }

    /// The model of an accepted problem, its all-different constraints posted as
    /// `posting` says.
    fn build(
        &self,
        posting: common::postings::Posting,
    ) -> Result<(Model, Vec<VarId>), TestCaseError> {
        let mut model = Model::new();
        let xs = common::vars(&mut model, &self.domains);
        post_all_different(&mut model, &xs, &self.domains, &self.groups, posting)?;
        for &((a, oa), (b, ob)) in &self.not_equal {
            model.not_equal(xs[a] + oa, xs[b] + ob).unwrap();
        }
        Ok((model, xs))
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
                let taken = at(&[value], (0, views[i].1));
                for (j, domain) in domains.iter_mut().enumerate() {
                    let offset = views[j].1;
                    if j != i && domain.iter().any(|&v| at(&[v], (0, offset)) == taken) {
                        domain.retain(|&v| at(&[v], (0, offset)) != taken);
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

    /// Bounds all-different has the solutions of brute force (and so has every other
    /// posting of all-different), with views, holes, repeated variables and side
    /// constraints.
    #[test]
    fn bounds_all_different_matches_brute_force(problem in alldiff_problem()) {
        let problem = problem.accepted()?;
        let expected = common::brute_force(&problem.domains, &|v| problem.holds(v));
        for config in some_configs() {
            for posting in POSTINGS {
                let (model, xs) = problem.build(posting)?;
                prop_assert_eq!(&solve_all(model, &xs, &config), &expected, "{:?}", posting);
            }
        }
    }

    /// On one all-different over distinct variables, the root domains are exactly
    /// the fixpoint of bounds consistency and value elimination. The domains lie in a
    /// window of 2 to 6 values (the brute force reads them as intervals) anywhere
    /// [`common::edges`] puts one; a view past `i32` must be refused.
    #[test]
    fn bounds_all_different_is_bounds_consistent(
        domains in window_spanning(2u32..=6).prop_flat_map(|w| {
            (1usize..=6).prop_flat_map(move |n| prop::collection::vec(domain_in(w, 4), n))
        }),
        offsets in prop::collection::vec(-1..=1i32, 6),
    ) {
        let views: Vec<ViewSpec> = (0..domains.len()).map(|i| (i, offsets[i])).collect();
        let mut model = Model::new();
        let xs = common::vars(&mut model, &domains);
        let fits = views.iter().all(|&(v, o)| view_fits(&domains[v], o));
        let posted = model.all_different_with(views.iter().map(|&(v, o)| xs[v] + o), Strength::Bounds);
        check_posted(posted, fits)?;
        if fits {
            let found = Solver::new(model).root_domains();
            prop_assert_eq!(found, bounds_consistent(&domains, &views));
        }
    }
}

/// `last + 1` variables, one with a domain over 64 values wide: `x0` in
/// `{0} ∪ 1000..=1070`, `xk` in `{k, k + 1}` for `k` in `1..last`, and
/// `x[last] = last`.
fn staircase(model: &mut Model, last: i32) -> Vec<VarId> {
    let mut xs = vec![model.var_from_values((1000..=1070).chain([0])).unwrap()];
    for k in 1..last {
        xs.push(model.var_from_values([k, k + 1]).unwrap());
    }
    xs.push(model.var_from_values([last]).unwrap());
    xs
}

/// Many variables with tiny domains (more store cells than it copies) and a wide
/// domain (over 64 values): view `k` takes `k` or `k + 1` up to a view fixed to the
/// last, [`common::TRAILING_PADDING`], which makes
/// each of them take `k`; view 0 then takes 0 or one of 71 values far away.
#[test]
fn bounds_all_different_on_large_and_wide_models() {
    for strength in [
        Strength::Value,
        Strength::HiddenSingles,
        Strength::Bounds,
        Strength::Domain,
    ] {
        for config in some_configs() {
            let mut model = Model::new();
            let xs = staircase(&mut model, common::TRAILING_PADDING as i32);
            model.all_different_with(xs, strength).unwrap();
            let mut solver = Solver::with_config(model, config.clone());
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
    let mut solver = Solver::with_config(model, config.clone());
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

/// A start domain: a few values of the window, sometimes with its far end (a domain
/// wider than 64 values when the window is).
fn start_domain(window: Window) -> impl Strategy<Value = Vec<i32>> {
    (domain_in(window, 4), any::<bool>()).prop_map(move |(mut d, far)| {
        if far && !d.contains(&window.high()) {
            d.push(window.high());
        }
        d
    })
}

/// A duration, demand or capacity: small mostly, about a word or two, or a value up
/// to `i32::MAX` (a task end past `i32`, a load past it in `i32` arithmetic).
fn amount(small: i32) -> impl Strategy<Value = i32> + Clone {
    prop_oneof![
        6 => 0..=small,
        1 => 62..=66i32,
        1 => 126..=130i32,
        1 => (0..=2).prop_map(|d| i32::MAX - d),
    ]
}

fn task_problem() -> impl Strategy<Value = TaskProblem> {
    (case_window(), 1usize..=5).prop_flat_map(|(window, n)| {
        (
            prop::collection::vec(start_domain(window), n),
            prop::collection::vec(prop_oneof![3 => -1..=1i32, 1 => offset_in(window)], n),
            prop::collection::vec(amount(3), n),
            prop::collection::vec(amount(3), n),
            amount(4),
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

/// A task's constraint: disjunctive (demands play no part) or cumulative.
#[derive(Clone, Copy, Debug)]
enum Resource {
    Unary,
    Cumulative,
}

impl TaskProblem {
    /// Whether the side constraint's view fits `i32` (else the model refuses it).
    fn side_fits(&self) -> bool {
        self.not_equal
            .is_none_or(|(_, b, c)| view_fits(&self.domains[b], c))
    }

    fn side_holds(&self, values: &[i32]) -> bool {
        !self.side_fits()
            || self
                .not_equal
                .is_none_or(|(a, b, c)| at(values, (a, 0)) != at(values, (b, c)))
    }

    /// Whether the model must refuse the tasks: a start's view leaves `i32`, or its
    /// latest start plus its duration does.
    fn tasks_refused(&self) -> bool {
        (0..self.domains.len()).any(|i| {
            let last = i64::from(*self.domains[i].iter().max().unwrap());
            let end = last + i64::from(self.offsets[i]) + i64::from(self.durations[i]);
            !view_fits(&self.domains[i], self.offsets[i]) || end > i64::from(i32::MAX)
        })
    }

    /// The model with the tasks posted on `resource`, or `None` when it (rightly)
    /// refuses them; the side constraint is refused exactly when its view leaves
    /// `i32`.
    fn build(&self, resource: Resource) -> Result<Option<(Model, Vec<VarId>)>, TestCaseError> {
        let mut model = Model::new();
        let xs = common::vars(&mut model, &self.domains);
        let starts: Vec<View> = xs.iter().zip(&self.offsets).map(|(&x, &o)| x + o).collect();
        let posted: Result<ConstraintId, ModelError> = match resource {
            Resource::Unary => model.disjunctive(starts, &self.durations),
            Resource::Cumulative => {
                model.cumulative(starts, &self.durations, &self.demands, self.capacity)
            }
        };
        match posted {
            Ok(_) => prop_assert!(!self.tasks_refused(), "tasks past i32 were accepted"),
            Err(ModelError::OffsetOverflow { .. } | ModelError::InvalidConstraint { .. }) => {
                prop_assert!(self.tasks_refused(), "tasks that fit were refused");
                return Ok(None);
            }
            Err(error) => prop_assert!(false, "refused with {error:?}"),
        }
        if let Some((a, b, c)) = self.not_equal {
            check_posted(model.not_equal(xs[a], xs[b] + c), self.side_fits())?;
        }
        Ok(Some((model, xs)))
    }

    /// The tasks `(start, end, demand)` of an assignment, leaving out empty ones (for
    /// a disjunctive, those of no duration).
    fn tasks(&self, values: &[i32], resource: Resource) -> Vec<(i64, i64, i64)> {
        (0..values.len())
            .map(|i| {
                let start = at(values, (i, self.offsets[i]));
                let demand = match resource {
                    Resource::Unary => 1,
                    Resource::Cumulative => i64::from(self.demands[i]),
                };
                (start, start + i64::from(self.durations[i]), demand)
            })
            .filter(|&(s, e, c)| e > s && c > 0)
            .collect()
    }

    /// Whether the tasks of an assignment never use more than the resource holds (one
    /// task at a time for a disjunctive): the load peaks at some task's start.
    fn holds(&self, values: &[i32], resource: Resource) -> bool {
        let tasks = self.tasks(values, resource);
        let capacity = match resource {
            Resource::Unary => 1,
            Resource::Cumulative => i64::from(self.capacity),
        };
        tasks.iter().all(|&(t, _, _)| {
            let load: i64 = (tasks.iter())
                .filter(|&&(s, e, _)| s <= t && t < e)
                .map(|task| task.2)
                .sum();
            load <= capacity
        })
    }

    /// The brute-force solutions on `resource`.
    fn expected(&self, resource: Resource) -> BTreeSet<Vec<i32>> {
        common::brute_force(&self.domains, &|v| {
            self.holds(v, resource) && self.side_holds(v)
        })
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn disjunctive_matches_brute_force(problem in task_problem()) {
        let expected = problem.expected(Resource::Unary);
        for config in some_configs() {
            if let Some((model, xs)) = problem.build(Resource::Unary)? {
                prop_assert_eq!(&solve_all(model, &xs, &config), &expected);
            }
        }
    }

    #[test]
    fn cumulative_matches_brute_force(problem in task_problem()) {
        let expected = problem.expected(Resource::Cumulative);
        for config in some_configs() {
            if let Some((model, xs)) = problem.build(Resource::Cumulative)? {
                prop_assert_eq!(&solve_all(model, &xs, &config), &expected);
            }
        }
    }

    /// Root propagation keeps every value some solution uses.
    #[test]
    fn scheduling_root_propagation_is_sound(problem in task_problem()) {
        for resource in [Resource::Unary, Resource::Cumulative] {
            let expected = problem.expected(resource);
            let Some((model, _)) = problem.build(resource)? else {
                continue;
            };
            match Solver::new(model).root_domains() {
                None => prop_assert!(expected.is_empty()),
                Some(domains) => {
                    for solution in &expected {
                        for (var, value) in solution.iter().enumerate() {
                            prop_assert!(domains[var].contains(value), "{resource:?}: {value} of {var} removed");
                        }
                    }
                }
            }
        }
    }
}

/// More store cells than it copies and a domain over 64 values wide: task `k` (1
/// long) starts at `k` or `k + 1`, up to a task fixed at 130, which makes each start
/// at `k`; task 0 then starts at 0 or at one of 71 times far away.
#[test]
fn scheduling_on_large_and_wide_models() {
    for unary in [true, false] {
        for config in some_configs() {
            let mut model = Model::new();
            let xs = staircase(&mut model, 130);
            // Fixed variables in no constraint, so that the store trails: the
            // propagators take time quadratic in the tasks.
            common::vars(&mut model, &vec![vec![0]; common::TRAILING_PADDING]);
            let ones = vec![1; xs.len()];
            if unary {
                model.disjunctive(xs, &ones).unwrap();
            } else {
                model.cumulative(xs, &ones, &ones, 1).unwrap();
            }
            let mut solver = Solver::with_config(model, config.clone());
            assert_eq!(solver.count(None).solutions, 72, "unary {unary} {config:?}");
        }
    }
}
