/*!
`Packed`: a board of up to 4×4 in one `u64`, four bits per cell.

Being a bare `u64` makes hashing one multiply (rustc-hash) and a stored state
eight bytes. Cells past N² hold `0xF`, so the only zero nibble is the blank and
the blank's cell can be found with a few bit operations instead of being
stored. The last nibble is chosen so all sixteen XOR to zero (slides keep
that), which makes it derivable from the other fifteen: compact tables store
a move in it instead (see [`Board::tag`]).
*/

use super::{Board, Move, code_move, mix64, move_code};
use std::fmt;

/// Bit 0 of every nibble.
const LOW_BITS: u64 = 0x1111_1111_1111_1111;
/// Cells 0 to 14: every nibble but the derivable last one.
const FIRST_15: u64 = (1 << 60) - 1;

/// XOR of the sixteen nibbles of `x`.
#[inline]
const fn xor_nibbles(mut x: u64) -> u64 {
    x ^= x >> 32;
    x ^= x >> 16;
    x ^= x >> 8;
    x ^= x >> 4;
    x & 0xF
}

/// A board of width 2 to 4 packed into a `u64` (cell `i` in bits `4i..4i+4`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Packed(u64);

impl Packed {
    /// The raw packed value, e.g. for compact tables keyed by board.
    #[inline]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// Rebuilds a board from [`Packed::bits`].
    #[inline]
    pub const fn from_bits(bits: u64) -> Packed {
        Packed(bits)
    }
}

impl Board for Packed {
    const CAPACITY: usize = 16;

    type Places = [u8; 16];

    type Tagged = u64;

    /// No board has fifteen zero nibbles in cells 0 to 14.
    const VACANT: u64 = 0;

    fn from_tiles(tiles: &[u16]) -> Packed {
        debug_assert!(tiles.len() <= 16);
        let mut bits = u64::MAX;
        for (pos, &tile) in tiles.iter().enumerate() {
            bits &= !(0xF << (4 * pos));
            bits |= u64::from(tile) << (4 * pos);
        }
        if tiles.len() < 16 {
            // Below 16 cells the last nibble is padding: make all sixteen
            // XOR to 0. It is never 0 (so never mistaken for the blank): for
            // every count n from 4 to 15, the XOR of 0..n and 15 − n padding
            // nibbles 0xF is one of 4, 7, 8, 11, 12, 14, 15.
            let rest = bits & FIRST_15;
            bits = rest | (xor_nibbles(rest) << 60);
        }
        Packed(bits)
    }

    #[inline]
    fn tag(&self, arrival: Option<Move>) -> u64 {
        (self.0 & FIRST_15) | (u64::from(move_code(arrival)) << 60)
    }

    #[inline]
    fn untag(tagged: u64) -> (Packed, Option<Move>) {
        let rest = tagged & FIRST_15;
        (Packed(rest | (xor_nibbles(rest) << 60)), code_move((tagged >> 60) as u8))
    }

    #[inline]
    fn tagged_hash(tagged: &u64) -> u64 {
        mix64(tagged & FIRST_15)
    }

    #[inline]
    fn same_board(a: &u64, b: &u64) -> bool {
        (a ^ b) & FIRST_15 == 0
    }

    #[inline]
    fn tile(&self, pos: usize) -> u8 {
        ((self.0 >> (4 * pos)) & 0xF) as u8
    }

    #[inline]
    fn blank(&self) -> usize {
        // Fold each nibble's four bits into its lowest bit; the blank's stays 0.
        let folded = self.0 | (self.0 >> 1);
        let folded = folded | (folded >> 2);
        ((!folded & LOW_BITS).trailing_zeros() / 4) as usize
    }

    #[inline]
    fn slide(&self, blank: usize, from: usize) -> Packed {
        let shift = 4 * from;
        let tile = (self.0 >> shift) & 0xF;
        Packed((self.0 & !(0xF << shift)) | (tile << (4 * blank)))
    }
}

impl fmt::Debug for Packed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Packed({:016x})", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_tiles_and_finds_the_blank_for_every_width() {
        for width in 2..=4 {
            let n = width * width;
            for blank in 0..n {
                let mut tiles: Vec<u16> = (1..n as u16).collect();
                tiles.insert(blank, 0);
                let b = Packed::from_tiles(&tiles);
                assert_eq!(b.to_tiles(n), tiles);
                assert_eq!(b.blank(), blank);
            }
        }
    }

    #[test]
    fn tags_ride_in_the_derivable_nibble_for_every_width() {
        for width in 2..=4 {
            let n = width * width;
            let tiles: Vec<u16> = (0..n as u16).rev().collect();
            let b = Packed::from_tiles(&tiles);
            for arrival in [None, Some(Move::Up), Some(Move::Right)] {
                let tagged = b.tag(arrival);
                assert_ne!(tagged, Packed::VACANT);
                assert_eq!(Packed::untag(tagged), (b, arrival));
                let slid = b.slide(b.blank(), b.blank() - 1);
                assert_eq!(Packed::untag(slid.tag(arrival)).0, slid);
                assert!(Packed::same_board(&tagged, &b.tag(None)));
                assert!(!Packed::same_board(&tagged, &slid.tag(arrival)));
            }
        }
    }

    #[test]
    fn every_cell_count_a_rectangle_can_have_packs_with_a_nonzero_padding_nibble() {
        for n in 4..=16 {
            let tiles: Vec<u16> = (0..n as u16).rev().collect();
            let b = Packed::from_tiles(&tiles);
            assert_eq!(b.to_tiles(n), tiles, "{n} cells");
            assert_eq!(b.blank(), n - 1, "{n} cells: the padding is never taken for the blank");
            assert_eq!(Packed::untag(b.tag(Some(Move::Left))), (b, Some(Move::Left)), "{n} cells");
        }
    }

    #[test]
    fn slide_moves_the_tile_into_the_blank() {
        let b = Packed::from_tiles(&[1, 2, 5, 3, 4, 0, 6, 7, 8]);
        let up = b.slide(5, 2);
        assert_eq!(up.to_tiles(9), vec![1, 2, 0, 3, 4, 5, 6, 7, 8]);
        assert_eq!(up.blank(), 2);
    }
}
