/*!
Goals and the parity rule that decides solvability before any search.

Every move swaps the blank with a neighbour: it flips the parity of the
arrangement (as a permutation of all N² cells, blank included) and moves the
blank one step. So a start can reach a goal exactly when the permutation
parity equals the parity of the blank's taxicab distance to its goal cell.
This holds for every width and every goal, unlike the inversion-count rules
that assume a particular goal.
*/

use super::{ParseError, Shape, Tiles};
use thiserror::Error;

/// Which goal to solve towards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoalSpec {
    /// `0 1 2 … N²−1`: Korf's convention and the course drivers' default.
    BlankFirst,
    /// `1 2 … N²−1 0`.
    BlankLast,
    /// Tiles 1, 2, 3… clockwise in a spiral from the top-left, blank last.
    Snail,
    /// An explicit board.
    Board(Tiles),
}

impl GoalSpec {
    /// The named goal for `blank-first`, `blank-last` or `snail`.
    pub fn named(name: &str) -> Option<GoalSpec> {
        match name {
            "blank-first" => Some(GoalSpec::BlankFirst),
            "blank-last" => Some(GoalSpec::BlankLast),
            "snail" => Some(GoalSpec::Snail),
            _ => None,
        }
    }
}

/// A goal arrangement with each tile's goal cell at hand for heuristics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Goal {
    tiles: Tiles,
    /// `cell_of[tile]` is the tile's goal cell.
    cell_of: Vec<u16>,
}

/// The figures behind a solvability verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parity {
    /// Fewest swaps (of any two cells) turning the start into the goal.
    pub swaps: usize,
    /// Taxicab distance of the blank from its goal cell.
    pub blank_distance: usize,
}

impl Parity {
    /// Whether the goal is reachable: both figures have the same parity.
    pub fn solvable(&self) -> bool {
        self.swaps % 2 == self.blank_distance % 2
    }

    /// One sentence explaining the verdict.
    pub fn reason(&self) -> String {
        let word = |n: usize| if n.is_multiple_of(2) { "even" } else { "odd" };
        let verdict = if self.solvable() {
            "the parities match, as every reachable board's do"
        } else {
            "every move flips both parities, so they can never match"
        };
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        format!(
            "the arrangement is {} swap{} from the goal ({}) and the blank is {} move{} from its goal cell ({}); {verdict}",
            self.swaps,
            plural(self.swaps),
            word(self.swaps),
            self.blank_distance,
            plural(self.blank_distance),
            word(self.blank_distance),
        )
    }
}

/// Why a goal cannot be made for a board.
#[derive(Debug, Error)]
pub enum GoalError {
    /// An explicit goal of another shape than the start's.
    #[error("goal is {goal} but the start is {start}")]
    Size {
        /// The start's shape.
        start: Shape,
        /// The goal's shape.
        goal: Shape,
    },
    /// A goal whose layout is no board of the shape.
    #[error(transparent)]
    Parse(#[from] ParseError),
}

impl Goal {
    /// Builds the goal for a board of `shape`.
    ///
    /// # Errors
    /// [`GoalError::Size`] when an explicit goal has another shape.
    pub fn new(spec: &GoalSpec, shape: impl Into<Shape>) -> Result<Goal, GoalError> {
        let shape = shape.into();
        let cells = shape.cells();
        let layout: Vec<u16> = match spec {
            // Shapes beyond 65,536 cells are refused by `Tiles` below.
            GoalSpec::BlankFirst => (0..cells).map(|t| t as u16).collect(),
            GoalSpec::BlankLast => (1..cells).map(|t| t as u16).chain([0]).collect(),
            GoalSpec::Snail => snail(shape),
            GoalSpec::Board(tiles) => {
                if tiles.shape() != shape {
                    return Err(GoalError::Size { start: shape, goal: tiles.shape() });
                }
                tiles.cells().to_vec()
            }
        };
        let tiles = Tiles::with_shape(shape, &layout).map_err(|kind| ParseError {
            origin: "goal".to_owned(),
            line: None,
            kind,
        })?;
        let mut cell_of = vec![0; cells];
        for (cell, &tile) in layout.iter().enumerate() {
            cell_of[usize::from(tile)] = cell as u16;
        }
        Ok(Goal { tiles, cell_of })
    }

    /// The board's shape.
    pub fn shape(&self) -> Shape {
        self.tiles.shape()
    }

    /// Board width.
    pub fn width(&self) -> usize {
        self.tiles.width()
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.cell_of.len()
    }

    /// The goal arrangement.
    pub fn tiles(&self) -> &Tiles {
        &self.tiles
    }

    /// The goal cell of `tile`.
    #[inline]
    pub fn cell_of(&self, tile: u16) -> usize {
        usize::from(self.cell_of[usize::from(tile)])
    }

    /// Parity figures of `start` relative to this goal.
    pub fn parity(&self, start: &[u16]) -> Parity {
        // Cycle count of the cell permutation start cell -> goal cell of its tile.
        let mut seen = vec![false; start.len()];
        let mut cycles = 0;
        for first in 0..start.len() {
            if seen[first] {
                continue;
            }
            cycles += 1;
            let mut cell = first;
            while !seen[cell] {
                seen[cell] = true;
                cell = self.cell_of(start[cell]);
            }
        }
        let blank = start.iter().position(|&t| t == 0).unwrap_or(0);
        let blank_distance = self.shape().distance(blank, self.cell_of(0));
        Parity { swaps: start.len() - cycles, blank_distance }
    }
}

/// The spiral goal: 1, 2, 3… clockwise from the top-left, blank in the last cell.
fn snail(shape: impl Into<Shape>) -> Vec<u16> {
    let shape = shape.into();
    let cells = shape.cells();
    let mut layout = vec![0u16; cells];
    let (mut top, mut left, mut bottom, mut right) = (0, 0, shape.height() - 1, shape.width() - 1);
    let mut order = Vec::with_capacity(cells);
    while order.len() < cells {
        order.extend((left..=right).map(|c| shape.cell(top, c)));
        order.extend((top + 1..=bottom).map(|r| shape.cell(r, right)));
        if top < bottom {
            order.extend((left..right).rev().map(|c| shape.cell(bottom, c)));
        }
        if left < right {
            order.extend((top + 1..bottom).rev().map(|r| shape.cell(r, left)));
        }
        top += 1;
        left += 1;
        bottom = bottom.saturating_sub(1);
        right = right.saturating_sub(1);
    }
    for (i, &cell) in order.iter().take(cells - 1).enumerate() {
        layout[cell] = (i + 1) as u16;
    }
    layout
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snail_goals_spiral_clockwise_with_the_blank_last() {
        assert_eq!(snail(2), vec![1, 2, 0, 3]);
        assert_eq!(snail(3), vec![1, 2, 3, 8, 0, 4, 7, 6, 5]);
        assert_eq!(snail(4), vec![1, 2, 3, 4, 12, 13, 14, 5, 11, 0, 15, 6, 10, 9, 8, 7]);
        for width in 2..=8 {
            assert!(Tiles::new(&snail(width)).is_ok(), "width {width}");
        }
    }

    #[test]
    fn a_single_swap_of_two_tiles_is_unsolvable() {
        let goal = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
        assert!(goal.parity(&[0, 1, 2, 3, 4, 5, 6, 7, 8]).solvable());
        let swapped = goal.parity(&[0, 2, 1, 3, 4, 5, 6, 7, 8]);
        assert_eq!(swapped, Parity { swaps: 1, blank_distance: 0 });
        assert!(!swapped.solvable());
        assert!(swapped.reason().contains("can never match"));
    }

    #[test]
    fn an_explicit_goal_must_match_the_start_width() {
        let four = Tiles::new(&(0..16).collect::<Vec<u16>>()).unwrap();
        let err = Goal::new(&GoalSpec::Board(four), 3).unwrap_err();
        assert!(
            matches!(err, GoalError::Size { start, goal } if start == Shape::square(3) && goal == Shape::square(4))
        );
    }
}
