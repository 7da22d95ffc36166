/*!
The binary heap: the open list for priorities too finely spread for
buckets, in the bucket queue's order (see `open.rs`).
*/

use super::open::OpenList;
use super::rules::Rule;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// A heap entry; `Ord` is reversed so `BinaryHeap` pops the best first.
struct HeapItem<B> {
    key: u64,
    /// g, or its complement when shallower nodes come first, so that the
    /// larger `rank` always wins a tie.
    rank: u32,
    h: u32,
    seq: u64,
    board: B,
}

impl<B> PartialEq for HeapItem<B> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl<B> Eq for HeapItem<B> {}
impl<B> PartialOrd for HeapItem<B> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<B> Ord for HeapItem<B> {
    fn cmp(&self, other: &Self) -> Ordering {
        other.key.cmp(&self.key).then(self.rank.cmp(&other.rank)).then(self.seq.cmp(&other.seq))
    }
}

/// A binary heap with the bucket queue's order, for priorities too finely
/// spread for buckets.
pub(crate) struct HeapQueue<B> {
    heap: BinaryHeap<HeapItem<B>>,
    seq: u64,
    /// Mask applied to g to rank ties: none when deeper nodes come first,
    /// all ones (the complement) when shallower ones do.
    flip: u32,
}

impl<B> OpenList<B> for HeapQueue<B> {
    const ENTRY_BYTES: u64 = std::mem::size_of::<HeapItem<B>>() as u64;

    fn new<R: Rule>(_: R) -> Self {
        HeapQueue { heap: BinaryHeap::new(), seq: 0, flip: if R::DEEPER_FIRST { 0 } else { u32::MAX } }
    }

    #[inline]
    fn push(&mut self, key: u64, g: u32, h: u32, board: B) {
        self.seq += 1;
        self.heap.push(HeapItem { key, rank: g ^ self.flip, h, seq: self.seq, board });
    }

    #[inline]
    fn pop(&mut self) -> Option<(u64, u32, u32, B)> {
        self.heap.pop().map(|item| (item.key, item.rank ^ self.flip, item.h, item.board))
    }

    #[inline]
    fn upcoming(&self) -> Option<&B> {
        self.heap.peek().map(|item| &item.board)
    }

    fn floor(&self) -> Option<u64> {
        self.heap.peek().map(|item| item.key)
    }

    #[inline]
    fn len(&self) -> usize {
        self.heap.len()
    }
}
