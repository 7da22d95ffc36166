/*!
The [`Board`] trait: what every encoding offers a search, so that each
search is written once and monomorphised per encoding, plus the bit tricks
the packed encodings share.
*/

use super::Move;
use std::fmt;
use std::hash::Hash;

/// A board encoding. Positions are row-major cell indices; tile 0 is the blank.
///
/// Implementations are plain `Copy` values so the hot loops never allocate,
/// and `Hash`/`Eq` look at the tiles only, so a board is its own set key.
pub trait Board: Copy + Eq + Hash + Send + Sync + fmt::Debug + 'static {
    /// Most cells this encoding can hold.
    const CAPACITY: usize;

    /// Where each tile stands, a byte per tile, as heuristics keep it
    /// beside a board to update their value move by move (see
    /// [`TileCells`]).
    type Places: TileCells;

    /// Encodes a valid arrangement (a permutation of `0..cells`, at most
    /// [`Board::CAPACITY`] cells).
    fn from_tiles(tiles: &[u16]) -> Self;

    /// The tile at `pos`.
    fn tile(&self, pos: usize) -> u8;

    /// Where the blank is.
    fn blank(&self) -> usize;

    /// The board after the tile at `from` slides into the blank at `blank`.
    ///
    /// `blank` must be [`Board::blank`]; searches already know it, so passing
    /// it in keeps the packed encoding from searching for it again.
    fn slide(&self, blank: usize, from: usize) -> Self;

    /// The board plus a small tag (the move that reached it) in one value:
    /// what compact search tables store.
    type Tagged: Copy + Send + Sync + fmt::Debug + 'static;

    /// A tagged value that is never a real board; marks empty table slots.
    const VACANT: Self::Tagged;

    /// Stores the board with `arrival`.
    fn tag(&self, arrival: Option<Move>) -> Self::Tagged;

    /// Splits a tagged value back into the board and its tag.
    fn untag(tagged: Self::Tagged) -> (Self, Option<Move>);

    /// A well-mixed hash of the board in `tagged`, ignoring the tag.
    fn tagged_hash(tagged: &Self::Tagged) -> u64;

    /// Whether two tagged values hold the same board, whatever their tags.
    fn same_board(a: &Self::Tagged, b: &Self::Tagged) -> bool;

    /// The first `cells` tiles as a plain vector, for reporting.
    fn to_tiles(&self, cells: usize) -> Vec<u16> {
        (0..cells).map(|p| u16::from(self.tile(p))).collect()
    }
}

/// A tile → cell map sized to an encoding: a power of two of bytes, at
/// least the encoding's capacity (64 at most: no heuristic keeps such a
/// map for a larger board), so a tile masked with `LEN - 1` is in range.
/// Searches copy one into every child's memo, so a 4×4 board's sixteen
/// bytes are worth having apart from a 5×5 board's thirty-two.
pub trait TileCells: Copy + Eq + fmt::Debug + Send + Sync + 'static {
    /// How many bytes: a power of two.
    const LEN: usize;

    /// Every tile on cell 0.
    const ZERO: Self;

    /// The bytes, `LEN` of them.
    fn bytes(&self) -> &[u8];

    /// The bytes, to write.
    fn bytes_mut(&mut self) -> &mut [u8];
}

impl<const N: usize> TileCells for [u8; N] {
    const LEN: usize = {
        assert!(N.is_power_of_two());
        N
    };

    const ZERO: Self = [0; N];

    #[inline]
    fn bytes(&self) -> &[u8] {
        self
    }

    #[inline]
    fn bytes_mut(&mut self) -> &mut [u8] {
        self
    }
}

/// The low bit of each of `fields` fields of `bits` bits from bit 0: what
/// the packed encodings subtract to find their one zero field, the blank.
pub(crate) const fn field_low_bits(bits: usize, fields: usize) -> u128 {
    let mut low = 0;
    let mut field = 0;
    while field < fields {
        low |= 1 << (bits * field);
        field += 1;
    }
    low
}

/// A strong 64-bit mixer (the `SplitMix64` finaliser), so table indices can
/// come from any bits of the hash.
#[inline]
pub(crate) const fn mix64(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}
