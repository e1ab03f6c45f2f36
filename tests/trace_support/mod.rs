//! What the trace tests share: the "one truth" check that `trace summary`,
//! `trace tree`, the viewer's data and the solver's statistics agree, and reading
//! the viewer's data back out of its page.

use std::collections::HashMap;

use alldiff::trace::{DotOptions, NodeStatus, Trace, ViewOptions};
use serde_json::Value;

/// The JSON the page embeds for its script.
pub fn page_data(page: &str) -> Value {
    let start_tag = "<script type=\"application/json\" id=\"trace-data\">";
    let start = page.find(start_tag).expect("the page embeds its data") + start_tag.len();
    let end = start + page[start..].find("</script>").expect("the data ends");
    serde_json::from_str(&page[start..end]).expect("the data is JSON")
}

/// Nodes (below the root), failures, solutions and tree depth as one source sees
/// them.
#[derive(Debug, PartialEq, Eq)]
pub struct Counts {
    pub nodes: u64,
    pub failures: u64,
    pub solutions: u64,
    pub tree_depth: u64,
}

/// The counts in `trace summary`'s text.
fn from_summary_text(text: &str) -> Counts {
    let field = |name: &str| -> u64 {
        let line = text
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("`{name}` in the summary:\n{text}"));
        line[name.len()..]
            .split_whitespace()
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("a number after `{name}`: {line}"))
    };
    Counts {
        nodes: field("nodes: "),
        failures: field("failures: "),
        solutions: field("solutions: "),
        tree_depth: field("tree depth: "),
    }
}

/// The counts in the full (uncapped, unfolded) DOT tree: its boxes, red boxes,
/// double circles and longest chain of edges.
fn from_dot(dot: &str) -> Counts {
    let mut depth: HashMap<&str, u64> = HashMap::new();
    let (mut boxes, mut failures, mut solutions) = (0u64, 0, 0);
    for line in dot.lines().map(str::trim) {
        let Some((head, attributes)) = line.split_once(" [") else {
            continue;
        };
        match head.split_once(" -> ") {
            Some((from, to)) => {
                let d = depth.get(from).copied().expect("parents come first") + 1;
                depth.insert(to, d);
            }
            None if head.starts_with('n') && head[1..].parse::<u64>().is_ok() => {
                boxes += 1;
                depth.entry(head).or_insert(0);
                failures += u64::from(attributes.contains("#f4b6b6"));
                solutions += u64::from(attributes.contains("doublecircle"));
            }
            None => {}
        }
    }
    Counts {
        nodes: boxes - 1,
        failures,
        solutions,
        tree_depth: depth.values().copied().max().unwrap_or(0),
    }
}

/// The counts in the viewer's data: its nodes, and the summary it shows.
fn from_view(data: &Value) -> (Counts, Counts) {
    let parent: Vec<i64> = serde_json::from_value(data["parent"].clone()).unwrap();
    let status = data["status"].as_str().unwrap();
    assert_eq!(status.len(), parent.len());
    let mut depth = vec![0u64; parent.len()];
    for i in 1..parent.len() {
        depth[i] = depth[parent[i] as usize] + 1;
    }
    let nodes = Counts {
        nodes: parent.len() as u64 - 1,
        failures: status.matches('f').count() as u64,
        solutions: status.matches('s').count() as u64,
        tree_depth: depth.iter().copied().max().unwrap_or(0),
    };
    let s = &data["summary"];
    let shown = Counts {
        nodes: s["nodes"].as_u64().unwrap(),
        failures: s["failures"].as_u64().unwrap(),
        solutions: s["solutions"].as_u64().unwrap(),
        tree_depth: s["tree_depth"].as_u64().unwrap(),
    };
    (nodes, shown)
}

/// Checks that the summary (struct and text), the DOT tree, the viewer's data and
/// (for a complete trace) the solver's statistics agree on nodes, failures,
/// solutions and depth. Returns the counts.
pub fn one_truth(trace: &Trace) -> Counts {
    let summary = trace.summary();
    let counts = Counts {
        nodes: summary.nodes,
        failures: summary.failures,
        solutions: summary.solutions,
        tree_depth: u64::from(summary.tree_depth),
    };
    // The summary counts what the trace holds.
    let held = trace.nodes();
    assert_eq!(counts.nodes + 1, held.len() as u64);
    assert_eq!(
        counts.failures,
        held.iter()
            .filter(|n| n.status == NodeStatus::Failed)
            .count() as u64
    );
    assert_eq!(summary.depth_profile.iter().sum::<u64>(), counts.nodes + 1);
    assert_eq!(summary.depth_profile.len() as u64, counts.tree_depth + 1);
    assert!(summary.decision_depth <= summary.tree_depth);

    assert_eq!(
        from_summary_text(&summary.to_string()),
        counts,
        "summary text"
    );
    let dot = trace.to_dot(DotOptions {
        max_nodes: usize::MAX,
        collapse_failed: false,
    });
    assert_eq!(from_dot(&dot), counts, "trace tree");
    let page = trace.to_html(ViewOptions {
        max_nodes: usize::MAX,
    });
    let data = page_data(&page);
    let (view_nodes, view_shown) = from_view(&data);
    assert_eq!(view_nodes, counts, "the viewer's tree");
    assert_eq!(view_shown, counts, "the viewer's summary");
    assert_eq!(
        data["summary"]["decision_depth"].as_u64(),
        Some(u64::from(summary.decision_depth))
    );
    match (trace.incomplete(), trace.statistics()) {
        (None, Some(stats)) => {
            let solver = Counts {
                nodes: stats.nodes,
                failures: stats.failures,
                solutions: stats.solutions,
                tree_depth: counts.tree_depth,
            };
            assert_eq!(solver, counts, "the solver's statistics");
            assert_eq!(stats.peak_depth, summary.decision_depth, "peakDepth");
            assert_eq!(&data["statistics"], &serde_json::to_value(stats).unwrap());
        }
        (incomplete, _) => {
            assert!(incomplete.is_some());
            assert!(summary.to_string().starts_with("INCOMPLETE: "));
            assert!(data["incomplete"].is_string());
        }
    }
    counts
}
