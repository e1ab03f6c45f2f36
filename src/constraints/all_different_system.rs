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
/// value-major copy as its last successful call left it (a fixpoint of the rules);
/// each call compares the copy with the current domain words (so it is right after
/// backtracking, which restores the domains but not this copy) and queues work only
/// where they differ: a value lost by a variable, a variable newly fixed, a variable
/// that got values back. A failed call puts the copy back as it was.
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

    fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    fn remove(&mut self, i: usize) {
        self.0[i / 64] &= !(1 << (i % 64));
    }

    fn contains(self, i: usize) -> bool {
        self.0[i / 64] & (1 << (i % 64)) != 0
    }

    /// Removes and returns the lowest variable.
    fn pop_first(&mut self) -> Option<usize> {
        for (w, word) in self.0.iter_mut().enumerate() {
            if *word != 0 {
                let bit = word.trailing_zeros() as usize;
                *word &= *word - 1;
                return Some(w * 64 + bit);
            }
        }
        None
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

    /// The variable, if it holds exactly one.
    fn only(self) -> Option<usize> {
        let mut ones = self.ones();
        let first = ones.next()?;
        ones.next().is_none().then_some(first)
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

/// The value-major copy of the domains, what is fixed about the groups, and the work
/// left in the current call.
///
/// Between calls the copy (`candidates`, `domains`, `present`, `counts`) is the state
/// the previous successful call left: a fixpoint of the rules, equal to the domains it
/// wrote back. A call compares it with the current domains; the differences are the
/// only places where a rule can newly apply (see [`State::sync`]), so only they are
/// queued. A call that fails puts the copy back as it was, so it stays a fixpoint.
#[derive(Clone, Debug)]
struct State<const W: usize> {
    /// Each group's variables.
    groups: Vec<Cells<W>>,
    /// Each group's size.
    sizes: Vec<u32>,
    /// For each variable, the other variables of its groups.
    peers: Vec<Cells<W>>,
    /// For each variable, the groups it belongs to.
    member_of: Vec<Vec<u32>>,
    /// Ordered pairs of groups sharing at least two variables (locked candidates).
    pairs: Vec<(u32, u32)>,
    /// Every value of the window.
    every_value: u64,
    /// For each value (window bit), where it is still possible.
    candidates: Vec<Cells<W>>,
    /// Each variable's domain word, shifted into the window: `candidates` by variable.
    domains: Vec<u64>,
    /// Per group, the values with a place left in it (may still hold a value whose
    /// last place went since the group was last examined for it: never too few).
    /// Values put back by backtracking are added; the group is examined for them.
    present: Vec<u64>,
    /// Per group, the number of values in `present`.
    counts: Vec<u32>,
    /// The variables with two values or more.
    multi: Cells<W>,
    /// Whether the copy is a fixpoint left by a successful call; if not, the next
    /// call rebuilds it from the domains and examines everything.
    valid: bool,
    /// [`Context::searches`] at the last successful call: while it is the same,
    /// restored domains are a choice point's, a fixpoint of the rules.
    seen_search: u64,
    /// The copy at the start of the call, put back on failure.
    saved_candidates: Vec<Cells<W>>,
    saved_domains: Vec<u64>,
    saved_present: Vec<u64>,
    saved_counts: Vec<u32>,
    saved_multi: Cells<W>,
    /// Work: per value, the variables that lost it (or changed otherwise) and whose
    /// groups must be examined for it.
    lost: Vec<Cells<W>>,
    /// Work: the values whose `lost` is not empty.
    lost_values: u64,
    /// Work: fixed variables whose value must leave their peers.
    fixed: Cells<W>,
    /// Variables whose domains this call pruned, to write back.
    touched: Cells<W>,
    /// Variables that a hidden single fixed in this call.
    hidden: Cells<W>,
    /// Per variable, the values locked candidates removed in this call.
    locked_removed: Vec<u64>,
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
        let mut member_of = vec![Vec::new(); vars];
        for (g, set) in sets.iter().enumerate() {
            for i in set.ones() {
                peers[i] = peers[i].or(*set);
                member_of[i].push(g as u32);
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
        let every_value = if values >= 64 {
            u64::MAX
        } else {
            (1u64 << values) - 1
        };
        State {
            sizes: groups.iter().map(|g| g.len() as u32).collect(),
            present: vec![0; sets.len()],
            counts: vec![0; sets.len()],
            saved_present: vec![0; sets.len()],
            saved_counts: vec![0; sets.len()],
            groups: sets,
            peers,
            member_of,
            pairs,
            every_value,
            candidates: vec![Cells::EMPTY; values],
            domains: vec![0; vars],
            multi: Cells::EMPTY,
            saved_multi: Cells::EMPTY,
            valid: false,
            seen_search: u64::MAX,
            saved_candidates: vec![Cells::EMPTY; values],
            saved_domains: vec![0; vars],
            lost: vec![Cells::EMPTY; values],
            lost_values: 0,
            fixed: Cells::EMPTY,
            touched: Cells::EMPTY,
            hidden: Cells::EMPTY,
            locked_removed: vec![0; vars],
        }
    }

    fn propagate(&mut self, ctx: &mut Context<'_>, vars: &Vars<'_>) -> Result<(), Conflict> {
        let was_valid = self.valid;
        if was_valid {
            self.saved_candidates.copy_from_slice(&self.candidates);
            self.saved_domains.copy_from_slice(&self.domains);
            self.saved_present.copy_from_slice(&self.present);
            self.saved_counts.copy_from_slice(&self.counts);
            self.saved_multi = self.multi;
        }
        self.touched = Cells::EMPTY;
        self.hidden = Cells::EMPTY;
        let result = self
            .sync(ctx, vars)
            .and_then(|()| self.fixpoint(vars.locked))
            .and_then(|()| self.write_back(ctx, vars));
        if result.is_err() {
            self.lost_values = 0;
            self.lost.fill(Cells::EMPTY);
            self.fixed = Cells::EMPTY;
            self.locked_removed.fill(0);
            if was_valid {
                self.candidates.copy_from_slice(&self.saved_candidates);
                self.domains.copy_from_slice(&self.saved_domains);
                self.present.copy_from_slice(&self.saved_present);
                self.counts.copy_from_slice(&self.saved_counts);
                self.multi = self.saved_multi;
            } else {
                self.valid = false;
            }
        }
        result
    }

    /// Brings the copy up to date with the domains and queues the work.
    ///
    /// When the copy is a fixpoint, a rule can newly apply only where something
    /// differs: a variable that lost a value `v` (its groups, for `v`), a variable that
    /// became fixed (naked single), or a variable that gained values, which happens
    /// after backtracking (its groups, for every value, and every fixed variable of
    /// those groups). Otherwise everything is queued.
    fn sync(&mut self, ctx: &Context<'_>, vars: &Vars<'_>) -> Result<(), Conflict> {
        if !self.valid {
            return self.rebuild(ctx, vars);
        }
        let mut added = Cells::<W>::EMPTY;
        for (i, (&var, &shift)) in vars.vars.iter().zip(vars.shifts).enumerate() {
            let (word, _) = ctx.small_word(var.raw()).ok_or(Conflict)?;
            let word = word << shift;
            let old = self.domains[i];
            if word == old {
                continue;
            }
            if word == 0 {
                return Err(Conflict);
            }
            self.domains[i] = word;
            let (gone, new) = (old & !word, word & !old);
            for v in bits(gone) {
                self.candidates[v].remove(i);
                self.lost[v].insert(i);
            }
            self.lost_values |= gone;
            if new != 0 {
                for v in bits(new) {
                    self.candidates[v].insert(i);
                }
                for &g in &self.member_of[i] {
                    let present = self.present[g as usize] | new;
                    self.present[g as usize] = present;
                    self.counts[g as usize] = present.count_ones();
                }
                added.insert(i);
            }
            if word & (word - 1) == 0 {
                self.fixed.insert(i);
                self.multi.remove(i);
            } else {
                self.multi.insert(i);
            }
        }
        // Values come back when the search backtracks to a choice point, which was a
        // fixpoint of these rules: nothing restored needs another look, only what the
        // backtrack removed (above). In a new search they come back from the model's
        // domains, which need not be a fixpoint: look again around them.
        if !added.is_empty() && ctx.searches() != self.seen_search {
            // A fixed variable may now have its value back in a peer.
            let zone = added.ones().fold(added, |zone, i| zone.or(self.peers[i]));
            self.fixed = self.fixed.or(zone.minus(self.multi));
            for v in bits(self.every_value) {
                self.lost[v] = self.lost[v].or(added);
            }
            self.lost_values = self.every_value;
        }
        Ok(())
    }

    /// Recomputes `present` and `counts` of group `g` from the candidates.
    fn recount(&mut self, g: usize) {
        let group = self.groups[g];
        let mut present = 0u64;
        for (v, c) in self.candidates.iter().enumerate() {
            if c.intersects(group) {
                present |= 1 << v;
            }
        }
        self.present[g] = present;
        self.counts[g] = present.count_ones();
    }

    /// Rebuilds the copy from the domains and queues everything.
    fn rebuild(&mut self, ctx: &Context<'_>, vars: &Vars<'_>) -> Result<(), Conflict> {
        self.candidates.fill(Cells::EMPTY);
        self.fixed = Cells::EMPTY;
        self.multi = Cells::EMPTY;
        for (i, (&var, &shift)) in vars.vars.iter().zip(vars.shifts).enumerate() {
            let (word, _) = ctx.small_word(var.raw()).ok_or(Conflict)?;
            let word = word << shift;
            if word == 0 {
                return Err(Conflict);
            }
            self.domains[i] = word;
            for v in bits(word) {
                self.candidates[v].insert(i);
            }
            if word & (word - 1) == 0 {
                self.fixed.insert(i);
            } else {
                self.multi.insert(i);
            }
        }
        let mut all = Cells::EMPTY;
        for g in 0..self.groups.len() {
            self.recount(g);
            if self.counts[g] < self.sizes[g] {
                return Err(Conflict);
            }
            all = all.or(self.groups[g]);
        }
        self.lost.fill(all);
        self.lost_values = self.every_value;
        Ok(())
    }

    /// Removes value `v` from the variables `set`, which all have it.
    fn remove_from(&mut self, v: usize, set: Cells<W>) -> Result<(), Conflict> {
        let bit = 1u64 << v;
        self.candidates[v] = self.candidates[v].minus(set);
        self.lost[v] = self.lost[v].or(set);
        self.lost_values |= bit;
        self.touched = self.touched.or(set);
        for (w, &word) in set.0.iter().enumerate() {
            let mut rest = word;
            while rest != 0 {
                let j = w * 64 + rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let Some(domain) = self.domains.get_mut(j) else {
                    continue;
                };
                let d = *domain & !bit;
                *domain = d;
                if d & d.wrapping_sub(1) == 0 {
                    if d == 0 {
                        return Err(Conflict);
                    }
                    self.fixed.insert(j);
                    self.multi.remove(j);
                }
            }
        }
        Ok(())
    }

    /// Applies the rules until the queued work is done.
    fn fixpoint(&mut self, locked: bool) -> Result<(), Conflict> {
        loop {
            while let Some(i) = self.fixed.pop_first() {
                let d = self.domains[i];
                let v = d.trailing_zeros() as usize;
                let pruned = self.candidates[v].and(self.peers[i]);
                if !pruned.is_empty() {
                    self.remove_from(v, pruned)?;
                }
            }
            if self.lost_values == 0 {
                return Ok(());
            }
            let v = self.lost_values.trailing_zeros() as usize;
            self.lost_values &= self.lost_values - 1;
            let lost = std::mem::replace(&mut self.lost[v], Cells::EMPTY);
            self.hidden_singles(v, lost)?;
            if locked {
                self.locked_candidates(v, lost)?;
            }
        }
    }

    /// Hidden singles of value `v` and the pigeonhole check, in the groups of the one
    /// variable of `lost` if there is one, else in every group.
    ///
    /// Every group is scanned 64 at a time without branches, collecting the groups
    /// where `v` just lost its last place and those where its one place is a variable
    /// not yet fixed; only those are then examined.
    fn hidden_singles(&mut self, v: usize, lost: Cells<W>) -> Result<(), Conflict> {
        if let Some(i) = lost.only() {
            // One variable lost `v` (often: a hidden single fixed it): its groups only.
            for k in 0..self.member_of[i].len() {
                self.examine(v, self.member_of[i][k] as usize)?;
            }
            return Ok(());
        }
        let (candidates, multi) = (self.candidates[v], self.multi);
        for start in (0..self.groups.len()).step_by(64) {
            let end = self.groups.len().min(start + 64);
            let (mut emptied, mut singles) = (0u64, 0u64);
            for (k, (group, &present)) in self.groups[start..end]
                .iter()
                .zip(&self.present[start..end])
                .enumerate()
            {
                let places = candidates.and(*group);
                let (mut words, mut crowded, mut open) = (0u64, 0u64, 0u64);
                for (&p, &m) in places.0.iter().zip(&multi.0) {
                    words += u64::from(p != 0);
                    crowded |= p & p.wrapping_sub(1);
                    open |= p & m;
                }
                let was_present = (present >> v) & 1;
                emptied |= (u64::from(words == 0) & was_present) << k;
                singles |= (u64::from(words == 1 && crowded == 0 && open != 0)) << k;
            }
            for k in bits(emptied | singles) {
                self.examine(v, start + k)?;
            }
        }
        Ok(())
    }

    /// Hidden single of value `v` and the pigeonhole check in group `g`.
    fn examine(&mut self, v: usize, g: usize) -> Result<(), Conflict> {
        let bit = 1u64 << v;
        let places = self.candidates[v].and(self.groups[g]);
        let mut ones = places.ones();
        let Some(i) = ones.next() else {
            if self.present[g] & bit != 0 {
                self.leave_group(g, bit)?;
            }
            return Ok(());
        };
        if ones.next().is_some() || self.counts[g] != self.sizes[g] {
            return Ok(());
        }
        let others = self.domains[i] & !bit;
        if others == 0 {
            return Ok(());
        }
        for u in bits(others) {
            self.candidates[u].remove(i);
            self.lost[u].insert(i);
        }
        self.lost_values |= others;
        self.domains[i] = bit;
        self.multi.remove(i);
        self.touched.insert(i);
        self.hidden.insert(i);
        self.fixed.insert(i);
        Ok(())
    }

    /// Value `bit` has no place left in group `g`: fails if too few values are left.
    fn leave_group(&mut self, g: usize, bit: u64) -> Result<(), Conflict> {
        self.present[g] &= !bit;
        self.counts[g] -= 1;
        let (count, size) = (self.counts[g], self.sizes[g]);
        if count < size {
            return Err(Conflict);
        }
        if count == size {
            // Newly tight: every value of the group is worth a look.
            let group = self.groups[g];
            for u in bits(self.every_value) {
                self.lost[u] = self.lost[u].or(group);
            }
            self.lost_values = self.every_value;
        }
        Ok(())
    }

    /// Locked candidates of value `v` between overlapping groups, one of which meets
    /// `lost`.
    fn locked_candidates(&mut self, v: usize, lost: Cells<W>) -> Result<(), Conflict> {
        for p in 0..self.pairs.len() {
            let (g, h) = (self.pairs[p].0 as usize, self.pairs[p].1 as usize);
            let (a, b) = (self.groups[g], self.groups[h]);
            if self.counts[g] != self.sizes[g] || !a.or(b).intersects(lost) {
                continue;
            }
            let c = self.candidates[v];
            let places = c.and(a);
            if places.is_empty() || !places.minus(b).is_empty() {
                continue;
            }
            let pruned = c.and(b.minus(a));
            if pruned.is_empty() {
                continue;
            }
            for j in pruned.ones() {
                self.locked_removed[j] |= 1 << v;
            }
            self.remove_from(v, pruned)?;
        }
        Ok(())
    }

    /// Writes the pruned values back to the domains, naming each removal's rule.
    fn write_back(&mut self, ctx: &mut Context<'_>, vars: &Vars<'_>) -> Result<(), Conflict> {
        for i in self.touched.ones() {
            let (var, shift) = (vars.vars[i].raw(), vars.shifts[i]);
            let word = self.domains[i];
            let hidden = self.hidden.contains(i);
            let locked = std::mem::take(&mut self.locked_removed[i]);
            if locked != 0 && !hidden {
                let (old, _) = ctx.small_word(var).ok_or(Conflict)?;
                ctx.set_rule("locked candidates");
                ctx.retain_small(var, old & !(locked >> shift))?;
            }
            ctx.set_rule(if hidden {
                "hidden single"
            } else {
                "value elimination"
            });
            ctx.retain_small(var, word >> shift)?;
        }
        self.valid = true;
        self.seen_search = ctx.searches();
        Ok(())
    }
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
