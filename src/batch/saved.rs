/*!
Saved progress of a batch's long searches: with `--out FILE`, an IDA*
search that runs long saves where it stands (see
[`Progress`](crate::search::Progress)) in a folder beside FILE, one file
per puzzle under way, so that a run killed in the middle of an
hours-long search and taken up with `--resume` goes on from there rather
than from the start. A puzzle's file goes when its search ends (other than
by an interrupt, Ctrl-C or SIGTERM, which keeps it), and the folder when
it is empty.
*/

use crate::board::{Input, ParseErrorKind, Tiles, io_message, read_text};
use crate::files::NewFile;
use crate::heuristic::HeuristicKind;
use crate::search::{Algorithm, Progress, SaveProgress, fnv1a};
use rustc_hash::FxHashSet;
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// How often a long search saves its progress by default: a run killed
/// loses at most this much work, plus the subtrees under way.
pub const SAVE_EVERY: Duration = Duration::from_secs(60);

/// Whether a batch saves the progress of searches by `algorithm`: only
/// IDA*, weighted or not, and fringe search (whose long passes are IDA*'s)
/// run in passes that can be taken up.
pub fn saves_progress(algorithm: Algorithm) -> bool {
    matches!(algorithm, Algorithm::IdaStar | Algorithm::WeightedIdaStar(_) | Algorithm::Fringe)
}

/// Progress files larger than this are not read. A 24-puzzle's search
/// saves a line for each of up to 262,144 subtrees, some 25 MB; a puzzle
/// file's limit would throw such a file away and the search would start
/// over.
const MAX_PROGRESS_BYTES: u64 = 256 << 20;

/// The folder of saved progress of one run, and what it held when the
/// run's first search began: only a file there then can be taken up, and
/// only such a file, or one a search of this run wrote, needs removing. So
/// the searches of a campaign of a million short puzzles, none of which
/// saves, ask nothing of the file system.
#[derive(Clone, Debug)]
pub struct ProgressFolder {
    dir: PathBuf,
    /// Read at the first search, after an earlier run's progress is
    /// cleared ([`ProgressFolder::forget_earlier_runs`]); shared by the clones every job holds.
    listing: Arc<OnceLock<Listing>>,
}

#[derive(Debug)]
struct Listing {
    /// What stood at the folder's place (see [`folder_at`]).
    folder: Option<bool>,
    /// The progress files in it, a kill's temporaries by the file they
    /// were to become.
    files: FxHashSet<String>,
}

impl ProgressFolder {
    /// The folder beside the output file `out`: its name with `.progress`
    /// added.
    pub fn beside(out: &Path) -> ProgressFolder {
        let mut name = OsString::from(out.as_os_str());
        name.push(".progress");
        ProgressFolder { dir: PathBuf::from(name), listing: Arc::default() }
    }

    /// Clears the progress saved there by an earlier run (a run that
    /// starts afresh), before the first search reads the folder: its files
    /// go, and the folder if nothing else is in it. A link or anything but
    /// a folder is left alone.
    pub fn forget_earlier_runs(&self) {
        if is_folder(&self.dir) {
            remove_files(&self.dir, |name| progress_file(name).is_some());
        }
    }

    fn listing(&self) -> &Listing {
        self.listing.get_or_init(|| {
            let folder = folder_at(&self.dir);
            let mut files = FxHashSet::default();
            // Never read through a link.
            if folder == Some(true)
                && let Ok(entries) = fs::read_dir(&self.dir)
            {
                let names = entries.flatten().filter_map(|entry| entry.file_name().into_string().ok());
                files.extend(names.filter_map(|name| progress_file(&name).map(str::to_owned)));
            }
            Listing { folder, files }
        })
    }
}

/// What stands at `dir`, links not followed: nothing (`None`), a folder
/// itself (`Some(true)`) or anything else, a link included: progress is
/// written and removed only beside the output, never elsewhere.
fn folder_at(dir: &Path) -> Option<bool> {
    fs::symlink_metadata(dir).ok().map(|meta| meta.is_dir())
}

/// Whether `dir` is a folder itself, not a link to one.
fn is_folder(dir: &Path) -> bool {
    folder_at(dir) == Some(true)
}

/// Removes the regular files in `dir` whose names `pick` picks, then
/// `dir` if that leaves it empty.
fn remove_files(dir: &Path, pick: impl Fn(&str) -> bool) {
    if let Ok(entries) = fs::read_dir(dir) {
        for entry in entries.flatten() {
            let picked = entry.file_name().to_str().is_some_and(&pick);
            if picked && entry.file_type().is_ok_and(|t| t.is_file()) {
                let _ = fs::remove_file(entry.path());
            }
        }
    }
    let _ = fs::remove_dir(dir);
}

/// The progress file a name in the folder stands for: itself, or the one
/// a temporary file left by a kill was to become (see [`NewFile`]).
fn progress_file(name: &str) -> Option<&str> {
    let file = match name.strip_prefix('.').and_then(|n| n.strip_suffix(".tmp")) {
        Some(temporary) => temporary.split_once(".txt.").map(|(stem, _)| &name[1..stem.len() + 5])?,
        None => name,
    };
    let stem = file.strip_suffix(".txt")?;
    (stem.len() == 16 && stem.bytes().all(|b| b.is_ascii_hexdigit())).then_some(file)
}

/// Where the searches of one puzzle save their progress.
#[derive(Clone, Debug)]
pub(super) struct Saved {
    file: PathBuf,
    /// What stood at the folder's place when the run began.
    folder: Option<bool>,
    /// Whether the folder held the file (or a temporary of it) then.
    found: bool,
    /// Whether a search of this run has begun to write it.
    written: Arc<AtomicBool>,
}

impl Saved {
    /// The progress file of the puzzle named `name` in `folder`.
    pub(super) fn new(folder: &ProgressFolder, name: &str) -> Saved {
        // A fixed hash: the next build must find the file this one named.
        let file = format!("{:016x}.txt", fnv1a(name));
        let listing = folder.listing();
        Saved {
            found: listing.files.contains(&file),
            file: folder.dir.join(file),
            folder: listing.folder,
            written: Arc::default(),
        }
    }

    /// What IDA* of `algorithm` and `heuristic` from `start` to `goal`
    /// saves its progress through, taking up what this puzzle's file holds
    /// for that same search; `None` for other algorithms. A file that is
    /// there but cannot be taken up is named to `notice` with the reason:
    /// the search starts over and its saves replace the file, so the user
    /// must hear of it.
    pub(super) fn saver(
        &self,
        algorithm: Algorithm,
        heuristic: HeuristicKind,
        start: &Tiles,
        goal: &Tiles,
        every: Duration,
        notice: &mut dyn FnMut(&str),
    ) -> Option<Arc<SaveProgress>> {
        if !saves_progress(algorithm) {
            return None;
        }
        // No folder yet is fine: the first save makes it.
        if let Some(dir) = self.file.parent()
            && self.folder == Some(false)
        {
            notice(&format!("{}: a link or no folder; this search's progress is not saved", dir.display()));
            return None;
        }
        let search = match algorithm {
            Algorithm::WeightedIdaStar(weight) => format!("idastar weight {weight}"),
            other => other.name().to_owned(),
        };
        let tiles = |t: &Tiles| t.cells().iter().map(u16::to_string).collect::<Vec<_>>().join(" ");
        let key = format!(
            "{search} {heuristic} {}x{} start {} goal {}",
            start.width(),
            start.height(),
            tiles(start),
            tiles(goal)
        );
        let resume = self.take_up(&key, start.cells().len()).unwrap_or_else(|why| {
            notice(&format!(
                "{}: saved progress not taken up ({why}); the search starts over",
                self.file.display()
            ));
            None
        });
        let (file, written) = (self.file.clone(), Arc::clone(&self.written));
        Some(Arc::new(SaveProgress::new(resume, every, move |progress| {
            written.store(true, Ordering::Relaxed);
            // A progress file that cannot be written costs only the
            // time a later run takes to redo the work.
            let _ = save(&file, &progress.to_text(&key));
        })))
    }

    /// The progress this puzzle's file holds for the search of `key` on a
    /// board of `cells` cells; `None` when there is no file.
    fn take_up(&self, key: &str, cells: usize) -> Result<Option<Progress>, String> {
        if !self.found {
            return Ok(None);
        }
        let length = match fs::metadata(&self.file) {
            // A FIFO would be waited on for ever.
            Ok(meta) if !meta.is_file() => return Err("not a regular file".to_owned()),
            Ok(meta) => meta.len(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(io_message(&e)),
        };
        let text =
            read_text(&Input::File(self.file.clone()), MAX_PROGRESS_BYTES, None).map_err(|e| match e {
                ParseErrorKind::TooLarge(limit) => {
                    format!("{length} bytes, larger than the {limit} bytes read")
                }
                other => other.to_string(),
            })?;
        match Progress::from_text(&text, key, cells) {
            Some(progress) => Ok(Some(progress)),
            None if Progress::saved_under(&text, key) => Err("damaged".to_owned()),
            None => Err("saved by another search: another algorithm, heuristic, board or goal".to_owned()),
        }
    }

    /// The puzzle's search has ended: its progress is of no more use.
    /// Its temporary files left by a kill go too, and the folder once empty.
    pub(super) fn forget(&self) {
        if !self.found && !self.written.load(Ordering::Relaxed) {
            return;
        }
        let (Some(dir), Some(own)) = (self.file.parent(), self.file.file_name().and_then(|n| n.to_str()))
        else {
            return;
        };
        if !is_folder(dir) {
            return;
        }
        remove_files(dir, |name| progress_file(name) == Some(own));
    }
}

/// Writes `text` to `file` whole or not at all, making its folder (but not
/// the folders above it) if need be; never through a link.
fn save(file: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = file.parent() {
        match fs::create_dir(dir) {
            Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => return Err(e),
            _ => {}
        }
        if !is_folder(dir) {
            return Err(std::io::Error::other("a link or no folder"));
        }
    }
    let mut new = NewFile::create(file, true).map_err(std::io::Error::other)?;
    std::io::Write::write_all(new.writer(), text.as_bytes())?;
    new.commit().map_err(std::io::Error::other)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_files_and_their_temporaries_are_told_from_anything_else() {
        let file = "0123456789abcdef.txt";
        assert_eq!(progress_file(file), Some(file));
        assert_eq!(progress_file(".0123456789abcdef.txt.4242-7.tmp"), Some(file));
        for other in
            ["rows.csv", "0123456789abcdeg.txt", "0123456789abcdef.txt.tmp", ".rows.csv.1-2.tmp", ".tmp", "."]
        {
            assert_eq!(progress_file(other), None, "{other}");
        }
    }
}
