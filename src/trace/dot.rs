//! The search tree as Graphviz DOT text.

use std::fmt::Write;

use super::format::NodeStatus;
use super::read::Trace;

/// How [`Trace::to_dot`] draws the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DotOptions {
    /// At most this many boxes (nodes or collapsed subtrees), the top of the tree
    /// (breadth-first); each drawn node whose children were cut gets a dashed box
    /// counting the nodes left out below it, and one note counts them all.
    pub max_nodes: usize,
    /// Draw each maximal subtree of two or more nodes that holds no solution and
    /// whose every leaf failed as one box labelled with its size.
    pub collapse_failed: bool,
}

impl Default for DotOptions {
    /// 500 boxes, failed subtrees collapsed.
    fn default() -> Self {
        DotOptions {
            max_nodes: 500,
            collapse_failed: true,
        }
    }
}

impl Trace {
    /// The search tree in Graphviz DOT: node `nN` for node N, edges labelled with
    /// the decision. Solutions are green double circles, failures red boxes,
    /// collapsed failed subtrees grey boxes, nodes cut by the cap dashed boxes
    /// (`cutN`, under node N). Render with `dot -Tsvg`.
    pub fn to_dot(&self, options: DotOptions) -> String {
        let nodes = self.nodes();
        let n = nodes.len();
        // Subtree sizes and "dead" (no solution, every leaf failed), bottom-up:
        // children always have larger ids than their parent.
        let mut size = vec![1u64; n];
        let mut dead = vec![false; n];
        for node in nodes.iter().rev() {
            let i = node.id as usize;
            dead[i] = if node.children.is_empty() {
                node.status == NodeStatus::Failed
            } else {
                node.children.iter().all(|&c| dead[c as usize])
            };
            if let Some(p) = node.parent {
                size[p as usize] += size[i];
            }
        }
        let mut out = String::from("digraph search {\n  node [fontname=\"Helvetica\"];\n");
        out.push_str("  edge [fontname=\"Helvetica\", fontsize=10];\n");
        let mut shown = vec![false; n];
        let mut collapsed = vec![false; n];
        // Nodes the cap leaves out, counted at their drawn parent.
        let mut cut = vec![0u64; n];
        let mut boxes = 0;
        let mut left_out = 0u64;
        // Breadth-first (by depth, then search order): a cap keeps the top of the
        // tree, every drawn node's parent is drawn, and each cut is marked where
        // it happens.
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| (nodes[i].depth, i));
        for i in order {
            let node = &nodes[i];
            let parent = node.parent.map(|p| p as usize);
            if parent.is_some_and(|p| !shown[p] || collapsed[p]) {
                continue;
            }
            if boxes >= options.max_nodes {
                left_out += size[i];
                if let Some(p) = parent {
                    cut[p] += size[i];
                }
                continue;
            }
            boxes += 1;
            shown[i] = true;
            collapsed[i] = options.collapse_failed && dead[i] && size[i] > 1;
            let (label, style) = if collapsed[i] {
                (
                    format!("{} nodes\\nall failed", size[i]),
                    "shape=box, style=filled, fillcolor=\"#dddddd\"",
                )
            } else {
                match node.status {
                    NodeStatus::Solution => (
                        node.id.to_string(),
                        "shape=doublecircle, style=filled, fillcolor=\"#b8e6b8\"",
                    ),
                    NodeStatus::Failed => (
                        node.id.to_string(),
                        "shape=box, style=filled, fillcolor=\"#f4b6b6\"",
                    ),
                    NodeStatus::Branch => (node.id.to_string(), "shape=circle"),
                }
            };
            let _ = writeln!(out, "  n{} [label=\"{}\", {}];", node.id, label, style);
            if let (Some(p), Some((var, op, value))) = (parent, node.decision) {
                let decision = format!("{} {} {}", self.var_name(var), op.symbol(), value);
                let _ = writeln!(
                    out,
                    "  n{p} -> n{} [label=\"{}\"];",
                    node.id,
                    escape(&decision)
                );
            }
        }
        for (i, &count) in cut.iter().enumerate().filter(|(_, c)| **c > 0) {
            let _ = writeln!(
                out,
                "  cut{i} [shape=box, style=dashed, label=\"{count} more nodes\\nnot shown\"];"
            );
            let _ = writeln!(out, "  n{i} -> cut{i} [style=dashed];");
        }
        if left_out > 0 {
            let _ = writeln!(
                out,
                "  more [shape=plaintext, label=\"{left_out} more nodes not shown (dashed boxes: where the cap cut)\"];"
            );
        }
        out.push_str("}\n");
        out
    }
}

/// Escapes a DOT double-quoted string.
fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '"' | '\\' => {
                escaped.push('\\');
                escaped.push(c);
            }
            '\n' => escaped.push_str("\\n"),
            _ => escaped.push(c),
        }
    }
    escaped
}
