/*!
`npuzzle compare`: every algorithm and heuristic on one board, one row
each, under the same limits.
*/

use crate::cli::CompareArgs;
use crate::databases;
use crate::exit::Exit;
use crate::output::{note, stdout};
use crate::settings::{goal_for, input_arg, interrupt_flag, limits, read_board, row_format};
use anyhow::Result;
use npuzzle::Tables;
use npuzzle::report::{Column, Layout, RowFormat, reporter};
use std::io::{BufWriter, Write};

/// `npuzzle compare`.
pub fn run(args: &CompareArgs) -> Result<Exit> {
    let input = input_arg(&args.puzzle);
    let start = read_board(&input, args.size.size, None)?;
    let goal = goal_for(&args.search.goal, &start, args.size.size, &input.origin(), None)?;
    let tables = databases::if_built(&goal, &args.search.goal, &args.search.pdb).unwrap_or_else(|why| {
        note!("pdb left out ({why})");
        Tables::NONE
    });
    let limits = limits(&args.search.limits, Some(interrupt_flag()));
    let format = row_format(args.format);

    let mut stdout = BufWriter::new(stdout());
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
