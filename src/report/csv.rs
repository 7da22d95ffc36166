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
}

impl<W: Write> Csv<W> {
    /// CSV written to `out`.
    pub fn new(out: W) -> Csv<W> {
        Csv { out, columns: Vec::new() }
    }

    /// The writer, back.
    pub fn into_inner(self) -> W {
        self.out
    }

    fn line<'a>(&mut self, fields: impl Iterator<Item = Cow<'a, str>>) -> io::Result<()> {
        let mut line = String::new();
        for (i, field) in fields.enumerate() {
            if i > 0 {
                line.push(',');
            }
            line.push_str(&quote(&field));
        }
        line.push('\n');
        self.out.write_all(line.as_bytes())
    }
}

/// `field` as a CSV field, quoted only where it must be.
pub fn quote(field: &str) -> Cow<'_, str> {
    let needs = field.contains([',', '"', '\n', '\r']) || field.starts_with(' ') || field.ends_with(' ');
    if needs { Cow::Owned(format!("\"{}\"", field.replace('"', "\"\""))) } else { Cow::Borrowed(field) }
}

impl<W: Write> Reporter for Csv<W> {
    fn begin(&mut self, layout: &Layout<'_>) -> io::Result<()> {
        self.columns = layout.columns.to_vec();
        let keys: Vec<&str> = self.columns.iter().map(|c| c.key()).collect();
        self.line(keys.into_iter().map(Cow::Borrowed))
    }

    fn row(&mut self, record: &Record) -> io::Result<()> {
        let cells: Vec<String> = self.columns.iter().map(|c| c.cell(record, false)).collect();
        self.line(cells.into_iter().map(Cow::Owned))
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
    use crate::report::rows::tests::sample_rows;

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
            "file,size,algorithm,heuristic,status,cost,depth,nodes_expanded,\
             nodes_generated,max_frontier,max_depth,runtime_ms,error"
        );
        assert!(lines[1].starts_with("\"a, \"\"quoted\"\" name.txt\",3,astar,manhattan,solved,3,3,3,"));
        assert!(lines[1].ends_with(','), "no error: the last field is empty");
        assert_eq!(
            lines[2],
            "bad.txt,,astar,manhattan,error,,,0,0,0,0,0.000,line 2: 'x' is not a non-negative integer"
        );
        assert_eq!(lines.len(), 3);
    }
}
