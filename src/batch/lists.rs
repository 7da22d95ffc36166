/*!
Lists: inputs that hold many puzzles, one per line, turned into one item
per puzzle before the run, so that shards, the progress bar and the order
of rows count puzzles, not files. `batch --list` reads every file so;
standard input (`-`) is always a list.
*/

use super::{Item, Source};
use crate::board::{Input, MAX_LIST_BYTES, ParseErrorKind, Shape, parse_list, read_text};
use std::sync::atomic::AtomicBool;

/// Ctrl-C came while a list was still being read (a FIFO or standard
/// input nobody writes to).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interrupted {
    /// How rows would have named the list.
    pub name: String,
}

/// `items` with each list replaced by its puzzles: standard input always,
/// files when `lists` is set. A puzzle is named `FILE:LINE`, or `FILE#ID`
/// when its line gives an id; a bad line is a [`Source::Problem`] item,
/// and so is a list that cannot be read. `size` is the shape of boards
/// written without one.
///
/// # Errors
/// [`Interrupted`] when `cancel` is set while a read blocks.
pub fn read_lists(
    items: Vec<Item>,
    lists: bool,
    size: Option<Shape>,
    cancel: Option<&AtomicBool>,
) -> Result<Vec<Item>, Interrupted> {
    let mut puzzles = Vec::with_capacity(items.len());
    for item in items {
        let input = match &item.source {
            Source::Stdin => Input::Stdin,
            Source::File(path) if lists => Input::File(path.clone()),
            _ => {
                puzzles.push(item);
                continue;
            }
        };
        let text = match read_text(&input, MAX_LIST_BYTES, cancel) {
            Ok(text) => text,
            Err(ParseErrorKind::Interrupted) => return Err(Interrupted { name: item.name }),
            Err(ParseErrorKind::TooLarge(limit)) => {
                let message = format!("list is larger than {limit} bytes");
                puzzles.push(Item::problem(item.name, message));
                continue;
            }
            Err(kind) => {
                puzzles.push(Item::problem(item.name, kind.to_string()));
                continue;
            }
        };
        for entry in parse_list(&text, size) {
            let name = match &entry.id {
                Some(id) => format!("{}#{id}", item.name),
                None => format!("{}:{}", item.name, entry.line),
            };
            let source = match entry.board {
                Ok(board) => Source::Listed { board, expected: entry.expected },
                Err(kind) => Source::Problem(kind.to_string()),
            };
            puzzles.push(Item { name, source });
        }
    }
    Ok(puzzles)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn list_file(text: &str) -> (tempfile::NamedTempFile, Item) {
        let file = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(file.path(), text).unwrap();
        let item = Item::file(file.path().to_path_buf());
        (file, item)
    }

    #[test]
    fn a_list_becomes_one_item_per_line_named_by_line_or_id() {
        let (_file, item) =
            list_file("# two puzzles and a bad line\n1 2 5 3 4 0 6 7 8\n\n7 3 0 1 2 3\n1 2 x\n");
        let name = item.name.clone();
        let items = read_lists(vec![item], true, None, None).unwrap();
        let names: Vec<&str> = items.iter().map(Item::name).collect();
        assert_eq!(names, [format!("{name}:2"), format!("{name}#7"), format!("{name}:5")]);
        assert!(matches!(&items[0].source, Source::Listed { expected: None, .. }));
        assert!(
            matches!(&items[1].source, Source::Listed { expected: Some(3), board } if board.width() == 2)
        );
        assert_eq!(items[2].source, Source::Problem("'x' is not a non-negative integer".to_owned()));
    }

    #[test]
    fn without_lists_files_stay_one_board_each_and_an_unreadable_list_is_one_problem() {
        let (_file, item) = list_file("1 2 5 3 4 0 6 7 8\n0 1 2 3\n");
        assert_eq!(read_lists(vec![item.clone()], false, None, None).unwrap(), [item]);
        let missing = Item::file(PathBuf::from("no/such/list"));
        let items = read_lists(vec![missing], true, None, None).unwrap();
        assert!(matches!(&items[0].source, Source::Problem(m) if m.contains("No such file")), "{items:?}");
    }
}
