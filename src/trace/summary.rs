//! What a trace says in a few numbers.

use std::fmt;

use super::format::NodeStatus;
use super::read::{Incomplete, Trace};
use crate::search::Statistics;

/// A constraint and how often something happened to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConstraintCount {
    /// The constraint's index in the header.
    pub constraint: u32,
    /// Its kind.
    pub kind: String,
    /// Values it removed, or failures it found.
    pub count: u64,
}

/// The shape of a recorded search. Counts are of what the trace holds; for a
/// complete trace `nodes`, `failures`, `solutions` and `decision_depth` equal the
/// solver's [`Statistics`] (`nodes`, `failures`, `solutions`, `peak_depth`).
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// The problem's name.
    pub problem: String,
    /// Nodes made by decisions, the root excluded, as [`Statistics::nodes`]: the
    /// tree has `nodes + 1` nodes.
    pub nodes: u64,
    /// Failed nodes (the root included), as [`Statistics::failures`].
    pub failures: u64,
    /// Solution nodes.
    pub solutions: u64,
    /// The depth of the deepest node, in decisions from the root, second branches
    /// (`x != v`) included: how deep the drawn tree is.
    pub tree_depth: u32,
    /// The most choices open at once on the solver's stack, as
    /// [`Statistics::peak_depth`]: the decisions on a node's path whose second
    /// branch was still to come. A second branch closes its choice, so this is at
    /// most `tree_depth`.
    pub decision_depth: u32,
    /// Nodes at each tree depth: index 0 is the root; they add up to `nodes + 1`.
    pub depth_profile: Vec<u64>,
    /// Values removed per constraint, most first; constraints that removed nothing
    /// are left out.
    pub by_prunings: Vec<ConstraintCount>,
    /// Failures found per constraint, most first; constraints that found none are
    /// left out.
    pub by_failures: Vec<ConstraintCount>,
    /// Failures of a decision that emptied a domain before any constraint ran.
    pub decision_failures: u64,
    /// Values removed per rule, most first.
    pub by_rule: Vec<(String, u64)>,
    /// Why the trace does not hold the whole search, if it does not: then the
    /// counts above cover only the part written.
    pub incomplete: Option<Incomplete>,
    /// The solver's statistics, if the trace has them.
    pub statistics: Option<Statistics>,
    /// Where the time went, if the trace is complete and has node times.
    pub phases: Option<Phases>,
}

/// The search's time split into phases, in microseconds, from the node times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Phases {
    /// Propagating the root, before the first decision.
    pub root: u64,
    /// From the root's fixpoint to the first solution; `None` if there was none.
    pub to_first_solution: Option<u64>,
    /// From the first solution to the last one (0 with a single solution).
    pub between_solutions: Option<u64>,
    /// After the last solution (or the root, with none) to the end of the search:
    /// proving there is no other solution, or none at all.
    pub after_last_solution: u64,
}

impl Phases {
    /// The phases of `trace`, if it is complete and every node has a time.
    fn of(trace: &Trace) -> Option<Phases> {
        if trace.incomplete().is_some() {
            return None;
        }
        let times: Option<Vec<u64>> = trace.nodes().iter().map(|n| n.time_us).collect();
        let times = times?;
        let root = *times.first()?;
        let solutions: Vec<u64> = trace
            .nodes()
            .iter()
            .zip(&times)
            .filter(|(node, _)| node.status == NodeStatus::Solution)
            .map(|(_, &time)| time)
            .collect();
        let last_node = times.iter().copied().max().unwrap_or(root);
        let end = trace
            .statistics()
            .and_then(|s| u64::try_from(s.solve_time.as_micros()).ok())
            .map_or(last_node, |solve| solve.max(last_node));
        let first = solutions.iter().copied().min();
        let last = solutions.iter().copied().max();
        Some(Phases {
            root,
            to_first_solution: first.map(|t| t.saturating_sub(root)),
            between_solutions: first.zip(last).map(|(a, b)| b - a),
            after_last_solution: end.saturating_sub(last.unwrap_or(root)),
        })
    }
}

impl Trace {
    /// Counts nodes, failures, solutions, nodes per depth, and the constraints and
    /// rules that did the most.
    pub fn summary(&self) -> Summary {
        let constraints = self.header().constraints.len();
        let mut prunings = vec![0u64; constraints];
        let mut failures_by = vec![0u64; constraints];
        let mut rules: Vec<(String, u64)> = Vec::new();
        let mut depth_profile: Vec<u64> = Vec::new();
        let (mut failures, mut solutions, mut decision_failures) = (0, 0, 0);
        for node in self.nodes() {
            let depth = node.depth as usize;
            if depth_profile.len() <= depth {
                depth_profile.resize(depth + 1, 0);
            }
            depth_profile[depth] += 1;
            match node.status {
                NodeStatus::Failed => {
                    failures += 1;
                    match node.failed_by {
                        Some(c) => failures_by[c as usize] += 1,
                        None => decision_failures += 1,
                    }
                }
                NodeStatus::Solution => solutions += 1,
                NodeStatus::Branch => {}
            }
            for prune in &node.prunings {
                let removed = prune.values.len() as u64;
                prunings[prune.constraint as usize] += removed;
                match rules.iter_mut().find(|(rule, _)| *rule == prune.rule) {
                    Some((_, count)) => *count += removed,
                    None => rules.push((prune.rule.clone(), removed)),
                }
            }
        }
        rules.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let decision_depth = self.open_choices().into_iter().max().unwrap_or(0);
        Summary {
            problem: self.header().problem.clone(),
            nodes: (self.nodes().len() as u64).saturating_sub(1),
            failures,
            solutions,
            tree_depth: depth_profile.len().saturating_sub(1) as u32,
            decision_depth,
            depth_profile,
            by_prunings: ranked(self, &prunings),
            by_failures: ranked(self, &failures_by),
            decision_failures,
            by_rule: rules,
            incomplete: self.incomplete(),
            statistics: self.statistics().cloned(),
            phases: Phases::of(self),
        }
    }
}

impl Trace {
    /// For each node, the choices open on the solver's stack while it is searched:
    /// its parent's, plus one if it is a first branch. A node is a second branch
    /// when it follows a sibling on the same variable and value with the opposite
    /// operator (`x = v` then `x != v`, `x <= v` then `x > v`, or the reverse);
    /// any other child (the first, or one made after a restart) opens a choice.
    pub fn open_choices(&self) -> Vec<u32> {
        let nodes = self.nodes();
        let mut open = vec![0u32; nodes.len()];
        for node in nodes {
            let mut previous: Option<(u32, crate::search::Branch, i32)> = None;
            for &child in &node.children {
                let decision = nodes[child as usize].decision;
                let second = matches!(
                    (previous, decision),
                    (Some((pv, pop, pval)), Some((v, op, val)))
                        if pv == v && pval == val && pop.negated() == op
                );
                open[child as usize] = open[node.id as usize] + u32::from(!second);
                previous = decision;
            }
        }
        open
    }
}

/// The nonzero counts, largest first (ties by constraint index).
fn ranked(trace: &Trace, counts: &[u64]) -> Vec<ConstraintCount> {
    let mut ranked: Vec<ConstraintCount> = counts
        .iter()
        .enumerate()
        .filter(|&(_, &count)| count > 0)
        .map(|(c, &count)| ConstraintCount {
            constraint: c as u32,
            kind: trace.constraint_kind(c as u32).to_string(),
            count,
        })
        .collect();
    ranked.sort_by(|a, b| b.count.cmp(&a.count).then(a.constraint.cmp(&b.constraint)));
    ranked
}

impl fmt::Display for Summary {
    /// A few lines of `name: value`, the lists as `#constraint kind: count`. An
    /// incomplete trace says so on its first line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(incomplete) = &self.incomplete {
            writeln!(
                f,
                "INCOMPLETE: {incomplete}; the counts below cover only the part written"
            )?;
        }
        writeln!(f, "problem: {}", self.problem)?;
        writeln!(
            f,
            "nodes: {} (below the root; {} in the tree)",
            self.nodes,
            self.nodes + 1
        )?;
        writeln!(f, "failures: {}", self.failures)?;
        writeln!(f, "solutions: {}", self.solutions)?;
        writeln!(
            f,
            "tree depth: {} (the deepest node, second branches counted)",
            self.tree_depth
        )?;
        writeln!(
            f,
            "decision depth: {} (the most choices open at once, as peakDepth)",
            self.decision_depth
        )?;
        let profile: Vec<String> = self.depth_profile.iter().map(u64::to_string).collect();
        writeln!(f, "nodes per tree depth, root first: {}", profile.join(" "))?;
        writeln!(f, "values removed by constraint:")?;
        for c in &self.by_prunings {
            writeln!(f, "  #{} {}: {}", c.constraint, c.kind, c.count)?;
        }
        writeln!(f, "failures by constraint:")?;
        for c in &self.by_failures {
            writeln!(f, "  #{} {}: {}", c.constraint, c.kind, c.count)?;
        }
        if self.decision_failures > 0 {
            writeln!(f, "  (a decision alone): {}", self.decision_failures)?;
        }
        writeln!(f, "values removed by rule:")?;
        for (rule, count) in &self.by_rule {
            writeln!(f, "  {rule}: {count}")?;
        }
        if let Some(phases) = &self.phases {
            writeln!(f, "time per phase (microseconds):")?;
            writeln!(f, "  root propagation: {}", phases.root)?;
            if let Some(t) = phases.to_first_solution {
                writeln!(f, "  search to the first solution: {t}")?;
            }
            if let Some(t) = phases.between_solutions.filter(|&t| t > 0) {
                writeln!(f, "  from the first to the last solution: {t}")?;
            }
            let proof = if phases.to_first_solution.is_some() {
                "after the last solution (proof that there is no other)"
            } else {
                "search (proof that there is no solution)"
            };
            writeln!(f, "  {proof}: {}", phases.after_last_solution)?;
        }
        match &self.statistics {
            Some(stats) => write!(f, "solver statistics (the whole search):\n{stats}"),
            None => write!(f, "solver statistics: missing (the trace stops early)"),
        }
    }
}
