/*!
Search: the shared vocabulary (limits, figures, outcomes) and the one place
that turns run-time choices into concrete, monomorphised searches.

Every algorithm has the same shape: `fn(start, goal, [heuristic], limits) ->
Outcome`. Searches print nothing; their only clock reads go into [`Stats`].
*/

mod astar;
mod best_first;
mod bfs;
mod dfs;
mod graph;
mod greedy;
mod idastar;
mod memory;
mod monitor;
mod rows;
mod shorten;
mod spare;
mod table;
mod weight;

pub use astar::{astar, weighted_astar};
pub use bfs::bfs;
pub use dfs::dfs;
pub use greedy::greedy;
pub use idastar::{idastar, weighted_idastar};
pub use monitor::{Monitor, Snapshot};
pub use rows::{RowsOutcome, rows};
pub use shorten::Shortening;
pub use weight::{MAX_WEIGHT, Weight, WeightError};

use crate::board::{
    Board, Geometry, Goal, MAX_SEARCH_SIDE, Move, Packed, Packed128, PackedWords, Shape, Tiles, Wide,
};
use crate::error::Error;
use crate::heuristic::pdb::catalogue;
use crate::heuristic::{
    Euclidean, Hamming, Heuristic, HeuristicKind, LinearConflict, Manhattan, Partition, Pdb, Zero,
};
use std::fmt;
use std::ops::AddAssign;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// The search algorithms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Breadth-first search: FIFO frontier, shortest paths.
    Bfs,
    /// Depth-first search: LIFO frontier, any path.
    Dfs,
    /// A*: best-first on f = g + h, shortest paths with an admissible heuristic.
    AStar,
    /// IDA*: iterative-deepening A*, shortest paths in memory linear in the depth.
    IdaStar,
    /// Greedy best-first search on h alone: long paths, few nodes.
    Greedy,
    /// A* on f = g + W·h (W > 1): paths at most W times the shortest.
    WeightedAStar(Weight),
    /// IDA* on f = g + W·h (W > 1): paths at most W times the shortest.
    WeightedIdaStar(Weight),
    /// The constructive solver: places tiles a line at a time, any board
    /// up to 256×256 in time linear in its path (about 1.8·n³ moves on
    /// n×n), paths far from the shortest.
    Rows,
}

impl Algorithm {
    /// Whether its path is shortened once found (see [`Prepared::shortening`]):
    /// the algorithms that give up shortest paths for speed. DFS, kept for
    /// textbook comparisons, returns its path as it found it.
    pub const fn shortens(self) -> bool {
        matches!(
            self,
            Algorithm::Greedy | Algorithm::WeightedAStar(_) | Algorithm::WeightedIdaStar(_) | Algorithm::Rows
        )
    }

    /// Whether the search runs on several threads when [`Limits::threads`]
    /// asks for them (IDA*, weighted or not); the others use one.
    pub fn parallel(self) -> bool {
        matches!(self, Algorithm::IdaStar | Algorithm::WeightedIdaStar(_))
    }

    /// Every algorithm once, unweighted, in the order comparisons list them.
    pub const ALL: [Algorithm; 6] = [
        Algorithm::Bfs,
        Algorithm::Dfs,
        Algorithm::AStar,
        Algorithm::IdaStar,
        Algorithm::Greedy,
        Algorithm::Rows,
    ];

    /// The name used on the command line and in reports; a weighted
    /// search goes by its algorithm's name and reports its weight apart.
    pub const fn name(self) -> &'static str {
        match self {
            Algorithm::Bfs => "bfs",
            Algorithm::Dfs => "dfs",
            Algorithm::AStar | Algorithm::WeightedAStar(_) => "astar",
            Algorithm::IdaStar | Algorithm::WeightedIdaStar(_) => "idastar",
            Algorithm::Greedy => "greedy",
            Algorithm::Rows => "rows",
        }
    }

    /// Whether the algorithm uses a heuristic.
    pub const fn informed(self) -> bool {
        !matches!(self, Algorithm::Bfs | Algorithm::Dfs | Algorithm::Rows)
    }

    /// Whether its paths are shortest ones (with an admissible heuristic,
    /// where it takes one).
    pub const fn optimal(self) -> bool {
        matches!(self, Algorithm::Bfs | Algorithm::AStar | Algorithm::IdaStar)
    }

    /// W of A* and IDA* (1 unless weighted); `None` for algorithms without one.
    pub const fn weight(self) -> Option<Weight> {
        match self {
            Algorithm::AStar | Algorithm::IdaStar => Some(Weight::ONE),
            Algorithm::WeightedAStar(w) | Algorithm::WeightedIdaStar(w) => Some(w),
            _ => None,
        }
    }

    /// This algorithm searching on f = g + W·h: A* and IDA* take any
    /// weight (W = 1 leaves them as they are); the others take none.
    ///
    /// # Errors
    /// [`Error::NoWeight`] for an algorithm that has no weight.
    pub fn weighted(self, weight: Weight) -> Result<Algorithm, Error> {
        let one = weight == Weight::ONE;
        match self {
            Algorithm::AStar | Algorithm::WeightedAStar(_) => {
                Ok(if one { Algorithm::AStar } else { Algorithm::WeightedAStar(weight) })
            }
            Algorithm::IdaStar | Algorithm::WeightedIdaStar(_) => {
                Ok(if one { Algorithm::IdaStar } else { Algorithm::WeightedIdaStar(weight) })
            }
            other => Err(Error::NoWeight { algorithm: other.name() }),
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Expansions of an IDA* pass after which the next one is split between
/// threads. Measured on Korf's 15-puzzles: a pass of a few hundred
/// thousand expansions (a few milliseconds) gains little from a second
/// thread and a smaller one loses (starting it, its cold caches); 10,000
/// left 1.2-1.3 times one thread's time on small searches, 200,000 gave
/// up most of the gain on searches of about a million expansions.
pub const SPLIT_AFTER: u64 = 50_000;

/// The machine's cores (1 if unknown): what IDA* splits a pass between by
/// default, and what building and verifying pattern databases use.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// When a search must give up.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Most states stored at once; `None` means a memory-safe default
    /// ([`default_max_nodes`]). Searches that store only a path (IDA*) or
    /// one board (rows) never come near it, so it does not bound them.
    pub max_nodes: Option<u64>,
    /// Most nodes expanded, for every algorithm: the work bound of the
    /// searches `max_nodes` cannot stop (see [`LimitKind::Expanded`]).
    pub max_expanded: Option<u64>,
    /// Nodes deeper than this are not generated.
    pub max_depth: Option<u32>,
    /// Wall-clock time allowed for the search.
    pub timeout: Option<Duration>,
    /// Set from elsewhere (e.g. a Ctrl-C handler) to stop the search.
    pub cancel: Option<Arc<AtomicBool>>,
    /// How many searches run at once and share the machine's memory (batch
    /// jobs); 0 and 1 both mean this one alone.
    pub sharing: u32,
    /// Threads one IDA* search may use (0 and 1 both mean one); the other
    /// algorithms run on one.
    pub threads: usize,
    /// With several threads, IDA* splits a pass between them only once the
    /// pass before expanded at least this many nodes, since a smaller pass
    /// takes less time than splitting it: `None` for [`SPLIT_AFTER`],
    /// `Some(0)` to split every pass.
    pub split_after: Option<u64>,
    /// Where the search shows its figures while it runs, if anyone watches.
    pub monitor: Option<Arc<Monitor>>,
}

/// Which limit stopped a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitKind {
    /// The store of states reached this many.
    Nodes(u64),
    /// This many nodes were expanded (by IDA*, over all passes; by the
    /// constructive solver, in its internal searches) and another was due.
    Expanded(u64),
    /// Every node within this depth was searched without reaching the goal.
    Depth(u32),
    /// The timeout passed.
    Time(Duration),
    /// Cancelled from outside (Ctrl-C).
    Interrupted,
}

impl fmt::Display for LimitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LimitKind::Nodes(n) => write!(f, "node limit of {n} stored states reached"),
            LimitKind::Expanded(n) => write!(f, "expansion limit of {n} nodes reached"),
            LimitKind::Depth(d) => write!(f, "no solution within the depth limit of {d}"),
            LimitKind::Time(t) => write!(f, "timeout of {} s reached", t.as_secs_f64()),
            LimitKind::Interrupted => f.write_str("interrupted"),
        }
    }
}

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// A path to the goal was found.
    Solved,
    /// The goal cannot be reached from the start.
    Unsolvable,
    /// A limit stopped the search before a verdict.
    Limit(LimitKind),
}

/// The figures of one search. See the README for their exact meaning.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Nodes removed from the frontier whose successors were generated.
    pub nodes_expanded: u64,
    /// Successors produced by expansions, duplicates included.
    pub nodes_generated: u64,
    /// Largest number of nodes in the frontier at once.
    pub max_frontier: u64,
    /// Greatest depth of any node placed in the frontier.
    pub max_depth: u32,
    /// Largest number of states held in memory at once.
    pub stored: u64,
    /// Search time, shortening included, excluding parsing, reporting and
    /// the tables built once per process and shared (pattern databases,
    /// move automata).
    pub runtime: Duration,
    /// Moves that shortening cut from the path the algorithm found (see
    /// [`Algorithm::shortens`]): that path, as deep as the goal node was,
    /// had cost + `shortened_by` moves.
    pub shortened_by: u64,
}

impl AddAssign for Stats {
    /// Sums counts and times; maxima stay maxima.
    fn add_assign(&mut self, other: Stats) {
        self.nodes_expanded += other.nodes_expanded;
        self.nodes_generated += other.nodes_generated;
        self.max_frontier = self.max_frontier.max(other.max_frontier);
        self.max_depth = self.max_depth.max(other.max_depth);
        self.stored = self.stored.max(other.stored);
        self.runtime += other.runtime;
        self.shortened_by += other.shortened_by;
    }
}

/// What a search returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// How it ended.
    pub status: Status,
    /// Moves from start to goal when solved.
    pub path: Option<Vec<Move>>,
    /// Its figures.
    pub stats: Stats,
}

impl Outcome {
    /// Moves in the path, when solved.
    pub fn cost(&self) -> Option<usize> {
        self.path.as_ref().map(Vec::len)
    }

    /// Moves of the path as the algorithm found it, when solved: the depth
    /// of the goal node, and the cost unless the path was then shortened.
    pub fn depth(&self) -> Option<usize> {
        self.cost().map(|cost| cost + self.stats.shortened_by as usize)
    }
}

/// Memory a search may plan on using by default.
const MEMORY_BUDGET: u64 = 3 << 30;

/// The default node limit for `algorithm` on encoding `B`: as many stored
/// states as fit in 3 GiB at the worst-case bytes per state.
pub fn default_max_nodes<B: Board>(algorithm: Algorithm) -> u64 {
    MEMORY_BUDGET / bytes_per_state::<B>(algorithm)
}

/// Worst-case bytes of memory per stored state for `algorithm` on `B`; for
/// A*, with a whole-number consistent heuristic (the euclidean and
/// pattern-database searches size their own budget from their larger
/// states).
pub fn bytes_per_state<B: Board>(algorithm: Algorithm) -> u64 {
    match algorithm {
        Algorithm::Bfs | Algorithm::Dfs => graph::bytes_per_state::<B>(),
        Algorithm::AStar | Algorithm::WeightedAStar(_) | Algorithm::Greedy => {
            best_first::bytes_per_state::<B>()
        }
        // Only the path (and the one board the constructive solver works
        // on) is stored; any budget is far beyond it.
        Algorithm::IdaStar | Algorithm::WeightedIdaStar(_) | Algorithm::Rows => 1,
    }
}

/// The bytes one of `sharing` searches may ever use: three quarters of the
/// machine's memory, split between them, so that no `--max-nodes` can make
/// the process abort for lack of memory. Unlimited where the machine's
/// memory cannot be read.
fn memory_cap(sharing: u32) -> u64 {
    static TOTAL: OnceLock<Option<u64>> = OnceLock::new();
    let total = TOTAL.get_or_init(|| {
        let info = std::fs::read_to_string("/proc/meminfo").ok()?;
        let kib = info.lines().find_map(|l| l.strip_prefix("MemTotal:"))?.trim().strip_suffix("kB")?;
        kib.trim().parse::<u64>().ok().map(|k| k * 1024)
    });
    total.map_or(u64::MAX, |bytes| bytes / 4 * 3 / u64::from(sharing.max(1)))
}

/// Tracks the clock, the node budgets and cancellation for one search.
#[derive(Clone)]
pub(crate) struct Budget {
    started: Instant,
    deadline: Option<Instant>,
    timeout: Duration,
    max_nodes: u64,
    max_expanded: u64,
    /// The expansion count at which [`Budget::due`] next calls for a check.
    next_check: u64,
    max_depth: u32,
    cancel: Option<Arc<AtomicBool>>,
    ticks: u32,
    monitor: Option<Arc<Monitor>>,
}

impl Budget {
    /// Clock reads are spread out: one per this many ticks.
    pub(crate) const TICKS_PER_CHECK: u64 = 1024;

    /// Starts the clock. A search that stores states passes what one costs,
    /// and without an explicit node limit it may store what fits the memory
    /// budget; `None` (a search that stores only a path) has no node limit.
    pub(crate) fn start(limits: &Limits, bytes_per_state: Option<u64>) -> Budget {
        let max_nodes = bytes_per_state.map_or(u64::MAX, |bytes| {
            limits.max_nodes.unwrap_or(MEMORY_BUDGET / bytes).min(memory_cap(limits.sharing) / bytes)
        });
        if let Some(monitor) = &limits.monitor
            && bytes_per_state.is_some()
        {
            monitor.set_node_limit(max_nodes);
        }
        // The clock starts after the memory probe (a file read, once per
        // process), which is no part of the search.
        let started = Instant::now();
        Budget {
            started,
            deadline: limits.timeout.map(|t| started + t),
            timeout: limits.timeout.unwrap_or_default(),
            max_nodes,
            max_expanded: limits.max_expanded.unwrap_or(u64::MAX),
            next_check: 0,
            max_depth: limits.max_depth.unwrap_or(u32::MAX),
            cancel: limits.cancel.clone(),
            ticks: 0,
            monitor: limits.monitor.clone(),
        }
    }

    /// The deepest a node may be and still be expanded.
    #[inline]
    pub(crate) fn max_depth(&self) -> u32 {
        self.max_depth
    }

    /// Whether `stored` states leave room for one more.
    #[inline]
    pub(crate) fn full(&self, stored: usize) -> bool {
        stored as u64 >= self.max_nodes
    }

    /// The node limit, as a [`LimitKind`].
    pub(crate) fn nodes_limit(&self) -> LimitKind {
        LimitKind::Nodes(self.max_nodes)
    }

    /// The expansion limit when `expanded` nodes leave no room for one more
    /// (one comparison with a counter the search keeps anyway).
    #[inline]
    pub(crate) fn spent(&self, expanded: u64) -> Option<LimitKind> {
        (expanded >= self.max_expanded).then_some(LimitKind::Expanded(self.max_expanded))
    }

    /// Called once per node taken from the frontier: whether it is time
    /// for [`Budget::check`], once every [`Budget::TICKS_PER_CHECK`] calls.
    #[inline]
    pub(crate) fn tick(&mut self) -> bool {
        self.ticks += 1;
        if u64::from(self.ticks) < Self::TICKS_PER_CHECK {
            return false;
        }
        self.ticks = 0;
        true
    }

    /// The periodic check of a search that stores states: shows a watcher
    /// the nodes `expanded` and the states `stored`, then reads the flag
    /// and the clock. The figures are passed only when a check is due, and
    /// the call is kept out of line: inlined, it cost BFS 1.7% more
    /// instructions over the whole 8-puzzle space.
    #[cold]
    #[inline(never)]
    pub(crate) fn check(&self, expanded: u64, stored: usize) -> Option<LimitKind> {
        if let Some(monitor) = &self.monitor {
            monitor.record(expanded, stored as u64);
        }
        self.check_now()
    }

    /// Whether a search that counts its expansions in `expanded` is due for
    /// [`Budget::check_at`]: every [`Budget::TICKS_PER_CHECK`] expansions,
    /// and exactly at the expansion limit. One comparison, as cheap as
    /// testing for a multiple of the period.
    #[inline]
    pub(crate) fn due(&self, expanded: u64) -> bool {
        expanded >= self.next_check
    }

    /// The periodic check of a search that counts expansions (IDA*): the
    /// expansion limit, then the flag and the clock; sets the next one due.
    #[cold]
    pub(crate) fn check_at(&mut self, expanded: u64) -> Option<LimitKind> {
        if let Some(limit) = self.spent(expanded) {
            return Some(limit);
        }
        self.next_check = expanded.saturating_add(Self::TICKS_PER_CHECK).min(self.max_expanded);
        if let Some(monitor) = &self.monitor {
            monitor.record(expanded, 0);
        }
        self.check_now()
    }

    /// The budget of one more thread of this search: the same clock, flag
    /// and limits, its first check due at once.
    pub(crate) fn for_thread(&self) -> Budget {
        Budget { next_check: 0, ticks: 0, ..self.clone() }
    }

    /// [`Budget::check_at`] for one thread of a parallel search, which has
    /// expanded `local` nodes itself and knows of `total` for the search;
    /// `granted` is how many more it may expand (from a stock the threads
    /// share, so that together they stop exactly at the limit), `None`
    /// when the stock is spent.
    #[cold]
    pub(crate) fn check_granted(
        &mut self,
        local: u64,
        total: u64,
        granted: Option<u64>,
    ) -> Option<LimitKind> {
        let Some(granted) = granted else {
            return Some(LimitKind::Expanded(self.max_expanded));
        };
        self.next_check = local + granted;
        if let Some(monitor) = &self.monitor {
            monitor.record(total, 0);
        }
        self.check_now()
    }

    /// Expansions left under the limit after `expanded`.
    pub(crate) fn expansions_left(&self, expanded: u64) -> u64 {
        self.max_expanded.saturating_sub(expanded)
    }

    /// Shows a watcher the bound of the pass an iterative search begins,
    /// in moves.
    pub(crate) fn show_bound(&self, moves: f64) {
        if let Some(monitor) = &self.monitor {
            monitor.set_bound(moves);
        }
    }

    /// Reads the flag and the clock.
    #[cold]
    pub(crate) fn check_now(&self) -> Option<LimitKind> {
        if self.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Some(LimitKind::Interrupted);
        }
        match self.deadline {
            Some(deadline) if Instant::now() >= deadline => Some(LimitKind::Time(self.timeout)),
            _ => None,
        }
    }

    pub(crate) fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }
}

/// Walks parent links back from `end`: `arrival(b)` is the move that reached
/// `b`, `None` at the start. `max_depth`, the deepest any node was, bounds
/// the path's length, so the path is allocated once.
pub(crate) fn rebuild_path<B: Board>(
    geometry: &Geometry,
    end: B,
    max_depth: u32,
    arrival: impl Fn(&B) -> Option<Move>,
) -> Vec<Move> {
    let mut path = Vec::with_capacity(max_depth as usize);
    let mut board = end;
    while let Some(mv) = arrival(&board) {
        path.push(mv);
        board = geometry.apply(&board, mv.inverse()).expect("parent links replay backwards");
    }
    path.reverse();
    path
}

/// The verdict when a search ran out of nodes to expand.
pub(crate) fn exhausted(cut_at_depth: bool, budget: &Budget) -> Status {
    if cut_at_depth { Status::Limit(LimitKind::Depth(budget.max_depth())) } else { Status::Unsolvable }
}

/// Heuristic tables made ahead of a search, because making them takes
/// long: the caller loads them once and every search shares them.
#[derive(Clone, Debug, Default)]
pub struct Tables {
    /// Pattern databases for [`HeuristicKind::Pdb`] (one goal).
    pub pdb: Option<Arc<Pdb>>,
}

impl Tables {
    /// No prepared tables: enough for every heuristic but the pattern databases.
    pub const NONE: Tables = Tables { pdb: None };
}

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
        Prepared { goal, algorithm, heuristic, estimator, shorten: true }
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
        if algorithm == Algorithm::Rows {
            return Ok(if goal.parity(start.cells()).solvable() {
                constructive(start, goal, self.shorten, limits)
            } else {
                unsolvable()
            });
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
                Encoding::Wide256 => self.solve_as::<Wide<256>>(start, limits),
            }
        };
        Ok(self.shortened(start, outcome, limits))
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

/// The board encodings searches are compiled for, smallest first: a board
/// uses the smallest that holds it, so it hashes, compares and stores no
/// more bytes than it must.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Encoding {
    /// [`Packed`], up to 16 cells.
    Packed,
    /// [`Packed128`], up to 25 cells: 5×5, 4×6, 3×8.
    Packed128,
    /// [`PackedWords<4>`](PackedWords), up to 40 cells: 6×6, 4×8, 5×8.
    Words4,
    /// [`PackedWords<5>`](PackedWords), up to 50 cells: 7×7, 6×8.
    Words5,
    /// [`Wide<64>`](Wide), up to 64 cells: 8×8. Packed in seven words, an
    /// 8×8 board searched no faster (its closed set misses the caches
    /// either way, and finding the blank takes more work).
    Wide64,
    /// [`Wide<256>`](Wide), up to 16×16.
    Wide256,
}

impl Encoding {
    fn of(shape: Shape) -> Encoding {
        match shape.cells() {
            cells if cells <= Packed::CAPACITY => Encoding::Packed,
            cells if cells <= Packed128::CAPACITY => Encoding::Packed128,
            cells if cells <= PackedWords::<4>::CAPACITY => Encoding::Words4,
            cells if cells <= PackedWords::<5>::CAPACITY => Encoding::Words5,
            cells if cells <= Wide::<64>::CAPACITY => Encoding::Wide64,
            _ => Encoding::Wide256,
        }
    }
}

/// The default node limit of `algorithm` on a board of `shape`: as many
/// stored states of its encoding as fit the memory budget.
pub fn default_max_nodes_for(shape: Shape, algorithm: Algorithm) -> u64 {
    match Encoding::of(shape) {
        Encoding::Packed => default_max_nodes::<Packed>(algorithm),
        Encoding::Packed128 => default_max_nodes::<Packed128>(algorithm),
        Encoding::Words4 => default_max_nodes::<PackedWords<4>>(algorithm),
        Encoding::Words5 => default_max_nodes::<PackedWords<5>>(algorithm),
        Encoding::Wide64 => default_max_nodes::<Wide<64>>(algorithm),
        Encoding::Wide256 => default_max_nodes::<Wide<256>>(algorithm),
    }
}

/// The verdict of the parity rule, reached without a search.
fn unsolvable() -> Outcome {
    Outcome { status: Status::Unsolvable, path: None, stats: Stats::default() }
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
    let made = rows::rows_until(start.cells(), goal, shape, shorten, max_expanded, &mut || {
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
            Outcome { status: Status::Solved, path: Some(made.path), stats }
        }
        (None, Some(limit)) => Outcome { status: Status::Limit(limit), path: None, stats },
        // Nothing asked it to stop: its searches ran out of expansions.
        // They stop exactly at the limit, so that is the count.
        (None, None) => {
            stats.nodes_expanded = max_expanded;
            Outcome { status: Status::Limit(LimitKind::Expanded(max_expanded)), path: None, stats }
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
    Partition::default_for(shape).is_none().then(|| {
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
        Algorithm::Greedy => greedy(board, goal, h, limits),
        Algorithm::WeightedAStar(w) => weighted_astar(board, goal, h, w, limits),
        Algorithm::WeightedIdaStar(w) => weighted_idastar(board, goal, h, w, limits),
        Algorithm::Rows => unreachable!("the constructive solver is dispatched by solve"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_node_limit_outgrows_the_machine() {
        let huge = Limits { max_nodes: Some(u64::MAX / 2), ..Limits::default() };
        let alone = Budget::start(&huge, Some(53)).max_nodes;
        assert!(alone.saturating_mul(53) <= memory_cap(1), "{alone}");
        let shared = Budget::start(&Limits { sharing: 2, ..huge }, Some(53)).max_nodes;
        assert!(shared <= alone / 2 + 1, "{shared} vs {alone}");
        // Smaller limits are kept as given.
        assert_eq!(
            Budget::start(&Limits { max_nodes: Some(1000), ..Limits::default() }, Some(53)).max_nodes,
            1000
        );
    }

    #[test]
    fn default_node_limits_match_the_readme() {
        assert_eq!(bytes_per_state::<Packed>(Algorithm::Bfs), 53);
        assert_eq!(bytes_per_state::<Packed>(Algorithm::AStar), 24);
        assert_eq!(bytes_per_state::<Wide>(Algorithm::Bfs), 320);
        assert_eq!(bytes_per_state::<Wide>(Algorithm::AStar), 176);
        assert_eq!(default_max_nodes::<Packed>(Algorithm::Bfs), 60_777_839);
    }

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
