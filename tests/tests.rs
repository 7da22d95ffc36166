//! One integration-test binary; each module is one topic of the spec.

mod util;

mod cli_solve;
mod ground_truth;
mod parser_props;
mod semantics;
mod solvability;

// Issue 3: scripting commands.
mod cli_batch;
mod cli_tools;

// Issue 4: record-speed optimal solving.
mod optimal;
mod pattern_databases;

// Issue 9: every board a user brings.
mod rectangles;

// Issue 10: the optimal 24-puzzle on every core.
mod parallel;

// Issue 11: limits for every algorithm.
mod limits;
