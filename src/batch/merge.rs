/*!
Merging the outputs of shards: the rows of `batch --shard K/M` runs, given in
any order, put back into the order one machine would have written them, and
checked: every puzzle once, no two rows for one puzzle that disagree, and
every row solved as the first was (one algorithm, weight, heuristic, goal
and flags), so that shards run otherwise are refused rather than mixed.

Each shard's output is in input order, so the merge streams: it holds one
row per output at a time, however many rows there are. With the list the
batch ran on, the list gives the order and says what is missing; without
it, rows are ordered by name (path component by component, then the line or
id number after `:` or `#`), which is the order of a batch over one folder
or one list.
*/

use super::Agreement;
use crate::board::{ListReader, Shape};
use crate::report::{Column, Read, RowFormat, RowReader, WrittenError, WrittenRow};
use std::cmp::Ordering;
use std::io::{self, BufRead, Write};
use thiserror::Error;

/// Names a report lists of each kind of problem; the rest are counted.
const SHOWN: usize = 10;

/// Why outputs could not be merged at all.
#[derive(Debug, Error)]
pub enum MergeError {
    /// An output that is not batch's CSV or JSON Lines, or another format
    /// than the first.
    #[error("{name}: {why}")]
    Input {
        /// The output, as named.
        name: String,
        /// What is wrong with it.
        why: String,
    },
    /// Writing the merged rows failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// Puzzles of one kind of problem: how many, and the first names.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Problems {
    /// How many puzzles.
    pub count: usize,
    /// The first ten of their names.
    pub names: Vec<String>,
}

impl Problems {
    fn add(&mut self, name: &str) {
        self.count += 1;
        if self.names.len() < SHOWN {
            self.names.push(name.to_owned());
        }
    }
}

/// What a merge found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Merged {
    /// Rows written.
    pub rows: usize,
    /// Puzzles of the list with no row.
    pub missing: Problems,
    /// Puzzles with more than one row, all alike but for their times.
    pub duplicated: Problems,
    /// Puzzles with rows that differ in more than their times, or whose
    /// row holds another board than the list.
    pub disagreeing: Problems,
    /// Rows of puzzles the list does not have, or out of order in their
    /// output.
    pub stray: Problems,
}

impl Merged {
    /// Whether every puzzle has exactly one row and nothing disagrees.
    pub fn clean(&self) -> bool {
        self.missing.count + self.duplicated.count + self.disagreeing.count + self.stray.count == 0
    }
}

/// One output being merged.
struct Source {
    name: String,
    reader: RowReader<Box<dyn BufRead>>,
    head: Option<WrittenRow>,
}

impl Source {
    /// Reads the next row, held to the rows read before it (`agreement`).
    fn advance(&mut self, agreement: &mut Agreement) -> Result<(), MergeError> {
        self.head = match self.reader.next_row() {
            Ok(Read::Row(row)) => {
                agreement.check(&row).map_err(|why| {
                    self.error(format!("{} was {why}: merge the shards of one run", row.name))
                })?;
                Some(*row)
            }
            Ok(Read::End) => None,
            Ok(Read::Torn) => {
                return Err(self.error("its last row is cut short: resume that shard first".to_owned()));
            }
            Err(e) => return Err(self.error(e.to_string())),
        };
        Ok(())
    }

    fn error(&self, why: String) -> MergeError {
        MergeError::Input { name: self.name.clone(), why }
    }
}

/// The format of an output, from its first byte: JSON Lines start with
/// `{`, CSV with its header.
pub fn format_of(first: &[u8]) -> RowFormat {
    if first.first() == Some(&b'{') { RowFormat::Json } else { RowFormat::Csv }
}

/// Merges `outputs` (each a name and its rows, all in one `format`) into
/// `out`: in the order of `list` (its name as the batch named it, its rows,
/// and the size of boards that do not give theirs) when given, else by
/// name. Every row must have been solved as the first was (see
/// [`Agreement`]); the first row of each output is checked before anything
/// is written.
///
/// # Errors
/// [`MergeError::Input`] for an output that cannot be read as rows, or
/// whose rows were solved otherwise than the first row; [`MergeError::Io`]
/// when writing fails.
pub fn merge(
    outputs: Vec<(String, Box<dyn BufRead>)>,
    format: RowFormat,
    list: Option<(String, Box<dyn BufRead>, Option<Shape>)>,
    out: &mut dyn Write,
) -> Result<Merged, MergeError> {
    let columns = if format == RowFormat::Csv { Column::BATCH_CSV } else { Column::BATCH };
    let mut sources = Vec::with_capacity(outputs.len());
    let mut agreement = Agreement::default();
    for (name, reader) in outputs {
        let reader = RowReader::new(reader, format, columns).map_err(|e| MergeError::Input {
            name: name.clone(),
            why: match e {
                WrittenError::Header => {
                    "not batch's CSV (its header differs), or not the format of the others".into()
                }
                other => other.to_string(),
            },
        })?;
        let mut source = Source { name, reader, head: None };
        source.advance(&mut agreement)?;
        sources.push(source);
    }
    if format == RowFormat::Csv {
        let header: Vec<&str> = columns.iter().map(|c| c.key()).collect();
        writeln!(out, "{}", header.join(","))?;
    }
    let mut merged = Merged::default();
    match list {
        Some((name, reader, size)) => {
            by_list(&mut sources, &name, reader, size, out, &mut merged, &mut agreement)?;
        }
        None => by_name(&mut sources, out, &mut merged, &mut agreement)?,
    }
    Ok(merged)
}

/// The rows of `sources` whose head is puzzle `name`, the first written and
/// the others compared with it; `None` when none has it.
fn take(
    sources: &mut [Source],
    name: &str,
    merged: &mut Merged,
    agreement: &mut Agreement,
) -> Result<Option<WrittenRow>, MergeError> {
    let mut first: Option<WrittenRow> = None;
    let mut agree = true;
    let mut more = false;
    for source in sources.iter_mut() {
        while source.head.as_ref().is_some_and(|row| row.name == name) {
            let row = source.head.take().expect("checked above");
            match &first {
                None => first = Some(row),
                Some(kept) => {
                    more = true;
                    agree &= kept.timeless == row.timeless;
                }
            }
            source.advance(agreement)?;
        }
    }
    if more {
        if agree { merged.duplicated.add(name) } else { merged.disagreeing.add(name) }
    }
    Ok(first)
}

fn write_row(out: &mut dyn Write, row: &WrittenRow, merged: &mut Merged) -> io::Result<()> {
    merged.rows += 1;
    out.write_all(row.text.as_bytes())?;
    out.write_all(b"\n")
}

fn by_list(
    sources: &mut [Source],
    list_name: &str,
    reader: Box<dyn BufRead>,
    size: Option<Shape>,
    out: &mut dyn Write,
    merged: &mut Merged,
    agreement: &mut Agreement,
) -> Result<(), MergeError> {
    for entry in ListReader::new(reader, size) {
        let entry =
            entry.map_err(|e| MergeError::Input { name: list_name.to_owned(), why: e.to_string() })?;
        let name = match &entry.id {
            Some(id) => format!("{list_name}#{id}"),
            None => format!("{list_name}:{}", entry.line),
        };
        match take(sources, &name, merged, agreement)? {
            None => merged.missing.add(&name),
            Some(row) => {
                let board = entry.board.as_ref().ok().map(|b| b.cells().to_vec());
                if row.start.is_some() && row.start != board {
                    merged.disagreeing.add(&name);
                }
                write_row(out, &row, merged)?;
            }
        }
    }
    // Whatever is left is no puzzle of the list (or came out of order).
    for source in sources.iter_mut() {
        while let Some(row) = source.head.take() {
            merged.stray.add(&row.name);
            source.advance(agreement)?;
        }
    }
    Ok(())
}

fn by_name(
    sources: &mut [Source],
    out: &mut dyn Write,
    merged: &mut Merged,
    agreement: &mut Agreement,
) -> Result<(), MergeError> {
    let mut last: Option<String> = None;
    loop {
        let Some(name) = sources
            .iter()
            .filter_map(|s| s.head.as_ref().map(|row| row.name.as_str()))
            .min_by(|a, b| name_order(a, b))
            .map(str::to_owned)
        else {
            return Ok(());
        };
        if last.as_deref().is_some_and(|last| name_order(last, &name) != Ordering::Less) {
            // A row that sorts before one already written: its output is
            // not in order, or it repeats a puzzle further on.
            merged.stray.add(&name);
        }
        let row = take(sources, &name, merged, agreement)?.expect("the smallest head is some source's");
        write_row(out, &row, merged)?;
        last = Some(name);
    }
}

/// The order of rows by name: path components compared one by one, then
/// the number after a final `:` or `#` (a line or an id) as a number.
pub fn name_order(a: &str, b: &str) -> Ordering {
    let (a_path, a_number) = split_number(a);
    let (b_path, b_number) = split_number(b);
    a_path.split('/').cmp(b_path.split('/')).then(a_number.cmp(&b_number))
}

fn split_number(name: &str) -> (&str, Option<u64>) {
    match name.rsplit_once([':', '#']) {
        Some((path, number)) if !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()) => {
            (path, number.parse().ok())
        }
        _ => (name, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_order_by_path_components_then_line_numbers() {
        let mut names = ["a/x.txt", "a-b/y.txt", "l.txt:10", "l.txt:9", "l.txt#2", "a/b/c.txt"];
        names.sort_by(|a, b| name_order(a, b));
        assert_eq!(names, ["a/b/c.txt", "a/x.txt", "a-b/y.txt", "l.txt#2", "l.txt:9", "l.txt:10"]);
    }
}
