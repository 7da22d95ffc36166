/*!
Solving one puzzle of a batch: read it, build its goal, search under the
batch's settings, and turn every failure into an error row rather than an
error that stops the batch.
*/

use super::saved::{ProgressFolder, Saved};
use super::{Item, Source, TableSource};
use crate::board::{
    Goal, GoalSpec, Input, MAX_INPUT_BYTES, ParseErrorKind, Shape, Tiles, parse_board_with, read_text,
    stated_optimum,
};
use crate::heuristic::HeuristicKind;
use crate::report::Record;
use crate::search::{Algorithm, Limits, Monitor, Prepared, Tables, default_max_nodes_for};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// How every puzzle of a batch is solved.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The goal, built for each puzzle's shape.
    pub goal: GoalSpec,
    /// The shape of puzzles that do not show their own (`--size`).
    pub size: Option<Shape>,
    /// The algorithm.
    pub algorithm: Algorithm,
    /// The heuristic, for informed algorithms.
    pub heuristic: HeuristicKind,
    /// Limits for each puzzle. With no `max_nodes`, each job gets the
    /// single-search default divided by the number of jobs, so all jobs
    /// together stay under one search's memory ceiling. `cancel` stops the
    /// searches under way and starts no more.
    pub limits: Limits,
    /// Whether paths are shortened once found ([`Prepared::shortening`]).
    pub shorten: bool,
    /// The flags that shape answers besides the algorithm, heuristic,
    /// weight and goal ([`answer_flags`](super::answer_flags)), which every
    /// row records.
    pub flags: Arc<str>,
    /// Puzzles solved at once (at least 1).
    pub jobs: usize,
    /// Threads per search (`--threads`). `None` shares the machine's cores
    /// among the puzzles running at once, `cores / jobs` each; a puzzle
    /// that starts when fewer than `jobs` are left to start gets a larger
    /// share, so a long last puzzle does not leave cores idle.
    pub threads: Option<usize>,
    /// The heuristic tables (pattern databases) of each goal shape, made
    /// when its first puzzle comes and shared by all jobs.
    pub tables: Arc<TableSource>,
    /// Whether a shape whose tables are at hand is searched with them
    /// whatever `heuristic` says (the strongest heuristic available).
    pub strongest: bool,
    /// The folder where long IDA* searches save their progress and a run
    /// taken up finds it ([`ProgressFolder`]); `None`
    /// saves nothing.
    pub saved_progress: Option<ProgressFolder>,
    /// How often they save it ([`SAVE_EVERY`](super::SAVE_EVERY) by default).
    pub save_every: Duration,
    /// Whether the searches under way share their live figures, so that
    /// each [`Event::Tick`](super::Event::Tick) can name the one that has
    /// run longest and how far it has got: a run of hours-long searches
    /// then shows more than its count of finished puzzles.
    pub watch: bool,
}

/// The single-search default node limit of `algorithm` for a board of
/// `shape`, shared among `jobs`.
pub fn default_max_nodes_per_job(shape: impl Into<Shape>, algorithm: Algorithm, jobs: usize) -> u64 {
    (default_max_nodes_for(shape.into(), algorithm) / jobs.max(1) as u64).max(1)
}

/// What one worker keeps from puzzle to puzzle: the goal of the last shape
/// it met, with its heuristic tables, so a batch of small puzzles builds
/// them once per worker rather than once per puzzle.
#[derive(Debug, Default)]
pub struct Worker {
    prepared: Option<(Prepared, Tables)>,
    /// Where its searches leave their live figures, when they are watched.
    monitor: Option<Arc<Monitor>>,
}

impl Worker {
    /// A worker whose searches leave their live figures in `monitor`.
    pub fn watched(monitor: Arc<Monitor>) -> Worker {
        Worker { prepared: None, monitor: Some(monitor) }
    }
}

/// Solves one puzzle on `worker` with `threads` for its search, `jobs`
/// puzzles sharing the memory; every failure becomes an `error` row, and
/// what the user should hear of that is not a row goes to `notice` (saved
/// progress that could not be taken up). The row is named after the
/// puzzle and records the run's flags.
pub fn solve_item(
    item: &Item,
    settings: &Settings,
    jobs: usize,
    threads: usize,
    worker: &mut Worker,
    notice: &mut dyn FnMut(&str),
) -> Record {
    let mut record = row_of(item, settings, jobs, threads, worker, notice);
    record.file = Some(item.name().to_owned());
    record.flags = Some(Arc::clone(&settings.flags));
    record
}

/// The row of `item`, as [`solve_item`] gives it but unnamed.
fn row_of(
    item: &Item,
    settings: &Settings,
    jobs: usize,
    threads: usize,
    worker: &mut Worker,
    notice: &mut dyn FnMut(&str),
) -> Record {
    let fail = |start, message| Record::failed(settings.algorithm, settings.heuristic, start, message);
    let read;
    let (start, expected) = match &item.source {
        Source::Problem(problem) => return fail(None, problem.clone()),
        Source::Stdin => return fail(None, "standard input is a list, read before the run".to_owned()),
        Source::Listed { board, expected } => (board, *expected),
        Source::File(path) => match read_board(path, settings.size, settings.limits.cancel.as_deref()) {
            Ok((board, expected)) => {
                read = board;
                (&read, expected)
            }
            Err(Unread::Interrupted) => return Record::interrupted(settings.algorithm, settings.heuristic),
            Err(Unread::Bad(message)) => return fail(None, message),
        },
    };
    let saved = settings.saved_progress.as_ref().map(|folder| Saved::new(folder, item.name()));
    let mut record = solve_board(start, settings, jobs, threads, worker, saved.as_ref(), notice);
    record.expected = expected;
    record
}

/// The row of one board.
fn solve_board(
    start: &Tiles,
    settings: &Settings,
    jobs: usize,
    threads: usize,
    worker: &mut Worker,
    saved: Option<&Saved>,
    notice: &mut dyn FnMut(&str),
) -> Record {
    let fail = |message| Record::failed(settings.algorithm, settings.heuristic, Some(start), message);
    let shape = start.shape();
    let (prepared, tables) = match &mut worker.prepared {
        Some((prepared, tables)) if prepared.goal().shape() == shape => {
            // Asked for each puzzle: a long batch's tables are upgraded
            // once they have served enough puzzles (see `tables.rs`).
            match settings.tables.get(prepared.goal()) {
                Ok(current) => *tables = current,
                Err(message) => return fail(message),
            }
            (prepared, tables)
        }
        slot => {
            let goal = match Goal::new(&settings.goal, shape) {
                Ok(goal) => goal,
                Err(e) => return fail(e.to_string()),
            };
            let tables = match settings.tables.get(&goal) {
                Ok(tables) => tables,
                Err(message) => return fail(message),
            };
            let heuristic =
                if settings.strongest { tables.strongest(settings.heuristic) } else { settings.heuristic };
            let prepared = Prepared::new(goal, settings.algorithm, heuristic).shortening(settings.shorten);
            let (prepared, tables) = slot.insert((prepared, tables));
            (prepared, tables)
        }
    };
    let mut limits = Limits { sharing: jobs as u32, threads, ..settings.limits.clone() };
    if let Some(monitor) = &worker.monitor {
        limits.monitor = Some(Arc::clone(monitor));
    }
    if limits.max_nodes.is_none() {
        limits.max_nodes = Some(default_max_nodes_per_job(shape, settings.algorithm, jobs));
    }
    limits.progress = saved.and_then(|saved| {
        saved.saver(
            settings.algorithm,
            prepared.heuristic(),
            start,
            prepared.goal().tiles(),
            settings.save_every,
            notice,
        )
    });
    let record = match prepared.solve(start, &limits, tables) {
        Ok(outcome) => Record::new(settings.algorithm, prepared.heuristic(), start, prepared.goal(), outcome),
        Err(e) => fail(e.to_string()),
    };
    // Progress is kept for a search stopped by Ctrl-C, to be taken up.
    if let Some(saved) = saved
        && !record.interrupted
    {
        saved.forget();
    }
    record
}

/// Why a puzzle file gave no board.
enum Unread {
    /// Ctrl-C came while the read was blocked (a FIFO nobody writes to).
    Interrupted,
    /// The message of an error row.
    Bad(String),
}

/// The board of the puzzle file at `path` (with `size` for one that does not
/// give its shape), if it holds one; a FIFO is not waited on.
pub fn board_of(path: &Path, size: Option<Shape>) -> Option<Vec<u16>> {
    if !std::fs::metadata(path).is_ok_and(|meta| meta.is_file()) {
        return None;
    }
    read_board(path, size, None).ok().map(|(board, _)| board.cells().to_vec())
}

/// Reads a puzzle file with `solve`'s reader (a read that blocks gives up
/// when `cancel` is set), with the length its `# optimal:` comment states.
fn read_board(
    path: &Path,
    size: Option<Shape>,
    cancel: Option<&AtomicBool>,
) -> Result<(Tiles, Option<u32>), Unread> {
    let text =
        read_text(&Input::File(path.to_path_buf()), MAX_INPUT_BYTES, cancel).map_err(|kind| match kind {
            ParseErrorKind::Interrupted => Unread::Interrupted,
            other => Unread::Bad(other.to_string()),
        })?;
    let board = parse_board_with(&text, size).map_err(|(line, kind)| {
        Unread::Bad(match line {
            Some(line) => format!("line {line}: {kind}"),
            None => kind.to_string(),
        })
    })?;
    Ok((board, stated_optimum(&text)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_node_limit_is_shared_among_jobs() {
        for algorithm in Algorithm::ALL {
            let one = default_max_nodes_per_job(3, algorithm, 1);
            assert_eq!(one, crate::search::default_max_nodes::<crate::board::Packed>(algorithm));
            assert_eq!(default_max_nodes_per_job(3, algorithm, 4), one / 4);
            let wide = crate::search::default_max_nodes::<crate::board::Packed128>(algorithm);
            assert_eq!(default_max_nodes_per_job(5, algorithm, 2), wide / 2);
        }
    }
}
