/*!
npuzzle: a solver for sliding-tile puzzles of any W×H shape from 2×2 to
256×256, with textbook BFS, DFS and A*, IDA* with pattern databases, and
greedy, weighted and constructive solvers for boards beyond optimal search.

The crate is laid out as the data flows:

- [`board`]: encodings behind the [`Board`] trait ([`Packed`] `u64` up to
  4×4, [`Packed128`] `u128` up to 25 cells, [`PackedWords`] up to 50,
  [`Wide`] above), parsing ([`read_input`]), goals and the parity rule,
  and the move tables ([`Geometry`]) searches step through.
- [`heuristic`]: lower bounds behind the [`Heuristic`] trait, up to the
  additive pattern databases of [`heuristic::pdb`] (built once, cached on
  disk, handed to searches as [`Tables`]).
- [`search`]: [`bfs`], [`dfs`], [`astar`], [`idastar`], each generic over board and
  heuristic, each returning an [`Outcome`] with its [`Stats`]; [`solve`]
  dispatches run-time choices to them. A running search shows its figures
  only through a [`search::Monitor`] that another thread may read.
- [`report`]: text, JSON, CSV and table renderings of outcomes, one
  exporter per format; no search prints.
- [`batch`] and [`compare`]: many solves at once (folders of puzzles on a
  pool of threads; every algorithm and heuristic on one puzzle), for the
  scripting commands; puzzles to feed them come from [`board::generate`],
  and those at an exact distance from the goal from [`exact`].

The `npuzzle` binary (`src/bin/npuzzle/`) only parses flags, calls these
pieces and picks the exit code, so clap and anyhow stay out of the library.

```
use npuzzle::{solve, Algorithm, Goal, GoalSpec, HeuristicKind, Limits, Tables, Tiles};
let start = Tiles::new(&[1, 2, 5, 3, 4, 0, 6, 7, 8]).unwrap();
let goal = Goal::new(&GoalSpec::BlankFirst, start.width()).unwrap();
let outcome = solve(&start, &goal, Algorithm::Bfs, HeuristicKind::Zero, &Limits::default(), &Tables::NONE).unwrap();
assert_eq!(outcome.cost(), Some(3));
```
*/

pub mod batch;
pub mod board;
pub mod compare;
pub mod error;
pub mod exact;
pub mod heuristic;
pub mod machine;
pub mod report;
pub mod search;

pub use board::{
    Board, Geometry, Goal, GoalSpec, Input, Move, Packed, Packed128, PackedWords, Parity, ParseError, Tiles,
    Wide, read_input, replay, replay_each,
};
pub use error::Error;
pub use heuristic::{
    Euclidean, Hamming, Heuristic, HeuristicKind, LinearConflict, Manhattan, Partition, Pdb, Zero,
};
pub use machine::cores;
pub use search::{
    Algorithm, LimitKind, Limits, Outcome, Prepared, SPLIT_AFTER, Stats, Status, Tables, Weight, astar, bfs,
    dfs, greedy, idastar, solve, weighted_astar, weighted_idastar,
};
