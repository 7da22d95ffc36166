/*!
Playing a path: every board from start to finish, for checking an answer
and showing it. It needs nothing but the board's shape, so it works at any
size, far past what the search encodings hold.
*/

use super::{Move, Shape};

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replay_rejects_a_move_off_the_board() {
        assert_eq!(replay(&[0, 1, 2, 3], 2, &[Move::Down, Move::Down]), Err(1));
        let boards = replay(&[0, 1, 2, 3], 2, &[Move::Right]).unwrap();
        assert_eq!(boards.last().unwrap(), &vec![1, 0, 2, 3]);
    }
}
