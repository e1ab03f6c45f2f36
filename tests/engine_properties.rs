//! Property tests: on small random models the solver agrees with brute-force
//! enumeration, for every all-different strength, the all-different system and every
//! search heuristic. The domains lie near zero or at the edges (`common::edges`: word
//! boundaries, spans of a word and a bit, wide sparse spans, the ends of `i32`), and so
//! may the views' offsets, which the model must then refuse with a typed error; so do
//! models with domains wider than 64 values (several words; some models padded past
//! the cells the store copies, so that it trails).

mod common;

use std::collections::BTreeSet;

use alldiff::{CountStatus, Model, ModelError, Outcome, Solver, Strength, VarId};
use common::edges::{check_posted, offset_for, small_or_edge_domains, value_range, view_fits};
use common::postings::{POSTINGS, Posting, post_all_different};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{TestCaseError, TestRunner};

/// A constraint as the oracle understands it: over (variable index, offset) pairs.
#[derive(Clone, Debug)]
enum Spec {
    AllDifferent(Vec<(usize, i32)>),
    NotEqual((usize, i32), (usize, i32)),
    Equal((usize, i32), (usize, i32)),
}

impl Spec {
    /// An all-different's views.
    fn group(&self) -> Option<Vec<(usize, i32)>> {
        match self {
            Spec::AllDifferent(views) => Some(views.clone()),
            _ => None,
        }
    }

    /// Whether the values satisfy it, in `i64` (a view may reach past `i32`).
    fn holds(&self, values: &[i32]) -> bool {
        let at = |(var, offset): (usize, i32)| i64::from(values[var]) + i64::from(offset);
        match self {
            Spec::AllDifferent(views) => {
                let seen: BTreeSet<i64> = views.iter().map(|&v| at(v)).collect();
                seen.len() == views.len()
            }
            Spec::NotEqual(a, b) => at(*a) != at(*b),
            Spec::Equal(a, b) => at(*a) == at(*b),
        }
    }

    fn views(&self) -> Vec<(usize, i32)> {
        match self {
            Spec::AllDifferent(views) => views.clone(),
            Spec::NotEqual(a, b) | Spec::Equal(a, b) => vec![*a, *b],
        }
    }

    /// Posts it alone (all-different at value strength).
    fn post(&self, model: &mut Model, vars: &[VarId]) -> Result<(), ModelError> {
        let v = |(var, offset): (usize, i32)| vars[var] + offset;
        match self {
            Spec::AllDifferent(views) => model.all_different(views.iter().map(|&x| v(x))),
            Spec::NotEqual(a, b) => model.not_equal(v(*a), v(*b)),
            Spec::Equal(a, b) => model.equal(v(*a), v(*b)),
        }
        .map(|_| ())
    }
}

#[derive(Clone, Debug)]
struct Problem {
    domains: Vec<Vec<i32>>,
    specs: Vec<Spec>,
    /// Fixed variables the model gets after the domains' ones, in no constraint: they
    /// only add store cells, so the oracle leaves them out.
    padding: usize,
}

impl Problem {
    /// A lower bound on the store cells of the model (see [`common::domain_cells`]).
    fn cells(&self) -> usize {
        common::domain_cells(&self.domains) + self.padding
    }
}

fn view(vars: usize) -> impl Strategy<Value = (usize, i32)> + Clone {
    (0..vars, -2..=2i32)
}

fn spec(
    view: impl Strategy<Value = (usize, i32)> + Clone,
    vars: usize,
) -> impl Strategy<Value = Spec> {
    prop_oneof![
        2 => prop::collection::vec(view.clone(), 1..=vars + 1).prop_map(Spec::AllDifferent),
        1 => (view.clone(), view.clone()).prop_map(|(a, b)| Spec::NotEqual(a, b)),
        1 => (view.clone(), view).prop_map(|(a, b)| Spec::Equal(a, b)),
    ]
}

/// Domains near zero or at the edges, views with offsets that may take them to
/// either end of `i32` or past it.
fn problem() -> impl Strategy<Value = Problem> {
    (1usize..=5)
        .prop_flat_map(|vars| small_or_edge_domains(vars, 5))
        .prop_flat_map(|domains| {
            let vars = domains.len();
            let (low, high) = value_range(&domains);
            let view = (0..vars, offset_for(low, high));
            (
                Just(domains),
                prop::collection::vec(spec(view, vars), 0..=4),
            )
        })
        .prop_map(|(domains, specs)| Problem {
            domains,
            specs,
            padding: 0,
        })
}

/// The problem without the constraints the model must refuse, a view beyond `i32`:
/// each posted alone must be refused with a typed error, and the others accepted.
fn accepted(problem: &Problem) -> Result<Problem, TestCaseError> {
    let mut specs = Vec::new();
    for spec in &problem.specs {
        let fits = (spec.views().iter()).all(|&(x, offset)| view_fits(&problem.domains[x], offset));
        let mut model = Model::new();
        let vars = common::vars(&mut model, &problem.domains);
        check_posted(spec.post(&mut model, &vars), fits)?;
        if fits {
            specs.push(spec.clone());
        }
    }
    Ok(Problem {
        specs,
        ..problem.clone()
    })
}

/// Values far from the small ones, around word boundaries and up to 128 words away:
/// with -3..=3, windows of up to 128 and 256 values (Régin on two and four words) and
/// wider (the general matching).
const FAR: [i32; 14] = [
    60, 61, 63, 64, 65, 67, 126, 127, 128, 129, 191, 252, 8190, 8191,
];

/// Like [`problem`], with domains wider than 64 values: the first variable has one
/// value in -3..=3 and one of [`FAR`] from 67 up (a span of more than 64 values,
/// several words), the others mix small and far values; with 8190 or 8191, a span the
/// store keeps as a sparse table. One model in four is padded past the cells the store
/// copies ([`common::TRAILING_PADDING`]).
fn wide_problem() -> impl Strategy<Value = Problem> {
    (1usize..=4).prop_flat_map(|vars| {
        let value = prop_oneof![3 => -3..=3i32, 2 => prop::sample::select(&FAR[..])];
        let first = (
            -3..=3i32,
            prop::sample::select(&FAR[5..]),
            prop::collection::btree_set(value.clone(), 0..=2),
        );
        let others = prop::collection::vec(prop::collection::btree_set(value, 1..=4), vars - 1);
        let specs = prop::collection::vec(spec(view(vars), vars), 0..=4);
        let padding = prop_oneof![3 => Just(0), 1 => Just(common::TRAILING_PADDING)];
        (first, others, specs, padding).prop_map(
            |((near, far, mut rest), others, specs, padding)| {
                rest.extend([near, far]);
                let domains = std::iter::once(rest)
                    .chain(others)
                    .map(|d| d.into_iter().collect())
                    .collect();
                Problem {
                    domains,
                    specs,
                    padding,
                }
            },
        )
    })
}

/// Every assignment satisfying every constraint, by enumeration.
fn brute_force(problem: &Problem) -> BTreeSet<Vec<i32>> {
    common::brute_force(&problem.domains, &|values| {
        problem.specs.iter().all(|s| s.holds(values))
    })
}

/// The model of an accepted problem, its all-different constraints posted as
/// `posting` says (first: see [`post_all_different`]).
fn build(problem: &Problem, posting: Posting) -> Result<(Model, Vec<VarId>), TestCaseError> {
    let mut model = Model::new();
    let vars = common::vars(&mut model, &problem.domains);
    common::vars(&mut model, &vec![vec![0]; problem.padding]);
    let groups: Vec<_> = problem.specs.iter().filter_map(Spec::group).collect();
    post_all_different(&mut model, &vars, &problem.domains, &groups, posting)?;
    for spec in &problem.specs {
        if !matches!(spec, Spec::AllDifferent(_)) {
            prop_assert_eq!(spec.post(&mut model, &vars), Ok(()));
        }
    }
    Ok((model, vars))
}

/// Every solver setting finds exactly the brute-force solutions of `problem`, and
/// counts and solves it accordingly.
fn check_solutions(problem: &Problem) -> Result<(), TestCaseError> {
    let problem = &accepted(problem)?;
    let expected = brute_force(problem);
    for posting in POSTINGS {
        for config in common::all_configs() {
            let (model, vars) = build(problem, posting)?;
            let mut solver = Solver::with_config(model, config.clone());
            let found: Vec<Vec<i32>> = solver
                .solutions()
                .map(Result::unwrap)
                .map(|s| vars.iter().map(|&x| s[x]).collect())
                .collect();
            for solution in &found {
                prop_assert!(
                    problem.specs.iter().all(|s| s.holds(solution)),
                    "{posting:?} {config:?} reported a non-solution {solution:?}"
                );
            }
            let distinct: BTreeSet<Vec<i32>> = found.iter().cloned().collect();
            prop_assert_eq!(distinct.len(), found.len(), "a solution was reported twice");
            prop_assert_eq!(&distinct, &expected, "{:?} {:?}", posting, config);

            let count = solver.count(None);
            prop_assert_eq!(count.solutions, expected.len() as u64);
            prop_assert_eq!(count.status, CountStatus::Complete);
            match solver.solve() {
                Outcome::Solved(s) => {
                    let values: Vec<i32> = vars.iter().map(|&x| s[x]).collect();
                    prop_assert!(expected.contains(&values));
                }
                Outcome::Unsatisfiable => prop_assert!(expected.is_empty()),
                Outcome::Stopped(reason) => prop_assert!(false, "stopped: {reason}"),
            }
        }
        common::check_assumed_then_reset(&expected, &problem.domains, &|| build(problem, posting))?;
    }
    Ok(())
}

/// Root propagation never removes a value that some solution uses, and at
/// `Strength::Domain` on a lone all-different it removes every value no solution uses.
fn check_root_propagation(problem: &Problem) -> Result<(), TestCaseError> {
    let problem = &accepted(problem)?;
    let expected = brute_force(problem);
    for posting in POSTINGS {
        let (model, _) = build(problem, posting)?;
        let mut solver = Solver::new(model);
        match solver.root_domains() {
            None => prop_assert!(expected.is_empty(), "root failed on a satisfiable model"),
            Some(domains) => {
                for solution in &expected {
                    for (var, value) in solution.iter().enumerate() {
                        prop_assert!(
                            domains[var].contains(value),
                            "{posting:?} removed a supported value"
                        );
                    }
                }
            }
        }
    }
    if let [Spec::AllDifferent(views)] = problem.specs.as_slice() {
        let distinct_vars: BTreeSet<usize> = views.iter().map(|&(v, _)| v).collect();
        if distinct_vars.len() == views.len() {
            let (model, _) = build(problem, Posting::Single(Strength::Domain))?;
            let domains = Solver::new(model).root_domains();
            let supported: Vec<BTreeSet<i32>> = (0..problem.domains.len())
                .map(|var| expected.iter().map(|s| s[var]).collect())
                .collect();
            match domains {
                None => prop_assert!(expected.is_empty()),
                Some(domains) => {
                    for &var in &distinct_vars {
                        let kept: BTreeSet<i32> = domains[var].iter().copied().collect();
                        prop_assert_eq!(&kept, &supported[var]);
                    }
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn solutions_equal_brute_force(problem in problem()) {
        check_solutions(&problem)?;
    }

    /// See [`check_root_propagation`].
    #[test]
    fn propagation_is_sound_and_domain_strength_is_complete(problem in problem()) {
        check_root_propagation(&problem)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// The same with domains of several words.
    #[test]
    fn wide_solutions_equal_brute_force(problem in wide_problem()) {
        prop_assert!(common::has_multi_word_domain(&problem.domains));
        check_solutions(&problem)?;
    }

    #[test]
    fn wide_propagation_is_sound_and_domain_strength_is_complete(problem in wide_problem()) {
        prop_assert!(common::has_multi_word_domain(&problem.domains));
        check_root_propagation(&problem)?;
    }
}

/// The wide generator reaches what it is for: every problem has a domain of several
/// words, and some take more store cells than the store copies at choice points.
#[test]
fn wide_problems_have_multi_word_domains_and_some_many_cells() {
    let mut runner = TestRunner::deterministic();
    let strategy = wide_problem();
    let problems: Vec<Problem> = (0..200)
        .map(|_| strategy.new_tree(&mut runner).unwrap().current())
        .collect();
    assert!(
        (problems.iter()).all(|p| common::has_multi_word_domain(&p.domains)),
        "every wide problem has a domain of several words"
    );
    let many_cells = (problems.iter())
        .filter(|p| p.cells() > common::COPY_CELLS)
        .count();
    assert!(
        many_cells >= 20,
        "{many_cells} of 200 wide problems take more than {} cells",
        common::COPY_CELLS
    );
}
