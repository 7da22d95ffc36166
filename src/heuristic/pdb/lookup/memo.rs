/*!
A node's memo, and the lookups of one board: afresh, or from its parent's
memo after one move, when only the databases holding the moved tile change.
*/

use super::{MAX_TABLES, Pdb, byte_sum, in_bits, side_values};
use crate::board::{Board, TileCells};
#[cfg(doc)]
use crate::heuristic::Heuristic;
use crate::heuristic::pdb::descent::Descent;
use crate::heuristic::pdb::encoding::{bit_at, step};
use crate::heuristic::pdb::index::{MAX_CELLS, cells_of};

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
    pub(super) cell_of: [C; 2],
    /// Each database's value on the board, then (from [`MAX_TABLES`]) on
    /// the mirror image.
    pub(super) values: [u8; 2 * MAX_TABLES],
}

impl<C: TileCells> Default for PdbMemo<C> {
    fn default() -> Self {
        PdbMemo { cell_of: [C::ZERO; 2], values: [0; 2 * MAX_TABLES] }
    }
}

impl Pdb {
    /// The value of `board` and the memo its neighbours start from.
    #[inline]
    pub(super) fn estimate_memo<B: Board>(&self, board: &B) -> (u32, PdbMemo<B::Places>) {
        self.estimate_cells(cells_of(board, self.cells))
    }

    compiled_lookups! {
        /// [`Pdb::fresh`].
        fn estimate_cells<C: TileCells>(&self, cell_of: C) -> (u32, PdbMemo<C>) = fresh;

        /// The child's value after `tile` moved from `from` to `to`, from the
        /// parent's memo: only the databases holding the tile (on the board,
        /// and on its mirror image the tile it becomes there) change.
        pub(super) fn update_memo<C: TileCells>(
            &self,
            memo: &PdbMemo<C>,
            tile: u8,
            from: usize,
            to: usize,
        ) -> (u32, PdbMemo<C>) = moved;
    }

    /// Every database looked up, direct and mirrored. The indices of the
    /// byte tables are computed before any entry is read, so the (likely
    /// cache missing) reads are issued together and overlap; a table in
    /// bits has no parent value to read from and walks to its goal.
    #[inline(always)]
    #[expect(clippy::inline_always, reason = "compiled into each lookup, for its instruction sets")]
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
    pub(super) fn combine(&self, values: &[u8; 2 * MAX_TABLES]) -> u32 {
        let (direct, mirrored) = self.sums(values);
        direct.max(mirrored)
    }

    /// The largest partition's sum over the board, and over its mirror.
    #[inline(always)]
    #[expect(clippy::inline_always, reason = "part of every lookup")]
    pub(super) fn sums(&self, values: &[u8; 2 * MAX_TABLES]) -> (u32, u32) {
        let (direct, mirrored) = (side_values(values, 0), side_values(values, 1));
        let (mut best_direct, mut best_mirrored) = (0, 0);
        for &mask in &self.partitions {
            best_direct = best_direct.max(byte_sum(direct & mask));
            best_mirrored = best_mirrored.max(byte_sum(mirrored & mask));
        }
        (best_direct, best_mirrored)
    }

    /// [`Pdb::update_memo`]'s body.
    #[inline(always)]
    #[expect(clippy::inline_always, reason = "compiled into each lookup, for its instruction sets")]
    fn moved<C: TileCells>(&self, memo: &PdbMemo<C>, tile: u8, from: usize, to: usize) -> (u32, PdbMemo<C>) {
        let mut m = *memo;
        (self.moved_into(&mut m, tile, from, to), m)
    }

    /// [`Pdb::moved`] on `m`, a copy of the parent's memo, in place.
    #[inline(always)]
    #[expect(clippy::inline_always, reason = "compiled into each lookup, for its instruction sets")]
    pub(super) fn moved_into<C: TileCells>(
        &self,
        m: &mut PdbMemo<C>,
        tile: u8,
        from: usize,
        to: usize,
    ) -> u32 {
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
    #[expect(clippy::inline_always, reason = "compiled into each lookup, for its instruction sets")]
    pub(super) fn slid<C: TileCells>(
        &self,
        m: &mut PdbMemo<C>,
        tile: u8,
        from: usize,
        to: usize,
    ) -> [u16; 2] {
        let (direct, mirrored) = self.move_cells(m, usize::from(tile), from, to);
        [self.tables_of[direct], self.tables_of[mirrored]]
    }

    /// Moves `tile` to `to` and the blank to `from` in the memo's cells, on
    /// the board and on its mirror: the tile it is on each side (0, which
    /// no table holds, for the mirror's when there is none).
    #[inline(always)]
    #[expect(clippy::inline_always, reason = "compiled into each lookup, for its instruction sets")]
    pub(super) fn move_cells<C: TileCells>(
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
    #[expect(clippy::inline_always, reason = "compiled into each lookup, for its instruction sets")]
    pub(super) fn read<C: TileCells>(&self, m: &mut PdbMemo<C>, slot: u8, at: u32) {
        let (at, slot) = (at as usize, usize::from(slot) & (2 * MAX_TABLES - 1));
        let db = &self.databases[slot % MAX_TABLES];
        let value = &mut m.values[slot];
        *value = if in_bits(db) { step(*value, bit_at(&db.values, at)) } else { db.values[at] };
    }
}
