/*!
A* and weighted A*: best-first search on f = g + W·h (W = 1 for A*), on
the engine of [`super::best_first`], which documents the order, the open
list and the closed set.

With an admissible heuristic A*'s path is optimal, and weighted A*'s is at
most W times the optimum: every node of an optimal path has g + W·h ≤
W·(g + h) ≤ W·C*, so the goal comes out of the open list with f ≤ W·C*.
Larger weights trust the heuristic more and search far fewer nodes.
*/

use super::best_first::{BucketQueue, HeapQueue, Plain, Reopening, Rule, Weighted, run};
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
    // Buckets need whole-number priorities close together: whole weights on
    // whole-number heuristics.
    with_rule(start, goal, h, rule, H::UNIT == 1 && rule.q == 1, limits)
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
        (true, true) => run::<B, H, R, BucketQueue<B::Tagged>, TaggedSet<B>>(start, goal, h, rule, limits),
        (false, true) => run::<B, H, R, HeapQueue<B::Tagged>, TaggedSet<B>>(start, goal, h, rule, limits),
        (true, false) => run::<B, H, R, BucketQueue<B::Tagged>, Reopening<B>>(start, goal, h, rule, limits),
        (false, false) => run::<B, H, R, HeapQueue<B::Tagged>, Reopening<B>>(start, goal, h, rule, limits),
    }
}
