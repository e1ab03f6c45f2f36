//! The options of `alldiff trace` and its subcommands.

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};

/// Exit statuses of `alldiff trace`.
pub(super) const TRACE_EXIT_HELP: &str = "\
Exit status:
  0  done
  1  (summary) the trace is incomplete: cut by its event cap, or it stops
     before its final statistics record; what it holds is printed, marked so
  2  usage error, a trace that cannot be read or is not valid, a node that is
     not in the trace, or (svg) no `dot` program";

/// Options of `alldiff trace`.
#[derive(Debug, Args)]
pub(crate) struct TraceArgs {
    /// What to show.
    #[command(subcommand)]
    pub(crate) command: TraceCommand,
}

/// The `alldiff trace` subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum TraceCommand {
    /// Summarise a trace: nodes, failures, solutions, depth profile, busiest
    /// constraints, statistics.
    #[command(after_long_help = TRACE_EXIT_HELP)]
    Summary {
        /// The trace file.
        #[arg(value_name = "FILE")]
        file: PathBuf,
    },
    /// Draw the search tree as Graphviz DOT (or SVG through `dot -Tsvg`).
    #[command(
        long_about = "Draw the search tree: Graphviz DOT text on standard output, or SVG \
                      with --format svg (this runs the `dot` program of Graphviz, which must \
                      be installed). Solutions are green double circles, failures red boxes; \
                      each subtree whose every leaf failed is one grey box with its size.",
        after_long_help = TRACE_EXIT_HELP
    )]
    Tree {
        /// The trace file.
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// Draw at most N boxes, the top of the tree (breadth-first); a dashed box
        /// under a node counts the nodes cut below it, and one note counts them all.
        #[arg(long, value_name = "N", default_value_t = 500)]
        max_nodes: usize,
        /// Draw every node, even inside failed subtrees.
        #[arg(long)]
        no_collapse: bool,
        /// `dot` (text) or `svg` (needs the `dot` program).
        #[arg(long, value_enum, default_value = "dot")]
        format: TreeFormat,
    },
    /// Print the domain of every variable at one node of the trace.
    #[command(
        long_about = "Print the domain of every variable at node N, after its propagation \
                      (node 0 is the root). For a Sudoku trace (variables r1c1, r1c2, ...) \
                      the domains are drawn as a candidate grid: each cell lists its \
                      remaining candidates, aligned, with box separators, and `!` marks a \
                      cell with none left (the node failed). Otherwise one line per \
                      variable: `name: v1 v2 ...`.",
        after_long_help = TRACE_EXIT_HELP
    )]
    Replay {
        /// The trace file.
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// The node id.
        #[arg(long, value_name = "N")]
        node: u64,
    },
    /// Write the search tree as one interactive HTML page to open in a browser.
    #[command(
        long_about = "Write one self-contained HTML page (script, style and data inline; it \
                      loads nothing from the network) showing the search tree: failed \
                      subtrees folded into counted triangles that unfold on a click, \
                      solutions marked, zoom, pan and fit; for a clicked node its decisions, \
                      domains (a candidate grid for a Sudoku trace), failing constraint and \
                      subtree counts; the search's statistics, nodes per depth and busiest \
                      constraints and rules; next/previous solution, go to node, search a \
                      variable. Open it with `#node=N` after its address to select node N.",
        after_long_help = TRACE_EXIT_HELP
    )]
    View {
        /// The trace file.
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// Where to write the page; `-` for standard output. Default: FILE with the
        /// extension `.html`.
        #[arg(short, long, value_name = "OUT")]
        output: Option<PathBuf>,
        /// Put at most N nodes (the first, in search order) into the page; it says
        /// how many it leaves out.
        #[arg(long, value_name = "N", default_value_t = 200_000)]
        max_nodes: usize,
    },
}

/// `trace tree --format` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum TreeFormat {
    /// Graphviz DOT text.
    Dot,
    /// SVG drawn by `dot -Tsvg`.
    Svg,
}
