//! Scheduling: tasks with fixed durations on a shared resource. [`Disjunctive`] runs
//! them one at a time, [`Cumulative`] lets their demands add up to a capacity.
//!
//! A task is a start view `s` and a duration `d`: it runs over `[s, s + d)`. Its
//! earliest start is `est = min(s)`, its latest start `lst = max(s)`, its earliest
//! completion `ect = est + d`. When `lst < ect` the task surely runs over
//! `[lst, ect)`, its *compulsory part*, wherever it starts.

use crate::error::ModelError;
use crate::ids::{VarId, View};
use crate::propagator::{Conflict, Context, InferenceLabel, PostContext, Propagator, Wake};

/// Checks the tasks' parameters and watches their starts' bounds: as many durations
/// (and demands) as starts, none negative, and every start plus its duration within
/// the `i32` range.
fn post_tasks(
    ctx: &mut PostContext<'_>,
    starts: &[View],
    durations: &[i32],
    demands: Option<&[i32]>,
) -> Result<(), ModelError> {
    let invalid = |reason: String| ModelError::InvalidConstraint {
        constraint: ctx.constraint(),
        reason,
    };
    if durations.len() != starts.len() {
        return Err(invalid(format!(
            "{} durations for {} tasks",
            durations.len(),
            starts.len()
        )));
    }
    if let Some(demands) = demands.filter(|d| d.len() != starts.len()) {
        return Err(invalid(format!(
            "{} demands for {} tasks",
            demands.len(),
            starts.len()
        )));
    }
    for (i, (&start, &duration)) in starts.iter().zip(durations).enumerate() {
        ctx.check(start)?;
        if duration < 0 {
            return Err(invalid(format!(
                "task {i} has negative duration {duration}"
            )));
        }
        if let Some(&demand) = demands.and_then(|d| d.get(i)).filter(|&&d| d < 0) {
            return Err(invalid(format!("task {i} has negative demand {demand}")));
        }
        let end = i64::from(ctx.max(start)) + i64::from(duration);
        if end > i64::from(i32::MAX) {
            return Err(invalid(format!(
                "task {i} ({}) may end at {end}, beyond the 32-bit range",
                ctx.name(start.var)
            )));
        }
    }
    ctx.watch_all(starts.iter().copied(), Wake::Bounds)
}

/// Task `t`'s run `[start, end)` in a full assignment.
fn span(starts: &[View], durations: &[i32], t: u32, value: &dyn Fn(VarId) -> i32) -> (i64, i64) {
    let start = starts[t as usize];
    let from = i64::from(value(start.var)) + i64::from(start.offset);
    (from, from + i64::from(durations[t as usize]))
}

/// Tasks that must not overlap in time (a unary resource): for every two tasks of
/// positive durations, `s_i + d_i <= s_j` or `s_j + d_j <= s_i`. Tasks of duration 0
/// take no time and are free.
///
/// Propagation, to its own fixpoint in each call:
/// - pairwise precedences ([`Disjunctive::PRECEDENCE`]): when task `i` cannot come after
///   task `j` (`est_j + d_j > lst_i`), it comes before: `s_j >= est_i + d_i` and
///   `s_i <= lst_j - d_i`; neither order possible is a conflict. This subsumes
///   time-tabling on a unary resource: a task that overlaps another's compulsory
///   part at its earliest start cannot come before it, and is pushed past it.
/// - an overload check: no set of tasks fits between its earliest start and latest
///   end with less room than its total duration (conflict only).
///
/// No edge-finding or not-first/not-last yet. O(n²) per pass for n tasks.
#[derive(Clone, Debug)]
pub struct Disjunctive {
    starts: Vec<View>,
    durations: Vec<i32>,
    /// The tasks of positive duration.
    active: Vec<u32>,
    /// Scratch: the active tasks by earliest start, and by latest completion.
    by_est: Vec<u32>,
    by_lct: Vec<u32>,
}

impl Disjunctive {
    /// The label of its removals ([`Context::set_label`]): two tasks that can only go in
    /// one order.
    pub const PRECEDENCE: InferenceLabel = InferenceLabel::new("disjunctive precedence");

    /// Tasks starting at `starts` and lasting `durations` (fixed, one per start).
    /// Parameters are checked when posted ([`Propagator::post`]).
    pub fn new(starts: Vec<View>, durations: Vec<i32>) -> Disjunctive {
        Disjunctive {
            starts,
            durations,
            active: Vec::new(),
            by_est: Vec::new(),
            by_lct: Vec::new(),
        }
    }

    /// One sweep over all pairs: `Ok(true)` if a bound moved.
    fn precedences(&mut self, ctx: &mut Context<'_>) -> Result<bool, Conflict> {
        ctx.set_label(Disjunctive::PRECEDENCE);
        let mut changed = false;
        for (k, &i) in self.active.iter().enumerate() {
            let (si, di) = (self.starts[i as usize], self.durations[i as usize]);
            for &j in &self.active[k + 1..] {
                let (sj, dj) = (self.starts[j as usize], self.durations[j as usize]);
                let i_first = i64::from(ctx.min(si)) + i64::from(di) <= i64::from(ctx.max(sj));
                let j_first = i64::from(ctx.min(sj)) + i64::from(dj) <= i64::from(ctx.max(si));
                match (i_first, j_first) {
                    (false, false) => return Err(Conflict),
                    (true, false) => changed |= order(ctx, (si, di), sj)?,
                    (false, true) => changed |= order(ctx, (sj, dj), si)?,
                    (true, true) => {}
                }
            }
        }
        Ok(changed)
    }

    /// Fails when some set of tasks has less room between its earliest start and its
    /// latest completion than its total duration: for each latest completion `L`,
    /// over the tasks completing by `L`, scanned by descending earliest start.
    fn overload(&mut self, ctx: &Context<'_>) -> Result<(), Conflict> {
        let (starts, durations) = (&self.starts, &self.durations);
        let lct =
            |t: u32| i64::from(ctx.max(starts[t as usize])) + i64::from(durations[t as usize]);
        self.by_est.clone_from(&self.active);
        self.by_est
            .sort_unstable_by_key(|&t| std::cmp::Reverse(ctx.min(starts[t as usize])));
        self.by_lct.clone_from(&self.active);
        self.by_lct.sort_unstable_by_key(|&t| lct(t));
        for &last in &self.by_lct {
            let bound = lct(last);
            let mut work = 0;
            for &t in self.by_est.iter().filter(|&&t| lct(t) <= bound) {
                work += i64::from(durations[t as usize]);
                if i64::from(ctx.min(starts[t as usize])) + work > bound {
                    return Err(Conflict);
                }
            }
        }
        Ok(())
    }
}

/// Task `first` (start and duration) runs before the task starting at `then`.
fn order(ctx: &mut Context<'_>, first: (View, i32), then: View) -> Result<bool, Conflict> {
    let (start, duration) = first;
    // Within range: starts plus durations fit i32 (checked when posted).
    let earliest = ctx.min(start) + duration;
    let latest = ctx.max(then).saturating_sub(duration);
    Ok(ctx.set_min(then, earliest)? | ctx.set_max(start, latest)?)
}

impl Propagator for Disjunctive {
    fn name(&self) -> &'static str {
        "disjunctive"
    }

    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        post_tasks(ctx, &self.starts, &self.durations, None)?;
        self.active = (0..self.starts.len() as u32)
            .filter(|&t| self.durations[t as usize] > 0)
            .collect();
        Ok(())
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        while self.precedences(ctx)? {}
        self.overload(ctx)
    }

    fn is_idempotent(&self) -> bool {
        true
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        let task = |t: u32| span(&self.starts, &self.durations, t, value);
        self.active.iter().enumerate().all(|(k, &i)| {
            let (si, ei) = task(i);
            self.active[k + 1..].iter().all(|&j| {
                let (sj, ej) = task(j);
                ei <= sj || ej <= si
            })
        })
    }

    fn reads_modified(&self) -> bool {
        false
    }
}

/// Tasks sharing a resource of fixed capacity: at every time, the demands of the
/// tasks running then add up to at most `capacity`. Tasks of duration or demand 0
/// are free.
///
/// Propagation ([`Cumulative::TIME_TABLING`]), to its own fixpoint in each call: the
/// profile of the compulsory parts (conflict where it exceeds the capacity), then
/// each task's earliest start pushed past every stretch of the profile where it
/// would not fit beside the others, and its latest start pulled before them. A task
/// demanding more than the capacity is a conflict. O(n log n + n·p) per pass for n
/// tasks and p ≤ 2n profile steps; no edge-finding or energetic reasoning.
#[derive(Clone, Debug)]
pub struct Cumulative {
    starts: Vec<View>,
    durations: Vec<i32>,
    demands: Vec<i32>,
    capacity: i32,
    /// The tasks of positive duration and demand.
    active: Vec<u32>,
    /// Scratch: the profile's events `(time, change of height)`, its steps
    /// `(from, to, height)` of positive height, and each task's compulsory part
    /// `(lst, ect)` when the profile was built.
    events: Vec<(i64, i64)>,
    steps: Vec<(i64, i64, i64)>,
    parts: Vec<(i64, i64)>,
}

impl Cumulative {
    /// The label of its removals ([`Context::set_label`]): start times moved off the
    /// compulsory parts of other tasks.
    pub const TIME_TABLING: InferenceLabel = InferenceLabel::new("time-tabling");

    /// Tasks starting at `starts`, lasting `durations` and using `demands` of a
    /// resource of `capacity` (all fixed, one duration and demand per start).
    /// Parameters are checked when posted ([`Propagator::post`]).
    pub fn new(
        starts: Vec<View>,
        durations: Vec<i32>,
        demands: Vec<i32>,
        capacity: i32,
    ) -> Cumulative {
        Cumulative {
            starts,
            durations,
            demands,
            capacity,
            active: Vec::new(),
            events: Vec::new(),
            steps: Vec::new(),
            parts: Vec::new(),
        }
    }

    /// Builds the compulsory-part profile; conflict where it exceeds the capacity.
    fn profile(&mut self, ctx: &Context<'_>) -> Result<(), Conflict> {
        self.events.clear();
        self.parts.clear();
        for t in 0..self.starts.len() {
            let start = self.starts[t];
            let (lst, ect) = (
                i64::from(ctx.max(start)),
                i64::from(ctx.min(start)) + i64::from(self.durations[t]),
            );
            self.parts.push((lst, ect));
        }
        for &t in &self.active {
            let (lst, ect) = self.parts[t as usize];
            if lst < ect {
                let demand = i64::from(self.demands[t as usize]);
                self.events.push((lst, demand));
                self.events.push((ect, -demand));
            }
        }
        self.events.sort_unstable();
        self.steps.clear();
        let mut height = 0;
        for (k, &(time, change)) in self.events.iter().enumerate() {
            height += change;
            let next = self.events.get(k + 1).map_or(time, |e| e.0);
            if next > time && height > 0 {
                if height > i64::from(self.capacity) {
                    return Err(Conflict);
                }
                self.steps.push((time, next, height));
            }
        }
        Ok(())
    }

    /// Moves each task's start off the stretches where it does not fit: `Ok(true)`
    /// if a bound moved.
    fn sweep(&mut self, ctx: &mut Context<'_>) -> Result<bool, Conflict> {
        ctx.set_label(Cumulative::TIME_TABLING);
        let capacity = i64::from(self.capacity);
        let mut changed = false;
        for &t in &self.active {
            let t = t as usize;
            let (start, duration) = (self.starts[t], i64::from(self.durations[t]));
            let demand = i64::from(self.demands[t]);
            let (lst, ect) = self.parts[t];
            // The height of a step without this task's own compulsory part.
            let fits = |&(from, to, height): &(i64, i64, i64)| {
                let own = if lst <= from && to <= ect { demand } else { 0 };
                height - own + demand <= capacity
            };
            let mut est = i64::from(ctx.min(start));
            let first = self.steps.partition_point(|s| s.1 <= est);
            for step in &self.steps[first..] {
                if step.0 >= est + duration {
                    break;
                }
                if !fits(step) {
                    est = step.1;
                }
            }
            let mut lct = i64::from(ctx.max(start)) + duration;
            let last = self.steps.partition_point(|s| s.0 < lct);
            for step in self.steps[..last].iter().rev() {
                if step.1 <= lct - duration {
                    break;
                }
                if !fits(step) {
                    lct = step.0;
                }
            }
            changed |= ctx.set_min(start, i32::try_from(est).map_err(|_| Conflict)?)?;
            changed |= ctx.set_max(start, i32::try_from(lct - duration).map_err(|_| Conflict)?)?;
        }
        Ok(changed)
    }
}

impl Propagator for Cumulative {
    fn name(&self) -> &'static str {
        "cumulative"
    }

    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        if self.capacity < 0 {
            return Err(ModelError::InvalidConstraint {
                constraint: ctx.constraint(),
                reason: format!("negative capacity {}", self.capacity),
            });
        }
        post_tasks(ctx, &self.starts, &self.durations, Some(&self.demands))?;
        self.active = (0..self.starts.len() as u32)
            .filter(|&t| self.durations[t as usize] > 0 && self.demands[t as usize] > 0)
            .collect();
        Ok(())
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        if self
            .active
            .iter()
            .any(|&t| self.demands[t as usize] > self.capacity)
        {
            return Err(Conflict);
        }
        loop {
            self.profile(ctx)?;
            if !self.sweep(ctx)? {
                return Ok(());
            }
        }
    }

    fn is_idempotent(&self) -> bool {
        true
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        let task = |t: u32| span(&self.starts, &self.durations, t, value);
        // The load peaks at some task's start.
        self.active.iter().all(|&i| {
            let time = task(i).0;
            let load: i64 = self
                .active
                .iter()
                .filter(|&&j| {
                    let (from, to) = task(j);
                    from <= time && time < to
                })
                .map(|&j| i64::from(self.demands[j as usize]))
                .sum();
            load <= i64::from(self.capacity)
        })
    }

    fn reads_modified(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::{Cumulative, Disjunctive};
    use crate::propagator::Pruning;
    use crate::{Model, ModelError, Solver};

    /// Root domains of starts over `domains` under a disjunctive (`demands` is
    /// `None`) or a cumulative of `capacity`.
    fn root(
        domains: &[&[i32]],
        durations: &[i32],
        cumulative: Option<(&[i32], i32)>,
    ) -> Option<Vec<Vec<i32>>> {
        let mut model = Model::new();
        let starts: Vec<_> = domains
            .iter()
            .map(|d| model.var_from_values(d.iter().copied()).unwrap())
            .collect();
        match cumulative {
            None => model.disjunctive(starts, durations).unwrap(),
            Some((demands, capacity)) => model
                .cumulative(starts, durations, demands, capacity)
                .unwrap(),
        };
        Solver::new(model).root_domains()
    }

    #[test]
    fn disjunctive_orders_tasks_that_fit_one_way() {
        // b (5 long) cannot go first: a goes first, b after it, a early enough.
        assert_eq!(
            root(&[&[0, 1, 2], &[0, 1, 2, 3, 4]], &[3, 5], None),
            Some(vec![vec![0, 1], vec![3, 4]])
        );
        // Chains: a before b (so b from 2 on), then b before c.
        assert_eq!(
            root(&[&[0, 1], &[1, 2, 3, 4], &[3, 4, 5, 6]], &[2, 2, 2], None),
            Some(vec![vec![0, 1], vec![2, 3, 4], vec![4, 5, 6]])
        );
    }

    #[test]
    fn disjunctive_conflicts() {
        // Neither order fits.
        assert_eq!(root(&[&[0], &[1]], &[3, 3], None), None);
        // Any two fit either way, but three tasks of 2 do not fit in [0, 5).
        assert_eq!(root(&[&[0, 1, 2, 3] as &[i32]; 3], &[2, 2, 2], None), None);
    }

    #[test]
    fn zero_durations_are_free() {
        assert_eq!(
            root(&[&[0, 1, 2], &[0]], &[0, 10], None),
            Some(vec![vec![0, 1, 2], vec![0]])
        );
        assert_eq!(
            root(&[&[0, 1, 2], &[0]], &[0, 10], Some((&[5, 1], 1))),
            Some(vec![vec![0, 1, 2], vec![0]])
        );
        // Demand 0 is free too.
        assert_eq!(
            root(&[&[0, 1, 2], &[0]], &[3, 10], Some((&[0, 1], 1))),
            Some(vec![vec![0, 1, 2], vec![0]])
        );
    }

    #[test]
    fn cumulative_moves_starts_off_the_profile() {
        // a surely runs over [4, 6) with demand 2 of 2: b (2 long) starts by 2.
        assert_eq!(
            root(&[&[3, 4], &[0, 1, 2, 3, 4, 5]], &[3, 2], Some((&[2, 1], 2))),
            Some(vec![vec![3, 4], vec![0, 1, 2]])
        );
        // With room for both, nothing moves.
        assert_eq!(
            root(&[&[3, 4], &[0, 1, 2, 3, 4, 5]], &[3, 2], Some((&[2, 1], 3))),
            Some(vec![vec![3, 4], vec![0, 1, 2, 3, 4, 5]])
        );
        // Pushed past two stretches in a row: [1, 3) full, then [3, 5) full.
        assert_eq!(
            root(
                &[&[1], &[3], &[0, 1, 2, 3, 4, 5, 6]],
                &[2, 2, 2],
                Some((&[1, 1, 1], 1))
            ),
            Some(vec![vec![1], vec![3], vec![5, 6]])
        );
    }

    #[test]
    fn cumulative_conflicts() {
        // Compulsory parts over the capacity.
        assert_eq!(root(&[&[0], &[1]], &[2, 2], Some((&[2, 1], 2))), None);
        // A task demanding more than there is.
        assert_eq!(root(&[&[0, 1, 2, 3]], &[1], Some((&[3], 2))), None);
    }

    #[test]
    fn prunings_carry_their_labels() {
        let mut model = Model::new();
        let a = model.var_from_values([0, 1, 2]).unwrap();
        let b = model.var_from_values([0, 1, 2, 3, 4]).unwrap();
        model.disjunctive([a, b], &[3, 5]).unwrap();
        let c = model.var_from_values([3, 4]).unwrap();
        let d = model.var_from_values([0, 1, 2, 3, 4, 5]).unwrap();
        model.cumulative([c, d], &[3, 2], &[2, 1], 2).unwrap();
        let mut solver = Solver::new(model);
        solver.record_prunings(true);
        assert!(solver.root_domains().is_some());
        for Pruning { var, label, .. } in solver.take_prunings() {
            let expected = if var == a || var == b {
                Disjunctive::PRECEDENCE
            } else {
                Cumulative::TIME_TABLING
            };
            assert_eq!(label, expected, "{var:?}");
        }
    }

    #[test]
    fn bad_parameters_are_errors() {
        let mut model = Model::new();
        let x = model.int_var(0, 10).unwrap();
        let y = model.int_var(i32::MAX - 10, i32::MAX - 3).unwrap();
        let invalid = |result: Result<_, ModelError>, needle: &str| match result {
            Err(ModelError::InvalidConstraint { reason, .. }) => {
                assert!(reason.contains(needle), "{reason}");
            }
            other => panic!("{other:?}"),
        };
        invalid(model.disjunctive([x], &[1, 2]), "2 durations for 1 tasks");
        invalid(
            model.disjunctive([x, x], &[1, -2]),
            "task 1 has negative duration -2",
        );
        invalid(model.disjunctive([x, y], &[1, 4]), "task 1 (#1) may end at");
        invalid(
            model.cumulative([x], &[1], &[1, 1], 1),
            "2 demands for 1 tasks",
        );
        invalid(
            model.cumulative([x], &[1], &[-1], 1),
            "task 0 has negative demand -1",
        );
        invalid(
            model.cumulative([x], &[1], &[1], -1),
            "negative capacity -1",
        );
        invalid(
            model.cumulative([y + 2], &[2], &[1], 1),
            "beyond the 32-bit range",
        );
        assert_eq!(
            model.disjunctive(Vec::<crate::VarId>::new(), &[]),
            Err(ModelError::NoVariables {
                constraint: "disjunctive"
            })
        );
        // A start that reaches exactly i32::MAX at its end is fine.
        assert!(model.disjunctive([y], &[3]).is_ok());
        assert_eq!(model.constraint_count(), 1);
    }
}
