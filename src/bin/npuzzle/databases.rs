/*!
The pattern databases a command needs, from its `--pdb-dir` and
`--partition` flags: read from the cache directory, or built there once
(minutes, with a progress bar on a terminal).
*/

use crate::cli::{GoalArg, PdbArgs};
use crate::output::note;
use crate::progress::Progress as Bar;
use crate::settings::Deadline;
use anyhow::{Context, Result, anyhow};
use npuzzle::batch::TableSource;
use npuzzle::board::Shape;
use npuzzle::heuristic::pdb::{self, Estimates, Event, Notice, PartitionSet, Pdb, PdbError, Phase};
use npuzzle::search::DEFAULT_BUDGET;
use npuzzle::{Algorithm, Goal, HeuristicKind, Tables};
use std::borrow::Cow;
use std::io;
use std::path::PathBuf;
use std::sync::{Arc, mpsc};
use std::thread;
use std::time::Duration;

/// `--pdb-dir`, else the user's cache directory.
pub fn directory(args: &PdbArgs) -> Result<PathBuf> {
    args.pdb_dir.clone().or_else(pdb::default_dir).ok_or_else(|| {
        anyhow!("no cache directory for pattern databases (neither XDG_CACHE_HOME nor HOME is set): use --pdb-dir DIR")
    })
}

/// `--partition`, else the default for boards of `shape` searched by a
/// search that gets its `estimates` so; `None` when no partition is built
/// in for them (the search then says so).
pub fn partition(args: &PdbArgs, shape: Shape, estimates: Estimates) -> Option<PartitionSet> {
    args.partition.or_else(|| PartitionSet::default_for(shape, estimates))
}

/// Whether `algorithm` with `heuristic` searches with pattern databases.
pub fn wanted(algorithm: Algorithm, heuristic: HeuristicKind) -> bool {
    algorithm.informed() && heuristic == HeuristicKind::Pdb
}

/// The tables a search towards `goal` needs: the databases for `goal`,
/// loaded or built, when `--heuristic pdb` applies; none for a board size
/// without a partition (the search then reports why the heuristic does not
/// apply). With a `deadline`, a build that is needed is announced first, and
/// loading or building gives up when the deadline passes (ending the
/// command, which leaves no half-written file: tables are written under a
/// temporary name and renamed when whole).
pub fn for_search(
    algorithm: Algorithm,
    heuristic: HeuristicKind,
    goal: &Goal,
    goal_arg: &GoalArg,
    args: &PdbArgs,
    deadline: Option<Deadline>,
) -> Result<Tables> {
    let partition = partition(args, goal.shape(), algorithm.estimates());
    let Some(partition) = partition.filter(|_| wanted(algorithm, heuristic)) else {
        return Ok(Tables::NONE);
    };
    // A partition of another shape is the user's choice to fix, not the cache's.
    partition.tables(goal)?;
    let dir = directory(args)?;
    let make = {
        let (goal, dir) = (goal.clone(), dir.clone());
        move || {
            with_bar(|report| Pdb::load_or_build(&goal, partition, &dir, report))
                .with_context(|| format!("cannot make pattern databases in {}", dir.display()))
        }
    };
    let pdb = match deadline {
        None => make()?,
        Some(deadline) => {
            let missing = Pdb::paths(goal, partition, &dir)?.iter().any(|path| !path.exists());
            if missing {
                note!(
                    "building the {partition} pattern databases first ({}), which --timeout counts; \
                     `{}` makes them ahead of time",
                    partition.about(),
                    build_command(partition, goal_arg, args)
                );
            }
            let (done, finished) = mpsc::channel();
            // Abandoned if the deadline passes: the process ends with it.
            thread::Builder::new()
                .name("tables".into())
                .spawn(move || {
                    // Nobody listens once the deadline passed: nothing to do.
                    let _ = done.send(make());
                })
                .context("cannot start a thread for the pattern databases")?;
            let wait = deadline.left();
            let Ok(pdb) = finished.recv_timeout(wait) else {
                let doing = if missing { "building" } else { "loading" };
                return Err(deadline.passed(format!("{doing} the {partition} pattern databases")));
            };
            pdb?
        }
    };
    Ok(Tables::from(Arc::new(pdb)))
}

/// The tables for a batch: a batch reads its puzzles as it runs, so the
/// databases are loaded or built for each goal shape when its first puzzle
/// comes; a shape without them gets error rows saying why.
pub fn for_batch(
    algorithm: Algorithm,
    heuristic: HeuristicKind,
    goal_arg: &GoalArg,
    args: &PdbArgs,
) -> TableSource {
    if !wanted(algorithm, heuristic) {
        return TableSource::none();
    }
    let (goal_arg, args) = (goal_arg.clone(), args.clone());
    TableSource::new(move |goal| {
        for_search(algorithm, heuristic, goal, &goal_arg, &args, None).map_err(|e| format!("{e:#}"))
    })
}

/// The tables for a batch that takes the strongest heuristic at hand: each
/// goal shape's databases if they are built (never building them), else
/// none, and the batch uses linear conflicts for that shape.
pub fn for_batch_if_built(algorithm: Algorithm, goal_arg: &GoalArg, args: &PdbArgs) -> TableSource {
    let (goal_arg, args) = (goal_arg.clone(), args.clone());
    TableSource::new(move |goal| Ok(strongest_built(algorithm, goal, &goal_arg, &args, Time::Batch)))
}

/// The time the searches that read a command's tables have, against which
/// loading them is weighed.
#[derive(Clone, Copy, Debug)]
pub enum Time {
    /// A batch's: the tables load once for all its puzzles.
    Batch,
    /// One search's, until the deadline if there is one.
    Solve(Option<Deadline>),
}

impl Time {
    /// Whether a `solve` was given less than `budget` in all (its
    /// `--timeout`): one without has all the time it needs, but for anytime
    /// search's own budget.
    fn under(self, budget: Duration, algorithm: Algorithm) -> bool {
        match self {
            Time::Batch => false,
            Time::Solve(Some(deadline)) => deadline.timeout < budget,
            Time::Solve(None) => algorithm == Algorithm::Anytime && DEFAULT_BUDGET < budget,
        }
    }

    /// Whether a `solve` has a deadline less than `budget` away.
    fn pressed(self, budget: Duration) -> bool {
        matches!(self, Time::Solve(Some(deadline)) if deadline.left() < budget)
    }
}

/// Budgets under which a single search takes the tables that map at once
/// rather than the zero-aware ones, whose copy into memory takes a few
/// tenths of a second.
const QUICK_BUDGET: Duration = Duration::from_secs(2);

/// The most bytes of tables a search with under [`QUICK_BUDGET`] to run
/// loads: every 4×4 and 5×5 set (0.58 GB at the most, mapped and checked
/// in a few tenths of a second), not 6×6's 1.03 GB, which took 0.6 to 3 s.
const QUICK_BYTES: u64 = 768 << 20;

/// Budgets under which anytime search on a larger board does without its
/// blocks' tables: loading them (they are checked as they are read) takes
/// a tenth of a second or more, and a staged search needs a few tenths to
/// reach its block at all.
const BLOCKS_BUDGET: Duration = Duration::from_millis(500);

/// Budgets under which anytime search on a board larger than the 24-puzzle
/// does without the whole board's tables (6×6's take 0.6 to 3 s to load)
/// and is staged instead. A batch loads them once for all its puzzles.
const WHOLE_BUDGET: Duration = Duration::from_secs(5);

/// The strongest databases built for `goal`: `--partition` if given, else
/// the zero-aware set IDA* reads (the best-first searches read it through
/// their memos, and it guides them to shorter answers in fewer nodes),
/// else the blank-minimised set; none if neither is built. A `solve` with
/// less than [`QUICK_BUDGET`] left takes the blank-minimised set first:
/// the zero-aware one takes longer to load than the search may run; and
/// no set of more than [`QUICK_BYTES`] is loaded. For `anytime` on a board
/// larger than the 24-puzzle, the whole board's tables when there are
/// [`WHOLE_BUDGET`] or more to use them, else with [`BLOCKS_BUDGET`] or
/// more the strongest built for each block its staged searches leave in
/// the middle.
pub fn strongest_built(
    algorithm: Algorithm,
    goal: &Goal,
    goal_arg: &GoalArg,
    args: &PdbArgs,
    time: Time,
) -> Tables {
    let blocks = if algorithm == Algorithm::Anytime { Tables::block_goals(goal) } else { Vec::new() };
    if !blocks.is_empty() {
        if !time.under(WHOLE_BUDGET, algorithm) {
            let whole = whole_built(goal, goal_arg, args, time);
            if whole.pdb.is_some() {
                return whole;
            }
        }
        if !time.pressed(BLOCKS_BUDGET) {
            let blocks = blocks.iter().filter_map(|block| whole_built(block, goal_arg, args, time).pdb);
            return Tables { pdb: None, blocks: blocks.collect() };
        }
    }
    whole_built(goal, goal_arg, args, time)
}

/// [`strongest_built`] for the whole board of `goal`.
fn whole_built(goal: &Goal, goal_arg: &GoalArg, args: &PdbArgs, time: Time) -> Tables {
    if args.partition.is_some() {
        return if_built(goal, goal_arg, args).unwrap_or(Tables::NONE);
    }
    let quick = time.pressed(QUICK_BUDGET);
    let order = if quick {
        [Estimates::FromScratch, Estimates::FromParent]
    } else {
        [Estimates::FromParent, Estimates::FromScratch]
    };
    let Ok(dir) = directory(args) else {
        return Tables::NONE;
    };
    for estimates in order {
        let Some(partition) = PartitionSet::default_for(goal.shape(), estimates) else {
            continue;
        };
        let Ok(paths) = Pdb::paths(goal, partition, &dir) else {
            continue;
        };
        let bytes: Option<u64> = paths.iter().map(|p| p.metadata().ok().map(|m| m.len())).sum();
        let fits = bytes.is_some_and(|bytes| !quick || bytes <= QUICK_BYTES);
        if fits && let Ok(pdb) = with_bar(|report| Pdb::load(goal, partition, &dir, report)) {
            return Tables::from(Arc::new(pdb));
        }
    }
    Tables::NONE
}

/// The databases for `goal` if they are already built and verify, else why
/// not (with how to build them); no tables for other widths. `compare` and
/// `check` use this: they never start a build the user did not ask for.
/// Unless `--partition` says otherwise these are the best-first searches'
/// tables, which every search reads at its own speed.
pub fn if_built(goal: &Goal, goal_arg: &GoalArg, args: &PdbArgs) -> Result<Tables, String> {
    let Some(partition) = partition(args, goal.shape(), Estimates::FromScratch) else {
        return Ok(Tables::NONE);
    };
    let loaded = directory(args).and_then(|dir| {
        with_bar(|report| Pdb::load(goal, partition, &dir, report)).map_err(anyhow::Error::from)
    });
    loaded.map(|pdb| Tables::from(Arc::new(pdb))).map_err(|e| {
        let why = match e.downcast_ref::<PdbError>() {
            Some(PdbError::Io { source, .. }) if source.kind() == io::ErrorKind::NotFound => {
                "not built yet".to_owned()
            }
            _ => format!("{e:#}"),
        };
        format!("{why}; `{}` makes it", build_command(partition, goal_arg, args))
    })
}

/// The `pdb build` command that makes `partition`'s tables where this
/// command looks for them: the same `--pdb-dir` and goal (the partition
/// gives the size).
fn build_command(partition: PartitionSet, goal_arg: &GoalArg, args: &PdbArgs) -> String {
    let dir = args
        .pdb_dir
        .as_ref()
        .map_or_else(String::new, |dir| format!(" --pdb-dir {}", shell_word(&dir.to_string_lossy())));
    let goal = if goal_arg.text == "blank-first" {
        String::new()
    } else {
        format!(" --goal {}", shell_word(&goal_arg.text))
    };
    format!("npuzzle pdb build --partition {partition}{goal}{dir}")
}

/// `text` as one word of a shell command: as it is if that is safe, else in
/// single quotes.
fn shell_word(text: &str) -> Cow<'_, str> {
    let plain = |c: char| c.is_ascii_alphanumeric() || "/._-+,:=@%".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(format!("'{}'", text.replace('\'', r"'\''")))
    }
}

/// Runs a load or build with a progress bar on standard error when it is a
/// terminal, one bar per step; notices are printed as warnings.
pub fn with_bar<T>(work: impl FnOnce(&mut dyn FnMut(Event<'_>)) -> T) -> T {
    let mut bar = Bar::percent(0);
    let mut step = None;
    let result = work(&mut |event: Event<'_>| match event {
        Event::Progress(p) => {
            if step != Some((p.phase, p.pattern)) {
                step = Some((p.phase, p.pattern));
                let what = match p.phase {
                    Phase::Loading => "loading",
                    Phase::Building => "building",
                    Phase::Saving => "saving",
                };
                let label = format!(
                    "{what} pattern database {}/{} ({} tiles)",
                    p.pattern + 1,
                    p.patterns,
                    p.tiles.len()
                );
                bar.restart(label, p.total as usize);
            }
            bar.set(p.done as usize);
        }
        Event::Notice(notice) => bar.suspend(|| eprintln!("npuzzle: warning: {}", describe(notice))),
    });
    bar.finish();
    result
}

/// One line for a notice.
fn describe(notice: Notice<'_>) -> String {
    match notice {
        Notice::Rebuilding { path, why } => format!("{}: {why}; building it again", path.display()),
        Notice::NotSaved { path, why } => {
            format!("cannot save {}: {why}; the tables serve this run only", path.display())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    fn solve_within(seconds: u64) -> Time {
        let timeout = Duration::from_secs(seconds);
        Time::Solve(Some(Deadline { timeout, at: Instant::now() + timeout }))
    }

    #[test]
    fn a_batch_loads_its_tables_once_so_no_budget_is_too_short_for_them() {
        assert!(!Time::Batch.under(WHOLE_BUDGET, Algorithm::Anytime));
        assert!(!Time::Batch.pressed(QUICK_BUDGET));
    }

    #[test]
    fn anytime_without_a_timeout_has_its_default_budget_and_other_searches_all_the_time() {
        assert!(Time::Solve(None).under(WHOLE_BUDGET, Algorithm::Anytime));
        assert!(!Time::Solve(None).under(WHOLE_BUDGET, Algorithm::IdaStar));
        assert!(!Time::Solve(None).pressed(QUICK_BUDGET));
    }

    #[test]
    fn a_solve_weighs_its_timeout_and_the_time_left_before_its_deadline() {
        // A `--timeout 5` counts as five seconds, though some are gone by
        // the time the tables are chosen.
        assert!(!solve_within(WHOLE_BUDGET.as_secs()).under(WHOLE_BUDGET, Algorithm::Anytime));
        assert!(solve_within(1).under(WHOLE_BUDGET, Algorithm::Anytime));
        assert!(solve_within(1).pressed(QUICK_BUDGET));
        assert!(!solve_within(60).pressed(QUICK_BUDGET));
    }
}
