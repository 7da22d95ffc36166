/*!
Reporting: an outcome flattened into a plain [`Record`], rendered by one
small writer per format. Nothing here searches, and no search prints.

`solve` writes one record with [`write_text`] or [`write_json`]. The
scripting commands stream many through a [`Reporter`]: one exporter per
format ([`Table`], [`Csv`], [`JsonLines`]), each generic over its writer.
*/

mod branching;
mod columns;
mod csv;
mod format;
mod json;
mod record;
mod summary;
mod table;
mod text;
mod written;

pub use branching::effective_branching_factor;
pub use columns::Column;
pub use csv::Csv;
pub use format::{RowFormat, reporter};
pub use json::{JsonLines, write_json};
pub use record::{ImprovementRecord, Record, RowStatus};
pub use summary::{Sample, Summary};
pub use table::Table;
pub use text::write_text;
pub use written::{Read, RowReader, WrittenError, WrittenRow, split_csv};

use std::io;

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

/// What the rows will look like, known before the first one.
#[derive(Clone, Copy, Debug)]
pub struct Layout<'a> {
    /// The columns, in order. JSON Lines always carries every key of a
    /// record, plus `branching_factor` when that column is listed.
    pub columns: &'a [Column],
    /// The longest file name to come, so the table can align the column.
    pub file_width: usize,
}
