//! FlatZinc: reading the models MiniZinc writes for a solver, and solving them.
//!
//! [`FlatZincModel::parse`] reads FlatZinc text as MiniZinc 2.6 writes it (one item
//! a statement; the parser is the `flatzinc` crate, statement by statement, so every
//! error names its line) and builds a [`Model`] whose variables keep their FlatZinc
//! names. [`run`] solves it as MiniZinc asks (the first solution, `n` of them, all of
//! them, or branch and bound for an objective) and hands each solution to a callback;
//! [`FlatZincModel::format_solution`] prints it the way MiniZinc reads it back.
//!
//! ```
//! use alldiff_flatzinc::{self as flatzinc, FlatZincModel, RunOptions, RunStatus};
//!
//! let text = "\
//! var 1..3: x :: output_var;
//! var 1..3: y :: output_var;
//! array [1..2] of var int: xy :: output_array([1..2]) = [x, y];
//! constraint int_lt(x, y);
//! solve :: int_search(xy, input_order, indomain_max, complete) maximize y;
//! ";
//! let problem = FlatZincModel::parse(text)?;
//! let mut printed = Vec::new();
//! let options = RunOptions::default();
//! let outcome = flatzinc::run(&problem, &options, &mut (), |solution, objective| {
//!     printed.push((problem.format_solution(solution), objective));
//! });
//! assert_eq!(outcome.status, RunStatus::Complete); // the optimum is proven
//! let (last, objective) = printed.last().unwrap();
//! assert_eq!(*objective, Some(3));
//! assert!(last.ends_with("y = 3;\nxy = array1d(1..2, [2, 3]);\n"));
//! # Ok::<(), alldiff_flatzinc::FlatZincError>(())
//! ```
//!
//! What is read:
//!
//! - Declarations: `var int` (clamped to [`UNBOUNDED_MIN`]`..=`[`UNBOUNDED_MAX`], with a
//!   warning, and a search that ends then proves nothing: [`RunStatus::Narrowed`]),
//!   `var a..b`, `var {a, b, c}`, `var bool`, a right-hand side (a constant
//!   or another variable), parameters (`int`, `bool`, `set of int`, arrays of them) and
//!   arrays of variables and constants. Floats and set variables are errors.
//! - Constraints: the integer and Boolean builtins of MiniZinc's
//!   `std/flatzinc_builtins.mzn` (with their `_reif` and `_imp` forms) and the native
//!   globals that `share/minizinc/alldiff/` declares (`alldiff_*`, see
//!   `docs/minizinc.md`); any other constraint is an error that names it.
//!   A variable that `int_lin_eq([1, -1], [x, y], c) :: defines_var(y)` (or the
//!   like) defines as another plus a constant, declared after it, is the view `x - c`
//!   of it rather than a variable of its own. `is_defined_var`, `var_is_introduced`
//!   and other annotations alldiff has no use for are ignored.
//! - Search: `int_search`, `bool_search` and `seq_search` become [`Phase`]s
//!   ([`FlatZincModel::phases`]), `restart_*` set the solver's restarts; a selection
//!   alldiff lacks and other search annotations are mapped to the nearest or ignored,
//!   with one warning each ([`FlatZincModel::warnings`]).
//!
//! Reading never panics: every malformed or unsupported input is a
//! [`FlatZincError`] whose message starts with its line (`line 12: unsupported
//! constraint 'int_lin_ne_imp'`).

#![forbid(unsafe_code)]
#![warn(missing_docs, unreachable_pub)]

mod aliases;
mod build;
mod builtins;
mod call;
mod globals;
mod output;
mod parse;
mod run;
mod search;

use std::collections::HashMap;

use alldiff::Model;
use alldiff::{ConstraintId, VarId};
use alldiff::{Objective, Phase, Solution, Solver};

pub use run::{RunOptions, RunOutcome, RunStatus, run, run_on};

/// The smallest value an unbounded `var int` may take: such a variable is clamped to
/// `UNBOUNDED_MIN..=UNBOUNDED_MAX`, with a warning, so that sums and products of a few
/// of them stay within the 32-bit values the engine works in.
pub const UNBOUNDED_MIN: i32 = -100_000_000;
/// The largest value an unbounded `var int` may take (see [`UNBOUNDED_MIN`]).
pub const UNBOUNDED_MAX: i32 = 100_000_000;

/// A FlatZinc text that could not be read or is not supported: the line of the item
/// at fault (`None` for the file as a whole, such as a missing solve item), and what
/// is wrong. Displayed as `line N: what`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", match .line { Some(line) => format!("line {line}: {}", .message), None => .message.clone() })]
pub struct FlatZincError {
    /// The 1-based line where the item at fault starts.
    pub line: Option<usize>,
    /// What is wrong, such as `unsupported constraint 'int_lin_ne_imp'`.
    pub message: String,
}

impl FlatZincError {
    pub(crate) fn at(line: usize, message: impl Into<String>) -> FlatZincError {
        FlatZincError {
            line: Some(line),
            message: message.into(),
        }
    }
}

/// A FlatZinc model, read and built: the [`Model`], the objective, the search
/// annotations, and what to print for each solution.
#[derive(Debug)]
pub struct FlatZincModel {
    built: build::Built,
}

impl FlatZincModel {
    /// Reads FlatZinc text and builds its model.
    ///
    /// # Errors
    ///
    /// A [`FlatZincError`] naming the line and the problem: a syntax error, an unknown
    /// identifier, an unsupported constraint or type, a value out of the 32-bit range,
    /// arguments of the wrong kind, or a constraint the engine refuses (with the
    /// engine's reason).
    pub fn parse(text: &str) -> Result<FlatZincModel, FlatZincError> {
        let statements = parse::statements(text)?;
        let built = build::build(&statements)?;
        Ok(FlatZincModel { built })
    }

    /// The model built.
    pub fn model(&self) -> &Model {
        &self.built.model
    }

    /// What was read with a loss, one line each: unbounded variables clamped, search
    /// annotations mapped to the nearest alldiff has or ignored.
    pub fn warnings(&self) -> &[String] {
        &self.built.warnings
    }

    /// Whether a variable's declared domain was narrowed to fit (an unbounded `var
    /// int`, or bounds beyond 32 bits): its solutions are solutions of the file's
    /// model, but a search that ends proves nothing about the values left out (see
    /// [`RunStatus::Narrowed`]).
    pub fn is_narrowed(&self) -> bool {
        self.built.narrowed
    }

    /// The objective of `solve minimize x` or `solve maximize x`; `None` for `solve
    /// satisfy`.
    pub fn objective(&self) -> Option<Objective> {
        self.built.objective
    }

    /// The variable a FlatZinc name stands for: a declared variable, or one that was
    /// given a constant (then a fixed variable); `None` for an array, a parameter, an
    /// unknown name, or a variable that an `int_lin_eq ... :: defines_var` makes
    /// another plus a constant (a view of that other variable, which has no variable
    /// of its own; its value is printed all the same).
    pub fn var(&self, name: &str) -> Option<VarId> {
        self.built.vars.get(name).copied()
    }

    /// The output lines of a solution, as MiniZinc reads them back: `x = 3;` for each
    /// `output_var`, `q = array1d(1..8, [...]);` or `arrayNd(...)` with the index sets
    /// of each `output_array` annotation, Booleans as `true`/`false`, every line ending
    /// in `\n` (without the `----------` that closes a solution).
    pub fn format_solution(&self, solution: &Solution) -> String {
        output::format(&self.built.outputs, solution)
    }

    /// The search phases: the `int_search`/`bool_search`/`seq_search` annotations in
    /// order, then the objective's variable (smallest value first when minimising,
    /// largest when maximising) unless an annotation covers it. With `free`, none:
    /// alldiff's default search alone. The solver branches on every variable
    /// left after the last phase with its own default search (smallest domain first,
    /// smallest value; see [`alldiff::Solver::set_phases`]), so every solution is
    /// complete.
    pub fn phases(&self, free: bool) -> Vec<Phase> {
        search::phases(&self.built, free, None)
    }

    /// A solver for a run with `options`: over a clone of the model, with the phases
    /// ([`FlatZincModel::phases`], `indomain_random` seeded by `options.seed`) and the
    /// limits set. [`run_on`] runs it; set it up further in between (such as
    /// [`Solver::stream_prunings`] for a trace).
    pub fn solver(&self, options: &RunOptions) -> Solver {
        let built = &self.built;
        let phases = search::phases(built, options.free, options.seed);
        let mut solver = Solver::new(built.model.clone());
        solver
            .set_phases(phases)
            .expect("the phases name the model's own variables");
        solver
            .set_auxiliary(built.auxiliary.iter().copied())
            .expect("the model's own variables");
        solver.set_limits(options.limits.clone());
        solver.check_solutions(options.check_solutions);
        if !options.free {
            solver.set_restarts(built.search.restarts);
        }
        solver
    }

    /// The constraint item of the text that a posted constraint of
    /// [`FlatZincModel::model`] (or of a solver [`FlatZincModel::solver`] made)
    /// comes from: its line and its predicate (`int_lin_eq`, ...). `None` for a
    /// constraint alldiff added itself (such as the bounds of a clamped domain).
    /// Names the constraint a wrong solution violates
    /// ([`StopReason::WrongSolution`](alldiff::StopReason::WrongSolution)).
    pub fn constraint_source(&self, constraint: ConstraintId) -> Option<(usize, &str)> {
        let index = constraint.index();
        let sources = &self.built.sources;
        let at = sources.partition_point(|source| source.posted.end <= index);
        let source = sources.get(at).filter(|s| s.posted.contains(&index))?;
        Some((source.line, source.name.as_str()))
    }

    /// The variables by FlatZinc name (declared variables only, views of others left
    /// out: see [`FlatZincModel::var`]).
    pub fn vars(&self) -> &HashMap<String, VarId> {
        &self.built.vars
    }
}

/// The MiniZinc guide, `docs/minizinc.md`, whose Rust code blocks run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../docs/minizinc.md")]
pub struct MiniZincGuide;
