//! Extensional constraints: the variables take one of the listed tuples.

use super::support::{RetainSupported, Sorted};
use crate::error::ModelError;
use crate::ids::{VarId, View};
use crate::propagator::{Conflict, Context, InferenceLabel, PostContext, Propagator, Wake};

/// The views equal, position by position, one of the allowed tuples. Built by
/// [`Model::table`](crate::Model::table).
///
/// Propagation (but on a view kept as an interval far wider than its supported values,
/// whose bounds alone move to supported values) is generalised arc
/// consistency by scanning: every tuple whose values are all still possible supports its values,
/// and each variable keeps only supported values. The cost is linear in the size of the table on
/// every run, which suits small tables well.
#[derive(Clone, Debug)]
pub struct Table {
    views: Vec<View>,
    /// Rows of `views.len()` values each, one after another.
    tuples: Vec<i32>,
    /// For each view, the values supported in the current scan (sorted, deduplicated).
    supported: Vec<Vec<i32>>,
    scratch: Vec<i32>,
    /// Whether no variable appears twice, which makes one run reach the fixpoint.
    distinct: bool,
}

impl Table {
    /// The label of its removals ([`Context::set_label`]): values that no tuple left
    /// supports.
    pub const SUPPORT: InferenceLabel = InferenceLabel::new("table support");

    pub(crate) fn new(views: Vec<View>, tuples: Vec<i32>) -> Table {
        let arity = views.len();
        let mut vars: Vec<VarId> = views.iter().map(|v| v.var).collect();
        vars.sort_unstable();
        vars.dedup();
        Table {
            distinct: vars.len() == arity,
            views,
            tuples,
            supported: vec![Vec::new(); arity],
            scratch: Vec::new(),
        }
    }

    fn rows(&self) -> impl Iterator<Item = &[i32]> {
        self.tuples.chunks_exact(self.views.len().max(1))
    }
}

impl Propagator for Table {
    fn name(&self) -> &'static str {
        "table"
    }

    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        ctx.watch_all(self.views.iter().copied(), Wake::Domain)
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        ctx.set_label(Table::SUPPORT);
        let mut supported = std::mem::take(&mut self.supported);
        for s in &mut supported {
            s.clear();
        }
        for row in self.rows() {
            if row
                .iter()
                .zip(&self.views)
                .all(|(&v, &view)| ctx.contains(view, v))
            {
                for (s, &v) in supported.iter_mut().zip(row) {
                    s.push(v);
                }
            }
        }
        let mut result = Ok(());
        for (s, &view) in supported.iter_mut().zip(&self.views) {
            s.sort_unstable();
            s.dedup();
            result = ctx
                .retain_supported(view, &Sorted(s), &mut self.scratch)
                .map(drop);
            if result.is_err() {
                break;
            }
        }
        self.supported = supported;
        result
    }

    fn is_idempotent(&self) -> bool {
        // A supporting tuple keeps all its values, so it still supports them after the
        // removals, unless a variable appears twice.
        self.distinct
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        self.rows().any(|row| {
            row.iter().zip(&self.views).all(|(&v, view)| {
                i64::from(value(view.var)) + i64::from(view.offset) == i64::from(v)
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::{Model, ModelError, Outcome, Solver};

    #[test]
    fn keeps_only_supported_values() {
        let mut model = Model::new();
        let x = model.int_var(0, 3).unwrap();
        let y = model.int_var(0, 3).unwrap();
        let z = model.var_from_values([1]).unwrap();
        model
            .table([x, y, z], &[vec![0, 1, 1], vec![2, 3, 1], vec![3, 3, 2]])
            .unwrap();
        let mut solver = Solver::new(model);
        // (3, 3, 2) is dead because z != 2.
        assert_eq!(
            solver.root_domains().unwrap(),
            vec![vec![0, 2], vec![1, 3], vec![1]]
        );
        assert_eq!(solver.count(None).solutions, 2);
    }

    #[test]
    fn finds_the_conflict() {
        let mut model = Model::new();
        let x = model.int_var(0, 1).unwrap();
        let y = model.int_var(0, 1).unwrap();
        model.table([x, y], &[vec![2, 0], vec![0, 5]]).unwrap();
        assert_eq!(Solver::new(model).solve(), Outcome::Unsatisfiable);
    }

    #[test]
    fn tuples_of_the_wrong_length_are_refused() {
        let mut model = Model::new();
        let x = model.int_var(0, 1).unwrap();
        let err = model.table([x, x], &[vec![0, 1], vec![1]]).unwrap_err();
        assert!(matches!(err, ModelError::InvalidConstraint { .. }));
    }
}
