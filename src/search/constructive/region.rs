/*!
The unsolved region and the lines peeled from it: a rectangle that shrinks
one outer row or column at a time, and a line in its own coordinates.
*/

use crate::board::Shape;

/// A line to peel in its own coordinates: depth `i` into the region from
/// the line (0 = the line), position `j` along it (the last two tiles are
/// at `len − 2` and `len − 1`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame {
    pub(crate) row: isize,
    pub(crate) col: isize,
    pub(crate) along: (isize, isize),
    pub(crate) inward: (isize, isize),
    pub(crate) len: usize,
}

impl Frame {
    #[expect(clippy::cast_possible_wrap, reason = "board sides are far below isize::MAX")]
    pub(crate) fn cell(&self, shape: Shape, i: usize, j: usize) -> usize {
        let (i, j) = (i as isize, j as isize);
        let row = self.row + i * self.inward.0 + j * self.along.0;
        let col = self.col + i * self.inward.1 + j * self.along.1;
        shape.cell(row as usize, col as usize)
    }
}

/// The sides of the region a line can be peeled from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Side {
    Top,
    Bottom,
    Left,
    Right,
}

/// The unsolved rectangle, bounds inclusive.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Region {
    pub(crate) top: usize,
    pub(crate) bottom: usize,
    pub(crate) left: usize,
    pub(crate) right: usize,
}

impl Region {
    /// The whole board, where solving starts.
    pub(crate) fn whole(shape: Shape) -> Region {
        Region { top: 0, bottom: shape.height() - 1, left: 0, right: shape.width() - 1 }
    }

    pub(crate) fn width(&self) -> usize {
        self.right - self.left + 1
    }

    pub(crate) fn height(&self) -> usize {
        self.bottom - self.top + 1
    }

    /// The line on `side`, from its top or left end.
    #[expect(clippy::cast_possible_wrap, reason = "board sides are far below isize::MAX")]
    pub(crate) fn frame(&self, side: Side) -> Frame {
        let (top, bottom, left, right) =
            (self.top as isize, self.bottom as isize, self.left as isize, self.right as isize);
        let (row, col, along, inward, len) = match side {
            Side::Top => (top, left, (0, 1), (1, 0), self.width()),
            Side::Bottom => (bottom, left, (0, 1), (-1, 0), self.width()),
            Side::Left => (top, left, (1, 0), (0, 1), self.height()),
            Side::Right => (top, right, (1, 0), (0, -1), self.height()),
        };
        Frame { row, col, along, inward, len }
    }

    /// Whether `side` may be peeled: its line must not hold the blank's
    /// goal cell, and a line needs two more lines beside it to be placed.
    pub(crate) fn can_peel(&self, side: Side, blank_goal: (usize, usize)) -> bool {
        let (row, col) = blank_goal;
        match side {
            Side::Top => self.height() >= 3 && row != self.top,
            Side::Bottom => self.height() >= 3 && row != self.bottom,
            Side::Left => self.width() >= 3 && col != self.left,
            Side::Right => self.width() >= 3 && col != self.right,
        }
    }

    /// The region's cells, row by row.
    pub(crate) fn cells(&self, shape: Shape) -> Vec<usize> {
        (self.top..=self.bottom)
            .flat_map(|r| (self.left..=self.right).map(move |c| shape.cell(r, c)))
            .collect()
    }

    pub(crate) fn peel(&mut self, side: Side) {
        match side {
            Side::Top => self.top += 1,
            Side::Bottom => self.bottom -= 1,
            Side::Left => self.left += 1,
            Side::Right => self.right -= 1,
        }
    }
}
