//! What a search chooses by: the variable and value choices of the whole search
//! ([`SearchConfig`]) and of phases over some variables ([`Phase`]).

use super::orders::{ValueOrder, VariableOrder};
use super::selectors::{
    Prototype, RunningValues, RunningVariables, ValueSelector, VariableSelector,
};
use crate::ids::VarId;

/// How a configuration chooses: by a built-in order, or by a selector of the user's
/// (a prototype in a configuration, a running selector in a solver).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum Choice<Order, Selector> {
    Order(Order),
    Selector(Selector),
}

impl<Order: Default, Selector> Default for Choice<Order, Selector> {
    fn default() -> Self {
        Choice::Order(Order::default())
    }
}

/// How to search: the variable and value choices, each a built-in order or a
/// selector of your own ([`VariableSelector`], [`ValueSelector`]).
///
/// A selector of your own is a prototype: every solver the configuration is given
/// to (every worker of a [`ParallelSolver`](crate::ParallelSolver), every size of a
/// [`SudokuSolver`](crate::sudoku::SudokuSolver)) searches with a clone of it, so
/// cloning a configuration is cheap, and two configurations are equal when they
/// hold the same orders, or the same prototype (not merely equal selectors).
///
/// ```
/// use alldiff::{SearchConfig, ValueOrder, VariableOrder};
/// let config = SearchConfig::new()
///     .variable_order(VariableOrder::DomOverWeightedDegree)
///     .value_order(ValueOrder::Split);
/// assert_ne!(config, SearchConfig::default());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SearchConfig {
    pub(super) variables: Choice<VariableOrder, Prototype<RunningVariables>>,
    pub(super) values: Choice<ValueOrder, Prototype<RunningValues>>,
}

impl SearchConfig {
    /// The default: smallest domain first, ascending values.
    pub fn new() -> SearchConfig {
        SearchConfig::default()
    }

    /// Chooses variables by a built-in order.
    pub fn variable_order(mut self, order: VariableOrder) -> SearchConfig {
        self.variables = Choice::Order(order);
        self
    }

    /// Chooses values by a built-in order.
    pub fn value_order(mut self, order: ValueOrder) -> SearchConfig {
        self.values = Choice::Order(order);
        self
    }

    /// Chooses variables by `selector`, which each solver clones.
    pub fn variable_selector<S>(mut self, selector: S) -> SearchConfig
    where
        S: VariableSelector + Clone + Send + Sync + 'static,
    {
        self.variables = Choice::Selector(Prototype::new(selector));
        self
    }

    /// Chooses values by `selector`, which each solver clones.
    pub fn value_selector<S>(mut self, selector: S) -> SearchConfig
    where
        S: ValueSelector + Clone + Send + Sync + 'static,
    {
        self.values = Choice::Selector(Prototype::new(selector));
        self
    }
}

/// Some variables to branch on before the others, with their own variable and value
/// choices, like MiniZinc's `seq_search`. The search branches on the first phase's
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
    /// A phase over `vars` (in this order, for [`VariableOrder::InputOrder`] and for
    /// a [`VariableSelector`]), with the default orders: smallest domain first,
    /// ascending values.
    pub fn new(vars: impl IntoIterator<Item = VarId>) -> Phase {
        Phase {
            vars: vars.into_iter().collect(),
            config: SearchConfig::default(),
        }
    }

    /// Chooses the phase's variables by a built-in order.
    pub fn variable_order(mut self, order: VariableOrder) -> Phase {
        self.config = self.config.variable_order(order);
        self
    }

    /// Chooses the values within the phase by a built-in order.
    pub fn value_order(mut self, order: ValueOrder) -> Phase {
        self.config = self.config.value_order(order);
        self
    }

    /// Chooses the phase's variables by `selector`, which each solver clones.
    pub fn variable_selector<S>(mut self, selector: S) -> Phase
    where
        S: VariableSelector + Clone + Send + Sync + 'static,
    {
        self.config = self.config.variable_selector(selector);
        self
    }

    /// Chooses the values within the phase by `selector`, which each solver clones.
    pub fn value_selector<S>(mut self, selector: S) -> Phase
    where
        S: ValueSelector + Clone + Send + Sync + 'static,
    {
        self.config = self.config.value_selector(selector);
        self
    }

    /// The phase's variables, in the order given.
    pub fn vars(&self) -> &[VarId] {
        &self.vars
    }

    /// The phase's variable and value choices.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }
}
