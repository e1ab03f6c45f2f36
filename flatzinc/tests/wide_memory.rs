//! Memory by values in play, through FlatZinc: models whose variables span the whole
//! `i32` range but take three values solve with a heap that goes by those values
//! (the allocator of `tests/capped_heap` refuses anything sized by the span).

#[path = "../../tests/capped_heap/mod.rs"]
mod capped_heap;

use alldiff_flatzinc::{self as flatzinc, FlatZincModel, RunOptions, RunStatus};
use capped_heap::{Capped, TARGET, peak_of};

#[global_allocator]
static HEAP: Capped = Capped::new();

const ENDS: [i32; 3] = [i32::MIN, 0, i32::MAX];

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
