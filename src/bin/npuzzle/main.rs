/*!
The `npuzzle` binary: parses the command line, runs `solve`, hands the
other commands to their modules and turns the result into an exit code
(decided in `exit.rs`). The binary is the only place `anyhow` is used.
*/

mod cli;
mod databases;
mod exit;
mod progress;
mod scripting;

use anyhow::{Result, anyhow, bail};
use clap::Parser;
use cli::{
    AlgoArg, AlgorithmArgs, Cli, Command, FormatArg, GoalArg, HeuristicArg, LimitArgs, PdbCommand, SolveArgs,
};
use exit::Exit;
use npuzzle::board::{Shape, read_input_with};
use npuzzle::report::{Record, write_json, write_text};
use npuzzle::{Algorithm, Goal, GoalSpec, HeuristicKind, Input, Limits, Prepared, Tables, Tiles, cores};
use progress::SearchStatus;
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Prints one `npuzzle: …` line on standard error. A closed or full stderr
/// loses the line rather than panicking, as `eprintln!` would.
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), "npuzzle: {}", format_args!($($arg)*));
    }};
}
pub(crate) use note;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let exit = match run(cli) {
        Ok(exit) => exit,
        // Nobody reads the rest; the verdict, where there was one, was
        // returned through `verdict_despite_closed_pipe`.
        Err(err) if is_broken_pipe(&err) => Exit::Success,
        Err(err) => {
            note!("{err:#}");
            Exit::Trouble
        }
    };
    exit.into()
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain()
        .any(|cause| cause.downcast_ref::<io::Error>().is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe))
}

/// `verdict`, already reached, when writing the report failed only because
/// standard output was closed (`| head -1`): the reader left, but the answer
/// stands. Any other failure is an error.
fn verdict_despite_closed_pipe(written: Result<()>, verdict: Exit) -> Result<Exit> {
    match written {
        Err(err) if !is_broken_pipe(&err) => Err(err),
        _ => Ok(verdict),
    }
}

fn run(cli: Cli) -> Result<Exit> {
    match cli.command {
        Command::Solve(args) => run_solve(&args),
        Command::Batch(args) => scripting::batch(&args),
        Command::Generate(args) => scripting::generate(&args),
        Command::Check(args) => scripting::check(&args),
        Command::Compare(args) => scripting::compare(&args),
        Command::Completions(args) => scripting::completions(&args),
        Command::Pdb(PdbCommand::Build(args)) => databases::build(&args),
    }
}

fn run_solve(args: &SolveArgs) -> Result<Exit> {
    let (algorithm, heuristic) = strategy(args.algorithm)?;
    refuse_node_limit(algorithm, &args.search.limits)?;
    let start = read_input_with(&Input::from_arg(&args.start), args.size.size)?;
    let goal = goal_for(&args.search.goal, &start, args.size.size, &args.start)?;
    // Tables first: until the search starts, Ctrl-C simply ends the process.
    let tables = if goal.parity(start.cells()).solvable() {
        databases::for_search(algorithm, heuristic, &goal, &args.search.pdb)?
    } else {
        Tables::NONE
    };
    // A search that runs long shows its figures on a terminal, and only there.
    let (monitor, status) = SearchStatus::start(io::stderr().is_terminal(), args.search.limits.max_expanded);
    // Counting the cores reads cgroup files: only a search that uses them asks.
    let threads = args.threads.map_or_else(|| if algorithm.parallel() { cores() } else { 1 }, |n| n as usize);
    let limits = Limits { monitor, threads, ..limits(&args.search.limits, Some(interrupt_flag())) };
    let prepared = Prepared::new(goal.clone(), algorithm, heuristic).shortening(!args.search.no_shorten);
    let outcome = prepared.solve(&start, &limits, &tables);
    status.finish();
    let outcome = outcome?;
    let ended = outcome.status;
    let record = Record::new(algorithm, heuristic, &start, &goal, outcome);
    let written = (|| -> Result<()> {
        let mut out = io::BufWriter::new(io::stdout().lock());
        match args.format {
            FormatArg::Text => write_text(&mut out, &record, args.show_states)?,
            FormatArg::Json => write_json(&mut out, &record)?,
        }
        out.flush()?;
        Ok(())
    })();
    if args.format == FormatArg::Json
        && let Some(reason) = &record.note
    {
        note!("{}: {reason}", record.status);
    }
    if matches!(ended, npuzzle::Status::Limit(_))
        && past_optimal_reach(start.shape())
        && let Some(hint) = finishing_hint(algorithm)
    {
        note!("{hint}");
    }
    verdict_despite_closed_pipe(written, ended.into())
}

/// Whether shortest-path search mostly fails to finish on boards of
/// `shape`: past the 15-puzzle's 16 cells, whatever the shape. Cells, not
/// sides: a 3×5 or 2×8 has no more arrangements than a 4×4, and a 3×6 or
/// 2×9 has 306 times as many.
fn past_optimal_reach(shape: Shape) -> bool {
    shape.cells() > 16
}

/// What to try when a shortest-path search (or a weighted one) stopped at
/// a limit on a board [`past_optimal_reach`]: the options that finish.
fn finishing_hint(algorithm: Algorithm) -> Option<&'static str> {
    match algorithm {
        Algorithm::AStar | Algorithm::IdaStar => Some(
            "hint: boards of more than 16 cells are mostly out of reach of shortest-path search; try --weight \
             3 or 4 (paths at most 3 or 4 times the shortest, in practice far less; up to 7x7), --algo greedy \
             (fast, longer paths) or --algo rows (any size, 100x100 in about 0.6 s; longer still)",
        ),
        Algorithm::WeightedAStar(_) | Algorithm::WeightedIdaStar(_) => Some(
            "hint: a larger --weight searches fewer nodes; --algo greedy and --algo rows (any size, 100x100 \
             in about 0.6 s) finish where weighted search does not",
        ),
        _ => None,
    }
}

/// The goal for `start` (read from `origin`), naming both when their sizes
/// differ.
fn goal_for(arg: &GoalArg, start: &Tiles, size: Option<Shape>, origin: &str) -> Result<Goal> {
    Goal::new(&goal_spec(arg, size)?, start.shape()).map_err(|e| match e {
        npuzzle::board::GoalError::Size { .. } => anyhow!("--goal {}: {e} ({origin})", arg.text),
        other @ npuzzle::board::GoalError::Parse(_) => other.into(),
    })
}

/// `--goal`: a named goal, else a board read like START (with the same
/// `--size`).
fn goal_spec(arg: &GoalArg, size: Option<Shape>) -> Result<GoalSpec> {
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

/// The algorithm and heuristic `--algo` and `--heuristic` name.
/// The algorithm (with its `--weight`) and heuristic asked for.
fn strategy(args: AlgorithmArgs) -> Result<(Algorithm, HeuristicKind)> {
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
fn refuse_node_limit(algorithm: Algorithm, args: &LimitArgs) -> Result<()> {
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
fn limits(args: &LimitArgs, cancel: Option<Arc<AtomicBool>>) -> Limits {
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
fn interrupt_flag() -> Arc<AtomicBool> {
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
