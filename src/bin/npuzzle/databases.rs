/*!
The pattern databases a command needs: read from the cache directory, or
built there once (minutes, with a progress bar on a terminal); and
`npuzzle pdb build`, which does that ahead of time.
*/

use crate::cli::{PartitionArg, PdbArgs, PdbBuildArgs};
use crate::exit::Exit;
use crate::goal_spec;
use crate::progress::Progress as Bar;
use anyhow::{Context, Result, anyhow, bail};
use npuzzle::heuristic::pdb::{self, Partition, Pdb, PdbError, Phase, Progress};
use npuzzle::{Algorithm, Goal, GoalSpec, HeuristicKind, PDB_WIDTH, Tables};
use std::borrow::Cow;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// The library's partition for `--partition`.
fn partition(arg: PartitionArg) -> Partition {
    match arg {
        PartitionArg::SevenEight => Partition::SevenEight,
        PartitionArg::SixSixThree => Partition::SixSixThree,
    }
}

/// `--pdb-dir`, else the user's cache directory.
fn directory(args: &PdbArgs) -> Result<PathBuf> {
    args.pdb_dir.clone().or_else(pdb::default_dir).ok_or_else(|| {
        anyhow!("no cache directory for pattern databases (neither XDG_CACHE_HOME nor HOME is set): use --pdb-dir DIR")
    })
}

/// Whether `algorithm` with `heuristic` searches with pattern databases.
pub fn wanted(algorithm: Algorithm, heuristic: HeuristicKind) -> bool {
    algorithm.informed() && heuristic == HeuristicKind::Pdb
}

/// The tables a search of a `goal.width()` board needs: the databases for
/// `goal`, loaded or built, when `--heuristic pdb` applies to it; none
/// otherwise (the search then reports why the heuristic does not apply).
pub fn for_search(
    algorithm: Algorithm,
    heuristic: HeuristicKind,
    goal: &Goal,
    args: &PdbArgs,
) -> Result<Tables> {
    if !wanted(algorithm, heuristic) || goal.width() != PDB_WIDTH {
        return Ok(Tables::NONE);
    }
    let dir = directory(args)?;
    let pdb = with_bar(|progress| Pdb::load_or_build(goal, partition(args.partition), &dir, progress))
        .with_context(|| format!("cannot store pattern databases in {}", dir.display()))?;
    Ok(Tables { pdb: Some(Arc::new(pdb)) })
}

/// The tables for a batch: a batch reads its puzzles later, so the databases
/// are made for the 4×4 goal of `spec`, unless that goal is another width.
pub fn for_batch(
    algorithm: Algorithm,
    heuristic: HeuristicKind,
    spec: &GoalSpec,
    args: &PdbArgs,
) -> Result<Tables> {
    if !wanted(algorithm, heuristic) || matches!(spec, GoalSpec::Board(tiles) if tiles.width() != PDB_WIDTH) {
        return Ok(Tables::NONE);
    }
    for_search(algorithm, heuristic, &Goal::new(spec, PDB_WIDTH)?, args)
}

/// The databases for `goal` if they are already built and verify, else why
/// not (with how to build them); no tables for other widths. `compare` and
/// `check` use this: they never start a build the user did not ask for.
pub fn if_built(goal: &Goal, args: &PdbArgs) -> Result<Tables, String> {
    if goal.width() != PDB_WIDTH {
        return Ok(Tables::NONE);
    }
    let partition = partition(args.partition);
    let loaded = directory(args).and_then(|dir| {
        with_bar(|progress| Pdb::load(goal, partition, &dir, progress)).map_err(anyhow::Error::from)
    });
    loaded.map(|pdb| Tables { pdb: Some(Arc::new(pdb)) }).map_err(|e| {
        let why = match e.downcast_ref::<PdbError>() {
            Some(PdbError::Io { source, .. }) if source.kind() == io::ErrorKind::NotFound => {
                "not built yet".to_owned()
            }
            _ => format!("{e:#}"),
        };
        // The same --pdb-dir, so the command builds where this one looked.
        let dir = args
            .pdb_dir
            .as_ref()
            .map_or_else(String::new, |dir| format!(" --pdb-dir {}", shell_word(&dir.to_string_lossy())));
        format!("{why}; `npuzzle pdb build --partition {partition}{dir}` makes it")
    })
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
/// terminal, one bar per step.
fn with_bar<T>(work: impl FnOnce(&mut dyn FnMut(Progress<'_>)) -> T) -> T {
    let mut bar = Bar::percent(0, io::stderr().is_terminal());
    let mut step = None;
    let result = work(&mut |p: Progress<'_>| {
        if step != Some((p.phase, p.pattern)) {
            step = Some((p.phase, p.pattern));
            let what = match p.phase {
                Phase::Loading => "loading",
                Phase::Building => "building",
                Phase::Saving => "saving",
            };
            let label =
                format!("{what} pattern database {}/{} ({} tiles)", p.pattern + 1, p.patterns, p.tiles.len());
            bar.restart(label, p.total as usize);
        }
        bar.set(p.done as usize);
    });
    bar.finish();
    result
}

/// `npuzzle pdb build`.
pub fn build(args: &PdbBuildArgs) -> Result<Exit> {
    let spec = goal_spec(&args.goal, None)?;
    let width = match &spec {
        GoalSpec::Board(tiles) => tiles.width(),
        _ => PDB_WIDTH,
    };
    if width != PDB_WIDTH {
        bail!("pattern databases are built for 4×4 goals, and --goal is {width}×{width}");
    }
    let goal = Goal::new(&spec, width)?;
    let partition = partition(args.pdb.partition);
    let dir = directory(&args.pdb)?;
    let started = Instant::now();
    let pdb = with_bar(|progress| {
        if args.force {
            Pdb::build(&goal, partition, &dir, progress)
        } else {
            Pdb::load_or_build(&goal, partition, &dir, progress)
        }
    })
    .with_context(|| format!("cannot build pattern databases in {}", dir.display()))?;
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "{partition} pattern databases for goal {} ready in {:.1} s: {}",
        args.goal.text,
        started.elapsed().as_secs_f64(),
        dir.display()
    )?;
    for (db, path) in pdb.databases().iter().zip(Pdb::paths(&goal, partition, &dir)?) {
        let tiles: Vec<String> = db.tiles().iter().map(u8::to_string).collect();
        let name = path.file_name().map_or_else(Default::default, |n| n.to_string_lossy().into_owned());
        writeln!(out, "  tiles {}: {} entries, {name}", tiles.join(" "), db.len())?;
    }
    let mirror = if pdb.mirrored() { "yes" } else { "no (the blank's goal cell is off the main diagonal)" };
    writeln!(out, "mirror lookup: {mirror}")?;
    out.flush()?;
    Ok(Exit::Success)
}
