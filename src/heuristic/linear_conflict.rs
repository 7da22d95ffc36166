/*!
Linear conflict (Hansson, Mayer & Yung, 1992): Manhattan distance plus two
moves for every tile that must leave its line so the others can pass.

Two tiles in their goal row, in the wrong order, cannot pass each other
within that row: one of them must step out and back, two moves Manhattan
does not count. Per row the extra cost is twice the fewest tiles whose
removal leaves the rest in goal order (line length minus the longest
increasing run of goal columns); likewise per column. Row conflicts cost
vertical moves and column conflicts horizontal ones, so the sum stays
admissible; a move changes one tile's position by one cell, which changes
the total by at most one, so it is consistent too.
*/

use super::{Heuristic, Manhattan};
use crate::board::{Board, Goal, MAX_SEARCH_CELLS, MAX_SEARCH_SIDE, MAX_SIDE, Shape};
use std::sync::OnceLock;

/// Longest line whose conflicts are looked up rather than counted: a table
/// for lines of n cells has (n + 1)ⁿ bytes, 7,776 for the 24-puzzle and
/// 117,649 for 6×6, where counting took a quarter of greedy search's time.
const MAX_TABULATED: usize = 6;

/// The conflicts of every line of n cells, indexed as [`LineTable`] says,
/// built once per process.
static TABLES: [OnceLock<Box<[u8]>>; MAX_TABULATED + 1] = [const { OnceLock::new() }; MAX_TABULATED + 1];

/// Conflicts looked up by the goal positions a line holds: each cell is a
/// digit in base n + 1, 0 for a tile from another line (or the blank) and
/// 1 + the goal position for one of the line's own.
#[derive(Clone, Copy, Debug)]
struct LineTable {
    base: usize,
    removals: &'static [u8],
}

impl LineTable {
    /// The table for lines of up to `n` cells, when it is small enough.
    fn new(n: usize) -> Option<LineTable> {
        let removals = TABLES.get(n)?.get_or_init(|| {
            let mut removals = vec![0u8; (n + 1).pow(n as u32)].into_boxed_slice();
            fill(&mut removals, n + 1, n, 0, Order::new());
            removals
        });
        Some(LineTable { base: n + 1, removals })
    }
}

/// Fills the entries of `table` below the prefix `index` (its cells so far in
/// `order`) with `left` cells to go: depth first, each cell extending its
/// prefix's runs, so an entry costs one push rather than a division per
/// digit (the 5×5 table took most of a short run's start-up).
fn fill(table: &mut [u8], base: usize, left: usize, index: usize, order: Order<1>) {
    if left == 0 {
        table[index] = order.removals() as u8;
        return;
    }
    let index = index * base;
    for digit in 0..base {
        let mut next = order;
        if digit > 0 {
            next.push(digit as u8 - 1);
        }
        fill(table, base, left - 1, index + digit, next);
    }
}

/// The goal line of the blank, which belongs to no line.
const NO_LINE: u8 = u8::MAX;

/// Manhattan distance plus linear conflicts, against any goal.
#[derive(Clone, Debug)]
pub struct LinearConflict {
    manhattan: Manhattan,
    shape: Shape,
    /// Goal row and column of each tile ([`NO_LINE`] for the blank); a
    /// search board holds at most [`MAX_SEARCH_CELLS`] tiles, so a tile
    /// indexes these unchecked.
    goal_row: [u8; MAX_SEARCH_CELLS],
    goal_col: [u8; MAX_SEARCH_CELLS],
    /// Lines short enough are looked up, not counted.
    table: Option<LineTable>,
}

impl LinearConflict {
    /// Tables for `goal`, a board the searches take (sides up to
    /// [`MAX_SEARCH_SIDE`]).
    pub fn new(goal: &Goal) -> LinearConflict {
        let shape = goal.shape();
        let mut goal_row = [NO_LINE; MAX_SEARCH_CELLS];
        let mut goal_col = [NO_LINE; MAX_SEARCH_CELLS];
        for tile in 1..goal.cells().min(MAX_SEARCH_CELLS) {
            let cell = goal.cell_of(tile as u16);
            goal_row[tile] = shape.row(cell) as u8;
            goal_col[tile] = shape.col(cell) as u8;
        }
        let table = LineTable::new(shape.width().max(shape.height()));
        LinearConflict { manhattan: Manhattan::new(goal), shape, goal_row, goal_col, table }
    }

    /// Conflicts in one line before and after `tile` slid from `from` to
    /// `to`, from one scan of the child: the line's cells are `cells`, a
    /// tile belongs to it when `line_of[tile] == line`, and is ordered by
    /// `key[tile]`.
    #[inline]
    fn before_and_after<B: Board>(
        &self,
        child: &B,
        (tile, from, to): (usize, usize, usize),
        cells: impl Iterator<Item = usize>,
        (line_of, line, key): (&[u8; MAX_SEARCH_CELLS], usize, &[u8; MAX_SEARCH_CELLS]),
    ) -> (u32, u32) {
        if let Some(LineTable { base, removals }) = self.table {
            let digit = |t: usize| if line_of[t] as usize == line { 1 + usize::from(key[t]) } else { 0 };
            let (mut before, mut after) = (0, 0);
            for cell in cells {
                let (was, now) = before_and_after_slide(child, cell, (tile, from, to));
                after = after * base + digit(now);
                before = before * base + digit(was);
            }
            return (u32::from(removals[before]), u32::from(removals[after]));
        }
        let (mut before, mut after) = (Order::<SEARCH_LINE>::new(), Order::<SEARCH_LINE>::new());
        for cell in cells {
            let (was, now) = before_and_after_slide(child, cell, (tile, from, to));
            after.push_if(line_of[now] as usize == line, key[now]);
            before.push_if(line_of[was] as usize == line, key[was]);
        }
        (before.removals(), after.removals())
    }
}

/// The tile on `cell` of the parent and of `child`, which is the parent
/// after `tile` slid from `from` to `to`.
#[inline]
fn before_and_after_slide<B: Board>(
    child: &B,
    cell: usize,
    (tile, from, to): (usize, usize, usize),
) -> (usize, usize) {
    let now = child.tile(cell) as usize;
    let was = if cell == from {
        tile
    } else if cell == to {
        0
    } else {
        now
    };
    (was, now)
}

/// No slide, for [`LinearConflict::before_and_after`] on a board as it
/// stands: both figures are the line's conflicts.
const STILL: (usize, usize, usize) = (0, usize::MAX, usize::MAX);

/// The goal positions of the tiles in one line, in board order, and the
/// longest strictly increasing run among them, by patience sorting: the
/// smallest last value of a run of each length, kept as set bits. The
/// positions are distinct, so a new one replaces the smallest tail above
/// it (or starts a longer run), and the longest run is the count of bits:
/// a few bit operations a tile rather than a search through the tails
/// (lines of 7 cells and more, too long for a table).
///
/// `WORDS` words hold positions below 64·`WORDS`: enough for a search's lines
/// ([`SEARCH_LINE`]), or any board's ([`ANY_LINE`]).
#[derive(Clone, Copy)]
struct Order<const WORDS: usize> {
    count: u32,
    /// `tails[w]` bit b: a run ends with position 64·w + b.
    tails: [u64; WORDS],
}

/// Words for a line of a board the searches take.
const SEARCH_LINE: usize = MAX_SEARCH_SIDE.div_ceil(64);
/// Words for a line of any board.
const ANY_LINE: usize = MAX_SIDE.div_ceil(64);

impl<const WORDS: usize> Order<WORDS> {
    #[inline]
    fn new() -> Self {
        Order { count: 0, tails: [0; WORDS] }
    }

    #[inline]
    fn push(&mut self, position: u8) {
        self.count += 1;
        let (word, bit) = (usize::from(position) / 64, u32::from(position) % 64);
        // The smallest tail above `position`: in its word, or a later one.
        let above = self.tails[word] & (u64::MAX << bit << 1);
        self.tails[word] ^= above & above.wrapping_neg();
        if above == 0
            && let Some(next) = self.tails[word + 1..].iter_mut().find(|w| **w != 0)
        {
            *next &= *next - 1;
        }
        self.tails[word] |= 1 << bit;
    }

    /// [`Order::push`] if `member`, without a branch on one word: whether
    /// a cell holds one of the line's own tiles is a coin toss the
    /// processor mispredicts.
    #[inline]
    fn push_if(&mut self, member: bool, position: u8) {
        if WORDS > 1 {
            if member {
                self.push(position);
            }
            return;
        }
        let keep = u64::from(member).wrapping_neg();
        let bit = u32::from(position) % 64;
        let above = self.tails[0] & (u64::MAX << bit << 1) & keep;
        self.tails[0] ^= above & above.wrapping_neg();
        self.tails[0] |= (1 << bit) & keep;
        self.count += u32::from(member);
    }

    /// Fewest tiles to remove so the rest are in goal order.
    #[inline]
    fn removals(&self) -> u32 {
        self.count - self.tails.iter().map(|w| w.count_ones()).sum::<u32>()
    }
}

/// The fewest tiles that must leave their line, over every row and column
/// of `start`, for a board of any size: what [`LinearConflict`] adds twice
/// to Manhattan distance.
pub(crate) fn conflicts(goal: &Goal, start: &[u16]) -> u32 {
    let shape = goal.shape();
    let lines = |cells: &mut dyn Iterator<Item = usize>,
                 line_of: fn(Shape, usize) -> usize,
                 line: usize,
                 key: fn(Shape, usize) -> usize| {
        let mut order = Order::<ANY_LINE>::new();
        for cell in cells {
            let tile = start[cell];
            if tile != 0 {
                let target = goal.cell_of(tile);
                if line_of(shape, target) == line {
                    // Positions along a line are below MAX_SIDE, so they fit a byte.
                    order.push(key(shape, target) as u8);
                }
            }
        }
        order.removals()
    };
    let rows: u32 =
        (0..shape.height()).map(|r| lines(&mut shape.row_cells(r), Shape::row, r, Shape::col)).sum();
    let cols: u32 =
        (0..shape.width()).map(|c| lines(&mut shape.col_cells(c), Shape::col, c, Shape::row)).sum();
    rows + cols
}

impl<B: Board> Heuristic<B> for LinearConflict {
    type Memo = ();
    type Pending = ();

    fn estimate(&self, board: &B) -> u32 {
        let shape = self.shape;
        let (rows, cols) = (&self.goal_row, &self.goal_col);
        let row_conflicts: u32 = (0..shape.height())
            .map(|i| self.before_and_after(board, STILL, shape.row_cells(i), (rows, i, cols)).1)
            .sum();
        let col_conflicts: u32 = (0..shape.width())
            .map(|i| self.before_and_after(board, STILL, shape.col_cells(i), (cols, i, rows)).1)
            .sum();
        Heuristic::<B>::estimate(&self.manhattan, board) + 2 * (row_conflicts + col_conflicts)
    }

    #[inline]
    fn update(&self, child: &B, h: u32, tile: u8, from: usize, to: usize) -> u32 {
        let manhattan = Heuristic::<B>::update(&self.manhattan, child, h, tile, from, to);
        // A slide keeps the order of the other tiles in every line, and the
        // line it runs along keeps its tiles; what changes is which tiles
        // the two lines across it hold, and only the one that is the moving
        // tile's goal line counts it. Usually neither is: nothing to scan.
        let (shape, t) = (self.shape, usize::from(tile));
        let (before, after) = if shape.row(from) == shape.row(to) {
            let col = usize::from(self.goal_col[t]);
            if col != shape.col(from) && col != shape.col(to) {
                return manhattan;
            }
            let cells = shape.col_cells(col);
            self.before_and_after(child, (t, from, to), cells, (&self.goal_col, col, &self.goal_row))
        } else {
            let row = usize::from(self.goal_row[t]);
            if row != shape.row(from) && row != shape.row(to) {
                return manhattan;
            }
            let cells = shape.row_cells(row);
            self.before_and_after(child, (t, from, to), cells, (&self.goal_row, row, &self.goal_col))
        };
        manhattan + 2 * after - 2 * before
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{GoalSpec, Packed};

    #[test]
    fn a_reversed_row_costs_two_per_tile_that_must_step_out() {
        let goal = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
        let lc = LinearConflict::new(&goal);
        // Row 0 holds 2 1 in place of 1 2: one tile must step out.
        let swapped = Packed::from_tiles(&[0, 2, 1, 3, 4, 5, 6, 7, 8]);
        assert_eq!(lc.estimate(&swapped), 2 + 2);
        // Row 1 holds 5 4 3: two of the three must step out.
        let reversed = Packed::from_tiles(&[0, 1, 2, 5, 4, 3, 6, 7, 8]);
        assert_eq!(lc.estimate(&reversed), 4 + 4);
    }

    #[test]
    fn looked_up_lines_count_what_the_runs_count() {
        // Every line of 4 cells: each cell empty, or one of the goal positions.
        let table = LineTable::new(4).unwrap();
        assert_eq!(table.removals.len(), 625);
        for (index, &removals) in table.removals.iter().enumerate() {
            let digits = [index / 125, index / 25 % 5, index / 5 % 5, index % 5];
            let mut order = Order::<1>::new();
            digits.iter().filter(|&&d| d > 0).for_each(|&d| order.push(d as u8 - 1));
            assert_eq!(u32::from(removals), order.removals(), "{digits:?}");
        }
        assert_eq!(table.removals[4 * 125 + 3 * 25 + 2 * 5 + 1], 3, "4 3 2 1 → three must leave");
        assert!(LineTable::new(MAX_TABULATED + 1).is_none());
    }

    #[test]
    fn increasing_runs_are_found_among_any_goal_positions() {
        let mut order = Order::<1>::new();
        for p in [3, 0, 1, 7, 2] {
            order.push(p);
        }
        assert_eq!(order.removals(), 2); // keep 0 1 2 (or 0 1 7)
    }

    /// The longest increasing run by the textbook quadratic recurrence.
    fn longest_run(positions: &[u8]) -> u32 {
        let mut ending = vec![1u32; positions.len()];
        for j in 0..positions.len() {
            for i in 0..j {
                if positions[i] < positions[j] {
                    ending[j] = ending[j].max(ending[i] + 1);
                }
            }
        }
        ending.into_iter().max().unwrap_or(0)
    }

    /// Random lines of distinct positions below `universe` (as a line's own
    /// tiles have), `Order<WORDS>` against the recurrence.
    fn runs_match<const WORDS: usize>(universe: usize, lengths: &[usize]) {
        let mut x = 99u64;
        for &length in lengths {
            for _ in 0..50 {
                let mut positions: Vec<u8> = (0..universe).map(|p| p as u8).collect();
                for i in (1..positions.len()).rev() {
                    x = crate::board::mix64(x);
                    positions.swap(i, (x % (i as u64 + 1)) as usize);
                }
                positions.truncate(length);
                let (mut order, mut masked) = (Order::<WORDS>::new(), Order::<WORDS>::new());
                for &p in &positions {
                    order.push(p);
                    // Cells of other lines (any position, the blank's NO_LINE) between.
                    x = crate::board::mix64(x);
                    masked.push_if(false, x as u8);
                    masked.push_if(true, p);
                }
                let expected = length as u32 - longest_run(&positions);
                assert_eq!(order.removals(), expected, "{positions:?}");
                assert_eq!(masked.removals(), expected, "{positions:?} with other lines' tiles");
            }
        }
    }

    #[test]
    fn removals_are_the_tiles_outside_a_longest_increasing_run_on_lines_of_any_length() {
        runs_match::<SEARCH_LINE>(MAX_SEARCH_SIDE, &[0, 1, 2, 5, 7, 12, 16]);
        runs_match::<1>(64, &[20, 64]);
        runs_match::<ANY_LINE>(MAX_SIDE, &[0, 1, 7, 65, 100, 200, 256]);
    }
}
