/*!
The block left at the end of the constructive pass, solved by search:
relabelled as a board of its own, so the crate's searches can take it.
Blocks of up to 3×3 are solved optimally by IDA*; larger ones, up to 5×5,
by weighted A* within a bounded number of expansions, which on a 5×5 block
finds a path about a third longer than the shortest in a few milliseconds,
where placing its lines would take about twice the shortest.
*/

use super::region::Region;
use crate::board::{Board, Goal, GoalSpec, Move, Packed, Packed128, Shape, Tiles};
use crate::heuristic::{LinearConflict, Manhattan};
use crate::search::{LimitKind, Limits, Outcome, Status, Weight, idastar, weighted_astar};

/// The most cells of a block IDA* solves optimally; the hardest such board
/// (3×3) is 31 moves from its goal.
const OPTIMAL_CELLS: usize = 9;
/// The longest side of a block that weighted A* solves.
pub(super) const SEARCHED_SIDE: usize = 5;
/// The weight of that search. Measured on random boards (moves / Manhattan
/// distance of the whole board, 50 boards, 5×5 blocks and 100,000
/// expansions), 6×6 / 7×7: W = 1.25 2.327 / 2.448, 1.5 2.264 / 2.402, 2
/// 2.151 / 2.359, 2.5 2.202 / 2.384, 3 2.281 / 2.426: lower weights run out
/// of expansions more often, higher ones find longer paths.
const WEIGHT: Weight = Weight::ratio(2, 1);
/// Expansions weighted A* may spend on a block before the block is placed
/// line by line instead: about 10 ms. Measured as above, 400,000 gave 6×6
/// 2.130 and 7×7 2.338 for twice the time.
const SEARCH_BUDGET: u64 = 100_000;

/// A block's way to its goal and what the search cost.
pub(crate) struct Block {
    /// Whether `path` solves the block: false for an unsolvable block, and
    /// for a block of more than 3×3 cells that weighted A* gave up on.
    pub(crate) solved: bool,
    /// Blank moves that solve the block, or none.
    pub(crate) path: Vec<Move>,
    pub(crate) expanded: u64,
    pub(crate) generated: u64,
}

/// The block `region` of a board of `shape` holding `tiles`, solved
/// towards `goal` (both row-major over the whole board): optimally up to
/// 3×3 cells, else by weighted A* (both sides at most [`SEARCHED_SIDE`]).
/// `None` when that search would expand more than `max_expanded` nodes.
pub(crate) fn solve_block(
    shape: Shape,
    goal: &[u16],
    tiles: &[u16],
    region: &Region,
    max_expanded: u64,
) -> Option<Block> {
    let block = Shape::new(region.width(), region.height());
    debug_assert!(block.cells() <= OPTIMAL_CELLS || block.width().max(block.height()) <= SEARCHED_SIDE);
    let (start_labels, goal_labels) = relabel(shape, goal, tiles, region);
    if start_labels == goal_labels {
        return Some(Block { solved: true, path: Vec::new(), expanded: 0, generated: 0 });
    }
    let labels = Tiles::with_shape(block, &goal_labels).expect("a block relabels to a valid board");
    let block_goal = Goal::new(&GoalSpec::Board(labels), block).expect("the block's goal has its shape");
    let outcome = if block.cells() <= OPTIMAL_CELLS {
        // The depth limit only stops a search on an unsolvable block.
        let limits = Limits { max_depth: Some(31), max_expanded: Some(max_expanded), ..Limits::default() };
        let outcome =
            idastar(&Packed::from_tiles(&start_labels), &block_goal, &Manhattan::new(&block_goal), &limits);
        if let Status::Limit(LimitKind::Expanded(_)) = outcome.status {
            return None;
        }
        outcome
    } else {
        let budget = SEARCH_BUDGET.min(max_expanded);
        let limits = Limits { max_expanded: Some(budget), ..Limits::default() };
        let h = LinearConflict::new(&block_goal);
        let outcome: Outcome = if block.cells() <= Packed::CAPACITY {
            weighted_astar(&Packed::from_tiles(&start_labels), &block_goal, &h, WEIGHT, &limits)
        } else {
            weighted_astar(&Packed128::from_tiles(&start_labels), &block_goal, &h, WEIGHT, &limits)
        };
        if budget == max_expanded && matches!(outcome.status, Status::Limit(LimitKind::Expanded(_))) {
            return None;
        }
        outcome
    };
    let solved = outcome.status == Status::Solved;
    Some(Block {
        solved,
        path: if solved { outcome.path.unwrap_or_default() } else { Vec::new() },
        expanded: outcome.stats.nodes_expanded,
        generated: outcome.stats.nodes_generated,
    })
}

/// The block `region` as a board of its own: the tiles of `tiles` and of
/// `goal` in its cells (row by row), the blank 0 and the others numbered
/// from 1 in the goal's order.
pub(crate) fn relabel(shape: Shape, goal: &[u16], tiles: &[u16], region: &Region) -> (Vec<u16>, Vec<u16>) {
    let cells = region.cells(shape);
    let mut labels = vec![0u16; goal.len()];
    for (label, &cell) in (1..).zip(cells.iter().filter(|&&c| goal[c] != 0)) {
        labels[usize::from(goal[cell])] = label;
    }
    let start: Vec<u16> = cells.iter().map(|&c| labels[usize::from(tiles[c])]).collect();
    let block_goal: Vec<u16> = cells.iter().map(|&c| labels[usize::from(goal[c])]).collect();
    (start, block_goal)
}
