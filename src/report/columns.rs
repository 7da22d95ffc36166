/*!
The columns a row can show, and how each cell is written: for people
(dashes for missing values, `WxH` sizes) or for machines (empty fields,
plain numbers). Numbers are written by hand, without the formatting
machinery, because a batch writes a dozen per row.
*/

use super::Record;
use std::fmt::Write as _;

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
    /// The fewest moves any solution can have, as the run proved.
    LowerBound,
    /// Whether the cost is proven shortest (it equals the lower bound).
    ProvenOptimal,
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
    /// The start board, its tiles row-major separated by spaces.
    Start,
    /// The path as one word of move letters (`ULLD…`).
    Path,
    /// The goal board, its tiles row-major separated by spaces.
    Goal,
    /// The run's flags that shape answers besides the algorithm,
    /// heuristic, weight and goal.
    Flags,
}

/// [`Column::BATCH`], as an array that [`Column::BATCH_CSV`] extends.
const BATCH_COLUMNS: [Column; 21] = [
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
    Column::LowerBound,
    Column::ProvenOptimal,
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

impl Column {
    /// The columns of `batch`.
    pub const BATCH: &'static [Column] = &BATCH_COLUMNS;

    /// The columns of `batch` in CSV: [`Column::BATCH`], then the start
    /// board and the path, so that a row says which puzzle it answers
    /// (and a resumed run can check it) and carries its answer, then the
    /// goal and the flags, so that it says what the answer rests on, as a
    /// JSON line does.
    pub const BATCH_CSV: &'static [Column] = &{
        let mut all = [Column::Start; BATCH_COLUMNS.len() + 4];
        let mut i = 0;
        while i < BATCH_COLUMNS.len() {
            all[i] = BATCH_COLUMNS[i];
            i += 1;
        }
        all[BATCH_COLUMNS.len() + 1] = Column::Path;
        all[BATCH_COLUMNS.len() + 2] = Column::Goal;
        all[BATCH_COLUMNS.len() + 3] = Column::Flags;
        all
    };

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
        Column::LowerBound,
        Column::ProvenOptimal,
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
            Column::LowerBound => "lower_bound",
            Column::ProvenOptimal => "proven_optimal",
            Column::Expected => "expected",
            Column::Matches => "matches",
            Column::NodesExpanded => "nodes_expanded",
            Column::NodesGenerated => "nodes_generated",
            Column::MaxFrontier => "max_frontier",
            Column::MaxDepth => "max_depth",
            Column::RuntimeMs => "runtime_ms",
            Column::BranchingFactor => "branching_factor",
            Column::Error => "error",
            Column::Start => "start",
            Column::Path => "path",
            Column::Goal => "goal",
            Column::Flags => "flags",
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
            Column::LowerBound => "bound",
            Column::ProvenOptimal => "optimal",
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
                | Column::ProvenOptimal
                | Column::Error
                | Column::Start
                | Column::Path
                | Column::Goal
                | Column::Flags
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
            Column::LowerBound => optional(out, record.lower_bound.map(u64::from)),
            Column::ProvenOptimal => out.push_str(match (record.proven_optimal, human) {
                (Some(true), true) => "yes",
                (Some(false), true) => "no",
                (Some(true), false) => "true",
                (Some(false), false) => "false",
                (None, _) => missing,
            }),
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
            Column::Start => push_tiles(out, &record.start),
            Column::Goal => push_tiles(out, &record.goal),
            Column::Path => out.extend(record.path.iter().flatten().map(|mv| mv.letter())),
            Column::Flags => out.push_str(record.flags.as_deref().unwrap_or("")),
        }
    }
}

/// A board's tiles, row-major, separated by spaces.
fn push_tiles(out: &mut String, tiles: &[u16]) {
    for (i, &tile) in tiles.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        push_whole(out, u64::from(tile));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::record::tests::sample_rows;

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
