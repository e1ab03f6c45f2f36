//! Intersection: two all-different groups that share some views, each using every
//! value of its union ("locked candidates" in Sudoku, found generically).
//!
//! See [`Intersection`].

use crate::constraints::AllDifferent;
use crate::constraints::value_index::ValueIndex;
use crate::constraints::word_window::window_shifts;
use crate::error::ModelError;
use crate::ids::{VarId, View};
use crate::propagator::{Conflict, Context, InferenceLabel, PostContext, Propagator, Wake};

/// Two overlapping all-different groups pruning each other.
///
/// Take two groups of views, each all-different, that overlap. When a group has as
/// many values left in the union of its domains as it has views, it is a permutation
/// of those values: every value is used exactly once. If such a value can only go to
/// views the group shares with the other group, the value is taken inside the shared
/// part, so the other group cannot use it anywhere else: it is removed from the other
/// group's views outside the shared part. The rule runs both ways.
///
/// In Sudoku, a box and a row (or a box and a column) are two such groups: a digit
/// whose candidates in a box all lie in one row is removed from the rest of that row
/// ("pointing"), and a digit whose candidates in a row all lie in one box is removed
/// from the rest of that box ("claiming").
///
/// The constraint means "each group is all-different"; it checks that on fixed views
/// (two equal fixed values in a group fail), but it is meant to sit beside
/// [`AllDifferent`] constraints on the same groups, which do the
/// ordinary pruning. Shared views are those equal in both groups (same variable, same
/// offset). Cost per call: O(n + d), d the sum of the domain sizes.
#[derive(Clone, Debug)]
pub struct Intersection {
    groups: [Vec<View>; 2],
    /// For each group, whether each of its views is also in the other group.
    shared: [Vec<bool>; 2],
    /// The group's values in play, numbered for `seen`.
    values: ValueIndex,
    /// Per value (by its number), bit 0: seen in the shared part, bit 1: seen
    /// outside it, bit 2: fixed to it.
    seen: Vec<u8>,
    /// Values confined to the shared part, to remove from the other group, each with
    /// whether a shared view is fixed to it.
    locked: Vec<(i32, bool)>,
    /// The fixed views' values, when a view is wider than its group (see
    /// `find_locked`).
    fixed_values: Vec<i32>,
    /// For each group, how each view's domain word shifts into one 64-value window,
    /// when all of them fit one; found when posted ([`window_shifts`]).
    window: Option<[Vec<u32>; 2]>,
}

const SHARED: u8 = 1;
const OUTSIDE: u8 = 2;
const FIXED: u8 = 4;

impl Intersection {
    /// The label of its removals ([`Context::set_label`]): a value confined to the
    /// shared part leaves the other group's views outside it. A value fixed in the
    /// shared part leaves them as [`AllDifferent::VALUE_ELIMINATION`].
    pub const CONFINED: InferenceLabel = InferenceLabel::new("confined to the shared part");

    /// The constraint over the groups `a` and `b`. Views that appear in both are the
    /// shared part. Repeats inside one group make it unsatisfiable, as for
    /// all-different.
    pub fn new(a: Vec<View>, b: Vec<View>) -> Intersection {
        let shared_a = a.iter().map(|v| b.contains(v)).collect();
        let shared_b = b.iter().map(|v| a.contains(v)).collect();
        Intersection {
            groups: [a, b],
            shared: [shared_a, shared_b],
            values: ValueIndex::default(),
            seen: Vec::new(),
            locked: Vec::new(),
            fixed_values: Vec::new(),
            window: None,
        }
    }

    /// The two groups.
    pub fn groups(&self) -> (&[View], &[View]) {
        (&self.groups[0], &self.groups[1])
    }

    /// The locked-candidates rule on bitmasks, both ways, to a fixpoint.
    fn propagate_bits(
        &mut self,
        ctx: &mut Context<'_>,
        shifts: &[Vec<u32>; 2],
    ) -> Result<(), Conflict> {
        loop {
            let mut progress = false;
            for g in 0..2 {
                let (mut shared, mut outside, mut fixed) = (0u64, 0u64, 0u64);
                let mut fixed_shared = 0u64;
                for ((view, &is_shared), &shift) in
                    self.groups[g].iter().zip(&self.shared[g]).zip(&shifts[g])
                {
                    let (word, _) = ctx.small_word(view.var).ok_or(Conflict)?;
                    let mask = word << shift;
                    if mask & mask.wrapping_sub(1) == 0 {
                        if fixed & mask != 0 {
                            return Err(Conflict);
                        }
                        fixed |= mask;
                        if is_shared {
                            fixed_shared |= mask;
                        }
                    }
                    if is_shared {
                        shared |= mask;
                    } else {
                        outside |= mask;
                    }
                }
                let used = (shared | outside).count_ones() as usize;
                if used < self.groups[g].len() {
                    return Err(Conflict);
                }
                let locked = shared & !outside;
                if used > self.groups[g].len() || locked == 0 {
                    continue;
                }
                let other = 1 - g;
                for ((view, &is_shared), &shift) in self.groups[other]
                    .iter()
                    .zip(&self.shared[other])
                    .zip(&shifts[other])
                {
                    if is_shared {
                        continue;
                    }
                    let var = view.var;
                    // A value fixed in the shared part leaves by plain value
                    // elimination; only the others are locked candidates.
                    for (label, values) in [
                        (AllDifferent::VALUE_ELIMINATION, locked & fixed_shared),
                        (Intersection::CONFINED, locked & !fixed_shared),
                    ] {
                        let (word, _) = ctx.small_word(var).ok_or(Conflict)?;
                        let keep = word & !(values >> shift);
                        if keep != word {
                            ctx.set_label(label);
                            ctx.retain_small(var, keep)?;
                            progress = true;
                        }
                    }
                }
            }
            if !progress {
                return Ok(());
            }
        }
    }

    /// Finds, for group `g`, the values confined to its shared part (into `locked`).
    /// Fails when two fixed views agree or fewer values are left than views.
    fn find_locked(&mut self, ctx: &Context<'_>, g: usize) -> Result<(), Conflict> {
        self.locked.clear();
        let group = &self.groups[g];
        if (group.iter()).any(|&view| ctx.size(view) as usize > group.len()) {
            // More values than views: not a permutation, and no per-value array over
            // a domain that may be four billion values wide. Only two fixed views
            // agreeing fail.
            let fixed = &mut self.fixed_values;
            fixed.clear();
            fixed.extend(group.iter().filter_map(|&view| ctx.value(view)));
            fixed.sort_unstable();
            let agree = fixed.windows(2).any(|w| w[0] == w[1]);
            return if agree { Err(Conflict) } else { Ok(()) };
        }
        self.values.build(ctx, group);
        if self.values.len() < group.len() {
            return Err(Conflict);
        }
        self.seen.clear();
        self.seen.resize(self.values.len(), 0);
        for (&view, &shared) in group.iter().zip(&self.shared[g]) {
            if let Some(value) = ctx.value(view) {
                let slot = &mut self.seen[self.values.index(value)];
                if *slot & FIXED != 0 {
                    return Err(Conflict);
                }
                *slot |= FIXED;
            }
            let mark = if shared { SHARED } else { OUTSIDE };
            for value in ctx.values(view) {
                self.seen[self.values.index(value)] |= mark;
            }
        }
        let used = self.seen.iter().filter(|&&s| s != 0).count();
        if used < group.len() {
            return Err(Conflict);
        }
        if used > group.len() {
            // Not a permutation (yet): no value is sure to be used.
            return Ok(());
        }
        for (offset, &s) in self.seen.iter().enumerate() {
            if s & (SHARED | OUTSIDE) == SHARED {
                self.locked
                    .push((self.values.value(offset), s & FIXED != 0));
            }
        }
        Ok(())
    }
}

impl Propagator for Intersection {
    fn name(&self) -> &'static str {
        "intersection"
    }

    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        for &view in self.groups.iter().flatten() {
            ctx.check(view)?;
        }
        // The first group, and the rest of the second.
        let mut vars: Vec<VarId> = self.groups[0].iter().map(|v| v.var).collect();
        for (view, &shared) in self.groups[1].iter().zip(&self.shared[1]) {
            if !shared && !vars.contains(&view.var) {
                vars.push(view.var);
            }
        }
        ctx.watch_all(vars, Wake::Domain)?;
        self.window = window_shifts(ctx, self.groups.iter().flatten()).map(|mut shifts| {
            let second = shifts.split_off(self.groups[0].len());
            [shifts, second]
        });
        Ok(())
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        ctx.set_label(Intersection::CONFINED);
        if let Some(shifts) = self.window.take() {
            let result = self.propagate_bits(ctx, &shifts);
            self.window = Some(shifts);
            return result;
        }
        loop {
            let mut progress = false;
            for g in 0..2 {
                self.find_locked(ctx, g)?;
                let other = 1 - g;
                for &(value, fixed) in &self.locked {
                    ctx.set_label(if fixed {
                        AllDifferent::VALUE_ELIMINATION
                    } else {
                        Intersection::CONFINED
                    });
                    for (&view, &shared) in self.groups[other].iter().zip(&self.shared[other]) {
                        if !shared {
                            progress |= ctx.remove(view, value)?;
                        }
                    }
                }
            }
            if !progress {
                return Ok(());
            }
        }
    }

    fn is_idempotent(&self) -> bool {
        true
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        self.groups.iter().all(|group| {
            let mut values: Vec<i64> = group
                .iter()
                .map(|v| i64::from(value(v.var)) + i64::from(v.offset))
                .collect();
            values.sort_unstable();
            values.windows(2).all(|w| w[0] != w[1])
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Model, Solver, Strength};

    /// Two groups of three over values 1..=3 sharing two variables: a = [s0, s1, x],
    /// b = [s0, s1, y].
    fn pair(domains: [&[i32]; 4]) -> (Solver, [VarId; 4]) {
        let mut model = Model::new();
        let vars: Vec<VarId> = domains
            .iter()
            .map(|d| model.var_from_values(d.iter().copied()).unwrap())
            .collect();
        let (s0, s1, x, y) = (vars[0], vars[1], vars[2], vars[3]);
        model
            .post(Intersection::new(
                vec![s0.into(), s1.into(), x.into()],
                vec![s0.into(), s1.into(), y.into()],
            ))
            .unwrap();
        (Solver::new(model), [s0, s1, x, y])
    }

    #[test]
    fn value_confined_to_shared_part_leaves_the_other_group() {
        // In a, value 1 can only go to s0 or s1; so y != 1. Nothing else is locked:
        // 2 and 3 also appear at x.
        let (mut solver, [_, _, _, y]) = pair([&[1, 2, 3], &[1, 2, 3], &[2, 3], &[1, 2, 3]]);
        let domains = solver.root_domains().unwrap();
        assert_eq!(domains[y.index()], vec![2, 3]);
        assert_eq!(domains[0], vec![1, 2, 3]);
        assert_eq!(domains[2], vec![2, 3]);
    }

    #[test]
    fn prunes_both_ways_to_a_fixpoint() {
        // a: 1 confined to the shared part, so y loses 1 and becomes {3}; then in b
        // 3 is only at y... and 2 only in the shared part, so x loses 2 -> x = {3}.
        let (mut solver, [_, _, x, y]) = pair([&[1, 2], &[1, 2], &[2, 3], &[1, 3]]);
        let domains = solver.root_domains().unwrap();
        assert_eq!(domains[y.index()], vec![3]);
        assert_eq!(domains[x.index()], vec![3]);
    }

    #[test]
    fn wide_domains_prune_the_same_way() {
        // The same as above with values 100 apart, beyond one 64-value window.
        let (mut solver, [_, _, x, y]) = pair([&[100, 200], &[100, 200], &[200, 300], &[100, 300]]);
        let domains = solver.root_domains().unwrap();
        assert_eq!(domains[y.index()], vec![300]);
        assert_eq!(domains[x.index()], vec![300]);
        let (mut solver, _) = pair([&[100], &[100], &[200, 300], &[200, 300]]);
        assert!(solver.root_domains().is_none());
    }

    #[test]
    fn a_value_fixed_in_the_shared_part_is_named_value_elimination() {
        // In a = {1}, {2, 3}, {3}, 1 is fixed at s0 and 2 confined to s1: y loses 1 by value
        // elimination and 2 as a locked candidate, on both paths.
        for scale in [1, 100] {
            let d = |values: &[i32]| values.iter().map(|v| v * scale).collect::<Vec<_>>();
            let (a, b, c, e) = (d(&[1]), d(&[2, 3]), d(&[3]), d(&[1, 2, 3, 4]));
            let (mut solver, [.., y]) = pair([&a, &b, &c, &e]);
            solver.record_prunings(true);
            assert!(solver.root_domains().is_some());
            let mut labels: Vec<(i32, &str)> = solver
                .take_prunings()
                .iter()
                .filter(|p| p.var == y)
                .map(|p| (p.value / scale, p.label.name()))
                .collect();
            labels.sort();
            assert_eq!(
                labels,
                vec![
                    (1, AllDifferent::VALUE_ELIMINATION.name()),
                    (2, Intersection::CONFINED.name())
                ],
                "scale {scale}"
            );
        }
    }

    #[test]
    fn no_pruning_unless_the_group_is_a_permutation() {
        // Group a has values {1, 2, 3, 4} for three views: 1 need not be used.
        let (mut solver, [_, _, _, y]) = pair([&[1, 2], &[1, 2], &[3, 4], &[1, 2, 3]]);
        let domains = solver.root_domains().unwrap();
        assert_eq!(domains[y.index()], vec![1, 2, 3]);
    }

    #[test]
    fn conflict_when_values_run_short_or_repeat() {
        let (mut solver, _) = pair([&[1, 2], &[1, 2], &[1, 2], &[1, 2, 3]]);
        assert!(solver.root_domains().is_none());
        let (mut solver, _) = pair([&[1], &[1], &[2, 3], &[2, 3]]);
        assert!(solver.root_domains().is_none());
    }

    #[test]
    fn emptied_domain_is_a_conflict() {
        // 1 and 2 are confined to the shared part of a, and y has only those.
        let (mut solver, _) = pair([&[1, 2], &[1, 2], &[3], &[1, 2]]);
        assert!(solver.root_domains().is_none());
    }

    #[test]
    fn counts_agree_with_plain_all_different() {
        // Beside all-different on both groups, the count of solutions is unchanged.
        let count = |with: bool| {
            let mut model = Model::new();
            let v = model.int_vars(5, 1, 3).unwrap();
            let a = vec![v[0], v[1], v[2]];
            let b = vec![v[0], v[3], v[4]];
            model
                .all_different_with(a.clone(), Strength::Value)
                .unwrap();
            model
                .all_different_with(b.clone(), Strength::Value)
                .unwrap();
            if with {
                model
                    .post(Intersection::new(
                        a.into_iter().map(Into::into).collect(),
                        b.into_iter().map(Into::into).collect(),
                    ))
                    .unwrap();
            }
            Solver::new(model).count(None).solutions
        };
        assert_eq!(count(false), 3 * 2 * 2);
        assert_eq!(count(true), count(false));
    }

    #[test]
    fn satisfied_means_both_groups_all_different() {
        let (solver, [s0, s1, x, y]) = pair([&[1, 2, 3]; 4]);
        let c = Intersection::new(
            vec![s0.into(), s1.into(), x.into()],
            vec![s0.into(), s1.into(), y.into()],
        );
        let _ = solver;
        let good = |v: VarId| [1, 2, 3, 3][v.index()];
        let bad = |v: VarId| [1, 2, 2, 3][v.index()];
        assert!(c.is_satisfied(&good));
        assert!(!c.is_satisfied(&bad));
    }
}
