//! The options of `alldiff fzn` (MiniZinc's solver protocol) and `alldiff
//! minizinc install`.

use std::num::NonZeroU64;
use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::values::parse_parallel;

/// Shown at the end of `alldiff fzn --help`.
pub(crate) const FZN_HELP: &str = "\
Output (MiniZinc's solver protocol):
  each solution's `name = value;` lines, then `----------`
  ==========               the search is complete: every solution was printed,
                           or the last one printed is optimal
  =====UNSATISFIABLE=====  there is no solution
  =====UNKNOWN=====        a limit stopped the search before any solution
An optimisation prints its best solution at the end, or with -a every improving
solution as it is found. With -s the statistics follow as
`%%%mzn-stat: name=value` lines, closed by `%%%mzn-stat-end`.

Exit status:
  0  the search ran (whatever it found)
  1  the model cannot be read: one line `alldiff: FILE: line N: what` on
     standard error
  2  usage error (-p past 4 per core included), a file that cannot be read,
     standard output closed or full, or a trace that cannot be written
  3  with --check-solutions, a solution violates a constraint (an internal
     error of alldiff's, not printed): one line `alldiff: FILE: line N: ...`
     naming the constraint on standard error";

/// Options of `alldiff fzn`: the flags MiniZinc passes to a FlatZinc solver.
#[derive(Debug, Args)]
pub(crate) struct FznArgs {
    /// The FlatZinc model (as `minizinc -c` or MiniZinc's solver call writes it).
    #[arg(value_name = "MODEL.fzn")]
    pub(crate) model: PathBuf,

    /// Print every solution of a satisfaction problem, and every improving
    /// solution of an optimisation as it is found (without -a, an optimisation
    /// prints only its best solution, at the end).
    #[arg(short = 'a', long = "all-solutions")]
    pub(crate) all: bool,

    /// Stop after N solutions (improving solutions, for an optimisation); with
    /// -a too (MiniZinc passes both for `-a -n N`), N wins.
    #[arg(short = 'n', long = "num-solutions", value_name = "N")]
    pub(crate) solutions: Option<NonZeroU64>,

    /// Free search: ignore the model's search annotations and use alldiff's
    /// own (smallest domain first, smallest value).
    #[arg(short = 'f', long = "free-search")]
    pub(crate) free: bool,

    /// Print statistics (`%%%mzn-stat: ...` lines) at the end.
    #[arg(short = 's', long = "statistics")]
    pub(crate) statistics: bool,

    /// Stop after MS milliseconds of wall time, reading the model included.
    #[arg(short = 't', long = "time-limit", value_name = "MS")]
    pub(crate) time_limit: Option<u64>,

    /// Search on N threads (0: one per core; at most 4 per core, else a usage
    /// error). Parallel search finds one solution, or an optimum; with -a, -n
    /// or --trace the search runs on one thread (a note on standard error says
    /// so).
    #[arg(
        short = 'p',
        long = "parallel",
        value_name = "N",
        default_value_t = 1,
        value_parser = parse_parallel
    )]
    pub(crate) threads: usize,

    /// The seed of `indomain_random` [default: 0].
    #[arg(short = 'r', long = "random-seed", value_name = "SEED")]
    pub(crate) seed: Option<u64>,

    /// Record a JSON Lines trace of the search to FILE (read it with `alldiff
    /// trace`); the variables keep their FlatZinc names.
    #[arg(long, value_name = "FILE")]
    pub(crate) trace: Option<PathBuf>,

    /// Check every solution against every constraint before printing it; a
    /// solution that violates one (an internal error) is not printed, the search
    /// stops, and the run exits with status 3.
    #[arg(long)]
    pub(crate) check_solutions: bool,

    /// With --trace: write at most N event lines (nodes, prunings, failures).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1_000_000,
        requires = "trace"
    )]
    pub(crate) trace_cap: u64,
}

/// Options of `alldiff minizinc`.
#[derive(Debug, Args)]
pub(crate) struct MinizincArgs {
    /// What to do.
    #[command(subcommand)]
    pub(crate) command: MinizincCommand,
}

/// The `alldiff minizinc` subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum MinizincCommand {
    /// Make alldiff a MiniZinc solver: write its solver configuration, its
    /// library of native constraints and a launcher into a folder.
    #[command(long_about = "Make alldiff a MiniZinc solver. Writes into DIR:\n  \
                      alldiff.msc   the solver configuration (id org.alldiff.alldiff)\n  \
                      alldiff/      the MiniZinc library of alldiff's native constraints\n  \
                      alldiff-fzn   a launcher that runs this alldiff binary's `fzn`\n\n\
                      Then `minizinc --solver alldiff model.mzn` uses alldiff (with \
                      `MZN_SOLVER_PATH=DIR` when DIR is not ~/.minizinc/solvers). The \
                      configuration names this binary by its absolute path: install again \
                      after moving it.\n\n\
                      It replaces only what it installed: a configuration with its id, its \
                      launcher, and the library files it lists in alldiff/.alldiff-install \
                      (files an earlier installation listed and this one has not are \
                      removed). Anything else in their place, or in alldiff/, is refused \
                      (status 2, naming the files) unless --force; even then no file it \
                      did not write is removed.")]
    Install {
        /// Where to install [default: ~/.minizinc/solvers, where MiniZinc looks].
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
        /// Overwrite an alldiff.msc or alldiff-fzn that this command did not
        /// write, and install beside other files in alldiff/ (which stay, and
        /// which MiniZinc then reads as part of the library).
        #[arg(long)]
        force: bool,
    },
}
