//! Circuit and subcircuit: successor variables that form one Hamiltonian cycle (or one
//! cycle through some of the nodes).
//!
//! Node `i` (counted from 0 in the array) has the successor variable `succ[i]`, whose
//! value `offset + j` says that the tour goes from `i` to `j`: `offset` is 0 for
//! 0-based successors and 1 for MiniZinc's 1-based arrays. The all-different part
//! (the successors form a permutation) is posted beside this propagator by
//! [`Model::circuit`](crate::Model::circuit) as a domain-consistent
//! [`AllDifferent`](crate::constraints::AllDifferent); this propagator adds what a
//! permutation alone does not say: one cycle, not several.

use crate::error::ModelError;
use crate::ids::{VarId, View};
use crate::propagator::{Conflict, Context, InferenceLabel, PostContext, Propagator, Wake};

/// No node.
const NONE: u32 = u32::MAX;

/// The no-subtour part of `circuit` and `subcircuit` over successor views. Built by
/// [`Model::circuit`](crate::Model::circuit) and
/// [`Model::subcircuit`](crate::Model::subcircuit), which post a domain-consistent
/// all-different beside it.
///
/// Each call, with n nodes and d values in all the successors' domains:
///
/// - successors leave `offset..offset + n`, and (circuit with n > 1) no node is its
///   own successor;
/// - *path ends* (Caseau and Laburthe): the fixed successors form chains; the end `e`
///   of a chain that starts at `s` and is shorter than the tour cannot go back to `s`,
///   and must when the chain holds every node. For a subcircuit a chain may close
///   only when no node outside it must be in the cycle, its end is in the cycle
///   (it is not its own successor), and a closed cycle puts every other node out;
/// - circuit only: the graph of the possible successors must be strongly connected
///   (every node reachable from node 0 and reaching it), else the call fails.
///
/// Cost O(n + d) per call, with no allocation once the scratch vectors have grown;
/// the range and self-loops are cut on the first call of a search only (a trailed
/// flag), and a graph of at most 64 nodes with one-word domains is searched in words.
/// Two fixed successors with the same value fail here too, so that the propagator
/// checks a complete assignment exactly on its own.
#[derive(Clone, Debug)]
pub struct Circuit {
    succ: Vec<View>,
    offset: i32,
    sub: bool,
    /// The fixed predecessor of each node (a node out of a subcircuit has none).
    pred: Vec<u32>,
    /// Per node: 0 not seen, 1 seen this pass, 2 on the cycle or chain being walked.
    mark: Vec<u8>,
    stack: Vec<u32>,
    /// Reverse adjacency of the possible successors (CSR), for the backward search.
    in_start: Vec<u32>,
    in_edges: Vec<u32>,
    /// Per node, its possible successors (bit `j` for node `j`), then, for the
    /// backward search, its possible predecessors: the graph in words when it has
    /// at most 64 nodes and every successor domain fits one word.
    out_bits: Vec<u64>,
    in_bits: Vec<u64>,
}

impl Circuit {
    /// Label ([`Context::set_label`]): successors within the nodes, and no self-loop in a
    /// circuit of two nodes or more.
    pub const SUCCESSORS: InferenceLabel = InferenceLabel::new("circuit");
    /// Label ([`Context::set_label`]): a chain of fixed successors may not close into a
    /// cycle shorter than the tour, and a closed cycle of a subcircuit puts the other nodes
    /// out.
    pub const NO_SUBTOUR: InferenceLabel = InferenceLabel::new("no subtour");

    /// `succ` forms one cycle through all nodes (`sub == false`) or through the nodes
    /// that are not their own successors (`sub == true`); values count from `offset`.
    pub(crate) fn new(succ: Vec<View>, offset: i32, sub: bool) -> Circuit {
        Circuit {
            succ,
            offset,
            sub,
            pred: Vec::new(),
            mark: Vec::new(),
            stack: Vec::new(),
            in_start: Vec::new(),
            in_edges: Vec::new(),
            out_bits: Vec::new(),
            in_bits: Vec::new(),
        }
    }

    /// The value that stands for node `j`.
    fn value_of(&self, j: usize) -> i32 {
        self.offset + j as i32
    }

    /// The node a fixed successor's value stands for (values are in range after
    /// [`Self::restrict_range`]).
    fn fixed_next(&self, ctx: &Context<'_>, i: usize) -> Option<usize> {
        ctx.value(self.succ[i])
            .map(|v| (i64::from(v) - i64::from(self.offset)) as usize)
    }

    /// Successors within the nodes; no self-loops for a circuit of two nodes or more.
    fn restrict_range(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let n = self.succ.len();
        ctx.set_label(Circuit::SUCCESSORS);
        for (i, &view) in self.succ.iter().enumerate() {
            ctx.set_min(view, self.offset)?;
            ctx.set_max(view, self.value_of(n - 1))?;
            if !self.sub && n > 1 {
                ctx.remove(view, self.value_of(i))?;
            }
        }
        Ok(())
    }

    /// Fills `pred` from the fixed successors; fails on two fixed predecessors.
    fn fixed_predecessors(&mut self, ctx: &Context<'_>) -> Result<(), Conflict> {
        let n = self.succ.len();
        self.pred.clear();
        self.pred.resize(n, NONE);
        for i in 0..n {
            match self.fixed_next(ctx, i) {
                Some(j) if j != i => {
                    if self.pred[j] != NONE {
                        return Err(Conflict);
                    }
                    self.pred[j] = i as u32;
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Whether node `k` must be in a subcircuit: it cannot be its own successor.
    fn must_be_in(&self, ctx: &Context<'_>, k: usize) -> bool {
        !ctx.contains(self.succ[k], self.value_of(k))
    }

    /// Path ends: each chain of fixed successors, from a node without a fixed
    /// predecessor to a node without a fixed successor.
    fn chains(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let n = self.succ.len();
        let must_in_total = if self.sub {
            (0..n).filter(|&k| self.must_be_in(ctx, k)).count()
        } else {
            n
        };
        ctx.set_label(Circuit::NO_SUBTOUR);
        for s in 0..n {
            if self.pred[s] != NONE || self.mark[s] != 0 {
                continue;
            }
            let (mut end, mut len, mut must_in) = (s, 1, 0);
            self.mark[s] = 1;
            loop {
                if self.sub && self.must_be_in(ctx, end) {
                    must_in += 1;
                }
                // A node already walked means that this call's own removals fixed
                // a successor since `pred` was filled (chains joined, or one closed):
                // stop here; the propagator runs again, on fresh predecessors.
                match self.fixed_next(ctx, end) {
                    Some(next) if next != end && self.mark[next] == 0 => {
                        self.mark[next] = 1;
                        end = next;
                        len += 1;
                    }
                    _ => break,
                }
            }
            if len == 1 {
                continue;
            }
            let back = self.value_of(s);
            if self.sub {
                // The end has a predecessor in the cycle, so it is in it too.
                ctx.remove(self.succ[end], self.value_of(end))?;
                if must_in_total > must_in {
                    ctx.remove(self.succ[end], back)?;
                }
            } else if len < n {
                ctx.remove(self.succ[end], back)?;
            } else {
                ctx.fix(self.succ[end], back)?;
            }
        }
        Ok(())
    }

    /// Closed cycles of fixed successors (the nodes the chains did not reach): one
    /// shorter than the tour fails a circuit; in a subcircuit it is the cycle, and
    /// every other node is out.
    fn cycles(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let n = self.succ.len();
        for s in 0..n {
            if self.mark[s] != 0 || self.pred[s] == NONE {
                continue;
            }
            let (mut node, mut len) = (s, 0);
            while self.mark[node] == 0 {
                self.mark[node] = 2;
                len += 1;
                // Every node here has a fixed predecessor, hence (pred being
                // injective) lies on a cycle of fixed successors.
                node = self.fixed_next(ctx, node).ok_or(Conflict)?;
            }
            if !self.sub {
                if len < n {
                    return Err(Conflict);
                }
                continue;
            }
            ctx.set_label(Circuit::NO_SUBTOUR);
            for k in 0..n {
                if self.mark[k] != 2 {
                    ctx.fix(self.succ[k], self.value_of(k))?;
                }
            }
            // Any other cycle has just been fixed to self-loops: a conflict already.
            return Ok(());
        }
        Ok(())
    }

    /// Whether the possible successors form a strongly connected graph: node 0
    /// reaches every node, and every node reaches node 0.
    fn strongly_connected(&mut self, ctx: &Context<'_>) -> bool {
        if let Some(connected) = self.strongly_connected_in_words(ctx) {
            return connected;
        }
        let n = self.succ.len();
        // Forward, straight from the domains.
        self.mark.clear();
        self.mark.resize(n, 0);
        self.stack.clear();
        self.stack.push(0);
        self.mark[0] = 1;
        let mut reached = 1;
        while let Some(i) = self.stack.pop() {
            for v in ctx.values(self.succ[i as usize]) {
                let j = (i64::from(v) - i64::from(self.offset)) as usize;
                if self.mark[j] == 0 {
                    self.mark[j] = 1;
                    reached += 1;
                    self.stack.push(j as u32);
                }
            }
        }
        if reached < n {
            return false;
        }
        // Backward, over the reversed edges.
        self.in_start.clear();
        self.in_start.resize(n + 1, 0);
        for i in 0..n {
            for v in ctx.values(self.succ[i]) {
                let j = (i64::from(v) - i64::from(self.offset)) as usize;
                self.in_start[j + 1] += 1;
            }
        }
        for j in 0..n {
            self.in_start[j + 1] += self.in_start[j];
        }
        self.in_edges.clear();
        self.in_edges.resize(self.in_start[n] as usize, 0);
        // `pred` serves as the fill pointers here.
        self.pred.clear();
        self.pred.extend_from_slice(&self.in_start[..n]);
        for i in 0..n {
            for v in ctx.values(self.succ[i]) {
                let j = (i64::from(v) - i64::from(self.offset)) as usize;
                self.in_edges[self.pred[j] as usize] = i as u32;
                self.pred[j] += 1;
            }
        }
        self.mark.fill(0);
        self.stack.push(0);
        self.mark[0] = 1;
        let mut reached = 1;
        while let Some(j) = self.stack.pop() {
            let (from, to) = (
                self.in_start[j as usize] as usize,
                self.in_start[j as usize + 1] as usize,
            );
            for e in from..to {
                let i = self.in_edges[e] as usize;
                if self.mark[i] == 0 {
                    self.mark[i] = 1;
                    reached += 1;
                    self.stack.push(i as u32);
                }
            }
        }
        reached == n
    }

    /// [`Self::strongly_connected`] on a graph of at most 64 nodes whose successor
    /// domains each fit one word: `O(n + d)` word operations, without walking the
    /// values one by one. `None` for other graphs.
    fn strongly_connected_in_words(&mut self, ctx: &Context<'_>) -> Option<bool> {
        let n = self.succ.len();
        if n == 0 || n > 64 {
            return None;
        }
        self.out_bits.clear();
        for &view in &self.succ {
            let (word, base) = ctx.small_word(view.var)?;
            // Bit i stands for the value base + i + view offset, node that minus
            // `offset`; every value is a node (`restrict_range`), so no bit is lost.
            let shift = i64::from(base) + i64::from(view.offset) - i64::from(self.offset);
            let bits = match u32::try_from(shift) {
                Ok(left) => word.checked_shl(left),
                Err(_) => word.checked_shr(u32::try_from(-shift).unwrap_or(u32::MAX)),
            };
            self.out_bits.push(bits.unwrap_or(0));
        }
        self.in_bits.clear();
        self.in_bits.resize(n, 0);
        for (i, &out) in self.out_bits.iter().enumerate() {
            let mut rest = out;
            while rest != 0 {
                self.in_bits[rest.trailing_zeros() as usize] |= 1 << i;
                rest &= rest - 1;
            }
        }
        let all = u64::MAX >> (64 - n);
        Some(reaches_all(&self.out_bits, all) && reaches_all(&self.in_bits, all))
    }
}

/// Whether node 0 reaches every node of `all` over the edges `edges[i]` (bit `j`
/// for an edge from `i` to `j`).
fn reaches_all(edges: &[u64], all: u64) -> bool {
    let (mut reached, mut open) = (1u64, 1u64);
    while open != 0 {
        let i = open.trailing_zeros() as usize;
        open &= open - 1;
        let new = edges[i] & !reached;
        reached |= new;
        open |= new;
    }
    reached == all
}

impl Propagator for Circuit {
    fn name(&self) -> &'static str {
        if self.sub { "subcircuit" } else { "circuit" }
    }

    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        let last = i64::from(self.offset) + self.succ.len() as i64 - 1;
        if self.succ.len() >= u32::MAX as usize || i32::try_from(last).is_err() {
            return Err(ModelError::InvalidConstraint {
                constraint: ctx.constraint(),
                reason: format!(
                    "{} nodes from offset {} leave the 32-bit value range",
                    self.succ.len(),
                    self.offset
                ),
            });
        }
        ctx.watch_all(self.succ.iter().copied(), Wake::Domain)?;
        // Whether the range and self-loops were cut, which holds for the rest of
        // the search once done: 0 (not yet) or 1.
        ctx.set_initial_state(vec![0]);
        Ok(())
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let n = self.succ.len();
        if ctx.state()[0] == 0 {
            self.restrict_range(ctx)?;
            ctx.set_state(0, 1);
        }
        self.fixed_predecessors(ctx)?;
        self.mark.clear();
        self.mark.resize(n, 0);
        self.chains(ctx)?;
        self.cycles(ctx)?;
        if !self.sub && !self.strongly_connected(ctx) {
            return Err(Conflict);
        }
        Ok(())
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        let n = self.succ.len();
        let next: Option<Vec<usize>> = self
            .succ
            .iter()
            .map(|view| {
                let v = i64::from(value(view.var)) + i64::from(view.offset);
                usize::try_from(v - i64::from(self.offset))
                    .ok()
                    .filter(|&j| j < n)
            })
            .collect();
        let Some(next) = next else {
            return false;
        };
        let in_cycle = (0..n).filter(|&i| !self.sub || next[i] != i).count();
        let Some(start) = (0..n).find(|&i| !self.sub || next[i] != i) else {
            // A subcircuit with every node out.
            return true;
        };
        // Following the successors from one node of the cycle visits every node of
        // it once and comes back: then it is one cycle, and with in-degree one no
        // other node can point into it.
        let mut seen = vec![false; n];
        let mut node = start;
        for _ in 0..in_cycle {
            if seen[node] || (self.sub && next[node] == node) {
                return false;
            }
            seen[node] = true;
            node = next[node];
        }
        node == start
    }
}

#[cfg(test)]
mod tests {
    use super::Circuit;
    use crate::{Model, ModelError, Outcome, Solver};

    /// Root domains of a circuit or subcircuit over the given successor domains.
    fn root(domains: &[&[i32]], offset: i32, sub: bool) -> Option<Vec<Vec<i32>>> {
        let mut model = Model::new();
        let succ: Vec<_> = domains
            .iter()
            .map(|d| model.var_from_values(d.iter().copied()).unwrap())
            .collect();
        if sub {
            model.subcircuit(succ, offset).unwrap();
        } else {
            model.circuit(succ, offset).unwrap();
        }
        Solver::new(model).root_domains()
    }

    #[test]
    fn range_and_self_loops_go() {
        let d: &[i32] = &[-1, 0, 1, 2, 3];
        assert_eq!(
            root(&[d, d, d], 0, false),
            Some(vec![vec![1, 2], vec![0, 2], vec![0, 1]])
        );
        // 1-based: values 1..=3.
        assert_eq!(
            root(&[d, d, d], 1, false),
            Some(vec![vec![2, 3], vec![1, 3], vec![1, 2]])
        );
        // A subcircuit keeps the self-loops.
        assert_eq!(
            root(&[d, d, d], 0, true),
            Some(vec![vec![0, 1, 2], vec![0, 1, 2], vec![0, 1, 2]])
        );
        // One node: its own successor.
        assert_eq!(root(&[d], 0, false), Some(vec![vec![0]]));
    }

    #[test]
    fn a_chain_end_cannot_close_a_subtour() {
        // 0 -> 1 fixed; 1 cannot go back to 0 in a tour of four.
        let all: &[i32] = &[0, 1, 2, 3];
        let domains = root(&[&[1], all, all, all], 0, false).unwrap();
        assert_eq!(domains[1], vec![2, 3]);
        // 0 -> 1 -> 2 fixed: 2 goes to 3, so 3 goes back to 0.
        let domains = root(&[&[1], &[2], all, all], 0, false).unwrap();
        assert_eq!(domains, vec![vec![1], vec![2], vec![3], vec![0]]);
    }

    #[test]
    fn a_closed_subtour_fails() {
        let all: &[i32] = &[0, 1, 2, 3];
        assert_eq!(root(&[&[1], &[0], all, all], 0, false), None);
    }

    #[test]
    fn a_graph_that_is_not_strongly_connected_fails() {
        // Nodes 2, 3, 4 have no edge back to 0 or 1; no successor is fixed. The
        // propagator alone (without the all-different) sees it.
        let graph = |back: bool| {
            let mut model = Model::new();
            let tail: &[i32] = if back { &[0, 2, 3] } else { &[2, 3] };
            let domains: [&[i32]; 5] = [&[1, 2], &[0, 3], &[3, 4], &[2, 4], tail];
            let succ: Vec<_> = domains
                .iter()
                .map(|d| model.var_from_values(d.iter().copied()).unwrap().into())
                .collect();
            model.post(Circuit::new(succ, 0, false)).unwrap();
            Solver::new(model).root_domains()
        };
        assert_eq!(graph(false), None);
        assert!(graph(true).is_some());
    }

    /// The propagator alone over successor domains `domains[i]`, plus `pad` (a
    /// value no node has, which only gives the variable a domain wider than a word).
    fn connected(domains: &[Vec<i32>], pad: Option<i32>) -> bool {
        let mut model = Model::new();
        let succ: Vec<_> = domains
            .iter()
            .map(|d| {
                let values = d.iter().copied().chain(pad);
                model.var_from_values(values).unwrap().into()
            })
            .collect();
        model.post(Circuit::new(succ, 0, false)).unwrap();
        Solver::new(model).root_domains().is_some()
    }

    #[test]
    fn the_graph_is_searched_in_words_or_by_values_alike() {
        let two_rings = |n: i32, bridge: bool| -> Vec<Vec<i32>> {
            // Two rings of n nodes, each node with edges one and two ahead in its
            // own ring; `bridge` adds an edge each way between them.
            let mut domains: Vec<Vec<i32>> = (0..2 * n)
                .map(|i| {
                    let (ring, k) = (i / n * n, i % n);
                    vec![ring + (k + 1) % n, ring + (k + 2) % n]
                })
                .collect();
            if bridge {
                domains[0].push(n);
                domains[n as usize].push(0);
            }
            domains
        };
        // 10 nodes (one word each, or wider with the pad); 70 nodes (beyond a word).
        for n in [5, 35] {
            for pad in [None, Some(1000)] {
                assert!(!connected(&two_rings(n, false), pad), "n = {n}, {pad:?}");
                assert!(connected(&two_rings(n, true), pad), "n = {n}, {pad:?}");
            }
        }
        // Views with offsets shift the words: succ[i] - 1 over 1-based values.
        let mut model = Model::new();
        let succ = model.int_vars(5, 1, 5).unwrap();
        let views: Vec<_> = succ.iter().map(|&x| x + -1).collect();
        model.circuit(views, 0).unwrap();
        assert_eq!(Solver::new(model).count(None).solutions, 24);
        let mut model = Model::new();
        let succ = model.int_vars(5, 0, 100).unwrap();
        model.circuit(succ, 0).unwrap();
        assert_eq!(Solver::new(model).count(None).solutions, 24);
    }

    #[test]
    fn subcircuit_chain_rules() {
        let all: &[i32] = &[0, 1, 2, 3];
        // 0 -> 1 fixed: 1 is in the cycle; node 3 must be in, so 1 cannot close to 0.
        let domains = root(&[&[1], all, all, &[0, 1, 2]], 0, true).unwrap();
        assert_eq!(domains[1], vec![2, 3]);
        // With no node forced in, 1 may close the cycle 0 -> 1 -> 0.
        let domains = root(&[&[1], all, all, all], 0, true).unwrap();
        assert_eq!(domains[1], vec![0, 2, 3]);
        // A closed cycle 0 -> 1 -> 0 puts the others out.
        let domains = root(&[&[1], &[0], all, all], 0, true).unwrap();
        assert_eq!(domains, vec![vec![1], vec![0], vec![2], vec![3]]);
        // ... which fails when one of them must be in.
        assert_eq!(root(&[&[1], &[0], all, &[0, 2]], 0, true), None);
    }

    #[test]
    fn counts_the_tours() {
        // (n - 1)! Hamiltonian cycles on the complete directed graph.
        for (n, tours) in [(1, 1), (2, 1), (3, 2), (4, 6), (5, 24)] {
            let mut model = Model::new();
            let succ = model.int_vars(n, 1, n as i32).unwrap();
            model.circuit(succ, 1).unwrap();
            assert_eq!(Solver::new(model).count(None).solutions, tours, "n = {n}");
        }
        // Subcircuits of 4 nodes: every cycle on every subset of at least two nodes,
        // plus the empty one: 6·1 + 4·2 + 1·6 + 1 = 21.
        let mut model = Model::new();
        let succ = model.int_vars(4, 0, 3).unwrap();
        model.subcircuit(succ, 0).unwrap();
        assert_eq!(Solver::new(model).count(None).solutions, 21);
    }

    #[test]
    fn no_successor_at_all_is_unsatisfiable() {
        let mut model = Model::new();
        let succ = model.int_vars(3, 5, 9).unwrap();
        model.circuit(succ, 0).unwrap();
        assert_eq!(Solver::new(model).solve(), Outcome::Unsatisfiable);
    }

    #[test]
    fn offsets_that_overflow_are_refused() {
        let mut model = Model::new();
        let succ = model.int_vars(3, 0, 2).unwrap();
        assert!(matches!(
            model.circuit(succ.clone(), i32::MAX - 1),
            Err(ModelError::InvalidConstraint { .. })
        ));
        assert!(matches!(
            model.subcircuit(Vec::<crate::VarId>::new(), 0),
            Err(ModelError::NoVariables { .. })
        ));
    }
}
