/*!
The row formats and the one factory that picks an exporter for each.
*/

use super::{Csv, JsonLines, Reporter, Table};
use std::io::Write;

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

/// The exporter for `format`, writing to `out`.
pub fn reporter<'w, W: Write + Send + 'w>(format: RowFormat, out: W) -> Box<dyn Reporter + Send + 'w> {
    match format {
        RowFormat::Table => Box::new(Table::new(out)),
        RowFormat::Csv => Box::new(Csv::new(out)),
        RowFormat::Json => Box::new(JsonLines::new(out)),
    }
}
