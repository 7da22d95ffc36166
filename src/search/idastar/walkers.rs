/*!
A pass of IDA* over several subtrees at once on one thread. With a
heuristic whose estimates are table reads that miss the caches (the
pattern databases), a depth-first search waits on memory at every node:
the reads of one node's children overlap, but the next node cannot start
before they arrive. Here each of [`WALKERS`] walkers searches a subtree of
its own with a stack on the heap, and the thread takes one node of each in
turn: it asks for the reads of one walker's next node, then finishes the
node another walker asked for a round earlier, whose reads have had the
others' work to arrive in. A heuristic may take several rounds for one
node (a read that names the next, or a second read only for the children
the first did not prune); the walker then waits its turn again.

Each walker visits its subtree in [`Search::visit_bpmx`]'s order, with the
same pruning, except that what a subtree learns of its root's estimate
does not come back up to cut the root's remaining children: pathmax works
between a node and its children only. Every estimate is still a lower
bound, so the paths stay optimal.
*/

use super::progress::Finished;
use super::{Flow, Item, Search, by_estimate};
use crate::board::{Board, Geometry, Move, Step};
use crate::heuristic::{Heuristic, Slide};
use crate::search::best_first::Rule;

/// Subtrees searched at once on one thread: enough for the reads of the
/// others' nodes to cover one node's wait on memory.
pub(super) const WALKERS: usize = 4;

/// Nodes a walker's stack, and moves its path, have room for from the
/// start: as deep as most searches go, so that they seldom grow.
const ROOM: usize = 128;

/// A node waiting on a walker's stack to be visited.
#[derive(Clone, Copy)]
struct Node<B, M> {
    board: B,
    blank: u16,
    /// The row of its moves in the move table.
    row: u16,
    g: u32,
    h: u32,
    memo: M,
    /// The move that reached it.
    mv: Move,
}

/// A node's children whose estimates are under way: each one's board and
/// move, and what the heuristic keeps between asking for their estimates
/// ([`Heuristic::begin_children`]) and reading them.
pub(super) struct Children<B: Board, H: Heuristic<B>> {
    pub(super) slides: [Slide<B>; 4],
    pub(super) steps: [Step; 4],
    pub(super) count: usize,
    pub(super) memos: [H::Memo; 4],
    pub(super) estimates: [u32; 4],
    pending: H::Pending,
}

impl<B: Board, H: Heuristic<B>> Children<B, H> {
    /// Room for the children of a node; `board` and `step` fill it.
    pub(super) fn new(board: B, step: Step) -> Self {
        Children {
            slides: [Slide { board, tile: 0, from: 0 }; 4],
            steps: [step; 4],
            count: 0,
            memos: [H::Memo::default(); 4],
            estimates: [0; 4],
            pending: H::Pending::default(),
        }
    }

    /// The children of `board` (its blank on `blank`, its moves at `row` of
    /// [`Geometry::steps`]), their estimates asked of `heuristic` from the
    /// node's estimate `h` and `memo`; a child estimated above `cut` may be
    /// settled on any estimate above it.
    #[expect(clippy::too_many_arguments, reason = "the node's fields, and the cut")]
    pub(super) fn begin(
        &mut self,
        geometry: &Geometry,
        heuristic: &H,
        board: B,
        blank: usize,
        row: usize,
        h: u32,
        memo: &H::Memo,
        cut: u32,
    ) {
        let mut count = 0;
        for &step in geometry.steps(row) {
            if step.is_end() {
                break;
            }
            let from = usize::from(step.from);
            self.slides[count] = Slide { board: board.slide(blank, from), tile: board.tile(from), from };
            self.steps[count] = step;
            count += 1;
        }
        self.count = count;
        // A child's moves are read when it is expanded, a round of the
        // walkers later at the soonest.
        for step in &self.steps[..count] {
            geometry.prefetch_steps(usize::from(step.row));
        }
        heuristic.begin_children(
            h,
            memo,
            blank,
            &self.slides[..count],
            &mut self.memos[..count],
            &mut self.pending,
            cut,
        );
    }

    /// Reads the estimates [`Children::begin`] asked for (the same node's
    /// `h`, `memo` and `blank`) into `estimates` and `memos`; false when the
    /// heuristic asked for more reads first.
    pub(super) fn end(&mut self, heuristic: &H, h: u32, memo: &H::Memo, blank: usize) -> bool {
        let n = self.count;
        heuristic.end_children(
            h,
            memo,
            blank,
            &self.slides[..n],
            &mut self.pending,
            &mut self.estimates[..n],
            &mut self.memos[..n],
        )
    }
}

/// A node whose children's estimates are under way.
struct Expanding<B: Board, H: Heuristic<B>> {
    node: Node<B, H::Memo>,
    children: Children<B, H>,
}

/// One subtree's search.
pub(super) struct Walker<B: Board, H: Heuristic<B>> {
    /// The item whose subtree this is.
    item: usize,
    /// Nodes still to visit, the next on top.
    stack: Vec<Node<B, H::Memo>>,
    /// The moves from the item's node to the node last visited.
    path: Vec<Move>,
    /// The node expanded last, if `busy`: its children not yet estimated.
    expanding: Box<Expanding<B, H>>,
    busy: bool,
    /// Nodes expanded and generated in this subtree.
    expanded: u64,
    generated: u64,
}

impl<B: Board, H: Heuristic<B>> Walker<B, H> {
    fn new(board: B, step: Step) -> Self {
        let node = Node { board, blank: 0, row: 0, g: 0, h: 0, memo: H::Memo::default(), mv: Move::Up };
        let expanding = Box::new(Expanding { node, children: Children::new(board, step) });
        Walker {
            item: 0,
            stack: Vec::with_capacity(ROOM),
            path: Vec::with_capacity(ROOM),
            expanding,
            busy: false,
            expanded: 0,
            generated: 0,
        }
    }

    /// Ready for a new pass: nothing on the stack, the room kept.
    fn reset(&mut self) {
        self.stack.clear();
        self.path.clear();
        self.busy = false;
    }

    fn done(&self) -> bool {
        !self.busy && self.stack.is_empty()
    }

    /// Takes the next item's subtree; false when none is left.
    fn start(&mut self, items: &[Item<B, H::Memo>], next: &mut dyn FnMut() -> Option<usize>) -> bool {
        let Some(index) = next() else {
            return false;
        };
        let item = &items[index];
        self.item = index;
        self.path.clear();
        (self.expanded, self.generated) = (0, 0);
        self.stack.push(Node {
            board: item.board,
            blank: item.blank as u16,
            row: item.row as u16,
            g: item.g,
            h: item.h,
            memo: item.memo,
            mv: Move::Up,
        });
        true
    }
}

impl<B: Board, H: Heuristic<B>, R: Rule> Search<'_, B, H, R> {
    /// Searches the subtrees of the items that `next` hands out (`None`
    /// when there are no more), [`WALKERS`] at a time, handing `finished`
    /// each subtree searched to the end. On `Found` the path holds the
    /// moves from the start, reversed, as [`Search::descend`] leaves it.
    pub(super) fn walk(
        &mut self,
        items: &[Item<B, H::Memo>],
        next: &mut dyn FnMut() -> Option<usize>,
        finished: &dyn Fn(usize, Finished),
    ) -> Flow {
        let Some(first) = items.first() else {
            return Flow::Next;
        };
        let step = self.geometry.steps(first.row)[0];
        let mut walkers = std::mem::take(&mut self.walkers);
        walkers.resize_with(WALKERS, || Walker::new(first.board, step));
        for walker in &mut walkers {
            walker.reset();
        }
        let flow = self.walk_with(&mut walkers, items, next, finished);
        self.walkers = walkers;
        flow
    }

    /// [`Search::walk`] with these walkers, reset.
    fn walk_with(
        &mut self,
        walkers: &mut [Walker<B, H>],
        items: &[Item<B, H::Memo>],
        next: &mut dyn FnMut() -> Option<usize>,
        finished: &dyn Fn(usize, Finished),
    ) -> Flow {
        let mut idle = 0;
        for walker in walkers.iter_mut() {
            if !walker.start(items, next) {
                idle += 1;
            }
        }
        while idle < WALKERS {
            for walker in walkers.iter_mut() {
                if walker.done() {
                    continue;
                }
                if walker.busy && !self.finish(walker) {
                    continue;
                }
                match self.advance(walker, items) {
                    Some(Flow::Found) => return Flow::Found,
                    Some(Flow::Stop) => return Flow::Stop,
                    Some(Flow::Next | Flow::Deep) => {}
                    None => {
                        finished(walker.item, self.finished(walker.item, walker.expanded, walker.generated));
                        if !walker.start(items, next) {
                            idle += 1;
                        }
                    }
                }
            }
        }
        Flow::Next
    }

    /// Pushes the children of the node `walker` expanded last, now that
    /// their estimates can be read, as [`Search::visit_bpmx`] orders and
    /// prunes them: the best child, less a move, may raise the node's
    /// estimate and cut it; the node's, less a move, raises its children's.
    /// False, and the walker still busy, when the heuristic asked for more
    /// reads first.
    fn finish(&mut self, walker: &mut Walker<B, H>) -> bool {
        let Walker { stack, expanding, .. } = walker;
        let Expanding { node, children } = &mut **expanding;
        if !children.end(self.h, node.h, &node.memo, usize::from(node.blank)) {
            return false;
        }
        let Children { slides, steps, count, memos, estimates, .. } = children;
        let (count, unit) = (*count, H::UNIT);
        walker.busy = false;
        if let Some(nearest) = self.nearest.get_mut(walker.item) {
            *nearest = estimates[..count].iter().fold(*nearest, |near, &e| near.min(e));
        }
        let mut h = node.h;
        if !H::CONSISTENT {
            for &h_child in &estimates[..count] {
                h = h.max(h_child.saturating_sub(unit));
            }
            let f_node = self.rule.key(node.g, h, unit);
            if f_node > self.bound {
                self.prune(f_node);
                return true;
            }
        }
        // Visited most promising first, equals in successor order (a
        // stable sort), so pushed in the reverse of that order.
        let order = by_estimate(estimates, count);
        let depth = node.g + 1;
        for &i in order[..count].iter().rev() {
            let h_child = estimates[i].max(h.saturating_sub(unit));
            let f = self.rule.key(depth, h_child, unit);
            if f > self.bound {
                self.prune(f);
                continue;
            }
            let step = steps[i];
            stack.push(Node {
                board: slides[i].board,
                blank: step.from,
                row: step.row,
                g: depth,
                h: h_child,
                memo: memos[i],
                mv: step.mv,
            });
        }
        true
    }

    /// Visits the walker's next node: the goal, a limit, or its children's
    /// estimates begun (`Next`); `None` when the walker's subtree is done.
    fn advance(&mut self, walker: &mut Walker<B, H>, items: &[Item<B, H::Memo>]) -> Option<Flow> {
        let base = items[walker.item].g;
        while let Some(node) = walker.stack.pop() {
            let below = (node.g - base) as usize;
            if below > 0 {
                walker.path.truncate(below - 1);
                walker.path.push(node.mv);
            }
            match self.enter::<true>(node.board, node.g, node.h) {
                None => {}
                Some(Flow::Found) => {
                    self.path.extend(walker.path.iter().rev());
                    self.path.extend(items[walker.item].moves.as_slice().iter().rev());
                    return Some(Flow::Found);
                }
                Some(Flow::Stop) => return Some(Flow::Stop),
                Some(Flow::Next | Flow::Deep) => continue,
            }
            let expanding = &mut *walker.expanding;
            expanding.children.begin(
                self.geometry,
                self.h,
                node.board,
                usize::from(node.blank),
                usize::from(node.row),
                node.h,
                &node.memo,
                self.rule.cut(node.g + 1, self.bound, H::UNIT),
            );
            let count = expanding.children.count as u64;
            self.stats.nodes_generated += count;
            walker.expanded += 1;
            walker.generated += count;
            expanding.node = node;
            walker.busy = true;
            return Some(Flow::Next);
        }
        None
    }
}
