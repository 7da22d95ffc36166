/*!
`npuzzle batch`: many puzzles on a pool of threads, rows streamed in input
order, a summary and an exit code for the whole run. Lists stream through
line by line; with `--out FILE` each row is flushed as it goes out, and
`--resume` continues a run that was stopped.
*/

use crate::cli::BatchArgs;
use crate::databases;
use crate::exit::Exit;
use crate::output::{counted, finishing_hint, note, past_optimal_reach};
use crate::progress::{Display, Progress};
use crate::settings::{Strategy, goal_spec, interrupt_flag, limits, refuse_node_limit, row_format, strategy};
use anyhow::{Context, Result, anyhow, bail};
use npuzzle::batch::{self, Event, Feed, Finished, Halt, Kept, LockError, OutputLock, ResumeError, Settings};
use npuzzle::board::{Input, Shape, read_input_with};
use npuzzle::cores;
use npuzzle::files::{FileError, check_target};
use npuzzle::report::{Column, Csv, Layout, Record, Reporter, RowFormat, RowStatus, WrittenError, reporter};
use npuzzle::{Algorithm, HeuristicKind};
use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// `npuzzle batch`.
pub fn run(args: &BatchArgs) -> Result<Exit> {
    let jobs = args.jobs.map_or_else(cores, |j| j as usize);
    let strategy = strategy(args.algorithm)?;
    let algorithm = strategy.algorithm;
    refuse_node_limit(algorithm, &args.search.limits)?;
    let settings = settings(args, strategy, jobs)?;
    if args.paths.iter().filter(|p| p.as_os_str() == batch::STDIN).count() > 1 {
        bail!("standard input (-) can be read once: name it once (a file called - is ./-)");
    }
    let to_terminal = args.out.is_none() && io::stdout().is_terminal();
    let format = format_of(args, to_terminal)?;
    // CSV rows name their board and carry their path, as JSON lines do.
    let columns = if format == RowFormat::Csv { Column::BATCH_CSV } else { Column::BATCH };
    let output = match &args.out {
        Some(path) => Some(Output::open(path, format, columns, args, &settings)?),
        None => None,
    };
    // A run that starts afresh does not take up an older run's searches.
    if let Some(folder) = &settings.saved_progress
        && !args.resume
    {
        folder.forget_earlier_runs();
    }
    let found = batch::discover(&args.paths, args.list);
    for skipped in &found.skipped {
        note!("skipping {}: {}", skipped.path.display(), skipped.reason);
    }
    let kept = output.as_ref().map(|o| o.kept.clone()).unwrap_or_default();
    let check = match &output {
        Some(output) if kept.rows > 0 => {
            Some(batch::check_against(&output.path, format, columns, args.size.size)?)
        }
        _ => None,
    };
    let feed = Feed::start(found.items, args.list, args.size.size, args.shard, kept.rows, check);
    // Reading may wait on a FIFO or a pipe; the line says so at once.
    let mut progress = Progress::new(feed.total());
    progress.restart("reading".to_owned(), feed.total());
    progress.set(0);

    // Held to the end of the run: no other run writes the file meanwhile.
    let (mut out, flush_each_row, _lock): (Box<dyn Reporter + Send>, bool, _) = match output {
        Some(output) => (output.reporter, true, output.lock),
        None => (reporter(format, BufWriter::new(crate::output::stdout())), to_terminal, None),
    };
    out.begin(&Layout { columns, file_width: feed.name_width() })?;
    out.flush()?;
    // The first line comes once the first puzzles are under way, one per
    // job (or all of them, when there are fewer), or with the second tick.
    progress.restart("solving".to_owned(), feed.total());
    let under_way = jobs.min(feed.total().unwrap_or(usize::MAX)).max(1);
    let (mut begun, mut ticks) = (false, 0);
    let mut past_reach = PastReach::default();
    // Rows of puzzles Ctrl-C stopped are not results: in a file they, and
    // every row after them, are left to `--resume`, which solves them again
    // (their searches from their saved progress).
    let to_file = args.out.is_some();
    let mut withheld = 0;
    let finished = batch::run(&feed, &settings, |event| match event {
        Event::Row(record) if to_file && (withheld > 0 || record.interrupted) => {
            withheld += 1;
            Ok(())
        }
        Event::Started { started } => {
            if !begun && started >= under_way {
                begun = true;
                progress.refresh();
            }
            Ok(())
        }
        Event::Progress { done, .. } => {
            if begun {
                progress.set(done);
            } else {
                progress.count(done);
            }
            Ok(())
        }
        Event::Row(record) => {
            past_reach.see(record);
            if to_terminal {
                progress.suspend(|| {
                    out.row(record)?;
                    out.flush()
                })
            } else if flush_each_row {
                // A run killed now loses only the rows still under way.
                out.row(record)?;
                out.flush()
            } else {
                // Off a terminal, rows are buffered and pushed out on each tick.
                out.row(record)
            }
        }
        Event::Notice(message) => progress.suspend(|| writeln!(io::stderr(), "npuzzle: warning: {message}")),
        Event::Tick { longest } => {
            ticks += 1;
            begun |= ticks >= 2;
            if begun {
                progress.under_way(longest, args.search.limits.max_expanded);
                progress.refresh();
            }
            out.flush()
        }
    });
    progress.finish();
    let finished = finished?;
    out.finish(Some(&finished.summary))?;
    out.flush()?;
    drop(out);

    let cancelled = settings.limits.cancelled();
    let ending = Ending { algorithm, kept, finished, cancelled, past_reach, withheld, args };
    ending.verdict(&feed)
}

/// The files among `paths` that hold one board as a whole, for a `--list`
/// run whose every line was an error: a puzzle file given as a list.
fn boards_in_rows(paths: &[PathBuf], size: Option<Shape>) -> impl Iterator<Item = &PathBuf> {
    paths.iter().filter(move |path| {
        path.as_os_str() != batch::STDIN
            && path.is_file()
            && read_input_with(&Input::File((*path).clone()), size).is_ok()
    })
}

/// What every puzzle of the run is solved with.
fn settings(args: &BatchArgs, strategy: Strategy, jobs: usize) -> Result<Settings> {
    let Strategy { algorithm, heuristic, strongest } = strategy;
    let limits = limits(&args.search.limits, Some(interrupt_flag()));
    let partition = args.search.pdb.partition.map(|set| set.to_string());
    let shorten = !args.search.no_shorten;
    Ok(Settings {
        flags: batch::answer_flags(algorithm, &limits, partition.as_deref(), shorten).into(),
        goal: goal_spec(&args.search.goal, args.size.size, None)?,
        size: args.size.size,
        algorithm,
        heuristic,
        limits,
        shorten,
        jobs,
        threads: args.threads.map(|n| n as usize),
        tables: Arc::new(if strongest {
            databases::for_batch_if_built(algorithm, &args.search.pdb)
        } else {
            databases::for_batch(algorithm, heuristic, &args.search.goal, &args.search.pdb)
        }),
        strongest,
        saved_progress: args.out.as_deref().map(batch::ProgressFolder::beside),
        save_every: args.save_every,
        watch: Display::get() != Display::Hidden,
    })
}

/// `--format`, else JSON Lines for an `--out` name ending in `.jsonl`, a
/// table on a terminal, CSV elsewhere.
fn format_of(args: &BatchArgs, to_terminal: bool) -> Result<RowFormat> {
    let format = match (args.format, &args.out) {
        (Some(format), _) => row_format(format),
        (None, Some(path)) if path.extension().is_some_and(|e| e == "jsonl") => RowFormat::Json,
        (None, _) if to_terminal => RowFormat::Table,
        (None, _) => RowFormat::Csv,
    };
    if args.out.is_some() && format == RowFormat::Table {
        bail!("--out writes csv or json (JSON Lines): the table is for a terminal");
    }
    Ok(format)
}

/// The rows that stopped at a limit on a board [`past_optimal_reach`],
/// for [`finishing_hint`]: none, or whether all of them read pattern
/// databases.
#[derive(Clone, Copy, Default)]
struct PastReach(Option<bool>);

impl PastReach {
    fn see(&mut self, record: &Record) {
        let past = record.width.zip(record.height).is_some_and(|(w, h)| past_optimal_reach(Shape::new(w, h)));
        if record.status == RowStatus::Limit && past {
            let pdb = record.heuristic == Some(HeuristicKind::Pdb.name());
            self.0 = Some(self.0.unwrap_or(true) && pdb);
        }
    }

    fn hint(self, algorithm: Algorithm) -> Option<&'static str> {
        self.0.and_then(|pdb| finishing_hint(algorithm, pdb))
    }
}

/// How a run ended, for its notes and its exit code.
struct Ending<'a> {
    algorithm: Algorithm,
    kept: Kept,
    finished: Finished,
    cancelled: bool,
    past_reach: PastReach,
    /// Rows left out of `--out` from the first puzzle Ctrl-C stopped on.
    withheld: usize,
    args: &'a BatchArgs,
}

impl Ending<'_> {
    /// The notes on standard error, and the exit code.
    fn verdict(self, feed: &Feed) -> Result<Exit> {
        let Ending { algorithm, kept, finished, cancelled, past_reach, withheld, args } = self;
        if args.list && kept.rows == 0 && finished.rows > 0 && finished.summary.error == finished.rows {
            for path in boards_in_rows(&args.paths, args.size.size) {
                note!(
                    "{} reads as one board laid out in rows: without --list it is one puzzle",
                    path.display()
                );
            }
        }
        if withheld > 0 {
            let (is, them) = if withheld == 1 { ("is", "it") } else { ("are", "them") };
            let puzzles = counted(withheld, "puzzle");
            note!("{puzzles} under way when interrupted {is} not in the file: --resume solves {them}");
        }
        let mut summary = kept.summary;
        summary.add_counts(&finished.summary);
        if summary.mismatched > 0 {
            let compared = summary.matched + summary.mismatched;
            let why =
                if algorithm.optimal() { "" } else { "; this algorithm does not promise shortest paths" };
            note!(
                "{} of {compared} costs differ from the expected length (the matches column){why}",
                summary.mismatched
            );
        }
        if kept.rows > 0 {
            let added = finished.rows.saturating_sub(withheld);
            note!("resumed: {} kept, {added} added", counted(kept.rows, "row"));
        }
        match feed.halted() {
            Some(Halt::Mismatch(why)) => bail!("--resume: {why}; start over with --force"),
            Some(Halt::Unreadable { name, why }) => {
                note!("cannot read {name} to its end: {why}; the rows before stand");
                return Ok(Exit::Trouble);
            }
            None => {}
        }
        let not_run = match (finished.not_run, feed.reading()) {
            (_, Some(name)) if cancelled => {
                if finished.rows == 0 {
                    note!("interrupted while reading {name}: no puzzle run");
                } else {
                    let run = counted(finished.rows, "puzzle");
                    note!("interrupted while reading {name}: {run} run, the rest not read");
                }
                1
            }
            (Some(not_run), _) if not_run > 0 => {
                let total = feed.total().unwrap_or(not_run);
                note!("interrupted: {not_run} of {total} puzzles not run");
                not_run
            }
            (None, _) if cancelled => {
                note!("interrupted: {} run, the rest not read", counted(finished.rows, "puzzle"));
                1
            }
            _ => 0,
        };
        if let Some(hint) = past_reach.hint(algorithm) {
            note!("{hint}");
        }
        Ok(Exit::of_batch(&summary, not_run))
    }
}

/// `--out FILE`, opened for the run: a new file, a replaced one, or a
/// resumed one with the rows it keeps.
struct Output {
    path: PathBuf,
    reporter: Box<dyn Reporter + Send>,
    kept: Kept,
    /// The file's lock; `None` on a file system that takes none.
    lock: Option<OutputLock>,
}

impl Output {
    /// Opens `path`: absent, or replaced with `force`, or continued with
    /// `resume`; never through a link or onto a folder or a FIFO, and never
    /// while another run has it. Its lock is taken before anything is read
    /// or written.
    fn open(
        path: &Path,
        format: RowFormat,
        columns: &'static [Column],
        args: &BatchArgs,
        settings: &Settings,
    ) -> Result<Output> {
        let (resume, force) = (args.resume, args.force);
        let lock = match OutputLock::take(path) {
            Ok(lock) => Some(lock),
            Err(unsupported @ LockError::Unsupported { .. }) => {
                note!("warning: --out {unsupported}");
                None
            }
            Err(other) => bail!("--out {other}"),
        };
        check_target(path, resume || force).map_err(|e| match e {
            FileError::AlreadyThere { .. } => anyhow!(
                "--out {}: already there: --resume continues the run it holds, --force replaces it",
                path.display()
            ),
            other => anyhow!("--out: {other}"),
        })?;
        let exists = path.exists();
        let kept = if resume && exists {
            batch::kept_rows(path, format, columns, settings).map_err(|e| {
                let path = path.display();
                match e {
                    ResumeError::Differs { row, difference } => anyhow!(
                        "--resume: {path} was written with {} (row {row}), this run has {}: resume with the \
                         flags it was written with, or start over with --force",
                        difference.was_shown(),
                        difference.now_shown()
                    ),
                    ResumeError::Written(WrittenError::Unrecorded) => anyhow!(
                        "--resume: {path} was written by an earlier npuzzle, whose rows do not say which goal and \
                         flags they were solved with: start over with --force"
                    ),
                    other @ ResumeError::Written(_) => anyhow!(
                        "--resume: {path} cannot be continued: {other} (was it written by batch with these flags?)"
                    ),
                }
            })?
        } else {
            Kept::default()
        };
        let file = if resume && exists {
            let file = OpenOptions::new()
                .write(true)
                .open(path)
                .with_context(|| format!("cannot open {}", path.display()))?;
            // A row cut short by a killed run goes; the run solves it again.
            file.set_len(kept.bytes).with_context(|| format!("cannot cut {}", path.display()))?;
            drop(file);
            OpenOptions::new().append(true).open(path)
        } else {
            if exists {
                std::fs::remove_file(path).with_context(|| format!("cannot replace {}", path.display()))?;
            }
            OpenOptions::new().write(true).create_new(true).open(path)
        }
        .with_context(|| format!("cannot write {}", path.display()))?;
        let writer: BufWriter<File> = BufWriter::new(file);
        let reporter: Box<dyn Reporter + Send> = if kept.bytes > 0 && format == RowFormat::Csv {
            Box::new(Csv::appending(writer))
        } else {
            reporter(format, writer)
        };
        Ok(Output { path: path.to_owned(), reporter, kept, lock })
    }
}
