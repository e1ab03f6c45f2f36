//! What the command-line tests share: running the binary, reading JSON Lines,
//! input files, and the puzzles they feed it.
#![allow(
    dead_code,
    reason = "each test binary uses its own part of this module"
)]

use std::fs;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use tempfile::{NamedTempFile, TempDir};

pub const CLASSIC: &str =
    "3.65.84..52........87....31..3.1..8.9..863..5.5..9.6..13....25........74..52.63..";
pub const CLASSIC_SOLUTION: &str =
    "316578492529134768487629531263415987974863125851792643138947256692351874745286319";
/// Arto Inkala's puzzle: it needs search (diabolical), and guesses to explain.
pub const INKALA: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

/// A fresh file in the system temp dir holding `contents`, removed when the
/// guard drops, so a failing test leaves nothing behind either.
pub fn temp_file(name: &str, contents: &[u8]) -> NamedTempFile {
    let file = tempfile::Builder::new()
        .prefix(&format!("alldiff-cli-{name}-"))
        .suffix(".txt")
        .tempfile()
        .expect("temp file");
    std::fs::write(file.path(), contents).expect("temp file");
    file
}

/// What a run of the binary produced.
#[derive(Debug)]
pub struct Run {
    pub status: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    pub fn lines(&self) -> Vec<&str> {
        self.stdout.lines().collect()
    }
}

/// Starts `alldiff args...` with its three streams piped.
pub fn spawn_piped(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_alldiff"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs")
}

/// Runs `alldiff args...` with `stdin` piped in.
pub fn run(args: &[&str], stdin: &[u8]) -> Run {
    let mut child = spawn_piped(args);
    let mut input = child.stdin.take().expect("piped stdin");
    let bytes = stdin.to_vec();
    // Written on a thread: the child may write before it has read everything.
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&bytes);
    });
    let output = child.wait_with_output().expect("the binary finishes");
    writer.join().expect("stdin writer");
    Run {
        status: output.status.code().expect("an exit status, not a signal"),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Runs `alldiff args...` with `stdin` piped in; returns standard output and
/// the exit status.
pub fn alldiff_with(args: &[&str], stdin: &[u8]) -> (String, i32) {
    let run = run(args, stdin);
    (run.stdout, run.status)
}

/// [`alldiff_with`] and an empty standard input.
pub fn alldiff(args: &[&str]) -> (String, i32) {
    alldiff_with(args, b"")
}

/// Each line of `text` as JSON.
pub fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}

/// Waits for `child`, killing it if it is still running after `limit`: a hang
/// fails the test instead of stalling the suite (the limit is a guard, far
/// above the time the run takes, not a measurement).
pub fn wait_within(mut child: Child, limit: Duration) -> Output {
    let start = Instant::now();
    while child.try_wait().expect("waits").is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("the output")
}

/// Runs `command` with its output piped, through [`wait_within`].
pub fn output_within(command: &mut Command, limit: Duration) -> Output {
    let child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    wait_within(child, limit)
}

/// A fresh folder under the system's temporary folder, removed on drop.
pub fn temp_dir(name: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("alldiff-{name}-"))
        .tempdir()
        .unwrap()
}

/// Writes `text` to `name` in `dir`; returns its path.
pub fn write_file(dir: &TempDir, name: &str, text: &str) -> PathBuf {
    let path = dir.path().join(name);
    fs::write(&path, text).unwrap();
    path
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}
