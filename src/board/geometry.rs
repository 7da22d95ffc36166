/*!
[`Geometry`]: where the blank may go from each cell, and which moves a
search may skip because a smaller path reaches the same board (the move
automaton of `automaton.rs`). Built once per shape and kept.
*/

use super::automaton::{self, OFF_BOARD, Step};
use super::{Board, Move, Shape};
use rustc_hash::FxHashMap;
use std::sync::{Mutex, PoisonError};

/// How long the rules of [`Geometry::without_duplicates`] are for a
/// board of `shape`, by its cells, because the build enumerates every path
/// up to that length from every cell. Measured: on the 8-puzzle, rules past
/// 8 moves save under 8% of IDA*'s nodes but cost more to build than a
/// whole solve; on the 15-puzzle, rules of 12 moves halve IDA*'s nodes and
/// build in about 25 ms (13 saved another 1% on five Korf instances for
/// twice the build; 14 takes 115 ms). Up to 25 cells 10 moves and up to 64
/// cells 8 keep the build near 0.1 s; beyond, 8 moves would take 0.15 s on
/// 10×10 and 0.55 s on 16×16, and 6 take 18 ms and 60 ms.
fn duplicate_rule_length(shape: Shape) -> usize {
    match shape.cells() {
        10..=16 => 12,
        17..=25 => 10,
        ..=64 => 8,
        _ => 6,
    }
}

/// How long the rules of [`Geometry::for_long_searches`] are: searches
/// that have already run for millions of nodes repay a longer build.
/// Measured on the 24-puzzle: rules of 12 moves expand 7–11 % fewer nodes
/// of IDA* than 10 (instances 38 and 40, `zero-max7`) and take 0.4 s to
/// build against 0.08 s; 14 prune nothing more for 1.2 s.
fn long_search_rule_length(shape: Shape) -> usize {
    match shape.cells() {
        17..=25 => 12,
        _ => duplicate_rule_length(shape),
    }
}

/// Where the blank can go from each cell of a board.
#[derive(Clone, Debug)]
pub struct Geometry {
    pub(super) shape: Shape,
    /// `targets[pos][move]` is the blank's new cell, or [`OFF_BOARD`] at an edge.
    pub(super) targets: Vec<[u16; 4]>,
    /// The allowed steps in successor order, per state of the move
    /// automaton (row `cell`: the blank at `cell`, no history); unused
    /// entries are [`Step::is_end`].
    pub(super) steps: Vec<[Step; 4]>,
    /// See [`Geometry::distinct_within`].
    pub(super) distinct_within: usize,
}

impl Geometry {
    /// Rule length of the plain table: a blank path of two moves that
    /// changes nothing is a move and its undo.
    const UNDO_ONLY: usize = 2;

    /// The move table for a board of `shape`; its steps leave out only the
    /// move that undoes the last one.
    pub fn new(shape: impl Into<Shape>) -> Geometry {
        Self::with_rules(shape, Self::UNDO_ONLY)
    }

    /// [`Geometry::new`] for `shape`, built once per shape and kept: the
    /// searches that remember what they have seen (BFS, DFS, A*, greedy)
    /// take it rather than building it per search, which took a tenth of
    /// the time of an 8-puzzle's A*.
    pub fn plain(shape: impl Into<Shape>) -> &'static Geometry {
        Self::kept(shape.into(), Self::UNDO_ONLY)
    }

    /// The move table whose steps also leave out every move that completes
    /// a blank path of up to `max_len` moves that a smaller path (shorter, or
    /// as long and first in successor order) makes redundant: for
    /// depth-first searches, which cannot tell they have seen a board before
    /// (Taylor and Korf's move automaton). Built once per shape and kept.
    pub fn without_duplicates(shape: impl Into<Shape>) -> &'static Geometry {
        let shape = shape.into();
        Self::kept(shape, duplicate_rule_length(shape))
    }

    /// [`Geometry::without_duplicates`] with the longer rules that pay for
    /// themselves only in a long search; the same table where no longer
    /// rules would.
    pub fn for_long_searches(shape: impl Into<Shape>) -> &'static Geometry {
        let shape = shape.into();
        Self::kept(shape, long_search_rule_length(shape))
    }

    /// The table of `shape` with rules up to `max_len` moves, built on first
    /// use and kept for the life of the process, like a static table.
    fn kept(shape: Shape, max_len: usize) -> &'static Geometry {
        static BUILT: Mutex<Option<FxHashMap<(Shape, usize), &'static Geometry>>> = Mutex::new(None);
        let mut built = BUILT.lock().unwrap_or_else(PoisonError::into_inner);
        built
            .get_or_insert_with(FxHashMap::default)
            .entry((shape, max_len))
            .or_insert_with(|| Box::leak(Box::new(Self::with_rules(shape, max_len))))
    }

    pub(super) fn with_rules(shape: impl Into<Shape>, max_len: usize) -> Geometry {
        let shape = shape.into();
        let targets = (0..shape.cells())
            .map(|cell| Move::ALL.map(|mv| shape.neighbour(cell, mv).map_or(OFF_BOARD, |to| to as u16)))
            .collect::<Vec<[u16; 4]>>();
        let automaton = automaton::build(&targets, max_len);
        Geometry { shape, targets, steps: automaton.steps, distinct_within: automaton.complete }
    }

    /// How many moves deep the paths the steps allow from one board reach
    /// distinct boards, none of them reached in fewer moves: the length up
    /// to which the rules are complete. A search can skip looking for
    /// duplicates that shallow.
    #[inline]
    pub fn distinct_within(&self) -> usize {
        self.distinct_within
    }

    /// The row of [`Geometry::steps`] to start from with the blank at
    /// `blank`, nothing known of the moves before.
    #[inline]
    pub fn start_row(&self, blank: usize) -> usize {
        blank
    }

    /// The allowed steps in successor order: up to four, the first
    /// [`Step::is_end`] ending the list. Each step names the row of the
    /// steps after it, so the tightest loops follow rows and never
    /// recompute them.
    #[inline]
    pub fn steps(&self, row: usize) -> &[Step; 4] {
        &self.steps[row]
    }

    /// Asks for row `row` of [`Geometry::steps`] to be brought into cache:
    /// a long rule automaton's rows (about a megabyte on 4×4) do not stay
    /// there beside a search's pattern databases.
    #[inline]
    pub fn prefetch_steps(&self, row: usize) {
        if let Some(steps) = self.steps.get(row) {
            crate::machine::prefetch(steps);
        }
    }

    /// The board's shape.
    #[inline]
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Number of cells.
    #[inline]
    pub fn cells(&self) -> usize {
        self.targets.len()
    }

    /// The blank's cell after `mv` from `blank`, if the move stays on the board.
    #[inline]
    pub fn target(&self, blank: usize, mv: Move) -> Option<usize> {
        let to = self.targets[blank][mv.index()];
        (to != OFF_BOARD).then_some(to as usize)
    }

    /// Legal moves from `blank` in successor order, with the blank's new cell.
    #[inline]
    pub fn moves(&self, blank: usize) -> impl Iterator<Item = (Move, usize)> + '_ {
        let row = &self.targets[blank];
        Move::ALL.into_iter().filter_map(move |mv| {
            let to = row[mv.index()];
            (to != OFF_BOARD).then_some((mv, to as usize))
        })
    }

    /// The board after `mv`, or `None` if the blank would leave the board.
    #[inline]
    pub fn apply<B: Board>(&self, board: &B, mv: Move) -> Option<B> {
        let blank = board.blank();
        self.target(blank, mv).map(|to| board.slide(blank, to))
    }
}

/// Every board within `radius` moves of `start` on a board of `shape`, with
/// its true distance: a breadth-first search that stores boards, the ground
/// truth tests hold cleverer searches and tables to.
#[cfg(test)]
pub(crate) fn distances_within<B: Board>(
    start: B,
    shape: impl Into<Shape>,
    radius: u32,
) -> std::collections::HashMap<B, u32> {
    let geometry = Geometry::new(shape);
    let mut dist = std::collections::HashMap::from([(start, 0)]);
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(b) = queue.pop_front() {
        let d = dist[&b];
        if d == radius {
            continue;
        }
        for (_, to) in geometry.moves(b.blank()) {
            let child = b.slide(b.blank(), to);
            dist.entry(child).or_insert_with(|| {
                queue.push_back(child);
                d + 1
            });
        }
    }
    dist
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corner_has_two_moves_in_successor_order() {
        let g = Geometry::new(3);
        let moves: Vec<_> = g.moves(0).collect();
        assert_eq!(moves, vec![(Move::Down, 3), (Move::Right, 1)]);
        let centre: Vec<_> = g.moves(4).map(|m| m.0).collect();
        assert_eq!(centre, Move::ALL.to_vec());
    }

    #[test]
    fn the_plain_table_leaves_out_only_the_undo_move() {
        let g = Geometry::new(3);
        // Walk every row the table can reach, knowing the blank's cell and
        // the move that led there.
        let mut todo: Vec<(usize, usize, Option<Move>)> =
            (0..9).map(|cell| (g.start_row(cell), cell, None)).collect();
        let mut seen = std::collections::HashSet::new();
        while let Some((row, blank, arrival)) = todo.pop() {
            if !seen.insert((row, blank, arrival)) {
                continue;
            }
            let listed: Vec<(Move, usize)> = g
                .steps(row)
                .iter()
                .take_while(|s| !s.is_end())
                .map(|s| (s.mv, usize::from(s.from)))
                .collect();
            let legal: Vec<(Move, usize)> =
                g.moves(blank).filter(|&(mv, _)| Some(mv.inverse()) != arrival).collect();
            assert_eq!(listed, legal, "blank at {blank} after {arrival:?}");
            for step in g.steps(row).iter().take_while(|s| !s.is_end()) {
                todo.push((usize::from(step.row), usize::from(step.from), Some(step.mv)));
            }
        }
        assert_eq!(seen.len(), 9 + 24, "one row per cell, one per (cell, arrival)");
    }
}
