/*!
Depth-first search: always expands the most recently added node. It finds a
path, usually far from the shortest; with a depth limit it never generates
nodes deeper than that limit.
*/

use super::graph::{self, Lifo};
use super::{Limits, Outcome};
use crate::board::{Board, Goal};

/// Depth-first graph search from `start` to `goal`.
///
/// LIFO frontier, goal test on removal, a successor is added only if it is
/// neither in the frontier nor explored. Successors are pushed in reverse
/// order (Right, Left, Down, Up) so they are expanded Up first. With
/// `limits.max_depth` it is depth-limited.
///
/// # Examples
/// ```
/// use npuzzle::{dfs, Board, Goal, GoalSpec, Limits, Packed};
/// let goal = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
/// let start = Packed::from_tiles(&[1, 2, 5, 3, 4, 0, 6, 7, 8]);
/// let outcome = dfs(&start, &goal, &Limits::default());
/// assert_eq!(outcome.cost(), Some(3));
/// assert_eq!(outcome.stats.max_depth, 66125);
/// ```
pub fn dfs<B: Board>(start: &B, goal: &Goal, limits: &Limits) -> Outcome {
    graph::search::<B, Lifo<B>>(start, goal, limits)
}
