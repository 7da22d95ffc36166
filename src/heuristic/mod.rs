/*!
Heuristics: lower bounds on the moves left, always computed against the
chosen goal.

Searches call [`Heuristic::estimate`] once for the start and then
[`Heuristic::update`] per slide, which for the per-tile heuristics is two
table reads. Values are integers in units of `1 / UNIT` moves, so A* orders
nodes exactly, with no floating-point drift between incremental and fresh
values.
*/

mod linear_conflict;
pub mod pdb;

pub use linear_conflict::LinearConflict;
pub use pdb::{Partition, PartitionSet, Pdb};

use crate::board::{Board, Goal, MAX_SEARCH_CELLS};
use std::fmt;

/// A child of a node: `tile` slid from cell `from` into the node's blank.
#[derive(Clone, Copy, Debug)]
pub struct Slide<B> {
    /// The child.
    pub board: B,
    /// The tile that moved.
    pub tile: u8,
    /// Its cell in the node, the child's blank.
    pub from: usize,
}

/// An admissible lower bound on the moves to the goal.
pub trait Heuristic<B: Board>: Sync {
    /// How many heuristic units make one move. 1 for whole-number heuristics.
    const UNIT: u32 = 1;

    /// Whether one move never changes the estimate by more than one move's
    /// worth. A* keeps less per state when it does.
    const CONSISTENT: bool = true;

    /// Estimate for `board`, in units of `1 / UNIT` moves.
    fn estimate(&self, board: &B) -> u32;

    /// Estimate for `child`, which is the parent (estimate `h`) after `tile`
    /// slid from cell `from` to cell `to`. Defaults to a fresh estimate.
    #[inline]
    fn update(&self, child: &B, h: u32, tile: u8, from: usize, to: usize) -> u32 {
        let _ = (h, tile, from, to);
        self.estimate(child)
    }

    /// What a depth-first search keeps per node besides `h` so that the
    /// next update is cheaper: the pattern databases keep each pattern's
    /// share, so a move looks up only the pattern that moved.
    type Memo: Copy + Default + Send + Sync + 'static;

    /// [`Heuristic::estimate`] that also fills the memo.
    #[inline]
    fn estimate_memo(&self, board: &B) -> (u32, Self::Memo) {
        (self.estimate(board), Self::Memo::default())
    }

    /// [`Heuristic::update`] from the parent's estimate and memo.
    #[inline]
    fn update_memo(
        &self,
        child: &B,
        h: u32,
        memo: &Self::Memo,
        tile: u8,
        from: usize,
        to: usize,
    ) -> (u32, Self::Memo) {
        let _ = memo;
        (self.update(child, h, tile, from, to), Self::Memo::default())
    }

    /// [`Heuristic::update_memo`] for every child of one node (estimate `h`,
    /// blank on `to`) at once, child `i` into `estimates[i]` and
    /// `memos[i]`. A heuristic that reads memory can overlap the children's
    /// reads.
    #[inline]
    fn update_memos(
        &self,
        h: u32,
        memo: &Self::Memo,
        to: usize,
        slides: &[Slide<B>],
        estimates: &mut [u32],
        memos: &mut [Self::Memo],
    ) {
        for ((slide, estimate), child_memo) in slides.iter().zip(estimates).zip(memos) {
            (*estimate, *child_memo) = self.update_memo(&slide.board, h, memo, slide.tile, slide.from, to);
        }
    }

    /// Whether a board's estimate is cheap only from its parent's memo
    /// ([`Heuristic::update_memo`]): the pattern databases in bits, which
    /// otherwise walk down to their goal. Best-first searches then keep
    /// each open board's memo beside it.
    fn estimates_from_parent(&self) -> bool {
        false
    }

    /// Whether [`Heuristic::begin_children`] asks for memory that
    /// [`Heuristic::end_children`] then reads: a search may then start the
    /// children of several nodes before it finishes any, so that the waits
    /// on memory of all of them overlap.
    const OVERLAPS: bool = false;

    /// The reads [`Heuristic::begin_children`] leaves under way for
    /// [`Heuristic::end_children`].
    type Pending: Copy + Default + Send;

    /// The first half of [`Heuristic::update_memos`]: whatever needs no
    /// memory read, and the requests for the reads. `memos` and `pending`
    /// then hold what [`Heuristic::end_children`] completes; nothing is
    /// known of the estimates yet.
    ///
    /// `cut` is the largest estimate with which a child is still searched.
    /// A child estimated above it is pruned whatever its value, so the
    /// heuristic may settle for any admissible estimate above `cut` and
    /// leave that child's memo unfinished: no search starts from it.
    #[inline]
    #[expect(clippy::too_many_arguments, reason = "update_memos' arguments and the cut")]
    fn begin_children(
        &self,
        h: u32,
        memo: &Self::Memo,
        to: usize,
        slides: &[Slide<B>],
        memos: &mut [Self::Memo],
        pending: &mut Self::Pending,
        cut: u32,
    ) {
        let _ = (h, memo, to, slides, memos, pending, cut);
    }

    /// The second half of [`Heuristic::update_memos`], given the same
    /// node and children and what [`Heuristic::begin_children`] left:
    /// the same estimates and memos as `update_memos`, except that a child
    /// estimated above the cut may have a smaller estimate (still above
    /// it) and an unfinished memo. False when it asked for more reads
    /// instead: it is to be called again with the same arguments once they
    /// have had time to arrive.
    #[inline]
    #[expect(clippy::too_many_arguments, reason = "update_memos' arguments and what was begun")]
    fn end_children(
        &self,
        h: u32,
        memo: &Self::Memo,
        to: usize,
        slides: &[Slide<B>],
        pending: &mut Self::Pending,
        estimates: &mut [u32],
        memos: &mut [Self::Memo],
    ) -> bool {
        let _ = pending;
        self.update_memos(h, memo, to, slides, estimates, memos);
        true
    }
}

/// The heuristics the command line offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeuristicKind {
    /// Always 0: A* becomes uniform-cost search.
    Zero,
    /// Tiles (not the blank) out of place.
    Hamming,
    /// Sum of the tiles' row and column distances to their goal cells.
    Manhattan,
    /// Sum of the tiles' straight-line distances to their goal cells.
    Euclidean,
    /// Manhattan plus two moves per tile that must leave its row or column.
    LinearConflict,
    /// Additive pattern databases (a partition per board size); the tables are loaded or built
    /// ahead of the search and passed in as [`pdb::Tables`].
    Pdb,
}

impl HeuristicKind {
    /// Every kind that needs no prepared tables, in the order comparisons
    /// list them.
    pub const ALL: [HeuristicKind; 5] = [
        HeuristicKind::Zero,
        HeuristicKind::Hamming,
        HeuristicKind::Manhattan,
        HeuristicKind::Euclidean,
        HeuristicKind::LinearConflict,
    ];

    /// The name used on the command line and in reports.
    pub const fn name(self) -> &'static str {
        match self {
            HeuristicKind::Zero => "zero",
            HeuristicKind::Hamming => "hamming",
            HeuristicKind::Manhattan => "manhattan",
            HeuristicKind::Euclidean => "euclidean",
            HeuristicKind::LinearConflict => "linear-conflict",
            HeuristicKind::Pdb => "pdb",
        }
    }

    /// Its value for `start` in moves (fractional for euclidean), for a
    /// board of any size: the value a search would start from; 0 for the
    /// pattern databases, which need tables (see [`Pdb::value`]).
    pub fn value(self, goal: &Goal, start: &[u16]) -> f64 {
        let moves = match self {
            HeuristicKind::Zero | HeuristicKind::Pdb => 0,
            HeuristicKind::Hamming => tile_sum(goal, start, misplaced),
            HeuristicKind::Manhattan => tile_sum(goal, start, taxicab),
            HeuristicKind::LinearConflict => {
                tile_sum(goal, start, taxicab) + 2 * u64::from(linear_conflict::conflicts(goal, start))
            }
            HeuristicKind::Euclidean => {
                return tile_sum(goal, start, straight_line) as f64 / f64::from(EUCLIDEAN_UNIT);
            }
        };
        moves as f64
    }
}

impl fmt::Display for HeuristicKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Always zero.
#[derive(Clone, Copy, Debug, Default)]
pub struct Zero;

impl<B: Board> Heuristic<B> for Zero {
    type Memo = ();
    type Pending = ();

    #[inline]
    fn estimate(&self, _: &B) -> u32 {
        0
    }

    #[inline]
    fn update(&self, _: &B, _: u32, _: u8, _: usize, _: usize) -> u32 {
        0
    }
}

/// The Manhattan distance of `cells` (row-major, 0 the blank) from `goal`:
/// a lower bound at every size, in time linear in the board, for boards no
/// table is built for (past the searches' reach, or a block of a staged
/// search).
pub(crate) fn manhattan_distance(cells: &[u16], goal: &Goal) -> u32 {
    let shape = goal.shape();
    let sum: usize = cells
        .iter()
        .enumerate()
        .filter(|&(_, &tile)| tile != 0)
        .map(|(cell, &tile)| shape.distance(cell, goal.cell_of(tile)))
        .sum();
    u32::try_from(sum).unwrap_or(u32::MAX)
}

/// Values a byte can take: a lookup's tile is any byte.
const BYTES: usize = 1 << u8::BITS;

/// Per-tile cost table: `cost[(tile << shift) + cell]`, zero for the blank.
///
/// Rows are a power of two wide, the smallest that holds every cell, so a
/// lookup is a shift and an add and a small board's table is a few cache
/// lines. The table has a row for every byte value and a row's worth of
/// [`MAX_SEARCH_CELLS`] entries more, so every index a lookup can form,
/// whatever board it is handed, is inside it: the searches' innermost loop
/// carries no bounds check (measured: a tenth of IDA*'s instructions per
/// node). Tables are for the boards the searches take, at most
/// [`MAX_SEARCH_CELLS`] cells.
#[derive(Clone, Debug)]
struct TileTable {
    cells: usize,
    shift: u32,
    cost: Box<[u32]>,
}

impl TileTable {
    fn new(goal: &Goal, cost: fn(usize, usize) -> u32) -> TileTable {
        let (shape, cells) = (goal.shape(), goal.cells().min(MAX_SEARCH_CELLS));
        let shift = cells.next_power_of_two().trailing_zeros();
        let mut table = vec![0; (BYTES << shift) + MAX_SEARCH_CELLS].into_boxed_slice();
        for tile in 1..cells {
            let target = goal.cell_of(tile as u16);
            for cell in 0..cells {
                let (dr, dc) = shape.offsets(cell, target);
                table[(tile << shift) + cell] = cost(dr, dc);
            }
        }
        TileTable { cells, shift, cost: table }
    }

    #[inline]
    fn get(&self, tile: u8, cell: usize) -> u32 {
        let at = (usize::from(tile) << self.shift) + (cell & (MAX_SEARCH_CELLS - 1));
        debug_assert!(at < self.cost.len());
        // SAFETY: `tile` ≤ 255 and the masked cell ≤ 255, so `at` ≤
        // (255 << shift) + 255, below the table's length (see `new`).
        unsafe { *self.cost.get_unchecked(at) }
    }

    #[inline]
    fn sum<B: Board>(&self, board: &B) -> u32 {
        (0..self.cells).map(|cell| self.get(board.tile(cell), cell)).sum()
    }

    #[inline]
    fn update(&self, h: u32, tile: u8, from: usize, to: usize) -> u32 {
        h - self.get(tile, from) + self.get(tile, to)
    }
}

/// The sum of `cost` over the tiles of `start`, each at its rows and
/// columns from its goal cell: what a [`TileTable`] adds up, for boards of
/// any size (a table of a 256×256 board would not fit in memory).
fn tile_sum(goal: &Goal, start: &[u16], cost: fn(usize, usize) -> u32) -> u64 {
    let shape = goal.shape();
    start
        .iter()
        .enumerate()
        .filter(|&(_, &tile)| tile != 0)
        .map(|(cell, &tile)| {
            let (dr, dc) = shape.offsets(cell, goal.cell_of(tile));
            u64::from(cost(dr, dc))
        })
        .sum()
}

/// Fixed-point scale of [`Euclidean`]: 2¹⁶ units per move.
pub const EUCLIDEAN_UNIT: u32 = 1 << 16;

/// Hamming: whether a tile is away from its goal cell.
fn misplaced(dr: usize, dc: usize) -> u32 {
    u32::from(dr + dc > 0)
}

/// Manhattan: rows plus columns from the goal cell.
fn taxicab(dr: usize, dc: usize) -> u32 {
    (dr + dc) as u32
}

/// Euclidean: the straight line to the goal cell, rounded down to
/// [`EUCLIDEAN_UNIT`]ths of a move, which keeps it admissible.
fn straight_line(dr: usize, dc: usize) -> u32 {
    (((dr * dr + dc * dc) as f64).sqrt() * f64::from(EUCLIDEAN_UNIT)).floor() as u32
}

macro_rules! tile_sum_heuristic {
    ($(#[$doc:meta])* $name:ident, $unit:expr, $cost:expr) => {
        $(#[$doc])*
        #[derive(Clone, Debug)]
        pub struct $name(TileTable);

        impl $name {
            /// Tables for `goal`.
            pub fn new(goal: &Goal) -> $name {
                $name(TileTable::new(goal, $cost))
            }
        }

        impl<B: Board> Heuristic<B> for $name {
            const UNIT: u32 = $unit;
            type Memo = ();
            type Pending = ();

            #[inline]
            fn estimate(&self, board: &B) -> u32 {
                self.0.sum(board)
            }

            #[inline]
            fn update(&self, _: &B, h: u32, tile: u8, from: usize, to: usize) -> u32 {
                self.0.update(h, tile, from, to)
            }
        }
    };
}

tile_sum_heuristic!(
    /// Tiles out of place.
    Hamming, 1, misplaced
);
tile_sum_heuristic!(
    /// Sum of row plus column distances.
    Manhattan, 1, taxicab
);
tile_sum_heuristic!(
    /// Sum of straight-line distances, each rounded down to 1/65536 of a
    /// move. Rounding down keeps it admissible; integer units keep A*'s
    /// ordering exact and the incremental value equal to a fresh one.
    Euclidean, EUCLIDEAN_UNIT, straight_line
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{GoalSpec, Packed, Shape};

    #[test]
    fn per_tile_heuristics_match_hand_counts() {
        let goal = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
        let b = Packed::from_tiles(&[1, 2, 5, 3, 4, 0, 6, 7, 8]);
        assert_eq!(Manhattan::new(&goal).estimate(&b), 3);
        assert_eq!(Hamming::new(&goal).estimate(&b), 3);
        // Tiles 1, 2 and 3 are one cell away; 5 is one cell away too.
        assert_eq!(Heuristic::<Packed>::estimate(&Euclidean::new(&goal), &b), 3 * EUCLIDEAN_UNIT);
        let far = Packed::from_tiles(&[8, 1, 2, 3, 4, 5, 6, 7, 0]);
        let e = Heuristic::<Packed>::estimate(&Euclidean::new(&goal), &far);
        let exact = 8f64.sqrt(); // only tile 8 is out of place, two rows and two columns away
        assert!((f64::from(e) / f64::from(EUCLIDEAN_UNIT) - exact).abs() < 1e-3);
        assert!(f64::from(e) / f64::from(EUCLIDEAN_UNIT) <= exact);
    }

    #[test]
    fn incremental_updates_equal_fresh_estimates() {
        fn walk<B: Board>(goal: &Goal, steps: usize) {
            let (m, e, lc) = (Manhattan::new(goal), Euclidean::new(goal), LinearConflict::new(goal));
            let mut b = B::from_tiles(goal.tiles().cells());
            let (mut hm, mut he, mut hl) = (m.estimate(&b), e.estimate(&b), lc.estimate(&b));
            let geometry = crate::board::Geometry::new(goal.shape());
            for step in 0..steps {
                let blank = b.blank();
                let moves: Vec<_> = geometry.moves(blank).collect();
                let (_, from) = moves[step * 7 % moves.len()];
                let tile = b.tile(from);
                b = b.slide(blank, from);
                hm = m.update(&b, hm, tile, from, blank);
                he = e.update(&b, he, tile, from, blank);
                hl = lc.update(&b, hl, tile, from, blank);
                assert_eq!(hm, m.estimate(&b));
                assert_eq!(he, e.estimate(&b));
                assert_eq!(hl, lc.estimate(&b), "linear conflict after {step} moves");
            }
        }
        walk::<Packed>(&Goal::new(&GoalSpec::Snail, 4).unwrap(), 300);
        walk::<crate::board::Wide>(&Goal::new(&GoalSpec::BlankLast, 5).unwrap(), 300);
        walk::<crate::board::Packed128>(&Goal::new(&GoalSpec::Snail, 5).unwrap(), 300);
        walk::<crate::board::Packed128>(&Goal::new(&GoalSpec::BlankFirst, Shape::new(6, 4)).unwrap(), 300);
        walk::<crate::board::Packed128>(&Goal::new(&GoalSpec::BlankLast, Shape::new(3, 6)).unwrap(), 300);
        walk::<crate::board::Wide>(&Goal::new(&GoalSpec::Snail, 6).unwrap(), 300);
        for (w, h) in [(3, 2), (2, 5), (5, 3), (4, 7)] {
            let shape = Shape::new(w, h);
            walk::<crate::board::Wide>(&Goal::new(&GoalSpec::Snail, shape).unwrap(), 300);
            walk::<crate::board::Wide>(&Goal::new(&GoalSpec::BlankFirst, shape).unwrap(), 300);
        }
        walk::<crate::board::Wide<256>>(&Goal::new(&GoalSpec::Snail, 16).unwrap(), 2000);
    }

    /// `check` shows [`HeuristicKind::value`], computed without tables for
    /// boards of any size: on the boards searches take it must be exactly
    /// the estimate they start from.
    #[test]
    #[expect(clippy::float_cmp, reason = "whole moves, and the same division, compare exactly")]
    fn values_for_any_size_equal_the_search_estimates() {
        use crate::board::{Scramble, SplitMix64, Wide, generate};
        let mut rng = SplitMix64::new(11);
        for (w, h) in [(3, 3), (4, 4), (2, 3), (5, 2), (4, 6), (7, 7), (16, 16), (3, 16)] {
            for spec in [GoalSpec::BlankFirst, GoalSpec::BlankLast, GoalSpec::Snail] {
                let goal = Goal::new(&spec, Shape::new(w, h)).unwrap();
                for _ in 0..5 {
                    let start = generate(&goal, Scramble::Uniform, true, &mut rng);
                    let board = Wide::<256>::from_tiles(start.cells());
                    let value = |kind: HeuristicKind| kind.value(&goal, start.cells());
                    let m = Manhattan::new(&goal).estimate(&board);
                    assert_eq!(value(HeuristicKind::Manhattan), f64::from(m));
                    assert_eq!(
                        value(HeuristicKind::Hamming),
                        f64::from(Hamming::new(&goal).estimate(&board))
                    );
                    let lc = LinearConflict::new(&goal).estimate(&board);
                    assert_eq!(value(HeuristicKind::LinearConflict), f64::from(lc), "{w}x{h} {spec:?}");
                    assert!(lc >= m);
                    let e = Heuristic::<Wide<256>>::estimate(&Euclidean::new(&goal), &board);
                    assert_eq!(value(HeuristicKind::Euclidean), f64::from(e) / f64::from(EUCLIDEAN_UNIT));
                }
            }
        }
        // Beyond the searches' sizes, values are still computed: a 100x100
        // goal is 0 from itself, and one swap of two neighbours is 2 moves
        // of Manhattan distance plus one linear conflict.
        let goal = Goal::new(&GoalSpec::BlankFirst, 100).unwrap();
        let mut swapped = goal.tiles().cells().to_vec();
        assert_eq!(HeuristicKind::LinearConflict.value(&goal, &swapped), 0.0);
        swapped.swap(5000, 5001);
        assert_eq!(HeuristicKind::Manhattan.value(&goal, &swapped), 2.0);
        assert_eq!(HeuristicKind::LinearConflict.value(&goal, &swapped), 4.0);
    }
}
