//! The `alldiff` binary end to end: output lines, standard error and exit
//! status for each subcommand, good input and bad.

mod cli_common;

use std::io::Write as _;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use cli_common::{
    CLASSIC, CLASSIC_SOLUTION, Run, output_within, run as alldiff_with, spawn_piped, temp_file,
    wait_within,
};
use tempfile::TempDir;

fn alldiff(args: &[&str]) -> Run {
    alldiff_with(args, b"")
}

/// A fresh directory under the system temp dir for one test, removed when the
/// guard drops.
fn temp_dir(name: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("alldiff-cli-{name}-"))
        .tempdir()
        .expect("temp dir")
}

fn json_lines(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}

#[test]
fn solves_the_classic_puzzle() {
    let run = alldiff(&["solve", CLASSIC]);
    assert_eq!(
        (run.status, run.lines()),
        (0, vec![CLASSIC_SOLUTION]),
        "{run:?}"
    );
    assert_eq!(run.stderr, "");
    let grid = alldiff(&["solve", "--format", "grid", CLASSIC]);
    assert!(
        grid.stdout.starts_with("3 1 6 | 5 7 8 | 4 9 2\n"),
        "{grid:?}"
    );
    assert!(grid.stdout.contains("------+-------+------"));
    let first = alldiff(&["solve", "--first", CLASSIC]);
    assert_eq!(first.lines(), vec![CLASSIC_SOLUTION]);
}

#[test]
fn empty_and_contradictory_grids() {
    let empty = ".".repeat(81);
    let run = alldiff(&["solve", &empty]);
    assert_eq!((run.status, run.lines()), (1, vec!["multiple"]));
    let conflict = format!("55{}", &CLASSIC[2..]);
    let run = alldiff(&["solve", &conflict]);
    assert_eq!((run.status, run.lines()), (1, vec!["none"]));
    let run = alldiff(&["solve", "-f", "grid", &conflict]);
    assert_eq!(run.lines(), vec!["No solution exists", ""]);
    // A puzzle whose clues agree but that has no solution.
    let unsolvable = ".23.....1...4...";
    assert_eq!(alldiff(&["solve", unsolvable]).lines(), vec!["none"]);
}

#[test]
fn a_batch_file_gives_one_line_per_puzzle_in_order() {
    let conflict = format!("55{}", &CLASSIC[2..]);
    let text = format!("{CLASSIC}\n# a comment\n\n12345\n{conflict}\n");
    let file = temp_file("batch", text.as_bytes());
    let run = alldiff(&["solve", "--input", file.path().to_str().unwrap()]);
    assert_eq!(run.status, 1);
    let lines = run.lines();
    assert_eq!(lines.len(), 3, "{run:?}");
    assert_eq!(lines[0], CLASSIC_SOLUTION);
    assert!(lines[1].starts_with("error: 5 cells"), "{}", lines[1]);
    assert_eq!(lines[2], "none");
    assert!(run.stderr.contains("line 4"), "{}", run.stderr);
    // The same through standard input.
    let piped = alldiff_with(&["solve"], text.as_bytes());
    assert_eq!(piped.stdout, run.stdout);
}

#[test]
fn every_propagation_gives_the_same_answers() {
    let generated = alldiff(&["generate", "-n", "30", "--hints", "24", "--seed", "11"]);
    assert_eq!(generated.status, 0, "{generated:?}");
    let mut batch = generated.stdout.clone();
    batch.push_str(&format!("{CLASSIC}\n{}\n", ".".repeat(81)));
    let default = alldiff_with(&["solve"], batch.as_bytes());
    assert_eq!(default.lines().len(), 32, "{default:?}");
    assert_eq!(default.lines()[30], CLASSIC_SOLUTION);
    assert_eq!(default.lines()[31], "multiple");
    let counted = alldiff_with(&["count"], batch.as_bytes());
    for rules in ["root-locked", "singles", "locked"] {
        let solved = alldiff_with(&["solve", "--propagation", rules], batch.as_bytes());
        assert_eq!(solved.stdout, default.stdout, "{rules}");
        let count = alldiff_with(&["count", "--propagation", rules], batch.as_bytes());
        assert_eq!(count.stdout, counted.stdout, "{rules}");
    }
    let bad = alldiff_with(&["solve", "--propagation", "full"], batch.as_bytes());
    assert_eq!(bad.status, 2, "{bad:?}");
    assert!(bad.stderr.contains("root-locked"), "{}", bad.stderr);
}

#[test]
fn threads_do_not_change_the_output() {
    let generated = alldiff(&[
        "generate", "-n", "200", "--hints", "45", "--seed", "5", "-j", "2",
    ]);
    assert_eq!(generated.status, 0, "{generated:?}");
    assert_eq!(generated.lines().len(), 200);
    // Puzzle i comes from seed + i, whatever the thread count.
    let fewer = alldiff(&[
        "generate", "-n", "40", "--hints", "45", "--seed", "5", "-j", "1",
    ]);
    assert_eq!(fewer.lines(), generated.lines()[..40]);
    let one = alldiff_with(&["solve", "-j", "1"], generated.stdout.as_bytes());
    let two = alldiff_with(&["solve", "-j", "2"], generated.stdout.as_bytes());
    assert_eq!((one.status, two.status), (0, 0));
    assert_eq!(one.stdout, two.stdout);
    assert_eq!(one.lines().len(), 200);
}

#[test]
fn generate_is_reproducible_with_exact_hints() {
    let args = ["generate", "-n", "4", "--hints", "30", "--seed", "42"];
    let a = alldiff(&args);
    let b = alldiff(&args);
    assert_eq!(a.status, 0, "{a:?}");
    assert_eq!(a.stdout, b.stdout);
    assert_eq!(
        a.stderr, "",
        "no seed printed when stderr is not a terminal"
    );
    for line in a.lines() {
        assert_eq!(line.len(), 81);
        assert_eq!(line.chars().filter(|&c| c != '.').count(), 30, "{line}");
    }
    let other = alldiff(&["generate", "-n", "4", "--hints", "30", "--seed", "43"]);
    assert_ne!(other.stdout, a.stdout);
    let symmetric = alldiff(&["generate", "--seed", "3", "--symmetry", "rotate180"]);
    let cells: Vec<char> = symmetric.stdout.trim().chars().collect();
    assert!((0..81).all(|i| (cells[i] == '.') == (cells[80 - i] == '.')));
    // The classic generator blanks exactly N cells.
    let hidden = alldiff(&["generate", "--seed", "3", "--hide-random", "50"]);
    assert_eq!(hidden.stdout.trim().matches('.').count(), 50);
}

#[test]
fn generated_solutions_validate() {
    let generated = alldiff(&["generate", "-n", "5", "--seed", "9", "--with-solution"]);
    assert_eq!(generated.status, 0);
    let checked = alldiff_with(&["validate"], generated.stdout.as_bytes());
    assert_eq!((checked.status, checked.lines()), (0, vec!["valid"; 5]));
    // And solving each puzzle gives its solution.
    for line in generated.lines() {
        let (puzzle, solution) = line.split_once(' ').unwrap();
        assert_eq!(alldiff(&["solve", puzzle]).lines(), vec![solution]);
    }
}

#[test]
fn csv_files_of_puzzles_and_solutions_are_read() {
    let generated = alldiff(&["generate", "-n", "3", "--seed", "9", "--with-solution"]);
    // As the common CSV datasets give them: a header, `puzzle,solution` rows, zeros
    // for blanks; and one wrong solution.
    let mut csv = String::from("quizzes,solutions\n");
    let mut solutions = Vec::new();
    for line in generated.lines() {
        let (puzzle, solution) = line.split_once(' ').unwrap();
        csv.push_str(&format!("{},{solution}\n", puzzle.replace('.', "0")));
        solutions.push(solution.to_owned());
    }
    let wrong = CLASSIC_SOLUTION
        .replace('5', "x")
        .replace('3', "5")
        .replace('x', "3");
    csv.push_str(&format!("{CLASSIC},{wrong}\n"));
    solutions.push(CLASSIC_SOLUTION.to_owned());
    let solved = alldiff_with(&["solve"], csv.as_bytes());
    assert_eq!(solved.status, 0);
    assert_eq!(solved.lines(), solutions);
    let checked = alldiff_with(&["validate"], csv.as_bytes());
    assert_eq!(checked.status, 1);
    let verdicts = checked.lines();
    assert_eq!(verdicts[..3], ["valid"; 3]);
    assert!(verdicts[3].starts_with("invalid: "), "{}", verdicts[3]);
    let counted = alldiff_with(&["count"], csv.as_bytes());
    assert_eq!((counted.status, counted.lines()), (0, vec!["1"; 4]));
}

#[test]
fn count_and_rate() {
    let run = alldiff(&["count", "--limit", "5", &".".repeat(16)]);
    assert_eq!((run.status, run.lines()), (0, vec!["5"]));
    assert_eq!(alldiff(&["count", CLASSIC]).lines(), vec!["1"]);
    let run = alldiff(&["rate", CLASSIC]);
    assert_eq!((run.status, run.lines()), (0, vec!["medium"]));
    let run = alldiff(&["rate", &".".repeat(16)]);
    assert_eq!(run.status, 1);
    assert_eq!(
        run.lines(),
        vec!["error: the puzzle has more than one solution"]
    );
}

#[test]
fn json_is_one_object_a_line() {
    let input = format!("{CLASSIC}\n{}\nnot a puzzle\n", ".".repeat(81));
    let solved = json_lines(&alldiff_with(&["solve", "-f", "json"], input.as_bytes()).stdout);
    assert_eq!(solved.len(), 3);
    assert_eq!(solved[0]["status"], "unique");
    assert_eq!(solved[0]["solution"], CLASSIC_SOLUTION);
    assert!(solved[0]["statistics"]["nodes"].is_u64());
    assert_eq!(solved[1]["status"], "multiple");
    assert_eq!(solved[2]["line"], 3);
    assert!(solved[2]["error"].is_string());
    let counted = json_lines(&alldiff_with(&["count", "-f", "json"], input.as_bytes()).stdout);
    assert_eq!(counted[0]["count"], 1);
    assert_eq!(counted[0]["complete"], true);
    assert_eq!(counted[1]["complete"], false);
    let rated = json_lines(&alldiff(&["rate", "-f", "json", CLASSIC]).stdout);
    assert_eq!(rated[0]["difficulty"], "medium");
    assert!(rated[0]["nodes"].is_u64());
    let generated = json_lines(&alldiff(&["generate", "-f", "json", "--seed", "1"]).stdout);
    assert_eq!(generated[0]["seed"], 1);
    assert_eq!(generated[0]["hints"], 30);
}

#[test]
fn limits_stop_the_search_quickly() {
    let started = Instant::now();
    let empty = ".".repeat(625);
    let args = [
        "count",
        "--timeout",
        "1ms",
        "--node-limit",
        "10",
        "--limit",
        "1000000",
    ];
    let run = alldiff(&[&args[..], &[empty.as_str()]].concat());
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(run.status, 1);
    let lines = run.lines();
    assert_eq!(lines.len(), 1);
    assert!(lines[0].starts_with("stopped: "), "{run:?}");
    let solve = alldiff(&["solve", "--node-limit", "1", "-f", "json", &".".repeat(81)]);
    assert_eq!(json_lines(&solve.stdout)[0]["status"], "stopped");
    assert_eq!(alldiff(&["solve", "--timeout", "soon", CLASSIC]).status, 2);
}

#[test]
fn bad_lines_are_reported_one_by_one() {
    let complete_wrong = format!("{}{}", &CLASSIC_SOLUTION[1..2], &CLASSIC_SOLUTION[1..]);
    let mut input = Vec::new();
    input.extend_from_slice(b"\n"); // length 0: skipped
    input.extend_from_slice(&CLASSIC.as_bytes()[..80]);
    input.extend_from_slice(format!("\n{CLASSIC}.\n").as_bytes());
    input.extend_from_slice(&vec![b'.'; 1 << 20]);
    input.extend_from_slice(format!("\n{}x\n", &CLASSIC[..80]).as_bytes());
    input.extend_from_slice(b"\xff\xfe\n");
    input.extend_from_slice(format!("{}\0\n", &CLASSIC[..80]).as_bytes());
    input.extend_from_slice(format!("{CLASSIC}\r\n").as_bytes());
    input.extend_from_slice(format!("{CLASSIC_SOLUTION}\n{complete_wrong}\n").as_bytes());
    let run = alldiff_with(&["solve"], &input);
    assert_eq!(run.status, 1);
    let lines = run.lines();
    assert_eq!(lines.len(), 9, "{lines:?}");
    let sizes = "a Sudoku has 16, 81, 256 or 625 (one puzzle a line)";
    assert_eq!(lines[0], format!("error: 80 cells, but {sizes}"));
    assert_eq!(lines[1], format!("error: 82 cells, but {sizes}"));
    assert!(lines[2].starts_with("error: 1048576 cells"), "{}", lines[2]);
    assert!(lines[3].contains("'x' is not a digit"), "{}", lines[3]);
    assert!(lines[4].contains("not UTF-8"), "{}", lines[4]);
    assert!(lines[5].contains("NUL"), "{}", lines[5]);
    assert_eq!(lines[6], CLASSIC_SOLUTION, "CRLF");
    assert_eq!(lines[7], CLASSIC_SOLUTION, "81 clues: its own solution");
    assert_eq!(lines[8], "none", "complete but wrong");
}

#[test]
fn files_that_cannot_be_read() {
    let guard = temp_dir("files");
    let dir = guard.path();
    let missing = dir.join("missing.txt");
    let run = alldiff(&["solve", "--input", missing.to_str().unwrap()]);
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains("missing.txt"), "{}", run.stderr);
    let run = alldiff(&["count", "--input", dir.to_str().unwrap()]);
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains(dir.to_str().unwrap()), "{}", run.stderr);
    let empty = temp_file("empty", b"");
    let run = alldiff(&["solve", "--input", empty.path().to_str().unwrap()]);
    assert_eq!((run.status, run.stdout.as_str()), (0, ""));
}

#[test]
fn larger_grids() {
    for (size, hints) in [("16", "160"), ("25", "500")] {
        let generated = alldiff(&[
            "generate",
            "--size",
            size,
            "--hints",
            hints,
            "--seed",
            "2",
            "--with-solution",
        ]);
        assert_eq!(generated.status, 0, "{generated:?}");
        let line = generated.stdout.trim();
        let (puzzle, solution) = line.split_once(' ').unwrap();
        let cells: usize = size.parse::<usize>().unwrap().pow(2);
        assert_eq!(puzzle.len(), cells);
        let run = alldiff(&["solve", puzzle]);
        assert_eq!((run.status, run.lines()), (0, vec![solution]), "{size}");
    }
    let box_size = alldiff(&["generate", "--box-size", "2", "--seed", "1"]);
    assert_eq!(box_size.stdout.trim().len(), 16);
}

#[test]
fn usage_errors_exit_with_2() {
    for args in [
        &["solve", "--bogus"][..],
        &["frobnicate"],
        &["generate", "--hints", "90"],
        &["generate", "--hints", "16"],
        &["generate", "--size", "10"],
        &["count", "--limit", "0"],
        &["solve", "--threads", "0"],
    ] {
        let run = alldiff(args);
        assert_eq!(run.status, 2, "{args:?}: {run:?}");
        assert!(!run.stderr.is_empty(), "{args:?}");
        assert_eq!(run.stdout, "", "{args:?}");
    }
    let run = alldiff(&["generate", "--hints", "90"]);
    assert!(
        run.stderr.contains("90 is more than the 81 cells"),
        "{}",
        run.stderr
    );
}

#[test]
fn help_explains_output_and_exit_status() {
    for sub in ["solve", "count", "validate", "generate", "rate", "trace"] {
        let run = alldiff(&[sub, "--help"]);
        assert_eq!(run.status, 0);
        assert!(run.stdout.contains("Exit status"), "{sub}");
    }
    assert!(
        alldiff(&["generate", "--help"])
            .stdout
            .contains("SEVERAL SOLUTIONS")
    );
}

#[test]
fn trace_a_4x4_solve() {
    let dir = temp_dir("trace");
    let file = dir.path().join("t.jsonl");
    let file = file.to_str().unwrap();
    let puzzle = format!("1{}", ".".repeat(15));
    let run = alldiff(&["solve", "--trace", file, &puzzle]);
    assert_eq!((run.status, run.lines()), (1, vec!["multiple"]));
    assert_eq!(run.stderr, "");

    let summary = alldiff(&["trace", "summary", file]);
    assert_eq!(summary.status, 0);
    assert!(
        summary.stdout.contains("solutions: 2"),
        "{}",
        summary.stdout
    );

    let root = alldiff(&["trace", "replay", file, "--node", "0"]);
    assert_eq!(root.status, 0);
    let rows = root.lines();
    assert_eq!(rows.len(), 5, "{}", root.stdout);
    assert!(rows[0].starts_with("1 "), "{}", rows[0]);
    assert!(rows[0].contains(" | "));
    assert!(rows[2].starts_with("---") && rows[2].contains('+'));

    let tree = alldiff(&["trace", "tree", file, "--no-collapse", "--max-nodes", "50"]);
    assert!(tree.stdout.starts_with("digraph"), "{tree:?}");
    let missing = alldiff(&["trace", "replay", file, "--node", "9999"]);
    assert_eq!(missing.status, 2);
    assert!(missing.stderr.contains("9999"));
    let not_trace = temp_file("not-trace", b"hello\n");
    let run = alldiff(&["trace", "summary", not_trace.path().to_str().unwrap()]);
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains("not a valid trace"), "{}", run.stderr);

    let capped = alldiff(&[
        "solve",
        "--trace",
        file,
        "--trace-cap",
        "2",
        &".".repeat(16),
    ]);
    assert!(capped.stderr.contains("trace was cut"), "{}", capped.stderr);
}

#[test]
fn rust_log_shows_search_events_on_stderr_only() {
    let output = Command::new(env!("CARGO_BIN_EXE_alldiff"))
        .args([
            "count",
            "--threads",
            "1",
            "--limit",
            "3",
            "1...............",
        ])
        .env("RUST_LOG", "alldiff::search=trace")
        .output()
        .expect("the binary runs");
    assert_eq!(String::from_utf8_lossy(&output.stdout), "3\n");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("alldiff::search"), "{stderr}");
    assert!(stderr.contains("decision node=1 parent=0"), "{stderr}");
    assert!(
        !stderr.contains('\x1b'),
        "no colour codes when stderr is not a terminal"
    );
}

#[test]
fn a_trace_over_the_input_file_is_a_usage_error() {
    let guard = temp_dir("trace-over-input");
    let dir = guard.path();
    let input = dir.join("input.txt");
    std::fs::write(&input, format!("{CLASSIC}\n")).unwrap();
    let path = input.to_str().unwrap();
    // The same file by another name: through `sub/..`.
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    let other = dir.join("sub").join("..").join("input.txt");
    for trace in [path, other.to_str().unwrap()] {
        let run = alldiff(&["solve", "--input", path, "--trace", trace]);
        assert_eq!(run.status, 2, "{run:?}");
        assert!(run.stdout.is_empty(), "{run:?}");
        assert!(
            run.stderr.contains("--trace") && run.stderr.contains("--input"),
            "{run:?}"
        );
        let kept = std::fs::read_to_string(&input).unwrap();
        assert_eq!(kept, format!("{CLASSIC}\n"), "the input was overwritten");
    }
    // A different trace file is still written.
    let trace = dir.join("trace.jsonl");
    let run = alldiff(&["solve", "--input", path, "--trace", trace.to_str().unwrap()]);
    assert_eq!(run.status, 0, "{run:?}");
    assert_eq!(run.lines(), [CLASSIC_SOLUTION]);
    assert!(std::fs::metadata(&trace).unwrap().len() > 0);
}

#[test]
fn a_trace_over_the_puzzles_on_standard_input_is_refused() {
    let guard = temp_dir("trace-over-stdin");
    let input = guard.path().join("input.txt");
    std::fs::write(&input, format!("{CLASSIC}\n")).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_alldiff"))
        .args(["solve", "--trace"])
        .arg(&input)
        .stdin(std::fs::File::open(&input).unwrap())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--trace") && stderr.contains("standard input"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(&input).unwrap(),
        format!("{CLASSIC}\n")
    );
}

#[cfg(unix)]
#[test]
fn a_page_over_its_trace_is_refused_by_any_name() {
    let guard = temp_dir("view-over-trace");
    let dir = guard.path();
    let trace = dir.join("t.jsonl");
    let trace = trace.to_str().unwrap();
    assert_eq!(alldiff(&["solve", "--trace", trace, CLASSIC]).status, 0);
    let kept = std::fs::read(trace).unwrap();
    let linked = dir.join("page.html");
    std::os::unix::fs::symlink(trace, &linked).unwrap();
    let run = alldiff(&["trace", "view", trace, "-o", linked.to_str().unwrap()]);
    assert_eq!(run.status, 2, "{run:?}");
    assert!(
        run.stderr.contains("-o") && run.stderr.contains("trace"),
        "{run:?}"
    );
    assert_eq!(
        std::fs::read(trace).unwrap(),
        kept,
        "the trace was overwritten"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn a_trace_that_cannot_be_written_fails_the_run() {
    let run = alldiff(&["solve", "--trace", "/dev/full", CLASSIC]);
    assert_eq!(run.status, 2, "{run:?}");
    assert_eq!(run.lines(), [CLASSIC_SOLUTION]);
    assert_eq!(
        run.stderr
            .matches("cannot write the trace /dev/full")
            .count(),
        1,
        "{run:?}"
    );
}

/// Runs `alldiff args...` from a shell that closes its standard output first.
#[cfg(target_os = "linux")]
fn with_stdout_closed(args: &[&str]) -> Run {
    let output = Command::new("sh")
        .arg("-c")
        .arg(r#"exec "$0" "$@" >&-"#)
        .arg(env!("CARGO_BIN_EXE_alldiff"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("sh runs");
    Run {
        status: output.status.code().expect("an exit status"),
        stdout: String::new(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_closed_standard_output_is_an_error() {
    let guard = temp_dir("closed-stdout");
    let trace = guard.path().join("t.jsonl");
    let trace = trace.to_str().unwrap();
    for args in [
        &["solve", CLASSIC][..],
        &["solve", "--trace", trace, CLASSIC],
        &["count", CLASSIC],
        &["validate", CLASSIC],
        &["rate", CLASSIC],
        &["explain", CLASSIC],
        &["generate", "--seed", "1"],
        &["--help"],
        &["solve", "--help"],
        &["--version"],
    ] {
        let run = with_stdout_closed(args);
        assert_eq!(run.status, 2, "{args:?}: {run:?}");
        assert!(
            run.stderr.contains("standard output is closed"),
            "{args:?}: {run:?}"
        );
    }
    // A subcommand that writes nothing there runs.
    assert_eq!(alldiff(&["solve", "--trace", trace, CLASSIC]).status, 0);
    let page = guard.path().join("t.html");
    let run = with_stdout_closed(&["trace", "view", trace, "-o", page.to_str().unwrap()]);
    assert_eq!(run.status, 0, "{run:?}");
}

#[cfg(target_os = "linux")]
#[test]
fn help_that_cannot_be_written_is_an_error() {
    for args in [&["--help"][..], &["generate", "--help"], &["--version"]] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let output = Command::new(env!("CARGO_BIN_EXE_alldiff"))
            .args(args)
            .stdout(full)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("No space left"), "{args:?}: {stderr}");
    }
}

#[test]
fn a_huge_thread_count_finishes_quickly() {
    let output = output_within(
        Command::new(env!("CARGO_BIN_EXE_alldiff"))
            .args(["solve", "--threads", "100000", CLASSIC, CLASSIC])
            .stdin(Stdio::null()),
        Duration::from_secs(20),
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert_eq!(
        stdout.lines().collect::<Vec<_>>(),
        [CLASSIC_SOLUTION, CLASSIC_SOLUTION]
    );
}

#[test]
fn an_endless_line_ends_the_input_with_an_error() {
    let mut child = spawn_piped(&["solve"]);
    let mut input = child.stdin.take().expect("piped stdin");
    // Zeros and never a newline, as `--input /dev/zero` reads, until the
    // binary stops reading.
    let writer = std::thread::spawn(move || {
        let zeros = vec![0u8; 1 << 16];
        while input.write_all(&zeros).is_ok() {}
    });
    let output = wait_within(child, Duration::from_secs(120));
    writer.join().expect("stdin writer");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("line 1") && stderr.contains("MiB"),
        "{stderr}"
    );
    assert!(output.stdout.is_empty(), "{output:?}");
}

#[test]
fn a_long_line_is_one_error_and_the_batch_goes_on() {
    let mut input = vec![b'0'; 20 << 20];
    input.push(b'\n');
    input.extend_from_slice(format!("{CLASSIC}\n").as_bytes());
    let run = alldiff_with(&["solve"], &input);
    assert_eq!(run.status, 1, "{}", run.stderr);
    assert_eq!(run.lines().len(), 2, "{}", run.stdout);
    assert!(run.lines()[0].starts_with("error: "), "{}", run.stdout);
    assert_eq!(run.lines()[1], CLASSIC_SOLUTION);
    assert!(run.stderr.contains("line 1"), "{}", run.stderr);
}

#[test]
fn too_few_hints_on_a_large_grid_end_with_an_error() {
    // Far fewer clues than removal reaches on 25x25: each check near the end
    // is a long search. Without a bound on an attempt's effort, one attempt
    // ran for hours.
    let output = output_within(
        Command::new(env!("CARGO_BIN_EXE_alldiff"))
            .args(["generate", "--size", "25", "--hints", "200"])
            .args(["--attempts", "1", "--seed", "1"])
            .stdin(Stdio::null()),
        Duration::from_secs(300),
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(output.stdout.is_empty(), "{output:?}");
    assert!(stderr.contains("no puzzle with 200 clues"), "{stderr}");
}

#[test]
fn symmetric_hint_counts_are_reachable() {
    // rotate90 on 9x9: the centre, then orbits of 4, so 30 cannot be reached;
    // the default becomes the nearest reachable count above, and says so.
    let run = alldiff(&["generate", "--symmetry", "rotate90", "--seed", "3"]);
    assert_eq!(run.status, 0, "{run:?}");
    let puzzle = run.lines()[0].to_owned();
    assert_eq!(puzzle.chars().filter(|&c| c != '.').count(), 32, "{run:?}");
    assert!(run.stderr.contains("generating 32"), "{run:?}");
    let cells: Vec<char> = puzzle.chars().collect();
    for r in 0..9 {
        for c in 0..9 {
            let turned = cells[c * 9 + 8 - r];
            assert_eq!(cells[r * 9 + c] == '.', turned == '.', "r{r}c{c}");
        }
    }
    // An impossible count the user asked for is a usage error naming its neighbours.
    let run = alldiff(&["generate", "--symmetry", "rotate90", "--hints", "30"]);
    assert_eq!(run.status, 2, "{run:?}");
    assert!(
        run.stderr.contains("29") && run.stderr.contains("32"),
        "{run:?}"
    );
    // rotate180 on a 4x4 (no centre) takes even counts only.
    let run = alldiff(&[
        "generate",
        "--size",
        "4",
        "--symmetry",
        "rotate180",
        "--hints",
        "7",
    ]);
    assert_eq!(run.status, 2, "{run:?}");
    assert!(
        run.stderr.contains('6') && run.stderr.contains('8'),
        "{run:?}"
    );
    // Reachable counts still work.
    let run = alldiff(&[
        "generate",
        "--symmetry",
        "rotate90",
        "--hints",
        "33",
        "--seed",
        "1",
    ]);
    assert_eq!(run.status, 0, "{run:?}");
    let run = alldiff(&[
        "generate",
        "--symmetry",
        "mirror",
        "--hints",
        "31",
        "--seed",
        "1",
    ]);
    assert_eq!(run.status, 0, "{run:?}");
}

#[test]
fn generate_counts_past_their_caps_are_usage_errors_naming_them() {
    for (option, past, cap) in [
        ("--count", "1000000001", "1000000000"),
        ("--attempts", "10001", "10000"),
    ] {
        let output = output_within(
            Command::new(env!("CARGO_BIN_EXE_alldiff"))
                .args(["generate", "--size", "4", "--seed", "1", option, past])
                .stdin(Stdio::null()),
            Duration::from_secs(30),
        );
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{option}: {stderr}");
        assert!(output.stdout.is_empty(), "{option}");
        assert!(stderr.contains(option) && stderr.contains(cap), "{stderr}");
    }
    let at_caps = [
        "generate",
        "--size",
        "4",
        "--seed",
        "1",
        "--attempts",
        "10000",
    ];
    assert_eq!(alldiff(&at_caps).status, 0);
}

#[test]
fn zero_attempts_is_a_usage_error() {
    let run = alldiff(&["generate", "--attempts", "0", "--seed", "1"]);
    assert_eq!(run.status, 2, "{run:?}");
    assert!(run.stdout.is_empty(), "{run:?}");
    assert!(run.stderr.contains("--attempts"), "{run:?}");
}

#[test]
fn a_wrong_cell_count_names_the_sizes() {
    let three = format!("{CLASSIC} {CLASSIC} {CLASSIC}");
    let run = alldiff(&["validate", &three]);
    assert_eq!(run.status, 1, "{run:?}");
    let text = format!("{}{}", run.stdout, run.stderr);
    assert!(text.contains("243 cells"), "{run:?}");
    assert!(text.contains("16, 81, 256 or 625"), "{run:?}");
    assert!(!text.contains("has 256"), "{run:?}");
    let run = alldiff(&["solve", &CLASSIC[..80]]);
    assert!(run.stdout.contains("80 cells"), "{run:?}");
    assert!(run.stdout.contains("16, 81, 256 or 625"), "{run:?}");
}

#[test]
fn count_fails_when_a_puzzle_has_no_solution() {
    let none = format!("11{}", ".".repeat(14));
    let run = alldiff(&["count", &none]);
    assert_eq!(run.status, 1, "{run:?}");
    assert_eq!(run.lines(), ["0"]);
    let run = alldiff(&["count", CLASSIC, &".".repeat(16)]);
    assert_eq!(run.status, 0, "{run:?}");
    assert_eq!(run.lines(), ["1", "2"]);
}
