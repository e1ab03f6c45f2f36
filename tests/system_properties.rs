//! Property tests for `AllDifferentSystem`: on small random systems of groups, the
//! solutions equal brute-force enumeration and those of the same groups posted as
//! separate all-different constraints, with and without locked candidates, and stay
//! right under solver levels and exclusions.

use std::collections::BTreeSet;

use alldiff::constraints::{AllDifferentSystem, LockedCandidates};
use alldiff::{Model, SearchConfig, Solver, Strength, ValueOrder, VarId, VariableOrder};
use proptest::prelude::*;

#[derive(Clone, Debug)]
struct System {
    domains: Vec<Vec<i32>>,
    groups: Vec<Vec<usize>>,
    /// Extra `x != y` constraints, so that other propagators change domains too.
    not_equal: Vec<(usize, usize)>,
}

fn system() -> impl Strategy<Value = System> {
    (3usize..=6).prop_flat_map(|vars| {
        let domains = prop::collection::vec(prop::collection::btree_set(-2..=3i32, 1..=4), vars);
        let group = prop::collection::btree_set(0..vars, 1..=vars)
            .prop_map(|g| g.into_iter().collect::<Vec<_>>());
        let groups = prop::collection::vec(group, 1..=4);
        let not_equal = prop::collection::vec((0..vars, 0..vars), 0..=1);
        (domains, groups, not_equal).prop_map(|(domains, groups, not_equal)| System {
            domains: domains
                .into_iter()
                .map(|d| d.into_iter().collect())
                .collect(),
            groups,
            not_equal,
        })
    })
}

fn brute_force(system: &System) -> BTreeSet<Vec<i32>> {
    let mut found = BTreeSet::new();
    let n = system.domains.len();
    let mut index = vec![0usize; n];
    loop {
        let values: Vec<i32> = (0..n).map(|i| system.domains[i][index[i]]).collect();
        let groups_hold = system.groups.iter().all(|g| {
            let seen: BTreeSet<i32> = g.iter().map(|&i| values[i]).collect();
            seen.len() == g.len()
        });
        if groups_hold
            && system
                .not_equal
                .iter()
                .all(|&(a, b)| values[a] != values[b])
        {
            found.insert(values);
        }
        let mut i = 0;
        loop {
            if i == n {
                return found;
            }
            index[i] += 1;
            if index[i] < system.domains[i].len() {
                break;
            }
            index[i] = 0;
            i += 1;
        }
    }
}

/// How the groups are posted.
/// Every setting of the locked-candidates rule.
const LOCKED: [LockedCandidates; 3] = [
    LockedCandidates::Off,
    LockedCandidates::AtRoot,
    LockedCandidates::Always,
];

#[derive(Clone, Copy, Debug)]
enum Posting {
    Separate,
    System { locked: LockedCandidates },
}

/// The model of `system`, posted as `posting`, and its variables.
fn model(system: &System, posting: Posting) -> (Model, Vec<VarId>) {
    let mut model = Model::new();
    let vars: Vec<VarId> = system
        .domains
        .iter()
        .map(|d| model.var_from_values(d.iter().copied()).unwrap())
        .collect();
    let groups = system
        .groups
        .iter()
        .map(|g| g.iter().map(|&i| vars[i]).collect::<Vec<_>>());
    match posting {
        Posting::Separate => {
            for group in groups {
                model
                    .all_different_with(group, Strength::HiddenSingles)
                    .unwrap();
            }
        }
        Posting::System { locked } => {
            let constraint = AllDifferentSystem::new(&model, groups).unwrap();
            model.post(constraint.locked_candidates(locked)).unwrap();
        }
    }
    for &(a, b) in &system.not_equal {
        model.not_equal(vars[a], vars[b]).unwrap();
    }
    (model, vars)
}

fn solutions(system: &System, posting: Posting, config: SearchConfig) -> BTreeSet<Vec<i32>> {
    let (model, vars) = model(system, posting);
    let mut solver = Solver::with_config(model, config);
    let found: Vec<Vec<i32>> = solver
        .solutions()
        .map(|s| vars.iter().map(|&x| s[x]).collect())
        .collect();
    let distinct: BTreeSet<Vec<i32>> = found.iter().cloned().collect();
    assert_eq!(distinct.len(), found.len(), "a solution was reported twice");
    assert_eq!(
        solver.count(None).solutions,
        found.len() as u64,
        "count agrees {posting:?} {config:?}"
    );
    distinct
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn system_solutions_equal_brute_force_and_separate_constraints(system in system()) {
        let expected = brute_force(&system);
        for config in [
            SearchConfig::new(),
            SearchConfig::new()
                .variable_order(VariableOrder::DomOverWeightedDegree)
                .value_order(ValueOrder::Descending),
            SearchConfig::new()
                .variable_order(VariableOrder::InputOrder)
                .value_order(ValueOrder::Random(7)),
        ] {
            prop_assert_eq!(&solutions(&system, Posting::Separate, config), &expected);
            for locked in LOCKED {
                let found = solutions(&system, Posting::System { locked }, config);
                prop_assert_eq!(&found, &expected, "locked {:?} {:?}", locked, config);
            }
        }
    }
}

/// The solutions `solver` finds now, checked against its count.
fn found(solver: &mut Solver, vars: &[VarId]) -> BTreeSet<Vec<i32>> {
    let all: Vec<Vec<i32>> = solver
        .solutions()
        .map(|s| vars.iter().map(|&x| s[x]).collect())
        .collect();
    assert_eq!(solver.count(None).solutions, all.len() as u64);
    all.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Levels pushed and popped one by one, and exclusions assumed per search, give the
    /// brute-force solutions that agree with them, while the system keeps its sets as
    /// backtrackable state across all of it.
    #[test]
    fn levels_and_exclusions_restrict_the_solutions_as_brute_force_says(
        system in system(),
        levels in prop::collection::vec((0usize..6, -2..=3i32), 0..=3),
        excluded in prop::collection::vec((0usize..6, -2..=3i32), 0..=2),
        locked in prop::sample::select(&LOCKED[..]),
    ) {
        let all = brute_force(&system);
        let n = system.domains.len();
        let (model, vars) = model(&system, Posting::System { locked });
        let mut solver = Solver::new(model);
        let expected = |depth: usize| -> BTreeSet<Vec<i32>> {
            all.iter()
                .filter(|s| levels[..depth].iter().all(|&(i, v)| s[i % n] == v))
                .filter(|s| excluded.iter().all(|&(i, v)| s[i % n] != v))
                .cloned()
                .collect()
        };
        let check = |solver: &mut Solver| {
            solver.reset();
            for &(i, v) in &excluded {
                solver.assume_not(vars[i % n], v).unwrap();
            }
            found(solver, &vars)
        };
        prop_assert_eq!(check(&mut solver), expected(0));
        for depth in 1..=levels.len() {
            let (i, v) = levels[depth - 1];
            solver.push_level([(vars[i % n], v)]).unwrap();
            prop_assert_eq!(check(&mut solver), expected(depth), "pushed {}", depth);
        }
        for depth in (0..levels.len()).rev() {
            solver.pop_level();
            prop_assert_eq!(check(&mut solver), expected(depth), "popped to {}", depth);
        }
    }
}
