/*!
Discovery: which files under the paths of a batch are puzzles (or lists of
puzzles), in a stable order, and which are passed over and why (the rules
are listed in the documentation of `batch`). Only files met while walking a
folder are judged by name and content: a file the user names is what the
user asked for, so it is always read, and what is wrong with it becomes an
error row rather than a note that is easy to miss.
*/

use crate::board::{MAX_INPUT_BYTES, ParseErrorKind, Tiles, io_message, parse_shape, split_lines};
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// One puzzle of a batch (before the [`Feed`](super::Feed) reads lists, one
/// input, which may be a list of them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// How rows name the puzzle: its path as walked; `FILE:LINE`, or
    /// `FILE#ID` where the line gives an id, for a puzzle of a list.
    pub name: String,
    /// Where its board comes from.
    pub source: Source,
}

/// Where the board of an [`Item`] comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A file, read when its turn comes: one board (a list is read by the
    /// feed as the run goes, and becomes [`Source::Listed`] items).
    File(PathBuf),
    /// Standard input (`-`), always a list.
    Stdin,
    /// A board of a list, already read.
    Listed {
        /// The board.
        board: Tiles,
        /// The optimal solution length its line gives.
        expected: Option<u32>,
    },
    /// Why there is no board: an unreadable path or folder, a bad line of a
    /// list. The message of its error row.
    Problem(String),
}

impl Item {
    /// The puzzle file at `path`.
    pub fn file(path: PathBuf) -> Item {
        Item { name: path.display().to_string(), source: Source::File(path) }
    }

    /// An input named `name` that cannot be solved, and why.
    pub fn problem(name: String, message: String) -> Item {
        Item { name, source: Source::Problem(message) }
    }

    /// How rows name the puzzle.
    pub fn name(&self) -> &str {
        &self.name
    }
}

/// The path that names standard input.
pub const STDIN: &str = "-";

/// A file the walk of a folder passed over, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// The file.
    pub path: PathBuf,
    /// Why it is not a puzzle.
    pub reason: &'static str,
}

/// What a walk found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Discovery {
    /// The puzzles, in input order.
    pub items: Vec<Item>,
    /// Files passed over, in walk order.
    pub skipped: Vec<Skipped>,
}

/// Finds the puzzles under `paths`, in a stable order: the paths as given,
/// each folder walked in sorted order; `-` is standard input. A file named
/// directly is always an item, whatever its name or content (a README
/// named by `batch puzzles/*` becomes an error row); files in folders are
/// judged by extension and content, and passed over when they do not look
/// like a puzzle. With `lists`, files in folders are judged as lists, which
/// may be larger than a board. Never fails: a path that cannot be read
/// becomes an item with a [`Source::Problem`].
pub fn discover(paths: &[PathBuf], lists: bool) -> Discovery {
    let mut found = Discovery::default();
    // A list streams, so any size will do; a board must fit the reader.
    let limit = if lists { None } else { Some(MAX_INPUT_BYTES) };
    for path in paths {
        if path.as_os_str() == STDIN {
            found.items.push(Item { name: "<stdin>".to_owned(), source: Source::Stdin });
            continue;
        }
        match fs::metadata(path) {
            Ok(meta) if meta.is_dir() => walk(path, limit, &mut found),
            // A file, device or pipe named on purpose is read, never sniffed.
            Ok(_) => found.items.push(Item::file(path.clone())),
            Err(e) => found.items.push(Item::problem(
                path.display().to_string(),
                ParseErrorKind::Io(io_message(&e)).to_string(),
            )),
        }
    }
    found
}

fn walk(dir: &Path, limit: Option<u64>, found: &mut Discovery) {
    let listing = fs::read_dir(dir).and_then(|entries| {
        entries
            .map(|e| e.and_then(|e| Ok((e.file_name(), e.path(), e.file_type()?))))
            .collect::<io::Result<Vec<_>>>()
    });
    let mut entries = match listing {
        Ok(entries) => entries,
        Err(e) => {
            let message = format!("cannot list folder: {}", io_message(&e));
            found.items.push(Item::problem(dir.display().to_string(), message));
            return;
        }
    };
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    for (name, path, kind) in entries {
        if name.as_encoded_bytes().starts_with(b".") {
            continue;
        }
        let verdict = if kind.is_dir() {
            walk(&path, limit, found);
            continue;
        } else if kind.is_symlink() {
            match fs::metadata(&path) {
                Ok(meta) if meta.is_dir() => Err("symbolic link to a folder, not followed"),
                Ok(meta) if meta.is_file() => classify(&path, limit),
                Ok(_) => Err("not a regular file"),
                Err(_) => Err("broken symbolic link"),
            }
        } else if kind.is_file() {
            classify(&path, limit)
        } else {
            Err("not a regular file")
        };
        match verdict {
            Ok(()) => found.items.push(Item::file(path)),
            Err(reason) => found.skipped.push(Skipped { path, reason }),
        }
    }
}

/// Extensions that always mean a puzzle file.
const PUZZLE_EXTENSIONS: [&str; 2] = ["txt", "puzzle"];

/// Bytes of a file's start that tell whether it is a list: its first line
/// that holds anything is there (or its start is, for a line longer still).
const SNIFFED_LIST_BYTES: u64 = 64 << 10;

/// Whether a file is a puzzle (of at most `limit` bytes, or a list of any
/// size when there is none), or why not.
fn classify(path: &Path, limit: Option<u64>) -> Result<(), &'static str> {
    let by_extension =
        path.extension().is_some_and(|ext| PUZZLE_EXTENSIONS.iter().any(|p| ext.eq_ignore_ascii_case(p)));
    if by_extension {
        return Ok(());
    }
    let mut bytes = Vec::new();
    let sniffed = limit.map_or(SNIFFED_LIST_BYTES, |limit| limit + 1);
    fs::File::open(path)
        .and_then(|f| f.take(sniffed).read_to_end(&mut bytes))
        .map_err(|_| "cannot be read")?;
    if limit.is_some_and(|limit| bytes.len() as u64 > limit) {
        return Err("too large to be a puzzle");
    }
    if looks_like_board(&bytes) { Ok(()) } else { Err("not a puzzle by extension or content") }
}

/// Whether file content looks like a board: text (UTF-8, no NUL) whose
/// first line that is neither blank nor a `#` comment is a `WxH` size
/// header or holds only digits, commas, whitespace and minus signs, at
/// least one of them a digit.
pub fn looks_like_board(bytes: &[u8]) -> bool {
    if bytes.contains(&0) {
        return false;
    }
    // A start cut inside a character still shows the text before it.
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) if e.error_len().is_none() => std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or(""),
        Err(_) => return false,
    };
    let first = split_lines(text)
        .map(|line| line.split('#').next().unwrap_or("").trim())
        .find(|content| !content.is_empty());
    first.is_some_and(|line| {
        parse_shape(line).is_some()
            || line.bytes().any(|b| b.is_ascii_digit())
                && line.chars().all(|c| c.is_ascii_digit() || c == ',' || c == '-' || c.is_whitespace())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_and_text_that_looks_like_one_are_told_from_other_files() {
        assert!(looks_like_board(b"# comment\n\n1 2 5\n3 4 0\n6 7 8\n"));
        assert!(looks_like_board(b"3\n1,2,5,3,4,0,6,7,8"));
        assert!(looks_like_board(b"1 2 5\n3 x 0\n"), "malformed, but a board");
        assert!(looks_like_board(b"1 -2 5\n"));
        assert!(looks_like_board(b"3x2\n1 2 3\n4 5 0\n"), "a rectangle's size header");
        assert!(!looks_like_board(b"x86 notes\n"));
        assert!(!looks_like_board(b"# puzzles/\n\n- `2x2/`: examples\n"));
        assert!(!looks_like_board(b"MIT License\n"));
        assert!(!looks_like_board(b"1. First item\n"));
        assert!(!looks_like_board(b""));
        assert!(!looks_like_board(b"# only a comment\n"));
        assert!(!looks_like_board(b"1 2\0 3"));
        assert!(!looks_like_board(&[0xFF, 0xFE, b'1']));
        assert!(!looks_like_board(b"- - ,"));
    }

    #[test]
    fn a_comment_ends_at_any_line_break_lf_crlf_or_a_lone_cr() {
        for board in [&b"# c\n1 2 5\n3 4 0\n6 7 8\n"[..], b"# c\r\n1 2 5\r\n", b"# c\r1 2 5\r3 4 0\r6 7 8\r"]
        {
            assert!(looks_like_board(board), "{}", String::from_utf8_lossy(board).escape_debug());
        }
        assert!(!looks_like_board(b"# c\rREADME\r1 2 5\r"), "the first line that is not a comment decides");
    }
}
