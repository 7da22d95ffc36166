/*!
The engine: the loop A*, weighted A* and greedy search share, written once
over a rule, an open list, a closed set and a kind of entry, and what the
search proved when it stops. Textbook graph search: the goal tested on
removal from the open list, stale entries skipped, the path rebuilt from
the closed set's moves.
*/

use super::buckets::BucketQueue;
use super::closed::Closed;
use super::entry::{Bare, OpenEntry, WithMemo};
use super::open::{OpenList, Queue};
use super::rules::Rule;
use crate::board::{Board, Geometry, Goal, Move};
use crate::heuristic::{Heuristic, Slide};
use crate::search::table::TaggedSet;
use crate::search::{Budget, LimitKind, Limits, Outcome, Stats, Status, exhausted, rebuild_path};
use std::sync::Arc;

/// Worst-case bytes per stored state with a whole-number, consistent
/// heuristic (see [`bytes_per_state_with`]).
pub(crate) fn bytes_per_state<B: Board>() -> u64 {
    bytes_per_state_with::<B, BucketQueue<Bare<B::Tagged>>, TaggedSet<B>, _>()
}

/// Worst-case bytes per stored state: a closed record, or an open entry in a
/// vector that just doubled (plus slack for the per-priority bucket vectors).
pub(crate) fn bytes_per_state_with<B: Board, Q: OpenList<E>, C: Closed<B>, E>() -> u64 {
    C::BYTES_PER_STATE.max(2 * Q::ENTRY_BYTES + 8)
}

/// Best-first search from `start` to `goal` in the order of `rule`, with an
/// open list of kind `Q` and closed set `C` (see [`search`]); open boards
/// keep the heuristic's memo where it estimates them only cheaply from it.
pub(crate) fn run<B: Board, H: Heuristic<B>, R: Rule, Q: Queue, C: Closed<B>>(
    start: &B,
    goal: &Goal,
    h: &H,
    rule: R,
    limits: &Limits,
) -> Outcome {
    if std::mem::size_of::<H::Memo>() > 0 && h.estimates_from_parent() {
        type Memo<B, H> = WithMemo<<B as Board>::Tagged, <H as Heuristic<B>>::Memo>;
        search::<B, H, R, Memo<B, H>, Q::Of<Memo<B, H>>, C>(start, goal, h, rule, limits)
    } else {
        search::<B, H, R, Bare<B::Tagged>, Q::Of<Bare<B::Tagged>>, C>(start, goal, h, rule, limits)
    }
}

/// Closed boards past which the children's slots are fetched ahead
/// ([`TaggedSet::prefetch`]): below, the set sits in the cache and the
/// extra slides only cost (8-puzzle A*: 0.8 → 0.9 ms).
const PREFETCH_FROM: usize = 1 << 15;

/// Best-first search from `start` to `goal` in the order of `rule`, with
/// open list `Q` of entries `E` and closed set `C`: textbook graph search,
/// the goal tested on removal, nodes deeper than `limits.max_depth` not
/// expanded.
fn search<B: Board, H: Heuristic<B>, R: Rule, E: OpenEntry<B, H::Memo>, Q: OpenList<E>, C: Closed<B>>(
    start: &B,
    goal: &Goal,
    h: &H,
    rule: R,
    limits: &Limits,
) -> Outcome {
    let mut budget = Budget::start(limits, Some(bytes_per_state_with::<B, Q, C, E>()));
    let geometry = Geometry::plain(goal.shape());
    let target = B::from_tiles(goal.tiles().cells());
    let mut closed = C::new();
    let mut open: Q = open_list(rule, limits);
    let mut stats = Stats { max_frontier: 1, ..Stats::default() };
    let (h_start, memo) =
        if E::MEMO { h.estimate_memo(start) } else { (h.estimate(start), H::Memo::default()) };
    open.push(rule.key(0, h_start, H::UNIT), 0, h_start, E::new(start.tag(None), memo));
    let mut cut_at_depth = false;
    let mut peak_stored = 1;

    let status = 'search: loop {
        if budget.tick()
            && let Some(limit) = budget.check(stats.nodes_expanded, closed.len() + open.len())
        {
            break Status::Limit(limit);
        }
        let Some((_, g, h_board, popped)) = open.pop() else {
            // Boards left that the queue would not pick lie above the ceiling.
            break match limits.ceiling {
                Some(ceiling) if open.len() > 0 => Status::Limit(LimitKind::Cost(ceiling)),
                _ => exhausted(cut_at_depth, &budget),
            };
        };
        let entry = popped.tagged();
        // Past the cache, the entry after this one is closed next: its slot
        // loads while this node expands (the children's are fetched below).
        // It is the next entry unless a child sorts before it; then the
        // child's slot is fetched once the children are in.
        let prefetch = closed.len() > PREFETCH_FROM;
        let mut predicted: *const E = std::ptr::null();
        if prefetch && let Some(next) = open.upcoming() {
            closed.prefetch(closed.probe(&next.tagged()));
            predicted = next;
        }
        if !closed.close(entry, g) {
            continue; // stale: this board came out before, at least as cheaply
        }
        let (board, arrival) = B::untag(entry);
        // A computed estimate is 0 at the goal, which spares most boards
        // the comparison; a table (the pattern databases) is data, so there
        // the board itself is compared (see IDA*).
        if (h_board == 0 || !H::CONSISTENT) && board == target {
            break Status::Solved;
        }
        if g >= budget.max_depth() {
            cut_at_depth = true;
            continue;
        }
        if let Some(limit) = budget.spent(stats.nodes_expanded) {
            break Status::Limit(limit);
        }
        stats.nodes_expanded += 1;
        let blank = board.blank();
        let child_g = g + 1;
        let back = arrival.map(Move::inverse);
        // Each child's board and probe once, every probe's slot fetched
        // before the first lookup; the parent's entry stays empty.
        let mut children = [(None, B::VACANT, 0); 4];
        let mut count = 0;
        for (mv, from) in geometry.moves(blank) {
            if Some(mv) != back {
                let child = board.slide(blank, from).tag(Some(mv));
                let mut probe = 0;
                if R::DROPS_EXPANDED_CHILDREN {
                    probe = closed.probe(&child);
                    if prefetch {
                        closed.prefetch(probe);
                    }
                }
                children[count] = (Some(from), child, probe);
            }
            count += 1;
        }
        for &(from, child, probe) in &children[..count] {
            stats.nodes_generated += 1;
            let Some(from) = from else {
                continue; // the parent: expanded a moment ago, one move cheaper
            };
            if R::DROPS_EXPANDED_CHILDREN && closed.settled(&child, probe, child_g) {
                continue;
            }
            let stored = closed.len() + open.len();
            if budget.full(stored) {
                break 'search Status::Limit(budget.nodes_limit());
            }
            // Stale entries leave the open list without closing anything, so
            // the count can fall: the figure is its peak, not its last value.
            peak_stored = peak_stored.max(stored + 1);
            let slide = Slide { board: B::untag(child).0, tile: board.tile(from), from };
            let (h_child, memo) = estimate(h, &popped, h_board, &slide, blank);
            open.push(rule.key(child_g, h_child, H::UNIT), child_g, h_child, E::new(child, memo));
            stats.max_depth = stats.max_depth.max(child_g);
        }
        stats.max_frontier = stats.max_frontier.max(open.len() as u64);
        // (Only the address is compared: a vector that moved meanwhile at
        // worst costs this hint.)
        if prefetch
            && let Some(next) = open.upcoming()
            && !std::ptr::eq(next, predicted)
        {
            closed.prefetch(closed.probe(&next.tagged()));
        }
    };

    stats.stored = peak_stored.max(closed.len() + open.len()) as u64;
    let open_floor = open.floor();
    // The path is part of the answer, so its rebuilding is on the clock.
    let path = (status == Status::Solved)
        .then(|| rebuild_path(geometry, target, stats.max_depth, |b| closed.arrival(b)));
    // Putting the containers away is the search's cost too: on the clock.
    drop((closed, open));
    stats.runtime = budget.elapsed();
    // What the search proved of the cost: for A* (its priority is f), every
    // node it left open is one of a frontier that an optimal path crosses,
    // so none costs less than the smallest f among them; an optimal
    // solution is its own bound.
    let cost = path.as_ref().and_then(|p| u32::try_from(p.len()).ok());
    let lower_bound = proven_bound(rule, status, cost, open_floor, H::UNIT);
    Outcome { status, path, stats, lower_bound, improvements: Vec::new() }
}

/// An open list for `rule`, with the bounds `limits` hand the search.
fn open_list<E, Q: OpenList<E>, R: Rule>(rule: R, limits: &Limits) -> Q {
    let mut open = Q::new(rule);
    if let Some(floor) = &limits.floor {
        open.share_floor(Arc::clone(floor));
    }
    if let Some(ceiling) = limits.ceiling {
        open.set_ceiling(ceiling);
    }
    open
}

/// The estimate of `slide`'s board, a child of the entry `parent` (estimate
/// `h`, blank on `to`), and its memo where entries keep one.
#[inline]
fn estimate<B: Board, H: Heuristic<B>, E: OpenEntry<B, H::Memo>>(
    heuristic: &H,
    parent: &E,
    h: u32,
    slide: &Slide<B>,
    to: usize,
) -> (u32, H::Memo) {
    let Slide { board, tile, from } = *slide;
    if E::MEMO {
        heuristic.update_memo(&board, h, &parent.memo(), tile, from, to)
    } else {
        (heuristic.update(&board, h, tile, from, to), H::Memo::default())
    }
}

/// What a search by `rule` proved of the cost: A* (its priority is f), that
/// every node it left open is one of a frontier an optimal path crosses, so
/// none costs less than the smallest f among them (`floor`), and that its
/// solution is optimal; a bounded search's goal may cost more than the
/// optimum, but unless it is optimal a node of an optimal path is still
/// open, so the smaller of its cost and the floor is a bound.
fn proven_bound<R: Rule>(
    rule: R,
    status: Status,
    cost: Option<u32>,
    floor: Option<u64>,
    unit: u32,
) -> Option<u32> {
    let floor = floor.and_then(|key| rule.lower_bound(key, unit));
    match status {
        Status::Solved if R::PROVES_BOUND => cost,
        Status::Solved if R::FLOOR_BOUNDS => match (cost, floor) {
            (Some(cost), Some(floor)) => Some(cost.min(floor)),
            (cost, _) => cost,
        },
        Status::Limit(_) if R::FLOOR_BOUNDS => floor,
        _ => None,
    }
}
