//! Régin's filtering for all-different: a maximum matching between variables and
//! values, then the edges that belong to no maximum matching are removed.
//!
//! The graph is given as, for each variable, the list of its values as dense indices
//! `0..value_count`. The algorithm:
//!
//! 1. Repair the previous matching (kept across calls, so usually only a few
//!    variables need a new partner) with augmenting paths; a variable that cannot be
//!    matched means no solution.
//! 2. Orient matched edges variable → value and the other edges value → variable, add a
//!    sink that every matched value points to and that points to every free value,
//!    and compute strongly connected components (Tarjan, iteratively).
//! 3. An unmatched edge (x, v) can be in some maximum matching exactly when x and v
//!    share a component: the sink folds "reachable from a free value" into the same
//!    test. All other unmatched edges are removed.
//!
//! Cost: O(m·√n)-ish for the repair in the worst case, O(n + d) for the rest, where d is
//! the sum of the domain sizes.

const NONE: u32 = u32::MAX;

/// Reusable buffers for one all-different constraint.
#[derive(Clone, Debug, Default)]
pub(crate) struct Matching {
    /// For each variable, its matched value index.
    var_to_value: Vec<u32>,
    /// For each value index, its matched variable.
    value_to_var: Vec<u32>,
    /// CSR adjacency of the residual graph.
    edge_start: Vec<u32>,
    edges: Vec<u32>,
    fill: Vec<u32>,
    visited: Vec<u32>,
    stamp: u32,
    path: Vec<(u32, u32)>,
    // Tarjan state.
    index: Vec<u32>,
    low: Vec<u32>,
    component: Vec<u32>,
    stack: Vec<u32>,
    on_stack: Vec<bool>,
    calls: Vec<(u32, u32)>,
}

impl Matching {
    /// Finds the unmatched edges that no maximum matching uses. `domains[x]` lists
    /// variable x's value indices (each below `value_count`) through `domain_start`
    /// (CSR: x's values are `domain_values[domain_start[x]..domain_start[x + 1]]`).
    /// Calls `remove(x, value)` for each edge to delete. `Err(())` if some variable
    /// cannot be matched.
    pub(crate) fn filter(
        &mut self,
        value_count: usize,
        domain_start: &[u32],
        domain_values: &[u32],
        mut remove: impl FnMut(usize, u32),
    ) -> Result<(), ()> {
        let n = domain_start.len() - 1;
        let domain =
            |x: usize| &domain_values[domain_start[x] as usize..domain_start[x + 1] as usize];
        self.prepare(n, value_count, domain_start, domain_values);
        for x in 0..n {
            if self.var_to_value[x] == NONE && !self.augment(x, domain_start, domain_values) {
                return Err(());
            }
        }
        self.build_residual(n, value_count, domain_start, domain_values);
        self.components(n + value_count + 1);
        for x in 0..n {
            for &v in domain(x) {
                if v != self.var_to_value[x] && self.component[x] != self.component[n + v as usize]
                {
                    remove(x, v);
                }
            }
        }
        Ok(())
    }

    /// Sizes the buffers and drops matched pairs whose value left the domain.
    fn prepare(
        &mut self,
        n: usize,
        value_count: usize,
        domain_start: &[u32],
        domain_values: &[u32],
    ) {
        if self.var_to_value.len() != n || self.value_to_var.len() != value_count {
            self.var_to_value.clear();
            self.var_to_value.resize(n, NONE);
            self.value_to_var.clear();
            self.value_to_var.resize(value_count, NONE);
        }
        for x in 0..n {
            let v = self.var_to_value[x];
            let values = &domain_values[domain_start[x] as usize..domain_start[x + 1] as usize];
            if v != NONE && values.binary_search(&v).is_err() {
                self.var_to_value[x] = NONE;
                self.value_to_var[v as usize] = NONE;
            }
        }
        self.visited.resize(value_count, 0);
    }

    /// Depth-first search for an augmenting path from the free variable `root`,
    /// with an explicit stack.
    fn augment(&mut self, root: usize, domain_start: &[u32], domain_values: &[u32]) -> bool {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.visited.fill(0);
            self.stamp = 1;
        }
        self.path.clear();
        self.path.push((root as u32, domain_start[root]));
        while let Some(&mut (x, ref mut next)) = self.path.last_mut() {
            let end = domain_start[x as usize + 1];
            if *next == end {
                self.path.pop();
                continue;
            }
            let v = domain_values[*next as usize];
            *next += 1;
            if self.visited[v as usize] == self.stamp {
                continue;
            }
            self.visited[v as usize] = self.stamp;
            let owner = self.value_to_var[v as usize];
            if owner == NONE {
                // Flip the path: each variable on it takes the value it reached through.
                let mut value = v;
                while let Some((var, _)) = self.path.pop() {
                    let previous = self.var_to_value[var as usize];
                    self.var_to_value[var as usize] = value;
                    self.value_to_var[value as usize] = var;
                    value = previous;
                }
                return true;
            }
            self.path.push((owner, domain_start[owner as usize]));
        }
        false
    }

    /// Nodes: variables `0..n`, values `n..n + value_count`, the sink last.
    fn build_residual(
        &mut self,
        n: usize,
        value_count: usize,
        domain_start: &[u32],
        domain_values: &[u32],
    ) {
        let nodes = n + value_count + 1;
        let sink = (nodes - 1) as u32;
        // Count out-degrees first.
        self.edge_start.clear();
        self.edge_start.resize(nodes + 1, 0);
        for x in 0..n {
            self.edge_start[x + 1] += 1; // x -> its matched value
            for &v in &domain_values[domain_start[x] as usize..domain_start[x + 1] as usize] {
                if v != self.var_to_value[x] {
                    self.edge_start[n + v as usize + 1] += 1; // v -> x
                }
            }
        }
        for v in 0..value_count {
            if self.value_to_var[v] == NONE {
                self.edge_start[nodes] += 1; // sink -> free v
            } else {
                self.edge_start[n + v + 1] += 1; // matched v -> sink
            }
        }
        for i in 0..nodes {
            self.edge_start[i + 1] += self.edge_start[i];
        }
        self.edges.clear();
        self.edges.resize(self.edge_start[nodes] as usize, 0);
        self.fill.clear();
        self.fill.extend_from_slice(&self.edge_start[..nodes]);
        let (fill, edges) = (&mut self.fill, &mut self.edges);
        let mut add = |from: usize, to: u32| {
            edges[fill[from] as usize] = to;
            fill[from] += 1;
        };
        for x in 0..n {
            let matched = self.var_to_value[x];
            add(x, n as u32 + matched);
            for &v in &domain_values[domain_start[x] as usize..domain_start[x + 1] as usize] {
                if v != matched {
                    add(n + v as usize, x as u32);
                }
            }
        }
        for v in 0..value_count {
            if self.value_to_var[v] == NONE {
                add(sink as usize, (n + v) as u32);
            } else {
                add(n + v, sink);
            }
        }
    }

    /// Tarjan's strongly connected components, iteratively.
    fn components(&mut self, nodes: usize) {
        self.index.clear();
        self.index.resize(nodes, NONE);
        self.low.clear();
        self.low.resize(nodes, 0);
        self.component.clear();
        self.component.resize(nodes, NONE);
        self.on_stack.clear();
        self.on_stack.resize(nodes, false);
        self.stack.clear();
        self.calls.clear();
        let mut counter = 0u32;
        let mut components = 0u32;
        for root in 0..nodes as u32 {
            if self.index[root as usize] != NONE {
                continue;
            }
            self.calls.push((root, self.edge_start[root as usize]));
            self.index[root as usize] = counter;
            self.low[root as usize] = counter;
            counter += 1;
            self.stack.push(root);
            self.on_stack[root as usize] = true;
            while let Some(&(node, next)) = self.calls.last() {
                let node = node as usize;
                if next < self.edge_start[node + 1] {
                    self.calls.last_mut().expect("nonempty").1 += 1;
                    let to = self.edges[next as usize] as usize;
                    if self.index[to] == NONE {
                        self.index[to] = counter;
                        self.low[to] = counter;
                        counter += 1;
                        self.stack.push(to as u32);
                        self.on_stack[to] = true;
                        self.calls.push((to as u32, self.edge_start[to]));
                    } else if self.on_stack[to] {
                        self.low[node] = self.low[node].min(self.index[to]);
                    }
                    continue;
                }
                self.calls.pop();
                if let Some(&(parent, _)) = self.calls.last() {
                    let parent = parent as usize;
                    self.low[parent] = self.low[parent].min(self.low[node]);
                }
                if self.low[node] == self.index[node] {
                    loop {
                        let member = self.stack.pop().expect("node on stack") as usize;
                        self.on_stack[member] = false;
                        self.component[member] = components;
                        if member == node {
                            break;
                        }
                    }
                    components += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(domains: &[&[u32]], value_count: usize) -> Result<Vec<(usize, u32)>, ()> {
        let mut start = vec![0u32];
        let mut values = Vec::new();
        for d in domains {
            values.extend_from_slice(d);
            start.push(values.len() as u32);
        }
        let mut removed = Vec::new();
        Matching::default().filter(value_count, &start, &values, |x, v| removed.push((x, v)))?;
        removed.sort_unstable();
        Ok(removed)
    }

    #[test]
    fn a_pair_locks_its_two_values() {
        // x0, x1 in {0,1}: x2 in {0,1,2} must be 2.
        assert_eq!(
            run(&[&[0, 1], &[0, 1], &[0, 1, 2]], 3),
            Ok(vec![(2, 0), (2, 1)])
        );
    }

    #[test]
    fn free_values_keep_their_edges() {
        // Three values for two variables: nothing can be removed.
        assert_eq!(run(&[&[0, 1], &[1, 2]], 3), Ok(vec![]));
    }

    #[test]
    fn hall_set_too_small_is_a_failure() {
        assert_eq!(run(&[&[0, 1], &[0, 1], &[0, 1]], 2), Err(()));
    }

    #[test]
    fn chain_of_forced_values() {
        // x0 = 0 forces x1 = 1 forces x2 = 2.
        assert_eq!(
            run(&[&[0], &[0, 1], &[0, 1, 2]], 3),
            Ok(vec![(1, 0), (2, 0), (2, 1)])
        );
    }
}
