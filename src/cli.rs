/*!
The command line as clap sees it. Nothing here leaves the binary: `main.rs`
turns these raw flags into library values.
*/

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::time::Duration;

/// Exit codes, shown in `--help`.
pub const EXIT_CODES: &str = "\
Exit codes:
  0  solved (or the start already is the goal)
  1  unsolvable: no sequence of moves reaches the goal
  2  bad command line, bad input or I/O error
  3  a limit (--max-nodes, --max-depth, --timeout, Ctrl-C) stopped the search before a verdict";

/// Solve sliding-tile puzzles (8-puzzle, 15-puzzle, any N×N up to 8×8).
#[derive(Debug, Parser)]
#[command(name = "npuzzle", version, about, after_help = EXIT_CODES, propagate_version = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve one puzzle and report the path and the search figures.
    #[command(after_help = EXIT_CODES)]
    Solve(SolveArgs),
}

/// `npuzzle solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The start board: a file, an inline board such as 1,2,5,3,4,0,6,7,8, or - for standard input.
    #[arg(value_name = "START")]
    pub start: String,

    /// The goal: blank-first (0 1 2 …), blank-last (1 2 … 0), snail (clockwise spiral), a file or an inline board.
    #[arg(long, default_value = "blank-first", value_name = "GOAL")]
    pub goal: String,

    /// Search algorithm.
    #[arg(long, value_enum, default_value_t = AlgoArg::Astar)]
    pub algo: AlgoArg,

    /// Heuristic for A* and IDA* (ignored by bfs and dfs).
    #[arg(long, value_enum, default_value_t = HeuristicArg::Manhattan)]
    pub heuristic: HeuristicArg,

    #[command(flatten)]
    pub limits: LimitArgs,

    /// Output format.
    #[arg(long, value_enum, default_value_t = FormatArg::Text)]
    pub format: FormatArg,

    /// Also print every board of the solution, from start to goal (text format).
    #[arg(long)]
    pub show_states: bool,
}

/// Limits shared by every search command.
#[derive(Debug, Args, Clone)]
pub struct LimitArgs {
    /// Stop after storing this many states (default: as many as fit in 3 GiB).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_nodes: Option<u64>,

    /// Do not generate nodes deeper than D moves (makes dfs depth-limited).
    #[arg(long, value_name = "D")]
    pub max_depth: Option<u32>,

    /// Stop the search after this many seconds (fractions allowed).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub timeout: Option<Duration>,
}

/// `--algo` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AlgoArg {
    /// Breadth-first search.
    Bfs,
    /// Depth-first search.
    Dfs,
    /// A* search.
    #[value(alias = "ast")]
    Astar,
    /// Iterative-deepening A* (optimal, memory linear in the depth).
    Idastar,
}

/// `--heuristic` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum HeuristicArg {
    /// Sum of row and column distances.
    Manhattan,
    /// Number of misplaced tiles.
    Hamming,
    /// Sum of straight-line distances.
    Euclidean,
    /// Always 0 (uniform-cost search).
    Zero,
    /// Manhattan plus linear conflicts.
    LinearConflict,
}

/// `--format` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// Labelled lines.
    Text,
    /// One JSON object.
    Json,
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text.parse().map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if !seconds.is_finite() || seconds <= 0.0 {
        return Err(format!("'{text}' must be a positive number of seconds"));
    }
    Duration::try_from_secs_f64(seconds).map_err(|_| format!("'{text}' is too long a timeout"))
}
