/*!
Discovery: which files under the paths of a batch are puzzles, in a stable
order, and which are passed over and why (the rules are listed in the
documentation of `batch`).
*/

use crate::board::{MAX_INPUT_BYTES, ParseErrorKind, io_message};
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// One puzzle of a batch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// Where it is.
    pub path: PathBuf,
    /// Why it cannot even be read (e.g. a folder that could not be listed),
    /// found while walking.
    pub problem: Option<String>,
}

impl Item {
    /// How rows name the puzzle: its path as walked.
    pub fn name(&self) -> String {
        self.path.display().to_string()
    }
}

/// A file the walk passed over, and why.
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
/// each folder walked in sorted order. Files named directly are judged like
/// files met in folders (so `batch puzzles/*` passes over a README). Never
/// fails: a path that cannot be read becomes an item with a `problem`.
pub fn discover(paths: &[PathBuf]) -> Discovery {
    let mut found = Discovery::default();
    for path in paths {
        match fs::metadata(path) {
            Ok(meta) if meta.is_dir() => walk(path, &mut found),
            Ok(meta) if meta.is_file() => match classify(path) {
                Ok(()) => found.items.push(Item { path: path.clone(), problem: None }),
                Err(reason) => found.skipped.push(Skipped { path: path.clone(), reason }),
            },
            // A device or pipe named on purpose is read as a puzzle.
            Ok(_) => found.items.push(Item { path: path.clone(), problem: None }),
            Err(e) => found.items.push(Item {
                path: path.clone(),
                problem: Some(ParseErrorKind::Io(io_message(&e)).to_string()),
            }),
        }
    }
    found
}

fn walk(dir: &Path, found: &mut Discovery) {
    let listing = fs::read_dir(dir).and_then(|entries| {
        entries
            .map(|e| e.and_then(|e| Ok((e.file_name(), e.path(), e.file_type()?))))
            .collect::<io::Result<Vec<_>>>()
    });
    let mut entries = match listing {
        Ok(entries) => entries,
        Err(e) => {
            found.items.push(Item {
                path: dir.to_path_buf(),
                problem: Some(format!("cannot list folder: {}", io_message(&e))),
            });
            return;
        }
    };
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    for (name, path, kind) in entries {
        if name.as_encoded_bytes().starts_with(b".") {
            continue;
        }
        let verdict = if kind.is_dir() {
            walk(&path, found);
            continue;
        } else if kind.is_symlink() {
            match fs::metadata(&path) {
                Ok(meta) if meta.is_dir() => Err("symbolic link to a folder, not followed"),
                Ok(meta) if meta.is_file() => classify(&path),
                Ok(_) => Err("not a regular file"),
                Err(_) => Err("broken symbolic link"),
            }
        } else if kind.is_file() {
            classify(&path)
        } else {
            Err("not a regular file")
        };
        match verdict {
            Ok(()) => found.items.push(Item { path, problem: None }),
            Err(reason) => found.skipped.push(Skipped { path, reason }),
        }
    }
}

/// Extensions that always mean a puzzle file.
const PUZZLE_EXTENSIONS: [&str; 2] = ["txt", "puzzle"];

/// Whether a file is a puzzle, or why not.
fn classify(path: &Path) -> Result<(), &'static str> {
    let by_extension =
        path.extension().is_some_and(|ext| PUZZLE_EXTENSIONS.iter().any(|p| ext.eq_ignore_ascii_case(p)));
    if by_extension {
        return Ok(());
    }
    let mut bytes = Vec::new();
    fs::File::open(path)
        .and_then(|f| f.take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|_| "cannot be read")?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err("too large to be a puzzle");
    }
    if looks_like_board(&bytes) { Ok(()) } else { Err("not a puzzle by extension or content") }
}

/// Whether file content looks like a board: text (UTF-8, no NUL) whose
/// first line that is neither blank nor a `#` comment holds only digits,
/// commas, whitespace and minus signs, at least one of them a digit.
pub fn looks_like_board(bytes: &[u8]) -> bool {
    if bytes.contains(&0) {
        return false;
    }
    let Ok(text) = std::str::from_utf8(bytes) else {
        return false;
    };
    let first = text
        .lines()
        .map(|line| line.split('#').next().unwrap_or("").trim())
        .find(|content| !content.is_empty());
    first.is_some_and(|line| {
        line.bytes().any(|b| b.is_ascii_digit())
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
        assert!(!looks_like_board(b"# puzzles/\n\n- `2x2/`: examples\n"));
        assert!(!looks_like_board(b"MIT License\n"));
        assert!(!looks_like_board(b"1. First item\n"));
        assert!(!looks_like_board(b""));
        assert!(!looks_like_board(b"# only a comment\n"));
        assert!(!looks_like_board(b"1 2\0 3"));
        assert!(!looks_like_board(&[0xFF, 0xFE, b'1']));
        assert!(!looks_like_board(b"- - ,"));
    }
}
