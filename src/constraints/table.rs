//! Extensional constraints: the variables take one of the listed tuples; reified, or
//! none of them (a negative table).

use super::support::{RetainSupported, Sorted};
use crate::constraints::Reifiable;
use crate::error::ModelError;
use crate::ids::{VarId, View};
use crate::propagator::{Conflict, Context, InferenceLabel, PostContext, Propagator, Wake};

/// The views equal, position by position, one of the allowed tuples. Built by
/// [`Model::table`](crate::Model::table), or by [`Table::new`] to reify it
/// ([`Model::reify`](crate::Model::reify): `b <-> table`, whose negation is a negative
/// table, "none of the tuples").
///
/// # Propagation
///
/// Propagation (but on a view kept as an interval far wider than its supported values,
/// whose bounds alone move to supported values) is generalised arc
/// consistency by scanning: every tuple whose values are all still possible supports its values,
/// and each variable keeps only supported values. The cost is linear in the size of the table on
/// every run, which suits small tables well.
///
/// Reified, the tuples still possible are counted, O(n·t) for t tuples of n views:
/// none, and the table is disentailed; as many as the assignments of the domains, and
/// it is entailed. The negation keeps a value of a view while some assignment with it
/// is not a tuple: a value is removed once every assignment of the other views' domains
/// with it is a tuple still possible (generalised arc consistency when no variable
/// appears twice), O(n·t + t log t); with no tuple left possible it is entailed.
#[derive(Clone, Debug)]
pub struct Table {
    views: Vec<View>,
    /// Rows of `views.len()` values each, one after another, sorted, without repeats.
    tuples: Vec<i32>,
    /// The first tuple whose length is not the number of views, and its length:
    /// refused when posted.
    ragged: Option<(usize, usize)>,
    /// For each view, the values supported in the current scan (sorted, deduplicated),
    /// or the negation's values of the tuples still possible.
    supported: Vec<Vec<i32>>,
    scratch: Vec<i32>,
    /// The negation's domain sizes, read before it removes anything.
    sizes: Vec<u64>,
    /// Whether no variable appears twice, which makes one run reach the fixpoint.
    distinct: bool,
}

impl Table {
    /// The label of its removals ([`Context::set_label`]): values that no tuple left
    /// supports.
    pub const SUPPORT: InferenceLabel = InferenceLabel::new("table support");

    /// `views` take one of the `tuples`, each a value per view. Posting it refuses no
    /// views ([`ModelError::NoVariables`]) and a tuple of another length
    /// ([`ModelError::InvalidConstraint`]), as [`Model::table`](crate::Model::table).
    ///
    /// ```
    /// use alldiff::{Model, Solver, constraints::Table};
    /// let mut model = Model::new();
    /// let b = model.bool_var()?;
    /// let [x, y] = [0; 2].map(|_| model.int_var(0, 2).unwrap());
    /// // b <-> (x, y) is one of the dominoes (0, 1), (1, 2): true in 2 of 9 cases.
    /// model.reify(b, Table::new([x, y], &[vec![0, 1], vec![1, 2]]))?;
    /// model.and([!b])?;
    /// assert_eq!(Solver::new(model).count(None).solutions, 7);
    /// # Ok::<(), alldiff::ModelError>(())
    /// ```
    pub fn new<V: Into<View>>(views: impl IntoIterator<Item = V>, tuples: &[Vec<i32>]) -> Table {
        let views: Vec<View> = views.into_iter().map(Into::into).collect();
        let arity = views.len();
        let ragged = (tuples.iter().enumerate())
            .find(|(_, tuple)| tuple.len() != arity)
            .map(|(i, tuple)| (i, tuple.len()));
        let mut rows: Vec<&[i32]> = tuples.iter().map(Vec::as_slice).collect();
        rows.sort_unstable();
        rows.dedup();
        let mut vars: Vec<VarId> = views.iter().map(|v| v.var).collect();
        vars.sort_unstable();
        vars.dedup();
        Table {
            distinct: vars.len() == arity,
            tuples: if ragged.is_none() {
                rows.concat()
            } else {
                Vec::new()
            },
            ragged,
            views,
            supported: vec![Vec::new(); arity],
            scratch: Vec::new(),
            sizes: Vec::new(),
        }
    }

    fn rows(&self) -> impl Iterator<Item = &[i32]> {
        rows(&self.views, &self.tuples)
    }

    /// The negation: removes each value of a view whose every assignment of the
    /// others' domains, with it, is a tuple still possible. Reads every domain first,
    /// so that each removal is judged on the domains the call began with.
    fn forbid(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let Table {
            views,
            tuples,
            supported: values,
            sizes,
            ..
        } = self;
        values.iter_mut().for_each(Vec::clear);
        let mut possible = 0u64;
        for row in rows(views, tuples).filter(|row| is_possible(ctx, views, row)) {
            possible += 1;
            for (list, &v) in values.iter_mut().zip(row) {
                list.push(v);
            }
        }
        if possible == 0 {
            // No assignment left is a tuple.
            ctx.entailed();
            return Ok(());
        }
        sizes.clear();
        sizes.extend(views.iter().map(|&v| u64::from(ctx.size(v))));
        for (i, list) in values.iter_mut().enumerate() {
            // The assignments of the other views, at most `possible` to matter.
            let others = (sizes.iter().enumerate())
                .filter(|&(j, _)| j != i)
                .try_fold(1u64, |product, (_, &size)| product.checked_mul(size));
            let Some(others) = others.filter(|&n| n <= possible) else {
                continue;
            };
            list.sort_unstable();
            for run in list.chunk_by(|a, b| a == b) {
                if run.len() as u64 == others {
                    ctx.remove(views[i], run[0])?;
                }
            }
        }
        Ok(())
    }

    /// Registers the views, after checking the tuples.
    fn watch(&self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        ctx.watch_all(self.views.iter().copied(), Wake::Domain)?;
        if self.views.is_empty() {
            return Err(ModelError::NoVariables {
                constraint: ctx.constraint(),
            });
        }
        match self.ragged {
            Some((i, len)) => Err(ModelError::InvalidConstraint {
                constraint: ctx.constraint(),
                reason: format!(
                    "tuple {i} has {len} values for {} variables",
                    self.views.len()
                ),
            }),
            None => Ok(()),
        }
    }
}

/// The rows of `tuples`, `views.len()` values each.
fn rows<'a>(views: &[View], tuples: &'a [i32]) -> impl Iterator<Item = &'a [i32]> {
    tuples.chunks_exact(views.len().max(1))
}

/// Whether every value of `row` is still possible for its view.
fn is_possible(ctx: &Context<'_>, views: &[View], row: &[i32]) -> bool {
    row.iter()
        .zip(views)
        .all(|(&v, &view)| ctx.contains(view, v))
}

impl Propagator for Table {
    fn name(&self) -> &'static str {
        "table"
    }

    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        self.watch(ctx)
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        ctx.set_label(Table::SUPPORT);
        let mut supported = std::mem::take(&mut self.supported);
        for s in &mut supported {
            s.clear();
        }
        for row in self.rows() {
            if is_possible(ctx, &self.views, row) {
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

impl Reifiable for Table {
    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        self.watch(ctx)
    }

    /// The tuples still possible are distinct assignments of the views: none, or as
    /// many as the domains have.
    fn entailment(&mut self, ctx: &Context<'_>) -> Option<bool> {
        let possible = self
            .rows()
            .filter(|row| is_possible(ctx, &self.views, row))
            .count() as u64;
        if possible == 0 {
            return Some(false);
        }
        let assignments = (self.views.iter()).try_fold(1u64, |product, &v| {
            product.checked_mul(u64::from(ctx.size(v)))
        });
        assignments.is_some_and(|n| n <= possible).then_some(true)
    }

    fn enforce(&mut self, ctx: &mut Context<'_>, holds: bool) -> Result<(), Conflict> {
        if holds {
            Propagator::propagate(self, ctx)
        } else {
            self.forbid(ctx)
        }
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        Propagator::is_satisfied(self, value)
    }

    fn is_idempotent(&self) -> bool {
        // The negation too: a value kept has an assignment that is not a tuple, whose
        // other values are kept with it, unless a variable appears twice.
        self.distinct
    }
}

#[cfg(test)]
mod tests {
    use super::Table;
    use crate::{Model, ModelError, Outcome, Solver};

    /// Root domains of `[b, x, y]` for `b <-> table` over `views(x, y)`.
    fn reified_root(
        b: &[i32],
        views: impl Fn(crate::VarId, crate::VarId) -> Vec<crate::VarId>,
        tuples: &[Vec<i32>],
    ) -> Option<Vec<Vec<i32>>> {
        let mut model = Model::new();
        let b = model.var_from_values(b.iter().copied()).unwrap();
        let [x, y] = [0; 2].map(|_| model.int_var(1, 2).unwrap());
        model.reify(b, Table::new(views(x, y), tuples)).unwrap();
        Solver::new(model).root_domains()
    }

    #[test]
    fn a_false_literal_forbids_the_tuples() {
        let all_x2 = [vec![2, 1], vec![2, 2]];
        // x = 2 is forbidden with every y: gone; y keeps both values.
        let domains = reified_root(&[0], |x, y| vec![x, y], &all_x2).unwrap();
        assert_eq!(domains[1..], [vec![1], vec![1, 2]]);
        // Every assignment forbidden: no solution.
        let all = [vec![1, 1], vec![1, 2], vec![2, 1], vec![2, 2]];
        assert_eq!(reified_root(&[0], |x, y| vec![x, y], &all), None);
        // Open: every assignment a tuple makes b true, none false.
        assert_eq!(
            reified_root(&[0, 1], |x, y| vec![x, y], &all).unwrap()[0],
            [1]
        );
        assert_eq!(
            reified_root(&[0, 1], |x, y| vec![x, y], &[vec![3, 1]]).unwrap()[0],
            [0]
        );
        assert_eq!(
            reified_root(&[0, 1], |x, y| vec![x, y], &all_x2).unwrap()[0],
            [0, 1]
        );
    }

    #[test]
    fn a_negative_table_over_a_repeated_variable_runs_to_its_fixpoint() {
        // Over (x, y, x): every (2, y, x') forbidden removes x = 2; then (1, 1, 1),
        // the one tuple left possible, removes y = 1, in a second pass.
        let mut tuples: Vec<Vec<i32>> = [[1, 1], [1, 2], [2, 1], [2, 2]]
            .iter()
            .map(|&[y, x]| vec![2, y, x])
            .collect();
        tuples.push(vec![1, 1, 1]);
        let domains = reified_root(&[0], |x, y| vec![x, y, x], &tuples).unwrap();
        assert_eq!(domains[1..], [vec![1], vec![2]]);
    }

    #[test]
    fn reified_tables_refuse_what_tables_refuse() {
        let mut model = Model::new();
        let b = model.bool_var().unwrap();
        let x = model.int_var(0, 1).unwrap();
        let ragged = Table::new([x, x], &[vec![0, 1], vec![1]]);
        let err = model.reify(b, ragged).unwrap_err();
        assert!(
            matches!(&err, ModelError::InvalidConstraint { constraint: "reified", reason } if reason.contains("tuple 1 has 1 values")),
            "{err}"
        );
        let none: [crate::VarId; 0] = [];
        let err = model.half_reify(b, Table::new(none, &[])).unwrap_err();
        assert!(matches!(
            err,
            ModelError::NoVariables {
                constraint: "half_reified"
            }
        ));
        assert_eq!(model.constraint_count(), 0);
    }

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
