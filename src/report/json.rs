/*!
JSON: one object per solve, keys in a fixed order, one line.
*/

use super::Record;
use std::io::{self, Write};

/// Writes `record` as one JSON object followed by a newline.
///
/// # Errors
/// Any error from `out`.
pub fn write_json(out: &mut impl Write, record: &Record) -> io::Result<()> {
    serde_json::to_writer(&mut *out, record).map_err(io::Error::from)?;
    out.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Goal, GoalSpec, Tiles};
    use crate::heuristic::HeuristicKind;
    use crate::search::{Algorithm, Limits, solve};

    #[test]
    fn moves_are_names_and_an_unused_heuristic_is_null() {
        let start = Tiles::new(&[1, 2, 5, 3, 4, 0, 6, 7, 8]).unwrap();
        let goal = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
        let outcome = solve(&start, &goal, Algorithm::Bfs, HeuristicKind::Manhattan, &Limits::default());
        let mut out = Vec::new();
        let record = Record::new(Algorithm::Bfs, HeuristicKind::Manhattan, &start, &goal, &outcome);
        write_json(&mut out, &record).unwrap();
        assert_eq!(String::from_utf8(out.clone()).unwrap().lines().count(), 1, "one line");
        let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(value["heuristic"], serde_json::Value::Null);
        assert_eq!(value["path"], serde_json::json!(["Up", "Left", "Left"]));
    }
}
