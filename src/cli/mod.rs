//! The command-line front end: argument definitions and the batch layer that
//! every puzzle-consuming subcommand runs its per-puzzle work through.
//!
//! A subcommand body is typically:
//!
//! ```text
//! fn solve(args: SolveArgs) -> anyhow::Result<ExitCode> {
//!     run_batch(&args.puzzles, Solver::new, |solver, item, format| match item.text() {
//!         Err(e) => ItemReport::error(format, item, e),
//!         Ok(text) => /* parse, solve, and write in `format` */,
//!     })
//! }
//! ```
//!
//! Dependencies point one way: [`args`] (the clap definitions) and [`input`]
//! (arguments, a file or standard input as numbered items) use nothing else in
//! `cli`; [`record`] (one puzzle's result, written in any format) uses both;
//! [`report`] (one item's [`ItemReport`], a run's `Summary` and exit status)
//! uses those; [`progress`] draws progress bars on a terminal; [`batch`] runs
//! the work on the items in parallel and writes the reports in order, each as
//! soon as those before it are; [`output_file`] keeps a file a subcommand
//! writes off the files it reads; [`closed_output`] knows whether standard
//! output was closed at the start; [`commands`] uses them all.

pub(crate) mod args;
pub(crate) mod batch;
pub(crate) mod closed_output;
pub(crate) mod commands;
pub(crate) mod input;
pub(crate) mod output_file;
pub(crate) mod progress;
pub(crate) mod record;
pub(crate) mod report;

pub(crate) use args::{Cli, Command, CountArgs, GenerateArgs, RateArgs, SolveArgs, ValidateArgs};
pub(crate) use batch::run_batch;
pub(crate) use input::Item;
pub(crate) use report::{EXIT_USAGE, ItemReport};
