/*!
One file per command, each with a `run` that takes its parsed flags and
returns the exit code; `main.rs` only dispatches to them.
*/

pub mod batch;
pub mod check;
pub mod compare;
pub mod completions;
pub mod generate;
pub mod merge;
pub mod pdb;
pub mod solve;
