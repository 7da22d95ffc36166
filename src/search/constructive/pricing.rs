/*!
What a blank move costs in the constructive solver's box searches. Every
move slides one tile a step, towards its goal cell or away from it. A tile
pushed away must be carried back later at several moves a step, so such a
move is priced dearer and the blank takes the cheapest way rather than the
shortest: the moves it makes anyway then mostly bring tiles nearer home.

How dear depends on where the tile belongs. A tile whose goal cell lies
near the edge of the unsolved region is placed soon, so whatever it is
pushed away now is paid for soon; one that belongs deep inside will be
pushed about many times before its line comes, so a step away now costs
little in the end. Prices therefore fall with the depth of the tile's goal
cell inside the region (counted from its nearest side, in shares of the
region's side, since a larger region keeps a tile waiting longer), and a tile that
belongs at the edge makes a move that brings it home cheaper than a plain
one.
*/

use super::queue::BUCKETS;
use super::region::Region;
use crate::board::{Move, Shape};

/// Prices are counted in halves of a move, so that a move can be cheaper
/// than a plain one.
const UNIT: u16 = 2;
/// What a move that pushes a tile away costs, beyond [`UNIT`], at depth 0
/// and far inside, in [`UNIT`]s / 2; in between it falls exponentially
/// over [`DEPTH_SCALE`] of the region's side.
const PUSH_BACK_EDGE: f64 = 80.0;
const PUSH_BACK_DEEP: f64 = 4.0;
/// How far inside the region the price of pushing a tile away falls by a
/// factor e, as a share of the region's shorter side: a tile waits longer
/// for its line on a larger region, so pushing it away there costs less in
/// the end. Measured on random boards (moves / Manhattan distance; 7×7 200
/// boards, 20×20 20, 50×50 8), with the other figures as they are: 0.2
/// 2.270, 2.393, 2.297; a fixed 10 cells (and every cell deeper than 15
/// priced as one 15 deep) 2.313, 2.432, 2.295. With a push deep inside
/// priced at 1 move more rather than 2, 0.2 against 0.3: 2.373 and 2.405 on
/// 20×20, 2.266 and 2.276 on 100×100 (4 boards). A linear or a hyperbolic
/// fall does no better.
const DEPTH_SCALE: f64 = 0.2;
/// How much cheaper than a plain move a move is that brings home a tile
/// belonging at the edge (falling with depth as the push-back does). On
/// random 50×50 boards (moves / Manhattan distance, 20 boards, 9×9 boxes),
/// against the same prices without it: 2.342 / 2.371.
const PULL: f64 = 1.0;
/// Depths told apart: half the longest side a region can have.
const DEPTHS: usize = 128;
/// What each step still between the blank and its target is reckoned to
/// cost when the blank hops from box to box, about a move of either kind.
/// It matters little: on random 50×50 boards (moves / Manhattan distance,
/// 20 boards), 8 2.312, 14 2.307, 20 2.307, 28 2.304.
pub(super) const AHEAD: u32 = 7 * UNIT as u32;
/// The dearest move.
const DEAREST: u16 = UNIT + PUSH_BACK_EDGE as u16;
// The dearest move, plus one for the estimate, stays within the queue's
// window of values; and the cheapest move costs at least one, which the
// box searches' estimates take for granted.
const _: () = assert!(DEAREST as usize + 1 < BUCKETS);
const _: () = assert!(PULL < UNIT as f64);

/// The prices of blank moves while the lines of one region are placed.
///
/// Measured on random 50×50 boards (moves / Manhattan distance, 20 boards,
/// 9×9 boxes), with the other figures as they are: one price for every
/// tile (a push away costing 13 moves) 2.643; depth counted only from the
/// sides still to be peeled, rather than from all four, 2.375 against
/// 2.359; pushing away at 40 moves for edge tiles and 2 deep inside, with
/// scales of 2, 3, 5 and 10, 2.428, 2.380, 2.366 and 2.359.
#[derive(Clone, Debug)]
pub(super) struct Pricing {
    /// The depth of each row of the board inside the region (0 outside).
    row_depth: Vec<u8>,
    /// The same for each column.
    col_depth: Vec<u8>,
    /// By depth: a move that pushes the tile away from its goal cell.
    away: [u16; DEPTHS],
    /// By depth: a move that brings it nearer.
    toward: [u16; DEPTHS],
}

impl Pricing {
    /// Prices for a board of `shape`, before any region is set.
    pub(super) fn new(shape: Shape) -> Pricing {
        let mut pricing = Pricing {
            row_depth: vec![0; shape.height()],
            col_depth: vec![0; shape.width()],
            away: [0; DEPTHS],
            toward: [0; DEPTHS],
        };
        pricing.update(&Region::whole(shape));
        pricing
    }

    /// The prices while the lines of `region` are placed.
    pub(super) fn update(&mut self, region: &Region) {
        let scale = DEPTH_SCALE * region.width().min(region.height()) as f64;
        for (depth, (away, toward)) in self.away.iter_mut().zip(&mut self.toward).enumerate() {
            let fall = (-(depth as f64) / scale).exp();
            *away = UNIT + (PUSH_BACK_DEEP + (PUSH_BACK_EDGE - PUSH_BACK_DEEP) * fall).round() as u16;
            *toward = UNIT - (PULL * fall).round() as u16;
        }
        let depth = |at: usize, low: usize, high: usize| (at - low).min(high - at).min(DEPTHS - 1) as u8;
        for row in region.top..=region.bottom {
            self.row_depth[row] = depth(row, region.top, region.bottom);
        }
        for col in region.left..=region.right {
            self.col_depth[col] = depth(col, region.left, region.right);
        }
    }

    /// The cost of the blank moving `mv` into a cell at row and column `at`
    /// whose tile's goal cell, inside the region, is `home` (packed as in
    /// the builder's `homes`).
    #[inline]
    pub(super) fn step(&self, home: u32, at: (usize, usize), mv: Move) -> u16 {
        let (hr, hc) = ((home >> 16) as usize, (home & 0xFFFF) as usize);
        // The tile moves against the blank.
        let away = match mv {
            Move::Up => at.0 >= hr,
            Move::Down => at.0 <= hr,
            Move::Left => at.1 >= hc,
            Move::Right => at.1 <= hc,
        };
        let depth = usize::from(self.row_depth[hr].min(self.col_depth[hc]));
        if away { self.away[depth] } else { self.toward[depth] }
    }
}
