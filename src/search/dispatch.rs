/*!
The one place that turns run-time choices (algorithm, heuristic, board
shape) into concrete, monomorphised searches. [`Prepared::solve`] reads top
to bottom: what makes a board bad input, the parity rule, then one decision
per algorithm. The searches proper are made ready for the board's encoding
and heuristic once ([`Searcher`]), and the same searcher serves a single
search and every search of an anytime run.
*/

use super::algorithm::{Algorithm, Selection};
use super::anytime::{self, OneBoard, Searches, anytime, within};
use super::encoding::Encoding;
use super::monitor::Improvement;
use super::outcome::{LimitKind, Limits, Outcome, Stats, Status};
use super::weight::Weight;
use super::{
    astar, bfs, bounded_astar, constructive, dfs, fringe, greedy, idastar, shorten, weighted_astar,
    weighted_idastar,
};
use crate::board::{
    Board, Goal, MAX_SEARCH_CELLS, MAX_SEARCH_SIDE, Packed, Packed128, PackedWords, Shape, Tiles, Wide,
};
use crate::error::Error;
use crate::heuristic::pdb::Tables;
use crate::heuristic::{
    Euclidean, Hamming, Heuristic, HeuristicKind, LinearConflict, Manhattan, Pdb, Zero, manhattan_distance,
};
use std::borrow::Cow;
use std::sync::Arc;

/// Solves `start` towards `goal`: the parity check, then the one dispatch
/// from run-time choices to a monomorphised search.
///
/// `heuristic` is ignored by uninformed algorithms. Many searches towards
/// one goal share their set-up through [`Prepared`].
///
/// # Errors
/// [`Error::Unsupported`] when `heuristic` needs tables that `tables` does
/// not hold for this board's goal.
///
/// # Examples
/// ```
/// use npuzzle::{solve, Algorithm, Goal, GoalSpec, HeuristicKind, Limits, Status, Tables, Tiles};
/// let start = Tiles::new(&[1, 2, 5, 3, 4, 0, 6, 7, 8]).unwrap();
/// let goal = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
/// let outcome =
///     solve(&start, &goal, Algorithm::AStar, HeuristicKind::Manhattan, &Limits::default(), &Tables::NONE)?;
/// assert_eq!(outcome.status, Status::Solved);
/// assert_eq!(outcome.cost(), Some(3));
/// # Ok::<(), npuzzle::Error>(())
/// ```
pub fn solve(
    start: &Tiles,
    goal: &Goal,
    algorithm: Algorithm,
    heuristic: HeuristicKind,
    limits: &Limits,
    tables: &Tables,
) -> Result<Outcome, Error> {
    Prepared::new(goal.clone(), algorithm, heuristic).solve(start, limits, tables)
}

/// A goal, an algorithm and a heuristic made ready for many searches: the
/// heuristic's tables are built once, not per search. For a small puzzle
/// they take as long as a tenth of the search (a batch of 8-puzzles), so a
/// batch keeps one per worker and shape.
#[derive(Clone, Debug)]
pub struct Prepared {
    goal: Goal,
    algorithm: Algorithm,
    heuristic: HeuristicKind,
    /// The heuristic the searches use; `None` for the pattern databases,
    /// which each search is given with its [`Tables`].
    estimator: Option<Estimator>,
    /// The estimate every answer's lower bound starts from (linear
    /// conflicts, the strongest of the heuristics without tables), for the
    /// boards the searches take; larger ones use the Manhattan distance.
    bound: Option<Box<LinearConflict>>,
    shorten: bool,
}

/// The searches of one board, made ready for its encoding and heuristic:
/// each call runs an algorithm on it, its path shortened where the
/// algorithm's paths are and its lower bound raised to the start's
/// estimate.
pub(crate) type Searcher<'a> = Box<dyn Fn(Algorithm, &Limits) -> Outcome + Sync + 'a>;

impl Prepared {
    /// `algorithm` with `heuristic` towards `goal` (the heuristic is
    /// ignored by uninformed algorithms).
    pub fn new(goal: Goal, algorithm: Algorithm, heuristic: HeuristicKind) -> Prepared {
        // Uninformed searches, and boards no search takes, need no estimate.
        let estimator = if algorithm.informed() && searchable(goal.shape()) {
            Estimator::new(heuristic, &goal)
        } else {
            Some(Estimator::Zero)
        };
        let bound = searchable(goal.shape()).then(|| Box::new(LinearConflict::new(&goal)));
        Prepared { goal, algorithm, heuristic, estimator, bound, shorten: true }
    }

    /// Solves `start` (of the goal's shape) as [`solve`] does.
    ///
    /// # Errors
    /// As [`solve`].
    pub fn solve(&self, start: &Tiles, limits: &Limits, tables: &Tables) -> Result<Outcome, Error> {
        self.refuse(start, tables)?;
        if !self.goal.parity(start.cells()).solvable() {
            return Ok(unsolvable());
        }
        // Each improvement of an anytime run is shown as it comes.
        let report = &mut |better: &Improvement| limits.monitor.iter().for_each(|m| m.improved(*better));
        let searcher = self.searcher(start, tables);
        let board = OneBoard::new(self, start, tables, searcher.as_ref().ok());
        let race = self.races(&board, limits);
        Ok(match self.algorithm {
            Algorithm::Rows => board.construct(limits),
            Algorithm::Anytime => anytime(&board, limits, report),
            Algorithm::Bounded { bound, .. } if !board.searchable() => held(board.construct(limits), bound),
            Algorithm::Bounded { bound, .. } if race => within(&board, limits, bound, report),
            search => searcher?(search, limits),
        })
    }

    /// Whether this search is the anytime race, run until an answer is
    /// within the bound of what IDA* proves (its answers come from searches
    /// at every bound): Dynamic Potential Search with tables and a second
    /// core ([`anytime::races`]), and no depth limit, which the race's
    /// first answer, the constructive solver's, may not keep.
    fn races(&self, board: &OneBoard<'_>, limits: &Limits) -> bool {
        matches!(self.algorithm, Algorithm::Bounded { selection: Selection::Potential, .. })
            && limits.max_depth.is_none()
            && anytime::races(board, limits)
    }

    /// Why `start` is bad input for this search whether it is solvable or
    /// not: a shape other than the goal's, a board past the searches' reach
    /// for a search that needs one (the constructive solver answers rows and
    /// bounded searches there, and anytime search stages it), or pattern
    /// databases asked for where no partition serves the shape.
    fn refuse(&self, start: &Tiles, tables: &Tables) -> Result<(), Error> {
        let shape = start.shape();
        if shape != self.goal.shape() {
            return Err(Error::GoalSize { start: shape, goal: self.goal.shape() });
        }
        let constructed =
            !searchable(shape) && matches!(self.algorithm, Algorithm::Rows | Algorithm::Bounded { .. });
        if !searchable(shape) && !constructed && self.algorithm != Algorithm::Anytime {
            return Err(Error::TooLargeToSearch { shape, algorithm: self.algorithm.name() });
        }
        let uses_pdb = self.algorithm.informed() && self.heuristic == HeuristicKind::Pdb;
        match tables.pdb {
            None if uses_pdb && !constructed => Tables::no_partition(shape).map_or(Ok(()), Err),
            _ => Ok(()),
        }
    }

    /// Whether the paths of algorithms that give up shortest paths for
    /// speed ([`Algorithm::shortens`]) are shortened once found (the
    /// default): windows of the path replaced by shorter ways between the
    /// same boards, then cycles cut. It costs well under a millisecond on
    /// a 24-puzzle and cuts greedy's paths there by a tenth; without
    /// it the path is the search's own, as a textbook implementation
    /// returns it.
    #[must_use]
    pub fn shortening(mut self, on: bool) -> Prepared {
        self.shorten = on;
        self
    }

    /// The goal.
    pub fn goal(&self) -> &Goal {
        &self.goal
    }

    /// The heuristic its informed searches use.
    pub fn heuristic(&self) -> HeuristicKind {
        self.heuristic
    }

    /// The constructive solver's answer for `start`, its lower bound raised
    /// to the start's estimate.
    pub(crate) fn constructed(&self, start: &Tiles, limits: &Limits, tables: &Tables) -> Outcome {
        let made = constructive::construct(start.cells(), &self.goal, self.shorten, limits);
        self.bounded(start, made, tables)
    }

    /// The searches of `start` in its encoding with this heuristic (see
    /// [`Searcher`]); the error to give if a search is asked for when none
    /// takes the board, or the tables do not serve its goal.
    fn searcher<'a>(&'a self, start: &'a Tiles, tables: &'a Tables) -> Result<Searcher<'a>, Error> {
        let shape = start.shape();
        if !searchable(shape) {
            return Err(Error::TooLargeToSearch { shape, algorithm: self.algorithm.name() });
        }
        let estimator = match &self.estimator {
            Some(built) => Cow::Borrowed(built),
            None => Cow::Owned(Estimator::Pdb(Arc::clone(tables.serving(&self.goal)?))),
        };
        Ok(match Encoding::of(shape) {
            Encoding::Packed => self.searcher_as::<Packed>(estimator, start, tables),
            Encoding::Packed128 => self.searcher_as::<Packed128>(estimator, start, tables),
            Encoding::Words4 => self.searcher_as::<PackedWords<4>>(estimator, start, tables),
            Encoding::Words5 => self.searcher_as::<PackedWords<5>>(estimator, start, tables),
            Encoding::Wide64 => self.searcher_as::<Wide<64>>(estimator, start, tables),
            Encoding::Wide256 => self.searcher_as::<Wide<MAX_SEARCH_CELLS>>(estimator, start, tables),
        })
    }

    fn searcher_as<'a, B: Board>(
        &'a self,
        estimator: Cow<'a, Estimator>,
        start: &'a Tiles,
        tables: &'a Tables,
    ) -> Searcher<'a> {
        let board = B::from_tiles(start.cells());
        Box::new(move |algorithm, limits| {
            let found = estimator.run(algorithm, &board, &self.goal, limits);
            let found = if self.shorten && algorithm.shortens() {
                shorten::shortened(start.cells(), self.goal.tiles().cells(), start.shape(), found, limits)
            } else {
                found
            };
            self.bounded(start, found, tables)
        })
    }

    /// The fewest moves `start` can need, by the strongest estimate at
    /// hand: linear conflicts (the Manhattan distance on boards past the
    /// searches' reach), and the pattern databases in `tables` when they
    /// serve this goal.
    pub fn start_bound(&self, start: &Tiles, tables: &Tables) -> u32 {
        let cells = start.cells();
        let estimate = match &self.bound {
            Some(lc) => Heuristic::<Wide<MAX_SEARCH_CELLS>>::estimate(&**lc, &Wide::from_tiles(cells)),
            None => manhattan_distance(cells, &self.goal),
        };
        match tables.pdb.as_deref().filter(|pdb| pdb.serves(&self.goal)) {
            Some(pdb) => estimate.max(pdb.value_of(cells)),
            None => estimate,
        }
    }

    /// `outcome` with its lower bound raised to the start's estimate.
    fn bounded(&self, start: &Tiles, mut outcome: Outcome, tables: &Tables) -> Outcome {
        // A proven optimal cost is the best bound there is: no estimate
        // can raise it, and with tables in bits an estimate from scratch
        // walks each table down to its goal.
        if outcome.status != Status::Unsolvable && outcome.proven_optimal() != Some(true) {
            let estimate = self.start_bound(start, tables);
            outcome.lower_bound = Some(outcome.lower_bound.map_or(estimate, |b| b.max(estimate)));
        }
        outcome
    }
}

/// A heuristic with its tables built for one goal.
#[derive(Clone, Debug)]
enum Estimator {
    Zero,
    Hamming(Hamming),
    Manhattan(Manhattan),
    Euclidean(Euclidean),
    /// Boxed: its line tables are half a kilobyte.
    LinearConflict(Box<LinearConflict>),
    /// Loaded apart and shared by many searches (see [`Tables`]).
    Pdb(Arc<Pdb>),
}

impl Estimator {
    /// `kind` built for `goal`; `None` for the pattern databases, which are
    /// loaded apart.
    fn new(kind: HeuristicKind, goal: &Goal) -> Option<Estimator> {
        Some(match kind {
            HeuristicKind::Zero => Estimator::Zero,
            HeuristicKind::Hamming => Estimator::Hamming(Hamming::new(goal)),
            HeuristicKind::Manhattan => Estimator::Manhattan(Manhattan::new(goal)),
            HeuristicKind::Euclidean => Estimator::Euclidean(Euclidean::new(goal)),
            HeuristicKind::LinearConflict => Estimator::LinearConflict(Box::new(LinearConflict::new(goal))),
            HeuristicKind::Pdb => return None,
        })
    }

    /// Runs `algorithm` on `board` with this heuristic.
    fn run<B: Board>(&self, algorithm: Algorithm, board: &B, goal: &Goal, limits: &Limits) -> Outcome {
        match self {
            Estimator::Zero => run(algorithm, board, goal, &Zero, limits),
            Estimator::Hamming(h) => run(algorithm, board, goal, h, limits),
            Estimator::Manhattan(h) => run(algorithm, board, goal, h, limits),
            Estimator::Euclidean(h) => run(algorithm, board, goal, h, limits),
            Estimator::LinearConflict(h) => run(algorithm, board, goal, &**h, limits),
            Estimator::Pdb(h) => run(algorithm, board, goal, &**h, limits),
        }
    }
}

/// A bounded search's answer past the searches' reach: `made`, the
/// constructive solver's, where its cost is proven within `bound` of the
/// lower bound (so within `bound` of the shortest).
fn held(made: Outcome, bound: Weight) -> Outcome {
    made.held_to(bound, LimitKind::Unproven(bound))
}

/// The verdict of the parity rule, reached without a search.
fn unsolvable() -> Outcome {
    Outcome {
        status: Status::Unsolvable,
        path: None,
        stats: Stats::default(),
        lower_bound: None,
        improvements: Vec::new(),
    }
}

/// Whether the searches take a board of `shape`: both sides at most
/// [`MAX_SEARCH_SIDE`].
pub fn searchable(shape: Shape) -> bool {
    shape.width() <= MAX_SEARCH_SIDE && shape.height() <= MAX_SEARCH_SIDE
}

/// Runs `algorithm` with heuristic `h`, which the uninformed searches ignore.
pub(super) fn run<B: Board, H: Heuristic<B>>(
    algorithm: Algorithm,
    board: &B,
    goal: &Goal,
    h: &H,
    limits: &Limits,
) -> Outcome {
    match algorithm {
        Algorithm::Bfs => bfs(board, goal, limits),
        Algorithm::Dfs => dfs(board, goal, limits),
        Algorithm::AStar => astar(board, goal, h, limits),
        Algorithm::IdaStar => idastar(board, goal, h, limits),
        Algorithm::Fringe => fringe(board, goal, h, limits),
        Algorithm::Greedy => greedy(board, goal, h, limits),
        Algorithm::WeightedAStar(w) => weighted_astar(board, goal, h, w, limits),
        Algorithm::WeightedIdaStar(w) => weighted_idastar(board, goal, h, w, limits),
        Algorithm::Bounded { bound, selection } => bounded_astar(board, goal, h, bound, selection, limits),
        // Both take the board as it is, whatever its size, and
        // `Prepared::solve` runs them so; an encoded board gets the answer
        // every solvable board has at once, the constructive solver's
        // (anytime search's own with no time to spend).
        Algorithm::Rows | Algorithm::Anytime => {
            constructive::construct(&board.to_tiles(goal.cells()), goal, true, limits)
        }
    }
}
