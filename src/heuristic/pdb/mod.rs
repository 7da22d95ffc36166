/*!
Additive disjoint pattern databases: the heuristic that lets IDA* solve
random 15-puzzles in milliseconds and 24-puzzles at all.

A *pattern* is a set of tiles, chosen by their goal cells so the same shapes
work for any goal. Its database holds, for every placement of those tiles,
the exact number of moves *of pattern tiles* needed to bring them home, with
all other tiles indistinguishable and the blank roaming free through the
cells they occupy, minimised over the blank's position. Moves of one
pattern's tiles never count for another, so over a partition of the tiles the
values add up to an admissible heuristic ([`Pdb`]). Taking the minimum over
the blank keeps one byte per placement but costs consistency: one move can
change the value by several units, so A* must reopen closed states (ours
does) and IDA* may add pathmax.

When the blank's goal cell is on the main diagonal, the board mirrored along
that diagonal (cells transposed, each tile renamed to the tile whose goal
cell is the transpose of its own) is the same distance from the same goal.
Its lookup is a second admissible value and the maximum is taken. It needs
no databases of its own: a database is valid for every board of its goal,
the mirrored board included, and reading pattern P on the mirror equals
reading the transposed pattern on the board itself. So the mirror gives the
transposed partition for free; it adds nothing when a partition is its own
transpose, and none of the built-in ones is. Goals whose blank is off the
diagonal (the 4×4 snail) simply get no mirror.

Partitions are data ([`Partition`]: groups of goal cells per board shape).
Built in are 7-8 (the 4×4 top and bottom halves, about 0.6 GB, the strong
default), 6-6-3 (11 MB, for low memory) and 6-6-6-6 for 5×5 (four 6-tile
patterns, 4 × 127.5 MB). [`PatternDatabase`] builds any pattern of any
board of up to 32 cells with at most 2³⁰ placements, which is what the
tests use on small patterns of rectangles and of the 5×5 board.

Databases are built once by a compact breadth-first search on every core
(bits per abstract state, no per-state objects; see `build.rs`), stored in
a cache directory ([`default_dir`]) as files with a verified header and
checksum (see `store.rs`), written atomically, and later mapped read-only
and verified by hashing its segments on every core; a file that does not
verify is rebuilt, and the caller is told. The library never prints: long steps and notices are
[`Event`]s passed to a callback.

Lookups rank each pattern's placement from the board (a popcount per tile)
and read one byte per pattern, issuing all reads before using any so their
cache misses overlap. A depth-first search keeps a [`PdbMemo`] per node, so
a move costs two lookups (the moved tile's pattern, on the board and on its
mirror image) instead of all of them.

One concern per file:

| file           | holds                                                                   |
| -------------- | ----------------------------------------------------------------------- |
| `partition.rs` | [`Partition`]: the built-in groupings of goal cells, per board shape    |
| `lookup.rs`    | [`Pdb`]: a partition's databases combined, the mirror, the lookup       |
| `database.rs`  | [`PatternDatabase`]: one pattern's table, checked, built, loaded, saved |
| `build.rs`     | the breadth-first construction of one table                             |
| `index.rs`     | ranks of placements, shared by construction and lookup                  |
| `store.rs`     | the file format, its checksum and atomic writes                         |
| `cache.rs`     | the default directory and the writability check                         |
| `progress.rs`  | [`Event`]: [`Progress`] reports and [`Notice`]s, and how they are labelled |
| `error.rs`     | [`PdbError`]                                                            |
*/

mod build;
mod cache;
mod database;
mod error;
mod index;
mod lookup;
mod partition;
mod progress;
mod store;
#[cfg(test)]
mod tests;

pub use cache::default_dir;
pub use database::PatternDatabase;
pub use error::PdbError;
pub use lookup::{MAX_PATTERNS, Parts, Pdb, PdbMemo};
pub use partition::{Partition, catalogue};
pub use progress::{Event, Notice, Phase, Progress};
