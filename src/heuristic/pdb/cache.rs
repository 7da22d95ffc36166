/*!
Where database files live: the default cache directory, and the check that
a directory takes files before any building starts.
*/

use super::PdbError;
use super::store;
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
