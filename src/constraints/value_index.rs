//! The values a group of views can take, numbered densely, so that a propagator's
//! per-value arrays go by the number of values in play, never by their span.

use crate::ids::View;
use crate::propagator::Context;

/// The union of some views' values, numbered `0..len()` in ascending order of value.
///
/// When the values are dense enough (their span at most twice the sum of the domain
/// sizes, plus 64), a value's number is its distance from the smallest value, and
/// some numbers stand for values no view has; otherwise the union is listed, sorted,
/// and a number is a position in that list (found by binary search).
#[derive(Clone, Debug, Default)]
pub(crate) struct ValueIndex {
    /// The smallest value, when dense.
    min: i32,
    /// How many numbers there are.
    len: usize,
    /// The union, sorted, when sparse; empty when dense.
    sorted: Vec<i32>,
}

impl ValueIndex {
    /// Numbers the values of `views` as they are now. O(n) when dense, O(d log d)
    /// otherwise, d the sum of the domain sizes; no allocation once warm.
    pub(crate) fn build(&mut self, ctx: &Context<'_>, views: &[View]) {
        self.sorted.clear();
        let (Some(min), Some(max)) = (
            views.iter().map(|&v| ctx.min(v)).min(),
            views.iter().map(|&v| ctx.max(v)).max(),
        ) else {
            self.len = 0;
            return;
        };
        let span = (i64::from(max) - i64::from(min) + 1) as u64;
        let sizes: u64 = views.iter().map(|&v| u64::from(ctx.size(v))).sum();
        if span <= 2 * sizes + 64 {
            self.min = min;
            self.len = span as usize;
            return;
        }
        for &view in views {
            self.sorted.extend(ctx.values(view));
        }
        self.sorted.sort_unstable();
        self.sorted.dedup();
        self.len = self.sorted.len();
    }

    /// Numbers exactly the given `values` (in any order, with repeats), listed.
    pub(crate) fn build_listed(&mut self, values: impl IntoIterator<Item = i32>) {
        self.sorted.clear();
        self.sorted.extend(values);
        self.sorted.sort_unstable();
        self.sorted.dedup();
        self.len = self.sorted.len();
    }

    /// How many numbers there are: at least the number of distinct values.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The number of `value`, one of the views' values when built.
    pub(crate) fn index(&self, value: i32) -> usize {
        if self.sorted.is_empty() {
            (i64::from(value) - i64::from(self.min)) as usize
        } else {
            self.sorted
                .binary_search(&value)
                .expect("a value of the views")
        }
    }

    /// The value numbered `index`.
    pub(crate) fn value(&self, index: usize) -> i32 {
        if self.sorted.is_empty() {
            (i64::from(self.min) + index as i64) as i32
        } else {
            self.sorted[index]
        }
    }
}
