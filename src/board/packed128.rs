/*!
`Packed128`: a board of 17 to 25 cells (5×5, 4×6, 3×8 …) in one `u128`,
five bits per cell.

A [`Wide`](super::Wide) board of this size class is 33 bytes and its
tagged form 34: greedy and weighted A* on the 24-puzzle spent almost half
their time hashing and probing such entries. Sixteen bytes halve the
closed set's cache lines and make a comparison two words. Cells past the
board's own hold 31, so the only zero field is the blank's and the blank is
found with a few word operations instead of being stored; the three bits
above the 25 fields carry the arrival move in tagged form.
*/

use super::{Board, Move, code_move, field_low_bits, mix64, move_code};
use std::fmt;

/// Bits per cell.
const BITS: usize = 5;
/// Cells one word holds.
const CELLS: usize = 25;
/// One cell's bits.
const FIELD: u128 = (1 << BITS) - 1;
/// The low bit of every field.
const LOW_BITS: u128 = field_low_bits(BITS, CELLS);
/// The 125 bits of the cells; the three above hold a tag.
const BOARD_BITS: u128 = (1 << (BITS * CELLS)) - 1;
/// Where the tag starts.
const TAG_SHIFT: usize = BITS * CELLS;

/// A board of up to 25 cells packed into a `u128` (cell `i` in bits
/// `5i..5i+5`, the bits above the cells zero).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Packed128(u128);

impl Board for Packed128 {
    const CAPACITY: usize = CELLS;

    type Places = [u8; 32];

    type Tagged = u128;

    /// Every real board has a nonzero field.
    const VACANT: u128 = 0;

    fn from_tiles(tiles: &[u16]) -> Packed128 {
        debug_assert!(tiles.len() <= CELLS && tiles.iter().all(|&t| u128::from(t) <= FIELD));
        let mut bits = BOARD_BITS;
        for (pos, &tile) in tiles.iter().enumerate() {
            bits &= !(FIELD << (BITS * pos));
            bits |= u128::from(tile) << (BITS * pos);
        }
        Packed128(bits)
    }

    #[inline]
    fn tag(&self, arrival: Option<Move>) -> u128 {
        self.0 | (u128::from(move_code(arrival)) << TAG_SHIFT)
    }

    #[inline]
    fn untag(tagged: u128) -> (Packed128, Option<Move>) {
        (Packed128(tagged & BOARD_BITS), code_move((tagged >> TAG_SHIFT) as u8))
    }

    #[inline]
    fn tagged_hash(tagged: &u128) -> u64 {
        let board = tagged & BOARD_BITS;
        mix64((board as u64) ^ ((board >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(32))
    }

    #[inline]
    fn same_board(a: &u128, b: &u128) -> bool {
        (a ^ b) & BOARD_BITS == 0
    }

    #[inline]
    fn tile(&self, pos: usize) -> u8 {
        ((self.0 >> (BITS * pos)) & FIELD) as u8
    }

    #[inline]
    fn blank(&self) -> usize {
        // A field's top bit survives `x - LOW_BITS` with its own top bit
        // clear only where the field was 0 (or borrowed from one below, and
        // the lowest such field is the real zero).
        let zero_fields = self.0.wrapping_sub(LOW_BITS) & !self.0 & (LOW_BITS << (BITS - 1));
        (zero_fields.trailing_zeros() as usize - (BITS - 1)) / BITS
    }

    #[inline]
    fn slide(&self, blank: usize, from: usize) -> Packed128 {
        let tile = (self.0 >> (BITS * from)) & FIELD;
        Packed128(self.0 ^ (tile << (BITS * from)) ^ (tile << (BITS * blank)))
    }
}

impl fmt::Debug for Packed128 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Packed128({:032x})", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_tiles_and_finds_the_blank_in_every_cell_for_every_cell_count() {
        for n in 4..=CELLS {
            for blank in 0..n {
                let mut tiles: Vec<u16> = (1..n as u16).rev().collect();
                tiles.insert(blank, 0);
                let b = Packed128::from_tiles(&tiles);
                assert_eq!(b.to_tiles(n), tiles, "{n} cells");
                assert_eq!(b.blank(), blank, "{n} cells");
            }
        }
    }

    #[test]
    fn tags_ride_above_the_cells_and_never_change_the_board() {
        let tiles: Vec<u16> = (0..25).rev().collect();
        let b = Packed128::from_tiles(&tiles);
        let slid = b.slide(b.blank(), b.blank() - 5);
        for arrival in [None, Some(Move::Up), Some(Move::Down), Some(Move::Left), Some(Move::Right)] {
            let tagged = b.tag(arrival);
            assert_ne!(tagged, Packed128::VACANT);
            assert_eq!(Packed128::untag(tagged), (b, arrival));
            assert_eq!(Packed128::tagged_hash(&tagged), Packed128::tagged_hash(&b.tag(None)));
            assert!(Packed128::same_board(&tagged, &b.tag(None)));
            assert!(!Packed128::same_board(&tagged, &slid.tag(arrival)));
        }
    }

    #[test]
    fn slides_move_the_tile_into_the_blank_and_back() {
        let start: Vec<u16> = (0..25).collect();
        let a = Packed128::from_tiles(&start);
        let down = a.slide(0, 5);
        assert_eq!(down.blank(), 5);
        assert_eq!(&down.to_tiles(25)[..6], &[5, 1, 2, 3, 4, 0]);
        assert_eq!(down.slide(5, 0), a);
        let mut last = start.clone();
        last.swap(0, 24);
        let b = Packed128::from_tiles(&last);
        assert_eq!(b.blank(), 24);
        assert_eq!(b.slide(24, 23).to_tiles(25)[23..], [0, 23]);
    }

    #[test]
    fn boards_as_wide_and_as_packed_agree_along_a_random_walk() {
        use crate::board::Wide;
        let mut tiles: Vec<u16> = (1..20).collect();
        tiles.push(0);
        let (mut p, mut w) = (Packed128::from_tiles(&tiles), Wide::<32>::from_tiles(&tiles));
        let mut x = 1u64;
        for _ in 0..10_000 {
            x = mix64(x);
            let blank = p.blank();
            let (row, col) = (blank / 5, blank % 5);
            let from = match x % 4 {
                0 if row > 0 => blank - 5,
                1 if row < 3 => blank + 5,
                2 if col > 0 => blank - 1,
                3 if col < 4 => blank + 1,
                _ => continue,
            };
            (p, w) = (p.slide(blank, from), w.slide(w.blank(), from));
            assert_eq!(p.to_tiles(20), w.to_tiles(20));
            assert_eq!(p.blank(), w.blank());
        }
    }
}
