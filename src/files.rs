/*!
Writing the files a user names. A file is written beside its target under a
temporary name and then put in place in one step, so a reader never sees
half of it and an interrupted run leaves the target as it was. Putting it
in place replaces the directory entry itself: a symbolic link standing at
the target is never followed to overwrite what it points at. And before
anything is written, every target is checked: an existing file is kept
unless the caller says to replace it, and something that is not a regular
file (a link, a folder, a FIFO that would block, a device) is refused.

Every temporary file of the process, this module's and the pattern
databases' alike, is listed here until it is put in place or dropped, so
that a signal ending the process can remove them all
([`abandon_temporaries`]): no destructor runs then.
*/

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use thiserror::Error;

/// Why a file could not be written.
#[derive(Debug, Error)]
pub enum FileError {
    /// The target exists and was not to be replaced.
    #[error("{} is already there", path.display())]
    AlreadyThere {
        /// The target.
        path: PathBuf,
    },
    /// The target is a link, a folder, a FIFO or a device: never written.
    #[error("{} is {kind}, not a regular file", path.display())]
    NotRegular {
        /// The target.
        path: PathBuf,
        /// What it is, for the message ("a symbolic link", "a FIFO"…).
        kind: &'static str,
    },
    /// Reading or writing failed.
    #[error("cannot write {}: {}", path.display(), crate::board::io_message(source))]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: io::Error,
    },
}

impl FileError {
    fn io(path: &Path) -> impl FnOnce(io::Error) -> FileError + '_ {
        move |source| FileError::Io { path: path.to_owned(), source }
    }
}

/// Whether `path` may be written: it must be absent or, when `replace`, a
/// regular file. Links are not followed.
///
/// # Errors
/// [`FileError::AlreadyThere`], [`FileError::NotRegular`], or
/// [`FileError::Io`] when the entry cannot be looked at.
pub fn check_target(path: &Path, replace: bool) -> Result<(), FileError> {
    match fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(FileError::io(path)(e)),
        Ok(meta) if !meta.file_type().is_file() => {
            Err(FileError::NotRegular { path: path.to_owned(), kind: kind_of(&meta) })
        }
        Ok(_) if replace => Ok(()),
        Ok(_) => Err(FileError::AlreadyThere { path: path.to_owned() }),
    }
}

/// What kind of entry something that is not a regular file is, for
/// messages.
pub fn kind_of(meta: &fs::Metadata) -> &'static str {
    let kind = meta.file_type();
    if kind.is_symlink() {
        return "a symbolic link";
    }
    if kind.is_dir() {
        return "a folder";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_socket() {
            return "a socket";
        }
        if kind.is_block_device() || kind.is_char_device() {
            return "a device";
        }
    }
    "not a regular file"
}

/// Temporary files made so far by this process, so that no two share a name.
static TEMPORARIES: AtomicU64 = AtomicU64::new(0);

/// The temporary files of this process not yet put in place or removed.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// The list, even if a thread panicked while holding it: it stays a list
/// of paths.
fn pending() -> MutexGuard<'static, Vec<PathBuf>> {
    PENDING.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Removes every temporary file not yet put in place, and lets no writer
/// make another: for a process about to end on a signal, whose writers'
/// destructors will not run. The list stays locked until the process ends,
/// so a file cannot be made between the removal and the end.
pub fn abandon_temporaries() {
    let list = pending();
    for path in list.iter() {
        let _ = fs::remove_file(path);
    }
    std::mem::forget(list);
}

/// A temporary file on the list [`abandon_temporaries`] removes: removed
/// when dropped, unless it was put in place first.
#[derive(Debug)]
pub(crate) struct Temporary {
    path: PathBuf,
    placed: bool,
}

impl Temporary {
    /// Opens `path` with `options` (which must create it) and lists it.
    pub(crate) fn create(path: PathBuf, options: &OpenOptions) -> io::Result<(Temporary, File)> {
        // Made while the list is held, so a signal's removal sees it.
        let mut list = pending();
        let file = options.open(&path)?;
        list.push(path.clone());
        Ok((Temporary { path, placed: false }, file))
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// The file was renamed or linked to its target: the name is not to be
    /// removed any more.
    pub(crate) fn placed(&mut self) {
        self.placed = true;
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        let mut list = pending();
        if !self.placed {
            let _ = fs::remove_file(&self.path);
        }
        if let Some(at) = list.iter().rposition(|p| *p == self.path) {
            list.swap_remove(at);
        }
    }
}

/// A file being written in place of a target: the bytes go to a temporary
/// file beside it, which [`NewFile::commit`] puts in place. Dropped
/// without a commit, it removes the temporary file and leaves the target
/// as it was; so does a signal that ends the process
/// ([`abandon_temporaries`]).
#[derive(Debug)]
pub struct NewFile {
    target: PathBuf,
    temporary: Temporary,
    out: Option<BufWriter<File>>,
    replace: bool,
}

impl NewFile {
    /// Starts writing `target`, which [`check_target`] must allow.
    ///
    /// # Errors
    /// As [`check_target`], or [`FileError::Io`] when the temporary file
    /// cannot be made.
    pub fn create(target: &Path, replace: bool) -> Result<NewFile, FileError> {
        check_target(target, replace)?;
        let name = target.file_name().map_or_else(Default::default, |n| n.to_string_lossy().into_owned());
        let temporary = target.with_file_name(format!(
            ".{name}.{}-{}.tmp",
            std::process::id(),
            TEMPORARIES.fetch_add(1, Ordering::Relaxed)
        ));
        let (temporary, file) = Temporary::create(temporary, OpenOptions::new().write(true).create_new(true))
            .map_err(FileError::io(target))?;
        Ok(NewFile { target: target.to_owned(), temporary, out: Some(BufWriter::new(file)), replace })
    }

    /// Where the bytes go until the commit.
    pub fn writer(&mut self) -> &mut BufWriter<File> {
        self.out.as_mut().expect("written only before the commit")
    }

    /// Puts the file in place. Replacing renames it over the target, link
    /// or file; otherwise it is linked in only if the target is still
    /// absent, so a file that appeared meanwhile is not lost either.
    ///
    /// # Errors
    /// [`FileError::AlreadyThere`] when the target appeared meanwhile (and
    /// was not to be replaced), [`FileError::Io`] when writing or renaming
    /// fails.
    pub fn commit(mut self) -> Result<(), FileError> {
        let out = self.out.take().expect("committed once");
        out.into_inner().map_err(|e| FileError::io(&self.target)(e.into_error()))?;
        let temporary = self.temporary.path();
        if self.replace {
            fs::rename(temporary, &self.target).map_err(FileError::io(&self.target))?;
            self.temporary.placed();
            return Ok(());
        }
        match fs::hard_link(temporary, &self.target) {
            // Dropping the temporary removes its name; the target keeps the file.
            Ok(()) => Ok(()),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                Err(FileError::AlreadyThere { path: self.target.clone() })
            }
            // A file system without hard links: the target was checked to be
            // absent, so a rename is as safe as it can be there.
            Err(_) => {
                check_target(&self.target, false)?;
                fs::rename(temporary, &self.target).map_err(FileError::io(&self.target))?;
                self.temporary.placed();
                Ok(())
            }
        }
    }
}

impl Write for NewFile {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.writer().write(bytes)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.writer().flush()
    }
}

impl Drop for NewFile {
    fn drop(&mut self) {
        // Closed before the temporary file's name is removed with it.
        self.out = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_file_appears_only_when_committed_and_never_over_an_existing_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        let mut file = NewFile::create(&path, false).unwrap();
        file.write_all(b"one").unwrap();
        assert!(!path.exists(), "not before the commit");
        file.commit().unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"one");
        assert!(matches!(NewFile::create(&path, false), Err(FileError::AlreadyThere { .. })));
        let mut again = NewFile::create(&path, true).unwrap();
        again.write_all(b"two").unwrap();
        again.commit().unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two");
        // An abandoned file leaves nothing behind.
        let mut dropped = NewFile::create(&path, true).unwrap();
        dropped.write_all(b"three").unwrap();
        drop(dropped);
        assert_eq!(fs::read(&path).unwrap(), b"two");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary file left");
    }

    #[cfg(unix)]
    #[test]
    fn links_folders_and_fifos_are_refused_even_when_replacing() {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside.txt");
        fs::write(&outside, b"keep").unwrap();
        let link = dir.path().join("link.txt");
        std::os::unix::fs::symlink(&outside, &link).unwrap();
        let folder = dir.path().join("folder");
        fs::create_dir(&folder).unwrap();
        let fifo = dir.path().join("fifo");
        assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
        for (path, kind) in [(&link, "a symbolic link"), (&folder, "a folder"), (&fifo, "a FIFO")] {
            for replace in [false, true] {
                let err = NewFile::create(path, replace).unwrap_err();
                assert!(matches!(err, FileError::NotRegular { kind: k, .. } if k == kind), "{err}");
            }
        }
        assert_eq!(fs::read(&outside).unwrap(), b"keep");
        assert_eq!(fs::read_link(&link).unwrap(), outside);
    }
}
