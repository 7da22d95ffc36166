/*!
What the binary says besides its reports: one-line notes on standard error,
hints after a search stopped where a faster one would finish or after long
work `solve` cannot keep, standard output for the reports (a write
that fails there is an error, closed or full), and the rule that a reader
who closed standard output (`| head -1`) is no error.
*/

use crate::exit::Exit;
use npuzzle::batch::{SAVE_EVERY, saves_progress};
use npuzzle::board::{Shape, io_message};
use npuzzle::heuristic::pdb::PartitionSet;
use npuzzle::{Algorithm, HeuristicKind, LimitKind, Status};
use std::io::{self, Write};
use std::sync::OnceLock;
use std::time::Duration;

/// Prints one `npuzzle: …` line on standard error. A closed or full stderr
/// loses the line rather than panicking, as `eprintln!` would.
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), "npuzzle: {}", format_args!($($arg)*));
    }};
}
pub(crate) use note;

/// `count` and its noun: "1 puzzle", "2 puzzles".
pub fn counted(count: usize, noun: &str) -> String {
    if count == 1 { format!("1 {noun}") } else { format!("{count} {noun}s") }
}

/// Standard output, where every report goes. Rust's runtime puts
/// `/dev/null` in place of a standard output the shell closed (`>&-`), so
/// that writes to it succeed and the reports are lost without a word: here
/// they fail instead. Every failure names standard output; a closed pipe
/// stays [`io::ErrorKind::BrokenPipe`], which ends a command quietly.
pub struct Stdout(io::Stdout);

/// Standard output for a report; buffer it where rows come one by one.
pub fn stdout() -> Stdout {
    Stdout(io::stdout())
}

/// An error if the shell closed standard output.
fn not_closed() -> io::Result<()> {
    static CLOSED: OnceLock<bool> = OnceLock::new();
    if *CLOSED.get_or_init(closed_by_the_shell) {
        return Err(io::Error::other("cannot write to standard output: it is closed"));
    }
    Ok(())
}

/// An error writing standard output, saying where.
fn named(e: io::Error) -> io::Error {
    if e.kind() == io::ErrorKind::BrokenPipe {
        return e;
    }
    io::Error::new(e.kind(), format!("cannot write to standard output: {}", io_message(&e)))
}

impl Write for Stdout {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        not_closed()?;
        self.0.write(bytes).map_err(named)
    }

    fn flush(&mut self) -> io::Result<()> {
        not_closed()?;
        self.0.flush().map_err(named)
    }
}

/// Whether standard output is the `/dev/null` Rust's runtime opened in
/// place of a closed one: it opens it for reading and writing, where a
/// shell's `> /dev/null` opens it for writing only. (`1<> /dev/null` looks
/// the same, and is taken for closed.)
#[cfg(unix)]
fn closed_by_the_shell() -> bool {
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    let Ok(null) = std::fs::metadata("/dev/null") else {
        return false;
    };
    // SAFETY: F_GETFL only reads the flags of descriptor 1.
    let flags = unsafe { libc::fcntl(1, libc::F_GETFL) };
    if flags < 0 {
        return true;
    }
    let mut stat = std::mem::MaybeUninit::<libc::stat>::zeroed();
    // SAFETY: fstat writes the descriptor's status into `stat`, which is
    // large enough; it is read only on success.
    let out = unsafe { (libc::fstat(1, stat.as_mut_ptr()) == 0).then(|| stat.assume_init()) };
    flags & libc::O_ACCMODE == libc::O_RDWR
        && null.file_type().is_char_device()
        && out.is_some_and(|out| out.st_mode & libc::S_IFMT == libc::S_IFCHR && out.st_rdev == null.rdev())
}

#[cfg(not(unix))]
fn closed_by_the_shell() -> bool {
    false
}

/// What `--help` and `--version` print, held to the same rule as the
/// reports: exit 2 with one line when it cannot be written.
pub fn help(shown: &clap::Error) -> Exit {
    let printed = not_closed().and_then(|()| shown.print().map_err(named)).and_then(|()| stdout().flush());
    match printed {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            note!("{e}");
            Exit::Trouble
        }
        _ => Exit::Success,
    }
}

pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain()
        .any(|cause| cause.downcast_ref::<io::Error>().is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe))
}

/// `verdict`, already reached, when writing the report failed only because
/// standard output was closed (`| head -1`): the reader left, but the answer
/// stands. Any other failure is an error.
pub fn verdict_despite_closed_pipe(written: anyhow::Result<()>, verdict: Exit) -> anyhow::Result<Exit> {
    match written {
        Err(err) if !is_broken_pipe(&err) => Err(err),
        _ => Ok(verdict),
    }
}

/// Whether shortest-path search mostly fails to finish on boards of
/// `shape`: past the 15-puzzle's 16 cells, whatever the shape. Cells, not
/// sides: a 3×5 or 2×8 has no more arrangements than a 4×4, and a 3×6 or
/// 2×9 has 306 times as many.
pub fn past_optimal_reach(shape: Shape) -> bool {
    shape.cells() > 16
}

/// What to try when a shortest-path search (or a weighted one) stopped at
/// a limit on a board [`past_optimal_reach`]: the options that finish. With
/// pattern databases (`pdb`) the 24- and 35-puzzles are within reach of
/// optimal search, in hours rather than never, and the answers proven
/// within a bound come in seconds.
pub fn finishing_hint(algorithm: Algorithm, pdb: bool) -> Option<&'static str> {
    match algorithm {
        Algorithm::AStar | Algorithm::IdaStar | Algorithm::Fringe if pdb => Some(
            "hint: even with pattern databases a shortest path of a board this size can take hours; --within \
             1.1 gives a path proven at most 1.1 times the shortest (most 24-puzzles in seconds), --algo anytime \
             the best path found in --timeout with the lower bound it proved",
        ),
        Algorithm::AStar | Algorithm::IdaStar | Algorithm::Fringe => Some(
            "hint: boards of more than 16 cells are mostly out of reach of shortest-path search; try --weight \
             3 or 4 (paths at most 3 or 4 times the shortest, in practice far less; up to 7x7), --algo greedy \
             (fast, longer paths) or --algo rows (any size, 100x100 in about 1 s; longer still)",
        ),
        Algorithm::WeightedAStar(_) | Algorithm::WeightedIdaStar(_) => Some(
            "hint: a larger --weight searches fewer nodes; --algo greedy and --algo rows (any size, 100x100 \
             in about 1 s) finish where weighted search does not",
        ),
        _ => None,
    }
}

/// What to try when a search stopped at a limit on a board of `shape`, if
/// another finishes sooner. Past [`past_optimal_reach`], what
/// [`finishing_hint`] offers. Within it, IDA* with the pattern databases
/// where they are built for the shape (the 15-puzzle: milliseconds where
/// A* with Manhattan distance fills its memory in tens of seconds), and
/// elsewhere a good estimate for a search without one.
pub fn faster_road(algorithm: Algorithm, heuristic: HeuristicKind, shape: Shape) -> Option<&'static str> {
    use HeuristicKind::{Euclidean, Hamming, Pdb, Zero};
    if past_optimal_reach(shape) {
        return finishing_hint(algorithm, heuristic == Pdb);
    }
    if matches!(algorithm, Algorithm::Rows | Algorithm::Anytime) {
        return None;
    }
    if PartitionSet::defaults_for(shape).next().is_some() {
        let fastest = heuristic == Pdb && matches!(algorithm, Algorithm::IdaStar | Algorithm::Fringe);
        return (!fastest).then_some(
            "hint: --algo idastar --heuristic pdb finds shortest paths of 15-puzzles in milliseconds (Korf's 100 \
             in 0.12 s on two cores) and stores only its path; its tables are built once, in a few minutes",
        );
    }
    let uninformed = matches!(algorithm, Algorithm::Bfs | Algorithm::Dfs)
        || matches!(heuristic, Zero | Hamming | Euclidean);
    uninformed.then_some(
        "hint: --algo idastar --heuristic linear-conflict finds shortest paths expanding far fewer nodes than a \
         search with no estimate or a weak one, and stores only its path",
    )
}

/// How long a stopped `solve` must have searched before it is worth
/// telling the user the work is lost: `batch`'s default interval between
/// saves, a minute.
const WORTH_KEEPING: Duration = SAVE_EVERY;

/// What to say when a `solve` whose search ran at least [`WORTH_KEEPING`]
/// was stopped by its timeout or by Ctrl-C: `solve` keeps nothing, but the
/// same IDA* search as a batch of one with `--out` saves where it stands,
/// and `--resume` goes on from there.
pub fn keeping_hint(algorithm: Algorithm, status: Status, searched: Duration) -> Option<&'static str> {
    let stopped = matches!(status, Status::Limit(LimitKind::Time(_) | LimitKind::Interrupted));
    (stopped && saves_progress(algorithm) && searched >= WORTH_KEEPING).then_some(
        "hint: a stopped solve keeps nothing; as a batch of one (npuzzle batch FILE --out rows.csv and the \
         same flags) the search saves its progress every minute, and --resume goes on from there",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn with_pattern_databases_the_hint_offers_bounded_answers_not_weaker_searches() {
        let with = finishing_hint(Algorithm::IdaStar, true).unwrap();
        assert!(with.contains("--within 1.1") && with.contains("--algo anytime"), "{with}");
        assert!(!with.contains("out of reach"), "{with}");
        let without = finishing_hint(Algorithm::IdaStar, false).unwrap();
        assert!(without.contains("--weight 3") && without.contains("--algo rows"), "{without}");
    }

    #[test]
    fn within_optimal_reach_the_hint_names_a_faster_search_only_where_there_is_one() {
        use HeuristicKind::{LinearConflict, Manhattan, Pdb, Zero};
        let (fifteen, eight, five) = (Shape::square(4), Shape::square(3), Shape::square(5));
        let tables = faster_road(Algorithm::AStar, Manhattan, fifteen).unwrap();
        assert!(tables.contains("--algo idastar --heuristic pdb"), "{tables}");
        assert_eq!(faster_road(Algorithm::Bfs, Zero, fifteen), Some(tables));
        assert_eq!(faster_road(Algorithm::IdaStar, Pdb, fifteen), None, "already the fastest");
        assert_eq!(faster_road(Algorithm::Fringe, Pdb, fifteen), None, "already the fastest");
        // No tables for the 8-puzzle: a good estimate is the road.
        let informed = faster_road(Algorithm::Bfs, Manhattan, eight).unwrap();
        assert!(informed.contains("--heuristic linear-conflict"), "{informed}");
        assert_eq!(faster_road(Algorithm::AStar, Zero, eight), Some(informed));
        assert_eq!(faster_road(Algorithm::AStar, Manhattan, eight), None);
        assert_eq!(faster_road(Algorithm::IdaStar, LinearConflict, eight), None);
        // Past 16 cells, the options that finish there.
        assert_eq!(faster_road(Algorithm::AStar, Manhattan, five), finishing_hint(Algorithm::AStar, false));
    }

    #[test]
    fn a_long_idastar_solve_stopped_by_time_or_ctrl_c_is_told_how_to_keep_its_work() {
        let (hour, second) = (Duration::from_secs(3600), Duration::from_secs(1));
        let timeout = Status::Limit(LimitKind::Time(hour));
        let stopped = Status::Limit(LimitKind::Interrupted);
        let hint = keeping_hint(Algorithm::IdaStar, stopped, hour).unwrap();
        assert!(hint.contains("--out") && hint.contains("--resume"), "{hint}");
        assert!(keeping_hint(Algorithm::IdaStar, timeout, WORTH_KEEPING).is_some());
        // Too short to matter, a limit that would stop it again, or a
        // search that saves nothing in a batch either.
        assert!(keeping_hint(Algorithm::IdaStar, stopped, second).is_none());
        assert!(keeping_hint(Algorithm::IdaStar, Status::Limit(LimitKind::Expanded(5)), hour).is_none());
        assert!(keeping_hint(Algorithm::IdaStar, Status::Solved, hour).is_none());
        assert!(keeping_hint(Algorithm::AStar, stopped, hour).is_none());
    }
}
