/*!
The heuristic tables a search is given ([`Tables`]), and which of those
already built are the strongest at hand for it ([`Tables::strongest_built`]):
the one place that weighs a set's strength against the time its loading
takes out of the search's, for `solve` and `batch` alike.

What the choice needs to know of the search that will read the tables (its
own budget, the blocks it finishes as boards of their own) is asked through
[`Reader`], which the searches implement, so the tables need not know them.
*/

use super::{Estimates, PartitionSet, Pdb, PdbError, catalogue};
use crate::board::{Goal, Shape};
use crate::error::Error;
use crate::heuristic::HeuristicKind;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Heuristic tables made ahead of a search, because making them takes
/// long: the caller loads them once and every search shares them.
#[derive(Clone, Debug, Default)]
pub struct Tables {
    /// Pattern databases for [`HeuristicKind::Pdb`] (one goal).
    pub pdb: Option<Arc<Pdb>>,
    /// Pattern databases for the blocks that anytime search leaves in the
    /// middle of a larger board ([`Tables::block_goals`]): the 5×5 block
    /// is then finished by an anytime search of its own with them, not
    /// with linear conflicts.
    pub blocks: Vec<Arc<Pdb>>,
}

impl Tables {
    /// No prepared tables: enough for every heuristic but the pattern databases.
    pub const NONE: Tables = Tables { pdb: None, blocks: Vec::new() };

    /// The same tables with the pattern databases in bits read into huge
    /// pages (see [`Pdb::in_huge_pages`]), for a batch long enough to repay
    /// the copy; `None` when nothing would change.
    pub fn in_huge_pages(&self) -> Option<Tables> {
        let pdb = self.pdb.as_ref()?.in_huge_pages()?;
        Some(Tables { pdb: Some(Arc::new(pdb)), blocks: self.blocks.clone() })
    }

    /// The heuristic of a search that takes the strongest at hand, given
    /// these tables: the pattern databases where they serve the whole
    /// board, else `otherwise`.
    pub fn strongest(&self, otherwise: HeuristicKind) -> HeuristicKind {
        if self.pdb.is_some() { HeuristicKind::Pdb } else { otherwise }
    }

    /// The strongest databases built for `goal` in `dir`, for a search by
    /// `reader` with `time` to run: `chosen` if given, else the zero-aware
    /// set IDA* reads (the best-first searches read it through their memos,
    /// and it guides them to shorter answers in fewer nodes), else the
    /// blank-minimised set; none if neither is built. A `solve` with less
    /// than `QUICK_BUDGET` left takes the blank-minimised set first: the
    /// zero-aware one takes longer to load than the search may run; and no
    /// set of more than `QUICK_BYTES` is loaded. For a search that
    /// finishes blocks of a larger board as boards of their own (anytime
    /// search past the 24-puzzle), the whole board's tables when there are
    /// `WHOLE_BUDGET` or more to use them, else with `BLOCKS_BUDGET` or
    /// more the strongest built for each block. Each set is read by `load`,
    /// the caller's, which may show its progress; one that does not load is
    /// passed over.
    pub fn strongest_built(
        reader: impl Reader,
        goal: &Goal,
        chosen: Option<PartitionSet>,
        dir: &Path,
        time: Time,
        load: &mut Load<'_>,
    ) -> Tables {
        let blocks = reader.block_goals(goal);
        if !blocks.is_empty() {
            if !time.under(WHOLE_BUDGET, reader) {
                let whole = whole_built(goal, chosen, dir, time, load);
                if whole.pdb.is_some() {
                    return whole;
                }
            }
            if !time.pressed(BLOCKS_BUDGET) {
                let blocks =
                    blocks.iter().filter_map(|block| whole_built(block, chosen, dir, time, load).pdb);
                return Tables { pdb: None, blocks: blocks.collect() };
            }
        }
        whole_built(goal, chosen, dir, time, load)
    }

    /// The pattern databases in these tables, if they were built for
    /// `goal`; else why a search with them cannot run.
    pub(crate) fn serving(&self, goal: &Goal) -> Result<&Arc<Pdb>, Error> {
        let shape = goal.shape();
        match &self.pdb {
            Some(pdb) if pdb.serves(goal) => Ok(pdb),
            Some(_) => Err(unsupported(format!(
                "the loaded pattern databases were built for another goal than this {shape} one"
            ))),
            None => Err(Tables::no_partition(shape)
                .unwrap_or_else(|| unsupported("no pattern databases were loaded".into()))),
        }
    }

    /// Why no built-in tables exist for boards of `shape`, if none do.
    pub(crate) fn no_partition(shape: Shape) -> Option<Error> {
        PartitionSet::for_shape(shape).next().is_none().then(|| {
            unsupported(format!("no partition is built in for {shape} boards (partitions: {})", catalogue()))
        })
    }
}

/// The pattern databases do not apply, for the reason `why`.
fn unsupported(why: String) -> Error {
    Error::Unsupported { heuristic: HeuristicKind::Pdb.name(), why }
}

impl From<Arc<Pdb>> for Tables {
    fn from(pdb: Arc<Pdb>) -> Tables {
        Tables { pdb: Some(pdb), blocks: Vec::new() }
    }
}

/// How one set of databases for a goal is read from a directory: the
/// caller's [`Pdb::load`], showing its progress as it likes.
pub type Load<'a> = dyn FnMut(&Goal, PartitionSet, &Path) -> Result<Pdb, PdbError> + 'a;

/// What the choice of tables asks of the search that will read them.
pub trait Reader: Copy {
    /// The time the search gives itself when no timeout is given, if it
    /// ends by itself (anytime search's budget).
    fn own_budget(self) -> Option<Duration>;
    /// The goals of the blocks the search finishes as boards of their own
    /// on a board towards `goal`, each of which tables may serve.
    fn block_goals(self, goal: &Goal) -> Vec<Goal>;
}

/// The time the searches that read a command's tables have, against which
/// loading them is weighed.
#[derive(Clone, Copy, Debug)]
pub enum Time {
    /// A batch's: the tables load once for all its puzzles.
    Batch,
    /// One search's, until the deadline if there is one.
    Solve(Option<Deadline>),
}

/// A command's timeout and when it runs out, counted from its start:
/// reading the board and loading tables spend it before the search does.
#[derive(Clone, Copy, Debug)]
pub struct Deadline {
    /// The timeout.
    pub timeout: Duration,
    /// When it runs out.
    pub at: Instant,
}

impl Deadline {
    /// `timeout`'s deadline, counted from now.
    pub fn after(timeout: Duration) -> Deadline {
        Deadline { timeout, at: Instant::now() + timeout }
    }

    /// The time left before it runs out.
    pub fn left(self) -> Duration {
        self.at.saturating_duration_since(Instant::now())
    }
}

impl Time {
    /// Whether a `solve` was given less than `budget` in all (its
    /// `--timeout`): one without has all the time it needs, but for the
    /// search's own budget.
    fn under(self, budget: Duration, reader: impl Reader) -> bool {
        match self {
            Time::Batch => false,
            Time::Solve(Some(deadline)) => deadline.timeout < budget,
            Time::Solve(None) => reader.own_budget().is_some_and(|own| own < budget),
        }
    }

    /// Whether a `solve` has a deadline less than `budget` away.
    fn pressed(self, budget: Duration) -> bool {
        matches!(self, Time::Solve(Some(deadline)) if deadline.left() < budget)
    }
}

/// Budgets under which a single search takes the tables that map at once
/// rather than the zero-aware ones, whose copy into memory takes a few
/// tenths of a second.
const QUICK_BUDGET: Duration = Duration::from_secs(2);

/// The most bytes of tables a search with under `QUICK_BUDGET` to run
/// loads: every 4×4 and 5×5 set (0.58 GB at the most, mapped and checked
/// in a few tenths of a second), not 6×6's 1.03 GB, which took 0.6 to 3 s.
const QUICK_BYTES: u64 = 768 << 20;

/// Budgets under which anytime search on a larger board does without its
/// blocks' tables: loading them (they are checked as they are read) takes
/// a tenth of a second or more, and a staged search needs a few tenths to
/// reach its block at all.
const BLOCKS_BUDGET: Duration = Duration::from_millis(500);

/// Budgets under which anytime search on a board larger than the 24-puzzle
/// does without the whole board's tables (6×6's take 0.6 to 3 s to load)
/// and is staged instead. A batch loads them once for all its puzzles.
const WHOLE_BUDGET: Duration = Duration::from_secs(5);

/// [`Tables::strongest_built`] for the whole board of `goal`.
fn whole_built(
    goal: &Goal,
    chosen: Option<PartitionSet>,
    dir: &Path,
    time: Time,
    load: &mut Load<'_>,
) -> Tables {
    let loaded = |pdb: Pdb| Tables::from(Arc::new(pdb));
    if let Some(partition) = chosen {
        return load(goal, partition, dir).map_or(Tables::NONE, loaded);
    }
    let quick = time.pressed(QUICK_BUDGET);
    let order = if quick {
        [Estimates::FromScratch, Estimates::FromParent]
    } else {
        [Estimates::FromParent, Estimates::FromScratch]
    };
    for estimates in order {
        let Some(partition) = PartitionSet::default_for(goal.shape(), estimates) else {
            continue;
        };
        let Ok(paths) = Pdb::paths(goal, partition, dir) else {
            continue;
        };
        let bytes: Option<u64> = paths.iter().map(|p| p.metadata().ok().map(|m| m.len())).sum();
        let fits = bytes.is_some_and(|bytes| !quick || bytes <= QUICK_BYTES);
        if fits && let Ok(pdb) = load(goal, partition, dir) {
            return loaded(pdb);
        }
    }
    Tables::NONE
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Algorithm;
    use std::time::Instant;

    fn solve_within(seconds: u64) -> Time {
        let timeout = Duration::from_secs(seconds);
        Time::Solve(Some(Deadline { timeout, at: Instant::now() + timeout }))
    }

    #[test]
    fn a_batch_loads_its_tables_once_so_no_budget_is_too_short_for_them() {
        assert!(!Time::Batch.under(WHOLE_BUDGET, Algorithm::Anytime));
        assert!(!Time::Batch.pressed(QUICK_BUDGET));
    }

    #[test]
    fn anytime_without_a_timeout_has_its_default_budget_and_other_searches_all_the_time() {
        assert!(Time::Solve(None).under(WHOLE_BUDGET, Algorithm::Anytime));
        assert!(!Time::Solve(None).under(WHOLE_BUDGET, Algorithm::IdaStar));
        assert!(!Time::Solve(None).pressed(QUICK_BUDGET));
    }

    #[test]
    fn a_solve_weighs_its_timeout_and_the_time_left_before_its_deadline() {
        // A `--timeout 5` counts as five seconds, though some are gone by
        // the time the tables are chosen.
        assert!(!solve_within(WHOLE_BUDGET.as_secs()).under(WHOLE_BUDGET, Algorithm::Anytime));
        assert!(solve_within(1).under(WHOLE_BUDGET, Algorithm::Anytime));
        assert!(solve_within(1).pressed(QUICK_BUDGET));
        assert!(!solve_within(60).pressed(QUICK_BUDGET));
    }
}
