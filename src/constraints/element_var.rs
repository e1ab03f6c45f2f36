//! `value == array[index]` over an array of variables, with a 0-based index variable.

use super::arithmetic::{Scratch, support};
use crate::constraints::Element;
use crate::error::ModelError;
use crate::ids::{VarId, View};
use crate::propagator::{Conflict, Context, InferenceLabel, PostContext, Propagator, Wake};

/// The most values (index values times values of `value`) for which [`ElementVar`]
/// reasons on domains rather than bounds.
const DOMAIN_LIMIT: u64 = 4096;

/// `value == array[index]` where the entries are views, `index` counted from 0.
/// Built by [`Model::element_var`](crate::Model::element_var).
///
/// # Propagation
///
/// Bounds reasoning (label [`ElementVar::BOUNDS`]): `index` keeps `0..array.len()`
/// and loses each `j` whose entry's bounds miss the bounds of `value`; `value` keeps
/// the hull of the bounds of the entries left. Once `index` is fixed to `j`, `value`
/// and `array[j]` are bounds consistent with each other.
///
/// Domain reasoning (label [`Element::SUPPORT`]) when the domains are small (the index's
/// values times the value's at most 4096): `index` loses each `j` whose entry shares
/// no value with `value`, and `value` keeps only values some entry left still has. A
/// fixed index then makes `value` and its entry keep exactly their common values
/// (while the entry has at most 4096 values), which is domain consistent.
///
/// `O(d)` on bounds per call over the `d` values of `index`; the domain reasoning is
/// `O(d·m)` over the `m` values of `value`, and `O(e log e)` over the `e` values of
/// a fixed index's entry.
#[derive(Clone, Debug)]
pub struct ElementVar {
    array: Vec<View>,
    index: View,
    value: View,
    scratch: Scratch,
}

impl ElementVar {
    /// The label of its removals ([`Context::set_label`]): the index and the value keep
    /// what the entries' bounds allow. Over small domains it prunes as
    /// [`Element::SUPPORT`] does.
    pub const BOUNDS: InferenceLabel = InferenceLabel::new("element bounds");

    pub(crate) fn new(array: Vec<View>, index: View, value: View) -> ElementVar {
        ElementVar {
            array,
            index,
            value,
            scratch: Scratch::default(),
        }
    }

    /// `array[i]`, if `i` is an index of it.
    fn entry(&self, i: i32) -> Option<View> {
        usize::try_from(i)
            .ok()
            .and_then(|i| self.array.get(i).copied())
    }

    /// Whether the domain reasoning is cheap enough now.
    fn is_small(&self, ctx: &Context<'_>) -> bool {
        u64::from(ctx.size(self.index)) * u64::from(ctx.size(self.value)) <= DOMAIN_LIMIT
    }

    /// Whether `entry` may equal `value`: their bounds meet and, when `small`, their
    /// domains do.
    fn may_meet(ctx: &Context<'_>, entry: View, value: View, small: bool) -> bool {
        if ctx.max(entry) < ctx.min(value) || ctx.max(value) < ctx.min(entry) {
            return false;
        }
        !small || ctx.values(value).any(|v| ctx.contains(entry, v))
    }
}

impl Propagator for ElementVar {
    fn name(&self) -> &'static str {
        "element_var"
    }

    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        if self.array.is_empty() {
            return Err(ModelError::InvalidConstraint {
                constraint: "element_var",
                reason: "the array is empty".to_string(),
            });
        }
        ctx.watch(self.index, Wake::Domain)?;
        ctx.watch(self.value, Wake::Domain)?;
        ctx.watch_all(self.array.iter().copied(), Wake::Domain)?;
        Ok(())
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let (index, value) = (self.index, self.value);
        let small = self.is_small(ctx);
        ctx.set_label(if small {
            Element::SUPPORT
        } else {
            ElementVar::BOUNDS
        });
        // Indices out of range or whose entry cannot meet the value; the range first,
        // so that a wide index domain is read only where the array is.
        let last = i32::try_from(self.array.len()).map_or(i32::MAX, |len| len - 1);
        ctx.set_min(index, 0)?;
        ctx.set_max(index, last)?;
        self.scratch.removed.clear();
        for i in ctx.values(index) {
            if !self
                .entry(i)
                .is_some_and(|entry| Self::may_meet(ctx, entry, value, small))
            {
                self.scratch.removed.push(i);
            }
        }
        for &i in &self.scratch.removed {
            ctx.remove(index, i)?;
        }
        if let Some(j) = ctx.value(index) {
            let entry = self.entry(j).ok_or(Conflict)?;
            ctx.set_label(ElementVar::BOUNDS);
            ctx.set_min(value, ctx.min(entry))?;
            ctx.set_max(value, ctx.max(entry))?;
            ctx.set_min(entry, ctx.min(value))?;
            ctx.set_max(entry, ctx.max(value))?;
            if self.is_small(ctx) {
                ctx.set_label(Element::SUPPORT);
                support(ctx, entry, value, Some, &mut self.scratch)?;
            }
            return Ok(());
        }
        // The value within the entries left.
        ctx.set_label(ElementVar::BOUNDS);
        let (mut lo, mut hi) = (i32::MAX, i32::MIN);
        for i in ctx.values(index) {
            let entry = self.entry(i).ok_or(Conflict)?;
            lo = lo.min(ctx.min(entry));
            hi = hi.max(ctx.max(entry));
        }
        ctx.set_min(value, lo)?;
        ctx.set_max(value, hi)?;
        if self.is_small(ctx) {
            ctx.set_label(Element::SUPPORT);
            self.scratch.removed.clear();
            for v in ctx.values(value) {
                let held = ctx
                    .values(index)
                    .any(|i| self.entry(i).is_some_and(|entry| ctx.contains(entry, v)));
                if !held {
                    self.scratch.removed.push(v);
                }
            }
            for &v in &self.scratch.removed {
                ctx.remove(value, v)?;
            }
        }
        Ok(())
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        let at = |view: View| i64::from(value(view.var)) + i64::from(view.offset);
        i32::try_from(at(self.index))
            .ok()
            .and_then(|i| self.entry(i))
            .is_some_and(|entry| at(entry) == at(self.value))
    }
}

#[cfg(test)]
mod tests {
    use crate::{Model, ModelError, Solver};

    #[test]
    fn prunes_index_and_value_on_bounds_and_domains() {
        let mut model = Model::new();
        let a = model.int_var(0, 2).unwrap();
        let b = model.var_from_values([5, 9]).unwrap();
        let c = model.int_var(20, 30).unwrap();
        let i = model.int_var(-1, 5).unwrap();
        let v = model.var_from_values([1, 2, 6, 7, 9, 25]).unwrap();
        model.element_var([a, b, c], i, v).unwrap();
        let mut solver = Solver::new(model);
        // -1, 3.. are out of range; every entry meets v. v keeps what some entry has.
        let domains = solver.root_domains().unwrap();
        assert_eq!(domains[3], vec![0, 1, 2]);
        assert_eq!(domains[4], vec![1, 2, 9, 25]);
        assert_eq!(solver.count(None).solutions, 2 * 2 * 11 + 3 * 11 + 3 * 2);
    }

    #[test]
    fn a_fixed_index_equates_value_and_entry() {
        let mut model = Model::new();
        let a = model.int_var(0, 9).unwrap();
        let b = model.var_from_values([2, 4, 6]).unwrap();
        let i = model.var_from_values([1]).unwrap();
        let v = model.int_var(3, 20).unwrap();
        model.element_var([a, b], i, v).unwrap();
        let domains = Solver::new(model).root_domains().unwrap();
        assert_eq!(domains[1], vec![4, 6]);
        assert_eq!(domains[3], vec![4, 6]);
        assert_eq!(domains[0], (0..=9).collect::<Vec<_>>());
    }

    #[test]
    fn empty_arrays_are_refused() {
        let mut model = Model::new();
        let i = model.int_var(0, 3).unwrap();
        let none: [crate::VarId; 0] = [];
        assert!(matches!(
            model.element_var(none, i, i),
            Err(ModelError::InvalidConstraint { .. })
        ));
    }
}
