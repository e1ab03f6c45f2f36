//! Command-line definitions (clap derive).
//!
//! Every puzzle-consuming subcommand flattens [`PuzzleArgs`] in, so the way
//! puzzles are given (`PUZZLE...`, `--input`, standard input), the output
//! format and the thread count are spelled the same everywhere. Options that
//! belong to one subcommand go in its own `*Args` struct.

use std::ffi::OsString;
use std::num::NonZeroUsize;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Shown at the end of `alldiff --help` and of every subcommand's `--help`.
const EXIT_STATUS_HELP: &str = "\
Exit status:
  0  every puzzle succeeded (or there was no puzzle at all)
  1  at least one puzzle failed: unsolvable, not unique, invalid or malformed;
     the other puzzles are still processed and reported
  2  usage error, or a file that cannot be read

Output goes to standard output, one record per puzzle, in input order;
diagnostics go to standard error. Closing the output early
(`alldiff solve ... | head -1`) ends the run quietly.";

/// Where puzzles come from; shown in each puzzle-consuming subcommand's help.
const INPUT_HELP: &str = "\
Input:
  Puzzles are read from the PUZZLE arguments, else from --input FILE, else
  from standard input. In a file or on standard input there is one puzzle
  per line; empty lines, lines of only white space and lines whose first
  non-blank character is '#' are skipped; Windows line endings are accepted.
  Each PUZZLE argument is one puzzle and is never skipped.";

/// A constraint-satisfaction engine with a Sudoku toolkit.
#[derive(Debug, Parser)]
#[command(
    name = "alldiff",
    version,
    about = "Solve, count, check, generate and rate Sudoku puzzles with a constraint engine",
    long_about = "Solve, count, check, generate and rate Sudoku puzzles with a constraint engine.\n\n\
                  Batches of puzzles are processed on every core, and results come out in \
                  input order, one record per puzzle, as they are finished.",
    after_long_help = EXIT_STATUS_HELP,
    propagate_version = true,
    subcommand_required = true,
    arg_required_else_help = true
)]
pub(crate) struct Cli {
    /// The subcommand to run.
    #[command(subcommand)]
    pub(crate) command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Solve each puzzle and print its solution.
    #[command(
        long_about = "Solve each puzzle and print its solution.\n\n\
                      Output: one record per puzzle: the solved grid, or an error saying why \
                      there is none (malformed, unsolvable, or more than one solution).",
        after_long_help = format!("{INPUT_HELP}\n\n{EXIT_STATUS_HELP}")
    )]
    Solve(SolveArgs),

    /// Count the solutions of each puzzle.
    #[command(
        long_about = "Count the solutions of each puzzle.\n\n\
                      Output: one record per puzzle: its number of solutions, or an error \
                      if the puzzle is malformed.",
        after_long_help = format!("{INPUT_HELP}\n\n{EXIT_STATUS_HELP}")
    )]
    Count(CountArgs),

    /// Check each grid for repeated digits, or each solution against its puzzle.
    #[command(
        long_about = "Check each grid for repeated digits in its rows, columns and boxes. \
                      The grid is not solved: a partly filled grid is valid when its clues \
                      agree. A line holding a puzzle and a solution separated by white space \
                      (as `generate --with-solution` prints them) checks that the solution is \
                      complete, breaks no rule and keeps every clue.\n\n\
                      Output: one record per line: `valid`, or `invalid: ` followed by every \
                      conflict, separated by `; ` (e.g. `row 1 has 8 twice: r1c1, r1c5`).",
        after_long_help = format!("{INPUT_HELP}\n\n{EXIT_STATUS_HELP}")
    )]
    Validate(ValidateArgs),

    /// Generate new puzzles with a unique solution.
    #[command(
        long_about = "Generate new puzzles, each with exactly one solution.\n\n\
                      Output: one record per generated puzzle.",
        after_long_help = EXIT_STATUS_HELP
    )]
    Generate(GenerateArgs),

    /// Rate how hard each puzzle is.
    #[command(
        long_about = "Rate how hard each puzzle is to solve.\n\n\
                      Output: one record per puzzle: its rating, or an error if it is \
                      malformed or has no unique solution.",
        after_long_help = format!("{INPUT_HELP}\n\n{EXIT_STATUS_HELP}")
    )]
    Rate(RateArgs),
}

/// Options of `alldiff solve`.
#[derive(Debug, Args)]
pub(crate) struct SolveArgs {
    /// Puzzles, format and threads.
    #[command(flatten)]
    pub(crate) puzzles: PuzzleArgs,
}

/// Options of `alldiff count`.
#[derive(Debug, Args)]
pub(crate) struct CountArgs {
    /// Puzzles, format and threads.
    #[command(flatten)]
    pub(crate) puzzles: PuzzleArgs,
}

/// Options of `alldiff validate`.
#[derive(Debug, Args)]
pub(crate) struct ValidateArgs {
    /// Puzzles, format and threads.
    #[command(flatten)]
    pub(crate) puzzles: PuzzleArgs,
}

/// Options of `alldiff generate`.
#[derive(Debug, Args)]
pub(crate) struct GenerateArgs {
    /// Format and threads (generate consumes no puzzles).
    #[command(flatten)]
    pub(crate) output: OutputArgs,
}

/// Options of `alldiff rate`.
#[derive(Debug, Args)]
pub(crate) struct RateArgs {
    /// Puzzles, format and threads.
    #[command(flatten)]
    pub(crate) puzzles: PuzzleArgs,
}

/// Where puzzles come from, plus [`OutputArgs`]; flattened into every
/// puzzle-consuming subcommand.
#[derive(Debug, Clone, Args)]
pub(crate) struct PuzzleArgs {
    /// Puzzles to process, one per argument, each a whole grid on one line:
    /// 81 symbols for a 9x9 grid (16, 256 or 625 for the other sizes), digits
    /// `1`-`9` then letters `A`-`P`, and `.`, `0`, `_` or `*` for an empty
    /// cell; white space and `|`, `-`, `+` are ignored. Without PUZZLE
    /// arguments, puzzles are read from --input or standard input.
    #[arg(value_name = "PUZZLE")]
    pub(crate) puzzles: Vec<OsString>,

    /// Read puzzles from FILE, one per line (`-` means standard input).
    #[arg(short, long, value_name = "FILE", conflicts_with = "puzzles")]
    pub(crate) input: Option<PathBuf>,

    /// Output format and thread count.
    #[command(flatten)]
    pub(crate) output: OutputArgs,
}

/// How results are written and how many threads compute them.
#[derive(Debug, Clone, Args)]
pub(crate) struct OutputArgs {
    /// How each result is written [default: `grid` when standard output is a
    /// terminal, `line` otherwise].
    #[arg(short, long, value_enum, value_name = "FORMAT")]
    pub(crate) format: Option<Format>,

    /// Number of worker threads [default: one per core]. Use 1 for timing
    /// measurements.
    #[arg(short = 'j', long, value_name = "N", value_parser = parse_threads)]
    pub(crate) threads: Option<NonZeroUsize>,
}

impl OutputArgs {
    /// The format to use: the one asked for, else `grid` on a terminal and
    /// `line` otherwise.
    pub(crate) fn format(&self) -> Format {
        Format::resolve(
            self.format,
            std::io::IsTerminal::is_terminal(&std::io::stdout()),
        )
    }

    /// The number of worker threads: the one asked for, else one per core.
    pub(crate) fn threads(&self) -> NonZeroUsize {
        self.threads.unwrap_or_else(default_threads)
    }
}

/// How a result is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, ValueEnum)]
pub(crate) enum Format {
    /// One line per puzzle: the 81-character grid, a number or a word.
    Line,
    /// A 9x9 grid drawn over several lines, for people.
    Grid,
    /// One JSON object per line (JSON Lines), for programs.
    Json,
}

impl Format {
    /// The explicit choice if there is one; otherwise `grid` for a terminal
    /// and `line` for a pipe or file.
    pub(crate) fn resolve(explicit: Option<Format>, stdout_is_terminal: bool) -> Format {
        match explicit {
            Some(format) => format,
            None if stdout_is_terminal => Format::Grid,
            None => Format::Line,
        }
    }
}

/// One worker per available core, or 1 if that cannot be known.
pub(crate) fn default_threads() -> NonZeroUsize {
    std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN)
}

/// Parses `--threads`: a whole number of at least 1.
fn parse_threads(text: &str) -> Result<NonZeroUsize, String> {
    match text.trim().parse::<usize>() {
        Ok(0) => Err("must be at least 1 (leave --threads out to use every core)".to_owned()),
        Ok(n) => NonZeroUsize::new(n).ok_or_else(|| "must be at least 1".to_owned()),
        Err(_) => Err(format!("`{text}` is not a whole number of threads")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;
    use clap::error::ErrorKind;

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("alldiff").chain(args.iter().copied()))
    }

    fn puzzle_args(cli: Cli) -> PuzzleArgs {
        match cli.command {
            Command::Solve(a) => a.puzzles,
            Command::Count(a) => a.puzzles,
            Command::Validate(a) => a.puzzles,
            Command::Rate(a) => a.puzzles,
            Command::Generate(_) => panic!("generate has no puzzle arguments"),
        }
    }

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn every_puzzle_subcommand_takes_the_shared_group() {
        for sub in ["solve", "count", "validate", "rate"] {
            let cli = parse(&[sub, "--format", "json", "--threads", "3", "p1", "p2"]).unwrap();
            let args = puzzle_args(cli);
            assert_eq!(
                args.puzzles,
                vec![OsString::from("p1"), OsString::from("p2")]
            );
            assert_eq!(args.input, None);
            assert_eq!(args.output.format, Some(Format::Json));
            assert_eq!(args.output.threads, NonZeroUsize::new(3));
        }
        let cli = parse(&["generate", "-f", "line", "-j", "1"]).unwrap();
        let Command::Generate(g) = cli.command else {
            panic!("expected generate")
        };
        assert_eq!(g.output.format, Some(Format::Line));
        assert_eq!(g.output.threads(), NonZeroUsize::MIN);
    }

    #[test]
    fn input_file_and_positional_puzzles_conflict() {
        let err = parse(&["solve", "--input", "f.txt", "p1"]).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::ArgumentConflict);
        let args = puzzle_args(parse(&["solve", "-i", "f.txt"]).unwrap());
        assert_eq!(args.input, Some(PathBuf::from("f.txt")));
        assert!(args.puzzles.is_empty());
    }

    #[test]
    fn zero_or_garbage_threads_is_a_usage_error() {
        for bad in ["0", "-1", "two", ""] {
            let flag = format!("--threads={bad}");
            let err = parse(&["solve", &flag]).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::ValueValidation, "--threads {bad:?}");
            assert_eq!(err.exit_code(), 2);
        }
        let err = parse(&["solve", "--threads", "0"]).unwrap_err();
        assert!(err.to_string().contains("at least 1"), "{err}");
    }

    #[test]
    fn unknown_format_is_a_usage_error() {
        let err = parse(&["count", "--format", "xml"]).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidValue);
    }

    #[test]
    fn a_subcommand_is_required() {
        assert!(parse(&[]).is_err());
    }

    #[test]
    fn format_defaults_to_grid_on_a_terminal_and_line_elsewhere() {
        assert_eq!(Format::resolve(None, true), Format::Grid);
        assert_eq!(Format::resolve(None, false), Format::Line);
        for f in [Format::Line, Format::Grid, Format::Json] {
            assert_eq!(Format::resolve(Some(f), true), f);
            assert_eq!(Format::resolve(Some(f), false), f);
        }
    }

    #[test]
    fn threads_default_to_every_core() {
        let args = puzzle_args(parse(&["solve"]).unwrap());
        assert_eq!(args.output.threads(), default_threads());
    }

    #[test]
    fn help_mentions_exit_status_and_input_rules() {
        let mut cmd = Cli::command();
        let solve = cmd.find_subcommand_mut("solve").unwrap();
        let help = solve.render_long_help().to_string();
        assert!(help.contains("Exit status"), "{help}");
        assert!(help.contains("'#'"), "{help}");
        assert!(help.contains("--threads"), "{help}");
    }
}
