use crate::constraints::AllDifferent;
use crate::propagator::Pruning;
use crate::{Model, Solver, Strength, VarId};

/// Root domains after posting one all-different over `domains` at `strength`.
/// `spread` moves every domain far apart from the others' words by adding a
/// wide dummy value range to a companion view, forcing the general (non-bitmask)
/// path when `general` is set.
fn root(domains: &[&[i32]], strength: Strength, general: bool) -> Option<Vec<Vec<i32>>> {
    root_far(domains, strength, general.then_some(1000))
}

/// As [`root`], with `far` (if any) added to every domain and removed by a second
/// constraint: 100 and 200 make windows of two and four words for Régin on words,
/// 1000 the general matching.
fn root_far(domains: &[&[i32]], strength: Strength, far: Option<i32>) -> Option<Vec<Vec<i32>>> {
    let mut model = Model::new();
    let vars: Vec<VarId> = domains
        .iter()
        .map(|d| {
            let mut values = d.to_vec();
            // A value far away makes the domain span more than 64 values; it is
            // removed by a second constraint, so the answer is unchanged.
            values.extend(far);
            model.var_from_values(values).unwrap()
        })
        .collect();
    model.all_different_with(vars.clone(), strength).unwrap();
    if let Some(far) = far {
        for &var in &vars {
            model
                .linear([(1, var)], crate::Relation::LessEq, far - 1)
                .unwrap();
        }
    }
    Solver::new(model)
        .root_domains()
        .map(|domains| domains.into_iter().take(vars.len()).collect())
}

#[test]
fn value_elimination_chains_through_fixed_views() {
    for general in [false, true] {
        // x0 = 1 removes 1 from x1, fixing it to 2, which removes 2 from x2.
        let domains = root(&[&[1], &[1, 2], &[1, 2, 3]], Strength::Value, general);
        assert_eq!(
            domains,
            Some(vec![vec![1], vec![2], vec![3]]),
            "general: {general}"
        );
    }
}

#[test]
fn value_elimination_leaves_unfixed_views_alone() {
    for general in [false, true] {
        // A pair {1,2},{1,2} locks 1 and 2, but value elimination does not see it.
        let domains = root(&[&[1, 2], &[1, 2], &[1, 2, 3]], Strength::Value, general);
        assert_eq!(domains, Some(vec![vec![1, 2], vec![1, 2], vec![1, 2, 3]]));
    }
}

#[test]
fn two_views_fixed_to_one_value_conflict() {
    for strength in [Strength::Value, Strength::HiddenSingles, Strength::Domain] {
        for general in [false, true] {
            assert_eq!(root(&[&[4], &[4], &[1, 4]], strength, general), None);
        }
    }
}

#[test]
fn hidden_single_fixes_the_only_place_of_a_value() {
    for general in [false, true] {
        // Three views over exactly {1,2,3}: 3 fits only in x2.
        let domains = root(
            &[&[1, 2], &[1, 2], &[1, 2, 3]],
            Strength::HiddenSingles,
            general,
        );
        assert_eq!(domains, Some(vec![vec![1, 2], vec![1, 2], vec![3]]));
        // With a fourth value around, nothing is forced.
        let domains = root(
            &[&[1, 2], &[1, 4], &[1, 2, 3]],
            Strength::HiddenSingles,
            general,
        );
        assert_eq!(domains, Some(vec![vec![1, 2], vec![1, 4], vec![1, 2, 3]]));
    }
}

#[test]
fn pigeonhole_conflict_with_hidden_singles() {
    for general in [false, true] {
        let domains = root(
            &[&[1, 2], &[1, 2], &[1, 2]],
            Strength::HiddenSingles,
            general,
        );
        assert_eq!(domains, None);
    }
}

#[test]
fn domain_strength_removes_values_no_solution_uses() {
    for general in [false, true] {
        // {1,2},{1,2} is a Hall set: x2 loses 1 and 2, x3 too.
        let domains = root(
            &[&[1, 2], &[1, 2], &[1, 2, 3, 4], &[2, 3, 4]],
            Strength::Domain,
            general,
        );
        assert_eq!(
            domains,
            Some(vec![vec![1, 2], vec![1, 2], vec![3, 4], vec![3, 4]])
        );
        // A Hall set too small for its views.
        let domains = root(
            &[&[1, 2], &[1, 2], &[2, 1], &[5]],
            Strength::Domain,
            general,
        );
        assert_eq!(domains, None);
    }
}

#[test]
fn domain_strength_on_two_and_four_words_prunes_as_the_general_matching() {
    // The window of Régin on words starts at the smallest value: 1 here, -150 and
    // 60 below, so that the Hall sets straddle word boundaries. Each far value,
    // above the others, makes a window of two words (at most 128 values) or four.
    type Case<'a> = (&'a [&'a [i32]], &'a [i32]);
    let cases: [Case; 3] = [
        (&[&[1, 2], &[1, 2], &[1, 2, 3, 4], &[2, 3, 4]], &[100, 200]),
        (
            &[
                &[-87, -86],
                &[-87, -86],
                &[-150, -87, -86, -85],
                &[-86, -85, -20],
            ],
            &[0, 100],
        ),
        (
            &[&[60, 130], &[60, 130], &[60, 130, 160], &[61, 130, 140]],
            &[170, 300],
        ),
    ];
    for (domains, fars) in cases {
        let general = root_far(domains, Strength::Domain, Some(1000));
        for &far in fars {
            assert_eq!(
                root_far(domains, Strength::Domain, Some(far)),
                general,
                "{domains:?}, {far}"
            );
        }
    }
    assert_eq!(
        root_far(
            &[&[1, 2], &[1, 2], &[2, 1], &[5]],
            Strength::Domain,
            Some(200)
        ),
        None
    );
    assert_eq!(
        root_far(
            &[&[60, 130], &[60, 130], &[60, 130, 160], &[61, 130, 140]],
            Strength::Domain,
            Some(170)
        ),
        Some(vec![vec![60, 130], vec![60, 130], vec![160], vec![61, 140]])
    );
}

#[test]
fn views_with_offsets_compare_shifted_values() {
    let mut model = Model::new();
    let x = model.var_from_values([1]).unwrap();
    let y = model.var_from_values([1, 2, 3]).unwrap();
    // x + 1 and y differ: y cannot be 2.
    model.all_different([x + 1, y.into()]).unwrap();
    assert_eq!(
        Solver::new(model).root_domains(),
        Some(vec![vec![1], vec![1, 3]])
    );
}

/// The names of [`AllDifferent::VALUE_ELIMINATION`] and [`AllDifferent::ONLY_PLACE`].
const ELIMINATION: &str = AllDifferent::VALUE_ELIMINATION.name();
const ONLY_PLACE: &str = AllDifferent::ONLY_PLACE.name();

/// The label of each value removed at the root, as `(variable, value, label name)`,
/// sorted.
fn root_prunings(domains: &[&[i32]], strength: Strength) -> Vec<(u32, i32, &'static str)> {
    let mut model = Model::new();
    let vars: Vec<_> = domains
        .iter()
        .map(|d| model.var_from_values(d.iter().copied()).unwrap())
        .collect();
    model.all_different_with(vars, strength).unwrap();
    let mut solver = Solver::new(model);
    solver.record_prunings(true);
    assert!(solver.root_domains().is_some());
    let mut found: Vec<_> = solver
        .take_prunings()
        .into_iter()
        .map(
            |Pruning {
                 var, value, label, ..
             }| (var.index() as u32, value, label.name()),
        )
        .collect();
    // Every value elimination is recorded before the hidden singles.
    let first_single = found.iter().position(|&(.., l)| l == ONLY_PLACE);
    let last_elimination = found.iter().rposition(|&(.., l)| l == ELIMINATION);
    if let (Some(single), Some(elimination)) = (first_single, last_elimination) {
        assert!(elimination < single, "{found:?}");
    }
    found.sort();
    found
}

#[test]
fn bitmask_path_tells_hidden_singles_from_eliminations() {
    // x0 = 1 removes 1 from x1 (a naked single, 2) and 1, 2 from x4; then 5 has one
    // place left, x4, which is a hidden single that removes 3 and 4 there.
    let domains: [&[i32]; 5] = [&[1], &[1, 2], &[3, 4], &[3, 4], &[1, 2, 3, 4, 5]];
    let expected = vec![
        (1, 1, ELIMINATION),
        (4, 1, ELIMINATION),
        (4, 2, ELIMINATION),
        (4, 3, ONLY_PLACE),
        (4, 4, ONLY_PLACE),
    ];
    assert_eq!(root_prunings(&domains, Strength::HiddenSingles), expected);
    // Value strength finds no hidden single.
    let value = root_prunings(&domains, Strength::Value);
    assert!(
        value.iter().all(|&(.., label)| label == ELIMINATION),
        "{value:?}"
    );
    // The general path (values beyond one 64-value window) names them the same.
    let wide: Vec<Vec<i32>> = domains
        .iter()
        .map(|d| d.iter().map(|&v| v * 100).collect())
        .collect();
    let wide: Vec<&[i32]> = wide.iter().map(Vec::as_slice).collect();
    let expected_wide: Vec<_> = expected
        .iter()
        .map(|&(var, value, label)| (var, value * 100, label))
        .collect();
    assert_eq!(root_prunings(&wide, Strength::HiddenSingles), expected_wide);
}
