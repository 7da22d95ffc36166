/*!
The library's errors. Each says what went wrong in one line; the binary maps
them to exit codes.
*/

use crate::board::ParseError;
use thiserror::Error;

/// Everything that can go wrong before or around a search.
#[derive(Debug, Error)]
pub enum Error {
    /// A board could not be read or is malformed.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// The goal and the start have different widths.
    #[error("goal is {goal}×{goal} but the start is {start}×{start}")]
    GoalSize {
        /// Start width.
        start: usize,
        /// Goal width.
        goal: usize,
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
