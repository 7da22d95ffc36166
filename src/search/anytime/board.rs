/*!
One board's searches as an anytime run asks for them ([`Searches`]), handed
over by the dispatch: the board's searches made ready for its encoding and
heuristic (so a run's searches do not go back through the dispatch), the
constructive solver, and staged search's halves, the block it leaves solved
as a board of its own by a dispatch of its own. Also what only anytime
search knows of the tables it reads: the blocks staged search leaves
([`Tables::block_goals`]) and its own budget.
*/

use super::{DEFAULT_BUDGET, Searches};
use crate::board::{Goal, GoalSpec, Shape, Tiles};
use crate::heuristic::pdb::{Reader, Tables};
use crate::heuristic::{HeuristicKind, manhattan_distance};
use crate::search::budget::Budget;
use crate::search::dispatch::Searcher;
use crate::search::outcome::{LimitKind, Limits, Outcome, Stats, Status};
use crate::search::staged::{self, Lines, Stages};
use crate::search::{Algorithm, Prepared, searchable, shorten};
use std::sync::Arc;
use std::time::Duration;

/// The share of the time left when a staged search's block is searched
/// that is kept for shortening the whole path, pass after pass with longer
/// and longer windows: the block's search has mostly converged by then.
/// On 100 random 7×7 boards at 1 s on two threads (cost over the Manhattan
/// distance), a 32nd 1.819, a 16th 1.809, an 8th 1.811 and 1.813, a
/// quarter 1.814; one pass of the shortest windows alone, 1.826.
const SHORTENING_SHARE: u32 = 16;

/// One board's searches, for an anytime run.
pub(crate) struct OneBoard<'a> {
    prepared: &'a Prepared,
    start: &'a Tiles,
    tables: &'a Tables,
    /// The searches of the board in its encoding with its heuristic;
    /// `None` where none takes it (a board past their reach, or tables
    /// that do not serve its goal).
    searcher: Option<&'a Searcher<'a>>,
}

impl<'a> OneBoard<'a> {
    /// The board `start`, searched by `searcher` and as `prepared` says
    /// with `tables`.
    pub(crate) fn new(
        prepared: &'a Prepared,
        start: &'a Tiles,
        tables: &'a Tables,
        searcher: Option<&'a Searcher<'a>>,
    ) -> OneBoard<'a> {
        OneBoard { prepared, start, tables, searcher }
    }
}

impl Searches for OneBoard<'_> {
    fn run(&self, algorithm: Algorithm, limits: &Limits) -> Outcome {
        match self.searcher {
            Some(search) => search(algorithm, limits),
            // Asked only of boards the searches take, with tables that
            // serve them: no answer and no bound.
            None => Outcome {
                status: Status::Limit(LimitKind::Interrupted),
                path: None,
                stats: Stats::default(),
                lower_bound: None,
                improvements: Vec::new(),
            },
        }
    }

    fn construct(&self, limits: &Limits) -> Outcome {
        self.prepared.constructed(self.start, limits, self.tables)
    }

    fn lines(&self, stages: &Stages, stop: &mut dyn FnMut() -> bool) -> Option<Lines> {
        staged::place_lines(
            self.start.cells(),
            self.prepared.goal().tiles().cells(),
            self.start.shape(),
            *stages,
            stop,
        )
    }

    fn promise(&self, lines: &Lines) -> u64 {
        lines.promise(manhattan_distance(lines.cells(), self.prepared.goal()))
    }

    fn finish(&self, lines: Lines, limits: &Limits) -> Outcome {
        let budget = Budget::start(limits, None);
        let mut stats = Stats::default();
        let (start, goal, shape) =
            (self.start.cells(), self.prepared.goal().tiles().cells(), self.start.shape());
        // The block is a board of its own, searched by an anytime search
        // with the time left: with its own tables where they are built.
        let mut finish = |start: &[u16], goal: &[u16], shape: Shape| {
            let start = Tiles::with_shape(shape, start).ok()?;
            let goal = goal_of(goal, shape)?;
            let tabled = self.tables.pdb.iter().chain(&self.tables.blocks).find(|pdb| pdb.serves(&goal));
            let (heuristic, tables) = match tabled {
                Some(pdb) => (HeuristicKind::Pdb, Tables::from(Arc::clone(pdb))),
                None => match self.prepared.heuristic() {
                    HeuristicKind::Pdb => (HeuristicKind::LinearConflict, Tables::NONE),
                    kind => (kind, Tables::NONE),
                },
            };
            // The block's own answers and bounds are not the board's; the
            // whole path's shortening gets a share of the time left.
            let limits = Limits {
                timeout: budget.time_left().map(|left| left.saturating_sub(left / SHORTENING_SHARE)),
                monitor: None,
                floor: None,
                ..limits.clone()
            };
            let outcome =
                Prepared::new(goal, Algorithm::Anytime, heuristic).solve(&start, &limits, &tables).ok()?;
            stats += outcome.stats;
            outcome.path
        };
        let found = lines.finish(goal, &mut finish);
        // Only Ctrl-C stops the first shortening pass: a path found is
        // worth its few milliseconds even at the deadline. Passes after it
        // run in the time kept for them.
        let mut stop = || limits.cancelled();
        let mut more = || budget.check_now().is_none();
        let path = found.map(|found| {
            stats.nodes_expanded += found.expanded;
            stats.nodes_generated += found.generated;
            let shortened =
                shorten::shorten_repeatedly(start, goal, shape, &found.path, &mut stop, &mut more);
            stats.shortened_by += (found.path.len() - shortened.len()) as u64;
            shortened
        });
        stats.runtime = budget.elapsed();
        Outcome {
            status: if path.is_some() {
                Status::Solved
            } else {
                Status::Limit(LimitKind::Time(stats.runtime))
            },
            path,
            stats,
            lower_bound: None,
            improvements: Vec::new(),
        }
    }

    fn start_bound(&self) -> u32 {
        self.prepared.start_bound(self.start, self.tables)
    }

    fn searchable(&self) -> bool {
        searchable(self.start.shape())
    }

    fn cells(&self) -> usize {
        self.start.shape().cells()
    }

    fn tables(&self) -> bool {
        self.prepared.heuristic() == HeuristicKind::Pdb
            && self.tables.pdb.as_deref().is_some_and(|pdb| pdb.serves(self.prepared.goal()))
    }
}

impl Tables {
    /// The goals, each a board of its own, of the blocks that anytime search
    /// leaves in the middle of a board towards `goal` (none on boards of up
    /// to 25 cells, which it searches whole): the tables [`Tables::blocks`]
    /// may hold.
    pub fn block_goals(goal: &Goal) -> Vec<Goal> {
        super::block_goals(goal.tiles().cells(), goal.shape())
            .into_iter()
            .filter_map(|(cells, shape)| goal_of(&cells, shape))
            .collect()
    }
}

/// The goal whose layout is `cells` (row-major, 0 the blank) on a board of
/// `shape`, as staged search hands over the block it leaves.
fn goal_of(cells: &[u16], shape: Shape) -> Option<Goal> {
    Goal::new(&GoalSpec::Board(Tiles::with_shape(shape, cells).ok()?), shape).ok()
}

/// What the choice of the strongest tables built asks of an algorithm:
/// anytime search has a budget of its own, and finishes blocks of larger
/// boards as boards of their own; the others neither.
impl Reader for Algorithm {
    fn own_budget(self) -> Option<Duration> {
        (self == Algorithm::Anytime).then_some(DEFAULT_BUDGET)
    }

    fn block_goals(self, goal: &Goal) -> Vec<Goal> {
        if self == Algorithm::Anytime { Tables::block_goals(goal) } else { Vec::new() }
    }
}
