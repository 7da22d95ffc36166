/*!
Dense ranks of pattern placements: where `k` distinct tiles sit on a board of
`n ≤ 64` cells, as one index in `0..n!/(n−k)!`.

Tile `i`'s digit is its cell minus the cells already taken by tiles `0..i`
that lie below it, so digit `i` runs over `n − i` values and the digits form a
mixed-radix number. Ranking is one popcount per tile; unranking divides by
the radices through precomputed reciprocals (no hardware division) and picks
the d-th free cell with a byte-wise select table. Both are allocation-free
and run in the builder's and the heuristic's innermost loops.
*/

#![expect(
    clippy::inline_always,
    reason = "the hot functions must inline into the popcnt/BMI2 builds of their callers"
)]

use crate::board::{Board, TileCells};

/// Largest number of cells: masks of cells are `u64`s (up to 8×8).
pub(crate) const MAX_CELLS: usize = 64;

/// The mask of the first `n` cells (`n` from 1 to 64).
#[inline(always)]
pub(crate) const fn all_cells(n: usize) -> u64 {
    u64::MAX >> (64 - n)
}

/// Largest database handled, in entries: keeps every index a `u32` (the
/// reciprocal division is exact for 32-bit dividends) and memory sane.
pub(crate) const MAX_ENTRIES: u64 = 1 << 30;

/// `SELECT8[byte][n]` is the position of the n-th set bit of `byte`.
const SELECT8: [[u8; 8]; 256] = {
    let mut table = [[0u8; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let (mut bit, mut seen) = (0, 0);
        while bit < 8 {
            if (byte >> bit) & 1 == 1 {
                table[byte][seen] = bit as u8;
                seen += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// The cell of the `n`-th set bit of a mask (`n` below its popcount), a
/// byte at a time.
#[inline(always)]
pub(crate) fn select(mask: u64, n: u32) -> u32 {
    let (mut rest, mut n, mut base) = (mask, n, 0);
    loop {
        let byte = rest & 0xFF;
        let here = byte.count_ones();
        if n < here {
            return base + u32::from(SELECT8[byte as usize][n as usize]);
        }
        n -= here;
        rest >>= 8;
        base += 8;
    }
}

/// Division of a `u32` by a fixed small divisor as one 64×64→128 multiply
/// (Lemire, Kaser & Kurz, "Faster remainder by direct computation", 2019):
/// exact for every 32-bit dividend when the divisor is at least 2.
#[derive(Clone, Copy, Debug)]
struct Divisor {
    divisor: u32,
    reciprocal: u64,
}

impl Divisor {
    fn new(divisor: u32) -> Divisor {
        debug_assert!(divisor >= 2);
        Divisor { divisor, reciprocal: u64::MAX / u64::from(divisor) + 1 }
    }

    #[inline(always)]
    fn div_rem(self, x: u32) -> (u32, u32) {
        let q = ((u128::from(self.reciprocal) * u128::from(x)) >> 64) as u32;
        (q, x - q * self.divisor)
    }
}

/// Ranks and unranks placements of `k` tiles on `cells` cells.
#[derive(Clone, Debug)]
pub(crate) struct Indexer {
    cells: usize,
    k: usize,
    len: usize,
    /// `radix[i]` is `cells − i`, the range of digit `i`.
    radix: [Divisor; MAX_CELLS],
    /// `weight[i]`: what one unit of digit `i` adds to the index.
    weight: [usize; MAX_CELLS],
}

impl Indexer {
    /// The indexer for `k` tiles on `cells` cells, or `None` when the space is
    /// larger than [`MAX_ENTRIES`] or `k` leaves no free cell.
    pub(crate) fn new(cells: usize, k: usize) -> Option<Indexer> {
        if cells > MAX_CELLS || k == 0 || k >= cells {
            return None;
        }
        let mut len: u64 = 1;
        for i in 0..k {
            len = len.checked_mul((cells - i) as u64)?;
        }
        if len > MAX_ENTRIES {
            return None;
        }
        let mut radix = [Divisor::new(2); MAX_CELLS];
        for (i, r) in radix.iter_mut().enumerate().take(k) {
            *r = Divisor::new((cells - i) as u32);
        }
        let mut weight = [0usize; MAX_CELLS];
        let mut w = 1;
        for i in (0..k).rev() {
            weight[i] = w;
            w *= cells - i;
        }
        Some(Indexer { cells, k, len: len as usize, radix, weight })
    }

    /// Number of placements, `cells!/(cells−k)!`.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Number of tiles placed.
    #[inline]
    pub(crate) fn k(&self) -> usize {
        self.k
    }

    /// The rank of the placement putting tile `i` on `cells[i]`.
    #[inline(always)]
    pub(crate) fn rank(&self, cells: &[u8]) -> usize {
        let mut used = 0u64;
        let mut index = 0usize;
        for (i, &cell) in cells[..self.k].iter().enumerate() {
            let bit = 1u64 << cell;
            let digit = u32::from(cell) - (used & (bit - 1)).count_ones();
            index = index * (self.cells - i) + digit as usize;
            used |= bit;
        }
        index
    }

    /// The rank of the placement putting tile `i` on `cell_of[tiles[i]]`,
    /// straight from a board's tile-to-cell table. The usual pattern sizes
    /// get a loop unrolled at compile time (a third of a lookup's
    /// instructions were the loop's own bookkeeping).
    #[inline(always)]
    pub(crate) fn rank_of<C: TileCells>(&self, cell_of: &C, tiles: &[u8; MAX_CELLS]) -> usize {
        match self.k {
            3 => self.rank_of_first::<3>(cell_of, tiles),
            4 => self.rank_of_first::<4>(cell_of, tiles),
            5 => self.rank_of_first::<5>(cell_of, tiles),
            6 => self.rank_of_first::<6>(cell_of, tiles),
            7 => self.rank_of_first::<7>(cell_of, tiles),
            8 => self.rank_of_first::<8>(cell_of, tiles),
            k => self.rank_of_first_n(k, cell_of, tiles),
        }
    }

    /// [`Indexer::rank_of`] for `k == K`, unrolled.
    #[inline(always)]
    fn rank_of_first<const K: usize>(&self, cell_of: &impl TileCells, tiles: &[u8; MAX_CELLS]) -> usize {
        self.rank_of_first_n(K, cell_of, tiles)
    }

    /// [`Indexer::rank_of`] over the first `k ≤ 64` tiles.
    #[inline(always)]
    fn rank_of_first_n<C: TileCells>(&self, k: usize, cell_of: &C, tiles: &[u8; MAX_CELLS]) -> usize {
        let cell_of = cell_of.bytes();
        let mut used = 0u64;
        let mut index = 0usize;
        // Digit times weight rather than Horner's rule: the multiplies are
        // independent, so only a one-cycle OR and add chain the tiles.
        for i in 0..k.min(MAX_CELLS) {
            let cell = u32::from(cell_of[usize::from(tiles[i]) & (C::LEN - 1)]) & (MAX_CELLS as u32 - 1);
            let bit = 1u64 << cell;
            let digit = cell - (used & (bit - 1)).count_ones();
            index += digit as usize * self.weight[i];
            used |= bit;
        }
        index
    }

    /// The index after tile `tile` of placement `index` moves from cell
    /// `from` to the free cell `to`, given the occupied cells and which tile
    /// is on each. Only digits of tiles between the two cells change, so a
    /// sideways move is one multiply-add and a vertical one a few more,
    /// instead of a full rank.
    #[inline(always)]
    pub(crate) fn moved(
        &self,
        index: usize,
        occupied: u64,
        tile_at: &[u8; MAX_CELLS],
        tile: usize,
        from: u32,
        to: u32,
    ) -> usize {
        let (low, high) = if to > from { (from, to) } else { (to, from) };
        let own = self.weight[tile];
        let mut delta = own * (high - low) as usize;
        let mut between = occupied & ((1u64 << high) - 1) & !((2u64 << low) - 1);
        while between != 0 {
            let other = tile_at[between.trailing_zeros() as usize] as usize;
            between &= between - 1;
            // An earlier tile in between shifts this tile's digit; a later
            // one has its own digit shifted by one.
            if other < tile {
                delta -= own;
            } else {
                delta += self.weight[other];
            }
        }
        if to > from { index + delta } else { index - delta }
    }

    /// Writes the cells of placement `index` into `cells[..k]` and returns
    /// the mask of occupied cells.
    #[inline(always)]
    #[cfg(test)]
    pub(crate) fn unrank(&self, index: usize, cells: &mut [u8; MAX_CELLS]) -> u64 {
        self.unrank_with(index, self.k, self.cells, cells)
    }

    /// [`Indexer::unrank`] with `k` and the cell count passed in, so a caller
    /// that knows them at compile time gets fully unrolled loops.
    #[inline(always)]
    pub(crate) fn unrank_with(&self, index: usize, k: usize, n: usize, cells: &mut [u8; MAX_CELLS]) -> u64 {
        debug_assert!(index < self.len && k == self.k && n == self.cells);
        let mut digits = [0u32; MAX_CELLS];
        let mut rest = index as u32;
        for i in (0..k).rev() {
            let (q, r) = self.radix[i].div_rem(rest);
            digits[i] = r;
            rest = q;
        }
        let all = all_cells(n);
        let mut used = 0u64;
        for i in 0..k {
            let cell = select(all & !used, digits[i]);
            cells[i] = cell as u8;
            used |= 1 << cell;
        }
        used
    }
}

/// `cell_of[tile]` for the first `cells` cells of `board`.
#[inline(always)]
pub(super) fn cells_of<B: Board, C: TileCells>(board: &B, cells: usize) -> C {
    let mut cell_of = C::ZERO;
    let bytes = cell_of.bytes_mut();
    for cell in 0..cells {
        bytes[usize::from(board.tile(cell)) & (C::LEN - 1)] = cell as u8;
    }
    cell_of
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_are_a_bijection_onto_the_dense_range() {
        for (cells, k) in [(9, 1), (9, 3), (9, 6), (16, 2), (16, 3), (4, 3), (25, 3), (32, 2), (12, 5)] {
            let ix = Indexer::new(cells, k).unwrap();
            let mut seen = vec![false; ix.len()];
            let mut out = [0u8; MAX_CELLS];
            for (index, seen) in seen.iter_mut().enumerate() {
                let used = ix.unrank(index, &mut out);
                assert_eq!(used.count_ones() as usize, k);
                assert_eq!(ix.rank(&out), index);
                assert!(!*seen);
                *seen = true;
            }
        }
    }

    #[test]
    fn the_large_spaces_round_trip_at_sampled_indices() {
        let ix = Indexer::new(16, 8).unwrap();
        assert_eq!(ix.len(), 518_918_400);
        let mut out = [0u8; MAX_CELLS];
        for index in (0..ix.len()).step_by(9_973).chain([ix.len() - 1]) {
            ix.unrank(index, &mut out);
            assert_eq!(ix.rank(&out), index);
        }
        let ix = Indexer::new(25, 6).unwrap();
        assert_eq!(ix.len(), 127_512_000);
        for index in (0..ix.len()).step_by(99_991).chain([ix.len() - 1]) {
            ix.unrank(index, &mut out);
            assert_eq!(ix.rank(&out), index);
        }
        assert!(Indexer::new(16, 9).is_none(), "4·10⁹ entries is too many");
        assert!(Indexer::new(65, 2).is_none(), "masks hold 64 cells");
        assert!(Indexer::new(9, 9).is_none(), "no free cell");
    }

    #[test]
    fn moving_one_tile_updates_the_rank_like_a_fresh_rank() {
        for (width, k) in [(3, 4), (4, 3), (4, 6)] {
            let cells = width * width;
            let ix = Indexer::new(cells, k).unwrap();
            let mut out = [0u8; MAX_CELLS];
            for index in (0..ix.len()).step_by(7) {
                let occupied = ix.unrank(index, &mut out);
                let mut tile_at = [0u8; MAX_CELLS];
                for i in 0..k {
                    tile_at[out[i] as usize] = i as u8;
                }
                for tile in 0..k {
                    let from = u32::from(out[tile]);
                    let (row, col) = (from as usize / width, from as usize % width);
                    let mut targets = vec![];
                    if row > 0 {
                        targets.push(from - width as u32);
                    }
                    if row + 1 < width {
                        targets.push(from + width as u32);
                    }
                    if col > 0 {
                        targets.push(from - 1);
                    }
                    if col + 1 < width {
                        targets.push(from + 1);
                    }
                    for to in targets.into_iter().filter(|&t| occupied & (1 << t) == 0) {
                        let mut moved = out;
                        moved[tile] = to as u8;
                        let expected = ix.rank(&moved);
                        assert_eq!(ix.moved(index, occupied, &tile_at, tile, from, to), expected);
                    }
                }
            }
        }
    }

    #[test]
    fn reciprocal_division_is_exact() {
        for d in 2..=16 {
            let div = Divisor::new(d);
            for x in (0..1u32 << 20).chain([u32::MAX, u32::MAX - 1, 1 << 31]) {
                assert_eq!(div.div_rem(x), (x / d, x % d), "{x} / {d}");
            }
        }
    }
}
