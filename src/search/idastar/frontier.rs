/*!
The frontier a fringe search keeps from one pass to the next (see
[`fringe`](crate::search::fringe)): the nodes a pass pruned, each with
what the walkers need to go on from it (its estimate, the heuristic's memo,
its row of moves) and the record of its parent in the walkers' trail,
which holds the moves above it. The next pass starts from them instead of
from the start, so no node is expanded in two passes, and takes them
smallest estimate first, so the pass that meets the goal meets it early.
*/

use super::walkers::Node;

/// Bytes of nodes a fringe search's frontier may hold, this pass's and the
/// next's together. Random 15-puzzles keep a few thousand; a search whose
/// frontier outgrows this goes on as IDA*, from the start, as the passes
/// that outgrow it are the ones worth splitting between threads.
pub const FRONTIER_BYTES: usize = 64 << 20;

/// The nodes one pass starts from and those it keeps for the next.
pub(super) struct Frontier<B, M> {
    /// This pass's roots, smallest estimate first.
    roots: Vec<Node<B, M>>,
    /// The next root to take.
    next: usize,
    /// The nodes this pass pruned or passed over: the next pass's roots,
    /// in the order it met them.
    kept: Vec<Node<B, M>>,
    /// Room for each estimate's first place in the next pass's order.
    places: Vec<u32>,
    /// Most nodes held, this pass's and the next's together.
    room: usize,
    /// Whether this pass met more nodes than there is room for: it keeps
    /// none from then on, and the search goes on without a frontier.
    full: bool,
    /// The most nodes held at once.
    most: usize,
}

impl<B: Copy, M: Copy> Frontier<B, M> {
    /// A frontier whose first pass starts from `root`, with room for
    /// `room` nodes.
    pub(super) fn new(root: Node<B, M>, room: usize) -> Self {
        Frontier {
            roots: Vec::new(),
            next: 0,
            kept: vec![root],
            places: Vec::new(),
            room: room.max(1),
            full: false,
            most: 1,
        }
    }

    /// The nodes the pass before kept become this pass's roots, smallest
    /// estimate first.
    pub(super) fn begin_pass(&mut self) {
        nearest_first(&mut self.kept, &mut self.roots, &mut self.places);
        self.next = 0;
    }

    /// This pass's next root, if any is left.
    #[inline]
    pub(super) fn take(&mut self) -> Option<Node<B, M>> {
        let root = self.roots.get(self.next).copied();
        self.next += 1;
        root
    }

    /// Keeps `node` for the next pass, while there is room.
    #[inline]
    pub(super) fn keep(&mut self, node: Node<B, M>) {
        if self.full {
            return;
        }
        self.kept.push(node);
        if self.roots.len() + self.kept.len() > self.room {
            self.full = true;
            self.kept = Vec::new();
        }
    }

    /// Most nodes held, this pass's and the next's together.
    pub(super) fn room(&self) -> usize {
        self.room
    }

    /// Whether the nodes this pass prunes are kept.
    #[inline]
    pub(super) fn keeping(&self) -> bool {
        !self.full
    }

    /// Ends a pass: the most nodes held at once so far, and whether the
    /// frontier outgrew its room.
    pub(super) fn end_pass(&mut self) -> (usize, bool) {
        if !self.full {
            self.most = self.most.max(self.roots.len() + self.kept.len());
        }
        (self.most, self.full)
    }
}

/// `from` into `to`, by estimate, equals in the order they came, `from`
/// left empty. A counting sort: linear in the nodes while estimates are
/// whole moves, as they are wherever the frontier is kept; a comparison
/// sort where they span more than the nodes do.
fn nearest_first<B: Copy, M: Copy>(
    from: &mut Vec<Node<B, M>>,
    to: &mut Vec<Node<B, M>>,
    places: &mut Vec<u32>,
) {
    to.clear();
    let (Some(&first), Some(most)) = (from.first(), from.iter().map(|node| node.h).max()) else {
        return;
    };
    let most = most as usize;
    if most > 4 * from.len() + 1024 {
        from.sort_by_key(|node| node.h);
        std::mem::swap(from, to);
        return;
    }
    places.clear();
    places.resize(most + 2, 0);
    for node in from.iter() {
        places[node.h as usize + 1] += 1;
    }
    for h in 1..places.len() {
        places[h] += places[h - 1];
    }
    to.resize(from.len(), first);
    for node in from.drain(..) {
        let place = &mut places[node.h as usize];
        to[*place as usize] = node;
        *place += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(board: u64, h: u32) -> Node<u64, ()> {
        Node { board, blank: 0, row: 0, g: 0, h, memo: (), link: 0 }
    }

    fn boards(nodes: &[Node<u64, ()>]) -> Vec<u64> {
        nodes.iter().map(|n| n.board).collect()
    }

    #[test]
    fn a_pass_takes_the_nodes_kept_before_it_smallest_estimate_first_equals_in_the_order_kept() {
        let mut frontier = Frontier::new(node(0, 9), 100);
        frontier.begin_pass();
        assert_eq!(frontier.take().map(|n| n.board), Some(0));
        for (board, h) in [(1, 5), (2, 3), (3, 5), (4, 0), (5, 3)] {
            frontier.keep(node(board, h));
        }
        assert_eq!(frontier.take().map(|n| n.board), None);
        frontier.begin_pass();
        let taken: Vec<_> = std::iter::from_fn(|| frontier.take()).collect();
        assert_eq!(boards(&taken), [4, 2, 5, 1, 3]);
    }

    #[test]
    fn estimates_far_apart_are_sorted_alike() {
        let (mut from, mut to, mut places) = (Vec::new(), Vec::new(), Vec::new());
        for (board, h) in [(1, 70_000), (2, 3), (3, 65_536), (4, 3)] {
            from.push(node(board, h));
        }
        nearest_first(&mut from, &mut to, &mut places);
        assert_eq!(boards(&to), [2, 4, 3, 1]);
        assert!(from.is_empty());
    }

    #[test]
    fn a_frontier_that_outgrows_its_room_keeps_nothing_more() {
        let mut frontier = Frontier::new(node(0, 9), 3);
        frontier.begin_pass();
        frontier.take();
        for board in 1..=3 {
            assert!(frontier.keeping());
            frontier.keep(node(board, 1));
        }
        assert!(!frontier.keeping());
        frontier.keep(node(4, 1));
        assert_eq!(frontier.end_pass(), (1, true));
    }
}
