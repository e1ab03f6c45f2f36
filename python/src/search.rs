//! `Search`: an [`alldiff::Solver`] over a `Core`'s model, its set-up, and the
//! searches, each run by [`crate::run`] (GIL released, Ctrl-C honoured).

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use alldiff::trace::{Trace, ViewOptions};
use alldiff::{
    Branch, CountStatus, Limits, OptimizeOutcome, Phase, Restarts, SearchConfig, Solver,
    SplitDecision, Statistics, Step, ValueOrder, VariableOrder,
};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::core::{Core, PyView};
use crate::{model_error, run, stopped};

/// A variable order from its Python name.
fn variable_order(name: &str) -> PyResult<VariableOrder> {
    Ok(match name {
        "input_order" => VariableOrder::InputOrder,
        "smallest_domain" => VariableOrder::SmallestDomain,
        "dom_over_wdeg" => VariableOrder::DomOverWeightedDegree,
        "largest_domain" => VariableOrder::LargestDomain,
        "smallest_value" => VariableOrder::SmallestValue,
        "largest_value" => VariableOrder::LargestValue,
        "most_constraints" => VariableOrder::MostConstraints,
        "smallest_domain_most_constraints" => VariableOrder::SmallestDomainMostConstraints,
        "smallest_domain_weighted_degree" => VariableOrder::SmallestDomainWeightedDegree,
        "max_regret" => VariableOrder::MaxRegret,
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown variable order {name:?}"
            )));
        }
    })
}

/// A value order from its Python name (`random` takes `seed`).
fn value_order(name: &str, seed: u64) -> PyResult<ValueOrder> {
    Ok(match name {
        "ascending" => ValueOrder::Ascending,
        "descending" => ValueOrder::Descending,
        "random" => ValueOrder::Random(seed),
        "middle" => ValueOrder::Middle,
        "median" => ValueOrder::Median,
        "split" => ValueOrder::Split,
        "reverse_split" => ValueOrder::ReverseSplit,
        "interval" => ValueOrder::Interval,
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown value order {name:?}"
            )));
        }
    })
}

fn branch(symbol: &str) -> PyResult<Branch> {
    Ok(match symbol {
        "=" | "==" => Branch::Equal,
        "!=" => Branch::NotEqual,
        "<=" => Branch::LessEqual,
        ">" => Branch::Greater,
        _ => return Err(PyValueError::new_err(format!("unknown branch {symbol:?}"))),
    })
}

/// A search's set-up as Python sends it: variable order, value order, seed,
/// phases `[(vars, variable order, value order)]`, restarts `(kind, a, b)`.
#[derive(FromPyObject)]
pub(crate) struct Setup(
    String,
    String,
    u64,
    Vec<(Vec<usize>, String, String)>,
    Option<(String, f64, f64)>,
);

/// A decision of a subproblem: `(var, branch symbol, value)`.
type PyDecision = (usize, String, i32);

/// One solver and how it ended its latest search.
#[pyclass(module = "alldiff._alldiff")]
pub(crate) struct Search {
    /// Behind a mutex only because a Python class must be `Sync`.
    solver: Mutex<Solver>,
    vars: Vec<alldiff::VarId>,
    cancel: Arc<AtomicBool>,
    limits: Limits,
}

fn statistics_dict<'py>(py: Python<'py>, stats: &Statistics) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("nodes", stats.nodes)?;
    dict.set_item("failures", stats.failures)?;
    dict.set_item("propagations", stats.propagations)?;
    dict.set_item("peak_depth", stats.peak_depth)?;
    dict.set_item("solutions", stats.solutions)?;
    dict.set_item("restarts", stats.restarts)?;
    dict.set_item("objective", stats.objective)?;
    dict.set_item("solve_time", stats.solve_time.as_secs_f64())?;
    Ok(dict)
}

/// The outcome of a search as Python reads it: `("solved", values)`,
/// `("unsatisfiable", None)`; a stop raises `Stopped`.
type Found = (&'static str, Option<Vec<i32>>);

/// The outcome of an optimisation: status, best objective, its values, and why
/// it stopped (for `stopped`).
type Optimized = (&'static str, Option<i64>, Option<Vec<i32>>, Option<String>);

impl Search {
    fn solver(&mut self) -> &mut Solver {
        self.solver
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner)
    }

    fn set_limits(
        &mut self,
        time: Option<f64>,
        nodes: Option<u64>,
        failures: Option<u64>,
    ) -> PyResult<()> {
        let mut limits = self.limits.clone().with_cancel(self.cancel.clone());
        if let Some(time) = time {
            let time = Duration::try_from_secs_f64(time)
                .map_err(|_| PyValueError::new_err(format!("bad time limit {time}")))?;
            limits = limits.with_time(time);
        }
        if let Some(nodes) = nodes {
            limits = limits.with_nodes(nodes);
        }
        if let Some(failures) = failures {
            limits = limits.with_failures(failures);
        }
        self.solver().set_limits(limits);
        Ok(())
    }
}

#[pymethods]
impl Search {
    #[new]
    fn new(core: &Core, setup: Setup) -> PyResult<Search> {
        let Setup(variable_order_name, value_order_name, seed, phase_specs, restart_spec) = setup;
        let config = SearchConfig::new()
            .variable_order(variable_order(&variable_order_name)?)
            .value_order(value_order(&value_order_name, seed)?);
        let mut solver = Solver::with_config(core.model_clone(), config);
        if !phase_specs.is_empty() {
            let mut phases = Vec::new();
            for (vars, var_order, val_order) in phase_specs {
                let vars = vars
                    .into_iter()
                    .map(|v| core.var(v))
                    .collect::<PyResult<Vec<_>>>()?;
                phases.push(
                    Phase::new(vars)
                        .variable_order(variable_order(&var_order)?)
                        .value_order(value_order(&val_order, seed)?),
                );
            }
            solver.set_phases(phases).map_err(model_error)?;
        }
        if let Some((kind, a, b)) = restart_spec {
            let restarts = match kind.as_str() {
                "luby" => Restarts::luby(a as u64),
                "geometric" => Restarts::geometric(a as u64, b),
                "linear" => Restarts::linear(a as u64),
                _ => return Err(PyValueError::new_err(format!("unknown restarts {kind:?}"))),
            };
            solver.set_restarts(Some(restarts));
        }
        Ok(Search {
            solver: Mutex::new(solver),
            vars: core.vars.clone(),
            cancel: Arc::new(AtomicBool::new(false)),
            limits: Limits::none(),
        })
    }

    /// The limits of each following search (seconds, nodes, failures).
    #[pyo3(signature = (time=None, nodes=None, failures=None))]
    fn limits(
        &mut self,
        time: Option<f64>,
        nodes: Option<u64>,
        failures: Option<u64>,
    ) -> PyResult<()> {
        self.set_limits(time, nodes, failures)
    }

    /// Restricts every following search to a subproblem's decisions.
    fn assume(&mut self, decisions: Vec<PyDecision>) -> PyResult<()> {
        let decisions = (decisions.into_iter())
            .map(|(var, symbol, value)| {
                let var = *(self.vars.get(var))
                    .ok_or_else(|| PyValueError::new_err(format!("no variable #{var}")))?;
                Ok(SplitDecision {
                    var,
                    branch: branch(&symbol)?,
                    value,
                })
            })
            .collect::<PyResult<Vec<_>>>()?;
        self.solver()
            .assume_decisions(&decisions)
            .map_err(model_error)
    }

    /// The subproblems of [`Solver::subproblems`], as `(var, branch, value)` lists.
    fn subproblems(&mut self, py: Python<'_>, target: usize) -> PyResult<Vec<Vec<PyDecision>>> {
        let solver = self
            .solver
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner);
        let split = run(py, &self.cancel, || solver.subproblems(target))?;
        Ok((split.into_iter())
            .map(|decisions| {
                (decisions.into_iter())
                    .map(|d| (d.var.index(), d.branch.symbol().to_string(), d.value))
                    .collect()
            })
            .collect())
    }

    fn solve(&mut self, py: Python<'_>) -> PyResult<Found> {
        let solver = self
            .solver
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner);
        match run(py, &self.cancel, || solver.solve())? {
            alldiff::Outcome::Solved(solution) => Ok(("solved", Some(solution.values().to_vec()))),
            alldiff::Outcome::Unsatisfiable => Ok(("unsatisfiable", None)),
            alldiff::Outcome::Stopped(reason) => Err(stopped(reason)),
        }
    }

    /// The next solution of the running enumeration (a new one after set-up), or
    /// `None` once there is none.
    fn next(&mut self, py: Python<'_>) -> PyResult<Option<Vec<i32>>> {
        let solver = self
            .solver
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner);
        let step = run(py, &self.cancel, || solver.advance())?;
        let solver = self
            .solver
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner);
        match step {
            Step::Solution => Ok(Some(
                (self.vars.iter())
                    .map(|&v| solver.solution_value(v).unwrap_or_default())
                    .collect(),
            )),
            Step::Exhausted => Ok(None),
            Step::Stopped(reason) => Err(stopped(reason)),
        }
    }

    /// `(count, complete)`; a stop before the end raises `Stopped` with the
    /// count so far as its second argument.
    #[pyo3(signature = (limit=None))]
    fn count(&mut self, py: Python<'_>, limit: Option<u64>) -> PyResult<(u64, bool)> {
        let solver = self
            .solver
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner);
        let count = run(py, &self.cancel, || solver.count(limit))?;
        match count.status {
            CountStatus::Complete => Ok((count.solutions, true)),
            CountStatus::LimitReached => Ok((count.solutions, false)),
            CountStatus::Stopped(reason) => Err(crate::Stopped::new_err((
                reason.to_string(),
                count.solutions,
            ))),
        }
    }

    /// Branch and bound on `objective`: `(status, objective, values)` with status
    /// `optimal`, `unsatisfiable` or `stopped` (best so far, if any, in the rest).
    fn optimize(
        &mut self,
        py: Python<'_>,
        objective: PyView,
        maximize: bool,
    ) -> PyResult<Optimized> {
        let (var, scale, offset) = objective;
        let var = *(self.vars.get(var))
            .ok_or_else(|| PyValueError::new_err(format!("no variable #{var}")))?;
        let view = var.times(scale).plus(offset);
        let solver = self
            .solver
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner);
        let outcome = run(py, &self.cancel, || {
            let optimization = if maximize {
                solver.maximize(view)
            } else {
                solver.minimize(view)
            };
            optimization.map(|mut o| {
                for _ in o.by_ref() {}
                o.finish()
            })
        })?
        .map_err(model_error)?;
        Ok(match outcome {
            OptimizeOutcome::Optimal(best) => (
                "optimal",
                Some(best.objective),
                Some(best.solution.values().to_vec()),
                None,
            ),
            OptimizeOutcome::Unsatisfiable => ("unsatisfiable", None, None, None),
            OptimizeOutcome::Stopped { best, reason } => (
                "stopped",
                best.as_ref().map(|b| b.objective),
                best.map(|b| b.solution.values().to_vec()),
                Some(reason.to_string()),
            ),
        })
    }

    /// Every variable's domain after propagating at the root (and the assumed
    /// decisions), without search; `None` if propagation proves there is no solution.
    fn root_domains(&mut self, py: Python<'_>) -> PyResult<Option<Vec<Vec<i32>>>> {
        let solver = self
            .solver
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner);
        run(py, &self.cancel, || solver.root_domains())
    }

    /// The statistics of the latest search, as a dict.
    fn statistics<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        statistics_dict(py, self.solver().statistics())
    }

    /// Records a search (`solve`, or `count` up to `limit`) as a JSON Lines trace at
    /// `path`; returns the number of event lines written.
    #[pyo3(signature = (path, problem, count=false, limit=None, max_events=None))]
    fn trace(
        &mut self,
        py: Python<'_>,
        path: std::path::PathBuf,
        problem: &str,
        count: bool,
        limit: Option<u64>,
        max_events: Option<u64>,
    ) -> PyResult<()> {
        let file = std::fs::File::create(&path)
            .map_err(|e| PyOSError::new_err(format!("{}: {e}", path.display())))?;
        let solver = self
            .solver
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner);
        let written = run(py, &self.cancel, || {
            if count {
                alldiff::trace::count_traced(solver, problem, file, max_events, limit).map(|_| ())
            } else {
                alldiff::trace::solve_traced(solver, problem, file, max_events).map(|_| ())
            }
        })?;
        written.map_err(|e| PyOSError::new_err(format!("{}: {e}", path.display())))
    }
}

/// The trace viewer's page for the trace at `path` (at most `max_nodes` nodes).
#[pyfunction]
#[pyo3(signature = (path, max_nodes=200_000))]
pub(crate) fn trace_html(path: std::path::PathBuf, max_nodes: usize) -> PyResult<String> {
    let file = std::fs::File::open(&path)
        .map_err(|e| PyOSError::new_err(format!("{}: {e}", path.display())))?;
    let trace = Trace::parse(std::io::BufReader::new(file))
        .map_err(|e| PyValueError::new_err(format!("{}: {e}", path.display())))?;
    Ok(trace.to_html(ViewOptions { max_nodes }))
}

/// A one-line summary of the trace at `path`.
#[pyfunction]
pub(crate) fn trace_summary(path: std::path::PathBuf) -> PyResult<String> {
    let file = std::fs::File::open(&path)
        .map_err(|e| PyOSError::new_err(format!("{}: {e}", path.display())))?;
    let trace = Trace::parse(std::io::BufReader::new(file))
        .map_err(|e| PyValueError::new_err(format!("{}: {e}", path.display())))?;
    Ok(trace.summary().to_string())
}
