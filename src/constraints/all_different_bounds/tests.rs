use crate::constraints::AllDifferent;
use crate::propagator::Pruning;
use crate::{InferenceLabel, Model, Solver, Strength, View};

/// Root domains after one bounds all-different over `domains`, each shifted by
/// its offset.
fn root(domains: &[&[i32]], offsets: &[i32]) -> Option<Vec<Vec<i32>>> {
    let mut model = Model::new();
    let views: Vec<View> = domains
        .iter()
        .zip(offsets)
        .map(|(d, &o)| model.var_from_values(d.iter().copied()).unwrap() + o)
        .collect();
    model.all_different_with(views, Strength::Bounds).unwrap();
    Solver::new(model).root_domains()
}

#[test]
fn resort_sorts_nearly_sorted_and_scrambled_orders() {
    let keys: Vec<u64> = (0..40)
        .map(|i| super::key((i * 37 % 41) as i64 - 20, i))
        .collect();
    let mut expected = keys.clone();
    expected.sort_unstable();
    // One item out of place: the insertion sort alone.
    let mut nearly = expected.clone();
    nearly.swap(3, 4);
    super::resort(&mut nearly);
    assert_eq!(nearly, expected);
    // Reversed: over the budget, the general sort takes over.
    let mut reversed: Vec<u64> = expected.iter().rev().copied().collect();
    super::resort(&mut reversed);
    assert_eq!(reversed, expected);
}

#[test]
fn hall_interval_moves_the_other_bounds() {
    // [1, 2] holds two views: the third's minimum moves to 3.
    assert_eq!(
        root(&[&[1, 2], &[1, 2], &[1, 2, 3, 4]], &[0, 0, 0]),
        Some(vec![vec![1, 2], vec![1, 2], vec![3, 4]])
    );
    // ... and the maximum to 0.
    assert_eq!(
        root(&[&[1, 2], &[1, 2], &[-1, 0, 1, 2]], &[0, 0, 0]),
        Some(vec![vec![1, 2], vec![1, 2], vec![-1, 0]])
    );
    // [2, 4] holds three: the fourth's minimum, inside it, moves past it, and
    // the bounds of a view around it stay.
    assert_eq!(
        root(&[&[2, 3, 4], &[2, 4], &[3, 4], &[2, 3, 4, 5]], &[0; 4]),
        Some(vec![vec![2, 3, 4], vec![2, 4], vec![3, 4], vec![5]])
    );
    assert_eq!(
        root(&[&[2, 3, 4], &[2, 4], &[3, 4], &[1, 2, 3, 4, 5]], &[0; 4]),
        Some(vec![
            vec![2, 3, 4],
            vec![2, 4],
            vec![3, 4],
            vec![1, 2, 3, 4, 5]
        ])
    );
}

#[test]
fn only_bounds_count_not_holes() {
    // {1, 3} reads as [1, 3]: no Hall interval among the first two, nothing moves
    // (domain strength would remove 1 and 3 from the third).
    assert_eq!(
        root(&[&[1, 3], &[1, 3], &[1, 2, 3]], &[0; 3]),
        Some(vec![vec![1, 3], vec![1, 3], vec![1, 2, 3]])
    );
    // A new minimum in a hole moves on to the next value, and that may open a
    // second round: [1, 2] pushes x2 to 3, a hole, so to 5, which fixes it and
    // leaves the others by value elimination.
    assert_eq!(
        root(
            &[&[1, 2], &[1, 2], &[1, 5], &[3, 4, 5, 6], &[4, 5, 7]],
            &[0; 5]
        ),
        Some(vec![
            vec![1, 2],
            vec![1, 2],
            vec![5],
            vec![3, 4, 6],
            vec![4, 7]
        ])
    );
}

#[test]
fn a_bound_moved_past_a_hole_can_close_a_new_hall_interval() {
    // [1, 2] pushes x2 from 1 to 3, a hole, so to 4: then x2 and x3 fill [4, 5],
    // which pushes x4 to 6 in a second pass.
    assert_eq!(
        root(
            &[&[1, 2], &[1, 2], &[1, 4, 5], &[4, 5], &[4, 5, 6]],
            &[0; 5]
        ),
        Some(vec![
            vec![1, 2],
            vec![1, 2],
            vec![4, 5],
            vec![4, 5],
            vec![6]
        ])
    );
}

#[test]
fn offsets_shift_the_intervals() {
    // x0 + 10 and x1 + 10 fill [11, 12]; x2 (no offset) loses 11 and 12.
    assert_eq!(
        root(&[&[1, 2], &[1, 2], &[11, 12, 13]], &[10, 10, 0]),
        Some(vec![vec![1, 2], vec![1, 2], vec![13]])
    );
    // x0 + 1 and x1 + 1 fill [2, 3]; x2 - 5 over [2, 4] moves to 4.
    assert_eq!(
        root(&[&[1, 2], &[1, 2], &[7, 8, 9]], &[1, 1, -5]),
        Some(vec![vec![1, 2], vec![1, 2], vec![9]])
    );
}

#[test]
fn too_many_views_for_an_interval_conflict() {
    assert_eq!(root(&[&[1, 2], &[1, 2], &[2, 1]], &[0; 3]), None);
    // Holes do not help: three views over [1, 3] and a fourth fixed to 2.
    assert_eq!(
        root(&[&[1, 3], &[1, 3], &[1, 3], &[5]], &[0, 0, 0, -3]),
        None
    );
}

#[test]
fn prunings_name_hall_intervals_and_eliminations() {
    let mut model = Model::new();
    let x = model.var_from_values([1, 2]).unwrap();
    let y = model.var_from_values([1, 2]).unwrap();
    let z = model.var_from_values([1, 2, 3, 4]).unwrap();
    let w = model.var_from_values([4]).unwrap();
    model
        .all_different_with([x, y, z, w], Strength::Bounds)
        .unwrap();
    let mut solver = Solver::new(model);
    solver.record_prunings(true);
    assert_eq!(
        solver.root_domains(),
        Some(vec![vec![1, 2], vec![1, 2], vec![3], vec![4]])
    );
    let mut found: Vec<(usize, i32, InferenceLabel)> = solver
        .take_prunings()
        .into_iter()
        .map(
            |Pruning {
                 var, value, label, ..
             }| (var.index(), value, label),
        )
        .collect();
    found.sort_by_key(|&(var, value, _)| (var, value));
    assert_eq!(
        found,
        vec![
            (2, 1, AllDifferent::HALL_INTERVAL),
            (2, 2, AllDifferent::HALL_INTERVAL),
            (2, 4, AllDifferent::VALUE_ELIMINATION),
        ]
    );
}
