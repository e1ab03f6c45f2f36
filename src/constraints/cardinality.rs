//! Global cardinality: how many of the views take each of some values.

use crate::error::ModelError;
use crate::ids::{VarId, View};
use crate::propagator::{Conflict, Context, InferenceLabel, PostContext, Propagator, Wake};

/// How many views must take one value: a constant, or a view of a count variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Count {
    /// Exactly this many.
    Constant(i32),
    /// As many as this view's value.
    View(View),
}

/// `global_cardinality`: for each `k`, the number of views equal to `values[k]` is
/// `counts[k]`. Values not listed are unconstrained. Built by
/// [`Model::global_cardinality`](crate::Model::global_cardinality) and
/// [`Model::global_cardinality_vars`](crate::Model::global_cardinality_vars).
///
/// Each call counts, for each listed value, the views fixed to it (*must*) and the
/// views that still contain it (*can*), then:
///
/// - a count variable keeps only `must..=can` (a constant count outside fails);
/// - a value whose count has reached its maximum leaves every other view;
/// - a value whose possible places are as few as its minimum count fixes them all.
///
/// This is the counting (not the flow-based, Régin's) propagation: it finds no Hall
/// sets across values. Cost O(n + d log k) per call for n views, d values in their
/// domains (a view with more values than the k listed costs O(k log k) instead), no
/// allocation once warm.
#[derive(Clone, Debug)]
pub struct GlobalCardinality {
    xs: Vec<View>,
    values: Vec<i32>,
    counts: Vec<Count>,
    /// `(value, k)`, sorted by value: the lookup from a value to its index.
    sorted: Vec<(i32, u32)>,
    must: Vec<u32>,
    can: Vec<u32>,
}

impl GlobalCardinality {
    /// The label of its removals ([`Context::set_label`]): counts between the views that
    /// must and can take a value: a value whose count is reached leaves the others, one
    /// that needs every place takes them.
    pub const COUNTS: InferenceLabel = InferenceLabel::new("cardinality");

    /// The constraint over `xs`; `values` and `counts` have the same length and
    /// `values` no repeats (the model method checks both).
    pub(crate) fn new(xs: Vec<View>, values: Vec<i32>, counts: Vec<Count>) -> GlobalCardinality {
        let mut sorted: Vec<(i32, u32)> = values.iter().zip(0..).map(|(&v, k)| (v, k)).collect();
        sorted.sort_unstable();
        GlobalCardinality {
            xs,
            values,
            counts,
            sorted,
            must: Vec::new(),
            can: Vec::new(),
        }
    }

    fn index_of(&self, value: i32) -> Option<usize> {
        self.sorted
            .binary_search_by_key(&value, |&(v, _)| v)
            .ok()
            .map(|at| self.sorted[at].1 as usize)
    }

    fn bounds(&self, ctx: &Context<'_>, k: usize) -> (i64, i64) {
        match self.counts[k] {
            Count::Constant(c) => (i64::from(c), i64::from(c)),
            Count::View(view) => (i64::from(ctx.min(view)), i64::from(ctx.max(view))),
        }
    }

    /// Fills `must` and `can`.
    fn tally(&mut self, ctx: &Context<'_>) {
        let k = self.values.len();
        self.must.clear();
        self.must.resize(k, 0);
        self.can.clear();
        self.can.resize(k, 0);
        for &x in &self.xs {
            if let Some(v) = ctx.value(x) {
                if let Some(at) = self.index_of(v) {
                    self.must[at] += 1;
                    self.can[at] += 1;
                }
            } else if ctx.size(x) as usize > k {
                for (at, &v) in self.values.iter().enumerate() {
                    self.can[at] += u32::from(ctx.contains(x, v));
                }
            } else {
                for v in ctx.values(x) {
                    if let Some(at) = self.index_of(v) {
                        self.can[at] += 1;
                    }
                }
            }
        }
    }
}

/// Checks the parameters of a global cardinality constraint: as many counts as
/// values, and no value twice.
pub(crate) fn check_values(values: &[i32], counts: usize) -> Result<(), ModelError> {
    let invalid = |reason: String| ModelError::InvalidConstraint {
        constraint: "global_cardinality",
        reason,
    };
    if values.len() != counts {
        return Err(invalid(format!(
            "{} values but {counts} counts",
            values.len()
        )));
    }
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
        return Err(invalid(format!("the value {} is listed twice", w[0])));
    }
    Ok(())
}

impl Propagator for GlobalCardinality {
    fn name(&self) -> &'static str {
        "global_cardinality"
    }

    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        ctx.watch_all(self.xs.iter().copied(), Wake::Domain)?;
        for count in &self.counts {
            if let &Count::View(view) = count {
                ctx.watch(view, Wake::Bounds)?;
            }
        }
        Ok(())
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        self.tally(ctx);
        ctx.set_label(GlobalCardinality::COUNTS);
        for k in 0..self.values.len() {
            let (must, can) = (self.must[k], self.can[k]);
            if let Count::View(view) = self.counts[k] {
                // `can` is at most the number of views, so it fits an i32 value.
                ctx.set_min(view, must as i32)?;
                ctx.set_max(view, can as i32)?;
            }
            let (min, max) = self.bounds(ctx, k);
            if i64::from(must) > max || i64::from(can) < min {
                return Err(Conflict);
            }
            if must == can {
                continue;
            }
            let value = self.values[k];
            if i64::from(must) == max {
                // The value is used up: the views not fixed to it lose it.
                for &x in &self.xs {
                    if !ctx.is_fixed(x) {
                        ctx.remove(x, value)?;
                    }
                }
            } else if i64::from(can) == min {
                // Every possible place is needed.
                for &x in &self.xs {
                    if ctx.contains(x, value) {
                        ctx.fix(x, value)?;
                    }
                }
            }
        }
        Ok(())
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        let at = |view: View| i64::from(value(view.var)) + i64::from(view.offset);
        self.values.iter().zip(&self.counts).all(|(&v, &count)| {
            let found = self.xs.iter().filter(|&&x| at(x) == i64::from(v)).count() as i64;
            found
                == match count {
                    Count::Constant(c) => i64::from(c),
                    Count::View(view) => at(view),
                }
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::{Model, ModelError, Solver, VarId};

    fn vars(model: &mut Model, domains: &[&[i32]]) -> Vec<VarId> {
        domains
            .iter()
            .map(|d| model.var_from_values(d.iter().copied()).unwrap())
            .collect()
    }

    #[test]
    fn a_used_up_value_leaves_the_others() {
        let mut model = Model::new();
        let xs = vars(&mut model, &[&[1], &[1, 2], &[1, 2, 3]]);
        // One 1 exactly: x0 has it, so x1 and x2 lose it; x1 = 2, and 2 may appear
        // once, so x2 = 3.
        model.global_cardinality(xs, &[1, 2], &[1, 1]).unwrap();
        assert_eq!(
            Solver::new(model).root_domains(),
            Some(vec![vec![1], vec![2], vec![3]])
        );
    }

    #[test]
    fn a_value_needing_every_place_takes_them() {
        let mut model = Model::new();
        let xs = vars(&mut model, &[&[1, 2], &[1, 3], &[2, 3]]);
        // Two 1s: both views that can take 1 must.
        model.global_cardinality(xs, &[1], &[2]).unwrap();
        assert_eq!(
            Solver::new(model).root_domains(),
            Some(vec![vec![1], vec![1], vec![2, 3]])
        );
    }

    #[test]
    fn count_variables_keep_the_feasible_range() {
        let mut model = Model::new();
        let xs = vars(&mut model, &[&[1], &[1, 2], &[2, 3], &[4]]);
        let counts = model.int_vars(3, -5, 9).unwrap();
        model
            .global_cardinality_vars(xs, &[1, 2, 4], counts)
            .unwrap();
        let domains = Solver::new(model).root_domains().unwrap();
        assert_eq!(domains[4], vec![1, 2]);
        assert_eq!(domains[5], vec![0, 1, 2]);
        assert_eq!(domains[6], vec![1]);
    }

    #[test]
    fn impossible_counts_fail() {
        let mut model = Model::new();
        let xs = vars(&mut model, &[&[1, 2], &[1, 2]]);
        model.global_cardinality(xs, &[1, 2], &[2, 1]).unwrap();
        assert_eq!(Solver::new(model).root_domains(), None);
    }

    #[test]
    fn bad_parameters_are_refused() {
        let mut model = Model::new();
        let xs = model.int_vars(2, 0, 3).unwrap();
        assert!(matches!(
            model.global_cardinality(xs.clone(), &[1, 2], &[1]),
            Err(ModelError::InvalidConstraint { .. })
        ));
        assert!(matches!(
            model.global_cardinality(xs.clone(), &[1, 1], &[1, 1]),
            Err(ModelError::InvalidConstraint { .. })
        ));
        let counts = model.int_vars(1, 0, 3).unwrap();
        assert!(matches!(
            model.global_cardinality_vars(xs, &[1, 2], counts),
            Err(ModelError::InvalidConstraint { .. })
        ));
    }
}
