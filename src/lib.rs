/*!
npuzzle: a solver for sliding-tile puzzles of any W×H shape from 2×2 to
256×256, with textbook BFS, DFS and A*, IDA* with pattern databases, and
greedy, weighted and constructive solvers for boards beyond optimal search.

# Solving a board

Parse a board, make its goal, pick an algorithm and a heuristic, and read
the [`Outcome`]: its status, its path and the search's figures.

```
use npuzzle::{solve, Algorithm, Goal, GoalSpec, HeuristicKind, Limits, Status, Tables, Tiles};

let start: Tiles = "1 2 5\n3 4 0\n6 7 8".parse()?;
let goal = Goal::new(&GoalSpec::BlankFirst, start.shape())?;
let outcome = solve(&start, &goal, Algorithm::AStar, HeuristicKind::Manhattan, &Limits::default(), &Tables::NONE)?;

assert_eq!(outcome.status, Status::Solved);
let moves: Vec<&str> = outcome.path.iter().flatten().map(|mv| mv.name()).collect();
assert_eq!(moves, ["Up", "Left", "Left"]);
assert_eq!(outcome.stats.nodes_expanded, 3);
# Ok::<(), Box<dyn std::error::Error>>(())
```

Searches stop at the [`Limits`] they are given (stored states, expansions,
depth, time, a cancel flag) and say which one stopped them in their
[`Status`]. The pattern databases ([`heuristic::pdb`]) are built once and
cached on disk; load them with [`Pdb::load_or_build`] and hand them to
[`solve`] in [`Tables`].

# Layout

The crate is laid out as the data flows:

- [`machine`]: the ground floor, what the machine offers (cores, memory).
- [`board`]: shapes and encodings behind the [`Board`] trait ([`Packed`]
  `u64` up to 16 cells, [`Packed128`] `u128` up to 25, [`PackedWords`] up
  to 50, [`Wide`] above), reading and parsing ([`read_input`],
  [`parse_board`]), goals and the parity rule, and the move tables
  ([`Geometry`]) searches step through.
- [`heuristic`]: lower bounds behind the [`Heuristic`] trait, each in a
  file, up to the additive pattern databases of [`heuristic::pdb`].
- [`search`]: [`bfs`], [`dfs`], [`astar`], [`idastar`], [`fringe`], [`greedy`] and the
  constructive [`rows`](search::rows), each generic over board and
  heuristic, each returning an [`Outcome`] with its [`Stats`]; [`solve`]
  dispatches run-time choices to them. A running search shows its figures
  only through a [`search::Monitor`] that another thread may read.
- [`report`]: the [`Record`](report::Record) every format renders, and one
  exporter per format (text, JSON, JSON Lines, CSV, table); no search
  prints.
- [`batch`] and [`compare`]: many solves at once (folders and lists of
  puzzles on a pool of threads; every algorithm and heuristic on one
  puzzle); puzzles to feed them come from [`board::generate`], and those at
  an exact distance from the goal from [`exact`].

The `npuzzle` binary (`src/bin/npuzzle/`) only parses flags, calls these
pieces and picks the exit code, so clap and anyhow stay out of the library.
*/

pub mod batch;
pub mod board;
pub mod compare;
pub mod error;
pub mod exact;
pub mod files;
pub mod heuristic;
pub mod machine;
pub mod report;
pub mod search;

pub use board::{
    Board, Geometry, Goal, GoalSpec, Input, Move, Packed, Packed128, PackedWords, Parity, ParseError, Tiles,
    Wide, parse_board, read_input, replay, replay_each,
};
pub use error::Error;
pub use heuristic::{
    Euclidean, Hamming, Heuristic, HeuristicKind, LinearConflict, Manhattan, Partition, PartitionSet, Pdb,
    Zero,
};
pub use machine::cores;
pub use search::{
    Algorithm, FRONTIER_BYTES, LimitKind, Limits, Outcome, Prepared, Progress, SPLIT_AFTER, SaveProgress,
    Selection, Stats, Status, Tables, Weight, astar, bfs, bounded_astar, dfs, fringe, greedy, idastar, solve,
    weighted_astar, weighted_idastar,
};
