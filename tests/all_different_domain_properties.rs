//! Property tests of the domain-consistent all-different (Régin's matching) when some
//! views have more values than there are views: the matching then sees only part of
//! those wide domains, and must still remove exactly the values no solution uses.
//! Domains at the edges (`common::edges`: word boundaries, spans of a word and a bit
//! or two words, wide sparse spans, the ends of `i32`) do the same, and there every
//! posting of all-different finds the brute-force solutions.

mod common;

use std::collections::BTreeSet;

use alldiff::{Model, Outcome, SearchConfig, Solver, Strength, VarId};
use common::edges::small_or_edge_domains;
use common::postings::check_every_posting;
use proptest::prelude::*;

/// Values far apart, so that the views' values never fit the bitmask paths.
const POOL: [i32; 8] = [0, 300, 600, 900, 1200, 1500, 1800, 2100];

/// A domain: a few values of [`POOL`], or a wide one, an interval around some of them
/// with holes.
fn domain() -> impl Strategy<Value = BTreeSet<i32>> {
    let few = prop::collection::btree_set(prop::sample::select(&POOL[..]), 1..=4);
    let wide = (
        prop::sample::select(&POOL[..]),
        10..=400i32,
        prop::collection::btree_set(0..400i32, 0..=40),
        prop::collection::btree_set(prop::sample::select(&POOL[..]), 0..=3),
    )
        .prop_map(|(lo, len, holes, extra)| {
            let mut values: BTreeSet<i32> = (lo..lo + len)
                .filter(|v| !holes.contains(&(v - lo)))
                .collect();
            values.extend(extra);
            values.insert(lo);
            values
        });
    prop_oneof![3 => few, 2 => wide]
}

/// Whether the views `rest` (indices into `domains`) can take pairwise different
/// values, none in `used`: a search over the smallest domains first, so that a
/// failure among few values is found before the wide domains are tried.
fn assignable(domains: &[BTreeSet<i32>], rest: &[usize], used: &mut Vec<i32>) -> bool {
    let Some((&first, others)) = rest.split_first() else {
        return true;
    };
    for &v in &domains[first] {
        if !used.contains(&v) {
            used.push(v);
            let found = assignable(domains, others, used);
            used.pop();
            if found {
                return true;
            }
        }
    }
    false
}

/// For each view, the values some solution of the all-different gives it.
fn supported(domains: &[BTreeSet<i32>]) -> Vec<BTreeSet<i32>> {
    (0..domains.len())
        .map(|x| {
            let mut others: Vec<usize> = (0..domains.len()).filter(|&y| y != x).collect();
            others.sort_by_key(|&y| domains[y].len());
            (domains[x].iter().copied())
                .filter(|&v| assignable(domains, &others, &mut vec![v]))
                .collect()
        })
        .collect()
}

/// At the root, a lone domain-strength all-different keeps exactly the supported
/// values of every view, and fails exactly when nothing is supported.
fn check_complete(domains: &[BTreeSet<i32>]) -> Result<(), TestCaseError> {
    let mut model = Model::new();
    let vars: Vec<VarId> = (domains.iter())
        .map(|d| model.var_from_values(d.iter().copied()).unwrap())
        .collect();
    model
        .all_different_with(vars.iter().copied(), Strength::Domain)
        .unwrap();
    let expected = supported(domains);
    match Solver::new(model).root_domains() {
        None => prop_assert!(expected.iter().any(BTreeSet::is_empty)),
        Some(found) => {
            for (x, values) in found.iter().enumerate() {
                let kept: BTreeSet<i32> = values.iter().copied().collect();
                prop_assert_eq!(&kept, &expected[x], "view {}", x);
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn domain_strength_is_complete_beside_wide_domains(
        domains in prop::collection::vec(domain(), 2..=5)
    ) {
        check_complete(&domains)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    /// The same at the edges, where every posting also finds the brute-force
    /// solutions.
    #[test]
    fn domain_strength_is_complete_at_the_edges(domains in small_or_edge_domains(2..=5, 4)) {
        let sets: Vec<BTreeSet<i32>> = domains.iter().map(|d| d.iter().copied().collect()).collect();
        check_complete(&sets)?;
        let group: Vec<(usize, i32)> = (0..domains.len()).map(|x| (x, 0)).collect();
        check_every_posting(&domains, &[group], &[SearchConfig::new()])?;
    }
}

/// Views without bounds as the FlatZinc reader clamps them (2 * 10^8 values each)
/// beside a Hall pair. At domain strength the pair's values leave them at the root,
/// with no search: the matching sees a few of their values, not all 6 * 10^8 (before
/// it did, this test ran out of memory). Hidden singles give the same answers.
#[test]
fn wide_domains_beside_a_hall_pair_take_no_work_per_value() {
    for strength in [Strength::HiddenSingles, Strength::Domain] {
        let mut model = Model::new();
        let wide: Vec<_> = (0..3)
            .map(|_| model.int_var(-100_000_000, 100_000_000).unwrap())
            .collect();
        let pair = model.int_vars(2, 1, 2).unwrap();
        model
            .all_different_with(wide.iter().chain(&pair).copied(), strength)
            .unwrap();
        let mut solver = Solver::new(model);
        for (value, solvable) in [(1, false), (2, false), (3, true), (-100_000_000, true)] {
            solver.reset();
            solver.assume(wide[1], value).unwrap();
            let outcome = solver.solve();
            assert!(!matches!(outcome, Outcome::Stopped(_)));
            assert_eq!(matches!(outcome, Outcome::Solved(_)), solvable, "{value}");
            if strength == Strength::Domain && !solvable {
                assert_eq!(solver.statistics().nodes, 0, "{value} fails at the root");
            }
        }
    }
}
