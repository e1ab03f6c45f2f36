//! The `alldiff` binary as a stream: answers come out while the input is still
//! being written, an interrupt keeps every finished line, and puzzles spread
//! over several lines (grids) are read as one puzzle each.

mod cli_common;

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use cli_common::{CLASSIC, CLASSIC_SOLUTION, temp_file};

/// How long a test waits for an answer before it fails.
const PATIENCE: Duration = Duration::from_secs(60);

fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_alldiff"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs")
}

/// Runs `alldiff args...` on `stdin`; returns the exit status, standard
/// output and standard error.
fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = spawn(args);
    let mut input = child.stdin.take().expect("piped stdin");
    let bytes = stdin.as_bytes().to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&bytes);
    });
    let output = child.wait_with_output().expect("the binary finishes");
    writer.join().expect("stdin writer");
    (
        output.status.code().expect("an exit status"),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Lines of standard output as they come, on a thread of their own.
fn line_reader(child: &mut Child) -> mpsc::Receiver<String> {
    let stdout = child.stdout.take().expect("piped stdout");
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    receiver
}

#[test]
fn each_answer_comes_out_before_the_input_ends() {
    for threads in ["1", "2"] {
        let mut child = spawn(&["solve", "--threads", threads]);
        let mut stdin = child.stdin.take().expect("piped stdin");
        let answers = line_reader(&mut child);
        for (puzzle, solution) in [
            (CLASSIC, CLASSIC_SOLUTION),
            (".".repeat(81).as_str(), "multiple"),
        ] {
            stdin.write_all(format!("{puzzle}\n").as_bytes()).unwrap();
            stdin.flush().unwrap();
            // Standard input is still open: the answer cannot wait for its end.
            let answer = answers
                .recv_timeout(PATIENCE)
                .expect("an answer while reading");
            assert_eq!(answer, solution, "--threads {threads}");
        }
        // A grid is answered as soon as its last row has arrived.
        let rows: String = CLASSIC
            .as_bytes()
            .chunks(9)
            .map(|row| format!("{}\n", std::str::from_utf8(row).unwrap()))
            .collect();
        stdin.write_all(rows.as_bytes()).unwrap();
        stdin.flush().unwrap();
        let answer = answers
            .recv_timeout(PATIENCE)
            .expect("an answer to the grid");
        assert_eq!(answer, CLASSIC_SOLUTION);
        drop(stdin);
        assert_eq!(
            child.wait().unwrap().code(),
            Some(1),
            "one puzzle was not unique"
        );
        assert!(answers.recv_timeout(PATIENCE).is_err(), "no more lines");
    }
}

/// `count` puzzles from `alldiff generate` with few clues (slower to solve).
fn generated(count: usize, seed: u64) -> Vec<String> {
    let (status, out, err) = run(
        &[
            "generate",
            "--count",
            &count.to_string(),
            "--hints",
            "24",
            "--seed",
            &seed.to_string(),
        ],
        "",
    );
    assert_eq!(status, 0, "{err}");
    let puzzles: Vec<String> = out.lines().map(str::to_owned).collect();
    assert_eq!(puzzles.len(), count);
    puzzles
}

#[cfg(unix)]
#[test]
fn an_interrupt_keeps_every_finished_line_and_exits_130() {
    let puzzles = generated(100, 7);
    let (status, full, _) = run(&["solve", "--threads", "2"], &(puzzles.join("\n") + "\n"));
    assert_eq!(status, 0);
    let answers: Vec<&str> = full.lines().collect();
    // Far more work than is done before the interrupt.
    let repeats = 400;
    let input: String = (0..repeats).map(|_| puzzles.join("\n") + "\n").collect();
    let file = temp_file("stream", input.as_bytes());

    let mut child = spawn(&[
        "solve",
        "--threads",
        "2",
        "--input",
        file.path().to_str().unwrap(),
    ]);
    let mut stdout = child.stdout.take().expect("piped stdout");
    // Wait until answers are coming out, then interrupt.
    let mut first = [0u8; 82];
    stdout.read_exact(&mut first).expect("a first answer");
    std::thread::sleep(Duration::from_millis(300));
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(kill.success());
    let mut rest = Vec::new();
    stdout.read_to_end(&mut rest).unwrap();
    let status = child.wait().unwrap();

    assert_eq!(status.code(), Some(130), "{status:?}");
    let mut text = first.to_vec();
    text.extend_from_slice(&rest);
    let text = String::from_utf8(text).unwrap();
    assert!(text.ends_with('\n'), "the last line is complete");
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines.len() < repeats * puzzles.len(),
        "the run was interrupted"
    );
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(*line, answers[i % answers.len()], "line {}", i + 1);
    }
}

/// `text` with its line-form puzzles written as `side` lines of `side`
/// characters, each grid followed by a blank line when `blank` is set.
fn compact(text: &str, side: usize, blank: bool) -> String {
    text.lines()
        .map(|line| {
            let rows: String = line
                .as_bytes()
                .chunks(side)
                .map(|row| format!("{}\n", std::str::from_utf8(row).unwrap()))
                .collect();
            if blank { rows + "\n" } else { rows }
        })
        .collect()
}

/// The solutions of `alldiff generate --count COUNT --seed SEED`'s puzzles,
/// as `--with-solution` gives them.
fn generated_solutions(count: usize, seed: &str) -> Vec<String> {
    let n = count.to_string();
    let args = ["generate", "--count", &n, "--seed", seed, "--with-solution"];
    let (status, lines, err) = run(&args, "");
    assert_eq!(status, 0, "{err}");
    let solutions: Vec<String> = lines
        .lines()
        .map(|line| line.split(' ').nth(1).expect("a solution").to_owned())
        .collect();
    assert_eq!(solutions.len(), count);
    solutions
}

#[test]
fn generated_grids_are_read_back_one_puzzle_each() {
    let seed = "31";
    let solutions = generated_solutions(5, seed);
    let (status, grids, _) = run(
        &["generate", "-f", "grid", "--count", "5", "--seed", seed],
        "",
    );
    assert_eq!(status, 0);
    let (status, puzzles, _) = run(&["generate", "--count", "5", "--seed", seed], "");
    assert_eq!(status, 0);
    for input in [
        grids.clone(),
        compact(&puzzles, 9, true),
        compact(&puzzles, 9, false),
    ] {
        let (status, out, err) = run(&["solve"], &input);
        assert_eq!((status, err.as_str()), (0, ""), "{input}");
        assert_eq!(out.lines().collect::<Vec<_>>(), solutions, "{input}");
    }
    // From a file too, mixed with one-line puzzles.
    let mixed = format!("{CLASSIC}\n{grids}{CLASSIC}\n");
    let file = temp_file("grids", mixed.as_bytes());
    let (status, out, _) = run(&["solve", "--input", file.path().to_str().unwrap()], "");
    assert_eq!(status, 0);
    let out: Vec<&str> = out.lines().collect();
    assert_eq!(out.len(), 7);
    assert_eq!((out[0], out[6]), (CLASSIC_SOLUTION, CLASSIC_SOLUTION));
    assert_eq!(out[1..6], solutions[..]);
}

#[test]
fn grids_of_every_size_are_read() {
    for (size, hide) in [("4", "6"), ("16", "40"), ("25", "60")] {
        let args = [
            "generate",
            "--size",
            size,
            "--hide-random",
            hide,
            "--seed",
            "3",
            "-n",
            "2",
        ];
        let (_, lines, _) = run(&args, "");
        let (_, grids, _) = run(&[&args[..], &["-f", "grid"]].concat(), "");
        let side: usize = size.parse().unwrap();
        for input in [grids, compact(&lines, side, false)] {
            let (status, out, err) = run(&["count", "--limit", "1"], &input);
            assert_eq!((status, err.as_str()), (0, ""), "{size}: {input}");
            assert_eq!(out, "1\n1\n", "{size}: {input}");
        }
    }
}

#[test]
fn a_grid_that_is_not_a_puzzle_is_an_error_naming_its_lines() {
    let rows: Vec<String> = CLASSIC
        .as_bytes()
        .chunks(9)
        .map(|row| String::from_utf8(row.to_vec()).unwrap())
        .collect();
    let mut bad = rows.clone();
    bad[4].replace_range(2..3, "x");
    let input = format!(
        "# three puzzles\n{}\n\n{}\n{CLASSIC}\n",
        rows[..5].join("\n"),
        bad.join("\n")
    );
    let (status, out, err) = run(&["solve"], &input);
    assert_eq!(status, 1);
    let out: Vec<&str> = out.lines().collect();
    assert_eq!(
        out,
        vec![
            "error: the grid on lines 2-6 has 5 rows of 9 cells, but a 9x9 Sudoku has 9 rows",
            "error: the grid on lines 8-16: row 5, column 3: 'x' is not a digit or a blank",
            CLASSIC_SOLUTION,
        ]
    );
    let err: Vec<&str> = err.lines().collect();
    assert_eq!(err.len(), 2, "{err:?}");
    assert!(
        err[0].starts_with("alldiff: line 2: the grid on lines 2-6"),
        "{err:?}"
    );
    assert!(err[1].starts_with("alldiff: line 8: "), "{err:?}");
    let (_, json, _) = run(&["solve", "-f", "json"], &input);
    let first: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    assert_eq!(first["line"], 2);
}

#[test]
fn rate_and_explain_report_a_puzzle_without_one_solution_alike() {
    let open = ".".repeat(81);
    let clash = format!("33{}", &CLASSIC[2..]);
    for command in ["rate", "explain"] {
        let (status, out, err) = run(&[command, &open], "");
        assert_eq!(status, 1);
        assert_eq!(out, "error: the puzzle has more than one solution\n");
        assert_eq!(
            err,
            "alldiff: argument 1: the puzzle has more than one solution\n"
        );
        let (status, out, err) = run(&[command, &clash], "");
        assert_eq!(status, 1);
        assert!(out.starts_with("error: "), "{command}: {out}");
        assert_eq!(
            err,
            format!("alldiff: argument 1: {}", &out["error: ".len()..])
        );
    }
}

#[test]
fn explain_takes_search_limits() {
    let (status, out, _) = run(&["explain", "--node-limit", "1", &".".repeat(81)], "");
    assert_eq!((status, out.as_str()), (1, "stopped: node limit reached\n"));
    let (status, out, _) = run(
        &[
            "explain",
            "--timeout",
            "1m",
            "--node-limit",
            "100000",
            CLASSIC,
        ],
        "",
    );
    assert_eq!(status, 0);
    assert!(
        out.ends_with(&format!("solution {CLASSIC_SOLUTION}\n")),
        "{out}"
    );
    let (_, json, _) = run(
        &[
            "explain",
            "-f",
            "json",
            "--node-limit",
            "1",
            &".".repeat(16),
        ],
        "",
    );
    let value: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    assert_eq!(
        (value["status"].as_str(), value["argument"].as_u64()),
        (Some("stopped"), Some(1))
    );
    assert_eq!(run(&["explain", "--timeout", "soon", CLASSIC], "").0, 2);
}

#[test]
fn generate_stops_at_its_timeout() {
    let started = std::time::Instant::now();
    let (status, out, err) = run(
        &[
            "generate",
            "--size",
            "25",
            "--minimal",
            "--seed",
            "1",
            "--timeout",
            "300ms",
        ],
        "",
    );
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    assert_eq!((status, out.as_str()), (1, ""));
    assert_eq!(
        err,
        "alldiff: stopped: time limit reached; 1 of 1 puzzles not generated\n"
    );
    // A deadline that is not reached changes nothing.
    let args = ["generate", "-n", "4", "--seed", "9"];
    let (_, plain, _) = run(&args, "");
    let (status, timed, _) = run(&[&args[..], &["--timeout", "10m"]].concat(), "");
    assert_eq!((status, timed), (0, plain));
}

#[cfg(unix)]
#[test]
fn an_interrupted_generate_keeps_every_puzzle_written() {
    let args = [
        "generate", "--size", "16", "--seed", "5", "-n", "100000", "-j", "2",
    ];
    let mut child = spawn(&args);
    let lines = line_reader(&mut child);
    let first = lines.recv_timeout(PATIENCE).expect("a first puzzle");
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(kill.success());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{status:?}");
    let printed: Vec<String> = std::iter::once(first).chain(lines.iter()).collect();
    assert!(printed.len() < 100_000);
    let count = printed.len().to_string();
    let (_, again, _) = run(
        &["generate", "--size", "16", "--seed", "5", "-n", &count],
        "",
    );
    assert_eq!(printed, again.lines().collect::<Vec<_>>());
}

/// Streaming `generate` writes its records in every format: with `-f csv`,
/// the header comes first and then a row per puzzle as soon as it is done
/// (long before the end of a long run), with `--timer` a `time_ms` column.
#[test]
fn generate_streams_a_csv_header_then_its_rows() {
    let seed = "12";
    let (status, lines, _) = run(&["generate", "--count", "3", "--seed", seed], "");
    assert_eq!(status, 0);
    let puzzles: Vec<&str> = lines.lines().collect();
    let args = ["generate", "-f", "csv", "--timer", "--seed", seed];
    let (status, csv, err) = run(&[&args[..], &["--count", "3"]].concat(), "");
    assert_eq!((status, err.as_str()), (0, ""));
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows.len(), 4, "{csv}");
    assert_eq!(rows[0], "puzzle,result,status,grade,time_ms");
    for (row, puzzle) in rows[1..].iter().zip(&puzzles) {
        let cells: Vec<&str> = row.split(',').collect();
        assert_eq!(cells[..4], [*puzzle, "", "generated", ""], "{row}");
        assert!(cells[4].parse::<f64>().is_ok_and(|ms| ms >= 0.0), "{row}");
    }

    let mut child = spawn(&[&args[..], &["--count", "1000000"]].concat());
    let lines = line_reader(&mut child);
    let header = lines.recv_timeout(PATIENCE).expect("the header");
    let first = lines.recv_timeout(PATIENCE).expect("a first row");
    let running = child.try_wait().unwrap().is_none();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(running, "the first row came out while the run went on");
    assert_eq!(header, rows[0]);
    let prefix = format!("{},,generated,,", puzzles[0]);
    assert!(first.starts_with(&prefix), "{first}");
}

/// `generate -f compact | solve`: each compact grid is read back as one
/// puzzle, and each is solved.
#[test]
fn generated_compact_grids_are_solved() {
    let seed = "23";
    let (status, compact, _) = run(
        &["generate", "-f", "compact", "--count", "5", "--seed", seed],
        "",
    );
    assert_eq!(status, 0);
    let (status, solved, err) = run(&["solve"], &compact);
    assert_eq!((status, err.as_str()), (0, ""), "{compact}");
    let solutions = generated_solutions(5, seed);
    assert_eq!(solved.lines().collect::<Vec<_>>(), solutions, "{compact}");
}
