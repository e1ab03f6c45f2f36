//! A system of all-different groups, propagated together and value-major.
//!
//! See [`AllDifferentSystem`].

use crate::model::{Model, ModelError, VarId};
use crate::propagator::{Conflict, Context, Propagator};

/// The most variables one system may have (64 words of 64 bits per value).
pub const MAX_SYSTEM_VARIABLES: usize = 64 * 64;

/// Several groups of variables, each taking pairwise different values, propagated as
/// one constraint.
///
/// Sudoku is the example: 27 groups (rows, columns, boxes) over 81 cells. Instead of
/// one [`AllDifferent`](crate::constraints::AllDifferent) per group, each woken and
/// run separately, this keeps, for every value, the set of variables where the value
/// is still possible, as a bitset over the variables, and applies the rules to every
/// group in one pass of word operations, to a fixpoint inside one call:
///
/// - **value elimination** (naked singles): a fixed variable's value leaves its peers,
///   the other variables of every group it belongs to;
/// - **hidden single**: in a group with exactly as many values left (in the union of
///   its domains) as variables, a value with one place left in the group is fixed
///   there; a group with fewer values left than variables fails;
/// - **locked candidates** (optional, [`AllDifferentSystem::locked_candidates`]): in
///   such a group, a value whose places all lie in the part shared with another
///   group leaves the rest of that other group.
///
/// Every variable must have a small domain: all values of all variables must fit in
/// one window of 64 values, and a system has at most [`MAX_SYSTEM_VARIABLES`]
/// variables. Build it with [`AllDifferentSystem::new`] (or
/// [`Model::all_different_system`]), which checks both.
///
/// The domains in the solver stay the truth. Between calls the constraint keeps its
/// value-major copy and the domain words it last saw; each call compares those words
/// with the current ones (so it is right after backtracking, which restores the
/// domains but not this copy) and re-examines only the groups whose variables
/// changed since its previous fixpoint.
///
/// ```
/// use alldiff::{Model, Solver};
///
/// // A 3x3 Latin square: rows and columns all-different.
/// let mut model = Model::new();
/// let x = model.int_vars(9, 1, 3)?;
/// let rows = (0..3).map(|r| (0..3).map(|c| x[r * 3 + c]).collect::<Vec<_>>());
/// let columns = (0..3).map(|c| (0..3).map(|r| x[r * 3 + c]).collect::<Vec<_>>());
/// model.all_different_system(rows.chain(columns))?;
/// assert_eq!(Solver::new(model).count(None).solutions, 12);
/// # Ok::<(), alldiff::ModelError>(())
/// ```
#[derive(Clone, Debug)]
pub struct AllDifferentSystem {
    /// The distinct variables of all groups, in order of first appearance.
    vars: Vec<VarId>,
    /// Each group, as local indices into `vars`.
    groups: Vec<Vec<u32>>,
    /// How far each variable's domain word shifts left into the common window.
    shifts: Vec<u32>,
    locked: bool,
    kernel: Kernel,
}

impl AllDifferentSystem {
    /// The system of `groups` over variables of `model`.
    ///
    /// # Errors
    ///
    /// - [`ModelError::ForeignVariable`] for a variable of another model;
    /// - [`ModelError::InvalidConstraint`] when a group lists a variable twice, when
    ///   the values of all the variables do not fit one window of 64 values, or when
    ///   there are more than [`MAX_SYSTEM_VARIABLES`] variables.
    pub fn new<G, I>(model: &Model, groups: G) -> Result<AllDifferentSystem, ModelError>
    where
        G: IntoIterator<Item = I>,
        I: IntoIterator<Item = VarId>,
    {
        let invalid = |reason: String| ModelError::InvalidConstraint {
            constraint: "all_different_system",
            reason,
        };
        let mut local_of: Vec<Option<u32>> = vec![None; model.var_count()];
        let mut vars = Vec::new();
        let mut local_groups = Vec::new();
        for (g, group) in groups.into_iter().enumerate() {
            let mut locals: Vec<u32> = Vec::new();
            for var in group {
                model.check_var(var)?;
                let local = *local_of[var.index()].get_or_insert_with(|| {
                    vars.push(var);
                    (vars.len() - 1) as u32
                });
                if locals.contains(&local) {
                    return Err(invalid(format!(
                        "group {} lists {} twice",
                        g + 1,
                        model.name(var)
                    )));
                }
                locals.push(local);
            }
            local_groups.push(locals);
        }
        if vars.len() > MAX_SYSTEM_VARIABLES {
            return Err(invalid(format!(
                "{} variables, more than the {MAX_SYSTEM_VARIABLES} a system may have",
                vars.len()
            )));
        }
        let mut words = Vec::with_capacity(vars.len());
        for &var in &vars {
            match model.store.small_word(var.raw()) {
                Some(word) => words.push(word),
                None => {
                    return Err(invalid(format!(
                        "{} has values more than 64 apart",
                        model.name(var)
                    )));
                }
            }
        }
        let base = words.iter().map(|&(_, base)| i64::from(base)).min();
        let top = words
            .iter()
            .map(|&(word, base)| i64::from(base) + 63 - i64::from(word.leading_zeros()))
            .max();
        let (base, top) = (base.unwrap_or(0), top.unwrap_or(0));
        if top - base >= 64 {
            return Err(invalid(format!(
                "the values span {base}..={top}, more than one window of 64 values"
            )));
        }
        let shifts = words
            .iter()
            .map(|&(_, b)| (i64::from(b) - base) as u32)
            .collect();
        let values = (top - base + 1) as usize;
        let kernel = Kernel::new(vars.len(), values, &local_groups);
        Ok(AllDifferentSystem {
            vars,
            groups: local_groups,
            shifts,
            locked: false,
            kernel,
        })
    }

    /// Switches the locked-candidates rule on or off (off by default): it prunes more
    /// per call but costs more per call.
    pub fn locked_candidates(mut self, on: bool) -> AllDifferentSystem {
        self.locked = on;
        self
    }

    /// The groups, each as a list of variables.
    pub fn groups(&self) -> impl Iterator<Item = Vec<VarId>> + '_ {
        self.groups
            .iter()
            .map(|g| g.iter().map(|&i| self.vars[i as usize]).collect())
    }
}

impl Propagator for AllDifferentSystem {
    fn name(&self) -> &'static str {
        "all_different_system"
    }

    fn variables(&self) -> Vec<VarId> {
        self.vars.clone()
    }

    fn is_idempotent(&self) -> bool {
        true
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let vars = Vars {
            vars: &self.vars,
            shifts: &self.shifts,
            locked: self.locked,
        };
        match &mut self.kernel {
            Kernel::W1(k) => k.propagate(ctx, &vars),
            Kernel::W2(k) => k.propagate(ctx, &vars),
            Kernel::W4(k) => k.propagate(ctx, &vars),
            Kernel::W8(k) => k.propagate(ctx, &vars),
            Kernel::W16(k) => k.propagate(ctx, &vars),
            Kernel::W64(k) => k.propagate(ctx, &vars),
        }
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        self.groups.iter().all(|group| {
            let mut seen: Vec<i32> = group
                .iter()
                .map(|&i| value(self.vars[i as usize]))
                .collect();
            seen.sort_unstable();
            seen.windows(2).all(|w| w[0] != w[1])
        })
    }
}

/// The variables as the kernel needs them.
struct Vars<'a> {
    vars: &'a [VarId],
    shifts: &'a [u32],
    locked: bool,
}

/// The value-major state, sized by the number of 64-bit words a set of variables
/// takes.
#[derive(Clone, Debug)]
enum Kernel {
    W1(Box<State<1>>),
    W2(Box<State<2>>),
    W4(Box<State<4>>),
    W8(Box<State<8>>),
    W16(Box<State<16>>),
    W64(Box<State<64>>),
}

impl Kernel {
    fn new(vars: usize, values: usize, groups: &[Vec<u32>]) -> Kernel {
        match vars.div_ceil(64) {
            0 | 1 => Kernel::W1(Box::new(State::new(vars, values, groups))),
            2 => Kernel::W2(Box::new(State::new(vars, values, groups))),
            3 | 4 => Kernel::W4(Box::new(State::new(vars, values, groups))),
            5..=8 => Kernel::W8(Box::new(State::new(vars, values, groups))),
            9..=16 => Kernel::W16(Box::new(State::new(vars, values, groups))),
            _ => Kernel::W64(Box::new(State::new(vars, values, groups))),
        }
    }
}

/// A set of variables (local indices), `W` words wide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cells<const W: usize>([u64; W]);

impl<const W: usize> Cells<W> {
    const EMPTY: Cells<W> = Cells([0; W]);

    fn first(count: usize) -> Cells<W> {
        let mut set = Cells::EMPTY;
        for i in 0..count {
            set.insert(i);
        }
        set
    }

    fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    fn remove(&mut self, i: usize) {
        self.0[i / 64] &= !(1 << (i % 64));
    }

    fn toggle(&mut self, i: usize) {
        self.0[i / 64] ^= 1 << (i % 64);
    }

    fn and(self, other: Cells<W>) -> Cells<W> {
        Cells(std::array::from_fn(|w| self.0[w] & other.0[w]))
    }

    fn or(self, other: Cells<W>) -> Cells<W> {
        Cells(std::array::from_fn(|w| self.0[w] | other.0[w]))
    }

    fn minus(self, other: Cells<W>) -> Cells<W> {
        Cells(std::array::from_fn(|w| self.0[w] & !other.0[w]))
    }

    fn is_empty(self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    fn intersects(self, other: Cells<W>) -> bool {
        !self.and(other).is_empty()
    }

    fn len(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// Whether it holds exactly one variable (without counting: no `popcnt` needed).
    fn is_single(self) -> bool {
        let mut found = false;
        for &w in &self.0 {
            if w != 0 {
                if found || w & (w - 1) != 0 {
                    return false;
                }
                found = true;
            }
        }
        found
    }

    fn ones(self) -> Ones<W> {
        Ones {
            words: self.0,
            index: 0,
        }
    }
}

/// The variables of a [`Cells`], lowest first.
struct Ones<const W: usize> {
    words: [u64; W],
    index: usize,
}

impl<const W: usize> Iterator for Ones<W> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        while self.index < W {
            let word = &mut self.words[self.index];
            if *word != 0 {
                let bit = word.trailing_zeros() as usize;
                *word &= *word - 1;
                return Some(self.index * 64 + bit);
            }
            self.index += 1;
        }
        None
    }
}

/// The bits of a domain word, lowest first.
fn bits(mut word: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (word != 0).then(|| {
            let bit = word.trailing_zeros() as usize;
            word &= word - 1;
            bit
        })
    })
}

/// The value-major copy of the domains, and what is fixed about the groups.
#[derive(Clone, Debug)]
struct State<const W: usize> {
    /// Every variable.
    all: Cells<W>,
    /// Each group's variables.
    groups: Vec<Cells<W>>,
    /// Each group's size.
    sizes: Vec<u32>,
    /// For each variable, the other variables of its groups.
    peers: Vec<Cells<W>>,
    /// Ordered pairs of groups sharing at least two variables (locked candidates).
    pairs: Vec<(u32, u32)>,
    /// For each value (window bit), where it is still possible.
    candidates: Vec<Cells<W>>,
    /// `candidates` when the call started.
    before: Vec<Cells<W>>,
    /// Each variable's domain word, shifted into the window, as `candidates` holds it.
    seen: Vec<u64>,
    /// Whether `seen` is the fixpoint reached by the previous call; if not, every
    /// group is examined.
    at_fixpoint: bool,
    /// Per group, whether it has as many values left as variables (this pass).
    tight: Vec<bool>,
    /// Per variable, the values locked candidates removed in this call.
    locked_removed: Vec<u64>,
    /// Variables that a hidden single fixed in this call.
    hidden: Cells<W>,
}

impl<const W: usize> State<W> {
    fn new(vars: usize, values: usize, groups: &[Vec<u32>]) -> State<W> {
        let sets: Vec<Cells<W>> = groups
            .iter()
            .map(|g| {
                let mut set = Cells::EMPTY;
                for &i in g {
                    set.insert(i as usize);
                }
                set
            })
            .collect();
        let mut peers = vec![Cells::EMPTY; vars];
        for set in &sets {
            for i in set.ones() {
                peers[i] = peers[i].or(*set);
            }
        }
        for (i, p) in peers.iter_mut().enumerate() {
            p.remove(i);
        }
        let mut pairs = Vec::new();
        for (g, a) in sets.iter().enumerate() {
            for (h, b) in sets.iter().enumerate() {
                if g != h && a.and(*b).len() >= 2 && !b.minus(*a).is_empty() {
                    pairs.push((g as u32, h as u32));
                }
            }
        }
        State {
            all: Cells::first(vars),
            sizes: groups.iter().map(|g| g.len() as u32).collect(),
            tight: vec![false; sets.len()],
            groups: sets,
            peers,
            pairs,
            candidates: vec![Cells::EMPTY; values],
            before: vec![Cells::EMPTY; values],
            seen: vec![0; vars],
            at_fixpoint: false,
            locked_removed: vec![0; vars],
            hidden: Cells::EMPTY,
        }
    }

    fn propagate(&mut self, ctx: &mut Context<'_>, vars: &Vars<'_>) -> Result<(), Conflict> {
        let changed = self.sync(ctx, vars)?;
        self.at_fixpoint = false;
        self.before.copy_from_slice(&self.candidates);
        self.hidden = Cells::EMPTY;
        if let Err(conflict) = self.fixpoint(changed, vars.locked) {
            // Back to the copy that agrees with `seen`; the next call examines all.
            self.candidates.copy_from_slice(&self.before);
            self.locked_removed.fill(0);
            return Err(conflict);
        }
        self.write_back(ctx, vars)?;
        self.at_fixpoint = true;
        Ok(())
    }

    /// Brings `candidates` up to date with the domains; returns the variables whose
    /// domains differ from the previous fixpoint (all of them if there is none).
    fn sync(&mut self, ctx: &Context<'_>, vars: &Vars<'_>) -> Result<Cells<W>, Conflict> {
        let mut changed = if self.at_fixpoint {
            Cells::EMPTY
        } else {
            self.all
        };
        for (i, (&var, &shift)) in vars.vars.iter().zip(vars.shifts).enumerate() {
            let (word, _) = ctx.small_word(var.raw()).ok_or(Conflict)?;
            let word = word << shift;
            let diff = word ^ self.seen[i];
            if diff != 0 {
                changed.insert(i);
                self.seen[i] = word;
                for v in bits(diff) {
                    self.candidates[v].toggle(i);
                }
            }
        }
        Ok(changed)
    }

    /// The union of the groups that meet `vars`.
    fn zone(&self, vars: Cells<W>) -> Cells<W> {
        self.groups
            .iter()
            .filter(|g| g.intersects(vars))
            .fold(Cells::EMPTY, |zone, &g| zone.or(g))
    }

    /// Applies the rules until none prunes more, starting from the groups that meet
    /// `changed`.
    fn fixpoint(&mut self, mut changed: Cells<W>, locked: bool) -> Result<(), Conflict> {
        // Fixed variables outside the changed groups were handled at the last fixpoint.
        let mut done = self.all.minus(self.zone(changed));
        loop {
            self.naked_singles(&mut done, &mut changed)?;
            let check = std::mem::replace(&mut changed, Cells::EMPTY);
            self.hidden_singles(check, &mut changed)?;
            if locked {
                self.locked_candidates(check, &mut changed);
            }
            if changed.is_empty() {
                return Ok(());
            }
        }
    }

    /// Value elimination from every fixed variable not in `done`, chaining; fails when
    /// a variable has no value left.
    fn naked_singles(
        &mut self,
        done: &mut Cells<W>,
        changed: &mut Cells<W>,
    ) -> Result<(), Conflict> {
        loop {
            let (mut once, mut twice) = (Cells::EMPTY, Cells::EMPTY);
            for &c in &self.candidates {
                twice = twice.or(once.and(c));
                once = once.or(c);
            }
            if once != self.all {
                return Err(Conflict);
            }
            let new = once.minus(twice).minus(*done);
            if new.is_empty() {
                return Ok(());
            }
            *done = done.or(new);
            for c in &mut self.candidates {
                for i in c.and(new).ones() {
                    let pruned = c.and(self.peers[i]);
                    if !pruned.is_empty() {
                        *changed = changed.or(pruned);
                        *c = c.minus(pruned);
                    }
                }
            }
        }
    }

    /// Hidden singles and the pigeonhole check in the groups that meet `check`.
    fn hidden_singles(&mut self, check: Cells<W>, changed: &mut Cells<W>) -> Result<(), Conflict> {
        for g in 0..self.groups.len() {
            let group = self.groups[g];
            if !group.intersects(check) {
                continue;
            }
            let (mut used, mut singles) = (0u32, 0u64);
            for (v, c) in self.candidates.iter().enumerate() {
                let places = c.and(group);
                if !places.is_empty() {
                    used += 1;
                    if places.is_single() {
                        singles |= 1 << v;
                    }
                }
            }
            let size = self.sizes[g];
            if used < size {
                return Err(Conflict);
            }
            self.tight[g] = used == size;
            if used > size {
                continue;
            }
            for v in bits(singles) {
                let place = self.candidates[v].and(group);
                let mut others = false;
                for (u, c) in self.candidates.iter_mut().enumerate() {
                    if u != v && c.intersects(place) {
                        *c = c.minus(place);
                        others = true;
                    }
                }
                if others {
                    self.hidden = self.hidden.or(place);
                    *changed = changed.or(place);
                }
            }
        }
        Ok(())
    }

    /// Locked candidates between overlapping groups, one of which meets `check`.
    fn locked_candidates(&mut self, check: Cells<W>, changed: &mut Cells<W>) {
        for &(g, h) in &self.pairs {
            let (a, b) = (self.groups[g as usize], self.groups[h as usize]);
            if !self.tight[g as usize] || !a.or(b).intersects(check) {
                continue;
            }
            let rest = b.minus(a);
            for (v, c) in self.candidates.iter_mut().enumerate() {
                let places = c.and(a);
                if !places.is_empty() && places.minus(b).is_empty() && c.intersects(rest) {
                    let pruned = c.and(rest);
                    for i in pruned.ones() {
                        self.locked_removed[i] |= 1 << v;
                    }
                    *changed = changed.or(pruned);
                    *c = c.minus(pruned);
                }
            }
        }
    }

    /// Writes the pruned values back to the domains, naming each removal's rule.
    fn write_back(&mut self, ctx: &mut Context<'_>, vars: &Vars<'_>) -> Result<(), Conflict> {
        let mut touched = Cells::<W>::EMPTY;
        for (v, (&now, &was)) in self.candidates.iter().zip(&self.before).enumerate() {
            let gone = was.minus(now);
            for i in gone.ones() {
                self.seen[i] &= !(1 << v);
            }
            touched = touched.or(gone);
        }
        for i in touched.ones() {
            let (var, shift) = (vars.vars[i].raw(), vars.shifts[i]);
            let word = self.seen[i];
            let locked = std::mem::take(&mut self.locked_removed[i]);
            if locked != 0 && !self.hidden.intersects(single(i)) {
                let (old, _) = ctx.small_word(var).ok_or(Conflict)?;
                ctx.set_rule("locked candidates");
                ctx.retain_small(var, old & !(locked >> shift))?;
            }
            let rule = if self.hidden.intersects(single(i)) {
                "hidden single"
            } else {
                "value elimination"
            };
            ctx.set_rule(rule);
            ctx.retain_small(var, word >> shift)?;
        }
        Ok(())
    }
}

/// The set of one variable.
fn single<const W: usize>(i: usize) -> Cells<W> {
    let mut set = Cells::EMPTY;
    set.insert(i);
    set
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Outcome, Solver};

    /// A `side x side` Latin square: its variables (row-major) and groups.
    fn latin(model: &mut Model, side: usize) -> (Vec<VarId>, Vec<Vec<VarId>>) {
        let x = model.int_vars(side * side, 1, side as i32).unwrap();
        let mut groups: Vec<Vec<VarId>> = (0..side)
            .map(|r| (0..side).map(|c| x[r * side + c]).collect())
            .collect();
        groups.extend((0..side).map(|c| (0..side).map(|r| x[r * side + c]).collect()));
        (x, groups)
    }

    /// The 4x4 Sudoku groups: rows, columns and boxes.
    fn sudoku4(model: &mut Model) -> (Vec<VarId>, Vec<Vec<VarId>>) {
        let (x, mut groups) = latin(model, 4);
        for b in 0..4 {
            let (r0, c0) = (b / 2 * 2, b % 2 * 2);
            groups.push(
                [(0, 0), (0, 1), (1, 0), (1, 1)]
                    .iter()
                    .map(|&(dr, dc)| x[(r0 + dr) * 4 + c0 + dc])
                    .collect(),
            );
        }
        (x, groups)
    }

    #[test]
    fn counts_latin_squares() {
        for (side, count) in [(2, 2), (3, 12), (4, 576)] {
            let mut model = Model::new();
            let (_, groups) = latin(&mut model, side);
            model.all_different_system(groups).unwrap();
            assert_eq!(
                Solver::new(model).count(None).solutions,
                count,
                "side {side}"
            );
        }
    }

    /// Root domains of a 4x4 Sudoku with `clues`, by one system or by separate
    /// all-different constraints with hidden singles.
    fn root_4x4(clues: &[i32; 16], system: bool, locked: bool) -> Option<Vec<Vec<i32>>> {
        let mut model = Model::new();
        let (x, groups) = sudoku4(&mut model);
        if system {
            let system = AllDifferentSystem::new(&model, groups).unwrap();
            model.post(system.locked_candidates(locked)).unwrap();
        } else {
            for group in groups {
                model
                    .all_different_with(group, crate::Strength::HiddenSingles)
                    .unwrap();
            }
        }
        let mut solver = Solver::new(model);
        for (&var, &digit) in x.iter().zip(clues) {
            if digit != 0 {
                solver.assume(var, digit).unwrap();
            }
        }
        let domains = solver.root_domains();
        // A second search from the same solver agrees (the cache follows the store).
        assert_eq!(solver.root_domains(), domains);
        domains
    }

    #[test]
    fn fixpoint_on_4x4_sudoku_matches_separate_constraints() {
        let solvable = [1, 0, 0, 4, 0, 0, 1, 0, 0, 4, 0, 0, 3, 0, 0, 2];
        let domains = root_4x4(&solvable, true, false).expect("consistent");
        let grid: Vec<i32> = domains.iter().map(|d| d[0]).collect();
        assert!(domains.iter().all(|d| d.len() == 1), "{domains:?}");
        assert_eq!(grid, [1, 3, 2, 4, 4, 2, 1, 3, 2, 4, 3, 1, 3, 1, 4, 2]);
        for clues in [
            solvable,
            [0, 0, 0, 4, 0, 0, 1, 0, 0, 4, 0, 0, 3, 0, 0, 0],
            [0; 16],
            [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
        ] {
            let separate = root_4x4(&clues, false, false);
            assert_eq!(root_4x4(&clues, true, false), separate, "{clues:?}");
            if let (Some(with_locked), Some(separate)) = (root_4x4(&clues, true, true), separate) {
                for (l, s) in with_locked.iter().zip(&separate) {
                    assert!(l.iter().all(|v| s.contains(v)), "locked only removes");
                }
            }
        }
    }

    #[test]
    fn hidden_single_is_fixed_and_named() {
        let mut model = Model::new();
        let x = model.int_var(1, 3).unwrap();
        let y = model.int_var(1, 2).unwrap();
        let z = model.int_var(1, 2).unwrap();
        model.all_different_system([[x, y, z]]).unwrap();
        let mut solver = Solver::new(model);
        solver.record_prunings(true);
        let domains = solver.root_domains().unwrap();
        assert_eq!(domains[0], [3]);
        let prunings = solver.take_prunings();
        assert!(
            prunings
                .iter()
                .all(|p| p.rule == "hidden single" && p.var == 0)
        );
        assert_eq!(prunings.len(), 2);
    }

    #[test]
    fn fixed_value_leaves_every_peer() {
        let mut model = Model::new();
        let v = model.int_vars(4, 0, 3).unwrap();
        // x0 is in two groups; x3 is only a peer of nobody but x2.
        model
            .all_different_system([vec![v[0], v[1]], vec![v[0], v[2]], vec![v[2], v[3]]])
            .unwrap();
        let mut solver = Solver::new(model);
        solver.assume(v[0], 2).unwrap();
        let domains = solver.root_domains().unwrap();
        assert_eq!(
            domains,
            [vec![2], vec![0, 1, 3], vec![0, 1, 3], vec![0, 1, 2, 3]]
        );
    }

    #[test]
    fn conflicts_are_found() {
        // Two fixed variables agree.
        let mut model = Model::new();
        let v = model.int_vars(3, 1, 3).unwrap();
        model.all_different_system([[v[0], v[1], v[2]]]).unwrap();
        let mut solver = Solver::new(model);
        solver.assume(v[0], 1).unwrap();
        solver.assume(v[1], 1).unwrap();
        assert_eq!(solver.solve(), Outcome::Unsatisfiable);
        assert_eq!(solver.statistics().nodes, 0, "found at the root");

        // Pigeonhole: three variables, two values.
        let mut model = Model::new();
        let v = model.int_vars(3, 1, 2).unwrap();
        model.all_different_system([[v[0], v[1], v[2]]]).unwrap();
        let mut solver = Solver::new(model);
        assert_eq!(solver.root_domains(), None);

        // A value two groups both need, in the one variable they share.
        let mut model = Model::new();
        let a = model.var_from_values([5]).unwrap();
        let s = model.int_var(4, 5).unwrap();
        let b = model.var_from_values([5]).unwrap();
        model.all_different_system([[a, s], [s, b]]).unwrap();
        model.equal(a, b).unwrap();
        assert_eq!(
            Solver::new(model).root_domains().map(|d| d[1].clone()),
            Some(vec![4])
        );
    }

    #[test]
    fn locked_candidates_prune_the_other_group() {
        // Group A = {a, b, c} over {1, 2, 3}; value 1 is only possible in a and b,
        // which group B = {a, b, d} shares, so d loses 1.
        for locked in [false, true] {
            let mut model = Model::new();
            let a = model.int_var(1, 3).unwrap();
            let b = model.int_var(1, 3).unwrap();
            let c = model.int_var(2, 3).unwrap();
            let d = model.int_var(1, 4).unwrap();
            let system = AllDifferentSystem::new(&model, [[a, b, c], [a, b, d]]).unwrap();
            model.post(system.locked_candidates(locked)).unwrap();
            let mut solver = Solver::new(model);
            solver.record_prunings(true);
            let domains = solver.root_domains().unwrap();
            let expected: Vec<i32> = if locked {
                vec![2, 3, 4]
            } else {
                vec![1, 2, 3, 4]
            };
            assert_eq!(domains[3], expected);
            let rules: Vec<&str> = solver.take_prunings().iter().map(|p| p.rule).collect();
            assert_eq!(rules.contains(&"locked candidates"), locked, "{rules:?}");
        }
    }

    #[test]
    fn rejects_wide_domains_repeats_and_foreign_variables() {
        let mut model = Model::new();
        let x = model.int_var(0, 10).unwrap();
        let y = model.int_var(60, 64).unwrap();
        let z = model.int_var(0, 100).unwrap();
        let error = model.all_different_system([[x, y]]).unwrap_err();
        assert!(
            matches!(error, ModelError::InvalidConstraint { .. }),
            "{error}"
        );
        assert!(model.all_different_system([[z]]).is_err());
        let error = model.all_different_system([[x, x]]).unwrap_err();
        assert!(error.to_string().contains("twice"), "{error}");
        let other = Model::new().int_var(0, 1).unwrap();
        assert!(matches!(
            model.all_different_system([[x, other]]),
            Err(ModelError::ForeignVariable { .. })
        ));
        let no_groups: [[VarId; 0]; 0] = [];
        assert!(matches!(
            model.all_different_system(no_groups),
            Err(ModelError::NoVariables { .. })
        ));
    }

    #[test]
    fn many_variables_use_wider_sets() {
        // 20 x 20 Latin square rows only: 400 variables (7 words), each row a permutation.
        let mut model = Model::new();
        let x = model.int_vars(400, 1, 20).unwrap();
        let rows: Vec<Vec<VarId>> = x.chunks(20).map(<[VarId]>::to_vec).collect();
        let columns: Vec<Vec<VarId>> = (0..20)
            .map(|c| (0..20).map(|r| x[r * 20 + c]).collect())
            .collect();
        model
            .all_different_system(rows.into_iter().chain(columns))
            .unwrap();
        let mut solver = Solver::new(model);
        let Outcome::Solved(solution) = solver.solve() else {
            panic!("Latin squares exist")
        };
        for r in 0..20 {
            let mut row: Vec<i32> = (0..20).map(|c| solution[x[r * 20 + c]]).collect();
            row.sort_unstable();
            assert_eq!(row, (1..=20).collect::<Vec<_>>());
        }
    }
}
