/*!
The graph search that BFS and DFS share; only the frontier discipline differs.

Textbook semantics: the goal test is made when a node is removed from the
frontier, and a successor is added only if it is neither in the frontier nor
explored. One compact set over both serves as that test and as the parent
links: it stores each board tagged with the move that reached it, never the
parent board.
*/

use super::table::TaggedSet;
use super::{Budget, Limits, Outcome, Stats, Status, exhausted, rebuild_path};
use crate::board::{Board, Geometry, Goal};
use std::collections::VecDeque;

/// A frontier discipline: which node comes out next.
pub(crate) trait Frontier<B>: Default {
    /// Whether successors are pushed in reverse order so that they come out
    /// in successor order (true for a stack).
    const REVERSED: bool;
    /// Whether nodes come out by depth, so that every board shallower than
    /// the one taken was tested first (a queue: breadth-first).
    const BY_DEPTH: bool;
    fn push(&mut self, node: (B, u32));
    fn pop(&mut self) -> Option<(B, u32)>;
    fn len(&self) -> usize;
}

/// First in, first out: breadth-first.
pub(crate) type Fifo<B> = VecDeque<(B, u32)>;

impl<B> Frontier<B> for Fifo<B> {
    const REVERSED: bool = false;
    const BY_DEPTH: bool = true;
    #[inline]
    fn push(&mut self, node: (B, u32)) {
        self.push_back(node);
    }
    #[inline]
    fn pop(&mut self) -> Option<(B, u32)> {
        self.pop_front()
    }
    #[inline]
    fn len(&self) -> usize {
        VecDeque::len(self)
    }
}

/// Last in, first out: depth-first.
pub(crate) type Lifo<B> = Vec<(B, u32)>;

impl<B> Frontier<B> for Lifo<B> {
    const REVERSED: bool = true;
    const BY_DEPTH: bool = false;
    #[inline]
    fn push(&mut self, node: (B, u32)) {
        Vec::push(self, node);
    }
    #[inline]
    fn pop(&mut self) -> Option<(B, u32)> {
        Vec::pop(self)
    }
    #[inline]
    fn len(&self) -> usize {
        Vec::len(self)
    }
}

/// Worst-case bytes per stored state: a set slot at the lowest load (0.375)
/// plus a frontier entry in a vector that just doubled.
pub(crate) fn bytes_per_state<B: Board>() -> u64 {
    std::mem::size_of::<B::Tagged>() as u64 * 8 / 3 + 2 * std::mem::size_of::<(B, u32)>() as u64
}

/// Graph search from `start` with frontier discipline `F`.
pub(crate) fn search<B: Board, F: Frontier<B>>(start: &B, goal: &Goal, limits: &Limits) -> Outcome {
    let mut budget = Budget::start(limits, Some(bytes_per_state::<B>()));
    let geometry = Geometry::plain(goal.shape());
    let target = B::from_tiles(goal.tiles().cells());
    let mut seen = TaggedSet::<B>::new();
    let mut frontier = F::default();
    let mut stats = Stats::default();
    seen.insert(start.tag(None));
    frontier.push((*start, 0));
    stats.max_frontier = 1;
    let mut cut_at_depth = false;
    // The depth of the board last taken out.
    let mut reached = 0;

    let status = 'search: loop {
        if budget.tick()
            && let Some(limit) = budget.check(stats.nodes_expanded, seen.len())
        {
            break Status::Limit(limit);
        }
        let Some((board, depth)) = frontier.pop() else {
            break exhausted(cut_at_depth, &budget);
        };
        reached = depth;
        if board == target {
            break Status::Solved;
        }
        if depth >= budget.max_depth() {
            cut_at_depth = true;
            continue;
        }
        if let Some(limit) = budget.spent(stats.nodes_expanded) {
            break Status::Limit(limit);
        }
        stats.nodes_expanded += 1;
        let blank = board.blank();
        let mut children = [*start; 4];
        let mut count = 0;
        for (mv, from) in geometry.moves(blank) {
            stats.nodes_generated += 1;
            let child = board.slide(blank, from);
            let tagged = child.tag(Some(mv));
            if seen.get(&tagged).is_some() {
                continue;
            }
            if budget.full(seen.len()) {
                break 'search Status::Limit(budget.nodes_limit());
            }
            seen.insert(tagged);
            children[count] = child;
            count += 1;
        }
        if F::REVERSED {
            children[..count].reverse();
        }
        for &child in &children[..count] {
            frontier.push((child, depth + 1));
        }
        if count > 0 {
            stats.max_depth = stats.max_depth.max(depth + 1);
            stats.max_frontier = stats.max_frontier.max(frontier.len() as u64);
        }
    };

    stats.stored = seen.len() as u64;
    // The path is part of the answer, so its rebuilding is on the clock.
    let path = (status == Status::Solved).then(|| {
        rebuild_path(geometry, target, stats.max_depth, |b| {
            seen.get(&b.tag(None)).and_then(|t| B::untag(t).1)
        })
    });
    // Putting the containers away is the search's cost too: on the clock.
    drop((seen, frontier));
    stats.runtime = budget.elapsed();
    // Breadth-first, every board shallower than the last one taken out was
    // tested: no solution is shorter than its depth.
    let lower_bound = match (status, F::BY_DEPTH) {
        (Status::Solved, true) => path.as_ref().and_then(|p| u32::try_from(p.len()).ok()),
        (Status::Limit(_), true) => Some(reached),
        _ => None,
    };
    Outcome { status, path, stats, lower_bound, improvements: Vec::new() }
}
