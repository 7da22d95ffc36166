/*!
The additive heuristic: one partition's databases combined, loaded or built
as a set, and looked up for a board together with the board's mirror image.
This is the search's hot path; see [`Pdb::value`].
*/

use super::cache::refuse_non_file;
use super::index::{MAX_CELLS, cells_of};
use super::progress::{Event, relabel};
use super::store::goal_bytes;
use super::{Partition, PatternDatabase, PdbError};
use crate::board::{Board, Goal};
use crate::heuristic::Heuristic;
use std::path::{Path, PathBuf};

/// Most patterns one [`Pdb`] combines.
pub const MAX_PATTERNS: usize = 8;

/// No pattern: a tile outside every pattern (or the blank).
const NO_PATTERN: u8 = u8::MAX;

/// The diagonal reflection, when it maps the goal to itself.
#[derive(Clone, Debug)]
struct Mirror {
    /// `relabel[t]`: the tile whose goal cell is the transpose of `t`'s (an
    /// involution; the blank maps to itself).
    relabel: [u8; MAX_CELLS],
    /// `transpose[cell]`: the cell mirrored along the main diagonal.
    transpose: [u8; MAX_CELLS],
}

impl Mirror {
    /// The reflection for `goal`, if it is square and its blank is on the
    /// main diagonal (then the blank maps to itself and so do the goal and
    /// the move graph).
    fn new(goal: &Goal) -> Option<Mirror> {
        let shape = goal.shape();
        let blank = goal.cell_of(0);
        if !shape.is_square() || shape.row(blank) != shape.col(blank) {
            return None;
        }
        let mut transpose = [0u8; MAX_CELLS];
        for (cell, t) in transpose.iter_mut().enumerate().take(goal.cells()) {
            *t = shape.transpose(cell) as u8;
        }
        let layout = goal.tiles().cells();
        let mut relabel = [0u8; MAX_CELLS];
        for tile in 0..goal.cells() {
            relabel[tile] = layout[usize::from(transpose[goal.cell_of(tile as u16)])] as u8;
        }
        Some(Mirror { relabel, transpose })
    }

    /// `cell_of` of the mirrored board, from the board's own.
    #[inline(always)]
    #[expect(clippy::inline_always, reason = "must inline into the popcnt build")]
    fn reflect(&self, cell_of: &[u8; MAX_CELLS], cells: usize) -> [u8; MAX_CELLS] {
        let mut out = [0u8; MAX_CELLS];
        for tile in 0..cells {
            out[usize::from(self.relabel[tile]) & (MAX_CELLS - 1)] =
                self.transpose[usize::from(cell_of[tile]) & (MAX_CELLS - 1)];
        }
        out
    }
}

/// Per-pattern values of one board and of its mirror image: what makes up
/// [`Pdb::value`], for inspection and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Parts {
    pub(super) direct: [u8; MAX_PATTERNS],
    pub(super) mirrored: [u8; MAX_PATTERNS],
}

impl Parts {
    /// The heuristic value: the larger of the two sums.
    #[inline]
    pub fn value(&self) -> u32 {
        let (direct, mirrored) = self.sums();
        direct.max(mirrored)
    }

    /// The sums over the board itself and over its mirror image (0 without
    /// the mirror): how much the mirror adds, when choosing a partition.
    #[inline]
    pub fn sums(&self) -> (u32, u32) {
        let sum = |v: &[u8; MAX_PATTERNS]| v.iter().map(|&x| u32::from(x)).sum::<u32>();
        (sum(&self.direct), sum(&self.mirrored))
    }
}

/// What an estimate leaves for its neighbours' (see
/// [`Heuristic::Memo`]): where every tile is on the board and on its mirror
/// image, and each pattern's value. A move changes one tile, so a child
/// needs one direct and one mirrored lookup, not all of them.
#[derive(Clone, Copy, Debug, Default)]
pub struct PdbMemo {
    cell_of: [u8; MAX_CELLS],
    mirror_cell_of: [u8; MAX_CELLS],
    parts: Parts,
}

/// An additive heuristic over disjoint pattern databases, with the mirror
/// lookup when the goal allows it.
#[derive(Debug)]
pub struct Pdb {
    partition: Option<Partition>,
    cells: usize,
    databases: Vec<PatternDatabase>,
    mirror: Option<Mirror>,
    /// `pattern_of[tile]`: the pattern holding the tile, or [`NO_PATTERN`].
    pattern_of: [u8; MAX_CELLS],
    /// The CPU has popcnt (checked at run time).
    fast: bool,
}

impl Pdb {
    /// Loads `partition`'s databases for `goal` from `dir`, building (and
    /// saving) each one that is missing or fails verification.
    ///
    /// # Errors
    /// [`PdbError::WrongShape`] unless the goal has the partition's shape;
    /// [`PdbError::Io`] when a rebuilt file cannot be written;
    /// [`PdbError::Memory`] when a table cannot be allocated.
    pub fn load_or_build(
        goal: &Goal,
        partition: Partition,
        dir: &Path,
        report: &mut dyn FnMut(Event<'_>),
    ) -> Result<Pdb, PdbError> {
        Self::refuse_non_files(goal, partition, dir)?;
        Self::assemble(goal, partition, report, |tiles, report| {
            PatternDatabase::load_or_build(goal, tiles, dir, report)
        })
    }

    /// Loads `partition`'s databases for `goal` from `dir`, building none.
    ///
    /// # Errors
    /// [`PdbError::WrongShape`] unless the goal has the partition's shape;
    /// [`PdbError::Io`] when a file is missing or unreadable;
    /// [`PdbError::Corrupt`] when one fails verification.
    pub fn load(
        goal: &Goal,
        partition: Partition,
        dir: &Path,
        report: &mut dyn FnMut(Event<'_>),
    ) -> Result<Pdb, PdbError> {
        Self::assemble(goal, partition, report, |tiles, report| {
            PatternDatabase::load(&PatternDatabase::path(dir, goal, tiles)?, goal, tiles, report)
        })
    }

    /// Makes every database of `partition` for `goal` in `dir` and keeps it
    /// there: the explicit `pdb build` step, which fails early when `dir`
    /// cannot be written, keeps the files that verify and rebuilds all of
    /// them when `force`.
    ///
    /// # Errors
    /// As [`Pdb::load_or_build`], and [`PdbError::Io`] when `dir` or a file
    /// cannot be written.
    pub fn build(
        goal: &Goal,
        partition: Partition,
        dir: &Path,
        force: bool,
        report: &mut dyn FnMut(Event<'_>),
    ) -> Result<Pdb, PdbError> {
        Self::refuse_non_files(goal, partition, dir)?;
        Self::assemble(goal, partition, report, |tiles, report| {
            PatternDatabase::build_and_save(goal, tiles, dir, force, report)
        })
    }

    /// A folder or FIFO under any of the partition's names is refused before
    /// the first table is built, not minutes later.
    fn refuse_non_files(goal: &Goal, partition: Partition, dir: &Path) -> Result<(), PdbError> {
        Self::paths(goal, partition, dir)?.iter().try_for_each(|path| refuse_non_file(path))
    }

    /// The databases of `partition`'s patterns, each from `each`, combined;
    /// `each` reports through `report` as if its database were alone.
    fn assemble(
        goal: &Goal,
        partition: Partition,
        report: &mut dyn FnMut(Event<'_>),
        mut each: impl FnMut(&[u8], &mut dyn FnMut(Event<'_>)) -> Result<PatternDatabase, PdbError>,
    ) -> Result<Pdb, PdbError> {
        let patterns = partition.patterns(goal)?;
        let databases = patterns
            .iter()
            .enumerate()
            .map(|(pattern, tiles)| each(tiles, &mut relabel(pattern, patterns.len(), report)))
            .collect::<Result<Vec<_>, _>>()?;
        let mut pdb = Pdb::from_databases(goal, databases)?;
        pdb.partition = Some(partition);
        Ok(pdb)
    }

    /// The files `partition`'s databases for `goal` use in `dir`.
    ///
    /// # Errors
    /// [`PdbError::WrongShape`] unless the goal has the partition's shape.
    pub fn paths(goal: &Goal, partition: Partition, dir: &Path) -> Result<Vec<PathBuf>, PdbError> {
        partition.patterns(goal)?.iter().map(|tiles| PatternDatabase::path(dir, goal, tiles)).collect()
    }

    /// Combines databases built for `goal` over disjoint tile sets (the
    /// tiles need not cover the board).
    ///
    /// # Errors
    /// [`PdbError::BadPattern`] when a database was built for another goal,
    /// two share a tile, or there are more than [`MAX_PATTERNS`].
    pub fn from_databases(goal: &Goal, databases: Vec<PatternDatabase>) -> Result<Pdb, PdbError> {
        let mut taken = 0u32;
        let mut pattern_of = [NO_PATTERN; MAX_CELLS];
        for (i, db) in databases.iter().enumerate() {
            let bad = |why| PdbError::BadPattern { tiles: db.tiles().to_vec(), why };
            if db.shape() != goal.shape() || db.goal() != goal_bytes(goal) {
                return Err(bad("built for another goal"));
            }
            if i >= MAX_PATTERNS {
                return Err(bad("too many patterns"));
            }
            let tiles = db.tiles().iter().fold(0u32, |mask, &t| mask | 1 << t);
            if tiles & taken != 0 {
                return Err(bad("shares a tile with another pattern"));
            }
            taken |= tiles;
            for &t in db.tiles() {
                pattern_of[usize::from(t)] = i as u8;
            }
        }
        Ok(Pdb {
            partition: None,
            cells: goal.cells(),
            databases,
            mirror: Mirror::new(goal),
            pattern_of,
            #[cfg(target_arch = "x86_64")]
            fast: is_x86_feature_detected!("popcnt"),
            #[cfg(not(target_arch = "x86_64"))]
            fast: false,
        })
    }

    /// Whether these databases were built for `goal` (a heuristic for
    /// another goal would be wrong, not merely weak).
    pub fn serves(&self, goal: &Goal) -> bool {
        self.databases.first().is_some_and(|db| db.shape() == goal.shape() && db.goal() == goal_bytes(goal))
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

    /// The heuristic value of the board `tiles` (row by row, as many as the
    /// goal has cells), for callers that hold no encoded board.
    pub fn value_of(&self, tiles: &[u16]) -> u32 {
        if tiles.len() <= crate::board::Packed::CAPACITY {
            self.value(&crate::board::Packed::from_tiles(tiles))
        } else {
            self.value(&crate::board::Wide::<MAX_CELLS>::from_tiles(tiles))
        }
    }

    /// The heuristic value of `board`.
    #[inline]
    pub fn value<B: Board>(&self, board: &B) -> u32 {
        self.estimate_memo(board).0
    }

    /// The value of `board` and the memo its neighbours start from.
    #[inline]
    fn estimate_memo<B: Board>(&self, board: &B) -> (u32, PdbMemo) {
        let cell_of = cells_of(board, self.cells);
        #[cfg(target_arch = "x86_64")]
        if self.fast {
            // SAFETY: `fast` is only set when the CPU has popcnt.
            return unsafe { self.fresh_fast(cell_of) };
        }
        self.fresh(cell_of)
    }

    /// [`Pdb::fresh`] with a hardware popcount (one per tile in a rank).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    unsafe fn fresh_fast(&self, cell_of: [u8; MAX_CELLS]) -> (u32, PdbMemo) {
        self.fresh(cell_of)
    }

    /// Every pattern looked up, direct and mirrored. All the indices are
    /// computed before any entry is read, so the (likely cache missing)
    /// reads are issued together and overlap.
    #[inline(always)]
    #[expect(clippy::inline_always, reason = "must inline into the popcnt build")]
    fn fresh(&self, cell_of: [u8; MAX_CELLS]) -> (u32, PdbMemo) {
        let mirror_cell_of = self.mirror.as_ref().map_or([0; MAX_CELLS], |m| m.reflect(&cell_of, self.cells));
        let n = self.databases.len();
        let mut at = [0usize; 2 * MAX_PATTERNS];
        for (i, db) in self.databases.iter().enumerate() {
            at[i] = db.indexer.rank_of(&cell_of, &db.order);
            if self.mirror.is_some() {
                at[n + i] = db.indexer.rank_of(&mirror_cell_of, &db.order);
            }
        }
        let mut parts = Parts::default();
        for (i, db) in self.databases.iter().enumerate() {
            parts.direct[i] = db.values[at[i]];
            if self.mirror.is_some() {
                parts.mirrored[i] = db.values[at[n + i]];
            }
        }
        (parts.value(), PdbMemo { cell_of, mirror_cell_of, parts })
    }

    /// The child's value after `tile` moved from `from` to `to`, from the
    /// parent's memo: one pattern of the board and one of its mirror image
    /// hold the tile, so two lookups replace them all.
    #[inline]
    fn update_memo(&self, memo: &PdbMemo, tile: u8, from: usize, to: usize) -> (u32, PdbMemo) {
        #[cfg(target_arch = "x86_64")]
        if self.fast {
            // SAFETY: `fast` is only set when the CPU has popcnt.
            return unsafe { self.moved_fast(memo, tile, from, to) };
        }
        self.moved(memo, tile, from, to)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    unsafe fn moved_fast(&self, memo: &PdbMemo, tile: u8, from: usize, to: usize) -> (u32, PdbMemo) {
        self.moved(memo, tile, from, to)
    }

    #[inline(always)]
    #[expect(clippy::inline_always, reason = "must inline into the popcnt build")]
    fn moved(&self, memo: &PdbMemo, tile: u8, from: usize, to: usize) -> (u32, PdbMemo) {
        let mut m = *memo;
        let t = usize::from(tile) & (MAX_CELLS - 1);
        m.cell_of[t] = to as u8;
        m.cell_of[0] = from as u8;
        let direct = usize::from(self.pattern_of[t]);
        let mut mirrored = usize::from(NO_PATTERN);
        if let Some(mirror) = &self.mirror {
            let mt = usize::from(mirror.relabel[t]) & (MAX_CELLS - 1);
            m.mirror_cell_of[mt] = mirror.transpose[to & (MAX_CELLS - 1)];
            m.mirror_cell_of[0] = mirror.transpose[from & (MAX_CELLS - 1)];
            mirrored = usize::from(self.pattern_of[mt]);
        }
        // Both indices first, then both reads, so their misses overlap.
        let direct_at = self.databases.get(direct).map(|db| db.indexer.rank_of(&m.cell_of, &db.order));
        let mirrored_at =
            self.databases.get(mirrored).map(|db| db.indexer.rank_of(&m.mirror_cell_of, &db.order));
        if let Some(at) = direct_at {
            m.parts.direct[direct] = self.databases[direct].values[at];
        }
        if let Some(at) = mirrored_at {
            m.parts.mirrored[mirrored] = self.databases[mirrored].values[at];
        }
        (m.parts.value(), m)
    }

    /// Every pattern's value for `board` (and its mirror image).
    pub fn parts<B: Board>(&self, board: &B) -> Parts {
        self.estimate_memo(board).1.parts
    }
}

impl<B: Board> Heuristic<B> for Pdb {
    /// Minimising over the blank makes one move able to change the value by
    /// several: A* must keep g and reopen.
    const CONSISTENT: bool = false;

    type Memo = PdbMemo;

    #[inline]
    fn estimate(&self, board: &B) -> u32 {
        self.value(board)
    }

    /// A fresh lookup, for searches that keep no memo (A*): the parent's
    /// value alone cannot say which patterns (or which side of the mirror)
    /// made it. Their entries were just read for the parent and are in
    /// cache, so the lookups of the unchanged patterns cost little.
    #[inline]
    fn update(&self, child: &B, _: u32, _: u8, _: usize, _: usize) -> u32 {
        self.value(child)
    }

    #[inline]
    fn estimate_memo(&self, board: &B) -> (u32, PdbMemo) {
        Pdb::estimate_memo(self, board)
    }

    #[inline]
    fn update_memo(&self, _: &B, _: u32, memo: &PdbMemo, tile: u8, from: usize, to: usize) -> (u32, PdbMemo) {
        Pdb::update_memo(self, memo, tile, from, to)
    }
}
