/*!
JSON: one object per solve, keys in a fixed order, one line. Many solves
are JSON Lines: one such object per line, nothing else.
*/

use super::{Column, Layout, Record, Reporter, Summary};
use serde::Serialize;
use std::io::{self, Write};

/// Writes `record` as one JSON object followed by a newline.
///
/// # Errors
/// Any error from `out`.
pub fn write_json(out: &mut impl Write, record: &Record) -> io::Result<()> {
    serde_json::to_writer(&mut *out, record).map_err(io::Error::from)?;
    out.write_all(b"\n")
}

/// The JSON Lines exporter: each row is the record `solve --format json`
/// writes, plus `file` where set, and `expected` and `matches`, `error`
/// (`null` unless the row is an error) and `branching_factor` on every row
/// when the layout lists those columns, so all lines of a run have the
/// same keys.
#[derive(Debug)]
pub struct JsonLines<W: Write> {
    out: W,
    /// The layout's columns, which decide the keys beyond the record's own.
    columns: Vec<Column>,
}

/// A record with the layout's extra keys alongside its own: an outer `None`
/// leaves the key out, an inner one writes `null`.
#[derive(Serialize)]
#[expect(clippy::option_option, reason = "a missing key and a null value are both meant")]
struct Line<'a> {
    #[serde(flatten)]
    record: &'a Record,
    #[serde(skip_serializing_if = "Option::is_none")]
    expected: Option<Option<u32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    matches: Option<Option<bool>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<Option<&'a str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    branching_factor: Option<Option<f64>>,
}

impl<W: Write> JsonLines<W> {
    /// JSON Lines written to `out`.
    pub fn new(out: W) -> JsonLines<W> {
        JsonLines { out, columns: Vec::new() }
    }

    /// The writer, back.
    pub fn into_inner(self) -> W {
        self.out
    }
}

impl<W: Write> Reporter for JsonLines<W> {
    fn begin(&mut self, layout: &Layout<'_>) -> io::Result<()> {
        self.columns = layout.columns.to_vec();
        Ok(())
    }

    fn row(&mut self, record: &Record) -> io::Result<()> {
        let has = |column| self.columns.contains(&column);
        let row = Line {
            record,
            expected: has(Column::Expected).then_some(record.expected),
            matches: has(Column::Matches).then(|| record.matches()),
            error: has(Column::Error).then_some(record.error.as_deref()),
            branching_factor: has(Column::BranchingFactor)
                .then(|| record.branching_factor.map(|b| (b * 1e4).round() / 1e4)),
        };
        serde_json::to_writer(&mut self.out, &row).map_err(io::Error::from)?;
        self.out.write_all(b"\n")
    }

    fn finish(&mut self, _: Option<&Summary>) -> io::Result<()> {
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::record::tests::sample_rows;

    fn lines(columns: &[Column]) -> Vec<serde_json::Value> {
        let mut json = JsonLines::new(Vec::new());
        json.begin(&Layout { columns, file_width: 0 }).unwrap();
        for row in sample_rows() {
            json.row(&row).unwrap();
        }
        let text = String::from_utf8(json.into_inner()).unwrap();
        text.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
    }

    #[test]
    fn each_line_is_a_record_with_its_file_and_errors_only_where_set() {
        let rows = lines(Column::BATCH);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0]["file"], "a, \"quoted\" name.txt");
        assert_eq!(rows[0]["cost"], 3);
        assert_eq!(rows[0]["error"], serde_json::Value::Null, "every batch line has the key");
        assert_eq!(rows[0]["branching_factor"], 1.5782);
        assert_eq!(rows[1]["branching_factor"], serde_json::Value::Null);
        assert!(lines(&[Column::File]).iter().all(|row| row.get("branching_factor").is_none()));
        assert_eq!(rows[1]["status"], "error");
        assert_eq!(rows[1]["size"], serde_json::Value::Null);
        assert_eq!(rows[1]["start"], serde_json::Value::Null);
        assert!(rows[1]["error"].as_str().unwrap().contains("line 2"));
    }

    #[test]
    fn compare_rows_carry_the_branching_factor_to_four_decimals() {
        let rows = lines(Column::COMPARE);
        // 8 nodes generated at depth 3: 1 + b + b² + b³ = 9.
        assert_eq!(rows[0]["nodes_generated"], 8);
        assert_eq!(rows[0]["branching_factor"], 1.5782);
        assert_eq!(rows[1]["branching_factor"], serde_json::Value::Null);
    }
    use crate::board::{Goal, GoalSpec, Tiles};
    use crate::heuristic::HeuristicKind;
    use crate::search::{Algorithm, Limits, Tables, solve};

    #[test]
    fn moves_are_names_and_an_unused_heuristic_is_null() {
        let start = Tiles::new(&[1, 2, 5, 3, 4, 0, 6, 7, 8]).unwrap();
        let goal = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
        let outcome =
            solve(&start, &goal, Algorithm::Bfs, HeuristicKind::Manhattan, &Limits::default(), &Tables::NONE)
                .unwrap();
        let mut out = Vec::new();
        let record = Record::new(Algorithm::Bfs, HeuristicKind::Manhattan, &start, &goal, outcome);
        write_json(&mut out, &record).unwrap();
        assert_eq!(String::from_utf8(out.clone()).unwrap().lines().count(), 1, "one line");
        let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(value["heuristic"], serde_json::Value::Null);
        assert_eq!(value["path"], serde_json::json!(["Up", "Left", "Left"]));
    }
}
