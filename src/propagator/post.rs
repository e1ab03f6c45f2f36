//! Posting a propagator: what it tells the solver about itself, once, before any
//! search (Pumpkin's constructor context).

use super::Wake;
use crate::error::ModelError;
use crate::ids::{VarId, View};
use crate::store::Event;
use crate::variables::Variables;

/// A propagator's view of the model while it is posted
/// ([`Propagator::post`](crate::Propagator::post)): it registers the variables it
/// watches, each with its own [`Wake`], and its backtrackable state, and may read the
/// initial domains to check its parameters. Nothing else reaches the model.
pub struct PostContext<'a> {
    vars: &'a Variables,
    constraint: &'static str,
    /// The watched variables (store indices), in local-index order, with their events.
    watches: Vec<(u32, Event)>,
    state: Vec<u64>,
}

/// What a propagator registered when it was posted.
pub(super) struct Registration {
    /// Its watched variables (store indices) with their events, by local index.
    pub(super) watched: Vec<(u32, Event)>,
    /// Its initial state words.
    pub(super) state: Vec<u64>,
}

impl<'a> PostContext<'a> {
    pub(super) fn new(vars: &'a Variables, constraint: &'static str) -> PostContext<'a> {
        PostContext {
            vars,
            constraint,
            watches: Vec::new(),
            state: Vec::new(),
        }
    }

    /// What the propagator registered.
    pub(super) fn finish(self) -> Result<Registration, ModelError> {
        if self.watches.is_empty() {
            return Err(ModelError::NoVariables {
                constraint: self.constraint,
            });
        }
        Ok(Registration {
            watched: self.watches,
            state: self.state,
        })
    }

    /// Watches `view`'s variable: a change of it that `wake` covers wakes the
    /// propagator. Returns the variable's *local index*, the position in which
    /// [`Context::modified`](crate::Context::modified) reports it (0, 1, 2, ... in
    /// the order of the calls). A variable watched twice (say `x` and `x + 1`) gets
    /// two local indices, and the propagator is then woken by its own changes too.
    ///
    /// # Errors
    ///
    /// [`ModelError::ForeignVariable`] for a variable of another model,
    /// [`ModelError::OffsetOverflow`] for a view whose values leave the `i32` range,
    /// and [`ModelError::InvalidConstraint`] for a scaled view (`2 * x`): a
    /// propagator takes `x + c` only, and the model's own constraints post a scaled
    /// view through an auxiliary variable.
    pub fn watch(&mut self, view: impl Into<View>, wake: Wake) -> Result<u32, ModelError> {
        let view = view.into();
        self.check(view)?;
        self.watches.push((view.var.raw(), wake.events()));
        Ok(self.watches.len() as u32 - 1)
    }

    /// Watches each view with the same `wake`, in order (see [`PostContext::watch`]).
    ///
    /// # Errors
    ///
    /// As [`PostContext::watch`], for the first view at fault.
    pub fn watch_all<V: Into<View>>(
        &mut self,
        views: impl IntoIterator<Item = V>,
        wake: Wake,
    ) -> Result<(), ModelError> {
        views
            .into_iter()
            .try_for_each(|view| self.watch(view, wake).map(drop))
    }

    /// Checks a view the propagator reads without watching it.
    ///
    /// # Errors
    ///
    /// As [`PostContext::watch`].
    pub fn check(&self, view: impl Into<View>) -> Result<(), ModelError> {
        let view = view.into();
        self.vars.check_view(view)?;
        if !view.is_unit() {
            return Err(ModelError::InvalidConstraint {
                constraint: self.constraint,
                reason: format!(
                    "the view {} * {} is scaled: a propagator takes views x + c only",
                    view.scale,
                    self.name(view.var)
                ),
            });
        }
        Ok(())
    }

    /// The words of backtrackable state every search starts the propagator from:
    /// read with [`Context::state`](crate::Context::state), written with
    /// [`Context::set_state`](crate::Context::set_state), and put back with the
    /// domains whenever the solver backtracks, so that what a propagator derives
    /// incrementally always matches the domains. Default: none.
    pub fn set_initial_state(&mut self, words: Vec<u64>) {
        self.state = words;
    }

    /// The constraint's kind, as errors name it.
    pub fn constraint(&self) -> &'static str {
        self.constraint
    }

    /// The variable's name (see [`Model::name`](crate::Model::name)).
    pub fn name(&self, var: VarId) -> String {
        self.vars.name(var)
    }

    /// The smallest initial value of a variable of the model (saturated at the ends
    /// of `i32` for a view not checked yet: [`PostContext::watch`] refuses it).
    pub fn min(&self, view: impl Into<View>) -> i32 {
        let view = view.into();
        self.vars
            .store
            .min(view.var.raw())
            .saturating_add(view.offset)
    }

    /// The largest initial value of a variable of the model (saturated as
    /// [`PostContext::min`]).
    pub fn max(&self, view: impl Into<View>) -> i32 {
        let view = view.into();
        self.vars
            .store
            .max(view.var.raw())
            .saturating_add(view.offset)
    }

    /// The initial values of a variable of the model, ascending.
    pub fn values(&self, view: impl Into<View>) -> impl Iterator<Item = i32> + '_ {
        let view = view.into();
        self.vars
            .store
            .values(view.var.raw())
            .map(move |v| v + view.offset)
    }

    /// The initial domain of `var` as one word, if its values lie at most 64 apart
    /// (a *small* domain, which it stays): bit `i` stands for `base + i`; with
    /// `base`. `None` for a larger domain. See [`Context::small_word`](crate::Context::small_word).
    pub fn small_word(&self, var: VarId) -> Option<(u64, i32)> {
        self.vars.store.small_word(var.raw())
    }

    /// Where [`Context::words`](crate::Context::words) holds the word of the small
    /// domain of `var`; `None` for a larger domain. It never moves, so a propagator
    /// finds it once, here, and reads (or, through
    /// [`Context::narrow_small`](crate::Context::narrow_small), narrows) the word
    /// there at every call.
    pub fn small_cell(&self, var: VarId) -> Option<usize> {
        self.vars.store.small_cell(var.raw())
    }

    /// Where [`Context::words`](crate::Context::words) holds the bounds of the
    /// domain of `var`, if it is a bitset (its values lie at most 4096 apart, more
    /// than 64, with no table), and the value its bit 0 stands for, `base`; `None` for
    /// other domains. The word there holds the index of the smallest value in its high
    /// 32 bits and that of the largest in its low 32: the bounds are `base + (word >>
    /// 32)` and `base + (word & 0xffff_ffff)`. It never moves, so a propagator that
    /// reads bounds in its inner loop finds it once, here.
    pub fn bitset_bounds_cell(&self, var: VarId) -> Option<(usize, i32)> {
        self.vars.store.bitset_bounds_cell(var.raw())
    }
}
