/*!
The built-in partitions of the 15-puzzle's tiles. A partition is chosen by
goal cells rather than tile numbers, so the same shapes serve every goal;
this file turns one into tile lists for a given goal and gives each its
command-line name.
*/

use super::PdbError;
use crate::board::Goal;
use std::fmt;
use std::str::FromStr;

/// The built-in partitions of the 15-puzzle's tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Partition {
    /// The goal's top two rows and bottom two rows (each without the blank):
    /// tiles 1–7 and 8–15 for the blank-first goal. About 0.6 GB.
    SevenEight,
    /// The row farthest from the blank's goal row, less the cell in the
    /// blank's column (3 tiles); the other rows' halves, the blank's side
    /// taking that cell (6 tiles each): {1,4,5,8,9,12}, {2,3,6,7,10,11} and
    /// {13,14,15} for the blank-first goal. Of the 6-6-3 shapes tried, this
    /// one has the highest mean value (43.1 with the mirror on random boards,
    /// against 42.1 for the blank's row as the 3-tile group). 11 MB.
    SixSixThree,
}

impl Partition {
    /// Every partition, strongest first.
    pub const ALL: [Partition; 2] = [Partition::SevenEight, Partition::SixSixThree];

    /// The name used on the command line: `"7-8"` or `"6-6-3"`.
    pub const fn name(self) -> &'static str {
        match self {
            Partition::SevenEight => "7-8",
            Partition::SixSixThree => "6-6-3",
        }
    }

    /// The tiles of each pattern for `goal`, each in goal-cell order.
    ///
    /// # Errors
    /// [`PdbError::UnsupportedWidth`] unless the goal is 4×4.
    pub fn patterns(self, goal: &Goal) -> Result<Vec<Vec<u8>>, PdbError> {
        let width = goal.width();
        if width != 4 {
            return Err(PdbError::UnsupportedWidth { width });
        }
        let blank = goal.cell_of(0);
        let groups: Vec<Vec<usize>> = match self {
            Partition::SevenEight => vec![(0..8).collect(), (8..16).collect()],
            Partition::SixSixThree => {
                // The row farthest from the blank's makes the 3-tile group,
                // less the cell in the blank's column, which joins the blank's
                // side of the other rows (split into left and right halves).
                let far = if blank / 4 < 2 { 3 } else { 0 };
                let corner = far * 4 + blank % 4;
                let blank_side = |c: usize| (c % 4 < 2) == (blank % 4 < 2);
                vec![
                    (0..16).filter(|&c| (c / 4 != far && blank_side(c)) || c == corner).collect(),
                    (0..16).filter(|&c| c / 4 != far && !blank_side(c)).collect(),
                    (0..16).filter(|&c| c / 4 == far && c != corner).collect(),
                ]
            }
        };
        let layout = goal.tiles().cells();
        Ok(groups
            .into_iter()
            .map(|cells| cells.into_iter().filter(|&c| c != blank).map(|c| layout[c] as u8).collect())
            .collect())
    }
}

impl fmt::Display for Partition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Partition {
    type Err = PdbError;

    fn from_str(s: &str) -> Result<Partition, PdbError> {
        Partition::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| PdbError::UnknownPartition(s.to_owned()))
    }
}
