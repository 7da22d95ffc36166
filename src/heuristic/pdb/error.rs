/*!
What can go wrong with pattern databases, as one enum whose variants callers
act on: a file that is missing, unreadable or does not verify (`Io`,
`Corrupt`) is rebuilt by `load_or_build`, a missing one is what `compare` and
`check` report as not built yet, and the rest are requests no database can
serve or resources the machine lacks.
*/

use crate::board::Shape;
use std::io;
use std::path::PathBuf;
use thiserror::Error;

/// What can go wrong while building, loading or combining databases.
#[derive(Debug, Error)]
pub enum PdbError {
    /// No database can be built for boards of this shape: their cells do
    /// not fit the masks (more than 32).
    #[error("pattern databases are not available for {shape} boards (built-in partitions: {known})")]
    UnsupportedShape {
        /// The goal's shape.
        shape: Shape,
        /// The built-in partitions, by shape (see [`catalogue`](super::catalogue)).
        known: String,
    },
    /// A partition for another board shape.
    #[error("partition {partition} is not for {shape} boards (built-in partitions: {known})")]
    WrongShape {
        /// The partition's name.
        partition: &'static str,
        /// The goal's shape.
        shape: Shape,
        /// The built-in partitions, by shape.
        known: String,
    },
    /// A partition name that is not built in.
    #[error("unknown partition '{name}' (built-in partitions: {known})")]
    UnknownPartition {
        /// The name as given.
        name: String,
        /// The built-in partitions, by shape.
        known: String,
    },
    /// A pattern that cannot be built (or patterns that cannot be combined).
    #[error("pattern {tiles:?}: {why}")]
    BadPattern {
        /// The pattern's tiles.
        tiles: Vec<u8>,
        /// What is wrong with it.
        why: &'static str,
    },
    /// The cache holds something other than a file under a database's
    /// name (a folder, a FIFO): never opened, since reading a FIFO would
    /// wait forever.
    #[error("{} is {kind}, not a pattern database file: remove it or use another directory", path.display())]
    NotAFile {
        /// The entry.
        path: PathBuf,
        /// What it is.
        kind: &'static str,
    },
    /// A database file that is damaged or not the one asked for.
    #[error("{}: {why}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What did not match.
        why: &'static str,
    },
    /// Reading or writing a database file failed. The message names the
    /// file; why is the source's (shown after it by `{:#}` and the like),
    /// not repeated here.
    #[error("{}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: io::Error,
    },
    /// Memory for a table could not be mapped (why is the source's).
    #[error("cannot allocate {bytes} bytes for a pattern database")]
    Memory {
        /// The size asked for.
        bytes: usize,
        /// The underlying error.
        #[source]
        source: io::Error,
    },
    /// The construction left placements unreached (a bug, reported rather
    /// than stored).
    #[error("pattern {tiles:?}: construction left {missing} placements unreached")]
    Unreached {
        /// The pattern's tiles.
        tiles: Vec<u8>,
        /// How many placements have no value.
        missing: u64,
    },
}

/// Names grouped by board shape, for messages: "4x4: 7-8, 6-6-3; 5x5: …".
pub(crate) fn by_shape<'a>(named: impl Iterator<Item = (Shape, &'a str)>) -> String {
    let mut groups: Vec<(Shape, Vec<&str>)> = Vec::new();
    for (shape, name) in named {
        match groups.iter_mut().find(|(s, _)| *s == shape) {
            Some((_, names)) => names.push(name),
            None => groups.push((shape, vec![name])),
        }
    }
    groups
        .iter()
        .map(|(shape, names)| format!("{shape}: {}", names.join(", ")))
        .collect::<Vec<_>>()
        .join("; ")
}
