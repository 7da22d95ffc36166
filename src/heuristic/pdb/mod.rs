/*!
Pattern databases: the heuristic that lets IDA* solve random 15-puzzles in
milliseconds and 24-puzzles at all.

A *pattern* is a set of tiles, chosen by their goal cells so the same shapes
work for any goal. Its database holds the exact number of moves *of pattern
tiles* needed to bring them home, with all other tiles indistinguishable
and the blank roaming free through the cells they occupy. Moves of one
pattern's tiles never count for another, so over a partition of the tiles
the values add up to an admissible heuristic. Two kinds of table
([`TableKind`]) say where the blank is differently:

- *blank-minimised*: one value per placement of the tiles, the minimum over
  the blank's position; one byte each. One move can change it by several
  units, so A* must reopen closed states (ours does) and IDA* may add
  pathmax;
- *zero-aware*: one value per placement and connected region of free cells
  the blank is in (the blank crosses its region for free, but must wait
  for a pattern tile to let it out of a walled-off corner). Larger by the
  regions (1.42 times for six tiles on 5×5), higher wherever the pattern
  walls the blank off, and consistent: every move of a pattern tile
  changes the value by exactly one, so one bit per entry is enough for a
  search that knows the parent's value (`encoding.rs`).

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

Several partitions give several admissible sums, and the heuristic ([`Pdb`])
is the largest, on the board and on its mirror. Partitions are data
([`Partition`]: groups of goal cells per board shape), and so are the sets
a user picks by name ([`PartitionSet`]: a kind of table and a list of
partitions); a table two partitions share is built and looked up once.
[`PatternDatabase`] builds any pattern of any board of up to 64 cells with
at most 2³⁰ placements and 32 free cells (blank-minimised) or 2³² states
(zero-aware), which is what the tests use on small patterns of rectangles
and of the 5×5 board.

Databases are built once by a compact breadth-first search on every core
(`build.rs`, `region_build.rs`), stored in a cache directory
([`default_dir`]) as files with a verified header and checksum (see
`store.rs`), written atomically, and later mapped read-only (zero-aware
tables of boards past 4×4: copied into huge pages) and verified by hashing
its segments on every core; a file that does not verify is rebuilt,
and the caller is told. The library never prints: long steps and notices
are [`Event`]s passed to a callback.

Lookups rank each pattern's state from the board and read its entry,
issuing all reads before using any so their cache misses overlap. A
depth-first search keeps a [`PdbMemo`] per node, so a move costs the
lookups of the tables holding the moved tile, on the board and on its
mirror image, instead of all of them; and a table in bits reads the
child's value from the parent's. IDA* estimates a node's children
together: with zero-aware tables, whose lookups each wait on two reads,
every child's reads are prefetched before any is used.

One concern per file:

| file               | holds                                                                   |
| ------------------ | ----------------------------------------------------------------------- |
| `partition.rs`     | [`Partition`]: the built-in groupings of goal cells, per board shape    |
| `set.rs`           | [`PartitionSet`]: the named sets of partitions and their kind of table  |
| `lookup/`          | [`Pdb`]: the databases combined, the mirror, the memo, batched lookups  |
| `kind.rs`          | [`TableKind`]: what an entry stands for and how many bits it takes      |
| `database.rs`      | [`PatternDatabase`]: one pattern's table, checked, built, loaded, saved |
| `build.rs`         | the breadth-first construction of a blank-minimised table               |
| `region_build.rs`  | the breadth-first construction of a zero-aware table                    |
| `index.rs`         | ranks of placements, shared by construction and lookup                  |
| `region_index.rs`  | ranks of placements with the blank's region                             |
| `encoding.rs`      | one bit per zero-aware entry, and how a value comes back                |
| `store.rs`         | the file format, its checksum and atomic writes                         |
| `cache.rs`         | the default directory and the writability check                         |
| `progress.rs`      | [`Event`]: [`Progress`] reports and [`Notice`]s, and how they are labelled |
| `error.rs`         | [`PdbError`]                                                            |
| `tables.rs`        | [`Tables`]: what a search is given, and the strongest built at hand     |
*/

mod build;
mod cache;
mod database;
mod descent;
mod encoding;
mod error;
mod index;
mod kind;
mod lookup;
mod partition;
mod progress;
mod region_build;
mod region_index;
mod set;
mod store;
mod tables;
#[cfg(test)]
mod tests;

pub use cache::default_dir;
pub use database::PatternDatabase;
pub use error::PdbError;
pub use kind::TableKind;
pub use lookup::{MAX_PARTITIONS, MAX_TABLES, Parts, Pdb, PdbMemo, PdbPending};
pub use partition::Partition;
pub use progress::{Event, Notice, Phase, Progress};
pub use set::{Estimates, PartitionSet, Patterns, catalogue};
pub use tables::{Deadline, Load, Reader, Tables, Time};
