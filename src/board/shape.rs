/*!
`Shape`: the one owner of a board's geometry.

A board is `width` columns by `height` rows of cells numbered row-major from
the top-left. Everything that needs to know where a cell is (rows, columns,
neighbours, distances, the diagonal mirror) asks its `Shape` rather than
recomputing `width * width`, so rectangles need no special cases anywhere
else.
*/

use super::Move;
use std::fmt;

/// Smallest side of a board: with one row or column, tiles cannot pass
/// each other and most arrangements are unreachable.
pub const MIN_SIDE: usize = 2;
/// Largest side of a board that is read, checked, generated and solved by
/// the constructive solver: 65,536 cells keep every tile a `u16`.
pub const MAX_SIDE: usize = 256;
/// Largest side of a board the searches (BFS, DFS, A*, IDA*, greedy) take:
/// 16×16 keeps every tile and cell index in a byte and every line short.
pub const MAX_SEARCH_SIDE: usize = 16;
/// Most cells of a board the searches take: a tile or a cell of such a
/// board fits a byte, so per-tile tables of this many entries are indexed
/// by any byte unchecked.
pub const MAX_SEARCH_CELLS: usize = MAX_SEARCH_SIDE * MAX_SEARCH_SIDE;

/// The size of a board: `width` columns by `height` rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shape {
    width: usize,
    height: usize,
}

impl Shape {
    /// A board of `width` columns and `height` rows.
    pub const fn new(width: usize, height: usize) -> Shape {
        Shape { width, height }
    }

    /// An N×N board.
    pub const fn square(side: usize) -> Shape {
        Shape { width: side, height: side }
    }

    /// Columns.
    #[inline]
    pub const fn width(self) -> usize {
        self.width
    }

    /// Rows.
    #[inline]
    pub const fn height(self) -> usize {
        self.height
    }

    /// Number of cells, blank included.
    #[inline]
    pub const fn cells(self) -> usize {
        self.width * self.height
    }

    /// Whether the board is N×N.
    #[inline]
    pub const fn is_square(self) -> bool {
        self.width == self.height
    }

    /// The row of `cell`, from 0 at the top.
    #[inline]
    pub const fn row(self, cell: usize) -> usize {
        cell / self.width
    }

    /// The column of `cell`, from 0 at the left.
    #[inline]
    pub const fn col(self, cell: usize) -> usize {
        cell % self.width
    }

    /// The cell at `row`, `col`.
    #[inline]
    pub const fn cell(self, row: usize, col: usize) -> usize {
        row * self.width + col
    }

    /// Rows and columns between two cells.
    #[inline]
    pub const fn offsets(self, a: usize, b: usize) -> (usize, usize) {
        (self.row(a).abs_diff(self.row(b)), self.col(a).abs_diff(self.col(b)))
    }

    /// Taxicab distance between two cells: the fewest moves of one tile
    /// from one to the other on an empty board.
    #[inline]
    pub const fn distance(self, a: usize, b: usize) -> usize {
        let (rows, cols) = self.offsets(a, b);
        rows + cols
    }

    /// The cell next to `cell` in direction `mv`, if it is on the board.
    #[inline]
    pub const fn neighbour(self, cell: usize, mv: Move) -> Option<usize> {
        let (row, col) = (self.row(cell), self.col(cell));
        match mv {
            Move::Up if row > 0 => Some(cell - self.width),
            Move::Down if row + 1 < self.height => Some(cell + self.width),
            Move::Left if col > 0 => Some(cell - 1),
            Move::Right if col + 1 < self.width => Some(cell + 1),
            _ => None,
        }
    }

    /// The cells next to `cell`, in successor order, with the direction
    /// from `cell` to each.
    pub fn neighbours(self, cell: usize) -> impl Iterator<Item = (Move, usize)> {
        Move::ALL.into_iter().filter_map(move |mv| self.neighbour(cell, mv).map(|to| (mv, to)))
    }

    /// The cells of row `row`, left to right.
    pub fn row_cells(self, row: usize) -> std::ops::Range<usize> {
        row * self.width..(row + 1) * self.width
    }

    /// The cells of column `col`, top to bottom.
    pub fn col_cells(self, col: usize) -> std::iter::StepBy<std::ops::Range<usize>> {
        (col..self.cells()).step_by(self.width)
    }

    /// The shape mirrored along the main diagonal (rows become columns).
    pub const fn transposed(self) -> Shape {
        Shape { width: self.height, height: self.width }
    }

    /// Where `cell` lands when the board is mirrored along the main
    /// diagonal: in [`Shape::transposed`]'s numbering.
    #[inline]
    pub const fn transpose(self, cell: usize) -> usize {
        self.col(cell) * self.height + self.row(cell)
    }
}

/// A bare number is the side of a square board.
impl From<usize> for Shape {
    fn from(side: usize) -> Shape {
        Shape::square(side)
    }
}

/// `WxH`, the form the command line takes: `4x4`, `4x3`.
impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

/// `N` or `WxH` (also `WXH`, `W×H`) as a shape, whatever its size.
pub fn parse_shape(text: &str) -> Option<Shape> {
    let side = |s: &str| s.parse::<usize>().ok().filter(|_| s.bytes().all(|b| b.is_ascii_digit()));
    match text.split_once(['x', 'X', '×']) {
        Some((w, h)) => Some(Shape::new(side(w)?, side(h)?)),
        None => side(text).map(Shape::square),
    }
}

/// Whether both sides are within [`MIN_SIDE`]..=[`MAX_SIDE`].
pub fn supported(shape: Shape) -> bool {
    (MIN_SIDE..=MAX_SIDE).contains(&shape.width()) && (MIN_SIDE..=MAX_SIDE).contains(&shape.height())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_numbered_row_major_from_the_top_left() {
        let s = Shape::new(4, 3);
        assert_eq!(s.cells(), 12);
        assert_eq!((s.row(6), s.col(6)), (1, 2));
        assert_eq!(s.cell(2, 3), 11);
        assert_eq!(s.row_cells(1).collect::<Vec<_>>(), [4, 5, 6, 7]);
        assert_eq!(s.col_cells(1).collect::<Vec<_>>(), [1, 5, 9]);
        assert_eq!(s.distance(0, 11), 5);
        assert_eq!(s.to_string(), "4x3");
    }

    #[test]
    fn neighbours_stay_on_the_board_in_successor_order() {
        let s = Shape::new(3, 2);
        assert_eq!(s.neighbours(0).collect::<Vec<_>>(), [(Move::Down, 3), (Move::Right, 1)]);
        assert_eq!(s.neighbours(4).collect::<Vec<_>>(), [(Move::Up, 1), (Move::Left, 3), (Move::Right, 5)]);
    }

    #[test]
    fn transposing_swaps_rows_and_columns_and_undoes_itself() {
        let s = Shape::new(4, 3);
        let t = s.transposed();
        assert_eq!((t.width(), t.height()), (3, 4));
        for cell in 0..s.cells() {
            let moved = s.transpose(cell);
            assert_eq!((t.row(moved), t.col(moved)), (s.col(cell), s.row(cell)));
            assert_eq!(t.transpose(moved), cell);
        }
    }
}
