/*!
The library's errors. Each says what went wrong in one line; the binary maps
them to exit codes.
*/

use crate::board::{GoalError, ParseError, Shape};
use thiserror::Error;

/// Everything that can go wrong before or around a search.
#[derive(Debug, Error)]
pub enum Error {
    /// A board could not be read or is malformed.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// The goal and the start have different shapes.
    #[error("goal is {goal} but the start is {start}")]
    GoalSize {
        /// The start's shape.
        start: Shape,
        /// The goal's shape.
        goal: Shape,
    },
    /// A board larger than the searches take.
    #[error(
        "a {shape} board is too large for {algorithm}: searches take boards up to 16x16 \
         (the constructive solver, --algo rows, takes any size)"
    )]
    TooLargeToSearch {
        /// The board's shape.
        shape: Shape,
        /// The algorithm asked for.
        algorithm: &'static str,
    },
    /// A weight given to an algorithm that has none.
    #[error("{algorithm} takes no weight: weights are for astar and idastar")]
    NoWeight {
        /// The algorithm's name.
        algorithm: &'static str,
    },
    /// A bound given to an algorithm that cannot keep one.
    #[error(
        "{algorithm} cannot promise a bound: --within needs astar, idastar, fringe or bfs, or no --algo (it then picks \
         the search)"
    )]
    NoBound {
        /// The algorithm's name.
        algorithm: &'static str,
    },
    /// A heuristic that does not exist for this board size or goal.
    #[error("heuristic {heuristic} is not available here: {why}")]
    Unsupported {
        /// The heuristic's name.
        heuristic: &'static str,
        /// Why not.
        why: String,
    },
}

impl From<GoalError> for Error {
    fn from(e: GoalError) -> Error {
        match e {
            GoalError::Size { start, goal } => Error::GoalSize { start, goal },
            GoalError::Parse(e) => Error::Parse(e),
        }
    }
}
