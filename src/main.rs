//! `alldiff`: the command line of the alldiff constraint engine.
// Denied, not forbidden: one item may allow it, the record of a closed standard
// output before the runtime starts (`cli::closed_output`).
#![deny(unsafe_code)]
#![warn(unreachable_pub)]

mod cli;

use std::io::{self, Write as _};
use std::process::ExitCode;

use clap::Parser as _;

use cli::{Cli, Command};

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if e.use_stderr() => {
            // A usage error: on standard error, status 2.
            let _ = e.print();
            return ExitCode::from(cli::EXIT_USAGE);
        }
        // Help and version: on standard output, status 0 once written.
        Err(e) => {
            return finish(cli::closed_output::ensure_open().and_then(|()| {
                e.print()?;
                Ok(ExitCode::SUCCESS)
            }));
        }
    };
    init_tracing();
    let result = if cli.command.writes_standard_output() {
        cli::closed_output::ensure_open().and_then(|()| run(cli))
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
