//! Property tests: on small random models the solver agrees with brute-force
//! enumeration, for every all-different strength and every search heuristic.

mod common;

use std::collections::BTreeSet;

use alldiff::{CountStatus, Model, Outcome, Solver, Strength, VarId};
use proptest::prelude::*;

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

/// Every assignment satisfying every constraint, by enumeration.
fn brute_force(problem: &Problem) -> BTreeSet<Vec<i32>> {
    let mut found = BTreeSet::new();
    let mut values = vec![0; problem.domains.len()];
    fn walk(problem: &Problem, var: usize, values: &mut Vec<i32>, found: &mut BTreeSet<Vec<i32>>) {
        if var == problem.domains.len() {
            if problem.specs.iter().all(|s| s.holds(values)) {
                found.insert(values.clone());
            }
            return;
        }
        for &v in &problem.domains[var] {
            values[var] = v;
            walk(problem, var + 1, values, found);
        }
    }
    walk(problem, 0, &mut values, &mut found);
    found
}

fn build(problem: &Problem, strength: Strength) -> (Model, Vec<VarId>) {
    let mut model = Model::new();
    let vars: Vec<VarId> = problem
        .domains
        .iter()
        .map(|d| model.var_from_values(d.iter().copied()).unwrap())
        .collect();
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn solutions_equal_brute_force(problem in problem()) {
        let expected = brute_force(&problem);
        for strength in [Strength::Value, Strength::HiddenSingles, Strength::Domain] {
            for config in common::all_configs() {
                let (model, vars) = build(&problem, strength);
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
    }

    /// Root propagation never removes a value that some solution uses, and at
    /// `Strength::Domain` on a lone all-different it removes every value no solution uses.
    #[test]
    fn propagation_is_sound_and_domain_strength_is_complete(problem in problem()) {
        let expected = brute_force(&problem);
        for strength in [Strength::Value, Strength::HiddenSingles, Strength::Domain] {
            let (model, _) = build(&problem, strength);
            let mut solver = Solver::new(model);
            match solver.root_domains() {
                None => prop_assert!(expected.is_empty(), "root failed on a satisfiable model"),
                Some(domains) => {
                    for solution in &expected {
                        for (var, value) in solution.iter().enumerate() {
                            prop_assert!(domains[var].contains(value), "{strength:?} removed a supported value");
                        }
                    }
                }
            }
        }
        if let [Spec::AllDifferent(views)] = problem.specs.as_slice() {
            let distinct_vars: BTreeSet<usize> = views.iter().map(|&(v, _)| v).collect();
            if distinct_vars.len() == views.len() {
                let (model, _) = build(&problem, Strength::Domain);
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
    }
}
