//! `Core`: an [`alldiff::Model`] behind integer variable indices.

use alldiff::{Condition, ConstraintId, Literal, Model, Relation, Strength, VarId, View};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use std::sync::{Mutex, PoisonError};

use crate::model_error;

/// A view as Python passes it: `(var, scale, offset)`, meaning `scale * var + offset`.
pub(crate) type PyView = (usize, i32, i32);

/// A model whose variables are numbered from 0 in the order they were made.
#[pyclass(module = "alldiff._alldiff")]
#[derive(Debug, Default)]
pub(crate) struct Core {
    /// Behind a mutex only because a Python class must be `Sync`; `&mut self`
    /// reaches it without locking.
    pub(crate) model: Mutex<Model>,
    pub(crate) vars: Vec<VarId>,
}

/// A relation from its Python spelling.
pub(crate) fn relation(name: &str) -> PyResult<Relation> {
    Ok(match name {
        "==" => Relation::Equal,
        "!=" => Relation::NotEqual,
        "<=" => Relation::LessEq,
        ">=" => Relation::GreaterEq,
        _ => return Err(PyValueError::new_err(format!("unknown relation {name:?}"))),
    })
}

fn strength(name: &str) -> PyResult<Strength> {
    Ok(match name {
        "value" => Strength::Value,
        "hidden_singles" => Strength::HiddenSingles,
        "bounds" => Strength::Bounds,
        "domain" => Strength::Domain,
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown strength {name:?} (value, hidden_singles, bounds, domain)"
            )));
        }
    })
}

/// A rhs that does not fit the library's 32-bit constants.
fn rhs32(rhs: i64) -> PyResult<i32> {
    i32::try_from(rhs).map_err(|_| PyValueError::new_err(format!("{rhs} does not fit 32 bits")))
}

impl Core {
    pub(crate) fn model(&mut self) -> &mut Model {
        self.model.get_mut().unwrap_or_else(PoisonError::into_inner)
    }

    /// A copy of the model, for a solver.
    pub(crate) fn model_clone(&self) -> Model {
        self.model
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    pub(crate) fn var(&self, index: usize) -> PyResult<VarId> {
        (self.vars.get(index).copied())
            .ok_or_else(|| PyIndexError::new_err(format!("no variable #{index} in this model")))
    }

    pub(crate) fn view(&self, (var, scale, offset): PyView) -> PyResult<View> {
        Ok(self.var(var)?.times(scale).plus(offset))
    }

    fn views(&self, views: Vec<PyView>) -> PyResult<Vec<View>> {
        views.into_iter().map(|v| self.view(v)).collect()
    }

    fn literal(&self, (var, negated): (usize, bool)) -> PyResult<Literal> {
        let literal = Literal::from(self.var(var)?);
        Ok(if negated { !literal } else { literal })
    }

    fn literals(&self, literals: Vec<(usize, bool)>) -> PyResult<Vec<Literal>> {
        literals.into_iter().map(|l| self.literal(l)).collect()
    }

    fn terms(&self, terms: Vec<(i32, usize)>) -> PyResult<Vec<(i32, VarId)>> {
        (terms.into_iter())
            .map(|(a, v)| Ok((a, self.var(v)?)))
            .collect()
    }

    fn made(
        &mut self,
        var: Result<VarId, alldiff::ModelError>,
        name: Option<String>,
    ) -> PyResult<usize> {
        let var = var.map_err(model_error)?;
        if let Some(name) = name {
            self.model().set_name(var, name).map_err(model_error)?;
        }
        self.vars.push(var);
        Ok(self.vars.len() - 1)
    }

    /// A condition from its Python form `(kind, payload...)`.
    fn condition(&self, condition: ConditionSpec) -> PyResult<Condition> {
        let ConditionSpec(kind, terms, relation_name, rhs, values) = condition;
        let terms = self.terms(terms)?;
        Ok(match kind.as_str() {
            "linear" => Condition::linear(terms, relation(&relation_name)?, rhs32(rhs)?),
            "in" | "not_in" => {
                let &[(1, var)] = terms.as_slice() else {
                    return Err(PyValueError::new_err("membership needs one variable"));
                };
                let var = View::from(var).plus(rhs32(rhs)?);
                if kind == "in" {
                    Condition::in_set(var, values)
                } else {
                    Condition::not_in_set(var, values)
                }
            }
            _ => return Err(PyValueError::new_err(format!("unknown condition {kind:?}"))),
        })
    }
}

/// A reifiable condition as Python sends it: kind (`linear`, `in`, `not_in`),
/// terms, relation, right-hand side (for membership: the offset of the one term),
/// and the set of values for membership.
#[derive(FromPyObject)]
pub(crate) struct ConditionSpec(String, Vec<(i32, usize)>, String, i64, Vec<i32>);

type Posted = PyResult<usize>;

fn posted(result: Result<ConstraintId, alldiff::ModelError>) -> Posted {
    result.map(|c| c.index()).map_err(model_error)
}

#[pymethods]
impl Core {
    #[new]
    fn new() -> Core {
        Core::default()
    }

    #[pyo3(signature = (lo, hi, name=None))]
    fn int_var(&mut self, lo: i32, hi: i32, name: Option<String>) -> PyResult<usize> {
        let var = self.model().int_var(lo, hi);
        self.made(var, name)
    }

    #[pyo3(signature = (values, name=None))]
    fn var_from_values(&mut self, values: Vec<i32>, name: Option<String>) -> PyResult<usize> {
        let var = self.model().var_from_values(values);
        self.made(var, name)
    }

    fn var_count(&self) -> usize {
        self.vars.len()
    }

    fn constraint_count(&mut self) -> usize {
        self.model().constraint_count()
    }

    fn name(&mut self, var: usize) -> PyResult<String> {
        let var = self.var(var)?;
        Ok(self.model().name(var))
    }

    fn bounds(&mut self, var: usize) -> PyResult<(i32, i32)> {
        let var = self.var(var)?;
        self.model().bounds(var).map_err(model_error)
    }

    fn domain(&mut self, var: usize) -> PyResult<Vec<i32>> {
        let var = self.var(var)?;
        self.model().domain(var).map_err(model_error)
    }

    fn linear(&mut self, terms: Vec<(i32, usize)>, relation_name: &str, rhs: i64) -> Posted {
        let terms = self.terms(terms)?;
        let (relation, rhs) = (relation(relation_name)?, rhs32(rhs)?);
        posted(self.model().linear(terms, relation, rhs))
    }

    /// No solution: a variable fixed to 0 that must be 1.
    fn fail(&mut self) -> Posted {
        let var = self.model().var_from_values([0]).map_err(model_error)?;
        posted(self.model().equal(var, View::from(var).plus(1)))
    }

    fn all_different(&mut self, views: Vec<PyView>, strength_name: &str) -> Posted {
        let views = self.views(views)?;
        posted(
            self.model()
                .all_different_with(views, strength(strength_name)?),
        )
    }

    /// Groups of variables, each all-different, propagated together.
    fn all_different_system(&mut self, groups: Vec<Vec<usize>>) -> Posted {
        let groups = (groups.into_iter())
            .map(|g| {
                g.into_iter()
                    .map(|v| self.var(v))
                    .collect::<PyResult<Vec<_>>>()
            })
            .collect::<PyResult<Vec<_>>>()?;
        posted(self.model().all_different_system(groups))
    }

    /// Two overlapping all-different groups prune each other.
    fn intersection(&mut self, a: Vec<PyView>, b: Vec<PyView>) -> Posted {
        let (a, b) = (self.views(a)?, self.views(b)?);
        posted(self.model().intersection(a, b))
    }

    fn element(&mut self, array: Vec<i32>, index: PyView, value: PyView) -> Posted {
        let (index, value) = (self.view(index)?, self.view(value)?);
        posted(self.model().element(&array, index, value))
    }

    fn element_var(&mut self, array: Vec<PyView>, index: PyView, value: PyView) -> Posted {
        let (array, index, value) = (self.views(array)?, self.view(index)?, self.view(value)?);
        posted(self.model().element_var(array, index, value))
    }

    fn table(&mut self, views: Vec<PyView>, tuples: Vec<Vec<i32>>) -> Posted {
        let views = self.views(views)?;
        posted(self.model().table(views, &tuples))
    }

    fn circuit(&mut self, succ: Vec<PyView>, offset: i32, sub: bool) -> Posted {
        let succ = self.views(succ)?;
        posted(if sub {
            self.model().subcircuit(succ, offset)
        } else {
            self.model().circuit(succ, offset)
        })
    }

    fn global_cardinality(
        &mut self,
        xs: Vec<PyView>,
        values: Vec<i32>,
        counts: Vec<i32>,
    ) -> Posted {
        let xs = self.views(xs)?;
        posted(self.model().global_cardinality(xs, &values, &counts))
    }

    fn global_cardinality_vars(
        &mut self,
        xs: Vec<PyView>,
        values: Vec<i32>,
        counts: Vec<PyView>,
    ) -> Posted {
        let (xs, counts) = (self.views(xs)?, self.views(counts)?);
        posted(self.model().global_cardinality_vars(xs, &values, counts))
    }

    fn inverse(&mut self, f: Vec<PyView>, f_offset: i32, g: Vec<PyView>, g_offset: i32) -> Posted {
        let (f, g) = (self.views(f)?, self.views(g)?);
        posted(self.model().inverse(f, f_offset, g, g_offset))
    }

    fn lex(&mut self, xs: Vec<PyView>, ys: Vec<PyView>, strict: bool) -> Posted {
        let (xs, ys) = (self.views(xs)?, self.views(ys)?);
        posted(if strict {
            self.model().lex_less(xs, ys)
        } else {
            self.model().lex_less_eq(xs, ys)
        })
    }

    fn disjunctive(&mut self, starts: Vec<PyView>, durations: Vec<i32>) -> Posted {
        let starts = self.views(starts)?;
        posted(self.model().disjunctive(starts, &durations))
    }

    fn cumulative(
        &mut self,
        starts: Vec<PyView>,
        durations: Vec<i32>,
        demands: Vec<i32>,
        capacity: i32,
    ) -> Posted {
        let starts = self.views(starts)?;
        posted(
            self.model()
                .cumulative(starts, &durations, &demands, capacity),
        )
    }

    /// `z == op(x, y)` for `times`, `div`, `mod`; `z == |x|` for `abs` (y unused).
    fn arithmetic(&mut self, op: &str, x: PyView, y: PyView, z: PyView) -> Posted {
        let (x, y, z) = (self.view(x)?, self.view(y)?, self.view(z)?);
        posted(match op {
            "times" => self.model().times(x, y, z),
            "div" => self.model().div(x, y, z),
            "mod" => self.model().modulo(x, y, z),
            "abs" => self.model().abs(x, z),
            _ => return Err(PyValueError::new_err(format!("unknown operation {op:?}"))),
        })
    }

    /// `z == x ** k`.
    fn power(&mut self, x: PyView, k: u32, z: PyView) -> Posted {
        let (x, z) = (self.view(x)?, self.view(z)?);
        posted(self.model().power(x, k, z))
    }

    fn extremum(&mut self, xs: Vec<PyView>, z: PyView, maximum: bool) -> Posted {
        let (xs, z) = (self.views(xs)?, self.view(z)?);
        posted(if maximum {
            self.model().maximum(xs, z)
        } else {
            self.model().minimum(xs, z)
        })
    }

    /// `or`, `and`, `xor` over literals.
    fn logic(&mut self, op: &str, literals: Vec<(usize, bool)>) -> Posted {
        let literals = self.literals(literals)?;
        posted(match op {
            "or" => self.model().or(literals),
            "and" => self.model().and(literals),
            "xor" => self.model().xor(literals),
            _ => return Err(PyValueError::new_err(format!("unknown operation {op:?}"))),
        })
    }

    /// `target <-> or(literals)` or `target <-> and(literals)`.
    fn reify_logic(
        &mut self,
        op: &str,
        target: (usize, bool),
        literals: Vec<(usize, bool)>,
    ) -> Posted {
        let (target, literals) = (self.literal(target)?, self.literals(literals)?);
        posted(match op {
            "or" => self.model().reify_or(target, literals),
            "and" => self.model().reify_and(target, literals),
            _ => return Err(PyValueError::new_err(format!("unknown operation {op:?}"))),
        })
    }

    fn implies(&mut self, a: (usize, bool), b: (usize, bool)) -> Posted {
        let (a, b) = (self.literal(a)?, self.literal(b)?);
        posted(self.model().implies(a, b))
    }

    /// `b <-> condition` (full) or `b -> condition` (half).
    fn reify(&mut self, b: (usize, bool), condition: ConditionSpec, full: bool) -> Posted {
        let (b, condition) = (self.literal(b)?, self.condition(condition)?);
        posted(if full {
            self.model().reify(b, condition)
        } else {
            self.model().half_reify(b, condition)
        })
    }

    fn difference_in(&mut self, a: PyView, b: PyView, offsets: Vec<i32>) -> Posted {
        let (a, b) = (self.view(a)?, self.view(b)?);
        posted(self.model().difference_in(a, b, &offsets))
    }

    fn abs_difference(&mut self, a: PyView, b: PyView, d: PyView) -> Posted {
        let (a, b, d) = (self.view(a)?, self.view(b)?, self.view(d)?);
        posted(self.model().abs_difference(a, b, d))
    }

    fn __repr__(&mut self) -> String {
        format!(
            "Core({} variables, {} constraints)",
            self.vars.len(),
            self.model().constraint_count()
        )
    }
}
