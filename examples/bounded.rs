//! Bounded-suboptimal searches side by side: weighted A*, focal search and
//! Dynamic Potential Search at one bound B, with linear conflicts, on the
//! puzzle files given (`benches/within.sh` runs it on Korf's 100 and Korf
//! and Felner's 50).
//!
//! `cargo run --release --example bounded -- B TIMEOUT FILE...` prints, per
//! search, the puzzles solved within the timeout, the mean cost over the
//! mean lower bound it proved, the worst cost over the file's `# optimal:`
//! (where stated) and the mean time.

use npuzzle::board::read_input;
use npuzzle::{
    Algorithm, Goal, GoalSpec, HeuristicKind, Input, Limits, Prepared, Selection, Status, Tables, Weight,
};
use std::process::ExitCode;
use std::time::Duration;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: bounded B TIMEOUT FILE...");
        return ExitCode::from(2);
    }
    let run = || -> Result<(), Box<dyn std::error::Error>> {
        let bound: Weight = args[0].parse()?;
        let timeout = Duration::from_secs_f64(args[1].parse()?);
        let mut puzzles = Vec::new();
        for file in &args[2..] {
            let text = std::fs::read_to_string(file)?;
            let optimum = npuzzle::board::stated_optimum(&text);
            puzzles.push((read_input(&Input::File(file.into()))?, optimum));
        }
        for (name, algorithm) in [
            ("weighted A*", Algorithm::WeightedAStar(bound)),
            ("focal", Algorithm::Bounded { bound, selection: Selection::Nearest }),
            ("DPS", Algorithm::Bounded { bound, selection: Selection::Potential }),
        ] {
            let (mut solved, mut cost, mut lower, mut ms) = (0, 0u64, 0u64, 0.0);
            let mut worst: f64 = 0.0;
            for (start, optimum) in &puzzles {
                let goal = Goal::new(&GoalSpec::BlankFirst, start.shape())?;
                let prepared = Prepared::new(goal, algorithm, HeuristicKind::LinearConflict);
                let limits = Limits { timeout: Some(timeout), ..Limits::default() };
                let outcome = prepared.solve(start, &limits, &Tables::NONE)?;
                ms += outcome.stats.runtime.as_secs_f64() * 1e3;
                if outcome.status == Status::Solved {
                    solved += 1;
                    cost += outcome.cost().unwrap_or(0) as u64;
                    lower += u64::from(outcome.lower_bound.unwrap_or(0));
                    if let Some(optimum) = optimum {
                        worst = worst.max(outcome.cost().unwrap_or(0) as f64 / f64::from(*optimum));
                    }
                }
            }
            println!(
                "{name:12} B={bound}: {solved}/{} solved, cost/bound {:.4}, worst cost/optimum {worst:.4}, \
                 {:.1} ms mean",
                puzzles.len(),
                cost as f64 / lower.max(1) as f64,
                ms / puzzles.len() as f64
            );
        }
        Ok(())
    };
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bounded: {e}");
            ExitCode::from(2)
        }
    }
}
