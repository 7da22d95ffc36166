/*!
Text: one labelled line per figure (labels are the JSON keys, so `grep
nodes_expanded` works on either), optionally every board of the solution.
*/

use super::Record;
use crate::board::{Move, Shape, display_grid, replay_each};
use std::io::{self, Write};

/// Writes `record` as labelled lines; with `show_states`, every board of the
/// solution from start to goal as well.
///
/// # Errors
/// Any error from `out`.
pub fn write_text(out: &mut impl Write, record: &Record, show_states: bool) -> io::Result<()> {
    match &record.note {
        Some(note) => writeln!(out, "status: {} ({note})", record.status)?,
        None => writeln!(out, "status: {}", record.status)?,
    }
    if let Some(path) = &record.path {
        if path.is_empty() {
            writeln!(out, "path: (none: the start is the goal)")?;
        } else {
            // Written move by move: a DFS path can be tens of millions long.
            out.write_all(b"path:")?;
            for mv in path {
                write!(out, " {}", mv.name())?;
            }
            writeln!(out)?;
        }
    }
    let or_dash = |v: Option<usize>| v.map_or_else(|| "-".to_owned(), |v| v.to_string());
    writeln!(out, "cost: {}", or_dash(record.cost))?;
    writeln!(out, "depth: {}", or_dash(record.depth))?;
    writeln!(out, "lower_bound: {}", or_dash(record.lower_bound.map(|b| b as usize)))?;
    if let Some(proven) = record.proven_optimal {
        writeln!(out, "proven_optimal: {proven}")?;
    }
    writeln!(out, "nodes_expanded: {}", record.nodes_expanded)?;
    writeln!(out, "nodes_generated: {}", record.nodes_generated)?;
    writeln!(out, "max_frontier: {}", record.max_frontier)?;
    writeln!(out, "max_depth: {}", record.max_depth)?;
    writeln!(out, "stored_nodes: {}", record.stored_nodes)?;
    writeln!(out, "runtime_ms: {:.3}", record.runtime_ms)?;
    if show_states && let Some(path) = &record.path {
        write_states(out, record, path)?;
    }
    Ok(())
}

fn write_states(out: &mut impl Write, record: &Record, moves: &[Move]) -> io::Result<()> {
    let Some(shape) = record.shape() else { return Ok(()) };
    let mut written = Ok(());
    let mut step = 0;
    replay_each(&record.start, shape, moves, |board| {
        if written.is_ok() {
            written = write_state(out, step, moves, board, shape);
        }
        step += 1;
    })
    .expect("solutions replay");
    written
}

fn write_state(
    out: &mut impl Write,
    step: usize,
    moves: &[Move],
    board: &[u16],
    shape: Shape,
) -> io::Result<()> {
    match step {
        0 => writeln!(out, "\nstart")?,
        _ => writeln!(out, "\n{} {}", step, moves[step - 1])?,
    }
    out.write_all(display_grid(board, shape, true).as_bytes())
}
