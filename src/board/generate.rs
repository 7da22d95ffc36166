/*!
Puzzle generation: random walks from the goal and uniformly random boards.

Randomness comes from [`SplitMix64`], written out here rather than taken
from a crate, so the boards a seed produces never change with dependency
versions. Every choice the generator makes draws from one stream, so board
`i` of `--count C --seed S` is the same for every `C ≥ i`.
*/

use super::parse::split_lines;
use super::{Goal, Tiles};

/// `SplitMix64` (Steele, Lea and Flood, 2014): a tiny generator with a fixed
/// sequence per seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator whose sequence is fixed by `seed`.
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform integer in `0..n`, without modulo bias (draws below
    /// `2⁶⁴ mod n` are rejected). `n` must not be 0.
    pub fn below(&mut self, n: usize) -> usize {
        let n = n as u64;
        assert!(n > 0, "below(0) has no values to choose from");
        let threshold = n.wrapping_neg() % n;
        loop {
            let x = self.next_u64();
            if x >= threshold {
                return (x % n) as usize;
            }
        }
    }
}

/// The longest random walk [`generate`] takes: a hundred million moves take
/// about a second, and no board needs more to be well mixed.
pub const MAX_WALK: usize = 100_000_000;

/// How a board is scrambled away from the goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scramble {
    /// This many random moves from the goal (at most [`MAX_WALK`]), never
    /// undoing the previous move. The board is at most this many moves from
    /// the goal (a walk can loop back closer).
    Walk(usize),
    /// A uniformly random board among all those of the wanted solvability.
    Uniform,
}

/// A board scrambled from `goal`. With `solvable` false, two tiles of the
/// scrambled board are swapped afterwards, which flips its parity and makes
/// it deliberately unsolvable.
pub fn generate(goal: &Goal, scramble: Scramble, solvable: bool, rng: &mut SplitMix64) -> Tiles {
    let mut cells = match scramble {
        Scramble::Walk(moves) => walk(goal, moves.min(MAX_WALK), rng),
        Scramble::Uniform => shuffle(goal.cells(), rng),
    };
    // Swapping two tiles is a bijection between the solvable and the
    // unsolvable half, so fixing a shuffle this way keeps it uniform.
    if goal.parity(&cells).solvable() != solvable {
        swap_two_tiles(&mut cells);
    }
    Tiles::with_shape(goal.shape(), &cells).expect("scrambling keeps a permutation")
}

/// `moves` random slides from the goal with no immediate backtracking.
fn walk(goal: &Goal, moves: usize, rng: &mut SplitMix64) -> Vec<u16> {
    let shape = goal.shape();
    let mut cells = goal.tiles().cells().to_vec();
    let mut blank = goal.tiles().blank();
    let mut previous = usize::MAX;
    let mut options = [0; 4];
    for _ in 0..moves {
        let mut count = 0;
        for (_, to) in shape.neighbours(blank).filter(|&(_, to)| to != previous) {
            options[count] = to;
            count += 1;
        }
        // Every cell has at least two neighbours, so one is always left.
        let to = options[rng.below(count)];
        cells.swap(blank, to);
        previous = blank;
        blank = to;
    }
    cells
}

/// A uniformly random arrangement of `0..cells` (Fisher–Yates).
fn shuffle(cells: usize, rng: &mut SplitMix64) -> Vec<u16> {
    let mut board: Vec<u16> = (0..cells).map(|t| t as u16).collect();
    for i in (1..cells).rev() {
        board.swap(i, rng.below(i + 1));
    }
    board
}

/// Swaps the first two tiles that are not the blank, flipping solvability.
fn swap_two_tiles(cells: &mut [u16]) {
    let mut tiles = (0..cells.len()).filter(|&i| cells[i] != 0);
    let (a, b) = (tiles.next(), tiles.next());
    if let (Some(a), Some(b)) = (a, b) {
        cells.swap(a, b);
    }
}

/// `text` as `#` comment lines, one for each of its lines: it may hold a
/// goal the user typed, and a line break the readers see (a lone CR too)
/// left outside a comment would put its rest in the board.
pub fn comment_lines(text: &str) -> String {
    let mut out = String::new();
    for line in split_lines(text) {
        out.push_str("# ");
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// A puzzle file `solve` reads: `comment` as `#` lines, a size header (`N`
/// for a square, the common format; `WxH` otherwise), then the rows.
pub fn puzzle_text(tiles: &Tiles, comment: &str) -> String {
    let mut text = comment_lines(comment);
    let shape = tiles.shape();
    text.push_str(&if shape.is_square() { shape.width().to_string() } else { shape.to_string() });
    text.push('\n');
    text.push_str(&tiles.display_grid(false));
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{GoalSpec, parse_board};

    #[test]
    fn splitmix64_matches_the_reference_sequence() {
        // First outputs of the reference implementation for seed 0.
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(rng.next_u64(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn below_stays_in_range_and_reaches_every_value() {
        let mut rng = SplitMix64::new(7);
        let mut seen = [false; 5];
        for _ in 0..200 {
            let v = rng.below(5);
            seen[v] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn generated_boards_have_the_requested_solvability() {
        let mut rng = SplitMix64::new(1);
        for width in 2..=5 {
            let goal = Goal::new(&GoalSpec::Snail, width).unwrap();
            for scramble in [Scramble::Walk(30), Scramble::Uniform] {
                for solvable in [true, false] {
                    let board = generate(&goal, scramble, solvable, &mut rng);
                    assert_eq!(goal.parity(board.cells()).solvable(), solvable);
                }
            }
        }
    }

    #[test]
    fn a_zero_move_walk_is_the_goal() {
        let goal = Goal::new(&GoalSpec::BlankLast, 3).unwrap();
        let board = generate(&goal, Scramble::Walk(0), true, &mut SplitMix64::new(3));
        assert_eq!(&board, goal.tiles());
    }

    #[test]
    fn a_one_move_walk_moves_the_blank_one_cell() {
        let goal = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
        let board = generate(&goal, Scramble::Walk(1), true, &mut SplitMix64::new(9));
        assert!(board.blank() == 1 || board.blank() == 3);
    }

    #[test]
    fn puzzle_text_reads_back_as_the_same_board() {
        let goal = Goal::new(&GoalSpec::BlankFirst, 4).unwrap();
        let board = generate(&goal, Scramble::Uniform, true, &mut SplitMix64::new(5));
        let text = puzzle_text(&board, "a comment\nover two lines");
        assert!(text.starts_with("# a comment\n# over two lines\n4\n"));
        assert_eq!(parse_board(&text).unwrap(), board);
        // A goal typed with old-Mac line breaks stays inside the comment.
        let text = puzzle_text(&board, "the goal 1 2 3\r4 5 6\r\n7 8 0");
        assert!(text.starts_with("# the goal 1 2 3\n# 4 5 6\n# 7 8 0\n4\n"), "{text}");
        assert_eq!(parse_board(&text).unwrap(), board);
    }
}
