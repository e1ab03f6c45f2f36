use super::trail::{COPY_CELLS, RUNS_FROM};
use super::*;

/// Marks a level of entries that change nothing, long enough that the marks above it
/// look for runs (`RUNS_FROM`). Returns the mark above them.
fn lengthen_trail(store: &mut Store) -> usize {
    let word = store.cells[0];
    store.trail.resize(RUNS_FROM.1, Saved { cell: 0, word });
    store.mark()
}

fn store_with(values: &[i32]) -> (Store, u32) {
    let mut store = Store::default();
    let var = store.add_var(values);
    (store, var)
}

#[test]
fn small_domain_reports_size_bounds_and_values() {
    let (store, x) = store_with(&[-3, 0, 5]);
    assert_eq!(store.size(x), 3);
    assert_eq!((store.min(x), store.max(x)), (-3, 5));
    assert_eq!(store.values(x).collect::<Vec<_>>(), vec![-3, 0, 5]);
    assert!(store.contains(x, 0) && !store.contains(x, 1) && !store.contains(x, 100));
}

#[test]
fn large_domain_keeps_bounds_through_removals() {
    let values: Vec<i32> = (-5000..5000).collect();
    let (mut store, x) = store_with(&values);
    assert_eq!(store.size(x), 10_000);
    assert_eq!(store.remove(x, -5000), Ok(Event::DOMAIN | Event::BOUNDS));
    assert_eq!(store.min(x), -4999);
    assert_eq!(store.remove(x, 17), Ok(Event::DOMAIN));
    assert_eq!(store.remove(x, 17), Ok(Event::NONE));
    assert_eq!(
        store.set_max(x, 100).map(|e| e.intersects(Event::BOUNDS)),
        Ok(true)
    );
    assert_eq!(store.max(x), 100);
    assert_eq!(store.size(x), 100 + 4999 + 1 - 1);
    assert_eq!(store.set_min(x, 99), Ok(Event::DOMAIN | Event::BOUNDS));
    assert_eq!(store.values(x).collect::<Vec<_>>(), vec![99, 100]);
    assert_eq!(
        store.remove(x, 100),
        Ok(Event::DOMAIN | Event::BOUNDS | Event::FIXED)
    );
    assert_eq!(store.remove(x, 99), Err(Wipeout));
}

/// The values of a domain of each shape: small, bitset, table, interval.
fn every_shape() -> [Vec<i32>; 4] {
    [
        vec![-3, 0, 5],                                        // small
        (10..200).step_by(3).collect(),                        // bitset
        (0..100).map(|i| i * 1000).collect(),                  // table
        (-100_000..100_000).filter(|v| v % 97 != 0).collect(), // interval
    ]
}

#[test]
fn bounds_are_min_and_max_in_every_shape() {
    for values in every_shape() {
        let (mut store, x) = store_with(&values);
        assert_eq!(store.bounds(x), (store.min(x), store.max(x)));
        store.set_min(x, values[1]).unwrap();
        store.set_max(x, values[values.len() - 2]).unwrap();
        assert_eq!(store.bounds(x), (values[1], values[values.len() - 2]));
    }
}

#[test]
fn a_bitset_keeps_its_bounds_in_a_cell_that_reads_as_min_and_max() {
    let [small, bitset, table, interval] = every_shape();
    let (mut store, x) = store_with(&bitset);
    let (cell, base) = store.bitset_bounds_cell(x).expect("a bitset");
    let read = |store: &Store| {
        let (lo, hi) = super::unpack_bounds(store.words()[cell]);
        (base + lo as i32, base + hi as i32)
    };
    assert_eq!(read(&store), store.bounds(x));
    store.set_min(x, 75).unwrap();
    store.remove(x, 199).unwrap();
    assert_eq!(read(&store), (76, 196));
    for other in [small, table, interval] {
        let (store, y) = store_with(&other);
        assert_eq!(store.bitset_bounds_cell(y), None);
    }
}

#[test]
fn undo_restores_every_change_since_the_mark() {
    for copying in [false, true] {
        let values: Vec<i32> = (0..200).collect();
        let mut store = Store::default();
        let small = store.add_var(&[1, 2, 3]);
        let large = store.add_var(&values);
        store.copying = copying;
        let before = store.clone();
        let mark = store.mark();
        store.remove(small, 2).unwrap();
        store.fix(large, 150).unwrap();
        let inner = store.mark();
        store.remove(small, 1).unwrap();
        store.undo_to(inner);
        assert_eq!(store.values(small).collect::<Vec<_>>(), vec![1, 3]);
        // A mark undone to stays one: the search takes the other branch there
        // and may undo it again.
        store.remove(small, 3).unwrap();
        store.undo_to(inner);
        assert_eq!(store.values(small).collect::<Vec<_>>(), vec![1, 3]);
        store.remove(small, 3).unwrap();
        store.undo_to(mark);
        assert_eq!(store.cells, before.cells, "copying: {copying}");
        assert!(store.trail.is_empty());
    }
}

#[test]
fn trail_saves_a_cell_once_per_level() {
    let (mut store, x) = store_with(&[1, 2, 3, 4, 5]);
    store.mark();
    store.remove(x, 1).unwrap();
    store.remove(x, 2).unwrap();
    store.remove(x, 3).unwrap();
    assert_eq!(store.trail.len(), 1);
}

#[test]
fn like_changes_share_a_run_that_undo_restores_cell_by_cell() {
    let mut store = Store::default();
    let vars: Vec<u32> = (0..300).map(|_| store.add_var(&[1, 2, 3])).collect();
    let before = store.cells.clone();
    let outer = lengthen_trail(&mut store);
    for &v in &vars {
        store.remove(v, 2).unwrap();
    }
    let inner = store.mark();
    assert_eq!(store.trail.len(), outer + 2, "one run for the level");
    for &v in vars.iter().step_by(3) {
        store.remove(v, 1).unwrap();
    }
    // Neither the next cell of the run nor its word: an entry of its own.
    store.remove(vars[1], 3).unwrap();
    store.mark();
    assert_eq!(store.trail.len(), outer + 2 + 2 + 1);
    store.undo_to(inner);
    for &v in &vars {
        assert_eq!(store.values(v).collect::<Vec<_>>(), vec![1, 3]);
    }
    store.undo_to(outer);
    assert_eq!(store.cells, before);

    // A level that continues the run of the one below stays a run of its own.
    store.remove(vars[99], 2).unwrap();
    let second = store.mark();
    for &v in &vars[100..] {
        store.remove(v, 2).unwrap();
    }
    store.mark();
    assert_eq!(store.trail.len(), outer + 1 + 2);
    store.undo_to(second);
    assert!(!store.contains(vars[99], 2) && store.contains(vars[100], 2));
}

#[test]
fn runs_never_reach_below_a_mark() {
    // Random prunings of like variables over random marks and undos: every undo gives
    // back exactly the cells of its mark, whatever runs formed.
    use rand::{RngExt, SeedableRng};
    let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(7);
    let mut store = Store::default();
    for _ in 0..200 {
        store.add_var(&[0, 1, 2, 3, 4, 5, 6, 7]);
    }
    let mut marks = vec![(lengthen_trail(&mut store), store.cells.clone())];
    for _ in 0..2000 {
        match rng.random_range(0..10) {
            0 | 1 => marks.push((store.mark(), store.cells.clone())),
            2 if !marks.is_empty() => {
                let (mark, cells) = marks.pop().unwrap();
                store.undo_to(mark);
                assert_eq!(store.cells, cells);
            }
            _ => {
                let first = rng.random_range(0..200u32);
                let stride = rng.random_range(1..4);
                let value = rng.random_range(0..8);
                for v in (first..200).step_by(stride).take(rng.random_range(1..80)) {
                    if store.size(v) > 1 {
                        let _ = store.remove(v, value);
                    }
                }
            }
        }
    }
    while let Some((mark, cells)) = marks.pop() {
        store.undo_to(mark);
        assert_eq!(store.cells, cells);
    }
}

#[test]
fn a_small_store_copies_at_marks_and_a_large_one_trails() {
    let mut small = Store::default();
    for _ in 0..COPY_CELLS {
        small.add_var(&[1, 2]);
    }
    let mut large = small.clone();
    large.add_var(&[1, 2]);
    for (store, copying) in [(&mut small, true), (&mut large, false)] {
        let fresh = store.clone();
        store.reset_from(&fresh);
        store.mark();
        store.remove(1, 1).unwrap();
        assert_eq!(store.trail.len(), usize::from(!copying));
        assert_eq!(store.copies.len(), usize::from(copying) * store.cells.len());
    }
}

#[test]
fn words_written_unsaved_come_back_at_undo_only_when_copying() {
    let mut small = Store::default();
    small.add_var(&[1, 2, 3]);
    let mut large = Store::default();
    for _ in 0..=COPY_CELLS {
        large.add_var(&[1, 2, 3]);
    }
    for store in [&mut small, &mut large] {
        let fresh = store.clone();
        store.reset_from(&fresh);
        let mark = store.mark();
        match store.unsaved_words() {
            Some(words) => words[0] = 0b1,
            None => {
                assert!(
                    store.cells.len() > COPY_CELLS,
                    "only a trailing store says no"
                );
                continue;
            }
        }
        assert_eq!(store.size(0), 1);
        store.undo_to(mark);
        assert_eq!(store.values(0).collect::<Vec<_>>(), vec![1, 2, 3]);
    }
}

#[test]
fn leading_mins_and_measure_read_the_words_then_any_other_shape() {
    let mut store = Store::default();
    store.add_var(&[-3, 0, 5]);
    store.add_var(&[7, 8]);
    store.add_var(&(10..200).step_by(3).collect::<Vec<_>>()); // bitset: ends the run
    store.add_var(&[4, 9]);
    store.remove(0, -3).unwrap();
    store.remove(2, 10).unwrap();
    assert_eq!(store.small_run, 2);
    for n in 0..=store.var_count() {
        let mins: Vec<i32> = (0..n as u32).map(|var| store.min(var)).collect();
        assert_eq!(store.leading_mins(n).collect::<Vec<_>>(), mins, "{n}");
    }
    let measure = |store: &Store| {
        (0..=5)
            .map(|n| store.leading_measure(n))
            .collect::<Vec<_>>()
    };
    let before = measure(&store);
    // The sizes of the later domains, [-3, 0, 5] and [7, 8] without -3.
    assert_eq!(before[4] - before[2], 63 + 2);
    assert_eq!(before[5], before[4], "past the end: all of them");
    // Any value removed from any domain makes every measure that covers it smaller.
    for (var, value) in [(0, 5), (1, 7), (2, 13), (3, 9)] {
        let mut smaller = store.clone();
        smaller.remove(var, value).unwrap();
        let after = measure(&smaller);
        for n in 0..=5 {
            assert_eq!(after[n] < before[n], n > var as usize, "var {var}, n {n}");
        }
    }
    assert_eq!(store.leading_mins(4).collect::<Vec<_>>(), [0, 7, 13, 4]);
}

#[test]
fn fixing_unsaved_after_a_reset_agrees_with_fix_in_every_shape() {
    for values in every_shape() {
        let (model, x) = store_with(&values);
        let tries = [
            values[0],
            values[values.len() / 2],
            values[0] - 1,
            1,
            97,
            6000,
        ];
        for value in tries {
            let (mut fixed, mut unsaved) = (model.clone(), model.clone());
            fixed.reset_from(&model);
            unsaved.reset_from(&model);
            let fits = fixed.fix(x, value).is_ok();
            assert_eq!(unsaved.fix_unsaved(x, value), fits, "{value}");
            let domain = |store: &Store| store.values(x).collect::<Vec<_>>();
            assert_eq!(domain(&unsaved), domain(&fixed), "{value}");
            // A wipe-out leaves the domain as it was.
            assert_eq!(fits, domain(&unsaved) != values, "{value}");
            assert!(unsaved.trail.is_empty());
        }
    }
}

#[test]
fn fixing_outside_the_domain_wipes_out() {
    let values: Vec<i32> = (0..130).step_by(2).collect();
    let (mut store, x) = store_with(&values);
    assert_eq!(store.fix(x, 3), Err(Wipeout));
    assert_eq!(store.fix(x, 1000), Err(Wipeout));
    assert_eq!(store.set_min(x, 129), Err(Wipeout));
    assert!(store.fix(x, 64).unwrap().intersects(Event::FIXED));
    assert_eq!((store.min(x), store.max(x), store.size(x)), (64, 64, 1));
}

#[test]
fn shapes_go_by_the_values_not_their_span() {
    let mut store = Store::default();
    store.add_range(0, 4095);
    assert_eq!(store.cells.len(), 2 + 64, "a bitset");
    store.add_range(0, 10_000_000);
    assert_eq!(store.cells.len(), 2 + 64 + 2, "an interval: two cells");
    store.add_var(&[i32::MIN, 0, i32::MAX]);
    assert_eq!(
        store.cells.len(),
        2 + 64 + 2 + 4,
        "a table: two cells, two words"
    );
    let holes: Vec<i32> = (0..10_000).filter(|v| v % 100 != 7).collect();
    let x = store.add_var(&holes);
    assert!(store.layouts[x as usize].is_interval());
    assert_eq!(store.size(x), 9_900);
    assert!(!store.contains(x, 107) && store.contains(x, 108));
    assert_eq!(store.values(x).take(9).last(), Some(9));
}

#[test]
fn an_interval_keeps_holes_bounds_and_size_and_undoes_them() {
    let mut store = Store::default();
    let x = store.add_range(i32::MIN, i32::MAX);
    let fresh = store.clone();
    store.reset_from(&fresh);
    assert_eq!(
        (store.size(x), store.min(x), store.max(x)),
        (u32::MAX, i32::MIN, i32::MAX)
    );
    let mark = store.mark();
    assert_eq!(store.remove(x, 0), Ok(Event::DOMAIN));
    assert_eq!(store.remove(x, 0), Ok(Event::NONE));
    assert!(!store.contains(x, 0) && store.contains(x, 1) && store.contains(x, -1));
    // One hole between the bounds: the size is the width less one.
    assert_eq!(store.cells[store.layouts[x as usize].size_cell()], 1);
    assert_eq!(store.size(x), u32::MAX);
    assert_eq!(store.set_min(x, -1), Ok(Event::DOMAIN | Event::BOUNDS));
    assert_eq!(store.size(x), 1 << 31);
    assert_eq!(store.set_max(x, 1), Ok(Event::DOMAIN | Event::BOUNDS));
    assert_eq!(store.values(x).collect::<Vec<_>>(), vec![-1, 1]);
    assert_eq!(store.values_from(x, 0).collect::<Vec<_>>(), vec![1]);
    assert_eq!(store.fix(x, 0), Err(Wipeout));
    assert_eq!(
        store.remove(x, -1),
        Ok(Event::DOMAIN | Event::BOUNDS | Event::FIXED)
    );
    assert_eq!((store.min(x), store.max(x), store.size(x)), (1, 1, 1));
    assert_eq!(store.remove(x, 1), Err(Wipeout));
    store.undo_to(mark);
    assert_eq!(
        (store.size(x), store.min(x), store.max(x)),
        (u32::MAX, i32::MIN, i32::MAX)
    );
    assert!(store.contains(x, 0));
    // A new search starts from the model's domains, the hole's word all ones.
    store.remove(x, 5).unwrap();
    store.reset_from(&fresh);
    assert!(store.contains(x, 5));
}

#[test]
fn an_interval_skips_chunks_of_holes_at_its_bounds() {
    let mut store = Store::default();
    let x = store.add_range(0, 9_999);
    for v in 1..300 {
        store.remove(x, v).unwrap();
    }
    // Removing 0 moves the minimum over five chunks of holes.
    assert_eq!(store.remove(x, 0), Ok(Event::DOMAIN | Event::BOUNDS));
    assert_eq!((store.min(x), store.size(x)), (300, 9_700));
    assert_eq!(store.set_max(x, 299), Err(Wipeout));
    assert_eq!(store.values(x).nth(5_000), Some(5_300));
    assert_eq!(store.values(x).nth(9_699), Some(9_999));
    assert_eq!(store.values(x).nth(9_700), None);
}

#[test]
fn a_table_of_far_apart_values_prunes_by_position() {
    let (mut store, x) = store_with(&[i32::MIN, -5, 0, i32::MAX]);
    assert_eq!(
        (store.min(x), store.max(x), store.size(x)),
        (i32::MIN, i32::MAX, 4)
    );
    assert!(store.contains(x, -5) && !store.contains(x, -4));
    assert_eq!(store.set_min(x, -6), Ok(Event::DOMAIN | Event::BOUNDS));
    assert_eq!(store.remove(x, 0), Ok(Event::DOMAIN));
    assert_eq!(store.values(x).collect::<Vec<_>>(), vec![-5, i32::MAX]);
    assert_eq!(store.values_from(x, 1).collect::<Vec<_>>(), vec![i32::MAX]);
    assert_eq!(store.fix(x, 0), Err(Wipeout));
    assert_eq!(
        store.set_max(x, 0),
        Ok(Event::DOMAIN | Event::BOUNDS | Event::FIXED)
    );
    assert_eq!(store.set_max(x, -6), Err(Wipeout));
}

#[test]
fn bitset_bounds_move_across_words_and_holes() {
    // 0..200 without 60..=70 and 130..=140: three of its four words hold holes.
    let values: Vec<i32> = (0..200)
        .filter(|v| !(60..=70).contains(v) && !(130..=140).contains(v))
        .collect();
    let (mut store, x) = store_with(&values);
    assert_eq!(store.size(x), 178);
    // A new minimum in a hole lands on the next value, two words on.
    assert_eq!(store.set_min(x, 65), Ok(Event::DOMAIN | Event::BOUNDS));
    assert_eq!((store.min(x), store.size(x)), (71, 178 - 60));
    assert_eq!(store.set_min(x, 71), Ok(Event::NONE));
    // A new maximum in a hole lands on the previous value.
    assert_eq!(store.set_max(x, 135), Ok(Event::DOMAIN | Event::BOUNDS));
    assert_eq!((store.max(x), store.size(x)), (129, 129 - 71 + 1));
    assert_eq!(store.set_max(x, 150), Ok(Event::NONE));
    assert_eq!(store.set_max(x, 70), Err(Wipeout));
    assert_eq!(store.set_min(x, 130), Err(Wipeout));
    assert_eq!(
        store.set_min(x, 129),
        Ok(Event::DOMAIN | Event::BOUNDS | Event::FIXED)
    );
    assert_eq!(store.values(x).collect::<Vec<_>>(), vec![129]);
}

mod properties {
    use std::collections::BTreeSet;

    use proptest::prelude::*;

    use super::*;

    /// One change to a domain, or a choice point, or a return to the latest one.
    #[derive(Clone, Debug)]
    enum Op {
        SetMin(i32),
        SetMax(i32),
        Remove(i32),
        Fix(i32),
        /// The values `from + i` for the bits `i` of the words.
        RemoveMask(i32, Vec<u64>),
        Mark,
        Undo,
    }

    /// Values of every shape: one word, several words (up to a few hundred apart, so
    /// that bounds cross words), far apart (a table) and nearly contiguous and wide (an
    /// interval), each with holes.
    fn values() -> impl Strategy<Value = Vec<i32>> {
        let holey = |lo: i32, span: i32, step: i32, holes: BTreeSet<i32>| {
            (lo..lo + span)
                .step_by(step as usize)
                .filter(|v| !holes.contains(&(v - lo)))
                .collect::<Vec<i32>>()
        };
        // The lowest value from `low..=0`, the span, the step between values and the
        // number of holes, each from its range.
        let shape = |low: i32, span: (i32, i32), step: (i32, i32), holes: (usize, usize)| {
            (
                low..=0,
                span.0..=span.1,
                step.0..=step.1,
                prop::collection::btree_set(0..span.1, holes.0..=holes.1),
            )
        };
        prop_oneof![
            shape(-40, (1, 64), (1, 3), (0, 20)),
            shape(-300, (65, 400), (1, 2), (0, 80)),
            shape(-300, (65, 400), (1, 1), (200, 390)),
            shape(-3000, (5000, 6000), (1, 1), (0, 20)),
            shape(-3000, (5000, 6000), (40, 90), (0, 30)),
        ]
        .prop_map(move |(lo, span, step, holes)| holey(lo, span, step, holes))
        .prop_filter("a domain has a value", |values| !values.is_empty())
    }

    /// A value near the domain: inside, at and beyond its bounds, in holes.
    fn ops(values: Vec<i32>) -> impl Strategy<Value = Vec<Op>> {
        let (lo, hi) = (values[0] - 3, values[values.len() - 1] + 3);
        let near = prop_oneof![
            2 => lo..=hi,
            1 => prop::sample::select(values),
        ];
        // Masks of a few values or of many, from the value near the domain on or
        // up to two words before it (so that the domain's words and the mask's
        // are out of step).
        let word = prop_oneof![Just(0), (0..64u32).prop_map(|i| 1u64 << i), any::<u64>()];
        let mask = (0..=130i32, prop::collection::vec(word, 1..=4));
        let op = (0..7u8, near, mask).prop_map(|(kind, v, (back, words))| match kind {
            0 => Op::SetMin(v),
            1 => Op::SetMax(v),
            2 => Op::Remove(v),
            3 => Op::Fix(v),
            4 => Op::RemoveMask(v - back, words),
            5 => Op::Mark,
            _ => Op::Undo,
        });
        prop::collection::vec(op, 1..40)
    }

    /// The event a change from `before` to `after` should report.
    fn expected_event(before: &BTreeSet<i32>, after: &BTreeSet<i32>) -> Event {
        if before == after {
            return Event::NONE;
        }
        let mut event = Event::DOMAIN;
        if before.first() != after.first() || before.last() != after.last() {
            event = event | Event::BOUNDS;
        }
        if after.len() == 1 {
            event = event | Event::FIXED;
        }
        event
    }

    proptest! {
        // Cheap cases, and the rare ones (a new bound at the edge of a word) need many.
        #![proptest_config(ProptestConfig::with_cases(2048))]

        /// Every shape narrows, reports and undoes as a set of values would: values,
        /// size, bounds, the event of each change, a wipe-out leaving the domain as it
        /// was, and each undo giving back the domain of its mark.
        #[test]
        fn every_shape_behaves_as_a_set_of_values(
            (values, ops) in values().prop_flat_map(|v| (Just(v.clone()), ops(v)))
        ) {
            let (mut store, x) = store_with(&values);
            let mut set: BTreeSet<i32> = values.iter().copied().collect();
            let mut marks: Vec<(usize, BTreeSet<i32>)> = Vec::new();
            for op in ops {
                let kept = |keep: &dyn Fn(i32) -> bool| -> BTreeSet<i32> {
                    set.iter().copied().filter(|&v| keep(v)).collect()
                };
                let (got, after) = match op {
                    Op::SetMin(m) => (store.set_min(x, m), kept(&|v| v >= m)),
                    Op::SetMax(m) => (store.set_max(x, m), kept(&|v| v <= m)),
                    Op::Remove(r) => (store.remove(x, r), kept(&|v| v != r)),
                    Op::Fix(f) => (store.fix(x, f), kept(&|v| v == f)),
                    Op::RemoveMask(from, words) => {
                        let masked = |v: i32| {
                            let i = i64::from(v) - i64::from(from);
                            (0..64 * words.len() as i64).contains(&i)
                                && words[i as usize / 64] >> (i % 64) & 1 == 1
                        };
                        let got = store.remove_mask(x, i64::from(from), &words);
                        (got, kept(&|v| !masked(v)))
                    }
                    Op::Mark => {
                        marks.push((store.mark(), set.clone()));
                        continue;
                    }
                    Op::Undo => {
                        if let Some((mark, at_mark)) = marks.pop() {
                            store.undo_to(mark);
                            set = at_mark;
                        }
                        (Ok(Event::NONE), set.clone())
                    }
                };
                if after.is_empty() {
                    prop_assert_eq!(got, Err(Wipeout));
                } else {
                    prop_assert_eq!(got, Ok(expected_event(&set, &after)));
                    set = after;
                }
                let now: Vec<i32> = store.values(x).collect();
                prop_assert_eq!(&now, &set.iter().copied().collect::<Vec<_>>());
                prop_assert_eq!(store.size(x) as usize, set.len());
                let (min, max) = (*set.first().unwrap(), *set.last().unwrap());
                prop_assert_eq!(store.bounds(x), (min, max));
            }
        }
    }
}
