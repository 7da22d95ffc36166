/*!
What a blank move costs in the constructive solver's box searches. Every
move slides one tile a step, towards its goal cell or away from it; a tile
pushed away must be carried back later at several moves a step, so such a
move is priced dearer and the blank takes the cheapest way rather than the
shortest.
*/

use super::queue::BUCKETS;
use super::region::Region;
use crate::board::{Move, Shape};

/// What a blank move costs, beyond one, when it pushes the tile it moves
/// away from that tile's goal cell (moving it nearer costs one). Measured
/// on random 50×50 boards (mean moves / n³, 20 boards, 7×7 boxes): 0 (any
/// shortest way) 2.571, 2 2.005, 4 1.825, 6 1.790, 8 1.780, 10 1.780, 12
/// 1.778, 16 1.777, 20 1.774; Parberry's expected 8/3 ≈ 2.67.
const PUSH_BACK: u16 = 12;
/// What each step still between the blank and its target is reckoned to
/// cost when the blank hops from box to box: a move of either kind, on
/// average. It matters little: measured on random 50×50 boards (mean moves
/// / n³, 20 boards, 7×7 boxes): 1 1.786, 3 1.785, 5 1.779, 7 1.778, 9 1.772,
/// 13 1.776.
pub(super) const AHEAD: u32 = 1 + PUSH_BACK as u32 / 2;
/// The dearest move.
const DEAREST: u16 = 1 + PUSH_BACK;
// The dearest move, plus one for the estimate, stays within the queue's
// window of values.
const _: () = assert!(DEAREST as usize + 1 < BUCKETS);

/// The prices of blank moves while the lines of one region are placed.
#[derive(Clone, Debug, Default)]
pub(super) struct Pricing;

impl Pricing {
    /// The prices while the lines of `region` are placed.
    pub(super) fn update(&mut self, _shape: Shape, _region: &Region) {}

    /// The cost of the blank moving `mv` into a cell at row and column `at`
    /// whose tile's goal cell is `home` (packed as in the builder's
    /// `homes`): one, plus [`PUSH_BACK`] if the tile is pushed further from
    /// it.
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
        if away { DEAREST } else { 1 }
    }
}
