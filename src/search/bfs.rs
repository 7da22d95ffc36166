/*!
Breadth-first search: expands nodes in order of depth, so the first goal
removed from the frontier is at the smallest depth (an optimal path).
*/

use super::graph::{self, Fifo};
use super::{Limits, Outcome};
use crate::board::{Board, Goal};

/// Breadth-first graph search from `start` to `goal`.
///
/// FIFO frontier, goal test on removal, a successor is added only if it is
/// neither in the frontier nor explored. Successors in order Up, Down, Left,
/// Right.
///
/// # Examples
/// ```
/// use npuzzle::{bfs, Board, Goal, GoalSpec, Limits, Packed};
/// let goal = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
/// let start = Packed::from_tiles(&[1, 2, 5, 3, 4, 0, 6, 7, 8]);
/// let outcome = bfs(&start, &goal, &Limits::default());
/// assert_eq!(outcome.cost(), Some(3));
/// assert_eq!(outcome.stats.nodes_expanded, 10);
/// ```
pub fn bfs<B: Board>(start: &B, goal: &Goal, limits: &Limits) -> Outcome {
    graph::search::<B, Fifo<B>>(start, goal, limits)
}
