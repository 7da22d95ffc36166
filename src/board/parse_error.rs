/*!
What can be wrong with a board, and where: [`ParseErrorKind`] says what,
[`ParseError`] adds the input and the line to blame.
*/

use super::{MAX_SIDE, MIN_SIDE, Shape};
use std::fmt;
use thiserror::Error;

/// What is wrong with a board.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseErrorKind {
    /// The input could not be read.
    #[error("cannot read: {0}")]
    Io(String),
    /// More than the reader takes: [`MAX_INPUT_BYTES`](super::MAX_INPUT_BYTES) for a board.
    #[error("input is larger than {0} bytes; not a puzzle")]
    TooLarge(u64),
    /// Ctrl-C came while the input was still being waited for.
    #[error("interrupted before the input was read")]
    Interrupted,
    /// The time allowed ran out while the input was still being waited for.
    #[error("the time allowed ran out before the input was read")]
    TimedOut,
    /// No numbers at all.
    #[error("empty board: no numbers found")]
    Empty,
    /// A token that is not a non-negative integer.
    #[error("'{0}' is not a non-negative integer")]
    BadToken(String),
    /// A number with too many digits to be any tile.
    #[error("{0} is far too large to be a tile")]
    Huge(String),
    /// A header that is no usable size, as typed.
    #[error("header '{0}' is not a board size (N, or WxH, each side {MIN_SIDE} to {MAX_SIDE})")]
    BadHeader(String),
    /// The header and the count of numbers disagree.
    #[error("header says {shape} ({} numbers) but {found} numbers follow", shape.cells())]
    HeaderMismatch {
        /// The shape the header states.
        shape: Shape,
        /// Numbers after the header.
        found: usize,
    },
    /// The size the caller stated and the count of numbers disagree.
    #[error("the given size {shape} needs {} numbers but {found} were found", shape.cells())]
    SizeMismatch {
        /// The stated shape.
        shape: Shape,
        /// Numbers found.
        found: usize,
    },
    /// A stated shape (header or caller) that the rows as laid out contradict.
    #[error(
        "{by} {shape} ({} rows of {}) but the board is laid out as {rows} rows of {row_len}",
        shape.height(),
        shape.width()
    )]
    LayoutMismatch {
        /// Who stated the shape: "the header says" or "the given size is".
        by: &'static str,
        /// The stated shape.
        shape: Shape,
        /// Rows as laid out.
        rows: usize,
        /// Numbers in each of them.
        row_len: usize,
    },
    /// A board with no shape of its own whose count is not a square.
    #[error(
        "{} not a square board: lay the board out in rows of equal length, or give its size (WxH)",
        count_numbers(*.0)
    )]
    NotSquare(usize),
    /// Rows of different lengths, with no header or stated size to give
    /// the shape.
    #[error(
        "rows of {0} numbers are not a rectangle: lay the board out in rows of equal length, or give its size (WxH)"
    )]
    Ragged(
        /// The rows' lengths, as text ("3, 3 and 2").
        String,
    ),
    /// A line of a list that holds neither a board nor an id, a length and
    /// a board.
    #[error(
        "{count} numbers are no board of a list: a line holds {}",
        match size {
            Some(s) => format!("the {} tiles of a {s} board (or an id, the length and the board)", s.cells()),
            None => "N² tiles (or an id, the length and the board); for WxH boards give --size WxH, or a line \
                     `# size: WxH` above them".to_owned(),
        }
    )]
    ListLine {
        /// Numbers on the line.
        count: usize,
        /// The size the boards were stated to have.
        size: Option<Shape>,
    },
    /// A list's `# size:` line that holds no board size; the boards after
    /// it are not read.
    #[error(
        "'# size: {text}' on line {line} is not a board size (N, or WxH, each side {MIN_SIDE} to {MAX_SIDE})"
    )]
    BadSizeLine {
        /// The line of the list.
        line: usize,
        /// What it holds after `size:`, as typed.
        text: String,
    },
    /// A list's `# size:` line that the size the caller gives contradicts;
    /// the boards after it are not read.
    #[error("line {line} says the boards after it are {stated} but the given size is {given}")]
    SizeLineMismatch {
        /// The line of the list.
        line: usize,
        /// The shape it states.
        stated: Shape,
        /// The shape the caller gives.
        given: Shape,
    },
    /// A side outside [`MIN_SIDE`]..=[`MAX_SIDE`].
    #[error("a {0} board is not supported (each side {MIN_SIDE} to {MAX_SIDE})")]
    BadSize(Shape),
    /// A tile outside `0..cells`.
    #[error("tile {tile} is out of range (0 to {max})")]
    OutOfRange {
        /// The offending value.
        tile: u64,
        /// Largest allowed tile, cells − 1.
        max: usize,
    },
    /// A tile given twice.
    #[error("tile {tile} appears twice{}", first_line.map(|l| format!(" (first on line {l})")).unwrap_or_default())]
    Duplicate {
        /// The repeated tile.
        tile: u64,
        /// Line of its first appearance, when read from text.
        first_line: Option<usize>,
    },
    /// A tile not given at all.
    #[error("tile {0} is missing")]
    Missing(usize),
}

fn count_numbers(n: usize) -> String {
    if n == 1 { "1 number is".to_owned() } else { format!("{n} numbers are") }
}

/// A board that could not be read, with where it came from.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub struct ParseError {
    /// File name, `<argument>` or `<stdin>`.
    pub origin: String,
    /// 1-based line of the problem, where one line is to blame.
    pub line: Option<usize>,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{}: {}", self.origin, line, self.kind),
            None => write!(f, "{}: {}", self.origin, self.kind),
        }
    }
}
