/*!
Reading boards: files, inline arguments and standard input.

Numbers are separated by whitespace and/or commas, line breaks are free, `#`
starts a comment. An optional first line holding one number is the width (the
common `N`-header format). Every error names where the board came from and,
where it helps, the line.
*/

use super::{MAX_WIDTH, MIN_WIDTH, Shape};
use std::fmt;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Inputs larger than this are refused rather than read into memory.
pub const MAX_INPUT_BYTES: u64 = 1 << 20;

/// A validated arrangement: `cells` is a permutation of `0..cells` laid out
/// row-major on `shape`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Tiles {
    shape: Shape,
    cells: Vec<u8>,
}

impl Tiles {
    /// Checks that `cells` is a permutation of `0..width²` for a supported width.
    ///
    /// # Errors
    /// The same kinds as parsing a file, without a line number.
    pub fn new(cells: &[u8]) -> Result<Tiles, ParseErrorKind> {
        let values: Vec<(u64, usize)> = cells.iter().map(|&t| (u64::from(t), 0)).collect();
        validate(&values)
    }

    /// The board's shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Board width.
    pub fn width(&self) -> usize {
        self.shape.width()
    }

    /// Tiles in row-major order, 0 for the blank.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// Cell holding the blank.
    pub fn blank(&self) -> usize {
        self.cells.iter().position(|&t| t == 0).unwrap_or(0)
    }

    /// The board as a right-aligned grid, one row per line, `0` shown as `.`
    /// when `dot_blank` is set.
    pub fn display_grid(&self, dot_blank: bool) -> String {
        let digits = (self.cells.len() - 1).to_string().len();
        let mut out = String::new();
        for row in self.cells.chunks(self.shape.width()) {
            let line: Vec<String> =
                row.iter()
                    .map(|&t| {
                        if t == 0 && dot_blank {
                            format!("{:>digits$}", ".")
                        } else {
                            format!("{t:>digits$}")
                        }
                    })
                    .collect();
            out.push_str(&line.join(" "));
            out.push('\n');
        }
        out
    }
}

impl fmt::Display for Tiles {
    /// The board on one line, comma-separated: the inline form `solve` accepts.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, t) in self.cells.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{t}")?;
        }
        Ok(())
    }
}

/// Where a board comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A puzzle file.
    File(PathBuf),
    /// A board written on the command line, e.g. `1,2,5,3,4,0,6,7,8`.
    Inline(String),
    /// Standard input (`-`).
    Stdin,
}

impl Input {
    /// Interprets a command-line argument: `-` is stdin, an existing path is
    /// a file, a list of numbers is an inline board, anything else a file
    /// (so a typo gets "No such file" rather than a parse error).
    pub fn from_arg(arg: &str) -> Input {
        if arg == "-" {
            return Input::Stdin;
        }
        // A list of mostly numbers is a board, even a malformed one (so its
        // error names the bad token); anything else is a file name.
        let tokens: Vec<&str> =
            arg.split(|c: char| c == ',' || c.is_whitespace()).filter(|t| !t.is_empty()).collect();
        let numbers = tokens.iter().filter(|t| t.bytes().all(|b| b.is_ascii_digit())).count();
        let looks_inline = arg.contains([',', ' ', '\n', '\t']) && numbers * 2 >= tokens.len() && numbers > 0;
        if looks_inline && !Path::new(arg).exists() {
            Input::Inline(arg.to_owned())
        } else {
            Input::File(PathBuf::from(arg))
        }
    }

    /// How error messages and reports name this input.
    pub fn origin(&self) -> String {
        match self {
            Input::File(path) => path.display().to_string(),
            Input::Inline(_) => "<argument>".to_owned(),
            Input::Stdin => "<stdin>".to_owned(),
        }
    }
}

/// What is wrong with a board.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseErrorKind {
    /// The input could not be read.
    #[error("cannot read: {0}")]
    Io(String),
    /// More than [`MAX_INPUT_BYTES`].
    #[error("input is larger than {} bytes; not a puzzle", MAX_INPUT_BYTES)]
    TooLarge,
    /// No numbers at all.
    #[error("empty board: no numbers found")]
    Empty,
    /// A token that is not a non-negative integer.
    #[error("'{0}' is not a non-negative integer")]
    BadToken(String),
    /// A number with too many digits to be any tile.
    #[error("{0} is far too large to be a tile")]
    Huge(String),
    /// The header width is unusable.
    #[error("header width {0} is not supported (widths {MIN_WIDTH} to {MAX_WIDTH})")]
    BadHeader(u64),
    /// The header and the count of numbers disagree.
    #[error("header says width {width} ({} numbers) but {found} numbers follow", width * width)]
    HeaderMismatch {
        /// Width from the header.
        width: u64,
        /// Numbers after the header.
        found: usize,
    },
    /// The count of numbers is not N² for some N ≥ 2.
    #[error("{} not a square board (need N×N numbers, N ≥ {MIN_WIDTH})", count_numbers(*.0))]
    NotSquare(usize),
    /// Wider than [`MAX_WIDTH`].
    #[error("width {0} is larger than the supported maximum {MAX_WIDTH}")]
    TooWide(usize),
    /// A tile outside `0..N²`.
    #[error("tile {tile} is out of range (0 to {max})")]
    OutOfRange {
        /// The offending value.
        tile: u64,
        /// Largest allowed tile, N² − 1.
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

/// Reads and validates the board behind `input`.
///
/// # Errors
/// A [`ParseError`] naming the input (and line) for unreadable or malformed boards.
pub fn read_input(input: &Input) -> Result<Tiles, ParseError> {
    let origin = input.origin();
    let fail = |kind| ParseError { origin: origin.clone(), line: None, kind };
    let text = match input {
        Input::Inline(text) => text.clone(),
        Input::File(path) => {
            let file = std::fs::File::open(path).map_err(|e| fail(ParseErrorKind::Io(io_message(&e))))?;
            read_limited(file).map_err(fail)?
        }
        Input::Stdin => read_limited(io::stdin().lock()).map_err(fail)?,
    };
    parse_board(&text).map_err(|(line, kind)| ParseError { origin, line, kind })
}

/// `io::Error`'s message without the "(os error N)" suffix users don't need.
pub(crate) fn io_message(e: &io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(cut) => text[..cut].to_owned(),
        None => text,
    }
}

fn read_limited(reader: impl Read) -> Result<String, ParseErrorKind> {
    let mut bytes = Vec::new();
    reader
        .take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| ParseErrorKind::Io(io_message(&e)))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(ParseErrorKind::TooLarge);
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Parses board text. On error, returns the 1-based line to blame, if any.
///
/// # Errors
/// The line (where one is to blame) and what is wrong.
pub fn parse_board(text: &str) -> Result<Tiles, (Option<usize>, ParseErrorKind)> {
    // Editors on some systems start UTF-8 files with a byte-order mark.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines: Vec<(usize, Vec<u64>)> = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let content = raw.split('#').next().unwrap_or("");
        let mut numbers = Vec::new();
        for token in content.split(|c: char| c == ',' || c.is_whitespace()) {
            if token.is_empty() {
                continue;
            }
            if !token.bytes().all(|b| b.is_ascii_digit()) {
                let shown: String = token.chars().take(20).collect::<String>().escape_debug().to_string();
                return Err((Some(index + 1), ParseErrorKind::BadToken(shown)));
            }
            let Ok(number) = token.parse::<u64>() else {
                let shown = if token.len() > 24 { format!("{}…", &token[..24]) } else { token.to_owned() };
                return Err((Some(index + 1), ParseErrorKind::Huge(shown)));
            };
            numbers.push(number);
        }
        if !numbers.is_empty() {
            lines.push((index + 1, numbers));
        }
    }
    let mut values: Vec<(u64, usize)> =
        lines.iter().flat_map(|(line, nums)| nums.iter().map(move |&n| (n, *line))).collect();
    if let [(header_line, first), rest @ ..] = lines.as_slice()
        && first.len() == 1
    {
        let width = first[0];
        let following = values.len() - 1;
        let rows_follow = rest.first().is_some_and(|(_, nums)| nums.len() > 1);
        let exact = following > 0 && u128::from(width) * u128::from(width) == following as u128;
        if exact || rows_follow {
            let at_header = |kind| Err((Some(*header_line), kind));
            if !(MIN_WIDTH as u64..=MAX_WIDTH as u64).contains(&width) {
                return at_header(ParseErrorKind::BadHeader(width));
            }
            if !exact {
                return at_header(ParseErrorKind::HeaderMismatch { width, found: following });
            }
            values.remove(0);
        }
    }
    validate(&values).map_err(|kind| {
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

/// Checks numbers (with their lines; 0 = unknown) form a valid board.
fn validate(values: &[(u64, usize)]) -> Result<Tiles, ParseErrorKind> {
    let count = values.len();
    if count == 0 {
        return Err(ParseErrorKind::Empty);
    }
    let width = count.isqrt();
    if width * width != count || width < MIN_WIDTH {
        return Err(ParseErrorKind::NotSquare(count));
    }
    if width > MAX_WIDTH {
        return Err(ParseErrorKind::TooWide(width));
    }
    let mut first_seen: Vec<Option<usize>> = vec![None; count];
    for &(tile, line) in values {
        let slot = usize::try_from(tile)
            .ok()
            .and_then(|t| first_seen.get_mut(t))
            .ok_or(ParseErrorKind::OutOfRange { tile, max: count - 1 })?;
        if let Some(first) = *slot {
            return Err(ParseErrorKind::Duplicate { tile, first_line: (first > 0).then_some(first) });
        }
        *slot = Some(line);
    }
    if let Some(missing) = first_seen.iter().position(Option::is_none) {
        return Err(ParseErrorKind::Missing(missing));
    }
    Ok(Tiles { shape: Shape::square(width), cells: values.iter().map(|&(t, _)| t as u8).collect() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(text: &str) -> Vec<u8> {
        parse_board(text).unwrap().cells().to_vec()
    }

    fn kind(text: &str) -> (Option<usize>, ParseErrorKind) {
        parse_board(text).unwrap_err()
    }

    #[test]
    fn accepts_commas_spaces_comments_and_free_line_breaks() {
        let expected: Vec<u8> = vec![1, 2, 5, 3, 4, 0, 6, 7, 8];
        assert_eq!(cells("1,2,5,3,4,0,6,7,8"), expected);
        assert_eq!(cells("1 2 5\n3 4 0 # row two\n6 7 8\n"), expected);
        assert_eq!(cells("# a comment\n1, 2,\n5 3\n4\n0 6 7 8"), expected);
    }

    #[test]
    fn a_single_number_first_line_is_the_width_header() {
        assert_eq!(cells("3\n1 2 5\n3 4 0\n6 7 8"), vec![1, 2, 5, 3, 4, 0, 6, 7, 8]);
        // One number per line is not mistaken for a header.
        assert_eq!(cells("3\n1\n2\n0"), vec![3, 1, 2, 0]);
    }

    #[test]
    fn header_disagreeing_with_the_rows_is_reported_on_its_line() {
        assert_eq!(
            kind("4\n1 2 5\n3 4 0\n6 7 8"),
            (Some(1), ParseErrorKind::HeaderMismatch { width: 4, found: 9 })
        );
        assert_eq!(kind("\n1\n0 1 2 3"), (Some(2), ParseErrorKind::BadHeader(1)));
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
        let big: Vec<String> = (0..81).map(|t| t.to_string()).collect();
        assert_eq!(kind(&big.join(" ")), (None, ParseErrorKind::TooWide(9)));
        // Too many digits for any integer type: the message shows what was typed.
        assert_eq!(
            kind("0 1 2 99999999999999999999999"),
            (Some(1), ParseErrorKind::Huge("99999999999999999999999".into()))
        );
        assert!(parse_board("\u{feff}0 1\n2 3").is_ok(), "a byte-order mark is not a token");
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
