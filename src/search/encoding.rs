/*!
The board encodings searches are compiled for, and which one a board of a
given shape is searched in: the smallest that holds it.
*/

use crate::board::{Board, Packed, Packed128, PackedWords, Shape, Wide};

/// The board encodings searches are compiled for, smallest first: a board
/// uses the smallest that holds it, so it hashes, compares and stores no
/// more bytes than it must.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Encoding {
    /// [`Packed`], up to 16 cells.
    Packed,
    /// [`Packed128`], up to 25 cells: 5×5, 4×6, 3×8.
    Packed128,
    /// [`PackedWords<4>`](PackedWords), up to 40 cells: 6×6, 4×8, 5×8.
    Words4,
    /// [`PackedWords<5>`](PackedWords), up to 50 cells: 7×7, 6×8.
    Words5,
    /// [`Wide<64>`](Wide), up to 64 cells: 8×8. Packed in seven words, an
    /// 8×8 board searched no faster (its closed set misses the caches
    /// either way, and finding the blank takes more work).
    Wide64,
    /// [`Wide<MAX_SEARCH_CELLS>`](Wide), up to 16×16.
    Wide256,
}

impl Encoding {
    /// The encoding a board of `shape` is searched in.
    pub(crate) fn of(shape: Shape) -> Encoding {
        match shape.cells() {
            cells if cells <= Packed::CAPACITY => Encoding::Packed,
            cells if cells <= Packed128::CAPACITY => Encoding::Packed128,
            cells if cells <= PackedWords::<4>::CAPACITY => Encoding::Words4,
            cells if cells <= PackedWords::<5>::CAPACITY => Encoding::Words5,
            cells if cells <= Wide::<64>::CAPACITY => Encoding::Wide64,
            _ => Encoding::Wide256,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Goal;
    use crate::heuristic::LinearConflict;
    use crate::search::dispatch::run;
    use crate::search::{Algorithm, Limits, Status, Weight};

    /// Searches `shape` boards as `B` and as the one-byte-a-cell `W`, which
    /// must give every figure alike.
    fn searches_alike<B: Board, W: Board>(shape: Shape, seed: u64) {
        use crate::board::{GoalSpec, Scramble, SplitMix64, generate};
        let goal = Goal::new(&GoalSpec::Snail, shape).unwrap();
        let start = generate(&goal, Scramble::Walk(40), true, &mut SplitMix64::new(seed));
        let lc = LinearConflict::new(&goal);
        let limits = Limits { max_nodes: Some(200_000), ..Limits::default() };
        for algorithm in [
            Algorithm::AStar,
            Algorithm::IdaStar,
            Algorithm::Fringe,
            Algorithm::Greedy,
            Algorithm::WeightedAStar(Weight::ratio(2, 1)),
        ] {
            let packed = run(algorithm, &B::from_tiles(start.cells()), &goal, &lc, &limits);
            let wide = run(algorithm, &W::from_tiles(start.cells()), &goal, &lc, &limits);
            assert_eq!(packed.status, Status::Solved, "{shape} {algorithm:?}");
            assert_eq!(packed.path, wide.path, "{shape} {algorithm:?}");
            assert_eq!(packed.stats.nodes_expanded, wide.stats.nodes_expanded, "{shape} {algorithm:?}");
            assert_eq!(packed.stats.stored, wide.stats.stored, "{shape} {algorithm:?}");
        }
    }

    /// The encoding is an implementation detail: a board of 17 to 25 cells
    /// is searched as [`Packed128`], one of 26 to 50 as [`PackedWords`].
    #[test]
    fn packed_and_wide_boards_search_alike() {
        for (shape, seed) in [(Shape::new(5, 5), 1), (Shape::new(4, 5), 2), (Shape::new(6, 3), 3)] {
            searches_alike::<Packed128, Wide<32>>(shape, seed);
        }
        assert_eq!(Encoding::of(Shape::new(6, 6)), Encoding::Words4);
        searches_alike::<PackedWords<4>, Wide<64>>(Shape::new(6, 6), 4);
        searches_alike::<PackedWords<4>, Wide<64>>(Shape::new(4, 7), 5);
        assert_eq!(Encoding::of(Shape::new(7, 7)), Encoding::Words5);
        searches_alike::<PackedWords<5>, Wide<64>>(Shape::new(7, 7), 6);
        searches_alike::<PackedWords<5>, Wide<64>>(Shape::new(8, 6), 7);
    }
}
