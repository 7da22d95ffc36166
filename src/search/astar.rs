/*!
A*: best-first search on f = g + h, kept lean.

The open list holds `(f, g, tagged board)` entries, the tag being the move
that generated the entry. With a consistent heuristic (every one here but
the pattern databases) a board's first removal from the open list has its
optimal g, so it is closed then, with the move of the entry that reached it,
in a compact [`TaggedSet`], and later entries for it are stale and skipped.
A stored state then costs one eight-byte value (packed boards) in either
structure, and no parent boards are kept: the path is rebuilt by undoing
stored moves from the goal. The pattern databases are admissible but not
consistent, so with them a closed board also keeps its g and is reopened
when reached more cheaply (`Reopening`), at a few more bytes per state.

Order: lowest f first; among equal f, the larger g (the deeper node, closer
to a goal); among equal f and g, the most recently generated. Whole-number
heuristics use an f-indexed bucket queue; fixed-point ones (euclidean) use a
binary heap with the same order.
*/

use super::table::TaggedSet;
use super::{Budget, Limits, Outcome, Stats, Status, exhausted, rebuild_path};
use crate::board::{Board, Geometry, Goal, Move, code_move, move_code};
use crate::heuristic::Heuristic;
use rustc_hash::FxHashMap;
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::collections::hash_map::Entry;

/// An open list ordered as the module documentation says.
trait OpenList<B> {
    /// Bytes one entry occupies.
    const ENTRY_BYTES: u64;
    fn new() -> Self;
    fn push(&mut self, f: u64, g: u32, board: B);
    fn pop(&mut self) -> Option<(u64, u32, B)>;
    /// Entries held, stale ones included.
    fn len(&self) -> usize;
}

/// Buckets indexed by f, then by g; each bucket a stack.
struct BucketQueue<B> {
    buckets: Vec<Vec<Vec<B>>>,
    /// `top[f]` bounds the largest non-empty g bucket at `f`.
    top: Vec<usize>,
    min_f: usize,
    len: usize,
}

impl<B> OpenList<B> for BucketQueue<B> {
    const ENTRY_BYTES: u64 = std::mem::size_of::<B>() as u64;

    fn new() -> Self {
        BucketQueue { buckets: Vec::new(), top: Vec::new(), min_f: 0, len: 0 }
    }

    #[inline]
    fn len(&self) -> usize {
        self.len
    }

    #[inline]
    fn push(&mut self, f: u64, g: u32, board: B) {
        let (f, g) = (f as usize, g as usize);
        if f >= self.buckets.len() {
            self.buckets.resize_with(f + 1, Vec::new);
            self.top.resize(f + 1, 0);
        }
        let row = &mut self.buckets[f];
        if g >= row.len() {
            row.resize_with(g + 1, Vec::new);
        }
        row[g].push(board);
        self.len += 1;
        self.top[f] = self.top[f].max(g);
        self.min_f = self.min_f.min(f);
    }

    #[inline]
    fn pop(&mut self) -> Option<(u64, u32, B)> {
        while self.min_f < self.buckets.len() {
            let f = self.min_f;
            let row = &mut self.buckets[f];
            loop {
                let g = self.top[f];
                if let Some(board) = row.get_mut(g).and_then(Vec::pop) {
                    self.len -= 1;
                    return Some((f as u64, g as u32, board));
                }
                if g == 0 {
                    break;
                }
                self.top[f] = g - 1;
            }
            // This f is exhausted: give its memory back. With a consistent
            // heuristic f never decreases, so it stays empty; with the
            // pattern databases a later push may refill it and lower min_f.
            *row = Vec::new();
            self.min_f += 1;
        }
        None
    }
}

/// A heap entry; `Ord` is reversed so `BinaryHeap` pops the best first.
struct HeapItem<B> {
    f: u64,
    g: u32,
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
        other.f.cmp(&self.f).then(self.g.cmp(&other.g)).then(self.seq.cmp(&other.seq))
    }
}

/// A binary heap with the bucket queue's order, for fixed-point f values.
struct HeapQueue<B> {
    heap: BinaryHeap<HeapItem<B>>,
    seq: u64,
}

impl<B> OpenList<B> for HeapQueue<B> {
    const ENTRY_BYTES: u64 = std::mem::size_of::<HeapItem<B>>() as u64;

    fn new() -> Self {
        HeapQueue { heap: BinaryHeap::new(), seq: 0 }
    }
    #[inline]
    fn push(&mut self, f: u64, g: u32, board: B) {
        self.seq += 1;
        self.heap.push(HeapItem { f, g, seq: self.seq, board });
    }
    #[inline]
    fn pop(&mut self) -> Option<(u64, u32, B)> {
        self.heap.pop().map(|item| (item.f, item.g, item.board))
    }

    #[inline]
    fn len(&self) -> usize {
        self.heap.len()
    }
}

/// A* from `start` to `goal` guided by `h`.
///
/// Goal test on removal from the open list; nodes deeper than
/// `limits.max_depth` are not generated. With an admissible heuristic the
/// path is optimal: a consistent one ([`Heuristic::CONSISTENT`]) makes a
/// board's first removal its cheapest, so closed boards are kept as bare
/// tagged values; otherwise each closed board keeps its g and is reopened
/// when reached more cheaply.
///
/// # Examples
/// ```
/// use npuzzle::{astar, Board, Goal, GoalSpec, Limits, Manhattan, Packed};
/// let goal = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
/// let start = Packed::from_tiles(&[1, 2, 5, 3, 4, 0, 6, 7, 8]);
/// let outcome = astar(&start, &goal, &Manhattan::new(&goal), &Limits::default());
/// assert_eq!(outcome.cost(), Some(3));
/// ```
pub fn astar<B: Board, H: Heuristic<B>>(start: &B, goal: &Goal, h: &H, limits: &Limits) -> Outcome {
    match (H::UNIT == 1, H::CONSISTENT) {
        (true, true) => run::<B, H, BucketQueue<B::Tagged>, TaggedSet<B>>(start, goal, h, limits),
        (false, true) => run::<B, H, HeapQueue<B::Tagged>, TaggedSet<B>>(start, goal, h, limits),
        (true, false) => run::<B, H, BucketQueue<B::Tagged>, Reopening<B>>(start, goal, h, limits),
        (false, false) => run::<B, H, HeapQueue<B::Tagged>, Reopening<B>>(start, goal, h, limits),
    }
}

/// Worst-case bytes per stored state with a whole-number, consistent
/// heuristic (see [`bytes_per_state_with`]).
pub(crate) fn bytes_per_state<B: Board>() -> u64 {
    bytes_per_state_with::<B, BucketQueue<B::Tagged>, TaggedSet<B>>()
}

/// Worst-case bytes per stored state: a closed record, or an open entry in a
/// vector that just doubled (plus slack for the per-f bucket vectors).
fn bytes_per_state_with<B: Board, Q: OpenList<B::Tagged>, C: Closed<B>>() -> u64 {
    C::BYTES_PER_STATE.max(2 * Q::ENTRY_BYTES + 8)
}

/// What A* remembers of the boards it has expanded.
trait Closed<B: Board> {
    /// Worst-case bytes per remembered board.
    const BYTES_PER_STATE: u64;
    fn new() -> Self;
    /// Records `entry` (reached at depth `g`) as expanded; false when it is
    /// stale, i.e. the board was expanded before at least as cheaply.
    fn close(&mut self, entry: B::Tagged, g: u32) -> bool;
    /// Whether reaching `child` at depth `g` can be skipped.
    fn settled(&self, child: &B::Tagged, g: u32) -> bool;
    /// The move that reached an expanded board.
    fn arrival(&self, board: &B) -> Option<Move>;
    fn len(&self) -> usize;
}

/// For consistent heuristics: a board's first expansion is its cheapest, so
/// the set of tagged boards is all A* needs.
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
    fn settled(&self, child: &B::Tagged, _: u32) -> bool {
        self.get(child).is_some()
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
/// reached more cheaply later is expanded again, which keeps paths optimal.
struct Reopening<B> {
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
    fn settled(&self, child: &B::Tagged, g: u32) -> bool {
        self.records.get(&B::untag(*child).0).is_some_and(|&r| r >> 3 <= g)
    }
    fn arrival(&self, board: &B) -> Option<Move> {
        self.records.get(board).and_then(|&r| code_move((r & 7) as u8))
    }
    fn len(&self) -> usize {
        self.records.len()
    }
}

fn run<B: Board, H: Heuristic<B>, Q: OpenList<B::Tagged>, C: Closed<B>>(
    start: &B,
    goal: &Goal,
    h: &H,
    limits: &Limits,
) -> Outcome {
    let mut budget = Budget::start(limits, bytes_per_state_with::<B, Q, C>());
    let geometry = Geometry::new(goal.shape());
    let target = B::from_tiles(goal.tiles().cells());
    let unit = u64::from(H::UNIT);
    let mut closed = C::new();
    let mut open = Q::new();
    let mut stats = Stats { max_frontier: 1, ..Stats::default() };
    open.push(u64::from(h.estimate(start)), 0, start.tag(None));
    let mut cut_at_depth = false;
    let mut peak_stored = 1;

    let status = 'search: loop {
        if let Some(limit) = budget.tick() {
            break Status::Limit(limit);
        }
        let Some((f, g, entry)) = open.pop() else {
            break exhausted(cut_at_depth, &budget);
        };
        if !closed.close(entry, g) {
            continue; // stale: this board came out before, at least as cheaply
        }
        let (board, arrival) = B::untag(entry);
        if board == target {
            break Status::Solved;
        }
        if g >= budget.max_depth() {
            cut_at_depth = true;
            continue;
        }
        stats.nodes_expanded += 1;
        let h_board = (f - u64::from(g) * unit) as u32;
        let blank = board.blank();
        let child_g = g + 1;
        let back = arrival.map(Move::inverse);
        for (mv, from) in geometry.moves(blank) {
            stats.nodes_generated += 1;
            if Some(mv) == back {
                continue; // the parent: expanded a moment ago, one move cheaper
            }
            let child = board.slide(blank, from).tag(Some(mv));
            if closed.settled(&child, child_g) {
                continue;
            }
            let stored = closed.len() + open.len();
            if budget.full(stored) {
                break 'search Status::Limit(budget.nodes_limit());
            }
            // Stale entries leave the open list without closing anything, so
            // the count can fall: the figure is its peak, not its last value.
            peak_stored = peak_stored.max(stored + 1);
            let h_child = h.update(&B::untag(child).0, h_board, board.tile(from), from, blank);
            open.push(u64::from(child_g) * unit + u64::from(h_child), child_g, child);
            stats.max_depth = stats.max_depth.max(child_g);
        }
        stats.max_frontier = stats.max_frontier.max(open.len() as u64);
    };

    stats.stored = peak_stored.max(closed.len() + open.len()) as u64;
    stats.runtime = budget.elapsed();
    let path = (status == Status::Solved).then(|| rebuild_path(&geometry, target, |b| closed.arrival(b)));
    Outcome { status, path, stats }
}
