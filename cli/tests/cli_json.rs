//! Every subcommand's `--format json` output against the one schema,
//! `docs/cli-schema.json`: valid, invalid, unsolvable, multi-solution and
//! malformed puzzles, from arguments and from standard input, with and without
//! `--stats`. Each record must match the root and its subcommand's definition,
//! and each subcommand must show every status its definition lists.

mod cli_common;

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use cli_common::{CLASSIC, CLASSIC_SOLUTION, INKALA, alldiff_with as alldiff};

/// Two clues clash: no solution, and the clues break a rule.
const CLASH: &str = "11..............";
/// Clues that break no rule, but r1c1 can only be 1, which column 1 has.
const DEAD_END: &str = ".2341...........";
/// Four solutions and more.
const OPEN: &str = "................";

fn schema() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/cli-schema.json");
    let text = std::fs::read_to_string(path).expect("docs/cli-schema.json");
    serde_json::from_str(&text).expect("the schema is JSON")
}

/// The schema with `#/$defs/NAME` as its root.
fn definition(schema: &Value, name: &str) -> Value {
    let mut root = schema.clone();
    let object = root.as_object_mut().expect("an object");
    object.remove("anyOf");
    object.insert("$ref".to_owned(), Value::from(format!("#/$defs/{name}")));
    root
}

/// Validates every line of `output` against the root and against `command`'s
/// definition; returns the records.
fn check(schema: &Value, command: &str, output: &str) -> Vec<Value> {
    let root = jsonschema::validator_for(schema).expect("a valid schema");
    let own = jsonschema::validator_for(&definition(schema, command)).expect("a valid definition");
    output
        .lines()
        .map(|line| {
            let record: Value =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
            for (name, validator) in [("the root", &root), (command, &own)] {
                let errors: Vec<String> = validator
                    .iter_errors(&record)
                    .map(|e| format!("{e} at {}", e.instance_path()))
                    .collect();
                assert!(
                    errors.is_empty(),
                    "{command} record against {name}: {errors:?}\n{line}"
                );
            }
            record
        })
        .collect()
}

/// The statuses `command`'s definition allows.
fn statuses(schema: &Value, command: &str) -> BTreeSet<String> {
    let status = &schema["$defs"][command]["properties"]["status"];
    match (status["enum"].as_array(), status["const"].as_str()) {
        (Some(values), _) => values
            .iter()
            .map(|v| v.as_str().expect("a string").to_owned())
            .collect(),
        (None, Some(value)) => BTreeSet::from([value.to_owned()]),
        (None, None) => panic!("{command} has no status list"),
    }
}

#[test]
fn every_record_of_every_command_matches_the_schema() {
    let schema = schema();
    let pair = format!("{CLASSIC} {CLASSIC_SOLUTION}");
    // The solution with its first two digits swapped: r1c1 loses its clue.
    let wrong_pair = format!("{CLASSIC} 13{}", &CLASSIC_SOLUTION[2..]);
    let puzzles = [
        CLASSIC,
        INKALA,
        CLASH,
        DEAD_END,
        OPEN,
        "12345",
        "not a puzzle",
    ];
    let mut stdin: Vec<u8> = Vec::new();
    for puzzle in puzzles.iter().chain([&pair.as_str(), &wrong_pair.as_str()]) {
        stdin.extend_from_slice(puzzle.as_bytes());
        stdin.push(b'\n');
    }
    stdin.extend_from_slice(b"# a comment\n\xff\xfe\n");
    let empty = ".".repeat(81);

    let runs: Vec<(&str, Vec<&str>, Vec<&str>)> = vec![
        ("solve", vec![], vec![]),
        ("solve", vec!["--first", "--stats"], vec![]),
        ("solve", vec!["--node-limit", "1"], vec![&empty]),
        ("count", vec!["--limit", "3"], vec![]),
        ("count", vec!["--node-limit", "1"], vec![&empty]),
        ("validate", vec![], vec![]),
        ("validate", vec![], vec![&pair, &wrong_pair, CLASH, "12345"]),
        ("rate", vec!["--stats"], vec![]),
        ("rate", vec!["--node-limit", "1"], vec![INKALA]),
        ("explain", vec!["--stats"], vec![]),
        ("explain", vec!["--verbose", "--stats"], vec![]),
        ("explain", vec![], puzzles.to_vec()),
        (
            "explain",
            vec!["--node-limit", "1", "--stats"],
            vec![INKALA],
        ),
    ];
    let mut seen: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    for (command, options, arguments) in &runs {
        let mut args = vec![*command, "--format", "json"];
        args.extend(options);
        args.extend(arguments);
        let (output, _) = alldiff(&args, &stdin);
        let records = check(&schema, command, &output);
        let expected = if arguments.is_empty() {
            puzzles.len() + 3
        } else {
            arguments.len()
        };
        assert_eq!(records.len(), expected, "{args:?}\n{output}");
        let source = if arguments.is_empty() {
            "line"
        } else {
            "argument"
        };
        for record in &records {
            assert!(record[source].is_u64(), "{args:?}: {record}");
            assert!(record["time_ms"].is_number(), "{args:?}: {record}");
            let status = record["status"].as_str().expect("a status").to_owned();
            seen.entry(command).or_default().insert(status);
        }
    }

    for (options, count) in [
        (&["--count", "3", "--seed", "7"][..], 3),
        (
            &[
                "--seed",
                "1",
                "--with-solution",
                "--symmetry",
                "random",
                "--stats",
                "--difficulty",
                "easy",
                "--attempts",
                "100",
            ][..],
            1,
        ),
        (
            &["--seed", "1", "--size", "4", "--hide-random", "10"][..],
            1,
        ),
    ] {
        let mut args = vec!["generate", "--format", "json"];
        args.extend(options);
        let (output, status) = alldiff(&args, b"");
        assert_eq!(status, 0, "{args:?}");
        let records = check(&schema, "generate", &output);
        assert_eq!(records.len(), count, "{args:?}");
        for (i, record) in records.iter().enumerate() {
            assert_eq!(record["index"], i);
            seen.entry("generate")
                .or_default()
                .insert(record["status"].as_str().expect("a status").to_owned());
        }
    }

    for command in ["solve", "count", "validate", "generate", "rate", "explain"] {
        assert_eq!(
            seen.get(command).cloned().unwrap_or_default(),
            statuses(&schema, command),
            "{command}: the statuses seen are not the ones the schema lists"
        );
    }
}

/// Bug 6: error records had no status, explain records never had one, and
/// `validate` said `line` for a PUZZLE argument.
#[test]
fn records_name_their_source_and_status_the_same_way_in_every_command() {
    for command in ["solve", "count", "validate", "rate", "explain"] {
        let (output, status) = alldiff(&[command, "-f", "json", CLASSIC, "12345"], b"");
        assert_eq!(status, 1, "{command}");
        let records: Vec<Value> = output
            .lines()
            .map(|l| serde_json::from_str(l).expect("JSON"))
            .collect();
        assert_eq!(records.len(), 2, "{command}: {output}");
        assert_eq!(records[0]["argument"], 1, "{command}: {output}");
        assert!(records[0].get("line").is_none(), "{command}: {output}");
        assert_eq!(records[0]["puzzle"], CLASSIC, "{command}");
        assert!(records[0]["status"].is_string(), "{command}: {output}");
        assert_eq!(records[1]["argument"], 2, "{command}");
        assert_eq!(records[1]["status"], "error", "{command}: {output}");
        assert!(records[1]["puzzle"].is_null(), "{command}");
        assert!(records[1]["error"].is_string(), "{command}");
        let (output, _) = alldiff(&[command, "-f", "json"], format!("{CLASSIC}\n").as_bytes());
        let record: Value = serde_json::from_str(output.trim()).expect("JSON");
        assert_eq!(record["line"], 1, "{command}");
    }
}

/// `explain --node-limit` bounds the search that proves each solution unique
/// (and, with `--verbose`, the search shown): a hard puzzle it stops is a
/// `stopped` record with its reason, valid against the schema, and fails the
/// run; an easy one is still explained.
#[test]
fn explain_stopped_by_a_limit_is_a_stopped_record() {
    let schema = schema();
    let (output, status) = alldiff(
        &[
            "explain",
            "-f",
            "json",
            "--node-limit",
            "1",
            INKALA,
            CLASSIC,
        ],
        b"",
    );
    assert_eq!(status, 1, "{output}");
    let records = check(&schema, "explain", &output);
    assert_eq!(records.len(), 2, "{output}");
    assert_eq!(records[0]["status"], "stopped", "{output}");
    assert_eq!(records[0]["reason"], "node limit reached", "{output}");
    assert_eq!(records[0]["puzzle"], INKALA, "{output}");
    assert!(records[0].get("steps").is_none(), "{output}");
    assert_eq!(records[1]["status"], "explained", "{output}");
    assert_eq!(records[1]["solution"], CLASSIC_SOLUTION, "{output}");
}

/// The schema has teeth: the records written before bug 6 was fixed, and
/// records that break a rule of one subcommand, are rejected.
#[test]
fn the_schema_rejects_records_that_break_it() {
    let schema = schema();
    let root = jsonschema::validator_for(&schema).expect("a valid schema");
    let rejected = [
        // An error without status, as every subcommand wrote it.
        r#"{"line":3,"error":"5 cells"}"#,
        // explain without status.
        r#"{"line":1,"puzzle":".2343.1221.3432.","solution":"1234341221434321","guesses":0,"steps":[],"time_ms":1}"#,
        // Both sources.
        r#"{"line":1,"argument":1,"status":"valid","puzzle":".2343.1221.3432.","conflicts":[],"time_ms":0}"#,
        // stopped without reason.
        r#"{"line":1,"status":"stopped","puzzle":"................","solution":null,"statistics":{"nodes":1,"failures":0,"propagations":1,"solutions":0,"peakDepth":1,"solveTime":0},"time_ms":0}"#,
        // A null puzzle that is not an error.
        r#"{"line":1,"status":"valid","puzzle":null,"conflicts":[],"time_ms":0}"#,
        // An unknown status.
        r#"{"line":1,"status":"fine","puzzle":"................","time_ms":0}"#,
    ];
    for text in rejected {
        let record: Value = serde_json::from_str(text).expect("JSON");
        assert!(!root.is_valid(&record), "accepted: {text}");
    }
    // A count record is not a solve record.
    let count = r#"{"argument":1,"status":"complete","puzzle":"................","count":2,"complete":true,"statistics":{"nodes":1,"failures":0,"propagations":1,"solutions":2,"peakDepth":1,"solveTime":0},"time_ms":0.5}"#;
    let record: Value = serde_json::from_str(count).expect("JSON");
    assert!(root.is_valid(&record));
    let solve = jsonschema::validator_for(&definition(&schema, "solve")).expect("valid");
    assert!(!solve.is_valid(&record));
}

/// The examples of docs/cli.md are records the schema accepts, one at least
/// for each status it lists.
#[test]
fn the_documented_examples_match_the_schema_and_cover_every_status() {
    let schema = schema();
    let root = jsonschema::validator_for(&schema).expect("a valid schema");
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/cli.md");
    let doc = std::fs::read_to_string(path).expect("docs/cli.md");
    let mut shown = BTreeSet::new();
    for line in doc.lines().filter(|line| line.starts_with("{\"")) {
        let record: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        let errors: Vec<String> = root.iter_errors(&record).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{errors:?}\n{line}");
        shown.insert(record["status"].as_str().expect("a status").to_owned());
    }
    let listed: BTreeSet<String> = schema["$defs"]["record"]["properties"]["status"]["enum"]
        .as_array()
        .expect("the statuses")
        .iter()
        .map(|v| v.as_str().expect("a string").to_owned())
        .collect();
    assert_eq!(shown, listed);
}
