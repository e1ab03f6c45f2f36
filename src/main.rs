//! `alldiff`: the command line of the alldiff constraint engine.
#![forbid(unsafe_code)]
#![warn(unreachable_pub)]

mod cli;

use std::io::{self, Write as _};
use std::process::ExitCode;

use clap::Parser as _;

use cli::{Cli, Command};

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to stdout with status 0, usage errors to
            // stderr with status 2; a closed pipe is ignored either way.
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(cli::EXIT_USAGE)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    init_tracing();
    match run(cli) {
        Ok(code) => code,
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(io::stderr(), "alldiff: error: {e:#}");
            ExitCode::from(cli::EXIT_USAGE)
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
        Command::Solve(args) => cli::commands::solve(args),
        Command::Count(args) => cli::commands::count(args),
        Command::Validate(args) => cli::commands::validate(args),
        Command::Generate(args) => cli::commands::generate(args),
        Command::Rate(args) => cli::commands::rate(args),
        Command::Explain(args) => cli::commands::explain(args),
        Command::Trace(args) => cli::commands::trace(args),
        Command::Fzn(args) => cli::commands::fzn(args),
        Command::Minizinc(args) => cli::commands::minizinc(args),
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
