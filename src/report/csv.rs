/*!
CSV (RFC 4180): a header row of keys, then one line per record. Fields
holding a comma, a quote, a line break or edge spaces are quoted, with
quotes doubled. Missing values are empty fields.
*/

use super::{Column, Layout, Record, Reporter, Summary};
use std::borrow::Cow;
use std::io::{self, Write};

/// The CSV exporter.
#[derive(Debug)]
pub struct Csv<W: Write> {
    out: W,
    columns: Vec<Column>,
    /// Whether [`Reporter::begin`] writes the header.
    header: bool,
    /// The line being built and one cell of it, reused from row to row.
    line: String,
    cell: String,
}

impl<W: Write> Csv<W> {
    /// CSV written to `out`.
    pub fn new(out: W) -> Csv<W> {
        Csv { out, columns: Vec::new(), header: true, line: String::new(), cell: String::new() }
    }

    /// CSV rows appended to `out`, which holds the header already (a
    /// resumed run's output).
    pub fn appending(out: W) -> Csv<W> {
        Csv { header: false, ..Csv::new(out) }
    }

    /// The writer, back.
    pub fn into_inner(self) -> W {
        self.out
    }

    /// Writes the line built in `self.line`.
    fn end_line(&mut self) -> io::Result<()> {
        self.line.push('\n');
        self.out.write_all(self.line.as_bytes())
    }

    fn push_field(&mut self, first: bool, field: &str) {
        if !first {
            self.line.push(',');
        }
        self.line.push_str(&quote(field));
    }
}

/// `field` as a CSV field, quoted only where it must be. A field that a
/// spreadsheet would run as a formula (one that begins with `=`, `+`, `-`,
/// `@`, a tab or a carriage return, such as a file named
/// `=HYPERLINK(…).txt`) is quoted with a `'` before it, as exporters for
/// spreadsheets do, which spreadsheets show as text; so is one that begins
/// with `'` itself, so that reading the guard off gives back every field
/// as it was ([`split_csv`](super::split_csv)). No figure of a row begins
/// so.
pub fn quote(field: &str) -> Cow<'_, str> {
    let guard = field.starts_with(GUARDED);
    let needs =
        guard || field.contains([',', '"', '\n', '\r']) || field.starts_with(' ') || field.ends_with(' ');
    if !needs {
        return Cow::Borrowed(field);
    }
    Cow::Owned(format!("\"{}{}\"", if guard { "'" } else { "" }, field.replace('"', "\"\"")))
}

/// The first characters that make a field [`quote`] guards: those a
/// spreadsheet would run as a formula, and the guard itself.
pub(super) const GUARDED: [char; 7] = ['=', '+', '-', '@', '\t', '\r', '\''];

impl<W: Write> Reporter for Csv<W> {
    fn begin(&mut self, layout: &Layout<'_>) -> io::Result<()> {
        self.columns = layout.columns.to_vec();
        self.line.clear();
        if !self.header {
            return Ok(());
        }
        for (i, column) in layout.columns.iter().enumerate() {
            self.push_field(i == 0, column.key());
        }
        self.end_line()
    }

    fn row(&mut self, record: &Record) -> io::Result<()> {
        self.line.clear();
        for i in 0..self.columns.len() {
            let mut cell = std::mem::take(&mut self.cell);
            cell.clear();
            self.columns[i].write_cell(record, false, &mut cell);
            self.push_field(i == 0, &cell);
            self.cell = cell;
        }
        self.end_line()
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

    #[test]
    fn quotes_only_fields_that_need_it() {
        assert_eq!(quote("plain"), "plain");
        assert_eq!(quote(""), "");
        assert_eq!(quote("a,b"), "\"a,b\"");
        assert_eq!(quote("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(quote("two\nlines"), "\"two\nlines\"");
        assert_eq!(quote(" padded"), "\" padded\"");
    }

    #[test]
    fn fields_a_spreadsheet_would_run_as_formulas_are_quoted_as_text() {
        assert_eq!(quote("=HYPERLINK(1).txt"), "\"'=HYPERLINK(1).txt\"");
        for start in ["+", "-", "@", "\t", "'"] {
            assert_eq!(quote(&format!("{start}x.txt")), format!("\"'{start}x.txt\""));
        }
        assert_eq!(quote("=a,b"), "\"'=a,b\"");
        assert_eq!(quote("=say \"hi\""), "\"'=say \"\"hi\"\"\"");
        assert_eq!(quote("\r=x"), "\"'\r=x\"");
        assert_eq!(quote("a=b"), "a=b", "only the first character counts");
    }

    #[test]
    fn every_field_reads_back_as_it_was_guards_and_all() {
        let fields =
            ["=HYPERLINK(1).txt", "'=x.txt", "''", "'", "'plain", "-1", "@a,b", "+\"q\"", "\t", "a'b", ""];
        let line: Vec<String> = fields.iter().map(|f| quote(f).into_owned()).collect();
        assert_eq!(crate::report::split_csv(&line.join(",")), fields);
        // Rows written before guarded fields were quoted read as they did.
        assert_eq!(crate::report::split_csv("'=x.txt,'-y,'plain"), ["=x.txt", "-y", "'plain"]);
    }

    #[test]
    fn header_then_one_line_per_record_with_empty_missing_values() {
        let mut csv = Csv::new(Vec::new());
        csv.begin(&Layout { columns: Column::BATCH, file_width: 0 }).unwrap();
        for row in sample_rows() {
            csv.row(&row).unwrap();
        }
        csv.finish(None).unwrap();
        let text = String::from_utf8(csv.into_inner()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "file,size,width,height,algorithm,heuristic,weight,status,cost,depth,lower_bound,proven_optimal,\
             expected,matches,nodes_expanded,nodes_generated,max_frontier,max_depth,runtime_ms,branching_factor,error"
        );
        assert!(
            lines[1]
                .starts_with("\"a, \"\"quoted\"\" name.txt\",3,3,3,astar,manhattan,1,solved,3,3,3,true,,,3,"),
            "{}",
            lines[1]
        );
        // 8 nodes generated at depth 3; no error, so the last field is empty.
        assert!(lines[1].ends_with(",1.5782,"), "{}", lines[1]);
        assert_eq!(
            lines[2],
            "bad.txt,,,,astar,manhattan,1,error,,,,,,,0,0,0,0,0.000,,line 2: 'x' is not a non-negative integer"
        );
        assert_eq!(lines.len(), 3);
    }
}
