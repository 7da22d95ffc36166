/*!
What a search is given and what it gives back: the limits it must stop at,
how it ended, its figures and its path. These are plain data; the search
that fills them is elsewhere, and so is the report that prints them.
*/

use super::idastar::SaveProgress;
use super::monitor::{Improvement, Monitor};
use super::weight::Weight;
use crate::board::{Board, Geometry, Move};
use std::fmt;
use std::ops::AddAssign;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// When a search must give up.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Most states stored at once; `None` means a memory-safe default
    /// ([`default_max_nodes`](super::default_max_nodes)). Searches that store only a path (IDA*) or
    /// one board (rows) never come near it, so it does not bound them.
    pub max_nodes: Option<u64>,
    /// Most nodes expanded, for every algorithm: the work bound of the
    /// searches `max_nodes` cannot stop (see [`LimitKind::Expanded`]).
    pub max_expanded: Option<u64>,
    /// Nodes deeper than this are not generated.
    pub max_depth: Option<u32>,
    /// Wall-clock time allowed for the search.
    pub timeout: Option<Duration>,
    /// An instant past which the search stops whatever its timeout: the
    /// caller's clock, for a time limit that began before the search did
    /// (reading the board, loading tables). Reported as the timeout.
    pub deadline: Option<Instant>,
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
    /// takes less time than splitting it: `None` for [`SPLIT_AFTER`](super::SPLIT_AFTER),
    /// `Some(0)` to split every pass.
    pub split_after: Option<u64>,
    /// Where the search shows its figures while it runs, if anyone watches.
    pub monitor: Option<Arc<Monitor>>,
    /// A lower bound on the cost, in moves, shared by searches of one board
    /// that run at once: IDA* raises it as its passes complete, and a
    /// bounded search ([`Algorithm::Bounded`](super::Algorithm::Bounded))
    /// reads it to widen its focal list, since an answer within B times
    /// any proven bound is within B times the shortest.
    pub floor: Option<Arc<AtomicU32>>,
    /// The most an answer worth finding may cost, in moves (one shorter
    /// than an answer in hand): a bounded search picks no board whose f
    /// exceeds it, and once none is left stops with [`LimitKind::Cost`],
    /// having proven that no answer costs this little. The other
    /// algorithms ignore it.
    pub ceiling: Option<u32>,
    /// Where IDA* saves its progress, and what it takes up (see
    /// [`SaveProgress`]); the other algorithms ignore it.
    pub progress: Option<Arc<SaveProgress>>,
    /// Set by another search of the same board running beside this one
    /// once it has nothing left to do, lending its thread: IDA* keeps a
    /// worker waiting for it, which joins the pass under way, and runs the
    /// passes after it on one thread more than `threads`. Without it the
    /// thread of a race's answers would sit idle while IDA* proves bounds.
    pub spare: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// Whether the user asked to stop (Ctrl-C): the flag of `cancel`.
    pub fn cancelled(&self) -> bool {
        self.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// Whether the thread of [`Limits::spare`] has been lent.
    pub fn spare_lent(&self) -> bool {
        self.spare.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
    }
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
    /// No answer costs at most this many moves ([`Limits::ceiling`]): every
    /// board whose f is within it was searched.
    Cost(u32),
    /// Cancelled from outside (Ctrl-C).
    Interrupted,
    /// The best answer at hand is not proven within this bound (on a board
    /// past the searches' reach, the constructive solver's).
    Unproven(Weight),
}

impl fmt::Display for LimitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LimitKind::Nodes(n) => write!(f, "node limit of {n} stored states reached"),
            LimitKind::Expanded(n) => write!(f, "expansion limit of {n} nodes reached"),
            LimitKind::Depth(d) => write!(f, "no solution within the depth limit of {d}"),
            LimitKind::Time(t) => write!(f, "timeout of {} s reached", t.as_secs_f64()),
            LimitKind::Cost(c) => write!(f, "no solution of at most {c} moves"),
            LimitKind::Interrupted => f.write_str("interrupted"),
            LimitKind::Unproven(bound) => write!(
                f,
                "no answer proven within {bound} times the shortest: past 16x16 only the constructive solver \
                 answers, and its answer is not (--algo rows gives it)"
            ),
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
    /// [`Algorithm::shortens`](super::Algorithm::shortens)): that path, as deep as the goal node was,
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
    /// The fewest moves any solution can have, as far as the run proved:
    /// the largest admissible estimate of the start, raised by what the
    /// search showed (every bound IDA* finished a pass under, the smallest
    /// f A* left open, the depth BFS reached), the cost itself when an
    /// optimal search solved the puzzle. `None` for an unsolvable start.
    pub lower_bound: Option<u32>,
    /// The answers an anytime search found on its way, shorter each time;
    /// empty for the other searches.
    pub improvements: Vec<Improvement>,
}

impl Outcome {
    /// Moves in the path, when solved.
    pub fn cost(&self) -> Option<usize> {
        self.path.as_ref().map(Vec::len)
    }

    /// Whether the answer is proven shortest: solved, with a cost equal to
    /// the lower bound.
    pub fn proven_optimal(&self) -> Option<bool> {
        Some(self.cost()? as u64 == u64::from(self.lower_bound?))
    }

    /// Moves of the path as the algorithm found it, when solved: the depth
    /// of the goal node, and the cost unless the path was then shortened.
    pub fn depth(&self) -> Option<usize> {
        self.cost().map(|cost| cost + self.stats.shortened_by as usize)
    }

    /// This answer where its cost is proven within `bound` of its lower
    /// bound (so within `bound` of the shortest); otherwise no answer, the
    /// status saying `why`. A bounded search promises the bound, not a path.
    pub(crate) fn held_to(mut self, bound: Weight, why: LimitKind) -> Outcome {
        let within = self
            .cost()
            .zip(self.lower_bound)
            .is_some_and(|(cost, lower)| bound.covers(cost as u64, lower.into()));
        if self.status == Status::Solved && !within {
            self.status = Status::Limit(why);
            self.path = None;
        }
        self
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
