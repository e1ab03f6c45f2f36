//! Which variable to branch on next, and which value to try first.

use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

use super::Branch;
use crate::ids::VarId;
use crate::propagator::Propagator;
use crate::store::Store;

/// Which unfixed variable the next decision is about.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum VariableOrder {
    /// The first unfixed variable in creation order.
    InputOrder,
    /// The unfixed variable with the fewest values left ("first fail"); ties go to
    /// the earliest created.
    #[default]
    SmallestDomain,
    /// The smallest ratio of domain size to weighted degree (dom/wdeg): every failure
    /// adds one to the weight of the constraint that found it, and a variable's
    /// degree is the sum of the weights of the constraints on it.
    DomOverWeightedDegree,
    /// The unfixed variable with the most values left (MiniZinc's `anti_first_fail`).
    LargestDomain,
    /// The unfixed variable with the smallest value left (MiniZinc's `smallest`).
    SmallestValue,
    /// The unfixed variable with the largest value left (MiniZinc's `largest`).
    LargestValue,
    /// The unfixed variable on the most constraints, counted when the solver is made
    /// (MiniZinc's `occurrence`).
    MostConstraints,
    /// The fewest values left, ties to the variable on the most constraints
    /// (MiniZinc's `most_constrained`).
    SmallestDomainMostConstraints,
    /// The fewest values left, ties to the largest weighted degree (as in
    /// [`DomOverWeightedDegree`](VariableOrder::DomOverWeightedDegree)), then to the
    /// earliest created: first fail, steered towards where the search failed. On
    /// Sudoku, whose system of groups blames the group that failed
    /// ([`Propagator::blame`]), it searches a third fewer nodes than first fail on
    /// `top1465` and the hardest collection (a sixth fewer on 17-clue puzzles).
    SmallestDomainWeightedDegree,
    /// The largest difference between the two smallest values left (MiniZinc's
    /// `max_regret`).
    MaxRegret,
}

impl VariableOrder {
    /// Whether the order reads the weighted degrees, which failures then raise.
    fn reads_weights(self) -> bool {
        matches!(
            self,
            VariableOrder::DomOverWeightedDegree | VariableOrder::SmallestDomainWeightedDegree
        )
    }
}

/// Which value of the chosen variable the decision tries first, and how it branches.
/// `mid` below is the middle of the bounds, `(min + max) / 2` rounded down.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ValueOrder {
    /// The smallest value: `x = min`, then `x != min`.
    #[default]
    Ascending,
    /// The largest value: `x = max`, then `x != max`.
    Descending,
    /// A value drawn uniformly at random from a generator seeded with this number;
    /// the same seed gives the same search.
    Random(u64),
    /// The value nearest `mid` (the smaller of two as near): `x = v`, then `x != v`.
    Middle,
    /// Binary domain splitting: `x <= mid`, then `x > mid`.
    Split,
    /// Binary domain splitting, upper half first: `x > mid`, then `x <= mid`.
    ReverseSplit,
}

/// How to search: the variable and value choices.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SearchConfig {
    /// Variable choice.
    pub variable_order: VariableOrder,
    /// Value choice.
    pub value_order: ValueOrder,
}

impl SearchConfig {
    /// The default: smallest domain first, ascending values.
    pub fn new() -> SearchConfig {
        SearchConfig::default()
    }

    /// Sets the variable order.
    pub fn variable_order(mut self, order: VariableOrder) -> SearchConfig {
        self.variable_order = order;
        self
    }

    /// Sets the value order.
    pub fn value_order(mut self, order: ValueOrder) -> SearchConfig {
        self.value_order = order;
        self
    }
}

/// Some variables to branch on before the others, with their own variable and value
/// orders, like MiniZinc's `seq_search`. The search branches on the first phase's
/// variables until they are all fixed, then on the next phase's, and so on; after the
/// last phase it branches on whatever is left with the solver's [`SearchConfig`], so
/// every solution is complete. See [`crate::Solver::set_phases`].
///
/// ```
/// use alldiff::{Model, Phase, Relation, Solver, ValueOrder, VariableOrder};
/// let mut model = Model::new();
/// let x = model.int_vars(3, 0, 9)?;
/// let total = model.int_var(0, 27)?;
/// model.linear(x.iter().map(|&v| (1, v)).chain([(-1, total)]), Relation::Equal, 0)?;
/// let mut solver = Solver::new(model);
/// // The marks first, largest values first, in the order given; `total` follows.
/// solver.set_phases([Phase::new(x.iter().copied())
///     .variable_order(VariableOrder::InputOrder)
///     .value_order(ValueOrder::Descending)])?;
/// let alldiff::Outcome::Solved(s) = solver.solve() else { panic!("satisfiable") };
/// assert_eq!(s[total], 27);
/// # Ok::<(), alldiff::ModelError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Phase {
    vars: Vec<VarId>,
    config: SearchConfig,
}

impl Phase {
    /// A phase over `vars` (in this order, for [`VariableOrder::InputOrder`]), with
    /// the default orders: smallest domain first, ascending values.
    pub fn new(vars: impl IntoIterator<Item = VarId>) -> Phase {
        Phase {
            vars: vars.into_iter().collect(),
            config: SearchConfig::default(),
        }
    }

    /// Sets the variable order within the phase.
    pub fn variable_order(mut self, order: VariableOrder) -> Phase {
        self.config.variable_order = order;
        self
    }

    /// Sets the value order within the phase.
    pub fn value_order(mut self, order: ValueOrder) -> Phase {
        self.config.value_order = order;
        self
    }

    /// The phase's variables, in the order given.
    pub fn vars(&self) -> &[VarId] {
        &self.vars
    }

    /// The phase's variable and value orders.
    pub fn config(&self) -> SearchConfig {
        self.config
    }
}

/// One way of choosing: orders, and the generator of a random value order.
#[derive(Clone, Debug)]
struct Chooser {
    config: SearchConfig,
    rng: Xoshiro256PlusPlus,
}

impl Chooser {
    fn new(config: SearchConfig) -> Chooser {
        Chooser {
            config,
            rng: Xoshiro256PlusPlus::seed_from_u64(0),
        }
    }

    /// Reseeds the generator: same seed, same search.
    fn reseed(&mut self) {
        if let ValueOrder::Random(seed) = self.config.value_order {
            self.rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        }
    }

    /// The decision about `var`: the branch to take first and its value.
    #[inline(always)]
    fn decide(&mut self, store: &Store, var: u32) -> (Branch, i32) {
        match self.config.value_order {
            ValueOrder::Ascending => (Branch::Equal, store.min(var)),
            ValueOrder::Descending => (Branch::Equal, store.max(var)),
            ValueOrder::Random(_) => {
                let pick = self.rng.random_range(0..store.size(var)) as usize;
                let value = store.values(var).nth(pick);
                (Branch::Equal, value.expect("pick within domain size"))
            }
            ValueOrder::Middle => {
                let mid = middle(store, var);
                // Values ascend: the nearest is the last at or below `mid`, or the
                // first above it if that is nearer.
                let mut below = None;
                let mut value = store.max(var);
                for v in store.values(var) {
                    if v > mid {
                        value = match below {
                            Some(b)
                                if i64::from(mid) - i64::from(b)
                                    <= i64::from(v) - i64::from(mid) =>
                            {
                                b
                            }
                            _ => v,
                        };
                        break;
                    }
                    below = Some(v);
                }
                (Branch::Equal, value)
            }
            ValueOrder::Split => (Branch::LessEqual, middle(store, var)),
            ValueOrder::ReverseSplit => (Branch::Greater, middle(store, var)),
        }
    }
}

/// `(min + max) / 2` rounded down; below `max` when `var` is unfixed, so both halves
/// of a split are non-empty.
fn middle(store: &Store, var: u32) -> i32 {
    let sum = i64::from(store.min(var)) + i64::from(store.max(var));
    sum.div_euclid(2) as i32
}

/// A phase as the brancher keeps it.
#[derive(Clone, Debug)]
struct PhaseState {
    vars: Vec<u32>,
    chooser: Chooser,
}

/// A decision the [`Brancher`] took: the variable, the branch to take first and its
/// value, and whether the variable is an auxiliary one (see
/// [`crate::Solver::set_auxiliary`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Chosen {
    pub(crate) var: u32,
    pub(crate) branch: Branch,
    pub(crate) value: i32,
    pub(crate) auxiliary: bool,
}

impl Chosen {
    fn new(var: u32, (branch, value): (Branch, i32), auxiliary: bool) -> Chosen {
        Chosen {
            var,
            branch,
            value,
            auxiliary,
        }
    }
}

/// The choice state: phases, weighted degrees and the random generators.
#[derive(Clone, Debug)]
pub(crate) struct Brancher {
    /// The final phase, over every variable but the auxiliary ones.
    default: Chooser,
    phases: Vec<PhaseState>,
    /// The variables that only complete a solution, branched on last with the
    /// default orders; empty for most models.
    auxiliary: Vec<u32>,
    /// With auxiliary variables, the others, for the final phase.
    others: Vec<u32>,
    /// Whether any phase chooses by dom/wdeg, and so reads the weights.
    weighted: bool,
    /// For each constraint, its variables (a failure raises their weighted degrees).
    vars_of: Vec<Vec<u32>>,
    /// Each variable's number of constraints: its weighted degree before any failure.
    degrees: Vec<u64>,
    /// Each variable's weighted degree: the sum of its constraints' weights, each
    /// weight being 1 plus the failures that constraint found. Kept up to date at each
    /// failure, so choosing a variable reads one number per variable.
    weighted_degrees: Vec<u64>,
    /// Whether every variable has the same number of constraints.
    degrees_alike: bool,
    /// Whether a failure raised a weight since the weights were reset: if not,
    /// [`Brancher::restart`] has nothing to reset (most of a Sudoku generator's
    /// uniqueness checks never fail), and with `degrees_alike` every weighted degree
    /// is the same, so both weighted orders are first fail.
    raised: bool,
    /// The variables a failed propagator blamed ([`Propagator::blame`]), for a moment.
    culprits: Vec<VarId>,
}

impl Brancher {
    /// `vars_of` lists each constraint's variables, of `var_count` in all.
    pub(crate) fn new(config: SearchConfig, vars_of: Vec<Vec<u32>>, var_count: usize) -> Brancher {
        let mut degrees = vec![0; var_count];
        for &var in vars_of.iter().flatten() {
            degrees[var as usize] += 1;
        }
        let degrees_alike = degrees.windows(2).all(|pair| pair[0] == pair[1]);
        let mut brancher = Brancher {
            default: Chooser::new(config),
            phases: Vec::new(),
            auxiliary: Vec::new(),
            others: Vec::new(),
            weighted: false,
            vars_of,
            weighted_degrees: degrees.clone(),
            degrees_alike,
            raised: false,
            degrees,
            culprits: Vec::new(),
        };
        brancher.update_weighted();
        brancher
    }

    pub(crate) fn config(&self) -> SearchConfig {
        self.default.config
    }

    pub(crate) fn set_config(&mut self, config: SearchConfig) {
        self.default = Chooser::new(config);
        self.update_weighted();
    }

    /// Branches on each phase's variables (raw indices) in turn before the others.
    pub(crate) fn set_phases(
        &mut self,
        phases: impl IntoIterator<Item = (Vec<u32>, SearchConfig)>,
    ) {
        self.phases = phases
            .into_iter()
            .map(|(vars, config)| PhaseState {
                vars,
                chooser: Chooser::new(config),
            })
            .collect();
        self.update_weighted();
    }

    /// Branches on the `auxiliary` variables (raw indices, of `var_count`) last.
    pub(crate) fn set_auxiliary(&mut self, auxiliary: Vec<u32>, var_count: usize) {
        let mut is_auxiliary = vec![false; var_count];
        for &var in &auxiliary {
            is_auxiliary[var as usize] = true;
        }
        self.others = match auxiliary.is_empty() {
            true => Vec::new(),
            false => (0..var_count as u32)
                .filter(|&var| !is_auxiliary[var as usize])
                .collect(),
        };
        self.auxiliary = auxiliary;
    }

    fn update_weighted(&mut self) {
        let weighted = |c: &Chooser| c.config.variable_order.reads_weights();
        self.weighted = weighted(&self.default) || self.phases.iter().any(|p| weighted(&p.chooser));
    }

    /// Called when a new search starts: same seeds, same search. (A restart within a
    /// search keeps the generators and the weights going.)
    pub(crate) fn restart(&mut self) {
        self.default.reseed();
        for phase in &mut self.phases {
            phase.chooser.reseed();
        }
        // Only dom/wdeg raises the weights (`failed`).
        if self.raised {
            self.weighted_degrees.copy_from_slice(&self.degrees);
            self.raised = false;
        }
    }

    #[cfg(test)]
    pub(crate) fn weighted_degrees(&self) -> &[u64] {
        &self.weighted_degrees
    }

    /// `constraint`, run by `propagator`, found a failure: the weighted degrees of
    /// the variables it blames grow by one; of all its variables if it blames none.
    pub(crate) fn failed(&mut self, constraint: u32, propagator: &dyn Propagator) {
        // Only dom/wdeg reads the weights; `restart` resets them for every search.
        if !self.weighted {
            return;
        }
        self.raised = true;
        self.culprits.clear();
        propagator.blame(&mut self.culprits);
        if self.culprits.is_empty() {
            for &var in &self.vars_of[constraint as usize] {
                self.weighted_degrees[var as usize] += 1;
            }
        } else {
            for var in &self.culprits {
                self.weighted_degrees[var.index()] += 1;
            }
        }
    }

    /// The next decision; `None` when every variable is fixed. The first phase with an
    /// unfixed variable decides, else the default choice over all variables (the
    /// auxiliary ones last).
    #[inline]
    pub(crate) fn decide(&mut self, store: &Store) -> Option<Chosen> {
        for phase in &mut self.phases {
            let order = phase.chooser.config.variable_order;
            let vars = phase.vars.iter().copied();
            let weights = Weights {
                weighted: &self.weighted_degrees,
                degrees: &self.degrees,
            };
            if let Some(var) = select_among(order, vars, store, weights) {
                let (branch, value) = phase.chooser.decide(store, var);
                return Some(Chosen::new(var, (branch, value), false));
            }
        }
        if !self.auxiliary.is_empty() {
            return self.decide_with_auxiliary(store);
        }
        let var = self.select_var(store)?;
        Some(Chosen::new(var, self.default.decide(store, var), false))
    }

    /// The default choice with auxiliary variables: the others first, then those.
    #[inline(never)]
    fn decide_with_auxiliary(&mut self, store: &Store) -> Option<Chosen> {
        let order = self.default.config.variable_order;
        for (vars, auxiliary) in [(&self.others, false), (&self.auxiliary, true)] {
            let weights = Weights {
                weighted: &self.weighted_degrees,
                degrees: &self.degrees,
            };
            if let Some(var) = select_among(order, vars.iter().copied(), store, weights) {
                return Some(Chosen::new(var, self.default.decide(store, var), auxiliary));
            }
        }
        None
    }

    /// The weighted degrees and the plain ones, as the variable orders read them.
    fn weights(&self) -> Weights<'_> {
        Weights {
            weighted: &self.weighted_degrees,
            degrees: &self.degrees,
        }
    }

    /// The default choice of the next variable, or `None` when all are fixed.
    #[inline(always)]
    fn select_var(&self, store: &Store) -> Option<u32> {
        let order = match self.default.config.variable_order {
            // Most searches with few nodes never fail: no weights to read.
            order if order.reads_weights() && self.degrees_alike && !self.raised => {
                VariableOrder::SmallestDomain
            }
            order => order,
        };
        if order.reads_weights() {
            // The leading one-word domains read straight from their words.
            let (leading, weighted) = (store.leading_small_words(), &self.weighted_degrees);
            let best = match order {
                VariableOrder::SmallestDomainWeightedDegree => {
                    smallest_weighted_in_words(leading, weighted)
                }
                _ => least_weighted(order, sized_in_words(leading), weighted, None),
            };
            let rest = (leading.len() as u32..store.var_count() as u32)
                .filter_map(|var| store.unfixed_size(var).map(|size| (var, u64::from(size))));
            return least_weighted(order, rest, weighted, best).map(|(var, _, _)| var);
        }
        if order != VariableOrder::SmallestDomain {
            let all = 0..store.var_count() as u32;
            return select_among(order, all, store, self.weights());
        }
        let leading = store.leading_small_words();
        let mut best = match smallest_in_words(leading) {
            Some((var, 2)) => return Some(var),
            found => found,
        };
        for var in leading.len() as u32..store.var_count() as u32 {
            let Some(size) = store.unfixed_size(var) else {
                continue;
            };
            if best.is_none_or(|(_, s)| size < s) {
                best = Some((var, size));
                if size == 2 {
                    break;
                }
            }
        }
        best.map(|(var, _)| var)
    }
}

/// Each variable's weighted degree (dom/wdeg) and its number of constraints.
#[derive(Clone, Copy)]
struct Weights<'a> {
    weighted: &'a [u64],
    degrees: &'a [u64],
}

/// The unfixed variable among `vars` that `order` picks (ties to the earliest), or
/// `None` if all are fixed. Linear in the number of variables.
fn select_among(
    order: VariableOrder,
    vars: impl Iterator<Item = u32>,
    store: &Store,
    weights: Weights<'_>,
) -> Option<u32> {
    let mut unfixed = vars.filter(|&v| !store.is_fixed(v));
    match order {
        VariableOrder::InputOrder => unfixed.next(),
        VariableOrder::SmallestDomain => {
            let mut best: Option<(u32, u32)> = None;
            for var in unfixed {
                let size = store.size(var);
                if best.is_none_or(|(_, s)| size < s) {
                    best = Some((var, size));
                    if size == 2 {
                        break;
                    }
                }
            }
            best.map(|(var, _)| var)
        }
        VariableOrder::DomOverWeightedDegree | VariableOrder::SmallestDomainWeightedDegree => {
            let sized = unfixed.map(|var| (var, u64::from(store.size(var))));
            least_weighted(order, sized, weights.weighted, None).map(|(var, _, _)| var)
        }
        // The others: the first variable with the greatest key.
        VariableOrder::LargestDomain => first_max(unfixed, |v| i64::from(store.size(v))),
        VariableOrder::SmallestValue => first_max(unfixed, |v| -i64::from(store.min(v))),
        VariableOrder::LargestValue => first_max(unfixed, |v| i64::from(store.max(v))),
        VariableOrder::MostConstraints => {
            first_max(unfixed, |v| weights.degrees[v as usize] as i64)
        }
        VariableOrder::SmallestDomainMostConstraints => first_max(unfixed, |v| {
            // Fewer values first (sizes fit 32 bits), then more constraints.
            let degree = weights.degrees[v as usize].min(u64::from(u32::MAX)) as i64;
            (-i64::from(store.size(v)) << 32) | degree
        }),
        VariableOrder::MaxRegret => first_max(unfixed, |v| {
            let mut values = store.values(v);
            match (values.next(), values.next()) {
                (Some(a), Some(b)) => i64::from(b) - i64::from(a),
                _ => 0,
            }
        }),
    }
}

/// The first of `vars` with the greatest `key`.
fn first_max(vars: impl Iterator<Item = u32>, key: impl Fn(u32) -> i64) -> Option<u32> {
    let mut best: Option<(u32, i64)> = None;
    for var in vars {
        let k = key(var);
        if best.is_none_or(|(_, b)| k > b) {
            best = Some((var, k));
        }
    }
    best.map(|(var, _)| var)
}

/// The variable of `sized` (unfixed variables with their domain sizes) that `order`,
/// one that reads the weighted degrees, puts first, with its size and weighted
/// degree; or `best` if none goes before it. Ties to the earliest.
fn least_weighted(
    order: VariableOrder,
    sized: impl Iterator<Item = (u32, u64)>,
    weighted: &[u64],
    mut best: Option<(u32, u64, u64)>,
) -> Option<(u32, u64, u64)> {
    for (var, size) in sized {
        let weight = weighted[var as usize].max(1);
        let before = |(_, s, w): (u32, u64, u64)| match order {
            // size / weight < s / w, without division.
            VariableOrder::DomOverWeightedDegree => size * w < s * weight,
            _ => size < s || (size == s && weight > w),
        };
        if best.is_none_or(before) {
            best = Some((var, size, weight));
        }
    }
    best
}

/// [`VariableOrder::SmallestDomainWeightedDegree`] over the one-word domains `words`
/// (variable `i` has `words[i]`, weighted degree `weighted[i]`), as
/// [`least_weighted`] gives it. The variables with two values are found 64 at a time
/// as a mask, without a branch per variable (which domains have two values is as
/// good as random to the branch predictor), and only they are compared; the other
/// sizes are counted only when no variable has two values.
fn smallest_weighted_in_words(words: &[u64], weighted: &[u64]) -> Option<(u32, u64, u64)> {
    let mut best: Option<(u32, u64, u64)> = None;
    for (chunk, (words, weighted)) in words.chunks(64).zip(weighted.chunks(64)).enumerate() {
        // Taken from the last word back, each shifting the earlier ones left: a
        // shift by a constant, where a shift by the variable's index costs a register
        // move and a slower shift.
        let mut two = 0u64;
        for &word in words.iter().rev() {
            let one_less = word & word.wrapping_sub(1);
            let two_less = one_less & one_less.wrapping_sub(1);
            two = two << 1 | u64::from((one_less != 0) & (two_less == 0));
        }
        while two != 0 {
            let k = two.trailing_zeros() as usize;
            two &= two - 1;
            let weight = weighted[k].max(1);
            if best.is_none_or(|(_, _, w)| weight > w) {
                best = Some(((chunk * 64 + k) as u32, 2, weight));
            }
        }
    }
    if best.is_some() {
        return best;
    }
    let order = VariableOrder::SmallestDomainWeightedDegree;
    least_weighted(order, sized_in_words(words), weighted, None)
}

/// The unfixed variables among one-word domains (variable `i` has `words[i]`), each
/// with its number of values.
fn sized_in_words(words: &[u64]) -> impl Iterator<Item = (u32, u64)> + '_ {
    (words.iter().enumerate())
        .filter(|(_, word)| *word & word.wrapping_sub(1) != 0)
        .map(|(var, word)| (var as u32, u64::from(word.count_ones())))
}

/// The first of the unfixed variables with the fewest values among one-word domains
/// (variable `i` has `words[i]`), and its size. Sizes up to three are told without
/// counting: first fail mostly finds those.
fn smallest_in_words(words: &[u64]) -> Option<(u32, u32)> {
    let mut best: Option<(u32, u32)> = None;
    for (var, &word) in words.iter().enumerate() {
        let one_less = word & word.wrapping_sub(1);
        if one_less == 0 {
            continue;
        }
        let two_less = one_less & one_less.wrapping_sub(1);
        if two_less == 0 {
            return Some((var as u32, 2));
        }
        let size = match best {
            Some((_, 3)) => continue,
            _ if two_less & two_less.wrapping_sub(1) == 0 => 3,
            _ => word.count_ones(),
        };
        if best.is_none_or(|(_, s)| size < s) {
            best = Some((var as u32, size));
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::{smallest_in_words, smallest_weighted_in_words};

    #[test]
    fn smallest_weighted_in_words_breaks_ties_by_weight() {
        // Fixed variables are skipped; among two values, the heaviest, then the first.
        assert_eq!(
            smallest_weighted_in_words(&[0b1, 0b11, 0b111, 0b110, 0b1010], &[9, 1, 9, 4, 4]),
            Some((3, 2, 4))
        );
        // No two: the fewest counted values, ties by weight.
        assert_eq!(
            smallest_weighted_in_words(&[0b1111, 0b111, 0b1011, 0b11111], &[5, 1, 2, 9]),
            Some((2, 3, 2))
        );
        // A weight of zero counts as one: the first of the two wins.
        assert_eq!(
            smallest_weighted_in_words(&[0b101, 0b11], &[0, 1]),
            Some((0, 2, 1))
        );
        assert_eq!(smallest_weighted_in_words(&[0b1, 0b100], &[3, 3]), None);
    }

    #[test]
    fn smallest_in_words_takes_the_first_of_the_fewest_values() {
        // Fixed variables are skipped; two values win at once, ahead of any later one.
        assert_eq!(
            smallest_in_words(&[0b1, 0b1111, 0b111, 0b11, 0b101]),
            Some((3, 2))
        );
        // Three values, told without counting: the first of them.
        assert_eq!(
            smallest_in_words(&[0b1111_1111, 0b1_0101, 0b111, 0b1000]),
            Some((1, 3))
        );
        // Counted sizes: the fewest, the first on a tie.
        assert_eq!(
            smallest_in_words(&[0b1_1111, 0b1111_0000, 0b1111, 0b10_1111]),
            Some((1, 4))
        );
        assert_eq!(smallest_in_words(&[0b1, 0b100, 0]), None);
        assert_eq!(smallest_in_words(&[]), None);
    }
}
