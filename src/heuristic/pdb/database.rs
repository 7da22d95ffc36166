/*!
One pattern's database: its table of distances (blank-minimised or
zero-aware, see [`TableKind`]), the checks a pattern must pass to have one,
how an entry is read, and the table's life: built in memory (`build.rs` and
`region_build.rs` do the searches), saved to and loaded from a verified file
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
use super::descent::Descent;
use super::encoding;
use super::index::{Indexer, MAX_CELLS, cells_of};
use super::progress::{Event, Notice, reporter};
use super::region_index::RegionIndex;
use super::set::catalogue;
use super::store::goal_bytes;
use super::{PdbError, Phase, TableKind, build, region_build, store};
use crate::board::{Board, Goal, Shape, TileCells};
use crate::files::kind_of;
use memmap2::{Advice, Mmap, MmapMut};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

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

/// How a table's entries are numbered.
#[derive(Clone, Debug)]
#[expect(
    clippy::large_enum_variant,
    reason = "one per table; inline, a blank-minimised lookup follows one pointer less"
)]
pub(super) enum Ranks {
    /// By placement of the tiles (blank-minimised tables).
    Placements(Indexer),
    /// By placement and region of the blank (zero-aware tables).
    Regions(Arc<RegionIndex>),
}

impl Ranks {
    fn len(&self) -> usize {
        match self {
            Ranks::Placements(indexer) => indexer.len(),
            Ranks::Regions(index) => index.len(),
        }
    }

    /// The entry for tiles standing at `cell_of[tile]` (the blank at
    /// `cell_of[0]`).
    #[inline(always)]
    #[expect(clippy::inline_always, reason = "must inline into the popcnt build")]
    pub(super) fn rank_of<C: TileCells>(&self, cell_of: &C, tiles: &[u8; MAX_CELLS]) -> usize {
        match self {
            Ranks::Placements(indexer) => indexer.rank_of(cell_of, tiles),
            Ranks::Regions(index) => index.rank_of(cell_of, tiles),
        }
    }
}

/// The exact pattern distances of one set of tiles.
#[derive(Debug)]
pub struct PatternDatabase {
    shape: Shape,
    goal: Vec<u8>,
    tiles: Vec<u8>,
    kind: TableKind,
    /// `tiles`, padded to a fixed array for the lookup loop.
    pub(super) order: [u8; MAX_CELLS],
    pub(super) ranks: Ranks,
    /// Goal cell of each tile, in `tiles` order.
    goal_cells: Vec<u8>,
    pub(super) values: Mmap,
    /// The entries are the cache file's own pages, 4 KiB each.
    file_pages: bool,
}

impl PatternDatabase {
    /// Checks that `tiles` can form a database of `kind` for `goal`.
    fn ranks(goal: &Goal, tiles: &[u8], kind: TableKind) -> Result<Ranks, PdbError> {
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
        if kind.zero_aware() {
            RegionIndex::shared(goal.shape(), tiles.len())
                .map(Ranks::Regions)
                .map_or_else(|| bad("too many states to store"), Ok)
        } else if cells - tiles.len() > build::MAX_FREE {
            bad("too few tiles for a blank-minimised table of this board")
        } else {
            Indexer::new(cells, tiles.len())
                .map(Ranks::Placements)
                .map_or_else(|| bad("too many placements to store"), Ok)
        }
    }

    fn new(goal: &Goal, tiles: &[u8], kind: TableKind, ranks: Ranks, values: Mmap) -> PatternDatabase {
        let mut order = [0u8; MAX_CELLS];
        order[..tiles.len()].copy_from_slice(tiles);
        PatternDatabase {
            shape: goal.shape(),
            goal: goal_bytes(goal),
            tiles: tiles.to_vec(),
            kind,
            order,
            ranks,
            goal_cells: tiles.iter().map(|&t| goal.cell_of(u16::from(t)) as u8).collect(),
            values,
            file_pages: false,
        }
    }

    /// Builds the database of `kind` of `tiles` (1 to cells − 3 distinct
    /// tiles of a `goal` of at most 64 cells; at most 2³⁰ placements and 32
    /// free cells for a blank-minimised table, 2³² states for a zero-aware
    /// one) in memory,
    /// on all cores.
    ///
    /// # Errors
    /// [`PdbError::UnsupportedShape`] or [`PdbError::BadPattern`] for
    /// patterns it cannot build, [`PdbError::Memory`] when the table cannot
    /// be allocated.
    pub fn build(
        goal: &Goal,
        tiles: &[u8],
        kind: TableKind,
        report: &mut dyn FnMut(Event<'_>),
    ) -> Result<PatternDatabase, PdbError> {
        let ranks = Self::ranks(goal, tiles, kind)?;
        let goal_cells: Vec<u8> = tiles.iter().map(|&t| goal.cell_of(u16::from(t)) as u8).collect();
        let blank = goal.cell_of(0) as u8;
        let threads = crate::machine::cores();
        let total = ranks.len() as u64;
        let mut progress = reporter(Phase::Building, tiles, total, report);
        progress(0);
        let failed = |e| match e {
            build::BuildError::Memory { bytes, source } => PdbError::Memory { bytes, source },
            build::BuildError::Unreached(missing) => PdbError::Unreached { tiles: tiles.to_vec(), missing },
        };
        let values = match &ranks {
            Ranks::Placements(indexer) => {
                let mut values = table(indexer.len())?;
                let space = build::Space { shape: goal.shape(), indexer, goal_cells: &goal_cells, blank };
                build::breadth_first(&space, &mut values, threads, &mut progress).map_err(failed)?;
                values
            }
            Ranks::Regions(index) => {
                let space = region_build::Space { index, goal_cells: &goal_cells, blank };
                let bytes = region_build::breadth_first(&space, threads, &mut progress).map_err(failed)?;
                let bytes = &bytes[..index.len()];
                let mut values = table(kind.bytes(index.len() as u64) as usize)?;
                match kind {
                    TableKind::ZeroAwareBits => encoding::pack(bytes, &mut values),
                    _ => values.copy_from_slice(bytes),
                }
                values
            }
        };
        Ok(Self::new(goal, tiles, kind, ranks, sealed(values)?))
    }

    /// A database of `kind` of `tiles` holding `entries` computed
    /// elsewhere, as its file stores them (one byte per entry in rank
    /// order, or their bits). Nothing proves they are distances: searches
    /// guided by them still end (they test the goal on the board), but
    /// their costs are only as good as the entries.
    ///
    /// # Errors
    /// As [`PatternDatabase::build`], and [`PdbError::BadPattern`] when
    /// `entries` is not the size the table takes.
    pub fn from_entries(
        goal: &Goal,
        tiles: &[u8],
        kind: TableKind,
        entries: &[u8],
    ) -> Result<PatternDatabase, PdbError> {
        let ranks = Self::ranks(goal, tiles, kind)?;
        if entries.len() as u64 != kind.bytes(ranks.len() as u64) {
            return Err(PdbError::BadPattern { tiles: tiles.to_vec(), why: "needs one entry per placement" });
        }
        let mut values = table(entries.len())?;
        values.copy_from_slice(entries);
        Ok(Self::new(goal, tiles, kind, ranks, sealed(values)?))
    }

    /// The file holding the database of `kind` of `tiles` for `goal` in
    /// `dir`.
    ///
    /// # Errors
    /// As [`PatternDatabase::build`], for patterns it cannot build.
    pub fn path(dir: &Path, goal: &Goal, tiles: &[u8], kind: TableKind) -> Result<PathBuf, PdbError> {
        let ranks = Self::ranks(goal, tiles, kind)?;
        Ok(dir.join(identity(goal.shape(), &goal_bytes(goal), tiles, kind, ranks.len()).file_name()))
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
        kind: TableKind,
        report: &mut dyn FnMut(Event<'_>),
    ) -> Result<PatternDatabase, PdbError> {
        let ranks = Self::ranks(goal, tiles, kind)?;
        let meta = fs::metadata(path).map_err(|source| PdbError::Io { path: path.to_owned(), source })?;
        if !meta.is_file() {
            return Err(PdbError::NotAFile { path: path.to_owned(), kind: kind_of(&meta) });
        }
        let layout = goal_bytes(goal);
        let id = identity(goal.shape(), &layout, tiles, kind, ranks.len());
        let mut progress = reporter(Phase::Loading, tiles, id.payload(), report);
        // A zero-aware table in bits serves IDA*, whose lookups land all
        // over hundreds of megabytes: in 2 MiB pages they miss the TLB far
        // less. On the 24-puzzle, where a search takes seconds to days, that
        // saves about a tenth of its time for a copy of a few tenths of a
        // second. On the 15-puzzle it saves 5-8 % of a long batch, but the
        // huge pages' allocation now and then stalls for 0.4 s on compacting
        // memory, longer than Korf's 100 take to solve (measured); a long
        // batch copies them later (`in_huge_pages`).
        let huge = kind == TableKind::ZeroAwareBits && goal.cells() > 16;
        let values = store::map(path, &id, huge, &mut progress).map_err(|e| match e {
            store::Rejected::Io(source) => PdbError::Io { path: path.to_owned(), source },
            store::Rejected::Corrupt(why) => PdbError::Corrupt { path: path.to_owned(), why },
        })?;
        Ok(PatternDatabase { file_pages: !huge, ..Self::new(goal, tiles, kind, ranks, values) })
    }

    /// A copy of a table in bits still in its file's 4 KiB pages, read
    /// into huge pages: the copy is the cost the 15-puzzle's tables are
    /// mapped to spare at load (see [`PatternDatabase::load`]), which a
    /// long batch repays. `None` for any other table, or without memory
    /// for the copy.
    pub(super) fn in_huge_pages(&self) -> Option<PatternDatabase> {
        if self.kind != TableKind::ZeroAwareBits || !self.file_pages {
            return None;
        }
        let values = store::copy_into_huge_pages(&self.values).ok()?;
        Some(PatternDatabase {
            shape: self.shape,
            goal: self.goal.clone(),
            tiles: self.tiles.clone(),
            kind: self.kind,
            order: self.order,
            ranks: self.ranks.clone(),
            goal_cells: self.goal_cells.clone(),
            values,
            file_pages: false,
        })
    }

    /// Writes the database to `path` atomically (temporary file, then rename).
    ///
    /// # Errors
    /// [`PdbError::Io`] when the directory or file cannot be written.
    pub fn save(&self, path: &Path, report: &mut dyn FnMut(Event<'_>)) -> Result<(), PdbError> {
        let id = identity(self.shape, &self.goal, &self.tiles, self.kind, self.len());
        let mut progress = reporter(Phase::Saving, &self.tiles, id.payload(), report);
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
        kind: TableKind,
        dir: &Path,
        report: &mut dyn FnMut(Event<'_>),
    ) -> Result<PatternDatabase, PdbError> {
        let path = Self::path(dir, goal, tiles, kind)?;
        if let Some(db) = Self::reuse(&path, goal, tiles, kind, report)? {
            return Ok(db);
        }
        let db = Self::build(goal, tiles, kind, report)?;
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
        kind: TableKind,
        report: &mut dyn FnMut(Event<'_>),
    ) -> Result<Option<PatternDatabase>, PdbError> {
        use std::io::ErrorKind::{NotADirectory, NotFound};
        match Self::load(path, goal, tiles, kind, report) {
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
        kind: TableKind,
        dir: &Path,
        force: bool,
        report: &mut dyn FnMut(Event<'_>),
    ) -> Result<PatternDatabase, PdbError> {
        let path = Self::path(dir, goal, tiles, kind)?;
        writable(dir)?;
        refuse_non_file(&path)?;
        if !force && let Some(db) = Self::reuse(&path, goal, tiles, kind, report)? {
            return Ok(db);
        }
        let db = Self::build(goal, tiles, kind, report)?;
        db.save(&path, report)?;
        Ok(db)
    }

    /// The pattern's tiles, in the order [`PatternDatabase::value`] takes
    /// their cells.
    pub fn tiles(&self) -> &[u8] {
        &self.tiles
    }

    /// What the table holds per entry.
    pub fn kind(&self) -> TableKind {
        self.kind
    }

    /// The board shape the database was built for.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The goal layout the database was built for.
    pub fn goal(&self) -> &[u8] {
        &self.goal
    }

    /// Number of entries (placements, or placements and blank regions).
    pub fn len(&self) -> usize {
        self.ranks.len()
    }

    /// Always false: every pattern has at least one placement.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The stored entries, as the file holds them: a byte per entry in rank
    /// order, or eight entries' bits to a byte.
    pub fn entries(&self) -> &[u8] {
        &self.values
    }

    /// The fewest moves of pattern tiles that bring them home when tile
    /// `tiles()[i]` sits on cell `cells[i]` and the blank on `blank` (over
    /// all blank positions for a blank-minimised table, which ignores it).
    ///
    /// # Panics
    /// If `cells` is not one distinct cell per pattern tile, or `blank` is
    /// one of them or off the board.
    pub fn value(&self, cells: &[u8], blank: u8) -> u8 {
        assert_eq!(cells.len(), self.tiles.len(), "one cell per pattern tile");
        let n = self.shape.cells();
        assert!(
            cells.iter().all(|&c| usize::from(c) < n)
                && (1..cells.len()).all(|i| !cells[..i].contains(&cells[i])),
            "distinct cells on the board"
        );
        assert!(usize::from(blank) < n && !cells.contains(&blank), "the blank on a free cell");
        let mut cell_of = [0u8; MAX_CELLS];
        for (&tile, &cell) in self.tiles.iter().zip(cells) {
            cell_of[usize::from(tile)] = cell;
        }
        cell_of[0] = blank;
        self.get(&cell_of)
    }

    /// The value for the pattern's tiles and the blank as they stand on
    /// `board`.
    #[inline]
    pub fn lookup<B: Board>(&self, board: &B) -> u8 {
        let cell_of = cells_of(board, self.shape.cells());
        self.get(&cell_of)
    }

    /// The value for tiles standing at `cell_of[tile]`, the blank at
    /// `cell_of[0]`; for a table in bits, found by walking down to the goal.
    pub(super) fn get(&self, cell_of: &[u8; MAX_CELLS]) -> u8 {
        match self.kind {
            TableKind::ZeroAwareBits => self.descend(cell_of),
            _ => self.values[self.ranks.rank_of(cell_of, &self.order)],
        }
    }

    /// The value of a state of a table in bits, with no neighbour's value
    /// to start from: the steps of its walk down to the goal (see
    /// `descent.rs`).
    fn descend(&self, cell_of: &[u8; MAX_CELLS]) -> u8 {
        let mut walk = [Descent::new(self, cell_of)];
        Descent::walk_all(&mut walk, |_| self);
        walk[0].value()
    }

    /// Goal cell of each tile, in [`PatternDatabase::tiles`] order.
    pub(super) fn goal_cells(&self) -> &[u8] {
        &self.goal_cells
    }
}

/// The file identity of a pattern: what its header must say.
fn identity<'a>(
    shape: Shape,
    layout: &'a [u8],
    tiles: &'a [u8],
    kind: TableKind,
    entries: usize,
) -> store::Identity<'a> {
    store::Identity {
        width: shape.width(),
        height: shape.height(),
        goal: layout,
        tiles,
        blank: layout.iter().position(|&t| t == 0).unwrap_or(0) as u8,
        kind,
        entries: entries as u64,
    }
}
