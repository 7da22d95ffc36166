/*!
`Wide`: a board of any size up to 256 cells, one byte per cell, blank
cached.

Searches use it past 50 cells (`Wide<64>` up to 8×8, `Wide<256>` up to
16×16); smaller boards have denser encodings, which the tests check against
this plain one. The capacity `N` is a parameter so a board
carries (hashes, compares, stores) no more bytes than its size class needs.
Equality and hashing ignore the cached blank, which is derived from the
cells.
*/

use super::{Board, MAX_SEARCH_CELLS, Move, code_move, mix64, move_code};
use std::fmt;
use std::hash::{Hash, Hasher};

/// A board of up to `N` cells (`N` ≤ 256, so a cell index fits a byte);
/// cells past the board's own are zero and never read.
#[derive(Clone, Copy)]
pub struct Wide<const N: usize = 64> {
    cells: [u8; N],
    blank: u8,
}

/// Compared a 32-byte block at a time, each block as four words folded
/// into one test: the array comparison became a `memcmp` call per probe,
/// a third of weighted A*'s time on 7×7 boards.
impl<const N: usize> PartialEq for Wide<N> {
    #[inline]
    fn eq(&self, other: &Wide<N>) -> bool {
        let word = |bytes: &[u8]| u64::from_ne_bytes(bytes.try_into().unwrap_or_default());
        let blocks = self.cells.chunks_exact(32).zip(other.cells.chunks_exact(32));
        for (a, b) in blocks {
            let differ =
                a.chunks_exact(8).zip(b.chunks_exact(8)).fold(0, |acc, (x, y)| acc | (word(x) ^ word(y)));
            if differ != 0 {
                return false;
            }
        }
        let tail = N - N % 32;
        self.cells[tail..] == other.cells[tail..]
    }
}

impl<const N: usize> Eq for Wide<N> {}

impl<const N: usize> Hash for Wide<N> {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.cells.hash(state);
    }
}

/// A [`Wide`] board with its arrival move, for compact tables.
#[derive(Clone, Copy, Debug)]
pub struct TaggedWide<const N: usize = 64> {
    board: Wide<N>,
    code: u8,
}

impl<const N: usize> Board for Wide<N> {
    const CAPACITY: usize = N;

    /// The widest map: no heuristic keeps one for a board beyond 64 cells.
    type Places = [u8; 64];

    type Tagged = TaggedWide<N>;

    /// All-zero cells are never a board (only the blank is 0).
    const VACANT: TaggedWide<N> = TaggedWide { board: Wide { cells: [0; N], blank: 0 }, code: 0 };

    #[inline]
    fn tag(&self, arrival: Option<Move>) -> TaggedWide<N> {
        TaggedWide { board: *self, code: move_code(arrival) }
    }

    #[inline]
    fn untag(tagged: TaggedWide<N>) -> (Wide<N>, Option<Move>) {
        (tagged.board, code_move(tagged.code))
    }

    #[inline]
    fn tagged_hash(tagged: &TaggedWide<N>) -> u64 {
        let mut hasher = rustc_hash::FxHasher::default();
        tagged.board.hash(&mut hasher);
        mix64(hasher.finish())
    }

    #[inline]
    fn same_board(a: &TaggedWide<N>, b: &TaggedWide<N>) -> bool {
        a.board == b.board
    }

    fn from_tiles(tiles: &[u16]) -> Wide<N> {
        debug_assert!(tiles.len() <= N && N <= MAX_SEARCH_CELLS);
        let mut cells = [0; N];
        for (cell, &tile) in cells.iter_mut().zip(tiles) {
            *cell = tile as u8;
        }
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
    fn slide(&self, blank: usize, from: usize) -> Wide<N> {
        let mut next = *self;
        next.cells[blank] = self.cells[from];
        next.cells[from] = 0;
        next.blank = from as u8;
        next
    }
}

impl<const N: usize> fmt::Debug for Wide<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Wide(blank {}, {:?})", self.blank, &self.cells[..])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_tiles_make_equal_boards_after_different_slides() {
        let start: Vec<u16> = (0..25).collect();
        let a = Wide::<64>::from_tiles(&start);
        let there_and_back = a.slide(0, 1).slide(1, 0);
        assert_eq!(a, there_and_back);
        assert_eq!(there_and_back.blank(), 0);
        assert_eq!(a.slide(0, 5).to_tiles(25)[0], 5);
    }

    #[test]
    fn the_largest_class_holds_a_16x16_board_with_its_last_cell() {
        let mut start: Vec<u16> = (0..256).collect();
        start.swap(0, 255);
        let board = Wide::<256>::from_tiles(&start);
        assert_eq!(board.blank(), 255);
        assert_eq!(board.to_tiles(256), start);
        assert_eq!(board.slide(255, 254).blank(), 254);
    }
}
