//! Scaled views (`a * x + c`) in the model's constraints. Propagators take views
//! `x + c` only; a constraint posted over a scaled view is posted over an auxiliary
//! variable `y` instead, with `y == a * x + c` posted beside it ([`Affine`], value by
//! value). A view with scale 1 goes through as it is, at no cost.
//!
//! A constraint that is refused leaves the model as it was: the first scaled view a
//! call meets saves the model, and the call puts it back if it fails.

use super::Model;
use crate::constraints::{Affine, Condition};
use crate::error::ModelError;
use crate::ids::View;

/// The largest domains whose auxiliary variable lists the images of every value; a
/// wider one gets the range between the images of its bounds, its holes left to
/// [`Affine`].
const LISTED: u32 = 1 << 16;

/// Where a call that may add auxiliary variables stands.
#[derive(Clone, Debug, Default)]
pub(super) struct Scaling {
    /// Whether a call is running in [`Model::atomic`].
    running: bool,
    /// The model before the call's first auxiliary variable.
    saved: Option<Box<Model>>,
}

impl Model {
    /// Runs `body`, which may turn scaled views into auxiliary variables
    /// ([`Model::unit`]); if it fails, puts the model back as it was.
    pub(super) fn atomic<R>(
        &mut self,
        body: impl FnOnce(&mut Model) -> Result<R, ModelError>,
    ) -> Result<R, ModelError> {
        if self.scaling.running {
            return body(self);
        }
        self.scaling.running = true;
        let result = body(self);
        if let Some(saved) = self.scaling.saved.take()
            && result.is_err()
        {
            *self = *saved;
        }
        self.scaling.running = false;
        result
    }

    /// `view` as a propagator takes it: itself if its scale is 1, else a new
    /// variable equal to it.
    pub(super) fn unit(&mut self, view: impl Into<View>) -> Result<View, ModelError> {
        let view = view.into();
        if view.is_unit() {
            return Ok(view);
        }
        self.check_view(view)?;
        if self.scaling.running && self.scaling.saved.is_none() {
            let saved = Box::new(self.clone());
            self.scaling.saved = Some(saved);
        }
        let x = view.var.raw();
        // Every image fits in `i32`: `check_view` said so.
        let image = |v: i32| view.value_at(v) as i32;
        let y = match self.vars.store.size(x) <= LISTED {
            true => {
                let values: Vec<i32> = self.vars.store.values(x).map(image).collect();
                self.var_from_values(values)?
            }
            false => {
                let (a, b) = (image(self.vars.store.min(x)), image(self.vars.store.max(x)));
                self.int_var(a.min(b), a.max(b))?
            }
        };
        self.post(Affine::new(y, view.scale, view.var, view.offset))?;
        Ok(y.into())
    }

    /// A linear term over a view `x + c`: `k * (a * x)` folds into `(k * a) * x`; a
    /// scaled view with an offset, or whose product overflows, becomes an auxiliary
    /// variable.
    pub(super) fn unit_term(&mut self, coef: i32, view: View) -> Result<(i32, View), ModelError> {
        match coef.checked_mul(view.scale) {
            Some(folded) if !view.is_unit() && view.offset == 0 => {
                self.check_view(view)?;
                Ok((folded, view.var.into()))
            }
            _ => Ok((coef, self.unit(view)?)),
        }
    }

    /// The condition over views as propagators take them.
    pub(super) fn unit_condition(&mut self, condition: Condition) -> Result<Condition, ModelError> {
        Ok(match condition {
            Condition::Compare {
                view,
                relation,
                value,
            } => Condition::Compare {
                view: self.unit(view)?,
                relation,
                value,
            },
            Condition::CompareViews { a, relation, b } => Condition::CompareViews {
                a: self.unit(a)?,
                relation,
                b: self.unit(b)?,
            },
            Condition::InSet { view, values } => Condition::InSet {
                view: self.unit(view)?,
                values,
            },
            Condition::NotInSet { view, values } => Condition::NotInSet {
                view: self.unit(view)?,
                values,
            },
            Condition::Linear {
                terms,
                relation,
                rhs,
            } => Condition::Linear {
                terms: (terms.into_iter())
                    .map(|(coef, view)| self.unit_term(coef, view))
                    .collect::<Result<_, _>>()?,
                relation,
                rhs,
            },
        })
    }

    /// [`Model::unit`] of each view.
    pub(super) fn units<V: Into<View>>(
        &mut self,
        views: impl IntoIterator<Item = V>,
    ) -> Result<Vec<View>, ModelError> {
        views.into_iter().map(|view| self.unit(view)).collect()
    }
}
