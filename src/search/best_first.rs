/*!
Best-first graph search: the engine A*, weighted A* and greedy search share.
Each is a [`Rule`] that turns a node's depth g and estimate h into its
priority; everything else is the same.

The open list holds boards tagged with the move that generated them,
grouped by (priority, g). A rule gives one h for a priority and a g, so each
group stores its h once: h is kept, never recovered from the priority
(which would break as soon as the priority is not g + h). Order: lowest
priority first; among equal priorities A* and weighted A* take the larger
g (the deeper node, closer to a goal), greedy search the smaller (for the
same estimate, the node fewer moves from the start: its paths measured a
third as long on Korf and Felner's 24-puzzles); among equal g the most
recently generated. Whole-number
priorities close together (integer heuristics, weights p/q with a small p
such as 4 or 1.5 = 3/2) use a bucket queue; others (euclidean's fixed
point, weights such as 1.001 or 1000) a binary heap with the same order.

A board is closed, with the move of the entry that reached it, the first
time it comes out of the open list, in a compact [`TaggedSet`]; later
entries for it are stale and skipped. With a consistent heuristic (every one
here but the pattern databases) that first time is A*'s cheapest, and
weighted A* stays within its bound without reopening (Likhachev, Gordon and
Thrun, ARA*, 2003). The pattern databases are admissible but not
consistent, so with them A* and weighted A* keep each closed board's g and
reopen it when it is reached more cheaply (`Reopening`), at a few more bytes
per state. Greedy search never reopens: its paths are not bounded anyway.
A stored state costs one eight-byte value (packed boards) in either
structure, and no parent boards are kept: the path is rebuilt by undoing
stored moves from the goal. The one exception is a heuristic that can
estimate a board cheaply only from its parent's memo (zero-aware pattern
databases in bits, which otherwise walk down to their goal for every
board): then each open entry keeps its board's memo beside it, about a
hundred bytes, and the node limit shrinks to match.
*/

use super::algorithm::Selection;
use super::spare;
use super::table::TaggedSet;
use super::{Budget, LimitKind, Limits, Outcome, Stats, Status, exhausted, rebuild_path};
use crate::board::{Board, Geometry, Goal, Move, code_move, move_code};
use crate::heuristic::{Heuristic, Slide};
use rustc_hash::FxHashMap;
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::collections::hash_map::Entry;
use std::sync::Arc;
use std::sync::atomic::AtomicU32;

/// How a node's priority follows from its depth `g` and its estimate `h`
/// (in heuristic units, `unit` to a move): lower is searched first.
pub(crate) trait Rule: Copy + Send + Sync {
    /// Among equal priorities, whether the deeper node comes first.
    const DEEPER_FIRST: bool = true;

    /// Whether the search's first solution is a shortest one: A*, which
    /// expands in order of f.
    const PROVES_BOUND: bool = false;

    /// Whether the smallest priority left open bounds the cost from below:
    /// f = g + h, searched with closed boards reopened (or a consistent
    /// heuristic), so a node of an optimal path is open with its optimal g.
    const FLOOR_BOUNDS: bool = false;

    /// Whether priorities come out in increasing order, so that one that is
    /// exhausted stays empty (A* with a consistent heuristic; the rare
    /// refill under an inconsistent one only costs an allocation).
    const MONOTONE: bool = false;

    /// Whether a child that was expanded before is dropped as it is
    /// generated, or left to come out of the open list as a stale entry.
    /// A* drops it, as the textbook does, so its frontier figures hold only
    /// boards yet to expand. Weighted and greedy search seldom come back to
    /// an expanded board (under 1 % of the children on the 24-puzzle), and
    /// looking a child up costs a cache miss the stale entry mostly does not.
    const DROPS_EXPANDED_CHILDREN: bool = false;

    fn key(self, g: u32, h: u32, unit: u32) -> u64;

    /// The largest h with which a node at depth `g` is within `bound`
    /// (0 when none is, `u32::MAX` when every one is): the inverse of
    /// [`Rule::key`], which a heuristic may use to stop refining an
    /// estimate that already prunes (see `Heuristic::begin_children`).
    fn cut(self, g: u32, bound: u64, unit: u32) -> u32;

    /// The fewest moves a solution can have when every node of priority
    /// below `key` is known to lead nowhere: a node of an optimal path has
    /// a priority of at most this rule's worth of its g + h (moves).
    /// `None` for a rule whose priorities prove nothing (greedy).
    fn lower_bound(self, key: u64, unit: u32) -> Option<u32>;

    /// The bound and the pick of a bounded-suboptimal search, whose open
    /// list is the focal queue (`focal.rs`).
    fn bounded(self) -> Option<Bounded> {
        None
    }

    /// The largest priority a node can have and still reach the goal
    /// within `max_depth` moves, if the rule bounds it (IDA* cuts above it).
    fn depth_cap(self, max_depth: u32, unit: u32) -> u64 {
        let _ = (max_depth, unit);
        u64::MAX
    }
}

/// `x` as a `u32`, or `u32::MAX` when it is larger.
#[inline]
fn saturate(x: u64) -> u32 {
    u32::try_from(x).unwrap_or(u32::MAX)
}

/// A*'s f = g + h.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plain;

impl Rule for Plain {
    const MONOTONE: bool = true;
    const PROVES_BOUND: bool = true;
    const FLOOR_BOUNDS: bool = true;
    const DROPS_EXPANDED_CHILDREN: bool = true;

    #[inline]
    fn key(self, g: u32, h: u32, unit: u32) -> u64 {
        u64::from(g) * u64::from(unit) + u64::from(h)
    }

    #[inline]
    fn cut(self, g: u32, bound: u64, unit: u32) -> u32 {
        saturate(bound.saturating_sub(u64::from(g) * u64::from(unit)))
    }

    fn lower_bound(self, key: u64, unit: u32) -> Option<u32> {
        u32::try_from(key.div_ceil(u64::from(unit))).ok()
    }

    /// With an admissible h, f = g + h never exceeds the cost of the
    /// cheapest goal below: past `max_depth` moves nothing is in time.
    fn depth_cap(self, max_depth: u32, unit: u32) -> u64 {
        u64::from(max_depth).saturating_mul(u64::from(unit))
    }
}

/// f = g + W·h with W = p / q, scaled by q so it stays a whole number.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Weighted {
    pub p: u64,
    pub q: u64,
}

impl Rule for Weighted {
    #[inline]
    fn key(self, g: u32, h: u32, unit: u32) -> u64 {
        self.q * u64::from(g) * u64::from(unit) + self.p * u64::from(h)
    }

    #[inline]
    fn cut(self, g: u32, bound: u64, unit: u32) -> u32 {
        saturate(bound.saturating_sub(self.q * u64::from(g) * u64::from(unit)) / self.p)
    }

    /// q·U·g + p·h is at most p·U·(g + h/U), since q ≤ p: a node of an
    /// optimal path has a priority of at most p·U·C*.
    fn lower_bound(self, key: u64, unit: u32) -> Option<u32> {
        u32::try_from(key.div_ceil(self.p * u64::from(unit))).ok()
    }
}

/// Greedy best-first: h alone.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Greedy;

impl Rule for Greedy {
    const DEEPER_FIRST: bool = false;

    #[inline]
    fn key(self, _: u32, h: u32, _: u32) -> u64 {
        u64::from(h)
    }

    #[inline]
    fn cut(self, _: u32, bound: u64, _: u32) -> u32 {
        saturate(bound)
    }

    fn lower_bound(self, _: u64, _: u32) -> Option<u32> {
        None
    }
}

/// The rule of a bounded search with B = p / q: priorities are f = g + h,
/// the bucket queue's, and the pick is the focal queue's (`focal.rs`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bounded {
    pub p: u64,
    pub q: u64,
    pub selection: Selection,
}

impl Rule for Bounded {
    const FLOOR_BOUNDS: bool = true;

    #[inline]
    fn key(self, g: u32, h: u32, unit: u32) -> u64 {
        Plain.key(g, h, unit)
    }

    #[inline]
    fn cut(self, g: u32, bound: u64, unit: u32) -> u32 {
        Plain.cut(g, bound, unit)
    }

    fn lower_bound(self, key: u64, unit: u32) -> Option<u32> {
        Plain.lower_bound(key, unit)
    }

    fn bounded(self) -> Option<Bounded> {
        Some(self)
    }
}

/// An open list ordered as the module documentation says, for `R`'s order.
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

/// The boards of one (priority, g), and their h.
struct Bucket<B> {
    h: u32,
    boards: Vec<B>,
}

/// Buckets indexed by priority, then by g; each bucket a stack. A small
/// queue's vectors are kept for the thread's next search (see `spare.rs`).
pub(crate) struct BucketQueue<B: 'static> {
    buckets: Vec<Vec<Bucket<B>>>,
    /// `filled[key]`: bit g set when the bucket (key, g) holds a board, kept
    /// by weighted and greedy search, whose pops find the next g in these
    /// words: stepping bucket by bucket through a priority's empty ones
    /// took a tenth of weighted A*'s time on 7×7 boards, where a row spans
    /// hundreds of depths. A*'s rows fill one depth after the next, and the
    /// bits cost its 8-puzzle 6 %; it steps.
    filled: Vec<Vec<u64>>,
    /// `next[key]`: the g bucket at `key` to look in first, at or beyond
    /// which (in the order g is taken) every non-empty bucket lies.
    next: Vec<usize>,
    /// The lowest priority that may hold an entry.
    min_key: usize,
    len: usize,
    deeper_first: bool,
    /// A*'s order ([`Rule::MONOTONE`]): an exhausted priority's row is
    /// freed, and a row's depths are stepped through, not tracked in bits.
    monotone: bool,
}

/// The most boards a queue's buckets may have room for to be kept for the
/// thread's next search: a small search's worth.
const KEPT_BOARDS: usize = 1 << 14;

/// The most boards an exhausted priority's row of A* may have room for to
/// stay allocated.
const KEPT_ROW: usize = 1 << 12;

/// The vectors of a [`BucketQueue`], kept between searches.
type Spare<B> = (Vec<Vec<Bucket<B>>>, Vec<Vec<u64>>, Vec<usize>);

impl<B: 'static> Drop for BucketQueue<B> {
    fn drop(&mut self) {
        let room: usize = self.buckets.iter().flatten().map(|bucket| bucket.boards.capacity()).sum();
        if room <= KEPT_BOARDS {
            let (buckets, filled, next) = (&mut self.buckets, &mut self.filled, &mut self.next);
            spare::keep::<Spare<B>>((std::mem::take(buckets), std::mem::take(filled), std::mem::take(next)));
        }
    }
}

impl<B: 'static> OpenList<B> for BucketQueue<B> {
    const ENTRY_BYTES: u64 = std::mem::size_of::<B>() as u64;

    /// The top of the bucket the last pop took from, unless a child pushed
    /// since sorts before it.
    #[inline]
    fn upcoming(&self) -> Option<&B> {
        let key = self.min_key;
        let g = *self.next.get(key)?;
        self.buckets.get(key)?.get(g)?.boards.last()
    }

    fn floor(&self) -> Option<u64> {
        (self.len > 0).then_some(self.min_key as u64)
    }

    fn new<R: Rule>(_: R) -> Self {
        let (mut buckets, mut filled, mut next) = spare::take::<Spare<B>>().unwrap_or_default();
        buckets.iter_mut().flatten().for_each(|bucket| bucket.boards.clear());
        for words in &mut filled {
            words.fill(0);
        }
        next.fill(if R::DEEPER_FIRST { 0 } else { usize::MAX });
        BucketQueue {
            buckets,
            filled,
            next,
            // Nothing below the first priority pushed is looked at, so rows
            // kept from the last search are not scanned.
            min_key: usize::MAX,
            len: 0,
            deeper_first: R::DEEPER_FIRST,
            monotone: R::MONOTONE,
        }
    }

    #[inline]
    fn len(&self) -> usize {
        self.len
    }

    #[inline]
    fn push(&mut self, key: u64, g: u32, h: u32, board: B) {
        let (key, g) = (key as usize, g as usize);
        if key >= self.buckets.len() {
            self.buckets.resize_with(key + 1, Vec::new);
            self.filled.resize_with(key + 1, Vec::new);
            self.next.resize(key + 1, if self.deeper_first { 0 } else { usize::MAX });
        }
        if !self.monotone {
            let words = &mut self.filled[key];
            if g / 64 >= words.len() {
                words.resize(g / 64 + 1, 0);
            }
            words[g / 64] |= 1 << (g % 64);
        }
        let row = &mut self.buckets[key];
        if g >= row.len() {
            row.resize_with(g + 1, || Bucket { h: 0, boards: Vec::new() });
        }
        let bucket = &mut row[g];
        debug_assert!(bucket.boards.is_empty() || bucket.h == h, "one h per priority and g");
        bucket.h = h;
        bucket.boards.push(board);
        self.len += 1;
        let next = &mut self.next[key];
        *next = if self.deeper_first { (*next).max(g) } else { (*next).min(g) };
        self.min_key = self.min_key.min(key);
    }

    #[inline]
    fn pop(&mut self) -> Option<(u64, u32, u32, B)> {
        while self.min_key < self.buckets.len() {
            let key = self.min_key;
            if self.monotone {
                // A*: step down from the deepest g that may hold a board.
                let row = &mut self.buckets[key];
                loop {
                    let g = self.next[key];
                    if let Some(bucket) = row.get_mut(g)
                        && let Some(board) = bucket.boards.pop()
                    {
                        self.len -= 1;
                        return Some((key as u64, g as u32, bucket.h, board));
                    }
                    match (self.deeper_first, g) {
                        (true, 0) => break,
                        (true, _) => self.next[key] = g - 1,
                        (false, _) if g >= row.len().saturating_sub(1) => break,
                        (false, _) => self.next[key] = g + 1,
                    }
                }
            } else {
                let words = &mut self.filled[key];
                if let Some(g) = next_filled(words, self.next[key], self.deeper_first) {
                    let bucket = &mut self.buckets[key][g];
                    let board = bucket.boards.pop().expect("a filled bucket holds a board");
                    // The new top is read at once (`upcoming`); the one
                    // beneath it, if this bucket is taken from again, is
                    // loaded meanwhile.
                    if let Some(beneath) = bucket.boards.len().checked_sub(2) {
                        crate::machine::prefetch(&bucket.boards[beneath]);
                    }
                    if bucket.boards.is_empty() {
                        words[g / 64] &= !(1 << (g % 64));
                    }
                    self.next[key] = g;
                    self.len -= 1;
                    return Some((key as u64, g as u32, bucket.h, board));
                }
            }
            self.next[key] = if self.deeper_first { 0 } else { usize::MAX };
            // This priority is exhausted. A*'s stays empty, so a large row's
            // memory (millions of boards at a 15-puzzle's f) goes back; a
            // small one is kept for the next search on this thread, which
            // would otherwise grow it again (measured: a sixth of a batch of
            // 8-puzzles' instructions). Weighted and greedy search refill
            // priorities all the time, and freeing their rows would
            // reallocate them over and over (an eighth of greedy search's
            // instructions).
            let row = &mut self.buckets[key];
            if self.monotone && row.iter().map(|bucket| bucket.boards.capacity()).sum::<usize>() > KEPT_ROW {
                *row = Vec::new();
            }
            self.min_key += 1;
        }
        None
    }
}

/// The g of the bucket to take next among the set bits of `words`: the
/// highest when deeper nodes come first, else the lowest. The queue keeps
/// every set bit on `from`'s side (at or below it, or at or above it), so
/// the scan starts at `from`'s word.
#[inline]
fn next_filled(words: &[u64], from: usize, deeper_first: bool) -> Option<usize> {
    let start = from / 64;
    if deeper_first {
        let below = &words[..words.len().min(start + 1)];
        let at = below.iter().rposition(|&word| word != 0)?;
        Some(at * 64 + 63 - below[at].leading_zeros() as usize)
    } else {
        let above = words.get(start..)?;
        let at = above.iter().position(|&word| word != 0)?;
        Some((start + at) * 64 + above[at].trailing_zeros() as usize)
    }
}

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

/// Worst-case bytes per stored state with a whole-number, consistent
/// heuristic (see [`bytes_per_state_with`]).
pub(crate) fn bytes_per_state<B: Board>() -> u64 {
    bytes_per_state_with::<B, BucketQueue<Bare<B::Tagged>>, TaggedSet<B>, _>()
}

/// Worst-case bytes per stored state: a closed record, or an open entry in a
/// vector that just doubled (plus slack for the per-priority bucket vectors).
pub(crate) fn bytes_per_state_with<B: Board, Q: OpenList<E>, C: Closed<B>, E>() -> u64 {
    C::BYTES_PER_STATE.max(2 * Q::ENTRY_BYTES + 8)
}

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

/// What the open list holds for a board: the board tagged with the move
/// that reached it and, where the heuristic estimates a board only cheaply
/// from its parent ([`Heuristic::estimates_from_parent`]), its memo.
pub(crate) trait OpenEntry<B: Board, M>: Copy + Send + 'static {
    /// Whether children are estimated from the memo rather than afresh.
    const MEMO: bool;
    fn new(tagged: B::Tagged, memo: M) -> Self;
    fn tagged(&self) -> B::Tagged;
    fn memo(&self) -> M;
}

/// An entry without a memo: the tagged board alone, eight bytes for the
/// packed boards.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bare<T>(T);

impl<B: Board, M: Default> OpenEntry<B, M> for Bare<B::Tagged> {
    const MEMO: bool = false;
    #[inline]
    fn new(tagged: B::Tagged, _: M) -> Self {
        Bare(tagged)
    }
    #[inline]
    fn tagged(&self) -> B::Tagged {
        self.0
    }
    #[inline]
    fn memo(&self) -> M {
        M::default()
    }
}

/// An entry with the heuristic's memo.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WithMemo<T, M>(T, M);

impl<B: Board, M: Copy + Send + 'static> OpenEntry<B, M> for WithMemo<B::Tagged, M> {
    const MEMO: bool = true;
    #[inline]
    fn new(tagged: B::Tagged, memo: M) -> Self {
        WithMemo(tagged, memo)
    }
    #[inline]
    fn tagged(&self) -> B::Tagged {
        self.0
    }
    #[inline]
    fn memo(&self) -> M {
        self.1
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

/// Best-first search from `start` to `goal` in the order of `rule`, with an
/// open list of kind `Q` and closed set `C` (see [`search`]); open boards
/// keep the heuristic's memo where it estimates them only cheaply from it.
pub(crate) fn run<B: Board, H: Heuristic<B>, R: Rule, Q: Queue, C: Closed<B>>(
    start: &B,
    goal: &Goal,
    h: &H,
    rule: R,
    limits: &Limits,
) -> Outcome {
    if std::mem::size_of::<H::Memo>() > 0 && h.estimates_from_parent() {
        type Memo<B, H> = WithMemo<<B as Board>::Tagged, <H as Heuristic<B>>::Memo>;
        search::<B, H, R, Memo<B, H>, Q::Of<Memo<B, H>>, C>(start, goal, h, rule, limits)
    } else {
        search::<B, H, R, Bare<B::Tagged>, Q::Of<Bare<B::Tagged>>, C>(start, goal, h, rule, limits)
    }
}

/// Closed boards past which the children's slots are fetched ahead
/// ([`TaggedSet::prefetch`]): below, the set sits in the cache and the
/// extra slides only cost (8-puzzle A*: 0.8 → 0.9 ms).
const PREFETCH_FROM: usize = 1 << 15;

/// Best-first search from `start` to `goal` in the order of `rule`, with
/// open list `Q` of entries `E` and closed set `C`: textbook graph search,
/// the goal tested on removal, nodes deeper than `limits.max_depth` not
/// expanded.
fn search<B: Board, H: Heuristic<B>, R: Rule, E: OpenEntry<B, H::Memo>, Q: OpenList<E>, C: Closed<B>>(
    start: &B,
    goal: &Goal,
    h: &H,
    rule: R,
    limits: &Limits,
) -> Outcome {
    let mut budget = Budget::start(limits, Some(bytes_per_state_with::<B, Q, C, E>()));
    let geometry = Geometry::plain(goal.shape());
    let target = B::from_tiles(goal.tiles().cells());
    let mut closed = C::new();
    let mut open: Q = open_list(rule, limits);
    let mut stats = Stats { max_frontier: 1, ..Stats::default() };
    let (h_start, memo) =
        if E::MEMO { h.estimate_memo(start) } else { (h.estimate(start), H::Memo::default()) };
    open.push(rule.key(0, h_start, H::UNIT), 0, h_start, E::new(start.tag(None), memo));
    let mut cut_at_depth = false;
    let mut peak_stored = 1;

    let status = 'search: loop {
        if budget.tick()
            && let Some(limit) = budget.check(stats.nodes_expanded, closed.len() + open.len())
        {
            break Status::Limit(limit);
        }
        let Some((_, g, h_board, popped)) = open.pop() else {
            // Boards left that the queue would not pick lie above the ceiling.
            break match limits.ceiling {
                Some(ceiling) if open.len() > 0 => Status::Limit(LimitKind::Cost(ceiling)),
                _ => exhausted(cut_at_depth, &budget),
            };
        };
        let entry = popped.tagged();
        // Past the cache, the entry after this one is closed next: its slot
        // loads while this node expands (the children's are fetched below).
        // It is the next entry unless a child sorts before it; then the
        // child's slot is fetched once the children are in.
        let prefetch = closed.len() > PREFETCH_FROM;
        let mut predicted: *const E = std::ptr::null();
        if prefetch && let Some(next) = open.upcoming() {
            closed.prefetch(closed.probe(&next.tagged()));
            predicted = next;
        }
        if !closed.close(entry, g) {
            continue; // stale: this board came out before, at least as cheaply
        }
        let (board, arrival) = B::untag(entry);
        // A computed estimate is 0 at the goal, which spares most boards
        // the comparison; a table (the pattern databases) is data, so there
        // the board itself is compared (see IDA*).
        if (h_board == 0 || !H::CONSISTENT) && board == target {
            break Status::Solved;
        }
        if g >= budget.max_depth() {
            cut_at_depth = true;
            continue;
        }
        if let Some(limit) = budget.spent(stats.nodes_expanded) {
            break Status::Limit(limit);
        }
        stats.nodes_expanded += 1;
        let blank = board.blank();
        let child_g = g + 1;
        let back = arrival.map(Move::inverse);
        // Each child's board and probe once, every probe's slot fetched
        // before the first lookup; the parent's entry stays empty.
        let mut children = [(None, B::VACANT, 0); 4];
        let mut count = 0;
        for (mv, from) in geometry.moves(blank) {
            if Some(mv) != back {
                let child = board.slide(blank, from).tag(Some(mv));
                let mut probe = 0;
                if R::DROPS_EXPANDED_CHILDREN {
                    probe = closed.probe(&child);
                    if prefetch {
                        closed.prefetch(probe);
                    }
                }
                children[count] = (Some(from), child, probe);
            }
            count += 1;
        }
        for &(from, child, probe) in &children[..count] {
            stats.nodes_generated += 1;
            let Some(from) = from else {
                continue; // the parent: expanded a moment ago, one move cheaper
            };
            if R::DROPS_EXPANDED_CHILDREN && closed.settled(&child, probe, child_g) {
                continue;
            }
            let stored = closed.len() + open.len();
            if budget.full(stored) {
                break 'search Status::Limit(budget.nodes_limit());
            }
            // Stale entries leave the open list without closing anything, so
            // the count can fall: the figure is its peak, not its last value.
            peak_stored = peak_stored.max(stored + 1);
            let slide = Slide { board: B::untag(child).0, tile: board.tile(from), from };
            let (h_child, memo) = estimate(h, &popped, h_board, &slide, blank);
            open.push(rule.key(child_g, h_child, H::UNIT), child_g, h_child, E::new(child, memo));
            stats.max_depth = stats.max_depth.max(child_g);
        }
        stats.max_frontier = stats.max_frontier.max(open.len() as u64);
        // (Only the address is compared: a vector that moved meanwhile at
        // worst costs this hint.)
        if prefetch
            && let Some(next) = open.upcoming()
            && !std::ptr::eq(next, predicted)
        {
            closed.prefetch(closed.probe(&next.tagged()));
        }
    };

    stats.stored = peak_stored.max(closed.len() + open.len()) as u64;
    let open_floor = open.floor();
    // The path is part of the answer, so its rebuilding is on the clock.
    let path = (status == Status::Solved)
        .then(|| rebuild_path(geometry, target, stats.max_depth, |b| closed.arrival(b)));
    // Putting the containers away is the search's cost too: on the clock.
    drop((closed, open));
    stats.runtime = budget.elapsed();
    // What the search proved of the cost: for A* (its priority is f), every
    // node it left open is one of a frontier that an optimal path crosses,
    // so none costs less than the smallest f among them; an optimal
    // solution is its own bound.
    let cost = path.as_ref().and_then(|p| u32::try_from(p.len()).ok());
    let lower_bound = proven_bound(rule, status, cost, open_floor, H::UNIT);
    Outcome { status, path, stats, lower_bound, improvements: Vec::new() }
}

/// An open list for `rule`, with the bounds `limits` hand the search.
fn open_list<E, Q: OpenList<E>, R: Rule>(rule: R, limits: &Limits) -> Q {
    let mut open = Q::new(rule);
    if let Some(floor) = &limits.floor {
        open.share_floor(Arc::clone(floor));
    }
    if let Some(ceiling) = limits.ceiling {
        open.set_ceiling(ceiling);
    }
    open
}

/// The estimate of `slide`'s board, a child of the entry `parent` (estimate
/// `h`, blank on `to`), and its memo where entries keep one.
#[inline]
fn estimate<B: Board, H: Heuristic<B>, E: OpenEntry<B, H::Memo>>(
    heuristic: &H,
    parent: &E,
    h: u32,
    slide: &Slide<B>,
    to: usize,
) -> (u32, H::Memo) {
    let Slide { board, tile, from } = *slide;
    if E::MEMO {
        heuristic.update_memo(&board, h, &parent.memo(), tile, from, to)
    } else {
        (heuristic.update(&board, h, tile, from, to), H::Memo::default())
    }
}

/// What a search by `rule` proved of the cost: A* (its priority is f), that
/// every node it left open is one of a frontier an optimal path crosses, so
/// none costs less than the smallest f among them (`floor`), and that its
/// solution is optimal; a bounded search's goal may cost more than the
/// optimum, but unless it is optimal a node of an optimal path is still
/// open, so the smaller of its cost and the floor is a bound.
fn proven_bound<R: Rule>(
    rule: R,
    status: Status,
    cost: Option<u32>,
    floor: Option<u64>,
    unit: u32,
) -> Option<u32> {
    let floor = floor.and_then(|key| rule.lower_bound(key, unit));
    match status {
        Status::Solved if R::PROVES_BOUND => cost,
        Status::Solved if R::FLOOR_BOUNDS => match (cost, floor) {
            (Some(cost), Some(floor)) => Some(cost.min(floor)),
            (cost, _) => cost,
        },
        Status::Limit(_) if R::FLOOR_BOUNDS => floor,
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `cut` is the last h whose priority stays within the bound.
    fn check_cut<R: Rule>(rule: R) {
        for unit in [1, 6] {
            for g in 0..12 {
                for bound in 0..200 {
                    let cut = rule.cut(g, bound, unit);
                    if rule.key(g, 0, unit) > bound {
                        assert_eq!(cut, 0, "g {g}, bound {bound}: no h fits");
                        continue;
                    }
                    assert!(rule.key(g, cut, unit) <= bound, "g {g}, bound {bound}, cut {cut}");
                    if cut < u32::MAX {
                        assert!(rule.key(g, cut + 1, unit) > bound, "g {g}, bound {bound}, cut {cut}");
                    }
                }
            }
        }
    }

    #[test]
    fn every_rule_cuts_at_the_last_estimate_within_the_bound() {
        check_cut(Plain);
        check_cut(Weighted { p: 3, q: 2 });
        check_cut(Weighted { p: 5, q: 1 });
        check_cut(Greedy);
        check_cut(Bounded { p: 11, q: 10, selection: Selection::Nearest });
    }

    /// Pushes `entries` (priority, g, h, board) and pops them all.
    fn order<R: Rule>(rule: R, entries: &[(u64, u32, u32, u64)]) -> Vec<(u64, u32, u32, u64)> {
        let mut queue = BucketQueue::<u64>::new(rule);
        for &(key, g, h, board) in entries {
            queue.push(key, g, h, board);
        }
        std::iter::from_fn(|| queue.pop()).collect()
    }

    /// Pushes and pops interleaved, with depths spread over several words of
    /// the occupancy bits, against a model that sorts every entry.
    fn matches_a_sorted_model<R: Rule>(rule: R) {
        let mut queue = BucketQueue::<u64>::new(rule);
        let mut model: Vec<(u64, u32, u64)> = Vec::new();
        let mut x = 12345u64;
        for step in 0..20_000u64 {
            x = crate::board::mix64(x);
            if !x.is_multiple_of(3) || model.is_empty() {
                let (key, g) = (x % 40, (x >> 8) as u32 % 300);
                queue.push(key, g, (key * 1000 + u64::from(g)) as u32, step);
                model.push((key, g, step));
                continue;
            }
            // Lowest key, then the preferred g, then the latest pushed.
            let best = model
                .iter()
                .enumerate()
                .min_by_key(|&(_, &(key, g, seq))| {
                    (key, if R::DEEPER_FIRST { u32::MAX - g } else { g }, u64::MAX - seq)
                })
                .map(|(i, _)| i)
                .unwrap();
            let (key, g, seq) = model.swap_remove(best);
            assert_eq!(queue.pop(), Some((key, g, (key * 1000 + u64::from(g)) as u32, seq)), "step {step}");
            assert_eq!(queue.len(), model.len());
        }
    }

    #[test]
    fn weighted_and_greedy_queues_pop_in_the_documented_order_across_sparse_depths() {
        matches_a_sorted_model(Weighted { p: 2, q: 1 });
        matches_a_sorted_model(Greedy);
        matches_a_sorted_model(Plain);
    }

    #[test]
    fn a_queue_kept_for_the_next_search_holds_nothing_from_the_last_and_keeps_its_order() {
        let entries = [(5, 2, 3, 10), (4, 1, 3, 11), (5, 3, 2, 12), (7, 0, 7, 13), (4, 1, 3, 14)];
        let first = order(Plain, &entries);
        assert_eq!(first.iter().map(|e| e.3).collect::<Vec<_>>(), [14, 11, 12, 10, 13]);
        // Left with entries in it, then taken back by the next queue.
        let mut queue = BucketQueue::<u64>::new(Plain);
        queue.push(9, 4, 5, 99);
        drop(queue);
        let mut queue = BucketQueue::<u64>::new(Greedy);
        assert_eq!((queue.len(), queue.pop()), (0, None));
        drop(queue);
        assert_eq!(order(Plain, &entries), first);
        // Greedy takes the shallower of equal priorities.
        let greedy = order(Greedy, &[(3, 5, 3, 1), (3, 2, 3, 2)]);
        assert_eq!(greedy.iter().map(|e| e.3).collect::<Vec<_>>(), [2, 1]);
    }
}
