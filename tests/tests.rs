//! One integration-test binary; each module is one topic of the spec.

mod util;

// Reading boards, and which boards can be solved.
mod parser_props;
mod rectangles;
mod solvability;

// What the searches promise, held to ground truth.
mod bounds;
mod ground_truth;
mod optimal;
mod parallel;
mod pattern_databases;
mod semantics;

// The command line: one board, many boards, the other commands, limits,
// and the documentation's examples run as written.
mod campaigns;
mod cli_batch;
mod cli_solve;
mod cli_tools;
mod documentation;
mod hostile;
mod limits;
mod recipes;
