/*!
The budget of one running search: its clock, its node and expansion
limits, cancellation, and the memory it may plan on. Searches consult it
at a fixed period, so a watched or limited search does no more work per
node than a free one. Also the default node limits: what fits that memory
at each algorithm's bytes per state.
*/

use super::algorithm::Algorithm;
use super::encoding::Encoding;
use super::monitor::Monitor;
use super::outcome::{LimitKind, Limits, Status};
use super::{best_first, focal, graph};
use crate::board::{Board, MAX_SEARCH_CELLS, Packed, Packed128, PackedWords, Shape, Wide};
use crate::machine;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

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
        Algorithm::Bounded { .. } | Algorithm::Anytime => focal::bytes_per_state_reopening::<B>(),
        // Only the path (and the one board the constructive solver works
        // on) is stored, or a frontier within its own budget
        // (FRONTIER_BYTES); any budget is far beyond it.
        Algorithm::IdaStar | Algorithm::WeightedIdaStar(_) | Algorithm::Fringe | Algorithm::Rows => 1,
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
        Encoding::Wide256 => default_max_nodes::<Wide<MAX_SEARCH_CELLS>>(algorithm),
    }
}

/// The bytes one of `sharing` searches may ever use: three quarters of the
/// machine's memory, split between them, so that no `--max-nodes` can make
/// the process abort for lack of memory. Unlimited where the machine's
/// memory cannot be read.
fn memory_cap(sharing: u32) -> u64 {
    machine::memory().map_or(u64::MAX, |bytes| bytes / 4 * 3 / u64::from(sharing.max(1)))
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
        let deadline = match (limits.timeout.map(|t| started + t), limits.deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (one, other) => one.or(other),
        };
        Budget {
            started,
            deadline,
            timeout: limits.timeout.unwrap_or_else(|| {
                limits.deadline.map_or(Duration::ZERO, |d| d.saturating_duration_since(started))
            }),
            max_nodes,
            max_expanded: limits.max_expanded.unwrap_or(u64::MAX),
            // As a search that ticks per node, the first check comes after
            // a period's work (or at the expansion limit, if sooner).
            next_check: Self::TICKS_PER_CHECK.min(limits.max_expanded.unwrap_or(u64::MAX)),
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

    /// The time until the deadline; `None` without one.
    pub(crate) fn time_left(&self) -> Option<Duration> {
        self.deadline.map(|deadline| deadline.saturating_duration_since(Instant::now()))
    }

    /// When the search began.
    pub(crate) fn started(&self) -> Instant {
        self.started
    }

    pub(crate) fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }
}

/// The verdict when a search ran out of nodes to expand.
pub(crate) fn exhausted(cut_at_depth: bool, budget: &Budget) -> Status {
    if cut_at_depth { Status::Limit(LimitKind::Depth(budget.max_depth())) } else { Status::Unsolvable }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_node_limits_match_the_readme() {
        assert_eq!(bytes_per_state::<Packed>(Algorithm::Bfs), 53);
        assert_eq!(bytes_per_state::<Packed>(Algorithm::AStar), 24);
        assert_eq!(bytes_per_state::<Wide>(Algorithm::Bfs), 320);
        assert_eq!(bytes_per_state::<Wide>(Algorithm::AStar), 176);
        assert_eq!(default_max_nodes::<Packed>(Algorithm::Bfs), 60_777_839);
    }

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
}
