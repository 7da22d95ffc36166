//! How good a set of partitions is, measured: the mean value over uniformly
//! random solvable boards, then IDA* on chosen instances (expansions and
//! search time), for any kind of table and any list of the built-in
//! partitions, whether or not a named set offers them
//! (`benches/korf24.sh sets`).
//!
//! `cargo run --release --example pdb_sets -- KIND PARTITIONS PDB_DIR [options] [INSTANCE...]`
//!
//! - `KIND`: `minimised`, `zero` (zero-aware, a byte an entry) or `zero-bits`;
//! - `PARTITIONS`: built-in partition names joined by `+`, e.g. `6-6-6-6+corner-blocks`
//!   (all of one board shape; the value is the largest partition's sum);
//! - `--threads N` (default 1), `--mean COUNT` (default 10000, 0 to skip), `--seed S` (default 1),
//!   `--max-expanded N` (a bound on each search, for profiles: costs are then not checked);
//! - `INSTANCE`: puzzle files with a `# optimal: N` line, whose costs are checked.
//!
//! Tables missing from `PDB_DIR` (blank-first goal) are built there first, and the build time printed.

use npuzzle::board::{Goal, GoalSpec, Packed, Packed128, Scramble, SplitMix64, generate};
use npuzzle::heuristic::pdb::{Partition, PatternDatabase, Patterns, Pdb, TableKind};
use npuzzle::{Board, Input, Limits, idastar, read_input};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

type Failure = Box<dyn std::error::Error>;

/// What the command line asks for.
struct Request {
    kind: TableKind,
    partitions: Vec<Partition>,
    dir: PathBuf,
    threads: usize,
    mean: u32,
    seed: u64,
    max_expanded: Option<u64>,
    instances: Vec<PathBuf>,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let run = || -> Result<(), Failure> {
        let request = parse(&args)?;
        let (goal, pdb) = tables(&request)?;
        if request.mean > 0 {
            mean(&goal, &pdb, request.mean, request.seed);
        }
        search(&goal, &pdb, &request)
    };
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pdb_sets: {e}");
            ExitCode::FAILURE
        }
    }
}

fn parse(args: &[String]) -> Result<Request, Failure> {
    let [kind, partitions, dir, rest @ ..] = args else {
        return Err("usage: pdb_sets KIND PARTITIONS PDB_DIR [--threads N] [--mean COUNT] [--seed S] \
                    [--max-expanded N] [INSTANCE...]"
            .into());
    };
    let kind = match kind.as_str() {
        "minimised" => TableKind::Minimised,
        "zero" => TableKind::ZeroAware,
        "zero-bits" => TableKind::ZeroAwareBits,
        other => return Err(format!("unknown kind '{other}': minimised, zero or zero-bits").into()),
    };
    let partitions: Vec<Partition> = partitions.split('+').map(str::parse).collect::<Result<_, _>>()?;
    if partitions.iter().any(|p| p.shape() != partitions[0].shape()) {
        return Err("the partitions are for different board shapes".into());
    }
    let mut request = Request {
        kind,
        partitions,
        dir: PathBuf::from(dir),
        threads: 1,
        mean: 10_000,
        seed: 1,
        max_expanded: None,
        instances: Vec::new(),
    };
    let mut rest = rest.iter();
    while let Some(arg) = rest.next() {
        let mut value = || rest.next().ok_or_else(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--threads" => request.threads = value()?.parse()?,
            "--mean" => request.mean = value()?.parse()?,
            "--seed" => request.seed = value()?.parse()?,
            "--max-expanded" => request.max_expanded = Some(value()?.parse()?),
            file => request.instances.push(PathBuf::from(file)),
        }
    }
    Ok(request)
}

/// The tables of the request for the blank-first goal, loaded or built.
fn tables(request: &Request) -> Result<(Goal, Pdb), Failure> {
    let goal = Goal::new(&GoalSpec::BlankFirst, request.partitions[0].shape())?;
    let Patterns { patterns, partitions } = Patterns::of(&request.partitions, &goal)?;
    let started = Instant::now();
    let load = |tiles: &Vec<u8>| {
        PatternDatabase::load_or_build(&goal, tiles, request.kind, &request.dir, &mut |_| {})
    };
    let databases = patterns.iter().map(load).collect::<Result<Vec<_>, _>>()?;
    let bytes: usize = databases.iter().map(|db| db.entries().len()).sum();
    println!(
        "{} tables ({}), {:.1} MB, ready in {:.1} s",
        databases.len(),
        request.kind,
        bytes as f64 / 1e6,
        started.elapsed().as_secs_f64()
    );
    let pdb = Pdb::from_partitions(&goal, databases, &partitions)?;
    Ok((goal, pdb))
}

/// The mean value over `count` uniformly random solvable boards.
fn mean(goal: &Goal, pdb: &Pdb, count: u32, seed: u64) {
    let mut rng = SplitMix64::new(seed);
    let (mut both, mut direct) = (0u64, 0u64);
    for _ in 0..count {
        let board = generate(goal, Scramble::Uniform, true, &mut rng);
        let parts = pdb.parts(&Packed128::from_tiles(board.cells()));
        both += u64::from(parts.value());
        direct += u64::from(parts.sums().0);
    }
    let n = f64::from(count);
    println!(
        "mean {:.3} with the mirror, {:.3} without, over {count} random boards (seed {seed})",
        both as f64 / n,
        direct as f64 / n
    );
}

/// IDA* on each instance, its cost checked against its `# optimal:` line.
fn search(goal: &Goal, pdb: &Pdb, request: &Request) -> Result<(), Failure> {
    let limits = Limits { threads: request.threads, max_expanded: request.max_expanded, ..Limits::default() };
    let (mut expanded, mut seconds) = (0, 0.0);
    for file in &request.instances {
        let (one, time) = solve(goal, pdb, file, &limits, request.max_expanded.is_none())?;
        (expanded, seconds) = (expanded + one, seconds + time);
    }
    if request.instances.len() > 1 {
        println!("total: {expanded} expanded, {seconds:.2} s");
    }
    Ok(())
}

fn solve(goal: &Goal, pdb: &Pdb, file: &Path, limits: &Limits, check: bool) -> Result<(u64, f64), Failure> {
    let text = std::fs::read_to_string(file)?;
    let optimal: Option<usize> =
        text.lines().find_map(|l| l.strip_prefix("# optimal:")).and_then(|n| n.trim().parse().ok());
    let tiles = read_input(&Input::File(file.to_owned()))?;
    let outcome = if tiles.cells().len() <= Packed::CAPACITY {
        idastar(&Packed::from_tiles(tiles.cells()), goal, pdb, limits)
    } else {
        idastar(&Packed128::from_tiles(tiles.cells()), goal, pdb, limits)
    };
    let cost = outcome.cost();
    if check && optimal.is_some() && cost != optimal {
        return Err(format!("{}: cost {cost:?}, optimal {optimal:?}", file.display()).into());
    }
    let (expanded, seconds) = (outcome.stats.nodes_expanded, outcome.stats.runtime.as_secs_f64());
    println!(
        "{}: {} moves, {expanded} expanded, {seconds:.2} s, {:.2} M/s",
        file.display(),
        cost.unwrap_or(0),
        expanded as f64 / seconds / 1e6
    );
    Ok((expanded, seconds))
}
