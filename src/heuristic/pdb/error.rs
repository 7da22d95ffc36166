/*!
What can go wrong with pattern databases, as one enum whose variants callers
act on: a file that is missing, unreadable or does not verify (`Io`,
`Corrupt`) is rebuilt by `load_or_build`, a missing one is what `compare` and
`check` report as not built yet, and the rest are requests no database can
serve or resources the machine lacks.
*/

use std::io;
use std::path::PathBuf;
use thiserror::Error;

/// What can go wrong while building, loading or combining databases.
#[derive(Debug, Error)]
pub enum PdbError {
    /// The built-in partitions exist only for 4×4 boards (custom patterns
    /// for 2×2 to 4×4).
    #[error(
        "pattern databases are not available for {width}×{width} boards \
         (the 7-8 and 6-6-3 partitions are for 4×4)"
    )]
    UnsupportedWidth {
        /// The goal's width.
        width: usize,
    },
    /// A partition name that is not `7-8` or `6-6-3`.
    #[error("unknown partition '{0}': expected 7-8 or 6-6-3")]
    UnknownPartition(String),
    /// A pattern that cannot be built (or patterns that cannot be combined).
    #[error("pattern {tiles:?}: {why}")]
    BadPattern {
        /// The pattern's tiles.
        tiles: Vec<u8>,
        /// What is wrong with it.
        why: &'static str,
    },
    /// A database file that is damaged or not the one asked for.
    #[error("{}: {why}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What did not match.
        why: &'static str,
    },
    /// Reading or writing a database file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: io::Error,
    },
    /// Memory for a table could not be mapped.
    #[error("cannot allocate {bytes} bytes for a pattern database: {source}")]
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
