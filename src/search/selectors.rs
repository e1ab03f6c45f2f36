//! The extension points of branching: traits for choosing the variable and the value
//! of each decision, and the read-only view of the domains they choose from.
//!
//! The built-in orders implement them ([`VariableOrder`], and [`ValueOrder`] through
//! [`ValueOrder::selector`]); the solver runs those without a virtual call. A
//! selector of the user's enters a [`SearchConfig`] or a [`Phase`] as a prototype
//! that every solver it reaches clones, so one configuration can serve many solvers,
//! on many threads.
//!
//! [`VariableOrder`]: super::VariableOrder
//! [`ValueOrder`]: super::ValueOrder
//! [`ValueOrder::selector`]: super::ValueOrder::selector
//! [`SearchConfig`]: super::SearchConfig
//! [`Phase`]: super::Phase

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use super::Branch;
use crate::ids::VarId;
use crate::store::Store;

/// Chooses the variable of each decision, among a phase's variables.
///
/// `select` is called at every search node that branches, so it should cost about
/// one read per variable; the built-in [`VariableOrder`](super::VariableOrder)s
/// implement this trait too, so a selector may hand a case to one of them.
///
/// ```
/// use alldiff::{Domains, Model, Phase, Solver, VarId, VariableSelector};
///
/// /// The unfixed variable with the largest index: creation order backwards.
/// #[derive(Clone)]
/// struct LastFirst;
///
/// impl VariableSelector for LastFirst {
///     fn select(&mut self, vars: &[VarId], domains: &Domains<'_>) -> Option<VarId> {
///         vars.iter().rev().copied().find(|&var| !domains.is_fixed(var))
///     }
/// }
///
/// let mut model = Model::new();
/// let x = model.int_vars(3, 0, 1)?;
/// let mut solver = Solver::new(model);
/// solver.set_phases([Phase::new(x.iter().copied()).variable_selector(LastFirst)])?;
/// assert_eq!(solver.count(None).solutions, 8);
/// # Ok::<(), alldiff::ModelError>(())
/// ```
pub trait VariableSelector {
    /// The variable to branch on next: one of `vars` (the phase's variables, in the
    /// order given; for the solver's own [`SearchConfig`](super::SearchConfig), every
    /// variable of the model, or with auxiliary variables the others, then those)
    /// that is not fixed, or `None` once all of them are.
    ///
    /// Returning `None`, or a variable that is fixed or not of the model, while some
    /// of `vars` are unfixed ends the phase early: the next phase decides, and after
    /// the last one the solver's built-in first fail, so every solution is still
    /// complete.
    fn select(&mut self, vars: &[VarId], domains: &Domains<'_>) -> Option<VarId>;

    /// A new search starts (not a restart within one): reset any state, so that
    /// the same search repeats. Does nothing unless overridden.
    fn new_search(&mut self) {}
}

/// Chooses the branches of the decision about a variable: the first one and its
/// value, the search taking the negation of that branch afterwards.
///
/// | first branch | then |
/// |---|---|
/// | `(Branch::Equal, v)`: `x = v` | `x != v` |
/// | `(Branch::NotEqual, v)`: `x != v` | `x = v` |
/// | `(Branch::LessEqual, v)`: `x <= v` | `x > v` |
/// | `(Branch::Greater, v)`: `x > v` | `x <= v` |
///
/// Both branches must leave values: `v` in the domain for `=` and `!=`, and
/// `min <= v < max` for `<=` and `>`. A choice that does not split the domain so is
/// replaced by `(Branch::Equal, min)`, so the search always progresses.
///
/// ```
/// use alldiff::{Branch, Domains, Model, Phase, Solver, ValueSelector, VarId};
///
/// /// The value nearest to a target, the smaller on a tie.
/// #[derive(Clone)]
/// struct Nearest(i32);
///
/// impl ValueSelector for Nearest {
///     fn select(&mut self, var: VarId, domains: &Domains<'_>) -> (Branch, i32) {
///         let distance = |v: i32| (i64::from(v) - i64::from(self.0)).abs();
///         let best = domains.values(var).min_by_key(|&v| distance(v));
///         (Branch::Equal, best.unwrap_or(domains.min(var)))
///     }
/// }
///
/// let mut model = Model::new();
/// let x = model.int_var(0, 9)?;
/// let mut solver = Solver::new(model);
/// solver.set_phases([Phase::new([x]).value_selector(Nearest(6))])?;
/// let alldiff::Outcome::Solved(solution) = solver.solve() else { panic!("satisfiable") };
/// assert_eq!(solution[x], 6);
/// # Ok::<(), alldiff::ModelError>(())
/// ```
pub trait ValueSelector {
    /// The first branch of the decision about `var`, which is not fixed, and its
    /// value.
    fn select(&mut self, var: VarId, domains: &Domains<'_>) -> (Branch, i32);

    /// A new search starts (not a restart within one): reset any state, so that
    /// the same search repeats. Does nothing unless overridden.
    fn new_search(&mut self) {}
}

/// The domains at a search node, as selectors read them; also each variable's
/// degree and weighted degree, which the built-in dom/wdeg orders read.
///
/// Every method takes a variable of the solver's model, such as those a selector is
/// given; a variable of another model reads the domain of the variable at its
/// index, or panics if there is none.
#[derive(Clone, Copy)]
pub struct Domains<'a> {
    pub(super) store: &'a Store,
    /// Every variable of the model, in order.
    pub(super) vars: &'a [VarId],
    /// Each variable's number of constraints.
    pub(super) degrees: &'a [u64],
    /// Each variable's weighted degree (see [`Domains::weighted_degree`]).
    pub(super) weighted: &'a [u64],
}

impl std::fmt::Debug for Domains<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Domains")
            .field("variables", &self.store.var_count())
            .finish_non_exhaustive()
    }
}

impl<'a> Domains<'a> {
    /// The domains in `store` of `vars`, all the model's, with their degrees and
    /// weighted degrees.
    pub(super) fn new(
        store: &'a Store,
        vars: &'a [VarId],
        degrees: &'a [u64],
        weighted: &'a [u64],
    ) -> Domains<'a> {
        Domains {
            store,
            vars,
            degrees,
            weighted,
        }
    }

    /// The number of values left.
    pub fn size(&self, var: VarId) -> u32 {
        self.store.size(var.raw())
    }

    /// Whether one value is left.
    pub fn is_fixed(&self, var: VarId) -> bool {
        self.store.is_fixed(var.raw())
    }

    /// The value, if only one is left.
    pub fn value(&self, var: VarId) -> Option<i32> {
        self.is_fixed(var).then(|| self.min(var))
    }

    /// The smallest value left.
    pub fn min(&self, var: VarId) -> i32 {
        self.store.min(var.raw())
    }

    /// The largest value left.
    pub fn max(&self, var: VarId) -> i32 {
        self.store.max(var.raw())
    }

    /// Whether `value` is left.
    pub fn contains(&self, var: VarId, value: i32) -> bool {
        self.store.contains(var.raw(), value)
    }

    /// The values left, ascending.
    pub fn values(&self, var: VarId) -> impl Iterator<Item = i32> + '_ {
        self.store.values(var.raw())
    }

    /// The domains of the model's leading variables that fit one 64-bit word, read
    /// in one slice: word `k` is variable `k`'s, and its bit `i` is set while the
    /// value `min + i` is left, `min` being the smallest value of its initial domain.
    /// The run stops at the first variable whose initial domain spans more than 64
    /// values (or is stored otherwise), so it may be empty. A size is a
    /// `count_ones`, and a scan over many small domains (a grid's cells) needs no
    /// call per variable: the built-in orders scan it so.
    pub fn leading_words(&self) -> &'a [u64] {
        self.store.leading_small_words()
    }

    /// The number of constraints on `var`, counted when the solver was made
    /// (MiniZinc's `occurrence`).
    pub fn degree(&self, var: VarId) -> u64 {
        self.degrees[var.index()]
    }

    /// The weighted degree of `var` as dom/wdeg reads it: the sum over its
    /// constraints of one plus the failures each found (only those a failing
    /// constraint blames, if it blames some, [`Propagator::blame`]). Failures of
    /// the whole run count, restarts included; a new search starts again from the
    /// degree.
    ///
    /// [`Propagator::blame`]: crate::Propagator::blame
    pub fn weighted_degree(&self, var: VarId) -> u64 {
        self.weighted[var.index()]
    }
}

/// A selector of the user's, kept in a configuration: a prototype that each solver
/// clones into its own running selector, so the configuration stays shareable (and
/// two configurations are equal when they hold the same prototype).
pub(super) struct Prototype<Running: ?Sized>(Arc<dyn Instantiate<Running>>);

/// Makes running selectors of type `Running` from a prototype.
pub(super) trait Instantiate<Running: ?Sized>: Send + Sync {
    fn instantiate(&self) -> Box<Running>;
    /// The selector's type, for `Debug`.
    fn name(&self) -> &'static str;
}

/// A running variable selector: sendable with its solver.
pub(super) type RunningVariables = dyn VariableSelector + Send;
/// A running value selector: sendable with its solver.
pub(super) type RunningValues = dyn ValueSelector + Send;

impl<S: VariableSelector + Clone + Send + Sync + 'static> Instantiate<RunningVariables> for S {
    fn instantiate(&self) -> Box<RunningVariables> {
        Box::new(self.clone())
    }
    fn name(&self) -> &'static str {
        std::any::type_name::<S>()
    }
}

impl<S: ValueSelector + Clone + Send + Sync + 'static> Instantiate<RunningValues> for S {
    fn instantiate(&self) -> Box<RunningValues> {
        Box::new(self.clone())
    }
    fn name(&self) -> &'static str {
        std::any::type_name::<S>()
    }
}

impl<Running: ?Sized> Prototype<Running> {
    pub(super) fn new(selector: impl Instantiate<Running> + 'static) -> Prototype<Running> {
        Prototype(Arc::new(selector))
    }

    /// A running selector of the solver's own.
    pub(super) fn instantiate(&self) -> Box<Running> {
        self.0.instantiate()
    }
}

impl<Running: ?Sized> Clone for Prototype<Running> {
    fn clone(&self) -> Self {
        Prototype(Arc::clone(&self.0))
    }
}

impl<Running: ?Sized> PartialEq for Prototype<Running> {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl<Running: ?Sized> Eq for Prototype<Running> {}

impl<Running: ?Sized> Hash for Prototype<Running> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        Arc::as_ptr(&self.0).cast::<()>().hash(state);
    }
}

impl<Running: ?Sized> std::fmt::Debug for Prototype<Running> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.name())
    }
}
