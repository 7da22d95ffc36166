/*!
IDA*: iterative-deepening A*. Depth-first passes bounded by f = g + h, each
bound the smallest f that exceeded the previous one. Memory is the current
path only, so it solves what A* cannot store; the price is re-expanding the
shallow levels each pass.

The inner loop is allocation-free: boards are `Copy` values (a child is one
slide of its parent, nothing is undone), the heuristic is updated from the
moved tile, and the move that would undo the previous one is never generated.
*/

use super::{Budget, LimitKind, Limits, Outcome, Stats, Status};
use crate::board::{Board, Geometry, Goal, Move};
use crate::heuristic::Heuristic;

/// IDA* from `start` to `goal` guided by `h`.
///
/// With an admissible heuristic the path is optimal. Bounds advance to the
/// next whole move (costs are integers), so fixed-point heuristics do not
/// cause a pass per fraction. Figures are totals over all passes:
/// `max_frontier` and `stored` are the most nodes on the path at once.
///
/// # Examples
/// ```
/// use npuzzle::{idastar, Board, Goal, GoalSpec, Limits, Manhattan, Packed};
/// let goal = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
/// let start = Packed::from_tiles(&[8, 0, 6, 5, 4, 7, 2, 3, 1]);
/// let outcome = idastar(&start, &goal, &Manhattan::new(&goal), &Limits::default());
/// assert_eq!(outcome.cost(), Some(31));
/// ```
pub fn idastar<B: Board, H: Heuristic<B>>(start: &B, goal: &Goal, h: &H, limits: &Limits) -> Outcome {
    let geometry = Geometry::new(goal.width());
    let mut pass = Pass {
        geometry: &geometry,
        h,
        target: B::from_tiles(goal.tiles().cells()),
        unit: u64::from(H::UNIT),
        bound: 0,
        next_bound: u64::MAX,
        path: Vec::new(),
        stats: Stats::default(),
        budget: Budget::start(limits, 1),
        stop: None,
        cut_at_depth: false,
    };
    let h_start = h.estimate(start);
    pass.bound = pass.round_up(u64::from(h_start));
    let status = loop {
        pass.next_bound = u64::MAX;
        pass.cut_at_depth = false;
        match pass.visit(*start, start.blank(), 0, h_start, None) {
            Flow::Found => break Status::Solved,
            Flow::Stop => break Status::Limit(pass.stop.expect("a stop records its limit")),
            Flow::Next => {}
        }
        if pass.next_bound == u64::MAX {
            // Nothing was pruned by f: only the depth limit held the search back.
            break if pass.cut_at_depth {
                Status::Limit(LimitKind::Depth(pass.budget.max_depth()))
            } else {
                Status::Unsolvable
            };
        }
        pass.bound = pass.round_up(pass.next_bound);
    };
    // The path is all IDA* stores: at most one node per depth, plus the start.
    pass.stats.max_frontier = u64::from(pass.stats.max_depth) + 1;
    pass.stats.stored = pass.stats.max_frontier;
    pass.stats.runtime = pass.budget.elapsed();
    pass.path.reverse();
    let path = (status == Status::Solved).then_some(pass.path);
    Outcome { status, path, stats: pass.stats }
}

/// What a subtree search reports to its parent.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Flow {
    /// Nothing found below; carry on with the siblings.
    Next,
    /// The goal: `path` is being filled in as the recursion unwinds.
    Found,
    /// A limit was hit; unwind without searching further.
    Stop,
}

/// The state of one bounded depth-first pass (and what carries over).
struct Pass<'a, B: Board, H> {
    geometry: &'a Geometry,
    h: &'a H,
    target: B,
    unit: u64,
    bound: u64,
    /// Smallest f seen above the bound this pass.
    next_bound: u64,
    path: Vec<Move>,
    stats: Stats,
    budget: Budget,
    stop: Option<LimitKind>,
    cut_at_depth: bool,
}

impl<B: Board, H: Heuristic<B>> Pass<'_, B, H> {
    /// `f` rounded up to a whole number of moves, in heuristic units.
    fn round_up(&self, f: u64) -> u64 {
        f.div_ceil(self.unit) * self.unit
    }

    /// Searches below `board` (reached by `arrival`, at depth `g` with
    /// estimate `h`, already within the bound).
    /// On success the path is pushed in reverse while the recursion unwinds,
    /// so the search itself never touches the path vector.
    fn visit(&mut self, board: B, blank: usize, g: u32, h: u32, arrival: Option<Move>) -> Flow {
        if board == self.target {
            return Flow::Found;
        }
        if g >= self.budget.max_depth() {
            self.cut_at_depth = true;
            return Flow::Next;
        }
        if let Some(limit) = self.budget.tick() {
            self.stop = Some(limit);
            return Flow::Stop;
        }
        self.stats.nodes_expanded += 1;
        let depth = g + 1;
        self.stats.max_depth = self.stats.max_depth.max(depth);
        let child_g = u64::from(depth) * self.unit;
        let geometry = self.geometry;
        for &(mv, from) in geometry.onward(blank, arrival) {
            let from = from as usize;
            self.stats.nodes_generated += 1;
            let tile = board.tile(from);
            let child = board.slide(blank, from);
            let h_child = self.h.update(&child, h, tile, from, blank);
            let f = child_g + u64::from(h_child);
            if f > self.bound {
                self.next_bound = self.next_bound.min(f);
                continue;
            }
            match self.visit(child, from, depth, h_child, Some(mv)) {
                Flow::Next => {}
                Flow::Found => {
                    self.path.push(mv);
                    return Flow::Found;
                }
                Flow::Stop => return Flow::Stop,
            }
        }
        Flow::Next
    }
}
