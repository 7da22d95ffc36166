/*!
`npuzzle solve`: one board, one search, one report. `--timeout` counts from
the command's start: waiting for the board, loading or building the pattern
databases and the search all fall within it.
*/

use crate::cli::{FormatArg, SolveArgs};
use crate::databases;
use crate::exit::Exit;
use crate::output::{counted, faster_road, keeping_hint, note, stdout, verdict_despite_closed_pipe};
use crate::progress::SearchStatus;
use crate::settings::{
    Strategy, deadline, goal_for, input_arg, interrupt_flag, limits, read_board, refuse_node_limit, strategy,
};
use anyhow::Result;
use npuzzle::heuristic::pdb::Time;
use npuzzle::machine::threads_to_plan;
use npuzzle::report::{Record, write_json, write_text};
use npuzzle::{Limits, Prepared, Tables, cores};
use std::io::{self, Write};

pub fn run(args: &SolveArgs) -> Result<Exit> {
    let Strategy { algorithm, heuristic, strongest } = strategy(args.algorithm)?;
    refuse_node_limit(algorithm, &args.search.limits)?;
    let deadline = deadline(&args.search.limits);
    let input = input_arg(&args.start);
    let start = read_board(&input, args.size.size, deadline)?;
    let goal = goal_for(&args.search.goal, &start, args.size.size, &input.origin(), deadline)?;
    // Tables first: until the search starts, Ctrl-C simply ends the process.
    let (heuristic, tables) = if !goal.parity(start.cells()).solvable() {
        (heuristic, Tables::NONE)
    } else if strongest {
        // The pattern databases if they are built for this goal; no build.
        let tables = databases::strongest_built(algorithm, &goal, &args.search.pdb, Time::Solve(deadline));
        (tables.strongest(heuristic), tables)
    } else {
        (
            heuristic,
            databases::for_search(
                algorithm,
                heuristic,
                &goal,
                &args.search.goal,
                &args.search.pdb,
                deadline,
            )?,
        )
    };
    // From here Ctrl-C stops the search, which still reports; the status
    // line (or its first line in a log) says the search is under way.
    let cancel = interrupt_flag();
    let (monitor, status) = SearchStatus::start(args.search.limits.max_expanded);
    // Counting the cores reads cgroup files: only a search that uses them asks.
    let mut threads =
        args.threads.map_or_else(|| if algorithm.parallel() { cores() } else { 1 }, |n| n as usize);
    if algorithm.parallel() && threads > 1 {
        // The search's threads and the one that waits for them.
        let room = threads_to_plan(threads + 1).saturating_sub(1).max(1);
        if room < threads {
            note!(
                "the search runs on {}, not {threads}: no more threads can start here",
                counted(room, "thread")
            );
            threads = room;
        }
    }
    let limits = Limits {
        monitor,
        threads,
        deadline: deadline.map(|d| d.at),
        ..limits(&args.search.limits, Some(cancel))
    };
    let prepared = Prepared::new(goal.clone(), algorithm, heuristic).shortening(!args.search.no_shorten);
    let outcome = prepared.solve(&start, &limits, &tables);
    status.finish();
    let outcome = outcome?;
    let (ended, searched) = (outcome.status, outcome.stats.runtime);
    let record = Record::new(algorithm, heuristic, &start, &goal, outcome);
    let written = (|| -> Result<()> {
        let mut out = io::BufWriter::new(stdout());
        match args.format {
            FormatArg::Text => write_text(&mut out, &record, args.show_states)?,
            FormatArg::Json => write_json(&mut out, &record)?,
        }
        out.flush()?;
        Ok(())
    })();
    if args.format == FormatArg::Json
        && let Some(reason) = &record.note
    {
        note!("{}: {reason}", record.status);
    }
    if matches!(ended, npuzzle::Status::Limit(_))
        && let Some(hint) = faster_road(algorithm, heuristic, start.shape())
    {
        note!("{hint}");
    }
    if let Some(hint) = keeping_hint(algorithm, ended, searched) {
        note!("{hint}");
    }
    verdict_despite_closed_pipe(written, ended.into())
}
