/*!
The one place that turns run-time choices (algorithm, heuristic, board
shape) into concrete, monomorphised searches, with the checks every search
shares: shapes, parity, tables, and the shortening of a path once found.
*/

use super::algorithm::{Algorithm, Selection};
use super::anytime::{self, OneBoard, anytime};
use super::budget::Budget;
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
use crate::heuristic::pdb::{Tables, catalogue};
use crate::heuristic::{
    Euclidean, Hamming, Heuristic, HeuristicKind, LinearConflict, Manhattan, PartitionSet, Pdb, Zero,
    manhattan_distance,
};

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
    estimator: Estimator,
    /// The estimate every answer's lower bound starts from (linear
    /// conflicts, the strongest of the heuristics without tables), for the
    /// boards the searches take; larger ones use the Manhattan distance.
    bound: Option<Box<LinearConflict>>,
    shorten: bool,
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
    /// No tables of its own: an uninformed algorithm, the pattern databases
    /// (loaded apart, in [`Tables`]), or a board too large to search.
    Elsewhere,
}

impl Estimator {
    fn new(kind: HeuristicKind, goal: &Goal) -> Estimator {
        match kind {
            HeuristicKind::Zero => Estimator::Zero,
            HeuristicKind::Hamming => Estimator::Hamming(Hamming::new(goal)),
            HeuristicKind::Manhattan => Estimator::Manhattan(Manhattan::new(goal)),
            HeuristicKind::Euclidean => Estimator::Euclidean(Euclidean::new(goal)),
            HeuristicKind::LinearConflict => Estimator::LinearConflict(Box::new(LinearConflict::new(goal))),
            HeuristicKind::Pdb => Estimator::Elsewhere,
        }
    }
}

impl Prepared {
    /// `algorithm` with `heuristic` towards `goal` (the heuristic is
    /// ignored by uninformed algorithms).
    pub fn new(goal: Goal, algorithm: Algorithm, heuristic: HeuristicKind) -> Prepared {
        let estimator = if algorithm.informed() && searchable(goal.shape()) {
            Estimator::new(heuristic, &goal)
        } else {
            Estimator::Elsewhere
        };
        let bound = searchable(goal.shape()).then(|| Box::new(LinearConflict::new(&goal)));
        Prepared { goal, algorithm, heuristic, estimator, bound, shorten: true }
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

    /// A bounded search's answer on a board past the searches' reach: the
    /// constructive solver's, where its cost is proven within `bound` of the
    /// lower bound (so within `bound` of the shortest).
    fn constructed_within(&self, start: &Tiles, bound: Weight, limits: &Limits, tables: &Tables) -> Outcome {
        if !self.goal.parity(start.cells()).solvable() {
            return unsolvable();
        }
        self.bounded(start, constructive(start, &self.goal, self.shorten, limits), tables)
            .held_to(bound, LimitKind::Unproven(bound))
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

    /// The same set-up for `algorithm`.
    pub(crate) fn with_algorithm(&self, algorithm: Algorithm) -> Prepared {
        Prepared { algorithm, ..self.clone() }
    }

    /// The goal.
    pub fn goal(&self) -> &Goal {
        &self.goal
    }

    /// The heuristic its informed searches use.
    pub fn heuristic(&self) -> HeuristicKind {
        self.heuristic
    }

    /// Solves `start` (of the goal's shape) as [`solve`] does.
    ///
    /// # Errors
    /// As [`solve`].
    pub fn solve(&self, start: &Tiles, limits: &Limits, tables: &Tables) -> Result<Outcome, Error> {
        let (goal, algorithm) = (&self.goal, self.algorithm);
        let uses_pdb = algorithm.informed() && self.heuristic == HeuristicKind::Pdb;
        let shape = start.shape();
        if shape != goal.shape() {
            return Err(Error::GoalSize { start: shape, goal: goal.shape() });
        }
        // Each improvement of an anytime run is shown as it comes.
        let mut improved = |improvement: &Improvement| {
            if let Some(monitor) = &limits.monitor {
                monitor.improved(*improvement);
            }
        };
        if algorithm == Algorithm::Anytime {
            if uses_pdb && tables.pdb.is_none() {
                no_partition(shape).map_or(Ok(()), Err)?;
            }
            if !goal.parity(start.cells()).solvable() {
                return Ok(unsolvable());
            }
            let board = OneBoard::new(self, start, tables);
            return Ok(anytime(&board, limits, &mut improved));
        }
        // With tables and a second core, a bounded search is the anytime
        // race run until its answer is within the bound of what IDA*
        // proves: its answers come from searches at every bound, so it ends
        // as soon as any of them is close enough to the bound. Its first
        // answer may be the constructive solver's, which no depth limit
        // holds.
        if let Algorithm::Bounded { bound, selection: Selection::Potential } = algorithm
            && uses_pdb
            && limits.max_depth.is_none()
            && goal.parity(start.cells()).solvable()
        {
            let board = OneBoard::new(self, start, tables);
            if anytime::races(&board, limits) {
                return Ok(anytime::within(&board, limits, bound, &mut improved));
            }
        }
        if algorithm == Algorithm::Rows {
            return Ok(if goal.parity(start.cells()).solvable() {
                self.bounded(start, constructive(start, goal, self.shorten, limits), tables)
            } else {
                unsolvable()
            });
        }
        if let Algorithm::Bounded { bound, .. } = algorithm
            && !searchable(shape)
        {
            return Ok(self.constructed_within(start, bound, limits, tables));
        }
        if !searchable(shape) {
            return Err(Error::TooLargeToSearch { shape, algorithm: algorithm.name() });
        }
        if uses_pdb && tables.pdb.is_none() {
            // A board no partition serves is bad input before it is unsolvable.
            no_partition(shape).map_or(Ok(()), Err)?;
        }
        if !goal.parity(start.cells()).solvable() {
            return Ok(unsolvable());
        }
        let outcome = if uses_pdb {
            let pdb = pattern_databases(goal, tables)?;
            match Encoding::of(shape) {
                Encoding::Packed => run(algorithm, &Packed::from_tiles(start.cells()), goal, pdb, limits),
                Encoding::Packed128 => {
                    run(algorithm, &Packed128::from_tiles(start.cells()), goal, pdb, limits)
                }
                _ => run(algorithm, &PackedWords::<4>::from_tiles(start.cells()), goal, pdb, limits),
            }
        } else {
            match Encoding::of(shape) {
                Encoding::Packed => self.solve_as::<Packed>(start, limits),
                Encoding::Packed128 => self.solve_as::<Packed128>(start, limits),
                Encoding::Words4 => self.solve_as::<PackedWords<4>>(start, limits),
                Encoding::Words5 => self.solve_as::<PackedWords<5>>(start, limits),
                Encoding::Wide64 => self.solve_as::<Wide<64>>(start, limits),
                Encoding::Wide256 => self.solve_as::<Wide<MAX_SEARCH_CELLS>>(start, limits),
            }
        };
        Ok(self.bounded(start, self.shortened(start, outcome, limits), tables))
    }

    /// `outcome`'s path shortened, if this algorithm's paths are. The
    /// window searches' nodes are not the search's and are not counted;
    /// their time is the answer's and is. A timeout or Ctrl-C that comes
    /// meanwhile leaves the path as the search found it.
    fn shortened(&self, start: &Tiles, mut outcome: Outcome, limits: &Limits) -> Outcome {
        if !self.shorten || !self.algorithm.shortens() {
            return outcome;
        }
        let Some(found) = outcome.path.take() else {
            return outcome;
        };
        let found_len = found.len();
        let left = Limits {
            timeout: limits.timeout.map(|t| t.saturating_sub(outcome.stats.runtime)),
            cancel: limits.cancel.clone(),
            ..Limits::default()
        };
        let clock = Budget::start(&left, None);
        let (goal, shape) = (self.goal.tiles().cells(), start.shape());
        let mut stop = || clock.check_now().is_some();
        let origin = shorten::Origin::Searched;
        let path = match shorten::shorten(start.cells(), goal, shape, &found, origin, &mut stop) {
            Some((shortened, _)) => shortened,
            None => found,
        };
        outcome.stats.shortened_by += (found_len - path.len()) as u64;
        outcome.stats.runtime += clock.elapsed();
        outcome.path = Some(path);
        outcome
    }

    fn solve_as<B: Board>(&self, start: &Tiles, limits: &Limits) -> Outcome {
        let (board, goal) = (B::from_tiles(start.cells()), &self.goal);
        match (self.algorithm, &self.estimator) {
            (Algorithm::Bfs, _) => bfs(&board, goal, limits),
            (Algorithm::Dfs, _) => dfs(&board, goal, limits),
            (informed, Estimator::Zero) => run(informed, &board, goal, &Zero, limits),
            (informed, Estimator::Hamming(h)) => run(informed, &board, goal, h, limits),
            (informed, Estimator::Manhattan(h)) => run(informed, &board, goal, h, limits),
            (informed, Estimator::Euclidean(h)) => run(informed, &board, goal, h, limits),
            (informed, Estimator::LinearConflict(h)) => run(informed, &board, goal, &**h, limits),
            (_, Estimator::Elsewhere) => unreachable!("informed searches of searchable boards have tables"),
        }
    }
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

/// The constructive solver on a solvable `start`, stopped by a timeout or
/// Ctrl-C (it stores one board and its path, so no node limit applies).
/// Its node counts are those of the optimal searches it runs inside (the
/// final block, the shortening windows), and so is its expansion limit.
fn constructive(start: &Tiles, goal: &Goal, shorten: bool, limits: &Limits) -> Outcome {
    let budget = Budget::start(limits, None);
    let max_expanded = limits.max_expanded.unwrap_or(u64::MAX);
    let mut stopped = None;
    let (goal, shape) = (goal.tiles().cells(), start.shape());
    let made = constructive::rows_until(start.cells(), goal, shape, shorten, max_expanded, &mut || {
        stopped = budget.check_now();
        stopped.is_some()
    });
    let mut stats = Stats { max_frontier: 1, stored: 1, runtime: budget.elapsed(), ..Stats::default() };
    match (made, stopped) {
        (Some(made), _) => {
            stats.nodes_expanded = made.block_expanded + made.shortening.window_nodes;
            stats.nodes_generated = made.block_generated + made.shortening.window_generated;
            stats.max_depth = made.constructed as u32;
            stats.shortened_by = (made.constructed - made.path.len()) as u64;
            Outcome {
                status: Status::Solved,
                path: Some(made.path),
                stats,
                lower_bound: None,
                improvements: Vec::new(),
            }
        }
        (None, Some(limit)) => Outcome {
            status: Status::Limit(limit),
            path: None,
            stats,
            lower_bound: None,
            improvements: Vec::new(),
        },
        // Nothing asked it to stop: its searches ran out of expansions.
        // They stop exactly at the limit, so that is the count.
        (None, None) => {
            stats.nodes_expanded = max_expanded;
            let status = Status::Limit(LimitKind::Expanded(max_expanded));
            Outcome { status, path: None, stats, lower_bound: None, improvements: Vec::new() }
        }
    }
}

/// Whether the searches take a board of `shape`: both sides at most
/// [`MAX_SEARCH_SIDE`].
pub fn searchable(shape: Shape) -> bool {
    shape.width() <= MAX_SEARCH_SIDE && shape.height() <= MAX_SEARCH_SIDE
}

fn unsupported_pdb(why: String) -> Error {
    Error::Unsupported { heuristic: HeuristicKind::Pdb.name(), why }
}

/// The pattern databases in `tables`, if they were built for `goal`.
fn pattern_databases<'t>(goal: &Goal, tables: &'t Tables) -> Result<&'t Pdb, Error> {
    let shape = goal.shape();
    match tables.pdb.as_deref() {
        Some(pdb) if pdb.serves(goal) => Ok(pdb),
        Some(_) => Err(unsupported_pdb(format!(
            "the loaded pattern databases were built for another goal than this {shape} one"
        ))),
        None => {
            Err(no_partition(shape)
                .unwrap_or_else(|| unsupported_pdb("no pattern databases were loaded".into())))
        }
    }
}

/// Why no built-in tables exist for boards of `shape`, if none do.
fn no_partition(shape: Shape) -> Option<Error> {
    PartitionSet::for_shape(shape).next().is_none().then(|| {
        unsupported_pdb(format!("no partition is built in for {shape} boards (partitions: {})", catalogue()))
    })
}

/// Runs `algorithm` with heuristic `h`, which the uninformed searches ignore.
fn run<B: Board, H: Heuristic<B>>(
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
        Algorithm::Rows | Algorithm::Anytime => unreachable!("dispatched by solve, not a search of its own"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Weight;

    /// Searches `shape` boards as `B` and as the one-byte-a-cell `W`, which
    /// must give every figure alike.
    fn searches_alike<B: Board, W: Board>(shape: Shape, seed: u64) {
        use crate::board::{GoalSpec, Scramble, SplitMix64, generate};
        let goal = Goal::new(&GoalSpec::Snail, shape).unwrap();
        let start = generate(&goal, Scramble::Walk(40), true, &mut SplitMix64::new(seed));
        let lc = LinearConflict::new(&goal);
        let limits = Limits { max_nodes: Some(200_000), ..Limits::default() };
        for algorithm in [
            Algorithm::AStar,
            Algorithm::IdaStar,
            Algorithm::Fringe,
            Algorithm::Greedy,
            Algorithm::WeightedAStar(Weight::ratio(2, 1)),
        ] {
            let packed = run(algorithm, &B::from_tiles(start.cells()), &goal, &lc, &limits);
            let wide = run(algorithm, &W::from_tiles(start.cells()), &goal, &lc, &limits);
            assert_eq!(packed.status, Status::Solved, "{shape} {algorithm:?}");
            assert_eq!(packed.path, wide.path, "{shape} {algorithm:?}");
            assert_eq!(packed.stats.nodes_expanded, wide.stats.nodes_expanded, "{shape} {algorithm:?}");
            assert_eq!(packed.stats.stored, wide.stats.stored, "{shape} {algorithm:?}");
        }
    }

    /// The encoding is an implementation detail: a board of 17 to 25 cells
    /// is searched as [`Packed128`], one of 26 to 50 as [`PackedWords`].
    #[test]
    fn packed_and_wide_boards_search_alike() {
        for (shape, seed) in [(Shape::new(5, 5), 1), (Shape::new(4, 5), 2), (Shape::new(6, 3), 3)] {
            searches_alike::<Packed128, Wide<32>>(shape, seed);
        }
        assert_eq!(Encoding::of(Shape::new(6, 6)), Encoding::Words4);
        searches_alike::<PackedWords<4>, Wide<64>>(Shape::new(6, 6), 4);
        searches_alike::<PackedWords<4>, Wide<64>>(Shape::new(4, 7), 5);
        assert_eq!(Encoding::of(Shape::new(7, 7)), Encoding::Words5);
        searches_alike::<PackedWords<5>, Wide<64>>(Shape::new(7, 7), 6);
        searches_alike::<PackedWords<5>, Wide<64>>(Shape::new(8, 6), 7);
    }
}
