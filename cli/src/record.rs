//! One output record per puzzle, described once ([`Record`]) and written in
//! any [`Format`]: `line`, `compact`, `grid`, `labelled`, `csv` or `json`.
//!
//! A subcommand says what it found: where the puzzle came from ([`Source`]),
//! the status word, the puzzle and solution grids, the grade where known, the
//! `line` text (and the `grid` text where it draws more than the `line`), its
//! own JSON fields and labelled lines, the time taken and, with `--stats`, the
//! techniques used ([`Stats`]). The JSON form of every subcommand follows one
//! schema, `docs/cli-schema.json`; `docs/cli.md` describes it.

use std::fmt::{self, Write as _};
use std::time::Duration;

use alldiff::Limits;
use alldiff::sudoku::{Difficulty, ExplainOptions, Explanation, Grid, Technique, explain_with};
use serde_json::{Map, Value, json};

use super::args::{Format, OutputArgs};
use super::input::Item;

/// How records are written: the format, and the optional parts asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Style {
    /// The format.
    pub(crate) format: Format,
    /// `--timer`: the time of each puzzle in every format (JSON always has it).
    pub(crate) timer: bool,
    /// `--stats`: the techniques used on each puzzle.
    pub(crate) stats: bool,
}

impl Style {
    /// The style asked for by the output options and `--stats`.
    pub(crate) fn of(output: &OutputArgs, stats: bool) -> Style {
        Style {
            format: output.format(),
            timer: output.timer,
            stats,
        }
    }

    /// The style of `format` without timer or statistics.
    pub(crate) fn plain(format: Format) -> Style {
        Style {
            format,
            timer: false,
            stats: false,
        }
    }

    /// Whether records show the time a puzzle took (`--timer`, or JSON): if
    /// not, a subcommand need not read the clock.
    pub(crate) fn shows_time(self) -> bool {
        self.timer || self.format == Format::Json
    }

    /// The CSV header line (without its newline) for this style, or `None` for
    /// the other formats.
    pub(crate) fn csv_header(self) -> Option<String> {
        if self.format != Format::Csv {
            return None;
        }
        let mut header = "puzzle,result,status,grade".to_owned();
        if self.timer {
            header.push_str(",time_ms");
        }
        if self.stats {
            for key in Stats::keys() {
                header.push(',');
                header.push_str(&key);
            }
        }
        Some(header)
    }
}

/// Where a record's puzzle came from: a line of the input or a `PUZZLE`
/// argument (from 1), or the index of a generated puzzle (from 0; its seed is
/// the first seed plus it). The JSON key is `line`, `argument` or `index`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Source {
    key: &'static str,
    number: u64,
}

impl Source {
    /// The source of a generated puzzle.
    pub(crate) fn index(index: u64) -> Source {
        Source {
            key: "index",
            number: index,
        }
    }
}

impl From<&Item> for Source {
    fn from(item: &Item) -> Source {
        Source {
            key: item.origin().noun(),
            number: item.number(),
        }
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.key, self.number)
    }
}

/// The snake-case name of a technique, as the library serializes it
/// (`naked_single`, ...): the JSON key and CSV column of its count.
fn technique_key(technique: Technique) -> String {
    match serde_json::to_value(technique) {
        Ok(Value::String(key)) => key,
        _ => technique.name().replace(' ', "_"),
    }
}

/// What `--stats` reports for one puzzle: its clues (`givens`, as qqwing
/// says), and the steps of each technique ([`Technique::ALL`]) in the
/// library's readable explanation of its solution (for `explain --verbose`,
/// in the engine's log it shows, backtracks included).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Stats {
    givens: usize,
    counts: [usize; Technique::ALL.len()],
}

impl Stats {
    /// The counts of an explanation's steps by technique.
    pub(crate) fn of(explanation: &Explanation) -> Stats {
        let mut counts = [0; Technique::ALL.len()];
        for step in explanation.steps() {
            if let Some(i) = Technique::ALL.iter().position(|&t| t == step.technique) {
                counts[i] += 1;
            }
        }
        Stats {
            givens: explanation.puzzle().clue_count(),
            counts,
        }
    }

    /// The statistics of a puzzle's readable explanation (its placements by
    /// singles and guesses, the eliminations they need), or `None` if it has
    /// not exactly one solution or `limits` stop the explanation's search.
    pub(crate) fn of_puzzle(puzzle: &Grid, limits: &Limits) -> Option<Stats> {
        let options = ExplainOptions {
            limits: limits.clone(),
            ..ExplainOptions::default()
        };
        explain_with(puzzle, &options)
            .ok()
            .map(|explanation| Stats::of(&explanation))
    }

    /// `(key, count)`: `givens`, then each technique's snake-case name.
    fn entries(&self) -> impl Iterator<Item = (String, usize)> + '_ {
        let techniques = Technique::ALL.iter().map(|&t| technique_key(t));
        std::iter::once(("givens".to_owned(), self.givens)).chain(techniques.zip(self.counts))
    }

    /// The keys of [`Stats::entries`], for the CSV header.
    fn keys() -> impl Iterator<Item = String> {
        std::iter::once("givens".to_owned()).chain(Technique::ALL.iter().map(|&t| technique_key(t)))
    }

    fn json(&self) -> Value {
        let object: Map<String, Value> = self.entries().map(|(k, n)| (k, json!(n))).collect();
        Value::Object(object)
    }

    /// `givens 30, naked single 30, hidden single 12, ...`.
    fn words(&self) -> String {
        let words: Vec<String> = self
            .entries()
            .map(|(key, count)| format!("{} {count}", key.replace('_', " ")))
            .collect();
        words.join(", ")
    }

    /// `givens=30 naked_single=30 ...`, for the one-line formats.
    fn pairs(&self) -> String {
        let pairs: Vec<String> = self
            .entries()
            .map(|(key, count)| format!("{key}={count}"))
            .collect();
        pairs.join(" ")
    }
}

/// One puzzle's result, ready to be written in any format.
#[derive(Debug, Clone)]
#[must_use]
pub(crate) struct Record {
    source: Source,
    status: &'static str,
    line: String,
    grid: Option<String>,
    compact: Option<String>,
    result: Option<String>,
    puzzle: Option<Grid>,
    solution: Option<Grid>,
    grade: Option<Difficulty>,
    labels: Vec<(&'static str, String)>,
    fields: Map<String, Value>,
    time: Duration,
    stats: Option<Option<Stats>>,
}

impl Record {
    /// A record with its status word (the JSON `status`) and its `line`
    /// text: what `--format line` prints for it.
    pub(crate) fn new(source: impl Into<Source>, status: &'static str, line: String) -> Record {
        Record {
            source: source.into(),
            status,
            line,
            grid: None,
            compact: None,
            result: None,
            puzzle: None,
            solution: None,
            grade: None,
            labels: Vec::new(),
            fields: Map::new(),
            time: Duration::ZERO,
            stats: None,
        }
    }

    /// The record of an item that could not be processed: status `error`,
    /// `error: MESSAGE` as its line, and no puzzle.
    pub(crate) fn error(source: impl Into<Source>, message: impl fmt::Display) -> Record {
        let message = message.to_string();
        Record::new(source, "error", format!("error: {message}"))
            .label("Error", message.clone())
            .field("error", message)
    }

    /// The puzzle (JSON `puzzle`; drawn by `labelled`; the first CSV column).
    pub(crate) fn puzzle(mut self, puzzle: &Grid) -> Record {
        self.puzzle = Some(puzzle.clone());
        self
    }

    /// The solution (JSON `solution`, drawn by `labelled`, the CSV `result`
    /// when the `line` text is several lines). `None` writes `"solution": null`.
    pub(crate) fn solution(mut self, solution: Option<&Grid>) -> Record {
        self.fields
            .insert("solution".to_owned(), json!(solution.map(Grid::to_line)));
        self.solution = solution.cloned();
        self
    }

    /// The grade (JSON `difficulty`, CSV `grade`, labelled `Grade:`).
    pub(crate) fn grade(mut self, grade: Difficulty) -> Record {
        self.fields
            .insert("difficulty".to_owned(), json!(grade.name()));
        self.grade = Some(grade);
        self
    }

    /// What `--format grid` prints, when it is more than the `line` text.
    pub(crate) fn grid(mut self, text: String) -> Record {
        self.grid = Some(text);
        self
    }

    /// What `--format compact` prints when it draws a grid ([`compact`]);
    /// otherwise it prints the `line` text.
    pub(crate) fn compact(mut self, text: String) -> Record {
        self.compact = Some(text);
        self
    }

    /// The CSV `result`, when it is not the `line` text (or, for a `line` text
    /// of several lines, the solution).
    pub(crate) fn result(mut self, text: String) -> Record {
        self.result = Some(text);
        self
    }

    /// A `Label: value` line of the `labelled` format (a value of several
    /// lines goes under its label).
    pub(crate) fn label(mut self, label: &'static str, value: String) -> Record {
        self.labels.push((label, value));
        self
    }

    /// A JSON field of the subcommand's own.
    pub(crate) fn field(mut self, key: &str, value: impl Into<Value>) -> Record {
        self.fields.insert(key.to_owned(), value.into());
        self
    }

    /// The time the puzzle took.
    pub(crate) fn time(mut self, time: Duration) -> Record {
        self.time = time;
        self
    }

    /// The `--stats` of the puzzle (`None`: it has not exactly one solution).
    pub(crate) fn stats(mut self, stats: Option<Stats>) -> Record {
        self.stats = Some(stats);
        self
    }

    /// The record in `style`, without the final newline.
    pub(crate) fn render(&self, style: Style) -> String {
        match style.format {
            Format::Line => self.one_line(&self.line, style),
            Format::Compact => match &self.compact {
                Some(text) => text.clone() + &self.footer(style),
                None => self.one_line(&self.line, style),
            },
            Format::Grid => {
                let mut text = self.grid.clone().unwrap_or_else(|| self.line.clone());
                let footer = self.footer(style);
                if !footer.is_empty() && !text.ends_with('\n') {
                    text.push('\n');
                }
                text + &footer
            }
            Format::Labelled => self.labelled(style),
            Format::Csv => self.csv(style),
            Format::Json => self.json(style),
        }
    }

    /// [`Record::render`], taking the record: the `line` format then writes
    /// the record's own `line` text, without copying it.
    pub(crate) fn into_text(mut self, style: Style) -> String {
        match style.format {
            Format::Line => {
                let line = std::mem::take(&mut self.line);
                self.extend_line(line, style)
            }
            _ => self.render(style),
        }
    }

    /// `text` with ` time_ms=...` and the statistics appended, for the
    /// one-line formats.
    fn one_line(&self, text: &str, style: Style) -> String {
        self.extend_line(text.to_owned(), style)
    }

    /// [`Record::one_line`] of a text already owned.
    fn extend_line(&self, mut out: String, style: Style) -> String {
        if style.timer {
            let _ = write!(out, " time_ms={}", millis(self.time));
        }
        if let Some(Some(stats)) = &self.stats {
            let _ = write!(out, " {}", stats.pairs());
        }
        out
    }

    /// The `Time:` and `Statistics:` lines of the drawn formats.
    fn footer(&self, style: Style) -> String {
        let mut out = String::new();
        if style.timer {
            let _ = writeln!(out, "Time: {} ms", millis(self.time));
        }
        match &self.stats {
            Some(Some(stats)) => {
                let _ = writeln!(out, "Statistics: {}", stats.words());
            }
            Some(None) => out.push_str("Statistics: none (not exactly one solution)\n"),
            None => {}
        }
        out
    }

    fn labelled(&self, style: Style) -> String {
        let mut out = String::new();
        match &self.puzzle {
            Some(puzzle) => {
                let _ = write!(
                    out,
                    "Puzzle ({}):\n{}",
                    self.source,
                    puzzle.to_grid_string()
                );
            }
            None => {
                let _ = writeln!(out, "Puzzle ({}): none", self.source);
            }
        }
        if let Some(solution) = &self.solution {
            let _ = write!(out, "Solution:\n{}", solution.to_grid_string());
        }
        if let Some(grade) = self.grade {
            let _ = writeln!(out, "Grade: {grade}");
        }
        let _ = writeln!(out, "Status: {}", self.status);
        for (label, value) in &self.labels {
            if value.contains('\n') {
                let _ = writeln!(out, "{label}:\n{}", value.trim_end());
            } else {
                let _ = writeln!(out, "{label}: {value}");
            }
        }
        out + &self.footer(style)
    }

    fn csv(&self, style: Style) -> String {
        let mut cells = vec![
            self.puzzle.as_ref().map(Grid::to_line).unwrap_or_default(),
            match (&self.result, &self.solution) {
                (Some(result), _) => result.clone(),
                (None, Some(solution)) if self.line.contains('\n') => solution.to_line(),
                (None, _) => self.line.clone(),
            },
            self.status.to_owned(),
            self.grade.map(|g| g.name().to_owned()).unwrap_or_default(),
        ];
        if style.timer {
            cells.push(millis(self.time));
        }
        if style.stats {
            match &self.stats {
                Some(Some(stats)) => cells.extend(stats.entries().map(|(_, n)| n.to_string())),
                _ => cells.extend(Stats::keys().map(|_| String::new())),
            }
        }
        let cells: Vec<String> = cells.iter().map(|cell| csv_cell(cell)).collect();
        cells.join(",")
    }

    fn json(&self, style: Style) -> String {
        let mut object = self.fields.clone();
        object.insert(self.source.key.to_owned(), json!(self.source.number));
        object.insert("status".to_owned(), json!(self.status));
        object.insert(
            "puzzle".to_owned(),
            json!(self.puzzle.as_ref().map(Grid::to_line)),
        );
        // Whole microseconds, so that the number prints short.
        let micros = self.time.as_micros() as f64;
        object.insert("time_ms".to_owned(), json!(micros / 1e3));
        if style.stats {
            let stats = self.stats.as_ref().and_then(|s| s.as_ref());
            object.insert("stats".to_owned(), stats.map_or(Value::Null, Stats::json));
        }
        Value::Object(object).to_string()
    }
}

/// A duration in milliseconds with three decimals.
fn millis(time: Duration) -> String {
    format!("{:.3}", time.as_secs_f64() * 1e3)
}

/// The compact form of a grid: one line of symbols per row, no separators,
/// each ending in a newline; the record's own line ending then leaves an
/// empty line after the grid, so that grids in a stream are apart.
pub(crate) fn compact(grid: &Grid) -> String {
    let line = grid.to_line();
    let mut out = String::with_capacity(line.len() + grid.side() + 1);
    // Every symbol is one ASCII byte.
    for row in line.as_bytes().chunks(grid.side()) {
        out.push_str(&String::from_utf8_lossy(row));
        out.push('\n');
    }
    out
}

/// A CSV cell, quoted when it holds a comma, a quote or a line break.
fn csv_cell(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::Origin;

    const CLASSIC: &str =
        "3.65.84..52........87....31..3.1..8.9..863..5.5..9.6..13....25........74..52.63..";

    fn grid(text: &str) -> Grid {
        text.parse().unwrap()
    }

    fn style(format: Format) -> Style {
        Style::plain(format)
    }

    #[test]
    fn compact_is_one_row_a_line_with_the_size_alphabet() {
        assert_eq!(
            compact(&grid("1234341221434321")),
            "1234\n3412\n2143\n4321\n"
        );
        let big = grid(&format!("G{}", ".".repeat(255)));
        let text = compact(&big);
        assert_eq!(text.lines().count(), 16);
        assert!(text.starts_with("G...............\n"), "{text}");
        assert_eq!(compact(&grid(CLASSIC)).lines().next(), Some("3.65.84.."));
    }

    #[test]
    fn csv_cells_are_quoted_when_needed() {
        assert_eq!(csv_cell("valid"), "valid");
        assert_eq!(csv_cell("a, b"), "\"a, b\"");
        assert_eq!(csv_cell("say \"x\""), "\"say \"\"x\"\"\"");
    }

    #[test]
    fn every_format_writes_the_same_record() {
        let puzzle = grid(".2343.1221.3432.");
        let solution = grid("1234341221434321");
        let record = Record::new(
            &Item::new(Origin::Line(4), Vec::new()),
            "unique",
            solution.to_line(),
        )
        .puzzle(&puzzle)
        .solution(Some(&solution))
        .grade(Difficulty::Easy)
        .time(Duration::from_micros(1500));
        assert_eq!(record.render(style(Format::Line)), "1234341221434321");
        assert_eq!(record.render(style(Format::Compact)), "1234341221434321");
        let drawn = record.clone().compact(compact(&solution));
        assert_eq!(
            drawn.render(style(Format::Compact)),
            "1234\n3412\n2143\n4321\n"
        );
        let timed = Style {
            timer: true,
            ..style(Format::Line)
        };
        assert_eq!(record.render(timed), "1234341221434321 time_ms=1.500");
        let labelled = record.render(style(Format::Labelled));
        assert!(
            labelled.starts_with("Puzzle (line 4):\n. 2 | 3 4\n"),
            "{labelled}"
        );
        assert!(labelled.contains("Solution:\n1 2 | 3 4\n"), "{labelled}");
        assert!(
            labelled.contains("Grade: easy\nStatus: unique\n"),
            "{labelled}"
        );
        let csv = Style {
            timer: true,
            ..style(Format::Csv)
        };
        assert_eq!(
            csv.csv_header().unwrap(),
            "puzzle,result,status,grade,time_ms"
        );
        assert_eq!(
            record.render(csv),
            ".2343.1221.3432.,1234341221434321,unique,easy,1.500"
        );
        let json: Value = serde_json::from_str(&record.render(style(Format::Json))).unwrap();
        assert_eq!(json["line"], 4);
        assert_eq!(json["status"], "unique");
        assert_eq!(json["puzzle"], ".2343.1221.3432.");
        assert_eq!(json["solution"], "1234341221434321");
        assert_eq!(json["difficulty"], "easy");
        assert_eq!(json["time_ms"], 1.5);
        assert_eq!(style(Format::Line).csv_header(), None);
    }

    #[test]
    fn error_records_have_a_status_and_no_puzzle() {
        let record = Record::error(&Item::new(Origin::Argument(2), Vec::new()), "bad \"quote\"");
        let json: Value = serde_json::from_str(&record.render(style(Format::Json))).unwrap();
        assert_eq!(json["argument"], 2);
        assert_eq!(json["status"], "error");
        assert_eq!(json["error"], "bad \"quote\"");
        assert!(json["puzzle"].is_null());
        assert_eq!(record.render(style(Format::Line)), "error: bad \"quote\"");
        assert_eq!(
            record.render(style(Format::Csv)),
            ",\"error: bad \"\"quote\"\"\",error,"
        );
    }

    #[test]
    fn stats_count_each_technique() {
        let puzzle = grid(CLASSIC);
        let stats = Stats::of_puzzle(&puzzle, &Limits::default()).unwrap();
        let total: usize = stats.counts.iter().sum();
        assert_eq!(
            total,
            alldiff::sudoku::explain(&puzzle).unwrap().steps().len()
        );
        let json = stats.json();
        assert!(json["hidden_single"].as_u64().unwrap() > 0, "{json}");
        assert_eq!(json["guess"], 0);
        assert_eq!(json["givens"], puzzle.clue_count());
        assert!(stats.words().starts_with("givens 32, naked single "));
        assert_eq!(
            Stats::of_puzzle(&grid(&".".repeat(16)), &Limits::default()),
            None
        );
        // A puzzle that needs guesses, stopped at its first node.
        let hard = grid(
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
        );
        let one_node = Limits::default().with_nodes(1);
        assert!(Stats::of_puzzle(&hard, &Limits::default()).is_some());
        assert_eq!(
            Stats::of_puzzle(&hard, &one_node),
            None,
            "stopped by the limit"
        );
        let header = Style {
            stats: true,
            ..style(Format::Csv)
        }
        .csv_header()
        .unwrap();
        assert!(
            header.ends_with(",guess,backtrack,contradiction"),
            "{header}"
        );
    }
}
