/*!
Boards at an exact distance from the goal: what `generate --distance D`
makes, so that course users can reproduce tables by solution length (Russell
and Norvig's comparison of heuristics over 8-puzzles of each length d).

Where the space can be enumerated ([`Layers`], up to 10 cells) each board is
drawn uniformly among all those exactly D moves away. Larger spaces are
sampled by random walks from the goal whose optimum an IDA* search with
linear conflicts confirms: a walk of L moves ends at most L moves away, with
L's parity, so walks are rejected until one ends exactly D away, L creeping
up by two while walks fall short and down while they overshoot. Those boards
are not uniform among their distance: they lean towards the boards walks
reach most often.
*/

use crate::board::{
    Goal, Layers, MAX_ENUMERATED_CELLS, Scramble, Shape, SplitMix64, Tiles, distance_bound, generate,
};
use crate::heuristic::HeuristicKind;
use crate::search::{Algorithm, Limits, Prepared, Status, Tables};
use std::collections::HashMap;
use std::time::Duration;
use thiserror::Error;

/// Walks tried for one board before giving up.
pub const MAX_ATTEMPTS: u32 = 1000;

/// The longest an optimal search may take to confirm one walk's distance:
/// past it, boards that far out are beyond this generator.
pub const VERIFY_TIMEOUT: Duration = Duration::from_secs(10);

/// Why no board could be made.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum DistanceError {
    /// A distance past what any board of the shape can need, known without
    /// a search (see [`distance_bound`]).
    #[error("no {shape} board is {distance} moves from this goal: none needs more than {bound}")]
    BeyondBound {
        /// The board's shape.
        shape: Shape,
        /// The distance asked for.
        distance: usize,
        /// The most moves any board needs.
        bound: usize,
    },
    /// The enumerated space has no board that far from the goal.
    #[error("no {shape} board is {distance} moves from this goal: the farthest are {diameter} moves away")]
    BeyondDiameter {
        /// The board's shape.
        shape: Shape,
        /// The distance asked for.
        distance: usize,
        /// The greatest distance of any board.
        diameter: usize,
    },
    /// Every walk ended at another distance.
    #[error(
        "no {shape} board exactly {distance} moves from the goal in {attempts} random walks: few boards are that \
         far, or none is"
    )]
    NotFound {
        /// The board's shape.
        shape: Shape,
        /// The distance asked for.
        distance: usize,
        /// Walks tried.
        attempts: u32,
    },
    /// Confirming a walk's distance took too long.
    #[error(
        "confirming that a {shape} board is {distance} moves from the goal took over {} s: only boards of up to \
         {MAX_ENUMERATED_CELLS} cells are enumerated, and larger ones this far out are beyond an optimal search",
        VERIFY_TIMEOUT.as_secs()
    )]
    TooFar {
        /// The board's shape.
        shape: Shape,
        /// The distance asked for.
        distance: usize,
    },
    /// The search could not run on this board (too large to search).
    #[error("{0}")]
    Search(String),
}

/// Draws boards at exact distances from one goal, keeping what it learns
/// (the enumerated layers, or each distance's walk length) between boards.
#[derive(Debug)]
pub struct Sampler {
    /// The confirming search, its tables built once for every walk.
    search: Prepared,
    layers: Option<Layers>,
    walk_lengths: HashMap<usize, usize>,
}

impl Sampler {
    /// A sampler for `goal` that will be asked for boards at `distances`;
    /// a small space is enumerated up to the largest of them now.
    ///
    /// # Errors
    /// [`DistanceError::BeyondBound`] when one of `distances` is past the
    /// known bound for the shape, at once, and
    /// [`DistanceError::BeyondDiameter`] when an enumerated space has no
    /// board at one of them.
    pub fn new(goal: &Goal, distances: &[usize]) -> Result<Sampler, DistanceError> {
        let farthest = distances.iter().copied().max().unwrap_or(0);
        if let Some(bound) = distance_bound(goal)
            && farthest > bound
        {
            return Err(DistanceError::BeyondBound { shape: goal.shape(), distance: farthest, bound });
        }
        let layers = Layers::up_to(goal, farthest);
        if let Some(layers) = &layers
            && let Some(&distance) = distances.iter().find(|&&d| layers.count(d) == 0)
        {
            let diameter = layers.diameter().expect("a distance without boards lies past the last layer");
            return Err(DistanceError::BeyondDiameter { shape: goal.shape(), distance, diameter });
        }
        let search = Prepared::new(goal.clone(), Algorithm::IdaStar, HeuristicKind::LinearConflict);
        Ok(Sampler { search, layers, walk_lengths: HashMap::new() })
    }

    /// Whether boards are drawn uniformly from the whole space (else from
    /// confirmed random walks).
    pub fn enumerated(&self) -> bool {
        self.layers.is_some()
    }

    /// How many boards are exactly `distance` moves away, where the space
    /// was enumerated.
    pub fn count(&self, distance: usize) -> Option<usize> {
        self.layers.as_ref().map(|layers| layers.count(distance))
    }

    /// A board whose shortest solution is exactly `distance` moves.
    ///
    /// # Errors
    /// See [`DistanceError`].
    pub fn sample(&mut self, distance: usize, rng: &mut SplitMix64) -> Result<Tiles, DistanceError> {
        self.sample_watched(distance, rng, &mut |_| {})
    }

    /// [`Sampler::sample`], telling `attempt` the number of each random walk
    /// it is about to confirm (from 1 to [`MAX_ATTEMPTS`]), so a caller can
    /// show how a long search for a board is going.
    ///
    /// # Errors
    /// See [`DistanceError`].
    pub fn sample_watched(
        &mut self,
        distance: usize,
        rng: &mut SplitMix64,
        attempt: &mut dyn FnMut(u32),
    ) -> Result<Tiles, DistanceError> {
        if let Some(layers) = &self.layers {
            return Ok(layers.board(distance, rng.below(layers.count(distance))));
        }
        let goal = self.search.goal();
        let shape = goal.shape();
        let limits = Limits { timeout: Some(VERIFY_TIMEOUT), ..Limits::default() };
        let length = self.walk_lengths.entry(distance).or_insert(distance);
        for tried in 1..=MAX_ATTEMPTS {
            attempt(tried);
            let board = generate(goal, Scramble::Walk(*length), true, rng);
            let outcome = self
                .search
                .solve(&board, &limits, &Tables::NONE)
                .map_err(|e| DistanceError::Search(e.to_string()))?;
            let optimum = match outcome.status {
                Status::Solved => outcome.cost().expect("a solved search has a path"),
                _ => return Err(DistanceError::TooFar { shape, distance }),
            };
            match optimum.cmp(&distance) {
                std::cmp::Ordering::Equal => return Ok(board),
                std::cmp::Ordering::Less => *length += 2,
                std::cmp::Ordering::Greater => *length = (*length - 2).max(distance),
            }
        }
        Err(DistanceError::NotFound { shape, distance, attempts: MAX_ATTEMPTS })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, GoalSpec, Packed};
    use crate::search::bfs;

    fn bfs_distance(board: &Tiles, goal: &Goal) -> usize {
        let start = Packed::from_tiles(board.cells());
        bfs(&start, goal, &Limits::default()).cost().unwrap()
    }

    #[test]
    fn small_spaces_are_drawn_from_their_layers_and_large_ones_are_confirmed_by_search() {
        let mut rng = SplitMix64::new(11);
        for shape in [Shape::square(3), Shape::new(4, 3)] {
            let goal = Goal::new(&GoalSpec::BlankFirst, shape).unwrap();
            let mut sampler = Sampler::new(&goal, &[0, 1, 9, 14]).unwrap();
            assert_eq!(sampler.enumerated(), shape.cells() <= MAX_ENUMERATED_CELLS);
            for distance in [0, 1, 9, 14] {
                for _ in 0..3 {
                    let board = sampler.sample(distance, &mut rng).unwrap();
                    assert_eq!(bfs_distance(&board, &goal), distance, "{shape} {board}");
                }
            }
        }
    }

    #[test]
    fn a_distance_beyond_the_farthest_board_is_refused_up_front() {
        let goal = Goal::new(&GoalSpec::BlankFirst, 2).unwrap();
        let error = Sampler::new(&goal, &[2, 7]).unwrap_err();
        assert_eq!(error, DistanceError::BeyondBound { shape: Shape::square(2), distance: 7, bound: 6 });
        // With the blank in the middle the known bound is two moves above
        // the farthest board, which the enumeration finds.
        let goal = Goal::new(&GoalSpec::Snail, 3).unwrap();
        let error = Sampler::new(&goal, &[32]).unwrap_err();
        assert_eq!(
            error,
            DistanceError::BeyondDiameter { shape: Shape::square(3), distance: 32, diameter: 30 }
        );
    }
}
