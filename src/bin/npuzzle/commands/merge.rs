/*!
`npuzzle merge`: the outputs of a sharded batch put back together, in the
order one machine would have written them, with what is missing,
duplicated or in disagreement named on standard error.
*/

use crate::cli::MergeArgs;
use crate::exit::Exit;
use crate::output::{counted, note};
use anyhow::{Context, Result, bail};
use npuzzle::batch::{self, Problems};
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::Path;

/// `npuzzle merge`.
pub fn run(args: &MergeArgs) -> Result<Exit> {
    if args.outputs.iter().filter(|p| p.as_os_str() == batch::STDIN).count() > 1 {
        bail!("standard input (-) can be read once: name it once (a file called - is ./-)");
    }
    let mut outputs = Vec::with_capacity(args.outputs.len());
    let mut format = None;
    for path in &args.outputs {
        let (name, mut reader) = open(path)?;
        let first = reader.fill_buf().with_context(|| format!("cannot read {name}"))?;
        // An empty output (a shard with no puzzles) fits either format.
        if !first.is_empty() {
            let this = batch::format_of(first);
            if format.is_some_and(|f| f != this) {
                bail!(
                    "{name} is not in the format of the outputs before it: merge CSV with CSV, JSON Lines with JSON Lines"
                );
            }
            format = Some(this);
        }
        outputs.push((name, reader));
    }
    let list = match &args.list {
        Some(path) => {
            let (name, reader) = open(path)?;
            Some((name, reader, args.size.size))
        }
        None => None,
    };
    let mut out = BufWriter::new(crate::output::stdout());
    let format = format.unwrap_or(npuzzle::report::RowFormat::Csv);
    let merged = batch::merge(outputs, format, list, &mut out)?;
    out.flush()?;
    drop(out);
    for (problems, what) in [
        (&merged.missing, "with no row"),
        (&merged.duplicated, "with more than one row"),
        (&merged.disagreeing, "with rows that disagree (or a board the list does not have)"),
        (&merged.stray, "not in the list, or out of order in its output"),
    ] {
        if problems.count > 0 {
            note!("{} {what}: {}", counted(problems.count, "puzzle"), names(problems));
        }
    }
    Ok(if merged.clean() { Exit::Success } else { Exit::Trouble })
}

/// An output or list by name: a file, or `-` for standard input.
fn open(path: &Path) -> Result<(String, Box<dyn BufRead>)> {
    if path.as_os_str() == batch::STDIN {
        return Ok(("<stdin>".to_owned(), Box::new(BufReader::new(io::stdin()))));
    }
    let name = path.display().to_string();
    let file = File::open(path).with_context(|| format!("cannot read {name}"))?;
    Ok((name, Box::new(BufReader::with_capacity(1 << 16, file))))
}

/// The names a report shows, and how many more there are.
fn names(problems: &Problems) -> String {
    let shown = problems.names.join(", ");
    match problems.count - problems.names.len() {
        0 => shown,
        more => format!("{shown} and {more} more"),
    }
}
