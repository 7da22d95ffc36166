/*!
The command line as clap sees it. Nothing here leaves the binary: `main.rs`
turns these raw flags into library values.
*/

use crate::exit::{self, Exit};
use clap::builder::{OsStringValueParser, PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};
use npuzzle::Weight;
use npuzzle::batch::Shard;
use npuzzle::board::{MAX_SIDE, MAX_WALK, MIN_SIDE, Shape, parse_shape, supported};
use npuzzle::compare::{DEFAULT_MAX_NODES, DEFAULT_TIMEOUT, WEIGHTS};
use npuzzle::heuristic::PartitionSet;
use npuzzle::heuristic::pdb::Estimates;
use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

/// Solve sliding-tile puzzles: the 8-puzzle, the 15-puzzle, any board from 2x2 to 256x256, square or not.
#[derive(Debug, Parser)]
#[command(name = "npuzzle", version, after_help = exit::help(exit::OVERVIEW), propagate_version = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,

    /// Progress on standard error: auto (a line redrawn in place when stderr is a terminal), always (also as
    /// plain lines when it is not, one at the start and one every 10 s, for logs), never.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ProgressWhen::Auto, global = true)]
    pub progress: ProgressWhen,
}

/// `--progress` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ProgressWhen {
    /// A line redrawn in place when standard error is a terminal, nothing otherwise.
    Auto,
    /// As auto on a terminal; elsewhere plain lines, one at the start and then one every 10 seconds.
    Always,
    /// No progress at all.
    Never,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve one puzzle and report the path and the search figures.
    #[command(after_help = after_help("", exit::SOLVE, SOLVE_EXAMPLES))]
    Solve(SolveArgs),

    /// Solve every puzzle in files and folders: one row per puzzle.
    #[command(after_help = after_help(BATCH_NOTES, exit::BATCH, BATCH_EXAMPLES))]
    Batch(BatchArgs),

    /// Write random puzzles: random walks from the goal, uniformly random boards, or boards at an exact distance.
    #[command(after_help = after_help("", &[], GENERATE_EXAMPLES))]
    Generate(GenerateArgs),

    /// Validate and describe a puzzle without solving it.
    #[command(after_help = after_help("", exit::CHECK, CHECK_EXAMPLES))]
    Check(CheckArgs),

    /// Merge the outputs of `batch --shard K/M` runs into one, in the order one machine would write it.
    #[command(after_help = after_help(MERGE_NOTES, exit::MERGE, MERGE_EXAMPLES))]
    Merge(MergeArgs),

    /// Run every algorithm and heuristic on one puzzle and print one comparison table.
    #[command(after_help = after_help(&compare_notes(), exit::COMPARE, COMPARE_EXAMPLES))]
    Compare(CompareArgs),

    /// Print shell completions (bash, zsh, fish, elvish, powershell).
    #[command(after_help = after_help("", &[], COMPLETIONS_EXAMPLES))]
    Completions(CompletionsArgs),

    /// Pattern databases, the tables of the pdb heuristic (4×4, 5×5 and 6×6 boards).
    #[command(subcommand, after_help = after_help("", &[], PDB_EXAMPLES))]
    Pdb(PdbCommand),
}

/// `npuzzle pdb …`.
#[derive(Debug, Subcommand)]
pub enum PdbCommand {
    /// Build the pattern databases of a 4×4, 5×5 or 6×6 goal ahead of time (files that verify are kept).
    #[command(after_help = after_help("", &[], PDB_BUILD_EXAMPLES))]
    Build(PdbBuildArgs),
}

/// `npuzzle pdb build`.
#[derive(Debug, Args)]
#[command(mut_arg("goal", |a| a.help("The goal: blank-first, blank-last, snail, a file or an inline board (4×4, 5×5 or 6×6)")))]
pub struct PdbBuildArgs {
    #[command(flatten)]
    pub goal: GoalArg,

    /// The board size for a named goal: 4, 5 or 6 [default: --partition's size, else 4].
    #[arg(long, value_name = "N", value_parser = parse_size)]
    pub size: Option<Shape>,

    #[command(flatten)]
    pub pdb: PdbArgs,

    /// Rebuild even the files that are present and verify.
    #[arg(long)]
    pub force: bool,
}

/// Where pattern databases live and which partition to use.
#[derive(Debug, Args, Clone)]
pub struct PdbArgs {
    /// Directory of the pattern databases [default: $XDG_CACHE_HOME/npuzzle or ~/.cache/npuzzle].
    #[expect(clippy::doc_markdown, reason = "a help text, shown as written")]
    #[arg(long, value_name = "DIR")]
    pub pdb_dir: Option<PathBuf>,

    #[arg(
        long,
        value_name = "PARTITION",
        value_parser = partition_parser(),
        hide_possible_values = false,
        help = partition_help()
    )]
    pub partition: Option<PartitionSet>,
}

/// `--partition`'s help, naming each size's defaults as the library sets them.
fn partition_help() -> String {
    let mut shapes: Vec<Shape> = PartitionSet::ALL.map(PartitionSet::shape).to_vec();
    shapes.dedup();
    let names = |estimates| {
        let sets = shapes.iter().filter_map(|&shape| PartitionSet::default_for(shape, estimates));
        sets.map(|set| format!("{} ({})", set.name(), set.shape())).collect::<Vec<_>>().join(", ")
    };
    format!(
        "Pattern-database partition, or set of partitions whose largest sum is taken: the tile sets of the \
         databases the pdb heuristic looks up [default: for IDA* {}; for the other searches, check and \
         compare {}; pdb build makes both]",
        names(Estimates::FromParent),
        names(Estimates::FromScratch)
    )
}

/// `--partition`: the library's built-in sets of partitions, each shown in
/// `--help` with its board size and what it costs.
fn partition_parser() -> impl TypedValueParser<Value = PartitionSet> {
    let names =
        PartitionSet::ALL.map(|p| PossibleValue::new(p.name()).help(format!("{}: {}", p.shape(), p.about())));
    PossibleValuesParser::new(names).try_map(|name| name.parse::<PartitionSet>())
}

/// A board argument; an empty one would otherwise be read as a file with no name.
fn board_arg() -> impl TypedValueParser<Value = OsString> {
    OsStringValueParser::new().try_map(|arg| {
        if arg.is_empty() {
            Err("expected a file, an inline board or -, found an empty argument")
        } else {
            Ok(arg)
        }
    })
}

/// `npuzzle solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The start board: a file, an inline board such as 1,2,5,3,4,0,6,7,8, or - for standard input.
    #[arg(value_name = "START", value_parser = board_arg())]
    pub start: OsString,

    #[command(flatten)]
    pub algorithm: AlgorithmArgs,

    #[command(flatten)]
    pub size: SizeArg,

    #[command(flatten)]
    pub search: SearchArgs,

    /// Output format.
    #[arg(long, value_enum, default_value_t = FormatArg::Text)]
    pub format: FormatArg,

    /// Also print every board of the solution, from start to goal (text format).
    #[arg(long)]
    pub show_states: bool,

    /// Threads for IDA* (weighted or not); the other algorithms use one [default: the number of cores]; fewer, said
    /// on stderr, where the machine cannot start them all.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,
}

/// `--goal`, read the same way by every command that takes one.
#[derive(Debug, Args, Clone)]
pub struct GoalArg {
    /// The goal: blank-first (0 1 2 …), blank-last (1 2 … 0), snail (clockwise spiral), a file or an inline board.
    #[arg(id = "goal", long = "goal", default_value = "blank-first", value_name = "GOAL")]
    pub text: String,
}

/// What every command that searches takes: the goal, the limits and the
/// pattern databases.
#[derive(Debug, Args, Clone)]
pub struct SearchArgs {
    #[command(flatten)]
    pub goal: GoalArg,

    #[command(flatten)]
    pub limits: LimitArgs,

    #[command(flatten)]
    pub pdb: PdbArgs,

    /// Return the paths of greedy, weighted search (--weight) and rows exactly as found, without shortening them
    /// afterwards (then cost = depth).
    #[arg(long)]
    pub no_shorten: bool,
}

/// How `solve` and `batch` search.
#[derive(Debug, Args, Clone, Copy)]
pub struct AlgorithmArgs {
    /// Search algorithm [default: astar; with --within, the bounded search that gets there fastest].
    #[arg(long, value_enum)]
    pub algo: Option<AlgoArg>,

    /// Heuristic for astar, idastar, fringe, greedy and anytime (ignored by bfs, dfs and rows) [default: manhattan; with
    /// --within or --algo anytime, the pattern databases where they are built for the board's size and goal,
    /// linear-conflict elsewhere].
    #[arg(long, value_enum)]
    pub heuristic: Option<HeuristicArg>,

    /// Weight W for astar and idastar: search on f = g + W·h. With an admissible heuristic the path is at most W
    /// times the shortest; larger weights search far fewer nodes (a number ≥ 1, such as 1.5 or 2).
    #[arg(long, value_name = "W", conflicts_with = "within")]
    pub weight: Option<Weight>,

    /// An answer guaranteed at most F times the shortest (F ≥ 1, such as 1.05 or 1.5). Without --algo, the search
    /// that gets there fastest (Dynamic Potential Search; past 16x16, the constructive solver's answer where its
    /// cost is proven within F); with astar (bounded the same way), idastar (weighted by F) or bfs.
    #[arg(long, value_name = "F", value_parser = parse_bound)]
    pub within: Option<Weight>,
}

/// `--size`, for boards that do not show their own shape.
#[derive(Debug, Args, Clone, Copy)]
pub struct SizeArg {
    /// The board's size as N or WxH (columns x rows), for boards written on one line or one number per line; a board
    /// laid out in rows, or with a size header, must agree with it.
    #[expect(clippy::doc_markdown, reason = "a help text, shown as written")]
    #[arg(long, value_name = "WxH", value_parser = parse_size)]
    pub size: Option<Shape>,
}

/// Limits shared by every search command.
#[derive(Debug, Args, Clone)]
pub struct LimitArgs {
    /// Stop after storing this many states (default: as many as fit in 3 GiB). Refused with idastar, which stores
    /// only its path: bound it with --max-expanded.
    #[arg(long, value_name = "N", value_parser = at_least_one::<u64>)]
    pub max_nodes: Option<u64>,

    /// Stop after expanding this many nodes, with any algorithm (idastar: over all passes; rows: in its small
    /// internal searches).
    #[arg(long, value_name = "N", value_parser = at_least_one::<u64>)]
    pub max_expanded: Option<u64>,

    /// Do not generate nodes deeper than D moves (makes dfs depth-limited).
    #[arg(long, value_name = "D")]
    pub max_depth: Option<u32>,

    /// Stop the search after this many seconds (fractions allowed).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub timeout: Option<Duration>,
}

/// `--algo` values, each with when to use it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AlgoArg {
    /// Breadth-first search: shortest paths on small boards (it stores every state it meets).
    Bfs,
    /// Depth-first search: some path, usually a very long one; for textbook comparisons.
    Dfs,
    /// A*: shortest paths with the heuristic's help, up to 15-puzzles; --weight trades length for speed.
    #[value(alias = "ast")]
    Astar,
    /// Iterative-deepening A*: shortest paths in almost no memory; 15-puzzles with --heuristic pdb.
    Idastar,
    /// Fringe search: IDA*'s shortest paths without expanding a node twice (a frontier kept between passes, up to
    /// 64 MiB); the fastest for many 15-puzzles with --heuristic pdb.
    Fringe,
    /// Greedy best-first on the heuristic alone: fast, long paths; random 5x5 and 6x6 boards.
    Greedy,
    /// Constructive, line by line: any board up to 256x256, paths far from the shortest; time grows with the path
    /// (about 1.5·n³ moves on n×n, 2.3 times the Manhattan distance): 20x20 in about 20 ms, 100x100 in about 1 s.
    Rows,
    /// Anytime: an answer at once, shorter ones while --timeout lasts (default 1 s), the best at the end with the
    /// lower bound the run proved; any board.
    Anytime,
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
    /// Additive pattern databases (4×4, 5×5 and 6×6; see --partition), built on first use and cached.
    Pdb,
}

/// `--format` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// Labelled lines.
    Text,
    /// One JSON object.
    Json,
}

/// What `--help` shows after the options: notes, exit codes, then
/// examples, each block left out when empty.
fn after_help(notes: &str, exit_codes: &[(Exit, &str)], examples: &[&str]) -> String {
    let mut blocks = Vec::new();
    if !notes.is_empty() {
        blocks.push(notes.to_owned());
    }
    if !exit_codes.is_empty() {
        blocks.push(exit::help(exit_codes));
    }
    if !examples.is_empty() {
        blocks.push(format!("Examples:\n  {}", examples.join("\n  ")));
    }
    blocks.join("\n\n")
}

const SOLVE_EXAMPLES: &[&str] = &[
    "npuzzle solve puzzles/3x3/easy-3.txt --algo astar --heuristic manhattan",
    "npuzzle solve 1,2,5,3,4,0,6,7,8 --algo bfs --show-states",
    "npuzzle solve puzzles/korf100/001.txt --algo idastar --heuristic pdb --format json",
];

/// `batch`'s notes, shown in `--help`.
const BATCH_NOTES: &str = "\
A file named on the command line is always read, whatever its name: what is wrong with it is an error row. \
Folders are walked recursively in sorted order; in them, .txt and .puzzle files are puzzles (a malformed one \
is an error row), other files are puzzles only if their content looks like a board, else skipped with a note \
on stderr, and hidden entries are passed over.

Without --list each file holds one board. With --list each file (named or found in a folder) is a list: one \
puzzle per line, either its tiles (row-major, 0 the blank) or `id length tiles` as in Korf's 100, told apart by \
the count of numbers; a line `# size: WxH` gives the shape of the boards after it (else --size for \
rectangles); blank lines and other # comments are skipped, a bad line is an error row. - is standard input, \
always read as a list, so `npuzzle generate --list … | npuzzle batch -` works, for rectangles too.

Without --max-nodes, each of the N jobs may store 1/N of the states a single search may (3 GiB in all).";

const BATCH_EXAMPLES: &[&str] = &[
    "npuzzle batch puzzles/3x3 --format table",
    "npuzzle batch korf100.txt --list --algo idastar --heuristic linear-conflict --jobs 2 > korf100.csv",
    "npuzzle batch puzzles/4x4 --shard 0/2 --format json > shard-0.jsonl",
];

const GENERATE_EXAMPLES: &[&str] = &[
    "npuzzle generate --size 3 --moves 20 --seed 7",
    "npuzzle generate --size 4 --count 100 --seed 1 --out sets/4x4",
    "npuzzle generate --size 3 --distance 2,4,8,12 --count 100 --seed 1 --list --out aima.list",
];

/// The largest `--distance`: far beyond any board an optimal search can
/// confirm, and it bounds the walks tried.
pub const MAX_DISTANCE: u32 = 10_000;

const CHECK_EXAMPLES: &[&str] = &[
    "npuzzle check puzzles/3x3/hard-26.txt",
    "npuzzle check puzzles/unsolvable/loyd-4x4.txt",
    "npuzzle check puzzles/korf100/001.txt --partition 6-6-3 --pdb-dir ./pdb",
];

/// `compare`'s defaults, shown in `--help`.
fn compare_notes() -> String {
    format!(
        "Each run is limited to {DEFAULT_MAX_NODES} stored states and {} seconds unless --max-nodes or \
         --timeout say otherwise, so depth-first search on a large board still finishes; idastar stores only its \
         path, so time (or --max-expanded) bounds it. b* is the effective \
         branching factor: the b with N + 1 = 1 + b + b² + … + b^d for N nodes generated and a solution at \
         depth d.",
        DEFAULT_TIMEOUT.as_secs_f64(),
    )
}

const COMPARE_EXAMPLES: &[&str] = &[
    "npuzzle compare puzzles/3x3/medium-14.txt",
    "npuzzle compare puzzles/4x4/moves-20.txt --timeout 2 --format csv > moves-20.csv",
];

const COMPLETIONS_EXAMPLES: &[&str] = &[
    "npuzzle completions bash > ~/.local/share/bash-completion/completions/npuzzle",
    "npuzzle completions zsh > ~/.zfunc/_npuzzle",
    "npuzzle completions fish > ~/.config/fish/completions/npuzzle.fish",
];

/// The `pdb` group's examples: one per kind of board, and a goal of its own.
const PDB_EXAMPLES: &[&str] = &[
    "npuzzle pdb build",
    "npuzzle pdb build --size 5",
    "npuzzle pdb build --partition 6-6-3 --goal blank-last --pdb-dir ./pdb",
];

const PDB_BUILD_EXAMPLES: &[&str] = &[
    "npuzzle pdb build",
    "npuzzle pdb build --size 5 --goal blank-last",
    "npuzzle pdb build --partition 6-6-3 --goal snail --pdb-dir ./pdb --force",
];

/// `compare`'s own defaults for the shared limits, where solve's would mislead.
fn compare_max_nodes_help() -> String {
    format!(
        "Stop each run after storing this many states (default: {DEFAULT_MAX_NODES}); idastar, which stores only \
         its path, is bounded by --timeout and --max-expanded instead"
    )
}

/// `compare` runs weighted A* at fixed weights and takes no `--weight`.
fn compare_no_shorten_help() -> String {
    let weights: Vec<String> = WEIGHTS.iter().map(ToString::to_string).collect();
    format!(
        "Report the paths of greedy, weighted A* (its runs at W = {}) and rows exactly as found, without \
         shortening them afterwards (then cost = depth)",
        weights.join(" and ")
    )
}

/// `batch` shares the default node limit out between its jobs.
const BATCH_MAX_NODES_HELP: &str = "Stop a puzzle after storing this many states (default: each of the N jobs \
    gets 1/N of what fits in 3 GiB). Refused with idastar, which stores only its path: bound it with \
    --max-expanded";

fn compare_timeout_help() -> String {
    format!(
        "Stop each run after this many seconds, fractions allowed (default: {})",
        DEFAULT_TIMEOUT.as_secs_f64()
    )
}

/// `npuzzle batch`.
#[derive(Debug, Args)]
#[command(mut_arg("max_nodes", |a| a.help(BATCH_MAX_NODES_HELP)))]
pub struct BatchArgs {
    /// Puzzle files and folders; - reads a list of puzzles from standard input.
    #[arg(value_name = "PATH", required = true)]
    pub paths: Vec<PathBuf>,

    /// Read every file as a list: one puzzle per line, its tiles or Korf's `id length tiles`; rows are named FILE:LINE,
    /// or FILE#ID.
    #[expect(clippy::doc_markdown, reason = "a help text, shown as written")]
    #[arg(long)]
    pub list: bool,

    #[command(flatten)]
    pub algorithm: AlgorithmArgs,

    #[command(flatten)]
    pub size: SizeArg,

    #[command(flatten)]
    pub search: SearchArgs,

    /// Output format [default: table when standard output is a terminal, else csv].
    #[arg(long, value_enum)]
    pub format: Option<RowFormatArg>,

    /// Puzzles solved at once [default: the number of cores]; fewer, said on stderr, where the machine cannot start
    /// that many threads.
    #[arg(long, short = 'j', value_name = "N", value_parser = at_least_one::<u32>)]
    pub jobs: Option<u32>,

    /// Threads per IDA* search [default: the cores shared among the jobs; the last puzzles get more as jobs run out];
    /// fewer, said on stderr, where the machine cannot start them all.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,

    /// Solve only shard K of M: the puzzles at positions K, K+M, K+2M… of the sorted list (0 ≤ K < M).
    #[arg(long, value_name = "K/M")]
    pub shard: Option<Shard>,

    /// Write the rows to FILE as they finish, in input order, each flushed at once (so a run that is killed
    /// loses only the rows under way): CSV, or JSON Lines with --format json or a name ending in .jsonl. An
    /// existing FILE is refused without --resume or --force, and so is a FILE another run is writing.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,

    /// Continue the run whose rows --out FILE holds: its complete rows are kept (each checked against the
    /// puzzle in its place, by name and board), a last row cut short is dropped, and the puzzles after them
    /// are solved and appended. Refused when the rows were solved with another goal, algorithm, weight,
    /// heuristic or flag that changes answers (their goal and flags columns).
    #[arg(long, requires = "out")]
    pub resume: bool,

    /// Replace --out FILE if it is there (a regular file only: never a link, a folder or a FIFO).
    #[arg(long, requires = "out", conflicts_with = "resume")]
    pub force: bool,

    /// With --out FILE, how often a long IDA* search saves where it stands, in FILE.progress/ (one file per
    /// puzzle under way, gone when its search ends), so that --resume takes a killed search up from there:
    /// a kill loses at most this much of the search, plus the subtrees under way.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, default_value = "60", requires = "out")]
    pub save_every: Duration,
}

/// `npuzzle generate`.
#[derive(Debug, Args)]
#[command(mut_arg("goal", |a| a.help("The goal to scramble from (as for solve)")))]
#[expect(clippy::struct_excessive_bools, reason = "each is a flag of its own on the command line")]
pub struct GenerateArgs {
    /// Board size: N for N×N, or WxH (columns x rows), each side 2 to 256.
    #[expect(clippy::doc_markdown, reason = "a help text, shown as written")]
    #[arg(long, value_name = "N|WxH", value_parser = parse_size)]
    pub size: Shape,

    /// Scramble by a random walk of K moves (K up to 100000000) from the goal, never undoing the last move.
    #[arg(long, value_name = "K", conflicts_with = "random", value_parser = clap::value_parser!(u64).range(0..=MAX_WALK as u64))]
    pub moves: Option<u64>,

    /// Uniformly random boards (the default).
    #[arg(long)]
    pub random: bool,

    /// Boards whose shortest solution is exactly D moves (several: D1,D2,…, --count boards each). Up to 10 cells
    /// (every 3x3, 2x4, 2x5) each is drawn uniformly among all boards at that distance; larger boards come from
    /// random walks an optimal search confirms (not uniform). With --list, lines are `id D tiles`.
    #[arg(
        long,
        value_name = "D",
        value_delimiter = ',',
        conflicts_with_all = ["moves", "random", "unsolvable"],
        value_parser = clap::value_parser!(u32).range(0..=MAX_DISTANCE as i64)
    )]
    pub distance: Vec<u32>,

    /// How many boards (with --distance, at each distance); more than one needs --out or --list.
    #[arg(long, value_name = "C", default_value_t = 1, value_parser = at_least_one::<u64>)]
    pub count: u64,

    /// Seed, for reproducible output [default: from the clock; each board's comment records it].
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,

    #[command(flatten)]
    pub goal: GoalArg,

    /// Write C numbered files (0001.txt, …) into the folder PATH, created if needed, instead of one board to standard
    /// output; with --list, write the list to the file PATH.
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,

    /// Write the boards as a list, one board per line after a `# size: WxH` line (what batch --list and batch - read),
    /// to standard output or to the file --out names.
    #[arg(long)]
    pub list: bool,

    /// Replace files that are already there (without it, generate refuses to overwrite anything).
    #[arg(long)]
    pub force: bool,

    /// Make deliberately unsolvable boards (two tiles swapped after scrambling).
    #[arg(long)]
    pub unsolvable: bool,
}

/// `npuzzle merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The outputs of the shards (CSV or JSON Lines of batch, all of one format), in any order; - is standard
    /// input.
    #[arg(value_name = "FILE", required = true)]
    pub outputs: Vec<PathBuf>,

    /// The list the batch ran on, named as it was named to batch: its order is the output's, and every
    /// puzzle of it must have exactly one row.
    #[arg(long, value_name = "LIST")]
    pub list: Option<PathBuf>,

    #[command(flatten)]
    pub size: SizeArg,
}

/// `merge`'s notes, shown in `--help`.
const MERGE_NOTES: &str = "\
Rows go to standard output: the CSV header once, then every row as its shard wrote it. With --list the \
list gives the order and each of its puzzles must have one row; without it rows are ordered by name (the \
path component by component, then the line or id after : or #), the order of a batch over one folder or one \
list. What is missing, duplicated or disagrees is named on standard error (the first ten of each). Shards \
solved otherwise (another algorithm, weight, heuristic, goal or flags) are refused.";

const MERGE_EXAMPLES: &[&str] =
    &["npuzzle merge shard-*.csv --list million.txt > million.csv", "npuzzle merge out/*.jsonl > all.jsonl"];

/// `npuzzle check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The puzzle: a file, an inline board, or - for standard input.
    #[arg(value_name = "PUZZLE", value_parser = board_arg())]
    pub puzzle: OsString,

    #[command(flatten)]
    pub size: SizeArg,

    #[command(flatten)]
    pub goal: GoalArg,

    #[command(flatten)]
    pub pdb: PdbArgs,
}

/// `npuzzle compare`.
#[derive(Debug, Args)]
#[command(
    mut_arg("max_nodes", |a| a.help(compare_max_nodes_help())),
    mut_arg("timeout", |a| a.help(compare_timeout_help())),
    mut_arg("no_shorten", |a| a.help(compare_no_shorten_help()))
)]
pub struct CompareArgs {
    /// The puzzle: a file, an inline board, or - for standard input.
    #[arg(value_name = "PUZZLE", value_parser = board_arg())]
    pub puzzle: OsString,

    #[command(flatten)]
    pub size: SizeArg,

    #[command(flatten)]
    pub search: SearchArgs,

    /// Output format.
    #[arg(long, value_enum, default_value_t = RowFormatArg::Table)]
    pub format: RowFormatArg,
}

/// `npuzzle completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// `--format` values of `batch` and `compare`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RowFormatArg {
    /// Aligned columns for people (batch adds a summary).
    Table,
    /// Comma-separated values with a header row.
    Csv,
    /// JSON Lines: one object per row, the keys of solve --format json.
    Json,
}

/// `N` or `WxH` within the sides boards may have.
fn parse_size(text: &str) -> Result<Shape, String> {
    let shape = parse_shape(text)
        .ok_or_else(|| format!("'{text}' is not a size: expected N or WxH, such as 4 or 4x3"))?;
    if supported(shape) {
        Ok(shape)
    } else {
        Err(format!("a {shape} board is not supported: each side must be {MIN_SIDE} to {MAX_SIDE}"))
    }
}

/// A whole number of at least one. clap's own range check would say "0 is
/// not in 1..18446744073709551615", which reads as if the largest number
/// were excluded.
fn at_least_one<T: std::str::FromStr<Err = std::num::ParseIntError> + From<u8> + PartialOrd>(
    text: &str,
) -> Result<T, String> {
    let n: T = text.parse().map_err(|e| format!("'{text}' is not a whole number: {e}"))?;
    if n < T::from(1) { Err("must be at least 1".to_owned()) } else { Ok(n) }
}

/// `--within F`: a factor of at least 1, said as a bound rather than a
/// weight.
fn parse_bound(text: &str) -> Result<Weight, String> {
    use npuzzle::search::WeightError;
    text.parse::<Weight>().map_err(|e| match e {
        WeightError::BelowOne(_) => format!("'{text}' is below 1: no answer is shorter than the shortest"),
        WeightError::Syntax(_) => format!("'{text}' is not a number of at least 1, such as 1.05 or 1.5"),
        other => other.to_string(),
    })
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text.parse().map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if !seconds.is_finite() || seconds <= 0.0 {
        return Err(format!("'{text}' must be a positive number of seconds"));
    }
    Duration::try_from_secs_f64(seconds).map_err(|_| format!("'{text}' is too long a timeout"))
}
