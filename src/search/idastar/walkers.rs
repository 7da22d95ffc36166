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
use super::{Flow, Item, Search};
use crate::board::{Board, Move, Step};
use crate::heuristic::{Heuristic, Slide};
use crate::search::best_first::Rule;

/// Subtrees searched at once on one thread: enough for the reads of the
/// others' nodes to cover one node's wait on memory.
pub(super) const WALKERS: usize = 4;

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

/// A node whose children's estimates are under way.
struct Expanding<B: Board, H: Heuristic<B>> {
    node: Node<B, H::Memo>,
    slides: [Slide<B>; 4],
    steps: [Step; 4],
    count: usize,
    memos: [H::Memo; 4],
    pending: H::Pending,
}

/// One subtree's search.
struct Walker<B: Board, H: Heuristic<B>> {
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
        let expanding = Box::new(Expanding {
            node,
            slides: [Slide { board, tile: 0, from: 0 }; 4],
            steps: [step; 4],
            count: 0,
            memos: [H::Memo::default(); 4],
            pending: H::Pending::default(),
        });
        Walker {
            item: 0,
            stack: Vec::new(),
            path: Vec::new(),
            expanding,
            busy: false,
            expanded: 0,
            generated: 0,
        }
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
        let mut walkers: Vec<Walker<B, H>> = (0..WALKERS).map(|_| Walker::new(first.board, step)).collect();
        let mut idle = 0;
        for walker in &mut walkers {
            if !walker.start(items, next) {
                idle += 1;
            }
        }
        while idle < WALKERS {
            for walker in &mut walkers {
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
        let Expanding { node, slides, steps, count, memos, pending } = &mut **expanding;
        let (count, unit) = (*count, H::UNIT);
        let mut estimates = [0u32; 4];
        if !self.h.end_children(
            node.h,
            &node.memo,
            usize::from(node.blank),
            &slides[..count],
            pending,
            &mut estimates[..count],
            &mut memos[..count],
        ) {
            return false;
        }
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
        let mut order = [0, 1, 2, 3];
        // An insertion sort inline: the library's stable sort is a call
        // that cost about 1 % of a 15-puzzle batch.
        for sorted in 1..count.min(4) {
            let mut at = sorted;
            while at > 0 && estimates[order[at - 1]] > estimates[order[at]] {
                order.swap(at - 1, at);
                at -= 1;
            }
        }
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
                    self.path.extend(items[walker.item].moves.iter().rev());
                    return Some(Flow::Found);
                }
                Some(Flow::Stop) => return Some(Flow::Stop),
                Some(Flow::Next | Flow::Deep) => continue,
            }
            let expanding = &mut *walker.expanding;
            let blank = usize::from(node.blank);
            let mut count = 0;
            for &step in self.geometry.steps(usize::from(node.row)) {
                if step.is_end() {
                    break;
                }
                let from = usize::from(step.from);
                expanding.slides[count] =
                    Slide { board: node.board.slide(blank, from), tile: node.board.tile(from), from };
                expanding.steps[count] = step;
                count += 1;
            }
            self.stats.nodes_generated += count as u64;
            walker.expanded += 1;
            walker.generated += count as u64;
            expanding.node = node;
            expanding.count = count;
            self.h.begin_children(
                node.h,
                &node.memo,
                blank,
                &expanding.slides[..count],
                &mut expanding.memos[..count],
                &mut expanding.pending,
                self.rule.cut(node.g + 1, self.bound, H::UNIT),
            );
            walker.busy = true;
            return Some(Flow::Next);
        }
        None
    }
}
