/*!
`npuzzle generate`: random boards, random walks or boards at an exact
distance, as files, a list or one board on standard output.
*/

use crate::cli::GenerateArgs;
use crate::exit::Exit;
use crate::settings::goal_spec;
use anyhow::{Context, Result, anyhow, bail};
use npuzzle::board::{
    Scramble, SplitMix64, comment_lines, generate as scramble_board, list_line, puzzle_text, size_line,
};
use npuzzle::exact::Sampler;
use npuzzle::{Goal, GoalSpec, Tiles};
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// `npuzzle generate`.
pub fn run(args: &GenerateArgs) -> Result<Exit> {
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
