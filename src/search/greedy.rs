/*!
Greedy best-first search: expands the node that looks closest to the goal,
by h alone, on the engine of [`super::best_first`]. It ignores the cost so
far, so its paths are long and unbounded, but it answers boards no
shortest-path search can, in a fraction of the nodes.
*/

use super::best_first::{Buckets, Greedy, Heap, run};
use super::table::TaggedSet;
use super::{Limits, Outcome};
use crate::board::{Board, Goal};
use crate::heuristic::Heuristic;

/// Greedy best-first graph search from `start` to `goal` guided by `h`.
///
/// The open list is ordered by h, ties to the shallower node, then the most
/// recent; the goal is tested on removal; a board is closed by its first
/// expansion and never reopened; nodes deeper than `limits.max_depth` are
/// not expanded. The same figures and limits as A*.
///
/// # Examples
/// ```
/// use npuzzle::{greedy, Board, Goal, GoalSpec, Limits, Manhattan, Packed};
/// let goal = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
/// let start = Packed::from_tiles(&[1, 2, 5, 3, 4, 0, 6, 7, 8]);
/// let outcome = greedy(&start, &goal, &Manhattan::new(&goal), &Limits::default());
/// assert_eq!(outcome.cost(), Some(3));
/// assert_eq!(outcome.stats.nodes_expanded, 3);
/// ```
pub fn greedy<B: Board, H: Heuristic<B>>(start: &B, goal: &Goal, h: &H, limits: &Limits) -> Outcome {
    if H::UNIT == 1 {
        run::<B, H, Greedy, Buckets, TaggedSet<B>>(start, goal, h, Greedy, limits)
    } else {
        run::<B, H, Greedy, Heap, TaggedSet<B>>(start, goal, h, Greedy, limits)
    }
}
