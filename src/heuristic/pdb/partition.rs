/*!
Partitions: how the tiles are split into patterns, as data. A partition is
a board shape and groups of goal cells, written for a goal whose blank is
in the top-left corner: together they hold every other cell once. For any
other goal the board is reflected so that the blank's goal cell falls on
the same side (left-right when it is in the right half, top-bottom when in
the bottom half); if it is still not the corner, the group holding its cell
takes the corner instead. The same shapes then serve every goal, with the
same pattern sizes, and the tiles of each pattern are whatever the goal
puts in its cells.
*/

use super::PdbError;
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
    /// One line for help texts: what it costs and why to choose it.
    about: &'static str,
}

impl Partition {
    /// The goal's top two rows and bottom two rows (tiles 1–7 and 8–15 for
    /// the blank-first goal): the strong 15-puzzle default, 0.6 GB.
    pub const SEVEN_EIGHT: Partition = Partition {
        name: "7-8",
        width: 4,
        height: 4,
        groups: &[&[1, 2, 3, 4, 5, 6, 7], &[8, 9, 10, 11, 12, 13, 14, 15]],
        about: "the goal's top and bottom halves: the fastest searches; 0.6 GB, built once in about two minutes",
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
        about: "three rows' halves and the far row: 11 MB, built in seconds",
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
        about: "four six-tile patterns: 24-puzzles solved optimally; 0.5 GB, built once in minutes",
    };

    /// Every built-in partition; the first of each shape is its default.
    pub const ALL: [Partition; 3] =
        [Partition::SEVEN_EIGHT, Partition::SIX_SIX_THREE, Partition::SIX_SIX_SIX_SIX];

    /// The name used on the command line, e.g. `"7-8"`.
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

    /// What it costs and why to choose it, in one line.
    pub const fn about(self) -> &'static str {
        self.about
    }

    /// The default partition for boards of `shape`, if any.
    pub fn default_for(shape: Shape) -> Option<Partition> {
        Partition::ALL.into_iter().find(|p| p.shape() == shape)
    }

    /// The partitions for boards of `shape`, the default first.
    pub fn for_shape(shape: Shape) -> impl Iterator<Item = Partition> {
        Partition::ALL.into_iter().filter(move |p| p.shape() == shape)
    }

    /// The tiles of each pattern for `goal`, each in goal-cell order.
    ///
    /// # Errors
    /// [`PdbError::WrongShape`] unless the goal has the partition's shape.
    pub fn patterns(self, goal: &Goal) -> Result<Vec<Vec<u8>>, PdbError> {
        let shape = goal.shape();
        if shape != self.shape() {
            return Err(PdbError::WrongShape { partition: self.name, shape, known: catalogue() });
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
                // A partition's boards have at most 32 cells: tiles fit a byte.
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
        Partition::ALL
            .into_iter()
            .find(|p| p.name == s)
            .ok_or_else(|| PdbError::UnknownPartition { name: s.to_owned(), known: catalogue() })
    }
}

/// The built-in partitions, by shape, for messages and help texts:
/// "4x4: 7-8, 6-6-3; 5x5: 6-6-6-6".
pub fn catalogue() -> String {
    let mut shapes: Vec<Shape> = Partition::ALL.iter().map(|p| p.shape()).collect();
    shapes.dedup();
    shapes
        .iter()
        .map(|&shape| {
            let names: Vec<&str> = Partition::for_shape(shape).map(Partition::name).collect();
            format!("{shape}: {}", names.join(", "))
        })
        .collect::<Vec<_>>()
        .join("; ")
}
