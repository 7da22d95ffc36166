/*!
What the row exporters share: the columns a row can show, the summary a
table ends with, and the [`Reporter`] trait each format implements.
*/

use super::{Csv, JsonLines, Record, RowStatus, Table};
use std::fmt::Write as _;
use std::io::{self, Write};
use std::time::Duration;

/// Output formats for many records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowFormat {
    /// Aligned columns for people, ending with a summary.
    Table,
    /// Comma-separated values with a header row.
    Csv,
    /// JSON Lines: one object per record, the keys of `solve --format json`.
    Json,
}

/// An exporter: receives rows one at a time, in order, as they are ready.
pub trait Reporter {
    /// Called once, before any row.
    ///
    /// # Errors
    /// Any error from the writer.
    fn begin(&mut self, layout: &Layout<'_>) -> io::Result<()>;

    /// Writes one row.
    ///
    /// # Errors
    /// Any error from the writer.
    fn row(&mut self, record: &Record) -> io::Result<()>;

    /// Called once, after the last row; formats for people show `summary`.
    ///
    /// # Errors
    /// Any error from the writer.
    fn finish(&mut self, summary: Option<&Summary>) -> io::Result<()>;

    /// Pushes buffered output to the writer's destination.
    ///
    /// # Errors
    /// Any error from the writer.
    fn flush(&mut self) -> io::Result<()>;
}

/// The exporter for `format`, writing to `out`.
pub fn reporter<'w, W: Write + Send + 'w>(format: RowFormat, out: W) -> Box<dyn Reporter + Send + 'w> {
    match format {
        RowFormat::Table => Box::new(Table::new(out)),
        RowFormat::Csv => Box::new(Csv::new(out)),
        RowFormat::Json => Box::new(JsonLines::new(out)),
    }
}

/// What the rows will look like, known before the first one.
#[derive(Clone, Copy, Debug)]
pub struct Layout<'a> {
    /// The columns, in order. JSON Lines always carries every key of a
    /// record, plus `branching_factor` when that column is listed.
    pub columns: &'a [Column],
    /// The longest file name to come, so the table can align the column.
    pub file_width: usize,
}

/// One column of a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Column {
    /// The puzzle file.
    File,
    /// N of an N×N board (`WxH` in a table, for any board).
    Size,
    /// Columns.
    Width,
    /// Rows.
    Height,
    /// Algorithm name.
    Algorithm,
    /// Heuristic name, for informed algorithms.
    Heuristic,
    /// W of A* and IDA*.
    Weight,
    /// `solved`, `unsolvable`, `limit` or `error`.
    Status,
    /// Moves in the solution.
    Cost,
    /// Depth of the goal node.
    Depth,
    /// The optimal length the puzzle's file or list line states.
    Expected,
    /// Whether the cost is the expected length.
    Matches,
    /// Nodes expanded.
    NodesExpanded,
    /// Nodes generated.
    NodesGenerated,
    /// Largest frontier.
    MaxFrontier,
    /// Deepest node generated.
    MaxDepth,
    /// Search time in milliseconds.
    RuntimeMs,
    /// Effective branching factor b*.
    BranchingFactor,
    /// Message of an error row.
    Error,
}

impl Column {
    /// The columns of `batch`.
    pub const BATCH: &'static [Column] = &[
        Column::File,
        Column::Size,
        Column::Width,
        Column::Height,
        Column::Algorithm,
        Column::Heuristic,
        Column::Weight,
        Column::Status,
        Column::Cost,
        Column::Depth,
        Column::Expected,
        Column::Matches,
        Column::NodesExpanded,
        Column::NodesGenerated,
        Column::MaxFrontier,
        Column::MaxDepth,
        Column::RuntimeMs,
        Column::BranchingFactor,
        Column::Error,
    ];

    /// The columns of `compare`: one row per run on one board, whose
    /// shape leads each row, as in `batch`, so rows from many boards can be
    /// put together.
    pub const COMPARE: &'static [Column] = &[
        Column::Size,
        Column::Width,
        Column::Height,
        Column::Algorithm,
        Column::Heuristic,
        Column::Weight,
        Column::Status,
        Column::Cost,
        Column::NodesExpanded,
        Column::NodesGenerated,
        Column::MaxFrontier,
        Column::MaxDepth,
        Column::RuntimeMs,
        Column::BranchingFactor,
    ];

    /// The CSV header, which is also the JSON key.
    pub const fn key(self) -> &'static str {
        match self {
            Column::File => "file",
            Column::Size => "size",
            Column::Width => "width",
            Column::Height => "height",
            Column::Algorithm => "algorithm",
            Column::Heuristic => "heuristic",
            Column::Weight => "weight",
            Column::Status => "status",
            Column::Cost => "cost",
            Column::Depth => "depth",
            Column::Expected => "expected",
            Column::Matches => "matches",
            Column::NodesExpanded => "nodes_expanded",
            Column::NodesGenerated => "nodes_generated",
            Column::MaxFrontier => "max_frontier",
            Column::MaxDepth => "max_depth",
            Column::RuntimeMs => "runtime_ms",
            Column::BranchingFactor => "branching_factor",
            Column::Error => "error",
        }
    }

    /// The table header.
    pub const fn title(self) -> &'static str {
        match self {
            Column::NodesExpanded => "expanded",
            Column::NodesGenerated => "generated",
            Column::MaxFrontier => "frontier",
            Column::MaxDepth => "max depth",
            Column::RuntimeMs => "ms",
            Column::BranchingFactor => "b*",
            Column::Weight => "W",
            other => other.key(),
        }
    }

    /// Whether the column describes the board's shape rather than the run.
    pub const fn shape(self) -> bool {
        matches!(self, Column::Size | Column::Width | Column::Height)
    }

    /// Whether the column holds numbers (right-aligned in a table).
    pub const fn numeric(self) -> bool {
        !matches!(
            self,
            Column::File
                | Column::Algorithm
                | Column::Heuristic
                | Column::Status
                | Column::Matches
                | Column::Error
        )
    }

    /// The text of this column for `record`. `human` cells are for the
    /// table: sizes as `3x3`, `-` for a missing value. Otherwise a missing
    /// value is empty.
    pub fn cell(self, record: &Record, human: bool) -> String {
        let mut text = String::new();
        self.write_cell(record, human, &mut text);
        text
    }

    /// [`Column::cell`], appended to `out` without allocating.
    pub fn write_cell(self, record: &Record, human: bool, out: &mut String) {
        let missing = if human { "-" } else { "" };
        let optional = |out: &mut String, value: Option<u64>| match value {
            Some(v) => push_whole(out, v),
            None => out.push_str(missing),
        };
        // Writing to a String cannot fail.
        match self {
            Column::File => out.push_str(record.file.as_deref().unwrap_or(missing)),
            Column::Size => match (record.size, record.shape(), human) {
                (_, Some(shape), true) => {
                    let _ = write!(out, "{shape}");
                }
                (Some(n), _, false) => push_whole(out, n as u64),
                _ => out.push_str(missing),
            },
            Column::Width => optional(out, record.width.map(|w| w as u64)),
            Column::Height => optional(out, record.height.map(|h| h as u64)),
            Column::Algorithm => out.push_str(record.algorithm),
            Column::Heuristic => out.push_str(record.heuristic.unwrap_or(missing)),
            Column::Weight => match record.weight {
                Some(w) => {
                    let _ = write!(out, "{w}");
                }
                None => out.push_str(missing),
            },
            Column::Status => out.push_str(record.status.name()),
            Column::Cost => optional(out, record.cost.map(|c| c as u64)),
            Column::Depth => optional(out, record.depth.map(|d| d as u64)),
            Column::Expected => optional(out, record.expected.map(u64::from)),
            Column::Matches => out.push_str(match (record.matches(), human) {
                (Some(true), true) => "yes",
                (Some(false), true) => "no",
                (Some(true), false) => "true",
                (Some(false), false) => "false",
                (None, _) => missing,
            }),
            Column::NodesExpanded => push_whole(out, record.nodes_expanded),
            Column::NodesGenerated => push_whole(out, record.nodes_generated),
            Column::MaxFrontier => push_whole(out, record.max_frontier),
            Column::MaxDepth => push_whole(out, u64::from(record.max_depth)),
            Column::RuntimeMs => push_fixed(out, record.runtime_ms, 3),
            Column::BranchingFactor => match record.branching_factor {
                Some(b) => push_fixed(out, b, 4),
                None => out.push_str(missing),
            },
            Column::Error => out.push_str(record.error.as_deref().unwrap_or("")),
        }
    }
}

/// `value` in decimal, appended without the formatting machinery: a batch
/// row holds a dozen numbers, and `write!` took a third of the time a row
/// spends outside its search.
fn push_whole(out: &mut String, value: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut rest = value;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    out.extend(digits[at..].iter().map(|&d| char::from(d)));
}

/// `value` to `places` decimals, as `{:.places$}` shows it (ties, which the
/// figures here never hit, round away from zero rather than to even).
fn push_fixed(out: &mut String, value: f64, places: u32) {
    let scale = 10u64.pow(places);
    let scaled = (value * scale as f64).round();
    if !(0.0..9e15).contains(&scaled) {
        // Negative, huge or not a number: the formatter knows best.
        let _ = write!(out, "{value:.*}", places as usize);
        return;
    }
    let scaled = scaled as u64;
    push_whole(out, scaled / scale);
    out.push('.');
    let fraction = scaled % scale;
    let mut digits = 1;
    while digits < places && fraction >= 10u64.pow(digits) {
        digits += 1;
    }
    out.extend(std::iter::repeat_n('0', (places - digits) as usize));
    push_whole(out, fraction);
}

/// Totals over many rows: what a batch table ends with.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// Rows with status `solved`.
    pub solved: usize,
    /// Rows with status `unsolvable`.
    pub unsolvable: usize,
    /// Rows stopped by a limit.
    pub limit: usize,
    /// Rows that could not be solved at all.
    pub error: usize,
    /// Rows whose cost is the expected length.
    pub matched: usize,
    /// Rows whose cost differs from the expected length.
    pub mismatched: usize,
    /// Rows with an expected length but no cost to compare (no solution).
    pub unchecked: usize,
    /// Nodes expanded, over all rows.
    pub nodes_expanded: u64,
    /// Nodes generated, over all rows.
    pub nodes_generated: u64,
    /// Search time of each row that ran a search, in milliseconds.
    pub runtime_ms: Sample,
    /// Nodes expanded by each row that ran a search.
    pub expanded: Sample,
    /// Nodes generated by each row that ran a search.
    pub generated: Sample,
    /// b* of each row solved in at least one move.
    pub branching_factor: Sample,
    /// Wall-clock time of the whole run, when known.
    pub wall: Option<Duration>,
}

impl Summary {
    /// Counts one row in.
    pub fn add(&mut self, record: &Record) {
        match record.status {
            RowStatus::Solved => self.solved += 1,
            RowStatus::Unsolvable => self.unsolvable += 1,
            RowStatus::Limit => self.limit += 1,
            RowStatus::Error => self.error += 1,
        }
        match (record.expected, record.matches()) {
            (_, Some(true)) => self.matched += 1,
            (_, Some(false)) => self.mismatched += 1,
            (Some(_), None) => self.unchecked += 1,
            (None, None) => {}
        }
        self.nodes_expanded += record.nodes_expanded;
        self.nodes_generated += record.nodes_generated;
        // Errors never searched, and unsolvable starts are told by parity
        // alone: their zeros would drag the means and medians down.
        if !matches!(record.status, RowStatus::Error | RowStatus::Unsolvable) {
            self.runtime_ms.push(record.runtime_ms);
            self.expanded.push(record.nodes_expanded as f64);
            self.generated.push(record.nodes_generated as f64);
        }
        if let Some(b) = record.branching_factor {
            self.branching_factor.push(b);
        }
    }

    /// Rows counted.
    pub fn rows(&self) -> usize {
        self.solved + self.unsolvable + self.limit + self.error
    }

    /// Nodes expanded per second of search time.
    pub fn nodes_per_second(&self) -> Option<f64> {
        let seconds = self.runtime_ms.total() / 1e3;
        (seconds > 0.0).then(|| self.nodes_expanded as f64 / seconds)
    }
}

/// The values one figure takes over the rows that have it, for a summary's
/// totals, means and medians.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sample {
    values: Vec<f64>,
}

impl Sample {
    /// Adds one row's value.
    pub fn push(&mut self, value: f64) {
        self.values.push(value);
    }

    /// Rows with a value.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether no row had a value.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Sum of the values.
    pub fn total(&self) -> f64 {
        self.values.iter().sum()
    }

    /// Mean of the values; `None` without any.
    pub fn mean(&self) -> Option<f64> {
        (!self.values.is_empty()).then(|| self.total() / self.values.len() as f64)
    }

    /// Median of the values; `None` without any.
    pub fn median(&self) -> Option<f64> {
        median(&self.values)
    }
}

/// The middle value (the mean of the two middle ones for an even count).
pub(crate) fn median(values: &[f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    Some(if sorted.len().is_multiple_of(2) {
        f64::midpoint(sorted[mid - 1], sorted[mid])
    } else {
        sorted[mid]
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::board::{Goal, GoalSpec, Tiles};
    use crate::heuristic::HeuristicKind;
    use crate::search::{Algorithm, Limits, Tables, solve};

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
    fn numbers_are_written_as_the_formatter_writes_them() {
        let mut rng = crate::board::SplitMix64::new(5);
        for k in (0..20_000u32).chain([999_999, 1_000_000, 123_456_789]) {
            // Search times are whole microseconds.
            let ms = f64::from(k) / 1e3;
            let b = 1.0 + (rng.next_u64() % 1_000_000) as f64 / 333_333.7;
            let (mut ours, mut theirs) = (String::new(), String::new());
            push_fixed(&mut ours, ms, 3);
            push_fixed(&mut ours, b, 4);
            push_whole(&mut ours, u64::from(k) * 7919);
            write!(theirs, "{ms:.3}{b:.4}{}", u64::from(k) * 7919).unwrap();
            assert_eq!(ours, theirs);
        }
        let mut edge = String::new();
        push_whole(&mut edge, u64::MAX);
        push_fixed(&mut edge, f64::NAN, 2);
        assert_eq!(edge, format!("{}{:.2}", u64::MAX, f64::NAN));
    }

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
    }

    #[test]
    fn a_sample_gives_its_total_mean_and_median() {
        let mut sample = Sample::default();
        assert_eq!((sample.mean(), sample.median()), (None, None));
        for value in [1.0, 2.0, 9.0] {
            sample.push(value);
        }
        assert_eq!((sample.total(), sample.mean(), sample.median()), (12.0, Some(4.0), Some(2.0)));
    }

    #[test]
    fn summary_counts_statuses_and_leaves_errors_out_of_the_times() {
        let mut summary = Summary::default();
        for row in sample_rows() {
            summary.add(&row);
        }
        assert_eq!((summary.solved, summary.error, summary.rows()), (1, 1, 2));
        assert_eq!(summary.nodes_expanded, 3);
        assert_eq!(summary.runtime_ms.len(), 1);
        assert_eq!(summary.expanded.median(), Some(3.0));
        assert_eq!((summary.generated.mean(), summary.branching_factor.len()), (Some(8.0), 1));
    }

    #[test]
    fn summary_counts_costs_that_match_differ_from_or_cannot_meet_the_expected_length() {
        let rows = sample_rows();
        let with = |row: &Record, expected| Record { expected, ..row.clone() };
        let mut summary = Summary::default();
        for row in
            [with(&rows[0], Some(3)), with(&rows[0], Some(5)), with(&rows[0], None), with(&rows[1], Some(3))]
        {
            summary.add(&row);
        }
        assert_eq!((summary.matched, summary.mismatched, summary.unchecked), (1, 1, 1));
        assert_eq!(Column::Matches.cell(&with(&rows[0], Some(5)), false), "false");
        assert_eq!(Column::Matches.cell(&with(&rows[0], Some(3)), true), "yes");
        assert_eq!(Column::Matches.cell(&with(&rows[1], Some(3)), false), "", "no cost: nothing to compare");
        assert_eq!(Column::Expected.cell(&rows[0], true), "-");
    }

    #[test]
    fn cells_show_missing_values_as_dashes_for_people_and_empty_for_machines() {
        let rows = sample_rows();
        assert_eq!(Column::Size.cell(&rows[0], true), "3x3");
        assert_eq!(Column::Size.cell(&rows[0], false), "3");
        assert_eq!(Column::Cost.cell(&rows[1], true), "-");
        assert_eq!(Column::Cost.cell(&rows[1], false), "");
        assert_eq!(Column::Size.cell(&rows[1], false), "");
        // 8 nodes generated at depth 3: 1 + b + b² + b³ = 9.
        assert_eq!(Column::BranchingFactor.cell(&rows[0], false), "1.5782");
    }
}
