/*!
One pattern's database: its table of blank-minimised distances, the checks
a pattern must pass to have one, and the table's life: built in memory
(`build.rs` does the search), saved to and loaded from a verified file
(`store.rs` owns the format), or loaded and rebuilt when the file does not
verify. A loaded table is the file mapped read-only; a built one is
anonymous memory rather than a `Vec`, so that it can be populated in one
call, ask for huge pages once filled, and then be sealed read-only like a
loaded one.

The cache is the user's directory, so what is found there is checked
before it is trusted or waited on: an entry that is not a regular file (a
folder, a FIFO) is an error at once, never opened; a file that does not
verify is rebuilt, with a notice; and tables that cannot be saved (a
read-only cache) are built in memory for the run, with a notice.
*/

use super::cache::{refuse_non_file, writable};
use super::index::{Indexer, MAX_CELLS, cells_of};
use super::partition::catalogue;
use super::progress::{Event, Notice, reporter};
use super::store::goal_bytes;
use super::{PdbError, Phase, build, store};
use crate::board::{Board, Goal, Shape};
use crate::files::kind_of;
use memmap2::{Advice, Mmap, MmapMut};
use std::fs;
use std::path::{Path, PathBuf};

/// An anonymous, zeroed table for `bytes` entries, its pages mapped up front
/// (one call instead of a fault per page: the table is about to be filled).
fn table(bytes: usize) -> Result<MmapMut, PdbError> {
    memmap2::MmapOptions::new()
        .len(bytes)
        .populate()
        .map_anon()
        .map_err(|source| PdbError::Memory { bytes, source })
}

/// A filled table, made read-only, as a loaded one (a file map) is. It
/// first asks for transparent huge pages: lookups land all over half a
/// gigabyte, and 2 MiB pages spare them TLB misses. Not asked before
/// filling, because then the kernel must find (at times reclaim) 2 MiB
/// blocks while the table is written, which was measured to turn a 0.2 s
/// load into 1.8 s; afterwards the kernel collapses pages in the background.
fn sealed(values: MmapMut) -> Result<Mmap, PdbError> {
    // Only a hint: without huge pages lookups are slower, not wrong.
    let _ = values.advise(Advice::HugePage);
    let bytes = values.len();
    values.make_read_only().map_err(|source| PdbError::Memory { bytes, source })
}

/// The exact, blank-minimised pattern distances of one set of tiles.
#[derive(Debug)]
pub struct PatternDatabase {
    shape: Shape,
    goal: Vec<u8>,
    tiles: Vec<u8>,
    /// `tiles`, padded to a fixed array for the lookup loop.
    pub(super) order: [u8; MAX_CELLS],
    pub(super) indexer: Indexer,
    pub(super) values: Mmap,
}

impl PatternDatabase {
    /// Checks that `tiles` can form a database for `goal`.
    fn indexer(goal: &Goal, tiles: &[u8]) -> Result<Indexer, PdbError> {
        let bad = |why| Err(PdbError::BadPattern { tiles: tiles.to_vec(), why });
        let cells = goal.cells();
        if cells > MAX_CELLS {
            return Err(PdbError::UnsupportedShape { shape: goal.shape(), known: catalogue() });
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

    fn new(goal: &Goal, tiles: &[u8], indexer: Indexer, values: Mmap) -> PatternDatabase {
        let mut order = [0u8; MAX_CELLS];
        order[..tiles.len()].copy_from_slice(tiles);
        PatternDatabase {
            shape: goal.shape(),
            goal: goal_bytes(goal),
            tiles: tiles.to_vec(),
            order,
            indexer,
            values,
        }
    }

    /// Builds the database of `tiles` (1 to cells − 3 distinct tiles of a
    /// `goal` of at most 32 cells, at most 2³⁰ placements) in memory, on all
    /// cores.
    ///
    /// # Errors
    /// [`PdbError::UnsupportedShape`] or [`PdbError::BadPattern`] for
    /// patterns it cannot build, [`PdbError::Memory`] when the table cannot
    /// be allocated.
    pub fn build(
        goal: &Goal,
        tiles: &[u8],
        report: &mut dyn FnMut(Event<'_>),
    ) -> Result<PatternDatabase, PdbError> {
        let indexer = Self::indexer(goal, tiles)?;
        let mut values = table(indexer.len())?;
        let goal_cells: Vec<u8> = tiles.iter().map(|&t| goal.cell_of(u16::from(t)) as u8).collect();
        let space = build::Space {
            shape: goal.shape(),
            indexer: &indexer,
            goal_cells: &goal_cells,
            blank: goal.cell_of(0) as u8,
        };
        let threads = crate::machine::cores();
        let total = indexer.len() as u64;
        let mut progress = reporter(Phase::Building, tiles, total, report);
        progress(0);
        build::breadth_first(&space, &mut values, threads, &mut progress).map_err(|e| match e {
            build::BuildError::Memory { bytes, source } => PdbError::Memory { bytes, source },
            build::BuildError::Unreached(missing) => PdbError::Unreached { tiles: tiles.to_vec(), missing },
        })?;
        Ok(Self::new(goal, tiles, indexer, sealed(values)?))
    }

    /// A database of `tiles` holding `entries` computed elsewhere, one per
    /// placement in rank order. Nothing proves they are distances: searches
    /// guided by them still end (they test the goal on the board), but
    /// their costs are only as good as the entries.
    ///
    /// # Errors
    /// As [`PatternDatabase::build`], and [`PdbError::BadPattern`] when
    /// `entries` is not one per placement.
    pub fn from_entries(goal: &Goal, tiles: &[u8], entries: &[u8]) -> Result<PatternDatabase, PdbError> {
        let indexer = Self::indexer(goal, tiles)?;
        if entries.len() != indexer.len() {
            return Err(PdbError::BadPattern { tiles: tiles.to_vec(), why: "needs one entry per placement" });
        }
        let mut values = table(indexer.len())?;
        values.copy_from_slice(entries);
        Ok(Self::new(goal, tiles, indexer, sealed(values)?))
    }

    /// The file holding the database of `tiles` for `goal` in `dir`.
    ///
    /// # Errors
    /// As [`PatternDatabase::build`], for patterns it cannot build.
    pub fn path(dir: &Path, goal: &Goal, tiles: &[u8]) -> Result<PathBuf, PdbError> {
        let indexer = Self::indexer(goal, tiles)?;
        Ok(dir.join(identity(goal.shape(), &goal_bytes(goal), tiles, &indexer).file_name()))
    }

    /// Loads the database of `tiles` for `goal` from `path`, verifying the
    /// header against the request and the checksum against the entries as
    /// they are read.
    ///
    /// # Errors
    /// [`PdbError::Io`] when the file cannot be read (or is missing),
    /// [`PdbError::NotAFile`] when the entry is a folder, FIFO or the like
    /// (it is never opened), [`PdbError::Corrupt`] when it is damaged or was
    /// built for something else, and the errors of [`PatternDatabase::build`]
    /// for patterns it cannot hold.
    pub fn load(
        path: &Path,
        goal: &Goal,
        tiles: &[u8],
        report: &mut dyn FnMut(Event<'_>),
    ) -> Result<PatternDatabase, PdbError> {
        let indexer = Self::indexer(goal, tiles)?;
        let meta = fs::metadata(path).map_err(|source| PdbError::Io { path: path.to_owned(), source })?;
        if !meta.is_file() {
            return Err(PdbError::NotAFile { path: path.to_owned(), kind: kind_of(&meta) });
        }
        let layout = goal_bytes(goal);
        let id = identity(goal.shape(), &layout, tiles, &indexer);
        let mut progress = reporter(Phase::Loading, tiles, indexer.len() as u64, report);
        let values = store::map(path, &id, &mut progress).map_err(|e| match e {
            store::Rejected::Io(source) => PdbError::Io { path: path.to_owned(), source },
            store::Rejected::Corrupt(why) => PdbError::Corrupt { path: path.to_owned(), why },
        })?;
        Ok(Self::new(goal, tiles, indexer, values))
    }

    /// Writes the database to `path` atomically (temporary file, then rename).
    ///
    /// # Errors
    /// [`PdbError::Io`] when the directory or file cannot be written.
    pub fn save(&self, path: &Path, report: &mut dyn FnMut(Event<'_>)) -> Result<(), PdbError> {
        let id = identity(self.shape, &self.goal, &self.tiles, &self.indexer);
        let mut progress = reporter(Phase::Saving, &self.tiles, self.len() as u64, report);
        store::write(path, &id, &self.values, &mut progress)
            .map_err(|source| PdbError::Io { path: path.to_owned(), source })
    }

    /// Loads the database of `tiles` for `goal` from `dir`, or builds it
    /// when the file is missing, unreadable, damaged or foreign (saying so
    /// when it was there), and saves it, or says why it could not.
    ///
    /// # Errors
    /// [`PdbError::NotAFile`] at once when the cache holds something other
    /// than a file under the database's name; otherwise as
    /// [`PatternDatabase::build`].
    pub fn load_or_build(
        goal: &Goal,
        tiles: &[u8],
        dir: &Path,
        report: &mut dyn FnMut(Event<'_>),
    ) -> Result<PatternDatabase, PdbError> {
        let path = Self::path(dir, goal, tiles)?;
        if let Some(db) = Self::reuse(&path, goal, tiles, report)? {
            return Ok(db);
        }
        let db = Self::build(goal, tiles, report)?;
        if let Err(e) = db.save(&path, report) {
            let why = match e {
                PdbError::Io { source, .. } => crate::board::io_message(&source),
                other => other.to_string(),
            };
            report(Event::Notice(Notice::NotSaved { path: &path, why: &why }));
        }
        Ok(db)
    }

    /// The database in `path` if it loads and verifies; `None` (with a
    /// notice unless it is missing) when it must be built.
    fn reuse(
        path: &Path,
        goal: &Goal,
        tiles: &[u8],
        report: &mut dyn FnMut(Event<'_>),
    ) -> Result<Option<PatternDatabase>, PdbError> {
        use std::io::ErrorKind::{NotADirectory, NotFound};
        match Self::load(path, goal, tiles, report) {
            Ok(db) => Ok(Some(db)),
            // Missing: no file, or a cache path through a file, where there
            // cannot be one (saving then fails, and says so).
            Err(PdbError::Io { source, .. }) if matches!(source.kind(), NotFound | NotADirectory) => Ok(None),
            Err(PdbError::Io { source, .. }) => {
                let why = format!("cannot be read ({})", crate::board::io_message(&source));
                report(Event::Notice(Notice::Rebuilding { path, why: &why }));
                Ok(None)
            }
            Err(PdbError::Corrupt { why, .. }) => {
                report(Event::Notice(Notice::Rebuilding { path, why }));
                Ok(None)
            }
            Err(other) => Err(other),
        }
    }

    /// The explicit `pdb build` step for `tiles`: the directory is checked
    /// before the minutes of building, since keeping the file is its whole
    /// point; a file that verifies is kept unless `force`.
    pub(super) fn build_and_save(
        goal: &Goal,
        tiles: &[u8],
        dir: &Path,
        force: bool,
        report: &mut dyn FnMut(Event<'_>),
    ) -> Result<PatternDatabase, PdbError> {
        let path = Self::path(dir, goal, tiles)?;
        writable(dir)?;
        refuse_non_file(&path)?;
        if !force && let Some(db) = Self::reuse(&path, goal, tiles, report)? {
            return Ok(db);
        }
        let db = Self::build(goal, tiles, report)?;
        db.save(&path, report)?;
        Ok(db)
    }

    /// The pattern's tiles, in the order [`PatternDatabase::value`] takes
    /// their cells.
    pub fn tiles(&self) -> &[u8] {
        &self.tiles
    }

    /// The board shape the database was built for.
    pub fn shape(&self) -> Shape {
        self.shape
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
    pub fn lookup<B: Board>(&self, board: &B) -> u8 {
        let cell_of = cells_of(board, self.indexer.cells());
        self.get(&cell_of)
    }

    /// The entry for tiles standing at `cell_of[tile]`.
    #[inline(always)]
    #[expect(clippy::inline_always, reason = "must inline into the popcnt build")]
    pub(super) fn get(&self, cell_of: &[u8; MAX_CELLS]) -> u8 {
        self.values[self.indexer.rank_of(cell_of, &self.order)]
    }
}

/// The file identity of a pattern: what its header must say.
fn identity<'a>(shape: Shape, layout: &'a [u8], tiles: &'a [u8], indexer: &Indexer) -> store::Identity<'a> {
    store::Identity {
        width: shape.width(),
        height: shape.height(),
        goal: layout,
        tiles,
        blank: layout.iter().position(|&t| t == 0).unwrap_or(0) as u8,
        entries: indexer.len() as u64,
    }
}
