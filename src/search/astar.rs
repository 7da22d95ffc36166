/*!
A* and weighted A*: best-first search on f = g + W·h (W = 1 for A*), on
the engine of [`super::best_first`], which documents the order, the open
list and the closed set.

With an admissible heuristic A*'s path is optimal, and weighted A*'s is at
most W times the optimum: every node of an optimal path has g + W·h ≤
W·(g + h) ≤ W·C*, so the goal comes out of the open list with f ≤ W·C*.
Larger weights trust the heuristic more and search far fewer nodes.
*/

use super::algorithm::Selection;
use super::best_first::Bounded;
use super::best_first::{Buckets, Heap, Plain, Reopening, Rule, Weighted, run};
use super::focal::Focal;
use super::table::TaggedSet;
use super::{Limits, Outcome, Weight};
use crate::board::{Board, Goal};
use crate::heuristic::Heuristic;

/// A* from `start` to `goal` guided by `h`.
///
/// Goal test on removal from the open list; nodes deeper than
/// `limits.max_depth` are not expanded. With an admissible heuristic the
/// path is optimal: a consistent one ([`Heuristic::CONSISTENT`]) makes a
/// board's first removal its cheapest, so closed boards are kept as bare
/// tagged values; otherwise each closed board keeps its g and is reopened
/// when reached more cheaply.
///
/// # Examples
/// ```
/// use npuzzle::{astar, Board, Goal, GoalSpec, Limits, Manhattan, Packed};
/// let goal = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
/// let start = Packed::from_tiles(&[1, 2, 5, 3, 4, 0, 6, 7, 8]);
/// let outcome = astar(&start, &goal, &Manhattan::new(&goal), &Limits::default());
/// assert_eq!(outcome.cost(), Some(3));
/// ```
pub fn astar<B: Board, H: Heuristic<B>>(start: &B, goal: &Goal, h: &H, limits: &Limits) -> Outcome {
    with_rule(start, goal, h, Plain, H::UNIT == 1, limits)
}

/// Weighted A* from `start` to `goal`: best-first on f = g + W·h, ties to
/// the deeper node. With an admissible `h` the path costs at most `weight`
/// times the optimum; with W = 1 this is [`astar`].
///
/// # Examples
/// ```
/// use npuzzle::{weighted_astar, Board, Goal, GoalSpec, Limits, Manhattan, Packed, Weight};
/// let goal = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
/// let start = Packed::from_tiles(&[8, 0, 6, 5, 4, 7, 2, 3, 1]);
/// let w: Weight = "2".parse().unwrap();
/// let outcome = weighted_astar(&start, &goal, &Manhattan::new(&goal), w, &Limits::default());
/// assert!(outcome.cost().unwrap() <= 2 * 31);
/// ```
pub fn weighted_astar<B: Board, H: Heuristic<B>>(
    start: &B,
    goal: &Goal,
    h: &H,
    weight: Weight,
    limits: &Limits,
) -> Outcome {
    if weight == Weight::ONE {
        return astar(start, goal, h, limits);
    }
    let rule = Weighted { p: weight.numerator(), q: weight.denominator() };
    with_rule(start, goal, h, rule, buckets_for(rule, H::UNIT), limits)
}

/// A* bounded by `bound` = B: a path of at most B times the shortest, found
/// by expanding within the focal list (every open node with f ≤ `B·f_min`)
/// the node `selection` prefers (see `focal.rs`), closed boards reopened
/// when reached more cheaply. Its lower bound is the smallest f left open.
/// A heuristic in fractions of a move (euclidean) is searched by weighted
/// A* at W = B instead, which keeps the same bound.
///
/// # Examples
/// ```
/// use npuzzle::{bounded_astar, Board, Goal, GoalSpec, Limits, Manhattan, Packed, Selection, Weight};
/// let goal = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
/// let start = Packed::from_tiles(&[8, 0, 6, 5, 4, 7, 2, 3, 1]);
/// let b: Weight = "1.2".parse().unwrap();
/// let outcome = bounded_astar(&start, &goal, &Manhattan::new(&goal), b, Selection::Potential, &Limits::default());
/// let (cost, bound) = (outcome.cost().unwrap(), outcome.lower_bound.unwrap());
/// assert!(5 * cost <= 6 * 31 && bound <= 31);
/// ```
pub fn bounded_astar<B: Board, H: Heuristic<B>>(
    start: &B,
    goal: &Goal,
    h: &H,
    bound: Weight,
    selection: Selection,
    limits: &Limits,
) -> Outcome {
    if bound == Weight::ONE {
        return astar(start, goal, h, limits);
    }
    if H::UNIT != 1 {
        return weighted_astar(start, goal, h, bound, limits);
    }
    let rule = Bounded { p: bound.numerator(), q: bound.denominator(), selection };
    run::<B, H, Bounded, Focal, Reopening<B>>(start, goal, h, rule, limits)
}

/// The largest numerator p of a weight p/q the bucket queue takes. Its rows
/// are indexed by priority, q·g + p·h, so they number p times the moves
/// and more: at W = 1,000,000 an 8-puzzle took 630 MB of empty rows, and a
/// 7×7 board would have taken all the memory.
const MAX_BUCKET_NUMERATOR: u64 = 64;

/// Whether weighted A* under `rule`, with a heuristic of `unit` to a move,
/// uses the bucket queue: whole-number priorities close together, which
/// takes in fractional weights such as 1.5 = 3/2 or 4.5 = 9/2 (p ≥ q, so q
/// is small too).
fn buckets_for(rule: Weighted, unit: u32) -> bool {
    unit == 1 && rule.p <= MAX_BUCKET_NUMERATOR
}

/// The engine with the open list and closed set `rule` and `h` call for.
fn with_rule<B: Board, H: Heuristic<B>, R: Rule>(
    start: &B,
    goal: &Goal,
    h: &H,
    rule: R,
    buckets: bool,
    limits: &Limits,
) -> Outcome {
    match (buckets, H::CONSISTENT) {
        (true, true) => run::<B, H, R, Buckets, TaggedSet<B>>(start, goal, h, rule, limits),
        (false, true) => run::<B, H, R, Heap, TaggedSet<B>>(start, goal, h, rule, limits),
        (true, false) => run::<B, H, R, Buckets, Reopening<B>>(start, goal, h, rule, limits),
        (false, false) => run::<B, H, R, Heap, Reopening<B>>(start, goal, h, rule, limits),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(w: &str) -> Weighted {
        let w: Weight = w.parse().unwrap();
        Weighted { p: w.numerator(), q: w.denominator() }
    }

    #[test]
    fn buckets_take_weights_with_small_terms_and_the_heap_the_rest() {
        for w in ["2", "4", "1.5", "4.5", "1.25", "1.1", "64"] {
            assert!(buckets_for(rule(w), 1), "{w}");
        }
        // Rows by priority would number a million per move of h.
        for w in ["65", "1000000", "1.01", "1.001"] {
            assert!(!buckets_for(rule(w), 1), "{w}");
        }
        // Fixed-point heuristics (euclidean) spread priorities over 65,536 per move.
        assert!(!buckets_for(rule("2"), 1 << 16));
    }
}
