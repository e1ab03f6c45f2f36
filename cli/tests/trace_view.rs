//! `alldiff trace view`: the page opened in a real browser (headless Chromium).
//!
//! Each page is written by the command line from a trace file and opened with
//! `chromium --headless --dump-dom` at `file://...#node=N`; the DOM after its
//! script ran is checked: `<body data-status="ready">` (the page sets `error`,
//! with the messages in `#errors`, on any script error), the node count it shows
//! is the trace's, and the domains it shows at node N are those that `alldiff
//! trace replay --node N` prints, failure included. One page also gets a script
//! after the viewer's that clicks and presses its buttons, and reports what they
//! selected.
//!
//! Without Chromium (`chromium` on PATH, or the path in `ALLDIFF_CHROMIUM`) the
//! browser tests are skipped with a note, unless `CI` is set: then they fail.

#[path = "../../tests/common/mod.rs"]
mod common;
#[path = "../../tests/trace_support/mod.rs"]
mod trace_support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use alldiff::trace::{self, Trace, ViewOptions};
use alldiff::{CountStatus, Model, SearchConfig, Solver, Strength, ValueOrder, VariableOrder};
use common::queens;
use tempfile::TempDir;
use trace_support::{one_truth, page_data};

const ALLDIFF: &str = env!("CARGO_BIN_EXE_alldiff");

/// A hard 9x9 puzzle: 366 nodes, 183 failures with the default search.
const SUDOKU: &str =
    "..2...7...1.....6.5......18....37.......49.....41.23....3.2.9...8.....5.6.......2";

/// A folder of its own for one test, removed when the guard drops.
fn scratch(name: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("alldiff-trace-view-{name}-"))
        .tempdir()
        .unwrap()
}

/// The Chromium to run, or `None` (with a note) where there is none and `CI` is
/// not set.
fn chromium() -> Option<PathBuf> {
    let found = std::env::var_os("ALLDIFF_CHROMIUM")
        .map(PathBuf::from)
        .or_else(|| {
            let path = std::env::var_os("PATH")?;
            std::env::split_paths(&path)
                .flat_map(|dir| ["chromium", "chromium-browser"].map(|name| dir.join(name)))
                .find(|candidate| candidate.is_file())
        });
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set but no `chromium` is on PATH: .ci/run installs it (apt-get install chromium)"
        );
        eprintln!(
            "note: skipping the browser check: no `chromium` on PATH (set CI to make this fail)"
        );
    }
    found
}

/// Runs `alldiff ARGS`, which must succeed; its standard output.
fn alldiff(args: &[&str]) -> String {
    let output = Command::new(ALLDIFF).args(args).output().unwrap();
    assert!(
        output.status.success(),
        "alldiff {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// Opens `page#node=N` headless and returns the DOM after the script ran, and how
/// long the browser took.
fn dump_dom(chromium: &Path, page: &Path, node: u64) -> (String, Duration) {
    let profile = page.with_extension(format!("profile-{node}"));
    let url = format!("file://{}#node={node}", page.display());
    let started = Instant::now();
    let mut child = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1280,900",
            "--virtual-time-budget=20000",
            "--dump-dom",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(&url)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Read the output on a thread so that a browser that hangs can be killed.
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut dom = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut dom).map(|_| dom)
    });
    let deadline = started + Duration::from_secs(180);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("chromium did not finish within 180 s on {url}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let elapsed = started.elapsed();
    let dom = reader.join().unwrap().unwrap();
    let _ = std::fs::remove_dir_all(&profile);
    assert!(status.success(), "chromium failed ({status}) on {url}");
    (dom, elapsed)
}

/// The value of attribute `name` in the start tag `tag`.
fn attribute<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    Some(&tag[start..start + tag[start..].find('"')?])
}

/// The start tag of the element with `id`.
fn tag_with_id<'a>(dom: &'a str, id: &str) -> &'a str {
    let at = dom
        .find(&format!(" id=\"{id}\""))
        .unwrap_or_else(|| panic!("no #{id} in the page"));
    let start = dom[..at].rfind('<').unwrap();
    &dom[start..at + dom[at..].find('>').unwrap() + 1]
}

/// The text right after the start tag of the element with `id`, up to the next tag.
fn text_of<'a>(dom: &'a str, id: &str) -> &'a str {
    let tag = tag_with_id(dom, id);
    let start = dom.find(tag).unwrap() + tag.len();
    &dom[start..start + dom[start..].find('<').unwrap()]
}

/// What the page shows at the selected node: its id, the failing constraint if
/// it failed, and each variable's values.
#[derive(Debug, PartialEq)]
struct Shown {
    node: u64,
    failed_by: Option<String>,
    domains: Vec<(String, Vec<i32>)>,
}

/// Checks the page loaded without a script error, and reads what it shows.
fn read_page(dom: &str) -> (Shown, u64) {
    let body = &dom[dom.find("<body ").expect("a body")..];
    let body = &body[..body.find('>').unwrap()];
    let errors = text_of(dom, "errors");
    assert_eq!(
        attribute(body, "data-status"),
        Some("ready"),
        "script errors: {errors}"
    );
    assert!(errors.is_empty(), "{errors}");
    let nodes: u64 = attribute(tag_with_id(dom, "stat-nodes"), "data-value")
        .unwrap()
        .parse()
        .unwrap();
    // The number as a person reads it, with thousands separators.
    let text = text_of(dom, "stat-nodes").replace(',', "");
    assert_eq!(text.parse::<u64>().unwrap(), nodes);
    let failure = tag_with_id(dom, "node-failure");
    let mut domains = Vec::new();
    let mut rest = dom;
    while let Some(at) = rest.find("class=\"dom") {
        let start = rest[..at].rfind('<').unwrap();
        let tag = &rest[start..at + rest[at..].find('>').unwrap()];
        let values = attribute(tag, "data-values").unwrap();
        domains.push((
            attribute(tag, "data-var").unwrap().to_owned(),
            values
                .split_whitespace()
                .map(|v| v.parse().unwrap())
                .collect(),
        ));
        rest = &rest[at + 10..];
    }
    let shown = Shown {
        node: text_of(dom, "node-id").parse().expect("a node is selected"),
        failed_by: attribute(failure, "data-constraint").map(str::to_owned),
        domains,
    };
    (shown, nodes)
}

/// What `alldiff trace replay --node N` prints, read the same way.
fn replay(file: &Path, node: u64, names: &[String]) -> Shown {
    let text = alldiff(&[
        "trace",
        "replay",
        file.to_str().unwrap(),
        "--node",
        &node.to_string(),
    ]);
    let mut lines = text.lines().peekable();
    let failed_by = match lines.peek() {
        Some(line) if line.starts_with(&format!("node {node} failed: ")) => {
            let line = lines.next().unwrap();
            Some(match line.split_once("constraint #") {
                Some((_, rest)) => rest.split(' ').next().unwrap().to_owned(),
                None => "-1".to_owned(),
            })
        }
        _ => None,
    };
    let rest: Vec<&str> = lines.collect();
    let grid = !rest.is_empty() && !rest[0].contains(": ");
    let domains = if grid {
        // Candidate grid: cells separated by spaces and `|`, rows of `-`/`+` between bands.
        let cells: Vec<&str> = rest
            .iter()
            .filter(|l| !l.starts_with('-'))
            .flat_map(|l| l.split_whitespace().filter(|c| *c != "|"))
            .collect();
        assert_eq!(cells.len(), names.len());
        names
            .iter()
            .zip(cells)
            .map(|(name, cell)| {
                let values = match cell {
                    "!" => Vec::new(),
                    _ => cell
                        .chars()
                        .map(|c| c.to_digit(36).unwrap() as i32)
                        .collect(),
                };
                (name.clone(), values)
            })
            .collect()
    } else {
        rest.iter()
            .map(|line| {
                let (name, values) = line.split_once(": ").unwrap();
                let values = match values {
                    "(empty)" => Vec::new(),
                    _ => values.split(' ').map(|v| v.parse().unwrap()).collect(),
                };
                (name.to_owned(), values)
            })
            .collect()
    };
    Shown {
        node,
        failed_by,
        domains,
    }
}

/// Writes `trace` (the bytes of a trace file) and its page through the command
/// line; the paths of both.
fn write_page(dir: &Path, name: &str, trace: &[u8]) -> (PathBuf, PathBuf) {
    let file = dir.join(format!("{name}.jsonl"));
    std::fs::write(&file, trace).unwrap();
    let page = dir.join(format!("{name}.html"));
    alldiff(&[
        "trace",
        "view",
        file.to_str().unwrap(),
        "-o",
        page.to_str().unwrap(),
    ]);
    (file, page)
}

/// Opens the page at each node and compares with the trace and `trace replay`.
/// The browser's times.
fn check_in_browser(chromium: &Path, file: &Path, page: &Path, nodes: &[u64]) -> Vec<Duration> {
    let parsed = read_trace(file);
    let names: Vec<String> = parsed
        .header()
        .variables
        .iter()
        .map(|v| v.name.clone())
        .collect();
    let expected_nodes = parsed.summary().nodes;
    let mut times = Vec::new();
    for &node in nodes {
        let (dom, elapsed) = dump_dom(chromium, page, node);
        times.push(elapsed);
        let (shown, shown_nodes) = read_page(&dom);
        assert_eq!(shown_nodes, expected_nodes, "the node count shown");
        assert_eq!(
            Some(shown_nodes),
            parsed.statistics().map(|s| s.nodes),
            "the solver's count"
        );
        assert_eq!(
            shown,
            replay(file, node, &names),
            "node {node} of {}",
            file.display()
        );
    }
    times
}

fn sudoku_trace(dir: &Path) -> (PathBuf, PathBuf) {
    let file = dir.join("sudoku.jsonl");
    alldiff(&[
        "solve",
        "--threads",
        "1",
        "--trace",
        file.to_str().unwrap(),
        SUDOKU,
    ]);
    let page = dir.join("sudoku.html");
    // The default name: the trace's, with `.html`.
    alldiff(&["trace", "view", file.to_str().unwrap()]);
    assert!(page.is_file());
    (file, page)
}

fn queens_trace(dir: &Path) -> (PathBuf, PathBuf) {
    let (model, _) = queens(8, Strength::Value);
    let mut solver = Solver::new(model);
    let mut bytes = Vec::new();
    trace::count_traced(&mut solver, "8-queens", &mut bytes, None, None).unwrap();
    write_page(dir, "queens", &bytes)
}

/// At least 50,000 nodes: every ordering of 8 values under one all-different,
/// 40,320 solutions in a tree of 80,639 nodes where no subtree fails, so none
/// folds: the page draws them all.
fn big_trace() -> Vec<u8> {
    let mut model = Model::new();
    let x = model.int_vars(8, 1, 8).unwrap();
    for (i, &v) in x.iter().enumerate() {
        model.set_name(v, format!("x{i}")).unwrap();
    }
    model.all_different(x.iter().copied()).unwrap();
    let mut solver = Solver::with_config(
        model,
        SearchConfig::new()
            .variable_order(VariableOrder::InputOrder)
            .value_order(ValueOrder::Ascending),
    );
    let mut bytes = Vec::new();
    let (count, written) =
        trace::count_traced(&mut solver, "8 all different", &mut bytes, None, None).unwrap();
    assert_eq!(count.status, CountStatus::Complete);
    assert!(!written.truncated());
    assert!(
        solver.statistics().nodes >= 50_000,
        "{:?}",
        solver.statistics()
    );
    bytes
}

/// Reads a trace file.
fn read_trace(file: &Path) -> Trace {
    Trace::parse(std::io::BufReader::new(std::fs::File::open(file).unwrap())).unwrap()
}

/// Writes a trace and its page with `make`, checks the one truth, and opens the
/// page at the nodes `pick` chooses.
fn open_at(name: &str, make: fn(&Path) -> (PathBuf, PathBuf), pick: fn(&Trace) -> Vec<u64>) {
    let Some(chromium) = chromium() else {
        return;
    };
    let dir = scratch(name);
    let (file, page) = make(dir.path());
    let parsed = read_trace(&file);
    one_truth(&parsed);
    check_in_browser(&chromium, &file, &page, &pick(&parsed));
}

/// The first (or last) node that a constraint failed.
fn failed_node(trace: &Trace, last: bool) -> u64 {
    let mut failed = trace.nodes().iter().filter(|n| n.failed_by.is_some());
    let node = if last {
        failed.next_back()
    } else {
        failed.next()
    };
    node.expect("a failed node").id
}

#[test]
fn sudoku_page_in_the_browser() {
    open_at("sudoku", sudoku_trace, |trace| {
        vec![0, failed_node(trace, true), trace.solution_nodes()[0]]
    });
}

#[test]
fn queens_page_in_the_browser() {
    open_at("queens", queens_trace, |trace| {
        let last = trace.solution_nodes().last().copied().unwrap();
        vec![failed_node(trace, false), last]
    });
}

/// Clicks and buttons, driven by a script added to the page after the viewer's:
/// a click on a folded failed subtree selects and unfolds it; next, next and
/// previous solution; go to node; the variable search.
#[test]
fn clicks_and_navigation_in_the_browser() {
    let Some(chromium) = chromium() else {
        return;
    };
    let dir = scratch("clicks");
    let (file, page) = queens_trace(dir.path());
    let trace = read_trace(&file);
    let nodes = trace.nodes();
    // A maximal failed subtree: folded when the page opens.
    let mut dead = vec![false; nodes.len()];
    for node in nodes.iter().rev() {
        dead[node.id as usize] = match node.children.is_empty() {
            true => node.status == alldiff::trace::NodeStatus::Failed,
            false => node.children.iter().all(|&c| dead[c as usize]),
        };
    }
    let folded = nodes
        .iter()
        .find(|n| {
            dead[n.id as usize] && !n.children.is_empty() && !dead[n.parent.unwrap() as usize]
        })
        .unwrap();
    let child = folded.children[0];
    let goto = nodes.len() as u64 / 2;
    let q5 = nodes
        .iter()
        .find(|n| n.id > goto && n.decision.is_some_and(|(var, ..)| var == 5))
        .unwrap()
        .id;
    let script = format!(
        r#"<script>
(function () {{
  const view = window.alldiffView;
  const canvas = document.getElementById('tree');
  const shown = function () {{ return Number(document.getElementById('node-id').textContent); }};
  const press = function (id) {{ document.getElementById(id).click(); return shown(); }};
  const out = {{ childBefore: view.clientPosition({child}) !== null }};
  const at = view.clientPosition({folded});
  canvas.dispatchEvent(new MouseEvent('mousedown', {{ clientX: at.x, clientY: at.y, bubbles: true }}));
  window.dispatchEvent(new MouseEvent('mouseup', {{ clientX: at.x, clientY: at.y, bubbles: true }}));
  out.clicked = shown();
  out.childAfter = view.clientPosition({child}) !== null;
  out.solutions = [press('next-solution'), press('next-solution'), press('prev-solution')];
  document.getElementById('goto').value = '{goto}';
  document.getElementById('goto-form').requestSubmit();
  out.goto = shown();
  document.getElementById('search').value = 'q5';
  document.getElementById('search-form').requestSubmit();
  out.search = shown();
  out.hits = Array.from(document.querySelectorAll('#domains .hit')).map(function (e) {{ return e.dataset.var; }});
  out.hash = location.hash;
  document.body.dataset.interaction = JSON.stringify(out);
}}());
</script>
</body>"#,
        folded = folded.id
    );
    let html = std::fs::read_to_string(&page).unwrap();
    let at = html.rfind("</body>").unwrap();
    let driven = dir.path().join("driven.html");
    std::fs::write(
        &driven,
        format!("{}{script}{}", &html[..at], &html[at + 7..]),
    )
    .unwrap();
    let (dom, _) = dump_dom(&chromium, &driven, 0);
    read_page(&dom);
    let body = &dom[dom.find("<body ").unwrap()..];
    let body = &body[..body.find('>').unwrap()];
    let out: serde_json::Value = serde_json::from_str(
        &attribute(body, "data-interaction")
            .expect("the driving script ran")
            .replace("&quot;", "\"")
            .replace("&amp;", "&"),
    )
    .unwrap();
    let solutions = trace.solution_nodes();
    let expected = serde_json::json!({
        "childBefore": false,
        "clicked": folded.id,
        "childAfter": true,
        "solutions": [solutions[0], solutions[1], solutions[0]],
        "goto": goto,
        "search": q5,
        "hits": ["q5"],
        "hash": format!("#node={q5}"),
    });
    assert_eq!(out, expected);
}

#[test]
fn a_big_page_in_the_browser() {
    let bytes = big_trace();
    let parsed = Trace::parse(&bytes[..]).unwrap();
    one_truth(&parsed);
    let Some(chromium) = chromium() else {
        return;
    };
    let dir = scratch("big");
    let (file, page) = write_page(dir.path(), "big", &bytes);
    let size = std::fs::metadata(&page).unwrap().len();
    // A node deep in the last part of the search, and the last solution.
    let deep = parsed
        .nodes()
        .iter()
        .rev()
        .find(|n| n.depth >= 10)
        .unwrap()
        .id;
    let last = parsed.solution_nodes().last().copied().unwrap();
    let times = check_in_browser(&chromium, &file, &page, &[deep, last]);
    // The small page's time is the browser's own start-up, for comparison.
    let queens_dir = scratch("big-baseline");
    let (_, small) = queens_trace(queens_dir.path());
    let (_, baseline) = dump_dom(&chromium, &small, 0);
    eprintln!(
        "{} nodes, page {:.1} MB: chromium --dump-dom took {:?} (a small page: {baseline:?})",
        parsed.summary().nodes + 1,
        size as f64 / 1e6,
        times
    );
}

/// Every `src=` or `href=` in the page, whatever the quoting, and any CSS `url(`
/// or `@import`, points nowhere outside the page.
#[test]
fn the_page_loads_nothing_from_the_network() {
    let dir = scratch("offline");
    let (_, page) = queens_trace(dir.path());
    let html = std::fs::read_to_string(&page).unwrap().to_ascii_lowercase();
    for attribute in ["src", "href", "url(", "@import", "action"] {
        let mut rest = html.as_str();
        while let Some(at) = rest.find(attribute) {
            let after = rest[at + attribute.len()..].trim_start_matches([' ', '=', '"', '\'', '(']);
            assert!(
                !after.starts_with("http:")
                    && !after.starts_with("https:")
                    && !after.starts_with("//"),
                "{attribute} points outside: {}",
                &rest[at..(at + 80).min(rest.len())]
            );
            rest = &rest[at + attribute.len()..];
        }
    }
    for fetch in ["<link", "fetch(", "xmlhttprequest", "<iframe", "websocket"] {
        assert!(!html.contains(fetch), "{fetch}");
    }
}

/// The page's data holds the first nodes only when asked, and says how many it
/// leaves out; `<` in names cannot end the data's script element.
#[test]
fn the_page_caps_its_nodes_and_escapes_names() {
    let mut model = Model::new();
    let x = model.int_vars(4, 1, 4).unwrap();
    model.set_name(x[0], "</script><b>").unwrap();
    model.all_different(x.iter().copied()).unwrap();
    let mut solver = Solver::new(model);
    let mut bytes = Vec::new();
    trace::count_traced(&mut solver, "<i>4</i>", &mut bytes, None, None).unwrap();
    let parsed = Trace::parse(&bytes[..]).unwrap();
    let page = parsed.to_html(ViewOptions { max_nodes: 10 });
    assert_eq!(
        page.matches("</script>").count(),
        2,
        "only the two script elements end"
    );
    assert!(page.contains("<title>&lt;i&gt;4&lt;/i&gt; - alldiff search tree</title>"));
    let data = page_data(&page);
    assert_eq!(data["variables"][0], "</script><b>");
    assert_eq!(data["parent"].as_array().unwrap().len(), 10);
    assert_eq!(
        data["trace_nodes"].as_u64().unwrap(),
        parsed.nodes().len() as u64
    );
    assert_eq!(
        data["summary"]["nodes"].as_u64().unwrap(),
        parsed.summary().nodes
    );
}

/// The command line on the issue's cases: a file cut by `head -n 100` is reported
/// incomplete with exit 1; a failed node's replay says so and names the
/// constraint; a capped tree marks its cuts; `-o -` writes the page to standard
/// output.
#[test]
fn the_command_line_on_cut_traces_failed_nodes_and_capped_trees() {
    let dir = scratch("cli");
    let (file, _) = sudoku_trace(dir.path());
    let text = std::fs::read_to_string(&file).unwrap();
    let head = dir.path().join("head.jsonl");
    let first: String = text.lines().take(100).map(|l| format!("{l}\n")).collect();
    std::fs::write(&head, first).unwrap();
    let run = Command::new(ALLDIFF)
        .args(["trace", "summary", head.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    let stdout = String::from_utf8(run.stdout).unwrap();
    assert!(
        stdout.starts_with("INCOMPLETE: the trace stops after line 100"),
        "{stdout}"
    );
    assert!(!stdout.contains("proof"), "{stdout}");
    assert!(
        String::from_utf8(run.stderr)
            .unwrap()
            .contains("before its final statistics")
    );
    // The whole file is complete: exit 0.
    let whole = alldiff(&["trace", "summary", file.to_str().unwrap()]);
    assert!(
        whole.contains("nodes: 366 (below the root; 367 in the tree)"),
        "{whole}"
    );
    assert!(whole.contains("%%%mzn-stat: nodes=366"));

    let parsed = Trace::parse(text.as_bytes()).unwrap();
    let failed = parsed
        .nodes()
        .iter()
        .find(|n| n.failed_by.is_some())
        .unwrap();
    let replayed = alldiff(&[
        "trace",
        "replay",
        file.to_str().unwrap(),
        "--node",
        &failed.id.to_string(),
    ]);
    assert!(
        replayed.starts_with(&format!(
            "node {} failed: constraint #0 all_different_system found no solution",
            failed.id
        )),
        "{replayed}"
    );
    let branch = alldiff(&["trace", "replay", file.to_str().unwrap(), "--node", "1"]);
    assert!(!branch.contains("failed"), "{branch}");

    let tree = alldiff(&[
        "trace",
        "tree",
        file.to_str().unwrap(),
        "--no-collapse",
        "--max-nodes",
        "60",
    ]);
    let drawn = tree
        .lines()
        .filter(|l| l.contains("[label=") && l.trim_start().starts_with('n') && !l.contains("->"))
        .count();
    assert_eq!(drawn, 60, "{tree}");
    assert!(tree.contains("style=dashed, label=\""), "{tree}");
    assert!(tree.contains("307 more nodes not shown"), "{tree}");

    let same = dir.path().join("trace.html");
    std::fs::copy(&file, &same).unwrap();
    let run = Command::new(ALLDIFF)
        .args(["trace", "view", same.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2), "never writes over the trace");
    assert_eq!(std::fs::read_to_string(&same).unwrap(), text);

    let page = alldiff(&["trace", "view", file.to_str().unwrap(), "-o", "-"]);
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert_eq!(page_data(&page)["summary"]["nodes"], 366);
}
