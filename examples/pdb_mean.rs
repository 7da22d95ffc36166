//! Mean pattern-database value over uniformly random solvable boards, the
//! first measure for choosing a partition (`benches/korf24.sh partition`).
//!
//! `cargo run --release --example pdb_mean -- PARTITION PDB_DIR [COUNT] [SEED]`
//! reads the partition's tables for the blank-first goal (built by
//! `npuzzle pdb build --partition PARTITION --pdb-dir PDB_DIR`) and prints
//! the mean value with and without the mirrored lookup.

use npuzzle::board::{Board, Goal, GoalSpec, Packed128, Scramble, SplitMix64, generate};
use npuzzle::heuristic::pdb::{PartitionSet, Pdb};
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(partition), Some(dir)) = (args.first(), args.get(1)) else {
        eprintln!("usage: pdb_mean PARTITION PDB_DIR [COUNT] [SEED]");
        return ExitCode::from(2);
    };
    let run = || -> Result<(), Box<dyn std::error::Error>> {
        let count: usize = args.get(2).map_or(Ok(10_000), |c| c.parse())?;
        let seed: u64 = args.get(3).map_or(Ok(1), |s| s.parse())?;
        let partition: PartitionSet = partition.parse()?;
        let goal = Goal::new(&GoalSpec::BlankFirst, partition.shape())?;
        let pdb = Pdb::load(&goal, partition, &PathBuf::from(dir), &mut |_| {})?;
        let mut rng = SplitMix64::new(seed);
        let (mut both, mut direct) = (0u64, 0u64);
        for _ in 0..count {
            let board = generate(&goal, Scramble::Uniform, true, &mut rng);
            let parts = pdb.parts(&Packed128::from_tiles(board.cells()));
            both += u64::from(parts.value());
            direct += u64::from(parts.sums().0);
        }
        let n = count as f64;
        println!(
            "{partition}: mean {:.3} with the mirror, {:.3} without, over {count} random boards (seed {seed})",
            both as f64 / n,
            direct as f64 / n
        );
        Ok(())
    };
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pdb_mean: {e}");
            ExitCode::FAILURE
        }
    }
}
