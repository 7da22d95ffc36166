/*!
A pass of IDA* with several nodes under way at once on one thread. With a
heuristic whose estimates are table reads that miss the caches (the
pattern databases), a depth-first search waits on memory at every node:
the reads of one node's children overlap, but the next node cannot start
before they arrive. Here each of [`WALKERS`] walkers holds a node of its
own, and the thread takes them in turn: it asks for the reads of one
walker's next node, then finishes the node another walker asked for a
round earlier, whose reads have had the others' work to arrive in. A
heuristic may take several rounds for one node (a read that names the
next, or a second read only for the children the first did not prune);
the walker then waits its turn again.

The walkers share the pass's subtrees rather than take one each: a walker
takes its next node from the first subtree, in the pass's order, that has
one waiting, and starts the next subtree only when none has. The pass
that finds the goal ends early in its order (the goal lies in the first
subtree for about a third of random 15-puzzles): walkers each on a
subtree of their own search others beside the goal's to no use, where
walkers that share the first search near the order of one depth-first
search. With several nodes of one subtree under way, no one path is the
current one: each node keeps its parent's record in a [`Trail`] of the
moves above the nodes waiting.

Each subtree is visited in [`Search::visit_bpmx`]'s order, with the same
pruning, except that what a subtree learns of its root's estimate does
not come back up to cut the root's remaining children: pathmax works
between a node and its children only. Every estimate is still a lower
bound, so the paths stay optimal.
*/

use super::frontier::Frontier;
use super::progress::Finished;
use super::{Flow, Item, Search, by_estimate};
use crate::board::{Board, Geometry, Move, Step};
use crate::heuristic::{Heuristic, Slide};
use crate::search::best_first::Rule;

/// Nodes under way at once on one thread: enough for the reads of the
/// others' nodes to cover one node's wait on memory.
pub(super) const WALKERS: usize = 4;

/// Nodes a subtree's stack has room for from the start: as deep as most
/// searches go, so that they seldom grow.
const ROOM: usize = 128;

/// A node waiting on a subtree's stack to be visited, or in a fringe
/// search's [`Frontier`].
#[derive(Clone, Copy)]
pub(super) struct Node<B, M> {
    pub(super) board: B,
    pub(super) blank: u16,
    /// The row of its moves in the move table.
    pub(super) row: u16,
    pub(super) g: u32,
    pub(super) h: u32,
    pub(super) memo: M,
    /// The record of its parent in the walkers' [`Trail`], shifted past
    /// the move that reached it (its two low bits).
    pub(super) link: u32,
}

impl<B, M: Copy> Node<B, M> {
    /// The root of the subtree of `item`.
    fn of_item(item: &Item<B, M>) -> Self
    where
        B: Copy,
    {
        Node {
            board: item.board,
            blank: item.blank as u16,
            row: item.row as u16,
            g: item.g,
            h: item.h,
            memo: item.memo,
            link: ROOT,
        }
    }
}

impl<B, M> Node<B, M> {
    fn link(parent: u32, mv: Move) -> u32 {
        parent << 2 | mv as u32
    }

    fn mv(&self) -> Move {
        Move::from_index((self.link & 3) as usize)
    }

    fn parent(&self) -> u32 {
        self.link >> 2
    }
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

/// No record: the parent of a subtree's root.
const NONE: u32 = u32::MAX >> 2;

/// The link of a subtree's root, which no move reached.
const ROOT: u32 = NONE << 2;

/// The moves that lead to the nodes waiting on the subtrees' stacks, kept
/// once for all the children of a node: a record per node expanded with
/// children still to visit, freed when the last of them is done. With
/// several nodes of one subtree under way at once, no single path is
/// the current one, as it is in a depth-first search.
#[derive(Default)]
struct Trail {
    records: Vec<Record>,
    free: Vec<u32>,
}

/// A node expanded with children still to visit.
#[derive(Clone, Copy)]
struct Record {
    /// The record of its parent ([`NONE`] for a subtree's root).
    parent: u32,
    /// The move that reached it.
    mv: Move,
    /// Its children still waiting or under way, and the records of those
    /// expanded with children of their own.
    refs: u32,
}

impl Trail {
    fn clear(&mut self) {
        self.records.clear();
        self.free.clear();
    }

    /// A record for a node reached from `parent` by `mv`, with `refs`
    /// children to visit.
    #[inline]
    fn add(&mut self, parent: u32, mv: Move, refs: u32) -> u32 {
        let record = Record { parent, mv, refs };
        if let Some(at) = self.free.pop() {
            self.records[at as usize] = record;
            at
        } else {
            // Live records are bounded by the nodes waiting, far below NONE.
            debug_assert!(self.records.len() < NONE as usize, "a record's index fits a link");
            self.records.push(record);
            (self.records.len() - 1) as u32
        }
    }

    /// One child of `record` is done: the record goes when none is left,
    /// and with it its hold on its own parent.
    #[inline]
    fn release(&mut self, mut record: u32) {
        while let Some(r) = self.records.get_mut(record as usize) {
            r.refs -= 1;
            if r.refs > 0 {
                return;
            }
            self.free.push(record);
            record = r.parent;
        }
    }

    /// Pushes onto `path` the moves above a node whose parent is `record`,
    /// `count` of them, nearest first.
    fn moves_up(&self, mut record: u32, count: usize, path: &mut Vec<Move>) {
        for _ in 0..count {
            let r = self.records[record as usize];
            path.push(r.mv);
            record = r.parent;
        }
    }
}

/// A subtree under way.
struct Subtree<B, M> {
    /// The item whose subtree this is.
    item: usize,
    /// Nodes still to visit, the next on top.
    stack: Vec<Node<B, M>>,
    /// Its nodes whose children are being estimated.
    under_way: u32,
    /// Nodes expanded and generated in it.
    expanded: u64,
    generated: u64,
}

impl<B, M> Subtree<B, M> {
    fn done(&self) -> bool {
        self.under_way == 0 && self.stack.is_empty()
    }
}

/// A node whose children's estimates are under way.
struct Expanding<B: Board, H: Heuristic<B>> {
    node: Node<B, H::Memo>,
    children: Children<B, H>,
    /// The place of its subtree in [`Walkers::subtrees`].
    subtree: usize,
}

/// The walkers' state, kept from pass to pass with the room it has grown
/// to.
pub(super) struct Walkers<B: Board, H: Heuristic<B>> {
    /// The node each walker expanded last, if `busy`: its children not yet
    /// estimated.
    expanding: Box<[Expanding<B, H>; WALKERS]>,
    busy: [bool; WALKERS],
    /// Subtrees under way, and the places of those done, which keep their
    /// stacks' room for the next.
    subtrees: Vec<Subtree<B, H::Memo>>,
    /// The places of the subtrees under way, in the order of their items.
    order: Vec<usize>,
    /// The position in `order` of the first with a node waiting (past
    /// the end when none has): kept as nodes come and go rather than
    /// looked for at every node.
    first: usize,
    /// The places free.
    free: Vec<usize>,
    trail: Trail,
    /// Whether the pass has handed out its last item.
    drained: bool,
    /// A fringe search's frontier: the roots of this pass's subtrees, and
    /// the nodes it keeps for the next. The trail then lasts from pass to
    /// pass, as the records above the nodes kept.
    frontier: Option<Frontier<B, H::Memo>>,
}

/// The item of a subtree whose root came from the frontier.
const NO_ITEM: usize = usize::MAX;

impl<B: Board, H: Heuristic<B>> Walkers<B, H> {
    fn new(board: B, step: Step) -> Self {
        let node = Node { board, blank: 0, row: 0, g: 0, h: 0, memo: H::Memo::default(), link: ROOT };
        let expanding = Box::new(std::array::from_fn(|_| Expanding {
            node,
            children: Children::new(board, step),
            subtree: 0,
        }));
        Walkers {
            expanding,
            busy: [false; WALKERS],
            subtrees: Vec::with_capacity(2 * WALKERS),
            order: Vec::with_capacity(2 * WALKERS),
            first: 0,
            free: Vec::with_capacity(2 * WALKERS),
            trail: Trail::default(),
            drained: false,
            frontier: None,
        }
    }

    /// Ready for a new pass: no subtree under way, the room kept.
    fn reset(&mut self) {
        for &at in &self.order {
            self.subtrees[at].stack.clear();
            self.free.push(at);
        }
        self.order.clear();
        self.first = 0;
        self.busy = [false; WALKERS];
        if self.frontier.is_none() {
            self.trail.clear();
        }
        self.drained = false;
    }

    /// Starts the subtree of the next item `next` hands out, last in the
    /// order; false when none is left.
    fn start(&mut self, items: &[Item<B, H::Memo>], next: &mut dyn FnMut() -> Option<usize>) -> bool {
        if self.drained {
            return false;
        }
        let Some(index) = next() else {
            self.drained = true;
            return false;
        };
        self.start_at(Node::of_item(&items[index]), index);
        true
    }

    /// Starts the subtree of `root`, that of item `index`, last in the
    /// order; its place.
    fn start_at(&mut self, root: Node<B, H::Memo>, index: usize) -> usize {
        let at = self.free.pop().unwrap_or_else(|| {
            self.subtrees.push(Subtree {
                item: 0,
                stack: Vec::with_capacity(ROOM),
                under_way: 0,
                expanded: 0,
                generated: 0,
            });
            self.subtrees.len() - 1
        });
        let subtree = &mut self.subtrees[at];
        (subtree.item, subtree.under_way, subtree.expanded, subtree.generated) = (index, 0, 0, 0);
        subtree.stack.push(root);
        self.order.push(at);
        self.first = self.first.min(self.order.len() - 1);
        at
    }

    /// The place of the first subtree in the order with a node waiting.
    #[inline]
    fn first_waiting(&self) -> Option<usize> {
        self.order.get(self.first).copied()
    }

    /// Takes the next node of the first subtree with one waiting, at `at`.
    #[inline]
    fn pop_first(&mut self, at: usize) -> Node<B, H::Memo> {
        let stack = &mut self.subtrees[at].stack;
        let node = stack.pop().expect("the subtree has a node waiting");
        if stack.is_empty() {
            self.first += 1;
            while self.order.get(self.first).is_some_and(|&other| self.subtrees[other].stack.is_empty()) {
                self.first += 1;
            }
        }
        node
    }

    /// The subtree at `at`, whose stack was empty, has nodes again.
    #[cold]
    fn waiting_again(&mut self, at: usize) {
        self.first = self.first.min(self.position(at));
    }

    /// The subtree at `at` is done: out of the order, its place free.
    fn remove(&mut self, at: usize) {
        let position = self.position(at);
        self.order.remove(position);
        if self.first > position {
            self.first -= 1;
        }
        self.free.push(at);
    }

    /// Where the subtree at `at`, which is under way, stands in the order.
    fn position(&self, at: usize) -> usize {
        self.order.iter().position(|&other| other == at).expect("the subtree is under way")
    }
}

impl<B: Board, H: Heuristic<B>, R: Rule> Search<'_, B, H, R> {
    /// Searches the subtrees of the items that `next` hands out (`None`
    /// when there are no more), [`WALKERS`] nodes at a time, handing
    /// `finished` each subtree searched to the end. On `Found` the path
    /// holds the moves from the start, reversed, as [`Search::descend`]
    /// leaves it.
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
        let mut walkers = self.walkers.take().unwrap_or_else(|| Box::new(Walkers::new(first.board, step)));
        walkers.reset();
        let flow = self.walk_with(&mut walkers, items, next, finished);
        self.walkers = Some(walkers);
        flow
    }

    /// Makes the passes to come a fringe search's, the first from `root`,
    /// with room for `room` nodes.
    pub(super) fn keep_frontier(&mut self, root: &Item<B, H::Memo>, room: usize) {
        let geometry = self.geometry;
        let walkers = self
            .walkers
            .get_or_insert_with(|| Box::new(Walkers::new(root.board, geometry.steps(root.row)[0])));
        walkers.trail.clear();
        walkers.frontier = Some(Frontier::new(Node::of_item(root), room));
    }

    /// A pass of a fringe search, from the nodes the pass before kept,
    /// keeping for the next the nodes it prunes while there is room for
    /// them. On `Found` the path holds the moves from the start, reversed.
    pub(super) fn walk_frontier(&mut self) -> Flow {
        let mut walkers = self.walkers.take().expect("a frontier is kept");
        walkers.reset();
        walkers.frontier.as_mut().expect("a frontier is kept").begin_pass();
        let flow = self.walk_with(&mut walkers, &[], &mut || None, &|_, _| {});
        let frontier = walkers.frontier.as_mut().expect("a frontier is kept");
        let (most, full) = frontier.end_pass();
        self.frontier_most = self.frontier_most.max(most as u64);
        // The records above the nodes kept are smaller than the nodes, and
        // in a tree that branches as this one does, fewer.
        if full || walkers.trail.records.len() > frontier.room() {
            walkers.frontier = None;
        }
        self.walkers = Some(walkers);
        flow
    }

    /// Whether a fringe search's frontier is kept for the next pass.
    pub(super) fn keeps_frontier(&self) -> bool {
        self.walkers.as_ref().is_some_and(|walkers| walkers.frontier.is_some())
    }

    /// Drops a fringe search's frontier: the passes to come start from the
    /// start.
    pub(super) fn drop_frontier(&mut self) {
        if let Some(walkers) = &mut self.walkers {
            walkers.frontier = None;
        }
    }

    /// Starts the subtree of the frontier's next root within the bound,
    /// keeping those above it for the next pass; its place, or `None` when
    /// no root is left.
    fn start_root(&mut self, walkers: &mut Walkers<B, H>) -> Option<usize> {
        let frontier = walkers.frontier.as_mut()?;
        while let Some(root) = frontier.take() {
            let f = self.rule.key(root.g, root.h, H::UNIT);
            if f <= self.bound {
                return Some(walkers.start_at(root, NO_ITEM));
            }
            self.prune(f);
            frontier.keep(root);
        }
        None
    }

    /// [`Search::walk`] with these walkers, reset.
    fn walk_with(
        &mut self,
        walkers: &mut Walkers<B, H>,
        items: &[Item<B, H::Memo>],
        next: &mut dyn FnMut() -> Option<usize>,
        finished: &dyn Fn(usize, Finished),
    ) -> Flow {
        loop {
            let mut working = false;
            for w in 0..WALKERS {
                if walkers.busy[w] && !self.finish(walkers, w, finished) {
                    working = true;
                    continue;
                }
                match self.advance(walkers, w, items, next, finished) {
                    Some(Flow::Found) => return Flow::Found,
                    Some(Flow::Stop) => return Flow::Stop,
                    Some(Flow::Next | Flow::Deep) => working = true,
                    None => {}
                }
            }
            if !working {
                return Flow::Next;
            }
        }
    }

    /// Pushes the children of the node walker `w` expanded last, now that
    /// their estimates can be read, as [`Search::visit_bpmx`] orders and
    /// prunes them: the best child, less a move, may raise the node's
    /// estimate and cut it; the node's, less a move, raises its children's.
    /// False, and the walker still busy, when the heuristic asked for more
    /// reads first.
    fn finish(&mut self, walkers: &mut Walkers<B, H>, w: usize, finished: &dyn Fn(usize, Finished)) -> bool {
        let Expanding { node, children, subtree: at } = &mut walkers.expanding[w];
        if !children.end(self.h, node.h, &node.memo, usize::from(node.blank)) {
            return false;
        }
        walkers.busy[w] = false;
        let Children { slides, steps, count, memos, estimates, .. } = children;
        let (count, unit, at) = (*count, H::UNIT, *at);
        let subtree = &mut walkers.subtrees[at];
        if let Some(nearest) = self.nearest.get_mut(subtree.item) {
            *nearest = estimates[..count].iter().fold(*nearest, |near, &e| near.min(e));
        }
        subtree.under_way -= 1;
        let mut h = node.h;
        let cut = !H::CONSISTENT && {
            for &h_child in &estimates[..count] {
                h = h.max(h_child.saturating_sub(unit));
            }
            let f_node = self.rule.key(node.g, h, unit);
            f_node > self.bound && {
                self.prune(f_node);
                true
            }
        };
        let keeping = walkers.frontier.as_ref().is_some_and(Frontier::keeping);
        if cut && keeping {
            // Kept whole, with its parent's record: the next pass expands
            // it again.
            let node = Node { h, ..*node };
            walkers.frontier.as_mut().expect("a frontier is kept").keep(node);
            self.settle_if_done(walkers, at, finished);
            return true;
        }
        // The children within the bound, most promising first, equals in
        // successor order (a stable sort), with their estimates; and those
        // pruned, when the frontier keeps them.
        let (mut kept, mut estimated, mut within) = ([0; 4], [0; 4], 0);
        let (mut pruned, mut pruned_h, mut beyond) = ([0; 4], [0; 4], 0);
        if !cut {
            let depth = node.g + 1;
            for &i in &by_estimate(estimates, count)[..count] {
                let h_child = estimates[i].max(h.saturating_sub(unit));
                let f = self.rule.key(depth, h_child, unit);
                if f > self.bound {
                    self.prune(f);
                    if keeping {
                        (pruned[beyond], pruned_h[beyond]) = (i, h_child);
                        beyond += 1;
                    }
                    continue;
                }
                (kept[within], estimated[within]) = (i, h_child);
                within += 1;
            }
        }
        if within + beyond == 0 {
            walkers.trail.release(node.parent());
        } else {
            let record = walkers.trail.add(node.parent(), node.mv(), (within + beyond) as u32);
            let child = |i: usize, h_child: u32| {
                let step = steps[i];
                Node {
                    board: slides[i].board,
                    blank: step.from,
                    row: step.row,
                    g: node.g + 1,
                    h: h_child,
                    memo: memos[i],
                    link: Node::<B, H::Memo>::link(record, step.mv),
                }
            };
            if let Some(frontier) = &mut walkers.frontier {
                for (&i, &h_child) in pruned[..beyond].iter().zip(&pruned_h[..beyond]) {
                    frontier.keep(child(i, h_child));
                }
            }
            // Pushed in the reverse of the order they are visited in.
            let subtree = &mut walkers.subtrees[at];
            for (&i, &h_child) in kept[..within].iter().zip(&estimated[..within]).rev() {
                subtree.stack.push(child(i, h_child));
            }
            if within > 0 && subtree.stack.len() == within {
                walkers.waiting_again(at);
            }
        }
        self.settle_if_done(walkers, at, finished);
        true
    }

    /// Hands the subtree at `at` to `finished` if it is done.
    #[inline]
    fn settle_if_done(&self, walkers: &mut Walkers<B, H>, at: usize, finished: &dyn Fn(usize, Finished)) {
        if walkers.subtrees[at].done() {
            self.settle(walkers, at, finished);
        }
    }

    /// [`Search::settle_if_done`] for a subtree done.
    #[cold]
    fn settle(&self, walkers: &mut Walkers<B, H>, at: usize, finished: &dyn Fn(usize, Finished)) {
        let subtree = &walkers.subtrees[at];
        finished(subtree.item, self.finished(subtree.item, subtree.expanded, subtree.generated));
        walkers.remove(at);
    }

    /// Visits walker `w`'s next node, from the first subtree in the items'
    /// order that has one waiting (a new one when none has): the goal, a
    /// limit, or its children's estimates begun (`Next`); `None` when no
    /// node is left for it.
    fn advance(
        &mut self,
        walkers: &mut Walkers<B, H>,
        w: usize,
        items: &[Item<B, H::Memo>],
        next: &mut dyn FnMut() -> Option<usize>,
        finished: &dyn Fn(usize, Finished),
    ) -> Option<Flow> {
        loop {
            let at = match walkers.first_waiting() {
                Some(at) => at,
                None if walkers.frontier.is_some() => self.start_root(walkers)?,
                None if walkers.start(items, next) => walkers.order[walkers.order.len() - 1],
                None => return None,
            };
            let node = walkers.pop_first(at);
            let subtree = &mut walkers.subtrees[at];
            let item = subtree.item;
            match self.enter::<true>(node.board, node.g, node.h) {
                None => {}
                Some(Flow::Found) => {
                    // The frontier's nodes hold their moves from the start.
                    let (top, above) = match items.get(item) {
                        Some(item) => (item.g, item.moves.as_slice()),
                        None => (0, &[][..]),
                    };
                    let below = (node.g - top) as usize;
                    if below > 0 {
                        self.path.push(node.mv());
                        walkers.trail.moves_up(node.parent(), below - 1, &mut self.path);
                    }
                    self.path.extend(above.iter().rev());
                    return Some(Flow::Found);
                }
                Some(Flow::Stop) => return Some(Flow::Stop),
                Some(Flow::Next | Flow::Deep) => {
                    walkers.trail.release(node.parent());
                    self.settle_if_done(walkers, at, finished);
                    continue;
                }
            }
            // Children the frontier keeps need their estimates whole: the
            // next pass expands them from their memos.
            let cut = if walkers.frontier.as_ref().is_some_and(Frontier::keeping) {
                u32::MAX
            } else {
                self.rule.cut(node.g + 1, self.bound, H::UNIT)
            };
            let expanding = &mut walkers.expanding[w];
            expanding.children.begin(
                self.geometry,
                self.h,
                node.board,
                usize::from(node.blank),
                usize::from(node.row),
                node.h,
                &node.memo,
                cut,
            );
            let count = expanding.children.count as u64;
            self.stats.nodes_generated += count;
            subtree.expanded += 1;
            subtree.generated += count;
            subtree.under_way += 1;
            expanding.node = node;
            expanding.subtree = at;
            walkers.busy[w] = true;
            return Some(Flow::Next);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trail_keeps_the_moves_above_waiting_nodes_and_frees_each_record_after_its_last_child() {
        let mut trail = Trail::default();
        // A subtree's root expanded with two children, and one of them,
        // reached by Left, with one child of its own.
        let root = trail.add(NONE, Move::Up, 2);
        let left = trail.add(root, Move::Left, 1);
        // Above a node whose parent is `left`, one move below the root.
        let mut path = Vec::new();
        trail.moves_up(left, 1, &mut path);
        assert_eq!(path, [Move::Left]);
        // Its only child done, `left` goes, and the root keeps one child.
        trail.release(left);
        assert_eq!(trail.free, [left]);
        assert_eq!(trail.records[root as usize].refs, 1);
        trail.release(root);
        assert_eq!(trail.free, [left, root]);
        // Records freed are taken again before the trail grows.
        let again = trail.add(NONE, Move::Down, 1);
        assert_eq!((again, trail.records.len()), (root, 2));
    }

    #[test]
    fn a_node_keeps_its_parent_record_and_move_in_one_word() {
        for mv in [Move::Up, Move::Down, Move::Left, Move::Right] {
            for parent in [0, 1, 12_345, NONE] {
                let node: Node<u64, ()> = Node {
                    board: 0,
                    blank: 0,
                    row: 0,
                    g: 0,
                    h: 0,
                    memo: (),
                    link: Node::<u64, ()>::link(parent, mv),
                };
                assert_eq!((node.parent(), node.mv()), (parent, mv));
            }
        }
    }
}
