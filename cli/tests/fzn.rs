//! The protocol of `alldiff fzn`, on FlatZinc written here, so these tests need no
//! MiniZinc: the end lines, `-a`, `-n`, `-t`, `-s`, `-p`, `--trace`, and bad input.
//! Every run checks its solutions (`--check-solutions`).

use std::collections::BTreeSet;
use std::fs;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use tempfile::TempDir;

mod cli_common;

use cli_common::{output_within, stderr, stdout, temp_dir, write_file};

const ALLDIFF: &str = env!("CARGO_BIN_EXE_alldiff");

/// Three values for x, the first two for y, with x < y: 3 solutions.
const THREE: &str = "\
var 1..3: x :: output_var;
var 1..3: y :: output_var;
constraint int_lt(x, y);
solve satisfy;
";

/// Minimise x + y with x != y over 1..4.
const MINIMISE: &str = "\
var 1..4: x :: output_var;
var 1..4: y :: output_var;
var 2..8: s :: output_var;
constraint int_ne(x, y);
constraint int_lin_eq([1, 1, -1], [x, y, s], 0);
solve :: int_search([x, y], input_order, indomain_max, complete) minimize s;
";

/// Thirteen pigeons, twelve holes, Booleans only: no solution, found slowly.
fn pigeons(holes: usize) -> String {
    let mut text = String::new();
    for p in 0..=holes {
        for h in 0..holes {
            text += &format!("var bool: b_{p}_{h};\n");
        }
    }
    for p in 0..=holes {
        let vars: Vec<String> = (0..holes).map(|h| format!("b_{p}_{h}")).collect();
        text += &format!("constraint bool_clause([{}], []);\n", vars.join(", "));
    }
    for h in 0..holes {
        let vars: Vec<String> = (0..=holes).map(|p| format!("b_{p}_{h}")).collect();
        let ones = vec!["1"; holes + 1].join(", ");
        text += &format!(
            "constraint bool_lin_le([{ones}], [{}], 1);\n",
            vars.join(", ")
        );
    }
    text + "solve satisfy;\n"
}

fn fzn(dir: &TempDir, text: &str, flags: &[&str]) -> Output {
    let model = write_file(dir, "model.fzn", text);
    Command::new(ALLDIFF)
        .args(["fzn", "--check-solutions"])
        .args(flags)
        .arg(&model)
        .output()
        .unwrap()
}

/// The output lines, without statistics.
fn lines(output: &Output) -> Vec<String> {
    stdout(output)
        .lines()
        .filter(|l| !l.starts_with("%%%"))
        .map(str::to_owned)
        .collect()
}

#[test]
fn all_solutions_end_with_the_completion_line() {
    let dir = temp_dir("fzn-all");
    let output = fzn(&dir, THREE, &["-a"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        lines(&output),
        [
            "x = 1;",
            "y = 2;",
            "----------",
            "x = 1;",
            "y = 3;",
            "----------",
            "x = 2;",
            "y = 3;",
            "----------",
            "=========="
        ]
    );
    // The first solution only: the search is not complete.
    assert_eq!(
        lines(&fzn(&dir, THREE, &[])),
        ["x = 1;", "y = 2;", "----------"]
    );
    // -n 2: two, and no completion line; -n 5: all three, and complete.
    let two = lines(&fzn(&dir, THREE, &["-n", "2"]));
    assert_eq!(two.iter().filter(|l| *l == "----------").count(), 2);
    assert!(!two.contains(&"==========".to_owned()));
    let two = lines(&fzn(&dir, THREE, &["-a", "-n", "2"]));
    assert_eq!(two.iter().filter(|l| *l == "----------").count(), 2);
    let all = lines(&fzn(&dir, THREE, &["-n", "5"]));
    assert_eq!(all.iter().filter(|l| *l == "----------").count(), 3);
    assert_eq!(all.last().unwrap(), "==========");
    // -f and -r are accepted, and free search still finds every solution.
    let free = lines(&fzn(&dir, THREE, &["-a", "-f", "-r", "7"]));
    assert_eq!(free.iter().filter(|l| *l == "----------").count(), 3);
}

/// Issue 32's model: values spanning 65, one more than a word. Bounds strength (the
/// default of `fzn_all_different_int`) printed the 3 solutions with `y = 63` only, then
/// claimed the search complete.
#[test]
fn all_different_over_a_word_and_a_bit_prints_all_six_solutions_at_each_strength() {
    let dir = temp_dir("fzn-word-and-a-bit");
    for annotation in ["", " :: bounds", " :: domain", " :: value"] {
        let model = format!(
            "var 0..2: x :: output_var;\nvar 63..64: y :: output_var;\n\
             constraint fzn_all_different_int([x, y]){annotation};\nsolve satisfy;\n"
        );
        let output = fzn(&dir, &model, &["-a"]);
        assert!(output.status.success(), "{}", stderr(&output));
        let lines = lines(&output);
        let solutions: BTreeSet<&[String]> = lines
            .split(|l| l == "----------")
            .filter(|s| s.len() == 2)
            .collect();
        let expected: BTreeSet<Vec<String>> = (0..=2)
            .flat_map(|x| [63, 64].map(|y| vec![format!("x = {x};"), format!("y = {y};")]))
            .collect();
        assert_eq!(
            solutions,
            expected.iter().map(Vec::as_slice).collect(),
            "{annotation}"
        );
        assert_eq!(lines.len(), 6 * 3 + 1, "{annotation}");
        assert_eq!(lines.last().unwrap(), "==========", "{annotation}");
    }
}

#[test]
fn a_search_over_narrowed_domains_claims_no_proof() {
    let dir = temp_dir("fzn-narrowed");
    // x = 2 * 10^8 lies beyond the range an unbounded variable is clamped to: no
    // solution there, but no proof that there is none.
    let beyond = "var int: x :: output_var;\n\
                  constraint int_eq(x, 200000000);\nsolve satisfy;\n";
    // A domain beyond 32 bits: its solutions are found, but not all of them proven.
    let wide = "var 0..5000000000: y :: output_var;\n\
                constraint int_le(y, 1);\nsolve satisfy;\n";
    // A maximum cut off by the clamp: the best found is not proven optimal.
    let best = "var int: z :: output_var;\nconstraint int_le(z, 300000000);\n\
                solve :: int_search([z], input_order, indomain_max, complete) maximize z;\n";
    for (text, flags, expected) in [
        (beyond, &["-a"][..], vec!["=====UNKNOWN====="]),
        (
            wide,
            &["-a"],
            vec!["y = 0;", "----------", "y = 1;", "----------"],
        ),
        (best, &[], vec!["z = 100000000;", "----------"]),
    ] {
        let output = fzn(&dir, text, flags);
        assert!(output.status.success(), "{}", stderr(&output));
        assert_eq!(lines(&output), expected, "{text}");
        assert!(
            stderr(&output).contains("proves nothing"),
            "{}",
            stderr(&output)
        );
    }
}

#[test]
fn no_solution_is_unsatisfiable() {
    let dir = temp_dir("fzn-unsat");
    let text = THREE.replace("int_lt(x, y)", "int_lt(x, 1)");
    for flags in [&[][..], &["-a"]] {
        let output = fzn(&dir, &text, flags);
        assert!(output.status.success(), "{}", stderr(&output));
        assert_eq!(lines(&output), ["=====UNSATISFIABLE====="]);
    }
}

#[test]
fn optimisation_prints_the_best_or_with_a_each_improvement_and_the_statistics() {
    let dir = temp_dir("fzn-optimum");
    // Without -a, the best solution alone, at the end (as Gecode).
    let best = fzn(&dir, MINIMISE, &[]);
    assert_eq!(
        lines(&best),
        ["x = 2;", "y = 1;", "s = 3;", "----------", "=========="]
    );
    let output = fzn(&dir, MINIMISE, &["-a", "-s"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let out = stdout(&output);
    let sums: Vec<i32> = out
        .lines()
        .filter_map(|l| l.strip_prefix("s = ")?.strip_suffix(';')?.parse().ok())
        .collect();
    assert!(
        sums.len() >= 2,
        "every improving solution is printed: {out}"
    );
    assert!(sums.windows(2).all(|w| w[1] < w[0]), "{out}");
    assert_eq!(*sums.last().unwrap(), 3, "{out}");
    assert_eq!(lines(&output).last().unwrap(), "==========");
    // -n 1: the first improvement only, and no optimality claimed.
    let first = lines(&fzn(&dir, MINIMISE, &["-a", "-n", "1"]));
    assert_eq!(first.iter().filter(|l| *l == "----------").count(), 1);
    assert!(!first.contains(&"==========".to_owned()));

    // The statistics: MiniZinc's names, numbers, and the closing line last.
    let stats: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("%%%mzn-stat"))
        .collect();
    assert_eq!(*stats.last().unwrap(), "%%%mzn-stat-end");
    for name in [
        "nodes",
        "failures",
        "solutions",
        "objective",
        "peakDepth",
        "propagations",
        "variables",
        "propagators",
        "initTime",
        "solveTime",
    ] {
        let prefix = format!("%%%mzn-stat: {name}=");
        let value = stats
            .iter()
            .find_map(|l| l.strip_prefix(&prefix))
            .unwrap_or_else(|| panic!("no {name}: {out}"));
        assert!(value.parse::<f64>().is_ok(), "{name}={value}");
    }
    assert!(stats.contains(&"%%%mzn-stat: objective=3"), "{out}");
    assert!(stats.contains(&"%%%mzn-stat: variables=3"), "{out}");
    assert!(stats.contains(&format!("%%%mzn-stat: solutions={}", sums.len()).as_str()));
}

#[test]
fn a_time_limit_stops_the_search_and_says_unknown() {
    let dir = temp_dir("fzn-time");
    let started = Instant::now();
    let output = fzn(&dir, &pigeons(13), &["-t", "300", "-s"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(started.elapsed() < Duration::from_secs(20));
    assert_eq!(lines(&output), ["=====UNKNOWN====="]);
    assert!(stdout(&output).contains("%%%mzn-stat: solutions=0"));
    // Small enough to finish: proven unsatisfiable.
    assert_eq!(
        lines(&fzn(&dir, &pigeons(4), &[])),
        ["=====UNSATISFIABLE====="]
    );
}

#[test]
fn bad_input_is_one_line_with_its_line_number_and_status_1() {
    let dir = temp_dir("fzn-bad");
    let cases = [
        ("var 1..3: x;\nvar 1..3 y;\nsolve satisfy;\n", "line 2"),
        (
            "var 1..3: x;\nconstraint no_such_thing(x);\nsolve satisfy;\n",
            "no_such_thing",
        ),
        (
            "var 1..3: x;\nconstraint int_lt(x, z);\nsolve satisfy;\n",
            "line 2",
        ),
        ("var 1..3: x;\n", "solve"),
    ];
    for (text, expected) in cases {
        let output = fzn(&dir, text, &["-a"]);
        let message = stderr(&output);
        assert_eq!(output.status.code(), Some(1), "{text}: {message}");
        assert!(stdout(&output).is_empty(), "{text}");
        assert_eq!(message.lines().count(), 1, "{message}");
        assert!(message.starts_with("alldiff: "), "{message}");
        assert!(message.contains("model.fzn: "), "{message}");
        assert!(message.contains(expected), "{text}: {message}");
        assert!(!message.contains("panicked"), "{message}");
    }
    let missing = Command::new(ALLDIFF)
        .args(["fzn", "/no/such/model.fzn"])
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("/no/such/model.fzn"));
}

#[test]
fn warnings_go_to_standard_error_once_each() {
    let dir = temp_dir("fzn-warn");
    let text = "var int: x :: output_var;\nvar int: y;\nconstraint int_eq(x, 5);\nconstraint int_eq(y, 6);\nsolve satisfy;\n";
    let output = fzn(&dir, text, &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(lines(&output), ["x = 5;", "----------"]);
    let message = stderr(&output);
    let mut warnings: Vec<&str> = message.lines().collect();
    assert!(
        !warnings.is_empty(),
        "an unbounded var int is clamped with a warning"
    );
    assert!(warnings.iter().all(|w| w.contains("warning")), "{message}");
    let count = warnings.len();
    warnings.sort_unstable();
    warnings.dedup();
    assert_eq!(warnings.len(), count, "{message}");
}

#[test]
fn a_trace_has_the_flatzinc_names() {
    let dir = temp_dir("fzn-trace");
    let trace = dir.path().join("t.jsonl");
    let output = fzn(&dir, THREE, &["-a", "--trace", trace.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(lines(&output).last().unwrap(), "==========");
    let summary = Command::new(ALLDIFF)
        .args(["trace", "summary"])
        .arg(&trace)
        .output()
        .unwrap();
    assert!(summary.status.success(), "{}", stderr(&summary));
    assert!(
        stdout(&summary).contains("solutions: 3"),
        "{}",
        stdout(&summary)
    );
    let text = fs::read_to_string(&trace).unwrap();
    let header = text.lines().next().unwrap();
    assert!(header.contains(r#""name":"x""#) && header.contains(r#""name":"y""#));
    // The constraints have their kinds, and the prunings are recorded.
    assert!(!header.contains(r#""kind":"unknown""#), "{header}");
    assert!(
        text.lines().any(|l| l.contains(r#""type":"prune""#)),
        "{text}"
    );
}

#[test]
fn a_trace_of_huge_domains_is_refused_before_the_search() {
    let dir = temp_dir("fzn-huge-trace");
    let trace = dir.path().join("t.jsonl");
    // Ten million values and one: past what a trace header lists. The whole i32
    // range is counted without listing it (that aborted on a 16 GiB allocation,
    // and once listed it for minutes before refusing: hence the guard, far above
    // the milliseconds a refusal takes).
    for domain in ["0..10000000", "-2147483648..2147483647"] {
        let text =
            format!("var {domain}: x :: output_var;\nconstraint int_eq(x, 5);\nsolve satisfy;\n");
        let model = write_file(&dir, "model.fzn", &text);
        let output = output_within(
            Command::new(ALLDIFF)
                .args(["fzn", "--trace", trace.to_str().unwrap()])
                .arg(&model),
            Duration::from_secs(30),
        );
        assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
        assert!(stderr(&output).contains("--trace"), "{}", stderr(&output));
        assert!(stdout(&output).is_empty());
    }
}

#[test]
fn parallel_search_finds_a_solution_an_optimum_or_proves_there_is_none() {
    let dir = temp_dir("fzn-parallel");
    // One solution of a satisfaction problem, without the completion line.
    let one = lines(&fzn(&dir, THREE, &["-p", "2"]));
    assert_eq!(one.len(), 3, "{one:?}");
    let value = |l: &str, name: &str| -> i32 {
        l.strip_prefix(name)
            .unwrap()
            .trim_end_matches(';')
            .parse()
            .unwrap()
    };
    assert!(value(&one[0], "x = ") < value(&one[1], "y = "), "{one:?}");
    assert_eq!(one[2], "----------");
    // The optimum, proven, with its objective in the statistics.
    let output = fzn(&dir, MINIMISE, &["-p", "2", "-s"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let best = lines(&output);
    assert_eq!(
        best[2..],
        ["s = 3;", "----------", "=========="],
        "{best:?}"
    );
    assert!(stdout(&output).contains("%%%mzn-stat: objective=3"));
    // No solution, on every thread.
    assert_eq!(
        lines(&fzn(&dir, &pigeons(5), &["-p", "2"])),
        ["=====UNSATISFIABLE====="]
    );
    // With -a the search runs on one thread, and says so.
    let all = fzn(&dir, THREE, &["-p", "2", "-a"]);
    assert_eq!(lines(&all).iter().filter(|l| *l == "----------").count(), 3);
    assert_eq!(lines(&all).last().unwrap(), "==========");
    assert!(
        stderr(&all).contains("runs on one thread"),
        "{}",
        stderr(&all)
    );
}

#[test]
fn a_trace_over_the_model_is_refused_by_any_name() {
    let dir = temp_dir("fzn-trace-over-model");
    let model = write_file(&dir, "model.fzn", THREE);
    let dotted = dir.path().join(".").join("model.fzn");
    let mut names = vec![model.clone(), dotted];
    #[cfg(unix)]
    {
        let linked = dir.path().join("link.jsonl");
        std::os::unix::fs::symlink(&model, &linked).unwrap();
        names.push(linked);
    }
    for trace in names {
        let output = Command::new(ALLDIFF)
            .arg("fzn")
            .arg("--trace")
            .arg(&trace)
            .arg(&model)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
        assert!(stdout(&output).is_empty(), "{}", stdout(&output));
        assert!(
            stderr(&output).contains("--trace") && stderr(&output).contains("model"),
            "{}",
            stderr(&output)
        );
        assert_eq!(fs::read_to_string(&model).unwrap(), THREE, "{trace:?}");
    }
}

#[test]
fn a_thread_count_past_the_cap_is_a_usage_error_naming_it() {
    let dir = temp_dir("fzn-parallel-cap");
    let model = write_file(&dir, "model.fzn", THREE);
    for threads in ["100000", "18446744073709551615"] {
        let output = output_within(
            Command::new(ALLDIFF)
                .args(["fzn", "-p", threads])
                .arg(&model),
            Duration::from_secs(60),
        );
        assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
        assert!(stdout(&output).is_empty(), "{}", stdout(&output));
        assert!(
            stderr(&output).contains("at most") && stderr(&output).contains("per core"),
            "{}",
            stderr(&output)
        );
    }
    // Up to the cap, and 0 (one per core), search as before.
    let output = fzn(&dir, THREE, &["-p", "0"]);
    assert!(output.status.success(), "{}", stderr(&output));
}
