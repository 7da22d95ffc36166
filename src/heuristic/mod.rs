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
pub use pdb::{Partition, Pdb};

use crate::board::{Board, Goal};
use std::fmt;

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
    /// Additive pattern databases (4×4 only); the tables are loaded or built
    /// ahead of the search and passed in as [`crate::search::Tables`].
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

    /// Its value for `start` in moves (fractional for euclidean); 0 for the
    /// pattern databases, which need tables (see [`Pdb::value`]).
    pub fn value(self, goal: &Goal, start: &[u8]) -> f64 {
        let board = crate::board::Wide::from_tiles(start);
        match self {
            HeuristicKind::Zero | HeuristicKind::Pdb => 0.0,
            HeuristicKind::Hamming => f64::from(Hamming::new(goal).estimate(&board)),
            HeuristicKind::Manhattan => f64::from(Manhattan::new(goal).estimate(&board)),
            HeuristicKind::LinearConflict => f64::from(LinearConflict::new(goal).estimate(&board)),
            HeuristicKind::Euclidean => {
                let h = Euclidean::new(goal);
                f64::from(Heuristic::<crate::board::Wide>::estimate(&h, &board)) / f64::from(EUCLIDEAN_UNIT)
            }
        }
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
    #[inline]
    fn estimate(&self, _: &B) -> u32 {
        0
    }

    #[inline]
    fn update(&self, _: &B, _: u32, _: u8, _: usize, _: usize) -> u32 {
        0
    }
}

/// Per-tile cost table: `cost[tile * 64 + cell]`, zero for the blank.
///
/// A fixed 64×64 layout (the largest board) lets the index be masked into
/// range, so lookups in the search loops carry no bounds checks.
#[derive(Clone, Debug)]
struct TileTable {
    cells: usize,
    cost: Box<[u32; 64 * 64]>,
}

impl TileTable {
    fn new(goal: &Goal, cost: impl Fn(usize, usize) -> u32) -> TileTable {
        let (shape, cells) = (goal.shape(), goal.cells());
        let mut table = Box::new([0; 64 * 64]);
        for tile in 1..cells {
            let target = goal.cell_of(tile as u8);
            for cell in 0..cells {
                let (dr, dc) = shape.offsets(cell, target);
                table[tile * 64 + cell] = cost(dr, dc);
            }
        }
        TileTable { cells, cost: table }
    }

    #[inline]
    fn get(&self, tile: u8, cell: usize) -> u32 {
        self.cost[(tile as usize * 64 + cell) & (64 * 64 - 1)]
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

/// Fixed-point scale of [`Euclidean`]: 2¹⁶ units per move.
pub const EUCLIDEAN_UNIT: u32 = 1 << 16;

macro_rules! tile_sum_heuristic {
    ($(#[$doc:meta])* $name:ident, $unit:expr, |$dr:ident, $dc:ident| $cost:expr) => {
        $(#[$doc])*
        #[derive(Clone, Debug)]
        pub struct $name(TileTable);

        impl $name {
            /// Tables for `goal`.
            pub fn new(goal: &Goal) -> $name {
                $name(TileTable::new(goal, |$dr, $dc| $cost))
            }
        }

        impl<B: Board> Heuristic<B> for $name {
            const UNIT: u32 = $unit;

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
    Hamming, 1, |dr, dc| u32::from(dr + dc > 0)
);
tile_sum_heuristic!(
    /// Sum of row plus column distances.
    Manhattan, 1, |dr, dc| (dr + dc) as u32
);
tile_sum_heuristic!(
    /// Sum of straight-line distances, each rounded down to 1/65536 of a
    /// move. Rounding down keeps it admissible; integer units keep A*'s
    /// ordering exact and the incremental value equal to a fresh one.
    Euclidean, EUCLIDEAN_UNIT, |dr, dc| {
        (((dr * dr + dc * dc) as f64).sqrt() * f64::from(EUCLIDEAN_UNIT)).floor() as u32
    }
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{GoalSpec, Packed};

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
            let geometry = crate::board::Geometry::new(goal.width());
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
    }
}
