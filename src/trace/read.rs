//! Reading a trace back: parsing, checking, the tree and replay.

use std::io::BufRead;

use super::format::{
    FORMAT_NAME, FORMAT_VERSION, Header, NodeRecord, NodeStatus, PruneRecord, Record,
    TruncatedRecord,
};
use crate::search::{Branch, Statistics};

/// What is wrong with a trace. Lines count from 1.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TraceError {
    /// The input could not be read (or is not UTF-8).
    #[error("line {line}: {source}")]
    Io {
        /// The line being read.
        line: usize,
        /// The reader's error.
        source: std::io::Error,
    },
    /// A line is not a valid trace record.
    #[error("line {line}: not a trace record: {source}")]
    Json {
        /// The line.
        line: usize,
        /// What the JSON parser said.
        source: serde_json::Error,
    },
    /// The input holds no records at all.
    #[error("the trace is empty")]
    Empty,
    /// The first record is not a header, or a second header appears.
    #[error("line {line}: expected the header only as the first record")]
    Header {
        /// The line.
        line: usize,
    },
    /// The header names another format or a version this crate cannot read.
    #[error("line 1: unsupported trace format {format:?} version {version}")]
    Unsupported {
        /// The header's `format`.
        format: String,
        /// The header's `version`.
        version: u32,
    },
    /// A record follows the final statistics record.
    #[error("line {line}: record after the final statistics")]
    AfterEnd {
        /// The line.
        line: usize,
    },
    /// Node ids must count up by one from the root, 0.
    #[error("line {line}: node {found} where node {expected} was expected")]
    NodeOrder {
        /// The line.
        line: usize,
        /// The next id.
        expected: u64,
        /// The id found.
        found: u64,
    },
    /// A node's parent, or a prune or failure record's node, is not (yet) declared,
    /// or a root-only or decision-only field is misplaced.
    #[error("line {line}: node {node}: {problem}")]
    BadNode {
        /// The line.
        line: usize,
        /// The node concerned.
        node: u64,
        /// What is wrong.
        problem: &'static str,
    },
    /// A record names a variable the header does not have.
    #[error("line {line}: no variable {var}")]
    UnknownVariable {
        /// The line.
        line: usize,
        /// The variable index.
        var: u32,
    },
    /// A record names a constraint the header does not have.
    #[error("line {line}: no constraint {constraint}")]
    UnknownConstraint {
        /// The line.
        line: usize,
        /// The constraint index.
        constraint: u32,
    },
    /// [`Trace::replay`] was asked for a node the trace does not have.
    #[error("the trace has no node {node}")]
    NoSuchNode {
        /// The node asked for.
        node: u64,
    },
}

/// A search node read from a trace, with what happened there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// Its id (its index in [`Trace::nodes`]).
    pub id: u64,
    /// Its parent; `None` for the root.
    pub parent: Option<u64>,
    /// Decisions from the root.
    pub depth: u32,
    /// The decision that made it: variable index, `=`, `!=`, `<=` or `>`, value. `None`
    /// for the root.
    pub decision: Option<(u32, Branch, i32)>,
    /// How its propagation ended.
    pub status: NodeStatus,
    /// What its propagation removed, in order.
    pub prunings: Vec<PruneRecord>,
    /// When it failed: the constraint that found it, or `None` for a decision that
    /// emptied a domain by itself. Always `None` for nodes that did not fail.
    pub failed_by: Option<u32>,
    /// Its children, in creation order (a choice's first branch before its second).
    pub children: Vec<u64>,
    /// When its propagation ended, in microseconds from the start of the recording,
    /// if the trace has times.
    pub time_us: Option<u64>,
}

/// Why a trace does not cover its whole search.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Incomplete {
    /// The recorder's event cap cut it; the final statistics describe the whole
    /// search, the events only its beginning.
    Capped(TruncatedRecord),
    /// The file stops after `lines` lines, before the final statistics record (the
    /// writing process died, or the file was cut). Its last node may lack some of
    /// its prunings or its failure record.
    EndsEarly {
        /// The lines read.
        lines: usize,
    },
}

impl std::fmt::Display for Incomplete {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Incomplete::Capped(cut) => write!(
                f,
                "the trace was cut at its event cap: {} events written, {} left out",
                cut.written, cut.dropped
            ),
            Incomplete::EndsEarly { lines } => write!(
                f,
                "the trace stops after line {lines}, before its final statistics record \
                 (the file was cut, or the search did not finish writing it)"
            ),
        }
    }
}

/// A parsed and checked trace.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    header: Header,
    nodes: Vec<Node>,
    truncated: Option<TruncatedRecord>,
    statistics: Option<Statistics>,
    /// Lines read (blank ones and a cut last line included).
    lines: usize,
}

impl Trace {
    /// Reads and checks a trace: a header first, node ids counting up from 0,
    /// every parent, variable and constraint declared before use. Blank lines are
    /// skipped. A trace without its final statistics (a search that was killed, a
    /// file cut short, even in the middle of its last line) is accepted;
    /// [`Trace::incomplete`] then says so and [`Trace::statistics`] is `None`.
    pub fn parse(mut input: impl BufRead) -> Result<Trace, TraceError> {
        let mut trace: Option<Trace> = None;
        let mut text = String::new();
        let mut line = 0;
        loop {
            text.clear();
            let read = input
                .read_line(&mut text)
                .map_err(|source| TraceError::Io {
                    line: line + 1,
                    source,
                })?;
            if read == 0 {
                break;
            }
            line += 1;
            if text.trim().is_empty() {
                continue;
            }
            let record: Record = match serde_json::from_str(&text) {
                Ok(record) => record,
                // A last line without its newline that does not parse was cut
                // while being written: the trace ends early, it is not corrupt.
                Err(_) if !text.ends_with('\n') && trace.is_some() => break,
                Err(source) => return Err(TraceError::Json { line, source }),
            };
            match (&mut trace, record) {
                (None, Record::Header(header)) => {
                    if header.format != FORMAT_NAME || header.version != FORMAT_VERSION {
                        return Err(TraceError::Unsupported {
                            format: header.format,
                            version: header.version,
                        });
                    }
                    trace = Some(Trace {
                        header,
                        nodes: Vec::new(),
                        truncated: None,
                        statistics: None,
                        lines: 0,
                    });
                }
                (None, _) | (Some(_), Record::Header(_)) => {
                    return Err(TraceError::Header { line });
                }
                (Some(trace), record) => trace.add(line, record)?,
            }
        }
        let mut trace = trace.ok_or(TraceError::Empty)?;
        trace.lines = line;
        Ok(trace)
    }

    fn add(&mut self, line: usize, record: Record) -> Result<(), TraceError> {
        if self.statistics.is_some() {
            return Err(TraceError::AfterEnd { line });
        }
        match record {
            Record::Header(_) => return Err(TraceError::Header { line }),
            Record::Node(node) => self.add_node(line, node)?,
            Record::Prune(prune) => {
                self.check_var(line, prune.var)?;
                self.check_constraint(line, prune.constraint)?;
                let node = self.latest(line, prune.node)?;
                node.prunings.push(prune);
            }
            Record::Failure(failure) => {
                if let Some(constraint) = failure.constraint {
                    self.check_constraint(line, constraint)?;
                }
                let node = self.latest(line, failure.node)?;
                if node.status != NodeStatus::Failed {
                    return Err(TraceError::BadNode {
                        line,
                        node: node.id,
                        problem: "a failure record for a node whose status is not failed",
                    });
                }
                node.failed_by = failure.constraint;
            }
            Record::Truncated(truncated) => self.truncated = Some(truncated),
            Record::Statistics(statistics) => self.statistics = Some(statistics),
        }
        Ok(())
    }

    fn add_node(&mut self, line: usize, record: NodeRecord) -> Result<(), TraceError> {
        let expected = self.nodes.len() as u64;
        if record.id != expected {
            return Err(TraceError::NodeOrder {
                line,
                expected,
                found: record.id,
            });
        }
        let bad = |problem| TraceError::BadNode {
            line,
            node: record.id,
            problem,
        };
        let decision = match (record.parent, record.var, record.op, record.value) {
            (None, None, None, None) if record.id == 0 && record.depth == 0 => None,
            (None, ..) => return Err(bad("only the root, node 0 at depth 0, has no parent")),
            (Some(parent), Some(var), Some(op), Some(value)) => {
                self.check_var(line, var)?;
                let parent = self
                    .nodes
                    .get_mut(parent as usize)
                    .ok_or(bad("its parent is not declared before it"))?;
                if parent.status != NodeStatus::Branch || parent.depth + 1 != record.depth {
                    return Err(bad(
                        "its parent did not branch, or its depth is not the parent's + 1",
                    ));
                }
                parent.children.push(record.id);
                Some((var, op, value))
            }
            (Some(_), ..) => return Err(bad("a node other than the root needs var, op and value")),
        };
        self.nodes.push(Node {
            id: record.id,
            parent: record.parent,
            depth: record.depth,
            decision,
            status: record.status,
            prunings: Vec::new(),
            failed_by: None,
            children: Vec::new(),
            time_us: record.time_us,
        });
        Ok(())
    }

    /// The latest node, which must be `id`: prunings and failures follow their node.
    fn latest(&mut self, line: usize, id: u64) -> Result<&mut Node, TraceError> {
        match self.nodes.last_mut() {
            Some(node) if node.id == id => Ok(node),
            _ => Err(TraceError::BadNode {
                line,
                node: id,
                problem: "prunings and failures must follow their node's record",
            }),
        }
    }

    fn check_var(&self, line: usize, var: u32) -> Result<(), TraceError> {
        if (var as usize) < self.header.variables.len() {
            Ok(())
        } else {
            Err(TraceError::UnknownVariable { line, var })
        }
    }

    fn check_constraint(&self, line: usize, constraint: u32) -> Result<(), TraceError> {
        if (constraint as usize) < self.header.constraints.len() {
            Ok(())
        } else {
            Err(TraceError::UnknownConstraint { line, constraint })
        }
    }

    /// The header: problem, variables, constraints.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Every node, indexed by id; the root first.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The node `id`, if the trace has it.
    pub fn node(&self, id: u64) -> Option<&Node> {
        usize::try_from(id).ok().and_then(|i| self.nodes.get(i))
    }

    /// The ids of the solution nodes, in the order found.
    pub fn solution_nodes(&self) -> Vec<u64> {
        self.nodes
            .iter()
            .filter(|n| n.status == NodeStatus::Solution)
            .map(|n| n.id)
            .collect()
    }

    /// Whether (and by how much) the event cap cut the trace.
    pub fn truncated(&self) -> Option<&TruncatedRecord> {
        self.truncated.as_ref()
    }

    /// The solver's statistics for the search; `None` if the trace stops early.
    pub fn statistics(&self) -> Option<&Statistics> {
        self.statistics.as_ref()
    }

    /// Why the trace does not hold the whole search, or `None` if it does: a
    /// complete trace ends with its statistics and was not cut by its cap. Counts
    /// read from an incomplete trace cover only the part written.
    pub fn incomplete(&self) -> Option<Incomplete> {
        match (&self.truncated, &self.statistics) {
            (Some(cut), _) => Some(Incomplete::Capped(cut.clone())),
            (None, None) => Some(Incomplete::EndsEarly { lines: self.lines }),
            (None, Some(_)) => None,
        }
    }

    /// The ids from the root down to `id`, both included.
    pub fn path(&self, id: u64) -> Result<Vec<u64>, TraceError> {
        let mut node = self.node(id).ok_or(TraceError::NoSuchNode { node: id })?;
        let mut path = vec![node.id];
        while let Some(parent) = node.parent.and_then(|p| self.node(p)) {
            path.push(parent.id);
            node = parent;
        }
        path.reverse();
        Ok(path)
    }

    /// The domain of every variable at node `id`, after its propagation: the
    /// header's domains, then for each node from the root down to `id` its decision
    /// and its prunings. Indexed by variable; each domain ascending. At a failed
    /// node some domain may be empty.
    pub fn replay(&self, id: u64) -> Result<Vec<Vec<i32>>, TraceError> {
        let mut domains: Vec<Vec<i32>> = self
            .header
            .variables
            .iter()
            .map(|v| v.domain.clone())
            .collect();
        for step in self.path(id)? {
            let Some(node) = self.node(step) else {
                continue;
            };
            if let Some((var, op, value)) = node.decision
                && let Some(domain) = domains.get_mut(var as usize)
            {
                domain.retain(|&v| op.admits(value, v));
            }
            for prune in &node.prunings {
                if let Some(domain) = domains.get_mut(prune.var as usize) {
                    domain.retain(|v| !prune.values.contains(v));
                }
            }
        }
        Ok(domains)
    }

    /// The name of variable `var` in the header, or `#var`.
    pub fn var_name(&self, var: u32) -> String {
        self.header
            .variables
            .get(var as usize)
            .map_or_else(|| format!("#{var}"), |v| v.name.clone())
    }

    /// The kind of constraint `constraint` in the header, or `unknown`.
    pub fn constraint_kind(&self, constraint: u32) -> &str {
        self.header
            .constraints
            .get(constraint as usize)
            .map_or("unknown", |c| c.kind.as_str())
    }
}
