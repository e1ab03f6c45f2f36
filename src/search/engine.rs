//! The search loop: start at the root, branch, propagate each node, fail, backtrack
//! and restart, until a solution, exhaustion or a limit.

use std::time::Instant;

use super::branching::Chosen;
use super::{
    Bound, Branch, Decision, Goal, Level, Schedule, SearchObserver, Solver, State, Statistics,
    Step, StopReason, clock_now,
};
use crate::ids::{ConstraintId, VarId};
use crate::invariant::uncounted;
use crate::propagator::{NO_PROPAGATOR, Run, checks};
use crate::store::{Event, Wipeout};

/// A decision on the stack: the node it made and where to undo to.
#[derive(Clone, Copy, Debug)]
pub(super) struct Choice {
    var: u32,
    /// The branch taken first; the other is its negation.
    branch: Branch,
    value: i32,
    mark: usize,
    /// The node this choice branched from.
    parent: u64,
    /// That node's depth in the search tree.
    parent_depth: u32,
    /// The solutions found in this search when the choice was made (the low 32
    /// bits): when optimising, each one tightened the bound since.
    solutions: u32,
    /// Whether `var` is auxiliary: once a solution is found below, the other branch
    /// only completes the same solution again.
    auxiliary: bool,
}

impl Solver {
    fn var_id(&self, raw: u32) -> VarId {
        self.model.vars.var_at(raw)
    }

    /// Why the solution in the domains may not be reported: the first constraint it
    /// violates, when solutions are checked ([`Solver::check_solutions`]). With the
    /// `debug-checks` feature every solution is checked, and a violation panics unless
    /// the solver checks them itself.
    fn wrong_solution(&self) -> Option<StopReason> {
        if !self.checked && !cfg!(feature = "debug-checks") {
            return None;
        }
        let value = |var: VarId| self.store.min(var.raw());
        let constraint = uncounted(|| self.model.first_violated(&value))?;
        let name = self.model.constraint_name(constraint).unwrap_or("?");
        let reason = StopReason::WrongSolution { constraint, name };
        if !self.checked {
            let (_, watched) = self.model.propagators.get(constraint.index());
            let domains = checks::domains(&self.store, &self.model.vars, watched);
            panic!("debug-checks: {reason}; its variables: {domains}");
        }
        Some(reason)
    }

    /// Runs the search until the next solution, exhaustion or a limit.
    pub(super) fn step(&mut self, observer: &mut impl SearchObserver) -> Step {
        let _span = tracing::debug_span!(
            target: "alldiff::search",
            "solve",
            variables = self.model.var_count(),
            constraints = self.model.constraint_count(),
        )
        .entered();
        // Only the solve time and a time limit need the clock.
        let clock = self.timed || self.limits.time.is_some();
        let resumed = clock.then(clock_now).flatten();
        // A search begun without the clock is timed, for a limit set since, from now.
        self.started = self.started.or(resumed);
        let step = self.search(observer, resumed);
        if let (true, Some(resumed)) = (self.timed, resumed) {
            self.stats.solve_time += resumed.elapsed();
        }
        match step {
            Step::Solution => self.state = State::AtSolution,
            Step::Exhausted => self.state = State::Exhausted,
            // `search` left the decision to take with the reason.
            Step::Stopped(_) => {}
        }
        step
    }

    /// [`Solver::step`], which began at `now` (if it read the clock).
    fn search(&mut self, observer: &mut impl SearchObserver, now: Option<Instant>) -> Step {
        let mut resumed = None;
        match self.state {
            State::Fresh => {
                if !self.start_search(observer, now) {
                    return Step::Exhausted;
                }
            }
            State::Open => {}
            State::AtSolution => {
                if !self.backtrack(observer) {
                    return Step::Exhausted;
                }
            }
            State::Exhausted => return Step::Exhausted,
            State::Wrong(reason) => return Step::Stopped(reason),
            // Stopped at an open node, before its decision: the loop takes that
            // decision if the limits allow it now, or stops again at once.
            State::Stopped(_, chosen) => resumed = Some(chosen),
        }
        loop {
            self.state = State::Open;
            let Some(chosen) = resumed.take().or_else(|| self.brancher.decide(&self.store)) else {
                if let Some(reason) = self.wrong_solution() {
                    self.state = State::Wrong(reason);
                    return Step::Stopped(reason);
                }
                self.stats.solutions += 1;
                self.solution_found();
                tracing::trace!(target: "alldiff::search", node = self.node, "solution");
                observer.on_solution(self.node);
                return Step::Solution;
            };
            if let Some(reason) =
                self.limits
                    .exceeded(self.stats.nodes, self.stats.failures, self.started)
            {
                self.state = State::Stopped(reason, chosen);
                return Step::Stopped(reason);
            }
            if self.stats.failures >= self.restart_at {
                self.restart(observer);
                continue;
            }
            let mark = self.store.mark();
            let parent = self.node;
            let parent_depth = self.depth;
            let Chosen {
                var,
                branch,
                value,
                auxiliary,
            } = chosen;
            self.stack.push(Choice {
                var,
                branch,
                value,
                mark,
                parent,
                parent_depth,
                solutions: self.stats.solutions as u32,
                auxiliary,
            });
            self.stats.peak_depth = self.stats.peak_depth.max(self.stack.len() as u32);
            let applied = self.branch(observer, var, value, branch, (parent, parent_depth));
            if !applied && !self.backtrack(observer) {
                return Step::Exhausted;
            }
        }
    }

    /// A solution is in the domains: when optimising, the next must be better; when
    /// looking for one, no more restarts.
    fn solution_found(&mut self) {
        match self.goal {
            Goal::All => {}
            Goal::First => self.restart_at = u64::MAX,
            Goal::Optimize(objective) => {
                let var = objective.view().var.raw();
                let best = self.store.min(var);
                self.bound = Some(Bound::new(objective, best));
                self.stats.objective = Some(objective.view().value_at(best));
            }
        }
    }

    /// Goes back to the highest node with a branch left (the search above it is
    /// done) and chooses anew from there, with the next cutoff.
    fn restart(&mut self, observer: &mut impl SearchObserver) {
        let Some(schedule) = self.schedule.as_mut() else {
            return;
        };
        schedule.advance();
        self.restart_at = self.stats.failures.saturating_add(schedule.cutoff());
        let Some(&top) = self.stack.first() else {
            return;
        };
        self.stack.clear();
        self.undo_to(top.mark);
        self.node = top.parent;
        self.depth = top.parent_depth;
        self.stats.restarts += 1;
        tracing::trace!(target: "alldiff::search", to = top.parent, "restart");
        observer.on_backtrack(top.parent, top.parent_depth);
    }

    /// Resets the domains (to the levels, if any), applies the assumptions and
    /// propagates at the root.
    pub(super) fn start_search(
        &mut self,
        observer: &mut impl SearchObserver,
        now: Option<Instant>,
    ) -> bool {
        self.stats = Statistics::default();
        self.started = now;
        self.stack.clear();
        self.node = 0;
        self.depth = 0;
        self.brancher.restart();
        self.bound = None;
        self.schedule = match self.goal {
            Goal::All => None,
            Goal::First | Goal::Optimize(_) => self.restarts.map(Schedule::new),
        };
        self.restart_at = self.schedule.map_or(u64::MAX, |s| s.cutoff());
        let levels_failed = match self.levels.last() {
            // The levels are propagated: only the assumptions need waking anyone.
            // Their changes are undone with the search's, back to the levels' end.
            Some(&Level { failed, .. }) => {
                self.queue.clear();
                self.undo_to(self.levels_end);
                failed
            }
            // Every propagator is queued with all its variables: no need to wake
            // anyone for the assumptions. Nothing is trailed until the first choice:
            // no backtrack goes above the root.
            None => {
                self.reset_store();
                self.queue.schedule_all();
                false
            }
        };
        if levels_failed {
            return self.fail(observer, None);
        }
        // Without levels every propagator is queued already: no one to wake, and no
        // event to work out.
        let applied = match self.levels.is_empty() {
            true => (self.assumptions.iter()).all(|a| a.apply_unsaved(&mut self.store)),
            false => self
                .assumptions
                .iter()
                .all(|a| match a.apply(&mut self.store) {
                    Ok(event) => {
                        self.queue.notify(a.var(), event, NO_PROPAGATOR);
                        true
                    }
                    Err(_) => false,
                }),
        };
        if !applied {
            self.queue.clear();
            return self.fail(observer, None);
        }
        match self.propagate_node(observer) {
            Ok(()) => true,
            Err(constraint) => self.fail(observer, Some(constraint)),
        }
    }

    /// Counts a failure at the current node; always `false`.
    fn fail(&mut self, observer: &mut impl SearchObserver, constraint: Option<u32>) -> bool {
        self.stats.failures += 1;
        if let Some(c) = constraint {
            let (propagator, _) = self.model.propagators.get(c as usize);
            self.brancher.failed(c, propagator);
        }
        tracing::trace!(
            target: "alldiff::propagate",
            node = self.node,
            constraint = constraint,
            "failure"
        );
        observer.on_failure(self.node, constraint.map(ConstraintId));
        false
    }

    /// Creates a node for `var branch value` and propagates it, with the objective's
    /// bound when optimising. `false` if it failed.
    fn branch(
        &mut self,
        observer: &mut impl SearchObserver,
        var: u32,
        value: i32,
        branch: Branch,
        (parent, parent_depth): (u64, u32),
    ) -> bool {
        self.stats.nodes += 1;
        self.node = self.stats.nodes;
        self.depth = parent_depth + 1;
        let depth = self.depth;
        tracing::trace!(
            target: "alldiff::search",
            node = self.node,
            parent,
            depth,
            var,
            op = branch.symbol(),
            value,
            "decision"
        );
        observer.on_decision(&Decision {
            node: self.node,
            parent,
            depth,
            var: self.var_id(var),
            branch,
            value,
        });
        // The splits kept out of line: a jump table over the four branches was
        // mispredicted half the time on Sudoku, whose decisions and refutations
        // alternate unpredictably (54,000 indirect mispredictions on 1,000 top1465
        // puzzles); two conditional branches are predicted far better.
        let change = match branch {
            Branch::Equal => self.store.fix(var, value),
            Branch::NotEqual => self.store.remove(var, value),
            split => self.split(var, value, split),
        };
        match change {
            Ok(event) => self.queue.notify(var, event, NO_PROPAGATOR),
            Err(_) => return self.fail(observer, None),
        }
        if let Some(shared) = &self.shared_bound {
            self.bound = shared.tighten(self.bound);
        }
        if let Some(bound) = self.bound {
            match bound.apply(&mut self.store) {
                Ok(event) => self.queue.notify(bound.var(), event, NO_PROPAGATOR),
                Err(_) => return self.fail(observer, None),
            }
        }
        match self.propagate_node(observer) {
            Ok(()) => true,
            Err(constraint) => self.fail(observer, Some(constraint)),
        }
    }

    /// Applies a split's branch: `var <= value`, or `var > value`.
    #[inline(never)]
    fn split(&mut self, var: u32, value: i32, branch: Branch) -> Result<Event, Wipeout> {
        match branch {
            Branch::LessEqual => self.store.set_max(var, value),
            // A split's value is below the maximum: `value + 1` does not overflow.
            _ => self.store.set_min(var, value + 1),
        }
    }

    /// Undoes the latest choice and takes its other branch, repeating while that
    /// fails. `false` when no choice is left: the search is exhausted.
    fn backtrack(&mut self, observer: &mut impl SearchObserver) -> bool {
        while let Some(choice) = self.stack.pop() {
            self.undo_to(choice.mark);
            tracing::trace!(
                target: "alldiff::search",
                from = self.node,
                to = choice.parent,
                depth = choice.parent_depth,
                "backtrack"
            );
            observer.on_backtrack(choice.parent, choice.parent_depth);
            let solved_since = choice.solutions != self.stats.solutions as u32;
            if solved_since && choice.auxiliary && !matches!(self.goal, Goal::Optimize(_)) {
                // The solution below fixed every other variable: the other branch
                // could only complete it again. (Branch and bound goes on: its bound
                // refutes the branch unless the objective depends on the variable.)
                continue;
            }
            if solved_since && !self.holds_bound() {
                // A solution found below this choice refutes the rest of it: no
                // node for its other branch (as Gecode's branch and bound does).
                continue;
            }
            if self.branch(
                observer,
                choice.var,
                choice.value,
                choice.branch.negated(),
                (choice.parent, choice.parent_depth),
            ) {
                return true;
            }
        }
        false
    }

    /// Whether the domains of a choice point made before the latest solution, the
    /// objective's bound applied, propagate without failing: if not, no branch of
    /// the choice is left to try.
    fn holds_bound(&mut self) -> bool {
        let Some(bound) = self.bound else {
            return true;
        };
        match bound.apply(&mut self.store) {
            Ok(event) => self.queue.notify(bound.var(), event, NO_PROPAGATOR),
            Err(_) => return false,
        }
        self.propagate().is_ok()
    }

    /// [`Solver::propagate`] at the current node, handing what it pruned to the
    /// observer when prunings are recorded.
    fn propagate_node(&mut self, observer: &mut impl SearchObserver) -> Result<(), u32> {
        let start = self.pruned.as_ref().map_or(0, Vec::len);
        let result = self.propagate();
        if let Some(log) = self.pruned.as_mut() {
            if log.len() > start {
                observer.on_prunings(self.node, &log[start..]);
            }
            if self.stream_prunings {
                log.clear();
            }
        }
        result
    }

    /// Undoes the domains to `mark`, waking up again the propagators found entailed
    /// below it.
    pub(super) fn undo_to(&mut self, mark: usize) {
        self.store.undo_to(mark);
        self.queue.revive(&self.store);
    }

    /// Resets the domains to the model's, where no propagator is entailed.
    pub(super) fn reset_store(&mut self) {
        self.store.reset_from(&self.model.vars.store);
        self.queue.revive(&self.store);
    }

    /// Runs woken propagators until none is left, or one fails (its index).
    pub(super) fn propagate(&mut self) -> Result<(), u32> {
        self.model.propagators.fixpoint(Run {
            store: &mut self.store,
            queue: &mut self.queue,
            modified: &mut self.modified,
            pruned: &mut self.pruned,
            vars: &self.model.vars,
            calls: &mut self.stats.propagations,
        })
    }
}
