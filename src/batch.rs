/*!
Batch runs: find the puzzle files under some paths, keep one shard of them,
solve them on a pool of threads and hand back one [`Record`] per puzzle, in
input order, each as soon as it and every one before it are done.

Which files are puzzles:
- a path named on the command line is always tried (a bad one is an error
  row);
- inside a folder, entries are visited in byte order of their names, folders
  recursively; hidden entries (`.git`, `.DS_Store`) are passed over silently
  and symbolic links to folders are not followed;
- a `.txt` or `.puzzle` file is a puzzle (an error row if malformed);
- any other file is a puzzle only if its content looks like a board: text
  whose first line that is neither blank nor a `#` comment holds only
  digits, commas, spaces and minus signs. Others (`README.md`, binaries)
  are skipped, each with a reason.
*/

use crate::board::{Goal, GoalSpec, MAX_INPUT_BYTES, ParseErrorKind, Shape, Tiles, io_message, parse_board};
use crate::heuristic::HeuristicKind;
use crate::report::{Record, Summary};
use crate::search::{Algorithm, Limits, Tables, default_max_nodes_for, solve};
use std::collections::BTreeMap;
use std::fmt;
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};
use thiserror::Error;

/// One puzzle of a batch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// Where it is.
    pub path: PathBuf,
    /// Why it cannot even be read (e.g. a folder that could not be listed),
    /// found while walking.
    pub problem: Option<String>,
}

impl Item {
    /// How rows name the puzzle: its path as walked.
    pub fn name(&self) -> String {
        self.path.display().to_string()
    }
}

/// A file the walk passed over, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// The file.
    pub path: PathBuf,
    /// Why it is not a puzzle.
    pub reason: &'static str,
}

/// What a walk found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Discovery {
    /// The puzzles, in input order.
    pub items: Vec<Item>,
    /// Files passed over, in walk order.
    pub skipped: Vec<Skipped>,
}

/// Finds the puzzles under `paths`, in a stable order: the paths as given,
/// each folder walked in sorted order. Files named directly are judged like
/// files met in folders (so `batch puzzles/*` passes over a README). Never
/// fails: a path that cannot be read becomes an item with a `problem`.
pub fn discover(paths: &[PathBuf]) -> Discovery {
    let mut found = Discovery::default();
    for path in paths {
        match fs::metadata(path) {
            Ok(meta) if meta.is_dir() => walk(path, &mut found),
            Ok(meta) if meta.is_file() => match classify(path) {
                Ok(()) => found.items.push(Item { path: path.clone(), problem: None }),
                Err(reason) => found.skipped.push(Skipped { path: path.clone(), reason }),
            },
            // A device or pipe named on purpose is read as a puzzle.
            Ok(_) => found.items.push(Item { path: path.clone(), problem: None }),
            Err(e) => found.items.push(Item {
                path: path.clone(),
                problem: Some(ParseErrorKind::Io(io_message(&e)).to_string()),
            }),
        }
    }
    found
}

fn walk(dir: &Path, found: &mut Discovery) {
    let listing = fs::read_dir(dir).and_then(|entries| {
        entries
            .map(|e| e.and_then(|e| Ok((e.file_name(), e.path(), e.file_type()?))))
            .collect::<io::Result<Vec<_>>>()
    });
    let mut entries = match listing {
        Ok(entries) => entries,
        Err(e) => {
            found.items.push(Item {
                path: dir.to_path_buf(),
                problem: Some(format!("cannot list folder: {}", io_message(&e))),
            });
            return;
        }
    };
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    for (name, path, kind) in entries {
        if name.as_encoded_bytes().starts_with(b".") {
            continue;
        }
        let verdict = if kind.is_dir() {
            walk(&path, found);
            continue;
        } else if kind.is_symlink() {
            match fs::metadata(&path) {
                Ok(meta) if meta.is_dir() => Err("symbolic link to a folder, not followed"),
                Ok(meta) if meta.is_file() => classify(&path),
                Ok(_) => Err("not a regular file"),
                Err(_) => Err("broken symbolic link"),
            }
        } else if kind.is_file() {
            classify(&path)
        } else {
            Err("not a regular file")
        };
        match verdict {
            Ok(()) => found.items.push(Item { path, problem: None }),
            Err(reason) => found.skipped.push(Skipped { path, reason }),
        }
    }
}

/// Extensions that always mean a puzzle file.
const PUZZLE_EXTENSIONS: [&str; 2] = ["txt", "puzzle"];

/// Whether a file is a puzzle, or why not.
fn classify(path: &Path) -> Result<(), &'static str> {
    let by_extension =
        path.extension().is_some_and(|ext| PUZZLE_EXTENSIONS.iter().any(|p| ext.eq_ignore_ascii_case(p)));
    if by_extension {
        return Ok(());
    }
    let mut bytes = Vec::new();
    fs::File::open(path)
        .and_then(|f| f.take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|_| "cannot be read")?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err("too large to be a puzzle");
    }
    if looks_like_board(&bytes) { Ok(()) } else { Err("not a puzzle by extension or content") }
}

/// Whether file content looks like a board: text (UTF-8, no NUL) whose
/// first line that is neither blank nor a `#` comment holds only digits,
/// commas, whitespace and minus signs, at least one of them a digit.
pub fn looks_like_board(bytes: &[u8]) -> bool {
    if bytes.contains(&0) {
        return false;
    }
    let Ok(text) = std::str::from_utf8(bytes) else {
        return false;
    };
    let first = text
        .lines()
        .map(|line| line.split('#').next().unwrap_or("").trim())
        .find(|content| !content.is_empty());
    first.is_some_and(|line| {
        line.bytes().any(|b| b.is_ascii_digit())
            && line.chars().all(|c| c.is_ascii_digit() || c == ',' || c == '-' || c.is_whitespace())
    })
}

/// Shard `index` of `count`: the puzzles at positions `index`, `index +
/// count`, `index + 2·count`… of the discovered list. Shards `0/M` to
/// `M−1/M` cover the list exactly once, so independent processes can split
/// a set and concatenate their output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    index: usize,
    count: usize,
}

/// A shard that does not exist.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ShardError {
    /// Not `K/M`.
    #[error("'{0}' is not a shard: expected K/M, such as 0/4")]
    Syntax(String),
    /// `M` is 0.
    #[error("a shard count of 0 selects nothing: M must be at least 1")]
    NoShards,
    /// `K ≥ M`.
    #[error("shard {index} does not exist: shards of {count} are numbered 0 to {}", count - 1)]
    OutOfRange {
        /// K.
        index: usize,
        /// M.
        count: usize,
    },
}

impl Shard {
    /// Shard `index` of `count`.
    ///
    /// # Errors
    /// When `count` is 0 or `index ≥ count`.
    pub fn new(index: usize, count: usize) -> Result<Shard, ShardError> {
        if count == 0 {
            return Err(ShardError::NoShards);
        }
        if index >= count {
            return Err(ShardError::OutOfRange { index, count });
        }
        Ok(Shard { index, count })
    }

    /// K.
    pub fn index(self) -> usize {
        self.index
    }

    /// M.
    pub fn count(self) -> usize {
        self.count
    }

    /// Whether the item at `position` belongs to this shard.
    pub fn contains(self, position: usize) -> bool {
        position % self.count == self.index
    }

    /// The items of `all` that belong to this shard, in order.
    pub fn select<T>(self, all: Vec<T>) -> Vec<T> {
        all.into_iter().enumerate().filter(|(i, _)| self.contains(*i)).map(|(_, item)| item).collect()
    }
}

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let syntax = || ShardError::Syntax(text.to_owned());
        let (k, m) = text.split_once('/').ok_or_else(syntax)?;
        let number = |s: &str| s.trim().parse::<usize>().map_err(|_| syntax());
        Shard::new(number(k)?, number(m)?)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// How every puzzle of a batch is solved.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The goal, built for each puzzle's width.
    pub goal: GoalSpec,
    /// The algorithm.
    pub algorithm: Algorithm,
    /// The heuristic, for informed algorithms.
    pub heuristic: HeuristicKind,
    /// Limits for each puzzle. With no `max_nodes`, each job gets the
    /// single-search default divided by the number of jobs, so all jobs
    /// together stay under one search's memory ceiling. `cancel` stops the
    /// searches under way and starts no more.
    pub limits: Limits,
    /// Puzzles solved at once (at least 1).
    pub jobs: usize,
    /// Prepared heuristic tables (the pattern databases), shared by all jobs.
    pub tables: Tables,
}

/// The single-search default node limit of `algorithm` for a board of
/// `shape`, shared among `jobs`.
pub fn default_max_nodes_per_job(shape: impl Into<Shape>, algorithm: Algorithm, jobs: usize) -> u64 {
    (default_max_nodes_for(shape.into(), algorithm) / jobs.max(1) as u64).max(1)
}

/// Solves one puzzle; every failure becomes an `error` row.
pub fn solve_item(item: &Item, settings: &Settings, jobs: usize) -> Record {
    let fail = |start, message| {
        let mut record = Record::failed(settings.algorithm, settings.heuristic, start, message);
        record.file = Some(item.name());
        record
    };
    if let Some(problem) = &item.problem {
        return fail(None, problem.clone());
    }
    let start = match read_board(&item.path) {
        Ok(start) => start,
        Err(message) => return fail(None, message),
    };
    let goal = match Goal::new(&settings.goal, start.shape()) {
        Ok(goal) => goal,
        Err(e) => return fail(Some(&start), e.to_string()),
    };
    let mut limits = Limits { sharing: jobs as u32, ..settings.limits.clone() };
    if limits.max_nodes.is_none() {
        limits.max_nodes = Some(default_max_nodes_per_job(start.shape(), settings.algorithm, jobs));
    }
    let outcome =
        match solve(&start, &goal, settings.algorithm, settings.heuristic, &limits, &settings.tables) {
            Ok(outcome) => outcome,
            Err(e) => return fail(Some(&start), e.to_string()),
        };
    let mut record = Record::new(settings.algorithm, settings.heuristic, &start, &goal, &outcome);
    record.file = Some(item.name());
    record
}

/// Reads a puzzle file as `solve` does, in as few system calls as it takes
/// (open, size, one read, close: with small puzzles these are much of the
/// time outside the search). The error is the message of an error row.
fn read_board(path: &Path) -> Result<Tiles, String> {
    let io = |e: io::Error| ParseErrorKind::Io(io_message(&e)).to_string();
    let mut file = fs::File::open(path).map_err(io)?;
    let size = file.metadata().map_err(io)?.len();
    if size > MAX_INPUT_BYTES {
        return Err(ParseErrorKind::TooLarge.to_string());
    }
    let mut bytes = vec![0; size as usize];
    file.read_exact(&mut bytes).map_err(io)?;
    parse_board(&String::from_utf8_lossy(&bytes)).map_err(|(line, kind)| match line {
        Some(line) => format!("line {line}: {kind}"),
        None => kind.to_string(),
    })
}

/// What [`run`] reports while it works.
#[derive(Debug)]
pub enum Event<'a> {
    /// Another puzzle finished (not necessarily the next row).
    Progress {
        /// Puzzles finished so far.
        done: usize,
        /// Puzzles in the batch.
        total: usize,
    },
    /// The next row, in input order.
    Row(&'a Record),
    /// Another [`TICK`] passed: the moment to push buffered rows out (so a
    /// reader, or a job runner that kills the process, never waits long for
    /// them) and to redraw a clock. One more comes just before [`run`]
    /// returns.
    Tick,
}

/// How often [`run`] sends [`Event::Tick`].
pub const TICK: Duration = Duration::from_millis(100);

/// How a run ended.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Finished {
    /// Totals over the rows, with the wall time.
    pub summary: Summary,
    /// Puzzles never started because the run was cancelled.
    pub not_run: usize,
}

/// The in-order end of a run: finished records wait here until every
/// earlier one is out.
struct Emitter<F> {
    on_event: F,
    waiting: BTreeMap<usize, Record>,
    next_row: usize,
    done: usize,
    total: usize,
    summary: Summary,
    failure: Option<io::Error>,
}

impl<F: FnMut(Event<'_>) -> io::Result<()>> Emitter<F> {
    fn finished(&mut self, position: usize, record: Record) -> io::Result<()> {
        self.done += 1;
        (self.on_event)(Event::Progress { done: self.done, total: self.total })?;
        self.waiting.insert(position, record);
        while let Some(record) = self.waiting.remove(&self.next_row) {
            self.summary.add(&record);
            (self.on_event)(Event::Row(&record))?;
            self.next_row += 1;
        }
        Ok(())
    }

    fn tick(&mut self) -> io::Result<()> {
        (self.on_event)(Event::Tick)
    }
}

/// Solves `items` with `settings.jobs` threads (the calling one included)
/// taking puzzles from a shared queue. Whichever thread finishes a puzzle
/// hands `on_event` the progress and every row now ready, in input order,
/// under a lock, so no thread waits on another to report. A further thread
/// sends [`Event::Tick`] every [`TICK`].
///
/// # Errors
/// The first error `on_event` returns (say, a closed pipe): the run then
/// cancels the searches under way and stops.
pub fn run<F>(items: &[Item], settings: &Settings, on_event: F) -> io::Result<Finished>
where
    F: FnMut(Event<'_>) -> io::Result<()> + Send,
{
    let started = Instant::now();
    let total = items.len();
    let jobs = settings.jobs.clamp(1, total.max(1));
    let cancel = settings.limits.cancel.clone().unwrap_or_default();
    let settings = Settings {
        limits: Limits { cancel: Some(Arc::clone(&cancel)), ..settings.limits.clone() },
        ..settings.clone()
    };
    let next = AtomicUsize::new(0);
    let stopped = AtomicBool::new(false);
    let emitter = Mutex::new(Emitter {
        on_event,
        waiting: BTreeMap::new(),
        next_row: 0,
        done: 0,
        total,
        summary: Summary::default(),
        failure: None,
    });
    let lock = || emitter.lock().unwrap_or_else(PoisonError::into_inner);
    let fail = |emitter: &mut Emitter<F>, e: io::Error| {
        emitter.failure.get_or_insert(e);
        stopped.store(true, Ordering::Relaxed);
        cancel.store(true, Ordering::Relaxed);
    };

    let work = || {
        while !stopped.load(Ordering::Relaxed) && !cancel.load(Ordering::Relaxed) {
            let position = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(position) else { break };
            let record = solve_item(item, &settings, jobs);
            let mut emitter = lock();
            if emitter.failure.is_none()
                && let Err(e) = emitter.finished(position, record)
            {
                fail(&mut emitter, e);
            }
        }
    };
    let clock = || {
        while !stopped.load(Ordering::Relaxed) {
            std::thread::park_timeout(TICK);
            let mut emitter = lock();
            if emitter.failure.is_none()
                && let Err(e) = emitter.tick()
            {
                fail(&mut emitter, e);
            }
        }
    };
    std::thread::scope(|scope| {
        let clock = scope.spawn(clock);
        let helpers: Vec<_> = (1..jobs).map(|_| scope.spawn(work)).collect();
        work();
        for helper in helpers {
            // A panicking search would already have been reported by the
            // panic hook; the run goes on without that thread.
            let _ = helper.join();
        }
        stopped.store(true, Ordering::Relaxed);
        clock.thread().unpark();
    });

    let mut emitter = emitter.into_inner().unwrap_or_else(PoisonError::into_inner);
    if emitter.failure.is_none()
        && let Err(e) = emitter.tick()
    {
        emitter.failure = Some(e);
    }
    if let Some(e) = emitter.failure {
        return Err(e);
    }
    let mut summary = emitter.summary;
    summary.wall = Some(started.elapsed());
    Ok(Finished { summary, not_run: total - emitter.next_row })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_as_k_of_m_and_reject_shards_that_do_not_exist() {
        assert_eq!("1/4".parse::<Shard>(), Shard::new(1, 4));
        assert_eq!("0/1".parse::<Shard>().unwrap().to_string(), "0/1");
        assert_eq!("4/4".parse::<Shard>(), Err(ShardError::OutOfRange { index: 4, count: 4 }));
        assert_eq!("0/0".parse::<Shard>(), Err(ShardError::NoShards));
        for bad in ["", "1", "a/2", "1/b", "-1/2", "1/2/3"] {
            assert!(matches!(bad.parse::<Shard>(), Err(ShardError::Syntax(_))), "{bad}");
        }
    }

    #[test]
    fn shards_0_to_m_cover_every_position_exactly_once() {
        for count in 1..5 {
            let mut seen = vec![0; 11];
            for index in 0..count {
                let shard = Shard::new(index, count).unwrap();
                for i in shard.select((0..11).collect()) {
                    seen[i] += 1;
                }
            }
            assert!(seen.iter().all(|&n| n == 1), "count {count}: {seen:?}");
        }
    }

    #[test]
    fn boards_and_text_that_looks_like_one_are_told_from_other_files() {
        assert!(looks_like_board(b"# comment\n\n1 2 5\n3 4 0\n6 7 8\n"));
        assert!(looks_like_board(b"3\n1,2,5,3,4,0,6,7,8"));
        assert!(looks_like_board(b"1 2 5\n3 x 0\n"), "malformed, but a board");
        assert!(looks_like_board(b"1 -2 5\n"));
        assert!(!looks_like_board(b"# puzzles/\n\n- `2x2/`: examples\n"));
        assert!(!looks_like_board(b"MIT License\n"));
        assert!(!looks_like_board(b"1. First item\n"));
        assert!(!looks_like_board(b""));
        assert!(!looks_like_board(b"# only a comment\n"));
        assert!(!looks_like_board(b"1 2\0 3"));
        assert!(!looks_like_board(&[0xFF, 0xFE, b'1']));
        assert!(!looks_like_board(b"- - ,"));
    }

    #[test]
    fn the_default_node_limit_is_shared_among_jobs() {
        for algorithm in Algorithm::ALL {
            let one = default_max_nodes_per_job(3, algorithm, 1);
            assert_eq!(one, crate::search::default_max_nodes::<crate::board::Packed>(algorithm));
            assert_eq!(default_max_nodes_per_job(3, algorithm, 4), one / 4);
            let wide = crate::search::default_max_nodes::<crate::board::Wide>(algorithm);
            assert_eq!(default_max_nodes_per_job(5, algorithm, 2), wide / 2);
        }
    }
}
