/*!
The `npuzzle` binary: parses the command line, hands each command to its
file in `commands/` and turns the result into an exit code (decided in
`exit.rs`). Flags become the library's settings in `settings.rs` and
`databases.rs`; the binary is the only place `anyhow` is used.
*/

mod cli;
mod commands;
mod databases;
mod exit;
mod output;
mod progress;
mod settings;
mod signals;

use anyhow::Result;
use clap::Parser;
use cli::{Cli, Command, PdbCommand};
use exit::Exit;
use output::{is_broken_pipe, note};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // --help and --version, which must reach standard output.
        Err(shown) if !shown.use_stderr() => return output::help(&shown).into(),
        Err(wrong) => wrong.exit(),
    };
    signals::catch();
    progress::Display::init(cli.progress);
    let exit = match run(cli) {
        Ok(exit) => exit,
        // Nobody reads the rest; the verdict, where there was one, was
        // returned through `verdict_despite_closed_pipe`.
        Err(err) if is_broken_pipe(&err) => Exit::Success,
        // Time ran out before the search began: a limit, not an error.
        Err(err) if err.is::<settings::OutOfTime>() => {
            note!("{err:#}");
            Exit::Limit
        }
        Err(err) => {
            note!("{err:#}");
            Exit::Trouble
        }
    };
    exit.into()
}

fn run(cli: Cli) -> Result<Exit> {
    match cli.command {
        Command::Solve(args) => commands::solve::run(&args),
        Command::Batch(args) => commands::batch::run(&args),
        Command::Generate(args) => commands::generate::run(&args),
        Command::Check(args) => commands::check::run(&args),
        Command::Compare(args) => commands::compare::run(&args),
        Command::Merge(args) => commands::merge::run(&args),
        Command::Completions(args) => commands::completions::run(&args),
        Command::Pdb(PdbCommand::Build(args)) => commands::pdb::run(&args),
    }
}
