/*!
The lock of a batch's `--out FILE`: one run at a time writes FILE and its
progress folder. Two runs on one file (a job runner that starts a task
twice, a requeued task whose first run still runs) would otherwise both
append, and their rows would mix or tear each other. So a run takes an
advisory lock (`flock`) before it reads, cuts or writes anything there,
and holds it to its end; a second run finds it held and refuses at once.

The lock is on a file of its own beside FILE, `.FILE.lock`, because FILE
itself is not stable: `--force` puts a new file in its place. The kernel
releases the lock when the process ends, however it ends, so a run killed
leaves no lock behind; the file goes at the end of a run (a killed run's
is taken over by the next).
*/

use crate::files::kind_of;
use std::fs::{self, File, OpenOptions, TryLockError};
use std::io;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Why the lock of an output could not be taken.
#[derive(Debug, Error)]
pub enum LockError {
    /// Another run holds it.
    #[error("{} is in use by another run of batch (it holds {}): wait for it to end", out.display(), lock.display())]
    InUse {
        /// The output.
        out: PathBuf,
        /// Its lock file.
        lock: PathBuf,
    },
    /// The file system takes no locks (some network file systems).
    #[error("{} cannot be locked ({}): another run writing it at once would not be noticed", out.display(), crate::board::io_message(source))]
    Unsupported {
        /// The output.
        out: PathBuf,
        /// The cause.
        #[source]
        source: io::Error,
    },
    /// The lock file cannot be made or opened.
    #[error("cannot lock {}: {}", out.display(), why)]
    Io {
        /// The output.
        out: PathBuf,
        /// Why, for the message.
        why: String,
    },
}

/// The lock of one output, held until dropped.
#[derive(Debug)]
pub struct OutputLock {
    /// The lock file, held open: closing it releases the lock.
    file: File,
    path: PathBuf,
}

impl OutputLock {
    /// Takes the lock of the output `out`, without waiting.
    ///
    /// # Errors
    /// [`LockError::InUse`] when another run holds it,
    /// [`LockError::Unsupported`] on a file system without locks, and
    /// [`LockError::Io`] when the lock file cannot be made (or something
    /// other than a regular file stands in its place).
    pub fn take(out: &Path) -> Result<OutputLock, LockError> {
        let path = lock_file(out);
        let failed = |why: String| LockError::Io { out: out.to_owned(), why };
        loop {
            // Never through a link: the lock file is made beside FILE only.
            if let Ok(meta) = fs::symlink_metadata(&path)
                && !meta.is_file()
            {
                return Err(failed(format!("{} is {}", path.display(), kind_of(&meta))));
            }
            let file = OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .map_err(|e| failed(format!("{}: {}", path.display(), crate::board::io_message(&e))))?;
            match file.try_lock() {
                Ok(()) => {}
                Err(TryLockError::WouldBlock) => {
                    return Err(LockError::InUse { out: out.to_owned(), lock: path });
                }
                Err(TryLockError::Error(source)) => {
                    drop(file);
                    let _ = fs::remove_file(&path);
                    return Err(LockError::Unsupported { out: out.to_owned(), source });
                }
            }
            // The run that held it may have removed the file between our
            // opening and locking it: the lock is then on a file nobody
            // else will find, and the one now at the path is taken afresh.
            if same_file(&file, &path) {
                return Ok(OutputLock { file, path });
            }
        }
    }
}

impl Drop for OutputLock {
    fn drop(&mut self) {
        // Removed while still held, so no run can lock the file this one
        // is about to let go of and take it for the path's.
        if same_file(&self.file, &self.path) {
            let _ = fs::remove_file(&self.path);
        }
    }
}

/// The lock file of the output `out`: `.NAME.lock` beside it.
fn lock_file(out: &Path) -> PathBuf {
    let name = out.file_name().map_or_else(Default::default, |n| n.to_string_lossy().into_owned());
    out.with_file_name(format!(".{name}.lock"))
}

/// Whether `file` is the file at `path` (not a link, not a newer file).
#[cfg(unix)]
fn same_file(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), fs::symlink_metadata(path)) {
        (Ok(open), Ok(named)) => named.is_file() && open.dev() == named.dev() && open.ino() == named.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn same_file(_: &File, path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|meta| meta.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_output_is_locked_by_one_run_at_a_time_and_the_lock_file_goes_with_the_lock() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("rows.csv");
        let first = OutputLock::take(&out).unwrap();
        assert!(dir.path().join(".rows.csv.lock").is_file());
        let err = OutputLock::take(&out).unwrap_err();
        assert!(matches!(err, LockError::InUse { .. }), "{err}");
        assert!(err.to_string().contains("in use by another run"), "{err}");
        drop(first);
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0, "no lock file left");
        let again = OutputLock::take(&out).unwrap();
        drop(again);
    }

    #[test]
    fn a_lock_file_left_by_a_killed_run_is_taken_over() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("rows.csv");
        fs::write(dir.path().join(".rows.csv.lock"), "").unwrap();
        let lock = OutputLock::take(&out).unwrap();
        drop(lock);
        assert!(!dir.path().join(".rows.csv.lock").exists());
    }

    #[cfg(unix)]
    #[test]
    fn a_link_in_place_of_the_lock_file_is_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("rows.csv");
        let elsewhere = dir.path().join("elsewhere");
        std::os::unix::fs::symlink(&elsewhere, dir.path().join(".rows.csv.lock")).unwrap();
        let err = OutputLock::take(&out).unwrap_err();
        assert!(err.to_string().contains("a symbolic link"), "{err}");
        assert!(!elsewhere.exists());
    }
}
