/*!
A*: best-first search on f = g + h.

Each state is stored once, in a map holding its best g, the move that reached
it and whether it is closed. The open list holds `(f, g, board)` entries; an
entry whose g is no longer the state's best is stale and skipped when it comes
out (lazy deletion), so improving a path is one push, not a search of the
heap.

Order: lowest f first; among equal f, the larger g (the deeper node, closer
to a goal); among equal f and g, the most recently generated. Whole-number
heuristics use an f-indexed bucket queue; fixed-point ones (euclidean) use a
binary heap with the same order.
*/

use super::{Budget, Limits, Outcome, Stats, Status, exhausted, rebuild_path};
use crate::board::{Board, Geometry, Goal, Move};
use crate::heuristic::Heuristic;
use rustc_hash::FxHashMap;
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::collections::hash_map::Entry;

/// A*'s record of one state, packed into 32 bits: `g << 4 | closed << 3 |
/// has_parent << 2 | move`.
#[derive(Clone, Copy)]
struct Record(u32);

impl Record {
    const CLOSED: u32 = 1 << 3;
    const HAS_PARENT: u32 = 1 << 2;

    fn open(g: u32, arrival: Option<Move>) -> Record {
        let parent = arrival.map_or(0, |mv| Self::HAS_PARENT | mv as u32);
        Record(g << 4 | parent)
    }
    fn g(self) -> u32 {
        self.0 >> 4
    }
    fn closed(self) -> bool {
        self.0 & Self::CLOSED != 0
    }
    fn close(&mut self) {
        self.0 |= Self::CLOSED;
    }
    fn arrival(self) -> Option<Move> {
        (self.0 & Self::HAS_PARENT != 0).then(|| Move::from_index((self.0 & 3) as usize))
    }
}

/// An open list ordered as the module documentation says.
trait OpenList<B> {
    fn new() -> Self;
    fn push(&mut self, f: u64, g: u32, board: B);
    fn pop(&mut self) -> Option<(u64, u32, B)>;
}

/// Buckets indexed by f, then by g; each bucket a stack.
struct BucketQueue<B> {
    buckets: Vec<Vec<Vec<B>>>,
    /// `top[f]` bounds the largest non-empty g bucket at `f`.
    top: Vec<usize>,
    min_f: usize,
}

impl<B> OpenList<B> for BucketQueue<B> {
    fn new() -> Self {
        BucketQueue { buckets: Vec::new(), top: Vec::new(), min_f: 0 }
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
                    return Some((f as u64, g as u32, board));
                }
                if g == 0 {
                    break;
                }
                self.top[f] = g - 1;
            }
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
}

/// A* from `start` to `goal` guided by `h`.
///
/// Goal test on removal from the open list. With a consistent heuristic (all
/// of this crate's are) each state is expanded at most once; with a merely
/// admissible one a closed state reached by a shorter path is reopened, so
/// the path is still optimal. Nodes deeper than `limits.max_depth` are not
/// generated.
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
        run::<B, H, BucketQueue<B>>(start, goal, h, limits)
    } else {
        run::<B, H, HeapQueue<B>>(start, goal, h, limits)
    }
}

fn run<B: Board, H: Heuristic<B>, Q: OpenList<B>>(start: &B, goal: &Goal, h: &H, limits: &Limits) -> Outcome {
    let mut budget = Budget::start::<B>(limits);
    let geometry = Geometry::new(goal.width());
    let target = B::from_tiles(goal.tiles().cells());
    let unit = u64::from(H::UNIT);
    let mut records: FxHashMap<B, Record> = FxHashMap::default();
    let mut open = Q::new();
    let mut stats = Stats { max_frontier: 1, ..Stats::default() };
    records.insert(*start, Record::open(0, None));
    open.push(u64::from(h.estimate(start)), 0, *start);
    let mut open_states: u64 = 1;
    let mut cut_at_depth = false;

    let status = 'search: loop {
        if let Some(limit) = budget.tick() {
            break Status::Limit(limit);
        }
        let Some((f, g, board)) = open.pop() else {
            break exhausted(cut_at_depth, &budget);
        };
        let record = records.get_mut(&board).expect("open boards have records");
        if record.closed() || record.g() != g {
            continue; // stale: a better entry for this state came out already
        }
        open_states -= 1;
        if board == target {
            break Status::Solved;
        }
        record.close();
        if g >= budget.max_depth() {
            cut_at_depth = true;
            continue;
        }
        stats.nodes_expanded += 1;
        let h_board = (f - u64::from(g) * unit) as u32;
        let blank = board.blank();
        let child_g = g + 1;
        for (mv, from) in geometry.moves(blank) {
            stats.nodes_generated += 1;
            let tile = board.tile(from);
            let child = board.slide(blank, from);
            let full = budget.full(records.len());
            match records.entry(child) {
                Entry::Vacant(slot) => {
                    if full {
                        break 'search Status::Limit(budget.nodes_limit());
                    }
                    slot.insert(Record::open(child_g, Some(mv)));
                    open_states += 1;
                }
                Entry::Occupied(mut slot) => {
                    let known = *slot.get();
                    if known.g() <= child_g {
                        continue;
                    }
                    if known.closed() {
                        open_states += 1; // reopened: only with an inconsistent heuristic
                    }
                    slot.insert(Record::open(child_g, Some(mv)));
                }
            }
            let h_child = h.update(&child, h_board, tile, from, blank);
            open.push(u64::from(child_g) * unit + u64::from(h_child), child_g, child);
            stats.max_depth = stats.max_depth.max(child_g);
        }
        stats.max_frontier = stats.max_frontier.max(open_states);
    };

    stats.stored = records.len() as u64;
    stats.runtime = budget.elapsed();
    let path = (status == Status::Solved)
        .then(|| rebuild_path(&geometry, target, |b| records.get(b).and_then(|r| r.arrival())));
    Outcome { status, path, stats }
}
