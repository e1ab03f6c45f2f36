//! Property tests for `AllDifferentSystem`: on small random systems of groups, the
//! solutions equal brute-force enumeration and those of the same groups posted as
//! separate all-different constraints, with and without locked candidates, and stay
//! right under solver levels and exclusions. The domains lie near zero or at the edges
//! (`common::edges`): a system whose values span more than one 64-value window must
//! be refused with a typed error. Big systems (more variables than the store copies
//! the cells of, so that it trails instead, and sets of several words) do the same.

mod common;

use std::collections::BTreeSet;

use alldiff::constraints::LockedCandidates;
use alldiff::{Model, SearchConfig, Solver, ValueOrder, VarId, VariableOrder};
use common::edges::small_or_edge_domains;
use common::postings::{POSTINGS, Posting, post_all_different};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

#[derive(Clone, Debug)]
struct System {
    domains: Vec<Vec<i32>>,
    groups: Vec<Vec<usize>>,
    /// Extra `x != y` constraints, so that other propagators change domains too.
    not_equal: Vec<(usize, usize)>,
}

fn system() -> impl Strategy<Value = System> {
    (3usize..=6).prop_flat_map(|vars| {
        let domains = small_or_edge_domains(vars, 4);
        let group = prop::collection::btree_set(0..vars, 1..=vars)
            .prop_map(|g| g.into_iter().collect::<Vec<_>>());
        let groups = prop::collection::vec(group, 1..=4);
        let not_equal = prop::collection::vec((0..vars, 0..vars), 0..=1);
        (domains, groups, not_equal).prop_map(|(domains, groups, not_equal)| System {
            domains,
            groups,
            not_equal,
        })
    })
}

/// A padding variable's one value: ten consecutive ones differ, and the first few
/// fall among the small system's values.
fn padding_value(j: usize) -> i32 {
    (j % 40) as i32 - 2
}

/// A system whose store has more cells than it copies at choice points
/// ([`common::COPY_CELLS`]): a small random system (3 to 5 variables, up to 3 values
/// each), then `COPY_CELLS - 2` to `COPY_CELLS + 12` padding
/// variables, each fixed to [`padding_value`] except at most two that may take a
/// value of the small system too, in groups of ten consecutive ones, and a few groups
/// mixing variables of both. The brute force stays small: the padding is fixed.
fn big_system() -> impl Strategy<Value = System> {
    (3usize..=5, common::COPY_CELLS - 2..=common::COPY_CELLS + 12).prop_flat_map(
        |(core, padding)| {
            let vars = core + padding;
            let domains =
                prop::collection::vec(prop::collection::btree_set(-2..=3i32, 1..=3), core);
            let groups =
                prop::collection::vec(prop::collection::btree_set(0..core, 1..=core), 1..=3);
            let mixed = prop::collection::vec(
                (
                    prop::collection::btree_set(0..core, 1..=2),
                    prop::collection::btree_set(core..vars, 1..=3),
                ),
                1..=3,
            );
            let loose = prop::collection::vec((core..vars, -2..=3i32), 0..=2);
            let not_equal = prop::collection::vec((0..vars, 0..vars), 0..=1);
            (domains, groups, mixed, loose, not_equal).prop_map(
                move |(domains, groups, mixed, loose, not_equal)| {
                    let mut domains: Vec<Vec<i32>> = (domains.into_iter())
                        .map(|d| d.into_iter().collect())
                        .collect();
                    domains.extend((0..padding).map(|j| vec![padding_value(j)]));
                    for (j, other) in loose {
                        let domain: BTreeSet<i32> = [padding_value(j - core), other].into();
                        domains[j] = domain.into_iter().collect();
                    }
                    let mut groups: Vec<Vec<usize>> = (groups.into_iter())
                        .map(|g| g.into_iter().collect())
                        .collect();
                    let padding: Vec<usize> = (core..vars).collect();
                    groups.extend(padding.chunks(10).map(<[usize]>::to_vec));
                    groups.extend(
                        mixed
                            .into_iter()
                            .map(|(a, b)| a.into_iter().chain(b).collect()),
                    );
                    System {
                        domains,
                        groups,
                        not_equal,
                    }
                },
            )
        },
    )
}

/// Fails unless `system` takes more store cells than the store copies at choice
/// points: the big systems must make it trail.
fn check_is_big(system: &System) -> Result<(), TestCaseError> {
    let cells = common::domain_cells(&system.domains);
    prop_assert!(
        cells > common::COPY_CELLS,
        "{} cells: the store would copy them",
        cells
    );
    Ok(())
}

fn brute_force(system: &System) -> BTreeSet<Vec<i32>> {
    common::brute_force(&system.domains, &|values| {
        let groups_hold = system.groups.iter().all(|g| {
            let seen: BTreeSet<i32> = g.iter().map(|&i| values[i]).collect();
            seen.len() == g.len()
        });
        groups_hold
            && system
                .not_equal
                .iter()
                .all(|&(a, b)| values[a] != values[b])
    })
}

/// Every setting of the locked-candidates rule.
const LOCKED: [LockedCandidates; 3] = [
    LockedCandidates::Off,
    LockedCandidates::AtRoot,
    LockedCandidates::Always,
];

/// The model of `system`, its groups posted as `posting` says (a system that spans
/// more than a window is checked to be refused, and its groups posted one by one),
/// and its variables.
fn model(system: &System, posting: Posting) -> Result<(Model, Vec<VarId>), TestCaseError> {
    let mut model = Model::new();
    let vars = common::vars(&mut model, &system.domains);
    let groups: Vec<Vec<(usize, i32)>> = (system.groups.iter())
        .map(|g| g.iter().map(|&i| (i, 0)).collect())
        .collect();
    post_all_different(&mut model, &vars, &system.domains, &groups, posting)?;
    for &(a, b) in &system.not_equal {
        model.not_equal(vars[a], vars[b]).unwrap();
    }
    Ok((model, vars))
}

fn solutions(
    system: &System,
    posting: Posting,
    config: &SearchConfig,
) -> Result<BTreeSet<Vec<i32>>, TestCaseError> {
    let (model, vars) = model(system, posting)?;
    let mut solver = Solver::with_config(model, config.clone());
    let found: Vec<Vec<i32>> = solver
        .solutions()
        .map(Result::unwrap)
        .map(|s| vars.iter().map(|&x| s[x]).collect())
        .collect();
    let distinct: BTreeSet<Vec<i32>> = found.iter().cloned().collect();
    assert_eq!(distinct.len(), found.len(), "a solution was reported twice");
    assert_eq!(
        solver.count(None).solutions,
        found.len() as u64,
        "count agrees {posting:?} {config:?}"
    );
    Ok(distinct)
}

/// The solutions of `system` equal brute force, posted as separate constraints at
/// each strength or as a system with each setting of locked candidates, under four
/// search settings.
fn check_solutions(system: &System) -> Result<(), TestCaseError> {
    let expected = brute_force(system);
    for config in [
        SearchConfig::new(),
        SearchConfig::new()
            .variable_order(VariableOrder::DomOverWeightedDegree)
            .value_order(ValueOrder::Descending),
        SearchConfig::new()
            .variable_order(VariableOrder::InputOrder)
            .value_order(ValueOrder::Random(7)),
        SearchConfig::new().variable_order(VariableOrder::SmallestDomainWeightedDegree),
    ] {
        for posting in POSTINGS {
            let found = solutions(system, posting, &config)?;
            prop_assert_eq!(&found, &expected, "{:?} {:?}", posting, config);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn system_solutions_equal_brute_force_and_separate_constraints(system in system()) {
        check_solutions(&system)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(25))]

    /// The same with more cells than the store copies: it trails, the sets take
    /// several words.
    #[test]
    fn big_system_solutions_equal_brute_force_and_separate_constraints(system in big_system()) {
        check_is_big(&system)?;
        check_solutions(&system)?;
    }
}

/// The solutions `solver` finds now, checked against its count.
fn found(solver: &mut Solver, vars: &[VarId]) -> BTreeSet<Vec<i32>> {
    let all: Vec<Vec<i32>> = solver
        .solutions()
        .map(Result::unwrap)
        .map(|s| vars.iter().map(|&x| s[x]).collect())
        .collect();
    assert_eq!(solver.count(None).solutions, all.len() as u64);
    all.into_iter().collect()
}

/// Levels pushed and popped one by one (each fixing variable `i % n` to `v`), and
/// exclusions assumed per search, give the brute-force solutions that agree with them,
/// while the system keeps its sets as backtrackable state across all of it.
fn check_levels(
    system: &System,
    levels: &[(usize, i32)],
    excluded: &[(usize, i32)],
    locked: LockedCandidates,
) -> Result<(), TestCaseError> {
    let all = brute_force(system);
    let n = system.domains.len();
    let (model, vars) = model(system, Posting::System(locked))?;
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
        for &(i, v) in excluded {
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
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// See [`check_levels`].
    #[test]
    fn levels_and_exclusions_restrict_the_solutions_as_brute_force_says(
        system in system(),
        levels in prop::collection::vec((0usize..6, any::<prop::sample::Index>()), 0..=3),
        excluded in prop::collection::vec((0usize..6, any::<prop::sample::Index>()), 0..=2),
        locked in prop::sample::select(&LOCKED[..]),
    ) {
        // Values of the variables' domains.
        let n = system.domains.len();
        let value = |&(i, k): &(usize, prop::sample::Index)| (i, *k.get(&system.domains[i % n]));
        let levels: Vec<(usize, i32)> = levels.iter().map(value).collect();
        let excluded: Vec<(usize, i32)> = excluded.iter().map(value).collect();
        check_levels(&system, &levels, &excluded, locked)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// The same with more cells than the store copies; levels and exclusions fall on the small
    /// system's variables and on the first padding ones.
    #[test]
    fn big_levels_and_exclusions_restrict_the_solutions_as_brute_force_says(
        system in big_system(),
        levels in prop::collection::vec((0usize..12, -2..=9i32), 0..=3),
        excluded in prop::collection::vec((0usize..12, -2..=9i32), 0..=2),
        locked in prop::sample::select(&LOCKED[..]),
    ) {
        check_is_big(&system)?;
        check_levels(&system, &levels, &excluded, locked)?;
    }
}
