use super::Condition;
use crate::{Model, ModelError, Outcome, Relation, Solver};

/// Root domains of `[b, x]` for `b <-> C(x)` (or `b -> C(x)`), b and x as given.
fn root(
    b: &[i32],
    x: &[i32],
    half: bool,
    cond: impl Fn(crate::VarId) -> Condition,
) -> Option<Vec<Vec<i32>>> {
    let mut model = Model::new();
    let bv = model.var_from_values(b.iter().copied()).unwrap();
    let xv = model.var_from_values(x.iter().copied()).unwrap();
    if half {
        model.half_reify(bv, cond(xv)).unwrap();
    } else {
        model.reify(bv, cond(xv)).unwrap();
    }
    Solver::new(model).root_domains()
}

#[test]
fn entailment_fixes_the_literal() {
    let le3 = |x| Condition::compare(x, Relation::LessEq, 3);
    assert_eq!(root(&[0, 1], &[1, 2, 3], false, le3).unwrap()[0], vec![1]);
    assert_eq!(root(&[0, 1], &[4, 5], false, le3).unwrap()[0], vec![0]);
    assert_eq!(root(&[0, 1], &[3, 4], false, le3).unwrap()[0], vec![0, 1]);
    // Half reification: entailment leaves b open, disentailment makes it false.
    assert_eq!(root(&[0, 1], &[1, 2], true, le3).unwrap()[0], vec![0, 1]);
    assert_eq!(root(&[0, 1], &[4, 5], true, le3).unwrap()[0], vec![0]);
    // x == 2 with 2 gone from a hole in the domain.
    let eq2 = |x| Condition::compare(x, Relation::Equal, 2);
    assert_eq!(root(&[0, 1], &[1, 3], false, eq2).unwrap()[0], vec![0]);
    let odd = |x| Condition::in_set(x, [1, 3, 5]);
    assert_eq!(root(&[0, 1], &[1, 5], false, odd).unwrap()[0], vec![1]);
    assert_eq!(root(&[0, 1], &[2, 4], false, odd).unwrap()[0], vec![0]);
    assert_eq!(root(&[0, 1], &[2, 3], false, odd).unwrap()[0], vec![0, 1]);
}

#[test]
fn a_fixed_literal_propagates_the_condition_or_its_negation() {
    let x = [1, 2, 3, 4, 5];
    type MakeCondition = fn(crate::VarId) -> Condition;
    let cases: [(MakeCondition, [Vec<i32>; 2]); 5] = [
        (
            |x| Condition::compare(x, Relation::LessEq, 3),
            [vec![4, 5], vec![1, 2, 3]],
        ),
        (
            |x| Condition::compare(x, Relation::GreaterEq, 3),
            [vec![1, 2], vec![3, 4, 5]],
        ),
        (
            |x| Condition::compare(x, Relation::Equal, 3),
            [vec![1, 2, 4, 5], vec![3]],
        ),
        (
            |x| Condition::compare(x, Relation::NotEqual, 3),
            [vec![3], vec![1, 2, 4, 5]],
        ),
        (
            |x| Condition::not_in_set(x, [2, 4, 9]),
            [vec![2, 4], vec![1, 3, 5]],
        ),
    ];
    for (cond, [when_false, when_true]) in cases {
        assert_eq!(root(&[0], &x, false, cond).unwrap()[1], when_false);
        assert_eq!(root(&[1], &x, false, cond).unwrap()[1], when_true);
        assert_eq!(root(&[0], &x, true, cond).unwrap()[1], x.to_vec());
        assert_eq!(root(&[1], &x, true, cond).unwrap()[1], when_true);
    }
}

/// `[b, x, y]` at the root for `b <-> C(x, y)` (or `b -> C`).
fn root2(
    b: &[i32],
    x: &[i32],
    y: &[i32],
    half: bool,
    cond: impl Fn(crate::VarId, crate::VarId) -> Condition,
) -> Option<Vec<Vec<i32>>> {
    let mut model = Model::new();
    let bv = model.var_from_values(b.iter().copied()).unwrap();
    let xv = model.var_from_values(x.iter().copied()).unwrap();
    let yv = model.var_from_values(y.iter().copied()).unwrap();
    match half {
        true => model.half_reify(bv, cond(xv, yv)),
        false => model.reify(bv, cond(xv, yv)),
    }
    .unwrap();
    Solver::new(model).root_domains()
}

#[test]
fn differences_of_two_views_on_their_bounds() {
    // x - y <= -3 (x + 3 <= y), as `int_lin_le_reif` gives it, and mirrored.
    let le = |x, y| Condition::linear([(1, x), (-1, y)], Relation::LessEq, -3);
    let ge = |x, y| Condition::linear([(-1, x), (1, y)], Relation::GreaterEq, 3);
    let x = [0, 1, 2, 4, 6, 7];
    let y = [2, 3, 5, 8];
    for cond in [le, ge] {
        // True: x <= max(y) - 3 = 5 (4, the hole at 5), y >= min(x) + 3 = 3.
        let domains = root2(&[1], &x, &y, false, cond).unwrap();
        assert_eq!(domains[1..], [vec![0, 1, 2, 4], vec![3, 5, 8]]);
        assert_eq!(root2(&[1], &x, &y, true, cond).unwrap(), domains);
        // False: x - y >= -2, so x >= min(y) - 2 = 0 and y <= max(x) + 2 = 9.
        let domains = root2(&[0], &x, &y, false, cond).unwrap();
        assert_eq!(domains[1..], [x.to_vec(), y.to_vec()]);
        let domains = root2(&[0], &[1], &y, false, cond).unwrap();
        assert_eq!(domains[2], vec![2, 3]);
        // Half: a false b leaves the views alone.
        assert_eq!(root2(&[0], &[0], &y, true, cond).unwrap()[2], y.to_vec());
        // Entailed (max x - min y <= -3), disentailed (min x - max y > -3), open.
        assert_eq!(
            root2(&[0, 1], &[0, 1], &[5, 8], false, cond).unwrap()[0],
            [1]
        );
        assert_eq!(
            root2(&[0, 1], &[0, 1], &[5, 8], true, cond).unwrap()[0],
            [0, 1]
        );
        assert_eq!(
            root2(&[0, 1], &[7], &[2, 11], false, cond).unwrap()[0],
            [0, 1]
        );
        assert_eq!(root2(&[0, 1], &[7], &[2, 8], true, cond).unwrap()[0], [0]);
        // True, with no room: a conflict.
        assert_eq!(root2(&[1], &[7], &[2, 8], false, cond), None);
    }
    // The bounds ends of the range: nothing overflows.
    let wide = |x, y| Condition::linear([(1, x), (-1, y)], Relation::LessEq, i32::MAX);
    let (lo, hi) = (i32::MIN, i32::MAX);
    assert_eq!(
        root2(&[0, 1], &[lo, hi], &[lo, 0], false, wide).unwrap()[0],
        [0, 1]
    );
    assert_eq!(
        root2(&[0], &[lo, hi], &[lo, 0], false, wide).unwrap()[1],
        [hi]
    );
}

#[test]
fn views_compared_and_linear_relations() {
    // b <-> x == y: domains without a common value make b false.
    let mut model = Model::new();
    let b = model.bool_var().unwrap();
    let x = model.var_from_values([1, 3, 5]).unwrap();
    let y = model.var_from_values([2, 4]).unwrap();
    model
        .reify(b, Condition::compare_views(x, Relation::Equal, y))
        .unwrap();
    assert_eq!(Solver::new(model).root_domains().unwrap()[0], vec![0]);

    // !b <-> x <= y, with b true: x > y.
    let mut model = Model::new();
    let b = model.var_from_values([1]).unwrap();
    let x = model.int_var(0, 5).unwrap();
    let y = model.int_var(2, 9).unwrap();
    model
        .reify(!b, Condition::compare_views(x, Relation::LessEq, y))
        .unwrap();
    let domains = Solver::new(model).root_domains().unwrap();
    assert_eq!(domains[1], vec![3, 4, 5]);
    assert_eq!(domains[2], vec![2, 3, 4]);

    // b false: x + y != 10 becomes x + y == 10.
    let mut model = Model::new();
    let b = model.var_from_values([0]).unwrap();
    let x = model.int_var(0, 9).unwrap();
    let y = model.int_var(0, 3).unwrap();
    model
        .reify(
            b,
            Condition::linear([(1, x), (1, y)], Relation::NotEqual, 10),
        )
        .unwrap();
    assert_eq!(Solver::new(model).root_domains().unwrap()[1], vec![7, 8, 9]);

    // A linear sum entailed by bounds.
    let mut model = Model::new();
    let b = model.bool_var().unwrap();
    let x = model.int_var(0, 3).unwrap();
    model
        .reify(b, Condition::linear([(2, x)], Relation::LessEq, 6))
        .unwrap();
    assert_eq!(Solver::new(model).root_domains().unwrap()[0], vec![1]);
}

#[test]
fn a_true_literal_with_an_impossible_condition_fails() {
    let mut model = Model::new();
    let b = model.var_from_values([1]).unwrap();
    let x = model.int_var(0, 3).unwrap();
    model
        .half_reify(b, Condition::compare(x, Relation::GreaterEq, 4))
        .unwrap();
    assert_eq!(Solver::new(model).solve(), Outcome::Unsatisfiable);
}

#[test]
fn errors_name_the_problem() {
    let mut model = Model::new();
    let b = model.bool_var().unwrap();
    let x = model.int_var(0, 9).unwrap();
    // Its negation's right-hand side leaves i32; it is kept in i64 (once refused).
    model
        .reify(b, Condition::linear([(1, x)], Relation::LessEq, i32::MAX))
        .unwrap();
    let big = model.var_from_values([i32::MIN, i32::MIN + 1]).unwrap();
    let err = model
        .half_reify(
            b,
            Condition::linear([(i32::MIN, big), (i32::MIN, big)], Relation::Equal, 0),
        )
        .unwrap_err();
    assert!(
        matches!(&err, ModelError::InvalidConstraint { constraint: "half_reified", reason } if reason.contains("overflow")),
        "{err}"
    );
    let err = model
        .reify(x, Condition::compare(b, Relation::Equal, 1))
        .unwrap_err();
    assert!(matches!(err, ModelError::InvalidConstraint { .. }));
    assert_eq!(
        model.constraint_count(),
        1,
        "only the reified sum at i32::MAX"
    );
}
