//! Memory by values in play: models whose variables span the whole `i32` range but
//! take three values, `{i32::MIN, 0, i32::MAX}`, solve with a heap that goes by those
//! three values. This binary's allocator counts the bytes live at once and refuses
//! any allocation past [`CAP`], so a propagator that sizes anything by the span (four
//! billion values, gigabytes) fails here at once instead of swapping. (Not with
//! `count-allocations`, whose own allocator replaces this one.)
#![cfg(not(feature = "count-allocations"))]

mod capped_heap;

use alldiff::{Condition, Model, Relation, Solver, VarId};
use capped_heap::{Capped, TARGET, peak_of};

#[global_allocator]
static HEAP: Capped = Capped::new();

const ENDS: [i32; 3] = [i32::MIN, 0, i32::MAX];

/// Counts the solutions of a model over `x`, the whole range, and checks that they
/// are `x` at the three ends, within the target heap.
fn three_solutions(name: &str, post: impl FnOnce(&mut Model, VarId)) {
    let (found, peak) = peak_of(|| {
        let mut model = Model::new();
        let x = model.int_var(i32::MIN, i32::MAX).unwrap();
        post(&mut model, x);
        let mut solver = Solver::new(model);
        let mut found = Vec::new();
        for solution in solver.solutions().map(Result::unwrap) {
            found.push(solution[x]);
        }
        found
    });
    assert_eq!(found, ENDS, "{name}");
    assert!(peak < TARGET, "{name}: {peak} bytes at the peak");
}

#[test]
fn membership_of_three_values_over_the_whole_range() {
    three_solutions("in_set", |m, x| {
        let one = m.var_from_values([1]).unwrap();
        m.half_reify(one, Condition::in_set(x, ENDS)).unwrap();
    });
}

#[test]
fn equal_to_a_variable_of_three_values_over_the_whole_range() {
    three_solutions("equal", |m, x| {
        let y = m.var_from_values(ENDS).unwrap();
        m.equal(x, y).unwrap();
    });
    three_solutions("equal, the wide side second", |m, x| {
        let y = m.var_from_values(ENDS).unwrap();
        m.equal(y, x).unwrap();
    });
}

#[test]
fn element_of_three_values_over_the_whole_range() {
    three_solutions("element", |m, x| {
        let i = m.int_var(i32::MIN, i32::MAX).unwrap();
        m.element(&ENDS, i, x).unwrap();
    });
}

#[test]
fn table_of_three_values_over_the_whole_range() {
    three_solutions("table", |m, x| {
        let rows = ENDS.map(|v| vec![v]);
        m.table([x], &rows).unwrap();
    });
}

#[test]
fn differences_and_reified_equality_over_the_whole_range() {
    three_solutions("difference_in", |m, x| {
        let y = m.var_from_values([0]).unwrap();
        m.difference_in(x, y, &ENDS).unwrap();
    });
    three_solutions("reified equality", |m, x| {
        let y = m.var_from_values(ENDS).unwrap();
        let one = m.var_from_values([1]).unwrap();
        m.reify(one, Condition::compare_views(x, Relation::Equal, y))
            .unwrap();
    });
}

#[test]
fn magnitude_near_the_ends_over_the_whole_range() {
    // |x| in {MAX - 1, MAX}: the gap of four billion values around 0 is not punched
    // into x's domain (a word per 64 values), its bounds jump it; |MIN| is no i32.
    let (mut found, peak) = peak_of(|| {
        let mut model = Model::new();
        let x = model.int_var(i32::MIN, i32::MAX).unwrap();
        let z = model.int_var(i32::MAX - 1, i32::MAX).unwrap();
        model.abs(x, z).unwrap();
        let mut solver = Solver::new(model);
        solver
            .solutions()
            .map(Result::unwrap)
            .map(|s| s[x])
            .collect::<Vec<_>>()
    });
    found.sort_unstable();
    let ends = [i32::MIN + 1, i32::MIN + 2, i32::MAX - 1, i32::MAX];
    assert_eq!(found, ends);
    assert!(peak < TARGET, "abs: {peak} bytes at the peak");
}
