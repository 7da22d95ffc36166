/*!
Where database files live: the default cache directory, and the check that
a directory takes files before any building starts.
*/

use super::PdbError;
use super::store;
use crate::files::kind_of;
use std::fs;
use std::path::{Path, PathBuf};

/// Where databases are cached by default: `$XDG_CACHE_HOME/npuzzle`, or
/// `~/.cache/npuzzle` when that is unset (or, as the XDG spec requires of a
/// relative path, invalid). `None` when neither is known.
pub fn default_dir() -> Option<PathBuf> {
    let xdg = std::env::var_os("XDG_CACHE_HOME").map(PathBuf::from).filter(|p| p.is_absolute());
    let home = || std::env::var_os("HOME").filter(|h| !h.is_empty()).map(|h| PathBuf::from(h).join(".cache"));
    xdg.or_else(home).map(|base| base.join("npuzzle"))
}

/// Checks that files can be written in `dir` (creating it): minutes of
/// building are wasted if the result cannot be kept.
pub(super) fn writable(dir: &Path) -> Result<(), PdbError> {
    store::ensure_writable(dir).map_err(|source| PdbError::Io { path: dir.to_owned(), source })
}

/// [`PdbError::NotAFile`] when `path` names a folder, FIFO or the like: it
/// is never opened, since a FIFO blocks its reader.
pub(super) fn refuse_non_file(path: &Path) -> Result<(), PdbError> {
    match fs::metadata(path) {
        Ok(meta) if !meta.is_file() => {
            Err(PdbError::NotAFile { path: path.to_owned(), kind: kind_of(&meta) })
        }
        _ => Ok(()),
    }
}
