/*!
`npuzzle generate`: random boards, random walks or boards at an exact
distance, as files, a list or one board on standard output.

Boards are written as they are made, so a list of millions streams in
constant memory. Every target is checked before the first byte is written
(an existing file only with `--force`, and never anything but a regular
file), and each file is written beside its target and then put in place,
so a link is replaced rather than followed and an interrupted run leaves
no half-written file.
*/

use crate::cli::GenerateArgs;
use crate::exit::Exit;
use crate::output::stdout;
use crate::progress::Progress;
use crate::settings::goal_spec;
use anyhow::{Context, Result, anyhow, bail};
use npuzzle::board::{
    Scramble, SplitMix64, comment_lines, generate as scramble_board, list_line, puzzle_text, size_line,
};
use npuzzle::exact::{MAX_ATTEMPTS, Sampler};
use npuzzle::files::{FileError, NewFile, check_target};
use npuzzle::{Goal, GoalSpec, Tiles};
use std::collections::HashSet;
use std::ffi::OsString;
use std::fs;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// `npuzzle generate`.
pub fn run(args: &GenerateArgs) -> Result<Exit> {
    let shape = args.size;
    let spec = goal_spec(&args.goal, Some(shape), None)?;
    if let GoalSpec::Board(tiles) = &spec
        && tiles.shape() != shape
    {
        bail!("--goal is {} but --size is {shape}", tiles.shape());
    }
    let plan = Plan::new(args)?;
    if plan.total > 1 && args.out.is_none() && !args.list {
        if args.distance.len() > 1 {
            bail!(
                "--distance with several distances needs --out DIR or --list: standard output takes one board"
            );
        }
        bail!("--count {} needs --out DIR or --list: standard output takes one board", args.count);
    }
    let goal = Goal::new(&spec, shape)?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    let mut maker = Maker::new(args, &goal, seed)?;
    match (&args.out, args.list) {
        (None, true) => {
            let mut out = BufWriter::new(stdout());
            write_list(&mut out, &plan, &mut maker)?;
            out.flush()?;
        }
        (Some(path), true) => {
            let mut file = NewFile::create(path, args.force).map_err(refusal)?;
            write_list(&mut file, &plan, &mut maker)?;
            file.commit().map_err(refusal)?;
        }
        (None, false) => {
            let text = maker.file_text(&plan, 1, &mut Progress::new(1))?;
            let mut out = stdout();
            out.write_all(text.as_bytes())?;
            out.flush()?;
        }
        (Some(dir), false) => write_files(dir, args.force, &plan, &mut maker)?,
    }
    Ok(Exit::Success)
}

/// The boards to make, in order: `count` of each distance asked for (or
/// `count` boards at no set distance).
struct Plan {
    count: u64,
    distances: Vec<Option<usize>>,
    total: u64,
}

impl Plan {
    fn new(args: &GenerateArgs) -> Result<Plan> {
        let distances: Vec<Option<usize>> = if args.distance.is_empty() {
            vec![None]
        } else {
            args.distance.iter().map(|&d| Some(d as usize)).collect()
        };
        let total = args.count.checked_mul(distances.len() as u64).ok_or_else(|| {
            anyhow!("--count {} boards at each of {} distances is too many", args.count, distances.len())
        })?;
        Ok(Plan { count: args.count, distances, total })
    }

    /// The distance of board `index` (from 1).
    fn distance(&self, index: u64) -> Option<usize> {
        self.distances[((index - 1) / self.count) as usize]
    }
}

/// The list: its comment and size line, then one line per board.
fn write_list(out: &mut impl Write, plan: &Plan, maker: &mut Maker<'_>) -> Result<()> {
    // The size line tells readers the shape, which a line's count does not
    // always: 6 numbers are a 2x3 board or an id, a length and a 2x2.
    let shape = maker.goal.shape();
    let header = comment_lines(&format!(
        "{} {shape} puzzles, one per line{}: {}\nnpuzzle generate --seed {}",
        plan.total,
        if maker.sampler.is_some() { " (id, optimal length, tiles)" } else { "" },
        maker.describe(None),
        maker.seed,
    ));
    out.write_all(header.as_bytes())?;
    writeln!(out, "{}", size_line(shape))?;
    let mut progress = Progress::new(usize::try_from(plan.total).ok());
    progress.restart("generating".to_owned(), usize::try_from(plan.total).ok());
    for index in 1..=plan.total {
        let distance = plan.distance(index);
        let board = maker.board(distance, &mut progress)?;
        writeln!(out, "{}", list_line(&board, index, distance.map(|d| d as u32)))?;
        progress.set(index as usize);
    }
    progress.finish();
    Ok(())
}

/// Numbered files in `dir`, every name checked before the first is written.
fn write_files(dir: &Path, force: bool, plan: &Plan, maker: &mut Maker<'_>) -> Result<()> {
    fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let digits = plan.total.to_string().len();
    let name = |index: u64| format!("{index:0digits$}.txt");
    // Only names already in the folder can be in the way: one pass over it
    // checks them all, however many files are to come.
    let mut taken: Vec<(u64, PathBuf)> = Vec::new();
    for entry in fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
        let entry = entry.with_context(|| format!("cannot read {}", dir.display()))?;
        if let Some(index) =
            planned_index(&entry.file_name(), digits).filter(|&i| (1..=plan.total).contains(&i))
        {
            taken.push((index, entry.path()));
        }
    }
    taken.sort();
    for (_, path) in &taken {
        check_target(path, force).map_err(refusal)?;
    }
    let replaced: HashSet<u64> = taken.iter().map(|&(index, _)| index).collect();
    let mut progress = Progress::new(usize::try_from(plan.total).ok());
    progress.restart("generating".to_owned(), usize::try_from(plan.total).ok());
    for index in 1..=plan.total {
        let text = maker.file_text(plan, index, &mut progress)?;
        let path = dir.join(name(index));
        let mut file = NewFile::create(&path, force && replaced.contains(&index)).map_err(refusal)?;
        file.write_all(text.as_bytes()).with_context(|| format!("cannot write {}", path.display()))?;
        file.commit().map_err(refusal)?;
        progress.set(index as usize);
    }
    progress.finish();
    Ok(())
}

/// The board number a file name of the folder stands for, if it has the
/// form generate gives its files (`0042.txt` with `digits` digits).
fn planned_index(name: &OsString, digits: usize) -> Option<u64> {
    let stem = name.to_str()?.strip_suffix(".txt")?;
    (stem.len() == digits && stem.bytes().all(|b| b.is_ascii_digit())).then(|| stem.parse().ok()).flatten()
}

/// A file that may not be written, said the way a user can act on.
fn refusal(e: FileError) -> anyhow::Error {
    match e {
        FileError::AlreadyThere { path } => {
            anyhow!("{} is already there: generate overwrites nothing without --force", path.display())
        }
        FileError::NotRegular { path, kind } => anyhow!(
            "{} is {kind}: generate writes only regular files, and replaces nothing else even with --force",
            path.display()
        ),
        other @ FileError::Io { .. } => other.into(),
    }
}

/// How `generate` makes its boards.
struct Maker<'a> {
    args: &'a GenerateArgs,
    goal: &'a Goal,
    seed: u64,
    rng: SplitMix64,
    scramble: Scramble,
    /// For `--distance`: draws boards at exact distances.
    sampler: Option<Sampler>,
}

impl<'a> Maker<'a> {
    fn new(args: &'a GenerateArgs, goal: &'a Goal, seed: u64) -> Result<Maker<'a>> {
        let distances: Vec<usize> = args.distance.iter().map(|&d| d as usize).collect();
        let sampler = if distances.is_empty() {
            None
        } else {
            Some(Sampler::new(goal, &distances).map_err(|e| anyhow!("--distance: {e}"))?)
        };
        let scramble = args.moves.map_or(Scramble::Uniform, |k| Scramble::Walk(k as usize));
        Ok(Maker { args, goal, seed, rng: SplitMix64::new(seed), scramble, sampler })
    }

    /// A board, at `distance` moves when one is given. Confirming a
    /// distance by search may take long: `progress` then says which walk
    /// is being tried.
    fn board(&mut self, distance: Option<usize>, progress: &mut Progress) -> Result<Tiles> {
        match (distance, &mut self.sampler) {
            (Some(distance), Some(sampler)) => {
                let board = sampler.sample_watched(distance, &mut self.rng, &mut |walk| {
                    // The first walk usually is the board; later ones say so.
                    if walk > 1 {
                        progress.relabel(format!(
                            "confirming a board {distance} moves from the goal: walk {walk} of {MAX_ATTEMPTS}"
                        ));
                    }
                });
                progress.relabel("generating".to_owned());
                board.map_err(|e| anyhow!("--distance {distance}: {e}"))
            }
            _ => Ok(scramble_board(self.goal, self.scramble, !self.args.unsolvable, &mut self.rng)),
        }
    }

    /// Board `index`'s file: its comment (what it is and how to make it
    /// again) and the board.
    fn file_text(&mut self, plan: &Plan, index: u64, progress: &mut Progress) -> Result<String> {
        let distance = plan.distance(index);
        let board = self.board(distance, progress)?;
        // `optimal: D` is the line batch reads as the expected length.
        let optimal = distance.map(|d| format!("\noptimal: {d}")).unwrap_or_default();
        let comment = format!(
            "{} puzzle: {}\nnpuzzle generate --seed {}: board {index} of {}{optimal}",
            self.goal.shape(),
            self.describe(distance),
            self.seed,
            plan.total
        );
        Ok(puzzle_text(&board, &comment))
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

/// A seed from the clock, for runs without `--seed`.
fn clock_seed() -> u64 {
    let nanos =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    nanos ^ (u64::from(std::process::id()) << 32)
}
