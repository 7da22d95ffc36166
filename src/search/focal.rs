/*!
Bounded-suboptimal best-first search: answers proven at most B times the
shortest, found by expanding, among the open nodes whose f = g + h is at
most B times the smallest f left open (the focal list), the one that looks
closest to a goal rather than the one with the smallest f.

Two ways to pick within the focal list:
- [`Selection::Nearest`]: the smallest h (focal search, Pearl and Kim's
  A*ε with h as its second heuristic);
- [`Selection::Potential`]: the largest (`B·f_min` − g) / h (Dynamic
  Potential Search, Gilon, Felner and Stern, 2016), which weighs how much
  room to the bound a node leaves against how far it still has to go.

Both are bounded because the smallest f left open never exceeds the optimal
cost: some node of an optimal path is open with its optimal g (closed boards
are reopened when reached more cheaply), and its f is at most C*. A goal
taken from the focal list therefore costs at most `B·f_min` ≤ B·C*, and
`f_min` itself is a proven lower bound, which the outcome reports.

The open list keeps one bucket of boards per (f, g), as A*'s does. For a
given f, both selections prefer the largest g (smaller h, and a larger
potential since `B·f_min` ≥ f), so a pick looks at one bucket per f from
`f_min` to `B·f_min`: a handful on puzzles with bounds near 1.
*/

use super::algorithm::Selection;
use super::best_first::{Bare, Bounded, OpenList, Queue, Reopening, Rule, bytes_per_state_with};
use crate::board::Board;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

/// The focal open list: boards by f, then g; each (f, g) a stack.
pub(crate) struct FocalQueue<B> {
    /// `rows[f][g]`: the boards of that f and g (their h is f − g).
    rows: Vec<Vec<Vec<B>>>,
    /// `top[f]`: a g at or above which row f holds nothing (a row's
    /// largest non-empty g is found by stepping down from it).
    top: Vec<usize>,
    /// The smallest f that may hold a board.
    min_f: usize,
    len: usize,
    rule: Bounded,
    /// A lower bound on the cost proven elsewhere meanwhile, in moves.
    floor: Option<Arc<AtomicU32>>,
    /// The largest f picked ([`Limits::ceiling`](super::Limits::ceiling)).
    ceiling: usize,
}

impl<B> FocalQueue<B> {
    /// The largest g with a board in row `f`, tightening `top[f]`.
    fn deepest(&mut self, f: usize) -> Option<usize> {
        let row = self.rows.get(f)?;
        let mut g = self.top[f].min(row.len());
        while g > 0 && row[g - 1].is_empty() {
            g -= 1;
        }
        self.top[f] = g;
        g.checked_sub(1)
    }

    /// Advances `min_f` to the first row holding a board.
    fn settle_min(&mut self) {
        while self.min_f < self.rows.len() && self.deepest(self.min_f).is_none() {
            self.min_f += 1;
        }
    }
}

impl<B> OpenList<B> for FocalQueue<B> {
    const ENTRY_BYTES: u64 = std::mem::size_of::<B>() as u64;

    fn new<R: Rule>(rule: R) -> Self {
        let rule = rule.bounded().expect("a focal queue serves a bounded rule");
        FocalQueue {
            rows: Vec::new(),
            top: Vec::new(),
            min_f: usize::MAX,
            len: 0,
            rule,
            floor: None,
            ceiling: usize::MAX,
        }
    }

    #[inline]
    fn push(&mut self, key: u64, g: u32, h: u32, board: B) {
        debug_assert_eq!(key, u64::from(g) + u64::from(h), "priorities are f = g + h");
        let (f, g) = (key as usize, g as usize);
        if f >= self.rows.len() {
            self.rows.resize_with(f + 1, Vec::new);
            self.top.resize(f + 1, 0);
        }
        let row = &mut self.rows[f];
        if g >= row.len() {
            row.resize_with(g + 1, Vec::new);
        }
        row[g].push(board);
        self.top[f] = self.top[f].max(g + 1);
        self.min_f = self.min_f.min(f);
        self.len += 1;
    }

    fn pop(&mut self) -> Option<(u64, u32, u32, B)> {
        self.settle_min();
        let min_f = self.min_f;
        if min_f >= self.rows.len() {
            return None;
        }
        // The focal list: every f up to B times the best lower bound, f_min
        // or one proven elsewhere (both at most the optimum).
        let floor = self.floor.as_ref().map_or(0, |floor| floor.load(Ordering::Relaxed) as usize);
        let base = min_f.max(floor);
        // With an answer in hand only a shorter one is worth finding, so
        // the list also stops at the ceiling; the potential still measures
        // the room to the bound (measured: weighed against the ceiling, it
        // found fewer answers in the time).
        let limit = ((base as u64 * self.rule.p / self.rule.q) as usize).min(self.ceiling);
        let mut best: Option<(usize, usize)> = None;
        for f in min_f..=limit.min(self.rows.len() - 1) {
            let Some(g) = self.deepest(f) else { continue };
            let better = best.is_none_or(|(bf, bg)| match self.rule.selection {
                // Smallest h = f − g; among equals, the smaller f.
                Selection::Nearest => f - g < bf - bg,
                // Largest (B·f_min − g) / h, compared without division; a
                // goal (h = 0) wins outright.
                Selection::Potential => {
                    let room = |g: usize| (base as u64 * self.rule.p).saturating_sub(g as u64 * self.rule.q);
                    let (h, best_h) = ((f - g) as u64, (bf - bg) as u64);
                    match (h, best_h) {
                        (0, 0) => false,
                        (0, _) => true,
                        (_, 0) => false,
                        _ => u128::from(room(g)) * u128::from(best_h) > u128::from(room(bg)) * u128::from(h),
                    }
                }
            });
            if better {
                best = Some((f, g));
            }
        }
        let (f, g) = best?;
        let board = self.rows[f][g].pop()?;
        self.len -= 1;
        Some((f as u64, g as u32, (f - g) as u32, board))
    }

    fn len(&self) -> usize {
        self.len
    }

    fn upcoming(&self) -> Option<&B> {
        None
    }

    fn floor(&self) -> Option<u64> {
        (self.len > 0).then_some(self.min_f as u64)
    }

    fn share_floor(&mut self, floor: Arc<AtomicU32>) {
        self.floor = Some(floor);
    }

    fn set_ceiling(&mut self, ceiling: u32) {
        self.ceiling = ceiling as usize;
    }
}

/// The focal queue, for any kind of entry.
pub(crate) struct Focal;

impl Queue for Focal {
    type Of<E: Copy + Send + 'static> = FocalQueue<E>;
}

/// Worst-case bytes per stored state of a bounded search, which reopens
/// closed boards and keeps their g.
pub(crate) fn bytes_per_state_reopening<B: Board>() -> u64 {
    bytes_per_state_with::<B, FocalQueue<Bare<B::Tagged>>, Reopening<B>, _>()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn queue(selection: Selection, p: u64, q: u64) -> FocalQueue<u32> {
        FocalQueue::new(Bounded { p, q, selection })
    }

    #[test]
    fn a_pick_stays_within_the_bound_and_prefers_what_looks_nearest() {
        let mut nearest = queue(Selection::Nearest, 3, 2);
        // (f, g): f_min is 10, so the bound admits f up to 15.
        for (f, g, board) in [(10, 2, 1), (12, 10, 2), (15, 14, 3), (16, 16, 4)] {
            nearest.push(f, g, f as u32 - g, board);
        }
        // h = 1 at f = 15 beats h = 2 at f = 12; f = 16 is past the bound.
        assert_eq!(nearest.pop().map(|e| e.3), Some(3));
        assert_eq!(nearest.pop().map(|e| e.3), Some(2));
        assert_eq!(nearest.floor(), Some(10));
        assert_eq!(nearest.pop().map(|e| e.3), Some(1));
        assert_eq!(nearest.pop().map(|e| e.3), Some(4), "f_min is 16 now");
        assert_eq!(nearest.pop(), None);
    }

    #[test]
    fn a_ceiling_leaves_the_boards_above_it_unpicked() {
        let mut potential = queue(Selection::Potential, 2, 1);
        potential.set_ceiling(13);
        // f_min 10 admits f up to 20; the ceiling, up to 13.
        for (f, g, board) in [(10, 2, 1), (14, 13, 2), (13, 11, 3)] {
            potential.push(f, g, f as u32 - g, board);
        }
        assert_eq!(potential.pop().map(|e| e.3), Some(3), "f = 14 is past the ceiling, however near a goal");
        assert_eq!(potential.pop().map(|e| e.3), Some(1));
        assert_eq!(potential.pop(), None);
        assert_eq!((potential.len(), potential.floor()), (1, Some(14)), "left open, a bound on the cost");
    }

    #[test]
    fn a_floor_proven_elsewhere_widens_the_focal_list() {
        let mut nearest = queue(Selection::Nearest, 3, 2);
        let floor = Arc::new(AtomicU32::new(0));
        nearest.share_floor(Arc::clone(&floor));
        // f_min 10 admits f up to 15; a floor of 12, up to 18.
        for (f, g, board) in [(10, 2, 1), (18, 17, 2)] {
            nearest.push(f, g, f as u32 - g, board);
        }
        floor.store(12, Ordering::Relaxed);
        assert_eq!(nearest.pop().map(|e| e.3), Some(2), "h = 1 at f = 18 is within 1.5 × 12");
        assert_eq!(nearest.floor(), Some(10), "the queue's own floor is its smallest f");
    }

    #[test]
    fn the_potential_weighs_room_to_the_bound_against_the_estimate() {
        let mut potential = queue(Selection::Potential, 2, 1);
        // f_min 10, bound 20: (20 − 8) / 2 = 6 beats (20 − 3) / 9 ≈ 1.9.
        for (f, g, board) in [(10, 8, 1), (12, 3, 2)] {
            potential.push(f, g, f as u32 - g, board);
        }
        assert_eq!(potential.pop().map(|e| e.3), Some(1));
        // A goal within the bound is taken at once.
        potential.push(19, 19, 0, 3);
        assert_eq!(potential.pop().map(|e| e.3), Some(3));
    }
}
