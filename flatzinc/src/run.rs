//! Solving a FlatZinc model as MiniZinc asks: satisfaction (first, `n` or all
//! solutions) or branch and bound.

use super::FlatZincModel;
use alldiff::{
    Limits, Objective, OptimizeOutcome, Outcome, SearchObserver, Solution, Solver, Statistics,
    StopReason,
};

/// How to run: MiniZinc's standard flags.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Every solution (`-a`): for satisfaction, all of them; for an objective, every
    /// improving one is reported either way, so this changes nothing there.
    pub all: bool,
    /// Stop after this many solutions (`-n N`): of a satisfaction problem (`None` and
    /// not `all`: the first solution only), or improving solutions of an objective
    /// (`None`: on to the proven optimum).
    pub solutions: Option<u64>,
    /// Free search (`-f`): the annotations are ignored, alldiff's default search
    /// (smallest domain first, smallest value) branches on every variable.
    pub free: bool,
    /// Node, failure, time and cancellation limits over the whole run (`-t MS`).
    pub limits: Limits,
    /// The seed of `indomain_random` (`-r SEED`); 0 if `None`.
    pub seed: Option<u64>,
    /// Check every solution against every constraint before reporting it
    /// (`--check-solutions`, see [`Solver::check_solutions`]): a wrong one stops the
    /// run with [`StopReason::WrongSolution`].
    pub check_solutions: bool,
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunStatus {
    /// The search space was exhausted after at least one solution: every solution was
    /// reported (satisfaction), or the last one reported is optimal (MiniZinc prints
    /// `==========`).
    Complete,
    /// Proven: no solution at all (`=====UNSATISFIABLE=====`).
    Unsatisfiable,
    /// The requested number of solutions was reported; there may be more (or, for an
    /// objective, better ones).
    SolutionLimit,
    /// A limit stopped the search; `solved` tells whether any solution was reported
    /// first (`=====UNKNOWN=====` when not).
    Stopped {
        /// The limit.
        reason: StopReason,
        /// Whether a solution was reported before.
        solved: bool,
    },
    /// The search ended, but over domains narrowed when the model was read
    /// ([`FlatZincModel::is_narrowed`]): what it found holds, but neither that there
    /// is no other solution (or no better one) nor that there is none at all is
    /// proven (`=====UNKNOWN=====` when no solution was reported).
    Narrowed {
        /// Whether a solution was reported.
        solved: bool,
    },
}

impl RunStatus {
    /// What this status of a search over `problem`'s model proves of the model in the
    /// file: a search that ended over narrowed domains proves nothing beyond them.
    pub fn of(self, problem: &FlatZincModel) -> RunStatus {
        match self {
            RunStatus::Complete if problem.is_narrowed() => RunStatus::Narrowed { solved: true },
            RunStatus::Unsatisfiable if problem.is_narrowed() => {
                RunStatus::Narrowed { solved: false }
            }
            status => status,
        }
    }
}

/// How a run ended, and its statistics (over the whole run).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunOutcome {
    /// How it ended.
    pub status: RunStatus,
    /// The search's statistics: `solutions` counts the solutions reported.
    pub statistics: Statistics,
}

/// Solves `problem`: calls `on_solution` with each solution (and its objective value,
/// for an optimisation) as it is found, and reports the search to `observer` (`&mut
/// ()` for none). A satisfaction problem stops at the first solution, at
/// `options.solutions`, or runs to the end with `options.all`; an optimisation reports
/// every improving solution and ends with the optimum proven (or after
/// `options.solutions` of them). The phases are [`FlatZincModel::phases`] (with the
/// seed for `indomain_random`).
///
/// Each run builds a fresh model from the statements read (a [`Solver`] owns its
/// model), so a problem can be run any number of times. To watch the solver itself
/// (a trace header describes it, and prunings must be switched on before), make it
/// with [`FlatZincModel::solver`] and call [`run_on`].
pub fn run(
    problem: &FlatZincModel,
    options: &RunOptions,
    observer: &mut impl SearchObserver,
    on_solution: impl FnMut(&Solution, Option<i64>),
) -> RunOutcome {
    let mut solver = problem.solver(options);
    run_on(problem, &mut solver, options, observer, on_solution)
}

/// [`run`] on a solver made by [`FlatZincModel::solver`] for `problem` and `options`,
/// which the caller may have set up further, for a trace:
///
/// ```
/// # #[cfg(feature = "trace")] {
/// use alldiff_flatzinc::{self as flatzinc, FlatZincModel, RunOptions};
/// use alldiff::trace::{Header, Trace, TraceRecorder};
///
/// let problem = FlatZincModel::parse(
///     "var 1..3: x;\nvar 1..3: y;\nconstraint int_lt(x, y);\nsolve satisfy;\n",
/// )?;
/// let options = RunOptions { all: true, ..RunOptions::default() };
/// let mut solver = problem.solver(&options);
/// solver.stream_prunings(true);
/// let header = Header::describe(&solver, "x < y");
/// let mut file = Vec::new();
/// let mut recorder = TraceRecorder::new(&mut file, header, None).unwrap();
/// let outcome = flatzinc::run_on(&problem, &mut solver, &options, &mut recorder, |_, _| {});
/// recorder.finish(&outcome.statistics).unwrap();
/// let trace = Trace::parse(&file[..]).unwrap();
/// assert_eq!(trace.header().variables[1].name, "y"); // the FlatZinc names
/// # }
/// # Ok::<(), alldiff_flatzinc::FlatZincError>(())
/// ```
pub fn run_on(
    problem: &FlatZincModel,
    solver: &mut Solver,
    options: &RunOptions,
    observer: &mut impl SearchObserver,
    mut on_solution: impl FnMut(&Solution, Option<i64>),
) -> RunOutcome {
    // The objective names the problem's model; the solver has its own copy, whose
    // variables are numbered alike.
    let objective = problem.objective().map(|objective| {
        let view = objective.view();
        let var = solver.model().vars().nth(view.var.index());
        let view = var.map_or(view, |var| var.plus(view.offset));
        match objective {
            Objective::Minimize(_) => Objective::Minimize(view),
            Objective::Maximize(_) => Objective::Maximize(view),
        }
    });
    let status = match objective {
        // One solution with restarts: only `solve` restarts (enumeration never does).
        None if !options.all
            && options.solutions.unwrap_or(1) == 1
            && solver.restarts().is_some() =>
        {
            match solver.solve_observed(observer) {
                Outcome::Solved(solution) => {
                    on_solution(&solution, None);
                    RunStatus::SolutionLimit
                }
                Outcome::Unsatisfiable => RunStatus::Unsatisfiable,
                Outcome::Stopped(reason) => RunStatus::Stopped {
                    reason,
                    solved: false,
                },
            }
        }
        None => {
            let wanted = match options.all {
                true => None,
                false => Some(options.solutions.unwrap_or(1)),
            };
            let mut solutions = solver.solutions();
            let mut found = 0;
            loop {
                if wanted.is_some_and(|wanted| found >= wanted) {
                    break RunStatus::SolutionLimit;
                }
                match solutions.next_observed(observer) {
                    Some(Ok(solution)) => {
                        found += 1;
                        on_solution(&solution, None);
                    }
                    Some(Err(reason)) => {
                        break RunStatus::Stopped {
                            reason,
                            solved: found > 0,
                        };
                    }
                    None if found == 0 => break RunStatus::Unsatisfiable,
                    None => break RunStatus::Complete,
                }
            }
        }
        Some(objective) => {
            let mut optimization = solver
                .optimize(objective)
                .expect("the objective is the model's own variable");
            let mut found = 0;
            loop {
                if options.solutions.is_some_and(|wanted| found >= wanted) {
                    break RunStatus::SolutionLimit;
                }
                let Some(Ok(improvement)) = optimization.next_observed(observer) else {
                    break finished(optimization.finish());
                };
                found += 1;
                on_solution(&improvement.solution, Some(improvement.objective));
            }
        }
    };
    RunOutcome {
        status: status.of(problem),
        statistics: solver.statistics().clone(),
    }
}

/// How a branch-and-bound search that ran to its end ended.
fn finished(outcome: OptimizeOutcome) -> RunStatus {
    match outcome {
        OptimizeOutcome::Optimal(_) => RunStatus::Complete,
        OptimizeOutcome::Unsatisfiable => RunStatus::Unsatisfiable,
        OptimizeOutcome::Stopped { best, reason } => RunStatus::Stopped {
            reason,
            solved: best.is_some(),
        },
    }
}
