/*!
Reporting: an outcome flattened into a plain [`Record`], rendered by one
small writer per format. Nothing here searches, and no search prints.
*/

mod json;
mod text;

pub use json::write_json;
pub use text::write_text;

use crate::board::{Goal, Move, Tiles};
use crate::heuristic::HeuristicKind;
use crate::search::{Algorithm, Outcome, Stats, Status};
use serde::Serialize;

/// Output formats of `solve`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Labelled lines for people and grep.
    Text,
    /// One JSON object.
    Json,
}

/// One solve, as plain data. Its serialised form is the JSON report.
#[derive(Clone, Debug, Serialize)]
pub struct Record {
    /// `"solved"`, `"unsolvable"` or `"limit"`.
    pub status: &'static str,
    /// Algorithm name.
    pub algorithm: &'static str,
    /// Heuristic name, where the algorithm uses one.
    pub heuristic: Option<&'static str>,
    /// Board width N.
    pub size: usize,
    /// Start tiles, row-major.
    pub start: Vec<u8>,
    /// Goal tiles, row-major.
    pub goal: Vec<u8>,
    /// Move names from start to goal, when solved.
    pub path: Option<Vec<Move>>,
    /// Moves in the path.
    pub cost: Option<usize>,
    /// Depth of the goal node.
    pub depth: Option<usize>,
    /// See [`Stats::nodes_expanded`].
    pub nodes_expanded: u64,
    /// See [`Stats::nodes_generated`].
    pub nodes_generated: u64,
    /// See [`Stats::max_frontier`].
    pub max_frontier: u64,
    /// See [`Stats::max_depth`].
    pub max_depth: u32,
    /// See [`Stats::stored`].
    pub stored_nodes: u64,
    /// Search time in milliseconds (microsecond resolution).
    pub runtime_ms: f64,
    /// Why the search ended without a solution, for people (not in JSON).
    #[serde(skip)]
    pub note: Option<String>,
}

impl Record {
    /// Flattens one solve.
    pub fn new(
        algorithm: Algorithm,
        heuristic: HeuristicKind,
        start: &Tiles,
        goal: &Goal,
        outcome: &Outcome,
    ) -> Record {
        let Stats { nodes_expanded, nodes_generated, max_frontier, max_depth, stored, runtime } =
            outcome.stats;
        let note = match outcome.status {
            Status::Solved => None,
            Status::Unsolvable => Some(goal.parity(start.cells()).reason()),
            Status::Limit(kind) => Some(kind.to_string()),
        };
        Record {
            status: outcome.status.name(),
            algorithm: algorithm.name(),
            heuristic: algorithm.informed().then(|| heuristic.name()),
            size: start.width(),
            start: start.cells().to_vec(),
            goal: goal.tiles().cells().to_vec(),
            path: outcome.path.clone(),
            cost: outcome.cost(),
            depth: outcome.cost(),
            nodes_expanded,
            nodes_generated,
            max_frontier,
            max_depth,
            stored_nodes: stored,
            runtime_ms: (runtime.as_secs_f64() * 1e6).round() / 1e3,
            note,
        }
    }
}
