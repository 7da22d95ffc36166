/*!
Dense ranks of zero-aware states: where `k` distinct tiles sit on a board
of `n ≤ 64` cells *and* which connected region of the other cells holds the
blank, as one index.

A zero-aware table stores one value per placement and blank region, not
one per placement minimised over the blank: with the blank walled off in a
corner, the pattern's tiles must first let it out, and the table knows.
The number of regions depends on which cells the tiles occupy (the *map*),
so the index is built from three parts:

```text
index = slot(map, region) · k! + order
```

- `map`: the set of occupied cells, ranked in the combinatorial number
  system (Σ C(cⱼ, j + 1) over the occupied cells in increasing order);
- `region`: the blank's region among the map's regions: 0 for the largest
  (the lowest cell breaks ties), then the others by their lowest cell;
- `slot`: `map` for region 0, so every map's main region comes first in
  map order; the other regions follow, map by map (`maps + extra[map] +
  region − 1`, `extra[map]` counting the lower maps' other regions);
- `order`: which tile is on which occupied cell, the Lehmer code of the
  tiles' positions among the occupied cells (`0..k!`).

Ranking is two popcounts and a small table read per tile (on boards of up
to 16 cells, all tiles at once in SSE lanes where the CPU has them, else
one popcount a tile, and two reads for the map), then the map's record (16
bytes: three bits per cell naming its region, and the count of lower maps'
other regions in the bits left, 32 of them on boards of up to 32 cells; 2.8
MB for 6 tiles on 5×5; 8 bytes on boards of up to 16 cells) and the entry. In a
profile of IDA* on the 24-puzzle those two reads, the second waiting for
the first, take most of a lookup's time, so ranking also comes in two
steps ([`RegionIndex::parts_of`], then [`RegionIndex::entry`]) between
which the record can be prefetched. Unranking (for the construction)
reads a slot's record: its map's cells and its own. The tables are made once per
board shape and pattern size and shared by every table of that size (5×5,
6 tiles: 177,100 maps with 251,400 regions).
*/

#![expect(
    clippy::inline_always,
    reason = "the hot functions must inline into the popcnt/BMI2 builds of their callers"
)]

use super::index::{MAX_CELLS, all_cells, select};
use crate::board::{Shape, TileCells};
use crate::machine::InstructionSets;
use std::sync::{Arc, Mutex, PoisonError};

/// Largest zero-aware table, in entries: every index is a `u32`.
pub(crate) const MAX_REGION_ENTRIES: u64 = 1 << 32;

/// Most tiles in a zero-aware pattern: their orders are a `u32` (12! is
/// below 2³²) and the order digits fit small arrays.
pub(crate) const MAX_TILES: usize = 12;

/// `FACTORIAL[i]` = i!, for the orders' digits (a power-of-two length, so
/// a masked index needs no bounds check).
const FACTORIAL: [u32; 16] = {
    let mut table = [1u32; 16];
    let mut i = 1;
    while i <= MAX_TILES {
        table[i] = table[i - 1] * i as u32;
        i += 1;
    }
    table
};

/// Most cells of a board whose maps are ranked by the bytes of their masks:
/// `LOW_RANKS[low byte] + HIGH_RANKS[high byte][cells in the low byte]`,
/// two reads of tables that stay in the first-level cache, where the
/// combinatorial sum costs a read and a popcount a tile.
const SMALL_BOARD: usize = 16;

/// The rank of the map `occupied` on a small board, by its bytes.
#[inline(always)]
fn small_rank(occupied: u64) -> u32 {
    let (low, high) = (occupied as usize & 255, (occupied >> 8) as usize & 255);
    u32::from(LOW_RANKS[low]) + u32::from(HIGH_RANKS[high][low.count_ones() as usize & 15])
}

/// A low byte's terms C(cell, j + 1) of a map's rank, `j` its cells below.
static LOW_RANKS: [u16; 256] = {
    let mut ranks = [0; 256];
    let mut byte = 0;
    while byte < 256 {
        ranks[byte] = byte_terms(byte, 0, 0);
        byte += 1;
    }
    ranks
};

/// A high byte's terms, by the number of cells in the low byte.
static HIGH_RANKS: [[u16; 16]; 256] = {
    let mut ranks = [[0; 16]; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut below = 0;
        while below <= 8 {
            ranks[byte][below] = byte_terms(byte, 8, below);
            below += 1;
        }
        byte += 1;
    }
    ranks
};

/// Σ C(offset + c, j + 1) over the cells `c` of `byte` in increasing order,
/// `j` counting from `below`: every sum a map of a small board reaches is
/// under C(16, 8), and the others saturate.
const fn byte_terms(byte: usize, offset: usize, below: usize) -> u16 {
    let (mut rest, mut j, mut sum) = (byte, below, 0);
    while rest != 0 {
        sum += binomial_of(offset + rest.trailing_zeros() as usize, j + 1);
        rest &= rest - 1;
        j += 1;
    }
    if sum > u16::MAX as u64 { u16::MAX } else { sum as u16 }
}

/// Most regions one map may have: a region number is a 3-bit field.
const MAX_REGIONS: usize = 8;

/// The maps' records (see [`RegionIndex`]'s `maps`).
#[derive(Debug)]
enum Records {
    /// Boards of up to 16 cells whose maps have fewer than 2¹⁶ other
    /// regions below them: half the bytes, so that more of the records
    /// stay in cache beside the tables' entries, and shifts of one word.
    Narrow(Vec<u64>),
    Wide(Vec<u128>),
}

/// Where a narrow record holds its count of lower maps' other regions:
/// past 16 cells' fields.
const NARROW_LOWER_AT: u32 = 48;

/// One region's record, for unranking: its map's occupied cells and its
/// own cells.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct RegionRecord {
    /// The cells the pattern's tiles occupy.
    pub occupied: u64,
    /// The region's free cells.
    pub cells: u64,
}

/// Ranks and unranks zero-aware states of `k` tiles on a board of one shape.
#[derive(Debug)]
pub(crate) struct RegionIndex {
    shape: Shape,
    k: usize,
    /// `k!`, the orders per region.
    orders: u32,
    /// Number of entries.
    len: usize,
    /// `binomial[16 c + j]` = C(c, j), for the map ranks (rows 16 wide and
    /// 64 of them, so any 10-bit index is in range; those a rank never
    /// reaches, above the number of maps, saturate).
    binomial: [u32; 16 * MAX_CELLS],

    /// Per map rank: three bits per cell, the region of a free cell (0 for
    /// occupied cells, and for every cell of a map with one region), and
    /// from bit `lower_at` the other regions (all but region 0) of lower
    /// maps.
    maps: Records,
    /// Number of maps.
    map_count: usize,
    /// Where a map's record holds that count: bit 96, or past the cells'
    /// fields on boards of more than 32 cells; bit 48 in narrow records.
    lower_at: u32,
    /// Per slot.
    regions: Vec<RegionRecord>,
    /// Per cell, its neighbours' bits.
    neighbours: [u64; MAX_CELLS],
    /// `nearer[goal][cell]`: the neighbours of `cell` nearer `goal`.
    nearer: Box<[[u64; MAX_CELLS]]>,
    /// Whether [`RegionIndex::parts_of`] ranks in SSE lanes
    /// ([`lanes::parts`]).
    lanes: bool,
}

impl RegionIndex {
    /// The index for `k` tiles on boards of `shape`, shared with every
    /// earlier caller asking for the same; `None` when the space has more
    /// than [`MAX_REGION_ENTRIES`] entries, more than [`MAX_TILES`] tiles,
    /// no free cell, or a map with more regions (or lower maps with more
    /// regions) than a record holds.
    pub(crate) fn shared(shape: Shape, k: usize) -> Option<Arc<RegionIndex>> {
        static MADE: Mutex<Vec<Arc<RegionIndex>>> = Mutex::new(Vec::new());
        let mut made = MADE.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(index) = made.iter().find(|ix| ix.shape == shape && ix.k == k) {
            return Some(Arc::clone(index));
        }
        let index = Arc::new(RegionIndex::new(shape, k)?);
        made.push(Arc::clone(&index));
        Some(index)
    }

    /// Makes the index: one flood fill per map.
    fn new(shape: Shape, k: usize) -> Option<RegionIndex> {
        let n = shape.cells();
        if n > MAX_CELLS || k == 0 || k > MAX_TILES || k >= n {
            return None;
        }
        let mut binomial = [0u32; 16 * MAX_CELLS];
        for (at, entry) in binomial.iter_mut().enumerate() {
            let (c, j) = (at / 16, at % 16);
            let exact = if j <= MAX_TILES { binomial_of(c, j) } else { 0 };
            *entry = u32::try_from(exact).unwrap_or(u32::MAX);
        }
        let orders: u32 = (1..=k as u32).product();
        // Every map has a region: refused here rather than after the floods.
        if binomial_of(n, k).saturating_mul(u64::from(orders)) > MAX_REGION_ENTRIES {
            return None;
        }
        let neighbours = neighbour_masks(shape);
        let maps = binomial_of(n, k) as usize;
        let mut records = Vec::with_capacity(maps);
        let mut main = Vec::with_capacity(maps);
        let mut others = Vec::new();
        // Maps in rank order: Gosper's hack walks the k-subsets of n cells
        // in increasing order of their masks, which is colex order, the
        // combinatorial number system's.
        let lower_at = 3 * n.max(32) as u32;
        let mut occupied: u64 = all_cells(k);
        for _ in 0..maps {
            let lower = others.len() as u128;
            if lower >> (128 - lower_at) != 0 {
                return None;
            }
            let mut record = lower << lower_at;
            let mut found = Vec::new();
            let mut unassigned = all_cells(n) & !occupied;
            while unassigned != 0 {
                let cells = flood(&neighbours, unassigned, unassigned.trailing_zeros());
                found.push(cells);
                unassigned &= !cells;
            }
            if found.len() > MAX_REGIONS {
                return None;
            }
            // The largest first (a stable sort keeps the lowest of equals).
            found.sort_by_key(|cells| std::cmp::Reverse(cells.count_ones()));
            for (region, &cells) in found.iter().enumerate() {
                let mut rest = cells;
                while rest != 0 {
                    record |= (region as u128) << (3 * rest.trailing_zeros());
                    rest &= rest - 1;
                }
            }
            records.push(record);
            main.push(RegionRecord { occupied, cells: found[0] });
            others.extend(found[1..].iter().map(|&cells| RegionRecord { occupied, cells }));
            occupied = next_subset(occupied);
        }
        let narrow = n <= 16 && others.len() < 1 << (64 - NARROW_LOWER_AT);
        let (maps, lower_at) = if narrow {
            let field = |record: u128| {
                let cells = record & ((1 << (3 * n)) - 1);
                (cells | (record >> lower_at << NARROW_LOWER_AT)) as u64
            };
            (Records::Narrow(records.into_iter().map(field).collect()), NARROW_LOWER_AT)
        } else {
            (Records::Wide(records), lower_at)
        };
        main.extend(others);
        let regions = main;
        let len = regions.len() as u64 * u64::from(orders);
        if len > MAX_REGION_ENTRIES {
            return None;
        }
        let len = len as usize;
        let mut nearer = vec![[0u64; MAX_CELLS]; MAX_CELLS].into_boxed_slice();
        for (goal, row) in nearer.iter_mut().enumerate().take(n) {
            for (cell, mask) in row.iter_mut().enumerate().take(n) {
                for (_, to) in shape.neighbours(cell) {
                    if shape.distance(to, goal) < shape.distance(cell, goal) {
                        *mask |= 1 << to;
                    }
                }
            }
        }
        Some(RegionIndex {
            shape,
            k,
            orders,
            len,
            binomial,
            maps,
            map_count: binomial_of(n, k) as usize,
            lower_at,
            regions,
            neighbours,
            nearer,
            lanes: n <= LANES && k <= MOST_LANE_TILES && lanes_available(),
        })
    }

    /// Number of entries.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// At most [`SMALL_BOARD`] cells: maps are ranked by [`LOW_RANKS`] and
    /// [`HIGH_RANKS`].
    #[inline(always)]
    fn small(&self) -> bool {
        self.shape.cells() <= SMALL_BOARD
    }

    /// Number of tiles placed.
    #[inline]
    pub(crate) fn k(&self) -> usize {
        self.k
    }

    /// The board's shape.
    #[inline]
    pub(crate) fn shape(&self) -> Shape {
        self.shape
    }

    /// Per cell of the board, its neighbours' bits.
    #[inline]
    pub(crate) fn neighbours(&self) -> &[u64; MAX_CELLS] {
        &self.neighbours
    }

    /// Per cell of the board, its neighbours nearer the cell `goal`.
    #[inline]
    pub(crate) fn nearer(&self, goal: u8) -> &[u64; MAX_CELLS] {
        &self.nearer[usize::from(goal) & (MAX_CELLS - 1)]
    }

    /// Number of (map, region) pairs.
    #[cfg(test)]
    fn regions(&self) -> usize {
        self.regions.len()
    }

    /// The rank of the state with tile `i` on `cells[i]` and the blank on
    /// the free cell `blank`.
    #[inline(always)]
    pub(crate) fn rank(&self, cells: &[u8], blank: u32) -> usize {
        let mut placed = [0u8; MAX_TILES];
        placed[..self.k].copy_from_slice(&cells[..self.k]);
        self.rank_placed(&placed, blank)
    }

    /// [`RegionIndex::rank`] of cells already laid out as `placed`, compiled
    /// for the pattern sizes the tables use.
    #[inline(always)]
    pub(crate) fn rank_placed(&self, placed: &[u8; MAX_TILES], blank: u32) -> usize {
        let (map, order) = self.parts_placed(placed);
        self.entry(map, order, blank)
    }

    /// [`RegionIndex::rank_placed`] in two steps, as
    /// [`RegionIndex::parts_of`].
    #[inline(always)]
    pub(crate) fn parts_placed(&self, placed: &[u8; MAX_TILES]) -> (u32, u32) {
        match self.k {
            6 => self.parts::<6>(placed),
            7 => self.parts::<7>(placed),
            8 => self.parts::<8>(placed),
            _ => self.parts::<0>(placed),
        }
    }

    /// The rank of the state with tile `i` on `cell_of[tiles[i]]` and the
    /// blank on `cell_of[0]`, straight from a board's tile-to-cell table.
    #[inline(always)]
    pub(crate) fn rank_of<C: TileCells>(&self, cell_of: &C, tiles: &[u8; MAX_CELLS]) -> usize {
        let cell_of = cell_of.bytes();
        let blank = u32::from(cell_of[0]);
        let cell = |i: usize| cell_of[usize::from(tiles[i]) & (C::LEN - 1)];
        self.rank_placed(&std::array::from_fn(cell), blank)
    }

    /// [`RegionIndex::rank_of`] in two steps, so that the map's record can
    /// be fetched while other work goes on: the map and the order here, the
    /// entry from them in [`RegionIndex::entry`].
    #[inline(always)]
    pub(crate) fn parts_of<C: TileCells>(&self, cell_of: &C, tiles: &[u8; MAX_CELLS]) -> (u32, u32) {
        let cell_of = cell_of.bytes();
        #[cfg(target_arch = "x86_64")]
        if self.lanes && cell_of.len() == LANES {
            // SAFETY: `lanes` is set only where `lanes_available` found
            // popcnt and SSSE3 on this CPU, every set `lanes::parts`
            // enables; `cell_of` has the sixteen bytes it reads.
            return unsafe {
                match self.k {
                    6 => lanes::parts::<6>(cell_of, tiles, 6),
                    7 => lanes::parts::<7>(cell_of, tiles, 7),
                    8 => lanes::parts::<8>(cell_of, tiles, 8),
                    k => lanes::parts::<0>(cell_of, tiles, k),
                }
            };
        }
        let cell = |i: usize| cell_of[usize::from(tiles[i]) & (C::LEN - 1)];
        match self.k {
            6 => self.parts::<6>(&std::array::from_fn(cell)),
            7 => self.parts::<7>(&std::array::from_fn(cell)),
            8 => self.parts::<8>(&std::array::from_fn(cell)),
            _ => self.parts::<0>(&std::array::from_fn(cell)),
        }
    }

    /// Asks for the record of map `map` to be brought into cache.
    #[inline(always)]
    pub(crate) fn prefetch_map(&self, map: u32) {
        let map = map as usize;
        match &self.maps {
            Records::Narrow(records) => records.get(map).map(crate::machine::prefetch),
            Records::Wide(records) => records.get(map).map(crate::machine::prefetch),
        };
    }

    /// The entry of the state whose map and order are `map` and `order`,
    /// with the blank on the free cell `blank`.
    #[inline(always)]
    pub(crate) fn entry(&self, map: u32, order: u32, blank: u32) -> usize {
        self.slot(map as usize, blank) * self.orders as usize + order as usize
    }

    /// [`RegionIndex::rank`] over `K` tiles known at compile time (0: `k`),
    /// the tiles' cells in `placed`.
    #[inline(always)]
    pub(crate) fn rank_cells<const K: usize>(&self, placed: &[u8; MAX_TILES], blank: u32) -> usize {
        let (map, order) = self.parts::<K>(placed);
        self.entry(map, order, blank)
    }

    /// The map's rank and the tiles' order of the placement `placed`, over
    /// `K` tiles known at compile time (0: `k`).
    #[inline(always)]
    fn parts<const K: usize>(&self, placed: &[u8; MAX_TILES]) -> (u32, u32) {
        let k = if K == 0 { self.k } else { K }.min(MAX_TILES);
        if self.small() {
            // A tile's digit of the order counts the later tiles on lower
            // cells, so one pass from the last tile gives the order and the
            // map's mask, and the mask its rank.
            let mut later = 0u64;
            let mut order = 0u32;
            for i in (0..k).rev() {
                let cell = u32::from(placed[i]) & 63;
                order += (later & ((1 << cell) - 1)).count_ones() * FACTORIAL[(k - 1 - i) & 15];
                later |= 1 << cell;
            }
            return (small_rank(later), order);
        }
        let mut occupied = 0u64;
        for &cell in &placed[..k] {
            occupied |= 1 << (cell & 63);
        }
        // Each tile's position among the occupied cells gives both its term
        // of the map's rank and its digit of the order.
        let mut map = 0u32;
        let mut order = 0u32;
        let mut seen = 0u32;
        for (i, &cell) in placed[..k].iter().enumerate() {
            let cell = u32::from(cell) & 63;
            let position = (occupied & ((1 << cell) - 1)).count_ones();
            map += self.binomial[((cell << 4) + position + 1) as usize & (16 * MAX_CELLS - 1)];
            let digit = position - (seen & ((1 << position) - 1)).count_ones();
            // Digit i weighs (k − 1 − i)!: a constant where K is.
            order += digit * FACTORIAL[(k - 1 - i) & 15];
            seen |= 1 << position;
        }
        (map, order)
    }

    /// The state of entry `index`: writes the tiles' cells into
    /// `cells[..k]` and returns the region's record.
    #[inline(always)]
    pub(crate) fn unrank(&self, index: usize, cells: &mut [u8; MAX_TILES]) -> RegionRecord {
        let (region, order) = (index / self.orders as usize, index % self.orders as usize);
        let record = self.regions[region];
        self.place(record.occupied, order as u32, cells);
        record
    }

    /// Writes into `cells[..k]` where order `order` puts the tiles on the
    /// `occupied` cells.
    #[inline(always)]
    pub(crate) fn place(&self, occupied: u64, order: u32, cells: &mut [u8; MAX_TILES]) {
        let k = self.k.min(MAX_TILES);
        let mut rest = order;
        let mut digits = [0u32; MAX_TILES];
        for i in (0..k).rev() {
            let radix = (k - i) as u32;
            digits[i] = rest % radix;
            rest /= radix;
        }
        let mut used = 0u64;
        for i in 0..k {
            let position = select(all_cells(k) & !used, digits[i]);
            used |= 1 << position;
            cells[i] = select(occupied, position) as u8;
        }
    }

    /// The slot of the region holding the free cell `cell` of map `map`.
    #[inline(always)]
    fn slot(&self, map: usize, cell: u32) -> usize {
        let (region, lower) = match &self.maps {
            Records::Narrow(records) => {
                let record = records[map];
                ((record >> (3 * (cell & 15))) as usize & 7, (record >> NARROW_LOWER_AT) as usize)
            }
            Records::Wide(records) => {
                let record = records[map];
                ((record >> (3 * (cell & 63))) as usize & 7, (record >> self.lower_at) as usize)
            }
        };
        let other = (self.map_count + lower).wrapping_add(region).wrapping_sub(1);
        // A select, not a branch: which region the blank is in is as good
        // as random to the branch predictor.
        if region == 0 { map } else { other }
    }

    /// The free cells of the blank's region in the state of entry `at`:
    /// entries are laid out region by region.
    #[inline]
    pub(crate) fn region_of(&self, at: usize) -> u64 {
        self.regions[at / self.orders as usize].cells
    }

    /// Asks for the record [`RegionIndex::region_of`] reads for entry `at`
    /// to be brought into cache.
    #[inline(always)]
    pub(crate) fn prefetch_region_of(&self, at: usize) {
        if let Some(record) = self.regions.get(at / self.orders as usize) {
            crate::machine::prefetch(record);
        }
    }

    /// The rank of the map `occupied` (exactly `k` cells).
    #[cfg(test)]
    fn map_rank(&self, occupied: u64) -> usize {
        if self.small() { small_rank(occupied) as usize } else { self.colex_rank(occupied) }
    }

    /// The map's rank in the combinatorial number system.
    #[cfg(test)]
    fn colex_rank(&self, occupied: u64) -> usize {
        let mut rest = occupied;
        let mut rank = 0;
        for j in 1..=self.k {
            rank += self.binomial[rest.trailing_zeros() as usize * 16 + j];
            rest &= rest - 1;
        }
        rank as usize
    }
}

/// C(n, k), exact for the sizes the index handles.
const fn binomial_of(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    let mut result: u64 = 1;
    let mut i = 0;
    while i < k {
        result = result * (n - i) as u64 / (i + 1) as u64;
        i += 1;
    }
    result
}

/// The next larger mask with as many bits (Gosper's hack).
fn next_subset(mask: u64) -> u64 {
    let low = mask & mask.wrapping_neg();
    let ripple = mask.wrapping_add(low);
    if ripple == 0 {
        return 0;
    }
    (((ripple ^ mask) >> 2) / low) | ripple
}

/// Neighbour masks of each cell.
pub(crate) fn neighbour_masks(shape: Shape) -> [u64; MAX_CELLS] {
    let mut out = [0u64; MAX_CELLS];
    for (cell, mask) in out.iter_mut().enumerate().take(shape.cells()) {
        for (_, to) in shape.neighbours(cell) {
            *mask |= 1 << to;
        }
    }
    out
}

/// The cells of `free` connected to `start` through `free`.
fn flood(neighbours: &[u64; MAX_CELLS], free: u64, start: u32) -> u64 {
    let mut region = 1u64 << start;
    let mut edge = region;
    while edge != 0 {
        let mut grown = 0;
        let mut rest = edge;
        while rest != 0 {
            grown |= neighbours[rest.trailing_zeros() as usize];
            rest &= rest - 1;
        }
        edge = grown & free & !region;
        region |= edge;
    }
    region
}

/// Whether this CPU ranks in lanes: has popcnt and SSSE3, which
/// [`lanes::parts`] is compiled for (never off x86-64).
fn lanes_available() -> bool {
    InstructionSets::detect().popcnt_ssse3()
}

/// Cells of a board whose parts [`lanes::parts`] ranks: one byte lane each.
const LANES: usize = 16;

/// Most tiles [`lanes::parts`] ranks: their order digits are weighed in
/// eight 16-bit lanes (7! fits one).
const MOST_LANE_TILES: usize = 8;

/// Ranking on a small board in SSE lanes, a tile a lane: the serial
/// popcounts of [`RegionIndex::parts`], one after another for each tile,
/// were the largest part of a lookup on the 15-puzzle.
#[cfg(target_arch = "x86_64")]
mod lanes {
    use super::{FACTORIAL, LANES, MAX_CELLS, MOST_LANE_TILES, small_rank};
    use std::arch::x86_64::{
        __m128i, _mm_add_epi32, _mm_alignr_epi8, _mm_and_si128, _mm_andnot_si128, _mm_cmpgt_epi8,
        _mm_cmplt_epi8, _mm_cvtsi128_si32, _mm_extract_epi16, _mm_loadu_si128, _mm_madd_epi16, _mm_or_si128,
        _mm_sad_epu8, _mm_set1_epi8, _mm_setr_epi8, _mm_setzero_si128, _mm_shuffle_epi8, _mm_shuffle_epi32,
        _mm_sub_epi8, _mm_unpacklo_epi8, _mm_unpacklo_epi64,
    };

    /// `WEIGHTS[k][i]`: the weight (k − 1 − i)! of tile `i`'s order digit
    /// among `k` tiles, 0 past the tiles.
    static WEIGHTS: [[i16; MOST_LANE_TILES]; 16] = {
        let mut weights = [[0; MOST_LANE_TILES]; 16];
        let mut k = 1;
        while k <= MOST_LANE_TILES {
            let mut i = 0;
            while i < k {
                weights[k][i] = FACTORIAL[k - 1 - i] as i16;
                i += 1;
            }
            k += 1;
        }
        weights
    };

    /// [`RegionIndex::parts_of`](super::RegionIndex::parts_of) for the
    /// `k` (`K` when not 0) tiles `tiles` on a board of up to [`LANES`]
    /// cells, from its `LANES`-byte tile-to-cell table: tile `i`'s order
    /// digit counts the later tiles on lower cells, a comparison of all the
    /// lanes with the lanes `s` later for each `s`, and the map's bytes are
    /// sums of one bit per lane.
    ///
    /// # Safety
    /// The CPU has popcnt and SSSE3 ([`super::lanes_available`]); `cell_of` has
    /// `LANES` bytes.
    #[inline]
    #[target_feature(enable = "popcnt,ssse3")]
    pub(super) unsafe fn parts<const K: usize>(
        cell_of: &[u8],
        tiles: &[u8; MAX_CELLS],
        k: usize,
    ) -> (u32, u32) {
        let k = if K == 0 { k } else { K }.min(MOST_LANE_TILES);
        let zero = _mm_setzero_si128();
        let low_nibble = _mm_set1_epi8(LANES as i8 - 1);
        let lane = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        let used = _mm_cmplt_epi8(lane, _mm_set1_epi8(k as i8));
        // SAFETY: both reads are of sixteen bytes within the slices (the
        // caller's `cell_of`, and `tiles` of MAX_CELLS ≥ 16).
        let (table, tiles) =
            unsafe { (_mm_loadu_si128(cell_of.as_ptr().cast()), _mm_loadu_si128(tiles.as_ptr().cast())) };
        let cells = _mm_and_si128(_mm_shuffle_epi8(table, _mm_and_si128(tiles, low_nibble)), low_nibble);
        // Past the tiles a lane holds a cell above every cell, so that it
        // counts for no tile before it.
        let past = _mm_set1_epi8(i8::MAX);
        let ranked = _mm_or_si128(_mm_and_si128(used, cells), _mm_andnot_si128(used, past));
        let mut digits = zero;
        macro_rules! later_by {
            ($($s:literal)*) => {$(
                if k > $s {
                    let later = _mm_alignr_epi8::<$s>(past, ranked);
                    digits = _mm_sub_epi8(digits, _mm_cmpgt_epi8(ranked, later));
                }
            )*};
        }
        later_by!(1 2 3 4 5 6 7);
        // SAFETY: a row of WEIGHTS is sixteen bytes.
        let weights = unsafe { _mm_loadu_si128(WEIGHTS[k & 15].as_ptr().cast()) };
        let sums = _mm_madd_epi16(_mm_unpacklo_epi8(digits, zero), weights);
        let sums = _mm_add_epi32(sums, _mm_shuffle_epi32::<0b0100_1110>(sums));
        let sums = _mm_add_epi32(sums, _mm_shuffle_epi32::<0b1011_0001>(sums));
        let order = _mm_cvtsi128_si32(sums) as u32;
        // Each tile's bit within its byte of the map; the bits are distinct,
        // so a byte's sum is their union.
        let bit = _mm_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128);
        let bits = _mm_and_si128(_mm_shuffle_epi8(bit, cells), used);
        let high = _mm_cmpgt_epi8(cells, _mm_set1_epi8(7));
        let bytes: __m128i = _mm_unpacklo_epi64(_mm_andnot_si128(high, bits), _mm_and_si128(high, bits));
        let sums = _mm_sad_epu8(bytes, zero);
        let occupied =
            (_mm_cvtsi128_si32(sums) as u64 & 255) | ((_mm_extract_epi16::<4>(sums) as u64 & 255) << 8);
        (small_rank(occupied), order)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every state of a small space, by brute force: tiles on distinct
    /// cells, the blank on any free cell.
    fn states(shape: Shape, k: usize) -> Vec<(Vec<u8>, u32)> {
        fn place(n: u8, k: usize, cells: &mut Vec<u8>, out: &mut Vec<(Vec<u8>, u32)>) {
            if cells.len() == k {
                for blank in 0..n {
                    if !cells.contains(&blank) {
                        out.push((cells.clone(), u32::from(blank)));
                    }
                }
                return;
            }
            for c in 0..n {
                if !cells.contains(&c) {
                    cells.push(c);
                    place(n, k, cells, out);
                    cells.pop();
                }
            }
        }
        let n = shape.cells() as u8;
        let (mut out, mut cells) = (vec![], vec![]);
        place(n, k, &mut cells, &mut out);
        out
    }

    #[test]
    fn states_in_one_region_share_a_rank_and_ranks_fill_the_range() {
        for (shape, k) in
            [(Shape::square(3), 2), (Shape::square(3), 4), (Shape::new(4, 3), 3), (Shape::square(4), 3)]
                .into_iter()
                .chain([(Shape::square(6), 2), (Shape::new(7, 5), 2)])
        {
            let index = RegionIndex::new(shape, k).unwrap();
            let neighbours = neighbour_masks(shape);
            let mut seen = vec![false; index.len()];
            for (cells, blank) in states(shape, k) {
                let rank = index.rank(&cells, blank);
                seen[rank] = true;
                let occupied = cells.iter().fold(0u64, |m, &c| m | 1 << c);
                let region = flood(&neighbours, all_cells(shape.cells()) & !occupied, blank);
                assert_eq!(index.region_of(rank), region);
                // The same rank from every cell of the region, and unranking
                // gives the tiles back with that region.
                for other in (0..shape.cells() as u32).filter(|c| region & (1 << c) != 0) {
                    assert_eq!(index.rank(&cells, other), rank);
                }
                let mut back = [0u8; MAX_TILES];
                let record = index.unrank(rank, &mut back);
                assert_eq!(&back[..k], &cells[..]);
                assert_eq!((record.occupied, record.cells), (occupied, region));
                // And from a board's tile-to-cell table.
                let mut cell_of = [0u8; MAX_CELLS];
                let mut tiles = [0u8; MAX_CELLS];
                for (i, &c) in cells.iter().enumerate() {
                    tiles[i] = i as u8 + 1;
                    cell_of[i + 1] = c;
                }
                cell_of[0] = blank as u8;
                assert_eq!(index.rank_of(&cell_of, &tiles), rank);
            }
            assert!(seen.iter().all(|&s| s), "{shape} {k}: every index is some state's");
        }
    }

    #[test]
    fn a_small_board_ranks_its_maps_as_the_combinatorial_number_system_does() {
        // Tables on disk were ranked by the sum; the mask's table must agree.
        for k in 1..=8 {
            let index = RegionIndex::new(Shape::square(4), k).unwrap();
            assert!(index.small());
            let mut occupied = all_cells(k);
            for rank in 0..index.map_count {
                assert_eq!(index.colex_rank(occupied), rank);
                assert_eq!(index.map_rank(occupied), rank);
                occupied = next_subset(occupied);
            }
        }
        assert!(!RegionIndex::new(Shape::square(5), 3).unwrap().small());
    }

    #[test]
    fn ranking_in_lanes_gives_the_popcounts_map_and_order() {
        if !lanes_available() {
            return;
        }
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move |below: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % below as u64) as usize
        };
        for shape in [Shape::square(3), Shape::new(4, 3), Shape::square(4)] {
            let n = shape.cells();
            for k in 1..=MOST_LANE_TILES.min(n - 1) {
                let index = RegionIndex::new(shape, k).unwrap();
                assert!(index.lanes, "{shape:?}, {k} tiles");
                for _ in 0..5_000 {
                    // A random board (tile t on cell_of[t]) and a random
                    // pattern of k tiles in a random order.
                    let mut cell_of = [0u8; LANES];
                    let mut cells: Vec<u8> = (0..n as u8).collect();
                    for (tile, cell) in cell_of.iter_mut().enumerate().take(n) {
                        *cell = cells.swap_remove(next(n - tile));
                    }
                    let mut free: Vec<u8> = (1..n as u8).collect();
                    let mut tiles = [0u8; MAX_CELLS];
                    for (i, tile) in tiles.iter_mut().enumerate().take(k) {
                        *tile = free.swap_remove(next(n - 1 - i));
                    }
                    let mut placed = [0u8; MAX_TILES];
                    for i in 0..k {
                        placed[i] = cell_of[usize::from(tiles[i])];
                    }
                    // SAFETY: `lanes` says the CPU has the features; 16 bytes.
                    let lanes = unsafe { lanes::parts::<0>(&cell_of, &tiles, k) };
                    assert_eq!(lanes, index.parts::<0>(&placed), "{shape:?}: {:?}", &placed[..k]);
                    assert_eq!(lanes, index.parts_of(&cell_of, &tiles));
                }
            }
        }
    }

    #[test]
    fn the_sizes_of_the_usual_spaces() {
        let five = RegionIndex::new(Shape::square(5), 6).unwrap();
        assert_eq!((five.map_count, five.regions(), five.len()), (177_100, 251_400, 181_008_000));
        let four = RegionIndex::new(Shape::square(4), 7).unwrap();
        assert_eq!((four.map_count, four.regions(), four.len()), (11_440, 27_748, 139_849_920));
        let eight = RegionIndex::new(Shape::square(4), 8).unwrap();
        assert_eq!(eight.len(), 1_425_191_040);
        assert!(RegionIndex::new(Shape::square(5), 9).is_none(), "too many entries");
        // 6×6, past 32 cells, against counts made independently by a flood
        // fill of every map: 58,905 and 376,992 maps with 61,973 and 414,668
        // regions.
        let six = RegionIndex::new(Shape::square(6), 4).unwrap();
        assert_eq!((six.map_count, six.regions(), six.len()), (58_905, 61_973, 61_973 * 24));
        let six = RegionIndex::new(Shape::square(6), 5).unwrap();
        assert_eq!((six.map_count, six.regions(), six.len()), (376_992, 414_668, 414_668 * 120));
        assert!(RegionIndex::new(Shape::square(6), 7).is_none(), "C(36, 7) · 7! entries");
        assert!(RegionIndex::new(Shape::square(9), 2).is_none(), "masks hold 64 cells");
        assert!(RegionIndex::new(Shape::square(3), 9).is_none(), "no free cell");
        assert!(Arc::ptr_eq(
            &RegionIndex::shared(Shape::square(3), 2).unwrap(),
            &RegionIndex::shared(Shape::square(3), 2).unwrap()
        ));
    }
}
