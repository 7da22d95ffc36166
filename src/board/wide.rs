/*!
`Wide`: a board of up to 8×8, one byte per cell, blank cached.

Above 4×4 a tile no longer fits in a nibble of one word; a byte per cell keeps
slides to two stores. Equality and hashing ignore the cached blank, which is
derived from the cells.
*/

use super::{Board, Move, code_move, mix64, move_code};
use std::fmt;
use std::hash::{Hash, Hasher};

/// Cells a [`Wide`] board can hold (8×8).
const CAPACITY: usize = 64;

/// A board of width up to 8; cells past N² are zero and never read.
#[derive(Clone, Copy)]
pub struct Wide {
    cells: [u8; CAPACITY],
    blank: u8,
}

impl PartialEq for Wide {
    #[inline]
    fn eq(&self, other: &Wide) -> bool {
        self.cells == other.cells
    }
}

impl Eq for Wide {}

impl Hash for Wide {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.cells.hash(state);
    }
}

/// A [`Wide`] board with its arrival move, for compact tables.
#[derive(Clone, Copy, Debug)]
pub struct TaggedWide {
    board: Wide,
    code: u8,
}

impl Board for Wide {
    const MAX_WIDTH: usize = 8;

    type Tagged = TaggedWide;

    /// All-zero cells are never a board (only the blank is 0).
    const VACANT: TaggedWide = TaggedWide { board: Wide { cells: [0; CAPACITY], blank: 0 }, code: 0 };

    #[inline]
    fn tag(&self, arrival: Option<Move>) -> TaggedWide {
        TaggedWide { board: *self, code: move_code(arrival) }
    }

    #[inline]
    fn untag(tagged: TaggedWide) -> (Wide, Option<Move>) {
        (tagged.board, code_move(tagged.code))
    }

    #[inline]
    fn tagged_hash(tagged: &TaggedWide) -> u64 {
        let mut hasher = rustc_hash::FxHasher::default();
        tagged.board.hash(&mut hasher);
        mix64(hasher.finish())
    }

    #[inline]
    fn same_board(a: &TaggedWide, b: &TaggedWide) -> bool {
        a.board == b.board
    }

    fn from_tiles(tiles: &[u8]) -> Wide {
        let mut cells = [0; CAPACITY];
        cells[..tiles.len()].copy_from_slice(tiles);
        let blank = tiles.iter().position(|&t| t == 0).unwrap_or(0) as u8;
        Wide { cells, blank }
    }

    #[inline]
    fn tile(&self, pos: usize) -> u8 {
        self.cells[pos]
    }

    #[inline]
    fn blank(&self) -> usize {
        self.blank as usize
    }

    #[inline]
    fn slide(&self, blank: usize, from: usize) -> Wide {
        let mut next = *self;
        next.cells[blank] = self.cells[from];
        next.cells[from] = 0;
        next.blank = from as u8;
        next
    }
}

impl fmt::Debug for Wide {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Wide(blank {}, {:?})", self.blank, &self.cells[..])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_tiles_make_equal_boards_after_different_slides() {
        let start: Vec<u8> = (0..25).collect();
        let a = Wide::from_tiles(&start);
        let there_and_back = a.slide(0, 1).slide(1, 0);
        assert_eq!(a, there_and_back);
        assert_eq!(there_and_back.blank(), 0);
        assert_eq!(a.slide(0, 5).to_tiles(25)[0], 5);
    }
}
