/*!
A*: best-first search on f = g + h, kept lean.

The open list holds `(f, g, tagged board)` entries, the tag being the move
that generated the entry; the closed set is a compact [`TaggedSet`] of tagged
boards. A board is closed, with the move of the entry that reached it, the
first time it comes out of the open list; with a consistent heuristic (all of
this crate's are) that first time has the optimal g. Later entries for a
closed board are stale and skipped. So a stored state costs one eight-byte
value (packed boards) in either structure, and no parent boards are kept:
the path is rebuilt by undoing stored moves from the goal.

Order: lowest f first; among equal f, the larger g (the deeper node, closer
to a goal); among equal f and g, the most recently generated. Whole-number
heuristics use an f-indexed bucket queue; fixed-point ones (euclidean) use a
binary heap with the same order.
*/

use super::table::TaggedSet;
use super::{Budget, Limits, Outcome, Stats, Status, exhausted, rebuild_path};
use crate::board::{Board, Geometry, Goal, Move};
use crate::heuristic::Heuristic;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

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
            // This f is exhausted for good (f never decreases with a
            // consistent heuristic): give its memory back.
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
/// `limits.max_depth` are not generated. The heuristic must be admissible
/// and consistent (every heuristic in this crate is), which is what makes a
/// board's first removal its cheapest and the returned path optimal.
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
    if H::UNIT == 1 {
        run::<B, H, BucketQueue<B::Tagged>>(start, goal, h, limits)
    } else {
        run::<B, H, HeapQueue<B::Tagged>>(start, goal, h, limits)
    }
}

/// Worst-case bytes per stored state with a whole-number heuristic (see
/// [`bytes_per_state_with`]).
pub(crate) fn bytes_per_state<B: Board>() -> u64 {
    bytes_per_state_with::<B, BucketQueue<B::Tagged>>()
}

/// Worst-case bytes per stored state: a closed slot at the lowest load
/// (0.375), or an open entry in a vector that just doubled (plus slack for
/// the per-f bucket vectors).
fn bytes_per_state_with<B: Board, Q: OpenList<B::Tagged>>() -> u64 {
    let slot = std::mem::size_of::<B::Tagged>() as u64;
    (slot * 8 / 3).max(2 * Q::ENTRY_BYTES + 8)
}

fn run<B: Board, H: Heuristic<B>, Q: OpenList<B::Tagged>>(
    start: &B,
    goal: &Goal,
    h: &H,
    limits: &Limits,
) -> Outcome {
    let mut budget = Budget::start(limits, bytes_per_state_with::<B, Q>());
    let geometry = Geometry::new(goal.width());
    let target = B::from_tiles(goal.tiles().cells());
    let unit = u64::from(H::UNIT);
    let mut closed = TaggedSet::<B>::new();
    let mut open = Q::new();
    let mut stats = Stats { max_frontier: 1, ..Stats::default() };
    open.push(u64::from(h.estimate(start)), 0, start.tag(None));
    let mut cut_at_depth = false;

    let status = 'search: loop {
        if let Some(limit) = budget.tick() {
            break Status::Limit(limit);
        }
        let Some((f, g, entry)) = open.pop() else {
            break exhausted(cut_at_depth, &budget);
        };
        if !closed.insert(entry) {
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
                continue; // the parent: closed a moment ago
            }
            let child = board.slide(blank, from).tag(Some(mv));
            if closed.get(&child).is_some() {
                continue;
            }
            if budget.full(closed.len() + open.len()) {
                break 'search Status::Limit(budget.nodes_limit());
            }
            let h_child = h.update(&B::untag(child).0, h_board, board.tile(from), from, blank);
            open.push(u64::from(child_g) * unit + u64::from(h_child), child_g, child);
            stats.max_depth = stats.max_depth.max(child_g);
        }
        stats.max_frontier = stats.max_frontier.max(open.len() as u64);
    };

    stats.stored = (closed.len() + open.len()) as u64;
    stats.runtime = budget.elapsed();
    let path = (status == Status::Solved)
        .then(|| rebuild_path(&geometry, target, |b| closed.get(&b.tag(None)).and_then(|t| B::untag(t).1)));
    Outcome { status, path, stats }
}
