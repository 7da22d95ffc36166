/*!
Rows read back: the CSV and JSON Lines that `batch` writes, one row at a
time, for resuming a run that was stopped and for merging the outputs of
shards. A row keeps its exact text, so what is read back is written out
byte for byte; what resuming and merging look at (the puzzle's name and
board, the verdict and the figures a summary counts) is parsed out of it.
A last row without its line break, or one that does not parse, is torn: a
run killed while writing it left it so.
*/

use super::csv::GUARDED;
use super::{Column, RowFormat, RowStatus};
use serde_json::Value;
use std::io::{self, BufRead};
use thiserror::Error;

/// One row as it was written.
#[derive(Clone, Debug, PartialEq)]
pub struct WrittenRow {
    /// The row's text, without its line break.
    pub text: String,
    /// The puzzle's name (the `file` column).
    pub name: String,
    /// The start board, when the row has one.
    pub start: Option<Vec<u16>>,
    /// The verdict.
    pub status: RowStatus,
    /// Moves in the path, when solved.
    pub cost: Option<u64>,
    /// The lower bound the run proved.
    pub lower_bound: Option<u32>,
    /// The optimal length the puzzle states.
    pub expected: Option<u32>,
    /// Nodes expanded.
    pub nodes_expanded: u64,
    /// Nodes generated.
    pub nodes_generated: u64,
    /// Search time in milliseconds.
    pub runtime_ms: f64,
    /// b*, where the row has it.
    pub branching_factor: Option<f64>,
    /// The board's width and height, when the row read a board.
    pub shape: Option<(usize, usize)>,
    /// The algorithm's name.
    pub algorithm: String,
    /// The weight, as a row writes it (`1.5`), where the algorithm has one.
    pub weight: Option<String>,
    /// The heuristic's name, where the algorithm uses one.
    pub heuristic: Option<String>,
    /// The goal, when the row read a board.
    pub goal: Option<Vec<u16>>,
    /// The run's flags that shape answers (see
    /// [`answer_flags`](crate::batch::answer_flags)).
    pub flags: String,
    /// The row without its times, to tell whether two rows agree.
    pub timeless: String,
}

/// Why rows could not be read back.
#[derive(Debug, Error)]
pub enum WrittenError {
    /// Reading failed.
    #[error("{}", crate::board::io_message(.0))]
    Io(#[from] io::Error),
    /// A CSV whose header is not the columns expected (another command's
    /// output, or another format).
    #[error("its header is not batch's CSV header")]
    Header,
    /// Rows written before rows recorded their goal and flags: what their
    /// answers rest on cannot be told.
    #[error("its rows do not say which goal and flags they were solved with (an earlier npuzzle wrote them)")]
    Unrecorded,
    /// A row that does not parse, with its 1-based number.
    #[error("row {row} is not a row of batch: {why}")]
    Row {
        /// The row's number (the header not counted).
        row: usize,
        /// What is wrong with it.
        why: String,
    },
}

/// What [`RowReader::next_row`] found.
#[derive(Debug)]
pub enum Read {
    /// A complete row.
    Row(Box<WrittenRow>),
    /// A last row cut short (no line break at its end): it and whatever
    /// follows it are dropped.
    Torn,
    /// The end of the rows.
    End,
}

/// Reads the rows of one output, in order, counting the bytes of the
/// complete ones (where an appended run must start).
#[derive(Debug)]
pub struct RowReader<R> {
    reader: R,
    format: RowFormat,
    /// CSV: the position of each column of interest.
    columns: Vec<Column>,
    /// Bytes of the header and the complete rows read so far.
    complete: u64,
    rows: usize,
    record: Vec<u8>,
    /// Whether the header itself was cut short.
    torn: bool,
}

impl<R: BufRead> RowReader<R> {
    /// A reader of `format` rows; a CSV's header must be `columns` (what a
    /// batch writes), an empty input having none yet.
    ///
    /// # Errors
    /// [`WrittenError::Header`] for a CSV with another header.
    pub fn new(reader: R, format: RowFormat, columns: &[Column]) -> Result<RowReader<R>, WrittenError> {
        let header: Vec<&str> = columns.iter().map(|c| c.key()).collect();
        let columns = columns.to_vec();
        let mut rows =
            RowReader { reader, format, columns, complete: 0, rows: 0, record: Vec::new(), torn: false };
        if format == RowFormat::Csv {
            match rows.read_record()? {
                None => {}
                // A header cut short: nothing was written after it, and a
                // resumed run writes it again.
                Some(false) => rows.torn = true,
                Some(true) => {
                    let text = String::from_utf8_lossy(&rows.record);
                    let found = split_csv(trim_break(&text));
                    if found != header {
                        let recorded = |key: &&str| !["goal", "flags"].contains(key);
                        let earlier: Vec<&str> = header.iter().copied().filter(recorded).collect();
                        return Err(if found == earlier {
                            WrittenError::Unrecorded
                        } else {
                            WrittenError::Header
                        });
                    }
                    rows.complete = rows.record.len() as u64;
                }
            }
        }
        Ok(rows)
    }

    /// Bytes of the header and the complete rows read so far: a resumed run
    /// cuts what follows (a torn row) and appends there.
    pub fn complete_bytes(&self) -> u64 {
        self.complete
    }

    /// The next row.
    ///
    /// # Errors
    /// [`WrittenError::Row`] for a complete row that does not parse (a
    /// torn one is [`Read::Torn`]), [`WrittenError::Io`] when reading fails.
    pub fn next_row(&mut self) -> Result<Read, WrittenError> {
        if self.torn {
            return Ok(Read::Torn);
        }
        match self.read_record()? {
            None => return Ok(Read::End),
            Some(false) => return Ok(Read::Torn),
            Some(true) => {}
        }
        self.rows += 1;
        let text = String::from_utf8(self.record.clone())
            .map_err(|_| WrittenError::Row { row: self.rows, why: "not UTF-8".to_owned() })?;
        let text = trim_break(&text).to_owned();
        let row = match self.format {
            RowFormat::Json => json_row(text),
            _ => csv_row(text, &self.columns),
        };
        let row = row.map_err(|why| WrittenError::Row { row: self.rows, why })?;
        let Some(row) = row else { return Err(WrittenError::Unrecorded) };
        self.complete += self.record.len() as u64;
        Ok(Read::Row(Box::new(row)))
    }

    /// Reads one record (a CSV record may hold line breaks inside quotes)
    /// into `self.record`: `None` at the end, `Some(false)` when it has no
    /// line break at its end.
    fn read_record(&mut self) -> io::Result<Option<bool>> {
        self.record.clear();
        let mut quoted = false;
        loop {
            let start = self.record.len();
            if self.reader.read_until(b'\n', &mut self.record)? == 0 {
                return Ok(if self.record.is_empty() { None } else { Some(false) });
            }
            if self.format == RowFormat::Csv {
                // An odd count of quotes opens or closes a quoted field.
                for &byte in &self.record[start..] {
                    quoted ^= byte == b'"';
                }
            }
            if self.record.last() != Some(&b'\n') {
                return Ok(Some(false));
            }
            if !quoted {
                return Ok(Some(true));
            }
        }
    }
}

fn trim_break(text: &str) -> &str {
    let text = text.strip_suffix('\n').unwrap_or(text);
    text.strip_suffix('\r').unwrap_or(text)
}

/// The fields of one CSV record, unquoted, and the spreadsheet guard's `'`
/// taken off (see [`Csv`](super::Csv)).
pub fn split_csv(record: &str) -> Vec<String> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let (mut quoted, mut was_quoted) = (false, false);
    let mut chars = record.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            '"' if quoted => quoted = false,
            '"' if field.is_empty() => (quoted, was_quoted) = (true, true),
            ',' if !quoted => {
                fields.push(unguard(std::mem::take(&mut field), was_quoted));
                was_quoted = false;
            }
            c => field.push(c),
        }
    }
    fields.push(unguard(field, was_quoted));
    fields
}

/// A field without the `'` that keeps a spreadsheet from running it: a
/// quoted field's before any guarded character, `'` included; an unquoted
/// field's (as rows were written before guarded fields were quoted) before
/// a formula's first character only.
fn unguard(field: String, quoted: bool) -> String {
    let guarded =
        |rest: &str| if quoted { rest.starts_with(GUARDED) } else { rest.starts_with(&GUARDED[..6]) };
    match field.strip_prefix('\'') {
        Some(rest) if guarded(rest) => rest.to_owned(),
        _ => field,
    }
}

/// Tiles written as a row writes them: numbers separated by spaces.
fn tiles(text: &str, what: &str) -> Result<Option<Vec<u16>>, String> {
    if text.is_empty() {
        return Ok(None);
    }
    text.split(' ')
        .map(str::parse)
        .collect::<Result<Vec<u16>, _>>()
        .map(Some)
        .map_err(|_| format!("a bad {what} board"))
}

/// A CSV row; `None` for a row of an earlier npuzzle (no flags).
fn csv_row(text: String, columns: &[Column]) -> Result<Option<WrittenRow>, String> {
    let fields = split_csv(&text);
    if fields.len() != columns.len() {
        return Err(format!("{} fields where the header has {}", fields.len(), columns.len()));
    }
    let get = |column: Column| columns.iter().position(|&c| c == column).map(|i| fields[i].as_str());
    let number = |column: Column| -> Result<Option<f64>, String> {
        match get(column) {
            None | Some("") => Ok(None),
            Some(text) => text.parse().map(Some).map_err(|_| format!("'{text}' is no number")),
        }
    };
    let start = tiles(get(Column::Start).unwrap_or(""), "start")?;
    let Some(flags) = get(Column::Flags) else { return Ok(None) };
    let text_of = |column| get(column).filter(|t| !t.is_empty()).map(str::to_owned);
    let timeless = fields
        .iter()
        .zip(columns)
        .filter(|(_, c)| **c != Column::RuntimeMs)
        .map(|(f, _)| f.as_str())
        .collect::<Vec<_>>()
        .join(",");
    let whole = |column| number(column).map(|n| n.map(|n| n as usize));
    Ok(Some(WrittenRow {
        name: get(Column::File).unwrap_or("").to_owned(),
        start,
        shape: whole(Column::Width)?.zip(whole(Column::Height)?),
        algorithm: get(Column::Algorithm).unwrap_or("").to_owned(),
        weight: text_of(Column::Weight),
        heuristic: text_of(Column::Heuristic),
        goal: tiles(get(Column::Goal).unwrap_or(""), "goal")?,
        flags: flags.to_owned(),
        status: status(get(Column::Status).unwrap_or(""))?,
        cost: number(Column::Cost)?.map(|c| c as u64),
        lower_bound: number(Column::LowerBound)?.map(|b| b as u32),
        expected: number(Column::Expected)?.map(|e| e as u32),
        nodes_expanded: number(Column::NodesExpanded)?.unwrap_or(0.0) as u64,
        nodes_generated: number(Column::NodesGenerated)?.unwrap_or(0.0) as u64,
        runtime_ms: number(Column::RuntimeMs)?.unwrap_or(0.0),
        branching_factor: number(Column::BranchingFactor)?,
        timeless,
        text,
    }))
}

/// A JSON line; `None` for a row of an earlier npuzzle (no `flags`).
fn json_row(text: String) -> Result<Option<WrittenRow>, String> {
    let mut value: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let object = value.as_object_mut().ok_or("not a JSON object")?;
    let number = |key: &str| object.get(key).and_then(Value::as_f64);
    let tiles = |key: &str| match object.get(key) {
        Some(Value::Array(tiles)) => tiles
            .iter()
            .map(|t| t.as_u64().and_then(|t| u16::try_from(t).ok()))
            .collect::<Option<Vec<u16>>>()
            .map(Some)
            .ok_or(format!("a bad {key} board")),
        _ => Ok(None),
    };
    let text_of = |key: &str| object.get(key).and_then(Value::as_str).map(str::to_owned);
    let whole = |key: &str| object.get(key).and_then(Value::as_u64).map(|n| n as usize);
    let Some(flags) = text_of("flags") else { return Ok(None) };
    let row = WrittenRow {
        name: text_of("file").unwrap_or_default(),
        start: tiles("start")?,
        shape: whole("width").zip(whole("height")),
        algorithm: text_of("algorithm").unwrap_or_default(),
        // As a CSV row writes it: whole weights without a fraction.
        weight: object.get("weight").filter(|w| w.is_number()).map(Value::to_string),
        heuristic: text_of("heuristic"),
        goal: tiles("goal")?,
        flags,
        status: status(object.get("status").and_then(Value::as_str).unwrap_or(""))?,
        cost: object.get("cost").and_then(Value::as_u64),
        lower_bound: object.get("lower_bound").and_then(Value::as_u64).map(|b| b as u32),
        expected: object.get("expected").and_then(Value::as_u64).map(|e| e as u32),
        nodes_expanded: object.get("nodes_expanded").and_then(Value::as_u64).unwrap_or(0),
        nodes_generated: object.get("nodes_generated").and_then(Value::as_u64).unwrap_or(0),
        runtime_ms: number("runtime_ms").unwrap_or(0.0),
        branching_factor: number("branching_factor"),
        timeless: String::new(),
        text: String::new(),
    };
    object.remove("runtime_ms");
    Ok(Some(WrittenRow { timeless: value.to_string(), text, ..row }))
}

fn status(word: &str) -> Result<RowStatus, String> {
    [RowStatus::Solved, RowStatus::Unsolvable, RowStatus::Limit, RowStatus::Error]
        .into_iter()
        .find(|s| s.name() == word)
        .ok_or_else(|| format!("'{word}' is no status"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::record::tests::sample_rows;
    use crate::report::{Csv, JsonLines, Layout, Reporter};

    /// Rows as batch writes them, one named so a spreadsheet would run it
    /// and with a line break in its name.
    fn written(format: RowFormat) -> Vec<u8> {
        let layout = Layout { columns: Column::BATCH_CSV, file_width: 0 };
        let rows = sample_rows().into_iter().map(|mut row| {
            row.file = Some(format!("={}\n2", row.file.unwrap()));
            row.flags = Some("max-expanded=10".into());
            row
        });
        if format == RowFormat::Json {
            let mut json = JsonLines::new(Vec::new());
            json.begin(&layout).unwrap();
            rows.for_each(|row| json.row(&row).unwrap());
            json.into_inner()
        } else {
            let mut csv = Csv::new(Vec::new());
            csv.begin(&layout).unwrap();
            rows.for_each(|row| csv.row(&row).unwrap());
            csv.into_inner()
        }
    }

    #[test]
    fn rows_read_back_as_written_and_a_torn_last_row_is_told_apart() {
        for format in [RowFormat::Csv, RowFormat::Json] {
            let bytes = written(format);
            let mut reader = RowReader::new(&bytes[..], format, Column::BATCH_CSV).unwrap();
            let mut rows = Vec::new();
            while let Read::Row(row) = reader.next_row().unwrap() {
                rows.push(row);
            }
            assert_eq!(reader.complete_bytes(), bytes.len() as u64, "{format:?}");
            assert_eq!(rows.len(), 2);
            assert_eq!(rows[0].name, "=a, \"quoted\" name.txt\n2");
            assert_eq!(rows[0].flags, "max-expanded=10");
            assert_eq!(rows[0].start.as_deref(), Some(&[1, 2, 5, 3, 4, 0, 6, 7, 8][..]));
            assert_eq!((rows[0].status, rows[0].cost), (RowStatus::Solved, Some(3)));
            assert_eq!((rows[1].status, rows[1].start.as_ref()), (RowStatus::Error, None));
            let text: Vec<u8> = rows.iter().flat_map(|r| format!("{}\n", r.text).into_bytes()).collect();
            assert!(bytes.ends_with(&text), "{format:?}: rows keep their bytes");
            // Cut anywhere inside the last row: it is torn, the first stands.
            let first_end = bytes.len() - rows[1].text.len() - 1;
            for cut in first_end + 1..bytes.len() {
                let mut reader = RowReader::new(&bytes[..cut], format, Column::BATCH_CSV).unwrap();
                assert!(matches!(reader.next_row().unwrap(), Read::Row(_)));
                assert!(matches!(reader.next_row(), Ok(Read::Torn) | Err(WrittenError::Row { .. })), "{cut}");
                assert_eq!(reader.complete_bytes(), first_end as u64);
            }
        }
    }

    #[test]
    fn rows_that_do_not_record_their_flags_are_told_apart() {
        let line = &b"{\"file\":\"a.txt\",\"status\":\"solved\"}\n"[..];
        let mut reader = RowReader::new(line, RowFormat::Json, Column::BATCH).unwrap();
        assert!(matches!(reader.next_row(), Err(WrittenError::Unrecorded)));
    }

    #[test]
    fn a_header_cut_short_holds_no_rows() {
        let mut reader = RowReader::new(&b"file,size,wid"[..], RowFormat::Csv, Column::BATCH_CSV).unwrap();
        assert!(matches!(reader.next_row().unwrap(), Read::Torn));
        assert_eq!(reader.complete_bytes(), 0);
    }

    #[test]
    fn a_csv_with_another_header_is_refused() {
        let err =
            RowReader::new(&b"file,status\nx,solved\n"[..], RowFormat::Csv, Column::BATCH_CSV).unwrap_err();
        assert!(matches!(err, WrittenError::Header));
        assert!(
            RowReader::new(&b""[..], RowFormat::Csv, Column::BATCH_CSV).is_ok(),
            "an empty file has no rows yet"
        );
    }
}
