/*!
A move, named by the direction the blank travels, and its compact codes.
*/

use std::fmt;

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

    /// `'U'`, `'D'`, `'L'` or `'R'`: a path as one word, as CSV rows carry it.
    pub const fn letter(self) -> char {
        match self {
            Move::Up => 'U',
            Move::Down => 'D',
            Move::Left => 'L',
            Move::Right => 'R',
        }
    }

    /// The move a [`Move::letter`] stands for.
    pub const fn from_letter(letter: char) -> Option<Move> {
        match letter {
            'U' => Some(Move::Up),
            'D' => Some(Move::Down),
            'L' => Some(Move::Left),
            'R' => Some(Move::Right),
            _ => None,
        }
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
}
