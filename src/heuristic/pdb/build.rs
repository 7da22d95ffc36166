/*!
Construction: a layered breadth-first search of one pattern's abstract space,
in flat arrays only.

An abstract state is a placement of the pattern tiles plus the blank's cell;
every other tile is indistinguishable and free. Moving a pattern tile costs
1; moving the blank through free cells costs 0. So the blank only matters by
the *region* (connected set of free cells) it is in, and each layer of the
search is closed under free blank moves: a state enters the frontier together
with its whole region. That turns the 0-1 search into a plain layered BFS
whose layer number is the exact number of pattern moves.

Per placement each free cell gets two bits (cell identified by its rank among
the free cells, so the 8-tile pattern of the 15-puzzle needs 8 slots = 16 bits
per placement, 1 GiB in all): 0 unseen, 1 or 2 the current or next layer (the
roles swap each layer), 3 done. The database entry of a placement is the
first layer in which any of its regions appears: the minimum over blank
positions, an exact lower bound on the pattern moves any solution makes.

Threads take chunks of placements; each scans its chunk for frontier slots,
owns that chunk's database bytes, and queues successors in batches. A batch
is probed with plain loads first (almost every successor is already seen,
and the probes' cache misses overlap), then each new region is marked with
an atomic `fetch_or`, so no mark is ever lost. Frontier slots are closed in
a separate pass once nobody writes, without locked instructions. A child's
rank is the parent's plus the change of the few digits the move touches
([`Indexer::moved`]), not a fresh rank. Measured on 2 cores: the 8-tile
database of the 15-puzzle (4.15·10⁹ states, 1.35·10⁹ regions, 38 layers)
takes about 190 s of CPU, 100–170 s of wall time depending on what else
runs, and 1.6 GB.
*/

#![expect(
    clippy::inline_always,
    reason = "the hot functions must inline into the popcnt/BMI2 builds of their callers"
)]

use super::index::{Indexer, MAX_CELLS, all_cells, select};
use crate::board::{Move, Shape};
use crate::machine::{InstructionSets, PopcntBmi};
use memmap2::{Advice, MmapMut};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::thread;
use std::time::{Duration, Instant};

/// Database bytes not yet reached.
pub(crate) const UNSET: u8 = u8::MAX;

/// Placements per work unit: large enough that taking one is rare, small
/// enough that two threads finish a layer together.
const CHUNK: usize = 1 << 16;

/// How often the building thread reports progress.
pub(crate) const REPORT_EVERY: Duration = Duration::from_millis(100);

/// Bit 0 of every two-bit slot.
const LOW_SLOT_BITS: u64 = 0x5555_5555_5555_5555;

/// The most successors one placement has: one per edge of the grid, and a
/// grid of at most 64 cells has at most 112 (8×8).
const MAX_SUCCESSORS: usize = 112;

/// One pattern's abstract space.
pub(crate) struct Space<'a> {
    /// The board's shape.
    pub shape: Shape,
    /// Placements of the pattern tiles.
    pub indexer: &'a Indexer,
    /// Goal cell of each pattern tile, in the indexer's tile order.
    pub goal_cells: &'a [u8],
    /// The blank's goal cell.
    pub blank: u8,
}

/// Why a build failed.
#[derive(Debug)]
pub(crate) enum BuildError {
    /// The search states could not be allocated.
    Memory { bytes: usize, source: std::io::Error },
    /// Placements left unreached (impossible for the spaces
    /// [`super::PatternDatabase`] accepts: kept as an error, not a panic).
    Unreached(u64),
}

/// Two-bit search states, `2 × free cells` bits per placement, padded to 16
/// or 32 bits so a placement never straddles two words.
///
/// The words live in an anonymous map advised to use transparent huge
/// pages: almost every successor probe lands on a random word of a gigabyte,
/// and with 4 KiB pages each would also miss the TLB (doubly costly under
/// virtualisation).
struct Slots {
    map: MmapMut,
    len: usize,
    /// log2 of the bits per placement.
    stride_log: u32,
    /// log2 of the placements per word.
    per_word_log: u32,
}

impl Slots {
    fn new(placements: usize, free: usize) -> Result<Slots, BuildError> {
        let stride_log = stride_log(free);
        let per_word_log = 6 - stride_log;
        let len = placements.div_ceil(1 << per_word_log);
        let map =
            MmapMut::map_anon(len * 8).map_err(|source| BuildError::Memory { bytes: len * 8, source })?;
        // Only a hint: without huge pages the build is slower, not wrong.
        let _ = map.advise(Advice::HugePage);
        Ok(Slots { map, len, stride_log, per_word_log })
    }

    #[inline(always)]
    #[expect(clippy::cast_ptr_alignment, reason = "the map is page-aligned")]
    fn words(&self) -> &[AtomicU64] {
        // SAFETY: the map is page-aligned (so aligned for `AtomicU64`), holds
        // `len` words, starts zeroed (a valid `AtomicU64`), lives as long as
        // `self`, and after creation is only ever accessed through these
        // atomics. The pointer comes from the map itself, not a reference.
        unsafe { std::slice::from_raw_parts(self.map.as_ptr().cast::<AtomicU64>(), self.len) }
    }

    /// The word and bit offset of a placement, for a stride of
    /// `2^stride_log` bits (passed in so specialised callers fold it).
    #[inline(always)]
    fn locate(&self, placement: usize, stride_log: u32) -> (&AtomicU64, u32) {
        let per_word_log = 6 - stride_log;
        let within = placement & ((1 << per_word_log) - 1);
        (&self.words()[placement >> per_word_log], (within as u32) << stride_log)
    }

    #[inline(always)]
    fn get(&self, placement: usize, stride_log: u32) -> u64 {
        let (word, shift) = self.locate(placement, stride_log);
        word.load(Relaxed) >> shift
    }

    /// ORs `bits` into the placement's slots; returns the word before,
    /// shifted so the placement's slots are the low bits.
    #[inline(always)]
    fn or(&self, placement: usize, bits: u64, stride_log: u32) -> u64 {
        let (word, shift) = self.locate(placement, stride_log);
        word.fetch_or(bits << shift, Relaxed) >> shift
    }
}

/// Cell masks for growing a region one step in every direction at once.
#[derive(Clone, Copy)]
struct Grid {
    width: u32,
    /// Cells that have a neighbour to their left / right.
    has_left: u64,
    has_right: u64,
}

impl Grid {
    fn new(shape: impl Into<Shape>) -> Grid {
        let shape = shape.into();
        let (mut has_left, mut has_right) = (0, 0);
        for cell in 0..shape.cells() {
            if shape.neighbour(cell, Move::Left).is_some() {
                has_left |= 1 << cell;
            }
            if shape.neighbour(cell, Move::Right).is_some() {
                has_right |= 1 << cell;
            }
        }
        Grid { width: shape.width() as u32, has_left, has_right }
    }

    /// The region (connected free cells) of `start` within `free`, as a
    /// `01` in the two-bit slot of each of its cells. Computed, not looked
    /// up: a table of every free mask does not stay in cache.
    #[inline(always)]
    fn region(self, free: u64, start: u32) -> u64 {
        let mut region = 1u64 << start;
        loop {
            let grown = (region
                | ((region & self.has_right) << 1)
                | ((region & self.has_left) >> 1)
                | (region << self.width)
                | (region >> self.width))
                & free;
            if grown == region {
                break;
            }
            region = grown;
        }
        let mut spread = 0u64;
        let mut rest = region;
        while rest != 0 {
            let cell = rest.trailing_zeros();
            rest &= rest - 1;
            spread |= 1 << (2 * (free & ((1 << cell) - 1)).count_ones());
        }
        spread
    }
}

/// Neighbour masks of each cell of the grid.
fn neighbours(shape: Shape) -> [u64; MAX_CELLS] {
    let mut out = [0u64; MAX_CELLS];
    for (cell, mask) in out.iter_mut().enumerate().take(shape.cells()) {
        for (_, to) in shape.neighbours(cell) {
            *mask |= 1 << to;
        }
    }
    out
}

/// Most free cells a placement may leave: its two-bit slots fill at most
/// one word.
pub(crate) const MAX_FREE: usize = 32;

/// log2 of the bits a placement's slots take: two bits per free cell
/// (at most [`MAX_FREE`]), padded to 16, 32 or 64 so a placement never
/// straddles two words.
fn stride_log(free: usize) -> u32 {
    match 2 * free {
        ..=16 => 4,
        17..=32 => 5,
        _ => 6,
    }
}

/// A successor found while expanding a placement.
#[derive(Clone, Copy, Default)]
struct Successor {
    placement: usize,
    /// Its free cells.
    free: u64,
    /// The blank's cell.
    blank: u32,
    /// Bit offset of the blank's slot.
    slot: u32,
}

/// Successors waiting to be probed and marked. Probing hundreds at once lets
/// their cache misses overlap; a locked write in between would stall them.
struct Batch {
    items: [Successor; BATCH],
    len: usize,
}

/// Successors per batch.
const BATCH: usize = 256;

/// One layer's shared, read-only context.
struct Layer<'a> {
    indexer: &'a Indexer,
    slots: &'a Slots,
    grid: Grid,
    neighbours: [u64; MAX_CELLS],
    /// What [`Layer::scan`] is compiled for, where this CPU has it.
    popcnt_bmi: Option<PopcntBmi>,
    cells: usize,
    depth: u8,
    /// Slot code of the frontier (1 or 2); the next layer gets `3 − current`.
    current: u64,
    /// Per chunk: whether it may hold frontier slots (it got a new region
    /// last layer), so chunks without any are neither scanned nor closed.
    now: &'a [AtomicBool],
    /// Per chunk: whether it got a new region in this layer.
    next: &'a [AtomicBool],
}

impl Layer<'_> {
    /// Expands chunks until none are left; returns how many new regions it
    /// discovered. `tick` runs after each chunk (the reporting thread's).
    fn expand_all<'v>(
        &self,
        chunks: &Mutex<impl Iterator<Item = (usize, &'v mut [u8])>>,
        tick: &mut dyn FnMut(u64),
    ) -> u64 {
        let mut fresh = 0;
        loop {
            let next = chunks.lock().map(|mut it| it.next());
            let Ok(Some((chunk, values))) = next else {
                return fresh;
            };
            if !self.now[chunk].load(Relaxed) {
                continue;
            }
            let (found, reached) = self.scan(chunk * CHUNK, values);
            fresh += found;
            tick(reached);
        }
    }

    /// Turns the frontier slots of active chunks into done slots. Runs after
    /// every expansion of the layer, when no other thread writes, so it needs
    /// no locked instructions (doing it during expansion would serialise
    /// every placement behind one).
    fn close_all(&self, next_chunk: &AtomicUsize) {
        let per_word_log = self.slots.per_word_log;
        let pattern = self.current * LOW_SLOT_BITS;
        loop {
            let chunk = next_chunk.fetch_add(1, Relaxed);
            let Some(active) = self.now.get(chunk) else {
                return;
            };
            if !active.swap(false, Relaxed) {
                continue;
            }
            let first = (chunk * CHUNK) >> per_word_log;
            let last = ((chunk + 1) * CHUNK).min(self.indexer.len()).div_ceil(1 << per_word_log);
            for word in &self.slots.words()[first..last] {
                let w = word.load(Relaxed);
                let diff = w ^ pattern;
                let frontier = !(diff | (diff >> 1)) & LOW_SLOT_BITS;
                if frontier != 0 {
                    word.store(w | (frontier * 3), Relaxed);
                }
            }
        }
    }

    /// Expands the frontier placements of one chunk, recording their value;
    /// returns the new regions found and the placements reached for the
    /// first time.
    fn scan(&self, first: usize, values: &mut [u8]) -> (u64, u64) {
        #[cfg(target_arch = "x86_64")]
        if let Some(sets) = self.popcnt_bmi {
            // SAFETY: `sets` proves this CPU has popcnt, BMI1 and BMI2,
            // every set `scan_compiled` enables.
            return unsafe {
                match (self.cells, self.indexer.k()) {
                    (16, 8) => self.scan_compiled::<8, 16>(sets, first, values),
                    (16, 7) => self.scan_compiled::<7, 16>(sets, first, values),
                    (16, 6) => self.scan_compiled::<6, 16>(sets, first, values),
                    (25, 6) => self.scan_compiled::<6, 25>(sets, first, values),
                    _ => self.scan_compiled::<0, 0>(sets, first, values),
                }
            };
        }
        self.scan_portable::<0, 0>(first, values)
    }

    /// [`Layer::scan_portable`] compiled for popcnt, BMI1 and BMI2, which this
    /// CPU has: ranking is a popcount per tile, and the emulated one is
    /// several times slower.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2")]
    fn scan_compiled<const K: usize, const N: usize>(
        &self,
        _: PopcntBmi,
        first: usize,
        values: &mut [u8],
    ) -> (u64, u64) {
        self.scan_portable::<K, N>(first, values)
    }

    /// The pattern size, cell count and slot stride: compile-time constants
    /// for the big patterns (`K` = 6, 7 or 8 tiles on `N` = 16 cells, 6 on
    /// 25, so every loop over the tiles unrolls), read at run time for
    /// `K` = 0.
    #[inline(always)]
    fn shape<const K: usize, const N: usize>(&self) -> (usize, usize, u32) {
        if K == 0 { (self.indexer.k(), self.cells, self.slots.stride_log) } else { (K, N, stride_log(N - K)) }
    }

    #[inline(always)]
    fn scan_portable<const K: usize, const N: usize>(&self, first: usize, values: &mut [u8]) -> (u64, u64) {
        let (_, _, stride_log) = self.shape::<K, N>();
        let per_word_log = 6 - stride_log;
        let stride = 1u32 << stride_log;
        let mask = u64::MAX >> (64 - stride);
        let pattern = self.current * LOW_SLOT_BITS;
        let mut batch = Batch { items: [Successor::default(); BATCH], len: 0 };
        let (mut fresh, mut reached) = (0, 0);
        let words = first >> per_word_log..(first + values.len()).div_ceil(1 << per_word_log);
        for w in words {
            let diff = self.slots.words()[w].load(Relaxed) ^ pattern;
            let frontier = !(diff | (diff >> 1)) & LOW_SLOT_BITS;
            if frontier == 0 {
                continue;
            }
            for j in 0..1usize << per_word_log {
                let mine = (frontier >> (j as u32 * stride)) & mask;
                if mine == 0 {
                    continue;
                }
                let placement = (w << per_word_log) + j;
                let value = &mut values[placement - first];
                if *value == UNSET {
                    *value = self.depth;
                    reached += 1;
                }
                if batch.len + MAX_SUCCESSORS > BATCH {
                    fresh += self.flush::<K, N>(&mut batch);
                }
                self.expand::<K, N>(placement, mine, &mut batch);
            }
        }
        fresh += self.flush::<K, N>(&mut batch);
        (fresh, reached)
    }

    /// Queues the successors of `placement`: each pattern tile next to a
    /// frontier blank cell moved into it.
    #[inline(always)]
    fn expand<const K: usize, const N: usize>(&self, placement: usize, frontier: u64, batch: &mut Batch) {
        let (k, n, _) = self.shape::<K, N>();
        let mut cells = [0u8; MAX_CELLS];
        let occupied = self.indexer.unrank_with(placement, k, n, &mut cells);
        let mut tile_at = [0u8; MAX_CELLS];
        for (i, &cell) in cells[..k].iter().enumerate() {
            tile_at[cell as usize] = i as u8;
        }
        let free = all_cells(n) & !occupied;
        // Visit only the frontier's blank cells (slot to cell by select).
        let mut rest = frontier;
        while rest != 0 {
            let blank = select(free, rest.trailing_zeros() / 2);
            rest &= rest - 1;
            let mut movers = self.neighbours[blank as usize] & occupied;
            while movers != 0 {
                let from = movers.trailing_zeros();
                movers &= movers - 1;
                let tile = tile_at[from as usize] as usize;
                let child = self.indexer.moved(placement, occupied, &tile_at, tile, from, blank);
                let after = free ^ (1 << blank) ^ (1 << from);
                batch.items[batch.len] = Successor {
                    placement: child,
                    free: after,
                    blank: from,
                    slot: 2 * (after & ((1 << from) - 1)).count_ones(),
                };
                batch.len += 1;
            }
        }
    }

    /// Marks the unseen regions among the batch as the next layer; returns
    /// how many it marked first.
    #[inline(always)]
    fn flush<const K: usize, const N: usize>(&self, batch: &mut Batch) -> u64 {
        let (_, _, stride_log) = self.shape::<K, N>();
        let items = &mut batch.items[..batch.len];
        // Probe everything first (plain loads, misses overlapping); keep the
        // unseen ones. Stale answers only cost a redundant `fetch_or`.
        let mut unseen = 0;
        for i in 0..items.len() {
            let s = items[i];
            items[unseen] = s;
            unseen += usize::from((self.slots.get(s.placement, stride_log) >> s.slot).trailing_zeros() >= 2);
        }
        let next = 3 - self.current;
        let mut fresh = 0;
        for s in &items[..unseen] {
            let region = self.grid.region(s.free, s.blank);
            if (self.slots.or(s.placement, region * next, stride_log) >> s.slot).trailing_zeros() >= 2 {
                fresh += 1;
                let flag = &self.next[s.placement / CHUNK];
                // Read first: the flag's line stays shared between threads.
                if !flag.load(Relaxed) {
                    flag.store(true, Relaxed);
                }
            }
        }
        batch.len = 0;
        fresh
    }
}

/// Runs `work` on `threads` threads (the calling one included) and sums
/// what they return; the calling thread's copy gets `tick`.
pub(super) fn on_threads<W>(threads: usize, work: W, tick: &mut dyn FnMut(u64)) -> u64
where
    W: Fn(&mut dyn FnMut(u64)) -> u64 + Sync,
{
    thread::scope(|scope| {
        let others: Vec<_> = (1..threads.max(1)).map(|_| scope.spawn(|| work(&mut |_| {}))).collect();
        let mut total = work(tick);
        for other in others {
            total += other.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        }
        total
    })
}

/// Fills `values` (one byte per placement) with the pattern's exact
/// blank-minimised distances, using `threads` threads. `report` gets the
/// number of placements reached so far, from the calling thread only.
pub(crate) fn breadth_first(
    space: &Space<'_>,
    values: &mut [u8],
    threads: usize,
    report: &mut dyn FnMut(u64),
) -> Result<(), BuildError> {
    let indexer = space.indexer;
    let cells = space.shape.cells();
    let len = indexer.len();
    debug_assert_eq!(values.len(), len);
    values.fill(UNSET);
    let slots = Slots::new(len, cells - indexer.k())?;
    let grid = Grid::new(space.shape);
    let flags = || -> Vec<AtomicBool> { (0..len.div_ceil(CHUNK)).map(|_| AtomicBool::new(false)).collect() };
    let pending = [flags(), flags()];
    let popcnt_bmi = InstructionSets::detect().popcnt_bmi();

    let mut start = [0u8; MAX_CELLS];
    start[..indexer.k()].copy_from_slice(space.goal_cells);
    let occupied = space.goal_cells.iter().fold(0u64, |m, &c| m | 1 << c);
    let free = all_cells(cells) & !occupied;
    let origin = indexer.rank(&start);
    slots.or(origin, grid.region(free, u32::from(space.blank)), slots.stride_log);
    pending[0][origin / CHUNK].store(true, Relaxed);

    let reached = AtomicU64::new(0);
    let mut last_report = Instant::now();
    let (mut depth, mut current) = (0u8, 1u64);
    loop {
        let layer = Layer {
            indexer,
            slots: &slots,
            grid,
            neighbours: neighbours(space.shape),
            popcnt_bmi,
            cells,
            depth,
            current,
            now: &pending[usize::from(depth % 2)],
            next: &pending[usize::from(1 - depth % 2)],
        };
        let chunks = Mutex::new(values.chunks_mut(CHUNK).enumerate());
        let fresh = on_threads(
            threads,
            |tick| {
                layer.expand_all(&chunks, &mut |r| {
                    reached.fetch_add(r, Relaxed);
                    tick(r);
                })
            },
            &mut |_| {
                if last_report.elapsed() >= REPORT_EVERY {
                    report(reached.load(Relaxed));
                    last_report = Instant::now();
                }
            },
        );
        let next_chunk = AtomicUsize::new(0);
        on_threads(
            threads,
            |_| {
                layer.close_all(&next_chunk);
                0
            },
            &mut |_| {},
        );
        report(reached.load(Relaxed));
        if fresh == 0 || depth == UNSET - 1 {
            break;
        }
        depth += 1;
        current = 3 - current;
    }
    let reached = reached.into_inner();
    if reached == len as u64 { Ok(()) } else { Err(BuildError::Unreached(len as u64 - reached)) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_split_where_pattern_tiles_wall_off_a_corner() {
        // 3×3, pattern tiles on cells 1 and 3: cell 0 is cut off from the rest.
        let grid = Grid::new(3);
        let free = 0b1_1111_0101u64;
        assert_eq!(grid.region(free, 0), 0b01, "cell 0 alone, slot 0");
        // Cells 2 and 4..8 are slots 1..6, one region.
        assert_eq!(grid.region(free, 4), 0b01_0101_0101_0100);
        assert_eq!(grid.region(free, 8), grid.region(free, 2));
        // 4×4: a wall down column 1 separates column 0 from columns 2-3.
        let grid = Grid::new(4);
        let free = 0xFFFF & !0x2222;
        assert_eq!(grid.region(free, 0), 1 | 1 << 6 | 1 << 12 | 1 << 18, "slots 0, 3, 6, 9");
    }
}
