//! The output formats qqwing users expect, end to end: `compact`, `csv` and
//! `labelled` besides `line`, `grid` and `json`; `--timer`, `--stats`; and
//! the `flip` and `random` symmetries of `generate`.

mod cli_common;

use cli_common::{CLASSIC, CLASSIC_SOLUTION, INKALA, alldiff, json_lines};

/// The grids of compact output: blocks of rows separated by empty lines.
fn blocks(text: &str) -> Vec<Vec<&str>> {
    text.split("\n\n")
        .map(|block| block.lines().collect::<Vec<_>>())
        .filter(|rows| !rows.is_empty())
        .collect()
}

#[test]
fn compact_is_n_lines_of_n_with_an_empty_line_after_each_grid() {
    let (line, _) = alldiff(&["generate", "-f", "line", "--count", "3", "--seed", "5"]);
    let (compact, status) = alldiff(&["generate", "-f", "compact", "--count", "3", "--seed", "5"]);
    assert_eq!(status, 0);
    let grids = blocks(&compact);
    assert_eq!(grids.len(), 3, "{compact}");
    for (rows, puzzle) in grids.iter().zip(line.lines()) {
        assert_eq!(rows.len(), 9, "{compact}");
        assert!(rows.iter().all(|row| row.len() == 9), "{compact}");
        assert_eq!(rows.concat(), puzzle);
    }
    assert!(compact.ends_with("\n\n"), "{compact:?}");

    // The solution of solve; a word for a puzzle without one solution.
    let (solved, _) = alldiff(&["solve", "-f", "compact", CLASSIC, &".".repeat(16)]);
    let grids = blocks(&solved);
    assert_eq!(grids[0].concat(), CLASSIC_SOLUTION);
    assert_eq!(grids[1], ["multiple"]);

    // 16x16: 16 lines of 16, in the size's alphabet (digits, then A to G).
    let (big, status) = alldiff(&["solve", "--first", "-f", "compact", &".".repeat(256)]);
    assert_eq!(status, 0);
    let rows: Vec<&str> = big.lines().filter(|row| !row.is_empty()).collect();
    assert_eq!(rows.len(), 16, "{big}");
    for row in &rows {
        assert_eq!(row.len(), 16, "{big}");
        assert!(
            row.chars()
                .all(|c| c.is_ascii_digit() && c != '0' || ('A'..='G').contains(&c)),
            "{row}"
        );
    }
    assert!(big.contains('G'), "{big}");
}

#[test]
fn csv_has_a_header_and_one_row_per_puzzle_for_every_command() {
    let inputs = [CLASSIC, "................", "12345"];
    for (command, extra) in [
        ("solve", &["--timer", "--stats"][..]),
        ("count", &["--timer"][..]),
        ("validate", &[][..]),
        ("rate", &["--stats"][..]),
        ("explain", &["--timer"][..]),
    ] {
        let mut args = vec![command, "-f", "csv"];
        args.extend(extra);
        args.extend(inputs);
        let (out, status) = alldiff(&args);
        assert_eq!(status, 1, "{command}: {out}");
        let rows: Vec<&str> = out.lines().collect();
        assert_eq!(rows.len(), 1 + inputs.len(), "{command}: {out}");
        let header: Vec<&str> = rows[0].split(',').collect();
        assert_eq!(
            header[..4],
            ["puzzle", "result", "status", "grade"],
            "{command}"
        );
        assert_eq!(header.contains(&"time_ms"), extra.contains(&"--timer"));
        assert_eq!(
            header.contains(&"hidden_single"),
            extra.contains(&"--stats")
        );
        for row in &rows[1..] {
            // The error message has commas: it is quoted.
            assert_eq!(split_csv(row).len(), header.len(), "{command}: {row}");
        }
        assert!(rows[1].starts_with(&format!("{CLASSIC},")), "{command}");
        assert!(
            rows[3].starts_with(",\"error: 5 cells, but"),
            "{command}: {}",
            rows[3]
        );
    }
    let (solved, _) = alldiff(&["solve", "-f", "csv", CLASSIC]);
    assert_eq!(
        solved.lines().nth(1),
        Some(format!("{CLASSIC},{CLASSIC_SOLUTION},unique,").as_str())
    );
    let (rated, _) = alldiff(&["rate", "-f", "csv", CLASSIC]);
    assert_eq!(
        rated.lines().nth(1),
        Some(format!("{CLASSIC},medium,rated,medium").as_str())
    );
    let (generated, _) = alldiff(&[
        "generate",
        "-f",
        "csv",
        "--with-solution",
        "--seed",
        "3",
        "--difficulty",
        "easy",
        "--attempts",
        "100",
    ]);
    let row = split_csv(generated.lines().nth(1).expect("a row"));
    assert_eq!(row[2..], ["generated", "easy"], "{generated}");
    assert_eq!(row[0].len(), 81);
    assert!(row[1].chars().all(|c| c.is_ascii_digit() && c != '0'));
}

/// Splits a CSV row, honouring quotes (with doubled quotes inside).
fn split_csv(row: &str) -> Vec<String> {
    let mut cells = vec![String::new()];
    let mut quoted = false;
    let mut chars = row.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                cells.last_mut().expect("a cell").push('"');
            }
            ('"', _) => quoted = !quoted,
            (',', false) => cells.push(String::new()),
            (c, _) => cells.last_mut().expect("a cell").push(c),
        }
    }
    cells
}

#[test]
fn labelled_output_names_the_puzzle_the_solution_and_the_grade() {
    let (out, status) = alldiff(&["solve", "-f", "labelled", CLASSIC]);
    assert_eq!(status, 0);
    assert!(
        out.starts_with("Puzzle (argument 1):\n3 . 6 | 5 . 8 | 4 . .\n"),
        "{out}"
    );
    assert!(out.contains("Solution:\n3 1 6 | 5 7 8 | 4 9 2\n"), "{out}");
    assert!(out.contains("Status: unique\n"), "{out}");
    let (out, _) = alldiff(&["rate", "-f", "labelled", "--timer", CLASSIC]);
    assert!(out.contains("Grade: medium\nStatus: rated\n"), "{out}");
    assert!(out.contains("\nTime: "), "{out}");
    let (out, _) = alldiff(&["count", "-f", "labelled", &".".repeat(16)]);
    assert!(
        out.contains("Status: limit\nSolutions: 2 solutions (the limit"),
        "{out}"
    );
    let (out, _) = alldiff(&["validate", "-f", "labelled", "12345"]);
    assert!(
        out.starts_with("Puzzle (argument 1): none\nStatus: error\nError: 5 cells"),
        "{out}"
    );
}

#[test]
fn the_timer_is_shown_when_asked_and_always_in_json() {
    let (out, _) = alldiff(&["solve", "--timer", CLASSIC]);
    let (solution, time) = out.trim_end().split_once(" time_ms=").expect("a time");
    assert_eq!(solution, CLASSIC_SOLUTION);
    assert!(time.parse::<f64>().expect("a number") >= 0.0, "{out}");
    let (plain, _) = alldiff(&["solve", CLASSIC]);
    assert_eq!(plain, format!("{CLASSIC_SOLUTION}\n"));
    for command in ["solve", "count", "validate", "rate", "explain"] {
        let (out, _) = alldiff(&[command, "-f", "json", CLASSIC]);
        assert!(json_lines(&out)[0]["time_ms"].is_number(), "{command}");
    }
    let (out, _) = alldiff(&["generate", "-f", "json", "--seed", "1"]);
    assert!(json_lines(&out)[0]["time_ms"].as_f64().expect("a time") > 0.0);
    let (out, _) = alldiff(&["generate", "--timer", "--seed", "1"]);
    assert!(out.contains(" time_ms="), "{out}");
}

/// One explanation's records with `--stats`, each checked: the givens, a
/// count for every step and the guesses.
fn explained_with_stats(extra: &[&str]) -> Vec<serde_json::Value> {
    let mut args = vec!["explain", "-f", "json", "--stats", INKALA, CLASSIC];
    args.extend(extra);
    let (out, _) = alldiff(&args);
    let records = json_lines(&out);
    for record in &records {
        let stats = &record["stats"];
        assert_eq!(stats["guess"], record["guesses"], "{record}");
        let givens = record["puzzle"]
            .as_str()
            .expect("a puzzle")
            .chars()
            .filter(|&c| c != '.')
            .count();
        assert_eq!(stats["givens"], givens);
        let steps = record["steps"].as_array().expect("steps").len() as u64;
        let counted: u64 = stats
            .as_object()
            .expect("an object")
            .iter()
            .filter(|(key, _)| *key != "givens")
            .map(|(_, n)| n.as_u64().expect("a count"))
            .sum();
        assert_eq!(counted, steps, "{record}");
    }
    records
}

#[test]
fn stats_count_givens_techniques_guesses_and_subsets() {
    // The readable form: placements, the eliminations they need, guesses.
    let records = explained_with_stats(&[]);
    let inkala = &records[0]["stats"];
    assert!(inkala["guess"].as_u64() > Some(0), "Inkala needs guesses");
    assert!(inkala["naked_subset"].as_u64() > Some(0), "{inkala}");
    assert!(inkala["hidden_subset"].as_u64() > Some(0), "{inkala}");
    for key in ["backtrack", "value_elimination", "subset"] {
        assert_eq!(inkala[key], 0, "{key}: {inkala}");
    }
    assert_eq!(records[1]["stats"]["guess"], 0);
    assert!(records[1]["stats"]["hidden_single"].as_u64() > Some(0));
    // The engine's log: its eliminations, subsets by matching, backtracks.
    let log = explained_with_stats(&["--verbose"]);
    let inkala = &log[0]["stats"];
    assert!(inkala["backtrack"].as_u64() > Some(0), "{inkala}");
    assert!(inkala["value_elimination"].as_u64() > Some(0), "{inkala}");
    assert_eq!(inkala["naked_subset"], 0, "{inkala}");
    // The same counts from solve and rate; none for a puzzle with several solutions.
    let (solved, _) = alldiff(&["solve", "-f", "json", "--stats", CLASSIC, &".".repeat(16)]);
    let solved = json_lines(&solved);
    assert_eq!(solved[0]["stats"], records[1]["stats"]);
    assert!(solved[1]["stats"].is_null());
    let (line, _) = alldiff(&["rate", "--stats", CLASSIC]);
    assert!(line.starts_with("medium givens=32 naked_single="), "{line}");
    // A limit that stops the search stops the explanation too: no statistics.
    for command in ["solve", "rate"] {
        let args = ["-f", "json", "--stats", "--node-limit", "1", INKALA];
        let (out, _) = alldiff(&[&[command][..], &args].concat());
        let stopped = &json_lines(&out)[0];
        assert_eq!(stopped["status"], "stopped", "{command}: {stopped}");
        assert!(stopped["stats"].is_null(), "{command}: {stopped}");
    }
    // Only where a puzzle is explained.
    let (_, status) = alldiff(&["count", "--stats", CLASSIC]);
    assert_eq!(status, 2);
}

/// The cell a symmetry maps `(r, c)` to on a 9x9 grid.
fn image(symmetry: &str, r: usize, c: usize) -> (usize, usize) {
    match symmetry {
        "rotate180" => (8 - r, 8 - c),
        "rotate90" => (c, 8 - r),
        "mirror" => (r, 8 - c),
        "flip" => (8 - r, c),
        "diagonal" => (c, r),
        other => panic!("no symmetry {other}"),
    }
}

fn keeps(puzzle: &str, symmetry: &str) -> bool {
    let clue = |r: usize, c: usize| puzzle.as_bytes()[r * 9 + c] != b'.';
    (0..9).all(|r| {
        (0..9).all(|c| {
            let (r2, c2) = image(symmetry, r, c);
            clue(r, c) == clue(r2, c2)
        })
    })
}

#[test]
fn flip_is_top_bottom_and_random_is_drawn_per_puzzle() {
    let (out, status) = alldiff(&[
        "generate",
        "-f",
        "json",
        "--symmetry",
        "flip",
        "--seed",
        "4",
    ]);
    assert_eq!(status, 0);
    let record = &json_lines(&out)[0];
    assert_eq!(record["symmetry"], "flip");
    let puzzle = record["puzzle"].as_str().expect("a puzzle");
    assert!(keeps(puzzle, "flip"), "{puzzle}");
    assert!(!keeps(puzzle, "mirror"), "{puzzle}");

    let args = [
        "generate",
        "-f",
        "json",
        "--symmetry",
        "random",
        "--seed",
        "10",
        "--count",
        "8",
    ];
    let (out, status) = alldiff(&args);
    assert_eq!(status, 0);
    let (again, _) = alldiff(&[&args[..], &["--threads", "1"]].concat());
    let records = json_lines(&out);
    let mut drawn: Vec<&str> = Vec::new();
    for (record, same) in records.iter().zip(json_lines(&again)) {
        assert_eq!(record["puzzle"], same["puzzle"], "reproducible");
        let symmetry = record["symmetry"].as_str().expect("a symmetry");
        assert_ne!(symmetry, "rotate90", "30 clues cannot keep a quarter turn");
        assert!(keeps(
            record["puzzle"].as_str().expect("a puzzle"),
            symmetry
        ));
        drawn.push(symmetry);
    }
    drawn.sort_unstable();
    drawn.dedup();
    assert!(drawn.len() >= 2, "{drawn:?}");

    let (help, _) = alldiff(&["generate", "--help"]);
    assert!(
        help.contains("row r with row N-1-r (qqwing's `flip`)"),
        "{help}"
    );
    assert!(
        help.contains("column c with column N-1-c (qqwing's `mirror`)"),
        "{help}"
    );
}

#[test]
fn hide_random_blanks_whole_orbits_of_the_symmetry() {
    for symmetry in ["rotate180", "rotate90", "mirror", "flip", "diagonal"] {
        // 41 blanks: a quarter turn blanks the centre and ten orbits of four.
        for seed in ["1", "2", "3"] {
            let (out, status) = alldiff(&[
                "generate",
                "-f",
                "json",
                "--hide-random",
                "41",
                "--symmetry",
                symmetry,
                "--seed",
                seed,
            ]);
            assert_eq!(status, 0, "{symmetry}");
            let record = &json_lines(&out)[0];
            assert_eq!(record["symmetry"], symmetry);
            let puzzle = record["puzzle"].as_str().expect("a puzzle");
            assert_eq!(puzzle.matches('.').count(), 41, "{symmetry} {puzzle}");
            assert!(keeps(puzzle, symmetry), "{symmetry} {puzzle}");
        }
    }
    // A count the orbits cannot make is a usage error naming its neighbours.
    let (_, status) = alldiff(&["generate", "--hide-random", "42", "--symmetry", "rotate90"]);
    assert_eq!(status, 2);
    // Without a symmetry, any count.
    let (out, status) = alldiff(&["generate", "--hide-random", "42", "--seed", "1"]);
    assert_eq!(status, 0);
    assert_eq!(out.trim_end().matches('.').count(), 42);
}
