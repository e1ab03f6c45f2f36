//! alldiff as a MiniZinc solver, end to end.
//!
//! The corpus (`tests/minizinc/corpus.txt`: classic models with their known
//! answers) goes through `alldiff minizinc install --dir <temp>` and
//! `MZN_SOLVER_PATH=<temp> minizinc --solver alldiff ...`, and each answer is
//! checked: the number of solutions with `-a`, the proven optimum, or
//! `=====UNSATISFIABLE=====`. The `full` entries (a minute each in a debug build)
//! run only when `ALLDIFF_FULL_CORPUS` is set, as `.ci/run` does. Without
//! `minizinc` on the `PATH` that test prints a note and passes, except under CI
//! (the `CI` variable set), where it fails.
//!
//! The protocol tests run `alldiff fzn` on FlatZinc written here, so they need no
//! MiniZinc: the end lines, `-n`, `-t`, `-s`, `--trace`, and bad input. Every run
//! checks its solutions (`--check-solutions`).

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use tempfile::TempDir;

mod cli_common;

use cli_common::output_within;

const ALLDIFF: &str = env!("CARGO_BIN_EXE_alldiff");

/// MiniZinc's flags that pass `--check-solutions` on to `alldiff fzn`: every
/// solution is checked against every constraint, and a wrong one fails the run
/// (status 3).
const CHECKED: [&str; 2] = ["--fzn-flags", "--check-solutions"];

/// A fresh folder under the system's temporary folder, removed on drop.
fn temp_dir(name: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("alldiff-{name}-"))
        .tempdir()
        .unwrap()
}

/// Writes `text` to `name` in `dir`; returns its path.
fn write_file(dir: &TempDir, name: &str, text: &str) -> PathBuf {
    let path = dir.path().join(name);
    fs::write(&path, text).unwrap();
    path
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

// ---------------------------------------------------------------------------
// The corpus through MiniZinc.

/// What a corpus entry must give.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// This many solutions, and the search complete.
    Count(u64),
    /// This objective value, proven optimal.
    Optimum(i64),
    /// No solution.
    Unsat,
    /// At least one solution.
    Sat,
}

/// One line of `corpus.txt`.
#[derive(Debug)]
struct Entry {
    name: String,
    /// Runs in every `cargo test` (else only with `ALLDIFF_FULL_CORPUS`).
    quick: bool,
    model: String,
    data: Option<String>,
    flags: Vec<String>,
    expect: Expect,
}

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/minizinc")
}

fn corpus() -> Vec<Entry> {
    let text = fs::read_to_string(corpus_dir().join("corpus.txt")).unwrap();
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let [name, tier, model, data, flags, expect] = fields[..] else {
                panic!("corpus.txt: six fields expected: {line}");
            };
            assert!(
                ["quick", "full"].contains(&tier),
                "corpus.txt: bad tier {tier}"
            );
            let expect = match expect.split_once('=') {
                Some(("count", n)) => Expect::Count(n.parse().unwrap()),
                Some(("optimum", n)) => Expect::Optimum(n.parse().unwrap()),
                None if expect == "unsat" => Expect::Unsat,
                None if expect == "sat" => Expect::Sat,
                _ => panic!("corpus.txt: bad expectation {expect}"),
            };
            Entry {
                name: name.to_owned(),
                quick: tier == "quick",
                model: model.to_owned(),
                data: (data != "-").then(|| data.to_owned()),
                flags: match flags {
                    "-" => Vec::new(),
                    flags => flags.split(',').map(str::to_owned).collect(),
                },
                expect,
            }
        })
        .collect()
}

/// The arguments of `minizinc` for an entry, after `--solver alldiff`.
fn minizinc_args(entry: &Entry) -> Vec<String> {
    let dir = corpus_dir();
    let mut args = vec![dir.join(&entry.model).display().to_string()];
    match &entry.data {
        Some(data) if data.ends_with(".dzn") => args.push(dir.join(data).display().to_string()),
        Some(data) => args.extend(["-D".to_owned(), data.clone()]),
        None => {}
    }
    args.extend(entry.flags.iter().cloned());
    args.extend(["--output-mode", "dzn", "--output-objective"].map(str::to_owned));
    args
}

/// What MiniZinc printed: the solutions, the last objective, and the end line.
#[derive(Debug, PartialEq, Eq)]
struct Answer {
    solutions: u64,
    objective: Option<i64>,
    complete: bool,
    unsat: bool,
}

fn answer(out: &str) -> Answer {
    let lines = || out.lines().map(str::trim);
    Answer {
        solutions: lines().filter(|l| *l == "----------").count() as u64,
        objective: lines()
            .rev()
            .find_map(|l| l.strip_prefix("_objective = ")?.strip_suffix(';'))
            .map(|v| v.parse().unwrap()),
        complete: lines().any(|l| l == "=========="),
        unsat: lines().any(|l| l == "=====UNSATISFIABLE====="),
    }
}

fn check(entry: &Entry, got: &Answer) -> Result<(), String> {
    let ok = match entry.expect {
        Expect::Count(n) => got.solutions == n && got.complete,
        Expect::Optimum(v) => got.objective == Some(v) && got.complete,
        Expect::Unsat => got.unsat && got.solutions == 0,
        Expect::Sat => got.solutions >= 1,
    };
    match ok {
        true => Ok(()),
        false => Err(format!(
            "{}: expected {:?}, got {got:?}",
            entry.name, entry.expect
        )),
    }
}

/// Whether `minizinc` can be run; if not, `test` is skipped with a note, except
/// under CI (the `CI` variable set), where it fails.
fn minizinc_available(test: &str) -> bool {
    let found = Command::new("minizinc")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "minizinc is not on the PATH, and CI is set: install it (.ci/run does)"
        );
        eprintln!("note: minizinc is not on the PATH; {test} is skipped");
    }
    found
}

/// A fresh folder with alldiff installed in it by `alldiff minizinc install --dir`.
fn installed(name: &str) -> TempDir {
    let dir = temp_dir(name);
    let install = Command::new(ALLDIFF)
        .args(["minizinc", "install", "--dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(install.status.success(), "{}", stderr(&install));
    assert!(
        stdout(&install).contains("alldiff.msc"),
        "{}",
        stdout(&install)
    );
    dir
}

#[test]
fn the_corpus_solves_through_minizinc() {
    if !minizinc_available("the corpus test") {
        return;
    }
    let dir = installed("minizinc-corpus");

    let full = std::env::var_os("ALLDIFF_FULL_CORPUS").is_some();
    let entries: Vec<Entry> = corpus().into_iter().filter(|e| e.quick || full).collect();
    // Two at a time: MiniZinc's compilation and the search each take one core.
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                while let Some(entry) = entries.get(next.fetch_add(1, Ordering::Relaxed)) {
                    if let Err(message) = run_entry(entry, dir.path()) {
                        failures.lock().unwrap().push(message);
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Models where MiniZinc 2.6 writes a half-reification (`_imp`) in place of a full
/// one when the solver's library declares it, each with its number of solutions
/// (counted by brute force): the library declares none, so the counts hold.
const NEGATIVE_CONTEXTS: [(&str, &str, usize); 5] = [
    (
        "not_sum",
        "array[1..4] of var 0..3: x;\n\
         constraint not (sum(i in 1..4)(bool2int(x[i] = 0)) >= 2);",
        189,
    ),
    (
        "sum_implies",
        "array[1..4] of var 0..3: x;\n\
         constraint (sum(i in 1..4)(bool2int(x[i] < 1)) >= 2) -> (sum(x) >= 8);",
        189,
    ),
    (
        "weighted_implies",
        "array[1..4] of var 0..3: x;\n\
         constraint 2 * bool2int(x[1] > 1) - bool2int(x[2] = 0) >= 1 -> x[3] = x[4];",
        160,
    ),
    (
        "element_index",
        "array[1..4] of var 0..3: x;\n\
         constraint 9 <= [10, 0][bool2int(x[1] > 1) + 1];",
        128,
    ),
    (
        "set_in",
        "var -2..3: y;\n\
         constraint (bool2int(y in {-2, -1, 1}) >= 1) -> y > 2;",
        3,
    ),
];

#[test]
fn reifications_under_bool2int_and_negation_keep_their_meaning() {
    if !minizinc_available("the negative-context test") {
        return;
    }
    let dir = installed("minizinc-negative");
    for (name, model, count) in NEGATIVE_CONTEXTS {
        let path = write_file(
            &dir,
            &format!("{name}.mzn"),
            &format!("{model}\nsolve satisfy;\n"),
        );
        let output = Command::new("minizinc")
            .env("MZN_SOLVER_PATH", dir.path())
            .args(["--solver", "alldiff", "-a"])
            .args(CHECKED)
            .arg(&path)
            .output()
            .unwrap();
        assert!(output.status.success(), "{name}: {}", stderr(&output));
        let out = stdout(&output);
        let solutions = out.lines().filter(|l| *l == "----------").count();
        assert_eq!(solutions, count, "{name}:\n{out}");
        assert!(out.ends_with("==========\n"), "{name}:\n{out}");
    }
}

/// Runs one corpus entry through MiniZinc with alldiff installed in `dir`.
fn run_entry(entry: &Entry, dir: &Path) -> Result<(), String> {
    let started = Instant::now();
    let output = Command::new("minizinc")
        .env("MZN_SOLVER_PATH", dir)
        .args(["--solver", "alldiff"])
        .args(CHECKED)
        .args(minizinc_args(entry))
        .output()
        .map_err(|e| format!("{}: cannot run minizinc: {e}", entry.name))?;
    let got = answer(&stdout(&output));
    eprintln!("{:<18} {got:?} in {:.1?}", entry.name, started.elapsed());
    if !output.status.success() {
        return Err(format!(
            "{}: minizinc failed: {}",
            entry.name,
            stderr(&output)
        ));
    }
    check(entry, &got)
}

#[test]
fn the_default_folder_is_the_one_minizinc_searches() {
    if !minizinc_available("the default-folder test") {
        return;
    }
    // A home of its own, so the user's ~/.minizinc is left alone.
    let home = temp_dir("minizinc-home");
    let install = Command::new(ALLDIFF)
        .args(["minizinc", "install"])
        .env("HOME", home.path())
        .output()
        .unwrap();
    assert!(install.status.success(), "{}", stderr(&install));
    assert!(home.path().join(".minizinc/solvers/alldiff.msc").is_file());
    let output = Command::new("minizinc")
        .args(["--solver", "alldiff", "-a"])
        .arg(corpus_dir().join("queens.mzn"))
        .args(["-D", "n=6"])
        .env("HOME", home.path())
        .env_remove("MZN_SOLVER_PATH")
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let got = answer(&stdout(&output));
    assert_eq!(
        (got.solutions, got.complete),
        (4, true),
        "{}",
        stdout(&output)
    );
}

#[test]
fn the_corpus_manifest_names_files_that_exist() {
    let entries = corpus();
    assert!(entries.len() >= 15);
    for entry in &entries {
        assert!(corpus_dir().join(&entry.model).is_file(), "{}", entry.model);
        if let Some(data) = entry.data.as_ref().filter(|d| d.ends_with(".dzn")) {
            assert!(corpus_dir().join(data).is_file(), "{data}");
        }
    }
    let mut names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), entries.len(), "corpus names are unique");
}

// ---------------------------------------------------------------------------
// The protocol of `alldiff fzn`, on FlatZinc written here.

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
    // range is counted without listing it (that aborted on a 16 GiB allocation).
    for domain in ["0..10000000", "-2147483648..2147483647"] {
        let text =
            format!("var {domain}: x :: output_var;\nconstraint int_eq(x, 5);\nsolve satisfy;\n");
        let output = fzn(&dir, &text, &["--trace", trace.to_str().unwrap()]);
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

fn install_into(dir: &Path, extra: &[&str]) -> Output {
    Command::new(ALLDIFF)
        .args(["minizinc", "install", "--dir"])
        .arg(dir)
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn install_leaves_files_it_did_not_write_alone_unless_forced() {
    let dir = temp_dir("install-over-user-files");
    let library = dir.path().join("alldiff");
    fs::create_dir_all(&library).unwrap();
    let mine = library.join("mine.mzn");
    fs::write(&mine, "% the user's own\n").unwrap();
    let config = dir.path().join("alldiff.msc");
    fs::write(&config, "{\"id\": \"org.someone.else\"}\n").unwrap();

    let refused = install_into(dir.path(), &[]);
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    let message = stderr(&refused);
    assert!(
        message.contains("mine.mzn")
            && message.contains("alldiff.msc")
            && message.contains("--force"),
        "{message}"
    );
    assert_eq!(fs::read_to_string(&mine).unwrap(), "% the user's own\n");
    assert_eq!(
        fs::read_to_string(&config).unwrap(),
        "{\"id\": \"org.someone.else\"}\n"
    );
    assert!(!library.join("redefinitions.mzn").exists());

    // --force writes alldiff's files, and still deletes nothing of the user's.
    let forced = install_into(dir.path(), &["--force"]);
    assert!(forced.status.success(), "{}", stderr(&forced));
    assert!(stderr(&forced).contains("mine.mzn"), "{}", stderr(&forced));
    assert_eq!(fs::read_to_string(&mine).unwrap(), "% the user's own\n");
    assert!(
        fs::read_to_string(&config)
            .unwrap()
            .contains("org.alldiff.alldiff")
    );

    // Installing again over alldiff's own installation needs no --force.
    let again = install_into(installed("install-again").path(), &[]);
    assert!(again.status.success(), "{}", stderr(&again));
}
