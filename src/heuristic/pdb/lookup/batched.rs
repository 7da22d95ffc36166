/*!
The lookups of a node's children together: every child's reads asked for
before any is used, so that their cache misses overlap, in one round or
several as the databases call for (see [`Plan`]).
*/

use super::memo::PdbMemo;
use super::{CHILDREN, MAX_TABLES, Pdb, byte_sum, in_bits, prefetch_entry, side_values};
use crate::board::TileCells;
#[cfg(doc)]
use crate::heuristic::Heuristic;
use crate::heuristic::Slide;
use crate::heuristic::pdb::PatternDatabase;
use crate::heuristic::pdb::database::Ranks;

/// Most lookups of one node's children: every table, on the board and on
/// its mirror, for each child.
const MOST_LOOKUPS: usize = CHILDREN * 2 * MAX_TABLES;

/// The lookups of a node's children under way (see
/// [`Heuristic::begin_children`]): for each, the child, the value slot it
/// fills and the entry it reads.
#[derive(Clone, Copy, Debug)]
pub struct PdbPending {
    pub(super) count: u8,
    pub(super) child_of: [u8; MOST_LOOKUPS],
    pub(super) slots: [u8; MOST_LOOKUPS],
    pub(super) at: [u32; MOST_LOOKUPS],
    /// Per zero-aware lookup whose map record is asked for, the tiles'
    /// order; `at` holds the map's rank until the entry is known.
    pub(super) orders: [u32; MOST_LOOKUPS],
    /// Whether map records are asked for and the entries not yet.
    pub(super) records_due: bool,
    /// Whether these are the first round's reads, of the parent's best
    /// partition alone (see [`Pdb::begin_with`]).
    pub(super) first_round: bool,
    /// The parent's best partition: the side of the mirror and its bytes.
    pub(super) best: (u8, u128),
    /// The cut the first round's sums are held against.
    pub(super) cut: u32,
    /// Per child, the databases (on the board, on its mirror) the second
    /// round still reads.
    pub(super) rest: [[u16; 2]; CHILDREN],
    /// Per child, the estimate the first round settled on (above the cut),
    /// or 0.
    pub(super) settled: [u32; CHILDREN],
    /// The parent's best sums, on the board and on its mirror (see
    /// [`Pdb::begin_single`]).
    pub(super) sums: (u32, u32),
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
pub(super) enum Plan {
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
    pub(super) fn of(databases: &[PatternDatabase], members: &[u16]) -> Plan {
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

impl Pdb {
    compiled_lookups! {
        /// [`Pdb::update_memo`] for every child of one node at once. A child's
        /// lookups alone leave most of the memory system idle, each waiting on
        /// a map's record and then on an entry; here every child's records are
        /// asked for, then every child's entries, then all are read, so the
        /// misses of all the children overlap.
        pub(super) fn update_memos<B, C: TileCells>(
            &self,
            memo: &PdbMemo<C>,
            to: usize,
            slides: &[Slide<B>],
            estimates: &mut [u32],
            memos: &mut [PdbMemo<C>],
        ) = moved_all;

        /// The first half of [`Pdb::update_memos`]: each child's memo with its
        /// tile moved, and the entries its values come from asked for (for a
        /// zero-aware table the map's record first, then the entry it names),
        /// kept in `pending` for [`Pdb::end`].
        pub(super) fn begin<B, C: TileCells>(
            &self,
            memo: &PdbMemo<C>,
            to: usize,
            slides: &[Slide<B>],
            memos: &mut [PdbMemo<C>],
            pending: &mut PdbPending,
            cut: u32,
        ) = begin_with;

        /// The second half of [`Pdb::update_memos`], one step a call, false
        /// until the last: when map records were asked for, the entries they
        /// name are asked for; otherwise the entries are read into the
        /// children's memos. After a first round (see [`Pdb::begin_with`]), the
        /// children whose best partition's sum passes the cut are settled with
        /// it and the others' remaining lookups begin; after the last, the
        /// estimates are set. Each step leaves its reads the other walkers'
        /// work to arrive in.
        pub(super) fn end<C: TileCells>(
            &self,
            pending: &mut PdbPending,
            estimates: &mut [u32],
            memos: &mut [PdbMemo<C>],
        ) -> bool = end_with;
    }

    /// [`Pdb::update_memos`]'s body.
    #[inline(always)]
    #[expect(clippy::inline_always, reason = "compiled into each lookup, for its instruction sets")]
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
    #[expect(clippy::inline_always, reason = "compiled into each lookup, for its instruction sets")]
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
    #[expect(clippy::inline_always, reason = "compiled into each lookup, for its instruction sets")]
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
    #[expect(clippy::inline_always, reason = "compiled into each lookup, for its instruction sets")]
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
    #[expect(clippy::inline_always, reason = "compiled into each lookup, for its instruction sets")]
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

    /// [`Pdb::end`]'s body.
    #[inline(always)]
    #[expect(clippy::inline_always, reason = "compiled into each lookup, for its instruction sets")]
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
}
