//! Memory by values in play: models whose variables span the whole `i32` range but
//! take three values, `{i32::MIN, 0, i32::MAX}`, solve with a heap that goes by those
//! three values. This binary's allocator counts the bytes live at once and refuses
//! any allocation past [`CAP`], so a propagator that sizes anything by the span (four
//! billion values, gigabytes) fails here at once instead of swapping. (Not with
//! `count-allocations`, whose own allocator replaces this one.)
#![cfg(not(feature = "count-allocations"))]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use alldiff::flatzinc::{self, FlatZincModel, RunOptions, RunStatus};
use alldiff::{Condition, Model, Relation, Solver, VarId};

/// The most heap this binary may hold at once: far below what one span-sized array
/// of the whole `i32` range takes (4 GiB of `i8`), far above what the models need.
const CAP: usize = 256 << 20;

/// The target of `docs/performance.md`: each model's peak heap, measured here.
const TARGET: usize = 50 << 20;

struct Capped {
    live: AtomicUsize,
    peak: AtomicUsize,
}

// SAFETY: every call is passed on to `System`; only the counters are added.
unsafe impl GlobalAlloc for Capped {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = self.live.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        if live > CAP {
            self.live.fetch_sub(layout.size(), Ordering::Relaxed);
            return std::ptr::null_mut();
        }
        self.peak.fetch_max(live, Ordering::Relaxed);
        // SAFETY: the caller's layout, as `GlobalAlloc::alloc` requires.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        self.live.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: `ptr` came from `alloc` above with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static HEAP: Capped = Capped {
    live: AtomicUsize::new(0),
    peak: AtomicUsize::new(0),
};

/// One model at a time, so that each peak is its own.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Runs `f` alone and returns its result with the heap's peak above where it started.
fn peak_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let start = HEAP.live.load(Ordering::Relaxed);
    HEAP.peak.store(start, Ordering::Relaxed);
    let result = f();
    (result, HEAP.peak.load(Ordering::Relaxed) - start)
}

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
        for solution in solver.solutions() {
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
        solver.solutions().map(|s| s[x]).collect::<Vec<_>>()
    });
    found.sort_unstable();
    let ends = [i32::MIN + 1, i32::MIN + 2, i32::MAX - 1, i32::MAX];
    assert_eq!(found, ends);
    assert!(peak < TARGET, "abs: {peak} bytes at the peak");
}

/// Runs FlatZinc text with `-a` and returns the status and solutions printed.
fn fzn_all(text: &str) -> (RunStatus, Vec<String>) {
    let problem = FlatZincModel::parse(text).unwrap();
    let options = RunOptions {
        all: true,
        ..RunOptions::default()
    };
    let mut printed = Vec::new();
    let outcome = flatzinc::run(&problem, &options, &mut (), |solution, _| {
        printed.push(problem.format_solution(solution));
    });
    (outcome.status, printed)
}

/// The models of `docs/performance.md`, over `R`: `x` takes the values of `S`.
const FLATZINC: [(&str, &str); 5] = [
    (
        "set_in",
        "var R: x :: output_var;\nconstraint set_in(x, S);\n",
    ),
    (
        "int_eq",
        "var R: x :: output_var;\nvar S: y;\nconstraint int_eq(x, y);\n",
    ),
    (
        // The index may be i32::MIN, where the index less one (MiniZinc counts
        // from 1) leaves i32: it was refused.
        "array_int_element",
        "array [1..3] of int: a = [L];\nvar R: i;\nvar R: x :: output_var;\n\
         constraint array_int_element(i, a, x);\n",
    ),
    (
        "array_var_int_element",
        "var S: y;\nvar R: i;\nvar R: x :: output_var;\n\
         constraint array_var_int_element(i, [y], x);\n",
    ),
    (
        "alldiff_table_int",
        "var R: x :: output_var;\nconstraint alldiff_table_int([x], [L]);\n",
    ),
];

#[test]
fn flatzinc_models_of_three_values_over_the_whole_range_and_over_two_hundred_million() {
    for (range, ends) in [
        ("-2147483648..2147483647", ENDS),
        ("-100000000..100000000", [-100_000_000, 0, 100_000_000]),
    ] {
        let list = ends.map(|v| v.to_string()).join(", ");
        for (name, model) in FLATZINC {
            let text = model
                .replace('R', range)
                .replace('S', &format!("{{{list}}}"))
                .replace('L', &list)
                + "solve satisfy;\n";
            let ((status, printed), peak) = peak_of(|| fzn_all(&text));
            assert_eq!(status, RunStatus::Complete, "{name} over {range}");
            let expected: Vec<String> = ends.iter().map(|v| format!("x = {v};\n")).collect();
            assert_eq!(printed, expected, "{name} over {range}");
            assert!(
                peak < TARGET,
                "{name} over {range}: {peak} bytes at the peak"
            );
        }
    }
}

#[test]
fn flatzinc_set_in_a_wide_set_over_the_whole_range() {
    // A set of 65,538 values in two runs, {0..=65536, 65538}: the values of x outside
    // it were listed from x's domain, four billion of them (an abort). Now only the
    // gaps between x's bounds are listed: plainly x is within the set's hull (one gap,
    // {65537}); reified, a gap below 0 of two billion values is an error, not a list.
    let listed: Vec<String> = (0..=65536).chain([65538]).map(|v| v.to_string()).collect();
    let model = |reified: bool| {
        let (b, arg) = if reified {
            ("var bool: b;\n", ", b")
        } else {
            ("", "")
        };
        let name = if reified { "set_in_reif" } else { "set_in" };
        format!(
            "var -2147483648..2147483647: x :: output_var;\n{b}\
             constraint {name}(x, {{{}}}{arg});\nconstraint int_ge(x, 65537);\n\
             solve satisfy;\n",
            listed.join(",")
        )
    };
    let (status, peak) = peak_of(|| {
        let problem = FlatZincModel::parse(&model(false)).unwrap();
        let mut printed = Vec::new();
        let options = RunOptions {
            all: true,
            ..RunOptions::default()
        };
        let outcome = flatzinc::run(&problem, &options, &mut (), |s, _| {
            printed.push(problem.format_solution(s));
        });
        (outcome.status, printed)
    });
    assert_eq!(
        status,
        (RunStatus::Complete, vec!["x = 65538;\n".to_string()])
    );
    assert!(peak < TARGET, "set_in: {peak} bytes at the peak");
    let (refused, peak) = peak_of(|| FlatZincModel::parse(&model(true)));
    let message = refused.unwrap_err().to_string();
    assert!(message.contains("set_in_reif"), "{message}");
    assert!(peak < TARGET, "set_in_reif: {peak} bytes at the peak");
}
