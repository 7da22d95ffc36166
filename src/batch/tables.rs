/*!
The heuristic tables of a batch. A batch learns its puzzles' shapes only as
it reads them, and may hold several, so the tables are made per goal shape
when the first puzzle of that shape comes: once, whichever worker asks first
(a pattern-database build takes minutes), the others waiting for it.

A long batch then reads the 15-puzzle's tables in bits into huge pages, as
the 24-puzzle's are read at load: IDA*'s lookups land all over 0.2 GB, and
in 2 MiB pages they miss the TLB far less. On 20,000 random 15-puzzles that
saves 7-8 % of the search time; the copy costs a third of a second of one
core and now and then a stall while the kernel compacts memory, more than
a short batch (Korf's 100 take a tenth of a second) has to gain. So the
worker that serves the [`HUGE_PAGES_AFTER`]th puzzle of a shape makes the
copy, the others going on with the mapped tables meanwhile, and the puzzles
after it use the copy.
*/

use crate::board::{Goal, Shape};
use crate::search::Tables;
use std::collections::HashMap;
use std::fmt;
use std::sync::{Mutex, PoisonError};

/// How the tables for one goal are made; a failure's message becomes the
/// error row of every puzzle of that shape.
type MakeTables = dyn Fn(&Goal) -> Result<Tables, String> + Send + Sync;

/// How tables a long batch keeps using are remade for speed, if they can be.
type Upgrade = dyn Fn(&Tables) -> Option<Tables> + Send + Sync;

/// Puzzles of one shape after which the batch reads its tables into huge
/// pages: by then about three seconds of 15-puzzles on two cores, and the
/// copy is repaid in a few more.
pub const HUGE_PAGES_AFTER: u64 = 5_000;

/// The tables of every goal shape met so far, made on first use.
pub struct TableSource {
    make: Box<MakeTables>,
    upgrade: Box<Upgrade>,
    upgrade_after: u64,
    made: Mutex<HashMap<Shape, Made>>,
}

/// One shape's tables and the puzzles they have served.
struct Made {
    tables: Result<Tables, String>,
    served: u64,
}

impl TableSource {
    /// Tables made by `make` for each goal shape, once.
    pub fn new(make: impl Fn(&Goal) -> Result<Tables, String> + Send + Sync + 'static) -> TableSource {
        TableSource {
            make: Box::new(make),
            upgrade: Box::new(Tables::in_huge_pages),
            upgrade_after: HUGE_PAGES_AFTER,
            made: Mutex::new(HashMap::new()),
        }
    }

    /// No tables, for algorithms and heuristics that need none.
    pub fn none() -> TableSource {
        TableSource::new(|_| Ok(Tables::NONE))
    }

    /// The tables for `goal`, made now if its shape is new.
    ///
    /// # Errors
    /// The message of the failure to make them, the same for every puzzle
    /// of that shape (a failed build is not retried).
    pub fn get(&self, goal: &Goal) -> Result<Tables, String> {
        let (tables, upgrade) = {
            let mut made = self.made.lock().unwrap_or_else(PoisonError::into_inner);
            let made =
                made.entry(goal.shape()).or_insert_with(|| Made { tables: (self.make)(goal), served: 0 });
            made.served += 1;
            (made.tables.clone(), made.served == self.upgrade_after)
        };
        let Ok(current) = &tables else {
            return tables;
        };
        // Made outside the lock: the other workers go on meanwhile.
        match upgrade.then(|| (self.upgrade)(current)).flatten() {
            Some(better) => {
                let mut made = self.made.lock().unwrap_or_else(PoisonError::into_inner);
                if let Some(made) = made.get_mut(&goal.shape()) {
                    made.tables = Ok(better.clone());
                }
                Ok(better)
            }
            None => tables,
        }
    }
}

impl fmt::Debug for TableSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let made = self.made.lock().unwrap_or_else(PoisonError::into_inner);
        f.debug_struct("TableSource")
            .field("shapes", &made.keys().collect::<Vec<_>>())
            .field("upgrade_after", &self.upgrade_after)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::GoalSpec;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn tables_are_made_once_per_shape_and_failures_are_remembered() {
        let calls = Arc::new(AtomicUsize::new(0));
        let counted = Arc::clone(&calls);
        let source = TableSource::new(move |goal| {
            counted.fetch_add(1, Ordering::SeqCst);
            if goal.shape() == Shape::square(3) {
                Err("no tables for 3x3".to_owned())
            } else {
                Ok(Tables::NONE)
            }
        });
        let goal = |side| Goal::new(&GoalSpec::BlankFirst, Shape::square(side)).unwrap();
        for _ in 0..3 {
            assert!(source.get(&goal(4)).is_ok());
            assert_eq!(source.get(&goal(3)).unwrap_err(), "no tables for 3x3");
        }
        assert_eq!(calls.load(Ordering::SeqCst), 2);
    }

    /// Tables that differ from [`Tables::NONE`]: a small pattern database.
    fn some_tables() -> Tables {
        use crate::heuristic::pdb::{PatternDatabase, Pdb, TableKind};
        let goal = Goal::new(&GoalSpec::BlankFirst, Shape::square(3)).unwrap();
        let db = PatternDatabase::build(&goal, &[1, 2], TableKind::Minimised, &mut |_| {}).unwrap();
        Tables { pdb: Some(Arc::new(Pdb::from_databases(&goal, vec![db]).unwrap())), blocks: Vec::new() }
    }

    #[test]
    fn a_long_batch_upgrades_its_tables_once_and_later_puzzles_use_the_upgrade() {
        let upgrades = Arc::new(AtomicUsize::new(0));
        let counted = Arc::clone(&upgrades);
        let mut source = TableSource::none();
        source.upgrade_after = 3;
        source.upgrade = Box::new(move |_| {
            counted.fetch_add(1, Ordering::SeqCst);
            Some(some_tables())
        });
        let goal = Goal::new(&GoalSpec::BlankFirst, Shape::square(4)).unwrap();
        let upgraded: Vec<bool> = (0..6).map(|_| source.get(&goal).unwrap().pdb.is_some()).collect();
        assert_eq!(upgraded, [false, false, true, true, true, true]);
        assert_eq!(upgrades.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn tables_that_cannot_be_upgraded_or_failed_stay_as_they_were() {
        let mut source = TableSource::new(|goal| {
            if goal.shape() == Shape::square(3) {
                Err("no tables for 3x3".to_owned())
            } else {
                Ok(Tables::NONE)
            }
        });
        source.upgrade_after = 1;
        let goal = |side| Goal::new(&GoalSpec::BlankFirst, Shape::square(side)).unwrap();
        for _ in 0..3 {
            // Tables::NONE has no pattern databases to copy.
            assert!(source.get(&goal(4)).unwrap().pdb.is_none());
            assert_eq!(source.get(&goal(3)).unwrap_err(), "no tables for 3x3");
        }
    }
}
