/*!
Board encodings and the geometry every search shares.

A search never touches bits: it asks a [`Board`] for the blank, a tile, or the
board after a slide, and asks a [`Geometry`] where the blank may go. Boards up
to 4×4 are one `u64` ([`Packed`]), up to 25 cells one `u128` ([`Packed128`]);
larger ones are [`Wide`]. Each search is
written once and monomorphised per encoding.
*/

mod automaton;
mod distance;
mod generate;
mod goal;
mod list;
mod packed;
mod packed128;
mod packed_words;
mod parse;
mod read;
mod shape;
mod wide;

pub use distance::{Layers, MAX_ENUMERATED_CELLS};
pub use generate::{MAX_WALK, Scramble, SplitMix64, comment_lines, generate, puzzle_text};
pub use goal::{Goal, GoalSpec, Parity};
pub use list::{Entry, MAX_LIST_BYTES, parse_list};
pub use list::{list_line, size_line};
pub use packed::Packed;
pub use packed_words::PackedWords;
pub use packed128::Packed128;
pub use parse::{
    Input, MAX_INPUT_BYTES, ParseError, ParseErrorKind, Tiles, display_grid, parse_board, parse_board_with,
    parse_shape, read_input, read_input_with, stated_optimum, supported,
};
pub(crate) use parse::{io_message, split_lines};
pub use read::read_text;
pub use shape::Shape;
pub use wide::{TaggedWide, Wide};

use rustc_hash::FxHashMap;
use std::fmt;
use std::hash::Hash;
use std::sync::{Mutex, PoisonError};

/// Smallest side of a board: with one row or column, tiles cannot pass
/// each other and most arrangements are unreachable.
pub const MIN_SIDE: usize = 2;
/// Largest side of a board that is read, checked, generated and solved by
/// the constructive solver: 65,536 cells keep every tile a `u16`.
pub const MAX_SIDE: usize = 256;
/// Largest side of a board the searches (BFS, DFS, A*, IDA*, greedy) take:
/// 16×16 keeps every tile and cell index in a byte and every line short.
pub const MAX_SEARCH_SIDE: usize = 16;

/// A move, named by the direction the blank travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// The blank moves one row up.
    Up = 0,
    /// The blank moves one row down.
    Down = 1,
    /// The blank moves one column left.
    Left = 2,
    /// The blank moves one column right.
    Right = 3,
}

impl Move {
    /// Successor order used by every search: Up, Down, Left, Right.
    pub const ALL: [Move; 4] = [Move::Up, Move::Down, Move::Left, Move::Right];

    /// The move that undoes this one.
    #[inline]
    pub const fn inverse(self) -> Move {
        match self {
            Move::Up => Move::Down,
            Move::Down => Move::Up,
            Move::Left => Move::Right,
            Move::Right => Move::Left,
        }
    }

    /// The move with this index in [`Move::ALL`].
    #[inline]
    pub const fn from_index(i: usize) -> Move {
        Move::ALL[i & 3]
    }

    /// Position in [`Move::ALL`].
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `"Up"`, `"Down"`, `"Left"` or `"Right"`.
    pub const fn name(self) -> &'static str {
        match self {
            Move::Up => "Up",
            Move::Down => "Down",
            Move::Left => "Left",
            Move::Right => "Right",
        }
    }
}

impl serde::Serialize for Move {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A board encoding. Positions are row-major cell indices; tile 0 is the blank.
///
/// Implementations are plain `Copy` values so the hot loops never allocate,
/// and `Hash`/`Eq` look at the tiles only, so a board is its own set key.
pub trait Board: Copy + Eq + Hash + Send + Sync + fmt::Debug + 'static {
    /// Most cells this encoding can hold.
    const CAPACITY: usize;

    /// Encodes a valid arrangement (a permutation of `0..cells`, at most
    /// [`Board::CAPACITY`] cells).
    fn from_tiles(tiles: &[u16]) -> Self;

    /// The tile at `pos`.
    fn tile(&self, pos: usize) -> u8;

    /// Where the blank is.
    fn blank(&self) -> usize;

    /// The board after the tile at `from` slides into the blank at `blank`.
    ///
    /// `blank` must be [`Board::blank`]; searches already know it, so passing
    /// it in keeps the packed encoding from searching for it again.
    fn slide(&self, blank: usize, from: usize) -> Self;

    /// The board plus a small tag (the move that reached it) in one value:
    /// what compact search tables store.
    type Tagged: Copy + Send + Sync + fmt::Debug + 'static;

    /// A tagged value that is never a real board; marks empty table slots.
    const VACANT: Self::Tagged;

    /// Stores the board with `arrival`.
    fn tag(&self, arrival: Option<Move>) -> Self::Tagged;

    /// Splits a tagged value back into the board and its tag.
    fn untag(tagged: Self::Tagged) -> (Self, Option<Move>);

    /// A well-mixed hash of the board in `tagged`, ignoring the tag.
    fn tagged_hash(tagged: &Self::Tagged) -> u64;

    /// Whether two tagged values hold the same board, whatever their tags.
    fn same_board(a: &Self::Tagged, b: &Self::Tagged) -> bool;

    /// The first `cells` tiles as a plain vector, for reporting.
    fn to_tiles(&self, cells: usize) -> Vec<u16> {
        (0..cells).map(|p| u16::from(self.tile(p))).collect()
    }
}

/// Encodes an optional move in 3 bits: 0 for none, 1 + index otherwise.
#[inline]
pub(crate) const fn move_code(mv: Option<Move>) -> u8 {
    match mv {
        None => 0,
        Some(mv) => 1 + mv as u8,
    }
}

/// Decodes [`move_code`].
#[inline]
pub(crate) const fn code_move(code: u8) -> Option<Move> {
    if code == 0 { None } else { Some(Move::from_index(code as usize - 1)) }
}

/// The low bit of each of `fields` fields of `bits` bits from bit 0: what
/// the packed encodings subtract to find their one zero field, the blank.
pub(crate) const fn field_low_bits(bits: usize, fields: usize) -> u128 {
    let mut low = 0;
    let mut field = 0;
    while field < fields {
        low |= 1 << (bits * field);
        field += 1;
    }
    low
}

/// A strong 64-bit mixer (the `SplitMix64` finaliser), so table indices can
/// come from any bits of the hash.
#[inline]
pub(crate) const fn mix64(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// How long the rules of [`Geometry::without_duplicates`] are for a
/// board of `shape`, by its cells, because the build enumerates every path
/// up to that length from every cell. Measured: on the 8-puzzle, rules past
/// 8 moves save under 8% of IDA*'s nodes but cost more to build than a
/// whole solve; on the 15-puzzle, rules of 12 moves halve IDA*'s nodes and
/// build in about 25 ms (13 saved another 1% on five Korf instances for
/// twice the build; 14 takes 115 ms). Up to 25 cells 10 moves and up to 64
/// cells 8 keep the build near 0.1 s; beyond, 8 moves would take 0.15 s on
/// 10×10 and 0.55 s on 16×16, and 6 take 18 ms and 60 ms.
fn duplicate_rule_length(shape: Shape) -> usize {
    match shape.cells() {
        10..=16 => 12,
        17..=25 => 10,
        ..=64 => 8,
        _ => 6,
    }
}

/// Marks a missing neighbour in [`Geometry`]'s move table.
const NONE: u16 = u16::MAX;

/// Where the blank can go from each cell of a board.
#[derive(Clone, Debug)]
pub struct Geometry {
    shape: Shape,
    /// `targets[pos][move]` is the blank's new cell, or [`NONE`] at an edge.
    targets: Vec<[u16; 4]>,
    /// The allowed steps in successor order, per state of the move
    /// automaton (row `cell`: the blank at `cell`, no history); unused
    /// entries have `from == NONE`.
    steps: Vec<[Step; 4]>,
}

/// One legal move of the blank, as [`Geometry::steps`] lists it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The move.
    pub mv: Move,
    /// The blank's new cell (where the moving tile comes from); `u16::MAX`
    /// past the row's last step.
    pub from: u16,
    /// The row of the steps onward from the new position.
    pub row: u16,
}

impl Geometry {
    /// Rule length of the plain table: a blank path of two moves that
    /// changes nothing is a move and its undo.
    const UNDO_ONLY: usize = 2;

    /// The move table for a board of `shape`; its steps leave out only the
    /// move that undoes the last one.
    pub fn new(shape: impl Into<Shape>) -> Geometry {
        Self::with_rules(shape, Self::UNDO_ONLY)
    }

    /// [`Geometry::new`] for `shape`, built once per shape and kept: the
    /// searches that remember what they have seen (BFS, DFS, A*, greedy)
    /// take it rather than building it per search, which took a tenth of
    /// the time of an 8-puzzle's A*.
    pub fn plain(shape: impl Into<Shape>) -> &'static Geometry {
        Self::kept(shape.into(), Self::UNDO_ONLY)
    }

    /// The move table whose steps also leave out every move that completes
    /// a blank path of up to `max_len` moves that a smaller path (shorter, or
    /// as long and first in successor order) makes redundant: for
    /// depth-first searches, which cannot tell they have seen a board before
    /// (Taylor and Korf's move automaton). Built once per shape and kept.
    pub fn without_duplicates(shape: impl Into<Shape>) -> &'static Geometry {
        let shape = shape.into();
        Self::kept(shape, duplicate_rule_length(shape))
    }

    /// The table of `shape` with rules up to `max_len` moves, built on first
    /// use and kept for the life of the process, like a static table.
    fn kept(shape: Shape, max_len: usize) -> &'static Geometry {
        static BUILT: Mutex<Option<FxHashMap<(Shape, usize), &'static Geometry>>> = Mutex::new(None);
        let mut built = BUILT.lock().unwrap_or_else(PoisonError::into_inner);
        built
            .get_or_insert_with(FxHashMap::default)
            .entry((shape, max_len))
            .or_insert_with(|| Box::leak(Box::new(Self::with_rules(shape, max_len))))
    }

    fn with_rules(shape: impl Into<Shape>, max_len: usize) -> Geometry {
        let shape = shape.into();
        let targets = (0..shape.cells())
            .map(|cell| Move::ALL.map(|mv| shape.neighbour(cell, mv).map_or(NONE, |to| to as u16)))
            .collect::<Vec<[u16; 4]>>();
        let steps = automaton::build(&targets, max_len).steps;
        Geometry { shape, targets, steps }
    }

    /// The row of [`Geometry::steps`] to start from with the blank at
    /// `blank`, nothing known of the moves before.
    #[inline]
    pub fn start_row(&self, blank: usize) -> usize {
        blank
    }

    /// The allowed steps in successor order: up to four, the first with
    /// `from == u16::MAX` ending the list. Each step names the row of the
    /// steps after it, so the tightest loops follow rows and never
    /// recompute them.
    #[inline]
    pub fn steps(&self, row: usize) -> &[Step; 4] {
        &self.steps[row]
    }

    /// The board's shape.
    #[inline]
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Number of cells.
    #[inline]
    pub fn cells(&self) -> usize {
        self.targets.len()
    }

    /// The blank's cell after `mv` from `blank`, if the move stays on the board.
    #[inline]
    pub fn target(&self, blank: usize, mv: Move) -> Option<usize> {
        let to = self.targets[blank][mv.index()];
        (to != NONE).then_some(to as usize)
    }

    /// Legal moves from `blank` in successor order, with the blank's new cell.
    #[inline]
    pub fn moves(&self, blank: usize) -> impl Iterator<Item = (Move, usize)> + '_ {
        let row = &self.targets[blank];
        Move::ALL.into_iter().filter_map(move |mv| {
            let to = row[mv.index()];
            (to != NONE).then_some((mv, to as usize))
        })
    }

    /// The board after `mv`, or `None` if the blank would leave the board.
    #[inline]
    pub fn apply<B: Board>(&self, board: &B, mv: Move) -> Option<B> {
        let blank = board.blank();
        self.target(blank, mv).map(|to| board.slide(blank, to))
    }
}

/// Plays `path` from `start`, returning every board from start to finish.
///
/// # Errors
/// The index of the first move that would push the blank off the board.
pub fn replay(start: &[u16], shape: impl Into<Shape>, path: &[Move]) -> Result<Vec<Vec<u16>>, usize> {
    let mut boards = Vec::with_capacity(path.len() + 1);
    replay_each(start, shape, path, |board| boards.push(board.to_vec()))?;
    Ok(boards)
}

/// Plays `path` from `start`, handing each board from start to finish to
/// `each` as it goes: a path of millions of moves needs no list of boards.
///
/// # Errors
/// The index of the first move that would push the blank off the board.
pub fn replay_each(
    start: &[u16],
    shape: impl Into<Shape>,
    path: &[Move],
    mut each: impl FnMut(&[u16]),
) -> Result<(), usize> {
    let shape = shape.into();
    let mut board = start.to_vec();
    let mut blank = board.iter().position(|&t| t == 0).ok_or(0usize)?;
    each(&board);
    for (i, &mv) in path.iter().enumerate() {
        let to = shape.neighbour(blank, mv).ok_or(i)?;
        board.swap(blank, to);
        blank = to;
        each(&board);
    }
    Ok(())
}

/// Every board within `radius` moves of `start` on a board of `shape`, with
/// its true distance: a breadth-first search that stores boards, the ground
/// truth tests hold cleverer searches and tables to.
#[cfg(test)]
pub(crate) fn distances_within<B: Board>(
    start: B,
    shape: impl Into<Shape>,
    radius: u32,
) -> std::collections::HashMap<B, u32> {
    let geometry = Geometry::new(shape);
    let mut dist = std::collections::HashMap::from([(start, 0)]);
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(b) = queue.pop_front() {
        let d = dist[&b];
        if d == radius {
            continue;
        }
        for (_, to) in geometry.moves(b.blank()) {
            let child = b.slide(b.blank(), to);
            dist.entry(child).or_insert_with(|| {
                queue.push_back(child);
                d + 1
            });
        }
    }
    dist
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_moves_undo_each_other() {
        for mv in Move::ALL {
            assert_eq!(mv.inverse().inverse(), mv);
            assert_ne!(mv.inverse(), mv);
        }
    }

    #[test]
    fn corner_has_two_moves_in_successor_order() {
        let g = Geometry::new(3);
        let moves: Vec<_> = g.moves(0).collect();
        assert_eq!(moves, vec![(Move::Down, 3), (Move::Right, 1)]);
        let centre: Vec<_> = g.moves(4).map(|m| m.0).collect();
        assert_eq!(centre, Move::ALL.to_vec());
    }

    #[test]
    fn the_plain_table_leaves_out_only_the_undo_move() {
        let g = Geometry::new(3);
        // Walk every row the table can reach, knowing the blank's cell and
        // the move that led there.
        let mut todo: Vec<(usize, usize, Option<Move>)> =
            (0..9).map(|cell| (g.start_row(cell), cell, None)).collect();
        let mut seen = std::collections::HashSet::new();
        while let Some((row, blank, arrival)) = todo.pop() {
            if !seen.insert((row, blank, arrival)) {
                continue;
            }
            let listed: Vec<(Move, usize)> = g
                .steps(row)
                .iter()
                .take_while(|s| s.from != NONE)
                .map(|s| (s.mv, usize::from(s.from)))
                .collect();
            let legal: Vec<(Move, usize)> =
                g.moves(blank).filter(|&(mv, _)| Some(mv.inverse()) != arrival).collect();
            assert_eq!(listed, legal, "blank at {blank} after {arrival:?}");
            for step in g.steps(row).iter().take_while(|s| s.from != NONE) {
                todo.push((usize::from(step.row), usize::from(step.from), Some(step.mv)));
            }
        }
        assert_eq!(seen.len(), 9 + 24, "one row per cell, one per (cell, arrival)");
    }

    #[test]
    fn replay_rejects_a_move_off_the_board() {
        assert_eq!(replay(&[0, 1, 2, 3], 2, &[Move::Down, Move::Down]), Err(1));
        let boards = replay(&[0, 1, 2, 3], 2, &[Move::Right]).unwrap();
        assert_eq!(boards.last().unwrap(), &vec![1, 0, 2, 3]);
    }
}
