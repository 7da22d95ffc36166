/*!
The pattern databases a command needs, from its `--pdb-dir` and
`--partition` flags: read from the cache directory, or built there once
(minutes, with a progress bar on a terminal).
*/

use crate::cli::{GoalArg, PdbArgs};
use crate::output::note;
use crate::progress::Progress as Bar;
use crate::settings::out_of_time;
use anyhow::{Context, Result, anyhow};
use npuzzle::batch::TableSource;
use npuzzle::board::Shape;
use npuzzle::heuristic::pdb::{
    self, Deadline, Estimates, Event, Notice, PartitionSet, Pdb, PdbError, Phase, Time,
};
use npuzzle::{Algorithm, Goal, HeuristicKind, Tables};
use std::borrow::Cow;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, mpsc};
use std::thread;

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
                return Err(out_of_time(deadline, format!("{doing} the {partition} pattern databases")));
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
pub fn for_batch_if_built(algorithm: Algorithm, args: &PdbArgs) -> TableSource {
    let args = args.clone();
    TableSource::new(move |goal| Ok(strongest_built(algorithm, goal, &args, Time::Batch)))
}

/// The strongest databases built for `goal` in the cache directory, as the
/// library chooses them for `algorithm` with `time` to run (see
/// [`Tables::strongest_built`]), `--partition` if given; none without a
/// cache directory. Never builds.
pub fn strongest_built(algorithm: Algorithm, goal: &Goal, args: &PdbArgs, time: Time) -> Tables {
    let Ok(dir) = directory(args) else {
        return Tables::NONE;
    };
    let mut load =
        |goal: &Goal, partition, dir: &Path| with_bar(|report| Pdb::load(goal, partition, dir, report));
    Tables::strongest_built(algorithm, goal, args.partition, &dir, time, &mut load)
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
