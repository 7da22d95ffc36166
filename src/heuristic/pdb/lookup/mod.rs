/*!
The heuristic: the databases of a set of partitions combined, loaded or
built together, and looked up for a board and for the board's mirror image.
Within a partition the patterns' values add up; over the partitions, and
over the board and its mirror, the largest sum is taken. This is the
search's hot path; see [`Pdb::value`].

| file         | holds                                                                      |
| ------------ | -------------------------------------------------------------------------- |
| `mod.rs`     | [`Pdb`] and the [`Heuristic`] it is: a board's value, the sums' arithmetic; each lookup compiled for the instruction sets (`compiled_lookups!`) |
| `load.rs`    | making a [`Pdb`]: databases loaded or built, checked, combined             |
| `mirror.rs`  | the board's mirror image along the diagonal                                |
| `memo.rs`    | [`PdbMemo`]: one board looked up afresh, or from its parent's memo         |
| `batched.rs` | [`PdbPending`]: a node's children looked up together, in rounds            |
| `single.rs`  | the same for one partition of tables in bits, in one pass                  |
*/

use super::{PartitionSet, PatternDatabase, TableKind};
use crate::board::{Board, Goal};
use crate::heuristic::pdb::index::MAX_CELLS;
use crate::heuristic::pdb::store::goal_bytes;
use crate::heuristic::{Heuristic, Slide};
use crate::machine::PopcntBmiSsse3;

/// Defines each lookup from its body, written once: `fn name(&self,
/// args) -> R = body;` makes `name`, which runs `body` compiled for popcnt,
/// BMI1, BMI2 and SSSE3 where this CPU has them, else for x86-64's baseline.
/// The bodies are `#[inline(always)]`, so each is compiled both ways.
/// Ranking a placement is a popcount per tile, several times slower
/// emulated, and ranking in lanes (SSSE3) inlines only into a body compiled
/// for it. The compiled copy is a function of the lookup's own parameters,
/// not a closure over them, so that it may assume of them all the body may
/// (a closure's captures lost that: 3 % more instructions in IDA*).
macro_rules! compiled_lookups {
    ($(
        $(#[$attr:meta])*
        $vis:vis fn $name:ident<$($g:ident $(: $bound:path)?),*>(&self $(, $arg:ident: $ty:ty)* $(,)?)
            $(-> $ret:ty)? = $body:ident;
    )*) => {$(
        $(#[$attr])*
        #[inline]
        $vis fn $name<$($g $(: $bound)?),*>(&self $(, $arg: $ty)*) $(-> $ret)? {
            #[cfg(target_arch = "x86_64")]
            if self.popcnt_bmi_ssse3.is_some() {
                #[target_feature(enable = "popcnt,bmi1,bmi2,ssse3")]
                fn compiled<$($g $(: $bound)?),*>(
                    pdb: &$crate::heuristic::pdb::Pdb $(, $arg: $ty)*
                ) $(-> $ret)? {
                    pdb.$body($($arg),*)
                }
                // SAFETY: `popcnt_bmi_ssse3` holds a token, which proves
                // this CPU has popcnt, BMI1, BMI2 and SSSE3: every set
                // `compiled` enables.
                return unsafe { compiled(self $(, $arg)*) };
            }
            self.$body($($arg),*)
        }
    )*};
}

mod batched;
mod load;
mod memo;
mod mirror;
mod single;

pub use batched::PdbPending;
pub use memo::PdbMemo;

use batched::Plan;
use mirror::Mirror;

/// Most databases one [`Pdb`] combines.
pub const MAX_TABLES: usize = 16;

/// Most children a node has: one per neighbour of the blank.
const CHILDREN: usize = 4;

/// Most partitions one [`Pdb`] takes the maximum over.
pub const MAX_PARTITIONS: usize = 8;

/// Per-database values of one board and of its mirror image, and the
/// best sums: what makes up [`Pdb::value`], for inspection and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Parts {
    pub(super) direct: [u8; MAX_TABLES],
    pub(super) mirrored: [u8; MAX_TABLES],
    /// The largest partition's sum over the board, and over its mirror.
    best: (u32, u32),
}

impl Parts {
    /// The heuristic value: the largest sum.
    #[inline]
    pub fn value(&self) -> u32 {
        self.best.0.max(self.best.1)
    }

    /// The largest sum over the board itself and over its mirror image (0
    /// without the mirror): how much the mirror adds, when choosing
    /// partitions.
    #[inline]
    pub fn sums(&self) -> (u32, u32) {
        self.best
    }

    /// Each database's value on the board, in [`Pdb::databases`] order.
    pub fn direct(&self) -> &[u8; MAX_TABLES] {
        &self.direct
    }

    /// Each database's value on the mirror image (0 without the mirror).
    pub fn mirrored(&self) -> &[u8; MAX_TABLES] {
        &self.mirrored
    }
}

/// The maximum over partitions of additive pattern databases, each looked
/// up on the board and, when the goal allows it, on its mirror image.
#[derive(Debug)]
pub struct Pdb {
    set: Option<PartitionSet>,
    cells: usize,
    databases: Vec<PatternDatabase>,
    /// Per partition, the bytes of its databases' values in a value vector
    /// (0xFF for each database it adds up).
    partitions: Vec<u128>,
    /// Per partition, its databases (a mask).
    members: Vec<u16>,
    /// `tables_of[tile]`: the databases holding the tile (a mask).
    tables_of: [u16; MAX_CELLS],
    /// How a node's children are looked up.
    plan: Plan,
    mirror: Option<Mirror>,
    /// What the lookups are compiled for, where this CPU has it (see
    /// `compiled_lookups!`).
    popcnt_bmi_ssse3: Option<PopcntBmiSsse3>,
}

impl Pdb {
    /// Whether these databases were built for `goal` (a heuristic for
    /// another goal would be wrong, not merely weak).
    pub fn serves(&self, goal: &Goal) -> bool {
        self.databases.first().is_some_and(|db| db.shape() == goal.shape() && db.goal() == goal_bytes(goal))
    }

    /// The built-in set these databases form, if any.
    pub fn set(&self) -> Option<PartitionSet> {
        self.set
    }

    /// The databases, each once, in the order the set first names them.
    pub fn databases(&self) -> &[PatternDatabase] {
        &self.databases
    }

    /// Whether children take [`Pdb::begin_single`], for tests to know
    /// which path they check.
    #[cfg(test)]
    pub(super) fn single(&self) -> bool {
        self.plan == Plan::Single
    }

    /// Whether the mirror lookup is used (the blank's goal cell is on the
    /// main diagonal).
    pub fn mirrored(&self) -> bool {
        self.mirror.is_some()
    }

    /// The heuristic value of the board `tiles` (row by row, as many as the
    /// goal has cells), for callers that hold no encoded board.
    pub fn value_of(&self, tiles: &[u16]) -> u32 {
        if tiles.len() <= crate::board::Packed::CAPACITY {
            self.value(&crate::board::Packed::from_tiles(tiles))
        } else {
            self.value(&crate::board::Wide::<MAX_CELLS>::from_tiles(tiles))
        }
    }

    /// The heuristic value of `board`.
    #[inline]
    pub fn value<B: Board>(&self, board: &B) -> u32 {
        self.estimate_memo(board).0
    }

    /// Every database's value for `board` (and its mirror image), and the
    /// best sums.
    pub fn parts<B: Board>(&self, board: &B) -> Parts {
        let values = self.estimate_memo(board).1.values;
        let mut parts = Parts { best: self.sums(&values), ..Parts::default() };
        parts.direct.copy_from_slice(&values[..MAX_TABLES]);
        parts.mirrored.copy_from_slice(&values[MAX_TABLES..]);
        parts
    }
}

/// The databases' values on one side of the mirror (0 the board, 1 its
/// mirror image) as one word, a byte each, for [`byte_sum`] under a
/// partition's mask.
#[inline(always)]
#[expect(clippy::inline_always, reason = "part of every lookup")]
fn side_values(values: &[u8; 2 * MAX_TABLES], side: usize) -> u128 {
    let mut bytes = [0u8; MAX_TABLES];
    bytes.copy_from_slice(&values[(side & 1) * MAX_TABLES..][..MAX_TABLES]);
    u128::from_le_bytes(bytes)
}

/// The sum of the sixteen bytes of `x`: SSE2's sum of absolute
/// differences against zero, two instructions (SSE2 is part of x86-64).
#[cfg(target_arch = "x86_64")]
#[inline]
fn byte_sum(x: u128) -> u32 {
    use std::arch::x86_64::{__m128i, _mm_cvtsi128_si32, _mm_extract_epi16, _mm_sad_epu8, _mm_setzero_si128};
    // SAFETY: SSE2 is part of x86-64, so every CPU this runs on has these
    // instructions; a u128 and an __m128i are the same sixteen bytes, and
    // any bytes are a valid value of either.
    unsafe {
        let sums = _mm_sad_epu8(std::mem::transmute::<u128, __m128i>(x), _mm_setzero_si128());
        (_mm_cvtsi128_si32(sums) as u32) + (_mm_extract_epi16::<4>(sums) as u32)
    }
}

/// The sum of the sixteen bytes of `x`, in a few word operations.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
#[expect(clippy::inline_always, reason = "part of every lookup")]
fn byte_sum(x: u128) -> u32 {
    const BYTES: u128 = 0x00FF_00FF_00FF_00FF_00FF_00FF_00FF_00FF;
    const PAIRS: u128 = 0x0000_FFFF_0000_FFFF_0000_FFFF_0000_FFFF;
    // Eight 16-bit sums of two bytes, then four 32-bit sums of those.
    let pairs = (x & BYTES) + ((x >> 8) & BYTES);
    let quads = (pairs & PAIRS) + ((pairs >> 16) & PAIRS);
    let halves = (quads as u64) + ((quads >> 64) as u64);
    ((halves & 0xFFFF_FFFF) + (halves >> 32)) as u32
}

/// Asks for the cache line of entry `at` of `db`.
#[inline(always)]
#[expect(clippy::inline_always, reason = "part of every lookup")]
fn prefetch_entry(db: &PatternDatabase, at: u32) {
    let byte = if in_bits(db) { at as usize / 8 } else { at as usize };
    if let Some(entry) = db.values.get(byte) {
        crate::machine::prefetch(entry);
    }
}

/// Whether `db` stores bits, read from a parent's value.
#[inline(always)]
#[expect(clippy::inline_always, reason = "part of every lookup")]
fn in_bits(db: &PatternDatabase) -> bool {
    db.kind() == TableKind::ZeroAwareBits
}

impl<B: Board> Heuristic<B> for Pdb {
    /// Minimising over the blank makes one move able to change the value by
    /// several: A* must keep g and reopen. (Zero-aware tables are
    /// consistent, but a table is data: a damaged or forged one is not.)
    const CONSISTENT: bool = false;

    type Memo = PdbMemo<B::Places>;

    #[inline]
    fn estimate(&self, board: &B) -> u32 {
        self.value(board)
    }

    /// A fresh lookup, for searches that keep no memo (A*): the parent's
    /// value alone cannot say which patterns (or which side of the mirror)
    /// made it. Their entries were just read for the parent and are in
    /// cache, so the lookups of the unchanged patterns cost little (tables
    /// in bits walk to their goal each time: slow, but A* is not how
    /// boards that need them are solved).
    #[inline]
    fn update(&self, child: &B, _: u32, _: u8, _: usize, _: usize) -> u32 {
        self.value(child)
    }

    #[inline]
    fn estimate_memo(&self, board: &B) -> (u32, PdbMemo<B::Places>) {
        Pdb::estimate_memo(self, board)
    }

    #[inline]
    fn update_memo(
        &self,
        _: &B,
        _: u32,
        memo: &PdbMemo<B::Places>,
        tile: u8,
        from: usize,
        to: usize,
    ) -> (u32, PdbMemo<B::Places>) {
        Pdb::update_memo(self, memo, tile, from, to)
    }

    #[inline]
    fn update_memos(
        &self,
        _: u32,
        memo: &PdbMemo<B::Places>,
        to: usize,
        slides: &[Slide<B>],
        estimates: &mut [u32],
        memos: &mut [PdbMemo<B::Places>],
    ) {
        Pdb::update_memos(self, memo, to, slides, estimates, memos);
    }

    fn estimates_from_parent(&self) -> bool {
        self.databases.iter().any(in_bits)
    }

    /// Every lookup is a read of a table far larger than the caches.
    const OVERLAPS: bool = true;

    type Pending = PdbPending;

    #[inline]
    fn begin_children(
        &self,
        _: u32,
        memo: &PdbMemo<B::Places>,
        to: usize,
        slides: &[Slide<B>],
        memos: &mut [PdbMemo<B::Places>],
        pending: &mut PdbPending,
        cut: u32,
    ) {
        self.begin(memo, to, slides, memos, pending, cut);
    }

    #[inline]
    fn end_children(
        &self,
        _: u32,
        _: &PdbMemo<B::Places>,
        _: usize,
        _: &[Slide<B>],
        pending: &mut PdbPending,
        estimates: &mut [u32],
        memos: &mut [PdbMemo<B::Places>],
    ) -> bool {
        self.end(pending, estimates, memos)
    }
}
