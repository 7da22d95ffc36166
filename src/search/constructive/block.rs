/*!
The block left at the end of the constructive pass, solved by search:
relabelled as a board of its own, so the crate's searches can take it.
*/

use super::region::Region;
use crate::board::{Board, Goal, GoalSpec, Move, Packed, Shape, Tiles};
use crate::heuristic::Manhattan;
use crate::search::{LimitKind, Limits, Status, idastar};

/// A block's way to its goal and what the search cost.
pub(super) struct Block {
    /// Blank moves that solve the block (none for an unsolvable one).
    pub(super) path: Vec<Move>,
    pub(super) expanded: u64,
    pub(super) generated: u64,
}

/// The block `region` of a board of `shape` holding `tiles`, solved
/// optimally towards `goal` (both row-major over the whole board). `None`
/// when that search would expand more than `max_expanded` nodes.
pub(super) fn solve_block(
    shape: Shape,
    goal: &[u16],
    tiles: &[u16],
    region: &Region,
    max_expanded: u64,
) -> Option<Block> {
    let block = Shape::new(region.width(), region.height());
    let cells: Vec<usize> = (region.top..=region.bottom)
        .flat_map(|r| (region.left..=region.right).map(move |c| shape.cell(r, c)))
        .collect();
    // Labels: the blank stays 0, the others count up in goal order.
    let mut goal_labels = vec![0u16; cells.len()];
    let mut next = 1;
    for (label, &cell) in goal_labels.iter_mut().zip(&cells) {
        if goal[cell] != 0 {
            *label = next;
            next += 1;
        }
    }
    let label_of = |tile: u16| cells.iter().position(|&c| goal[c] == tile).map_or(0, |i| goal_labels[i]);
    let start_labels: Vec<u16> = cells.iter().map(|&c| label_of(tiles[c])).collect();
    if start_labels == goal_labels {
        return Some(Block { path: Vec::new(), expanded: 0, generated: 0 });
    }
    let labels = Tiles::with_shape(block, &goal_labels).expect("a block relabels to a valid board");
    let block_goal = Goal::new(&GoalSpec::Board(labels), block).expect("the block's goal has its shape");
    // The hardest board of at most 3×3 is 31 moves from its goal: the
    // limit only stops a search on an unsolvable block.
    let limits = Limits { max_depth: Some(31), max_expanded: Some(max_expanded), ..Limits::default() };
    let outcome =
        idastar(&Packed::from_tiles(&start_labels), &block_goal, &Manhattan::new(&block_goal), &limits);
    if let Status::Limit(LimitKind::Expanded(_)) = outcome.status {
        return None;
    }
    let path = if outcome.status == Status::Solved { outcome.path.unwrap_or_default() } else { Vec::new() };
    Some(Block { path, expanded: outcome.stats.nodes_expanded, generated: outcome.stats.nodes_generated })
}
