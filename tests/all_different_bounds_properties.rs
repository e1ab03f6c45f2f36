//! Property tests: bounds all-different ([`Strength::Bounds`]) reaches exactly the
//! fixpoint of its two rules, computed by brute force: a fixed view's value leaves the
//! other views, and a view's minimum or maximum goes when no assignment of the other
//! views, each within its bounds (holes ignored), differs from it and from one
//! another. Checked at the root and after each of a few assumptions pushed as levels
//! (so that the propagator also runs incrementally, woken by the changes), with views
//! that share variables and domains wider than 64 values, and with domains and
//! offsets at the edges (`common::edges`), where every other posting of
//! all-different is checked against brute force as well.

mod common;

use std::collections::BTreeSet;

use alldiff::{Model, SearchConfig, Solver, Strength, View};
use common::edges::{check_posted, offset_for, small_or_edge_domains, value_range, view_fits};
use common::postings::check_every_posting;
use proptest::prelude::*;

type Domains = Vec<BTreeSet<i32>>;

#[derive(Clone, Debug)]
struct Case {
    domains: Domains,
    /// (variable, offset) per view.
    views: Vec<(usize, i32)>,
    /// Assumptions `variable = value`, pushed one level each.
    assumptions: Vec<(usize, i32)>,
}

fn case() -> impl Strategy<Value = Case> {
    (2usize..=6, any::<bool>()).prop_flat_map(|(vars, wide)| {
        // A far value makes a domain span more than 64 values (several words).
        let far = if wide { 200 } else { 0 };
        // Short runs of values, now and then with a hole: packed enough for Hall
        // intervals.
        let domain = (-3..=3i32, 0..=3i32, any::<u8>(), any::<bool>()).prop_map(
            move |(lo, width, holes, add)| {
                let mut d: BTreeSet<i32> = (lo..=lo + width)
                    .filter(|&v| v == lo || v == lo + width || holes >> (v - lo) & 1 == 0)
                    .collect();
                if far != 0 && add {
                    d.insert(far);
                }
                d
            },
        );
        let domains = prop::collection::vec(domain, vars);
        // One view per variable, and in half the cases one to three more views of
        // some of them.
        let offsets = prop::collection::vec(-2..=2i32, vars);
        let extra = prop_oneof![
            Just(Vec::new()),
            prop::collection::vec((0..vars, -2..=2i32), 1..=3),
        ];
        let assumptions = prop::collection::vec((0..vars, -3..=4i32), 0..=3);
        (domains, offsets, extra, assumptions).prop_map(|(domains, offsets, extra, assumptions)| {
            Case {
                domains,
                views: offsets.into_iter().enumerate().chain(extra).collect(),
                assumptions,
            }
        })
    })
}

/// Domains near zero or at the edges, a view of each variable with an offset that
/// may take it to either end of `i32` or past it, sometimes more views, and
/// assumptions of values of the domains.
fn edge_case() -> impl Strategy<Value = Case> {
    small_or_edge_domains(2..=6, 4).prop_flat_map(|domains| {
        let vars = domains.len();
        let (low, high) = value_range(&domains);
        let offsets = prop::collection::vec(offset_for(low, high), vars);
        let extra = prop_oneof![
            Just(Vec::new()),
            prop::collection::vec((0..vars, offset_for(low, high)), 1..=2),
        ];
        let pick = (0..vars, any::<prop::sample::Index>());
        let picks = prop::collection::vec(pick, 0..=3);
        (Just(domains), offsets, extra, picks).prop_map(|(domains, offsets, extra, picks)| {
            let assumptions = (picks.into_iter())
                .map(|(x, k)| (x, *k.get(&domains[x])))
                .collect();
            Case {
                domains: domains.into_iter().map(BTreeSet::from_iter).collect(),
                views: offsets.into_iter().enumerate().chain(extra).collect(),
                assumptions,
            }
        })
    })
}

/// Whether the views but `skip` can take pairwise different values, each within its
/// bounds `[lo, hi]`, none equal to `value`: the greedy matching of intervals (by
/// ascending maximum, each the smallest value free), exact for intervals.
fn supported(bounds: &[(i64, i64)], skip: usize, value: i64) -> bool {
    let mut others: Vec<(i64, i64)> = (bounds.iter().enumerate())
        .filter(|&(i, _)| i != skip)
        .map(|(_, &(lo, hi))| (hi, lo))
        .collect();
    others.sort_unstable();
    let mut used = BTreeSet::from([value]);
    others.iter().all(|&(hi, lo)| {
        let free = (lo..=hi).find(|v| !used.contains(v));
        free.is_some_and(|v| used.insert(v))
    })
}

/// Removes from `domain` the value that view offset `offset` takes to `value`, if any.
fn remove_view_value(domain: &mut BTreeSet<i32>, value: i64, offset: i32) -> bool {
    i32::try_from(value - i64::from(offset)).is_ok_and(|v| domain.remove(&v))
}

/// The fixpoint of value elimination and bound shaving over `views`, or `None` when a
/// domain empties. In `i64`: the views may reach past `i32`.
fn oracle(mut domains: Domains, views: &[(usize, i32)]) -> Option<Domains> {
    let at = |v: &i32, offset: i32| i64::from(*v) + i64::from(offset);
    loop {
        if domains.iter().any(BTreeSet::is_empty) {
            return None;
        }
        let mut changed = false;
        for (i, &(x, a)) in views.iter().enumerate() {
            if domains[x].len() == 1 {
                let value = at(domains[x].first().unwrap(), a);
                for (j, &(y, b)) in views.iter().enumerate() {
                    if j != i {
                        changed |= remove_view_value(&mut domains[y], value, b);
                    }
                }
            }
        }
        if domains.iter().any(BTreeSet::is_empty) {
            return None;
        }
        let bounds: Vec<(i64, i64)> = (views.iter())
            .map(|&(x, a)| {
                let d = &domains[x];
                (at(d.first().unwrap(), a), at(d.last().unwrap(), a))
            })
            .collect();
        for (j, &(y, b)) in views.iter().enumerate() {
            let (lo, hi) = bounds[j];
            if !supported(&bounds, j, lo) {
                changed |= remove_view_value(&mut domains[y], lo, b);
            }
            if !supported(&bounds, j, hi) {
                changed |= remove_view_value(&mut domains[y], hi, b);
            }
        }
        if !changed {
            return Some(domains);
        }
    }
}

/// Many views (from 20, past the 64 unfixed views that [`Strength::Bounds`] scans
/// pair by pair, to over 128 variables), one per variable, each around a value of its
/// own (so that they can differ) out of a line a little longer than the views: a
/// value or a few close ones, now and then with a hole. Hall intervals abound;
/// assumptions bring conflicts.
fn many() -> impl Strategy<Value = Case> {
    (20usize..=140).prop_flat_map(|vars| {
        let line: Vec<i32> = (0..(vars + vars / 4) as i32).collect();
        let homes = Just(line).prop_shuffle();
        let spreads = prop::collection::vec((0..=2i32, 0..=2i32, any::<u8>()), vars);
        let assumptions = prop::collection::vec((0..vars, 0..(vars + vars / 4) as i32), 0..=3);
        (homes, spreads, assumptions).prop_map(move |(homes, spreads, assumptions)| {
            let domains = (homes.iter().zip(spreads))
                .map(|(&home, (below, above, holes))| {
                    let (lo, hi) = (home - below, home + above);
                    (lo..=hi)
                        .filter(|&v| v == home || v == lo || v == hi || holes >> (v - lo) & 1 == 0)
                        .collect()
                })
                .collect();
            Case {
                domains,
                views: (0..vars).map(|x| (x, 0)).collect(),
                assumptions,
            }
        })
    })
}

/// Posts the case's bounds all-different and compares the domains with the oracle's
/// at the root and after each assumption. A view beyond `i32` must be refused with a
/// typed error (and the case ends there).
fn check(case: &Case) -> Result<(), TestCaseError> {
    let mut model = Model::new();
    let vars: Vec<_> = (case.domains.iter())
        .map(|d| model.var_from_values(d.iter().copied()).unwrap())
        .collect();
    let views: Vec<View> = case.views.iter().map(|&(x, a)| vars[x] + a).collect();
    let domains = as_vecs(&case.domains);
    let fits = (case.views.iter()).all(|&(x, a)| view_fits(&domains[x], a));
    check_posted(model.all_different_with(views, Strength::Bounds), fits)?;
    if !fits {
        return Ok(());
    }
    let mut solver = Solver::new(model);
    let mut domains = case.domains.clone();
    let expected = oracle(domains.clone(), &case.views);
    prop_assert_eq!(
        solver.root_domains(),
        expected.as_ref().map(as_vecs),
        "root"
    );
    for &(x, value) in &case.assumptions {
        domains[x].retain(|&v| v == value);
        let expected = oracle(domains.clone(), &case.views);
        solver.push_level([(vars[x], value)]).unwrap();
        prop_assert_eq!(
            solver.root_domains(),
            expected.as_ref().map(as_vecs),
            "after {:?}",
            (x, value)
        );
    }
    Ok(())
}

fn as_vecs(domains: &Domains) -> Vec<Vec<i32>> {
    domains
        .iter()
        .map(|d| d.iter().copied().collect())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn bounds_all_different_reaches_the_brute_force_fixpoint(case in case()) {
        check(&case)?;
    }
}

/// Every posting of the case's all-different against brute force (see
/// [`check_every_posting`]), when its views fit.
fn check_postings(case: &Case) -> Result<(), TestCaseError> {
    let domains = as_vecs(&case.domains);
    if !(case.views.iter()).all(|&(x, a)| view_fits(&domains[x], a)) {
        return Ok(());
    }
    check_every_posting(
        &domains,
        std::slice::from_ref(&case.views),
        &[SearchConfig::new()],
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// The same at the edges, and every posting against brute force.
    #[test]
    fn bounds_all_different_at_the_edges_reaches_the_brute_force_fixpoint(case in edge_case()) {
        check(&case)?;
        check_postings(&case)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn bounds_all_different_over_many_views_reaches_the_brute_force_fixpoint(case in many()) {
        check(&case)?;
    }
}

/// One-word domains at the top of the `i32` range, read straight from their words
/// (the fuzzer found the maximum computed past `i32::MAX` there).
#[test]
fn one_word_domains_at_the_top_of_the_range() {
    let mut model = Model::new();
    let x = model.int_vars(3, i32::MAX - 5, i32::MAX).unwrap();
    let y = model.int_var(i32::MAX - 1, i32::MAX).unwrap();
    model
        .all_different_with(x.iter().copied().chain([y]), Strength::Bounds)
        .unwrap();
    // y takes one of its 2 values, the three others 5 * 4 * 3 arrangements of the
    // 5 values left.
    assert_eq!(Solver::new(model).count(None).solutions, 2 * 5 * 4 * 3);
}
