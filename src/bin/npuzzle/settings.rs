/*!
Flags into the library's settings: the goal, the algorithm with its weight,
the heuristic, the limits and the Ctrl-C flag. The one place that reads
these flags, so every command resolves them alike.
*/

use crate::cli::{AlgoArg, AlgorithmArgs, GoalArg, HeuristicArg, LimitArgs, RowFormatArg};
use crate::exit::Exit;
use anyhow::{Result, anyhow, bail};
use npuzzle::board::{Shape, read_input_with};
use npuzzle::report::RowFormat;
use npuzzle::{Algorithm, Goal, GoalSpec, HeuristicKind, Input, Limits, Tiles};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The goal for `start` (read from `origin`), naming both when their sizes
/// differ.
pub fn goal_for(arg: &GoalArg, start: &Tiles, size: Option<Shape>, origin: &str) -> Result<Goal> {
    Goal::new(&goal_spec(arg, size)?, start.shape()).map_err(|e| match e {
        npuzzle::board::GoalError::Size { .. } => anyhow!("--goal {}: {e} ({origin})", arg.text),
        other @ npuzzle::board::GoalError::Parse(_) => other.into(),
    })
}

/// `--goal`: a named goal, else a board read like START (with the same
/// `--size`).
pub fn goal_spec(arg: &GoalArg, size: Option<Shape>) -> Result<GoalSpec> {
    let arg = arg.text.as_str();
    if let Some(spec) = GoalSpec::named(arg) {
        return Ok(spec);
    }
    if !arg.bytes().any(|b| b.is_ascii_digit()) && !std::path::Path::new(arg).exists() && arg != "-" {
        bail!("unknown goal '{arg}': expected blank-first, blank-last, snail, a file or an inline board");
    }
    let tiles = read_input_with(&Input::from_arg(arg), size).map_err(|mut e| {
        e.origin = format!("goal {}", e.origin);
        e
    })?;
    Ok(GoalSpec::Board(tiles))
}

/// The algorithm (with its `--weight`) and heuristic `--algo`,
/// `--weight` and `--heuristic` ask for.
pub fn strategy(args: AlgorithmArgs) -> Result<(Algorithm, HeuristicKind)> {
    let algorithm = match args.algo {
        AlgoArg::Bfs => Algorithm::Bfs,
        AlgoArg::Dfs => Algorithm::Dfs,
        AlgoArg::Astar => Algorithm::AStar,
        AlgoArg::Idastar => Algorithm::IdaStar,
        AlgoArg::Greedy => Algorithm::Greedy,
        AlgoArg::Rows => Algorithm::Rows,
    };
    let algorithm = match args.weight {
        Some(weight) => algorithm.weighted(weight).map_err(|e| anyhow!("--weight {weight}: {e}"))?,
        None => algorithm,
    };
    Ok((algorithm, heuristic(args.heuristic)))
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

/// `--max-nodes` bounds stored states, and IDA* stores only its path, so
/// the limit would never stop it: a user who asked for a bound is told
/// which one does, rather than left with a search that may run for hours.
/// (`compare` and `batch`'s own default node limits are no request of the
/// user's, and IDA* ignores them.)
pub fn refuse_node_limit(algorithm: Algorithm, args: &LimitArgs) -> Result<()> {
    if let Some(n) = args.max_nodes
        && matches!(algorithm, Algorithm::IdaStar | Algorithm::WeightedIdaStar(_))
    {
        bail!(
            "--max-nodes {n} cannot stop idastar, which stores only its path: bound its work with \
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
        cancel,
        sharing: 1,
        threads: 1,
        split_after: None,
        monitor: None,
    }
}

/// A flag set by the first Ctrl-C, so a search stops and still reports; a
/// second Ctrl-C exits at once.
pub fn interrupt_flag() -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    let seen = Arc::clone(&flag);
    // Failing to install the handler only loses the graceful stop.
    let _ = ctrlc::set_handler(move || {
        if seen.swap(true, Ordering::Relaxed) {
            Exit::Interrupted.now();
        }
    });
    flag
}

pub fn row_format(arg: RowFormatArg) -> RowFormat {
    match arg {
        RowFormatArg::Table => RowFormat::Table,
        RowFormatArg::Csv => RowFormat::Csv,
        RowFormatArg::Json => RowFormat::Json,
    }
}
