/*!
The scripting commands: `batch`, `generate`, `check`, `compare` and
`completions`. Each wires library pieces to standard output and an exit
code; the work is in `npuzzle::batch`, `npuzzle::compare`,
`npuzzle::board::generate` and the exporters of `npuzzle::report`.
*/

use crate::cli::{BatchArgs, CheckArgs, Cli, CompareArgs, CompletionsArgs, GenerateArgs, RowFormatArg};
use crate::databases;
use crate::exit::Exit;
use crate::progress::Progress;
use crate::{
    finishing_hint, goal_for, goal_spec, interrupt_flag, limits, note, past_optimal_reach, refuse_node_limit,
    strategy, verdict_despite_closed_pipe,
};
use anyhow::{Context, Result, anyhow, bail};
use clap::CommandFactory;
use npuzzle::batch::{self, Event, Settings};
use npuzzle::board::{
    Scramble, Shape, SplitMix64, comment_lines, generate as scramble_board, list_line, puzzle_text,
    read_input_with, size_line,
};
use npuzzle::cores;
use npuzzle::exact::Sampler;
use npuzzle::report::{Column, Layout, RowFormat, RowStatus, reporter};
use npuzzle::{Goal, GoalSpec, HeuristicKind, Input, Tables, Tiles};
use std::fs;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn row_format(arg: RowFormatArg) -> RowFormat {
    match arg {
        RowFormatArg::Table => RowFormat::Table,
        RowFormatArg::Csv => RowFormat::Csv,
        RowFormatArg::Json => RowFormat::Json,
    }
}

/// `npuzzle batch`.
pub fn batch(args: &BatchArgs) -> Result<Exit> {
    let jobs = args.jobs.map_or_else(cores, |j| j as usize);
    let (algorithm, heuristic) = strategy(args.algorithm)?;
    refuse_node_limit(algorithm, &args.search.limits)?;
    let goal = goal_spec(&args.search.goal, args.size.size)?;
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
    let items =
        match batch::read_lists(found.items, args.list, args.size.size, settings.limits.cancel.as_deref()) {
            Ok(items) => items,
            Err(batch::Interrupted { name }) => {
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
    let mut progress = Progress::new(items.len(), io::stderr().is_terminal());
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

/// `npuzzle generate`.
pub fn generate(args: &GenerateArgs) -> Result<Exit> {
    let shape = args.size;
    let spec = goal_spec(&args.goal, Some(shape))?;
    if let GoalSpec::Board(tiles) = &spec
        && tiles.shape() != shape
    {
        bail!("--goal is {} but --size is {shape}", tiles.shape());
    }
    let goal = Goal::new(&spec, shape)?;
    // Boards in the order they are made, each with the distance it must
    // have, if one was asked for.
    let plan: Vec<Option<usize>> = if args.distance.is_empty() {
        vec![None; args.count as usize]
    } else {
        let count = args.count as usize;
        args.distance.iter().flat_map(|&d| std::iter::repeat_n(Some(d as usize), count)).collect()
    };
    if plan.len() > 1 && args.out.is_none() && !args.list {
        if args.distance.len() > 1 {
            bail!(
                "--distance with several distances needs --out DIR or --list: standard output takes one board"
            );
        }
        bail!("--count {} needs --out DIR or --list: standard output takes one board", args.count);
    }
    let seed = args.seed.unwrap_or_else(clock_seed);
    let mut rng = SplitMix64::new(seed);
    let mut maker = Maker::new(args, &goal)?;
    let total = plan.len() as u64;
    if args.list {
        // The size line tells readers the shape, which a line's count does
        // not always: 6 numbers are a 2x3 board or an id, a length and a 2x2.
        let mut text = comment_lines(&format!(
            "{total} {shape} puzzles, one per line{}: {}\nnpuzzle generate --seed {seed}",
            if args.distance.is_empty() { "" } else { " (id, optimal length, tiles)" },
            maker.describe(None)
        ));
        text.push_str(&size_line(shape));
        text.push('\n');
        for (index, &distance) in (1..).zip(&plan) {
            let board = maker.board(distance, &mut rng)?;
            text.push_str(&list_line(&board, index, distance.map(|d| d as u32)));
            text.push('\n');
        }
        match &args.out {
            None => write_stdout(text.as_bytes())?,
            Some(path) => write_new(path, text.as_bytes(), args.force)?,
        }
        return Ok(Exit::Success);
    }
    let mut board = |index: u64| -> Result<String> {
        let distance = plan[index as usize - 1];
        let board = maker.board(distance, &mut rng)?;
        // `optimal: D` is the line batch reads as the expected length.
        let optimal = distance.map(|d| format!("\noptimal: {d}")).unwrap_or_default();
        let comment = format!(
            "{shape} puzzle: {}\nnpuzzle generate --seed {seed}: board {index} of {total}{optimal}",
            maker.describe(distance)
        );
        Ok(puzzle_text(&board, &comment))
    };
    match &args.out {
        None => write_stdout(board(1)?.as_bytes())?,
        Some(dir) => {
            fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
            let digits = total.to_string().len();
            let paths: Vec<PathBuf> =
                (1..=total).map(|index| dir.join(format!("{index:0digits$}.txt"))).collect();
            // Every name is checked before anything is written, so a refusal
            // leaves the folder as it was.
            if !args.force
                && let Some(taken) = paths.iter().find(|p| fs::symlink_metadata(p).is_ok())
            {
                bail!("{} is already there: generate overwrites nothing without --force", taken.display());
            }
            for (index, path) in (1..=total).zip(&paths) {
                write_new(path, board(index)?.as_bytes(), args.force)?;
            }
        }
    }
    Ok(Exit::Success)
}

/// How `generate` makes its boards.
struct Maker<'a> {
    args: &'a GenerateArgs,
    goal: &'a Goal,
    scramble: Scramble,
    /// For `--distance`: draws boards at exact distances.
    sampler: Option<Sampler>,
}

impl<'a> Maker<'a> {
    fn new(args: &'a GenerateArgs, goal: &'a Goal) -> Result<Maker<'a>> {
        let distances: Vec<usize> = args.distance.iter().map(|&d| d as usize).collect();
        let sampler = if distances.is_empty() {
            None
        } else {
            Some(Sampler::new(goal, &distances).map_err(|e| anyhow!("--distance: {e}"))?)
        };
        let scramble = args.moves.map_or(Scramble::Uniform, |k| Scramble::Walk(k as usize));
        Ok(Maker { args, goal, scramble, sampler })
    }

    /// A board, at `distance` moves when one is given.
    fn board(&mut self, distance: Option<usize>, rng: &mut SplitMix64) -> Result<Tiles> {
        match (distance, &mut self.sampler) {
            (Some(distance), Some(sampler)) => {
                sampler.sample(distance, rng).map_err(|e| anyhow!("--distance {distance}: {e}"))
            }
            _ => Ok(scramble_board(self.goal, self.scramble, !self.args.unsolvable, rng)),
        }
    }

    /// How the boards (or the one at `distance`) were made, for comments.
    fn describe(&self, distance: Option<usize>) -> String {
        let goal = &self.args.goal.text;
        if let Some(sampler) = &self.sampler {
            let at = match distance {
                Some(d) => d.to_string(),
                None => self.args.distance.iter().map(u32::to_string).collect::<Vec<_>>().join(", "),
            };
            let how = match (sampler.enumerated(), distance.and_then(|d| sampler.count(d))) {
                (true, Some(count)) => format!("drawn uniformly among the {count} such boards"),
                (true, None) => "each drawn uniformly among all boards at its distance".to_owned(),
                (false, _) => "a random walk whose optimum IDA* confirmed (not uniform)".to_owned(),
            };
            return format!("exactly {at} moves from the goal {goal}, {how}");
        }
        let solvable = !self.args.unsolvable;
        match self.scramble {
            Scramble::Walk(k) if solvable => format!("a random walk of {k} moves from the goal {goal}"),
            Scramble::Walk(k) => format!(
                "a random walk of {k} moves from the goal {goal}, then two tiles swapped: deliberately unsolvable"
            ),
            Scramble::Uniform => format!(
                "a uniformly random {} board for the goal {goal}",
                if solvable { "solvable" } else { "unsolvable" }
            ),
        }
    }
}

fn write_stdout(bytes: &[u8]) -> Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()?;
    Ok(())
}

/// Writes `bytes` to `path`, which must not exist unless `force`: opened
/// with "create new", so a file that appears in the meantime is not lost
/// either.
fn write_new(path: &Path, bytes: &[u8], force: bool) -> Result<()> {
    let mut options = fs::OpenOptions::new();
    options.write(true);
    if force {
        options.create(true).truncate(true);
    } else {
        options.create_new(true);
    }
    let mut file = options.open(path).map_err(|e| match e.kind() {
        io::ErrorKind::AlreadyExists => {
            anyhow!("{} is already there: generate overwrites nothing without --force", path.display())
        }
        _ => anyhow!(e).context(format!("cannot write {}", path.display())),
    })?;
    file.write_all(bytes).with_context(|| format!("cannot write {}", path.display()))
}

/// A seed from the clock, for runs without `--seed`.
fn clock_seed() -> u64 {
    let nanos =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    nanos ^ (u64::from(std::process::id()) << 32)
}

/// `npuzzle check`.
pub fn check(args: &CheckArgs) -> Result<Exit> {
    let input = Input::from_arg(&args.puzzle);
    let start = read_input_with(&input, args.size.size)?;
    let goal = goal_for(&args.goal, &start, args.size.size, &args.puzzle)?;
    let parity = goal.parity(start.cells());
    let shape = start.shape();
    let indent = |grid: String| -> String { grid.lines().flat_map(|line| ["  ", line, "\n"]).collect() };

    let solvable = parity.solvable();
    let written = (|| -> Result<()> {
        let mut out = io::stdout().lock();
        writeln!(out, "puzzle: {}", input.origin())?;
        write!(out, "{}", indent(start.display_grid(true)))?;
        writeln!(out, "size: {shape} ({} tiles and the blank)", shape.cells() - 1)?;
        writeln!(out, "width: {}", shape.width())?;
        writeln!(out, "height: {}", shape.height())?;
        writeln!(out, "goal: {}", args.goal.text)?;
        write!(out, "{}", indent(goal.tiles().display_grid(true)))?;
        writeln!(out, "solvable: {}", if solvable { "yes" } else { "no" })?;
        writeln!(out, "why: {}", parity.reason())?;
        writeln!(out, "swaps: {}", parity.swaps)?;
        writeln!(out, "blank_distance: {}", parity.blank_distance)?;
        writeln!(out, "heuristics:")?;
        for kind in HeuristicKind::ALL {
            let value = kind.value(&goal, start.cells());
            writeln!(out, "  {}: {}", kind.name(), number(value))?;
        }
        // Like compare, check reads the databases only if they are built.
        match databases::if_built(&goal, &args.goal, &args.pdb) {
            Ok(Tables { pdb: Some(pdb) }) => writeln!(out, "  pdb: {}", pdb.value_of(start.cells()))?,
            Ok(_) => {}
            Err(why) => writeln!(out, "  pdb: - ({why})")?,
        }
        out.flush()?;
        Ok(())
    })();
    verdict_despite_closed_pipe(written, Exit::of_check(solvable))
}

/// A whole number as is, anything else to four decimals.
fn number(value: f64) -> String {
    if value.fract() == 0.0 { format!("{value:.0}") } else { format!("{value:.4}") }
}

/// `npuzzle compare`.
pub fn compare(args: &CompareArgs) -> Result<Exit> {
    let input = Input::from_arg(&args.puzzle);
    let start = read_input_with(&input, args.size.size)?;
    let goal = goal_for(&args.search.goal, &start, args.size.size, &args.puzzle)?;
    let tables = databases::if_built(&goal, &args.search.goal, &args.search.pdb).unwrap_or_else(|why| {
        note!("pdb left out ({why})");
        Tables::NONE
    });
    let limits = limits(&args.search.limits, Some(interrupt_flag()));
    let format = row_format(args.format);

    let mut stdout = BufWriter::new(io::stdout());
    if format == RowFormat::Table {
        let applied = npuzzle::compare::with_defaults(&limits);
        let mut bounds = vec![format!("{} stored states", applied.max_nodes.unwrap_or_default())];
        if let Some(depth) = applied.max_depth {
            bounds.push(format!("depth {depth}"));
        }
        if let Some(timeout) = applied.timeout {
            bounds.push(format!("{} s", timeout.as_secs_f64()));
        }
        writeln!(
            stdout,
            "{}: {}, goal {}; each run limited to {}\n",
            input.origin(),
            start.shape(),
            args.search.goal.text,
            bounds.join(", "),
        )?;
    }
    let mut statuses = Vec::new();
    {
        let mut out = reporter(format, &mut stdout);
        // The table's heading names the shape, which every row would repeat.
        let columns: Vec<Column> = Column::COMPARE
            .iter()
            .copied()
            .filter(|column| format != RowFormat::Table || !column.shape())
            .collect();
        out.begin(&Layout { columns: &columns, file_width: 0 })?;
        out.flush()?;
        let shorten = !args.search.no_shorten;
        npuzzle::compare::compare(&start, &goal, &limits, &tables, shorten, |record| {
            statuses.push(record.status);
            out.row(&record)?;
            out.flush()
        })?;
        out.finish(None)?;
        out.flush()?;
    }
    stdout.flush()?;
    Ok(Exit::of_compare(&statuses))
}

/// `npuzzle completions`.
pub fn completions(args: &CompletionsArgs) -> Result<Exit> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "npuzzle", &mut script);
    let mut out = io::stdout().lock();
    out.write_all(&script)?;
    out.flush()?;
    Ok(Exit::Success)
}
