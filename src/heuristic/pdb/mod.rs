/*!
Additive disjoint pattern databases: the 15-puzzle heuristic that IDA* needs
to solve random instances in well under a second.

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
transpose, and both built-in ones (rows against columns) are not. Goals
whose blank is off the diagonal (the 4×4 snail) simply get no mirror.

Two partitions of the 4×4 board are built in ([`Partition`]): 7-8 (the top
and bottom halves, about 0.6 GB, the strong default) and 6-6-3 (11 MB, for
low memory; see [`Partition::SixSixThree`]). [`PatternDatabase`] builds any small pattern of boards up to 4×4 in
memory, which is what the tests use.

Databases are built once by a compact, two-threaded breadth-first search
(two bits per abstract state, no per-state objects; see `build.rs`), stored
in a cache directory ([`default_dir`]) as files with a verified header and
checksum (see `store.rs`), written atomically, and later loaded with one
read; a file that does not verify is rebuilt. The library never prints: long
steps report through a [`Progress`] callback.

Lookups rank each pattern's placement from the board (a popcount per tile)
and read one byte per pattern, issuing all reads before using any so their
cache misses overlap.
*/

mod build;
mod index;
mod store;
#[cfg(test)]
mod tests;

use crate::board::{Goal, Packed};
use crate::heuristic::Heuristic;
use index::{Indexer, MAX_CELLS};
use memmap2::{Advice, MmapMut};
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use thiserror::Error;

/// Most patterns one [`Pdb`] combines.
pub const MAX_PATTERNS: usize = 8;

/// The built-in partitions of the 15-puzzle's tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Partition {
    /// The goal's top two rows and bottom two rows (each without the blank):
    /// tiles 1–7 and 8–15 for the blank-first goal. About 0.6 GB.
    SevenEight,
    /// The row farthest from the blank's goal row, less the cell in the
    /// blank's column (3 tiles); the other rows' halves, the blank's side
    /// taking that cell (6 tiles each): {1,4,5,8,9,12}, {2,3,6,7,10,11} and
    /// {13,14,15} for the blank-first goal. Of the 6-6-3 shapes tried, this
    /// one has the highest mean value (43.1 with the mirror on random boards,
    /// against 42.1 for the blank's row as the 3-tile group). 11 MB.
    SixSixThree,
}

impl Partition {
    /// Every partition, strongest first.
    pub const ALL: [Partition; 2] = [Partition::SevenEight, Partition::SixSixThree];

    /// The name used on the command line: `"7-8"` or `"6-6-3"`.
    pub const fn name(self) -> &'static str {
        match self {
            Partition::SevenEight => "7-8",
            Partition::SixSixThree => "6-6-3",
        }
    }

    /// The tiles of each pattern for `goal`, each in goal-cell order.
    ///
    /// # Errors
    /// [`PdbError::UnsupportedWidth`] unless the goal is 4×4.
    pub fn patterns(self, goal: &Goal) -> Result<Vec<Vec<u8>>, PdbError> {
        let width = goal.width();
        if width != 4 {
            return Err(PdbError::UnsupportedWidth { width });
        }
        let blank = goal.cell_of(0);
        let groups: Vec<Vec<usize>> = match self {
            Partition::SevenEight => vec![(0..8).collect(), (8..16).collect()],
            Partition::SixSixThree => {
                // The row farthest from the blank's makes the 3-tile group,
                // less the cell in the blank's column, which joins the blank's
                // side of the other rows (split into left and right halves).
                let far = if blank / 4 < 2 { 3 } else { 0 };
                let corner = far * 4 + blank % 4;
                let blank_side = |c: usize| (c % 4 < 2) == (blank % 4 < 2);
                vec![
                    (0..16).filter(|&c| (c / 4 != far && blank_side(c)) || c == corner).collect(),
                    (0..16).filter(|&c| c / 4 != far && !blank_side(c)).collect(),
                    (0..16).filter(|&c| c / 4 == far && c != corner).collect(),
                ]
            }
        };
        let layout = goal.tiles().cells();
        Ok(groups
            .into_iter()
            .map(|cells| cells.into_iter().filter(|&c| c != blank).map(|c| layout[c]).collect())
            .collect())
    }
}

impl fmt::Display for Partition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Partition {
    type Err = PdbError;

    fn from_str(s: &str) -> Result<Partition, PdbError> {
        Partition::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| PdbError::UnknownPartition(s.to_owned()))
    }
}

/// What can go wrong while building, loading or combining databases.
#[derive(Debug, Error)]
pub enum PdbError {
    /// The built-in partitions exist only for 4×4 boards (custom patterns
    /// for 2×2 to 4×4).
    #[error(
        "pattern databases are not available for {width}×{width} boards \
         (the 7-8 and 6-6-3 partitions are for 4×4)"
    )]
    UnsupportedWidth {
        /// The goal's width.
        width: usize,
    },
    /// A partition name that is not `7-8` or `6-6-3`.
    #[error("unknown partition '{0}': expected 7-8 or 6-6-3")]
    UnknownPartition(String),
    /// A pattern that cannot be built (or patterns that cannot be combined).
    #[error("pattern {tiles:?}: {why}")]
    BadPattern {
        /// The pattern's tiles.
        tiles: Vec<u8>,
        /// What is wrong with it.
        why: &'static str,
    },
    /// A database file that is damaged or not the one asked for.
    #[error("{}: {why}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What did not match.
        why: &'static str,
    },
    /// Reading or writing a database file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: io::Error,
    },
    /// Memory for a table could not be mapped.
    #[error("cannot allocate {bytes} bytes for a pattern database: {source}")]
    Memory {
        /// The size asked for.
        bytes: usize,
        /// The underlying error.
        #[source]
        source: io::Error,
    },
    /// The construction left placements unreached (a bug, reported rather
    /// than stored).
    #[error("pattern {tiles:?}: construction left {missing} placements unreached")]
    Unreached {
        /// The pattern's tiles.
        tiles: Vec<u8>,
        /// How many placements have no value.
        missing: u64,
    },
}

/// The step a [`Progress`] report is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Reading and verifying a file; counts bytes.
    Loading,
    /// Breadth-first construction; counts placements reached.
    Building,
    /// Writing a file; counts bytes.
    Saving,
}

/// A progress report, for drawing a bar: `done` of `total` in `phase` for
/// the database of `tiles`, the `pattern`-th (from 0) of `patterns`.
#[derive(Clone, Copy, Debug)]
pub struct Progress<'a> {
    /// What is happening.
    pub phase: Phase,
    /// Index of the database within its partition.
    pub pattern: usize,
    /// Number of databases in the partition.
    pub patterns: usize,
    /// The database's tiles.
    pub tiles: &'a [u8],
    /// Units done.
    pub done: u64,
    /// Units in all.
    pub total: u64,
}

/// Where databases are cached by default: `$XDG_CACHE_HOME/npuzzle`, or
/// `~/.cache/npuzzle` when that is unset (or, as the XDG spec requires of a
/// relative path, invalid). `None` when neither is known.
pub fn default_dir() -> Option<PathBuf> {
    let xdg = std::env::var_os("XDG_CACHE_HOME").map(PathBuf::from).filter(|p| p.is_absolute());
    let home = || std::env::var_os("HOME").filter(|h| !h.is_empty()).map(|h| PathBuf::from(h).join(".cache"));
    xdg.or_else(home).map(|base| base.join("npuzzle"))
}

/// Checks that files can be written in `dir` (creating it): minutes of
/// building are wasted if the result cannot be kept.
fn writable(dir: &Path) -> Result<(), PdbError> {
    store::ensure_writable(dir).map_err(|source| PdbError::Io { path: dir.to_owned(), source })
}

/// Which database of how many a long step is for, to label progress.
#[derive(Clone, Copy)]
struct Job {
    pattern: usize,
    patterns: usize,
}

const SINGLE: Job = Job { pattern: 0, patterns: 1 };

impl Job {
    /// A callback taking the units done so far and reporting them as
    /// `phase` of this job, out of `total`.
    fn reporter<'a>(
        self,
        phase: Phase,
        tiles: &'a [u8],
        total: u64,
        progress: &'a mut dyn FnMut(Progress<'_>),
    ) -> impl FnMut(u64) + 'a {
        move |done| {
            progress(Progress { phase, pattern: self.pattern, patterns: self.patterns, tiles, done, total });
        }
    }
}

/// An anonymous, zeroed table for `bytes` entries, its pages mapped up front
/// (one call instead of a fault per page: the table is about to be filled).
fn table(bytes: usize) -> Result<MmapMut, PdbError> {
    memmap2::MmapOptions::new()
        .len(bytes)
        .populate()
        .map_anon()
        .map_err(|source| PdbError::Memory { bytes, source })
}

/// Asks for transparent huge pages once a table is filled: lookups land all
/// over half a gigabyte, and 2 MiB pages spare them TLB misses. Not asked
/// before filling, because then the kernel must find (at times reclaim)
/// 2 MiB blocks while the file is read, which was measured to turn a 0.2 s
/// load into 1.8 s; afterwards the kernel collapses pages in the background.
fn prefer_huge_pages(map: &MmapMut) {
    // Only a hint: without huge pages lookups are slower, not wrong.
    let _ = map.advise(Advice::HugePage);
}

/// The exact, blank-minimised pattern distances of one set of tiles.
#[derive(Debug)]
pub struct PatternDatabase {
    width: usize,
    goal: Vec<u8>,
    tiles: Vec<u8>,
    /// `tiles`, padded to a fixed array for the lookup loop.
    order: [u8; MAX_CELLS],
    indexer: Indexer,
    values: MmapMut,
}

impl PatternDatabase {
    /// Checks that `tiles` can form a database for `goal`.
    fn indexer(goal: &Goal, tiles: &[u8]) -> Result<Indexer, PdbError> {
        let bad = |why| Err(PdbError::BadPattern { tiles: tiles.to_vec(), why });
        let cells = goal.cells();
        if !(2..=4).contains(&goal.width()) {
            return Err(PdbError::UnsupportedWidth { width: goal.width() });
        }
        if tiles.is_empty() {
            return bad("no tiles");
        }
        if tiles.iter().any(|&t| t == 0 || usize::from(t) >= cells) {
            return bad("tiles must be between 1 and the number of cells − 1");
        }
        if (1..tiles.len()).any(|i| tiles[..i].contains(&tiles[i])) {
            return bad("a tile appears twice");
        }
        // With fewer than two other tiles, parity makes half the placements
        // unreachable and the database is the whole puzzle anyway.
        if tiles.len() + 3 > cells {
            return bad("leave at least two tiles out of the pattern");
        }
        Indexer::new(cells, tiles.len()).map_or_else(|| bad("too many placements to store"), Ok)
    }

    fn new(goal: &Goal, tiles: &[u8], indexer: Indexer, values: MmapMut) -> PatternDatabase {
        let mut order = [0u8; MAX_CELLS];
        order[..tiles.len()].copy_from_slice(tiles);
        PatternDatabase {
            width: goal.width(),
            goal: goal.tiles().cells().to_vec(),
            tiles: tiles.to_vec(),
            order,
            indexer,
            values,
        }
    }

    /// Builds the database of `tiles` (any 1 to N²−3 distinct tiles of a
    /// 2×2 to 4×4 `goal`, at most 2³⁰ placements) in memory, on all cores.
    ///
    /// # Errors
    /// [`PdbError::UnsupportedWidth`] or [`PdbError::BadPattern`] for
    /// patterns it cannot build, [`PdbError::Memory`] when the table cannot
    /// be allocated.
    pub fn build(
        goal: &Goal,
        tiles: &[u8],
        progress: &mut dyn FnMut(Progress<'_>),
    ) -> Result<PatternDatabase, PdbError> {
        Self::build_job(goal, tiles, SINGLE, progress)
    }

    fn build_job(
        goal: &Goal,
        tiles: &[u8],
        job: Job,
        progress: &mut dyn FnMut(Progress<'_>),
    ) -> Result<PatternDatabase, PdbError> {
        let indexer = Self::indexer(goal, tiles)?;
        let mut values = table(indexer.len())?;
        let goal_cells: Vec<u8> = tiles.iter().map(|&t| goal.cell_of(t) as u8).collect();
        let space = build::Space {
            width: goal.width(),
            indexer: &indexer,
            goal_cells: &goal_cells,
            blank: goal.cell_of(0) as u8,
        };
        let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        let total = indexer.len() as u64;
        let mut report = job.reporter(Phase::Building, tiles, total, progress);
        report(0);
        build::breadth_first(&space, &mut values, threads, &mut report).map_err(|e| match e {
            build::BuildError::Memory { bytes, source } => PdbError::Memory { bytes, source },
            build::BuildError::Unreached(missing) => PdbError::Unreached { tiles: tiles.to_vec(), missing },
        })?;
        prefer_huge_pages(&values);
        Ok(Self::new(goal, tiles, indexer, values))
    }

    /// The file holding the database of `tiles` for `goal` in `dir`.
    ///
    /// # Errors
    /// As [`PatternDatabase::build`], for patterns it cannot build.
    pub fn path(dir: &Path, goal: &Goal, tiles: &[u8]) -> Result<PathBuf, PdbError> {
        let indexer = Self::indexer(goal, tiles)?;
        Ok(dir.join(identity(goal, tiles, &indexer).file_name()))
    }

    /// Loads the database of `tiles` for `goal` from `path`, verifying the
    /// header against the request and the checksum against the entries.
    ///
    /// # Errors
    /// [`PdbError::Io`] when the file cannot be read, [`PdbError::Corrupt`]
    /// when it is damaged or was built for something else, and the errors of
    /// [`PatternDatabase::build`] for patterns it cannot hold.
    pub fn load(path: &Path, goal: &Goal, tiles: &[u8]) -> Result<PatternDatabase, PdbError> {
        Self::load_job(path, goal, tiles, SINGLE, &mut |_| {})
    }

    fn load_job(
        path: &Path,
        goal: &Goal,
        tiles: &[u8],
        job: Job,
        progress: &mut dyn FnMut(Progress<'_>),
    ) -> Result<PatternDatabase, PdbError> {
        let indexer = Self::indexer(goal, tiles)?;
        let mut values = table(indexer.len())?;
        let id = identity(goal, tiles, &indexer);
        let total = indexer.len() as u64;
        let mut report = job.reporter(Phase::Loading, tiles, total, progress);
        store::read(path, &id, &mut values, &mut report).map_err(|e| match e {
            store::Rejected::Io(source) => PdbError::Io { path: path.to_owned(), source },
            store::Rejected::Corrupt(why) => PdbError::Corrupt { path: path.to_owned(), why },
        })?;
        prefer_huge_pages(&values);
        Ok(Self::new(goal, tiles, indexer, values))
    }

    /// Writes the database to `path` atomically (temporary file, then rename).
    ///
    /// # Errors
    /// [`PdbError::Io`] when the directory or file cannot be written.
    pub fn save(&self, path: &Path) -> Result<(), PdbError> {
        self.save_job(path, SINGLE, &mut |_| {})
    }

    fn save_job(
        &self,
        path: &Path,
        job: Job,
        progress: &mut dyn FnMut(Progress<'_>),
    ) -> Result<(), PdbError> {
        let id = store::Identity {
            width: self.width,
            goal: &self.goal,
            tiles: &self.tiles,
            blank: self.blank(),
            entries: self.len() as u64,
        };
        let total = self.len() as u64;
        let mut report = job.reporter(Phase::Saving, &self.tiles, total, progress);
        store::write(path, &id, &self.values, &mut report)
            .map_err(|source| PdbError::Io { path: path.to_owned(), source })
    }

    /// Loads the database of `tiles` for `goal` from `dir`, or builds and
    /// saves it when the file is missing, unreadable, damaged or foreign.
    ///
    /// # Errors
    /// As [`PatternDatabase::build`] and [`PatternDatabase::save`].
    pub fn load_or_build(
        goal: &Goal,
        tiles: &[u8],
        dir: &Path,
        progress: &mut dyn FnMut(Progress<'_>),
    ) -> Result<PatternDatabase, PdbError> {
        Self::load_or_build_job(goal, tiles, dir, SINGLE, progress)
    }

    fn load_or_build_job(
        goal: &Goal,
        tiles: &[u8],
        dir: &Path,
        job: Job,
        progress: &mut dyn FnMut(Progress<'_>),
    ) -> Result<PatternDatabase, PdbError> {
        let path = Self::path(dir, goal, tiles)?;
        match Self::load_job(&path, goal, tiles, job, progress) {
            Ok(db) => Ok(db),
            // Whatever is wrong with the file, a fresh build replaces it.
            Err(PdbError::Io { .. } | PdbError::Corrupt { .. }) => {
                writable(dir)?;
                let db = Self::build_job(goal, tiles, job, progress)?;
                db.save_job(&path, job, progress)?;
                Ok(db)
            }
            Err(other) => Err(other),
        }
    }

    fn blank(&self) -> u8 {
        self.goal.iter().position(|&t| t == 0).unwrap_or(0) as u8
    }

    /// The pattern's tiles, in the order [`PatternDatabase::value`] takes
    /// their cells.
    pub fn tiles(&self) -> &[u8] {
        &self.tiles
    }

    /// The goal layout the database was built for.
    pub fn goal(&self) -> &[u8] {
        &self.goal
    }

    /// Number of entries (placements).
    pub fn len(&self) -> usize {
        self.indexer.len()
    }

    /// Always false: every pattern has at least one placement.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Every entry, indexed by placement rank.
    pub fn entries(&self) -> &[u8] {
        &self.values
    }

    /// The fewest moves of pattern tiles that bring them home when tile
    /// `tiles()[i]` sits on cell `cells[i]`, over all blank positions.
    ///
    /// # Panics
    /// If `cells` is not one distinct cell per pattern tile.
    pub fn value(&self, cells: &[u8]) -> u8 {
        assert_eq!(cells.len(), self.tiles.len(), "one cell per pattern tile");
        let n = self.indexer.cells();
        assert!(
            cells.iter().all(|&c| usize::from(c) < n)
                && (1..cells.len()).all(|i| !cells[..i].contains(&cells[i])),
            "distinct cells on the board"
        );
        self.values[self.indexer.rank(cells)]
    }

    /// The entry for the placement of the pattern's tiles on `board`.
    #[inline]
    pub fn lookup(&self, board: &Packed) -> u8 {
        let cell_of = cells_of(board.bits(), self.indexer.cells());
        self.get(&cell_of)
    }

    /// The entry for tiles sitting at `cell_of[tile]`.
    #[inline(always)]
    #[expect(clippy::inline_always, reason = "must inline into the popcnt build")]
    fn get(&self, cell_of: &[u8; MAX_CELLS]) -> u8 {
        self.values[self.indexer.rank_of(cell_of, &self.order)]
    }
}

/// The file identity of a pattern: what its header must say.
fn identity<'a>(goal: &'a Goal, tiles: &'a [u8], indexer: &Indexer) -> store::Identity<'a> {
    store::Identity {
        width: goal.width(),
        goal: goal.tiles().cells(),
        tiles,
        blank: goal.cell_of(0) as u8,
        entries: indexer.len() as u64,
    }
}

/// `cell_of[tile]` for the first `cells` cells of a packed board.
#[inline(always)]
#[expect(clippy::inline_always, reason = "must inline into the popcnt build")]
fn cells_of(bits: u64, cells: usize) -> [u8; MAX_CELLS] {
    let mut cell_of = [0u8; MAX_CELLS];
    for cell in 0..cells {
        cell_of[((bits >> (4 * cell)) & 0xF) as usize] = cell as u8;
    }
    cell_of
}

/// The diagonal reflection, when it maps the goal to itself.
#[derive(Clone, Debug)]
struct Mirror {
    /// `relabel[t]`: the tile whose goal cell is the transpose of `t`'s.
    relabel: [u8; MAX_CELLS],
    /// `transpose[cell]`: the cell mirrored along the main diagonal.
    transpose: [u8; MAX_CELLS],
}

impl Mirror {
    /// The reflection for `goal`, if its blank is on the main diagonal (then
    /// the blank maps to itself and so do the goal and the move graph).
    fn new(goal: &Goal) -> Option<Mirror> {
        let width = goal.width();
        let blank = goal.cell_of(0);
        if blank / width != blank % width {
            return None;
        }
        let mut transpose = [0u8; MAX_CELLS];
        for (cell, t) in transpose.iter_mut().enumerate().take(goal.cells()) {
            *t = ((cell % width) * width + cell / width) as u8;
        }
        let layout = goal.tiles().cells();
        let mut relabel = [0u8; MAX_CELLS];
        for tile in 0..goal.cells() {
            relabel[tile] = layout[transpose[goal.cell_of(tile as u8)] as usize];
        }
        Some(Mirror { relabel, transpose })
    }

    /// `cell_of` of the mirrored board, from the board's own.
    #[inline(always)]
    #[expect(clippy::inline_always, reason = "must inline into the popcnt build")]
    fn reflect(&self, cell_of: &[u8; MAX_CELLS], cells: usize) -> [u8; MAX_CELLS] {
        let mut out = [0u8; MAX_CELLS];
        for tile in 0..cells {
            out[self.relabel[tile] as usize] = self.transpose[cell_of[tile] as usize];
        }
        out
    }
}

/// Per-pattern values of one board and of its mirror image: what makes up
/// [`Pdb::value`], for inspection and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Parts {
    direct: [u8; MAX_PATTERNS],
    mirrored: [u8; MAX_PATTERNS],
}

impl Parts {
    /// The heuristic value: the larger of the two sums.
    #[inline]
    pub fn value(&self) -> u32 {
        let sum = |v: &[u8; MAX_PATTERNS]| v.iter().map(|&x| u32::from(x)).sum::<u32>();
        sum(&self.direct).max(sum(&self.mirrored))
    }
}

/// An additive heuristic over disjoint pattern databases, with the mirror
/// lookup when the goal allows it.
#[derive(Debug)]
pub struct Pdb {
    partition: Option<Partition>,
    cells: usize,
    databases: Vec<PatternDatabase>,
    mirror: Option<Mirror>,
    /// The CPU has popcnt (checked at run time).
    fast: bool,
}

impl Pdb {
    /// Loads `partition`'s databases for `goal` from `dir`, building (and
    /// saving) each one that is missing or fails verification.
    ///
    /// # Errors
    /// [`PdbError::UnsupportedWidth`] unless the goal is 4×4;
    /// [`PdbError::Io`] when a rebuilt file cannot be written;
    /// [`PdbError::Memory`] when a table cannot be allocated.
    pub fn load_or_build(
        goal: &Goal,
        partition: Partition,
        dir: &Path,
        progress: &mut dyn FnMut(Progress<'_>),
    ) -> Result<Pdb, PdbError> {
        Self::assemble(goal, partition, |tiles, job| {
            PatternDatabase::load_or_build_job(goal, tiles, dir, job, progress)
        })
    }

    /// Loads `partition`'s databases for `goal` from `dir`, building none.
    ///
    /// # Errors
    /// [`PdbError::UnsupportedWidth`] unless the goal is 4×4;
    /// [`PdbError::Io`] when a file is missing or unreadable;
    /// [`PdbError::Corrupt`] when one fails verification.
    pub fn load(
        goal: &Goal,
        partition: Partition,
        dir: &Path,
        progress: &mut dyn FnMut(Progress<'_>),
    ) -> Result<Pdb, PdbError> {
        Self::assemble(goal, partition, |tiles, job| {
            PatternDatabase::load_job(&PatternDatabase::path(dir, goal, tiles)?, goal, tiles, job, progress)
        })
    }

    /// Builds and saves every database of `partition` for `goal` in `dir`,
    /// replacing any files there (the explicit `pdb build --force` step).
    ///
    /// # Errors
    /// As [`Pdb::load_or_build`].
    pub fn build(
        goal: &Goal,
        partition: Partition,
        dir: &Path,
        progress: &mut dyn FnMut(Progress<'_>),
    ) -> Result<Pdb, PdbError> {
        Self::assemble(goal, partition, |tiles, job| {
            let path = PatternDatabase::path(dir, goal, tiles)?;
            writable(dir)?;
            let db = PatternDatabase::build_job(goal, tiles, job, progress)?;
            db.save_job(&path, job, progress)?;
            Ok(db)
        })
    }

    /// The databases of `partition`'s patterns, each from `each`, combined.
    fn assemble(
        goal: &Goal,
        partition: Partition,
        mut each: impl FnMut(&[u8], Job) -> Result<PatternDatabase, PdbError>,
    ) -> Result<Pdb, PdbError> {
        let patterns = partition.patterns(goal)?;
        let databases = patterns
            .iter()
            .enumerate()
            .map(|(pattern, tiles)| each(tiles, Job { pattern, patterns: patterns.len() }))
            .collect::<Result<Vec<_>, _>>()?;
        let mut pdb = Pdb::from_databases(goal, databases)?;
        pdb.partition = Some(partition);
        Ok(pdb)
    }

    /// The files `partition`'s databases for `goal` use in `dir`.
    ///
    /// # Errors
    /// [`PdbError::UnsupportedWidth`] unless the goal is 4×4.
    pub fn paths(goal: &Goal, partition: Partition, dir: &Path) -> Result<Vec<PathBuf>, PdbError> {
        partition.patterns(goal)?.iter().map(|tiles| PatternDatabase::path(dir, goal, tiles)).collect()
    }

    /// Combines databases built for `goal` over disjoint tile sets (any
    /// board up to 4×4; the tiles need not cover the board).
    ///
    /// # Errors
    /// [`PdbError::BadPattern`] when a database was built for another goal,
    /// two share a tile, or there are more than [`MAX_PATTERNS`].
    pub fn from_databases(goal: &Goal, databases: Vec<PatternDatabase>) -> Result<Pdb, PdbError> {
        let mut taken = 0u32;
        for (i, db) in databases.iter().enumerate() {
            let bad = |why| PdbError::BadPattern { tiles: db.tiles.clone(), why };
            if db.goal != goal.tiles().cells() {
                return Err(bad("built for another goal"));
            }
            if i >= MAX_PATTERNS {
                return Err(bad("too many patterns"));
            }
            let tiles = db.tiles.iter().fold(0u32, |mask, &t| mask | 1 << t);
            if tiles & taken != 0 {
                return Err(bad("shares a tile with another pattern"));
            }
            taken |= tiles;
        }
        Ok(Pdb {
            partition: None,
            cells: goal.cells(),
            databases,
            mirror: Mirror::new(goal),
            #[cfg(target_arch = "x86_64")]
            fast: is_x86_feature_detected!("popcnt"),
            #[cfg(not(target_arch = "x86_64"))]
            fast: false,
        })
    }

    /// The built-in partition these databases form, if any.
    pub fn partition(&self) -> Option<Partition> {
        self.partition
    }

    /// The databases, in partition order.
    pub fn databases(&self) -> &[PatternDatabase] {
        &self.databases
    }

    /// Whether the mirror lookup is used (the blank's goal cell is on the
    /// main diagonal).
    pub fn mirrored(&self) -> bool {
        self.mirror.is_some()
    }

    /// The heuristic value of `board`.
    #[inline]
    pub fn value(&self, board: &Packed) -> u32 {
        #[cfg(target_arch = "x86_64")]
        if self.fast {
            // SAFETY: `fast` is only set when the CPU has popcnt.
            return unsafe { self.value_fast(*board) };
        }
        self.value_portable(*board)
    }

    /// [`Pdb::value`] with a hardware popcount (one per tile in the rank).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    unsafe fn value_fast(&self, board: Packed) -> u32 {
        self.value_portable(board)
    }

    /// Computes every index before reading any entry, so the (likely cache
    /// missing) reads are issued together and overlap.
    #[inline(always)]
    #[expect(clippy::inline_always, reason = "must inline into the popcnt build")]
    fn value_portable(&self, board: Packed) -> u32 {
        let mut at = [0usize; 2 * MAX_PATTERNS];
        self.indices(board, &mut at);
        self.combine(&at)
    }

    /// The entry index of every pattern, direct then mirrored.
    #[inline(always)]
    #[expect(clippy::inline_always, reason = "must inline into the popcnt build")]
    fn indices(&self, board: Packed, at: &mut [usize; 2 * MAX_PATTERNS]) {
        let cell_of = cells_of(board.bits(), self.cells);
        let n = self.databases.len();
        for (i, db) in self.databases.iter().enumerate() {
            at[i] = db.indexer.rank_of(&cell_of, &db.order);
        }
        if let Some(m) = &self.mirror {
            let mirrored = m.reflect(&cell_of, self.cells);
            for (i, db) in self.databases.iter().enumerate() {
                at[n + i] = db.indexer.rank_of(&mirrored, &db.order);
            }
        }
    }

    /// Reads the entries at `at` and combines them: sum, then the larger of
    /// the direct and mirrored sums.
    #[inline(always)]
    #[expect(clippy::inline_always, reason = "must inline into the popcnt build")]
    fn combine(&self, at: &[usize; 2 * MAX_PATTERNS]) -> u32 {
        let n = self.databases.len();
        let sum = |at: &[usize]| -> u32 {
            self.databases.iter().zip(at).map(|(db, &i)| u32::from(db.values[i])).sum()
        };
        let direct = sum(&at[..n]);
        if self.mirror.is_some() { direct.max(sum(&at[n..2 * n])) } else { direct }
    }

    /// Every pattern's value for `board` (and its mirror image).
    pub fn parts(&self, board: &Packed) -> Parts {
        let cell_of = cells_of(board.bits(), self.cells);
        let mut parts = Parts::default();
        for (i, db) in self.databases.iter().enumerate() {
            parts.direct[i] = db.get(&cell_of);
        }
        if let Some(m) = &self.mirror {
            let mirrored = m.reflect(&cell_of, self.cells);
            for (i, db) in self.databases.iter().enumerate() {
                parts.mirrored[i] = db.get(&mirrored);
            }
        }
        parts
    }
}

impl Heuristic<Packed> for Pdb {
    /// Minimising over the blank makes one move able to change the value by
    /// several: A* must keep g and reopen.
    const CONSISTENT: bool = false;

    #[inline]
    fn estimate(&self, board: &Packed) -> u32 {
        self.value(board)
    }

    /// A fresh lookup: the parent's value alone cannot say which patterns
    /// (or which side of the mirror) made it, so the other patterns' values
    /// cannot be kept. Their entries were just read for the parent and are
    /// in cache, so the lookups of the unchanged patterns cost little.
    #[inline]
    fn update(&self, child: &Packed, _: u32, _: u8, _: usize, _: usize) -> u32 {
        self.value(child)
    }
}
