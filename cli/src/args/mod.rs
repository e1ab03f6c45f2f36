//! Command-line definitions (clap derive).
//!
//! Every puzzle-consuming subcommand flattens [`PuzzleArgs`] in, so the way
//! puzzles are given (`PUZZLE...`, `--input`, standard input), the output
//! format and the thread count are spelled the same everywhere. Options that
//! belong to one subcommand go in its own `*Args` struct. The parsers of
//! option values (numbers, sizes, durations) are in `values.rs`.

mod minizinc;
#[cfg(test)]
mod tests;
mod trace;
mod values;

use std::ffi::OsString;
use std::num::{NonZeroU64, NonZeroUsize};
use std::path::{Path, PathBuf};
use std::time::Duration;

use alldiff::Limits;
use alldiff::sudoku::{Difficulty, Propagation, SolverOptions, Symmetry};
use clap::{Args, Parser, Subcommand, ValueEnum};

pub(crate) use minizinc::{FznArgs, MinizincArgs, MinizincCommand};
use trace::TRACE_EXIT_HELP;
pub(crate) use trace::{TraceArgs, TraceCommand, TreeFormat};
pub(crate) use values::{default_threads, max_threads, parse_duration};
use values::{parse_limit, parse_side, parse_threads};

/// Shown at the end of `alldiff --help` and of every subcommand's `--help`.
const EXIT_STATUS_HELP: &str = "\
Exit status:
  0  every puzzle succeeded (or there was no puzzle at all)
  1  at least one puzzle failed: unsolvable, not unique, invalid, malformed,
     or stopped by --timeout or --node-limit;
     the other puzzles are still processed and reported
  2  usage error (a number past its bound included: docs/cli.md lists
     every bound), a file that cannot be read, an input line that does not
     end within 64 MiB, or output that cannot be written (standard output
     closed or full, a --trace that fails)
  130  interrupted (Ctrl-C), after writing every finished record that comes
     before the unfinished ones

Output goes to standard output, one record per puzzle, in input order, each
as soon as the records before it are written; diagnostics (and every
`error:` record) go to standard error. Closing the output early
(`alldiff solve ... | head -1`) ends the run quietly.";

/// The output formats; shown in the help of each subcommand that writes records.
const FORMAT_HELP: &str = "\
Formats (--format; docs/cli.md has examples):
  line      one line per puzzle (the default when output is not a terminal)
  compact   grids as N lines of N symbols and an empty line (qqwing's compact)
  grid      grids drawn with box separators (the default on a terminal)
  labelled  `Puzzle:`, `Solution:`, `Grade:`, `Status:` and the rest, labelled
  csv       a header, then one row per puzzle: puzzle,result,status,grade
  json      one object per line, one schema for every subcommand
            (docs/cli-schema.json): `line`, `argument` or `index`; `status`;
            `puzzle`; `time_ms`; `error` when the status is error, `reason`
            when stopped; and the subcommand's results";

/// Where puzzles come from; shown in each puzzle-consuming subcommand's help.
const INPUT_HELP: &str = "\
Input:
  Puzzles are read from the PUZZLE arguments, else from --input FILE, else
  from standard input. In a file or on standard input there is one puzzle
  per line, or a grid over several lines: as many lines as cells in a line
  (4, 9, 16 or 25), with or without separators (`|`, `-`, `+`, spaces) and
  separator lines, as `--format grid` and qqwing print them; a grid cut
  short is an error naming its lines. A line with commas is a CSV row: a
  puzzle, or a puzzle and its solution (`puzzle,solution`, which validate
  checks and the other commands leave aside); a first row of words such as
  `quizzes,solutions` is a header. Empty lines, lines of only white
  space and lines whose first non-blank character is '#' are skipped;
  Windows line endings are accepted. Each PUZZLE argument is one puzzle and
  is never skipped. A line longer than 4 MiB is an `error:` record of its
  own; a line that does not end within 64 MiB (`--input /dev/zero`, a binary
  file) ends the input with status 2.";

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
        long_about = "Solve each puzzle and print its solution, proving it is the only one.\n\n\
                      Output (--format line): one line per puzzle, in input order:\n  \
                      <solution>   the unique solution, every cell on one line\n  \
                      multiple     the puzzle has more than one solution\n  \
                      none         the puzzle has no solution (contradictory clues included)\n  \
                      stopped: <reason>  --timeout or --node-limit ended the search first\n  \
                      error: <reason>    the line is not a puzzle\n\
                      With --first, the first solution found is printed without proving it \
                      unique (so `multiple` is never printed).\n\n\
                      --format grid draws the solved grid with box separators (`multiple` adds \
                      a line saying the grid is one of several solutions; an unsolvable \
                      puzzle prints `No solution exists`). In json, `status` is `unique`, \
                      `multiple`, `none`, `stopped`, `solved` (with --first) or `error`, \
                      with `solution` (null when there is none) and `statistics` (the \
                      search counters).",
        after_long_help = format!("{FORMAT_HELP}\n\n{INPUT_HELP}\n\n{EXIT_STATUS_HELP}")
    )]
    Solve(SolveArgs),

    /// Count the solutions of each puzzle.
    #[command(
        long_about = "Count the solutions of each puzzle, up to --limit.\n\n\
                      Output (--format line): one line per puzzle: its number of solutions; \
                      when the count reached --limit there may be more. A puzzle with no \
                      solution prints 0 and, as in `solve`, counts as a failure (status 1). `stopped: <reason>` when --timeout or --node-limit ended the \
                      count, `error: <reason>` for a line that is not a puzzle.\n\n\
                      --format grid prints the puzzle and `N solutions`. In json, `status` \
                      is `complete`, `limit`, `stopped` or `error`, with `count`, \
                      `complete` (true when every solution was counted) and `statistics`.",
        after_long_help = format!("{FORMAT_HELP}\n\n{INPUT_HELP}\n\n{EXIT_STATUS_HELP}")
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
                      conflict, separated by `; ` (e.g. `row 1 has 8 twice: r1c1, r1c5`). \
                      In json, `status` is `valid`, `invalid` or `error`, with `conflicts` \
                      (and `solution` for a line with a solution).",
        after_long_help = format!("{FORMAT_HELP}\n\n{INPUT_HELP}\n\n{EXIT_STATUS_HELP}")
    )]
    Validate(ValidateArgs),

    /// Generate new puzzles with a unique solution.
    #[command(
        long_about = "Generate new puzzles, each with exactly one solution (except with \
                      --hide-random).\n\n\
                      Output (--format line): one puzzle a line, `.` for a blank; with \
                      --with-solution the line is the puzzle, a space, and its solution. \
                      --format grid draws each puzzle (and its solution) with box \
                      separators; --format compact writes each as 9 lines of 9. In json, \
                      `status` is `generated`, with `index` (from 0), `seed`, `hints`, \
                      `attempts`, `symmetry` (the one drawn for --symmetry random), \
                      `solution` with --with-solution and `difficulty` with \
                      --difficulty.\n\n\
                      The same options and --seed give the same puzzles, whatever --threads \
                      is: puzzle i (from 0) is generated from seed + i. Without --seed a \
                      random seed is chosen; it is printed on standard error when standard \
                      error is a terminal (`alldiff: seed N`), and in every json record. \
                      Every attempt is bounded (its searches together visit at most some \
                      600,000 nodes; a clue whose uniqueness check is past it stays), so \
                      every request ends: a puzzle that cannot be generated within the \
                      attempts (too few --hints for the grids tried, a --difficulty not \
                      met) is reported on standard error and the run ends with status 1; \
                      asking for more clues \
                      than cells or fewer than the proven minimum (17 for 9x9, 4 for 4x4) \
                      is a usage error (status 2).",
        after_long_help = format!("{FORMAT_HELP}\n\n{EXIT_STATUS_HELP}")
    )]
    Generate(GenerateArgs),

    /// Rate how hard each puzzle is.
    #[command(
        long_about = "Rate how hard each puzzle is to solve: the hardest technique a person \
                      needs, trying the simplest first, which is also the weakest \
                      propagation that solves it without guessing. Most puzzles are solved \
                      by singles alone; harder techniques are tried only where the easier \
                      ones are stuck, and only a puzzle they cannot solve is searched.\n\n\
                      Output (--format line): one line per puzzle: `easy` (naked singles), \
                      `medium` (+ hidden singles), `hard` (+ locked candidates), `fiendish` \
                      (+ naked and hidden pairs, triples, ...: full all-different \
                      consistency) or `diabolical` (needs search); \
                      `error: <reason>` for a puzzle with no solution, several solutions, or \
                      a line that is not a puzzle; `stopped: <reason>` when --timeout or \
                      --node-limit ended the search of a diabolical puzzle.\n\n\
                      --format grid prints the puzzle and its grade. In json, `status` is \
                      `rated` (with `difficulty`, and `nodes` and `failures` of the search, \
                      the one `solve` makes, 0 unless diabolical), `none`, `multiple`, \
                      `stopped` or `error`.",
        after_long_help = format!("{FORMAT_HELP}\n\n{INPUT_HELP}\n\n{EXIT_STATUS_HELP}")
    )]
    Rate(RateArgs),

    /// Explain each puzzle's solution step by step.
    #[command(
        long_about = "Explain how to solve each puzzle, step by step: the placements in \
                      solving order, each by the simplest technique that justifies it (naked \
                      single, hidden single), after the eliminations it needs (locked \
                      candidates, naked and hidden pairs, triples, ... named with their \
                      cells), and a guess where every technique is stuck. An elimination is \
                      shown only where a later placement needs it. The hardest technique \
                      used is the grade `alldiff rate` gives. --verbose prints the engine's \
                      full log instead: every elimination of every propagator, and every \
                      guess and backtrack of its search.\n\n\
                      Output: per puzzle, one step a line (e.g. `r4c3 = 6 (hidden single in \
                      box 4)`, `r1c4 <> 8; r1c5 <> 8 (locked candidates: box 1 has 8 only \
                      at r1c1, r1c2, in row 1)`, `r1c3 <> 3, 7 (naked pair 3, 7 at r1c1, \
                      r1c4 in row 1)`, `r5c5 = 3 (guess among 3, 7)`), then `solution \
                      LINE`; or an error (on standard output and standard error) if the \
                      puzzle is malformed or has not exactly one solution; `stopped: \
                      <reason>` when --timeout or --node-limit stopped the search that finds \
                      the solution and proves it unique (and, with --verbose, the search \
                      shown). In json, `status` is `explained` (with `solution`, `guesses` \
                      and `steps`), `none`, `multiple`, `invalid` (with the clash in \
                      `conflicts`), `stopped` (with the `reason`) or `error`.",
        after_long_help = format!("{FORMAT_HELP}\n\n{INPUT_HELP}\n\n{EXIT_STATUS_HELP}")
    )]
    Explain(ExplainArgs),

    /// Read a search trace recorded by `solve --trace`.
    #[command(
        long_about = "Read a search trace recorded by `solve --trace` (JSON Lines, see \
                      docs/trace-format.md): a summary, the search tree, the domains at \
                      one node, or an interactive page to open in a browser.",
        after_long_help = TRACE_EXIT_HELP
    )]
    Trace(TraceArgs),

    /// Solve a FlatZinc model as a MiniZinc solver (`minizinc --solver alldiff`).
    #[command(
        long_about = "Solve a FlatZinc model, speaking MiniZinc's solver protocol: this is \
                      what `minizinc --solver alldiff model.mzn` runs (see `alldiff minizinc \
                      install` and docs/minizinc.md).",
        after_long_help = minizinc::FZN_HELP
    )]
    Fzn(FznArgs),

    /// Set alldiff up as a MiniZinc solver.
    Minizinc(MinizincArgs),
}

impl Command {
    /// False for the one subcommand that can write nothing on standard
    /// output: `trace view`, unless its page goes there (`-o -`).
    pub(crate) fn writes_standard_output(&self) -> bool {
        match self {
            Command::Trace(TraceArgs {
                command: TraceCommand::View { output, .. },
            }) => output.as_deref() == Some(Path::new("-")),
            _ => true,
        }
    }
}

/// Per-puzzle search limits, shared by solve, count, rate and explain.
#[derive(Debug, Clone, Args)]
pub(crate) struct LimitArgs {
    /// Stop the search of each puzzle after DURATION of wall time: a number
    /// and a unit, `ms`, `s`, `m` or `h` (`500ms`, `2s`, `1m`; a bare number
    /// is seconds). A stopped puzzle prints `stopped: time limit reached` and
    /// counts as a failure.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub(crate) timeout: Option<Duration>,

    /// Stop the search of each puzzle after N search nodes. A stopped puzzle
    /// prints `stopped: node limit reached` and counts as a failure.
    #[arg(long, value_name = "N")]
    pub(crate) node_limit: Option<u64>,
}

impl LimitArgs {
    /// The limits to give each puzzle's search.
    pub(crate) fn limits(&self) -> Limits {
        let mut limits = Limits::none();
        if let Some(time) = self.timeout {
            limits = limits.with_time(time);
        }
        if let Some(nodes) = self.node_limit {
            limits = limits.with_nodes(nodes);
        }
        limits
    }
}

/// How each puzzle's search propagates, shared by solve and count.
#[derive(Debug, Clone, Args)]
pub(crate) struct PropagationArgs {
    /// How each search propagates: `root-locked` (singles, and locked candidates
    /// before the first guess) suits every kind of puzzle and is the fastest on hard
    /// collections such as 17-clue puzzles; `singles` (naked and hidden singles) is
    /// the fastest on generated puzzles and on puzzles with many solutions;
    /// `adaptive` (singles, and after 5 failures locked candidates at the root if
    /// they prune there, the search starting again with them) sits between the two;
    /// `locked` (locked candidates at every node) searches the fewest nodes, and can
    /// be the fastest on some very hard puzzles.
    #[arg(long, value_enum, value_name = "RULES", default_value_t = PropagationArg::RootLocked)]
    propagation: PropagationArg,
}

impl PropagationArgs {
    /// The options of each puzzle's solver.
    pub(crate) fn options(&self) -> SolverOptions {
        let propagation = match self.propagation {
            PropagationArg::Adaptive => Propagation::SystemAdaptive,
            PropagationArg::Singles => Propagation::SystemSingles,
            PropagationArg::RootLocked => Propagation::SystemLockedCandidatesAtRoot,
            PropagationArg::Locked => Propagation::SystemLockedCandidates,
        };
        SolverOptions {
            propagation,
            ..SolverOptions::default()
        }
    }
}

/// Options of `alldiff solve`.
#[derive(Debug, Args)]
pub(crate) struct SolveArgs {
    /// Print the first solution found, without proving it is the only one.
    #[arg(long)]
    pub(crate) first: bool,

    /// Record a JSON Lines trace of the search to FILE (read it with `alldiff
    /// trace`). Only the first puzzle of the input is traced (the first that
    /// is a grid); the others are solved as usual. Tracing runs on one
    /// thread. With `--propagation adaptive`, the trace is of the search that
    /// answered: with locked candidates at the root if it escalated.
    #[arg(long, value_name = "FILE")]
    pub(crate) trace: Option<PathBuf>,

    /// With --trace: write at most N event lines (nodes, prunings, failures);
    /// past it the trace says it was cut, and a warning goes to standard
    /// error.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1_000_000,
        requires = "trace"
    )]
    pub(crate) trace_cap: u64,

    /// Propagation.
    #[command(flatten)]
    pub(crate) propagation: PropagationArgs,

    /// Search limits.
    #[command(flatten)]
    pub(crate) limits: LimitArgs,

    /// Technique counts.
    #[command(flatten)]
    pub(crate) stats: StatsArgs,

    /// Puzzles, format and threads.
    #[command(flatten)]
    pub(crate) puzzles: PuzzleArgs,
}

/// Options of `alldiff count`.
#[derive(Debug, Args)]
pub(crate) struct CountArgs {
    /// Stop counting at N solutions (at least 1). A large N is a long count
    /// on a puzzle with many solutions: bound it with --timeout or
    /// --node-limit.
    #[arg(long, value_name = "N", default_value = "2", value_parser = parse_limit)]
    pub(crate) limit: NonZeroU64,

    /// Propagation.
    #[command(flatten)]
    pub(crate) propagation: PropagationArgs,

    /// Search limits.
    #[command(flatten)]
    pub(crate) limits: LimitArgs,

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

/// Options of `alldiff explain`.
#[derive(Debug, Args)]
pub(crate) struct ExplainArgs {
    /// Print the engine's full log instead: every elimination of every
    /// propagator (value eliminations, locked candidates, all-different
    /// matching), and every guess and backtrack of its search.
    #[arg(long)]
    pub(crate) verbose: bool,

    /// Technique counts.
    #[command(flatten)]
    pub(crate) stats: StatsArgs,

    /// Search limits on the search that finds the solution and proves it
    /// unique (and, with --verbose, on the search shown).
    #[command(flatten)]
    pub(crate) limits: LimitArgs,

    /// Puzzles, format and threads.
    #[command(flatten)]
    pub(crate) puzzles: PuzzleArgs,
}

/// Options of `alldiff generate`.
#[derive(Debug, Args)]
pub(crate) struct GenerateArgs {
    /// How many puzzles to generate: at most 1,000,000,000 (more is a usage
    /// error).
    #[arg(
        short = 'n',
        long,
        value_name = "N",
        default_value_t = 1,
        value_parser = clap::value_parser!(u64).range(0..=1_000_000_000)
    )]
    pub(crate) count: u64,

    /// Clues each puzzle keeps [default: 4x4: 6, 9x9: 30, 16x16: 120,
    /// 25x25: 350]: at most the cells and at least the proven minimum (4x4:
    /// 4, 9x9: 17), else a usage error. With --symmetry, clues go in whole orbits, so some counts
    /// are impossible (rotate90 on 9x9 keeps a multiple of 4, or one more):
    /// asking for one is a usage error, and an impossible default is raised
    /// to the next possible count (with a note on standard error).
    #[arg(long, value_name = "N", conflicts_with = "minimal")]
    pub(crate) hints: Option<usize>,

    /// The seed of the first puzzle; puzzle i uses seed + i [default: random].
    #[arg(long, value_name = "N")]
    pub(crate) seed: Option<u64>,

    /// Remove clues (or blank cells, with --hide-random) in symmetric groups, so
    /// the clues keep this symmetry.
    #[arg(long, value_enum, value_name = "SYMMETRY", default_value = "none")]
    pub(crate) symmetry: SymmetryArg,

    /// Remove clues until none more can go without losing uniqueness.
    #[arg(long)]
    pub(crate) minimal: bool,

    /// Keep only puzzles of this grade (see `alldiff rate --help`).
    #[arg(long, value_enum, value_name = "GRADE")]
    pub(crate) difficulty: Option<DifficultyArg>,

    /// The side of the grid: 4, 9, 16 or 25.
    #[arg(long, value_name = "N", value_parser = parse_side, conflicts_with = "box_size")]
    pub(crate) size: Option<usize>,

    /// The side of a box: 2, 3, 4 or 5 (a grid of side N²).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(2..=5))]
    pub(crate) box_size: Option<u8>,

    /// The classic generator: blank N random cells of a random complete grid
    /// without checking anything (with --symmetry, in whole groups of cells, so
    /// the blanks keep it). The puzzle MAY HAVE SEVERAL SOLUTIONS.
    #[arg(
        long,
        value_name = "N",
        conflicts_with_all = ["hints", "minimal", "difficulty"]
    )]
    pub(crate) hide_random: Option<usize>,

    /// Print each puzzle's solution too.
    #[arg(long)]
    pub(crate) with_solution: bool,

    /// Complete grids to try for each puzzle before giving up on --hints or
    /// --difficulty (raise it for rare grades); 1 to 10,000, each attempt
    /// bounded.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 20,
        value_parser = clap::value_parser!(u32).range(1..=10_000)
    )]
    pub(crate) attempts: u32,

    /// Technique counts.
    #[command(flatten)]
    pub(crate) stats: StatsArgs,

    /// Stop the run after DURATION (`500ms`, `2s`, `1m`; a bare number is
    /// seconds): the puzzles generated by then are printed, in order, and the
    /// run ends with status 1 and a note on standard error saying how many
    /// were not generated.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub(crate) timeout: Option<Duration>,

    /// Format and threads (generate consumes no puzzles).
    #[command(flatten)]
    pub(crate) output: OutputArgs,
}

impl GenerateArgs {
    /// The box size asked for (3 by default).
    pub(crate) fn box_size(&self) -> usize {
        match (self.size, self.box_size) {
            (Some(side), _) => side.isqrt(),
            (None, Some(b)) => usize::from(b),
            (None, None) => 3,
        }
    }
}

/// `--propagation` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum PropagationArg {
    /// Singles; locked candidates at the root once a search has failed 5 times,
    /// if they prune there.
    Adaptive,
    /// Naked and hidden singles only.
    Singles,
    /// Singles, and locked candidates at the root (the library's default).
    RootLocked,
    /// Singles and locked candidates at every node.
    Locked,
}

/// `--symmetry` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum SymmetryArg {
    /// Cells are removed one at a time.
    None,
    /// A half turn.
    Rotate180,
    /// Quarter turns.
    Rotate90,
    /// Left-right mirror, across the vertical axis: column c with column N-1-c
    /// (qqwing's `mirror`).
    Mirror,
    /// Top-bottom flip, across the horizontal axis: row r with row N-1-r
    /// (qqwing's `flip`).
    Flip,
    /// The main diagonal: rNcM with rMcN.
    Diagonal,
    /// One of rotate180, rotate90, mirror, flip and diagonal for each puzzle,
    /// drawn from its seed among those that can keep --hints (named in the
    /// json and labelled records).
    Random,
}

impl From<SymmetryArg> for Symmetry {
    fn from(arg: SymmetryArg) -> Symmetry {
        match arg {
            SymmetryArg::None => Symmetry::None,
            SymmetryArg::Rotate180 => Symmetry::Rotate180,
            SymmetryArg::Rotate90 => Symmetry::Rotate90,
            SymmetryArg::Mirror => Symmetry::Mirror,
            SymmetryArg::Flip => Symmetry::Flip,
            SymmetryArg::Diagonal => Symmetry::Diagonal,
            SymmetryArg::Random => Symmetry::Random,
        }
    }
}

/// `--difficulty` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum DifficultyArg {
    /// Naked singles solve it.
    Easy,
    /// Hidden singles are needed.
    Medium,
    /// Locked candidates are needed.
    Hard,
    /// Full all-different consistency is needed.
    Fiendish,
    /// Search is needed.
    Diabolical,
}

impl From<DifficultyArg> for Difficulty {
    fn from(arg: DifficultyArg) -> Difficulty {
        match arg {
            DifficultyArg::Easy => Difficulty::Easy,
            DifficultyArg::Medium => Difficulty::Medium,
            DifficultyArg::Hard => Difficulty::Hard,
            DifficultyArg::Fiendish => Difficulty::Fiendish,
            DifficultyArg::Diabolical => Difficulty::Diabolical,
        }
    }
}

/// Options of `alldiff rate`.
#[derive(Debug, Args)]
pub(crate) struct RateArgs {
    /// Search limits (only diabolical puzzles search).
    #[command(flatten)]
    pub(crate) limits: LimitArgs,

    /// Technique counts.
    #[command(flatten)]
    pub(crate) stats: StatsArgs,

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

    /// Read puzzles from FILE, one per line or as grids over several lines
    /// (`-` means standard input).
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
    /// measurements. More than 4 per core, or more than there are puzzles,
    /// is cut down to that.
    #[arg(short = 'j', long, value_name = "N", value_parser = parse_threads)]
    pub(crate) threads: Option<NonZeroUsize>,

    /// Show the time each puzzle took, in milliseconds (`time_ms=` in line
    /// and compact, `Time:` in grid and labelled, a `time_ms` column in csv;
    /// json always has `time_ms`).
    #[arg(long)]
    pub(crate) timer: bool,
}

/// `--stats`, for the subcommands that can explain a puzzle.
#[derive(Debug, Clone, Args)]
pub(crate) struct StatsArgs {
    /// Count each puzzle's clues (givens) and the techniques that solve it,
    /// as `alldiff explain` finds them: naked and hidden singles, value
    /// eliminations, locked candidates, subsets (pairs, triples, ...), other
    /// propagation, guesses, backtracks and contradictions (`stats` in json;
    /// none for a puzzle without exactly one solution). It costs an
    /// explanation of each puzzle.
    #[arg(long)]
    pub(crate) stats: bool,
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

    /// The number of worker threads: the one asked for, at most
    /// [`max_threads`], else one per core.
    pub(crate) fn threads(&self) -> NonZeroUsize {
        self.threads
            .map_or_else(default_threads, |asked| asked.min(max_threads()))
    }

    /// [`OutputArgs::threads`], and no more than `items` (when at least 1).
    pub(crate) fn threads_for(&self, items: u64) -> NonZeroUsize {
        let items = usize::try_from(items).unwrap_or(usize::MAX);
        NonZeroUsize::new(items).map_or(self.threads(), |items| self.threads().min(items))
    }
}

/// How a result is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, ValueEnum)]
pub(crate) enum Format {
    /// One line per puzzle: the 81-character grid, a number or a word.
    Line,
    /// Grids as N lines of N symbols (9 lines of 9 for 9x9), no separators,
    /// an empty line after each (qqwing's compact form); other records as in
    /// `line`.
    Compact,
    /// A 9x9 grid drawn over several lines, for people.
    Grid,
    /// Labelled, for people: `Puzzle (line N):` and its grid, `Solution:`,
    /// `Grade:` where known, `Status:`, and what else the command found.
    Labelled,
    /// Comma-separated values: a header line, then one row per puzzle:
    /// puzzle, result, status, grade (and time_ms with --timer, a column per
    /// technique with --stats).
    Csv,
    /// One JSON object per line (JSON Lines), for programs; the schema is
    /// docs/cli-schema.json.
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
