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

A line `# size: WxH` (or `# size: N`) states the shape of the boards on the
lines after it, up to the next such line, so that a list of rectangles
describes itself (`generate --list` writes one; to other readers it is a
comment). A size the caller states must agree with it: the boards under a
`# size:` line that contradicts it, or that holds no size, are errors,
never read with a guessed shape.
*/

use super::parse::{number, shown, split_lines};
use super::{MIN_SIDE, Shape};
use super::{ParseErrorKind, Tiles, parse_shape, supported};
use std::fmt::Write as _;
use std::io::{self, BufRead, Read};

/// What a comment line starts with to state the shape of the boards after
/// it; `stated_optimum`'s `optimal:` is its sibling in puzzle files.
const SIZE_LINE: &str = "size:";

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
/// square (each line's count must then match it), as is that of a
/// `# size:` line, which must agree with `size`.
pub fn parse_list(text: &str, size: Option<Shape>) -> Vec<Entry> {
    ListReader::new(text.as_bytes(), size)
        .map(|entry| entry.expect("reading from memory cannot fail"))
        .collect()
}

/// The longest line a list may have: far longer than any board's (a
/// 256×256 board takes under 400 KB), short enough that a list that is no
/// list cannot fill memory.
pub const MAX_LIST_LINE: usize = 1 << 20;

/// The puzzles of a list read one line at a time, as [`parse_list`] reads
/// them, in memory bounded by the longest line: a list of millions of
/// boards streams from a file or a pipe.
#[derive(Debug)]
pub struct ListReader<R> {
    reader: R,
    size: Option<Shape>,
    /// The shape the next boards are read with, or why they cannot be.
    shape: Result<Option<Shape>, ParseErrorKind>,
    /// Lines read so far.
    line: usize,
    /// The bytes up to the next line feed, and the lines still in them
    /// (an old Mac file ends its lines with carriage returns only).
    chunk: Vec<u8>,
    pieces: std::collections::VecDeque<String>,
    /// One buffer for every line's numbers.
    numbers: Vec<u64>,
    done: bool,
}

impl<R: BufRead> ListReader<R> {
    /// A reader of the list `reader` holds; `size` as for [`parse_list`].
    pub fn new(reader: R, size: Option<Shape>) -> ListReader<R> {
        ListReader {
            reader,
            size,
            shape: Ok(size),
            line: 0,
            chunk: Vec::new(),
            pieces: std::collections::VecDeque::new(),
            numbers: Vec::new(),
            done: false,
        }
    }

    /// The next line of text, or an entry saying it was too long.
    fn next_line(&mut self) -> Option<io::Result<Result<String, Entry>>> {
        loop {
            if let Some(piece) = self.pieces.pop_front() {
                self.line += 1;
                return Some(Ok(Ok(piece)));
            }
            if self.done {
                return None;
            }
            self.chunk.clear();
            let limit = MAX_LIST_LINE as u64 + 1;
            match (&mut self.reader).take(limit).read_until(b'\n', &mut self.chunk) {
                Err(e) => return Some(Err(e)),
                Ok(0) => {
                    self.done = true;
                    continue;
                }
                Ok(_) => {}
            }
            if self.chunk.len() as u64 >= limit && self.chunk.last() != Some(&b'\n') {
                // Skip the rest of the line: one entry says what is wrong.
                let mut rest = Vec::new();
                loop {
                    rest.clear();
                    match (&mut self.reader).take(limit).read_until(b'\n', &mut rest) {
                        Ok(0) => break,
                        Ok(_) if rest.last() == Some(&b'\n') => break,
                        Ok(_) => {}
                        Err(e) => return Some(Err(e)),
                    }
                }
                self.line += 1;
                let kind = ParseErrorKind::TooLarge(MAX_LIST_LINE as u64);
                return Some(Ok(Err(Entry { line: self.line, id: None, expected: None, board: Err(kind) })));
            }
            let mut bytes = &self.chunk[..];
            if self.line == 0 && self.pieces.is_empty() {
                // Editors on some systems start UTF-8 files with a byte-order mark.
                bytes = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(bytes);
            }
            let text = String::from_utf8_lossy(bytes);
            let text = text.strip_suffix('\n').unwrap_or(&text);
            self.pieces.extend(split_lines(text).map(str::to_owned));
        }
    }
}

impl<R: BufRead> Iterator for ListReader<R> {
    type Item = io::Result<Entry>;

    fn next(&mut self) -> Option<io::Result<Entry>> {
        loop {
            let raw = match self.next_line()? {
                Err(e) => return Some(Err(e)),
                Ok(Err(too_long)) => return Some(Ok(too_long)),
                Ok(Ok(raw)) => raw,
            };
            let line = self.line;
            let (content, comment) = raw.split_once('#').unwrap_or((&raw, ""));
            let mut tokens =
                content.split(|c: char| c == ',' || c.is_whitespace()).filter(|t| !t.is_empty()).peekable();
            if tokens.peek().is_none() {
                if let Some(stated) = comment.trim().strip_prefix(SIZE_LINE) {
                    self.shape = stated_shape(line, stated.trim(), self.size);
                }
                continue;
            }
            return Some(Ok(match &self.shape {
                Ok(shape) => entry(line, tokens, *shape, &mut self.numbers),
                Err(kind) => Entry { line, id: None, expected: None, board: Err(kind.clone()) },
            }));
        }
    }
}

/// The shape a `# size:` line on `line` states, checked against the one
/// the caller gives.
fn stated_shape(line: usize, text: &str, given: Option<Shape>) -> Result<Option<Shape>, ParseErrorKind> {
    let stated = parse_shape(text)
        .filter(|s| supported(*s))
        .ok_or_else(|| ParseErrorKind::BadSizeLine { line, text: shown(text) })?;
    match given {
        Some(given) if given != stated => Err(ParseErrorKind::SizeLineMismatch { line, stated, given }),
        _ => Ok(Some(stated)),
    }
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

/// The line stating the shape of the boards after it, `# size: WxH`:
/// `generate --list` heads every list with it, so that lists of rectangles
/// read back without `--size`.
pub fn size_line(shape: Shape) -> String {
    format!("# {SIZE_LINE} {shape}")
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

    #[test]
    fn a_size_line_shapes_the_boards_after_it_until_the_next_one() {
        let text = "# size: 2x3\n1 2 3 4 5 0\n7 4 1 2 3 4 0 5\n# size: 3\n1 2 5 3 4 0 6 7 8\n";
        let entries = parse_list(text, None);
        let shapes: Vec<Shape> = entries.iter().map(|e| e.board.as_ref().unwrap().shape()).collect();
        assert_eq!(shapes, [Shape::new(2, 3), Shape::new(2, 3), Shape::square(3)]);
        assert_eq!((entries[1].line, entries[1].id.as_deref(), entries[1].expected), (3, Some("7"), Some(4)));
        // Without one, six numbers are still an id, a length and a 2x2 board.
        let korf = parse_list("7 4 1 2 0 3\n", None);
        assert_eq!(
            (korf[0].id.as_deref(), korf[0].board.as_ref().map(Tiles::shape)),
            (Some("7"), Ok(Shape::square(2)))
        );
        // A size line agreeing with the caller's is no conflict; after tiles
        // on the same line, `# size:` is only a comment.
        assert!(parse_list(text, Some(Shape::new(2, 3)))[..2].iter().all(|e| e.board.is_ok()));
        assert_eq!(parse_list("1 2 3 0 # size: 3x3\n", None)[0].board.as_ref().map(Tiles::width), Ok(2));
    }

    #[test]
    fn boards_under_a_size_line_that_is_no_size_or_contradicts_the_callers_are_errors() {
        let bad = parse_list("# size: 2y3\n1 2 3 4 5 0\n# size: 2x2\n1 2 3 0\n", None);
        assert_eq!(bad[0].board, Err(ParseErrorKind::BadSizeLine { line: 1, text: "2y3".into() }));
        assert!(bad[1].board.is_ok(), "the next size line reads boards again");
        let conflict = parse_list("# size: 2x3\n1 2 3 4 5 0\n0 1 2 3 4 5\n", Some(Shape::new(3, 2)));
        let expected =
            ParseErrorKind::SizeLineMismatch { line: 1, stated: Shape::new(2, 3), given: Shape::new(3, 2) };
        assert!(conflict.iter().all(|e| e.board == Err(expected.clone())), "{conflict:?}");
        assert_eq!(expected.to_string(), "line 1 says the boards after it are 2x3 but the given size is 3x2");
    }

    #[test]
    fn a_line_that_fits_no_square_suggests_giving_the_size() {
        let entries = parse_list("1 2 3 4 5 6 7 8 9 10 11 0\n", None);
        let message = entries[0].board.as_ref().unwrap_err().to_string();
        assert!(message.starts_with("12 numbers are no board of a list"), "{message}");
        assert!(message.contains("--size WxH") && message.contains("# size: WxH"), "{message}");
    }

    #[test]
    fn a_list_headed_by_its_size_line_reads_back_without_a_size() {
        let tiles = Tiles::with_shape(Shape::new(2, 5), &[1, 2, 3, 4, 5, 6, 7, 8, 9, 0]).unwrap();
        let text = format!(
            "{}\n{}\n{}\n",
            size_line(tiles.shape()),
            list_line(&tiles, 1, Some(0)),
            list_line(&tiles, 2, None)
        );
        assert!(text.starts_with("# size: 2x5\n"), "{text}");
        let back = parse_list(&text, None);
        assert_eq!((back[0].expected, back[0].board.as_ref()), (Some(0), Ok(&tiles)));
        assert_eq!((back[1].expected, back[1].board.as_ref()), (None, Ok(&tiles)));
    }

    #[test]
    fn a_streamed_list_reads_as_the_whole_text_does_and_a_huge_line_is_one_bad_entry() {
        let text = "\u{feff}# size: 3x2\r1 2 3 4 5 0\r\n\n0 1 2 3 4 5\r# size: 3\n1,2,5,3,4,0,6,7,8\n9 31 8 0 6 5 4 7 2 3 1";
        // One byte at a time: lines and line breaks split across reads.
        let reader = std::io::BufReader::with_capacity(1, text.as_bytes());
        let streamed: Vec<Entry> = ListReader::new(reader, None).map(Result::unwrap).collect();
        assert_eq!(streamed, parse_list(text, None));
        assert_eq!(streamed.len(), 4);
        let mut huge = "1 ".repeat(MAX_LIST_LINE);
        huge.push_str("\n1 2 5 3 4 0 6 7 8\n");
        let entries: Vec<Entry> = ListReader::new(huge.as_bytes(), None).map(Result::unwrap).collect();
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].board, Err(ParseErrorKind::TooLarge(MAX_LIST_LINE as u64)));
        assert_eq!((entries[1].line, entries[1].board.is_ok()), (2, true));
    }
}
