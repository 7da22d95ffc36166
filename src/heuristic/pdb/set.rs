/*!
The sets of partitions a user chooses from by name: a kind of table and a
list of partitions, whose heuristic is the largest of the partitions' sums
(each also looked up on the board's mirror image where the goal allows).
The sets are data, like the partitions; a table two partitions share is
built, stored and looked up once.
*/

use super::error::by_shape;
use super::{Partition, PdbError, TableKind};
use crate::board::{Goal, Shape};
use std::fmt;
use std::str::FromStr;

/// How a search comes by its estimates, which decides the kind of table
/// that serves it best.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Estimates {
    /// Each child's from its parent's, as IDA* does: a table in bits costs
    /// one read.
    FromParent,
    /// Each board's on its own, as the best-first searches take boards from
    /// a frontier: a table in bits costs a walk to the goal.
    FromScratch,
}

/// A named set of partitions and the kind of table they use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PartitionSet {
    name: &'static str,
    kind: TableKind,
    /// The partitions, all of one shape.
    partitions: &'static [Partition],
    /// One line for help texts: what it costs and why to choose it.
    about: &'static str,
}

impl PartitionSet {
    /// 7-8, blank-minimised: the strong 15-puzzle default.
    pub const SEVEN_EIGHT: PartitionSet = PartitionSet {
        name: "7-8",
        kind: TableKind::Minimised,
        partitions: &[Partition::SEVEN_EIGHT],
        about: "the goal's top and bottom halves: the fastest searches; 0.6 GB, built once in about two minutes",
    };

    /// 6-6-3, blank-minimised: 11 MB.
    pub const SIX_SIX_THREE: PartitionSet = PartitionSet {
        name: "6-6-3",
        kind: TableKind::Minimised,
        partitions: &[Partition::SIX_SIX_THREE],
        about: "three rows' halves and the far row: 11 MB, built in seconds",
    };

    /// 7-8, zero-aware, one bit per entry.
    pub const ZERO_SEVEN_EIGHT: PartitionSet = PartitionSet {
        name: "zero-7-8",
        kind: TableKind::ZeroAwareBits,
        partitions: &[Partition::SEVEN_EIGHT],
        about: "7-8 with the blank's region counted: half the expansions and faster IDA*, but slow \
                in the best-first searches; 0.2 GB, built once in about four minutes",
    };

    /// Seven zero-aware 6-6-6-6 partitions, Korf and Felner's and six that
    /// share its blocks or cut the board into columns, each with its
    /// transpose through the mirror: 14 tables in bits. A sixth of
    /// 6-6-6-6's expansions at about a sixth of its rate: even on the ten
    /// easiest instances, ahead on the boards whose published counts say
    /// the maximum prunes most.
    pub const ZERO_MAX_SEVEN: PartitionSet = PartitionSet {
        name: "zero-max7",
        kind: TableKind::ZeroAwareBits,
        partitions: &[
            Partition::SIX_SIX_SIX_SIX,
            Partition::CORNER_BLOCKS,
            Partition::FAR_ROWS,
            Partition::CORNER_BLOCKS_FAR_ROWS,
            Partition::LEFT_COLUMN,
            Partition::RIGHT_COLUMN,
            Partition::LEFT_COLUMN_BOTTOM_L,
        ],
        about: "the largest of seven zero-aware 6-6-6-6 partitions and their transposes: a sixth of the \
                expansions, each four times dearer; 0.32 GB, built once in about eight minutes",
    };

    /// Korf and Felner's 6-6-6-6, blank-minimised.
    pub const SIX_SIX_SIX_SIX: PartitionSet = PartitionSet {
        name: "6-6-6-6",
        kind: TableKind::Minimised,
        partitions: &[Partition::SIX_SIX_SIX_SIX],
        about: "four six-tile patterns: 24-puzzles solved optimally; 0.5 GB, built once in minutes",
    };

    /// Korf and Felner's 6-6-6-6, zero-aware, one bit per entry.
    pub const ZERO_SIX_SIX_SIX_SIX: PartitionSet = PartitionSet {
        name: "zero-6-6-6-6",
        kind: TableKind::ZeroAwareBits,
        partitions: &[Partition::SIX_SIX_SIX_SIX],
        about: "6-6-6-6 with the blank's region counted: fewer expansions, each dearer; 90 MB, built once \
                in about two minutes",
    };

    /// The 35-puzzle's 2×3 blocks, zero-aware, one bit per entry, with
    /// their transposes through the mirror: the only set for 6×6, so the
    /// default of every search (a blank-minimised six-tile 6×6 table would
    /// have 1.4·10⁹ placements, past what a table indexes).
    pub const ZERO_SIX_BY_SIX_BLOCKS: PartitionSet = PartitionSet {
        name: "zero-6-6-6-6-6-5",
        kind: TableKind::ZeroAwareBits,
        partitions: &[Partition::SIX_BY_SIX_BLOCKS],
        about: "2×3 blocks with the blank's region counted, and their transposes: 35-puzzles solved \
                optimally; 1.0 GB, built once in about 22 minutes (2.7 GB of memory while building)",
    };

    /// Every built-in set, in the order help texts list them.
    pub const ALL: [PartitionSet; 7] = [
        PartitionSet::SEVEN_EIGHT,
        PartitionSet::SIX_SIX_THREE,
        PartitionSet::ZERO_SEVEN_EIGHT,
        PartitionSet::SIX_SIX_SIX_SIX,
        PartitionSet::ZERO_SIX_SIX_SIX_SIX,
        PartitionSet::ZERO_MAX_SEVEN,
        PartitionSet::ZERO_SIX_BY_SIX_BLOCKS,
    ];

    /// The name used on the command line, e.g. `"7-8"`.
    pub const fn name(self) -> &'static str {
        self.name
    }

    /// The board shape the set is for.
    pub const fn shape(self) -> Shape {
        self.partitions[0].shape()
    }

    /// The kind of table every pattern of the set uses.
    pub const fn kind(self) -> TableKind {
        self.kind
    }

    /// The partitions whose sums are maximised over.
    pub const fn partitions(self) -> &'static [Partition] {
        self.partitions
    }

    /// What it costs and why to choose it, in one line.
    pub const fn about(self) -> &'static str {
        self.about
    }

    /// The default set for boards of `shape` searched by a search that
    /// gets its `estimates` so, if any: for IDA* the zero-aware sets, which
    /// expand two (4×4) to six (5×5) times fewer nodes and win in time
    /// too; for the best-first searches the blank-minimised ones, since a
    /// table in bits read without the parent's value costs a walk to the
    /// goal. On 6×6 both are the one set there is.
    pub fn default_for(shape: Shape, estimates: Estimates) -> Option<PartitionSet> {
        let sets = match estimates {
            Estimates::FromParent => [PartitionSet::ZERO_SEVEN_EIGHT, PartitionSet::ZERO_MAX_SEVEN],
            Estimates::FromScratch => [PartitionSet::SEVEN_EIGHT, PartitionSet::SIX_SIX_SIX_SIX],
        };
        sets.into_iter().chain([PartitionSet::ZERO_SIX_BY_SIX_BLOCKS]).find(|p| p.shape() == shape)
    }

    /// Every default set for boards of `shape`, each once: what `pdb
    /// build` makes when not told which.
    pub fn defaults_for(shape: Shape) -> impl Iterator<Item = PartitionSet> {
        let ida = PartitionSet::default_for(shape, Estimates::FromParent);
        let best_first =
            PartitionSet::default_for(shape, Estimates::FromScratch).filter(|&set| Some(set) != ida);
        ida.into_iter().chain(best_first)
    }

    /// The sets for boards of `shape`, the default first.
    pub fn for_shape(shape: Shape) -> impl Iterator<Item = PartitionSet> {
        PartitionSet::ALL.into_iter().filter(move |p| p.shape() == shape)
    }

    /// The set's patterns for `goal`.
    ///
    /// # Errors
    /// [`PdbError::WrongShape`] unless the goal has the set's shape.
    pub fn tables(self, goal: &Goal) -> Result<Patterns, PdbError> {
        let shape = goal.shape();
        if shape != self.shape() {
            return Err(PdbError::WrongShape { partition: self.name, shape, known: catalogue() });
        }
        Patterns::of(self.partitions, goal)
    }
}

/// A set's patterns for one goal, each table once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Patterns {
    /// The distinct patterns, each a list of tiles in goal-cell order, in
    /// the order the partitions first name them.
    pub patterns: Vec<Vec<u8>>,
    /// Each partition, as indices into `patterns`.
    pub partitions: Vec<Vec<usize>>,
}

impl Patterns {
    /// The patterns of `partitions` for `goal`, each table once.
    ///
    /// # Errors
    /// [`PdbError::WrongShape`] unless the goal has the partitions' shape.
    pub fn of(partitions: &[Partition], goal: &Goal) -> Result<Patterns, PdbError> {
        let mut patterns: Vec<Vec<u8>> = Vec::new();
        let mut members = Vec::with_capacity(partitions.len());
        for partition in partitions {
            let mut indices = Vec::new();
            for tiles in partition.patterns(goal)? {
                let i = patterns.iter().position(|p| *p == tiles).unwrap_or_else(|| {
                    patterns.push(tiles);
                    patterns.len() - 1
                });
                indices.push(i);
            }
            members.push(indices);
        }
        Ok(Patterns { patterns, partitions: members })
    }
}

impl fmt::Display for PartitionSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

impl FromStr for PartitionSet {
    type Err = PdbError;

    fn from_str(s: &str) -> Result<PartitionSet, PdbError> {
        PartitionSet::ALL
            .into_iter()
            .find(|p| p.name == s)
            .ok_or_else(|| PdbError::UnknownPartition { name: s.to_owned(), known: catalogue() })
    }
}

/// The built-in sets, by shape, for messages and help texts:
/// "4x4: 7-8, 6-6-3; 5x5: 6-6-6-6, …".
pub fn catalogue() -> String {
    by_shape(PartitionSet::ALL.iter().map(|p| (p.shape(), p.name())))
}
