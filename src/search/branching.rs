//! Which variable to branch on next, and which value to try first: the choice state
//! of a solver, running the built-in orders directly and the user's selectors
//! through their traits.

use super::Branch;
use super::config::{Choice, SearchConfig};
use super::orders::{ValueOrderSelector, VariableOrder};
use super::selectors::{Domains, RunningValues, RunningVariables, ValueSelector};
use crate::ids::VarId;
use crate::propagator::Propagator;
use crate::store::Store;

/// One way of choosing, running: a configuration's orders, or the solver's own
/// clones of its selectors.
struct Chooser {
    /// The configuration, as given.
    config: SearchConfig,
    variables: Choice<VariableOrder, Box<RunningVariables>>,
    values: Choice<ValueOrderSelector, Box<RunningValues>>,
}

impl Chooser {
    fn new(config: SearchConfig) -> Chooser {
        let variables = match &config.variables {
            Choice::Order(order) => Choice::Order(*order),
            Choice::Selector(prototype) => Choice::Selector(prototype.instantiate()),
        };
        let values = match &config.values {
            Choice::Order(order) => Choice::Order(order.selector()),
            Choice::Selector(prototype) => Choice::Selector(prototype.instantiate()),
        };
        Chooser {
            config,
            variables,
            values,
        }
    }

    /// Whether choosing may read the weighted degrees (a user's selector may).
    fn reads_weights(&self) -> bool {
        match (&self.variables, &self.values) {
            (Choice::Order(order), Choice::Order(_)) => order.reads_weights(),
            _ => true,
        }
    }

    /// A new search starts: same state, same search.
    fn new_search(&mut self) {
        if let Choice::Selector(selector) = &mut self.variables {
            selector.new_search();
        }
        match &mut self.values {
            Choice::Order(order) => order.new_search(),
            Choice::Selector(selector) => selector.new_search(),
        }
    }

    /// The unfixed variable among `vars` this chooser picks, or `None` if it picks
    /// none: all are fixed, or a user's selector picked none or something else than
    /// an unfixed variable of the model.
    fn select(&mut self, vars: &[VarId], domains: &Domains<'_>) -> Option<u32> {
        match &mut self.variables {
            Choice::Order(order) => select_among(*order, vars.iter().map(|v| v.raw()), domains),
            Choice::Selector(selector) => {
                let var = selector.select(vars, domains)?;
                let owned = domains.vars.get(var.index()) == Some(&var);
                (owned && !domains.is_fixed(var)).then(|| var.raw())
            }
        }
    }

    /// [`Chooser::select`] for the final choice, which must pick a variable while one
    /// is unfixed: where a user's selector picks none, first fail does. Out of line,
    /// as is all the work for a user's selector: the search loop inlines the built-in
    /// orders' scans only while it stays small.
    #[inline(never)]
    fn select_finally(&mut self, vars: &[VarId], domains: &Domains<'_>) -> Option<u32> {
        let var = self.select(vars, domains);
        match self.variables {
            Choice::Selector(_) if var.is_none() => {
                let first_fail = VariableOrder::SmallestDomain;
                select_among(first_fail, vars.iter().map(|v| v.raw()), domains)
            }
            _ => var,
        }
    }

    /// The decision about `var`, unfixed, in `store`: the branch to take first and its
    /// value. A user's selector reads the `domains` view, made only for it, so the
    /// built-in orders' path stays as short as it was.
    #[inline(always)]
    fn decide<'a>(
        &mut self,
        store: &'a Store,
        var: u32,
        domains: impl FnOnce() -> Domains<'a>,
    ) -> (Branch, i32) {
        match &mut self.values {
            Choice::Order(order) => order.choose(store, var),
            Choice::Selector(selector) => decide_by(selector.as_mut(), var, &domains()),
        }
    }
}

/// The decision a user's `selector` takes about `var`, unfixed; one that does not
/// split the domain becomes `var = min`. Out of line (see [`Chooser::select_finally`]).
#[inline(never)]
fn decide_by(selector: &mut RunningValues, var: u32, domains: &Domains<'_>) -> (Branch, i32) {
    let (branch, value) = selector.select(domains.vars[var as usize], domains);
    let store = domains.store;
    let splits = match branch {
        Branch::Equal | Branch::NotEqual => store.contains(var, value),
        Branch::LessEqual | Branch::Greater => store.min(var) <= value && value < store.max(var),
    };
    match splits {
        true => (branch, value),
        false => (Branch::Equal, store.min(var)),
    }
}

/// A phase as the brancher keeps it.
struct PhaseState {
    vars: Vec<VarId>,
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

/// The choice state: phases, weighted degrees, the random generators and the
/// user's selectors.
pub(crate) struct Brancher {
    /// The final phase, over every variable but the auxiliary ones.
    default: Chooser,
    phases: Vec<PhaseState>,
    /// Every variable of the model, in order.
    vars: Vec<VarId>,
    /// The variables that only complete a solution, branched on last with the
    /// default orders; empty for most models.
    auxiliary: Vec<VarId>,
    /// With auxiliary variables, the others, for the final phase.
    others: Vec<VarId>,
    /// Whether any phase chooses by dom/wdeg or by a user's selector, and so may
    /// read the weights.
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
    /// `vars_of` lists each constraint's variables (raw indices) among `vars`, all
    /// the model's.
    pub(crate) fn new(config: SearchConfig, vars_of: Vec<Vec<u32>>, vars: Vec<VarId>) -> Brancher {
        let mut degrees = vec![0; vars.len()];
        for &var in vars_of.iter().flatten() {
            degrees[var as usize] += 1;
        }
        let degrees_alike = degrees.windows(2).all(|pair| pair[0] == pair[1]);
        let mut brancher = Brancher {
            default: Chooser::new(config),
            phases: Vec::new(),
            vars,
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

    pub(crate) fn config(&self) -> &SearchConfig {
        &self.default.config
    }

    pub(crate) fn set_config(&mut self, config: SearchConfig) {
        self.default = Chooser::new(config);
        self.update_weighted();
    }

    /// Branches on each phase's variables (the model's) in turn before the others.
    pub(crate) fn set_phases(
        &mut self,
        phases: impl IntoIterator<Item = (Vec<VarId>, SearchConfig)>,
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

    /// Branches on the `auxiliary` variables (the model's) last.
    pub(crate) fn set_auxiliary(&mut self, auxiliary: Vec<VarId>) {
        let mut is_auxiliary = vec![false; self.vars.len()];
        for var in &auxiliary {
            is_auxiliary[var.index()] = true;
        }
        self.others = match auxiliary.is_empty() {
            true => Vec::new(),
            false => (self.vars.iter().copied())
                .filter(|var| !is_auxiliary[var.index()])
                .collect(),
        };
        self.auxiliary = auxiliary;
    }

    fn update_weighted(&mut self) {
        let phases = self.phases.iter().map(|p| &p.chooser);
        self.weighted = phases.chain([&self.default]).any(Chooser::reads_weights);
    }

    /// Called when a new search starts: same seeds, same search. (A restart within a
    /// search keeps the generators and the weights going.)
    pub(crate) fn restart(&mut self) {
        self.default.new_search();
        for phase in &mut self.phases {
            phase.chooser.new_search();
        }
        // Only the orders that read the weights raise them (`failed`).
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
        // Only the orders that read the weights need them; `restart` resets them
        // for every search.
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
            let domains = Domains::new(store, &self.vars, &self.degrees, &self.weighted_degrees);
            if let Some(var) = phase.chooser.select(&phase.vars, &domains) {
                let (branch, value) = phase.chooser.decide(store, var, || domains);
                return Some(Chosen::new(var, (branch, value), false));
            }
        }
        if !self.auxiliary.is_empty() {
            return self.decide_with_auxiliary(store);
        }
        let domains = || Domains::new(store, &self.vars, &self.degrees, &self.weighted_degrees);
        let var = match self.default.variables {
            Choice::Order(order) => self.select_var(order, store)?,
            Choice::Selector(_) => self.default.select_finally(&self.vars, &domains())?,
        };
        Some(Chosen::new(
            var,
            self.default.decide(store, var, domains),
            false,
        ))
    }

    /// The default choice with auxiliary variables: the others first, then those.
    #[inline(never)]
    fn decide_with_auxiliary(&mut self, store: &Store) -> Option<Chosen> {
        let domains = Domains::new(store, &self.vars, &self.degrees, &self.weighted_degrees);
        for (vars, auxiliary) in [(&self.others, false), (&self.auxiliary, true)] {
            if let Some(var) = self.default.select_finally(vars, &domains) {
                let (branch, value) = self.default.decide(store, var, || domains);
                return Some(Chosen::new(var, (branch, value), auxiliary));
            }
        }
        None
    }

    /// The domains as the orders and selectors read them.
    fn domains<'a>(&'a self, store: &'a Store) -> Domains<'a> {
        Domains::new(store, &self.vars, &self.degrees, &self.weighted_degrees)
    }

    /// The default choice of the next variable by `order`, or `None` when all are
    /// fixed.
    #[inline(always)]
    fn select_var(&self, order: VariableOrder, store: &Store) -> Option<u32> {
        let order = match order {
            // Most searches with few nodes never fail: no weights to read.
            order if order.reads_weights() && self.degrees_alike && !self.raised => {
                VariableOrder::SmallestDomain
            }
            order => order,
        };
        if order.reads_weights() {
            // The leading one-word domains read straight from their words.
            let leading = self.domains(store).leading_words();
            let weighted = &self.weighted_degrees;
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
            return select_among(order, all, &self.domains(store));
        }
        let leading = self.domains(store).leading_words();
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

/// The unfixed variable among `vars` that `order` picks (ties to the earliest), or
/// `None` if all are fixed. Linear in the number of variables.
pub(super) fn select_among(
    order: VariableOrder,
    vars: impl Iterator<Item = u32>,
    domains: &Domains<'_>,
) -> Option<u32> {
    let store = domains.store;
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
            least_weighted(order, sized, domains.weighted, None).map(|(var, _, _)| var)
        }
        // The others: the first variable with the greatest key.
        VariableOrder::LargestDomain => first_max(unfixed, |v| i64::from(store.size(v))),
        VariableOrder::SmallestValue => first_max(unfixed, |v| -i64::from(store.min(v))),
        VariableOrder::LargestValue => first_max(unfixed, |v| i64::from(store.max(v))),
        VariableOrder::MostConstraints => {
            first_max(unfixed, |v| domains.degrees[v as usize] as i64)
        }
        VariableOrder::SmallestDomainMostConstraints => first_max(unfixed, |v| {
            // Fewer values first (sizes fit 32 bits), then more constraints.
            let degree = domains.degrees[v as usize].min(u64::from(u32::MAX)) as i64;
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
