//! `value == array[index]` over an array of constants, with a 0-based index variable.

use super::support::{RetainSupported, Sorted, Within};
use crate::error::ModelError;
use crate::ids::{VarId, View};
use crate::propagator::{Conflict, Context, InferenceLabel, PostContext, Propagator, Wake};

/// `value == array[index]`, `index` counted from 0. Built by
/// [`Model::element`](crate::Model::element).
///
/// Propagation is domain consistent both ways (a value view kept as an interval far
/// wider than the entries has only its bounds narrowed, to entries): an index stays only while its entry is a possible value, and a value stays only while
/// some possible index holds it. Indices outside `0..array.len()` are removed at once.
/// A call costs O(|index|) when only the value changed and O(|index| log |index| +
/// |value|) when the index changed (the values held are sorted); nothing when
/// neither did.
#[derive(Clone, Debug)]
pub struct Element {
    array: Vec<i32>,
    index: View,
    value: View,
    scratch: Vec<i32>,
    supported: Vec<i32>,
}

impl Element {
    /// The label of its removals ([`Context::set_label`]): the index and the value keep the
    /// supported entries.
    pub const SUPPORT: InferenceLabel = InferenceLabel::new("element");

    pub(crate) fn new(array: Vec<i32>, index: View, value: View) -> Element {
        Element {
            array,
            index,
            value,
            scratch: Vec::new(),
            supported: Vec::new(),
        }
    }

    fn entry(&self, i: i32) -> Option<i32> {
        entry(&self.array, i)
    }
}

/// `array[i]`, if `i` is an index of it.
fn entry(array: &[i32], i: i32) -> Option<i32> {
    usize::try_from(i).ok().and_then(|i| array.get(i).copied())
}

impl Propagator for Element {
    fn name(&self) -> &'static str {
        "element"
    }

    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        ctx.watch(self.index, Wake::Domain)?;
        ctx.watch(self.value, Wake::Domain)?;
        Ok(())
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        ctx.set_label(Element::SUPPORT);
        // At the last call's end every index held a value left and every value was
        // held by an index left: only a changed value can unsupport an index, and
        // only a changed index a value (local 0 is the index, 1 the value). The
        // indices removed below held no value left, so they unsupport none.
        let (mut index_changed, mut value_changed) = (false, false);
        for &i in ctx.modified() {
            match i {
                0 => index_changed = true,
                _ => value_changed = true,
            }
        }
        if value_changed {
            // Indices out of range or whose entry is no longer a possible value.
            let before = ctx.size(self.index);
            let (array, value) = (&self.array, self.value);
            let indices = Within {
                lo: 0,
                hi: i32::try_from(self.array.len()).map_or(i32::MAX, |len| len - 1),
                keep: |ctx: &Context<'_>, i| {
                    entry(array, i).is_some_and(|v| ctx.contains(value, v))
                },
            };
            ctx.retain_supported(self.index, &indices, &mut self.scratch)?;
            // A value too wide to read keeps values no index holds: one of those
            // may have become a bound, and only the indices tell.
            index_changed |= ctx.size(self.index) != before;
        }
        if !index_changed {
            return Ok(());
        }
        // Values that no remaining index holds.
        self.supported.clear();
        self.supported
            .extend(ctx.values(self.index).filter_map(|i| entry(&self.array, i)));
        self.supported.sort_unstable();
        self.supported.dedup();
        ctx.retain_supported(self.value, &Sorted(&self.supported), &mut self.scratch)
            .map(drop)
    }

    fn is_idempotent(&self) -> bool {
        // Every index left has its entry among the values left, so a second run
        // removes nothing, unless index and value share a variable.
        self.index.var != self.value.var
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        let at = |view: View| i64::from(value(view.var)) + i64::from(view.offset);
        i32::try_from(at(self.index))
            .ok()
            .and_then(|i| self.entry(i))
            .is_some_and(|v| i64::from(v) == at(self.value))
    }
}

#[cfg(test)]
mod tests {
    use crate::{Model, ModelError, Outcome, Solver};

    #[test]
    fn prunes_both_ways_to_the_fixpoint() {
        let mut model = Model::new();
        let i = model.int_var(-2, 9).unwrap();
        let y = model.var_from_values([20, 30, 50]).unwrap();
        model.element(&[10, 20, 30, 20], i, y).unwrap();
        let mut solver = Solver::new(model);
        // Index 0 holds 10, not a value of y; -2, -1 and 4.. are out of range.
        // 50 is held by no index.
        assert_eq!(
            solver.root_domains().unwrap(),
            vec![vec![1, 2, 3], vec![20, 30]]
        );
        assert_eq!(solver.count(None).solutions, 3);
    }

    #[test]
    fn finds_the_conflict() {
        let mut model = Model::new();
        let i = model.int_var(0, 3).unwrap();
        let y = model.var_from_values([5, 6]).unwrap();
        model.element(&[1, 2, 3, 4], i, y).unwrap();
        assert_eq!(Solver::new(model).solve(), Outcome::Unsatisfiable);
    }

    #[test]
    fn empty_arrays_are_refused() {
        let mut model = Model::new();
        let i = model.int_var(0, 3).unwrap();
        assert!(matches!(
            model.element(&[], i, i),
            Err(ModelError::InvalidConstraint { .. })
        ));
    }
}
