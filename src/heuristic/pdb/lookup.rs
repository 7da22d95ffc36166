/*!
The heuristic: the databases of a set of partitions combined, loaded or
built together, and looked up for a board and for the board's mirror image.
Within a partition the patterns' values add up; over the partitions, and
over the board and its mirror, the largest sum is taken. This is the
search's hot path; see [`Pdb::value`].
*/

use super::cache::refuse_non_file;
use super::database::Ranks;
use super::descent::Descent;
use super::encoding::{bit_at, step};
use super::index::{MAX_CELLS, cells_of};
use super::progress::{Event, relabel};
use super::store::goal_bytes;
use super::{PartitionSet, PatternDatabase, PdbError, TableKind};
use crate::board::{Board, Goal, TileCells};
use crate::heuristic::{Heuristic, Slide};
use std::path::{Path, PathBuf};

mod single;

/// Most databases one [`Pdb`] combines.
pub const MAX_TABLES: usize = 16;

/// Most children a node has: one per neighbour of the blank.
const CHILDREN: usize = 4;

/// Most partitions one [`Pdb`] takes the maximum over.
pub const MAX_PARTITIONS: usize = 8;
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
    fn reflect<C: TileCells>(&self, cell_of: &C, cells: usize) -> C {
        let mut out = C::ZERO;
        let (from, to) = (cell_of.bytes(), out.bytes_mut());
        for tile in 0..cells.min(C::LEN).min(MAX_CELLS) {
            to[usize::from(self.relabel[tile]) & (C::LEN - 1)] =
                self.transpose[usize::from(from[tile]) & (MAX_CELLS - 1)];
        }
        out
    }
}

/// Per-database values of one board and of its mirror image, and the
/// best sums: what makes up [`Pdb::value`], for inspection and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Parts {
    pub(super) direct: [u8; MAX_TABLES],
    pub(super) mirrored: [u8; MAX_TABLES],
    /// The largest partition's sum over the board, and over its mirror.
    best: (u32, u32),
}

impl Parts {
    /// The heuristic value: the largest sum.
    #[inline]
    pub fn value(&self) -> u32 {
        self.best.0.max(self.best.1)
    }

    /// The largest sum over the board itself and over its mirror image (0
    /// without the mirror): how much the mirror adds, when choosing
    /// partitions.
    #[inline]
    pub fn sums(&self) -> (u32, u32) {
        self.best
    }

    /// Each database's value on the board, in [`Pdb::databases`] order.
    pub fn direct(&self) -> &[u8; MAX_TABLES] {
        &self.direct
    }

    /// Each database's value on the mirror image (0 without the mirror).
    pub fn mirrored(&self) -> &[u8; MAX_TABLES] {
        &self.mirrored
    }
}

/// What an estimate leaves for its neighbours' (see
/// [`Heuristic::Memo`]): where every tile is on the board and on its mirror
/// image, and each database's value on both. A move changes one tile, so a
/// child needs the lookups of the databases holding it, on the board and
/// on the mirror, not all of them; and a table in bits needs the parent's
/// value to be read at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PdbMemo<C> {
    /// `cell_of[side][tile]`: side 0 the board, side 1 its mirror image,
    /// as wide as the board's encoding (see [`TileCells`]).
    cell_of: [C; 2],
    /// Each database's value on the board, then (from [`MAX_TABLES`]) on
    /// the mirror image.
    values: [u8; 2 * MAX_TABLES],
}

impl<C: TileCells> Default for PdbMemo<C> {
    fn default() -> Self {
        PdbMemo { cell_of: [C::ZERO; 2], values: [0; 2 * MAX_TABLES] }
    }
}

/// Most lookups of one node's children: every table, on the board and on
/// its mirror, for each child.
const MOST_LOOKUPS: usize = CHILDREN * 2 * MAX_TABLES;

/// The lookups of a node's children under way (see
/// [`Heuristic::begin_children`]): for each, the child, the value slot it
/// fills and the entry it reads.
#[derive(Clone, Copy, Debug)]
pub struct PdbPending {
    count: u8,
    child_of: [u8; MOST_LOOKUPS],
    slots: [u8; MOST_LOOKUPS],
    at: [u32; MOST_LOOKUPS],
    /// Per zero-aware lookup whose map record is asked for, the tiles'
    /// order; `at` holds the map's rank until the entry is known.
    orders: [u32; MOST_LOOKUPS],
    /// Whether map records are asked for and the entries not yet.
    records_due: bool,
    /// Whether these are the first round's reads, of the parent's best
    /// partition alone (see [`Pdb::begin_with`]).
    first_round: bool,
    /// The parent's best partition: the side of the mirror and its bytes.
    best: (u8, u128),
    /// The cut the first round's sums are held against.
    cut: u32,
    /// Per child, the databases (on the board, on its mirror) the second
    /// round still reads.
    rest: [[u16; 2]; CHILDREN],
    /// Per child, the estimate the first round settled on (above the cut),
    /// or 0.
    settled: [u32; CHILDREN],
    /// The parent's best sums, on the board and on its mirror (see
    /// [`Pdb::begin_single`]).
    sums: (u32, u32),
}

impl Default for PdbPending {
    fn default() -> Self {
        PdbPending {
            count: 0,
            child_of: [0; MOST_LOOKUPS],
            slots: [0; MOST_LOOKUPS],
            at: [0; MOST_LOOKUPS],
            orders: [0; MOST_LOOKUPS],
            records_due: false,
            first_round: false,
            best: (0, 0),
            cut: u32::MAX,
            rest: [[0; 2]; CHILDREN],
            settled: [0; CHILDREN],
            sums: (0, 0),
        }
    }
}

/// How [`Pdb`] looks up a node's children, by its databases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Plan {
    /// Blank-minimised tables: a lookup is one read, each child on its own.
    Minimised,
    /// Zero-aware tables (two dependent reads a lookup), one partition:
    /// every read of every child together.
    Together,
    /// Zero-aware, with several partitions: in rounds (see
    /// [`Pdb::begin_with`]).
    Rounds,
    /// One partition of zero-aware tables in bits: [`Pdb::begin_single`].
    Single,
}

impl Plan {
    /// The plan for `databases` combined in partitions of `members` (a
    /// mask of databases each).
    fn of(databases: &[PatternDatabase], members: &[u16]) -> Plan {
        let every_database = |m: u16| usize::from(m) == (1 << databases.len()) - 1;
        if !databases.iter().all(|db| matches!(db.ranks, Ranks::Regions(_))) {
            Plan::Minimised
        } else if members.len() > 1 {
            Plan::Rounds
        } else if members.first().is_some_and(|&m| every_database(m)) && databases.iter().all(in_bits) {
            Plan::Single
        } else {
            Plan::Together
        }
    }
}

/// The maximum over partitions of additive pattern databases, each looked
/// up on the board and, when the goal allows it, on its mirror image.
#[derive(Debug)]
pub struct Pdb {
    set: Option<PartitionSet>,
    cells: usize,
    databases: Vec<PatternDatabase>,
    /// Per partition, the bytes of its databases' values in a value vector
    /// (0xFF for each database it adds up).
    partitions: Vec<u128>,
    /// Per partition, its databases (a mask).
    members: Vec<u16>,
    /// `tables_of[tile]`: the databases holding the tile (a mask).
    tables_of: [u16; MAX_CELLS],
    /// How a node's children are looked up.
    plan: Plan,
    mirror: Option<Mirror>,
    /// The CPU has popcnt and BMI2 (checked at run time).
    fast: bool,
}

impl Pdb {
    /// Loads the databases of `set` for `goal` from `dir`, building (and
    /// saving) each one that is missing or fails verification.
    ///
    /// # Errors
    /// [`PdbError::WrongShape`] unless the goal has the set's shape;
    /// [`PdbError::Io`] when a rebuilt file cannot be written;
    /// [`PdbError::Memory`] when a table cannot be allocated.
    pub fn load_or_build(
        goal: &Goal,
        set: PartitionSet,
        dir: &Path,
        report: &mut dyn FnMut(Event<'_>),
    ) -> Result<Pdb, PdbError> {
        Self::refuse_non_files(goal, set, dir)?;
        Self::assemble(goal, set, report, |tiles, report| {
            PatternDatabase::load_or_build(goal, tiles, set.kind(), dir, report)
        })
    }

    /// Loads the databases of `set` for `goal` from `dir`, building none.
    ///
    /// # Errors
    /// [`PdbError::WrongShape`] unless the goal has the set's shape;
    /// [`PdbError::Io`] when a file is missing or unreadable;
    /// [`PdbError::Corrupt`] when one fails verification.
    pub fn load(
        goal: &Goal,
        set: PartitionSet,
        dir: &Path,
        report: &mut dyn FnMut(Event<'_>),
    ) -> Result<Pdb, PdbError> {
        let kind = set.kind();
        Self::assemble(goal, set, report, |tiles, report| {
            PatternDatabase::load(&PatternDatabase::path(dir, goal, tiles, kind)?, goal, tiles, kind, report)
        })
    }

    /// Makes every database of `set` for `goal` in `dir` and keeps it
    /// there: the explicit `pdb build` step, which fails early when `dir`
    /// cannot be written, keeps the files that verify and rebuilds all of
    /// them when `force`.
    ///
    /// # Errors
    /// As [`Pdb::load_or_build`], and [`PdbError::Io`] when `dir` or a file
    /// cannot be written.
    pub fn build(
        goal: &Goal,
        set: PartitionSet,
        dir: &Path,
        force: bool,
        report: &mut dyn FnMut(Event<'_>),
    ) -> Result<Pdb, PdbError> {
        Self::refuse_non_files(goal, set, dir)?;
        Self::assemble(goal, set, report, |tiles, report| {
            PatternDatabase::build_and_save(goal, tiles, set.kind(), dir, force, report)
        })
    }

    /// A folder or FIFO under any of the set's names is refused before
    /// the first table is built, not minutes later.
    fn refuse_non_files(goal: &Goal, set: PartitionSet, dir: &Path) -> Result<(), PdbError> {
        Self::paths(goal, set, dir)?.iter().try_for_each(|path| refuse_non_file(path))
    }

    /// The databases of `set`'s patterns, each from `each`, combined;
    /// `each` reports through `report` as if its database were alone.
    fn assemble(
        goal: &Goal,
        set: PartitionSet,
        report: &mut dyn FnMut(Event<'_>),
        mut each: impl FnMut(&[u8], &mut dyn FnMut(Event<'_>)) -> Result<PatternDatabase, PdbError>,
    ) -> Result<Pdb, PdbError> {
        let super::Patterns { patterns, partitions } = set.tables(goal)?;
        let databases = patterns
            .iter()
            .enumerate()
            .map(|(pattern, tiles)| each(tiles, &mut relabel(pattern, patterns.len(), report)))
            .collect::<Result<Vec<_>, _>>()?;
        let mut pdb = Pdb::from_partitions(goal, databases, &partitions)?;
        pdb.set = Some(set);
        Ok(pdb)
    }

    /// The files the databases of `set` for `goal` use in `dir`.
    ///
    /// # Errors
    /// [`PdbError::WrongShape`] unless the goal has the set's shape.
    pub fn paths(goal: &Goal, set: PartitionSet, dir: &Path) -> Result<Vec<PathBuf>, PdbError> {
        let patterns = set.tables(goal)?.patterns;
        patterns.iter().map(|tiles| PatternDatabase::path(dir, goal, tiles, set.kind())).collect()
    }

    /// Combines databases built for `goal` over disjoint tile sets (the
    /// tiles need not cover the board) into one additive partition.
    ///
    /// # Errors
    /// As [`Pdb::from_partitions`].
    pub fn from_databases(goal: &Goal, databases: Vec<PatternDatabase>) -> Result<Pdb, PdbError> {
        let all: Vec<usize> = (0..databases.len()).collect();
        Pdb::from_partitions(goal, databases, &[all])
    }

    /// Combines databases built for `goal` into partitions, each a list of
    /// indices into `databases` whose tiles are disjoint (they need not
    /// cover the board); the value is the largest partition's sum.
    ///
    /// # Errors
    /// [`PdbError::BadPattern`] when a database was built for another
    /// goal, two of one partition share a tile, an index is out of range,
    /// or there are more than [`MAX_TABLES`] databases or
    /// [`MAX_PARTITIONS`] partitions.
    pub fn from_partitions(
        goal: &Goal,
        databases: Vec<PatternDatabase>,
        partitions: &[Vec<usize>],
    ) -> Result<Pdb, PdbError> {
        let mut tables_of = [0u16; MAX_CELLS];
        for (i, db) in databases.iter().enumerate() {
            let bad = |why| PdbError::BadPattern { tiles: db.tiles().to_vec(), why };
            if db.shape() != goal.shape() || db.goal() != goal_bytes(goal) {
                return Err(bad("built for another goal"));
            }
            if i >= MAX_TABLES {
                return Err(bad("too many patterns"));
            }
            for &t in db.tiles() {
                tables_of[usize::from(t)] |= 1 << i;
            }
        }
        let mut masks = Vec::with_capacity(partitions.len());
        let mut member_masks = Vec::with_capacity(partitions.len());
        for (p, members) in partitions.iter().enumerate() {
            let tiles = |i: usize| databases.get(i).map_or(&[][..], PatternDatabase::tiles).to_vec();
            let bad = |i, why| PdbError::BadPattern { tiles: tiles(i), why };
            if p >= MAX_PARTITIONS {
                return Err(bad(members.first().copied().unwrap_or(0), "too many partitions"));
            }
            let (mut taken, mut mask, mut member_mask) = (0u64, 0u128, 0u16);
            for &i in members {
                let Some(db) = databases.get(i) else {
                    return Err(bad(i, "no such database"));
                };
                let own = db.tiles().iter().fold(0u64, |m, &t| m | 1 << t);
                if own & taken != 0 {
                    return Err(bad(i, "shares a tile with another pattern"));
                }
                taken |= own;
                mask |= 0xFF << (8 * i);
                member_mask |= 1 << i;
            }
            masks.push(mask);
            member_masks.push(member_mask);
        }
        Ok(Pdb {
            plan: Plan::of(&databases, &member_masks),
            set: None,
            cells: goal.cells(),
            databases,
            partitions: masks,
            members: member_masks,
            tables_of,
            mirror: Mirror::new(goal),
            #[cfg(target_arch = "x86_64")]
            fast: is_x86_feature_detected!("popcnt")
                && is_x86_feature_detected!("bmi2")
                && is_x86_feature_detected!("ssse3"),
            #[cfg(not(target_arch = "x86_64"))]
            fast: false,
        })
    }

    /// Whether these databases were built for `goal` (a heuristic for
    /// another goal would be wrong, not merely weak).
    pub fn serves(&self, goal: &Goal) -> bool {
        self.databases.first().is_some_and(|db| db.shape() == goal.shape() && db.goal() == goal_bytes(goal))
    }

    /// The built-in set these databases form, if any.
    pub fn set(&self) -> Option<PartitionSet> {
        self.set
    }

    /// The same tables, read into huge pages: for tables in bits still in
    /// their files' 4 KiB pages, which a long batch's lookups miss the TLB
    /// on; `None` unless every one of them is such a table and was copied.
    pub fn in_huge_pages(&self) -> Option<Pdb> {
        let databases =
            self.databases.iter().map(PatternDatabase::in_huge_pages).collect::<Option<Vec<_>>>()?;
        Some(Pdb {
            set: self.set,
            cells: self.cells,
            databases,
            partitions: self.partitions.clone(),
            members: self.members.clone(),
            tables_of: self.tables_of,
            plan: self.plan,
            mirror: self.mirror.clone(),
            fast: self.fast,
        })
    }

    /// The databases, each once, in the order the set first names them.
    pub fn databases(&self) -> &[PatternDatabase] {
        &self.databases
    }

    /// Whether children take [`Pdb::begin_single`], for tests to know
    /// which path they check.
    #[cfg(test)]
    pub(super) fn single(&self) -> bool {
        self.plan == Plan::Single
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
    fn estimate_memo<B: Board>(&self, board: &B) -> (u32, PdbMemo<B::Places>) {
        let cell_of = cells_of(board, self.cells);
        #[cfg(target_arch = "x86_64")]
        if self.fast {
            // SAFETY: `fast` is only set when the CPU has these features.
            return unsafe { self.fresh_fast(cell_of) };
        }
        self.fresh(cell_of)
    }

    /// [`Pdb::fresh`] with a hardware popcount (one or two per tile in a
    /// rank) and BMI2's masks and shifts.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,ssse3")]
    unsafe fn fresh_fast<C: TileCells>(&self, cell_of: C) -> (u32, PdbMemo<C>) {
        self.fresh(cell_of)
    }

    /// Every database looked up, direct and mirrored. The indices of the
    /// byte tables are computed before any entry is read, so the (likely
    /// cache missing) reads are issued together and overlap; a table in
    /// bits has no parent value to read from and walks to its goal.
    #[inline(always)]
    #[expect(clippy::inline_always, reason = "must inline into the popcnt build")]
    fn fresh<C: TileCells>(&self, cell_of: C) -> (u32, PdbMemo<C>) {
        let mirror_cell_of = self.mirror.as_ref().map_or(C::ZERO, |m| m.reflect(&cell_of, self.cells));
        let memo_cells = [cell_of, mirror_cell_of];
        let sides = &memo_cells[..if self.mirror.is_some() { 2 } else { 1 }];
        let mut at = [0usize; 2 * MAX_TABLES];
        for (i, db) in self.databases.iter().enumerate().filter(|(_, db)| !in_bits(db)) {
            for (side, cell_of) in sides.iter().enumerate() {
                at[side * MAX_TABLES + i] = db.ranks.rank_of(cell_of, &db.order);
            }
        }
        let mut values = [0u8; 2 * MAX_TABLES];
        let mut walks_due = false;
        for (i, db) in self.databases.iter().enumerate() {
            for slot in (0..sides.len()).map(|side| side * MAX_TABLES + i) {
                if in_bits(db) {
                    walks_due = true;
                } else {
                    values[slot] = db.values[at[slot]];
                }
            }
        }
        if walks_due {
            self.walk_down(sides, &mut values);
        }
        (self.combine(&values), PdbMemo { cell_of: memo_cells, values })
    }

    /// The values of the tables in bits for the board (and its mirror
    /// image), walked down to their goals together. Apart from the lookup,
    /// whose byte tables (A*'s, one fresh lookup a board) should not pay
    /// for the walks' state.
    #[inline(never)]
    fn walk_down<C: TileCells>(&self, sides: &[C], values: &mut [u8; 2 * MAX_TABLES]) {
        let (mut walks, mut slots, mut count) =
            ([Descent::default(); 2 * MAX_TABLES], [0usize; 2 * MAX_TABLES], 0);
        for (i, db) in self.databases.iter().enumerate().filter(|(_, db)| in_bits(db)) {
            for (side, cell_of) in sides.iter().enumerate() {
                walks[count] = Descent::new(db, cell_of);
                slots[count] = side * MAX_TABLES + i;
                count += 1;
            }
        }
        Descent::walk_all(&mut walks[..count], |w| &self.databases[slots[w] % MAX_TABLES]);
        for (walk, &slot) in walks.iter().zip(&slots).take(count) {
            values[slot] = walk.value();
        }
    }

    /// The largest partition's sum, over the board and its mirror image.
    #[inline(always)]
    #[expect(clippy::inline_always, reason = "part of every lookup")]
    fn combine(&self, values: &[u8; 2 * MAX_TABLES]) -> u32 {
        let (direct, mirrored) = self.sums(values);
        direct.max(mirrored)
    }

    /// The largest partition's sum over the board, and over its mirror.
    #[inline(always)]
    #[expect(clippy::inline_always, reason = "part of every lookup")]
    fn sums(&self, values: &[u8; 2 * MAX_TABLES]) -> (u32, u32) {
        let (direct, mirrored) = (side_values(values, 0), side_values(values, 1));
        let (mut best_direct, mut best_mirrored) = (0, 0);
        for &mask in &self.partitions {
            best_direct = best_direct.max(byte_sum(direct & mask));
            best_mirrored = best_mirrored.max(byte_sum(mirrored & mask));
        }
        (best_direct, best_mirrored)
    }

    /// The child's value after `tile` moved from `from` to `to`, from the
    /// parent's memo: only the databases holding the tile (on the board,
    /// and on its mirror image the tile it becomes there) change.
    #[inline]
    fn update_memo<C: TileCells>(
        &self,
        memo: &PdbMemo<C>,
        tile: u8,
        from: usize,
        to: usize,
    ) -> (u32, PdbMemo<C>) {
        #[cfg(target_arch = "x86_64")]
        if self.fast {
            // SAFETY: `fast` is only set when the CPU has these features.
            return unsafe { self.moved_fast(memo, tile, from, to) };
        }
        self.moved(memo, tile, from, to)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,ssse3")]
    unsafe fn moved_fast<C: TileCells>(
        &self,
        memo: &PdbMemo<C>,
        tile: u8,
        from: usize,
        to: usize,
    ) -> (u32, PdbMemo<C>) {
        self.moved(memo, tile, from, to)
    }

    #[inline(always)]
    #[expect(clippy::inline_always, reason = "must inline into the popcnt build")]
    fn moved<C: TileCells>(&self, memo: &PdbMemo<C>, tile: u8, from: usize, to: usize) -> (u32, PdbMemo<C>) {
        let mut m = *memo;
        (self.moved_into(&mut m, tile, from, to), m)
    }

    /// [`Pdb::moved`] on `m`, a copy of the parent's memo, in place.
    #[inline(always)]
    #[expect(clippy::inline_always, reason = "must inline into the popcnt build")]
    fn moved_into<C: TileCells>(&self, m: &mut PdbMemo<C>, tile: u8, from: usize, to: usize) -> u32 {
        let tables = self.slid(m, tile, from, to);
        // Every index first, then every read, so their misses overlap.
        let mut at = [0u32; 2 * MAX_TABLES];
        let mut slots = [0u8; 2 * MAX_TABLES];
        let mut count = 0;
        for (side, &mask) in tables.iter().enumerate() {
            let mut mask = mask;
            while mask != 0 {
                let i = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                let db = &self.databases[i];
                // Tables have fewer than 2³² entries.
                at[count] = db.ranks.rank_of(&m.cell_of[side], &db.order) as u32;
                slots[count] = (side * MAX_TABLES + i) as u8;
                count += 1;
            }
        }
        for (&at, &slot) in at.iter().zip(&slots).take(count) {
            self.read(m, slot, at);
        }
        self.combine(&m.values)
    }

    /// Moves `tile` from `from` to `to` in the memo's cells (in place: a
    /// copy of the memo just written byte by byte would stall on reading
    /// them back) and returns the databases whose values that changes, on
    /// the board and on its mirror.
    #[inline(always)]
    #[expect(clippy::inline_always, reason = "must inline into the popcnt build")]
    fn slid<C: TileCells>(&self, m: &mut PdbMemo<C>, tile: u8, from: usize, to: usize) -> [u16; 2] {
        let (direct, mirrored) = self.move_cells(m, usize::from(tile), from, to);
        [self.tables_of[direct], self.tables_of[mirrored]]
    }

    /// Moves `tile` to `to` and the blank to `from` in the memo's cells, on
    /// the board and on its mirror: the tile it is on each side (0, which
    /// no table holds, for the mirror's when there is none).
    #[inline(always)]
    #[expect(clippy::inline_always, reason = "must inline into the popcnt build")]
    fn move_cells<C: TileCells>(
        &self,
        m: &mut PdbMemo<C>,
        tile: usize,
        from: usize,
        to: usize,
    ) -> (usize, usize) {
        let tile = tile & (MAX_CELLS - 1);
        let direct = m.cell_of[0].bytes_mut();
        direct[tile & (C::LEN - 1)] = to as u8;
        direct[0] = from as u8;
        let Some(mirror) = &self.mirror else {
            return (tile, 0);
        };
        let mt = usize::from(mirror.relabel[tile]) & (MAX_CELLS - 1);
        let mirrored = m.cell_of[1].bytes_mut();
        mirrored[mt & (C::LEN - 1)] = mirror.transpose[to & (MAX_CELLS - 1)];
        mirrored[0] = mirror.transpose[from & (MAX_CELLS - 1)];
        (tile, mt)
    }

    /// Reads entry `at` of the database of value slot `slot` into `m`.
    #[inline(always)]
    #[expect(clippy::inline_always, reason = "must inline into the popcnt build")]
    fn read<C: TileCells>(&self, m: &mut PdbMemo<C>, slot: u8, at: u32) {
        let (at, slot) = (at as usize, usize::from(slot) & (2 * MAX_TABLES - 1));
        let db = &self.databases[slot % MAX_TABLES];
        let value = &mut m.values[slot];
        *value = if in_bits(db) { step(*value, bit_at(&db.values, at)) } else { db.values[at] };
    }

    /// [`Pdb::update_memo`] for every child of one node at once. A child's
    /// lookups alone leave most of the memory system idle, each waiting on
    /// a map's record and then on an entry; here every child's records are
    /// asked for, then every child's entries, then all are read, so the
    /// misses of all the children overlap.
    #[inline]
    fn update_memos<B, C: TileCells>(
        &self,
        memo: &PdbMemo<C>,
        to: usize,
        slides: &[Slide<B>],
        estimates: &mut [u32],
        memos: &mut [PdbMemo<C>],
    ) {
        #[cfg(target_arch = "x86_64")]
        if self.fast {
            // SAFETY: `fast` is only set when the CPU has these features.
            return unsafe { self.moved_all_fast(memo, to, slides, estimates, memos) };
        }
        self.moved_all(memo, to, slides, estimates, memos);
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,ssse3")]
    unsafe fn moved_all_fast<B, C: TileCells>(
        &self,
        memo: &PdbMemo<C>,
        to: usize,
        slides: &[Slide<B>],
        estimates: &mut [u32],
        memos: &mut [PdbMemo<C>],
    ) {
        self.moved_all(memo, to, slides, estimates, memos);
    }

    #[inline(always)]
    #[expect(clippy::inline_always, reason = "must inline into the popcnt build")]
    fn moved_all<B, C: TileCells>(
        &self,
        memo: &PdbMemo<C>,
        to: usize,
        slides: &[Slide<B>],
        estimates: &mut [u32],
        memos: &mut [PdbMemo<C>],
    ) {
        if self.plan == Plan::Minimised {
            // A blank-minimised lookup is one read: the bookkeeping of the
            // halves costs more than the overlap of one node's children
            // gains (measured).
            for ((slide, estimate), child) in slides.iter().zip(estimates).zip(memos).take(CHILDREN) {
                *child = *memo;
                *estimate = self.moved_into(child, slide.tile, slide.from, to);
            }
            return;
        }
        let mut pending = PdbPending::default();
        self.begin_with(memo, to, slides, memos, &mut pending, u32::MAX);
        while !self.end_with(&mut pending, estimates, memos) {}
    }

    /// The first half of [`Pdb::update_memos`]: each child's memo with its
    /// tile moved, and the entries its values come from asked for (for a
    /// zero-aware table the map's record first, then the entry it names),
    /// kept in `pending` for [`Pdb::end`].
    #[inline]
    fn begin<B, C: TileCells>(
        &self,
        memo: &PdbMemo<C>,
        to: usize,
        slides: &[Slide<B>],
        memos: &mut [PdbMemo<C>],
        pending: &mut PdbPending,
        cut: u32,
    ) {
        #[cfg(target_arch = "x86_64")]
        if self.fast {
            // SAFETY: `fast` is only set when the CPU has these features.
            return unsafe { self.begin_fast(memo, to, slides, memos, pending, cut) };
        }
        self.begin_with(memo, to, slides, memos, pending, cut);
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,ssse3")]
    unsafe fn begin_fast<B, C: TileCells>(
        &self,
        memo: &PdbMemo<C>,
        to: usize,
        slides: &[Slide<B>],
        memos: &mut [PdbMemo<C>],
        pending: &mut PdbPending,
        cut: u32,
    ) {
        self.begin_with(memo, to, slides, memos, pending, cut);
    }

    /// A move changes a zero-aware table's value by one at most, so a child
    /// can only be pruned when the parent's best sum already reaches the
    /// cut; and most children that are pruned are pruned by the parent's
    /// best partition alone (82 % on the 24-puzzle's seven partitions).
    /// There, with several partitions, the first round reads only that
    /// partition's database of the moved tile, one read a child instead of
    /// one per database holding the tile on both sides of the mirror, and
    /// [`Pdb::end`] asks for the rest of the children it did not prune, in
    /// two rounds: the map records, then the entries.
    /// With one partition neither the read saved nor the wait on the
    /// records (small enough to stay in cache) pays for an extra round
    /// (measured on the 15-puzzle).
    #[inline(always)]
    #[expect(clippy::inline_always, reason = "must inline into the popcnt build")]
    fn begin_with<B, C: TileCells>(
        &self,
        memo: &PdbMemo<C>,
        to: usize,
        slides: &[Slide<B>],
        memos: &mut [PdbMemo<C>],
        pending: &mut PdbPending,
        cut: u32,
    ) {
        if self.plan == Plan::Single {
            return self.begin_single(memo, to, slides, memos, pending);
        }
        let children = slides.len().min(memos.len()).min(CHILDREN);
        let mut tables = [[0u16; 2]; CHILDREN];
        for ((slide, child), tables) in slides.iter().zip(memos.iter_mut()).zip(&mut tables).take(children) {
            *child = *memo;
            *tables = self.slid(child, slide.tile, slide.from, to);
        }
        pending.first_round = false;
        pending.settled = [0; CHILDREN];
        if self.plan == Plan::Rounds && cut < u32::MAX {
            let (side, partition, best) = self.best_partition(&memo.values);
            if best >= cut {
                let members = self.members[partition];
                for (c, tables) in tables.iter_mut().enumerate().take(children) {
                    let first = tables[side] & members;
                    let first = first & first.wrapping_neg();
                    pending.rest[c] = *tables;
                    pending.rest[c][side] &= !first;
                    *tables = [0; 2];
                    tables[side] = first;
                }
                pending.first_round = true;
                pending.best = (side as u8, self.partitions[partition]);
                pending.cut = cut;
            }
        }
        self.ask(memos, &tables[..children], pending);
    }

    /// The side of the mirror and the partition with the largest sum, and
    /// that sum.
    #[inline(always)]
    #[expect(clippy::inline_always, reason = "must inline into the popcnt build")]
    fn best_partition(&self, values: &[u8; 2 * MAX_TABLES]) -> (usize, usize, u32) {
        let sides = if self.mirror.is_some() { 2 } else { 1 };
        let mut best = (0, 0, 0);
        for side in 0..sides {
            let half = side_values(values, side);
            for (p, &mask) in self.partitions.iter().enumerate() {
                let sum = byte_sum(half & mask);
                if sum > best.2 {
                    best = (side, p, sum);
                }
            }
        }
        best
    }

    /// Asks for the entries of `tables[c]` (databases on the board, then
    /// on its mirror) of each child `c`, whose memo already has its tile
    /// moved: every index and map record first, then every entry.
    #[inline(always)]
    #[expect(clippy::inline_always, reason = "must inline into the popcnt build")]
    fn ask<C: TileCells>(&self, memos: &[PdbMemo<C>], tables: &[[u16; 2]], pending: &mut PdbPending) {
        let PdbPending { count, child_of, slots, at, orders, records_due, first_round, .. } = pending;
        let mut n = 0;
        *records_due = false;
        for (c, (child, tables)) in memos.iter().zip(tables).enumerate() {
            for (side, &mask) in tables.iter().enumerate() {
                let mut mask = mask;
                while mask != 0 && n < MOST_LOOKUPS {
                    let i = mask.trailing_zeros() as usize;
                    mask &= mask - 1;
                    let db = &self.databases[i];
                    if let Ranks::Regions(index) = &db.ranks {
                        (at[n], orders[n]) = index.parts_of(&child.cell_of[side], &db.order);
                        index.prefetch_map(at[n]);
                        *records_due = true;
                    } else {
                        // Tables have fewer than 2³² entries.
                        at[n] = db.ranks.rank_of(&child.cell_of[side], &db.order) as u32;
                        prefetch_entry(db, at[n]);
                    }
                    child_of[n] = c as u8;
                    slots[n] = (side * MAX_TABLES + i) as u8;
                    n += 1;
                }
            }
        }
        *count = n as u8;
        // A round of its own for the map records pays only for a maxed
        // set's full lookups: one partition's records stay in cache, and a
        // first round's few are not worth the wait (both measured).
        if *records_due && (self.plan != Plan::Rounds || *first_round) {
            self.ask_entries(memos, pending);
        }
    }

    /// The entries named by the map records [`Pdb::ask`] asked for, asked
    /// for in turn.
    #[inline(always)]
    #[expect(clippy::inline_always, reason = "must inline into the popcnt build")]
    fn ask_entries<C: TileCells>(&self, memos: &[PdbMemo<C>], pending: &mut PdbPending) {
        let children = memos.len().clamp(1, CHILDREN);
        let n = usize::from(pending.count).min(MOST_LOOKUPS);
        let PdbPending { child_of, slots, at, orders, records_due, .. } = pending;
        *records_due = false;
        for k in 0..n {
            let slot = usize::from(slots[k]) & (2 * MAX_TABLES - 1);
            let db = &self.databases[slot % MAX_TABLES];
            if let Ranks::Regions(index) = &db.ranks {
                let blank = memos[usize::from(child_of[k]) % children].cell_of[slot / MAX_TABLES].bytes()[0];
                // Tables have fewer than 2³² entries.
                at[k] = index.entry(at[k], orders[k], u32::from(blank)) as u32;
                prefetch_entry(db, at[k]);
            }
        }
    }

    /// The second half of [`Pdb::update_memos`], one step a call, false
    /// until the last: when map records were asked for, the entries they
    /// name are asked for; otherwise the entries are read into the
    /// children's memos. After a first round (see [`Pdb::begin_with`]), the
    /// children whose best partition's sum passes the cut are settled with
    /// it and the others' remaining lookups begin; after the last, the
    /// estimates are set. Each step leaves its reads the other walkers'
    /// work to arrive in.
    #[inline]
    fn end<C: TileCells>(
        &self,
        pending: &mut PdbPending,
        estimates: &mut [u32],
        memos: &mut [PdbMemo<C>],
    ) -> bool {
        #[cfg(target_arch = "x86_64")]
        if self.fast {
            // SAFETY: `fast` is only set when the CPU has these features.
            return unsafe { self.end_fast(pending, estimates, memos) };
        }
        self.end_with(pending, estimates, memos)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,ssse3")]
    unsafe fn end_fast<C: TileCells>(
        &self,
        pending: &mut PdbPending,
        estimates: &mut [u32],
        memos: &mut [PdbMemo<C>],
    ) -> bool {
        self.end_with(pending, estimates, memos)
    }

    #[inline(always)]
    #[expect(clippy::inline_always, reason = "must inline into the popcnt build")]
    fn end_with<C: TileCells>(
        &self,
        pending: &mut PdbPending,
        estimates: &mut [u32],
        memos: &mut [PdbMemo<C>],
    ) -> bool {
        let children = estimates.len().min(memos.len()).min(CHILDREN);
        if children == 0 {
            return true;
        }
        if self.plan == Plan::Single {
            self.end_single(pending, estimates, memos);
            return true;
        }
        if pending.records_due {
            self.ask_entries(&memos[..children], pending);
            return false;
        }
        let n = usize::from(pending.count).min(MOST_LOOKUPS);
        for k in 0..n {
            let child = usize::from(pending.child_of[k]) % children;
            self.read(&mut memos[child], pending.slots[k], pending.at[k]);
        }
        if pending.first_round {
            pending.first_round = false;
            let (side, mask) = (usize::from(pending.best.0) & 1, pending.best.1);
            let mut rest = [[0u16; 2]; CHILDREN];
            let mut more = false;
            for (c, child) in memos.iter().enumerate().take(children) {
                let sum = byte_sum(side_values(&child.values, side) & mask);
                if sum > pending.cut {
                    pending.settled[c] = sum;
                } else {
                    rest[c] = pending.rest[c];
                    more = true;
                }
            }
            if more {
                self.ask(memos, &rest[..children], pending);
                return false;
            }
        }
        for (c, (estimate, child)) in estimates.iter_mut().zip(memos.iter()).take(children).enumerate() {
            *estimate = match pending.settled[c] {
                0 => self.combine(&child.values),
                settled => settled,
            };
        }
        true
    }

    /// Every database's value for `board` (and its mirror image), and the
    /// best sums.
    pub fn parts<B: Board>(&self, board: &B) -> Parts {
        let values = self.estimate_memo(board).1.values;
        let mut parts = Parts { best: self.sums(&values), ..Parts::default() };
        parts.direct.copy_from_slice(&values[..MAX_TABLES]);
        parts.mirrored.copy_from_slice(&values[MAX_TABLES..]);
        parts
    }
}

/// The databases' values on one side of the mirror (0 the board, 1 its
/// mirror image) as one word, a byte each, for [`byte_sum`] under a
/// partition's mask.
#[inline(always)]
#[expect(clippy::inline_always, reason = "part of every lookup")]
fn side_values(values: &[u8; 2 * MAX_TABLES], side: usize) -> u128 {
    let mut bytes = [0u8; MAX_TABLES];
    bytes.copy_from_slice(&values[(side & 1) * MAX_TABLES..][..MAX_TABLES]);
    u128::from_le_bytes(bytes)
}

/// The sum of the sixteen bytes of `x`: SSE2's sum of absolute
/// differences against zero, two instructions (SSE2 is part of x86-64).
#[cfg(target_arch = "x86_64")]
#[inline]
fn byte_sum(x: u128) -> u32 {
    use std::arch::x86_64::{__m128i, _mm_cvtsi128_si32, _mm_extract_epi16, _mm_sad_epu8, _mm_setzero_si128};
    // SAFETY: SSE2 is part of x86-64, so every CPU this runs on has these
    // instructions; a u128 and an __m128i are the same sixteen bytes, and
    // any bytes are a valid value of either.
    unsafe {
        let sums = _mm_sad_epu8(std::mem::transmute::<u128, __m128i>(x), _mm_setzero_si128());
        (_mm_cvtsi128_si32(sums) as u32) + (_mm_extract_epi16::<4>(sums) as u32)
    }
}

/// The sum of the sixteen bytes of `x`, in a few word operations.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
#[expect(clippy::inline_always, reason = "part of every lookup")]
fn byte_sum(x: u128) -> u32 {
    const BYTES: u128 = 0x00FF_00FF_00FF_00FF_00FF_00FF_00FF_00FF;
    const PAIRS: u128 = 0x0000_FFFF_0000_FFFF_0000_FFFF_0000_FFFF;
    // Eight 16-bit sums of two bytes, then four 32-bit sums of those.
    let pairs = (x & BYTES) + ((x >> 8) & BYTES);
    let quads = (pairs & PAIRS) + ((pairs >> 16) & PAIRS);
    let halves = (quads as u64) + ((quads >> 64) as u64);
    ((halves & 0xFFFF_FFFF) + (halves >> 32)) as u32
}

/// Asks for the cache line of entry `at` of `db`.
#[inline(always)]
#[expect(clippy::inline_always, reason = "part of every lookup")]
fn prefetch_entry(db: &PatternDatabase, at: u32) {
    let byte = if in_bits(db) { at as usize / 8 } else { at as usize };
    if let Some(entry) = db.values.get(byte) {
        crate::machine::prefetch(entry);
    }
}

/// Whether `db` stores bits, read from a parent's value.
#[inline(always)]
#[expect(clippy::inline_always, reason = "part of every lookup")]
fn in_bits(db: &PatternDatabase) -> bool {
    db.kind() == TableKind::ZeroAwareBits
}

impl<B: Board> Heuristic<B> for Pdb {
    /// Minimising over the blank makes one move able to change the value by
    /// several: A* must keep g and reopen. (Zero-aware tables are
    /// consistent, but a table is data: a damaged or forged one is not.)
    const CONSISTENT: bool = false;

    type Memo = PdbMemo<B::Places>;

    #[inline]
    fn estimate(&self, board: &B) -> u32 {
        self.value(board)
    }

    /// A fresh lookup, for searches that keep no memo (A*): the parent's
    /// value alone cannot say which patterns (or which side of the mirror)
    /// made it. Their entries were just read for the parent and are in
    /// cache, so the lookups of the unchanged patterns cost little (tables
    /// in bits walk to their goal each time: slow, but A* is not how
    /// boards that need them are solved).
    #[inline]
    fn update(&self, child: &B, _: u32, _: u8, _: usize, _: usize) -> u32 {
        self.value(child)
    }

    #[inline]
    fn estimate_memo(&self, board: &B) -> (u32, PdbMemo<B::Places>) {
        Pdb::estimate_memo(self, board)
    }

    #[inline]
    fn update_memo(
        &self,
        _: &B,
        _: u32,
        memo: &PdbMemo<B::Places>,
        tile: u8,
        from: usize,
        to: usize,
    ) -> (u32, PdbMemo<B::Places>) {
        Pdb::update_memo(self, memo, tile, from, to)
    }

    #[inline]
    fn update_memos(
        &self,
        _: u32,
        memo: &PdbMemo<B::Places>,
        to: usize,
        slides: &[Slide<B>],
        estimates: &mut [u32],
        memos: &mut [PdbMemo<B::Places>],
    ) {
        Pdb::update_memos(self, memo, to, slides, estimates, memos);
    }

    fn estimates_from_parent(&self) -> bool {
        self.databases.iter().any(in_bits)
    }

    /// Every lookup is a read of a table far larger than the caches.
    const OVERLAPS: bool = true;

    type Pending = PdbPending;

    #[inline]
    fn begin_children(
        &self,
        _: u32,
        memo: &PdbMemo<B::Places>,
        to: usize,
        slides: &[Slide<B>],
        memos: &mut [PdbMemo<B::Places>],
        pending: &mut PdbPending,
        cut: u32,
    ) {
        self.begin(memo, to, slides, memos, pending, cut);
    }

    #[inline]
    fn end_children(
        &self,
        _: u32,
        _: &PdbMemo<B::Places>,
        _: usize,
        _: &[Slide<B>],
        pending: &mut PdbPending,
        estimates: &mut [u32],
        memos: &mut [PdbMemo<B::Places>],
    ) -> bool {
        self.end(pending, estimates, memos)
    }
}
