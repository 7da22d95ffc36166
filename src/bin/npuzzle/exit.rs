/*!
Exit codes: the one place that says which number each command exits with,
and the `Exit codes:` lines of its `--help`, kept side by side so the two
cannot drift apart. grep's convention (0 found, 1 none exists, 2 trouble),
plus 3 for a search stopped before its verdict.
*/

use npuzzle::Status;
use npuzzle::report::{RowStatus, Summary};
use std::fmt::Write as _;
use std::process::ExitCode;

/// How a run of `npuzzle` ends, as the shell sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Exit {
    /// The command did what was asked: a puzzle solved, a board found
    /// solvable, a verdict for every puzzle of a batch, a file written.
    Success = 0,
    /// No sequence of moves reaches the goal.
    Unsolvable = 1,
    /// Bad input or an I/O error; clap exits with this number too when the
    /// command line is wrong.
    Trouble = 2,
    /// A limit (nodes, depth, time, a first Ctrl-C, SIGTERM) stopped a
    /// search before its verdict: trying again with more may still answer.
    Limit = 3,
    /// A second Ctrl-C: 128 + SIGINT, as shells report a process ended by it.
    Interrupted = 130,
}

impl Exit {
    /// The number the process exits with.
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// Ends the process at once, from a signal handler that cannot return
    /// through `main`.
    pub fn now(self) -> ! {
        std::process::exit(i32::from(self.code()))
    }

    /// `check`: whether the puzzle can reach the goal.
    pub fn of_check(solvable: bool) -> Exit {
        if solvable { Exit::Success } else { Exit::Unsolvable }
    }

    /// `batch`: one bad puzzle outweighs any limit, and a limit (or a puzzle
    /// never run) any verdict, so scripts see the worst that happened.
    pub fn of_batch(summary: &Summary, not_run: usize) -> Exit {
        if summary.error > 0 {
            Exit::Trouble
        } else if summary.limit > 0 || not_run > 0 {
            Exit::Limit
        } else {
            Exit::Success
        }
    }

    /// `compare`: the best verdict any run reached.
    pub fn of_compare(statuses: &[RowStatus]) -> Exit {
        if statuses.contains(&RowStatus::Solved) {
            Exit::Success
        } else if statuses.contains(&RowStatus::Unsolvable) {
            Exit::Unsolvable
        } else {
            Exit::Limit
        }
    }
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> ExitCode {
        ExitCode::from(exit.code())
    }
}

/// `solve`: the search's verdict.
impl From<Status> for Exit {
    fn from(status: Status) -> Exit {
        match status {
            Status::Solved => Exit::Success,
            Status::Unsolvable => Exit::Unsolvable,
            Status::Limit(_) => Exit::Limit,
        }
    }
}

/// What each code means across commands, for the top-level help (each
/// command's own help gives its list).
pub const OVERVIEW: &[(Exit, &str)] = &[
    (
        Exit::Success,
        "done: a puzzle solved, a board valid and solvable, a verdict for every puzzle of a batch, files written",
    ),
    (Exit::Unsolvable, "unsolvable: no sequence of moves reaches the goal"),
    (Exit::Trouble, "bad command line, bad input or I/O error (batch: some puzzle was an error row)"),
    (
        Exit::Limit,
        "a limit (nodes, expansions, depth, time, Ctrl-C, SIGTERM) stopped a search before a verdict",
    ),
    (Exit::Interrupted, "a second Ctrl-C ended the process at once, without its report"),
];

/// What each code means for `solve`.
pub const SOLVE: &[(Exit, &str)] = &[
    (Exit::Success, "solved (or the start already is the goal)"),
    (Exit::Unsolvable, "unsolvable: no sequence of moves reaches the goal"),
    (Exit::Trouble, "bad command line, bad input or I/O error"),
    (
        Exit::Limit,
        "a limit (--max-nodes, --max-expanded, --max-depth, --timeout, Ctrl-C, SIGTERM) stopped the search before a verdict",
    ),
    (Exit::Interrupted, "a second Ctrl-C ended the process at once, without its report"),
];

/// What each code means for `batch` (see [`Exit::of_batch`]).
pub const BATCH: &[(Exit, &str)] = &[
    (Exit::Success, "every puzzle got a verdict (solved or unsolvable)"),
    (Exit::Trouble, "a puzzle could not be read or was malformed (an error row), or bad command line"),
    (Exit::Limit, "a limit stopped some puzzle before a verdict, and no puzzle was an error"),
    (Exit::Interrupted, "a second Ctrl-C ended the process at once, without the summary"),
];

/// What each code means for `merge`.
pub const MERGE: &[(Exit, &str)] = &[
    (Exit::Success, "every puzzle has exactly one row, and no two rows disagree"),
    (
        Exit::Trouble,
        "a puzzle is missing or has several rows, rows disagree, an output cannot be read, or bad command line",
    ),
];

/// What each code means for `check` (see [`Exit::of_check`]).
pub const CHECK: &[(Exit, &str)] = &[
    (Exit::Success, "valid and solvable"),
    (Exit::Unsolvable, "valid but unsolvable"),
    (Exit::Trouble, "invalid puzzle or goal, or bad command line"),
];

/// What each code means for `compare` (see [`Exit::of_compare`]).
pub const COMPARE: &[(Exit, &str)] = &[
    (Exit::Success, "some run solved the puzzle"),
    (Exit::Unsolvable, "the puzzle is unsolvable"),
    (Exit::Trouble, "invalid puzzle or goal, or bad command line"),
    (Exit::Limit, "every run stopped at a limit"),
    (Exit::Interrupted, "a second Ctrl-C ended the process at once, without its report"),
];

/// The `Exit codes:` block of a command's `--help`.
pub fn help(meanings: &[(Exit, &str)]) -> String {
    let mut text = String::from("Exit codes:");
    for (exit, meaning) in meanings {
        // Writing to a String cannot fail.
        let _ = write!(text, "\n  {}  {meaning}", exit.code());
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_lists_each_code_with_its_meaning() {
        assert_eq!(
            help(CHECK),
            "Exit codes:\n  0  valid and solvable\n  1  valid but unsolvable\n  \
             2  invalid puzzle or goal, or bad command line"
        );
    }
}
