/*!
Move automata: which moves a depth-first search may make next, given the
moves that led here. Depth-first searches keep no record of visited boards,
so every path that revisits a board, or reaches one that another path of
the same length reaches, costs a whole subtree searched again. Of all the
blank paths from one cell that leave the tiles in the same arrangement, only
the smallest needs searching: the shortest, and among equally short ones the
first in successor order. An automaton over the blank's recent path rejects
every other one, up to a chosen length (Taylor and Korf, "Pruning duplicate
nodes in depth-first search", 1993).

The rules are found by enumeration: for each start cell, the paths the
automaton built so far accepts, length by length in successor order, with
the arrangement each leaves; a path whose arrangement an earlier path left
becomes a rule. Rules are blank-cell paths, so each holds exactly where it
applies, edges included. Rules of length 2 are the undo moves; longer ones
(the two ways around a 2×2 block, …) are what makes this worth it.

The rules run as an Aho–Corasick automaton over cell paths: a state is the
longest recent path that begins some rule, and a move into a state that
completes a rule is left out. Why pruning keeps searches complete and
optimal: take, among the optimal solutions, the smallest path (shortest,
then first in successor order). Any rule inside it could be swapped for its
smaller twin, giving a smaller solution, so it holds no rule and is never
pruned; and every node on an optimal path is within any bound an
admissible heuristic leads iterative deepening to.
*/

use super::Move;
use rustc_hash::FxHashSet;
use std::collections::VecDeque;

/// Marks a missing neighbour in a move table: the blank would leave the
/// board.
pub(crate) const OFF_BOARD: u16 = u16::MAX;

/// One legal move of the blank, as [`Geometry::steps`](super::Geometry::steps) lists it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The move.
    pub mv: Move,
    /// The blank's new cell (where the moving tile comes from); [`Step::END`]
    /// past the row's last step.
    pub from: u16,
    /// The row of the steps onward from the new position.
    pub row: u16,
}

impl Step {
    /// The `from` of the slot past a row's last step.
    pub const END: u16 = u16::MAX;

    /// Whether this slot ends its row's list rather than holding a step.
    #[inline]
    pub const fn is_end(&self) -> bool {
        self.from == Self::END
    }
}

/// No state (an illegal or rejected move).
const NO_STATE: u32 = u32::MAX;

/// The most states a table row index (`u16`) can name.
pub(crate) const MAX_STATES: usize = u16::MAX as usize;

/// The automaton, as rows of steps: row `cell` is the start with the blank
/// at `cell` and nothing known of the path before.
pub(crate) struct Automaton {
    pub steps: Vec<[Step; 4]>,
    /// The rules of every length up to this are in: paths of up to this
    /// many moves from one start that the automaton accepts leave distinct
    /// arrangements.
    pub complete: usize,
}

/// A trie of rules (blank-cell paths); nodes `0..cells` are the one-cell
/// paths, one per start cell.
#[derive(Clone)]
struct Trie {
    /// The blank's cell at each node.
    cell: Vec<u16>,
    /// Child per move.
    child: Vec<[u32; 4]>,
    /// Whether the node's path is a rule.
    rule: Vec<bool>,
}

impl Trie {
    fn new(cells: usize) -> Trie {
        Trie {
            cell: (0..cells as u16).collect(),
            child: vec![[NO_STATE; 4]; cells],
            rule: vec![false; cells],
        }
    }

    /// Adds the rule starting at `start` and following `moves`.
    fn insert(&mut self, targets: &[[u16; 4]], start: u16, moves: &[Move]) {
        let mut node = start as usize;
        for &mv in moves {
            let next = self.child[node][mv.index()];
            node = if next == NO_STATE {
                let id = self.cell.len();
                self.cell.push(targets[self.cell[node] as usize][mv.index()]);
                self.child.push([NO_STATE; 4]);
                self.rule.push(false);
                self.child[node][mv.index()] = id as u32;
                id
            } else {
                next as usize
            };
        }
        self.rule[node] = true;
    }

    /// The transitions: `goto[state][move]`, [`NO_STATE`] for a move off the
    /// board or one that completes a rule.
    fn transitions(&self, targets: &[[u16; 4]]) -> Vec<[u32; 4]> {
        let cells = targets.len();
        let nodes = self.cell.len();
        let mut fail = vec![0u32; nodes];
        let mut rule = self.rule.clone();
        let mut goto = vec![[NO_STATE; 4]; nodes];
        let mut queue: VecDeque<u32> = (0..cells as u32).collect();
        while let Some(s) = queue.pop_front() {
            let s = s as usize;
            for mv in 0..4 {
                let to = targets[self.cell[s] as usize][mv];
                if to == OFF_BOARD {
                    continue;
                }
                // Where the path continues when no rule does: the longest
                // suffix that begins a rule (at worst the single cell `to`).
                let fallback = if s < cells { u32::from(to) } else { goto[fail[s] as usize][mv] };
                let child = self.child[s][mv];
                if child == NO_STATE {
                    goto[s][mv] = fallback;
                } else {
                    let c = child as usize;
                    fail[c] = fallback;
                    // A rule ending here, even one that began later.
                    rule[c] |= rule[fallback as usize];
                    goto[s][mv] = child;
                    queue.push_back(child);
                }
            }
        }
        for row in &mut goto {
            for next in row.iter_mut() {
                if *next != NO_STATE && rule[*next as usize] {
                    *next = NO_STATE;
                }
            }
        }
        goto
    }
}

/// The labels of a board's cells (labels start as cell numbers), compared
/// to tell which paths leave the same arrangement.
trait Arrangement: Copy + Eq + std::hash::Hash {
    fn identity(cells: usize) -> Self;
    fn swap(&mut self, a: u16, b: u16);
}

/// Four bits a cell, for boards of up to 16 cells.
impl Arrangement for u64 {
    fn identity(cells: usize) -> u64 {
        (0..cells as u64).fold(0, |board, cell| board | cell << (4 * cell))
    }

    #[inline]
    fn swap(&mut self, a: u16, b: u16) {
        let (a, b) = (4 * u32::from(a), 4 * u32::from(b));
        let diff = ((*self >> a) ^ (*self >> b)) & 0xF;
        *self ^= diff << a | diff << b;
    }
}

/// Longest rule a [`Moved`] arrangement can follow: a path of `len` moves
/// changes at most `len + 1` cells.
const MAX_MOVED: usize = 16;

/// For boards of more than 16 cells: only the cells a path has moved, each
/// with the label it holds, sorted by cell. However large the board, a short
/// path moves few cells, so the sets of arrangements stay small (a byte per
/// cell of a 16×16 board would take hundreds of megabytes).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Moved {
    /// `(cell, label)` pairs, sorted by cell; unused ones are `(0, 0)`.
    entries: [(u16, u16); MAX_MOVED],
    len: u8,
}

impl Moved {
    /// The label at `cell`: its own number unless a path moved it.
    fn label(&self, cell: u16) -> u16 {
        self.entries[..usize::from(self.len)].iter().find(|e| e.0 == cell).map_or(cell, |e| e.1)
    }

    /// Sets `cell`'s label, keeping the entries sorted and leaving out cells
    /// that hold their own number again.
    fn set(&mut self, cell: u16, label: u16) {
        let len = usize::from(self.len);
        let at = self.entries[..len].partition_point(|e| e.0 < cell);
        let present = at < len && self.entries[at].0 == cell;
        match (present, label == cell) {
            (true, true) => {
                self.entries.copy_within(at + 1..len, at);
                self.entries[len - 1] = (0, 0);
                self.len -= 1;
            }
            (true, false) => self.entries[at].1 = label,
            (false, false) => {
                assert!(len < MAX_MOVED, "rules of up to {} moves", MAX_MOVED - 1);
                self.entries.copy_within(at..len, at + 1);
                self.entries[at] = (cell, label);
                self.len += 1;
            }
            (false, true) => {}
        }
    }
}

impl Arrangement for Moved {
    fn identity(_: usize) -> Moved {
        Moved { entries: [(0, 0); MAX_MOVED], len: 0 }
    }

    fn swap(&mut self, a: u16, b: u16) {
        let (label_a, label_b) = (self.label(a), self.label(b));
        self.set(a, label_b);
        self.set(b, label_a);
    }
}

/// Rules of paths up to `max_len` moves for the board whose blank moves
/// `targets[cell][move]`; fewer if the automaton would outgrow
/// [`MAX_STATES`] (all rules of the first length that does not fit, and
/// longer, are then left out: a subset of rules is as sound as all).
pub(crate) fn build(targets: &[[u16; 4]], max_len: usize) -> Automaton {
    build_capped(targets, max_len, MAX_STATES)
}

fn build_capped(targets: &[[u16; 4]], max_len: usize, max_states: usize) -> Automaton {
    if targets.len() <= 16 {
        build_with::<u64>(targets, max_len, max_states)
    } else {
        build_with::<Moved>(targets, max_len.min(MAX_MOVED - 1), max_states)
    }
}

fn build_with<A: Arrangement>(targets: &[[u16; 4]], max_len: usize, max_states: usize) -> Automaton {
    let cells = targets.len();
    let mut trie = Trie::new(cells);
    let mut goto = trie.transitions(targets);
    let mut complete = max_len;
    // Per start cell, the arrangement each accepted path so far leaves. No
    // two share one (or the later would have become a rule), and a path
    // accepted now stays accepted: new rules are longer than it.
    let mut seen: Vec<FxHashSet<A>> =
        (0..cells).map(|_| FxHashSet::from_iter([A::identity(cells)])).collect();
    for len in 1..=max_len {
        let mut rules = Vec::new();
        for (start, seen) in seen.iter_mut().enumerate() {
            find_rules(targets, &goto, start as u16, len, seen, &mut rules);
        }
        if rules.is_empty() {
            continue;
        }
        let shorter = trie.clone();
        for (start, moves) in &rules {
            trie.insert(targets, *start, moves);
        }
        if trie.cell.len() > max_states {
            // Too many states for the table's row index: stop at the
            // previous length, whose rules all fit.
            trie = shorter;
            complete = len - 1;
            break;
        }
        goto = trie.transitions(targets);
    }
    let steps = goto
        .iter()
        .map(|row| {
            let mut list = [Step { mv: Move::Up, from: Step::END, row: 0 }; 4];
            let legal = Move::ALL.into_iter().filter(|mv| row[mv.index()] != NO_STATE);
            for (slot, mv) in list.iter_mut().zip(legal) {
                let next = row[mv.index()];
                *slot = Step { mv, from: trie.cell[next as usize], row: next as u16 };
            }
            list
        })
        .collect();
    Automaton { steps, complete }
}

/// Adds to `rules` the paths of exactly `len` moves from `start` that `goto`
/// accepts but that leave an arrangement in `seen` (left by a shorter path
/// or an earlier one of the same length); records the others in `seen`.
fn find_rules<A: Arrangement>(
    targets: &[[u16; 4]],
    goto: &[[u32; 4]],
    start: u16,
    len: usize,
    seen: &mut FxHashSet<A>,
    rules: &mut Vec<(u16, Vec<Move>)>,
) {
    let mut walk = Walk { targets, goto, seen, rules, start, len, path: Vec::with_capacity(len) };
    walk.from(u32::from(start), start, A::identity(targets.len()));
}

/// A depth-first walk over the paths of `len` moves the automaton accepts,
/// in successor order.
struct Walk<'a, A> {
    targets: &'a [[u16; 4]],
    goto: &'a [[u32; 4]],
    seen: &'a mut FxHashSet<A>,
    rules: &'a mut Vec<(u16, Vec<Move>)>,
    start: u16,
    len: usize,
    path: Vec<Move>,
}

impl<A: Arrangement> Walk<'_, A> {
    fn from(&mut self, state: u32, blank: u16, board: A) {
        if self.path.len() == self.len {
            if !self.seen.insert(board) {
                self.rules.push((self.start, self.path.clone()));
            }
            return;
        }
        for mv in Move::ALL {
            let next = self.goto[state as usize][mv.index()];
            if next == NO_STATE {
                continue;
            }
            let to = self.targets[usize::from(blank)][mv.index()];
            let mut child = board;
            child.swap(blank, to);
            self.path.push(mv);
            self.from(next, to, child);
            self.path.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::board::{Board, Geometry, Packed, distances_within};
    use std::collections::HashMap;

    /// The board whose blank is at `blank` and whose other cells hold their
    /// own numbers: paths from it are told apart by where tiles end up.
    fn labelled(cells: usize, blank: usize) -> Packed {
        let mut tiles: Vec<u16> = (0..cells as u16).collect();
        tiles.swap(0, blank);
        Packed::from_tiles(&tiles)
    }

    /// Every board within `depth` moves, with its true distance.
    fn distances(geometry: &Geometry, blank: usize, depth: usize) -> HashMap<Packed, u32> {
        distances_within(labelled(geometry.cells(), blank), geometry.shape(), depth as u32)
    }

    /// Walks every path of up to `depth` moves the table allows from
    /// `blank`: how many there are, and the fewest moves each board was
    /// reached in.
    fn allowed_paths(geometry: &Geometry, blank: usize, depth: usize) -> (usize, HashMap<Packed, u32>) {
        fn walk(
            g: &Geometry,
            row: usize,
            board: Packed,
            d: u32,
            depth: u32,
            found: &mut (usize, HashMap<Packed, u32>),
        ) {
            found.0 += 1;
            let best = found.1.entry(board).or_insert(d);
            *best = (*best).min(d);
            if d == depth {
                return;
            }
            for step in g.steps(row).iter().take_while(|s| s.from != u16::MAX) {
                let child = board.slide(board.blank(), usize::from(step.from));
                walk(g, usize::from(step.row), child, d + 1, depth, found);
            }
        }
        let mut found = (0, HashMap::new());
        walk(
            geometry,
            geometry.start_row(blank),
            labelled(geometry.cells(), blank),
            0,
            depth as u32,
            &mut found,
        );
        found
    }

    #[test]
    fn within_the_rule_length_each_board_has_exactly_one_allowed_path_and_it_is_shortest() {
        for (width, depth) in [(3, 14), (4, 12)] {
            let geometry = &Geometry::with_rules(width, depth);
            assert_eq!(
                geometry.distinct_within(),
                depth,
                "{width}×{width}: every rule of up to {depth} moves"
            );
            for blank in [0, width + 1, width * width - 1] {
                let truth = distances(geometry, blank, depth);
                let (paths, reached) = allowed_paths(geometry, blank, depth);
                assert_eq!(reached, truth, "{width}×{width}, blank at {blank}");
                assert_eq!(paths, truth.len(), "{width}×{width}, blank at {blank}: a board reached twice");
            }
        }
    }

    #[test]
    fn rectangles_get_rules_that_keep_exactly_one_shortest_path_per_board() {
        use crate::board::Shape;
        for (w, h, depth) in [(3, 2, 12), (2, 3, 12), (4, 2, 12), (2, 5, 12), (4, 3, 10), (3, 5, 10)] {
            let geometry = &Geometry::with_rules(Shape::new(w, h), depth);
            for blank in [0, w * h / 2, w * h - 1] {
                let truth = distances(geometry, blank, depth);
                let (paths, reached) = allowed_paths(geometry, blank, depth);
                assert_eq!(reached, truth, "{w}x{h}, blank at {blank}");
                assert_eq!(paths, truth.len(), "{w}x{h}, blank at {blank}: a board reached twice");
            }
        }
    }

    #[test]
    fn boards_of_more_than_16_cells_get_rules_too() {
        use crate::board::{Shape, Wide};
        // The sparse arrangement of wide boards: with 6-move rules on 5×4,
        // every board within 8 moves is still reached in its fewest moves,
        // by fewer paths than undo pruning alone allows.
        let shape = Shape::new(5, 4);
        let geometry = Geometry::with_rules(shape, 6);
        let mut start: Vec<u16> = (0..20).collect();
        start.swap(0, 6);
        let board = Wide::<64>::from_tiles(&start);
        let mut truth = std::collections::HashMap::from([(board, 0u32)]);
        let mut queue = std::collections::VecDeque::from([board]);
        while let Some(b) = queue.pop_front() {
            let d = truth[&b];
            if d < 8 {
                for (_, to) in geometry.moves(b.blank()) {
                    let child = b.slide(b.blank(), to);
                    truth.entry(child).or_insert_with(|| {
                        queue.push_back(child);
                        d + 1
                    });
                }
            }
        }
        let mut reached = std::collections::HashMap::new();
        let mut paths = 0;
        let mut todo = vec![(geometry.start_row(6), board, 0u32)];
        while let Some((row, b, d)) = todo.pop() {
            paths += 1;
            let best = reached.entry(b).or_insert(d);
            *best = (*best).min(d);
            if d < 8 {
                for step in geometry.steps(row).iter().take_while(|s| s.from != u16::MAX) {
                    todo.push((usize::from(step.row), b.slide(b.blank(), usize::from(step.from)), d + 1));
                }
            }
        }
        assert_eq!(reached, truth);
        assert!(paths < 3 * truth.len(), "{paths} paths for {} boards", truth.len());
    }

    #[test]
    fn beyond_the_rule_length_every_board_is_still_reached_in_its_fewest_moves() {
        for (width, depth) in [(3, 22), (4, 16)] {
            let geometry = Geometry::without_duplicates(width);
            let blank = width + 1;
            let truth = distances(geometry, blank, depth);
            let (paths, reached) = allowed_paths(geometry, blank, depth);
            assert_eq!(reached, truth, "{width}×{width}");
            // What the rules are for: a third fewer paths than undo-only pruning
            // even this shallow; the gap grows with depth.
            let (plain, _) = allowed_paths(&Geometry::new(width), blank, depth);
            assert!(
                paths * 3 < plain * 2,
                "{width}×{width}: {paths} paths against {plain} without the rules"
            );
        }
    }

    #[test]
    fn rules_too_many_for_the_table_are_left_out_by_whole_lengths() {
        // 3×3 rules of up to 18 moves need 43,280 states: capped at 20,000
        // the build keeps the rules of the longest length that fits.
        let plain = Geometry::new(3);
        let capped = super::build_capped(&plain.targets, 18, 20_000);
        let fits = (2..=18).rev().find(|&len| super::build(&plain.targets, len).steps.len() <= 20_000);
        let fits = fits.map(|len| (len, super::build(&plain.targets, len)));
        assert!(
            fits.is_some_and(|(len, fits)| fits.steps == capped.steps && capped.complete == len),
            "not the longest rules that fit"
        );
        assert!(capped.steps.len() > super::build(&plain.targets, 14).steps.len());
        let geometry = Geometry { steps: capped.steps, distinct_within: capped.complete, ..plain };
        let truth = distances(&geometry, 4, 20);
        assert_eq!(allowed_paths(&geometry, 4, 20).1, truth);
        // Within the rules kept, each board still has one path.
        let within = geometry.distinct_within();
        let (paths, reached) = allowed_paths(&geometry, 4, within);
        assert_eq!(paths, reached.len(), "a board reached twice within {within} moves");
    }
}
