/*!
A compact set of tagged boards: what BFS and DFS keep of every state they
have reached (see `graph.rs`), and what A* keeps of every closed state when
its heuristic is consistent.

Open addressing with linear probing over `B::Tagged` values (eight bytes for
a packed board, its arrival move riding in the derivable nibble), split into
shards that grow one at a time. With one table, doubling keeps the old and
the new array alive together (three slots per entry at the peak); with 64
shards only one shard is ever doubling, so the peak stays near the steady
state of 8 bytes ÷ load (0.375 to 0.75).
*/

use super::memory::Block;
use super::spare;
use crate::board::Board;

/// log2 of the shard count.
const SHARD_BITS: u32 = 6;
/// Slots per shard to start with.
const INITIAL_SLOTS: usize = 1 << 6;
/// The most slots a set may have to be kept for the thread's next search
/// (see `spare.rs`): twice its starting size, 64 KiB of packed boards, so
/// that clearing it costs no more than allocating a fresh one.
const KEPT_SLOTS: usize = 2 << (SHARD_BITS + 6);

/// The shard a hash's board lives in: its top bits, so the low bits that
/// pick a slot within the shard stay independent of the choice.
#[inline]
fn shard_of(hash: u64) -> usize {
    (hash >> (64 - SHARD_BITS)) as usize
}

struct Shard<T: Copy> {
    slots: Block<T>,
    len: usize,
}

/// A set of boards, each stored with a tag, keyed by the board alone.
pub(crate) struct TaggedSet<B: Board> {
    shards: Vec<Shard<B::Tagged>>,
    len: usize,
}

impl<B: Board> TaggedSet<B> {
    pub(crate) fn new() -> Self {
        if let Some(mut shards) = spare::take::<Vec<Shard<B::Tagged>>>() {
            for shard in &mut shards {
                shard.slots.fill(B::VACANT);
                shard.len = 0;
            }
            return TaggedSet { shards, len: 0 };
        }
        let shards = (0..1 << SHARD_BITS)
            .map(|_| Shard { slots: Block::filled(INITIAL_SLOTS, B::VACANT), len: 0 })
            .collect();
        TaggedSet { shards, len: 0 }
    }

    /// Boards stored.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The stored value holding the same board as `key`, tag included.
    #[inline]
    pub(crate) fn get(&self, key: &B::Tagged) -> Option<B::Tagged> {
        self.get_hashed(key, B::tagged_hash(key))
    }

    /// [`TaggedSet::get`] of a `key` whose [`Board::tagged_hash`] is `hash`.
    #[inline]
    pub(crate) fn get_hashed(&self, key: &B::Tagged, hash: u64) -> Option<B::Tagged> {
        let shard = &self.shards[shard_of(hash)];
        let mask = shard.slots.len() - 1;
        let mut i = hash as usize & mask;
        loop {
            let slot = &shard.slots[i];
            if B::same_board(slot, &B::VACANT) {
                return None;
            }
            if B::same_board(slot, key) {
                return Some(*slot);
            }
            i = (i + 1) & mask;
        }
    }

    /// Starts loading the slot where [`TaggedSet::get_hashed`] will first
    /// look for a key of this `hash`: a search that asks for the slots of
    /// all of a node's children before looking any up waits for their cache
    /// misses once, not once per child (they were half of greedy search's
    /// time on the 24-puzzle).
    #[inline]
    pub(crate) fn prefetch(&self, hash: u64) {
        let shard = &self.shards[shard_of(hash)];
        crate::machine::prefetch(&shard.slots[hash as usize & (shard.slots.len() - 1)]);
    }

    /// Inserts `value` unless its board is already stored; true if inserted.
    #[inline]
    pub(crate) fn insert(&mut self, value: B::Tagged) -> bool {
        let hash = B::tagged_hash(&value);
        let shard = &mut self.shards[shard_of(hash)];
        let mask = shard.slots.len() - 1;
        let mut i = hash as usize & mask;
        loop {
            let slot = &mut shard.slots[i];
            if B::same_board(slot, &B::VACANT) {
                *slot = value;
                break;
            }
            if B::same_board(slot, &value) {
                return false;
            }
            i = (i + 1) & mask;
        }
        shard.len += 1;
        self.len += 1;
        if shard.len * 4 > shard.slots.len() * 3 {
            Self::grow(shard);
        }
        true
    }

    #[cold]
    fn grow(shard: &mut Shard<B::Tagged>) {
        let doubled = Block::filled(shard.slots.len() * 2, B::VACANT);
        let old = std::mem::replace(&mut shard.slots, doubled);
        let mask = shard.slots.len() - 1;
        for &value in old.iter() {
            if B::same_board(&value, &B::VACANT) {
                continue;
            }
            let mut i = B::tagged_hash(&value) as usize & mask;
            while !B::same_board(&shard.slots[i], &B::VACANT) {
                i = (i + 1) & mask;
            }
            shard.slots[i] = value;
        }
    }
}

/// A small set is kept for the thread's next search rather than freed.
impl<B: Board> Drop for TaggedSet<B> {
    fn drop(&mut self) {
        if self.shards.iter().map(|s| s.slots.len()).sum::<usize>() <= KEPT_SLOTS {
            spare::keep(std::mem::take(&mut self.shards));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Move, Packed, Wide};

    fn exercise<B: Board>(boards: &[B]) {
        let mut set = TaggedSet::<B>::new();
        for (i, b) in boards.iter().enumerate() {
            assert!(set.insert(b.tag(Some(Move::from_index(i)))));
            assert!(!set.insert(b.tag(None)), "same board, other tag: already there");
        }
        assert_eq!(set.len(), boards.len());
        for (i, b) in boards.iter().enumerate() {
            let stored = set.get(&b.tag(None)).expect("stored");
            assert_eq!(B::untag(stored), (*b, Some(Move::from_index(i))));
        }
    }

    /// Many distinct boards: a walk that never revisits (a row cycle of the blank).
    fn distinct<B: Board>(width: usize, count: usize) -> Vec<B> {
        let mut tiles: Vec<u16> = (0..(width * width) as u16).collect();
        let mut out = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut x: u64 = 7;
        while out.len() < count {
            x = crate::board::mix64(x);
            let (a, b) = ((x % tiles.len() as u64) as usize, ((x >> 32) % tiles.len() as u64) as usize);
            tiles.swap(a, b);
            if seen.insert(tiles.clone()) {
                out.push(B::from_tiles(&tiles));
            }
        }
        out
    }

    #[test]
    fn a_set_kept_for_the_next_search_comes_back_empty() {
        let boards: Vec<Packed> = distinct(3, 300);
        for _ in 0..3 {
            let mut set = TaggedSet::<Packed>::new();
            assert!(boards.iter().all(|b| set.get(&b.tag(None)).is_none()), "nothing left from before");
            assert!(boards.iter().all(|b| set.insert(b.tag(None))));
            assert_eq!(set.len(), boards.len());
        }
    }

    #[test]
    fn stores_each_board_once_with_its_first_tag_through_many_growths() {
        exercise::<Packed>(&distinct(4, 200_000));
        exercise::<Packed>(&distinct(3, 5_000));
        exercise::<Wide>(&distinct(5, 20_000));
    }
}
