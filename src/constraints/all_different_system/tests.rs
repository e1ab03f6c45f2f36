//! Unit tests of the system: fixpoints, conflicts, labels, wide sets.

use super::*;
use crate::InferenceLabel;
use crate::constraints::{AllDifferent, Intersection};
use crate::{Model, Outcome, SearchConfig, Solver, ValueOrder, VariableOrder};

/// A `side x side` Latin square: its variables (row-major) and groups.
fn latin(model: &mut Model, side: usize) -> (Vec<VarId>, Vec<Vec<VarId>>) {
    let x = model.int_vars(side * side, 1, side as i32).unwrap();
    let mut groups: Vec<Vec<VarId>> = (0..side)
        .map(|r| (0..side).map(|c| x[r * side + c]).collect())
        .collect();
    groups.extend((0..side).map(|c| (0..side).map(|r| x[r * side + c]).collect()));
    (x, groups)
}

/// The 4x4 Sudoku groups: rows, columns and boxes.
fn sudoku4(model: &mut Model) -> (Vec<VarId>, Vec<Vec<VarId>>) {
    let (x, mut groups) = latin(model, 4);
    for b in 0..4 {
        let (r0, c0) = (b / 2 * 2, b % 2 * 2);
        groups.push(
            [(0, 0), (0, 1), (1, 0), (1, 1)]
                .iter()
                .map(|&(dr, dc)| x[(r0 + dr) * 4 + c0 + dc])
                .collect(),
        );
    }
    (x, groups)
}

#[test]
fn counts_latin_squares() {
    for (side, count) in [(2, 2), (3, 12), (4, 576)] {
        let mut model = Model::new();
        let (_, groups) = latin(&mut model, side);
        model.all_different_system(groups).unwrap();
        assert_eq!(
            Solver::new(model).count(None).solutions,
            count,
            "side {side}"
        );
    }
}

/// Root domains of a 4x4 Sudoku with `clues`, by one system or by separate
/// all-different constraints with hidden singles.
fn root_4x4(clues: &[i32; 16], system: bool, locked: bool) -> Option<Vec<Vec<i32>>> {
    let mut model = Model::new();
    let (x, groups) = sudoku4(&mut model);
    if system {
        let system = AllDifferentSystem::new(groups);
        model.post(system.locked_candidates(locked)).unwrap();
    } else {
        for group in groups {
            model
                .all_different_with(group, crate::Strength::HiddenSingles)
                .unwrap();
        }
    }
    let mut solver = Solver::new(model);
    for (&var, &digit) in x.iter().zip(clues) {
        if digit != 0 {
            solver.assume(var, digit).unwrap();
        }
    }
    let domains = solver.root_domains();
    // A second search from the same solver agrees (the cache follows the store).
    assert_eq!(solver.root_domains(), domains);
    domains
}

#[test]
fn fixpoint_on_4x4_sudoku_matches_separate_constraints() {
    let solvable = [1, 0, 0, 4, 0, 0, 1, 0, 0, 4, 0, 0, 3, 0, 0, 2];
    let domains = root_4x4(&solvable, true, false).expect("consistent");
    let grid: Vec<i32> = domains.iter().map(|d| d[0]).collect();
    assert!(domains.iter().all(|d| d.len() == 1), "{domains:?}");
    assert_eq!(grid, [1, 3, 2, 4, 4, 2, 1, 3, 2, 4, 3, 1, 3, 1, 4, 2]);
    for clues in [
        solvable,
        [0, 0, 0, 4, 0, 0, 1, 0, 0, 4, 0, 0, 3, 0, 0, 0],
        [0; 16],
        [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
    ] {
        let separate = root_4x4(&clues, false, false);
        assert_eq!(root_4x4(&clues, true, false), separate, "{clues:?}");
        if let (Some(with_locked), Some(separate)) = (root_4x4(&clues, true, true), separate) {
            for (l, s) in with_locked.iter().zip(&separate) {
                assert!(l.iter().all(|v| s.contains(v)), "locked only removes");
            }
        }
    }
}

#[test]
fn hidden_single_is_fixed_and_named() {
    let mut model = Model::new();
    let x = model.int_var(1, 3).unwrap();
    let y = model.int_var(1, 2).unwrap();
    let z = model.int_var(1, 2).unwrap();
    model.all_different_system([[x, y, z]]).unwrap();
    let mut solver = Solver::new(model);
    solver.record_prunings(true);
    let domains = solver.root_domains().unwrap();
    assert_eq!(domains[0], [3]);
    let prunings = solver.take_prunings();
    assert!(
        prunings
            .iter()
            .all(|p| p.label == AllDifferent::ONLY_PLACE && p.var.index() == 0)
    );
    assert_eq!(prunings.len(), 2);
}

#[test]
fn fixed_value_leaves_every_peer() {
    let mut model = Model::new();
    let v = model.int_vars(4, 0, 3).unwrap();
    // x0 is in two groups; x3 is only a peer of nobody but x2.
    model
        .all_different_system([vec![v[0], v[1]], vec![v[0], v[2]], vec![v[2], v[3]]])
        .unwrap();
    let mut solver = Solver::new(model);
    solver.assume(v[0], 2).unwrap();
    let domains = solver.root_domains().unwrap();
    assert_eq!(
        domains,
        [vec![2], vec![0, 1, 3], vec![0, 1, 3], vec![0, 1, 2, 3]]
    );
}

#[test]
fn conflicts_are_found() {
    // Two fixed variables agree.
    let mut model = Model::new();
    let v = model.int_vars(3, 1, 3).unwrap();
    model.all_different_system([[v[0], v[1], v[2]]]).unwrap();
    let mut solver = Solver::new(model);
    solver.assume(v[0], 1).unwrap();
    solver.assume(v[1], 1).unwrap();
    assert_eq!(solver.solve(), Outcome::Unsatisfiable);
    assert_eq!(solver.statistics().nodes, 0, "found at the root");

    // Pigeonhole: three variables, two values.
    let mut model = Model::new();
    let v = model.int_vars(3, 1, 2).unwrap();
    model.all_different_system([[v[0], v[1], v[2]]]).unwrap();
    let mut solver = Solver::new(model);
    assert_eq!(solver.root_domains(), None);

    // A value two groups both need, in the one variable they share.
    let mut model = Model::new();
    let a = model.var_from_values([5]).unwrap();
    let s = model.int_var(4, 5).unwrap();
    let b = model.var_from_values([5]).unwrap();
    model.all_different_system([[a, s], [s, b]]).unwrap();
    model.equal(a, b).unwrap();
    assert_eq!(
        Solver::new(model).root_domains().map(|d| d[1].clone()),
        Some(vec![4])
    );
}

/// Groups A = {c, a, b} and B = {a, b, d}, with c over `c_min..=3`, a and b over
/// 1..=3, d over 1..=4 (model order c, a, b, d): once c cannot take 1, value 1 is
/// only possible in a and b, which B shares, so d loses 1.
fn two_groups(c_min: i32, when: LockedCandidates) -> (Model, VarId) {
    let mut model = Model::new();
    let c = model.int_var(c_min, 3).unwrap();
    let a = model.int_var(1, 3).unwrap();
    let b = model.int_var(1, 3).unwrap();
    let d = model.int_var(1, 4).unwrap();
    let system = AllDifferentSystem::new([[c, a, b], [a, b, d]]);
    model.post(system.locked_candidates(when)).unwrap();
    (model, c)
}

#[test]
fn locked_candidates_prune_the_other_group() {
    for locked in [false, true] {
        let (model, _) = two_groups(2, locked.into());
        let mut solver = Solver::new(model);
        solver.record_prunings(true);
        let domains = solver.root_domains().unwrap();
        let expected: Vec<i32> = if locked {
            vec![2, 3, 4]
        } else {
            vec![1, 2, 3, 4]
        };
        assert_eq!(domains[3], expected);
        let labels: Vec<InferenceLabel> = solver.take_prunings().iter().map(|p| p.label).collect();
        assert_eq!(
            labels.contains(&Intersection::CONFINED),
            locked,
            "{labels:?}"
        );
    }
}

/// The labels of the removals in a search of [`two_groups`] where c may be 1, so that
/// locked candidates only apply once c is 3: assumed, that is at the root; decided,
/// below it.
fn locked_once_c_is_3(when: LockedCandidates, assume: bool) -> Vec<InferenceLabel> {
    let (model, c) = two_groups(1, when);
    let mut solver = Solver::with_config(
        model,
        SearchConfig::new()
            .variable_order(VariableOrder::InputOrder)
            .value_order(ValueOrder::Descending),
    );
    if assume {
        solver.assume(c, 3).unwrap();
    }
    solver.record_prunings(true);
    let _ = solver.solutions().map(Result::unwrap).count();
    let mut labels: Vec<InferenceLabel> = solver.take_prunings().iter().map(|p| p.label).collect();
    labels.dedup();
    labels
}

#[test]
fn locked_candidates_at_the_root_apply_before_the_first_choice_only() {
    use LockedCandidates::{Always, AtRoot, Off};
    let locked = |when, assume| locked_once_c_is_3(when, assume).contains(&Intersection::CONFINED);
    assert!(locked(AtRoot, true) && locked(Always, true) && !locked(Off, true));
    // Without the assumption, `c = 3` is the first choice (input order, largest
    // value first).
    assert!(!locked(AtRoot, false) && locked(Always, false));
}

#[test]
fn rejects_wide_domains_repeats_and_foreign_variables() {
    let mut model = Model::new();
    let x = model.int_var(0, 10).unwrap();
    let y = model.int_var(60, 64).unwrap();
    let z = model.int_var(0, 100).unwrap();
    let error = model.all_different_system([[x, y]]).unwrap_err();
    assert!(
        matches!(error, ModelError::InvalidConstraint { .. }),
        "{error}"
    );
    assert!(model.all_different_system([[z]]).is_err());
    let error = model.all_different_system([[x, x]]).unwrap_err();
    assert!(error.to_string().contains("twice"), "{error}");
    let other = Model::new().int_var(0, 1).unwrap();
    assert!(matches!(
        model.all_different_system([[x, other]]),
        Err(ModelError::ForeignVariable { .. })
    ));
    let no_groups: [[VarId; 0]; 0] = [];
    assert!(matches!(
        model.all_different_system(no_groups),
        Err(ModelError::NoVariables { .. })
    ));
}

#[test]
fn many_variables_use_wider_sets() {
    // Latin squares: 400 variables (7 words a set) and 40 groups; 1,296 variables
    // (the widest sets) and 72 groups (two words a set of groups).
    for side in [20, 36] {
        let mut model = Model::new();
        let (x, groups) = latin(&mut model, side);
        model.all_different_system(groups).unwrap();
        let mut solver = Solver::new(model);
        let Outcome::Solved(solution) = solver.solve() else {
            panic!("Latin squares exist")
        };
        for k in 0..side {
            let mut row: Vec<i32> = (0..side).map(|c| solution[x[k * side + c]]).collect();
            let mut column: Vec<i32> = (0..side).map(|r| solution[x[r * side + k]]).collect();
            row.sort_unstable();
            column.sort_unstable();
            let all: Vec<i32> = (1..=side as i32).collect();
            assert_eq!((row, column), (all.clone(), all), "side {side}");
        }
    }
}

/// The fixpoint of the system's rules, applied naively to domain words (bit `k` is
/// value `k + 1`), group by group until nothing changes: `None` when a domain or a
/// group runs out of values. The oracle for [`matches_the_naive_fixpoint`].
fn naive_fixpoint(mut domains: Vec<u64>, groups: &[Vec<usize>], locked: bool) -> Option<Vec<u64>> {
    let is_single = |d: u64| d.count_ones() == 1;
    loop {
        let mut changed = false;
        // Takes value `bit` out of variable `j`, if it has it.
        let mut remove = |domains: &mut [u64], j: usize, bit: u64| {
            changed |= domains[j] & bit != 0;
            domains[j] &= !bit;
        };
        for (g, group) in groups.iter().enumerate() {
            for &i in group {
                if is_single(domains[i]) {
                    let bit = domains[i];
                    for &j in group.iter().filter(|&&j| j != i) {
                        remove(&mut domains, j, bit);
                    }
                }
            }
            let union = group.iter().fold(0, |u, &i| u | domains[i]);
            if union.count_ones() as usize != group.len() {
                continue;
            }
            for v in 0..64 {
                let bit = 1u64 << v;
                let places: Vec<usize> = group
                    .iter()
                    .copied()
                    .filter(|&i| domains[i] & bit != 0)
                    .collect();
                if let [i] = places[..] {
                    let others = domains[i] & !bit;
                    remove(&mut domains, i, others);
                }
                for (h, other) in groups.iter().enumerate() {
                    if locked
                        && h != g
                        && !places.is_empty()
                        && places.iter().all(|i| other.contains(i))
                    {
                        for &j in other.iter().filter(|j| !group.contains(j)) {
                            remove(&mut domains, j, bit);
                        }
                    }
                }
            }
        }
        let empty = domains.contains(&0);
        let short = groups.iter().any(|group| {
            group.iter().fold(0u64, |u, &i| u | domains[i]).count_ones() < group.len() as u32
        });
        if empty || short {
            return None;
        }
        if !changed {
            return Some(domains);
        }
    }
}

/// A random system: `vars` variables over 1..=`values`, the groups of a Sudoku when
/// there are `values` squared variables and `values` is a square, and `extra` random
/// groups of two to `values` variables. Most are built around a hidden solution
/// (each domain holds its value, some only that one, and every group has distinct
/// values there), so that they rarely fail; one in eight has random domains.
fn random_system(
    seed: u64,
    vars: usize,
    values: usize,
    extra: usize,
) -> (Vec<u64>, Vec<Vec<usize>>) {
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{RngExt, SeedableRng};
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let side = (vars as f64).sqrt() as usize;
    let box_size = (side as f64).sqrt() as usize;
    let sudoku = side * side == vars && box_size * box_size == side && side == values;
    let mut relabel: Vec<usize> = (0..values).collect();
    for k in (1..values).rev() {
        relabel.swap(k, rng.random_range(0..=k));
    }
    let solution: Vec<usize> = (0..vars)
        .map(|i| match sudoku {
            true => relabel[(i / side * box_size + i / side / box_size + i % side) % side],
            false => rng.random_range(0..values),
        })
        .collect();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    if sudoku {
        for k in 0..side {
            groups.push((0..side).map(|c| k * side + c).collect());
            groups.push((0..side).map(|r| r * side + k).collect());
            let (r0, c0) = (k / box_size * box_size, k % box_size * box_size);
            groups.push(
                (0..vars)
                    .filter(|&i| (r0..r0 + box_size).contains(&(i / side)))
                    .filter(|&i| (c0..c0 + box_size).contains(&(i % side)))
                    .collect(),
            );
        }
    }
    while groups.len() < extra + if sudoku { 3 * side } else { 0 } {
        let size = rng.random_range(2..=values.min(vars));
        let mut group: Vec<usize> = Vec::new();
        for _ in 0..4 * size {
            let i = rng.random_range(0..vars);
            if group.len() < size && group.iter().all(|&j| solution[j] != solution[i]) {
                group.push(i);
            }
        }
        if group.len() >= 2 {
            groups.push(group);
        }
    }
    let all = (1u64 << values) - 1;
    let random = rng.random_range(0..8) == 0;
    let domains = (solution.iter())
        .map(|&s| match (random, rng.random_range(0..10)) {
            (true, _) => rng.random_range(1..=all),
            (false, 0..2) => 1 << s,
            (false, 2..7) => all,
            (false, _) => rng.random_range(1..=all) | 1 << s,
        })
        .collect();
    (domains, groups)
}

/// The system's root propagation, as domain words; `None` when it fails.
fn system_fixpoint(
    domains: &[u64],
    groups: &[Vec<usize>],
    when: LockedCandidates,
) -> Option<Vec<u64>> {
    let mut model = Model::new();
    let x: Vec<VarId> = (domains.iter())
        .map(|&d| {
            let values = (0..64).filter(|v| d >> v & 1 != 0).map(|v| v + 1);
            model.var_from_values(values).unwrap()
        })
        .collect();
    let system = AllDifferentSystem::new(groups.iter().map(|g| g.iter().map(|&i| x[i])));
    model.post(system.locked_candidates(when)).unwrap();
    let roots = Solver::new(model).root_domains()?;
    Some(
        roots
            .iter()
            .map(|d| d.iter().fold(0, |w, &v| w | 1 << (v - 1)))
            .collect(),
    )
}

#[test]
fn matches_the_naive_fixpoint() {
    // Small random systems, 4x4, 9x9 and 16x16 Sudoku with random extra groups
    // (over 64 groups for some), and a system of 100 variables (two words a set).
    let shapes = [
        (8, 4, 4),
        (12, 6, 8),
        (16, 4, 3),
        (81, 9, 6),
        (81, 9, 20),
        (256, 16, 4),
        (100, 9, 70),
    ];
    // How many cases the locked candidates changed the fixpoint of, per shape.
    let mut locked_mattered = vec![0; shapes.len()];
    for (k, &(vars, values, extra)) in shapes.iter().enumerate() {
        for seed in 0..40 {
            let (domains, groups) = random_system(seed * 7 + k as u64, vars, values, extra);
            let mut fixpoints = Vec::new();
            for (when, locked) in [
                (LockedCandidates::Off, false),
                (LockedCandidates::Always, true),
                (LockedCandidates::AtRoot, true),
            ] {
                let expected = naive_fixpoint(domains.clone(), &groups, locked);
                let found = system_fixpoint(&domains, &groups, when);
                assert_eq!(found, expected, "{vars} variables, seed {seed}, {when:?}");
                fixpoints.push(found);
            }
            locked_mattered[k] += usize::from(fixpoints[0] != fixpoints[1]);
        }
    }
    assert!(
        locked_mattered.iter().all(|&n| n > 0),
        "{locked_mattered:?}"
    );
}

/// The weighted degrees after a search of a 4x4 Latin square with `clues` (row-major,
/// 0 for none) that fails at its root.
fn weights_after_root_failure(clues: &[i32; 16]) -> Vec<u64> {
    let mut model = Model::new();
    let (x, groups) = latin(&mut model, 4);
    model.all_different_system(groups).unwrap();
    let config = SearchConfig::new().variable_order(VariableOrder::SmallestDomainWeightedDegree);
    let mut solver = Solver::with_config(model, config);
    for (&var, &digit) in x.iter().zip(clues) {
        if digit != 0 {
            solver.assume(var, digit).unwrap();
        }
    }
    assert!(matches!(solver.solve(), Outcome::Unsatisfiable));
    x.iter()
        .map(|&var| solver.weighted_degrees()[var.index()])
        .collect()
}

#[test]
fn a_failure_blames_the_group_it_lay_in() {
    // Before any failure every cell weighs 1: it is on one constraint.
    // Row 0 holds 1, 2 and 3, and column 3 holds 4 in row 1: cell (0, 3) loses its
    // last value, 4, to column 3, whose cells alone are blamed.
    let emptied = [1, 2, 3, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0];
    let column_3: Vec<u64> = (0..16).map(|i| 1 + u64::from(i % 4 == 3)).collect();
    assert_eq!(weights_after_root_failure(&emptied), column_3);
    // Row 1's cells other than the first cannot take 1 (columns 1-3 hold it) and the
    // first is 2: value 1 has no place left in row 1, which alone is blamed.
    let no_place = [0, 1, 0, 0, 2, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
    let row_1: Vec<u64> = (0..16).map(|i| 1 + u64::from(i / 4 == 1)).collect();
    assert_eq!(weights_after_root_failure(&no_place), row_1);
    // Row 0 holds 1 and 2, and columns 2 and 3 hold 4 further down: cells (0, 2) and
    // (0, 3) are both left with 3, and the first, fixed, empties the second. Row 0,
    // the one group holding both, is blamed, not column 3.
    let peers = [1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 4];
    let row_0: Vec<u64> = (0..16).map(|i| 1 + u64::from(i / 4 == 0)).collect();
    assert_eq!(weights_after_root_failure(&peers), row_0);
    // Two cells of column 0 fixed to 3: column 0 is blamed.
    let clash = [3, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0];
    let column_0: Vec<u64> = (0..16).map(|i| 1 + u64::from(i % 4 == 0)).collect();
    assert_eq!(weights_after_root_failure(&clash), column_0);
}
