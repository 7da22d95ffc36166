/*!
The additive heuristic: one partition's databases combined, loaded or built
as a set, and looked up for a board together with the board's mirror image.
This is the search's hot path; see [`Pdb::value`].
*/

use super::database::goal_bytes;
use super::index::MAX_CELLS;
use super::progress::relabel;
use super::{Partition, PatternDatabase, PdbError, Progress};
use crate::board::{Goal, Packed};
use crate::heuristic::Heuristic;
use std::path::{Path, PathBuf};

/// Most patterns one [`Pdb`] combines.
pub const MAX_PATTERNS: usize = 8;

/// `cell_of[tile]` for the first `cells` cells of a packed board.
#[inline(always)]
#[expect(clippy::inline_always, reason = "must inline into the popcnt build")]
pub(super) fn cells_of(bits: u64, cells: usize) -> [u8; MAX_CELLS] {
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
            relabel[tile] = layout[transpose[goal.cell_of(tile as u16)] as usize] as u8;
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
    pub(super) direct: [u8; MAX_PATTERNS],
    pub(super) mirrored: [u8; MAX_PATTERNS],
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
        Self::assemble(goal, partition, progress, |tiles, progress| {
            PatternDatabase::load_or_build(goal, tiles, dir, progress)
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
        Self::assemble(goal, partition, progress, |tiles, progress| {
            PatternDatabase::load(&PatternDatabase::path(dir, goal, tiles)?, goal, tiles, progress)
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
        Self::assemble(goal, partition, progress, |tiles, progress| {
            PatternDatabase::build_and_save(goal, tiles, dir, progress)
        })
    }

    /// The databases of `partition`'s patterns, each from `each`, combined;
    /// `each` reports through `progress` as if its database were alone.
    fn assemble(
        goal: &Goal,
        partition: Partition,
        progress: &mut dyn FnMut(Progress<'_>),
        mut each: impl FnMut(&[u8], &mut dyn FnMut(Progress<'_>)) -> Result<PatternDatabase, PdbError>,
    ) -> Result<Pdb, PdbError> {
        let patterns = partition.patterns(goal)?;
        let databases = patterns
            .iter()
            .enumerate()
            .map(|(pattern, tiles)| each(tiles, &mut relabel(pattern, patterns.len(), progress)))
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
            let bad = |why| PdbError::BadPattern { tiles: db.tiles().to_vec(), why };
            if db.goal() != goal_bytes(goal) {
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

    /// Whether these databases were built for `goal` (a heuristic for
    /// another goal would be wrong, not merely weak).
    pub fn serves(&self, goal: &Goal) -> bool {
        self.databases.first().is_some_and(|db| db.goal() == goal_bytes(goal))
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
