/*!
`npuzzle pdb build`: builds (or rebuilds) a partition's pattern databases,
or every default set of the board size, ahead of the searches that need
them.
*/

use crate::cli::PdbBuildArgs;
use crate::databases::{directory, with_bar};
use crate::exit::Exit;
use crate::output::stdout;
use crate::settings::goal_spec;
use anyhow::{Context, Result, bail};
use npuzzle::board::Shape;
use npuzzle::heuristic::pdb::{self, PartitionSet, Pdb};
use npuzzle::{Goal, GoalSpec};
use std::io::Write;
use std::time::Instant;

/// `npuzzle pdb build`.
pub fn run(args: &PdbBuildArgs) -> Result<Exit> {
    let spec = goal_spec(&args.goal, None, None)?;
    let shape = match &spec {
        GoalSpec::Board(tiles) => {
            if let Some(size) = args.size.filter(|&size| size != tiles.shape()) {
                bail!("--size {size} does not match --goal {}, a {} board", args.goal.text, tiles.shape());
            }
            tiles.shape()
        }
        _ => args.size.or(args.pdb.partition.map(PartitionSet::shape)).unwrap_or(Shape::square(4)),
    };
    let goal = Goal::new(&spec, shape)?;
    // Unless told which, every default: IDA*'s and the best-first searches'.
    let sets: Vec<PartitionSet> = match args.pdb.partition {
        Some(partition) => vec![partition],
        None => PartitionSet::defaults_for(shape).collect(),
    };
    if sets.is_empty() {
        bail!("no pattern databases are built in for {shape} boards (partitions: {})", pdb::catalogue());
    }
    let dir = directory(&args.pdb)?;
    let mut out = stdout();
    for partition in sets {
        let started = Instant::now();
        let pdb = with_bar(|report| Pdb::build(&goal, partition, &dir, args.force, report))
            .with_context(|| format!("cannot build pattern databases in {}", dir.display()))?;
        writeln!(
            out,
            "{partition} pattern databases for the {shape} goal {} ready in {:.1} s: {}",
            args.goal.text,
            started.elapsed().as_secs_f64(),
            dir.display()
        )?;
        for (db, path) in pdb.databases().iter().zip(Pdb::paths(&goal, partition, &dir)?) {
            let tiles: Vec<String> = db.tiles().iter().map(u8::to_string).collect();
            let name = path.file_name().map_or_else(Default::default, |n| n.to_string_lossy().into_owned());
            writeln!(out, "  tiles {}: {} entries ({}), {name}", tiles.join(" "), db.len(), db.kind())?;
        }
        let mirror =
            if pdb.mirrored() { "yes" } else { "no (the blank's goal cell is off the main diagonal)" };
        writeln!(out, "mirror lookup: {mirror}")?;
        // Each set's report as soon as it is ready: the next may take minutes.
        out.flush()?;
    }
    Ok(Exit::Success)
}
