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
//! `alldiff minizinc install` is checked here too; `fzn.rs` tests `alldiff fzn` alone.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use tempfile::TempDir;

mod cli_common;

use cli_common::{stderr, stdout, temp_dir, write_file};

const ALLDIFF: &str = env!("CARGO_BIN_EXE_alldiff");

/// MiniZinc's flags that pass `--check-solutions` on to `alldiff fzn`: every
/// solution is checked against every constraint, and a wrong one fails the run
/// (status 3).
const CHECKED: [&str; 2] = ["--fzn-flags", "--check-solutions"];

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

/// Runs `alldiff minizinc install --dir DIR` with `extra` arguments.
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
