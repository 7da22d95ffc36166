/*!
Construction of a zero-aware table: a layered breadth-first search over
the states of [`RegionIndex`] (a placement of the pattern's tiles and the
region of free cells the blank is in), one byte per state.

Moving a pattern tile costs 1; moving the blank through free cells costs 0,
so a state stands for all of its region's blank cells and the search needs
no 0-cost edges: a state's successors are its tiles moved into a cell of
its region, the blank then on the cell the tile left, in that cell's
region. The layer a state is first reached in is its value: the fewest
moves of pattern tiles that bring the pattern home with the blank in its
goal region, which no solution of a board in that state can beat.

Each layer scans the table for the states of the previous one (eight at a
time, as bytes of a word), on every core, each thread taking chunks of
entries; successors are queued in batches, probed with plain loads first
(almost every one is already reached, and the probes' cache misses
overlap), and the unreached ones set with an atomic `fetch_and` on the
byte's word: every writer of a layer writes the same value, so no write is
lost and the count of new states is exact. Chunks that got no new state in
the last layer are not scanned.
*/

#![expect(
    clippy::inline_always,
    reason = "the hot functions must inline into the popcnt/BMI2 builds of their callers"
)]

use super::build::{BuildError, REPORT_EVERY, UNSET, on_threads};
use super::index::MAX_CELLS;
use super::region_index::{MAX_TILES, RegionIndex, neighbour_masks};
use crate::machine::{InstructionSets, PopcntBmi};
use memmap2::{Advice, MmapMut};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

/// Entries per work unit: a multiple of 8 (whole words), large enough that
/// taking one is rare, small enough that two threads finish a layer
/// together.
const CHUNK: usize = 1 << 18;

/// Successors per batch.
const BATCH: usize = 256;

/// The most successors one state has: four neighbours per tile.
const MAX_SUCCESSORS: usize = 4 * MAX_TILES;

/// Each byte's low seven bits, and each byte's high bit.
const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// One pattern's zero-aware space.
pub(crate) struct Space<'a> {
    /// The states.
    pub index: &'a RegionIndex,
    /// Goal cell of each pattern tile, in the index's tile order.
    pub goal_cells: &'a [u8],
    /// The blank's goal cell.
    pub blank: u8,
}

/// The values as words, for the scan and the atomic writes (the map has
/// whole words; entries past the table's end stay unset).
struct Table {
    map: MmapMut,
}

impl Table {
    fn new(len: usize) -> Result<Table, BuildError> {
        let bytes = len.next_multiple_of(8).max(8);
        let mut map = MmapMut::map_anon(bytes).map_err(|source| BuildError::Memory { bytes, source })?;
        // Only a hint: without huge pages the build is slower, not wrong.
        let _ = map.advise(Advice::HugePage);
        map.fill(UNSET);
        Ok(Table { map })
    }

    #[inline(always)]
    #[expect(clippy::cast_ptr_alignment, reason = "the map is page-aligned")]
    fn words(&self) -> &[AtomicU64] {
        // SAFETY: the map is page-aligned (so aligned for `AtomicU64`), a
        // whole number of words long, lives as long as `self`, and while
        // the search runs is only accessed through these atomics. The
        // pointer comes from the map itself, not a reference.
        unsafe { std::slice::from_raw_parts(self.map.as_ptr().cast::<AtomicU64>(), self.map.len() / 8) }
    }

    #[inline(always)]
    fn get(&self, entry: usize) -> u8 {
        (self.words()[entry / 8].load(Relaxed) >> (8 * (entry % 8))) as u8
    }

    /// Sets an entry that is [`UNSET`] or already `value` to `value`;
    /// returns whether it was unset.
    #[inline(always)]
    fn set(&self, entry: usize, value: u8) -> bool {
        let shift = 8 * (entry % 8);
        let keep = !(0xFF << shift) | (u64::from(value) << shift);
        (self.words()[entry / 8].fetch_and(keep, Relaxed) >> shift) as u8 == UNSET
    }
}

/// Successors waiting to be probed and set.
struct Batch {
    items: [u32; BATCH],
    len: usize,
}

/// One layer's shared, read-only context.
struct Layer<'a> {
    index: &'a RegionIndex,
    table: &'a Table,
    neighbours: [u64; MAX_CELLS],
    /// What [`Layer::scan`] is compiled for, where this CPU has it.
    popcnt_bmi: Option<PopcntBmi>,
    depth: u8,
    /// Per chunk: whether it may hold states of this layer.
    now: &'a [AtomicBool],
    /// Per chunk: whether it got a state of the next layer.
    next: &'a [AtomicBool],
}

impl Layer<'_> {
    /// Expands chunks until none are left; returns how many new states it
    /// reached. `tick` runs after each chunk with the states it reached.
    fn expand_all(&self, chunks: &Mutex<std::ops::Range<usize>>, tick: &mut dyn FnMut(u64)) -> u64 {
        let mut fresh = 0;
        loop {
            let next = chunks.lock().map(|mut it| it.next());
            let Ok(Some(chunk)) = next else {
                return fresh;
            };
            if !self.now[chunk].swap(false, Relaxed) {
                continue;
            }
            let found = self.scan(chunk);
            fresh += found;
            tick(found);
        }
    }

    fn scan(&self, chunk: usize) -> u64 {
        #[cfg(target_arch = "x86_64")]
        if let Some(sets) = self.popcnt_bmi {
            // SAFETY: `sets` proves this CPU has popcnt, BMI1 and BMI2,
            // every set `scan_compiled` enables.
            return unsafe {
                match self.index.k() {
                    6 => self.scan_compiled::<6>(sets, chunk),
                    7 => self.scan_compiled::<7>(sets, chunk),
                    8 => self.scan_compiled::<8>(sets, chunk),
                    _ => self.scan_compiled::<0>(sets, chunk),
                }
            };
        }
        self.scan_portable::<0>(chunk)
    }

    /// [`Layer::scan_portable`] compiled for popcnt, BMI1 and BMI2, which this
    /// CPU has (a rank is a popcount per tile).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2")]
    fn scan_compiled<const K: usize>(&self, _: PopcntBmi, chunk: usize) -> u64 {
        self.scan_portable::<K>(chunk)
    }

    /// Expands the chunk's states of this layer; returns the new states
    /// found. `K` is the pattern size when known at compile time, else 0.
    #[inline(always)]
    fn scan_portable<const K: usize>(&self, chunk: usize) -> u64 {
        let wanted = u64::from(self.depth) * 0x0101_0101_0101_0101;
        let words = self.table.words();
        let first = chunk * CHUNK / 8;
        let last = ((chunk + 1) * CHUNK / 8).min(words.len());
        let mut batch = Batch { items: [0; BATCH], len: 0 };
        let mut fresh = 0;
        for (w, word) in words[first..last].iter().enumerate() {
            let x = word.load(Relaxed) ^ wanted;
            // The high bit of each byte equal to `depth` (exact: no carry
            // crosses a byte).
            let mut hits = !(((x & LOW7) + LOW7) | x) & HIGH;
            while hits != 0 {
                let entry = (first + w) * 8 + hits.trailing_zeros() as usize / 8;
                hits &= hits - 1;
                if batch.len + MAX_SUCCESSORS > BATCH {
                    fresh += self.flush(&mut batch);
                }
                self.expand::<K>(entry, &mut batch);
            }
        }
        fresh + self.flush(&mut batch)
    }

    /// Queues the successors of `entry`: each tile next to the blank's
    /// region moved into it.
    #[inline(always)]
    fn expand<const K: usize>(&self, entry: usize, batch: &mut Batch) {
        let k = if K == 0 { self.index.k() } else { K };
        let mut cells = [0u8; MAX_TILES];
        let record = self.index.unrank(entry, &mut cells);
        for i in 0..k.min(MAX_TILES) {
            let from = cells[i];
            let mut targets = self.neighbours[usize::from(from) & (MAX_CELLS - 1)] & record.cells;
            while targets != 0 {
                let to = targets.trailing_zeros();
                targets &= targets - 1;
                let mut moved = cells;
                moved[i] = to as u8;
                batch.items[batch.len] = self.index.rank_cells::<K>(&moved, u32::from(from)) as u32;
                batch.len += 1;
            }
        }
    }

    /// Sets the unreached successors in the batch to the next layer;
    /// returns how many were unreached.
    #[inline(always)]
    fn flush(&self, batch: &mut Batch) -> u64 {
        let items = &mut batch.items[..batch.len];
        // Probe everything first (plain loads, misses overlapping); keep the
        // unreached ones. A stale answer only costs a redundant write.
        let mut unseen = 0;
        for i in 0..items.len() {
            let entry = items[i];
            items[unseen] = entry;
            unseen += usize::from(self.table.get(entry as usize) == UNSET);
        }
        let mut fresh = 0;
        for &entry in &items[..unseen] {
            if self.table.set(entry as usize, self.depth + 1) {
                fresh += 1;
                let flag = &self.next[entry as usize / CHUNK];
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

/// The zero-aware values of the pattern, one byte per entry of
/// `space.index` (the map holds them in its first `len` bytes), using
/// `threads` threads. `report` gets the number of states reached so far,
/// from the calling thread only.
pub(crate) fn breadth_first(
    space: &Space<'_>,
    threads: usize,
    report: &mut dyn FnMut(u64),
) -> Result<MmapMut, BuildError> {
    let index = space.index;
    let len = index.len();
    let table = Table::new(len)?;
    let chunks = len.div_ceil(CHUNK);
    let flags = || -> Vec<AtomicBool> { (0..chunks).map(|_| AtomicBool::new(false)).collect() };
    let pending = [flags(), flags()];
    let popcnt_bmi = InstructionSets::detect().popcnt_bmi();

    let origin = index.rank(space.goal_cells, u32::from(space.blank));
    table.set(origin, 0);
    pending[0][origin / CHUNK].store(true, Relaxed);
    let reached = AtomicU64::new(1);
    report(1);
    let mut last_report = Instant::now();
    let mut depth = 0u8;
    loop {
        let layer = Layer {
            index,
            table: &table,
            neighbours: neighbour_masks(index.shape()),
            popcnt_bmi,
            depth,
            now: &pending[usize::from(depth % 2)],
            next: &pending[usize::from(1 - depth % 2)],
        };
        let work = Mutex::new(0..chunks);
        let fresh = on_threads(
            threads,
            |tick| {
                layer.expand_all(&work, &mut |found| {
                    reached.fetch_add(found, Relaxed);
                    tick(found);
                })
            },
            &mut |_| {
                if last_report.elapsed() >= REPORT_EVERY {
                    report(reached.load(Relaxed));
                    last_report = Instant::now();
                }
            },
        );
        report(reached.load(Relaxed));
        if fresh == 0 || depth == UNSET - 2 {
            break;
        }
        depth += 1;
    }
    let reached = reached.into_inner();
    if reached == len as u64 { Ok(table.map) } else { Err(BuildError::Unreached(len as u64 - reached)) }
}
