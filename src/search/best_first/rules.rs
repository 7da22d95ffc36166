/*!
The rules of best-first search: how a node's depth g and estimate h make
its priority (A*'s f = g + h, weighted A*'s g + W·h, greedy search's h
alone, a bounded search's f), and what the first solution found under each
proves. A rule is all there is of a search's order: the engine, the open
lists and IDA* ask it for priorities and read its constants, so a new
order is a new rule.
*/

use crate::search::algorithm::Selection;

/// How a node's priority follows from its depth `g` and its estimate `h`
/// (in heuristic units, `unit` to a move): lower is searched first.
pub(crate) trait Rule: Copy + Send + Sync {
    /// Among equal priorities, whether the deeper node comes first.
    const DEEPER_FIRST: bool = true;

    /// Whether the search's first solution is a shortest one: A*, which
    /// expands in order of f.
    const PROVES_BOUND: bool = false;

    /// Whether the smallest priority left open bounds the cost from below:
    /// f = g + h, searched with closed boards reopened (or a consistent
    /// heuristic), so a node of an optimal path is open with its optimal g.
    const FLOOR_BOUNDS: bool = false;

    /// Whether priorities come out in increasing order, so that one that is
    /// exhausted stays empty (A* with a consistent heuristic; the rare
    /// refill under an inconsistent one only costs an allocation).
    const MONOTONE: bool = false;

    /// Whether a child that was expanded before is dropped as it is
    /// generated, or left to come out of the open list as a stale entry.
    /// A* drops it, as the textbook does, so its frontier figures hold only
    /// boards yet to expand. Weighted and greedy search seldom come back to
    /// an expanded board (under 1 % of the children on the 24-puzzle), and
    /// looking a child up costs a cache miss the stale entry mostly does not.
    const DROPS_EXPANDED_CHILDREN: bool = false;

    fn key(self, g: u32, h: u32, unit: u32) -> u64;

    /// The largest h with which a node at depth `g` is within `bound`
    /// (0 when none is, `u32::MAX` when every one is): the inverse of
    /// [`Rule::key`], which a heuristic may use to stop refining an
    /// estimate that already prunes (see `Heuristic::begin_children`).
    fn cut(self, g: u32, bound: u64, unit: u32) -> u32;

    /// The fewest moves a solution can have when every node of priority
    /// below `key` is known to lead nowhere: a node of an optimal path has
    /// a priority of at most this rule's worth of its g + h (moves).
    /// `None` for a rule whose priorities prove nothing (greedy).
    fn lower_bound(self, key: u64, unit: u32) -> Option<u32>;

    /// The bound and the pick of a bounded-suboptimal search, whose open
    /// list is the focal queue (`focal.rs`).
    fn bounded(self) -> Option<Bounded> {
        None
    }

    /// The largest priority a node can have and still reach the goal
    /// within `max_depth` moves, if the rule bounds it (IDA* cuts above it).
    fn depth_cap(self, max_depth: u32, unit: u32) -> u64 {
        let _ = (max_depth, unit);
        u64::MAX
    }
}

/// `x` as a `u32`, or `u32::MAX` when it is larger.
#[inline]
fn saturate(x: u64) -> u32 {
    u32::try_from(x).unwrap_or(u32::MAX)
}

/// A*'s f = g + h.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plain;

impl Rule for Plain {
    const MONOTONE: bool = true;
    const PROVES_BOUND: bool = true;
    const FLOOR_BOUNDS: bool = true;
    const DROPS_EXPANDED_CHILDREN: bool = true;

    #[inline]
    fn key(self, g: u32, h: u32, unit: u32) -> u64 {
        u64::from(g) * u64::from(unit) + u64::from(h)
    }

    #[inline]
    fn cut(self, g: u32, bound: u64, unit: u32) -> u32 {
        saturate(bound.saturating_sub(u64::from(g) * u64::from(unit)))
    }

    fn lower_bound(self, key: u64, unit: u32) -> Option<u32> {
        u32::try_from(key.div_ceil(u64::from(unit))).ok()
    }

    /// With an admissible h, f = g + h never exceeds the cost of the
    /// cheapest goal below: past `max_depth` moves nothing is in time.
    fn depth_cap(self, max_depth: u32, unit: u32) -> u64 {
        u64::from(max_depth).saturating_mul(u64::from(unit))
    }
}

/// f = g + W·h with W = p / q, scaled by q so it stays a whole number.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Weighted {
    pub p: u64,
    pub q: u64,
}

impl Rule for Weighted {
    #[inline]
    fn key(self, g: u32, h: u32, unit: u32) -> u64 {
        self.q * u64::from(g) * u64::from(unit) + self.p * u64::from(h)
    }

    #[inline]
    fn cut(self, g: u32, bound: u64, unit: u32) -> u32 {
        saturate(bound.saturating_sub(self.q * u64::from(g) * u64::from(unit)) / self.p)
    }

    /// q·U·g + p·h is at most p·U·(g + h/U), since q ≤ p: a node of an
    /// optimal path has a priority of at most p·U·C*.
    fn lower_bound(self, key: u64, unit: u32) -> Option<u32> {
        u32::try_from(key.div_ceil(self.p * u64::from(unit))).ok()
    }
}

/// Greedy best-first: h alone.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Greedy;

impl Rule for Greedy {
    const DEEPER_FIRST: bool = false;

    #[inline]
    fn key(self, _: u32, h: u32, _: u32) -> u64 {
        u64::from(h)
    }

    #[inline]
    fn cut(self, _: u32, bound: u64, _: u32) -> u32 {
        saturate(bound)
    }

    fn lower_bound(self, _: u64, _: u32) -> Option<u32> {
        None
    }
}

/// The rule of a bounded search with B = p / q: priorities are f = g + h,
/// the bucket queue's, and the pick is the focal queue's (`focal.rs`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bounded {
    pub p: u64,
    pub q: u64,
    pub selection: Selection,
}

impl Rule for Bounded {
    const FLOOR_BOUNDS: bool = true;

    #[inline]
    fn key(self, g: u32, h: u32, unit: u32) -> u64 {
        Plain.key(g, h, unit)
    }

    #[inline]
    fn cut(self, g: u32, bound: u64, unit: u32) -> u32 {
        Plain.cut(g, bound, unit)
    }

    fn lower_bound(self, key: u64, unit: u32) -> Option<u32> {
        Plain.lower_bound(key, unit)
    }

    fn bounded(self) -> Option<Bounded> {
        Some(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::algorithm::Selection;

    /// `cut` is the last h whose priority stays within the bound.
    fn check_cut<R: Rule>(rule: R) {
        for unit in [1, 6] {
            for g in 0..12 {
                for bound in 0..200 {
                    let cut = rule.cut(g, bound, unit);
                    if rule.key(g, 0, unit) > bound {
                        assert_eq!(cut, 0, "g {g}, bound {bound}: no h fits");
                        continue;
                    }
                    assert!(rule.key(g, cut, unit) <= bound, "g {g}, bound {bound}, cut {cut}");
                    if cut < u32::MAX {
                        assert!(rule.key(g, cut + 1, unit) > bound, "g {g}, bound {bound}, cut {cut}");
                    }
                }
            }
        }
    }

    #[test]
    fn every_rule_cuts_at_the_last_estimate_within_the_bound() {
        check_cut(Plain);
        check_cut(Weighted { p: 3, q: 2 });
        check_cut(Weighted { p: 5, q: 1 });
        check_cut(Greedy);
        check_cut(Bounded { p: 11, q: 10, selection: Selection::Nearest });
    }
}
