/*!
The heuristic tables of a batch. A batch learns its puzzles' shapes only as
it reads them, and may hold several, so the tables are made per goal shape
when the first puzzle of that shape comes: once, whichever worker asks first
(a pattern-database build takes minutes), the others waiting for it.
*/

use crate::board::{Goal, Shape};
use crate::search::Tables;
use std::collections::HashMap;
use std::fmt;
use std::sync::{Mutex, PoisonError};

/// How the tables for one goal are made; a failure's message becomes the
/// error row of every puzzle of that shape.
type MakeTables = dyn Fn(&Goal) -> Result<Tables, String> + Send + Sync;

/// The tables of every goal shape met so far, made on first use.
pub struct TableSource {
    make: Box<MakeTables>,
    made: Mutex<HashMap<Shape, Result<Tables, String>>>,
}

impl TableSource {
    /// Tables made by `make` for each goal shape, once.
    pub fn new(make: impl Fn(&Goal) -> Result<Tables, String> + Send + Sync + 'static) -> TableSource {
        TableSource { make: Box::new(make), made: Mutex::new(HashMap::new()) }
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
        let mut made = self.made.lock().unwrap_or_else(PoisonError::into_inner);
        made.entry(goal.shape()).or_insert_with(|| (self.make)(goal)).clone()
    }
}

impl fmt::Debug for TableSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let made = self.made.lock().unwrap_or_else(PoisonError::into_inner);
        f.debug_struct("TableSource")
            .field("shapes", &made.keys().collect::<Vec<_>>())
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
}
