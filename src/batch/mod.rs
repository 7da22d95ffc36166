/*!
Batch runs: find the puzzle files under some paths, keep one shard of them,
solve them on a pool of threads and hand back one
[`Record`](crate::report::Record) per puzzle, in input order, each as soon
as it and every one before it are done: [`discover`], [`Feed`] (the
puzzles one at a time, lists read as the run goes), [`Shard`], [`run`] (the
pool), [`solve_item`] (one puzzle), [`TableSource`] (the heuristic tables of
each goal shape), resuming a stopped run ([`kept_rows`], [`check_against`]), the lock that
keeps a second run off an output ([`OutputLock`]) and merging shards
([`merge`]), one file each.

Which files are puzzles:
- a file named on the command line is always read, whatever its name or
  content (a bad one, or one that is no puzzle at all, is an error row);
- inside a folder, entries are visited in byte order of their names, folders
  recursively; hidden entries (`.git`, `.DS_Store`) are passed over silently
  and symbolic links to folders are not followed;
- there, a `.txt` or `.puzzle` file is a puzzle (an error row if malformed);
- and any other file is a puzzle only if its content looks like a board:
  text whose first line that is neither blank nor a `#` comment is a `WxH`
  size header or holds only digits, commas, spaces and minus signs. Others (`README.md`, binaries)
  are skipped, each with a reason.

Which files are lists of puzzles ([`Feed`]): every file when the
caller says so (`--list`), and standard input (`-`) always; the rest hold
one board each.
*/

mod discovery;
mod feed;
mod lock;
mod merge;
mod method;
mod pool;
mod resume;
mod saved;
mod shard;
mod solve;
mod tables;

pub use discovery::{Discovery, Item, STDIN, Skipped, Source, discover, looks_like_board};
pub use feed::{Check, Fed, Feed, Halt};
pub use lock::{LockError, OutputLock};
pub use merge::{MergeError, Merged, Problems, format_of, merge, name_order};
pub use method::{Agreement, Difference, answer_flags};
pub use pool::{AHEAD_OF_ORDER, Event, Finished, TICK, UnderWay, run};
pub use resume::{Kept, ResumeError, check_against, kept_rows};
pub use saved::{ProgressFolder, SAVE_EVERY, saves_progress};
pub use shard::{Shard, ShardError};
pub use solve::{Settings, Worker, board_of, default_max_nodes_per_job, solve_item};
pub use tables::TableSource;
