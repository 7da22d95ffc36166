/*!
`npuzzle completions`: a completion script for a shell, from clap's
description of the command line.
*/

use crate::cli::{Cli, CompletionsArgs};
use crate::exit::Exit;
use crate::output::stdout;
use anyhow::Result;
use clap::CommandFactory;
use std::io::Write;

/// `npuzzle completions`.
pub fn run(args: &CompletionsArgs) -> Result<Exit> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "npuzzle", &mut script);
    let mut out = stdout();
    out.write_all(&script)?;
    out.flush()?;
    Ok(Exit::Success)
}
