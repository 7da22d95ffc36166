/*!
`PackedWords<K>`: a board of 26 to 50 cells (6×6, 7×7, 4×8 …) in `K`
words, six bits per cell, ten cells per word.

A [`Wide`](super::Wide) board of this size class is 65 bytes and its
tagged form 66, whatever the board's own size: weighted A* on 6×6 and 7×7
boards spent most of its time waiting for closed-set probes of such
entries. Six bits a cell make a 6×6 board 32 bytes and a 7×7 one 40, and a
comparison `K` word operations. (8×8 in seven words measured no faster: its
closed set misses the caches either way.) As in [`Packed128`](super::Packed128),
cells past the board's own hold all ones, so the only zero field is the
blank's and the blank is found with word operations instead of being
stored; the tag rides in the four bits above the first word's cells.
*/

use super::{Board, Move, code_move, field_low_bits, mix64, move_code};
use std::fmt;

/// Bits per cell.
const BITS: usize = 6;
/// Cells one word holds.
const PER_WORD: usize = 10;
/// One cell's bits.
const FIELD: u64 = (1 << BITS) - 1;
/// The 60 bits of a word's cells; the four above are spare.
const CELL_BITS: u64 = (1 << (BITS * PER_WORD)) - 1;
/// The low bit of every field of a word.
const LOW_BITS: u64 = field_low_bits(BITS, PER_WORD) as u64;
/// Where the tag starts in the first word.
const TAG_SHIFT: usize = BITS * PER_WORD;

/// A board of up to `10·K` cells, at most 64 (a tile fits six bits): cell
/// `i` in bits `6(i % 10)..` of word `i / 10`, the spare bits zero.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PackedWords<const K: usize>([u64; K]);

impl<const K: usize> PackedWords<K> {
    #[inline]
    fn place(pos: usize) -> (usize, usize) {
        (pos / PER_WORD, BITS * (pos % PER_WORD))
    }
}

impl<const K: usize> Board for PackedWords<K> {
    const CAPACITY: usize = if K * PER_WORD < 64 { K * PER_WORD } else { 64 };

    type Places = [u8; 64];

    type Tagged = [u64; K];

    /// Every real board has a nonzero field.
    const VACANT: [u64; K] = [0; K];

    fn from_tiles(tiles: &[u16]) -> PackedWords<K> {
        debug_assert!(tiles.len() <= Self::CAPACITY && tiles.iter().all(|&t| u64::from(t) <= FIELD));
        let mut words = [CELL_BITS; K];
        for (pos, &tile) in tiles.iter().enumerate() {
            let (word, shift) = Self::place(pos);
            words[word] &= !(FIELD << shift);
            words[word] |= u64::from(tile) << shift;
        }
        PackedWords(words)
    }

    #[inline]
    fn tag(&self, arrival: Option<Move>) -> [u64; K] {
        let mut tagged = self.0;
        tagged[0] |= u64::from(move_code(arrival)) << TAG_SHIFT;
        tagged
    }

    #[inline]
    fn untag(mut tagged: [u64; K]) -> (PackedWords<K>, Option<Move>) {
        let code = (tagged[0] >> TAG_SHIFT) as u8;
        tagged[0] &= CELL_BITS;
        (PackedWords(tagged), code_move(code))
    }

    #[inline]
    fn tagged_hash(tagged: &[u64; K]) -> u64 {
        let mut hash = tagged[0] & CELL_BITS;
        for &word in &tagged[1..] {
            hash = (hash ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
        }
        mix64(hash)
    }

    #[inline]
    fn same_board(a: &[u64; K], b: &[u64; K]) -> bool {
        let rest = a[1..].iter().zip(&b[1..]).fold(0, |acc, (x, y)| acc | (x ^ y));
        ((a[0] ^ b[0]) & CELL_BITS) | rest == 0
    }

    #[inline]
    fn tile(&self, pos: usize) -> u8 {
        let (word, shift) = Self::place(pos);
        ((self.0[word] >> shift) & FIELD) as u8
    }

    #[inline]
    fn blank(&self) -> usize {
        // As in Packed128: a field's top bit survives `x - LOW_BITS` with its
        // own top bit clear only where the field was 0 (or borrowed from a
        // zero field below it, and the lowest such field is the blank).
        for (index, &word) in self.0.iter().enumerate() {
            let zero_fields = word.wrapping_sub(LOW_BITS) & !word & (LOW_BITS << (BITS - 1)) & CELL_BITS;
            if zero_fields != 0 {
                return index * PER_WORD + (zero_fields.trailing_zeros() as usize - (BITS - 1)) / BITS;
            }
        }
        0
    }

    #[inline]
    fn slide(&self, blank: usize, from: usize) -> PackedWords<K> {
        let (from_word, from_shift) = Self::place(from);
        let (blank_word, blank_shift) = Self::place(blank);
        let tile = (self.0[from_word] >> from_shift) & FIELD;
        let mut words = self.0;
        words[from_word] ^= tile << from_shift;
        words[blank_word] ^= tile << blank_shift;
        PackedWords(words)
    }
}

impl<const K: usize> fmt::Debug for PackedWords<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PackedWords(")?;
        for word in self.0.iter().rev() {
            write!(f, "{word:016x}")?;
        }
        write!(f, ")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Wide;

    fn round_trips<const K: usize>() {
        let cap = PackedWords::<K>::CAPACITY;
        for n in [26, cap / 2, cap - 1, cap].into_iter().filter(|&n| n >= 4 && n <= cap) {
            for blank in 0..n {
                let mut tiles: Vec<u16> = (1..n as u16).rev().collect();
                tiles.insert(blank, 0);
                let b = PackedWords::<K>::from_tiles(&tiles);
                assert_eq!(b.to_tiles(n), tiles, "{n} cells in {K} words");
                assert_eq!(b.blank(), blank, "{n} cells in {K} words");
            }
        }
    }

    #[test]
    fn round_trips_tiles_and_finds_the_blank_in_every_cell_at_every_size_class() {
        round_trips::<4>();
        round_trips::<5>();
        round_trips::<7>();
        assert_eq!(
            [PackedWords::<4>::CAPACITY, PackedWords::<5>::CAPACITY, PackedWords::<7>::CAPACITY],
            [40, 50, 64]
        );
    }

    #[test]
    fn tags_ride_above_the_cells_and_never_change_the_board() {
        let tiles: Vec<u16> = (0..49).rev().collect();
        let b = PackedWords::<5>::from_tiles(&tiles);
        let slid = b.slide(b.blank(), b.blank() - 7);
        for arrival in [None, Some(Move::Up), Some(Move::Down), Some(Move::Left), Some(Move::Right)] {
            let tagged = b.tag(arrival);
            assert_ne!(tagged, PackedWords::<5>::VACANT);
            assert_eq!(PackedWords::<5>::untag(tagged), (b, arrival));
            assert_eq!(PackedWords::<5>::tagged_hash(&tagged), PackedWords::<5>::tagged_hash(&b.tag(None)));
            assert!(PackedWords::<5>::same_board(&tagged, &b.tag(None)));
            assert!(!PackedWords::<5>::same_board(&tagged, &slid.tag(arrival)));
        }
    }

    /// Slides across word boundaries (cells 9 and 10, 19 and 29 …) included.
    fn agrees_with_wide_along_a_random_walk<const K: usize>(width: usize, height: usize) {
        let cells = width * height;
        let mut tiles: Vec<u16> = (1..cells as u16).collect();
        tiles.push(0);
        let (mut p, mut w) = (PackedWords::<K>::from_tiles(&tiles), Wide::<64>::from_tiles(&tiles));
        let mut x = 1u64;
        for _ in 0..20_000 {
            x = mix64(x);
            let blank = p.blank();
            let (row, col) = (blank / width, blank % width);
            let from = match x % 4 {
                0 if row > 0 => blank - width,
                1 if row + 1 < height => blank + width,
                2 if col > 0 => blank - 1,
                3 if col + 1 < width => blank + 1,
                _ => continue,
            };
            (p, w) = (p.slide(blank, from), w.slide(w.blank(), from));
            assert_eq!(p.to_tiles(cells), w.to_tiles(cells));
            assert_eq!(p.blank(), w.blank());
        }
    }

    #[test]
    fn boards_as_wide_and_as_packed_words_agree_along_random_walks() {
        agrees_with_wide_along_a_random_walk::<4>(6, 6);
        agrees_with_wide_along_a_random_walk::<4>(4, 7);
        agrees_with_wide_along_a_random_walk::<5>(7, 7);
        agrees_with_wide_along_a_random_walk::<7>(8, 8);
    }
}
