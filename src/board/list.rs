/*!
Instance lists: many boards in one file, one per line, the way benchmark
sets are distributed (Korf's 100 15-puzzles, Korf and Felner's 50
24-puzzles) and the way other tools write them.

A line is either a board, `t0 t1 … tN` (whitespace or commas between the
tiles, row-major, 0 the blank), or Korf and Felner's format `id length t0
… tN`: an identifier, the optimal solution length, then the board. The
count of numbers tells them apart: a board has N² of them (or the W·H of a
stated size) and the other format two more, and no two squares differ by
two. Blank lines and `#` comments are skipped. Each line stands alone: a
bad one is reported with its line number and does not stop the rest.
*/

use super::parse::{ParseErrorKind, Tiles, number, split_lines};
use super::{MIN_SIDE, Shape};
use std::fmt::Write as _;

/// Lists larger than this are refused rather than read into memory: 64 MiB
/// is three million 8-puzzles or 750,000 15-puzzles, each held as a board
/// until its turn comes.
pub const MAX_LIST_BYTES: u64 = 64 << 20;

/// One puzzle of a list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// 1-based line of the file.
    pub line: usize,
    /// The identifier the line gives, as written.
    pub id: Option<String>,
    /// The optimal solution length the line gives.
    pub expected: Option<u32>,
    /// The board, or what is wrong with the line.
    pub board: Result<Tiles, ParseErrorKind>,
}

/// Reads every puzzle of a list; `size` is the shape of boards that are not
/// square (each line's count must then match it).
pub fn parse_list(text: &str, size: Option<Shape>) -> Vec<Entry> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // One buffer for every line's numbers: lists hold thousands of lines.
    let mut numbers = Vec::new();
    split_lines(text)
        .enumerate()
        .filter_map(|(index, raw)| {
            let content = raw.split('#').next().unwrap_or("");
            let mut tokens =
                content.split(|c: char| c == ',' || c.is_whitespace()).filter(|t| !t.is_empty()).peekable();
            tokens.peek()?;
            Some(entry(index + 1, tokens, size, &mut numbers))
        })
        .collect()
}

fn entry<'t>(
    line: usize,
    tokens: impl Iterator<Item = &'t str>,
    size: Option<Shape>,
    numbers: &mut Vec<u64>,
) -> Entry {
    let mut entry = Entry { line, id: None, expected: None, board: Err(ParseErrorKind::Empty) };
    // The first two tokens, kept for an id and a length.
    let mut head = [""; 2];
    numbers.clear();
    for (i, token) in tokens.enumerate() {
        if let Some(slot) = head.get_mut(i) {
            *slot = token;
        }
        match number(token) {
            Ok(n) => numbers.push(n),
            Err(kind) => {
                entry.board = Err(kind);
                return entry;
            }
        }
    }
    let count = numbers.len();
    let board_cells = |n: usize| {
        if let Some(shape) = size {
            return (shape.cells() == n).then_some(shape);
        }
        let side = n.isqrt();
        (side * side == n && side >= MIN_SIDE).then_some(Shape::square(side))
    };
    let (shape, tiles) = if let Some(shape) = board_cells(count) {
        (shape, &numbers[..])
    } else if let Some(shape) = count.checked_sub(2).and_then(board_cells) {
        entry.id = Some(head[0].to_owned());
        let Ok(length) = u32::try_from(numbers[1]) else {
            entry.board = Err(ParseErrorKind::Huge(head[1].to_owned()));
            return entry;
        };
        entry.expected = Some(length);
        (shape, &numbers[2..])
    } else {
        entry.board = Err(ParseErrorKind::ListLine { count, size });
        return entry;
    };
    entry.board = Tiles::from_numbers(shape, tiles);
    entry
}

/// A list line: `id length tiles…` when the optimal length is known, else
/// the tiles alone.
pub fn list_line(tiles: &Tiles, id: u64, length: Option<u32>) -> String {
    let mut line = String::new();
    if let Some(length) = length {
        // Writing to a String cannot fail.
        let _ = write!(line, "{id} {length} ");
    }
    for (i, t) in tiles.cells().iter().enumerate() {
        if i > 0 {
            line.push(' ');
        }
        let _ = write!(line, "{t}");
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_boards_or_an_id_a_length_and_a_board_and_bad_lines_stand_alone() {
        let text = "# Korf's first instance, then an 8-puzzle and two bad lines\n\
                    1 57 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3\n\
                    \n\
                    1,2,5,3,4,0,6,7,8\n\
                    1 2 3 x\n\
                    1 2 3 4 5\r\
                    0 1 2 3  # a 2x2\n";
        let entries = parse_list(text, None);
        assert_eq!(entries.len(), 5);
        assert_eq!(
            (entries[0].line, entries[0].id.as_deref(), entries[0].expected),
            (2, Some("1"), Some(57))
        );
        assert_eq!(entries[0].board.as_ref().unwrap().shape(), Shape::square(4));
        assert_eq!((entries[1].line, entries[1].id.as_ref()), (4, None));
        assert_eq!(entries[1].board.as_ref().unwrap().cells(), [1, 2, 5, 3, 4, 0, 6, 7, 8]);
        assert_eq!(entries[2].board, Err(ParseErrorKind::BadToken("x".into())));
        assert_eq!(entries[3].board, Err(ParseErrorKind::ListLine { count: 5, size: None }));
        assert_eq!((entries[4].line, entries[4].board.as_ref().map(Tiles::width)), (7, Ok(2)));
    }

    #[test]
    fn a_stated_size_reads_rectangles_and_written_lines_read_back() {
        let shape = Shape::new(3, 2);
        let entries = parse_list("1 2 3 4 5 0\n7 4 1 2 3 4 0 5\n1 2 3 4\n", Some(shape));
        assert_eq!(entries[0].board.as_ref().unwrap().shape(), shape);
        assert_eq!((entries[1].id.as_deref(), entries[1].expected), (Some("7"), Some(4)));
        assert_eq!(entries[2].board, Err(ParseErrorKind::ListLine { count: 4, size: Some(shape) }));
        let tiles = entries[0].board.clone().unwrap();
        assert_eq!(list_line(&tiles, 3, Some(1)), "3 1 1 2 3 4 5 0");
        let back = parse_list(&list_line(&tiles, 3, Some(1)), Some(shape));
        assert_eq!((back[0].expected, back[0].board.as_ref()), (Some(1), Ok(&tiles)));
        assert_eq!(list_line(&tiles, 3, None), "1 2 3 4 5 0");
    }
}
