/*!
`npuzzle check`: a board's shape, its goal, the parity verdict with its
figures, and every heuristic's value, without searching.
*/

use crate::cli::CheckArgs;
use crate::databases;
use crate::exit::Exit;
use crate::output::{stdout, verdict_despite_closed_pipe};
use crate::settings::{goal_for, input_arg, read_board};
use anyhow::Result;
use npuzzle::{HeuristicKind, Tables};
use std::io::Write;

/// `npuzzle check`.
pub fn run(args: &CheckArgs) -> Result<Exit> {
    let input = input_arg(&args.puzzle);
    let start = read_board(&input, args.size.size, None)?;
    let goal = goal_for(&args.goal, &start, args.size.size, &input.origin(), None)?;
    let parity = goal.parity(start.cells());
    let shape = start.shape();
    let indent = |grid: String| -> String { grid.lines().flat_map(|line| ["  ", line, "\n"]).collect() };

    let solvable = parity.solvable();
    let written = (|| -> Result<()> {
        let mut out = stdout();
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
            Ok(Tables { pdb: Some(pdb), .. }) => writeln!(out, "  pdb: {}", pdb.value_of(start.cells()))?,
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
