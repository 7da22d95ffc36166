/*!
The closed set: what a best-first search remembers of the boards it has
expanded, and the move that reached each, from which the path is rebuilt.

A board is closed, with the move of the entry that reached it, the first
time it comes out of the open list, in a compact [`TaggedSet`]; later
entries for it are stale and skipped. With a consistent heuristic (every one
here but the pattern databases) that first time is A*'s cheapest, and
weighted A* stays within its bound without reopening (Likhachev, Gordon and
Thrun, ARA*, 2003). The pattern databases are admissible but not
consistent, so with them A* and weighted A* keep each closed board's g and
reopen it when it is reached more cheaply ([`Reopening`]), at a few more
bytes per state. Greedy search never reopens: its paths are not bounded
anyway.
*/

use crate::board::{Board, Move, code_move, move_code};
use crate::search::table::TaggedSet;
use rustc_hash::FxHashMap;
use std::collections::hash_map::Entry;

/// What a best-first search remembers of the boards it has expanded.
pub(crate) trait Closed<B: Board> {
    /// Worst-case bytes per remembered board.
    const BYTES_PER_STATE: u64;
    fn new() -> Self;
    /// Records `entry` (reached at depth `g`) as expanded; false when it is
    /// stale, i.e. the board was expanded before at least as cheaply.
    fn close(&mut self, entry: B::Tagged, g: u32) -> bool;
    /// Where looking `child` up starts (its hash, for a set that has one),
    /// computed once for [`Closed::prefetch`] and [`Closed::settled`].
    #[inline]
    fn probe(&self, child: &B::Tagged) -> u64 {
        let _ = child;
        0
    }
    /// A hint that [`Closed::settled`] will soon be asked about the child
    /// of this `probe`.
    #[inline]
    fn prefetch(&self, probe: u64) {
        let _ = probe;
    }
    /// Whether reaching `child` (whose [`Closed::probe`] is `probe`) at
    /// depth `g` can be skipped.
    fn settled(&self, child: &B::Tagged, probe: u64, g: u32) -> bool;
    /// The move that reached an expanded board.
    fn arrival(&self, board: &B) -> Option<Move>;
    fn len(&self) -> usize;
}

/// A board is closed once, by its first expansion: all A* needs with a
/// consistent heuristic, and what greedy search always does.
impl<B: Board> Closed<B> for TaggedSet<B> {
    /// A slot at the lowest load, 0.375.
    const BYTES_PER_STATE: u64 = std::mem::size_of::<B::Tagged>() as u64 * 8 / 3;
    fn new() -> Self {
        TaggedSet::new()
    }
    #[inline]
    fn close(&mut self, entry: B::Tagged, _: u32) -> bool {
        self.insert(entry)
    }
    #[inline]
    fn probe(&self, child: &B::Tagged) -> u64 {
        B::tagged_hash(child)
    }
    #[inline]
    fn prefetch(&self, probe: u64) {
        TaggedSet::prefetch(self, probe);
    }
    #[inline]
    fn settled(&self, child: &B::Tagged, probe: u64, _: u32) -> bool {
        self.get_hashed(child, probe).is_some()
    }
    fn arrival(&self, board: &B) -> Option<Move> {
        self.get(&board.tag(None)).and_then(|t| B::untag(t).1)
    }
    fn len(&self) -> usize {
        TaggedSet::len(self)
    }
}

/// For admissible but inconsistent heuristics (the blank-minimised pattern
/// databases): each board keeps the g of its last expansion, and a board
/// reached more cheaply later is expanded again, which keeps A*'s paths
/// optimal and weighted A*'s within their bound.
pub(crate) struct Reopening<B> {
    /// `g << 3 | move code` of each expanded board.
    records: FxHashMap<B, u32>,
}

impl<B: Board> Closed<B> for Reopening<B> {
    /// A hash-map slot, with old and new tables alive while doubling.
    const BYTES_PER_STATE: u64 = (std::mem::size_of::<(B, u32)>() as u64 + 1) * 24 / 7;
    fn new() -> Self {
        Reopening { records: FxHashMap::default() }
    }
    #[inline]
    fn close(&mut self, entry: B::Tagged, g: u32) -> bool {
        let (board, arrival) = B::untag(entry);
        let record = g << 3 | u32::from(move_code(arrival));
        match self.records.entry(board) {
            Entry::Vacant(slot) => {
                slot.insert(record);
                true
            }
            Entry::Occupied(mut slot) if *slot.get() >> 3 > g => {
                slot.insert(record);
                true
            }
            Entry::Occupied(_) => false,
        }
    }
    #[inline]
    fn settled(&self, child: &B::Tagged, _: u64, g: u32) -> bool {
        self.records.get(&B::untag(*child).0).is_some_and(|&r| r >> 3 <= g)
    }
    fn arrival(&self, board: &B) -> Option<Move> {
        self.records.get(board).and_then(|&r| code_move((r & 7) as u8))
    }
    fn len(&self) -> usize {
        self.records.len()
    }
}
