//! Selectors of the user's ([`VariableSelector`], [`ValueSelector`]): the search
//! follows them, survives them when they misbehave, gives each solver a clone and
//! each search a fresh start; and the built-in orders, called through the traits,
//! choose exactly as the solver runs them.

mod common;

use std::collections::BTreeSet;

use alldiff::{
    Branch, Decision, Domains, Model, ParallelSolver, Phase, Relation, SearchConfig,
    SearchObserver, Solver, Strength, ValueOrder, ValueOrderSelector, ValueSelector, VarId,
    VariableOrder, VariableSelector,
};
use proptest::prelude::*;

/// Every decision of a search, in order.
#[derive(Default)]
struct Decisions(Vec<Decision>);

impl SearchObserver for Decisions {
    fn on_decision(&mut self, decision: &Decision) {
        self.0.push(*decision);
    }
}

/// A decision as two searches of equal models share it: node, parent, the
/// variable's index, the branch and the value.
type Step = (u64, u64, usize, Branch, i32);

/// The decisions of counting every solution of `solver`, and the count.
fn decisions(solver: &mut Solver) -> (Vec<Step>, u64) {
    let mut seen = Decisions::default();
    let count = solver.count_observed(None, &mut seen);
    let steps = (seen.0.iter())
        .map(|d| (d.node, d.parent, d.var.index(), d.branch, d.value))
        .collect();
    (steps, count.solutions)
}

/// The first unfixed variable of a priority list.
#[derive(Clone)]
struct Priority(Vec<VarId>);

impl VariableSelector for Priority {
    fn select(&mut self, _vars: &[VarId], domains: &Domains<'_>) -> Option<VarId> {
        self.0.iter().copied().find(|&var| !domains.is_fixed(var))
    }
}

#[test]
fn a_variable_selector_of_the_users_is_followed() {
    const PRIORITY: [usize; 7] = [3, 6, 0, 5, 1, 4, 2];
    let (model, q) = common::queens(7, Strength::Value);
    let priority: Vec<VarId> = PRIORITY.iter().map(|&i| q[i]).collect();
    let config = SearchConfig::new().variable_selector(Priority(priority));
    let (chosen, count) = decisions(&mut Solver::with_config(model, config));
    assert_eq!(count, 40);
    assert_eq!(chosen[0].2, PRIORITY[0]);
    // The same decisions as input order over the variables in that order.
    let (model, q) = common::queens(7, Strength::Value);
    let mut solver = Solver::new(model);
    let phase =
        Phase::new(PRIORITY.iter().map(|&i| q[i])).variable_order(VariableOrder::InputOrder);
    solver.set_phases([phase]).unwrap();
    assert_eq!(decisions(&mut solver), (chosen, 40));
}

/// First fail over [`Domains::leading_words`], which checks at every decision that
/// the words hold the domains of the leading variables, `initial_mins` giving each
/// one's bit 0; the variables past the words are read one by one.
#[derive(Clone)]
struct WordsFirstFail {
    initial_mins: Vec<i32>,
}

impl VariableSelector for WordsFirstFail {
    fn select(&mut self, vars: &[VarId], domains: &Domains<'_>) -> Option<VarId> {
        let words = domains.leading_words();
        assert_eq!(words.len(), self.initial_mins.len(), "the leading run");
        for (k, (&word, &min)) in words.iter().zip(&self.initial_mins).enumerate() {
            let from_bits: Vec<i32> = (0..64)
                .filter(|&i| word >> i & 1 == 1)
                .map(|i| min + i)
                .collect();
            let values: Vec<i32> = domains.values(vars[k]).collect();
            assert_eq!(from_bits, values, "word {k}");
        }
        let sizes = (words.iter().enumerate()).map(|(k, w)| (vars[k], w.count_ones()));
        let rest = vars[words.len()..].iter().map(|&v| (v, domains.size(v)));
        let unfixed = sizes.chain(rest).filter(|&(_, size)| size > 1);
        // The first of the smallest, as min_by_key keeps it.
        unfixed.min_by_key(|&(_, size)| size).map(|(var, _)| var)
    }
}

#[test]
fn leading_words_hold_the_leading_one_word_domains() {
    // Three one-word domains (with holes, one at the ends of a 64-value span), then
    // one wider than a word, which ends the run, then another small one.
    let build = || {
        let mut model = Model::new();
        let mut vars = vec![
            model.var_from_values([-5, -3, 0, 2]).unwrap(),
            model.var_from_values([i32::MAX - 63, i32::MAX]).unwrap(),
            model.int_var(1, 3).unwrap(),
        ];
        vars.push(model.var_from_values([0, 40, 100]).unwrap());
        vars.push(model.int_var(0, 2).unwrap());
        model.not_equal(vars[0], vars[2]).unwrap();
        model.not_equal(vars[2], vars[4]).unwrap();
        model.not_equal(vars[0], vars[4]).unwrap();
        (model, vars)
    };
    let (model, _) = build();
    let selector = WordsFirstFail {
        initial_mins: vec![-5, i32::MAX - 63, 1],
    };
    let mut solver = Solver::with_config(model, SearchConfig::new().variable_selector(selector));
    let (chosen, count) = decisions(&mut solver);
    assert!(!chosen.is_empty());
    // The same search as the built-in first fail, which scans the same words.
    let (model, _) = build();
    let config = SearchConfig::new().variable_order(VariableOrder::SmallestDomain);
    assert_eq!(
        decisions(&mut Solver::with_config(model, config)),
        (chosen, count)
    );
    // Brute force: x0, x2, x4 pairwise different; x1 and x3 free.
    let triples = [-5, -3, 0, 2].iter().flat_map(|&a| {
        (1..=3).flat_map(move |b| (0..=2).filter(move |&c| a != b && b != c && a != c))
    });
    assert_eq!(count, triples.count() as u64 * 2 * 3);
}

#[test]
fn a_phase_takes_a_variable_selector_and_the_rest_follows() {
    let (model, q) = common::queens(6, Strength::Value);
    let mut solver = Solver::new(model);
    // First fail would take `q[4]`, the earliest of the phase's, all alike.
    let phase = Phase::new([q[4], q[5]]).variable_selector(Priority(vec![q[5], q[4]]));
    solver.set_phases([phase]).unwrap();
    let (chosen, count) = decisions(&mut solver);
    assert_eq!(count, 4);
    assert_eq!(chosen[0].2, 5);
}

/// The largest value first, as `x = max`.
#[derive(Clone)]
struct Largest;

impl ValueSelector for Largest {
    fn select(&mut self, var: VarId, domains: &Domains<'_>) -> (Branch, i32) {
        (Branch::Equal, domains.max(var))
    }
}

/// The smallest value ruled out first: `x != min`, then `x = min`.
#[derive(Clone)]
struct NotMinFirst;

impl ValueSelector for NotMinFirst {
    fn select(&mut self, var: VarId, domains: &Domains<'_>) -> (Branch, i32) {
        (Branch::NotEqual, domains.min(var))
    }
}

#[test]
fn a_value_selector_of_the_users_is_followed() {
    let search = |config: SearchConfig| {
        let (model, _) = common::queens(7, Strength::Value);
        decisions(&mut Solver::with_config(model, config))
    };
    let (largest, count) = search(SearchConfig::new().value_selector(Largest));
    assert_eq!(count, 40);
    assert_eq!((largest[0].3, largest[0].4), (Branch::Equal, 7));
    assert_eq!(
        search(SearchConfig::new().value_order(ValueOrder::Descending)),
        (largest, 40)
    );
    let (not_min, count) = search(SearchConfig::new().value_selector(NotMinFirst));
    assert_eq!(count, 40);
    assert_eq!((not_min[0].3, not_min[0].4), (Branch::NotEqual, 1));
}

/// A built-in variable order, called through the trait as a user's selector would.
#[derive(Clone)]
struct ThroughVariables(VariableOrder);

impl VariableSelector for ThroughVariables {
    fn select(&mut self, vars: &[VarId], domains: &Domains<'_>) -> Option<VarId> {
        self.0.select(vars, domains)
    }
}

/// A built-in value order, called through the trait as a user's selector would.
#[derive(Clone)]
struct ThroughValues(ValueOrderSelector);

impl ValueSelector for ThroughValues {
    fn select(&mut self, var: VarId, domains: &Domains<'_>) -> (Branch, i32) {
        self.0.select(var, domains)
    }

    fn new_search(&mut self) {
        self.0.new_search();
    }
}

const VARIABLE_ORDERS: [VariableOrder; 10] = [
    VariableOrder::InputOrder,
    VariableOrder::SmallestDomain,
    VariableOrder::DomOverWeightedDegree,
    VariableOrder::LargestDomain,
    VariableOrder::SmallestValue,
    VariableOrder::LargestValue,
    VariableOrder::MostConstraints,
    VariableOrder::SmallestDomainMostConstraints,
    VariableOrder::SmallestDomainWeightedDegree,
    VariableOrder::MaxRegret,
];

const VALUE_ORDERS: [ValueOrder; 8] = [
    ValueOrder::Ascending,
    ValueOrder::Descending,
    ValueOrder::Random(5),
    ValueOrder::Middle,
    ValueOrder::Median,
    ValueOrder::Split,
    ValueOrder::ReverseSplit,
    ValueOrder::Interval,
];

/// Queens with the diagonals as views, and a few wide variables (past one word),
/// each twenty times a queen's, so that the orders see one-word domains, wider ones
/// and failures.
fn queens_and_wide(n: usize) -> Model {
    let (mut model, q) = common::queens(n, Strength::Value);
    let wide = model.int_vars(3, 0, 150).unwrap();
    for (&w, &x) in wide.iter().zip(&q) {
        model
            .linear([(1, w), (-20, x)], Relation::Equal, 0)
            .unwrap();
    }
    model
}

#[test]
fn built_in_orders_through_the_traits_choose_as_the_solver_runs_them() {
    for variable in VARIABLE_ORDERS {
        for value in VALUE_ORDERS {
            let built_in = SearchConfig::new()
                .variable_order(variable)
                .value_order(value);
            let through = SearchConfig::new()
                .variable_selector(ThroughVariables(variable))
                .value_selector(ThroughValues(value.selector()));
            let mut expected = Solver::with_config(queens_and_wide(5), built_in);
            let mut solver = Solver::with_config(queens_and_wide(5), through);
            let (expected, count) = decisions(&mut expected);
            assert!(count > 0);
            // Compared whole, but not printed: the trees have hundreds of nodes.
            let same = decisions(&mut solver) == (expected, count);
            assert!(
                same,
                "{variable:?} {value:?} decide otherwise through the traits"
            );
        }
    }
}

/// The first decision of a search over one variable with `values`, by `order`.
fn first_decision(values: &[i32], order: ValueOrder) -> (Branch, i32) {
    let mut model = Model::new();
    model.var_from_values(values.iter().copied()).unwrap();
    let mut solver = Solver::with_config(model, SearchConfig::new().value_order(order));
    let (chosen, count) = decisions(&mut solver);
    assert_eq!(count, values.len() as u64);
    (chosen[0].3, chosen[0].4)
}

#[test]
fn median_and_interval_take_the_values_minizinc_names() {
    let median = ValueOrder::Median;
    assert_eq!(first_decision(&[1, 2, 5, 8, 9], median), (Branch::Equal, 5));
    // An even count: the lower of the two middle values.
    assert_eq!(first_decision(&[1, 2, 5, 8], median), (Branch::Equal, 2));
    assert_eq!(first_decision(&[3, 4, 5, 6], median), (Branch::Equal, 4));
    let wide: Vec<i32> = (0..300).chain([1000]).collect();
    assert_eq!(first_decision(&wide, median), (Branch::Equal, 150));
    let interval = ValueOrder::Interval;
    // The first interval, 1..=3, first; then the rest.
    assert_eq!(
        first_decision(&[1, 2, 3, 7, 8], interval),
        (Branch::LessEqual, 3)
    );
    assert_eq!(first_decision(&[1, 7, 8], interval), (Branch::LessEqual, 1));
    // No gap: split at the middle.
    assert_eq!(
        first_decision(&[4, 5, 6, 7, 8, 9], interval),
        (Branch::LessEqual, 6)
    );
    let edge = [i32::MIN, i32::MIN + 1, i32::MAX];
    assert_eq!(
        first_decision(&edge, interval),
        (Branch::LessEqual, i32::MIN + 1)
    );
    assert_eq!(first_decision(&edge, median), (Branch::Equal, i32::MIN + 1));
}

/// Counts the decisions it was asked for since the search started, and picks the
/// unfixed variable at that count, round the list: a selector with state.
#[derive(Clone, Default)]
struct RoundRobin(usize);

impl VariableSelector for RoundRobin {
    fn select(&mut self, vars: &[VarId], domains: &Domains<'_>) -> Option<VarId> {
        let unfixed: Vec<VarId> = vars
            .iter()
            .copied()
            .filter(|&v| !domains.is_fixed(v))
            .collect();
        self.0 += 1;
        unfixed.get(self.0 % unfixed.len().max(1)).copied()
    }

    fn new_search(&mut self) {
        self.0 = 0;
    }
}

#[test]
fn a_selector_with_state_starts_afresh_with_each_search() {
    let (model, _) = common::queens(6, Strength::Value);
    let mut solver =
        Solver::with_config(model, SearchConfig::new().variable_selector(RoundRobin(7)));
    let first = decisions(&mut solver);
    assert_eq!(first.1, 4);
    assert_eq!(decisions(&mut solver), first);
}

#[test]
fn configurations_share_a_prototype_and_solvers_clone_it() {
    let config = SearchConfig::new().variable_selector(RoundRobin::default());
    assert_eq!(config.clone(), config);
    assert_ne!(
        config,
        SearchConfig::new().variable_selector(RoundRobin::default())
    );
    assert!(format!("{config:?}").contains("RoundRobin"));
    let build = || {
        let (model, _) = common::queens(8, Strength::Value);
        Solver::with_config(model, config.clone())
    };
    assert_eq!(build().count(None).solutions, 92);
    let mut parallel = ParallelSolver::new(2, build);
    assert_eq!(parallel.count(None).solutions, 92);
}

/// A variable selector that follows a script, picking each time (cycling through
/// `codes`): nothing, a variable of the list (fixed or not), a variable of another
/// model, or the first unfixed one.
#[derive(Clone)]
struct ScriptedVariables {
    codes: Vec<u8>,
    foreign: VarId,
    at: usize,
}

impl VariableSelector for ScriptedVariables {
    fn select(&mut self, vars: &[VarId], domains: &Domains<'_>) -> Option<VarId> {
        let code = usize::from(self.codes[self.at % self.codes.len()]);
        self.at += 1;
        match code % 4 {
            0 => None,
            1 => vars.get(code / 4 % vars.len().max(1)).copied(),
            2 => Some(self.foreign),
            _ => vars.iter().copied().find(|&v| !domains.is_fixed(v)),
        }
    }

    fn new_search(&mut self) {
        self.at = 0;
    }
}

/// A value selector that follows a script: any branch, about a value up to one
/// outside the bounds.
#[derive(Clone)]
struct ScriptedValues {
    codes: Vec<u8>,
    at: usize,
}

impl ValueSelector for ScriptedValues {
    fn select(&mut self, var: VarId, domains: &Domains<'_>) -> (Branch, i32) {
        let code = self.codes[self.at % self.codes.len()];
        self.at += 1;
        let branch = [
            Branch::Equal,
            Branch::NotEqual,
            Branch::LessEqual,
            Branch::Greater,
        ][usize::from(code % 4)];
        let (min, max) = (i64::from(domains.min(var)), i64::from(domains.max(var)));
        let value = (min - 1 + i64::from(code / 4) % (max - min + 3))
            .clamp(i64::from(i32::MIN), i64::from(i32::MAX));
        (branch, value as i32)
    }

    fn new_search(&mut self) {
        self.at = 0;
    }
}

/// Domains of up to four values near zero, or at the ends of `i32`.
fn domain() -> impl Strategy<Value = Vec<i32>> {
    let near = prop::collection::btree_set(-3..=3i32, 1..=4);
    let edge = prop::collection::btree_set(
        prop_oneof![
            Just(i32::MIN),
            Just(i32::MIN + 1),
            Just(i32::MAX - 1),
            Just(i32::MAX)
        ],
        1..=3,
    );
    prop_oneof![near, edge].prop_map(|set| set.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Whatever the user's selectors pick, in a phase or for the whole search, the
    /// search finds each brute-force solution once, and ends.
    #[test]
    fn misbehaving_selectors_lose_and_repeat_no_solution(
        domains in prop::collection::vec(domain(), 1..=4),
        variable_codes in prop::collection::vec(any::<u8>(), 1..8),
        value_codes in prop::collection::vec(any::<u8>(), 1..8),
        in_phase in any::<bool>(),
        different in any::<bool>(),
    ) {
        let holds = |values: &[i32]| {
            !different || values.iter().collect::<BTreeSet<_>>().len() == values.len()
        };
        let expected = common::brute_force(&domains, &holds);
        let mut model = Model::new();
        let vars: Vec<VarId> = (domains.iter())
            .map(|d| model.var_from_values(d.iter().copied()).unwrap())
            .collect();
        if different {
            model.all_different(vars.iter().copied()).unwrap();
        }
        let mut other = Model::new();
        let foreign = other.int_vars(5, 0, 1).unwrap()[domains.len() - 1];
        let variables = ScriptedVariables { codes: variable_codes, foreign, at: 0 };
        let values = ScriptedValues { codes: value_codes, at: 0 };
        let mut solver = match in_phase {
            true => {
                let mut solver = Solver::new(model);
                let phase = Phase::new(vars.iter().rev().copied())
                    .variable_selector(variables)
                    .value_selector(values);
                solver.set_phases([phase]).unwrap();
                solver
            }
            false => Solver::with_config(
                model,
                SearchConfig::new().variable_selector(variables).value_selector(values),
            ),
        };
        solver.check_solutions(true);
        let found: Result<Vec<Vec<i32>>, _> = (solver.solutions())
            .map(|s| s.map(|s| vars.iter().map(|&x| s[x]).collect()))
            .collect();
        let found = found.map_err(|stop| TestCaseError::fail(format!("stopped: {stop:?}")))?;
        let distinct: BTreeSet<Vec<i32>> = found.iter().cloned().collect();
        prop_assert_eq!(distinct.len(), found.len(), "a solution repeats");
        prop_assert_eq!(distinct, expected);
    }
}
