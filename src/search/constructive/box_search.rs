/*!
The blank's cheapest ways inside a box of constant size: a Dial's-queue A*
over the box's cells, each move priced by [`Pricing`] (a move that pushes
a tile away from its goal cell is dear). Constant boxes keep the
constructive solver's time linear in its path.
*/

use super::pricing::{AHEAD, Pricing};
use super::queue::Queue;
use crate::board::{Move, Shape};

/// No cell (a search that found none).
pub(super) const NO_CELL: usize = usize::MAX;
/// `homes` of a cell whose tile is placed for good (see the builder).
pub(super) const FIXED: u32 = u32::MAX;

/// Half the side of the box in which the blank's ways are searched.
/// Measured on random 50×50 boards (moves / Manhattan distance, 20 boards):
/// 9×9 2.334, 13×13 2.307 (30% more time), 15×15 2.304. Box indices are
/// bytes, so 15×15 is the largest.
pub(super) const BOX: usize = 6;
pub(super) const BOX_SIDE: usize = 2 * BOX + 1;
pub(super) const BOX_CELLS: usize = BOX_SIDE * BOX_SIDE;
/// The cost of a cell no box search reached.
pub(super) const UNSEEN: u16 = u16::MAX;

/// What a box search is for.
#[derive(Clone, Copy)]
pub(super) enum Aim<'a> {
    /// The cheapest ways to these cells, which lie next to the box's centre.
    Settle(&'a [usize]),
    /// The cell with the least cost plus [`AHEAD`] per step still to go to
    /// this target ([`BoxSearch::best`]).
    Toward(usize),
    /// Every cell of the box.
    All,
    /// The cheapest ways to every one of these cells, which lie next to the
    /// box's centre (not only to the cheapest of them).
    SettleAll(&'a [usize]),
}

/// Rows or columns apart, whichever is more: the box a cell lies in.
#[inline]
pub(super) fn chebyshev(shape: Shape, a: usize, b: usize) -> usize {
    let (rows, cols) = shape.offsets(a, b);
    rows.max(cols)
}

/// The cheapest ways of the blank inside a box of at most [`BOX_SIDE`]²
/// cells: costs and parents by box index.
pub(super) struct BoxSearch {
    pub(super) row0: usize,
    pub(super) col0: usize,
    pub(super) rows: usize,
    pub(super) cols: usize,
    pub(super) source: usize,
    /// The cell a search `toward` a target found best to hop to.
    pub(super) best: usize,
    pub(super) cost: [u16; BOX_CELLS],
    pub(super) parent: [u8; BOX_CELLS],
}

impl BoxSearch {
    /// An empty search from `blank` in the box around `centre`, which must
    /// hold it.
    pub(super) fn around(shape: Shape, centre: usize, blank: usize) -> BoxSearch {
        debug_assert!(chebyshev(shape, centre, blank) <= BOX, "the blank is inside the box");
        let (row, col) = (shape.row(centre), shape.col(centre));
        let (row0, col0) = (row.saturating_sub(BOX), col.saturating_sub(BOX));
        let rows = (row + BOX).min(shape.height() - 1) - row0 + 1;
        let cols = (col + BOX).min(shape.width() - 1) - col0 + 1;
        let source = (shape.row(blank) - row0) * cols + shape.col(blank) - col0;
        BoxSearch {
            row0,
            col0,
            rows,
            cols,
            source,
            best: source,
            cost: [UNSEEN; BOX_CELLS],
            parent: [0; BOX_CELLS],
        }
    }

    pub(super) fn index(&self, shape: Shape, cell: usize) -> Option<usize> {
        let (row, col) = (shape.row(cell), shape.col(cell));
        let inside = (self.row0..self.row0 + self.rows).contains(&row)
            && (self.col0..self.col0 + self.cols).contains(&col);
        inside.then(|| (row - self.row0) * self.cols + col - self.col0)
    }

    pub(super) fn cell(&self, shape: Shape, index: usize) -> usize {
        shape.cell(self.row0 + index / self.cols, self.col0 + index % self.cols)
    }
}

impl BoxSearch {
    /// The cheapest ways of the blank (priced by `pricing`) in the
    /// box around `centre`, avoiding fixed cells and `blocked`; the blank
    /// must be in the box. It is A* with a bucket per value, since costs are
    /// small (Dial's queue), aimed as `aim` says, and it stops as soon as
    /// nothing left could change the answer: stopping once the first of two
    /// cells to settle is, unless the other may tie, saves 6% of all the
    /// work and changes no path.
    pub(super) fn run(
        shape: Shape,
        homes: &[u32],
        blank: usize,
        centre: usize,
        blocked: [usize; 2],
        aim: Aim<'_>,
        pricing: &Pricing,
    ) -> BoxSearch {
        let width = shape.width();
        let mut search = BoxSearch::around(shape, centre, blank);
        let (row0, col0, rows, cols, source) =
            (search.row0, search.col0, search.rows, search.cols, search.source);
        let mut settle = [NO_CELL; 2];
        let mut unsettled = 0;
        // A lower bound on what is left from a box cell: its distance from
        // `point`, times `slope`, plus `extra` less `less`. For cells to
        // settle, which lie next to the centre, one less than the distance
        // to it; towards a target, the steps to the box cell nearest the
        // target (`least` away) and then AHEAD per step.
        let (mut point, mut slope, mut extra, mut less) = ((0, 0), 0, 0, 0);
        // No value this high can change the answer: towards a target, the
        // best hop's cost plus AHEAD per step left; when settling, past the
        // first cell settled.
        let mut best_value = u32::MAX;
        match aim {
            Aim::Settle(cells) | Aim::SettleAll(cells) => {
                for (slot, &cell) in settle.iter_mut().zip(cells) {
                    *slot = search.index(shape, cell).expect("cells to settle are in the box");
                }
                unsettled = cells.len();
                point = (shape.row(centre), shape.col(centre));
                (slope, less) = (1, 1);
            }
            Aim::Toward(target) => {
                point = (shape.row(target), shape.col(target));
                let off = |t: usize, lo: usize, n: usize| {
                    if t < lo { lo - t } else { t.saturating_sub(lo + n - 1) }
                };
                let least = (off(point.0, row0, rows) + off(point.1, col0, cols)) as u32;
                (slope, extra) = (1, (AHEAD - 1) * least);
                best_value = AHEAD * shape.distance(blank, target) as u32;
            }
            Aim::All => {}
        }
        let toward = matches!(aim, Aim::Toward(_));
        let from_point =
            |r: usize, c: usize| ((row0 + r).abs_diff(point.0) + (col0 + c).abs_diff(point.1)) as u32;
        let estimate = |r: usize, c: usize| (slope * from_point(r, c) + extra).saturating_sub(less);
        let mut queue = Queue::<BOX_CELLS>::new();
        // Settled cells, and the blocked ones marked as if settled.
        let mut done = [false; BOX_CELLS];
        for cell in blocked {
            if let Some(i) = (cell != NO_CELL).then(|| search.index(shape, cell)).flatten() {
                done[i] = true;
            }
        }
        // Row and column in the box of each queued cell.
        let mut place = [(0u8, 0u8); BOX_CELLS];
        let (br, bc) = (source / cols, source % cols);
        place[source] = (br as u8, bc as u8);
        search.cost[source] = 0;
        queue.push(estimate(br, bc), source);
        while let Some((value, i)) = queue.pop() {
            if value >= best_value {
                break;
            }
            done[i] = true;
            let (r, c) = (usize::from(place[i].0), usize::from(place[i].1));
            let here = search.cost[i];
            if toward {
                let exit = u32::from(here) + AHEAD * from_point(r, c);
                if exit < best_value {
                    (best_value, search.best) = (exit, i);
                }
            }
            if settle.contains(&i) {
                unsettled -= 1;
                if unsettled == 0 {
                    break;
                }
                // The other cell can only tie this one now: search no
                // dearer ways, unless its own cost is asked for.
                if !matches!(aim, Aim::SettleAll(_)) {
                    best_value = value + 1;
                }
            }
            let cell = shape.cell(row0 + r, col0 + c);
            macro_rules! relax {
                ($j:expr, $r:expr, $c:expr, $next:expr, $mv:expr) => {{
                    let (j, r, c, next) = ($j, $r, $c, $next);
                    let home = homes[next];
                    if !done[j] && home != FIXED {
                        let cost = here + pricing.step(home, (row0 + r, col0 + c), $mv);
                        if cost < search.cost[j] {
                            search.cost[j] = cost;
                            search.parent[j] = i as u8;
                            place[j] = (r as u8, c as u8);
                            queue.push(u32::from(cost) + estimate(r, c), j);
                        }
                    }
                }};
            }
            if r > 0 {
                relax!(i - cols, r - 1, c, cell - width, Move::Up);
            }
            if r + 1 < rows {
                relax!(i + cols, r + 1, c, cell + width, Move::Down);
            }
            if c > 0 {
                relax!(i - 1, r, c - 1, cell - 1, Move::Left);
            }
            if c + 1 < cols {
                relax!(i + 1, r, c + 1, cell + 1, Move::Right);
            }
        }
        search
    }
}
