/*!
Reading boards: files, inline arguments and standard input.

Numbers are separated by whitespace and/or commas, `#` starts a comment, and
lines end in LF, CRLF or a lone CR. The board's shape comes from the first
of these that applies:

1. a header line: `N` for N×N, or `WxH` for W columns by H rows;
2. the rows as laid out: two or more lines of the same length, two or more
   numbers each;
3. a shape the caller states (the command line's `--size`);
4. a square count, for a board on one line or one number per line.

A header or stated shape that the rows contradict is an error, as is a
count that fits no rule, and so are rows of unequal length when neither a
header nor the caller gives the shape: the message says what was seen,
never a guess. Once the shape is given, line breaks are free (rows of
unequal length state no shape to contradict it): only the count must fit.
Every error names where the board came from and, where it helps, the line.
*/

use super::parse_error::{ParseError, ParseErrorKind};
use super::read::{Input, MAX_INPUT_BYTES, Patience, read_text_until};
use super::tiles::{Tiles, validate};
use super::{MIN_SIDE, Shape, parse_shape, supported};
use std::str::FromStr;

/// Reads and validates the board behind `input`, which gives its own shape.
///
/// # Errors
/// A [`ParseError`] naming the input (and line) for unreadable or malformed boards.
pub fn read_input(input: &Input) -> Result<Tiles, ParseError> {
    read_input_with(input, None)
}

/// [`read_input`] with the shape the caller states for a board that does
/// not give one itself (see the module documentation).
///
/// # Errors
/// A [`ParseError`] naming the input (and line) for unreadable or malformed boards.
pub fn read_input_with(input: &Input, size: Option<Shape>) -> Result<Tiles, ParseError> {
    read_input_until(input, size, Patience::default())
}

/// [`read_input_with`], a read that may block (a FIFO, standard input)
/// giving up as `patience` says.
///
/// # Errors
/// As [`read_input_with`]; the kind is [`ParseErrorKind::Interrupted`] or
/// [`ParseErrorKind::TimedOut`] when the input never came in time.
pub fn read_input_until(
    input: &Input,
    size: Option<Shape>,
    patience: Patience<'_>,
) -> Result<Tiles, ParseError> {
    let origin = input.origin();
    let text = read_text_until(input, MAX_INPUT_BYTES, patience).map_err(|kind| ParseError {
        origin: origin.clone(),
        line: None,
        kind,
    })?;
    parse_board_with(&text, size).map_err(|(line, kind)| ParseError { origin, line, kind })
}

impl FromStr for Tiles {
    type Err = ParseError;

    /// A board written as a puzzle file holds it (see the module
    /// documentation); errors name the input `<text>`.
    fn from_str(text: &str) -> Result<Tiles, ParseError> {
        parse_board(text).map_err(|(line, kind)| ParseError { origin: "<text>".to_owned(), line, kind })
    }
}

/// Parses board text whose shape it gives itself (header, rows, or a square
/// count). On error, returns the 1-based line to blame, if any.
///
/// # Errors
/// The line (where one is to blame) and what is wrong.
pub fn parse_board(text: &str) -> Result<Tiles, (Option<usize>, ParseErrorKind)> {
    parse_board_with(text, None)
}

/// [`parse_board`] with the shape the caller states for a board that does
/// not give one itself (and that must agree with one it does give).
///
/// # Errors
/// The line (where one is to blame) and what is wrong.
pub fn parse_board_with(text: &str, size: Option<Shape>) -> Result<Tiles, (Option<usize>, ParseErrorKind)> {
    // Editors on some systems start UTF-8 files with a byte-order mark.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines: Vec<(usize, Vec<u64>)> = Vec::new();
    let mut header: Option<(usize, Shape)> = None;
    for (index, raw) in split_lines(text).enumerate() {
        let content = raw.split('#').next().unwrap_or("");
        let mut tokens = content.split(|c: char| c == ',' || c.is_whitespace()).filter(|t| !t.is_empty());
        let Some(first) = tokens.clone().next() else { continue };
        // `WxH` alone on the first line that holds anything is a header.
        if lines.is_empty() && header.is_none() && tokens.clone().nth(1).is_none() && is_shape_token(first) {
            let shape = parse_shape(first)
                .filter(|s| supported(*s))
                .ok_or_else(|| (Some(index + 1), ParseErrorKind::BadHeader(shown(first))))?;
            header = Some((index + 1, shape));
            continue;
        }
        let mut numbers = Vec::new();
        for token in tokens.by_ref() {
            numbers.push(number(token).map_err(|kind| (Some(index + 1), kind))?);
        }
        lines.push((index + 1, numbers));
    }
    let mut values: Vec<(u64, usize)> =
        lines.iter().flat_map(|(line, nums)| nums.iter().map(move |&n| (n, *line))).collect();
    let mut rows: &[(usize, Vec<u64>)] = &lines;
    // A first line holding one number is the `N` header when rows follow it
    // or exactly N² numbers do; otherwise it is part of a board written one
    // number per line.
    if header.is_none()
        && let [(header_line, first), rest @ ..] = lines.as_slice()
        && first.len() == 1
    {
        let side = first[0];
        let following = values.len() - 1;
        let rows_follow = rest.first().is_some_and(|(_, nums)| nums.len() > 1);
        let exact = following > 0 && u128::from(side) * u128::from(side) == following as u128;
        if exact || rows_follow {
            let shape = usize::try_from(side).ok().map(Shape::square).filter(|s| supported(*s));
            let shape = shape.ok_or((Some(*header_line), ParseErrorKind::BadHeader(side.to_string())))?;
            header = Some((*header_line, shape));
            values.remove(0);
            rows = rest;
        }
    }
    let shape = shape_of(header, size, rows, values.len())?;
    validate(shape, &values).map_err(|kind| {
        let line = match &kind {
            ParseErrorKind::OutOfRange { tile, .. } | ParseErrorKind::Duplicate { tile, .. } => values
                .iter()
                .filter(|(v, _)| v == tile)
                .nth(usize::from(matches!(kind, ParseErrorKind::Duplicate { .. })))
                .map(|&(_, line)| line),
            _ => None,
        };
        (line, kind)
    })
}

/// The optimal solution length a board's text states in a `# optimal: N`
/// comment (how the puzzles shipped here record their ground truth), so
/// `batch` can check a solver against it.
pub fn stated_optimum(text: &str) -> Option<u32> {
    split_lines(text).find_map(|line| {
        let comment = line.split_once('#')?.1.trim();
        comment.strip_prefix("optimal:")?.trim().parse().ok()
    })
}

/// The lines of user text, ended by LF, CRLF or a lone CR (old Mac files):
/// the one place that says what a line break is, so that boards, lists,
/// `# optimal:` comments and `batch`'s look at unnamed files never disagree
/// on where a `#` comment ends.
pub(crate) fn split_lines(text: &str) -> impl Iterator<Item = &str> {
    text.split('\n').flat_map(|line| line.strip_suffix('\r').unwrap_or(line).split('\r'))
}

/// A token as a non-negative integer, or what is wrong with it.
pub(crate) fn number(token: &str) -> Result<u64, ParseErrorKind> {
    if !token.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseErrorKind::BadToken(shown(token)));
    }
    token.parse::<u64>().map_err(|_| {
        let shown = if token.len() > 24 { format!("{}…", &token[..24]) } else { token.to_owned() };
        ParseErrorKind::Huge(shown)
    })
}

/// A token as error messages show it: at most 20 characters, escaped.
pub(crate) fn shown(token: &str) -> String {
    token.chars().take(20).collect::<String>().escape_debug().to_string()
}

/// Whether a token has the form of `WxH`, so that a malformed size is
/// reported as a header rather than a bad number.
fn is_shape_token(token: &str) -> bool {
    token.contains(['x', 'X', '×']) && token.starts_with(|c: char| c.is_ascii_digit())
}

/// The board's shape, by the rules of the module documentation. `rows` are
/// the lines after any header.
fn shape_of(
    header: Option<(usize, Shape)>,
    size: Option<Shape>,
    rows: &[(usize, Vec<u64>)],
    count: usize,
) -> Result<Shape, (Option<usize>, ParseErrorKind)> {
    if count == 0 {
        return Err((None, ParseErrorKind::Empty));
    }
    let row_len = rows[0].1.len();
    let laid_out = rows.len() >= 2 && row_len >= 2 && rows.iter().all(|(_, r)| r.len() == row_len);
    let layout = laid_out.then(|| Shape::new(row_len, rows.len()));
    let contradicts =
        |by, shape: Shape| ParseErrorKind::LayoutMismatch { by, shape, rows: rows.len(), row_len };
    // A stated shape must agree with the caller's and with the layout.
    for (by, stated, line) in
        [("the header says", header.map(|h| h.1), header.map(|h| h.0)), ("the given size is", size, None)]
    {
        let Some(stated) = stated else { continue };
        if let Some(layout) = layout
            && layout != stated
        {
            return Err((line, contradicts(by, stated)));
        }
        if stated.cells() != count {
            let kind = if line.is_some() {
                ParseErrorKind::HeaderMismatch { shape: stated, found: count }
            } else {
                ParseErrorKind::SizeMismatch { shape: stated, found: count }
            };
            return Err((line, kind));
        }
    }
    if let (Some((line, header)), Some(size)) = (header, size)
        && header != size
    {
        return Err((Some(line), contradicts("the header says", header)));
    }
    if let Some(shape) = header.map(|h| h.1).or(layout).or(size) {
        return Ok(shape);
    }
    // Lines of unequal length (not one number each): whatever the count,
    // reading them as a square would be a guess.
    if rows.len() > 1 && rows.iter().any(|(_, r)| r.len() > 1) {
        return Err((None, ParseErrorKind::Ragged(lengths(rows))));
    }
    let side = count.isqrt();
    if side * side == count && side >= MIN_SIDE {
        return Ok(Shape::square(side));
    }
    Err((None, ParseErrorKind::NotSquare(count)))
}

/// "3, 3 and 2": the lengths of some rows, for an error message.
fn lengths(rows: &[(usize, Vec<u64>)]) -> String {
    let mut all: Vec<String> = rows.iter().take(6).map(|(_, r)| r.len().to_string()).collect();
    if rows.len() > 6 {
        all.push("…".to_owned());
    }
    match all.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => all.concat(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(text: &str) -> Vec<u16> {
        parse_board(text).unwrap().cells().to_vec()
    }

    fn shape(text: &str) -> Shape {
        parse_board(text).unwrap().shape()
    }

    fn kind(text: &str) -> (Option<usize>, ParseErrorKind) {
        parse_board(text).unwrap_err()
    }

    #[test]
    fn accepts_commas_spaces_comments_and_free_line_breaks() {
        let expected: Vec<u16> = vec![1, 2, 5, 3, 4, 0, 6, 7, 8];
        assert_eq!(cells("1,2,5,3,4,0,6,7,8"), expected);
        assert_eq!(cells("1 2 5\n3 4 0 # row two\n6 7 8\n"), expected);
        // Line breaks are free once a header gives the size.
        assert_eq!(cells("# a comment\n3\n1, 2,\n5 3\n4\n0 6 7 8"), expected);
    }

    #[test]
    fn a_single_number_first_line_is_the_width_header() {
        assert_eq!(cells("3\n1 2 5\n3 4 0\n6 7 8"), vec![1, 2, 5, 3, 4, 0, 6, 7, 8]);
        // One number per line is not mistaken for a header.
        assert_eq!(cells("3\n1\n2\n0"), vec![3, 1, 2, 0]);
    }

    #[test]
    fn rows_as_laid_out_give_a_rectangle_its_shape() {
        assert_eq!(shape("1 2 3\n4 5 0"), Shape::new(3, 2));
        assert_eq!(shape("1 2\n3 4\n5 0"), Shape::new(2, 3));
        // Sixteen numbers in two rows are an 8x2 board, not a 4x4 one.
        assert_eq!(shape("0 1 2 3 4 5 6 7\n8 9 10 11 12 13 14 15"), Shape::new(8, 2));
    }

    #[test]
    fn a_wxh_header_states_a_rectangle_and_the_rows_must_agree() {
        assert_eq!(shape("3x2\n1 2 3\n4 5 0"), Shape::new(3, 2));
        assert_eq!(shape("# a comment\n3X2\n1,2,3,4,5,0"), Shape::new(3, 2));
        assert_eq!(shape("2×3\n1 2 3 4 5 0"), Shape::new(2, 3));
        assert_eq!(
            kind("2x3\n1 2 3\n4 5 0"),
            (
                Some(1),
                ParseErrorKind::LayoutMismatch {
                    by: "the header says",
                    shape: Shape::new(2, 3),
                    rows: 2,
                    row_len: 3
                }
            )
        );
        assert_eq!(
            kind("3x3\n1 2 3 4 5 0"),
            (Some(1), ParseErrorKind::HeaderMismatch { shape: Shape::new(3, 3), found: 6 })
        );
        assert_eq!(kind("3x1\n1 2 0"), (Some(1), ParseErrorKind::BadHeader("3x1".into())));
        assert_eq!(kind("3xy\n1 2 0"), (Some(1), ParseErrorKind::BadHeader("3xy".into())));
    }

    #[test]
    fn a_stated_size_shapes_boards_that_give_none_and_must_agree_with_those_that_do() {
        let sized = |text, w, h| parse_board_with(text, Some(Shape::new(w, h)));
        assert_eq!(sized("1,2,3,4,5,0", 3, 2).unwrap().shape(), Shape::new(3, 2));
        assert_eq!(sized("1\n2\n3\n4\n5\n0", 2, 3).unwrap().shape(), Shape::new(2, 3));
        assert_eq!(
            sized("1,2,3,4,5,0", 3, 3).unwrap_err(),
            (None, ParseErrorKind::SizeMismatch { shape: Shape::new(3, 3), found: 6 })
        );
        assert!(matches!(sized("1 2 3\n4 5 0", 2, 3).unwrap_err().1, ParseErrorKind::LayoutMismatch { .. }));
        assert!(matches!(
            sized("3x2\n1 2 3 4 5 0", 2, 3).unwrap_err().1,
            ParseErrorKind::LayoutMismatch { .. }
        ));
    }

    #[test]
    fn a_board_that_gives_no_shape_must_be_square() {
        assert_eq!(kind("1 2 3 4 5 0"), (None, ParseErrorKind::NotSquare(6)));
        assert_eq!(kind("1\n2\n3\n4\n5\n0"), (None, ParseErrorKind::NotSquare(6)));
        assert_eq!(kind("1 2 5\n3 4 0\n6 7"), (None, ParseErrorKind::Ragged("3, 3 and 2".into())));
    }

    #[test]
    fn rows_of_unequal_length_are_an_error_unless_the_size_is_given() {
        // Nine numbers, but not laid out as three rows of three: no guess.
        let ragged = "1 2 5\n3 4\n0 6 7 8\n";
        assert_eq!(kind(ragged), (None, ParseErrorKind::Ragged("3, 2 and 4".into())));
        assert_eq!(
            kind(ragged).1.to_string(),
            "rows of 3, 2 and 4 numbers are not a rectangle: lay the board out in rows of equal length, or give \
             its size (WxH)"
        );
        assert_eq!(kind("1 2\n5\n3\n4 0 6 7 8"), (None, ParseErrorKind::Ragged("2, 1, 1 and 5".into())));
        let long: String =
            (0..16).map(|t| if t % 5 == 4 { format!("{t}\n") } else { format!("{t} ") }).collect();
        assert_eq!(kind(&long).1, ParseErrorKind::Ragged("5, 5, 5 and 1".into()));
        // A header or a stated size gives the shape, and the rows then only
        // have to hold the right count.
        let expected = [1, 2, 5, 3, 4, 0, 6, 7, 8];
        assert_eq!(cells(&format!("3\n{ragged}")), expected);
        assert_eq!(cells(&format!("3x3\n{ragged}")), expected);
        assert_eq!(parse_board_with(ragged, Some(Shape::square(3))).unwrap().cells(), expected);
        assert_eq!(
            parse_board_with(ragged, Some(Shape::new(3, 2))).unwrap_err(),
            (None, ParseErrorKind::SizeMismatch { shape: Shape::new(3, 2), found: 9 })
        );
        // One line, or one number per line, is still a square count.
        assert_eq!(cells("1 2 5 3 4 0 6 7 8"), expected);
        assert_eq!(cells("1\n2\n5\n3\n4\n0\n6\n7\n8"), expected);
    }

    #[test]
    fn lone_carriage_returns_end_lines() {
        assert_eq!(shape("3 1\r2 0\r"), Shape::new(2, 2));
        assert_eq!(kind("1 2\r3 x"), (Some(2), ParseErrorKind::BadToken("x".into())));
        assert_eq!(kind("1 2\r\n3 x"), (Some(2), ParseErrorKind::BadToken("x".into())));
    }

    #[test]
    fn header_disagreeing_with_the_rows_is_reported_on_its_line() {
        assert_eq!(
            kind("4\n1 2 5\n3 4 0\n6 7 8"),
            (
                Some(1),
                ParseErrorKind::LayoutMismatch {
                    by: "the header says",
                    shape: Shape::square(4),
                    rows: 3,
                    row_len: 3
                }
            )
        );
        assert_eq!(
            kind("4\n1 2 5 3 4 0 6 7 8"),
            (Some(1), ParseErrorKind::HeaderMismatch { shape: Shape::square(4), found: 9 })
        );
        assert_eq!(kind("\n1\n0 1 2 3"), (Some(2), ParseErrorKind::BadHeader("1".into())));
    }

    #[test]
    fn malformed_boards_name_the_problem_and_line() {
        assert_eq!(kind(""), (None, ParseErrorKind::Empty));
        assert_eq!(kind("# only a comment"), (None, ParseErrorKind::Empty));
        assert_eq!(kind("1 2\n3 x"), (Some(2), ParseErrorKind::BadToken("x".into())));
        assert_eq!(kind("-1 0 2 3"), (Some(1), ParseErrorKind::BadToken("-1".into())));
        assert_eq!(kind("0 1 2"), (None, ParseErrorKind::NotSquare(3)));
        assert_eq!(kind("0"), (None, ParseErrorKind::NotSquare(1)));
        assert_eq!(kind("0 1\n2 4"), (Some(2), ParseErrorKind::OutOfRange { tile: 4, max: 3 }));
        assert_eq!(kind("0 1\n1 2"), (Some(2), ParseErrorKind::Duplicate { tile: 1, first_line: Some(1) }));
        let big: Vec<String> = (0..257 * 257).map(|t| t.to_string()).collect();
        assert_eq!(kind(&big.join(" ")), (None, ParseErrorKind::BadSize(Shape::square(257))));
        assert_eq!(kind("300\n1 2\n3 0"), (Some(1), ParseErrorKind::BadHeader("300".into())));
        // Too many digits for any integer type: the message shows what was typed.
        assert_eq!(
            kind("0 1 2 99999999999999999999999"),
            (Some(1), ParseErrorKind::Huge("99999999999999999999999".into()))
        );
        assert!(parse_board("\u{feff}0 1\n2 3").is_ok(), "a byte-order mark is not a token");
    }

    #[test]
    fn boards_up_to_the_largest_side_are_read() {
        let cells: Vec<String> = (0..100 * 100).map(|t| t.to_string()).collect();
        let rows: Vec<String> = cells.chunks(100).map(|r| r.join(" ")).collect();
        let board = parse_board(&format!("100\n{}", rows.join("\n"))).unwrap();
        assert_eq!(board.shape(), Shape::square(100));
        assert_eq!(board.cells()[9999], 9999);
    }

    #[test]
    fn an_optimal_comment_states_the_length_and_nothing_else_does() {
        assert_eq!(stated_optimum("# The classic.\n# optimal: 3\n1 2 5\n3 4 0\n6 7 8\n"), Some(3));
        assert_eq!(stated_optimum("1 2 5 3 4 0 6 7 8 # optimal: 31\r\n"), Some(31));
        assert_eq!(stated_optimum("# The classic.\r# optimal: 3\r1 2 5\r3 4 0\r6 7 8\r"), Some(3));
        assert_eq!(stated_optimum("# optimal length unknown\n# optimal: ?\n1 2 3 0\n"), None);
        assert_eq!(stated_optimum("1 2 3 0\n"), None);
    }

    #[test]
    fn inline_arguments_are_told_apart_from_paths() {
        assert_eq!(Input::from_arg("-"), Input::Stdin);
        assert_eq!(Input::from_arg("1,2,0,3"), Input::Inline("1,2,0,3".into()));
        assert_eq!(Input::from_arg("1 2 0 3"), Input::Inline("1 2 0 3".into()));
        assert_eq!(Input::from_arg("missing.txt"), Input::File("missing.txt".into()));
        // Mostly numbers: a board, so its error can name the bad token.
        assert_eq!(Input::from_arg("1,2,x,3"), Input::Inline("1,2,x,3".into()));
        assert_eq!(Input::from_arg("1 2 -5 3"), Input::Inline("1 2 -5 3".into()));
        // Mostly words: a file name, even with spaces and a digit.
        assert_eq!(Input::from_arg("my puzzle 2.txt"), Input::File("my puzzle 2.txt".into()));
    }
}
