/*!
The open list's contract, and the kinds of open list.

The open list holds boards tagged with the move that generated them,
grouped by (priority, g). A rule gives one h for a priority and a g, so each
group stores its h once: h is kept, never recovered from the priority
(which would break as soon as the priority is not g + h). Order: lowest
priority first; among equal priorities A* and weighted A* take the larger
g (the deeper node, closer to a goal), greedy search the smaller (for the
same estimate, the node fewer moves from the start: its paths measured a
third as long on Korf and Felner's 24-puzzles); among equal g the most
recently generated. Whole-number priorities close together (integer
heuristics, weights p/q with a small p such as 4 or 1.5 = 3/2) use a bucket
queue (`buckets.rs`); others (euclidean's fixed point, weights such as 1.001
or 1000) a binary heap with the same order (`heap.rs`).
*/

use super::buckets::BucketQueue;
use super::heap::HeapQueue;
use super::rules::Rule;
#[cfg(doc)]
use crate::search::Limits;
use std::sync::Arc;
use std::sync::atomic::AtomicU32;

/// An open list ordered as this module's documentation says, for `R`'s order.
pub(crate) trait OpenList<B> {
    /// Bytes one entry occupies.
    const ENTRY_BYTES: u64;
    fn new<R: Rule>(rule: R) -> Self;
    fn push(&mut self, key: u64, g: u32, h: u32, board: B);
    /// The best entry: its priority, g, h and board.
    fn pop(&mut self) -> Option<(u64, u32, u32, B)>;
    /// Entries held, stale ones included.
    fn len(&self) -> usize;
    /// An entry likely to come out next, if one is at hand without a search.
    fn upcoming(&self) -> Option<&B>;
    /// A priority no entry is below (the smallest, or less); `None` when
    /// empty.
    fn floor(&self) -> Option<u64>;
    /// A lower bound on the cost proven elsewhere while the search runs
    /// ([`Limits::floor`]), for a queue whose picks it can widen.
    fn share_floor(&mut self, floor: Arc<AtomicU32>) {
        let _ = floor;
    }
    /// The largest f to pick ([`Limits::ceiling`]), for a queue that can
    /// leave the boards above it unpicked.
    fn set_ceiling(&mut self, ceiling: u32) {
        let _ = ceiling;
    }
}

/// A kind of open list, for any kind of entry.
pub(crate) trait Queue {
    type Of<E: Copy + Send + 'static>: OpenList<E>;
}

/// The bucket queue.
pub(crate) struct Buckets;

impl Queue for Buckets {
    type Of<E: Copy + Send + 'static> = BucketQueue<E>;
}

/// The binary heap.
pub(crate) struct Heap;

impl Queue for Heap {
    type Of<E: Copy + Send + 'static> = HeapQueue<E>;
}
