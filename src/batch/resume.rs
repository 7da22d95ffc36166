/*!
Resuming a run: the rows an output already holds are kept, and the run
goes on from the first puzzle they do not cover. Every kept row must have
been solved as the run solves (algorithm, weight, heuristic, goal and the
flags that shape answers), so that rows solved otherwise are never mixed.
Rows go out in input order, so the kept rows are the run's first puzzles;
each is checked, by its name and its board, against the puzzle the inputs
now give in its place, so a list edited since is noticed rather than
silently mixed. A last row cut short by a killed run is dropped and
solved again.
*/

use super::{Check, Difference, Item, Settings, Source, board_of};
use crate::board::Shape;
use crate::report::{Column, Read, RowFormat, RowReader, Summary, WrittenError};
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// What an output already holds.
#[derive(Clone, Debug, Default)]
pub struct Kept {
    /// Complete rows.
    pub rows: usize,
    /// Their verdicts and figures, counted.
    pub summary: Summary,
    /// Bytes of the header and the complete rows: what follows (a torn
    /// last row) is cut before the run appends.
    pub bytes: u64,
    /// Whether a torn last row was found.
    pub torn: bool,
}

/// Why the rows of an output cannot be kept.
#[derive(Debug, Error)]
pub enum ResumeError {
    /// They cannot be read, or are no rows of batch.
    #[error(transparent)]
    Written(#[from] WrittenError),
    /// A row was solved otherwise than this run would solve it.
    #[error("row {row} was solved with {}, this run has {}", .difference.was_shown(), .difference.now_shown())]
    Differs {
        /// The row's number.
        row: usize,
        /// The first setting that differs.
        difference: Difference,
    },
}

/// Reads the rows of the output at `path`, written as `format` with
/// `columns`, each of which must have been solved as `settings` solve.
///
/// # Errors
/// When it cannot be read, holds something other than such rows, or a row
/// solved otherwise ([`ResumeError::Differs`]).
pub fn kept_rows(
    path: &Path,
    format: RowFormat,
    columns: &[Column],
    settings: &Settings,
) -> Result<Kept, ResumeError> {
    let mut reader =
        RowReader::new(BufReader::new(File::open(path).map_err(WrittenError::from)?), format, columns)?;
    let mut kept = Kept::default();
    loop {
        match reader.next_row() {
            Ok(Read::Row(row)) => {
                kept.rows += 1;
                if let Some(difference) = settings.differs(&row) {
                    return Err(ResumeError::Differs { row: kept.rows, difference });
                }
                kept.summary.add_written(&row);
            }
            Ok(Read::Torn) => {
                kept.torn = true;
                break;
            }
            Ok(Read::End) => break,
            // A last row that does not parse was cut short; one that is
            // followed by more rows is damage.
            Err(WrittenError::Row { row, why }) => match reader.next_row() {
                Ok(Read::End | Read::Torn) => {
                    kept.torn = true;
                    break;
                }
                _ => return Err(WrittenError::Row { row, why }.into()),
            },
            Err(e) => return Err(e.into()),
        }
    }
    kept.bytes = reader.complete_bytes();
    Ok(kept)
}

/// The check of a resumed run's first puzzles against the rows of the
/// output at `path`: each must have the name and the board of the row in
/// its place. Boards of puzzle files are read (with `size` for those that
/// do not give their shape) to be compared.
///
/// # Errors
/// When the output cannot be read.
pub fn check_against(
    path: &Path,
    format: RowFormat,
    columns: &'static [Column],
    size: Option<Shape>,
) -> Result<Check, WrittenError> {
    let mut reader = RowReader::new(BufReader::new(File::open(path)?), format, columns)?;
    let shown = PathBuf::from(path).display().to_string();
    let mut number = 0;
    Ok(Box::new(move |item: &Item| {
        number += 1;
        let Ok(Read::Row(row)) = reader.next_row() else {
            return Err(format!("{shown} changed while the run resumed (row {number})"));
        };
        if row.name != item.name {
            return Err(format!(
                "row {number} of {shown} is for {}, where the inputs now give {}: they are not the inputs it \
                 was written for",
                row.name, item.name
            ));
        }
        let board = match &item.source {
            Source::Listed { board, .. } => Some(board.cells().to_vec()),
            Source::File(file) => board_of(file, size),
            Source::Problem(_) | Source::Stdin => None,
        };
        if row.start.is_some() && board != row.start {
            return Err(format!(
                "row {number} of {shown} holds another board for {} than the inputs now give: the input was \
                 edited since",
                item.name
            ));
        }
        Ok(())
    }))
}
