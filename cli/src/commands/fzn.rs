//! `alldiff fzn`: a FlatZinc model solved as MiniZinc asks a solver to, with its
//! flags (`-a -n -f -p -s -t -r`) and its output protocol (solutions closed by
//! `----------`, then `==========`, `=====UNSATISFIABLE=====` or
//! `=====UNKNOWN=====`, and `%%%mzn-stat:` lines).

use std::collections::HashSet;
use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use alldiff::trace::{Header, TraceRecorder};
use alldiff::{
    ConstraintId, Limits, Model, OptimizeOutcome, Outcome, ParallelSolver, Solution, Statistics,
    StopReason,
};
use alldiff_flatzinc::{self as flatzinc, FlatZincModel, RunOptions, RunOutcome, RunStatus};
use anyhow::{Context as _, bail};

use crate::args::FznArgs;
use crate::output_file::{Read, ensure_not_read};
use crate::report::EXIT_FAILURE;

/// The exit status of a run `--check-solutions` stopped at a wrong solution.
const EXIT_WRONG_SOLUTION: u8 = 3;

/// Runs `alldiff fzn`. A model that cannot be read is one line on standard error
/// and status 1; a model file that cannot be opened, or a trace that cannot be
/// written, is an `Err` (status 2).
pub(crate) fn fzn(args: FznArgs) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let shown = args.model.display().to_string();
    if let Some(trace) = &args.trace {
        let model = Read::File {
            what: "the model",
            path: &args.model,
        };
        ensure_not_read(trace, "--trace", &[model])?;
    }
    let text = fs::read_to_string(&args.model)
        .with_context(|| format!("cannot read the model {shown}"))?;
    let problem = match FlatZincModel::parse(&text) {
        Ok(problem) => problem,
        Err(error) => {
            eprintln!("alldiff: {shown}: {error}");
            return Ok(ExitCode::from(EXIT_FAILURE));
        }
    };
    let mut seen = HashSet::new();
    for warning in problem.warnings() {
        if seen.insert(warning) {
            eprintln!("alldiff: {shown}: warning: {warning}");
        }
    }
    // A closed standard output (MiniZinc gone) cancels the search.
    let cancel = Arc::new(AtomicBool::new(false));
    let init_time = started.elapsed();
    let options = RunOptions {
        all: args.all && args.solutions.is_none(),
        solutions: args.solutions.map(u64::from),
        free: args.free,
        limits: limits(args.time_limit, init_time, Arc::clone(&cancel)),
        seed: args.seed,
        check_solutions: args.check_solutions,
    };
    let mut printer = Printer::new(&problem, args.all, cancel);
    let threads = match args.threads {
        0 => std::thread::available_parallelism().map_or(1, usize::from),
        n => n,
    };
    let parallel = threads > 1;
    let one_thread = options.all || options.solutions.is_some() || args.trace.is_some();
    if parallel && one_thread {
        eprintln!(
            "alldiff: -p {threads}: parallel search finds one solution or an optimum; \
             with -a, -n or --trace the search runs on one thread"
        );
    }
    let (outcome, written) = match &args.trace {
        None if parallel && !one_thread => {
            let outcome = run_parallel(&problem, &options, threads, &mut printer);
            (outcome, None)
        }
        None => {
            let outcome = flatzinc::run(&problem, &options, &mut (), |s, o| printer.solution(s, o));
            (outcome, None)
        }
        Some(path) => {
            // Refused before anything is printed: a trace that cannot be written.
            check_trace_size(problem.model())?;
            let mut solver = problem.solver(&options);
            solver.stream_prunings(true);
            let header = Header::describe(&solver, &format!("flatzinc {shown}"));
            let file = File::create(path)
                .with_context(|| format!("cannot create the trace file {}", path.display()))?;
            let mut recorder =
                TraceRecorder::new(BufWriter::new(file), header, Some(args.trace_cap))?;
            let outcome =
                flatzinc::run_on(&problem, &mut solver, &options, &mut recorder, |s, o| {
                    printer.solution(s, o)
                });
            let written = recorder.finish(&outcome.statistics);
            (outcome, Some(written))
        }
    };
    let statistics = args.statistics.then(|| Stats {
        outcome: &outcome,
        objective: printer.objective,
        model: problem.model(),
        init_time,
    });
    printer.finish(&outcome, statistics)?;
    if let RunStatus::Stopped {
        reason: StopReason::WrongSolution { constraint, name },
        ..
    } = outcome.status
    {
        eprintln!("{}", wrong_solution(&shown, &problem, constraint, name));
        return Ok(ExitCode::from(EXIT_WRONG_SOLUTION));
    }
    match (written, &args.trace) {
        (Some(Err(error)), Some(path)) => {
            Err(anyhow::Error::new(error)
                .context(format!("cannot write the trace {}", path.display())))
        }
        (Some(Ok(written)), _) if written.truncated() => {
            eprintln!(
                "alldiff: the trace was cut after {} event lines ({} more dropped); raise --trace-cap",
                written.events, written.dropped
            );
            Ok(ExitCode::SUCCESS)
        }
        _ => Ok(ExitCode::SUCCESS),
    }
}

/// One solution, or an optimum, searched on `threads` threads, each with its own
/// solver on a clone of the model.
fn run_parallel(
    problem: &FlatZincModel,
    options: &RunOptions,
    threads: usize,
    printer: &mut Printer<'_>,
) -> RunOutcome {
    let mut parallel = ParallelSolver::new(threads, || problem.solver(options));
    parallel.set_limits(options.limits.clone());
    let status = match problem.objective() {
        None => match parallel.solve() {
            Outcome::Solved(solution) => {
                printer.solution(&solution, None);
                RunStatus::SolutionLimit
            }
            Outcome::Unsatisfiable => RunStatus::Unsatisfiable,
            Outcome::Stopped(reason) => RunStatus::Stopped {
                reason,
                solved: false,
            },
        },
        Some(objective) => {
            let outcome = parallel
                .optimize(objective)
                .expect("the objective is a variable of the model every thread builds");
            let (status, best) = match outcome {
                OptimizeOutcome::Optimal(best) => (RunStatus::Complete, Some(best)),
                OptimizeOutcome::Unsatisfiable => (RunStatus::Unsatisfiable, None),
                OptimizeOutcome::Stopped { best, reason } => {
                    let solved = best.is_some();
                    (RunStatus::Stopped { reason, solved }, best)
                }
            };
            if let Some(best) = best {
                printer.solution(&best.solution, Some(best.objective));
            }
            status
        }
    };
    RunOutcome {
        status: status.of(problem),
        statistics: parallel.statistics().clone(),
    }
}

/// The limits of the search: what is left of `-t MS` after reading the model,
/// and the cancellation flag.
fn limits(time_limit: Option<u64>, init_time: Duration, cancel: Arc<AtomicBool>) -> Limits {
    let limits = Limits::none().with_cancel(cancel);
    match time_limit {
        Some(ms) => limits.with_time(Duration::from_millis(ms).saturating_sub(init_time)),
        None => limits,
    }
}

/// The most domain values a trace header lists, over all variables (a trace lists
/// every value of every domain; an unbounded `var int` alone has 200 million).
const TRACE_VALUES: usize = 10_000_000;

/// Refuses a trace of `model` if its domains hold more than [`TRACE_VALUES`]
/// values in all: a trace header lists every one.
fn check_trace_size(model: &Model) -> anyhow::Result<()> {
    let mut values = 0;
    for var in model.vars() {
        let size = model.domain_size(var)? as usize;
        values += size;
        if values > TRACE_VALUES {
            bail!(
                "--trace: the domains hold more than {TRACE_VALUES} values ({} alone has {size}), \
                 and a trace lists every one; give the variables tighter bounds",
                model.name(var)
            );
        }
    }
    Ok(())
}

/// Writes the solutions to standard output, each flushed at once so that MiniZinc
/// sees it even if it stops the solver later. An optimisation without `-a` prints
/// only its best solution, at the end (as Gecode does; MiniZinc passes `-a` for
/// `-a` and `-i`); with `-a`, every improving solution as it is found.
struct Printer<'a> {
    problem: &'a FlatZincModel,
    out: io::StdoutLock<'static>,
    /// The first write error; it also sets `cancel`, which stops the search.
    error: Option<io::Error>,
    cancel: Arc<AtomicBool>,
    /// Whether solutions wait for the end, the last one replacing the one before.
    best_only: bool,
    /// The solution waiting for the end (with `best_only`).
    best: Option<String>,
    /// The objective of the last solution found.
    objective: Option<i64>,
}

impl<'a> Printer<'a> {
    fn new(problem: &'a FlatZincModel, all: bool, cancel: Arc<AtomicBool>) -> Self {
        Printer {
            problem,
            out: io::stdout().lock(),
            error: None,
            cancel,
            best_only: problem.objective().is_some() && !all,
            best: None,
            objective: None,
        }
    }

    /// Prints one solution and its `----------` (or keeps it for the end).
    fn solution(&mut self, solution: &Solution, objective: Option<i64>) {
        self.objective = objective.or(self.objective);
        let text = self.problem.format_solution(solution);
        if self.best_only {
            self.best = Some(text);
        } else if self.error.is_some() {
            // Nothing more is written once a write failed (the search is being cancelled).
        } else if let Err(error) = self.write_solution(&text) {
            self.error = Some(error);
            self.cancel.store(true, Ordering::Relaxed);
        }
    }

    /// Writes `text` and its `----------` in one write: MiniZinc, reading the other
    /// end of the pipe, is woken once a solution rather than once a line.
    fn write_solution(&mut self, text: &str) -> io::Result<()> {
        let mut solution = String::with_capacity(text.len() + 11);
        solution.push_str(text);
        solution.push_str("----------\n");
        self.out.write_all(solution.as_bytes())?;
        self.out.flush()
    }

    /// Prints the solution kept for the end, how the search ended and the
    /// statistics. A closed output is not an error (MiniZinc stopped listening);
    /// another write error is.
    fn finish(mut self, outcome: &RunOutcome, statistics: Option<Stats<'_>>) -> io::Result<()> {
        let result = (|| {
            if let Some(error) = self.error.take() {
                return Err(error);
            }
            if let Some(best) = self.best.take() {
                self.write_solution(&best)?;
            }
            if let Some(line) = status_line(outcome.status) {
                writeln!(self.out, "{line}")?;
            }
            if let Some(statistics) = statistics {
                write!(self.out, "{statistics}")?;
            }
            self.out.flush()
        })();
        match result {
            Err(error) if error.kind() == io::ErrorKind::BrokenPipe => Ok(()),
            result => result,
        }
    }
}

/// The line on standard error for a solution that violates `constraint` (of kind
/// `name`), naming the FlatZinc item it comes from.
fn wrong_solution(
    shown: &str,
    problem: &FlatZincModel,
    constraint: ConstraintId,
    name: &str,
) -> String {
    let item = match problem.constraint_source(constraint) {
        Some((line, item)) => format!("line {line}: {item}"),
        None => "a constraint alldiff added".to_owned(),
    };
    let index = constraint.index();
    format!(
        "alldiff: {shown}: {item}: a solution violates it (constraint #{index}, {name}); \
         an internal error of alldiff's, the solution was not printed"
    )
}

/// The line that closes the output, if any: the search is complete, proven
/// unsatisfiable, or stopped before any solution.
fn status_line(status: RunStatus) -> Option<&'static str> {
    match status {
        RunStatus::Complete => Some("=========="),
        RunStatus::Unsatisfiable => Some("=====UNSATISFIABLE====="),
        RunStatus::Stopped { solved: false, .. } | RunStatus::Narrowed { solved: false } => {
            Some("=====UNKNOWN=====")
        }
        RunStatus::Stopped { solved: true, .. }
        | RunStatus::Narrowed { solved: true }
        | RunStatus::SolutionLimit => None,
    }
}

/// The statistics printed by `-s`, with MiniZinc's names.
struct Stats<'a> {
    outcome: &'a RunOutcome,
    objective: Option<i64>,
    model: &'a Model,
    init_time: Duration,
}

impl std::fmt::Display for Stats<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s: &Statistics = &self.outcome.statistics;
        writeln!(f, "%%%mzn-stat: nodes={}", s.nodes)?;
        writeln!(f, "%%%mzn-stat: failures={}", s.failures)?;
        writeln!(f, "%%%mzn-stat: solutions={}", s.solutions)?;
        if let Some(objective) = self.objective {
            writeln!(f, "%%%mzn-stat: objective={objective}")?;
        }
        writeln!(f, "%%%mzn-stat: peakDepth={}", s.peak_depth)?;
        writeln!(f, "%%%mzn-stat: propagations={}", s.propagations)?;
        if s.restarts > 0 {
            writeln!(f, "%%%mzn-stat: restarts={}", s.restarts)?;
        }
        writeln!(f, "%%%mzn-stat: variables={}", self.model.var_count())?;
        writeln!(
            f,
            "%%%mzn-stat: propagators={}",
            self.model.constraint_count()
        )?;
        writeln!(
            f,
            "%%%mzn-stat: initTime={:.6}",
            self.init_time.as_secs_f64()
        )?;
        writeln!(
            f,
            "%%%mzn-stat: solveTime={:.6}",
            s.solve_time.as_secs_f64()
        )?;
        writeln!(f, "%%%mzn-stat-end")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ending_has_its_line() {
        use alldiff::StopReason;
        assert_eq!(status_line(RunStatus::Complete), Some("=========="));
        assert_eq!(
            status_line(RunStatus::Unsatisfiable),
            Some("=====UNSATISFIABLE=====")
        );
        let stopped = |solved| RunStatus::Stopped {
            reason: StopReason::TimeLimit,
            solved,
        };
        assert_eq!(status_line(stopped(false)), Some("=====UNKNOWN====="));
        assert_eq!(status_line(stopped(true)), None);
        assert_eq!(status_line(RunStatus::SolutionLimit), None);
        let narrowed = |solved| RunStatus::Narrowed { solved };
        assert_eq!(status_line(narrowed(false)), Some("=====UNKNOWN====="));
        assert_eq!(status_line(narrowed(true)), None);
    }

    #[test]
    fn a_wrong_solution_names_the_item_of_the_constraint_it_violates() {
        let text = "var 1..3: x;\nvar 1..3: y;\nconstraint int_ne(x, y);\nsolve satisfy;\n";
        let problem = FlatZincModel::parse(text).unwrap();
        let constraint = problem.model().first_violated(&|_| 1).unwrap();
        assert_eq!(
            wrong_solution("m.fzn", &problem, constraint, "not_equal"),
            "alldiff: m.fzn: line 3: int_ne: a solution violates it (constraint #0, \
             not_equal); an internal error of alldiff's, the solution was not printed"
        );
    }
}
