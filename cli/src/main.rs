//! `alldiff`: the command line of the alldiff constraint engine.
//!
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
//! this crate; [`record`] (one puzzle's result, written in any format) uses both;
//! [`report`] (one item's [`ItemReport`], a run's `Summary` and exit status)
//! uses those; [`progress`] draws progress bars on a terminal; [`batch`] runs
//! the work on the items in parallel and writes the reports in order, each as
//! soon as those before it are; [`output_file`] keeps a file a subcommand
//! writes off the files it reads; [`closed_output`] knows whether standard
//! output was closed at the start; [`commands`] uses them all.
// Denied, not forbidden: one item may allow it, the record of a closed standard
// output before the runtime starts (`closed_output`).
#![deny(unsafe_code)]
#![warn(unreachable_pub)]

mod args;
mod batch;
mod closed_output;
mod commands;
mod input;
mod output_file;
mod progress;
mod record;
mod report;

use args::{Cli, Command, CountArgs, GenerateArgs, RateArgs, SolveArgs, ValidateArgs};
use batch::run_batch;
use input::Item;
use report::{EXIT_USAGE, ItemReport};

use std::io::{self, Write as _};
use std::process::ExitCode;

use clap::Parser as _;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if e.use_stderr() => {
            // A usage error: on standard error, status 2.
            let _ = e.print();
            return ExitCode::from(EXIT_USAGE);
        }
        // Help and version: on standard output, status 0 once written.
        Err(e) => {
            return finish(closed_output::ensure_open().and_then(|()| {
                e.print()?;
                Ok(ExitCode::SUCCESS)
            }));
        }
    };
    init_tracing();
    let result = if cli.command.writes_standard_output() {
        closed_output::ensure_open().and_then(|()| run(cli))
    } else {
        run(cli)
    };
    finish(result)
}

/// The exit status of a run: its own, or for an error (reported on standard
/// error) status 2, except that a closed output pipe ends the run quietly.
fn finish(result: anyhow::Result<ExitCode>) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(io::stderr(), "alldiff: error: {e:#}");
            ExitCode::from(EXIT_USAGE)
        }
    }
}

/// Shows the library's `tracing` events on standard error when `RUST_LOG` asks for
/// them (e.g. `RUST_LOG=alldiff::search=trace`); without it nothing is installed, so
/// the instrumentation costs nothing.
fn init_tracing() {
    if std::env::var_os("RUST_LOG").is_some() {
        let _ = tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
            .with_writer(io::stderr)
            .with_ansi(io::IsTerminal::is_terminal(&io::stderr()))
            .try_init();
    }
}

/// Runs the parsed command line. Failed items give status 1 through the
/// returned code; an `Err` (a usage or I/O error) gives status 2.
fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Solve(args) => commands::solve(args),
        Command::Count(args) => commands::count(args),
        Command::Validate(args) => commands::validate(args),
        Command::Generate(args) => commands::generate(args),
        Command::Rate(args) => commands::rate(args),
        Command::Explain(args) => commands::explain(args),
        Command::Trace(args) => commands::trace(args),
        Command::Fzn(args) => commands::fzn(args),
        Command::Minizinc(args) => commands::minizinc(args),
    }
}

/// True if the error is, at bottom, a closed output pipe.
fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}
