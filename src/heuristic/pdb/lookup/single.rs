/*!
The lookups of one partition of zero-aware tables in bits (the 15-puzzle's
`zero-7-8`): a move changes one table on each side of the mirror, so a
child is two lookups, one value each, and its estimate its parent's sums
moved by those two values. The general path ([`Pdb::begin_with`]) asks for
the same entries through per-lookup tables of slots and children, rounds and
partition masks; here each child is ranked, its entries asked for and, once
read, its sums settled in one pass, for half the instructions of a lookup.
The values, memos and estimates are the general path's, exactly.
*/

use super::{CHILDREN, MAX_TABLES, Pdb, PdbMemo, PdbPending, prefetch_entry};
use crate::board::TileCells;
use crate::heuristic::Slide;
use crate::heuristic::pdb::database::Ranks;
use crate::heuristic::pdb::encoding::{bit_at, step};
use crate::heuristic::pdb::index::MAX_CELLS;

impl Pdb {
    /// [`Pdb::begin_with`] for [`Plan::Single`](super::Plan::Single): each
    /// child's memo with its tile moved, and the entry of the table holding
    /// that tile on each side asked for, in `pending.at[2c + side]`.
    #[inline(always)]
    #[expect(clippy::inline_always, reason = "compiled into each lookup, for its instruction sets")]
    pub(super) fn begin_single<B, C: TileCells>(
        &self,
        memo: &PdbMemo<C>,
        to: usize,
        slides: &[Slide<B>],
        memos: &mut [PdbMemo<C>],
        pending: &mut PdbPending,
    ) {
        let children = slides.len().min(memos.len()).min(CHILDREN);
        pending.sums = self.sums(&memo.values);
        pending.count = children as u8;
        // Every map record asked for before the first is read, then every
        // entry: the records' misses overlap.
        for (c, (slide, child)) in slides.iter().zip(memos.iter_mut()).take(children).enumerate() {
            *child = *memo;
            let (direct, mirrored) = self.move_cells(child, usize::from(slide.tile), slide.from, to);
            for (side, tile) in [(0, direct), (1, mirrored)] {
                // The first database holding the tile; none past the last.
                let table = self.tables_of[tile & (MAX_CELLS - 1)].trailing_zeros() as u8;
                pending.slots[2 * c + side] = table;
                if let Some(db) = self.databases.get(usize::from(table))
                    && let Ranks::Regions(index) = &db.ranks
                {
                    let (map, order) = index.parts_of(&child.cell_of[side], &db.order);
                    index.prefetch_map(map);
                    (pending.at[2 * c + side], pending.orders[2 * c + side]) = (map, order);
                }
            }
        }
        for (c, child) in memos.iter().enumerate().take(children) {
            for side in 0..2 {
                let k = 2 * c + side;
                if let Some(db) = self.databases.get(usize::from(pending.slots[k]))
                    && let Ranks::Regions(index) = &db.ranks
                {
                    let blank = u32::from(child.cell_of[side].bytes()[0]);
                    // Tables have fewer than 2³² entries.
                    pending.at[k] = index.entry(pending.at[k], pending.orders[k], blank) as u32;
                    prefetch_entry(db, pending.at[k]);
                }
            }
        }
    }

    /// [`Pdb::end_with`] for [`Pdb::begin_single`]: each child's two values
    /// read, and its estimate the larger of its parent's sums, each moved by
    /// its side's change.
    #[inline(always)]
    #[expect(clippy::inline_always, reason = "compiled into each lookup, for its instruction sets")]
    pub(super) fn end_single<C: TileCells>(
        &self,
        pending: &PdbPending,
        estimates: &mut [u32],
        memos: &mut [PdbMemo<C>],
    ) {
        let children = usize::from(pending.count).min(estimates.len()).min(memos.len()).min(CHILDREN);
        for (c, (estimate, child)) in estimates.iter_mut().zip(memos.iter_mut()).take(children).enumerate() {
            let mut sums = [pending.sums.0, pending.sums.1];
            for (side, sum) in sums.iter_mut().enumerate() {
                let table = pending.slots[2 * c + side];
                if let Some(db) = self.databases.get(usize::from(table)) {
                    let value =
                        &mut child.values[side * MAX_TABLES + (usize::from(table) & (MAX_TABLES - 1))];
                    let old = *value;
                    *value = step(old, bit_at(&db.values, pending.at[2 * c + side] as usize));
                    *sum = (*sum + u32::from(*value)).wrapping_sub(u32::from(old));
                }
            }
            *estimate = sums[0].max(sums[1]);
        }
    }
}
