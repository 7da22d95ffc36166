/*!
The last two tiles of a line: the far one at its cell, the other anywhere
in the 3×3 window at the line's end, and a breadth-first search over where
those two tiles and the blank are inside that window places both.
*/

use crate::board::{Move, Shape};
use crate::search::shorten::NONE_LOCAL;

/// Cells of the window at a line's end: 3 deep by 3 along, less the placed
/// cell in the line (or 3 by 2 for a line of two).
pub(super) const WINDOW_CELLS: usize = 9;
/// The parent of a window state not reached yet.
const UNREACHED: u16 = u16::MAX;
/// Arrangements of two tiles and the blank in a window, as indexed.
pub(super) const WINDOW_STATES: usize = WINDOW_CELLS * WINDOW_CELLS * WINDOW_CELLS;

/// The fewest moves, inside `window`, that take the two tiles and the blank
/// at `from` (cells: first tile, second tile, blank) to the first tile at
/// `to[0]` and the second at `to[1]`, the blank anywhere; written to
/// `moves`, their count returned. `None` if no arrangement reachable in the
/// window has them there.
pub(super) fn solve_window(
    shape: Shape,
    window: &[usize],
    from: [usize; 3],
    to: [usize; 2],
    moves: &mut [Move; WINDOW_STATES],
) -> Option<usize> {
    debug_assert!(window.len() <= WINDOW_CELLS);
    let local = |cell: usize| window.iter().position(|&c| c == cell);
    // Neighbours inside the window by move index.
    let mut next = [[NONE_LOCAL; 4]; WINDOW_CELLS];
    for (i, &cell) in window.iter().enumerate() {
        for (mv, to) in shape.neighbours(cell) {
            if let Some(j) = local(to) {
                next[i][mv.index()] = j as u8;
            }
        }
    }
    let [first, second, hole] = from.map(|c| local(c).expect("the tiles and the blank are in the window"));
    let goal = to.map(|c| local(c).expect("the goal cells are in the window"));
    let index = |tiles: [usize; 2], hole: usize| (tiles[0] * WINDOW_CELLS + tiles[1]) * WINDOW_CELLS + hole;
    let mut parent = [UNREACHED; WINDOW_STATES];
    let mut via = [0u8; WINDOW_STATES];
    let mut queue = [0u16; WINDOW_STATES];
    let (mut head, mut tail) = (0, 1);
    let source = index([first, second], hole);
    queue[0] = source as u16;
    parent[source] = source as u16;
    while head < tail {
        let state = usize::from(queue[head]);
        head += 1;
        let tiles = [state / (WINDOW_CELLS * WINDOW_CELLS), state / WINDOW_CELLS % WINDOW_CELLS];
        let hole = state % WINDOW_CELLS;
        if tiles == goal {
            // Unwind the parents into `moves`.
            let mut count = 0;
            let mut back = state;
            while back != source {
                moves[count] = Move::from_index(usize::from(via[back]));
                count += 1;
                back = usize::from(parent[back]);
            }
            moves[..count].reverse();
            return Some(count);
        }
        for (m, &to) in next[hole].iter().enumerate() {
            if to == NONE_LOCAL {
                continue;
            }
            let to = usize::from(to);
            // The tile in the cell the blank enters takes the blank's place.
            let child = index(tiles.map(|t| if t == to { hole } else { t }), to);
            if parent[child] == UNREACHED {
                parent[child] = state as u16;
                via[child] = m as u8;
                queue[tail] = child as u16;
                tail += 1;
            }
        }
    }
    None
}
