//! A system of all-different groups, propagated together and value-major.
//!
//! See [`AllDifferentSystem`].

use crate::error::ModelError;
use crate::ids::VarId;
use crate::model::Model;
use crate::propagator::{Conflict, Context, PostContext, Propagator, Rule, Wake};

/// The most variables one system may have (64 words of 64 bits per value).
pub const MAX_SYSTEM_VARIABLES: usize = 64 * 64;

/// Several groups of variables, each taking pairwise different values, propagated as
/// one constraint.
///
/// Sudoku is the example: 27 groups (rows, columns, boxes) over 81 cells. Instead of
/// one [`AllDifferent`](crate::constraints::AllDifferent) per group, each woken and
/// run separately, this keeps, for every value, the set of variables where the value
/// is still possible, as a bitset over the variables, and applies the rules to the
/// groups with word operations, to a fixpoint inside one call:
///
/// - **value elimination** (naked singles): a fixed variable's value leaves its peers,
///   the other variables of every group it belongs to;
/// - **hidden single**: in a group with exactly as many values left (in the union of
///   its domains) as variables, a value with one place left in the group is fixed
///   there; a group with fewer values left than variables fails;
/// - **locked candidates** (optional, [`AllDifferentSystem::locked_candidates`]): in
///   such a group, a value whose places all lie in the part shared with another
///   group leaves the rest of that other group; in every call, or only in the first
///   call of each search, at the root ([`LockedCandidates`]).
///
/// Every variable must have a small domain: all values of all variables must fit in
/// one window of 64 values, and a system has at most [`MAX_SYSTEM_VARIABLES`]
/// variables. Build it with [`AllDifferentSystem::new`] (or
/// [`Model::all_different_system`]), which checks both.
///
/// The value-major sets are backtrackable state
/// ([`Propagator::initial_state`]): the solver restores them with the domains, so they
/// always describe the domains as the constraint's last call left them, a fixpoint of
/// the rules. A call then only looks where [`Context::modified`] says the domains
/// changed since: the values a variable lost, in its groups, and the peers of a
/// variable newly fixed. If the rules change nothing in the model's own domains, every
/// search starts from the sets built for them; otherwise the first call of a search
/// builds the sets and looks everywhere.
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
    /// The distinct variables of all groups, in order of first appearance; the rest
    /// of the constraint names them by their index here.
    vars: Vec<VarId>,
    /// Each group, as indices into `vars`.
    groups: Vec<Vec<u32>>,
    /// Where the store keeps each variable's domain word.
    words: Vec<DomainWord>,
    /// The store cell of the first variable's word, if the others follow it in order
    /// and none shifts: then all are read at once.
    contiguous: Option<usize>,
    locked: LockedCandidates,
    kernel: Kernel,
}

/// When an [`AllDifferentSystem`] applies its locked-candidates rule.
///
/// The rule prunes more than singles but costs more per call, and most of what it
/// saves it saves at the root: on Sudoku, applying it at the root only leaves the
/// search trees nearly as small as applying it everywhere (on 1,000 17-clue puzzles,
/// 2.3 nodes a puzzle against 1.8, and 13.9 with singles alone), at little more than
/// the cost of singles below the root.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum LockedCandidates {
    /// Never: singles only.
    #[default]
    Off,
    /// In the first call of each search, at the root, before any choice. With
    /// [`Solver::push_level`](crate::Solver::push_level), the root is below the
    /// levels: the searches that start from them apply singles only.
    AtRoot,
    /// In every call.
    Always,
}

impl From<bool> for LockedCandidates {
    /// `true` is [`LockedCandidates::Always`], `false` [`LockedCandidates::Off`].
    fn from(on: bool) -> LockedCandidates {
        if on {
            LockedCandidates::Always
        } else {
            LockedCandidates::Off
        }
    }
}

/// Where the store keeps one variable's domain word, and how far it shifts left into
/// the common window of values.
#[derive(Clone, Copy, Debug)]
struct DomainWord {
    cell: usize,
    shift: u32,
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
        let mut found = Vec::with_capacity(vars.len());
        for &var in &vars {
            let word = model.vars.store.small_word(var.raw());
            match word.zip(model.vars.store.small_cell(var.raw())) {
                Some(((word, base), cell)) => found.push((word, base, cell)),
                None => {
                    return Err(invalid(format!(
                        "{} has values more than 64 apart",
                        model.name(var)
                    )));
                }
            }
        }
        let base = found.iter().map(|&(_, base, _)| i64::from(base)).min();
        let top = found
            .iter()
            .map(|&(word, base, _)| i64::from(base) + 63 - i64::from(word.leading_zeros()))
            .max();
        let (base, top) = (base.unwrap_or(0), top.unwrap_or(0));
        if top - base >= 64 {
            return Err(invalid(format!(
                "the values span {base}..={top}, more than one window of 64 values"
            )));
        }
        let words: Vec<DomainWord> = found
            .iter()
            .map(|&(_, b, cell)| DomainWord {
                cell,
                shift: (i64::from(b) - base) as u32,
            })
            .collect();
        let first = words.first().map(|w| w.cell);
        let contiguous = first.filter(|&first| {
            (words.iter().enumerate()).all(|(i, w)| w.cell == first + i && w.shift == 0)
        });
        let values = (top - base + 1) as usize;
        let domains: Vec<u64> = (found.iter().zip(&words))
            .map(|(&(word, _, _), w)| word << w.shift)
            .collect();
        let kernel = Kernel::new(&domains, values, &local_groups);
        Ok(AllDifferentSystem {
            vars,
            groups: local_groups,
            words,
            contiguous,
            locked: LockedCandidates::Off,
            kernel,
        })
    }

    /// When the locked-candidates rule applies (never by default; `true` means in
    /// every call): it prunes more per call but costs more per call.
    pub fn locked_candidates(mut self, when: impl Into<LockedCandidates>) -> AllDifferentSystem {
        self.locked = when.into();
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

    fn is_idempotent(&self) -> bool {
        true
    }

    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        ctx.watch_all(self.vars.iter().copied(), Wake::Domain)?;
        let locked = self.locked != LockedCandidates::Off;
        ctx.set_initial_state(match &self.kernel {
            Kernel::W1(k) => k.initial_state(locked),
            Kernel::W2(k) => k.initial_state(locked),
            Kernel::W4(k) => k.initial_state(locked),
            Kernel::W8(k) => k.initial_state(locked),
            Kernel::W16(k) => k.initial_state(locked),
            Kernel::Wide(k) => k.initial_state(locked),
        });
        Ok(())
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let vars = Vars {
            vars: &self.vars,
            words: &self.words,
            contiguous: self.contiguous,
            locked: self.locked,
        };
        match &mut self.kernel {
            Kernel::W1(k) => k.propagate(ctx, &vars),
            Kernel::W2(k) => k.propagate(ctx, &vars),
            Kernel::W4(k) => k.propagate(ctx, &vars),
            Kernel::W8(k) => k.propagate(ctx, &vars),
            Kernel::W16(k) => k.propagate(ctx, &vars),
            Kernel::Wide(k) => k.propagate(ctx, &vars),
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
    words: &'a [DomainWord],
    /// The store cell of the first variable, if the others follow it in order and
    /// none is shifted.
    contiguous: Option<usize>,
    locked: LockedCandidates,
}

/// The value-major kernel, sized by the number of 64-bit words a set of variables
/// takes.
#[derive(Clone, Debug)]
enum Kernel {
    W1(Box<State<1>>),
    W2(Box<State<2>>),
    W4(Box<State<4>>),
    W8(Box<State<8>>),
    W16(Box<State<16>>),
    Wide(Box<State<64>>),
}

impl Kernel {
    /// The kernel for variables with the given domains (shifted into the window).
    fn new(domains: &[u64], values: usize, groups: &[Vec<u32>]) -> Kernel {
        match domains.len().div_ceil(64) {
            0 | 1 => Kernel::W1(Box::new(State::new(domains, values, groups))),
            2 => Kernel::W2(Box::new(State::new(domains, values, groups))),
            3 | 4 => Kernel::W4(Box::new(State::new(domains, values, groups))),
            5..=8 => Kernel::W8(Box::new(State::new(domains, values, groups))),
            9..=16 => Kernel::W16(Box::new(State::new(domains, values, groups))),
            _ => Kernel::Wide(Box::new(State::new(domains, values, groups))),
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

    /// Whether it holds two variables or more.
    fn has_two(self) -> bool {
        let mut seen = false;
        for &word in &self.0 {
            if word != 0 {
                if seen || word & (word - 1) != 0 {
                    return true;
                }
                seen = true;
            }
        }
        false
    }

    fn ones(self) -> Ones<W> {
        Ones {
            words: self.0,
            index: 0,
            current: self.0[0],
        }
    }
}

/// The variables of a [`Cells`], lowest first.
struct Ones<const W: usize> {
    words: [u64; W],
    /// The word being read, and what is left of it.
    index: usize,
    current: u64,
}

impl<const W: usize> Iterator for Ones<W> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        while self.current == 0 {
            self.index += 1;
            self.current = *self.words.get(self.index)?;
        }
        let bit = self.current.trailing_zeros() as usize;
        self.current &= self.current - 1;
        Some(self.index * 64 + bit)
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

/// One `T` per value of the window, indexed by a value's bit without a bounds check.
#[derive(Clone, Copy, Debug)]
struct PerValue<T>([T; 64]);

impl<T> std::ops::Index<usize> for PerValue<T> {
    type Output = T;
    fn index(&self, v: usize) -> &T {
        &self.0[v % 64]
    }
}

impl<T> std::ops::IndexMut<usize> for PerValue<T> {
    fn index_mut(&mut self, v: usize) -> &mut T {
        &mut self.0[v % 64]
    }
}

/// One word per variable of a `W`-word set, indexed by a variable's bit without a
/// bounds check (the hot loops index by bits of [`Cells`]).
#[derive(Clone, Copy, Debug)]
struct PerVar<const W: usize>([[u64; 64]; W]);

impl<const W: usize> PerVar<W> {
    const ZERO: PerVar<W> = PerVar([[0; 64]; W]);
}

impl<const W: usize> std::ops::Index<usize> for PerVar<W> {
    type Output = u64;
    fn index(&self, i: usize) -> &u64 {
        debug_assert!(i < 64 * W);
        &self.0[(i / 64) % W][i % 64]
    }
}

impl<const W: usize> std::ops::IndexMut<usize> for PerVar<W> {
    fn index_mut(&mut self, i: usize) -> &mut u64 {
        debug_assert!(i < 64 * W);
        &mut self.0[(i / 64) % W][i % 64]
    }
}

/// Per value, a set of groups (the first 64, then the next 64, and so on), and the
/// values whose set is not empty: work queued by value and group.
#[derive(Clone, Debug)]
struct GroupWork {
    first: PerValue<u64>,
    more: Vec<PerValue<u64>>,
    values: u64,
}

impl GroupWork {
    fn new(group_words: usize) -> GroupWork {
        GroupWork {
            first: PerValue([0; 64]),
            more: vec![PerValue([0; 64]); group_words - 1],
            values: 0,
        }
    }

    fn clear(&mut self) {
        self.first = PerValue([0; 64]);
        self.more.fill(PerValue([0; 64]));
        self.values = 0;
    }

    /// Queues each of the `values` in the groups of variable `i`.
    fn add_groups_of<const W: usize>(&mut self, values: u64, i: usize, sets: &GroupSets<W>) {
        let first = sets.first[i];
        for v in bits(values) {
            self.first[v] |= first;
        }
        for (work, more) in self.more.iter_mut().zip(&sets.more) {
            for v in bits(values) {
                work[v] |= more[i];
            }
        }
        self.values |= values;
    }

    /// Queues value `v` in the groups of the variables `set`, whose first words of
    /// groups are already gathered in `first`.
    fn add_groups_of_all<const W: usize>(
        &mut self,
        v: usize,
        first: u64,
        set: Cells<W>,
        sets: &GroupSets<W>,
    ) {
        self.first[v] |= first;
        for (work, more) in self.more.iter_mut().zip(&sets.more) {
            for i in set.ones() {
                work[v] |= more[i];
            }
        }
        self.values |= 1 << v;
    }

    /// Takes value `v` in the groups of the variables `set` off the queue, whose
    /// first words of groups are already gathered in `first`.
    fn remove_groups_of_all<const W: usize>(
        &mut self,
        v: usize,
        first: u64,
        set: Cells<W>,
        sets: &GroupSets<W>,
    ) {
        self.first[v] &= !first;
        for (work, more) in self.more.iter_mut().zip(&sets.more) {
            for i in set.ones() {
                work[v] &= !more[i];
            }
        }
    }

    /// Takes value `v` in the groups of variable `i` off the queue.
    fn remove_groups_of<const W: usize>(&mut self, v: usize, i: usize, sets: &GroupSets<W>) {
        self.first[v] &= !sets.first[i];
        for (work, more) in self.more.iter_mut().zip(&sets.more) {
            work[v] &= !more[i];
        }
    }

    /// Queues value `v` in group `g`.
    fn add(&mut self, v: usize, g: usize) {
        self.add_word(v, g / 64, 1 << (g % 64));
    }

    /// Queues value `v` in the groups of word `w` set in `groups`.
    fn add_word(&mut self, v: usize, w: usize, groups: u64) {
        match w {
            0 => self.first[v] |= groups,
            w => self.more[w - 1][v] |= groups,
        }
        self.values |= u64::from(groups != 0) << v;
    }

    /// Queues value `v` in all of `groups` groups.
    fn add_all(&mut self, v: usize, groups: usize) {
        let all = |w: usize| match groups - w * 64 {
            64.. => u64::MAX,
            n => (1 << n) - 1,
        };
        self.first[v] = all(0);
        for (w, work) in self.more.iter_mut().enumerate() {
            work[v] = all(w + 1);
        }
        self.values |= 1 << v;
    }

    /// Takes a value with queued groups off the queue; its groups stay until taken
    /// with [`GroupWork::take`].
    fn pop_value(&mut self) -> Option<usize> {
        let v = (self.values != 0).then(|| self.values.trailing_zeros() as usize)?;
        self.values &= self.values - 1;
        Some(v)
    }

    /// Takes word `w` of value `v`'s queued groups.
    fn take(&mut self, v: usize, w: usize) -> u64 {
        match w {
            0 => std::mem::take(&mut self.first[v]),
            _ => std::mem::take(&mut self.more[w - 1][v]),
        }
    }
}

/// Each variable's groups: the first 64, then the next 64, and so on.
#[derive(Clone, Debug)]
struct GroupSets<const W: usize> {
    first: PerVar<W>,
    more: Vec<PerVar<W>>,
}

/// Which rules a queue of (value, group) pairs is for.
#[derive(Clone, Copy, Debug)]
enum Rules {
    /// Hidden singles and the pigeonhole check; then, with `locked`, queue the pair
    /// for locked candidates.
    Singles { locked: bool },
    /// Locked candidates.
    Locked,
}

/// Where value `v`'s places in group `g` stand.
enum Places {
    None,
    One(usize),
    Many,
}

/// The first state word once the sets are built.
const BUILT: u64 = 1;
/// The first state word once a call has run at the search's root: with
/// [`LockedCandidates::AtRoot`], locked candidates are done with.
const PAST_ROOT: u64 = 2;

/// The fixed shape of the groups, and one call's work.
///
/// The backtrackable state (see [`Propagator::initial_state`]) holds, in this order:
/// a word that says how far the search has come ([`BUILT`], [`PAST_ROOT`], zero before
/// either); then `candidates`. A call copies it in, works on the copy, and writes back
/// what changed.
#[derive(Clone, Debug)]
struct State<const W: usize> {
    /// Each group's variables.
    groups: Vec<Cells<W>>,
    /// Each group's size.
    sizes: Vec<u32>,
    /// Per group, the values it must take, all of them, when it starts with as many
    /// values as variables (every Sudoku unit): it is then always tight, and losing
    /// one of them fails. Zero for the other groups.
    full: Vec<u64>,
    /// For each variable, the other variables of its groups.
    peers: Vec<Cells<W>>,
    /// Words in a set of groups.
    group_words: usize,
    /// Each variable's groups.
    group_sets: GroupSets<W>,
    /// Every value of the window.
    every_value: u64,
    /// How many values the window has.
    values: usize,
    /// For each value (window bit), where it is still possible.
    candidates: PerValue<Cells<W>>,
    /// How many variables there are.
    vars: usize,
    /// Each variable's domain word, shifted into the window, read at the start of a
    /// call.
    domains: PerVar<W>,
    /// Work: fixed variables whose value must leave their peers.
    fixed: Cells<W>,
    /// Work: per value, the groups to examine for it.
    dirty: GroupWork,
    /// Work, with locked candidates: per value, the groups examined since its places
    /// there were last compared with the overlapping groups. The comparison waits
    /// until the singles run out: most of it is then no longer needed.
    waiting: GroupWork,
    /// Values whose `candidates` this call changed.
    changed_values: u64,
    /// Variables whose domains this call pruned, to write back.
    touched: Cells<W>,
    /// Variables that a hidden single fixed in this call.
    hidden: Cells<W>,
    /// Whether this call's removals are recorded, each with its rule.
    recording: bool,
    /// When recording, per variable, the values locked candidates removed in this
    /// call.
    locked_removed: PerVar<W>,
    /// Scratch of [`State::sync`], empty between calls: per value, the variables
    /// newly fixed to it.
    fixed_to: PerValue<Cells<W>>,
}

impl<const W: usize> State<W> {
    /// The state for variables with the given domains (shifted into the window).
    fn new(domains: &[u64], values: usize, groups: &[Vec<u32>]) -> State<W> {
        let vars = domains.len();
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
        let group_words = sets.len().div_ceil(64).max(1);
        let mut peers = vec![Cells::EMPTY; vars];
        let mut group_sets = vec![PerVar::ZERO; group_words];
        for (g, set) in sets.iter().enumerate() {
            for i in set.ones() {
                peers[i] = peers[i].or(*set);
                group_sets[g / 64][i] |= 1 << (g % 64);
            }
        }
        let more = group_sets.split_off(1);
        let mut initial = PerVar::ZERO;
        for (i, &domain) in domains.iter().enumerate() {
            initial[i] = domain;
        }
        for (i, p) in peers.iter_mut().enumerate() {
            p.remove(i);
        }
        let every_value = if values >= 64 {
            u64::MAX
        } else {
            (1u64 << values) - 1
        };
        let full = groups
            .iter()
            .map(|g| {
                let union = g.iter().fold(0, |union, &i| union | domains[i as usize]);
                if union.count_ones() as usize == g.len() {
                    union
                } else {
                    0
                }
            })
            .collect();
        State {
            full,
            sizes: groups.iter().map(|g| g.len() as u32).collect(),
            groups: sets,
            peers,
            group_words,
            group_sets: GroupSets {
                first: group_sets[0],
                more,
            },
            every_value,
            values,
            candidates: PerValue([Cells::EMPTY; 64]),
            vars,
            domains: initial,
            fixed: Cells::EMPTY,
            dirty: GroupWork::new(group_words),
            waiting: GroupWork::new(group_words),
            changed_values: 0,
            touched: Cells::EMPTY,
            hidden: Cells::EMPTY,
            recording: false,
            locked_removed: PerVar::ZERO,
            fixed_to: PerValue([Cells::EMPTY; 64]),
        }
    }

    /// The state built from the model's domains (in `domains` until the first call),
    /// if the rules change nothing there; else a state to be built by the first call.
    fn initial_state(&self, locked: bool) -> Vec<u64> {
        let words = 1 + self.values * W;
        let mut kernel = self.clone();
        if kernel.build().is_err() || kernel.fixpoint(locked).is_err() {
            return vec![0; words];
        }
        if !kernel.touched.is_empty() {
            return vec![0; words];
        }
        let mut state = Vec::with_capacity(words);
        state.push(BUILT);
        state.extend(
            kernel.candidates.0[..self.values]
                .iter()
                .flat_map(|set| set.0),
        );
        state
    }

    fn propagate(&mut self, ctx: &mut Context<'_>, vars: &Vars<'_>) -> Result<(), Conflict> {
        let store = ctx.words();
        match vars.contiguous {
            Some(first) => {
                let n = self.vars;
                self.domains.0.as_flattened_mut()[..n].copy_from_slice(&store[first..first + n]);
            }
            None => {
                for (i, word) in vars.words.iter().enumerate() {
                    self.domains[i] = store[word.cell] << word.shift;
                }
            }
        }
        self.recording = ctx.is_recording();
        let state = ctx.state();
        let (stage, built) = (state[0], state[0] != 0);
        let locked = match vars.locked {
            LockedCandidates::Off => false,
            LockedCandidates::AtRoot => stage != PAST_ROOT,
            LockedCandidates::Always => true,
        };
        let result = if built {
            let candidates = state[1..].chunks_exact(W);
            for (set, words) in self.candidates.0.iter_mut().zip(candidates) {
                set.0.copy_from_slice(words);
            }
            self.sync(ctx.modified())
        } else {
            self.build()
        };
        let result = result
            .and_then(|()| self.fixpoint(locked))
            .and_then(|()| self.write_back(ctx, vars, stage));
        if result.is_err() {
            self.fixed_to = PerValue([Cells::EMPTY; 64]);
            self.fixed = Cells::EMPTY;
            self.dirty.clear();
            self.waiting.clear();
            self.touched = Cells::EMPTY;
            self.hidden = Cells::EMPTY;
            if locked && self.recording {
                self.locked_removed = PerVar::ZERO;
            }
        }
        self.changed_values = 0;
        result
    }

    /// Queues the work the `modified` variables' changes since the last call start:
    /// the values each lost, in its groups, and its peers if it became fixed. Fails
    /// when newly fixed variables leave a peer no value.
    fn sync(&mut self, modified: &[u32]) -> Result<(), Conflict> {
        // Several fixed variables are taken value-major, all at once: at a search's
        // first call every clue is one, and each lost all its other values. One
        // alone (a search decision) is cheaper a value at a time.
        let many = modified.len() > 1;
        let (mut newly_fixed, mut groups) = (Cells::EMPTY, 0u64);
        for &i in modified {
            let i = i as usize;
            let domain = self.domains[i];
            if many && is_single(domain) {
                newly_fixed.insert(i);
                self.fixed_to[domain.trailing_zeros() as usize].insert(i);
                groups |= self.group_sets.first[i];
                continue;
            }
            // `i`'s word and bit, found once for every value it lost: a `Cells` method
            // per value measured 3% slower here.
            let (w, bit) = ((i / 64) % W, 1u64 << (i % 64));
            let mut lost = 0u64;
            for v in bits(self.every_value & !domain) {
                let places = &mut self.candidates[v].0[w];
                if *places & bit != 0 {
                    *places &= !bit;
                    lost |= 1 << v;
                }
            }
            if lost != 0 {
                self.mark_groups(lost, i);
                self.changed_values |= lost;
            }
            if is_single(domain) {
                self.fixed.insert(i);
            }
        }
        if newly_fixed.is_empty() {
            return Ok(());
        }
        self.leave_peers(newly_fixed, groups)
    }

    /// Takes each value out of the other newly fixed variables and out of the peers
    /// of those fixed to it, value by value (see [`State::sync`]); `groups` holds
    /// the first word of the newly fixed variables' groups.
    fn leave_peers(&mut self, newly_fixed: Cells<W>, groups: u64) -> Result<(), Conflict> {
        for v in 0..self.values {
            let fixed_to = std::mem::replace(&mut self.fixed_to[v], Cells::EMPTY);
            let (mut peers, mut solved) = (Cells::EMPTY, 0u64);
            for i in fixed_to.ones() {
                peers = peers.or(self.peers[i]);
                solved |= self.group_sets.first[i];
            }
            if peers.intersects(fixed_to) {
                // Two peers fixed to one value.
                return Err(Conflict);
            }
            let places = self.candidates[v];
            // The variables newly fixed to other values: their domains are single
            // already.
            let others = places.and(newly_fixed).minus(fixed_to);
            if !others.is_empty() {
                self.candidates[v] = places.minus(others);
                self.changed_values |= 1 << v;
                self.dirty
                    .add_groups_of_all(v, groups, others, &self.group_sets);
            }
            let from_peers = places.and(peers).minus(newly_fixed);
            if !from_peers.is_empty() {
                self.remove_from(v, from_peers)?;
            }
            // Its one place in the groups of each variable fixed to it is that variable:
            // nothing to examine there.
            self.dirty
                .remove_groups_of_all(v, solved, fixed_to, &self.group_sets);
        }
        Ok(())
    }

    /// Builds the state from the domains and queues everything; fails a group with
    /// fewer values than variables.
    fn build(&mut self) -> Result<(), Conflict> {
        self.candidates = PerValue([Cells::EMPTY; 64]);
        for i in 0..self.vars {
            let domain = self.domains[i];
            for v in bits(domain) {
                self.candidates[v].insert(i);
            }
            if is_single(domain) {
                self.fixed.insert(i);
            }
        }
        for g in 0..self.groups.len() {
            if self.values_in(g).count_ones() < self.sizes[g] {
                return Err(Conflict);
            }
        }
        self.changed_values = self.every_value;
        let groups = self.groups.len();
        for v in bits(self.every_value) {
            self.dirty.add_all(v, groups);
        }
        Ok(())
    }

    /// Queues the groups of variable `i` for each of the `values`.
    fn mark_groups(&mut self, values: u64, i: usize) {
        self.dirty.add_groups_of(values, i, &self.group_sets);
    }

    /// Removes value `v` from the variables `set`, which all have it.
    fn remove_from(&mut self, v: usize, set: Cells<W>) -> Result<(), Conflict> {
        let bit = 1u64 << v;
        self.candidates[v] = self.candidates[v].minus(set);
        self.changed_values |= bit;
        self.touched = self.touched.or(set);
        // Gathered in registers, written once: the loop's stores to the domains could
        // otherwise alias them.
        let (mut fixed, mut groups) = (Cells::EMPTY, 0u64);
        for (w, &word) in set.0.iter().enumerate() {
            let mut rest = word;
            while rest != 0 {
                let j = w * 64 + rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let domain = self.domains[j] & !bit;
                if domain == 0 {
                    return Err(Conflict);
                }
                self.domains[j] = domain;
                fixed.0[w] |= u64::from(is_single(domain)) << (j % 64);
                groups |= self.group_sets.first[j];
            }
        }
        self.fixed = self.fixed.or(fixed);
        self.dirty
            .add_groups_of_all(v, groups, set, &self.group_sets);
        Ok(())
    }

    /// Applies the rules until the queued work is done.
    fn fixpoint(&mut self, locked: bool) -> Result<(), Conflict> {
        loop {
            while let Some(i) = self.fixed.pop_first() {
                let v = self.domains[i].trailing_zeros() as usize;
                let pruned = self.candidates[v].and(self.peers[i]);
                if !pruned.is_empty() {
                    self.remove_from(v, pruned)?;
                    // `v`'s one place in the groups of `i` is now `i`, fixed to it:
                    // nothing to examine there.
                    self.dirty.remove_groups_of(v, i, &self.group_sets);
                }
            }
            if let Some(v) = self.dirty.pop_value() {
                self.work_off(v, Rules::Singles { locked })?;
            } else if let Some(v) = self.waiting.pop_value() {
                self.work_off(v, Rules::Locked)?;
            } else {
                return Ok(());
            }
        }
    }

    /// Applies `rules` to value `v` in each group queued for it.
    #[inline(always)]
    fn work_off(&mut self, v: usize, rules: Rules) -> Result<(), Conflict> {
        for w in 0..self.group_words {
            let taken = match rules {
                Rules::Singles { .. } => self.dirty.take(v, w),
                Rules::Locked => self.waiting.take(v, w),
            };
            let mut groups = taken;
            while groups != 0 {
                let g = w * 64 + groups.trailing_zeros() as usize;
                groups &= groups - 1;
                match rules {
                    Rules::Singles { .. } => self.examine(v, g)?,
                    Rules::Locked => self.locked_candidates(v, g)?,
                }
            }
            if let Rules::Singles { locked: true } = rules {
                self.waiting.add_word(v, w, taken);
            }
        }
        Ok(())
    }

    /// Where value `v` can go in group `g`.
    fn places(&self, v: usize, g: usize) -> Places {
        let places = self.candidates[v].and(self.groups[g]);
        let mut found = Places::None;
        for (w, &word) in places.0.iter().enumerate() {
            if word != 0 {
                if matches!(found, Places::One(_)) || !is_single(word) {
                    return Places::Many;
                }
                found = Places::One(w * 64 + word.trailing_zeros() as usize);
            }
        }
        found
    }

    /// The values with a place left in group `g`.
    fn values_in(&self, g: usize) -> u64 {
        let group = self.groups[g];
        (self.candidates.0[..self.values].iter().enumerate())
            .filter(|(_, places)| places.intersects(group))
            .fold(0, |values, (v, _)| values | 1 << v)
    }

    /// Whether group `g` has exactly as many values left as variables.
    fn is_tight(&self, g: usize) -> bool {
        self.full[g] != 0 || self.values_in(g).count_ones() == self.sizes[g]
    }

    /// Hidden single of value `v` and the pigeonhole check in group `g`.
    fn examine(&mut self, v: usize, g: usize) -> Result<(), Conflict> {
        let bit = 1u64 << v;
        match self.places(v, g) {
            Places::None => self.no_place(g, bit),
            Places::One(i) if self.domains[i] != bit && self.is_tight(g) => {
                self.hidden_single(i, bit);
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// Fixes variable `i` to value `bit`, its one place in a tight group: rare next
    /// to the examinations that find none, so kept out of their loop.
    #[cold]
    #[inline(never)]
    fn hidden_single(&mut self, i: usize, bit: u64) {
        let others = self.domains[i] & !bit;
        for u in bits(others) {
            self.candidates[u].remove(i);
        }
        self.mark_groups(others, i);
        self.changed_values |= others;
        self.domains[i] = bit;
        self.touched.insert(i);
        self.hidden.insert(i);
        self.fixed.insert(i);
    }

    /// Value `bit` has no place left in group `g`: fails if too few values are left;
    /// if just enough are, the group has become tight, and its values are examined.
    fn no_place(&mut self, g: usize, bit: u64) -> Result<(), Conflict> {
        if self.full[g] != 0 {
            return if self.full[g] & bit != 0 {
                Err(Conflict)
            } else {
                Ok(())
            };
        }
        let values = self.values_in(g);
        let count = values.count_ones();
        if count < self.sizes[g] {
            return Err(Conflict);
        }
        if count == self.sizes[g] {
            for u in bits(values) {
                self.dirty.add(u, g);
            }
        }
        Ok(())
    }

    /// Locked candidates of value `v` from group `g`, if tight, into the groups that
    /// hold all its places there.
    fn locked_candidates(&mut self, v: usize, g: usize) -> Result<(), Conflict> {
        let places = self.candidates[v].and(self.groups[g]);
        // With one place, the hidden single and its peers already say it all.
        if !places.has_two() {
            return Ok(());
        }
        // Most systems have at most 64 groups: one word of them, no loop.
        let common = self.holding(places, g, 0);
        if common != 0 {
            self.lock_into(v, g, 0, common)?;
        }
        for w in 1..self.group_words {
            let common = self.holding(places, g, w);
            self.lock_into(v, g, w, common)?;
        }
        Ok(())
    }

    /// Locked candidates of value `v` from group `g` into the groups of word `w` in
    /// `holding`, which hold all its places in `g`.
    #[inline(always)]
    fn lock_into(&mut self, v: usize, g: usize, w: usize, holding: u64) -> Result<(), Conflict> {
        for h in bits(holding) {
            // Every place is shared with group `h`, whose other variables lose `v` if
            // this group must take it.
            let pruned = (self.candidates[v].and(self.groups[w * 64 + h])).minus(self.groups[g]);
            if !pruned.is_empty() && self.is_tight(g) {
                self.lock(v, pruned)?;
            }
        }
        Ok(())
    }

    /// Removes value `v` from the variables `pruned` by locked candidates: rare, so
    /// kept out of the loop that looks for them.
    #[cold]
    #[inline(never)]
    fn lock(&mut self, v: usize, pruned: Cells<W>) -> Result<(), Conflict> {
        if self.recording {
            for j in pruned.ones() {
                self.locked_removed[j] |= 1 << v;
            }
        }
        self.remove_from(v, pruned)
    }

    /// Word `w` of the groups other than `g` that hold every variable of `places`:
    /// those of each variable, intersected a variable at a time. Most often none is
    /// left after two.
    #[inline(always)]
    fn holding(&self, places: Cells<W>, g: usize, w: usize) -> u64 {
        let groups_of = match w {
            0 => &self.group_sets.first,
            w => &self.group_sets.more[w - 1],
        };
        let mut common = if w == g / 64 {
            !(1 << (g % 64))
        } else {
            u64::MAX
        };
        for (k, &word) in places.0.iter().enumerate() {
            let mut rest = word;
            while rest != 0 {
                common &= groups_of[k * 64 + rest.trailing_zeros() as usize];
                if common == 0 {
                    return 0;
                }
                rest &= rest - 1;
            }
        }
        common
    }

    /// Writes the pruned values back to the domains, naming each removal's rule, and
    /// what changed to the backtrackable state, whose first word was `stage`.
    fn write_back(
        &mut self,
        ctx: &mut Context<'_>,
        vars: &Vars<'_>,
        stage: u64,
    ) -> Result<(), Conflict> {
        let next = match vars.locked {
            LockedCandidates::AtRoot => PAST_ROOT,
            _ => BUILT,
        };
        if let Some(mut owned) = ctx.owned_words() {
            match vars.contiguous {
                // All at once, the untouched words as they were: cheaper than finding
                // the touched ones.
                Some(first) => {
                    owned.narrow_all(first, &self.domains.0.as_flattened()[..self.vars]);
                }
                None => {
                    for i in self.touched.ones() {
                        let word = vars.words[i];
                        owned.narrow(word.cell, self.domains[i] >> word.shift);
                    }
                }
            }
            self.write_state(stage, next, |k, word| owned.set_state(k, word));
        } else {
            if !ctx.is_recording() {
                for i in self.touched.ones() {
                    let (var, word) = (vars.vars[i].raw(), vars.words[i]);
                    ctx.narrow_small(var, word.cell, self.domains[i] >> word.shift);
                }
            } else {
                for i in self.touched.ones() {
                    let (var, word) = (vars.vars[i].raw(), vars.words[i]);
                    let locked = std::mem::take(&mut self.locked_removed[i]);
                    let hidden = self.hidden.contains(i);
                    if locked != 0 && !hidden {
                        ctx.set_rule(Rule::LockedCandidates);
                        ctx.retain_small(var, !(locked >> word.shift))?;
                    }
                    ctx.set_rule(if hidden {
                        Rule::HiddenSingle
                    } else {
                        Rule::ValueElimination
                    });
                    ctx.retain_small(var, self.domains[i] >> word.shift)?;
                }
            }
            self.write_state(stage, next, |k, word| ctx.set_state(k, word));
        }
        self.touched = Cells::EMPTY;
        self.hidden = Cells::EMPTY;
        Ok(())
    }

    /// Hands `set` the state words that changed: the first word, from `stage` to
    /// `next`, and the sets of the values this call changed.
    #[inline(always)]
    fn write_state(&self, stage: u64, next: u64, mut set: impl FnMut(usize, u64)) {
        if stage != next {
            set(0, next);
        }
        for v in bits(self.changed_values) {
            for (w, &word) in self.candidates[v].0.iter().enumerate() {
                set(1 + v * W + w, word);
            }
        }
    }
}

/// A domain word that holds one value (or none).
fn is_single(word: u64) -> bool {
    word & word.wrapping_sub(1) == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Outcome, SearchConfig, Solver, ValueOrder, VariableOrder};

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
                .all(|p| p.rule == Rule::HiddenSingle && p.var.index() == 0)
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

    /// Groups A = {c, a, b} and B = {a, b, d}, with c over `c_min..=3`, a and b over
    /// 1..=3, d over 1..=4 (model order c, a, b, d): once c cannot take 1, value 1 is
    /// only possible in a and b, which B shares, so d loses 1.
    fn two_groups(c_min: i32, when: LockedCandidates) -> (Model, VarId) {
        let mut model = Model::new();
        let c = model.int_var(c_min, 3).unwrap();
        let a = model.int_var(1, 3).unwrap();
        let b = model.int_var(1, 3).unwrap();
        let d = model.int_var(1, 4).unwrap();
        let system = AllDifferentSystem::new(&model, [[c, a, b], [a, b, d]]).unwrap();
        model.post(system.locked_candidates(when)).unwrap();
        (model, c)
    }

    #[test]
    fn locked_candidates_prune_the_other_group() {
        for locked in [false, true] {
            let (model, _) = two_groups(2, locked.into());
            let mut solver = Solver::new(model);
            solver.record_prunings(true);
            let domains = solver.root_domains().unwrap();
            let expected: Vec<i32> = if locked {
                vec![2, 3, 4]
            } else {
                vec![1, 2, 3, 4]
            };
            assert_eq!(domains[3], expected);
            let rules: Vec<&str> = solver
                .take_prunings()
                .iter()
                .map(|p| p.rule.name())
                .collect();
            assert_eq!(rules.contains(&"locked candidates"), locked, "{rules:?}");
        }
    }

    /// The rules applied in a search of [`two_groups`] where c may be 1, so that the
    /// rule only applies once c is 3: assumed, that is at the root; decided, below it.
    fn locked_once_c_is_3(when: LockedCandidates, assume: bool) -> Vec<&'static str> {
        let (model, c) = two_groups(1, when);
        let mut solver = Solver::with_config(
            model,
            SearchConfig::new()
                .variable_order(VariableOrder::InputOrder)
                .value_order(ValueOrder::Descending),
        );
        if assume {
            solver.assume(c, 3).unwrap();
        }
        solver.record_prunings(true);
        let _ = solver.solutions().count();
        let mut rules: Vec<&str> = solver
            .take_prunings()
            .iter()
            .map(|p| p.rule.name())
            .collect();
        rules.dedup();
        rules
    }

    #[test]
    fn locked_candidates_at_the_root_apply_before_the_first_choice_only() {
        use LockedCandidates::{Always, AtRoot, Off};
        let locked = |when, assume| locked_once_c_is_3(when, assume).contains(&"locked candidates");
        assert!(locked(AtRoot, true) && locked(Always, true) && !locked(Off, true));
        // Without the assumption, `c = 3` is the first choice (input order, largest
        // value first).
        assert!(!locked(AtRoot, false) && locked(Always, false));
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
        // Latin squares: 400 variables (7 words a set) and 40 groups; 1,296 variables
        // (the widest sets) and 72 groups (two words a set of groups).
        for side in [20, 36] {
            let mut model = Model::new();
            let (x, groups) = latin(&mut model, side);
            model.all_different_system(groups).unwrap();
            let mut solver = Solver::new(model);
            let Outcome::Solved(solution) = solver.solve() else {
                panic!("Latin squares exist")
            };
            for k in 0..side {
                let mut row: Vec<i32> = (0..side).map(|c| solution[x[k * side + c]]).collect();
                let mut column: Vec<i32> = (0..side).map(|r| solution[x[r * side + k]]).collect();
                row.sort_unstable();
                column.sort_unstable();
                let all: Vec<i32> = (1..=side as i32).collect();
                assert_eq!((row, column), (all.clone(), all), "side {side}");
            }
        }
    }
}
