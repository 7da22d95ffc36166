/*!
IDA*: iterative-deepening A*. Depth-first passes bounded by f = g + h, each
bound the smallest f that exceeded the previous one. Memory is the current
path only, so it solves what A* cannot store; the price is re-expanding the
shallow levels each pass.

The inner loop is allocation-free: boards are `Copy` values (a child is one
slide of its parent, nothing is undone), the heuristic is updated from the
moved tile, and the moves follow a table. That table is a move automaton
([`Geometry::without_duplicates`]): besides the undo of the last move, it
leaves out every move that would finish a blank path some smaller path
makes redundant, which on the 15-puzzle halves the nodes.

Weighted IDA* bounds f = g + W·h instead: its first solution costs at most
W times the optimum, because each bound is the smallest f that exceeded
the last and every node of an optimal path has f ≤ W·C*.

The search recurses, one call per node on the path, down to
[`RECURSION_DEPTH`]; below it a subtree is searched with a stack of its own
on the heap. Optimal paths of the boards IDA* can solve are far shorter,
so the hot path is the recursion; but a large weight (or a board of
hundreds of cells) can take a pass hundreds of thousands of moves deep,
and no thread's stack holds that many calls.
*/

mod frontier;
mod progress;
mod walkers;

pub use frontier::FRONTIER_BYTES;
pub(crate) use progress::fnv1a;
pub use progress::{Progress, SaveProgress};

use super::best_first::{Plain, Rule, Weighted};
use super::{Budget, LimitKind, Limits, Outcome, Stats, Status, Weight};
use crate::board::{Board, Geometry, Goal, Move};
use crate::heuristic::{Heuristic, Slide};
use progress::{Finished, Saver, hand_to};
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;
use walkers::Children;

/// Expansions of an IDA* pass after which the next one is split between
/// threads. Measured on Korf's 15-puzzles: a pass of a few hundred
/// thousand expansions (a few milliseconds) gains little from a second
/// thread and a smaller one loses (starting it, its cold caches); 10,000
/// left 1.2-1.3 times one thread's time on small searches, 200,000 gave
/// up most of the gain on searches of about a million expansions.
pub const SPLIT_AFTER: u64 = 50_000;

/// Expansions of an IDA* pass after which, on one thread and with a
/// heuristic that reads memory ([`Heuristic::OVERLAPS`]), the next is split
/// into [`ITEMS_PER_WALK`] subtrees for the walkers rather than
/// [`ITEMS_PER_SHORT_WALK`].
pub const WALK_AFTER: u64 = 200;

/// Subtrees a pass on one thread is split into for its walkers: many more
/// than walkers, so that the one that holds the goal is not far behind.
const ITEMS_PER_WALK: usize = 64;

/// The same for the first, short passes: a split into more costs more than
/// such a pass, but searched by recursion every node waits on its
/// children's reads. Measured on 4,000 random 15-puzzles (eight rounds,
/// user time): recursion 4.47 s, 8 subtrees 4.32 s, 16 subtrees 4.36 s.
const ITEMS_PER_SHORT_WALK: usize = 8;

/// The same after a pass of [`SPLIT_AFTER`] expansions or more: the finer
/// the split, the nearer the front the subtree that holds the goal can be
/// put (see [`Nearest`]). Measured on the ten easiest 24-puzzles' last
/// passes: 51 M expansions with 64 subtrees, 27 M with 256, 25 M with 512;
/// on 15-puzzles, whose passes are shorter, 64 does best.
const ITEMS_PER_LONG_WALK: usize = 512;

/// Nodes of one level of a split whose children are estimated together
/// (see [`Search::split_chunk`]).
const SPLIT_CHUNK: usize = 16;

/// How many times the subtrees it wants a split may give, to reach the
/// depth of the pass before's (see [`Search::split`]).
const MOST_ITEMS: usize = 8;

/// Expansions of the pass before per subtree of the next, once that makes
/// more subtrees than the walkers or threads want ([`Tuning::subtrees`]): a deeper split finds
/// more boards that several paths reach, each a whole subtree the pass
/// would search again, and drops all but one (see [`drop_duplicates`]).
/// Only with a heuristic that reads memory ([`Heuristic::OVERLAPS`]), where
/// every node of a duplicate subtree costs a lookup. Measured on the
/// 24-puzzle's instance 26 (`zero-max7`, 2 threads): 369 M expansions in
/// 142 s, 314 M in 111 s at 1,000, 310 M in 122 s at 200, 360 M at 5,000.
/// With Manhattan distance on Korf's 15-puzzle 88, 3 % fewer nodes for ten
/// times the memory and megabytes of saved progress.
const NODES_PER_ITEM: u64 = 1000;

/// Most subtrees of a deep split: each holds its board, estimate, memo
/// and moves (about 200 bytes with pattern databases), and a pass's saved
/// progress lists them.
const MOST_DEEP_ITEMS: usize = 1 << 18;

/// Largest level of a split whose room is kept for the next
/// ([`Search::give_back`]): a deep split's are freed instead.
const KEPT_LEVEL: usize = 4096;

/// Depth from which a pass continues with a stack on the heap rather than
/// by recursion: every call holds a board, its estimate and the
/// heuristic's memo, under 2 KiB for the largest boards, so the recursion
/// stays well inside the 2 MiB stack a spawned thread gets. Optimal paths
/// of the boards IDA* solves (up to 24-puzzles, about 200 moves at most)
/// never get there.
pub const RECURSION_DEPTH: u32 = 512;

/// Expansions of an IDA* pass after which the next passes follow
/// [`Geometry::for_long_searches`]: the passes to come expand at least as
/// many again, so the longer rules' build (0.4 s on 5×5) costs a few
/// percent of them and their pruning saves 7–11 % of the passes they run,
/// 3–9 % of a whole search (measured on 24-puzzles).
pub const LONGER_RULES_AFTER: u64 = 10_000_000;

/// A longer move automaton is built only with at least this much time left
/// before the deadline, so that a search stops close to its timeout.
const LONGER_RULES_TIME: Duration = Duration::from_secs(5);

/// How [`run`] searches, beside its inputs: the defaults, or smaller
/// values that let tests reach the deep stack and the longer rules.
#[derive(Clone, Copy, Debug)]
struct Tuning {
    /// Depth from which a pass uses a stack on the heap.
    recursion_depth: u32,
    /// Pass size after which the longer move rules apply.
    longer_rules_after: u64,
    /// Whether one thread walks several subtrees at once (else every pass
    /// on one thread is searched by recursion).
    walk: bool,
    /// Pass size after which the walkers get more subtrees.
    walk_after: u64,
    /// Pass size after which the next pass's progress is kept for saving.
    save_after: u64,
    /// Expansions of the pass before per subtree of a deep split.
    nodes_per_item: u64,
    /// Bytes of frontier kept from pass to pass (a fringe search); 0 for
    /// IDA*, which keeps none.
    frontier_bytes: usize,
}

impl Tuning {
    /// The subtrees a pass on one thread is split into for its walkers,
    /// after a pass of `last_pass` expansions.
    fn walkers_split(&self, last_pass: u64) -> usize {
        match last_pass {
            n if n >= SPLIT_AFTER => ITEMS_PER_LONG_WALK,
            n if n >= self.walk_after => ITEMS_PER_WALK,
            _ => ITEMS_PER_SHORT_WALK,
        }
    }

    /// The subtrees a pass is split into after a pass of `last_pass`
    /// expansions: for the threads of a parallel pass, else for the
    /// walkers; with a heuristic that `overlaps` its reads, at least one
    /// per [`NODES_PER_ITEM`] (up to [`MOST_DEEP_ITEMS`]).
    fn subtrees(&self, threads: Option<usize>, last_pass: u64, overlaps: bool) -> usize {
        let want = threads.map_or_else(|| self.walkers_split(last_pass), |t| t * ITEMS_PER_THREAD);
        if !overlaps {
            return want;
        }
        let deep = usize::try_from(last_pass / self.nodes_per_item).unwrap_or(usize::MAX);
        want.max(deep.min(MOST_DEEP_ITEMS))
    }

    const DEFAULT: Tuning = Tuning {
        recursion_depth: RECURSION_DEPTH,
        longer_rules_after: LONGER_RULES_AFTER,
        walk: true,
        walk_after: WALK_AFTER,
        save_after: SPLIT_AFTER,
        nodes_per_item: NODES_PER_ITEM,
        frontier_bytes: 0,
    };

    /// A fringe search's.
    pub(super) const FRINGE: Tuning = Tuning { frontier_bytes: FRONTIER_BYTES, ..Tuning::DEFAULT };
}

/// IDA* from `start` to `goal` guided by `h`.
///
/// With an admissible heuristic the path is optimal. Bounds advance to the
/// next whole move (costs are integers), so fixed-point heuristics do not
/// cause a pass per fraction. Figures are totals over all passes:
/// `max_frontier` and `stored` are the most nodes on the path at once.
///
/// # Examples
/// ```
/// use npuzzle::{idastar, Board, Goal, GoalSpec, Limits, Manhattan, Packed};
/// let goal = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
/// let start = Packed::from_tiles(&[8, 0, 6, 5, 4, 7, 2, 3, 1]);
/// let outcome = idastar(&start, &goal, &Manhattan::new(&goal), &Limits::default());
/// assert_eq!(outcome.cost(), Some(31));
/// ```
pub fn idastar<B: Board, H: Heuristic<B>>(start: &B, goal: &Goal, h: &H, limits: &Limits) -> Outcome {
    run(start, goal, h, Plain, limits, Tuning::DEFAULT)
}

/// Weighted IDA* from `start` to `goal`: passes bounded by f = g + W·h.
/// With an admissible `h` the path costs at most `weight` times the
/// optimum; with W = 1 this is [`idastar`].
///
/// # Examples
/// ```
/// use npuzzle::{weighted_idastar, Board, Goal, GoalSpec, Limits, Manhattan, Packed, Weight};
/// let goal = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
/// let start = Packed::from_tiles(&[8, 0, 6, 5, 4, 7, 2, 3, 1]);
/// let w: Weight = "1.5".parse().unwrap();
/// let outcome = weighted_idastar(&start, &goal, &Manhattan::new(&goal), w, &Limits::default());
/// assert!(2 * outcome.cost().unwrap() <= 3 * 31);
/// ```
pub fn weighted_idastar<B: Board, H: Heuristic<B>>(
    start: &B,
    goal: &Goal,
    h: &H,
    weight: Weight,
    limits: &Limits,
) -> Outcome {
    if weight == Weight::ONE {
        return idastar(start, goal, h, limits);
    }
    let rule = Weighted { p: weight.numerator(), q: weight.denominator() };
    run(start, goal, h, rule, limits, Tuning::DEFAULT)
}

/// IDA*'s passes with the frontier kept between them: see
/// [`fringe`](crate::search::fringe).
pub(super) fn fringe_passes<B: Board, H: Heuristic<B>>(
    start: &B,
    goal: &Goal,
    h: &H,
    limits: &Limits,
) -> Outcome {
    run(start, goal, h, Plain, limits, Tuning::FRINGE)
}

/// IDA* in the order of `rule`, as `tuning` says; with a frontier kept
/// between passes, a fringe search. Bounds are rounded up to whole heuristic units (whole moves of g): for
/// W = p / q a solution found under bound T has q·cost ≤ T ≤ p·C*, so
/// rounding never lets a path past W·C*.
fn run<B: Board, H: Heuristic<B>, R: Rule>(
    start: &B,
    goal: &Goal,
    h: &H,
    rule: R,
    limits: &Limits,
    tuning: Tuning,
) -> Outcome {
    let geometry = Geometry::without_duplicates(goal.shape());
    let unit = u64::from(H::UNIT);
    let budget = Budget::start(limits, None);
    let max_depth = budget.max_depth();
    let (h_start, memo) = h.estimate_memo(start);
    let threads = limits.threads.clamp(1, MAX_THREADS);
    let (saver, resumed) = Saver::of(limits, goal.shape().cells(), budget.started());
    let target = B::from_tiles(goal.tiles().cells());
    let deep_from = max_depth.min(tuning.recursion_depth);
    let mut search = Search::new(geometry, h, rule, target, max_depth, deep_from, budget);
    let mut root = Item::root(*start, h_start, memo, geometry);
    // What one move adds to f: bounds are shown in moves.
    let move_key = rule.key(1, 0, H::UNIT);
    let mut bound = rule.key(0, h_start, H::UNIT).div_ceil(unit) * unit;
    // Expansions of the pass before: small passes are not worth splitting.
    let mut last_pass = 0;
    let mut long_rules = false;
    // A search taken up goes on with the pass it had stopped in.
    let mut taken_up = resumed.map(|p| {
        (bound, last_pass, long_rules) = (p.bound, p.last_pass, p.long_rules);
        if long_rules {
            search.geometry = Geometry::for_long_searches(goal.shape());
            root.row = search.geometry.start_row(start.blank());
        }
        search.take_up(p)
    });
    // The frontier is kept while the passes run on one thread, with the
    // walkers, untracked and with the rules they began with; once dropped,
    // the passes start from the start.
    let room = tuning.frontier_bytes / std::mem::size_of::<walkers::Node<B, H::Memo>>().max(1);
    if room > 0 && tuning.walk && taken_up.is_none() {
        search.keep_frontier(&root, room);
    }
    let status = loop {
        // Beyond the depth cap nothing can reach the goal in time: such
        // nodes count as cut by depth, not as candidates for the next bound.
        search.bound = bound.min(search.depth_cap);
        search.budget.show_bound(search.bound as f64 / move_key as f64);
        // Every pass below this one is complete: what it proves is shared.
        if let (Some(floor), Some(proven)) = (&limits.floor, rule.lower_bound(search.bound, H::UNIT)) {
            floor.fetch_max(proven, Ordering::Relaxed);
        }
        search.next_bound = u64::MAX;
        search.cut_at_depth = false;
        let mut before = search.stats.nodes_expanded;
        let parallel = Share::of_pass(limits, threads, last_pass);
        let mut want = tuning.subtrees(parallel.map(Share::planned), last_pass, H::OVERLAPS);
        // Long passes (and the one taken up) keep their progress.
        let mut done = HashMap::new();
        let mut tracked = None;
        if let Some(saver) = &saver
            && (last_pass >= tuning.save_after || taken_up.is_some())
        {
            let pass = Progress { bound, last_pass, long_rules, ..Progress::default() };
            done = search.track(saver, pass, taken_up.take(), &mut want, &mut before);
            tracked = Some(saver);
        }
        if parallel.is_some() || tracked.is_some() {
            search.drop_frontier();
        }
        let flow = if search.keeps_frontier() {
            search.walk_frontier()
        } else if let Some(share) = parallel {
            search.pass_in_parallel(&root, share, want, &done, tracked)
        } else if H::OVERLAPS && tuning.walk {
            search.pass_walking(&root, want, &done, tracked)
        } else {
            search.descend(&root)
        };
        last_pass = search.stats.nodes_expanded - before;
        match flow {
            Flow::Found => break Status::Solved,
            Flow::Stop => break search.stopped(tracked),
            // A visit never returns `Deep`.
            Flow::Next | Flow::Deep => {}
        }
        if search.next_bound == u64::MAX {
            // Nothing was pruned by f: only the depth limit held the search back.
            break if search.cut_at_depth {
                Status::Limit(LimitKind::Depth(max_depth))
            } else {
                Status::Unsolvable
            };
        }
        bound = search.next_bound.div_ceil(unit) * unit;
        // Any rules keep the search complete and optimal, so the table may
        // change between passes.
        if last_pass >= tuning.longer_rules_after
            && search.budget.time_left().is_none_or(|left| left >= LONGER_RULES_TIME)
        {
            long_rules = true;
            // The frontier's rows are the old table's.
            search.drop_frontier();
            search.geometry = Geometry::for_long_searches(goal.shape());
            root.row = search.geometry.start_row(start.blank());
        }
    };
    let before = saver.as_ref().map_or(Duration::ZERO, Saver::runtime_before);
    search.outcome(status, before)
}

/// How a parallel pass is shared out between threads.
#[derive(Clone, Copy)]
struct Share<'l> {
    /// The threads that start it.
    threads: usize,
    /// The spare thread of [`Limits::spare`] while it is not lent: one more
    /// worker waits for it, and joins in once it is.
    spare: Option<&'l AtomicBool>,
}

impl<'l> Share<'l> {
    /// The share of the pass after one of `last_pass` expansions by a search
    /// on `threads` (`None`: one thread alone). A spare lent by then starts
    /// it with the others.
    fn of_pass(limits: &'l Limits, threads: usize, last_pass: u64) -> Option<Share<'l>> {
        let lent = limits.spare_lent();
        let threads = (threads + usize::from(lent)).min(MAX_THREADS);
        let spare = limits.spare.as_deref().filter(|_| !lent);
        let worth = last_pass >= limits.split_after.unwrap_or(SPLIT_AFTER);
        ((threads > 1 || spare.is_some()) && worth).then_some(Share { threads, spare })
    }

    /// Every thread that may work on the pass.
    fn planned(self) -> usize {
        self.threads + usize::from(self.spare.is_some())
    }
}

impl<B: Board, H: Heuristic<B>, R: Rule> Search<'_, B, H, R> {
    /// What the search ended with, its time counting the `before` spent by
    /// the runs it was taken up from.
    fn outcome(mut self, status: Status, before: Duration) -> Outcome {
        let mut stats = self.stats;
        // The path is all IDA* stores: at most one node per depth, plus the
        // start (per thread, the deepest path counts); a fringe search
        // also keeps its frontier.
        stats.max_frontier = (u64::from(stats.max_depth) + 1).max(self.frontier_most);
        stats.stored = stats.max_frontier;
        stats.runtime = self.budget.elapsed() + before;
        self.path.reverse();
        let path = (status == Status::Solved).then_some(self.path);
        // Each pass's bound is the smallest priority past the one before, which
        // no solution beat: a node of an optimal path has a priority at least
        // that large, so the bound of the pass under way bounds the cost (the
        // first pass's is the start's estimate). An unweighted solution is a
        // shortest one.
        let lower_bound = match status {
            Status::Solved if R::PROVES_BOUND => path.as_ref().and_then(|p| u32::try_from(p.len()).ok()),
            Status::Unsolvable => None,
            _ => self.rule.lower_bound(self.bound, H::UNIT),
        };
        Outcome { status, path, stats, lower_bound, improvements: Vec::new() }
    }
}

/// Leaves one item of `level` per board: none for a board of a level
/// `above`, else the one whose moves come first in successor order, which
/// are the smallest path to it. The smallest optimal solution's every
/// prefix is the smallest path to its board, so it stays; the move
/// automaton prunes only short twins, and a deep split still holds many
/// boards reached along several paths, each a whole subtree searched twice.
fn drop_duplicates<B: Board, M>(level: &mut Vec<Item<B, M>>, above: &mut FxHashSet<B>) {
    if level.len() <= SMALL_LEVEL {
        return drop_duplicates_by_scan(level, above);
    }
    drop_duplicates_by_map(level, above);
}

/// Whether the boards of `level` differ from each other and from those of
/// `shallow`.
fn distinct_boards<B: Board, M>(level: &[Item<B, M>], shallow: &[B]) -> bool {
    let mut seen: FxHashSet<B> = shallow.iter().copied().collect();
    level.iter().all(|item| seen.insert(item.board))
}

/// Levels up to this many roots are searched for duplicates by scanning,
/// with no map to allocate: the splits of short searches.
const SMALL_LEVEL: usize = 128;

/// [`drop_duplicates`] on a small level: each root against those before it.
fn drop_duplicates_by_scan<B: Board, M>(level: &mut Vec<Item<B, M>>, above: &mut FxHashSet<B>) {
    let mut dropped = 0u128;
    for i in 0..level.len().min(SMALL_LEVEL) {
        if above.contains(&level[i].board) {
            dropped |= 1 << i;
            continue;
        }
        let kept_before = (0..i).find(|&j| dropped & (1 << j) == 0 && level[j].board == level[i].board);
        if let Some(j) = kept_before {
            dropped |= 1 << keep_one(level, i, j).1;
        }
    }
    let mut i = 0;
    level.retain(|item| {
        let keep = dropped & (1 << i) == 0;
        i += 1;
        if keep {
            above.insert(item.board);
        }
        keep
    });
}

/// [`drop_duplicates`] on a large level, the roots' first places kept in a
/// map.
fn drop_duplicates_by_map<B: Board, M>(level: &mut Vec<Item<B, M>>, above: &mut FxHashSet<B>) {
    let mut first: FxHashMap<B, usize> = FxHashMap::default();
    let mut keep = vec![true; level.len()];
    for i in 0..level.len() {
        if above.contains(&level[i].board) {
            keep[i] = false;
            continue;
        }
        match first.entry(level[i].board) {
            Entry::Vacant(entry) => {
                entry.insert(i);
            }
            Entry::Occupied(mut entry) => {
                let (kept, dropped) = keep_one(level, i, *entry.get());
                keep[dropped] = false;
                entry.insert(kept);
            }
        }
    }
    above.extend(first.into_keys());
    let mut keep = keep.into_iter();
    level.retain(|_| keep.next().unwrap_or(false));
}

/// Of roots `i` and `j`, which share a board, the one reached by the
/// smaller path is kept, with the larger of their estimates (both are
/// lower bounds for the one board): (kept, dropped).
fn keep_one<B, M>(level: &mut [Item<B, M>], i: usize, j: usize) -> (usize, usize) {
    let h = level[i].h.max(level[j].h);
    // Moves are ordered as successors are.
    let earlier = level[i].moves.as_slice() < level[j].moves.as_slice();
    let (kept, dropped) = if earlier { (i, j) } else { (j, i) };
    level[kept].h = h;
    (kept, dropped)
}

/// Whether subtree `index` is among those [`Search::skip`] passes over.
fn skipped(skip: &[bool], index: usize) -> bool {
    skip.get(index).copied().unwrap_or(false)
}

/// Most threads one search uses.
const MAX_THREADS: usize = 256;

/// How often a worker waiting for a spare thread looks whether it has been
/// lent, or the pass has run out of work: a fraction of any pass worth
/// splitting.
const SPARE_POLL: Duration = Duration::from_millis(1);

/// Nodes per thread a parallel pass splits its tree into: many more than
/// threads, so that when one subtree turns out huge the others keep the
/// remaining threads busy to the end of the pass.
const ITEMS_PER_THREAD: usize = 256;

/// What the threads of one parallel pass share.
struct Shared {
    /// The next piece of work to take.
    next: AtomicUsize,
    /// Set by the thread that found the goal or hit a limit: the others
    /// stop at their next check.
    halt: AtomicBool,
    /// Expansions of the whole search so far, as last reported.
    expanded: AtomicU64,
    /// Expansions the threads may still take under the limit.
    left: AtomicU64,
}

impl Shared {
    /// Waits for the spare thread to be `lent`: false if the pass's
    /// `items` are all taken, or it is halted, first.
    fn lent_in_time(&self, lent: &AtomicBool, items: usize) -> bool {
        while !lent.load(Ordering::Relaxed) {
            if self.next.load(Ordering::Relaxed) >= items || self.halt.load(Ordering::Relaxed) {
                return false;
            }
            std::thread::sleep(SPARE_POLL);
        }
        true
    }
}

/// A node whose subtree is searched as one piece of work: where the pass
/// stands there, and the moves that lead to it from the start.
#[derive(Clone)]
struct Item<B, M> {
    board: B,
    blank: usize,
    g: u32,
    h: u32,
    memo: M,
    row: usize,
    moves: Moves,
}

impl<B: Board, M> Item<B, M> {
    /// A pass's root: the start.
    fn root(board: B, h: u32, memo: M, geometry: &Geometry) -> Self {
        let blank = board.blank();
        Item { board, blank, g: 0, h, memo, row: geometry.start_row(blank), moves: Moves::default() }
    }
}

/// Moves a split keeps inline: a split goes a few levels deep, and a
/// heap copy per subtree would be most of the allocations of a batch of
/// 15-puzzles (two for every subtree of every pass).
const INLINE_MOVES: usize = 30;

/// The moves from a pass's root to a subtree's root: inline up to
/// [`INLINE_MOVES`], on the heap beyond (a split through a narrow tree).
#[derive(Clone, Debug)]
enum Moves {
    Inline { len: u8, moves: [Move; INLINE_MOVES] },
    Heap(Vec<Move>),
}

impl Default for Moves {
    fn default() -> Self {
        Moves::Inline { len: 0, moves: [Move::Up; INLINE_MOVES] }
    }
}

impl Moves {
    fn as_slice(&self) -> &[Move] {
        match self {
            Moves::Inline { len, moves } => &moves[..usize::from(*len)],
            Moves::Heap(moves) => moves,
        }
    }

    /// These moves and then `mv`.
    fn then(&self, mv: Move) -> Moves {
        match self {
            Moves::Inline { len, moves } if usize::from(*len) < INLINE_MOVES => {
                let mut moves = *moves;
                moves[usize::from(*len)] = mv;
                Moves::Inline { len: len + 1, moves }
            }
            _ => {
                let mut moves = self.as_slice().to_vec();
                moves.push(mv);
                Moves::Heap(moves)
            }
        }
    }
}

/// What a subtree search reports to its parent.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Flow {
    /// Nothing found below; carry on with the siblings.
    Next,
    /// The goal: the path is being filled in as the recursion unwinds.
    Found,
    /// A limit ([`Search::stop`]) was hit; unwind without searching further.
    Stop,
    /// The node is [`RECURSION_DEPTH`] deep: its subtree is searched by
    /// [`Search::visit_deep`] rather than by recursion. Never returned
    /// from a visit.
    Deep,
}

/// The first `count` of a node's children, by their `estimates`, smallest
/// first, equals in successor order: an insertion sort inline, since the
/// library's stable sort is a call that cost about 1 % of a 15-puzzle
/// batch.
#[inline]
fn by_estimate(estimates: &[u32; 4], count: usize) -> [usize; 4] {
    let mut order = [0, 1, 2, 3];
    for sorted in 1..count.min(4) {
        let mut at = sorted;
        while at > 0 && estimates[order[at - 1]] > estimates[order[at]] {
            order.swap(at - 1, at);
            at -= 1;
        }
    }
    order
}

/// Everything the recursion shares, behind one pointer so that each call
/// saves and restores as few registers as possible.
struct Search<'a, B: Board, H: Heuristic<B>, R> {
    geometry: &'a Geometry,
    h: &'a H,
    rule: R,
    target: B,
    /// The pass's bound on f, in heuristic units (at most `depth_cap`).
    bound: u64,
    /// f above this cannot lead to the goal within the depth limit.
    depth_cap: u64,
    max_depth: u32,
    /// Nodes this deep are searched without recursion (the smaller of
    /// [`RECURSION_DEPTH`] and the depth limit).
    deep_from: u32,
    /// Smallest f seen above the bound this pass.
    next_bound: u64,
    cut_at_depth: bool,
    stats: Stats,
    budget: Budget,
    stop: Option<LimitKind>,
    /// What the threads of a parallel pass share; `None` on one thread.
    shared: Option<&'a Shared>,
    /// The expansions already added to the shared total.
    reported: u64,
    path: Vec<Move>,
    /// What [`Search::visit_bpmx`] learnt of its node's estimate.
    revised: u32,
    /// Per subtree of the pass under way (by its index among the pass's
    /// items), the smallest estimate its walkers generated.
    nearest: Vec<u32>,
    /// How near the goal the subtrees of the pass before came.
    last: Nearest<B>,
    /// The walkers of [`Search::walk`], kept from pass to pass with the
    /// room their stacks have grown to.
    walkers: Option<Box<walkers::Walkers<B, H>>>,
    /// The most nodes a fringe search's frontier held at once, this pass's
    /// and the next's together.
    frontier_most: u64,
    /// The room of [`Search::split_chunk`]'s children, kept from chunk to
    /// chunk: a few kilobytes each, set up anew for every chunk of every
    /// split they cost more than the chunk's lookups.
    chunk_children: Option<Box<[Children<B, H>; SPLIT_CHUNK]>>,
    /// Room for the levels of [`Search::split`], kept from pass to pass.
    levels: Vec<Vec<Item<B, H::Memo>>>,
    /// The boards of a split's shallower levels, kept likewise: in a list
    /// while the levels are too shallow to hold duplicates (see
    /// [`Geometry::distinct_within`]), in a set from the first that can.
    shallow: Vec<B>,
    above: FxHashSet<B>,
}

/// How near the goal each subtree of a pass came: the smallest estimate of
/// any node generated below its root, by the root. The next pass searches
/// the subtrees that came nearest first. Its bound is a move or two above
/// this pass's, and the goal lies below a root whose subtree this pass
/// already followed far along an optimal path, to estimates near 0; on the
/// 24-puzzle that cuts the last pass, most of IDA*'s work, by several
/// times (measured). Subtrees the pass before did not search come after,
/// by their own estimate.
struct Nearest<B> {
    /// Depth of the subtrees' roots.
    depth: u32,
    by_root: Arc<HashMap<B, u32>>,
}

impl<B> Default for Nearest<B> {
    fn default() -> Self {
        Nearest { depth: 0, by_root: Arc::default() }
    }
}

impl<B: Board> Nearest<B> {
    /// What the subtrees of `items` came to, `nearest` in the same order.
    fn new<M>(items: &[Item<B, M>], nearest: &[u32]) -> Self {
        let by_root = items.iter().zip(nearest).map(|(item, &near)| (item.board, near)).collect();
        Nearest { depth: items.first().map_or(0, |item| item.g), by_root: Arc::new(by_root) }
    }

    /// Sorts `items` nearest first, those not seen by their own estimate,
    /// equals in the order they came. Each key is looked up once, not at
    /// every comparison.
    fn order<M>(&self, items: &mut [Item<B, M>], geometry: &Geometry) {
        if self.by_root.is_empty() {
            items.sort_by_key(|item| item.h);
            return;
        }
        items.sort_by_cached_key(|item| {
            // An item deeper than the roots of the pass before takes its
            // ancestor's place among them.
            let up = item.g.saturating_sub(self.depth) as usize;
            let mut board = item.board;
            for &mv in item.moves.as_slice().iter().rev().take(up) {
                board = geometry.apply(&board, mv.inverse()).expect("the move was made");
            }
            self.by_root.get(&board).copied().unwrap_or(item.h)
        });
    }
}

impl<'a, B: Board, H: Heuristic<B>, R: Rule> Search<'a, B, H, R> {
    /// A search on one thread with nothing searched yet, at bound 0.
    fn new(
        geometry: &'a Geometry,
        h: &'a H,
        rule: R,
        target: B,
        max_depth: u32,
        deep_from: u32,
        budget: Budget,
    ) -> Self {
        Search {
            geometry,
            h,
            rule,
            target,
            bound: 0,
            depth_cap: rule.depth_cap(max_depth, H::UNIT),
            max_depth,
            deep_from,
            next_bound: u64::MAX,
            cut_at_depth: false,
            stats: Stats::default(),
            budget,
            stop: None,
            shared: None,
            reported: 0,
            path: Vec::new(),
            revised: 0,
            nearest: Vec::new(),
            last: Nearest::default(),
            walkers: None,
            frontier_most: 0,
            chunk_children: None,
            levels: Vec::new(),
            shallow: Vec::new(),
            above: FxHashSet::default(),
        }
    }

    /// Searches the subtree of `item`, which is within the bound; on
    /// `Found` the path holds the moves from the start, reversed.
    fn descend(&mut self, item: &Item<B, H::Memo>) -> Flow {
        let (board, blank, g, h, row) = (item.board, item.blank, item.g, item.h, item.row);
        let flow = if H::CONSISTENT {
            self.visit(board, blank, g, h, &item.memo, row)
        } else {
            self.visit_bpmx(board, blank, g, h, &item.memo, row)
        };
        if flow == Flow::Found {
            self.path.extend(item.moves.as_slice().iter().rev());
        }
        flow
    }

    /// One pass of the bound on the threads of `share`. The tree is expanded
    /// breadth-first from `root` until it has many more open nodes than
    /// threads; the threads then take those subtrees one at a time, in the
    /// order the single-threaded search would visit them, so every thread
    /// stays busy to the end of the pass and the one that finds the goal
    /// within the bound, which is an optimal one when the last bound was
    /// not, stops the others. Their counts are added up.
    /// Subtrees in `done` (a search taken up) are passed over; with a
    /// `saver`, each subtree finished is handed to it.
    fn pass_in_parallel(
        &mut self,
        root: &Item<B, H::Memo>,
        share: Share<'_>,
        want: usize,
        done: &HashMap<B, u32>,
        saver: Option<&Saver<'_, B>>,
    ) -> Flow {
        let (items, skip) = match self.subtrees(root, want, done) {
            Ok(subtrees) => subtrees,
            Err(flow) => return flow,
        };
        let shared = Shared {
            next: AtomicUsize::new(0),
            halt: AtomicBool::new(false),
            expanded: AtomicU64::new(self.stats.nodes_expanded),
            left: AtomicU64::new(self.budget.expansions_left(self.stats.nodes_expanded)),
        };
        let workers: Vec<(Search<'_, B, H, R>, Flow)> = std::thread::scope(|scope| {
            let (active, spare) = (share.threads.min(items.len()), share.spare);
            let handles: Vec<_> = (0..active + usize::from(spare.is_some()))
                .map(|i| {
                    let mut worker = self.worker(&shared);
                    worker.nearest.clone_from(&self.nearest);
                    let (items, shared, skip) = (&items, &shared, &skip);
                    let waits_for = spare.filter(|_| i >= active);
                    scope.spawn(move || {
                        if waits_for.is_some_and(|lent| !shared.lent_in_time(lent, items.len())) {
                            return (worker, Flow::Next);
                        }
                        let mut next = || loop {
                            let index = shared.next.fetch_add(1, Ordering::Relaxed);
                            if index >= items.len() || shared.halt.load(Ordering::Relaxed) {
                                return None;
                            }
                            if !skipped(skip, index) {
                                return Some(index);
                            }
                        };
                        let finished = hand_to(saver, items);
                        let mut flow = Flow::Next;
                        if H::OVERLAPS {
                            flow = worker.walk(items, &mut next, &finished);
                        } else {
                            while let Some(index) = next() {
                                let before = worker.stats;
                                flow = worker.descend(&items[index]);
                                if flow != Flow::Next {
                                    break;
                                }
                                let (expanded, generated) = (
                                    worker.stats.nodes_expanded - before.nodes_expanded,
                                    worker.stats.nodes_generated - before.nodes_generated,
                                );
                                finished(index, worker.finished(index, expanded, generated));
                            }
                        }
                        // The others finish their share of a spent expansion
                        // stock; anything else ends them.
                        if flow != Flow::Next && !matches!(worker.stop, Some(LimitKind::Expanded(_))) {
                            shared.halt.store(true, Ordering::Relaxed);
                        }
                        (worker, flow)
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).collect()
        });
        let mut flow = Flow::Next;
        // A thread halted by another reports `Stop` without a limit.
        for (worker, ended) in workers {
            for (nearest, &theirs) in self.nearest.iter_mut().zip(&worker.nearest) {
                *nearest = (*nearest).min(theirs);
            }
            self.stats += worker.stats;
            self.next_bound = self.next_bound.min(worker.next_bound);
            self.cut_at_depth |= worker.cut_at_depth;
            if ended == Flow::Found && flow != Flow::Found {
                self.path = worker.path;
                flow = Flow::Found;
            } else if flow == Flow::Next && worker.stop.is_some() {
                self.stop = worker.stop;
                flow = Flow::Stop;
            }
        }
        self.remember(&items);
        self.give_back(items);
        flow
    }

    /// One pass on this thread, its tree split into about `want` subtrees
    /// that walkers search several at a time (see `walkers.rs`).
    /// Subtrees in `done` are passed over and `saver` hears of each
    /// finished, as in [`Search::pass_in_parallel`].
    fn pass_walking(
        &mut self,
        root: &Item<B, H::Memo>,
        want: usize,
        done: &HashMap<B, u32>,
        saver: Option<&Saver<'_, B>>,
    ) -> Flow {
        let (items, skip) = match self.subtrees(root, want, done) {
            Ok(subtrees) => subtrees,
            Err(flow) => return flow,
        };
        let mut taken = (0..items.len()).filter(|&i| !skipped(&skip, i));
        let flow = self.walk(&items, &mut || taken.next(), &hand_to(saver, &items));
        self.remember(&items);
        self.give_back(items);
        flow
    }

    /// A pass's subtrees: the tree below `root` split into about `want`,
    /// in the order they are searched, with which of them are `done` (see
    /// [`Search::skip`]); `Err` when the split itself met the goal or a
    /// limit.
    #[expect(clippy::type_complexity, reason = "the subtrees and their marks, used together")]
    fn subtrees(
        &mut self,
        root: &Item<B, H::Memo>,
        want: usize,
        done: &HashMap<B, u32>,
    ) -> Result<(Vec<Item<B, H::Memo>>, Vec<bool>), Flow> {
        let items = self.split(root, want)?;
        let items = self.order(items);
        let skip = self.skip(&items, done);
        Ok((items, skip))
    }

    /// Which of `items` are `done` (empty unless the search was taken up),
    /// their nearest approach recorded as it was.
    fn skip(&mut self, items: &[Item<B, H::Memo>], done: &HashMap<B, u32>) -> Vec<bool> {
        if done.is_empty() {
            return Vec::new();
        }
        let mut skip = vec![false; items.len()];
        for (i, item) in items.iter().enumerate() {
            if let Some(&near) = done.get(&item.board) {
                skip[i] = true;
                if let Some(nearest) = self.nearest.get_mut(i) {
                    *nearest = near;
                }
            }
        }
        skip
    }

    /// What this thread's search of subtree `index`, which expanded and
    /// generated these many nodes, adds to the pass's progress.
    fn finished(&self, index: usize, expanded: u64, generated: u64) -> Finished {
        Finished {
            expanded,
            generated,
            nearest: self.nearest.get(index).copied().unwrap_or(u32::MAX),
            next_bound: self.next_bound,
            cut_at_depth: self.cut_at_depth,
            max_depth: self.stats.max_depth,
        }
    }

    /// `items` in the order this pass searches them: those whose subtrees
    /// came nearest the goal in the pass before first (see [`Nearest`]),
    /// the others after by their own estimate, equals in the order a
    /// depth-first search meets them. Walkers record how near each comes;
    /// without them (a heuristic that reads no memory) nothing is ordered.
    fn order(&mut self, mut items: Vec<Item<B, H::Memo>>) -> Vec<Item<B, H::Memo>> {
        if H::OVERLAPS {
            self.last.order(&mut items, self.geometry);
            self.nearest = items.iter().map(|item| item.h).collect();
        }
        items
    }

    /// Keeps how near the goal the subtrees of `items` came, for the next
    /// pass (only walkers record it).
    fn remember(&mut self, items: &[Item<B, H::Memo>]) {
        if H::OVERLAPS {
            self.last = Nearest::new(items, &self.nearest);
        }
    }

    /// A search for one thread of a parallel pass: this one's settings and
    /// bound, counts of its own.
    fn worker<'h>(&self, shared: &'h Shared) -> Search<'h, B, H, R>
    where
        'a: 'h,
    {
        let (geometry, h, rule, target, budget) =
            (self.geometry, self.h, self.rule, self.target, self.budget.for_thread());
        let fresh = Search::new(geometry, h, rule, target, self.max_depth, self.deep_from, budget);
        Search { bound: self.bound, shared: Some(shared), ..fresh }
    }

    /// The open nodes of this pass, level by level from `root`, until there
    /// are at least `want` (or none) and they are at least as deep as the
    /// subtrees of the pass before, so that those are found again (unless
    /// that would take [`MOST_ITEMS`] times `want`): each node on the way
    /// is expanded and pruned as [`Search::visit`] and [`Search::visit_bpmx`] would, and
    /// counted, and the nodes come out in the order those visit them.
    /// `Err` when the goal or a limit ends the pass first.
    fn split(&mut self, root: &Item<B, H::Memo>, want: usize) -> Result<Vec<Item<B, H::Memo>>, Flow> {
        let mut level = self.levels.pop().unwrap_or_default();
        level.push(Item { moves: root.moves.clone(), ..*root });
        let (depth, most) = (self.last.depth, want.saturating_mul(MOST_ITEMS));
        let (mut shallow, mut above) = (std::mem::take(&mut self.shallow), std::mem::take(&mut self.above));
        shallow.clear();
        above.clear();
        shallow.push(root.board);
        // Levels this deep below the root hold no duplicates.
        let distinct =
            root.g.saturating_add(u32::try_from(self.geometry.distinct_within()).unwrap_or(u32::MAX));
        while !level.is_empty() && (level.len() < want || level[0].g < depth && level.len() < most) {
            let mut deeper = self.levels.pop().unwrap_or_default();
            deeper.reserve(level.len() * 3);
            for chunk in level.chunks(SPLIT_CHUNK) {
                self.split_chunk(chunk, &mut deeper)?;
            }
            self.give_back(std::mem::replace(&mut level, deeper));
            if level.first().is_some_and(|item| item.g <= distinct) {
                debug_assert!(distinct_boards(&level, &shallow), "a duplicate within the rules' length");
                shallow.extend(level.iter().map(|item| item.board));
                continue;
            }
            if above.is_empty() {
                above.reserve(shallow.len().max(SMALL_LEVEL));
                above.extend(shallow.drain(..));
            }
            drop_duplicates(&mut level, &mut above);
        }
        (self.shallow, self.above) = (shallow, above);
        Ok(level)
    }

    /// Keeps the room of a level of [`Search::split`], or of a pass's
    /// subtrees once the pass is over, for the next; a deep split's large
    /// levels are freed rather than held for the rest of the search.
    fn give_back(&mut self, mut level: Vec<Item<B, H::Memo>>) {
        if level.capacity() <= KEPT_LEVEL {
            level.clear();
            self.levels.push(level);
        }
    }

    /// Expands the nodes of `chunk`, a run of one level of [`Search::split`],
    /// in order, pushing their children onto `deeper`: every node's
    /// children are estimated before any estimate is read, so that the
    /// reads of the whole run overlap (one node at a time, each waited on
    /// its own).
    fn split_chunk(
        &mut self,
        chunk: &[Item<B, H::Memo>],
        deeper: &mut Vec<Item<B, H::Memo>>,
    ) -> Result<(), Flow> {
        let Some(first) = chunk.first() else { return Ok(()) };
        let first_step = self.geometry.steps(first.row)[0];
        let mut children = self
            .chunk_children
            .take()
            .unwrap_or_else(|| Box::new(std::array::from_fn(|_| Children::new(first.board, first_step))));
        let mut expanded = [false; SPLIT_CHUNK];
        // The goal or a limit ends the run at that node.
        let mut ended = None;
        let mut entered = 0;
        for (i, item) in chunk.iter().enumerate().take(SPLIT_CHUNK) {
            match self.enter::<true>(item.board, item.g, item.h) {
                None => expanded[i] = true,
                Some(Flow::Next | Flow::Deep) => {}
                Some(flow) => {
                    ended = Some((i, flow));
                    break;
                }
            }
            entered = i + 1;
            if expanded[i] {
                children[i].begin(
                    self.geometry,
                    self.h,
                    item.board,
                    item.blank,
                    item.row,
                    item.h,
                    &item.memo,
                    u32::MAX,
                );
            }
        }
        let mut done = expanded.map(|e| !e);
        while done[..entered].iter().any(|&d| !d) {
            for (i, item) in chunk.iter().enumerate().take(entered) {
                if !done[i] {
                    done[i] = children[i].end(self.h, item.h, &item.memo, item.blank);
                }
            }
        }
        for (i, item) in chunk.iter().enumerate().take(entered) {
            if expanded[i] {
                self.keep_children(item, &children[i], deeper);
            }
        }
        self.chunk_children = Some(children);
        match ended {
            Some((i, Flow::Found)) => {
                self.path = chunk[i].moves.as_slice().iter().rev().copied().collect();
                Err(Flow::Found)
            }
            Some((_, flow)) => Err(flow),
            None => Ok(()),
        }
    }

    /// Pushes the `children` of `item`, their estimates read, onto
    /// `deeper`, counted as generated, ordered and pruned as
    /// [`Search::visit`] and [`Search::visit_bpmx`] would.
    fn keep_children(
        &mut self,
        item: &Item<B, H::Memo>,
        children: &Children<B, H>,
        deeper: &mut Vec<Item<B, H::Memo>>,
    ) {
        let unit = H::UNIT;
        let first = deeper.len();
        let mut h = item.h;
        let Children { slides, steps, count, memos, estimates, .. } = children;
        let n = *count;
        for (((slide, step), &h_child), &memo) in
            slides[..n].iter().zip(&steps[..n]).zip(&estimates[..n]).zip(&memos[..n])
        {
            self.stats.nodes_generated += 1;
            if !H::CONSISTENT {
                h = h.max(h_child.saturating_sub(unit));
            }
            let moves = item.moves.then(step.mv);
            deeper.push(Item {
                board: slide.board,
                blank: slide.from,
                g: item.g + 1,
                h: h_child,
                memo,
                row: usize::from(step.row),
                moves,
            });
        }
        if !H::CONSISTENT {
            // Pathmax both ways, as in `visit_bpmx`: the best child may cut
            // the node; the node raises weaker children.
            let f_node = self.rule.key(item.g, h, unit);
            if f_node > self.bound {
                self.prune(f_node);
                deeper.truncate(first);
                return;
            }
            for child in &mut deeper[first..] {
                child.h = child.h.max(h.saturating_sub(unit));
            }
            deeper[first..].sort_by_key(|child| child.h);
        }
        let mut kept = first;
        for i in first..deeper.len() {
            let f = self.rule.key(deeper[i].g, deeper[i].h, unit);
            if f > self.bound {
                self.prune(f);
            } else {
                deeper.swap(kept, i);
                kept += 1;
            }
        }
        deeper.truncate(kept);
    }

    /// Searches below `board` (its moves at `row` of [`Geometry::steps`], at
    /// depth `g` with estimate `h` and the heuristic's `memo`, already within
    /// the bound). On success the path is pushed in reverse while the
    /// recursion unwinds.
    fn visit(&mut self, board: B, blank: usize, g: u32, h: u32, memo: &H::Memo, row: usize) -> Flow {
        match self.enter::<false>(board, g, h) {
            None => {}
            Some(Flow::Deep) => return self.visit_deep(board, blank, g, h, memo, row),
            Some(flow) => return flow,
        }
        let depth = g + 1;
        for step in self.geometry.steps(row) {
            if step.is_end() {
                break;
            }
            let from = usize::from(step.from);
            self.stats.nodes_generated += 1;
            let tile = board.tile(from);
            let child = board.slide(blank, from);
            let (h_child, memo_child) = self.h.update_memo(&child, h, memo, tile, from, blank);
            let f = self.rule.key(depth, h_child, H::UNIT);
            if f > self.bound {
                self.prune(f);
                continue;
            }
            match self.visit(child, from, depth, h_child, &memo_child, usize::from(step.row)) {
                Flow::Next | Flow::Deep => {}
                Flow::Found => {
                    self.path.push(step.mv);
                    return Flow::Found;
                }
                Flow::Stop => return Flow::Stop,
            }
        }
        Flow::Next
    }

    /// What happens to a node reached within the bound before its children
    /// are generated: `Some` ends its visit (the goal, the depth limit, a
    /// stop) or, unless `DEEP` (the node is already on a heap stack), hands
    /// a node [`RECURSION_DEPTH`] deep to [`Search::visit_deep`]; `None`
    /// counts it as expanded.
    #[inline(always)]
    #[expect(clippy::inline_always, reason = "part of the recursion's hot path")]
    fn enter<const DEEP: bool>(&mut self, board: B, g: u32, h: u32) -> Option<Flow> {
        // A computed estimate is 0 at the goal, so the register test spares
        // most nodes the board comparison. Tables (the inconsistent pattern
        // databases) are data, and a forged file could hold anything: there
        // the board itself is compared, so a wrong table costs time, never
        // termination.
        if (h == 0 || !H::CONSISTENT) && board == self.target {
            return Some(Flow::Found);
        }
        // One comparison on the hot path: the recursion's limit is never
        // above the depth limit.
        if g >= if DEEP { self.max_depth } else { self.deep_from } {
            if g < self.max_depth {
                return Some(Flow::Deep);
            }
            self.cut_at_depth = true;
            return Some(Flow::Next);
        }
        if self.budget.due(self.stats.nodes_expanded)
            && let Some(flow) = self.checkpoint()
        {
            return Some(flow);
        }
        self.stats.nodes_expanded += 1;
        self.stats.max_depth = self.stats.max_depth.max(g + 1);
        None
    }

    /// The periodic check: limits, and in a parallel pass whether another
    /// thread has ended it. There each thread takes the expansions it may
    /// make until its next check from a shared stock, so the threads
    /// together stop exactly at the expansion limit.
    #[cold]
    #[inline(never)]
    fn checkpoint(&mut self) -> Option<Flow> {
        let local = self.stats.nodes_expanded;
        let limit = match self.shared {
            None => self.budget.check_at(local),
            Some(shared) => {
                if shared.halt.load(Ordering::Relaxed) {
                    return Some(Flow::Stop);
                }
                let delta = local - self.reported;
                self.reported = local;
                let total = shared.expanded.fetch_add(delta, Ordering::Relaxed) + delta;
                let chunk = |left: u64| left.min(Budget::TICKS_PER_CHECK);
                let granted = shared
                    .left
                    .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| {
                        (left > 0).then(|| left - chunk(left))
                    })
                    .ok()
                    .map(chunk);
                self.budget.check_granted(local, total, granted)
            }
        };
        self.stop = limit;
        limit.map(|_| Flow::Stop)
    }

    /// Records a node left out of this pass for its `f`.
    #[inline]
    fn prune(&mut self, f: u64) {
        if f > self.depth_cap {
            self.cut_at_depth = true;
        } else if f < self.next_bound {
            self.next_bound = f;
        }
    }

    /// [`Search::visit`] for inconsistent heuristics, with bidirectional
    /// pathmax (Felner et al., "Inconsistent heuristics in theory and
    /// practice", 2011): a move costs one, so no node is further from the
    /// goal than a neighbour minus one move. All children are estimated
    /// before any is searched; the best of them, less a move, may raise the
    /// node's own estimate past the bound and cut the node at once; its
    /// estimate, less a move, raises weaker children's; and what a searched
    /// child learnt comes back up the same way and may cut the remaining
    /// siblings. Every raised value is still a lower bound, so paths stay
    /// optimal. On `Next`, `self.revised` holds the node's final estimate.
    fn visit_bpmx(&mut self, board: B, blank: usize, g: u32, h: u32, memo: &H::Memo, row: usize) -> Flow {
        self.revised = h;
        match self.enter::<false>(board, g, h) {
            None => {}
            // Deep down, the subtree goes without pathmax: still admissible.
            Some(Flow::Deep) => return self.visit_deep(board, blank, g, h, memo, row),
            Some(flow) => return flow,
        }
        let depth = g + 1;
        let unit = H::UNIT;
        let h_parent = h;
        let mut h = h;
        let mut slides = [Slide { board, tile: 0, from: 0 }; 4];
        let mut steps = [self.geometry.steps(row)[0]; 4];
        let mut count = 0;
        for &step in self.geometry.steps(row) {
            if step.is_end() {
                break;
            }
            let from = usize::from(step.from);
            slides[count] = Slide { board: board.slide(blank, from), tile: board.tile(from), from };
            steps[count] = step;
            count += 1;
        }
        self.stats.nodes_generated += count as u64;
        let mut estimates = [0u32; 4];
        let mut memos = [H::Memo::default(); 4];
        self.h.update_memos(h_parent, memo, blank, &slides[..count], &mut estimates, &mut memos);
        for &h_child in &estimates[..count] {
            h = h.max(h_child.saturating_sub(unit));
        }
        // Most promising first (a stable sort keeps the successor order
        // among equals): the last pass ends sooner when the goal is found early.
        let order = by_estimate(&estimates, count);
        for &i in &order[..count] {
            let (child, h_child, step) = (slides[i].board, estimates[i], steps[i]);
            let f_node = self.rule.key(g, h, unit);
            if f_node > self.bound {
                // The node itself is out of bounds now: skip the rest.
                self.prune(f_node);
                break;
            }
            let h_child = h_child.max(h.saturating_sub(unit));
            let f = self.rule.key(depth, h_child, unit);
            if f > self.bound {
                self.prune(f);
                continue;
            }
            match self.visit_bpmx(
                child,
                usize::from(step.from),
                depth,
                h_child,
                &memos[i],
                usize::from(step.row),
            ) {
                Flow::Next | Flow::Deep => h = h.max(self.revised.saturating_sub(unit)),
                Flow::Found => {
                    self.path.push(step.mv);
                    return Flow::Found;
                }
                Flow::Stop => return Flow::Stop,
            }
        }
        self.revised = h;
        Flow::Next
    }

    /// [`Search::visit`] of the subtree below a node [`RECURSION_DEPTH`]
    /// deep, with the path kept on the heap: the same nodes in the same
    /// order, the same counts, limits and bounds. Inconsistent heuristics
    /// get no pathmax here, which only costs nodes: every estimate is still
    /// admissible. On `Found`, the moves below the node are pushed onto the
    /// path, deepest first, as the recursion would have.
    #[cold]
    #[inline(never)]
    fn visit_deep(&mut self, board: B, blank: usize, g: u32, h: u32, memo: &H::Memo, row: usize) -> Flow {
        if let Some(flow) = self.enter::<true>(board, g, h) {
            return flow;
        }
        let mut stack = vec![Frame { board, blank, g, h, memo: *memo, row, next: 0, mv: Move::Up }];
        while let Some(top) = stack.last_mut() {
            let Some(&step) = self.geometry.steps(top.row).get(top.next).filter(|step| !step.is_end()) else {
                stack.pop();
                continue;
            };
            top.next += 1;
            let (board, blank, depth) = (top.board, top.blank, top.g + 1);
            let from = usize::from(step.from);
            self.stats.nodes_generated += 1;
            let tile = board.tile(from);
            let child = board.slide(blank, from);
            let (h_child, memo_child) = self.h.update_memo(&child, top.h, &top.memo, tile, from, blank);
            let f = self.rule.key(depth, h_child, H::UNIT);
            if f > self.bound {
                self.prune(f);
                continue;
            }
            match self.enter::<true>(child, depth, h_child) {
                None => stack.push(Frame {
                    board: child,
                    blank: from,
                    g: depth,
                    h: h_child,
                    memo: memo_child,
                    row: usize::from(step.row),
                    next: 0,
                    mv: step.mv,
                }),
                Some(Flow::Found) => {
                    self.path.push(step.mv);
                    // The node's own move is the caller's to push.
                    self.path.extend(stack.iter().skip(1).rev().map(|frame| frame.mv));
                    return Flow::Found;
                }
                Some(Flow::Stop) => return Flow::Stop,
                Some(Flow::Next | Flow::Deep) => {}
            }
        }
        Flow::Next
    }
}

/// A node on [`Search::visit_deep`]'s stack: where it stands, the next of
/// its steps to try, and the move that reached it.
struct Frame<B, M> {
    board: B,
    blank: usize,
    g: u32,
    h: u32,
    memo: M,
    row: usize,
    next: usize,
    mv: Move,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{GoalSpec, Packed, Packed128, Scramble, Shape, SplitMix64, generate};
    use crate::heuristic::pdb::{PatternDatabase, Pdb, TableKind};
    use crate::heuristic::{LinearConflict, Manhattan};

    /// Small 15-puzzle tables of `kind` (4-4-3-4), quick to build.
    fn small_tables(goal: &Goal, kind: TableKind) -> Pdb {
        let patterns: [&[u8]; 4] = [&[1, 2, 3, 4], &[5, 6, 7, 8], &[9, 10, 11], &[12, 13, 14, 15]];
        let dbs = patterns.iter().map(|t| PatternDatabase::build(goal, t, kind, &mut |_| {}).unwrap());
        Pdb::from_databases(goal, dbs.collect()).unwrap()
    }

    /// A pass searches first the subtrees that came nearest the goal in the
    /// pass before; a subtree that pass did not search comes by its own
    /// estimate; equals keep the depth-first order.
    #[test]
    fn the_subtrees_that_came_nearest_the_goal_come_first() {
        let goal = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
        let mut rng = SplitMix64::new(5);
        let item = |h: u32, rng: &mut SplitMix64| {
            let board = Packed::from_tiles(generate(&goal, Scramble::Uniform, true, rng).cells());
            Item { board, blank: board.blank(), g: 3, h, memo: (), row: 0, moves: Moves::default() }
        };
        let before: Vec<Item<Packed, ()>> = [9, 8, 7, 6].iter().map(|&h| item(h, &mut rng)).collect();
        let last = Nearest::new(&before, &[2, 5, 2, 0]);
        assert_eq!(last.depth, 3);
        let mut now: Vec<Item<Packed, ()>> =
            before.iter().map(|i| Item { moves: Moves::default(), ..*i }).collect();
        now.insert(1, item(4, &mut rng));
        now.push(item(1, &mut rng));
        let boards: Vec<Packed> = now.iter().map(|i| i.board).collect();
        let geometry = Geometry::plain(goal.shape());
        last.order(&mut now, geometry);
        let order: Vec<usize> =
            now.iter().map(|i| boards.iter().position(|&b| b == i.board).unwrap()).collect();
        // Keys: 2, 4 (unseen), 5, 2, 0, 1 (unseen).
        assert_eq!(order, [4, 5, 0, 3, 1, 2]);
        // A split deeper than the pass before's: each subtree's root takes
        // the key of its ancestor at that depth.
        let mut deeper: Vec<Item<Packed, ()>> = before
            .iter()
            .map(|i| {
                let (mv, to) = geometry.moves(i.blank).next().unwrap();
                let board = i.board.slide(i.blank, to);
                Item {
                    board,
                    blank: to,
                    g: 4,
                    h: 0,
                    memo: (),
                    row: 0,
                    moves: Moves::default().then(Move::Up).then(mv),
                }
            })
            .collect();
        let parents: Vec<Packed> = deeper.iter().map(|i| i.board).collect();
        last.order(&mut deeper, geometry);
        let order: Vec<usize> =
            deeper.iter().map(|i| parents.iter().position(|&b| b == i.board).unwrap()).collect();
        // Keys: 2, 5, 2, 0.
        assert_eq!(order, [3, 0, 2, 1]);
    }

    /// Of the roots of a split that share a board, the one reached by the
    /// moves first in successor order stays, with the largest estimate any
    /// of them had; a board of a level above leaves none.
    #[test]
    fn a_split_keeps_one_root_per_board_the_smallest_path_to_it() {
        use Move::{Down, Left, Right, Up};
        let goal = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
        let mut rng = SplitMix64::new(8);
        let boards: Vec<Packed> = (0..3)
            .map(|_| Packed::from_tiles(generate(&goal, Scramble::Uniform, true, &mut rng).cells()))
            .collect();
        let item = |b: usize, h: u32, moves: &[Move]| Item {
            board: boards[b],
            blank: boards[b].blank(),
            g: 2,
            h,
            memo: (),
            row: 0,
            moves: moves.iter().fold(Moves::default(), |path, &mv| path.then(mv)),
        };
        let mut level = vec![
            item(0, 7, &[Right, Down]),
            item(1, 3, &[Up, Left]),
            item(0, 5, &[Down, Right]),
            item(2, 4, &[Left, Up]),
            item(0, 6, &[Left, Down]),
        ];
        let mut above = FxHashSet::from_iter([boards[2]]);
        drop_duplicates(&mut level, &mut above);
        let kept: Vec<(Packed, u32, Vec<Move>)> =
            level.iter().map(|i| (i.board, i.h, i.moves.as_slice().to_vec())).collect();
        assert_eq!(kept, [(boards[1], 3, vec![Up, Left]), (boards[0], 7, vec![Down, Right])]);
        assert!(above.contains(&boards[0]) && above.contains(&boards[1]));
    }

    /// Small levels are scanned and large ones mapped: on the same roots
    /// both keep the same ones, in the same order, with the same
    /// estimates, and leave the same boards above.
    #[test]
    fn duplicates_are_dropped_alike_by_scanning_and_by_a_map() {
        let goal = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
        let mut rng = SplitMix64::new(12);
        for round in 0..200 {
            let pool: Vec<Packed> = (0..=rng.below(12))
                .map(|_| Packed::from_tiles(generate(&goal, Scramble::Uniform, true, &mut rng).cells()))
                .collect();
            let mut level: Vec<Item<Packed, ()>> = (0..=rng.below(SMALL_LEVEL))
                .map(|_| {
                    let board = pool[rng.below(pool.len())];
                    let moves = (0..3).fold(Moves::default(), |path, _| path.then(Move::ALL[rng.below(4)]));
                    Item {
                        board,
                        blank: board.blank(),
                        g: 3,
                        h: rng.below(20) as u32,
                        memo: (),
                        row: 0,
                        moves,
                    }
                })
                .collect();
            let mut above: FxHashSet<Packed> = pool.iter().copied().filter(|_| rng.below(4) == 0).collect();
            let (mut mapped, mut above_mapped) = (level.clone(), above.clone());
            drop_duplicates_by_scan(&mut level, &mut above);
            drop_duplicates_by_map(&mut mapped, &mut above_mapped);
            let roots = |level: &[Item<Packed, ()>]| -> Vec<(Packed, u32, Vec<Move>)> {
                level.iter().map(|i| (i.board, i.h, i.moves.as_slice().to_vec())).collect()
            };
            assert_eq!(roots(&level), roots(&mapped), "round {round}");
            assert_eq!(above, above_mapped, "round {round}");
        }
    }

    /// Splitting each pass deep, its duplicate subtrees dropped, finds
    /// paths as short as the recursion on one thread and on several, and
    /// on some boards searches fewer nodes than a shallow split.
    #[test]
    fn a_deep_split_without_duplicates_keeps_paths_optimal() {
        let goal = Goal::new(&GoalSpec::BlankFirst, 4).unwrap();
        let pdb = small_tables(&goal, TableKind::ZeroAwareBits);
        let mut rng = SplitMix64::new(41);
        let recursion = Tuning { walk: false, ..Tuning::DEFAULT };
        let shallow = Tuning { nodes_per_item: u64::MAX, ..Tuning::DEFAULT };
        let deep = Tuning { nodes_per_item: 50, ..Tuning::DEFAULT };
        let mut fewer = 0;
        for _ in 0..6 {
            let start = Packed::from_tiles(generate(&goal, Scramble::Walk(120), true, &mut rng).cells());
            let optimum = run(&start, &goal, &pdb, Plain, &Limits::default(), recursion);
            for threads in [1, 2] {
                let limits = Limits { threads, split_after: Some(0), ..Limits::default() };
                let split = run(&start, &goal, &pdb, Plain, &limits, deep);
                assert_eq!(split.cost(), optimum.cost(), "on {threads} threads");
                assert_eq!(split.lower_bound, optimum.lower_bound);
                let tiles = start.to_tiles(16);
                let states = crate::board::replay(&tiles, 4, split.path.as_deref().unwrap()).unwrap();
                assert_eq!(states.last().unwrap(), goal.tiles().cells());
                if threads == 1 {
                    let plain = run(&start, &goal, &pdb, Plain, &limits, shallow);
                    fewer += usize::from(split.stats.nodes_expanded < plain.stats.nodes_expanded);
                }
            }
        }
        assert!(fewer > 0, "no board searched fewer nodes split deep");
    }

    /// The heap stack takes over from the recursion without changing a
    /// thing: the same path and the same figures, whatever the depth it
    /// takes over at, on one thread and on several, plain and weighted.
    #[test]
    fn the_search_below_the_recursion_depth_is_the_same_search() {
        let mut rng = SplitMix64::new(3);
        for (width, walk) in [(3, 60), (4, 80)] {
            let goal = Goal::new(&GoalSpec::BlankFirst, width).unwrap();
            let lc = LinearConflict::new(&goal);
            for _ in 0..4 {
                let start = Packed::from_tiles(generate(&goal, Scramble::Walk(walk), true, &mut rng).cells());
                for threads in [1, 2] {
                    let limits = Limits { threads, split_after: Some(0), ..Limits::default() };
                    for weight in [Weight::ONE, Weight::ratio(3, 2), Weight::ratio(5, 1)] {
                        let rule = Weighted { p: weight.numerator(), q: weight.denominator() };
                        let deep = run(&start, &goal, &lc, rule, &limits, Tuning::DEFAULT);
                        for recursion in [0, 1, 3, 7] {
                            let tuning = Tuning { recursion_depth: recursion, ..Tuning::DEFAULT };
                            let shallow = run(&start, &goal, &lc, rule, &limits, tuning);
                            let case = format!("{width}x{width} W={weight} from {recursion} on {threads}");
                            if threads > 1 {
                                // Which thread finds the goal first, and how far
                                // the others got, varies from run to run: the
                                // answer keeps its promise all the same.
                                let optimum = idastar(&start, &goal, &lc, &Limits::default()).cost();
                                let (cost, optimum) = (shallow.cost().unwrap(), optimum.unwrap());
                                assert!(
                                    cost as u64 * weight.denominator() <= optimum as u64 * weight.numerator()
                                );
                                continue;
                            }
                            assert_eq!(shallow.path, deep.path, "{case}");
                            let (a, b) = (shallow.stats, deep.stats);
                            assert_eq!(
                                (a.nodes_expanded, a.nodes_generated),
                                (b.nodes_expanded, b.nodes_generated)
                            );
                            assert_eq!(a.max_depth, b.max_depth);
                        }
                    }
                }
            }
        }
    }

    /// Walking several subtrees at a time finds paths as short as the
    /// recursion's, on one thread and on several, with zero-aware and
    /// blank-minimised tables, and every path reaches the goal.
    #[test]
    fn walkers_find_paths_as_short_as_the_recursion() {
        let goal = Goal::new(&GoalSpec::BlankFirst, 4).unwrap();
        let mut rng = SplitMix64::new(17);
        let starts: Vec<Packed> = (0..6)
            .map(|_| Packed::from_tiles(generate(&goal, Scramble::Walk(90), true, &mut rng).cells()))
            .collect();
        for kind in [TableKind::ZeroAwareBits, TableKind::Minimised] {
            let pdb = small_tables(&goal, kind);
            for start in &starts {
                let recursion = Tuning { walk: false, ..Tuning::DEFAULT };
                let optimum = run(start, &goal, &pdb, Plain, &Limits::default(), recursion);
                // Every pass split into many subtrees, or into few.
                for walk_after in [0, u64::MAX] {
                    let walking = Tuning { walk_after, ..Tuning::DEFAULT };
                    for threads in [1, 2] {
                        let limits = Limits { threads, split_after: Some(0), ..Limits::default() };
                        let walked = run(start, &goal, &pdb, Plain, &limits, walking);
                        assert_eq!(walked.cost(), optimum.cost(), "{kind:?} on {threads} threads");
                        assert_eq!(walked.lower_bound, optimum.lower_bound);
                        let tiles = start.to_tiles(16);
                        let states =
                            crate::board::replay(&tiles, 4, walked.path.as_deref().unwrap()).unwrap();
                        assert_eq!(states.last().unwrap(), goal.tiles().cells());
                    }
                }
            }
        }
    }

    /// A search taken up from any of its saved progress searches no
    /// finished subtree again: from progress saved before the last pass it
    /// is the same search, node for node; in the last pass, and on two
    /// threads, it finds a path as short. Saving changes nothing.
    #[test]
    fn a_search_taken_up_from_its_saved_progress_is_the_same_search() {
        use super::progress::{Progress, SaveProgress};
        use std::sync::Mutex;
        let goal = Goal::new(&GoalSpec::BlankFirst, 4).unwrap();
        let pdb = small_tables(&goal, TableKind::ZeroAwareBits);
        let tuning = Tuning { save_after: 0, ..Tuning::DEFAULT };
        let mut rng = SplitMix64::new(29);
        for _ in 0..3 {
            let start = Packed::from_tiles(generate(&goal, Scramble::Walk(120), true, &mut rng).cells());
            let uninterrupted = run(&start, &goal, &pdb, Plain, &Limits::default(), tuning);
            let saves: Arc<Mutex<Vec<Progress>>> = Arc::default();
            let kept = Arc::clone(&saves);
            let out = SaveProgress::new(None, Duration::ZERO, move |p| kept.lock().unwrap().push(p.clone()));
            let limits = Limits { progress: Some(Arc::new(out)), ..Limits::default() };
            let saved = run(&start, &goal, &pdb, Plain, &limits, tuning);
            assert_eq!(saved.path, uninterrupted.path);
            assert_eq!(saved.stats.nodes_expanded, uninterrupted.stats.nodes_expanded);
            let saves = saves.lock().unwrap().clone();
            let last_bound = saves.iter().map(|p| p.bound).max().expect("every pass is saved");
            assert!(saves.iter().any(|p| !p.done.is_empty()), "saved within a pass");
            // Some hundreds of saves a board: every tenth, and all of the last pass.
            let some = saves.iter().enumerate().filter(|&(i, p)| i % 10 == 0 || p.bound == last_bound);
            for (i, save) in some {
                for threads in [1, 2] {
                    // Taken up from the text, as from a file.
                    let text = save.to_text("key");
                    let progress = Progress::from_text(&text, "key", 16).unwrap();
                    let out = SaveProgress::new(Some(progress), Duration::MAX, |_| {});
                    let limits = Limits {
                        threads,
                        split_after: Some(0),
                        progress: Some(Arc::new(out)),
                        ..Limits::default()
                    };
                    let resumed = run(&start, &goal, &pdb, Plain, &limits, tuning);
                    assert_eq!(resumed.cost(), uninterrupted.cost(), "save {i} on {threads}");
                    let states =
                        crate::board::replay(&start.to_tiles(16), 4, resumed.path.as_deref().unwrap());
                    assert_eq!(states.unwrap().last().unwrap(), goal.tiles().cells());
                    if threads == 1 && save.bound < last_bound {
                        let (a, b) = (resumed.stats, uninterrupted.stats);
                        assert_eq!(
                            (a.nodes_expanded, a.nodes_generated),
                            (b.nodes_expanded, b.nodes_generated)
                        );
                        assert_eq!(resumed.path, uninterrupted.path, "save {i}");
                    }
                }
            }
        }
    }

    /// A search stopped by Ctrl-C saves where it stands, however long ago
    /// its last save was; taken up from there, it finds a path as short.
    #[test]
    fn a_search_stopped_by_ctrl_c_saves_where_it_stands() {
        use super::progress::{Progress, SaveProgress};
        use crate::search::Monitor;
        use std::sync::Mutex;
        use std::sync::atomic::AtomicBool;
        let goal = Goal::new(&GoalSpec::BlankFirst, 4).unwrap();
        let pdb = LinearConflict::new(&goal);
        let tuning = Tuning { save_after: 0, ..Tuning::DEFAULT };
        let mut rng = SplitMix64::new(32);
        let start = Packed::from_tiles(generate(&goal, Scramble::Uniform, true, &mut rng).cells());
        let uninterrupted = run(&start, &goal, &pdb, Plain, &Limits::default(), tuning);
        let total = uninterrupted.stats.nodes_expanded;
        assert!(total > 10_000_000, "a search long enough to stop midway: {total}");
        let saves: Arc<Mutex<Vec<Progress>>> = Arc::default();
        let kept = Arc::clone(&saves);
        // No save falls due while it runs.
        let out = SaveProgress::new(None, Duration::MAX, move |p| kept.lock().unwrap().push(p.clone()));
        let (cancel, monitor) = (Arc::new(AtomicBool::new(false)), Arc::new(Monitor::default()));
        let limits = Limits {
            progress: Some(Arc::new(out)),
            cancel: Some(Arc::clone(&cancel)),
            monitor: Some(Arc::clone(&monitor)),
            ..Limits::default()
        };
        let ended = AtomicBool::new(false);
        let stopped = std::thread::scope(|scope| {
            scope.spawn(|| {
                while monitor.snapshot().expanded < total / 3 && !ended.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_micros(100));
                }
                cancel.store(true, Ordering::Relaxed);
            });
            let stopped = run(&start, &goal, &pdb, Plain, &limits, tuning);
            ended.store(true, Ordering::Relaxed);
            stopped
        });
        assert_eq!(stopped.status, Status::Limit(LimitKind::Interrupted));
        let saves = saves.lock().unwrap().clone();
        assert_eq!(saves.len(), 1, "one save, at the stop");
        let save = &saves[0];
        assert!(save.expanded > 0 && save.expanded <= stopped.stats.nodes_expanded);
        let out = SaveProgress::new(Some(save.clone()), Duration::MAX, |_| {});
        let limits = Limits { progress: Some(Arc::new(out)), ..Limits::default() };
        let resumed = run(&start, &goal, &pdb, Plain, &limits, tuning);
        assert_eq!(resumed.cost(), uninterrupted.cost());
        assert!(resumed.stats.nodes_expanded >= save.expanded);
    }

    /// IDA* shares each bound it has proven: at the end of a search the
    /// shared floor is the optimal cost, never above it at any time, and a
    /// higher floor set elsewhere is kept.
    #[test]
    fn idastar_raises_a_shared_floor_to_the_optimum() {
        use std::sync::Arc;
        use std::sync::atomic::AtomicU32;
        let goal = Goal::new(&GoalSpec::BlankFirst, 4).unwrap();
        let lc = LinearConflict::new(&goal);
        let mut rng = SplitMix64::new(23);
        for _ in 0..4 {
            let start = Packed::from_tiles(generate(&goal, Scramble::Walk(60), true, &mut rng).cells());
            let floor = Arc::new(AtomicU32::new(0));
            let limits = Limits { floor: Some(Arc::clone(&floor)), ..Limits::default() };
            let cost = idastar(&start, &goal, &lc, &limits).cost().unwrap() as u32;
            assert_eq!(floor.load(Ordering::Relaxed), cost);
            let high = Arc::new(AtomicU32::new(cost + 10));
            idastar(&start, &goal, &lc, &Limits { floor: Some(Arc::clone(&high)), ..Limits::default() });
            assert_eq!(high.load(Ordering::Relaxed), cost + 10);
        }
    }

    /// A thread lent by a search beside this one joins whatever pass it
    /// comes in, and one never lent holds nothing up: the worker waiting
    /// for it leaves when the pass runs out of work. The paths stay
    /// shortest either way, with walkers (tables) and with recursion.
    #[test]
    fn a_spare_thread_joins_when_lent_and_holds_nothing_up_when_not() {
        use std::sync::Arc;
        use std::time::Duration;
        let goal = Goal::new(&GoalSpec::BlankFirst, 4).unwrap();
        let lc = LinearConflict::new(&goal);
        let pdb = small_tables(&goal, TableKind::ZeroAwareBits);
        let mut rng = SplitMix64::new(31);
        for _ in 0..4 {
            let start = Packed::from_tiles(generate(&goal, Scramble::Walk(70), true, &mut rng).cells());
            let shortest = idastar(&start, &goal, &lc, &Limits::default()).cost().unwrap();
            // Every pass split, so that each waits for the spare or takes it.
            let with = |spare: &Arc<AtomicBool>, threads: usize| Limits {
                spare: Some(Arc::clone(spare)),
                split_after: Some(0),
                threads,
                ..Limits::default()
            };
            for threads in [1, 2] {
                let never = Arc::new(AtomicBool::new(false));
                assert_eq!(idastar(&start, &goal, &lc, &with(&never, threads)).cost(), Some(shortest));
                assert_eq!(idastar(&start, &goal, &pdb, &with(&never, threads)).cost(), Some(shortest));
                let at_once = Arc::new(AtomicBool::new(true));
                assert_eq!(idastar(&start, &goal, &pdb, &with(&at_once, threads)).cost(), Some(shortest));
                // Lent while the search runs, in whichever pass that is.
                let later = Arc::new(AtomicBool::new(false));
                let outcome = std::thread::scope(|scope| {
                    let lend = Arc::clone(&later);
                    scope.spawn(move || {
                        std::thread::sleep(Duration::from_millis(2));
                        lend.store(true, Ordering::Relaxed);
                    });
                    idastar(&start, &goal, &pdb, &with(&later, threads))
                });
                assert_eq!(outcome.cost(), Some(shortest));
                let states = crate::board::replay(&start.to_tiles(16), 4, outcome.path.as_deref().unwrap());
                assert_eq!(states.unwrap().last().unwrap(), goal.tiles().cells());
            }
        }
    }

    /// With a heuristic that is not known to be consistent the recursion
    /// uses pathmax and the heap stack does without, so it may search more
    /// nodes, but the path stays optimal.
    #[test]
    fn an_inconsistent_heuristic_below_the_recursion_depth_still_gives_optimal_paths() {
        struct Halved<'a>(&'a Manhattan);
        impl Heuristic<Packed128> for Halved<'_> {
            const CONSISTENT: bool = false;
            type Memo = ();
            type Pending = ();
            fn estimate(&self, board: &Packed128) -> u32 {
                Heuristic::<Packed128>::estimate(self.0, board).div_ceil(2)
            }
        }
        let goal = Goal::new(&GoalSpec::BlankFirst, Shape::new(5, 3)).unwrap();
        let manhattan = Manhattan::new(&goal);
        let mut rng = SplitMix64::new(8);
        for _ in 0..6 {
            let start = Packed128::from_tiles(generate(&goal, Scramble::Walk(26), true, &mut rng).cells());
            let limits = Limits::default();
            let recursed = run(&start, &goal, &manhattan, Plain, &limits, Tuning::DEFAULT);
            let tuning = Tuning { recursion_depth: 2, ..Tuning::DEFAULT };
            let deep = run(&start, &goal, &Halved(&manhattan), Plain, &limits, tuning);
            assert_eq!(deep.cost(), recursed.cost());
        }
    }

    /// A fringe search keeps its frontier while it fits its room; past it,
    /// and once its passes are split between threads, it goes on as IDA*
    /// from the start: the same shortest cost every time, each path
    /// replayed to the goal, never more frontier held than there is room
    /// for, and more expansions than with all the room it needs.
    #[test]
    fn a_fringe_search_goes_on_as_idastar_once_its_frontier_outgrows_its_room_or_its_passes_are_shared() {
        let goal = Goal::new(&GoalSpec::BlankFirst, 4).unwrap();
        let manhattan = Manhattan::new(&goal);
        let mut rng = SplitMix64::new(12);
        let node = std::mem::size_of::<walkers::Node<Packed, ()>>();
        let room = 300;
        let tight = Tuning { frontier_bytes: room * node, ..Tuning::FRINGE };
        for _ in 0..4 {
            let tiles = generate(&goal, Scramble::Walk(60), true, &mut rng);
            let start = Packed::from_tiles(tiles.cells());
            let one = Limits::default();
            let shared = Limits { threads: 2, split_after: Some(1000), ..Limits::default() };
            let ida = run(&start, &goal, &manhattan, Plain, &one, Tuning::DEFAULT);
            let roomy = run(&start, &goal, &manhattan, Plain, &one, Tuning::FRINGE);
            let cramped = run(&start, &goal, &manhattan, Plain, &one, tight);
            let parallel = run(&start, &goal, &manhattan, Plain, &shared, Tuning::FRINGE);
            for outcome in [&roomy, &cramped, &parallel] {
                assert_eq!(outcome.cost(), ida.cost(), "{tiles:?}");
                let states =
                    crate::board::replay(tiles.cells(), 4, outcome.path.as_deref().unwrap()).unwrap();
                assert_eq!(states.last().unwrap(), goal.tiles().cells());
            }
            assert!(roomy.stats.max_frontier > room as u64, "{tiles:?}: {}", roomy.stats.max_frontier);
            assert!(cramped.stats.max_frontier <= room as u64, "{tiles:?}");
            assert!(cramped.stats.nodes_expanded > roomy.stats.nodes_expanded, "{tiles:?}");
        }
    }

    /// Past a long pass the search continues with the longer move rules:
    /// the same costs, never more nodes, and fewer over a handful of
    /// 24-puzzles; unless the deadline is too near for their build.
    #[test]
    fn longer_move_rules_after_a_long_pass_keep_the_answer_and_prune_more() {
        let goal = Goal::new(&GoalSpec::BlankFirst, 5).unwrap();
        let lc = LinearConflict::new(&goal);
        let mut rng = SplitMix64::new(11);
        let at_once = Tuning { longer_rules_after: 0, ..Tuning::DEFAULT };
        let (mut short, mut long) = (0, 0);
        for _ in 0..4 {
            let start = Packed128::from_tiles(generate(&goal, Scramble::Walk(60), true, &mut rng).cells());
            for weight in [Weight::ONE, Weight::ratio(3, 2)] {
                let rule = Weighted { p: weight.numerator(), q: weight.denominator() };
                let plain = run(&start, &goal, &lc, rule, &Limits::default(), Tuning::DEFAULT);
                let longer = run(&start, &goal, &lc, rule, &Limits::default(), at_once);
                assert_eq!(longer.cost(), plain.cost(), "W={weight}");
                assert!(longer.stats.nodes_expanded <= plain.stats.nodes_expanded, "W={weight}");
                let tiles = start.to_tiles(25);
                let states = crate::board::replay(&tiles, 5, longer.path.as_deref().unwrap()).unwrap();
                assert_eq!(states.last().unwrap(), goal.tiles().cells());
                (short, long) = (short + plain.stats.nodes_expanded, long + longer.stats.nodes_expanded);
                // Too near a deadline the table stays.
                let near = Limits { timeout: Some(Duration::from_secs(4)), ..Limits::default() };
                let kept = run(&start, &goal, &lc, rule, &near, at_once);
                assert_eq!(kept.stats.nodes_expanded, plain.stats.nodes_expanded, "W={weight}");
            }
        }
        assert!(long < short, "{long} against {short}");
    }

    /// A deadline set by the caller's clock (before the search set up its
    /// tables) stops the search at its first check, one period in.
    #[test]
    fn a_deadline_that_has_passed_stops_the_search_at_once() {
        let goal = Goal::new(&GoalSpec::BlankFirst, 8).unwrap();
        let start = generate(&goal, Scramble::Uniform, true, &mut SplitMix64::new(5));
        let start = crate::board::Wide::<64>::from_tiles(start.cells());
        let limits = Limits { deadline: Some(std::time::Instant::now()), ..Limits::default() };
        let outcome = idastar(&start, &goal, &LinearConflict::new(&goal), &limits);
        assert!(matches!(outcome.status, Status::Limit(LimitKind::Time(_))), "{:?}", outcome.status);
        assert!(outcome.stats.nodes_expanded <= Budget::TICKS_PER_CHECK);
    }

    /// A weight so large that a pass runs a hundred thousand moves deep
    /// still returns a path to the goal, on a worker thread's small stack.
    #[test]
    fn a_huge_weight_runs_deep_without_exhausting_the_stack() {
        let goal = Goal::new(&GoalSpec::BlankFirst, 4).unwrap();
        let start = Packed::from_tiles(&[14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3]);
        let outcome = std::thread::Builder::new()
            .stack_size(256 << 10)
            .spawn(move || {
                let weight: Weight = "100000".parse().unwrap();
                weighted_idastar(&start, &goal, &Manhattan::new(&goal), weight, &Limits::default())
            })
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(outcome.status, Status::Solved);
        let path = outcome.path.unwrap();
        let end = crate::board::replay(&start.to_tiles(16), 4, &path).unwrap().pop().unwrap();
        assert_eq!(end, (0..16).collect::<Vec<u16>>());
    }
}
