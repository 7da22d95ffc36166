/*!
The board encodings searches are compiled for, and which one a board of a
given shape is searched in: the smallest that holds it.
*/

use crate::board::{Board, Packed, Packed128, PackedWords, Shape, Wide};

/// The board encodings searches are compiled for, smallest first: a board
/// uses the smallest that holds it, so it hashes, compares and stores no
/// more bytes than it must.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Encoding {
    /// [`Packed`], up to 16 cells.
    Packed,
    /// [`Packed128`], up to 25 cells: 5×5, 4×6, 3×8.
    Packed128,
    /// [`PackedWords<4>`](PackedWords), up to 40 cells: 6×6, 4×8, 5×8.
    Words4,
    /// [`PackedWords<5>`](PackedWords), up to 50 cells: 7×7, 6×8.
    Words5,
    /// [`Wide<64>`](Wide), up to 64 cells: 8×8. Packed in seven words, an
    /// 8×8 board searched no faster (its closed set misses the caches
    /// either way, and finding the blank takes more work).
    Wide64,
    /// [`Wide<MAX_SEARCH_CELLS>`](Wide), up to 16×16.
    Wide256,
}

impl Encoding {
    /// The encoding a board of `shape` is searched in.
    pub(crate) fn of(shape: Shape) -> Encoding {
        match shape.cells() {
            cells if cells <= Packed::CAPACITY => Encoding::Packed,
            cells if cells <= Packed128::CAPACITY => Encoding::Packed128,
            cells if cells <= PackedWords::<4>::CAPACITY => Encoding::Words4,
            cells if cells <= PackedWords::<5>::CAPACITY => Encoding::Words5,
            cells if cells <= Wide::<64>::CAPACITY => Encoding::Wide64,
            _ => Encoding::Wide256,
        }
    }
}
