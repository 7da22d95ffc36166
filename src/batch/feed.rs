/*!
The feed: a batch's puzzles handed out one at a time, in input order, by a
thread of their own. Lists are read line by line as the run goes, so a list
of any length (a file, a pipe, standard input still being written) streams
through in bounded memory; the feed keeps one shard of the puzzles and,
for a resumed run, checks the puzzles already done against the rows that
hold them before handing out the rest.

Lists named by files are counted before the run (one quick pass over each),
so that progress and the table know the total; standard input is not.
*/

use super::{Item, Shard, Source};
use crate::board::{Input, ListReader, Shape};
use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

/// Puzzles the feed reads ahead of the searches: enough that no worker
/// waits on a read, few enough that memory stays small.
const AHEAD: usize = 1024;

/// Puzzles left waiting when the feed's thread, asleep with [`AHEAD`]
/// read, is woken to read on. Woken for every puzzle taken, it would cost
/// two context switches a puzzle, 4 % of a batch of random 15-puzzles.
const LOW: usize = AHEAD / 2;

/// How often a worker waiting for the feed looks at the cancel flag.
const POLL: Duration = Duration::from_millis(20);

/// One puzzle of the run and its row's position among the rows.
#[derive(Debug)]
pub struct Fed {
    /// The row's position: 0 for the first puzzle of the run (after the
    /// shard is kept and resumed puzzles are passed over).
    pub position: usize,
    /// The puzzle.
    pub item: Item,
}

/// Why the feed stopped before the end of its inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Halt {
    /// A list could not be read on (an I/O error mid-way); the rows before
    /// stand.
    Unreadable {
        /// The list, as rows name it.
        name: String,
        /// Why.
        why: String,
    },
    /// A resumed run's rows do not hold the puzzles the inputs now give.
    Mismatch(String),
}

/// Checks, for a resumed run, the puzzles already done: called with each
/// of the first puzzles of the run in order; `Err` says why the rows do
/// not hold that puzzle.
pub type Check = Box<dyn FnMut(&Item) -> Result<(), String> + Send>;

/// The puzzles of a batch, produced on a thread of their own.
pub struct Feed {
    queue: Arc<Queue>,
    /// Rows the run will have, when known up front.
    total: Option<usize>,
    /// The longest name a row can have, as far as known up front.
    name_width: usize,
    /// The input being read, while a read may block.
    reading: Arc<Mutex<Option<String>>>,
    halted: Arc<Mutex<Option<Halt>>>,
}

impl std::fmt::Debug for Feed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Feed").field("total", &self.total).finish_non_exhaustive()
    }
}

impl Feed {
    /// Starts feeding `inputs` (as [`discover`](super::discover) found
    /// them): standard input always, and files when `lists` is set, are
    /// read as lists of puzzles, `size` giving the shape of boards that do
    /// not show it. Only `shard`'s puzzles are fed; of those, the first
    /// `resumed` are passed to `check` and not fed.
    pub fn start(
        inputs: Vec<Item>,
        lists: bool,
        size: Option<Shape>,
        shard: Option<Shard>,
        resumed: usize,
        check: Option<Check>,
    ) -> Feed {
        let (count, name_width) = count(&inputs, lists);
        let total = count.map(|all| {
            let kept = shard.map_or(all, |shard| (0..all).filter(|&p| shard.contains(p)).count());
            kept.saturating_sub(resumed)
        });
        let queue = Arc::new(Queue::default());
        let reading = Arc::new(Mutex::new(None));
        let halted = Arc::new(Mutex::new(None));
        let producer = Producer {
            queue: Arc::clone(&queue),
            lists,
            size,
            shard,
            resumed,
            check,
            seen: 0,
            kept: 0,
            reading: Arc::clone(&reading),
            halted: Arc::clone(&halted),
        };
        // The thread ends with the inputs, or when nobody takes what it made.
        // One that cannot start drops the producer: the feed is over at once.
        let started = std::thread::Builder::new().name("feed".into()).spawn(move || producer.run(inputs));
        if let Err(e) = started {
            let why = format!("no thread could be started to read them ({})", crate::board::io_message(&e));
            *halted.lock().unwrap_or_else(PoisonError::into_inner) =
                Some(Halt::Unreadable { name: "the inputs".to_owned(), why });
        }
        Feed { queue, total, name_width, reading, halted }
    }

    /// A feed of puzzles already at hand, one row each, in order.
    pub fn of(items: Vec<Item>) -> Feed {
        Feed::start(items, false, None, None, 0, None)
    }

    /// The next puzzle, waiting for it while the feed reads; `None` at the
    /// end, when the feed halted, or once `cancel` is set.
    pub fn next(&self, cancel: &AtomicBool) -> Option<Fed> {
        let mut state = self.queue.lock();
        loop {
            if cancel.load(Ordering::Relaxed) {
                return None;
            }
            if let Some(fed) = state.items.pop_front() {
                // The feed's thread waits only on a full queue, which every
                // run down passes through here.
                if state.items.len() == LOW {
                    self.queue.drained.notify_one();
                }
                return Some(fed);
            }
            if state.ended {
                return None;
            }
            state.idle += 1;
            state = self.queue.filled.wait_timeout(state, POLL).unwrap_or_else(PoisonError::into_inner).0;
            state.idle -= 1;
        }
    }

    /// Rows the run will have, when known before it starts (not for
    /// standard input).
    pub fn total(&self) -> Option<usize> {
        self.total
    }

    /// The longest name a row will have, as far as known before the run.
    pub fn name_width(&self) -> usize {
        self.name_width
    }

    /// The input the feed was reading when last asked, if a read was under
    /// way (a FIFO or standard input that nobody writes to).
    pub fn reading(&self) -> Option<String> {
        self.reading.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// Why the feed stopped before the end of its inputs, if it did.
    pub fn halted(&self) -> Option<Halt> {
        self.halted.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }
}

/// The feed's thread.
struct Producer {
    queue: Arc<Queue>,
    lists: bool,
    size: Option<Shape>,
    shard: Option<Shard>,
    resumed: usize,
    check: Option<Check>,
    /// Puzzles met so far, of every shard.
    seen: usize,
    /// Puzzles of this shard met so far.
    kept: usize,
    reading: Arc<Mutex<Option<String>>>,
    halted: Arc<Mutex<Option<Halt>>>,
}

impl Producer {
    fn run(mut self, inputs: Vec<Item>) {
        for input in inputs {
            let list = match &input.source {
                Source::Stdin => Some(Input::Stdin),
                Source::File(path) if self.lists => Some(Input::File(path.clone())),
                _ => None,
            };
            let going = match list {
                None => self.offer(input),
                Some(list) => self.read_list(&input.name, &list),
            };
            if !going {
                return;
            }
        }
    }

    /// Reads a list line by line, offering each puzzle; `false` when the
    /// run no longer wants any.
    fn read_list(&mut self, name: &str, input: &Input) -> bool {
        *self.reading.lock().unwrap_or_else(PoisonError::into_inner) = Some(name.to_owned());
        let reader: io::Result<Box<dyn BufRead>> = match input {
            Input::Stdin => Ok(Box::new(BufReader::new(io::stdin()))),
            Input::File(path) => File::open(path).map(|f| Box::new(BufReader::new(f)) as Box<dyn BufRead>),
            Input::Inline(_) => unreachable!("lists are files or standard input"),
        };
        let reader = match reader {
            Ok(reader) => reader,
            Err(e) => {
                *self.reading.lock().unwrap_or_else(PoisonError::into_inner) = None;
                return self.offer(Item::problem(name.to_owned(), crate::board::io_message(&e)));
            }
        };
        for entry in ListReader::new(reader, self.size) {
            *self.reading.lock().unwrap_or_else(PoisonError::into_inner) = None;
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    let why = crate::board::io_message(&e);
                    *self.halted.lock().unwrap_or_else(PoisonError::into_inner) =
                        Some(Halt::Unreadable { name: name.to_owned(), why });
                    return false;
                }
            };
            let item_name = match &entry.id {
                Some(id) => format!("{name}#{id}"),
                None => format!("{name}:{}", entry.line),
            };
            let source = match entry.board {
                Ok(board) => Source::Listed { board, expected: entry.expected },
                Err(kind) => Source::Problem(kind.to_string()),
            };
            if !self.offer(Item { name: item_name, source }) {
                return false;
            }
            *self.reading.lock().unwrap_or_else(PoisonError::into_inner) = Some(name.to_owned());
        }
        *self.reading.lock().unwrap_or_else(PoisonError::into_inner) = None;
        true
    }

    /// Hands one puzzle to the run, if it is this shard's and not resumed;
    /// `false` when the run no longer wants any.
    fn offer(&mut self, item: Item) -> bool {
        let position = self.seen;
        self.seen += 1;
        if self.shard.is_some_and(|shard| !shard.contains(position)) {
            return true;
        }
        let kept = self.kept;
        self.kept += 1;
        if kept < self.resumed {
            if let Some(check) = &mut self.check
                && let Err(why) = check(&item)
            {
                *self.halted.lock().unwrap_or_else(PoisonError::into_inner) = Some(Halt::Mismatch(why));
                return false;
            }
            return true;
        }
        self.queue.push(Fed { position: kept - self.resumed, item })
    }
}

impl Drop for Producer {
    /// The workers learn that no puzzle follows, however the thread ends.
    fn drop(&mut self) {
        self.queue.lock().ended = true;
        self.queue.filled.notify_all();
    }
}

impl Drop for Feed {
    /// The feed's thread learns that nobody takes what it reads.
    fn drop(&mut self) {
        self.queue.lock().left = true;
        self.queue.drained.notify_one();
    }
}

/// The puzzles read and not yet taken, between the feed's thread and the
/// workers.
#[derive(Default)]
struct Queue {
    state: Mutex<QueueState>,
    /// Signalled when a puzzle comes for an idle worker, and at the end.
    filled: Condvar,
    /// Signalled when a full queue runs down to [`LOW`], or the run leaves.
    drained: Condvar,
}

#[derive(Default)]
struct QueueState {
    items: VecDeque<Fed>,
    /// Workers waiting for a puzzle.
    idle: usize,
    /// Whether the feed's thread has ended: no puzzle follows.
    ended: bool,
    /// Whether the feed has been dropped: nobody takes puzzles any more.
    left: bool,
}

impl Queue {
    fn lock(&self) -> MutexGuard<'_, QueueState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Queues `fed`, first waiting while [`AHEAD`] puzzles are; `false`
    /// when nobody takes puzzles any more.
    fn push(&self, fed: Fed) -> bool {
        let mut state = self.lock();
        while state.items.len() >= AHEAD && !state.left {
            state = self.drained.wait(state).unwrap_or_else(PoisonError::into_inner);
        }
        if state.left {
            return false;
        }
        state.items.push_back(fed);
        if state.idle > 0 {
            self.filled.notify_one();
        }
        true
    }
}

/// How many puzzles `inputs` hold and the longest name a row of theirs
/// can have; the count is `None` when standard input is among them.
fn count(inputs: &[Item], lists: bool) -> (Option<usize>, usize) {
    let mut total = Some(0usize);
    let mut width = 0;
    for input in inputs {
        match &input.source {
            Source::Stdin => {
                total = None;
                width = width.max(input.name.chars().count() + 8);
            }
            Source::File(path) if lists => {
                let (puzzles, lines) = count_list(path);
                total = total.map(|t| t + puzzles);
                width = width.max(input.name.chars().count() + 1 + lines.max(1).to_string().len());
            }
            _ => {
                total = total.map(|t| t + 1);
                width = width.max(input.name.chars().count());
            }
        }
    }
    (total, width)
}

/// The puzzles of a list file (lines with anything before a `#`) and its
/// lines, from one pass over its bytes; an unreadable list is one row.
fn count_list(path: &Path) -> (usize, usize) {
    let Ok(file) = File::open(path) else { return (1, 1) };
    let mut reader = BufReader::with_capacity(1 << 16, file);
    let (mut puzzles, mut lines) = (0, 0);
    // Where the current line stands: nothing yet, content, or a comment.
    let (mut content, mut comment, mut last_cr) = (false, false, false);
    loop {
        let chunk = match reader.fill_buf() {
            Ok([]) | Err(_) => break,
            Ok(chunk) => chunk,
        };
        for &byte in chunk {
            match byte {
                b'\n' if last_cr => {}
                b'\n' | b'\r' => {
                    lines += 1;
                    puzzles += usize::from(content);
                    (content, comment) = (false, false);
                }
                b'#' => comment = true,
                b' ' | b'\t' | b',' | 0x0B | 0x0C => {}
                // A byte-order mark is no content.
                0xEF | 0xBB | 0xBF if lines == 0 && !content => {}
                _ if !comment => content = true,
                _ => {}
            }
            last_cr = byte == b'\r';
        }
        let used = chunk.len();
        reader.consume(used);
    }
    if content {
        puzzles += 1;
    }
    (puzzles, lines + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn fed_names(feed: &Feed) -> Vec<(usize, String)> {
        let cancel = AtomicBool::new(false);
        std::iter::from_fn(|| feed.next(&cancel)).map(|fed| (fed.position, fed.item.name)).collect()
    }

    #[test]
    fn puzzles_beyond_what_is_read_ahead_come_in_order_and_a_dropped_feed_ends_its_thread() {
        let items: Vec<Item> =
            (0..3 * AHEAD + 7).map(|i| Item::file(PathBuf::from(format!("{i}.txt")))).collect();
        let feed = Feed::of(items.clone());
        let fed = fed_names(&feed);
        assert_eq!(fed.len(), items.len());
        assert!(
            fed.iter().enumerate().all(|(i, (position, name))| *position == i && *name == format!("{i}.txt"))
        );

        // Left with a full queue after one puzzle: the reading thread,
        // asleep on it, ends once the feed is dropped.
        let feed = Feed::of(items);
        assert!(feed.next(&AtomicBool::new(false)).is_some());
        let queue = Arc::downgrade(&feed.queue);
        drop(feed);
        let waited = std::time::Instant::now();
        while queue.strong_count() > 0 {
            assert!(waited.elapsed() < Duration::from_secs(60), "the feed's thread did not end");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn a_list_of_comments_alone_holds_no_puzzle() {
        let dir = tempfile::tempdir().unwrap();
        let list = dir.path().join("list.txt");
        std::fs::write(&list, "# 0 3x3 puzzles\n# size: 3x3\n").unwrap();
        let feed = Feed::start(vec![Item::file(list)], true, None, None, 0, None);
        assert_eq!(feed.total(), Some(0));
        assert_eq!(fed_names(&feed), []);
        assert_eq!(feed.halted(), None);
    }

    #[test]
    fn lists_are_counted_before_and_read_as_the_run_goes() {
        let dir = tempfile::tempdir().unwrap();
        let list = dir.path().join("list.txt");
        std::fs::write(&list, "# two boards\r\n1 2 5 3 4 0 6 7 8\r\n\r\n  # note\r\n7 3 1 2 0 3\r1 2 x")
            .unwrap();
        let items = vec![Item::file(list.clone()), Item::file(PathBuf::from("board.txt"))];
        let feed = Feed::start(items, true, None, None, 0, None);
        assert_eq!(feed.total(), Some(4), "three lines of the list, and the board file");
        let name = list.display().to_string();
        assert_eq!(
            fed_names(&feed),
            [
                (0, format!("{name}:2")),
                (1, format!("{name}#7")),
                (2, format!("{name}:6")),
                (3, "board.txt".into())
            ]
        );
        assert_eq!(feed.halted(), None);
    }

    #[test]
    fn a_shard_keeps_its_positions_and_a_resumed_run_checks_what_it_passes_over() {
        let items: Vec<Item> = (0..10).map(|i| Item::file(PathBuf::from(format!("{i}.txt")))).collect();
        let feed = Feed::start(items.clone(), false, None, Some(Shard::new(1, 3).unwrap()), 0, None);
        assert_eq!(feed.total(), Some(3));
        assert_eq!(fed_names(&feed), [(0, "1.txt".into()), (1, "4.txt".into()), (2, "7.txt".into())]);
        let checked = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&checked);
        let check: Check = Box::new(move |item: &Item| {
            log.lock().unwrap().push(item.name.clone());
            Ok(())
        });
        let feed = Feed::start(items.clone(), false, None, Some(Shard::new(1, 3).unwrap()), 2, Some(check));
        assert_eq!(feed.total(), Some(1));
        assert_eq!(fed_names(&feed), [(0, "7.txt".into())]);
        assert_eq!(*checked.lock().unwrap(), ["1.txt", "4.txt"]);
        let refuse: Check = Box::new(|item: &Item| Err(format!("{} was edited", item.name)));
        let feed = Feed::start(items, false, None, None, 1, Some(refuse));
        assert_eq!(fed_names(&feed), []);
        assert_eq!(feed.halted(), Some(Halt::Mismatch("0.txt was edited".into())));
    }

    #[test]
    fn without_lists_files_stay_one_puzzle_each_and_an_unreadable_list_is_one_error_row() {
        let dir = tempfile::tempdir().unwrap();
        let list = dir.path().join("two.txt");
        std::fs::write(&list, "1 2 5 3 4 0 6 7 8\n0 1 2 3\n").unwrap();
        let feed = Feed::start(vec![Item::file(list.clone())], false, None, None, 0, None);
        assert_eq!(feed.total(), Some(1));
        assert_eq!(fed_names(&feed), [(0, list.display().to_string())]);
        let missing = Item::file(PathBuf::from("no/such/list"));
        let feed = Feed::start(vec![missing], true, None, None, 0, None);
        let cancel = AtomicBool::new(false);
        let fed = feed.next(&cancel).unwrap();
        assert!(matches!(&fed.item.source, Source::Problem(m) if m.contains("No such file")), "{fed:?}");
        assert!(feed.next(&cancel).is_none());
    }
}
