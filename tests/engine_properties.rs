//! Property tests: on small random models the solver agrees with brute-force
//! enumeration, for every all-different strength and every search heuristic; so do
//! models with domains wider than 64 values (several words, some more than 128 store
//! cells).

mod common;

use std::collections::BTreeSet;

use alldiff::{CountStatus, Model, Outcome, Solver, Strength, VarId};
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
    fn holds(&self, values: &[i32]) -> bool {
        let at = |(var, offset): (usize, i32)| values[var] + offset;
        match self {
            Spec::AllDifferent(views) => {
                let seen: BTreeSet<i32> = views.iter().map(|&v| at(v)).collect();
                seen.len() == views.len()
            }
            Spec::NotEqual(a, b) => at(*a) != at(*b),
            Spec::Equal(a, b) => at(*a) == at(*b),
        }
    }
}

#[derive(Clone, Debug)]
struct Problem {
    domains: Vec<Vec<i32>>,
    specs: Vec<Spec>,
}

fn view(vars: usize) -> impl Strategy<Value = (usize, i32)> {
    (0..vars, -2..=2i32)
}

fn problem() -> impl Strategy<Value = Problem> {
    (1usize..=5).prop_flat_map(|vars| {
        let domains = prop::collection::vec(prop::collection::btree_set(-3..=3i32, 1..=5), vars);
        let spec = prop_oneof![
            prop::collection::vec(view(vars), 1..=vars + 1).prop_map(Spec::AllDifferent),
            (view(vars), view(vars)).prop_map(|(a, b)| Spec::NotEqual(a, b)),
            (view(vars), view(vars)).prop_map(|(a, b)| Spec::Equal(a, b)),
        ];
        (domains, prop::collection::vec(spec, 0..=4)).prop_map(|(domains, specs)| Problem {
            domains: domains
                .into_iter()
                .map(|d| d.into_iter().collect())
                .collect(),
            specs,
        })
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
/// several words), the others mix small and far values; with 8190 or 8191, a domain
/// takes more than 128 store cells by itself.
fn wide_problem() -> impl Strategy<Value = Problem> {
    (1usize..=4).prop_flat_map(|vars| {
        let value = prop_oneof![3 => -3..=3i32, 2 => prop::sample::select(&FAR[..])];
        let first = (
            -3..=3i32,
            prop::sample::select(&FAR[5..]),
            prop::collection::btree_set(value.clone(), 0..=2),
        );
        let others = prop::collection::vec(prop::collection::btree_set(value, 1..=4), vars - 1);
        let spec = prop_oneof![
            prop::collection::vec(view(vars), 1..=vars + 1).prop_map(Spec::AllDifferent),
            (view(vars), view(vars)).prop_map(|(a, b)| Spec::NotEqual(a, b)),
            (view(vars), view(vars)).prop_map(|(a, b)| Spec::Equal(a, b)),
        ];
        (first, others, prop::collection::vec(spec, 0..=4)).prop_map(
            |((near, far, mut rest), others, specs)| {
                rest.extend([near, far]);
                let domains = std::iter::once(rest)
                    .chain(others)
                    .map(|d| d.into_iter().collect())
                    .collect();
                Problem { domains, specs }
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

fn build(problem: &Problem, strength: Strength) -> (Model, Vec<VarId>) {
    let mut model = Model::new();
    let vars = common::vars(&mut model, &problem.domains);
    let v = |(var, offset): (usize, i32)| vars[var] + offset;
    for spec in &problem.specs {
        match spec {
            Spec::AllDifferent(views) => {
                model
                    .all_different_with(views.iter().map(|&x| v(x)), strength)
                    .unwrap();
            }
            Spec::NotEqual(a, b) => {
                model.not_equal(v(*a), v(*b)).unwrap();
            }
            Spec::Equal(a, b) => {
                model.equal(v(*a), v(*b)).unwrap();
            }
        }
    }
    (model, vars)
}

/// Every solver setting finds exactly the brute-force solutions of `problem`, and
/// counts and solves it accordingly.
fn check_solutions(problem: &Problem) -> Result<(), TestCaseError> {
    let expected = brute_force(problem);
    for strength in [Strength::Value, Strength::HiddenSingles, Strength::Domain] {
        for config in common::all_configs() {
            let (model, vars) = build(problem, strength);
            let mut solver = Solver::with_config(model, config);
            let found: Vec<Vec<i32>> = solver
                .solutions()
                .map(|s| vars.iter().map(|&x| s[x]).collect())
                .collect();
            for solution in &found {
                prop_assert!(
                    problem.specs.iter().all(|s| s.holds(solution)),
                    "{strength:?} {config:?} reported a non-solution {solution:?}"
                );
            }
            let distinct: BTreeSet<Vec<i32>> = found.iter().cloned().collect();
            prop_assert_eq!(distinct.len(), found.len(), "a solution was reported twice");
            prop_assert_eq!(&distinct, &expected, "{:?} {:?}", strength, config);

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
    }
    Ok(())
}

/// Root propagation never removes a value that some solution uses, and at
/// `Strength::Domain` on a lone all-different it removes every value no solution uses.
fn check_root_propagation(problem: &Problem) -> Result<(), TestCaseError> {
    let expected = brute_force(problem);
    for strength in [Strength::Value, Strength::HiddenSingles, Strength::Domain] {
        let (model, _) = build(problem, strength);
        let mut solver = Solver::new(model);
        match solver.root_domains() {
            None => prop_assert!(expected.is_empty(), "root failed on a satisfiable model"),
            Some(domains) => {
                for solution in &expected {
                    for (var, value) in solution.iter().enumerate() {
                        prop_assert!(
                            domains[var].contains(value),
                            "{strength:?} removed a supported value"
                        );
                    }
                }
            }
        }
    }
    if let [Spec::AllDifferent(views)] = problem.specs.as_slice() {
        let distinct_vars: BTreeSet<usize> = views.iter().map(|&(v, _)| v).collect();
        if distinct_vars.len() == views.len() {
            let (model, _) = build(problem, Strength::Domain);
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
        .filter(|p| common::domain_cells(&p.domains) > common::COPY_CELLS)
        .count();
    assert!(
        many_cells >= 20,
        "{many_cells} of 200 wide problems take more than {} cells",
        common::COPY_CELLS
    );
}
