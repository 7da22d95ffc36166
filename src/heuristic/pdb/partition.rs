/*!
Partitions: how the tiles are split into patterns whose values add up, as
data. A partition is a board shape and groups of goal cells, written for a
goal whose blank is
in the top-left corner: together they hold every other cell once. For any
other goal the board is reflected so that the blank's goal cell falls on
the same side (left-right when it is in the right half, top-bottom when in
the bottom half); if it is still not the corner, the group holding its cell
takes the corner instead. The same shapes then serve every goal, with the
same pattern sizes, and the tiles of each pattern are whatever the goal
puts in its cells.
*/

use super::PdbError;
use super::error::by_shape;
use crate::board::{Goal, Shape};
use std::fmt;
use std::str::FromStr;

/// A split of a board's tiles into disjoint patterns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Partition {
    name: &'static str,
    width: usize,
    height: usize,
    /// Goal cells of each pattern, for a blank in the top-left corner
    /// (every cell but that corner, once).
    groups: &'static [&'static [u8]],
}

impl Partition {
    /// The goal's top two rows and bottom two rows (tiles 1–7 and 8–15 for
    /// the blank-first goal): the strong 15-puzzle default, 0.6 GB.
    pub const SEVEN_EIGHT: Partition = Partition {
        name: "7-8",
        width: 4,
        height: 4,
        groups: &[&[1, 2, 3, 4, 5, 6, 7], &[8, 9, 10, 11, 12, 13, 14, 15]],
    };

    /// The row farthest from the blank, less its corner on the blank's side
    /// (3 tiles), and the other rows' halves, the blank's half taking that
    /// corner: {1,4,5,8,9,12}, {2,3,6,7,10,11}, {13,14,15} for the
    /// blank-first goal. Of the 6-6-3 shapes tried it has the highest mean value (43.1
    /// with the mirror on random boards, against 42.1 for the blank's row as
    /// the 3-tile group). 11 MB.
    pub const SIX_SIX_THREE: Partition = Partition {
        name: "6-6-3",
        width: 4,
        height: 4,
        groups: &[&[1, 4, 5, 8, 9, 12], &[2, 3, 6, 7, 10, 11], &[13, 14, 15]],
    };

    /// Six tiles each, Korf and Felner's 24-puzzle shape up to the diagonal
    /// mirror (which the mirrored lookup makes no different):
    /// {1,5,6,10,11,12}, {2,3,4,7,8,9}, {13,14,18,19,23,24},
    /// {15,16,17,20,21,22} for the blank-first goal. Compact 2×3 blocks have
    /// a higher mean value yet expand twice the nodes; see the README.
    pub const SIX_SIX_SIX_SIX: Partition = Partition {
        name: "6-6-6-6",
        width: 5,
        height: 5,
        groups: &[
            &[1, 5, 6, 10, 11, 12],
            &[2, 3, 4, 7, 8, 9],
            &[13, 14, 18, 19, 23, 24],
            &[15, 16, 17, 20, 21, 22],
        ],
    };

    /// {1,2,5,6,10,11}, {3,4,7,8,9,12} and [`Partition::SIX_SIX_SIX_SIX`]'s
    /// two far blocks: the blank's corner as a 2×3 block.
    pub const CORNER_BLOCKS: Partition = Partition {
        name: "corner-blocks",
        width: 5,
        height: 5,
        groups: &[
            &[1, 2, 5, 6, 10, 11],
            &[3, 4, 7, 8, 9, 12],
            &[13, 14, 18, 19, 23, 24],
            &[15, 16, 17, 20, 21, 22],
        ],
    };

    /// [`Partition::SIX_SIX_SIX_SIX`]'s two blocks by the blank, and the
    /// bottom two rows and a half in reading order: {13–18}, {19–24}.
    pub const FAR_ROWS: Partition = Partition {
        name: "far-rows",
        width: 5,
        height: 5,
        groups: &[
            &[1, 5, 6, 10, 11, 12],
            &[2, 3, 4, 7, 8, 9],
            &[13, 14, 15, 16, 17, 18],
            &[19, 20, 21, 22, 23, 24],
        ],
    };

    /// The corner blocks of [`Partition::CORNER_BLOCKS`] and the far rows of
    /// [`Partition::FAR_ROWS`].
    pub const CORNER_BLOCKS_FAR_ROWS: Partition = Partition {
        name: "corner-blocks-far-rows",
        width: 5,
        height: 5,
        groups: &[
            &[1, 2, 5, 6, 10, 11],
            &[3, 4, 7, 8, 9, 12],
            &[13, 14, 15, 16, 17, 18],
            &[19, 20, 21, 22, 23, 24],
        ],
    };

    /// The left column with its neighbour {1,5,6,10,15,20}, the top row's
    /// block {2,3,4,7,8,9}, and two 2×3 blocks below: {11,12,16,17,21,22},
    /// {13,14,18,19,23,24}.
    pub const LEFT_COLUMN: Partition = Partition {
        name: "left-column",
        width: 5,
        height: 5,
        groups: &[
            &[1, 5, 6, 10, 15, 20],
            &[2, 3, 4, 7, 8, 9],
            &[11, 12, 16, 17, 21, 22],
            &[13, 14, 18, 19, 23, 24],
        ],
    };

    /// The corner block {1,2,5,6,10,11}, the right column with its
    /// neighbour {3,4,9,14,19,24}, the centre {7,8,12,13,18,23}, and the
    /// bottom left {15,16,17,20,21,22}.
    pub const RIGHT_COLUMN: Partition = Partition {
        name: "right-column",
        width: 5,
        height: 5,
        groups: &[
            &[1, 2, 5, 6, 10, 11],
            &[3, 4, 9, 14, 19, 24],
            &[7, 8, 12, 13, 18, 23],
            &[15, 16, 17, 20, 21, 22],
        ],
    };

    /// The left column {1,5,6,10,15,20}, the top block {2,3,4,7,8,9}, the
    /// middle rows' block {11,12,13,16,17,18}, and an L along the bottom and
    /// right {14,19,21,22,23,24}.
    pub const LEFT_COLUMN_BOTTOM_L: Partition = Partition {
        name: "left-column-bottom-l",
        width: 5,
        height: 5,
        groups: &[
            &[1, 5, 6, 10, 15, 20],
            &[2, 3, 4, 7, 8, 9],
            &[11, 12, 13, 16, 17, 18],
            &[14, 19, 21, 22, 23, 24],
        ],
    };

    /// Columns: the left column with its neighbour {1,5,6,10,15,20}, the
    /// middle {2,3,7,8,13,18}, the right column with its neighbour's foot
    /// {4,9,14,19,23,24}, and the lower middle block {11,12,16,17,21,22}.
    pub const COLUMNS: Partition = Partition {
        name: "columns",
        width: 5,
        height: 5,
        groups: &[
            &[1, 5, 6, 10, 15, 20],
            &[2, 3, 7, 8, 13, 18],
            &[4, 9, 14, 19, 23, 24],
            &[11, 12, 16, 17, 21, 22],
        ],
    };

    /// The blank's row and column with the tile between them
    /// {1,2,3,4,5,8,12}, and the 3×3 block across from them less its corner
    /// {6,7,9,10,11,13,14,15}: a 4×4 partition unlike [`Partition::SEVEN_EIGHT`]
    /// and its mirror, to max with it. It expands two thirds of the nodes
    /// and takes a fifth longer (see `docs/design-notes.md`).
    pub const L_CORNER: Partition = Partition {
        name: "l-corner",
        width: 4,
        height: 4,
        groups: &[&[1, 2, 3, 4, 5, 8, 12], &[6, 7, 9, 10, 11, 13, 14, 15]],
    };

    /// Seven tiles each and three: the three tiles beside the blank
    /// {1,5,6}, the top right block with the centre {2,3,4,7,8,9,12}, the
    /// bottom left block with its foot {10,11,15,16,20,21,22}, and the bottom
    /// right block with its neighbour {13,14,17,18,19,23,24}. Not symmetric
    /// under the transpose, so its mirrored lookup adds to it.
    pub const SEVEN_SEVEN_SEVEN_THREE: Partition = Partition {
        name: "7-7-7-3",
        width: 5,
        height: 5,
        groups: &[
            &[1, 5, 6],
            &[2, 3, 4, 7, 8, 9, 12],
            &[10, 11, 15, 16, 20, 21, 22],
            &[13, 14, 17, 18, 19, 23, 24],
        ],
    };

    /// 2×3 blocks, the blank's of five tiles: {1,2,6,7,8}, {3,4,5,9,10,11},
    /// {12,13,14,18,19,20}, {15,16,17,21,22,23}, {24,25,26,30,31,32},
    /// {27,28,29,33,34,35} for the blank-first goal. The mirrored lookup
    /// adds their transpose, 3×2 blocks. Six tiles is as far as a 6×6
    /// table goes on one machine: 1.6·10⁹ entries (205 MB in bits) each.
    pub const SIX_BY_SIX_BLOCKS: Partition = Partition {
        name: "6-6-6-6-6-5",
        width: 6,
        height: 6,
        groups: &[
            &[1, 2, 6, 7, 8],
            &[3, 4, 5, 9, 10, 11],
            &[12, 13, 14, 18, 19, 20],
            &[15, 16, 17, 21, 22, 23],
            &[24, 25, 26, 30, 31, 32],
            &[27, 28, 29, 33, 34, 35],
        ],
    };

    /// Every built-in partition.
    pub const ALL: [Partition; 13] = [
        Partition::SEVEN_EIGHT,
        Partition::SIX_SIX_THREE,
        Partition::L_CORNER,
        Partition::SIX_SIX_SIX_SIX,
        Partition::CORNER_BLOCKS,
        Partition::FAR_ROWS,
        Partition::CORNER_BLOCKS_FAR_ROWS,
        Partition::LEFT_COLUMN,
        Partition::RIGHT_COLUMN,
        Partition::LEFT_COLUMN_BOTTOM_L,
        Partition::COLUMNS,
        Partition::SEVEN_SEVEN_SEVEN_THREE,
        Partition::SIX_BY_SIX_BLOCKS,
    ];

    /// The name it is known by, e.g. `"7-8"`.
    pub const fn name(self) -> &'static str {
        self.name
    }

    /// The board shape the partition is for.
    pub const fn shape(self) -> Shape {
        Shape::new(self.width, self.height)
    }

    /// The goal cells of each pattern, for a goal whose blank is in the
    /// top-left corner (see the module docs for other goals).
    pub const fn groups(self) -> &'static [&'static [u8]] {
        self.groups
    }

    /// The built-in partitions, by shape, for messages: "4x4: 7-8, 6-6-3; …".
    /// (Sets of them, which `--partition` names, have their own list.)
    fn catalogue() -> String {
        by_shape(Partition::ALL.iter().map(|p| (p.shape(), p.name())))
    }

    /// The tiles of each pattern for `goal`, each in goal-cell order.
    ///
    /// # Errors
    /// [`PdbError::WrongShape`] unless the goal has the partition's shape.
    pub fn patterns(self, goal: &Goal) -> Result<Vec<Vec<u8>>, PdbError> {
        let shape = goal.shape();
        if shape != self.shape() {
            return Err(PdbError::WrongShape { partition: self.name, shape, known: Partition::catalogue() });
        }
        // Reflect so the blank's goal cell is on the top-left's side.
        let blank = goal.cell_of(0);
        let flip_rows = shape.row(blank) > (shape.height() - 1) / 2;
        let flip_cols = shape.col(blank) > (shape.width() - 1) / 2;
        let reflect = |cell: usize| {
            let (r, c) = (shape.row(cell), shape.col(cell));
            let r = if flip_rows { shape.height() - 1 - r } else { r };
            let c = if flip_cols { shape.width() - 1 - c } else { c };
            shape.cell(r, c)
        };
        // The blank's cell as the groups see it; its group takes the corner.
        let seen = reflect(blank);
        let layout = goal.tiles().cells();
        Ok(self
            .groups
            .iter()
            .map(|group| {
                let mut cells: Vec<usize> = group
                    .iter()
                    .map(|&c| if usize::from(c) == seen { 0 } else { usize::from(c) })
                    .map(reflect)
                    .collect();
                cells.sort_unstable();
                // A partition's boards have at most 64 cells: tiles fit a byte.
                cells.into_iter().map(|c| layout[c] as u8).collect()
            })
            .collect())
    }
}

impl fmt::Display for Partition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

impl FromStr for Partition {
    type Err = PdbError;

    fn from_str(s: &str) -> Result<Partition, PdbError> {
        Partition::ALL.into_iter().find(|p| p.name == s).ok_or_else(|| {
            let known = Partition::ALL.map(Partition::name).join(", ");
            PdbError::UnknownPartition { name: s.to_owned(), known }
        })
    }
}
