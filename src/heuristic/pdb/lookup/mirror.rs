/*!
The board's mirror image along the main diagonal, when it maps the goal to
itself: a second board as far from the goal, read from the same databases
(see the pattern databases' overview), so a second admissible value for
free.
*/

use crate::board::{Goal, TileCells};
use crate::heuristic::pdb::index::MAX_CELLS;

/// The diagonal reflection, when it maps the goal to itself.
#[derive(Clone, Debug)]
pub(super) struct Mirror {
    /// `relabel[t]`: the tile whose goal cell is the transpose of `t`'s (an
    /// involution; the blank maps to itself).
    pub(super) relabel: [u8; MAX_CELLS],
    /// `transpose[cell]`: the cell mirrored along the main diagonal.
    pub(super) transpose: [u8; MAX_CELLS],
}

impl Mirror {
    /// The reflection for `goal`, if it is square and its blank is on the
    /// main diagonal (then the blank maps to itself and so do the goal and
    /// the move graph).
    pub(super) fn new(goal: &Goal) -> Option<Mirror> {
        let shape = goal.shape();
        let blank = goal.cell_of(0);
        if !shape.is_square() || shape.row(blank) != shape.col(blank) {
            return None;
        }
        let mut transpose = [0u8; MAX_CELLS];
        for (cell, t) in transpose.iter_mut().enumerate().take(goal.cells()) {
            *t = shape.transpose(cell) as u8;
        }
        let layout = goal.tiles().cells();
        let mut relabel = [0u8; MAX_CELLS];
        for tile in 0..goal.cells() {
            relabel[tile] = layout[usize::from(transpose[goal.cell_of(tile as u16)])] as u8;
        }
        Some(Mirror { relabel, transpose })
    }

    /// `cell_of` of the mirrored board, from the board's own.
    #[inline(always)]
    #[expect(clippy::inline_always, reason = "compiled into each lookup, for its instruction sets")]
    pub(super) fn reflect<C: TileCells>(&self, cell_of: &C, cells: usize) -> C {
        let mut out = C::ZERO;
        let (from, to) = (cell_of.bytes(), out.bytes_mut());
        for tile in 0..cells.min(C::LEN).min(MAX_CELLS) {
            to[usize::from(self.relabel[tile]) & (C::LEN - 1)] =
                self.transpose[usize::from(from[tile]) & (MAX_CELLS - 1)];
        }
        out
    }
}
