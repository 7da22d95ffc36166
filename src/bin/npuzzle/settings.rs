/*!
Flags into the library's settings: the goal, the algorithm with its weight,
the heuristic, the limits and the Ctrl-C flag. The one place that reads
these flags, so every command resolves them alike.
*/

use crate::cli::{AlgoArg, AlgorithmArgs, GoalArg, HeuristicArg, LimitArgs, RowFormatArg};
use anyhow::{Result, anyhow, bail};
use npuzzle::board::{ParseErrorKind, Patience, Shape, read_input_until};
pub use npuzzle::heuristic::pdb::Deadline;
use npuzzle::report::RowFormat;
use npuzzle::{Algorithm, Goal, GoalSpec, HeuristicKind, Input, Limits, Tiles};
use std::ffi::OsStr;
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The flag Ctrl-C, SIGTERM and SIGHUP set, owned by `signals.rs`: read
/// here with the limits it joins.
pub use crate::signals::interrupt_flag;

/// The time `--timeout` allows ran out before the search began: the command
/// ends with the limit's exit code, saying what it was doing.
#[derive(Debug)]
pub struct OutOfTime {
    /// The timeout.
    pub timeout: Duration,
    /// What was under way, e.g. "waiting for puzzle.txt".
    pub during: String,
}

impl fmt::Display for OutOfTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "timeout of {} s reached while {}", self.timeout.as_secs_f64(), self.during)
    }
}

impl std::error::Error for OutOfTime {}

/// The deadline of `--timeout`, counted from now; `None` without one. The
/// timeout counts from the command's start, so reading the board and
/// loading or building tables count as well as the search.
pub fn deadline(args: &LimitArgs) -> Option<Deadline> {
    args.timeout.map(Deadline::after)
}

/// The error to end with when `deadline` ran out while `during`.
pub fn out_of_time(deadline: Deadline, during: impl Into<String>) -> anyhow::Error {
    OutOfTime { timeout: deadline.timeout, during: during.into() }.into()
}

/// A board named on the command line: a file name need not be UTF-8.
pub fn input_arg(arg: &OsStr) -> Input {
    arg.to_str().map_or_else(|| Input::File(PathBuf::from(arg)), Input::from_arg)
}

/// The board behind `input`, read with `--size`; a FIFO or standard input
/// that never delivers ends with [`OutOfTime`] when `deadline` passes.
pub fn read_board(input: &Input, size: Option<Shape>, deadline: Option<Deadline>) -> Result<Tiles> {
    let patience = Patience { cancel: None, deadline: deadline.map(|d| d.at) };
    read_input_until(input, size, patience).map_err(|e| match (&e.kind, deadline) {
        (ParseErrorKind::TimedOut, Some(deadline)) => {
            out_of_time(deadline, format!("waiting for {}", e.origin))
        }
        _ => e.into(),
    })
}

/// The goal for `start` (read from `origin`), naming both when their sizes
/// differ.
pub fn goal_for(
    arg: &GoalArg,
    start: &Tiles,
    size: Option<Shape>,
    origin: &str,
    deadline: Option<Deadline>,
) -> Result<Goal> {
    Goal::new(&goal_spec(arg, size, deadline)?, start.shape()).map_err(|e| match e {
        npuzzle::board::GoalError::Size { .. } => anyhow!("--goal {}: {e} ({origin})", arg.text),
        other @ npuzzle::board::GoalError::Parse(_) => other.into(),
    })
}

/// `--goal`: a named goal, else a board read like START (with the same
/// `--size`).
pub fn goal_spec(arg: &GoalArg, size: Option<Shape>, deadline: Option<Deadline>) -> Result<GoalSpec> {
    let arg = arg.text.as_str();
    if let Some(spec) = GoalSpec::named(arg) {
        return Ok(spec);
    }
    if !arg.bytes().any(|b| b.is_ascii_digit()) && !std::path::Path::new(arg).exists() && arg != "-" {
        bail!("unknown goal '{arg}': expected blank-first, blank-last, snail, a file or an inline board");
    }
    let tiles = read_board(&Input::from_arg(arg), size, deadline).map_err(|e| {
        match e.downcast::<npuzzle::ParseError>() {
            Ok(mut parse) => {
                parse.origin = format!("goal {}", parse.origin);
                parse.into()
            }
            Err(other) => other,
        }
    })?;
    Ok(GoalSpec::Board(tiles))
}

/// The algorithm (with its `--weight`) and heuristic `--algo`,
/// `--weight` and `--heuristic` ask for.
pub fn strategy(args: AlgorithmArgs) -> Result<Strategy> {
    let algorithm = match args.algo.unwrap_or(AlgoArg::Astar) {
        AlgoArg::Bfs => Algorithm::Bfs,
        AlgoArg::Dfs => Algorithm::Dfs,
        AlgoArg::Astar => Algorithm::AStar,
        AlgoArg::Idastar => Algorithm::IdaStar,
        AlgoArg::Fringe => Algorithm::Fringe,
        AlgoArg::Greedy => Algorithm::Greedy,
        AlgoArg::Rows => Algorithm::Rows,
        AlgoArg::Anytime => Algorithm::Anytime,
    };
    let algorithm = match args.weight {
        Some(weight) => algorithm.weighted(weight).map_err(|e| anyhow!("--weight {weight}: {e}"))?,
        None => algorithm,
    };
    let algorithm = match (args.within, args.algo) {
        (Some(_), Some(AlgoArg::Anytime)) => {
            bail!(
                "--within and --algo anytime are two ways to ask: anytime gives the best answer in its time, --within one proven within its bound"
            )
        }
        (Some(bound), None) => Algorithm::within(bound),
        (Some(bound), Some(_)) => algorithm.bounded(bound).map_err(|e| anyhow!("--within {bound}: {e}"))?,
        (None, _) => algorithm,
    };
    let strongest = args.heuristic.is_none() && (args.within.is_some() || algorithm == Algorithm::Anytime);
    let heuristic = match args.heuristic {
        Some(arg) => heuristic(arg),
        None if strongest => HeuristicKind::LinearConflict,
        None => HeuristicKind::Manhattan,
    };
    Ok(Strategy { algorithm, heuristic, strongest })
}

/// What `--algo`, `--weight`, `--within` and `--heuristic` ask for.
#[derive(Clone, Copy, Debug)]
pub struct Strategy {
    /// The algorithm, weighted or bounded as asked.
    pub algorithm: Algorithm,
    /// The heuristic (linear conflict when the strongest is wanted).
    pub heuristic: HeuristicKind,
    /// Whether the pattern databases replace it where they are built for
    /// the board's size and goal (`--within` and `anytime` without
    /// `--heuristic`).
    pub strongest: bool,
}

fn heuristic(arg: HeuristicArg) -> HeuristicKind {
    match arg {
        HeuristicArg::Manhattan => HeuristicKind::Manhattan,
        HeuristicArg::Hamming => HeuristicKind::Hamming,
        HeuristicArg::Euclidean => HeuristicKind::Euclidean,
        HeuristicArg::Zero => HeuristicKind::Zero,
        HeuristicArg::LinearConflict => HeuristicKind::LinearConflict,
        HeuristicArg::Pdb => HeuristicKind::Pdb,
    }
}

/// `--max-nodes` bounds stored states, and IDA* stores only its path (fringe
/// search a frontier within its own budget), so the limit would never stop
/// it: a user who asked for a bound is told which one does, rather than
/// left with a search that may run for hours.
/// (`compare` and `batch`'s own default node limits are no request of the
/// user's, and IDA* ignores them.)
pub fn refuse_node_limit(algorithm: Algorithm, args: &LimitArgs) -> Result<()> {
    if let Some(n) = args.max_nodes
        && matches!(algorithm, Algorithm::IdaStar | Algorithm::WeightedIdaStar(_) | Algorithm::Fringe)
    {
        let stores = if algorithm == Algorithm::Fringe {
            "a frontier within a budget of its own"
        } else {
            "only its path"
        };
        bail!(
            "--max-nodes {n} cannot stop {algorithm}, which stores {stores}: bound its work with \
             --max-expanded N, or its time with --timeout SECONDS"
        );
    }
    Ok(())
}

/// The limits the flags set, for a search on one thread.
pub fn limits(args: &LimitArgs, cancel: Option<Arc<AtomicBool>>) -> Limits {
    Limits {
        max_nodes: args.max_nodes,
        max_expanded: args.max_expanded,
        max_depth: args.max_depth,
        timeout: args.timeout,
        deadline: None,
        cancel,
        sharing: 1,
        threads: 1,
        split_after: None,
        monitor: None,
        floor: None,
        ceiling: None,
        progress: None,
        spare: None,
    }
}

pub fn row_format(arg: RowFormatArg) -> RowFormat {
    match arg {
        RowFormatArg::Table => RowFormat::Table,
        RowFormatArg::Csv => RowFormat::Csv,
        RowFormatArg::Json => RowFormat::Json,
    }
}
