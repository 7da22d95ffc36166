/*!
Search: every algorithm in a file of its own, each generic over board and
heuristic and returning an [`Outcome`]; the result types and limits they
share ([`outcome`](self::Outcome)), the budget that stops them, and the one
dispatch ([`solve`]) from run-time choices to a monomorphised search.

Every algorithm has the same shape: `fn(start, goal, [heuristic], limits) ->
Outcome`. Searches print nothing; their only clock reads go into [`Stats`].
*/

mod algorithm;
mod anytime;
mod astar;
mod best_first;
mod bfs;
mod budget;
mod constructive;
mod dfs;
mod dispatch;
mod encoding;
mod focal;
mod fringe;
mod graph;
mod greedy;
mod idastar;
mod memory;
mod monitor;
mod outcome;
mod shorten;
mod spare;
mod staged;
mod table;
mod weight;

pub use crate::heuristic::pdb::Tables;
pub use algorithm::Algorithm;
pub use algorithm::Selection;
pub use anytime::DEFAULT_BUDGET;
pub use astar::{astar, bounded_astar, weighted_astar};
pub use bfs::bfs;
pub use budget::{bytes_per_state, default_max_nodes, default_max_nodes_for};
pub use constructive::{RowsOutcome, rows};
pub use dfs::dfs;
pub use dispatch::{Prepared, searchable, solve};
pub use fringe::{FRONTIER_BYTES, fringe};
pub use greedy::greedy;
pub use idastar::{Progress, SPLIT_AFTER, SaveProgress, idastar, weighted_idastar};
pub use monitor::Improvement;
pub use monitor::{Monitor, Snapshot};
pub use outcome::{LimitKind, Limits, Outcome, Stats, Status};
pub use shorten::Shortening;
pub use weight::{MAX_WEIGHT, Weight, WeightError};

pub(crate) use budget::{Budget, exhausted};
pub(crate) use idastar::fnv1a;
pub(crate) use outcome::rebuild_path;
