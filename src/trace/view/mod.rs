//! The search tree as one self-contained HTML page: `alldiff trace view`.
//!
//! The page is `template.html` with `viewer.css`, `viewer.js` and the trace's data
//! (JSON) put inline: it loads nothing else, so it works from `file://` and can be
//! kept or sent as one file. The data is compact: per node its parent, decision,
//! status and failing constraint, and the values its propagation removed, from
//! which the page rebuilds the domains at any node exactly as [`Trace::replay`]
//! does (the header's domains, then each node's decision and prunings from the
//! root down). The counts the page shows come from [`Trace::summary`].

use serde::Serialize;

use super::format::NodeStatus;
use super::read::Trace;
use super::summary::{ConstraintCount, Summary};
use crate::search::{Branch, Statistics};

const TEMPLATE: &str = include_str!("template.html");
const STYLE: &str = include_str!("viewer.css");
const SCRIPT: &str = include_str!("viewer.js");

/// How [`Trace::to_html`] builds the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ViewOptions {
    /// At most this many nodes (the root included, in search order) go into the
    /// page; the page says how many it leaves out. A node costs the page about 15
    /// bytes plus 2 to 6 per value its propagation removed: counting 11-queens
    /// (48,951 nodes) makes a 2.6 MB page.
    pub max_nodes: usize,
}

impl Default for ViewOptions {
    /// 200,000 nodes.
    fn default() -> Self {
        ViewOptions { max_nodes: 200_000 }
    }
}

/// The page's data, serialised as JSON into the page. Node `i` is described by
/// entry `i` of `parent`, `op`, `var`, `value`, `status`, `failed_by` and
/// `prune_len`; `op` and `status` are strings of one character per node.
#[derive(Serialize)]
struct ViewData<'a> {
    problem: &'a str,
    variables: Vec<&'a str>,
    domains: Vec<&'a [i32]>,
    constraints: Vec<&'a str>,
    /// The side of the candidate grid for a Sudoku trace.
    grid: Option<usize>,
    /// Nodes in the trace, the root included (the page may hold fewer).
    trace_nodes: usize,
    /// The parent of each node; -1 for the root.
    parent: Vec<i64>,
    /// The decision's operator: `=`, `!` (`!=`), `<` (`<=`), `>`; `.` for the root.
    op: String,
    var: Vec<u32>,
    value: Vec<i32>,
    /// `b` branch, `f` failed, `s` solution.
    status: String,
    /// The constraint that failed at a failed node; -1 when none did (the decision
    /// emptied a domain by itself) and for other nodes.
    failed_by: Vec<i64>,
    /// How many numbers of `prunes` each node has.
    prune_len: Vec<u32>,
    /// Per node, in order: `var, count, value...` for each group of values its
    /// propagation removed from one variable.
    prunes: Vec<i32>,
    summary: SummaryData<'a>,
    statistics: Option<&'a Statistics>,
    /// Why the trace does not hold the whole search, if it does not.
    incomplete: Option<String>,
}

/// The numbers of [`Summary`] the page shows.
#[derive(Serialize)]
struct SummaryData<'a> {
    nodes: u64,
    failures: u64,
    solutions: u64,
    tree_depth: u32,
    decision_depth: u32,
    depth_profile: &'a [u64],
    by_prunings: Vec<(u32, &'a str, u64)>,
    by_failures: Vec<(u32, &'a str, u64)>,
    decision_failures: u64,
    by_rule: &'a [(String, u64)],
}

fn counts(list: &[ConstraintCount]) -> Vec<(u32, &str, u64)> {
    list.iter()
        .map(|c| (c.constraint, c.kind.as_str(), c.count))
        .collect()
}

impl Trace {
    /// The search tree as one self-contained HTML page (script, style and data
    /// inline; nothing loaded from the network): the tree drawn top-down with the
    /// failed subtrees folded, zoom and pan; on a click, a node's decisions, domains
    /// (a candidate grid for a Sudoku trace), failing constraint and subtree counts;
    /// the statistics, the nodes per depth and the busiest constraints and rules;
    /// next and previous solution, go to node, search a variable. Opening the page
    /// with `#node=N` selects node N. See `docs/tracing.md`.
    ///
    /// ```
    /// # use alldiff::{Model, Solver};
    /// # use alldiff::trace::{self, Trace, ViewOptions};
    /// let mut model = Model::new();
    /// let q = model.int_vars(5, 1, 5)?;
    /// model.all_different(q.iter().copied())?;
    /// let mut solver = Solver::new(model);
    /// let mut file = Vec::new();
    /// trace::solve_traced(&mut solver, "5 all different", &mut file, None)?;
    /// let page = Trace::parse(&file[..])?.to_html(ViewOptions::default());
    /// assert!(page.starts_with("<!DOCTYPE html>"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_html(&self, options: ViewOptions) -> String {
        let summary = self.summary();
        let data = self.view_data(&summary, options);
        // `<` only appears inside JSON strings, where `\u003c` means the same: the
        // data cannot close its script element.
        let json = serde_json::to_string(&data)
            .unwrap_or_else(|_| String::from("null"))
            .replace('<', "\\u003c");
        let title = format!("{} - alldiff search tree", self.header().problem);
        let mut page =
            String::with_capacity(TEMPLATE.len() + STYLE.len() + SCRIPT.len() + json.len());
        let mut rest = TEMPLATE;
        // Each placeholder is filled once, in template order, so nothing inserted is
        // searched again.
        for (placeholder, content) in [
            ("{{TITLE}}", escape_html(&title)),
            ("{{STYLE}}", STYLE.to_owned()),
            ("{{DATA}}", json),
            ("{{SCRIPT}}", SCRIPT.to_owned()),
        ] {
            if let Some((before, after)) = rest.split_once(placeholder) {
                page.push_str(before);
                page.push_str(&content);
                rest = after;
            }
        }
        page.push_str(rest);
        page
    }

    fn view_data<'a>(&'a self, summary: &'a Summary, options: ViewOptions) -> ViewData<'a> {
        let header = self.header();
        let nodes = &self.nodes()[..self.nodes().len().min(options.max_nodes.max(1))];
        let mut data = ViewData {
            problem: &header.problem,
            variables: header.variables.iter().map(|v| v.name.as_str()).collect(),
            domains: header
                .variables
                .iter()
                .map(|v| v.domain.as_slice())
                .collect(),
            constraints: header.constraints.iter().map(|c| c.kind.as_str()).collect(),
            grid: header.grid_side(),
            trace_nodes: self.nodes().len(),
            parent: Vec::with_capacity(nodes.len()),
            op: String::with_capacity(nodes.len()),
            var: Vec::with_capacity(nodes.len()),
            value: Vec::with_capacity(nodes.len()),
            status: String::with_capacity(nodes.len()),
            failed_by: Vec::with_capacity(nodes.len()),
            prune_len: Vec::with_capacity(nodes.len()),
            prunes: Vec::new(),
            summary: SummaryData {
                nodes: summary.nodes,
                failures: summary.failures,
                solutions: summary.solutions,
                tree_depth: summary.tree_depth,
                decision_depth: summary.decision_depth,
                depth_profile: &summary.depth_profile,
                by_prunings: counts(&summary.by_prunings),
                by_failures: counts(&summary.by_failures),
                decision_failures: summary.decision_failures,
                by_rule: &summary.by_rule,
            },
            statistics: self.statistics(),
            incomplete: self.incomplete().map(|i| i.to_string()),
        };
        for node in nodes {
            data.parent.push(node.parent.map_or(-1, |p| p as i64));
            let (var, op, value) = node.decision.map_or((0, '.', 0), |(var, op, value)| {
                let op = match op {
                    Branch::Equal => '=',
                    Branch::NotEqual => '!',
                    Branch::LessEqual => '<',
                    Branch::Greater => '>',
                };
                (var, op, value)
            });
            data.op.push(op);
            data.var.push(var);
            data.value.push(value);
            data.status.push(match node.status {
                NodeStatus::Branch => 'b',
                NodeStatus::Failed => 'f',
                NodeStatus::Solution => 's',
            });
            data.failed_by.push(node.failed_by.map_or(-1, i64::from));
            let start = data.prunes.len();
            // Consecutive records on one variable (from different constraints or
            // rules) share one group.
            let mut group: Option<(u32, usize)> = None;
            for prune in &node.prunings {
                match group {
                    Some((var, at)) if var == prune.var => {
                        data.prunes[at + 1] += prune.values.len() as i32;
                    }
                    _ => {
                        group = Some((prune.var, data.prunes.len()));
                        data.prunes.push(prune.var as i32);
                        data.prunes.push(prune.values.len() as i32);
                    }
                }
                data.prunes.extend_from_slice(&prune.values);
            }
            data.prune_len.push((data.prunes.len() - start) as u32);
        }
        data
    }
}

/// Escapes text for an HTML element's content.
fn escape_html(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            _ => escaped.push(c),
        }
    }
    escaped
}
