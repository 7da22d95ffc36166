/*!
The blank's cheapest ways inside a box of constant size: a Dial's-queue A*
over the box's cells, where a move that pushes a tile away from its goal
cell costs [`PUSH_BACK`] more than one that brings it nearer. Constant
boxes keep the constructive solver's time linear in its path.
*/

use super::queue::{BUCKETS, Queue};
use crate::board::{Move, Shape};

/// No cell (a search that found none).
pub(super) const NO_CELL: usize = usize::MAX;
/// `homes` of a cell whose tile is placed for good (see the builder).
pub(super) const FIXED: u32 = u32::MAX;

/// Half the side of the box in which the blank's ways are searched.
/// Measured on random 100×100 boards (mean moves / n³, 10 boards, and the
/// time against 5×5): 5×5 1.820, 7×7 1.775 (+11%), 9×9 1.753 (+19%),
/// 11×11 1.744 (+35%).
pub(super) const BOX: usize = 4;
pub(super) const BOX_SIDE: usize = 2 * BOX + 1;
pub(super) const BOX_CELLS: usize = BOX_SIDE * BOX_SIDE;
/// What a blank move costs, beyond one, when it pushes the tile it moves
/// away from that tile's goal cell (moving it nearer costs one). The tile
/// will have to come back later at several moves a step, so the blank
/// would rather go round. Measured on random 50×50 boards (mean moves / n³,
/// 20 boards, 7×7 boxes): 0 (any shortest way) 2.571, 2 2.005, 4 1.825,
/// 6 1.790, 8 1.780, 10 1.780, 12 1.778, 16 1.777, 20 1.774; Parberry's
/// expected 8/3 ≈ 2.67.
pub(super) const PUSH_BACK: u16 = 12;
// The dearest move (its cost, plus one for the estimate) stays within the
// queue's window of values.
const _: () = assert!(1 + PUSH_BACK as usize + 1 < BUCKETS);
/// What each step still between the blank and its target is reckoned to
/// cost when the blank hops from box to box: a move of either kind, on
/// average. It matters little: measured on random 50×50 boards (mean moves
/// / n³, 20 boards, 7×7 boxes): 1 1.786, 3 1.785, 5 1.779, 7 1.778, 9 1.772,
/// 13 1.776.
pub(super) const AHEAD: u32 = 1 + PUSH_BACK as u32 / 2;
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
}

/// The cost of the blank moving `mv` into a cell at row and column `at`
/// whose tile's goal cell is `home` (packed as in [`Builder::homes`]): 1,
/// plus [`PUSH_BACK`] if the tile is pushed further from it.
#[inline]
pub(super) fn step_cost(home: u32, at: (usize, usize), mv: Move) -> u16 {
    let (hr, hc) = ((home >> 16) as usize, (home & 0xFFFF) as usize);
    // The tile moves against the blank.
    let away = match mv {
        Move::Up => at.0 >= hr,
        Move::Down => at.0 <= hr,
        Move::Left => at.1 >= hc,
        Move::Right => at.1 <= hc,
    };
    if away { 1 + PUSH_BACK } else { 1 }
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
    /// The cheapest ways of the blank (see [`step_cost`]) in the
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
            Aim::Settle(cells) => {
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
                // dearer ways.
                best_value = value + 1;
            }
            let cell = shape.cell(row0 + r, col0 + c);
            macro_rules! relax {
                ($j:expr, $r:expr, $c:expr, $next:expr, $mv:expr) => {{
                    let (j, r, c, next) = ($j, $r, $c, $next);
                    let home = homes[next];
                    if !done[j] && home != FIXED {
                        let cost = here + step_cost(home, (row0 + r, col0 + c), $mv);
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
