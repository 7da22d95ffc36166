/*!
Boards by their exact distance from a goal, for spaces small enough to
enumerate: a breadth-first search from the goal, kept layer by layer, so
that layer d is every board whose shortest solution is exactly d moves.

Each move takes the blank to a cell of the other colour of a checkerboard,
so every edge joins consecutive layers and none joins a layer to itself: the
next layer is the neighbours of this one less the previous one, and no other
layer is ever looked up. Boards are [`Packed`] (one `u64` each), each layer
a sorted vector, which keeps the whole 2×5 space (1,814,400 boards) in
15 MB.
*/

use super::{Board, Geometry, Goal, Packed, Shape, Tiles};

/// The most cells a space may have to be enumerated: 10 (every 3×3, 2×4 and
/// 2×5 board: at most 1,814,400 reachable, a fraction of a second). The
/// next shapes, 3×4 and 2×6, have 239,500,800 each, beyond a quick run.
pub const MAX_ENUMERATED_CELLS: usize = 10;

/// The radius of every shape of up to 16 cells (both orientations): the
/// most moves any board needs to reach the goal whose blank is in the
/// top-left corner, from exhaustive breadth-first searches (OEIS A151944;
/// Korf, "Linear-time disk-based implicit graph search", 2008, for 4×4).
const RADII: [((usize, usize), usize); 11] = [
    ((2, 2), 6),
    ((3, 2), 21),
    ((4, 2), 36),
    ((3, 3), 31),
    ((5, 2), 55),
    ((4, 3), 53),
    ((6, 2), 80),
    ((7, 2), 108),
    ((5, 3), 84),
    ((4, 4), 80),
    ((8, 2), 140),
];

/// A proven upper bound on the moves any board of `goal`'s shape needs to
/// reach `goal`, where one is known: boards of up to 16 cells. A goal with
/// its blank in a corner is the top-left one relabelled and reflected, so
/// the table's radius holds for it; a goal with its blank `k` moves from
/// the nearest corner is `k` moves from such a goal, so no board is more
/// than the radius plus `k` from it.
pub fn distance_bound(goal: &Goal) -> Option<usize> {
    let shape = goal.shape();
    let (w, h) = (shape.width(), shape.height());
    let radius = RADII.iter().find(|((a, b), _)| (*a, *b) == (w, h) || (*a, *b) == (h, w))?.1;
    let blank = goal.cell_of(0);
    let (row, col) = (shape.row(blank), shape.col(blank));
    Some(radius + row.min(h - 1 - row) + col.min(w - 1 - col))
}

/// The boards of a small space by distance from the goal, up to some
/// distance (or all of them).
#[derive(Clone, Debug)]
pub struct Layers {
    shape: Shape,
    /// `by_distance[d]`: the boards exactly d moves from the goal, sorted.
    by_distance: Vec<Vec<Packed>>,
    /// Whether the search ran out of boards (so no board is farther than
    /// the last layer).
    complete: bool,
}

impl Layers {
    /// Every board within `up_to` moves of `goal`, by distance; `None` when
    /// the board has more than [`MAX_ENUMERATED_CELLS`] cells.
    pub fn up_to(goal: &Goal, up_to: usize) -> Option<Layers> {
        let shape = goal.shape();
        if shape.cells() > MAX_ENUMERATED_CELLS {
            return None;
        }
        let geometry = Geometry::plain(shape);
        let mut layers = vec![vec![Packed::from_tiles(goal.tiles().cells())]];
        let mut complete = false;
        while layers.len() <= up_to {
            let last = &layers[layers.len() - 1];
            let previous = layers.len().checked_sub(2).map_or(&[][..], |d| &layers[d][..]);
            let mut next = Vec::with_capacity(last.len() * 2);
            for board in last {
                let blank = board.blank();
                next.extend(geometry.moves(blank).map(|(_, from)| board.slide(blank, from)));
            }
            next.sort_unstable();
            next.dedup();
            next.retain(|board| previous.binary_search(board).is_err());
            if next.is_empty() {
                complete = true;
                break;
            }
            layers.push(next);
        }
        Some(Layers { shape, by_distance: layers, complete })
    }

    /// How many boards are exactly `distance` moves from the goal (0 beyond
    /// what was enumerated).
    pub fn count(&self, distance: usize) -> usize {
        self.by_distance.get(distance).map_or(0, Vec::len)
    }

    /// The `index`th board (in a fixed order) exactly `distance` moves from
    /// the goal; `index` must be below [`Layers::count`].
    pub fn board(&self, distance: usize, index: usize) -> Tiles {
        let board = self.by_distance[distance][index];
        let cells: Vec<u16> = (0..self.shape.cells()).map(|c| u16::from(board.tile(c))).collect();
        Tiles::with_shape(self.shape, &cells).expect("a layer holds permutations")
    }

    /// The greatest distance of any board, once the whole space is
    /// enumerated.
    pub fn diameter(&self) -> Option<usize> {
        self.complete.then(|| self.by_distance.len() - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::GoalSpec;

    #[test]
    fn the_eight_puzzle_space_has_the_published_layer_sizes() {
        // Reinefeld (1993): boards at each distance from a goal with the
        // blank in a corner, 181,440 in all, the farthest 31 moves away.
        let goal = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
        let layers = Layers::up_to(&goal, usize::MAX).unwrap();
        let sizes: Vec<usize> = (0..=31).map(|d| layers.count(d)).collect();
        assert_eq!(
            sizes,
            [
                1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485, 5638, 9529,
                10878, 16993, 17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910, 760, 221, 2
            ]
        );
        assert_eq!((layers.diameter(), layers.count(32)), (Some(31), 0));
        assert_eq!(layers.board(31, 0).cells(), [8, 0, 6, 5, 4, 7, 2, 3, 1], "puzzles/3x3/hardest-31a.txt");
    }

    #[test]
    fn rectangles_are_enumerated_and_larger_spaces_are_not() {
        let goal = Goal::new(&GoalSpec::BlankLast, Shape::new(4, 2)).unwrap();
        let layers = Layers::up_to(&goal, usize::MAX).unwrap();
        let total: usize = (0..=layers.diameter().unwrap()).map(|d| layers.count(d)).sum();
        assert_eq!(total, 20_160, "8! / 2 boards");
        let partial = Layers::up_to(&goal, 5).unwrap();
        assert_eq!((partial.diameter(), partial.count(5), partial.count(6)), (None, layers.count(5), 0));
        assert!(Layers::up_to(&Goal::new(&GoalSpec::BlankFirst, Shape::new(4, 3)).unwrap(), 3).is_none());
    }

    /// The bound holds for a goal with its blank on any cell, and is exact
    /// for a corner, on every shape small enough to enumerate.
    #[test]
    fn no_board_is_farther_from_any_goal_than_its_distance_bound() {
        for (w, h) in [(2, 2), (3, 2), (2, 3), (4, 2), (2, 4), (3, 3), (5, 2), (2, 5)] {
            let shape = Shape::new(w, h);
            for blank in 0..shape.cells() {
                // Tiles 1, 2, … row-major around the blank.
                let layout: Vec<u16> = (0..shape.cells())
                    .map(|cell| match cell.cmp(&blank) {
                        std::cmp::Ordering::Less => cell as u16 + 1,
                        std::cmp::Ordering::Equal => 0,
                        std::cmp::Ordering::Greater => cell as u16,
                    })
                    .collect();
                let goal =
                    Goal::new(&GoalSpec::Board(Tiles::with_shape(shape, &layout).unwrap()), shape).unwrap();
                let farthest = Layers::up_to(&goal, usize::MAX).unwrap().diameter().unwrap();
                let bound = distance_bound(&goal).unwrap();
                assert!(farthest <= bound, "{shape}, blank on {blank}: {farthest} > {bound}");
                let corner = [0, w - 1, shape.cells() - w, shape.cells() - 1].contains(&blank);
                assert!(
                    !corner || farthest == bound,
                    "{shape}, blank in corner {blank}: {farthest} != {bound}"
                );
            }
        }
        assert_eq!(distance_bound(&Goal::new(&GoalSpec::BlankFirst, 4).unwrap()), Some(80));
        assert_eq!(distance_bound(&Goal::new(&GoalSpec::Snail, 4).unwrap()), Some(82));
        assert_eq!(distance_bound(&Goal::new(&GoalSpec::BlankFirst, 5).unwrap()), None);
    }
}
