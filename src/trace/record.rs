//! Writing a trace while the search runs.

use std::io::{self, BufWriter, Write};
use std::time::Instant;

use super::format::{
    ConstraintInfo, FORMAT_NAME, FORMAT_VERSION, FailureRecord, Header, NodeRecord, NodeStatus,
    PruneRecord, Record, TruncatedRecord, VariableInfo,
};
use crate::ids::ConstraintId;
use crate::propagator::Pruning;
use crate::search::{Count, Decision, Outcome, SearchObserver, Solver, Statistics, clock_now};

/// A [`SearchObserver`] that writes the search as a trace (see the
/// [module docs](crate::trace)). Wrap unbuffered writers (files) in a
/// [`BufWriter`]: the recorder writes one line per event.
///
/// A node's line is written once its propagation has ended, followed by its prune
/// lines and, if it failed, its failure line. After `max_events` event lines, the
/// recorder stops writing and counts what it leaves out; [`TraceRecorder::finish`]
/// then writes a `truncated` record before the statistics.
///
/// The first write error stops the recording; [`TraceRecorder::finish`] returns it.
#[derive(Debug)]
pub struct TraceRecorder<W: Write> {
    writer: W,
    max_events: Option<u64>,
    written: u64,
    dropped: u64,
    error: Option<io::Error>,
    pending: Option<NodeRecord>,
    pending_prunes: Vec<PruneRecord>,
    line: Vec<u8>,
    /// When the recording started: node times count from here (none without a clock).
    started: Option<Instant>,
}

/// What a [`TraceRecorder`] wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Written {
    /// Event lines written (nodes, prunings, failures).
    pub events: u64,
    /// Event lines left out because of the cap.
    pub dropped: u64,
}

impl Written {
    /// Whether the cap cut the trace.
    pub fn truncated(&self) -> bool {
        self.dropped > 0
    }
}

impl Header {
    /// The header describing the problem `solver` is about to search: its variables
    /// (names, and domains with the assumptions applied) and constraints.
    pub fn describe(solver: &Solver, problem: &str) -> Header {
        let model = solver.model();
        let domains = solver.start_domains();
        Header {
            format: FORMAT_NAME.to_string(),
            version: FORMAT_VERSION,
            problem: problem.to_string(),
            variables: model
                .vars()
                .zip(domains)
                .map(|(var, domain)| VariableInfo {
                    name: model.name(var),
                    domain,
                })
                .collect(),
            constraints: (0..model.constraint_count() as u32)
                .map(|c| ConstraintInfo {
                    kind: model
                        .constraint_name(ConstraintId(c))
                        .unwrap_or("unknown")
                        .to_string(),
                })
                .collect(),
        }
    }
}

impl<W: Write> TraceRecorder<W> {
    /// A recorder for one search, writing `header` at once (see
    /// [`Header::describe`]). At most `max_events` event lines follow (`None`: no
    /// cap). Turn on [`Solver::stream_prunings`] to have prunings in the trace. Use a
    /// new recorder for each search: node ids start again from the root.
    pub fn new(mut writer: W, header: Header, max_events: Option<u64>) -> io::Result<Self> {
        let mut line = serde_json::to_vec(&Record::Header(header))?;
        line.push(b'\n');
        writer.write_all(&line)?;
        Ok(TraceRecorder {
            writer,
            max_events,
            written: 0,
            dropped: 0,
            error: None,
            pending: Some(root(NodeStatus::Branch)),
            pending_prunes: Vec::new(),
            line,
            started: clock_now(),
        })
    }

    /// Writes what is pending, the `truncated` record if the cap cut the trace, and
    /// `statistics` (pass the solver's, after the search); then flushes.
    pub fn finish(mut self, statistics: &Statistics) -> io::Result<Written> {
        self.flush_pending();
        if self.dropped > 0 {
            let truncated = Record::Truncated(TruncatedRecord {
                written: self.written,
                dropped: self.dropped,
            });
            self.write_line(&truncated);
        }
        self.write_line(&Record::Statistics(statistics.clone()));
        if let Some(error) = self.error.take() {
            return Err(error);
        }
        self.writer.flush()?;
        Ok(Written {
            events: self.written,
            dropped: self.dropped,
        })
    }

    /// Writes one event line, unless the cap was reached or a write failed.
    fn event(&mut self, record: &Record) {
        if self.max_events.is_some_and(|cap| self.written >= cap) {
            self.dropped += 1;
            return;
        }
        if self.write_line(record) {
            self.written += 1;
        }
    }

    fn write_line(&mut self, record: &Record) -> bool {
        if self.error.is_some() {
            return false;
        }
        self.line.clear();
        let result = serde_json::to_writer(&mut self.line, record)
            .map_err(io::Error::from)
            .and_then(|()| {
                self.line.push(b'\n');
                self.writer.write_all(&self.line)
            });
        match result {
            Ok(()) => true,
            Err(error) => {
                self.error = Some(error);
                false
            }
        }
    }

    fn flush_pending(&mut self) {
        if let Some(mut node) = self.pending.take() {
            node.time_us = self.now_us();
            self.event(&Record::Node(node));
        }
        let mut prunes = std::mem::take(&mut self.pending_prunes);
        for prune in prunes.drain(..) {
            self.event(&Record::Prune(prune));
        }
        self.pending_prunes = prunes;
    }

    /// The pending node's propagation ended with `status`: write it out.
    fn settle(&mut self, status: NodeStatus) {
        if let Some(pending) = self.pending.as_mut() {
            pending.status = status;
        }
        self.flush_pending();
    }

    /// Microseconds since the recording started.
    fn now_us(&self) -> Option<u64> {
        u64::try_from(self.started?.elapsed().as_micros()).ok()
    }
}

fn root(status: NodeStatus) -> NodeRecord {
    NodeRecord {
        id: 0,
        parent: None,
        depth: 0,
        var: None,
        op: None,
        value: None,
        status,
        time_us: None,
    }
}

impl<W: Write> SearchObserver for TraceRecorder<W> {
    fn on_decision(&mut self, decision: &Decision) {
        self.flush_pending();
        self.pending = Some(NodeRecord {
            id: decision.node,
            parent: Some(decision.parent),
            depth: decision.depth,
            var: Some(decision.var.raw()),
            op: Some(decision.branch),
            value: Some(decision.value),
            status: NodeStatus::Branch,
            time_us: None,
        });
    }

    fn on_prunings(&mut self, node: u64, prunings: &[Pruning]) {
        for pruning in prunings {
            match self.pending_prunes.last_mut() {
                Some(last)
                    if last.node == node
                        && last.constraint == pruning.constraint.0
                        && last.var == pruning.var.raw()
                        && last.rule == pruning.label.name() =>
                {
                    last.values.push(pruning.value);
                }
                _ => self.pending_prunes.push(PruneRecord {
                    node,
                    constraint: pruning.constraint.0,
                    rule: pruning.label.name().to_owned(),
                    var: pruning.var.raw(),
                    values: vec![pruning.value],
                }),
            }
        }
    }

    fn on_failure(&mut self, node: u64, constraint: Option<ConstraintId>) {
        self.settle(NodeStatus::Failed);
        self.event(&Record::Failure(FailureRecord {
            node,
            constraint: constraint.map(|c| c.0),
        }));
    }

    fn on_solution(&mut self, _node: u64) {
        self.settle(NodeStatus::Solution);
    }
}

/// Runs `f` on `solver` with prunings streamed to a recorder of `writer`, then
/// restores the solver's pruning mode and finishes the trace.
fn traced<W: Write, T>(
    solver: &mut Solver,
    problem: &str,
    writer: W,
    max_events: Option<u64>,
    f: impl FnOnce(&mut Solver, &mut TraceRecorder<BufWriter<W>>) -> T,
) -> io::Result<(T, Written)> {
    let header = Header::describe(solver, problem);
    let mut recorder = TraceRecorder::new(BufWriter::new(writer), header, max_events)?;
    let mode = solver.pruning_mode();
    solver.stream_prunings(true);
    let result = f(solver, &mut recorder);
    match mode {
        None => solver.record_prunings(false),
        Some(false) => solver.record_prunings(true),
        Some(true) => solver.stream_prunings(true),
    }
    let written = recorder.finish(solver.statistics())?;
    Ok((result, written))
}

/// [`Solver::solve`], writing a trace named `problem` to `writer` (buffered here),
/// with at most `max_events` event lines. The solver's pruning mode is restored
/// afterwards (prunings it kept before are dropped).
///
/// Errors are the writer's; the search itself always runs to its end.
pub fn solve_traced<W: Write>(
    solver: &mut Solver,
    problem: &str,
    writer: W,
    max_events: Option<u64>,
) -> io::Result<(Outcome, Written)> {
    traced(solver, problem, writer, max_events, |solver, recorder| {
        solver.solve_observed(recorder)
    })
}

/// [`Solver::count`] up to `limit` solutions, writing a trace as
/// [`solve_traced`] does.
pub fn count_traced<W: Write>(
    solver: &mut Solver,
    problem: &str,
    writer: W,
    max_events: Option<u64>,
    limit: Option<u64>,
) -> io::Result<(Count, Written)> {
    traced(solver, problem, writer, max_events, |solver, recorder| {
        solver.count_observed(limit, recorder)
    })
}
