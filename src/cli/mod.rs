//! The command-line front end: argument definitions and the batch layer that
//! every puzzle-consuming subcommand runs its per-puzzle work through.
//!
//! A subcommand body is typically:
//!
//! ```text
//! fn solve(args: SolveArgs) -> anyhow::Result<ExitCode> {
//!     run_batch(&args.puzzles, Solver::new, |solver, item, format| match item.text() {
//!         Err(e) => Outcome::error(format, item, e),
//!         Ok(text) => /* parse, solve, and write in `format` */,
//!     })
//! }
//! ```
//!
//! [`input`] turns arguments, a file or standard input into numbered items;
//! [`batch`] runs the work on them in parallel and writes the results in
//! order; [`args`] holds the clap definitions.

pub(crate) mod args;
pub(crate) mod batch;
pub(crate) mod commands;
pub(crate) mod input;

pub(crate) use args::Format;
pub(crate) use args::{Cli, Command, CountArgs, GenerateArgs, RateArgs, SolveArgs, ValidateArgs};
pub(crate) use batch::EXIT_USAGE;
pub(crate) use batch::{Outcome, run_batch};
pub(crate) use input::Item;
