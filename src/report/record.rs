/*!
[`Record`]: one solve flattened into plain data, the single source every
format renders, and [`RowStatus`], the verdict every format spells alike.
*/

use super::effective_branching_factor;
use crate::board::{Goal, Move, Shape, Tiles};
use crate::heuristic::HeuristicKind;
use crate::search::{Algorithm, LimitKind, Outcome, Stats, Status, Weight};
use serde::{Serialize, Serializer};
use std::fmt;
use std::sync::Arc;

/// One solve, as plain data. Its serialised form is the JSON report.
///
/// `file` is only set in batch rows, `error` only in error rows; `file` is
/// left out of the JSON when absent, so `solve --format json` keeps exactly
/// its keys.
#[derive(Clone, Debug, Serialize)]
pub struct Record {
    /// The puzzle file, in batch rows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The verdict, or why there is none.
    pub status: RowStatus,
    /// Algorithm name.
    pub algorithm: &'static str,
    /// Heuristic name, where the algorithm uses one.
    pub heuristic: Option<&'static str>,
    /// W of A* and IDA* (1 unless weighted), where the algorithm has one.
    #[serde(serialize_with = "weight_as_number")]
    pub weight: Option<Weight>,
    /// In batch rows, the flags of the run that shape answers besides the
    /// algorithm, heuristic, weight and goal (see
    /// [`answer_flags`](crate::batch::answer_flags)); empty when none.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "shared_text")]
    pub flags: Option<Arc<str>>,
    /// N for an N×N board; `None` (`null` in JSON) for a rectangle, whose
    /// sides are `width` and `height`, and when an error row never read a
    /// board.
    pub size: Option<usize>,
    /// Columns; `None` when an error row never read a board.
    pub width: Option<usize>,
    /// Rows; `None` when an error row never read a board.
    pub height: Option<usize>,
    /// Start tiles, row-major; empty (`null`) when unknown.
    #[serde(serialize_with = "empty_as_null")]
    pub start: Vec<u16>,
    /// Goal tiles, row-major; empty (`null`) when unknown.
    #[serde(serialize_with = "empty_as_null")]
    pub goal: Vec<u16>,
    /// Move names from start to goal, when solved.
    pub path: Option<Vec<Move>>,
    /// Moves in the path.
    pub cost: Option<usize>,
    /// Depth of the goal node: the moves of the path as the algorithm
    /// found it, more than `cost` when it was then shortened (see
    /// [`Stats::shortened_by`]).
    pub depth: Option<usize>,
    /// The fewest moves any solution can have, as the run proved (see
    /// [`Outcome::lower_bound`]); `None` when unsolvable or never searched.
    pub lower_bound: Option<u32>,
    /// Whether the cost equals the lower bound, so the path is proven
    /// shortest; `None` without a cost.
    pub proven_optimal: Option<bool>,
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
    /// b* of the solve (see [`effective_branching_factor`]): from the
    /// nodes generated and the solution depth, worked out once when the
    /// record is made (a batch shows it and sums it up); `None` unless
    /// solved in at least one move. In JSON only where the row's layout has
    /// the column.
    #[serde(skip)]
    pub branching_factor: Option<f64>,
    /// The optimal length the puzzle's file or list line states, in batch
    /// rows (in JSON only where the row's layout has the column).
    #[serde(skip)]
    pub expected: Option<u32>,
    /// Why an `"error"` row has no verdict (in JSON only where the row's
    /// layout has an error column; see [`JsonLines`](super::JsonLines)).
    #[serde(skip)]
    pub error: Option<String>,
    /// Why the search ended without a solution, for people (not in JSON).
    #[serde(skip)]
    pub note: Option<String>,
    /// Whether Ctrl-C stopped the puzzle before its end: not a result, so
    /// a batch writing to a file leaves it to a resumed run.
    #[serde(skip)]
    pub interrupted: bool,
    /// An anytime run's answers, shorter each time, in the order they came
    /// (in JSON only for such a run).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub improvements: Vec<ImprovementRecord>,
}

/// One of an anytime run's answers, as reports show it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ImprovementRecord {
    /// Moves of the answer.
    pub cost: u32,
    /// The lower bound proven when it came.
    pub lower_bound: u32,
    /// When it came, in milliseconds since the search started.
    pub ms: f64,
}

impl Record {
    /// Flattens one solve.
    pub fn new(
        algorithm: Algorithm,
        heuristic: HeuristicKind,
        start: &Tiles,
        goal: &Goal,
        outcome: Outcome,
    ) -> Record {
        let (cost, depth) = (outcome.cost(), outcome.depth());
        let (lower_bound, proven_optimal) = (outcome.lower_bound, outcome.proven_optimal());
        let Stats { nodes_expanded, nodes_generated, max_frontier, max_depth, stored, runtime, .. } =
            outcome.stats;
        let note = match outcome.status {
            Status::Solved => None,
            Status::Unsolvable => Some(goal.parity(start.cells()).reason()),
            Status::Limit(kind) => Some(kind.to_string()),
        };
        Record {
            file: None,
            interrupted: outcome.status == Status::Limit(LimitKind::Interrupted),
            status: outcome.status.into(),
            algorithm: algorithm.name(),
            heuristic: algorithm.informed().then(|| heuristic.name()),
            weight: algorithm.weight(),
            flags: None,
            size: square_side(start.shape()),
            width: Some(start.width()),
            height: Some(start.height()),
            start: start.cells().to_vec(),
            goal: goal.tiles().cells().to_vec(),
            path: outcome.path,
            cost,
            depth,
            lower_bound,
            proven_optimal,
            nodes_expanded,
            nodes_generated,
            max_frontier,
            max_depth,
            stored_nodes: stored,
            runtime_ms: (runtime.as_secs_f64() * 1e6).round() / 1e3,
            branching_factor: depth.and_then(|d| effective_branching_factor(nodes_generated, d)),
            expected: None,
            error: None,
            note,
            improvements: outcome
                .improvements
                .iter()
                .map(|i| ImprovementRecord {
                    cost: i.cost,
                    lower_bound: i.lower_bound,
                    ms: (i.at.as_secs_f64() * 1e6).round() / 1e3,
                })
                .collect(),
        }
    }

    /// An `"error"` row: a puzzle that could not be searched at all because
    /// it is unreadable, malformed, of another width than the goal, or out of
    /// the heuristic's reach. `start` is the board, when it was read.
    pub fn failed(
        algorithm: Algorithm,
        heuristic: HeuristicKind,
        start: Option<&Tiles>,
        message: String,
    ) -> Record {
        Record {
            file: None,
            interrupted: false,
            status: RowStatus::Error,
            algorithm: algorithm.name(),
            heuristic: algorithm.informed().then(|| heuristic.name()),
            weight: algorithm.weight(),
            flags: None,
            size: start.and_then(|s| square_side(s.shape())),
            width: start.map(Tiles::width),
            height: start.map(Tiles::height),
            start: start.map(|s| s.cells().to_vec()).unwrap_or_default(),
            goal: Vec::new(),
            path: None,
            cost: None,
            depth: None,
            lower_bound: None,
            proven_optimal: None,
            nodes_expanded: 0,
            nodes_generated: 0,
            max_frontier: 0,
            max_depth: 0,
            stored_nodes: 0,
            runtime_ms: 0.0,
            branching_factor: None,
            expected: None,
            error: Some(message),
            note: None,
            improvements: Vec::new(),
        }
    }

    /// A `"limit"` row for a puzzle Ctrl-C stopped before its board was
    /// even read (a batch waiting on a FIFO): no verdict, like a search
    /// that was interrupted, and nothing known of the board.
    pub fn interrupted(algorithm: Algorithm, heuristic: HeuristicKind) -> Record {
        Record {
            status: RowStatus::Limit,
            error: None,
            note: Some(LimitKind::Interrupted.to_string()),
            interrupted: true,
            ..Record::failed(algorithm, heuristic, None, String::new())
        }
    }

    /// Whether the cost is the expected length; `None` when either is
    /// unknown.
    pub fn matches(&self) -> Option<bool> {
        Some(self.cost? == self.expected? as usize)
    }

    /// The board's shape, when a board was read.
    pub fn shape(&self) -> Option<Shape> {
        Some(Shape::new(self.width?, self.height?))
    }
}

/// The status of a row: a search's verdict, or `error` for a puzzle that
/// was never searched. Its name is what every format shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowStatus {
    /// A path to the goal was found.
    Solved,
    /// The goal cannot be reached from the start.
    Unsolvable,
    /// A limit stopped the search before a verdict.
    Limit,
    /// No search ran (see [`Record::failed`]).
    Error,
}

impl RowStatus {
    /// `solved`, `unsolvable`, `limit` or `error`.
    pub const fn name(self) -> &'static str {
        match self {
            RowStatus::Solved => "solved",
            RowStatus::Unsolvable => "unsolvable",
            RowStatus::Limit => "limit",
            RowStatus::Error => "error",
        }
    }
}

impl From<Status> for RowStatus {
    fn from(status: Status) -> RowStatus {
        match status {
            Status::Solved => RowStatus::Solved,
            Status::Unsolvable => RowStatus::Unsolvable,
            Status::Limit(_) => RowStatus::Limit,
        }
    }
}

impl fmt::Display for RowStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// As its name, so JSON shows the same word as the table and CSV.
impl Serialize for RowStatus {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// The side N of an N×N board: what `size` has always meant.
fn square_side(shape: Shape) -> Option<usize> {
    shape.is_square().then_some(shape.width())
}

#[expect(clippy::ref_option, reason = "serde passes fields by reference")]
fn weight_as_number<S: Serializer>(weight: &Option<Weight>, serializer: S) -> Result<S::Ok, S::Error> {
    match weight {
        // Whole weights as integers, so `2` reads back as it was typed.
        Some(w) if w.denominator() == 1 => serializer.serialize_u64(w.numerator()),
        Some(w) => serializer.serialize_f64(w.value()),
        None => serializer.serialize_none(),
    }
}

#[expect(clippy::ref_option, reason = "serde passes fields by reference")]
fn shared_text<S: Serializer>(text: &Option<Arc<str>>, serializer: S) -> Result<S::Ok, S::Error> {
    text.as_deref().serialize(serializer)
}

fn empty_as_null<S: Serializer>(value: &[u16], serializer: S) -> Result<S::Ok, S::Error> {
    if value.is_empty() { serializer.serialize_none() } else { value.serialize(serializer) }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::board::GoalSpec;
    use crate::search::{Limits, Tables, solve};

    /// A solved record for the classic 3-move board, and an error row.
    pub(crate) fn sample_rows() -> Vec<Record> {
        let start = Tiles::new(&[1, 2, 5, 3, 4, 0, 6, 7, 8]).unwrap();
        let goal = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
        let outcome = solve(
            &start,
            &goal,
            Algorithm::AStar,
            HeuristicKind::Manhattan,
            &Limits::default(),
            &Tables::NONE,
        )
        .unwrap();
        let mut solved = Record::new(Algorithm::AStar, HeuristicKind::Manhattan, &start, &goal, outcome);
        solved.file = Some("a, \"quoted\" name.txt".to_owned());
        let mut failed = Record::failed(
            Algorithm::AStar,
            HeuristicKind::Manhattan,
            None,
            "line 2: 'x' is not a non-negative integer".to_owned(),
        );
        failed.file = Some("bad.txt".to_owned());
        vec![solved, failed]
    }

    #[test]
    fn statuses_show_the_same_word_in_every_format() {
        for (status, word) in [
            (RowStatus::Solved, "solved"),
            (RowStatus::Unsolvable, "unsolvable"),
            (RowStatus::Limit, "limit"),
            (RowStatus::Error, "error"),
        ] {
            assert_eq!(serde_json::to_value(status).unwrap(), word);
            assert_eq!(status.to_string(), word);
        }
    }
}
