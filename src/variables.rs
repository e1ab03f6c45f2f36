//! A model's variables: their initial domains in a store, their names, and the checks
//! that a variable or view belongs to the model. The model adds variables here; a
//! propagator being posted reads them through its
//! [`PostContext`](crate::PostContext).

use std::sync::atomic::{AtomicU32, Ordering};

use crate::error::ModelError;
use crate::ids::{VarId, View};
use crate::store::Store;

static NEXT_MODEL: AtomicU32 = AtomicU32::new(1);

/// The variables of one model.
#[derive(Clone, Debug)]
pub(crate) struct Variables {
    /// Tells this model's variables from another's.
    id: u32,
    names: Vec<Option<String>>,
    /// The initial domains, then the propagators' initial state words.
    pub(crate) store: Store,
}

impl Variables {
    pub(crate) fn new() -> Variables {
        Variables {
            id: NEXT_MODEL.fetch_add(1, Ordering::Relaxed),
            names: Vec::new(),
            store: Store::default(),
        }
    }

    /// A new variable over `values`, sorted and without repeats. Its memory goes by the
    /// number of values (see the store's shapes), whatever their span.
    pub(crate) fn add(&mut self, sorted_values: &[i32]) -> Result<VarId, ModelError> {
        if sorted_values.is_empty() {
            return Err(self.empty_domain());
        }
        let index = self.store.add_var(sorted_values);
        self.names.push(None);
        Ok(self.var_at(index))
    }

    /// A new variable over `min..=max`: a few words however wide the range.
    pub(crate) fn add_range(&mut self, min: i32, max: i32) -> Result<VarId, ModelError> {
        if min > max {
            return Err(self.empty_domain());
        }
        let index = self.store.add_range(min, max);
        self.names.push(None);
        Ok(self.var_at(index))
    }

    fn empty_domain(&self) -> ModelError {
        ModelError::EmptyDomain {
            name: format!("#{}", self.names.len()),
        }
    }

    pub(crate) fn set_name(&mut self, var: VarId, name: String) -> Result<(), ModelError> {
        self.check_var(var)?;
        self.names[var.index()] = Some(name);
        Ok(())
    }

    /// The variable's name: the one given, or `#index`.
    pub(crate) fn name(&self, var: VarId) -> String {
        match self.names.get(var.index()) {
            Some(Some(name)) if var.model == self.id => name.clone(),
            _ => format!("#{}", var.index()),
        }
    }

    /// The variable at `index`, which must exist.
    pub(crate) fn var_at(&self, index: u32) -> VarId {
        invariant!((index as usize) < self.count());
        VarId {
            model: self.id,
            index,
        }
    }

    pub(crate) fn count(&self) -> usize {
        self.names.len()
    }

    /// Whether `var` is one of these variables.
    pub(crate) fn owns(&self, var: VarId) -> bool {
        var.model == self.id && var.index() < self.count()
    }

    pub(crate) fn check_var(&self, var: VarId) -> Result<(), ModelError> {
        if self.owns(var) {
            Ok(())
        } else {
            Err(ModelError::ForeignVariable { index: var.index() })
        }
    }

    /// Checks that a view belongs to the model, that its scale is not 0 and that
    /// none of its values overflows.
    pub(crate) fn check_view(&self, view: View) -> Result<(), ModelError> {
        self.check_var(view.var)?;
        let (min, max) = (
            self.store.min(view.var.raw()),
            self.store.max(view.var.raw()),
        );
        let fits = |v: i32| i32::try_from(view.value_at(v)).is_ok();
        if !view.is_unit() && (view.scale == 0 || !fits(min) || !fits(max)) {
            return Err(ModelError::ScaleOverflow {
                name: self.name(view.var),
                scale: i64::from(view.scale),
                offset: i64::from(view.offset),
                min,
                max,
            });
        }
        if view.offset == i32::MIN || !fits(min) || !fits(max) {
            return Err(ModelError::OffsetOverflow {
                name: self.name(view.var),
                offset: i64::from(view.offset),
                min,
                max,
            });
        }
        Ok(())
    }
}
