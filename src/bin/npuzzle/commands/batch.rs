/*!
`npuzzle batch`: many puzzles on a pool of threads, rows streamed in input
order, a summary and an exit code for the whole run.
*/

use crate::cli::BatchArgs;
use crate::databases;
use crate::exit::Exit;
use crate::output::{finishing_hint, note, past_optimal_reach};
use crate::progress::Progress;
use crate::settings::{goal_spec, interrupt_flag, limits, refuse_node_limit, row_format, strategy};
use anyhow::{Result, bail};
use npuzzle::batch::{self, Event, Settings};
use npuzzle::board::Shape;
use npuzzle::cores;
use npuzzle::report::{Column, Layout, RowFormat, RowStatus, reporter};
use std::io::{self, BufWriter, IsTerminal};
use std::sync::Arc;

/// `npuzzle batch`.
pub fn run(args: &BatchArgs) -> Result<Exit> {
    let jobs = args.jobs.map_or_else(cores, |j| j as usize);
    let (algorithm, heuristic) = strategy(args.algorithm)?;
    refuse_node_limit(algorithm, &args.search.limits)?;
    let goal = goal_spec(&args.search.goal, args.size.size, None)?;
    let settings = Settings {
        goal,
        size: args.size.size,
        algorithm,
        heuristic,
        limits: limits(&args.search.limits, Some(interrupt_flag())),
        shorten: !args.search.no_shorten,
        jobs,
        threads: args.threads.map(|n| n as usize),
        tables: Arc::new(databases::for_batch(algorithm, heuristic, &args.search.pdb)),
    };
    if args.paths.iter().filter(|p| p.as_os_str() == batch::STDIN).count() > 1 {
        bail!("standard input (-) can be read once: name it once (a file called - is ./-)");
    }
    let found = batch::discover(&args.paths, args.list);
    for skipped in &found.skipped {
        note!("skipping {}: {}", skipped.path.display(), skipped.reason);
    }
    // Reading may wait on a FIFO or a pipe; the line says so at once.
    let mut progress = Progress::new(found.items.len());
    progress.restart("reading".to_owned(), found.items.len());
    progress.set(0);
    let items =
        match batch::read_lists(found.items, args.list, args.size.size, settings.limits.cancel.as_deref()) {
            Ok(items) => items,
            Err(batch::Interrupted { name }) => {
                progress.finish();
                note!("interrupted while reading {name}: no puzzle run");
                return Ok(Exit::Limit);
            }
        };
    let items = match args.shard {
        Some(shard) => shard.select(items),
        None => items,
    };

    let stdout_is_terminal = io::stdout().is_terminal();
    let format =
        args.format.map_or(if stdout_is_terminal { RowFormat::Table } else { RowFormat::Csv }, row_format);
    let mut out = reporter(format, BufWriter::new(io::stdout()));
    let file_width = items.iter().map(|i| i.name().chars().count()).max().unwrap_or(0);
    out.begin(&Layout { columns: Column::BATCH, file_width })?;
    out.flush()?;
    // The first line comes with the pool's first tick, once the first
    // puzzles are under way.
    progress.restart("solving".to_owned(), items.len());
    let mut limit_past_reach = false;
    let finished = batch::run(&items, &settings, |event| match event {
        Event::Progress { done, .. } => {
            progress.set(done);
            Ok(())
        }
        Event::Row(record) => {
            limit_past_reach |= record.status == RowStatus::Limit
                && record.width.zip(record.height).is_some_and(|(w, h)| past_optimal_reach(Shape::new(w, h)));
            if stdout_is_terminal {
                progress.suspend(|| {
                    out.row(record)?;
                    out.flush()
                })
            } else {
                // Off a terminal, rows are buffered and pushed out on each tick.
                out.row(record)
            }
        }
        Event::Tick => {
            progress.refresh();
            out.flush()
        }
    });
    progress.finish();
    let finished = finished?;
    out.finish(Some(&finished.summary))?;
    out.flush()?;

    let summary = &finished.summary;
    if summary.mismatched > 0 {
        let compared = summary.matched + summary.mismatched;
        let why = if algorithm.optimal() { "" } else { "; this algorithm does not promise shortest paths" };
        note!(
            "{} of {compared} costs differ from the expected length (the matches column){why}",
            summary.mismatched
        );
    }
    if finished.not_run > 0 {
        note!("interrupted: {} of {} puzzles not run", finished.not_run, items.len());
    }
    if limit_past_reach && let Some(hint) = finishing_hint(algorithm) {
        note!("{hint}");
    }
    Ok(Exit::of_batch(&finished.summary, finished.not_run))
}
