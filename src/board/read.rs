/*!
Reading input text: the one reader behind every command, so that a file, a
FIFO, a device and standard input are read alike by `solve` and `batch`.

A regular file is read in one go, its length known up front. Anything else
(a FIFO, a terminal, standard input) is read to its end, which may never
come: given a cancellation flag or a deadline ([`Patience`]), the reading
happens on a thread of its own while the caller watches them, so Ctrl-C
stops a batch, and a timeout a solve, even while it waits on a FIFO nobody
writes to. That thread is left blocked; it ends with the process.
*/

use super::parse_error::ParseErrorKind;
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Inputs larger than this are refused rather than read into memory.
pub const MAX_INPUT_BYTES: u64 = 1 << 20;

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

/// `io::Error`'s message without the "(os error N)" suffix users don't need.
pub fn io_message(e: &io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(cut) => text[..cut].to_owned(),
        None => text,
    }
}

/// How often a cancellable read looks at its flag: often enough that
/// Ctrl-C feels immediate, rarely enough to cost nothing.
const CANCEL_POLL: Duration = Duration::from_millis(20);

/// How long a read that may block (a FIFO, a terminal, standard input) may
/// wait: until Ctrl-C sets `cancel`, or until `deadline`; by default, for
/// ever.
#[derive(Clone, Copy, Debug, Default)]
pub struct Patience<'a> {
    /// Set from elsewhere (a Ctrl-C handler) to give up.
    pub cancel: Option<&'a AtomicBool>,
    /// When to give up.
    pub deadline: Option<Instant>,
}

impl Patience<'_> {
    /// Whether a read must give up now, and why.
    fn exhausted(&self) -> Option<ParseErrorKind> {
        if self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Some(ParseErrorKind::Interrupted);
        }
        self.deadline.filter(|&d| Instant::now() >= d).map(|_| ParseErrorKind::TimedOut)
    }
}

/// The text behind `input`, at most `limit` bytes of it (invalid UTF-8 is
/// replaced, so the parser names the bad token). With `cancel`, a read that
/// may block (anything but a regular file) gives up once the flag is set.
///
/// # Errors
/// [`ParseErrorKind::Io`] when the input cannot be opened or read,
/// [`ParseErrorKind::TooLarge`] past `limit`, and
/// [`ParseErrorKind::Interrupted`] when `cancel` was set first.
pub fn read_text(input: &Input, limit: u64, cancel: Option<&AtomicBool>) -> Result<String, ParseErrorKind> {
    read_text_until(input, limit, Patience { cancel, deadline: None })
}

/// [`read_text`], a read that may block giving up as `patience` says.
///
/// # Errors
/// As [`read_text`], and [`ParseErrorKind::TimedOut`] when the deadline
/// came first.
pub fn read_text_until(input: &Input, limit: u64, patience: Patience<'_>) -> Result<String, ParseErrorKind> {
    let bytes = match input {
        Input::Inline(text) => return Ok(text.clone()),
        Input::File(path) => match fs::metadata(path) {
            Ok(meta) if meta.is_file() => read_file(path, meta.len(), limit)?,
            // Opening a FIFO blocks until a writer comes, so even the open
            // goes where Ctrl-C can leave it behind.
            Ok(_) => {
                let path = path.clone();
                read_blocking(
                    move || fs::File::open(&path).map_err(|e| io_error(&e))?.read_limited(limit),
                    patience,
                )?
            }
            Err(e) => return Err(io_error(&e)),
        },
        Input::Stdin => read_blocking(move || io::stdin().lock().read_limited(limit), patience)?,
    };
    Ok(match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

/// A regular file of `length` bytes: one allocation, and the reads it takes.
fn read_file(path: &Path, length: u64, limit: u64) -> Result<Vec<u8>, ParseErrorKind> {
    if length > limit {
        return Err(ParseErrorKind::TooLarge(limit));
    }
    let file = fs::File::open(path).map_err(|e| io_error(&e))?;
    // One byte more than expected, so a file that grew past the limit since
    // it was measured is still caught.
    let mut bytes = Vec::with_capacity(length as usize + 1);
    file.take(limit + 1).read_to_end(&mut bytes).map_err(|e| io_error(&e))?;
    check_limit(bytes, limit)
}

/// Runs `read` here, or, with a flag or a deadline to watch, on a thread of
/// its own while this one watches them.
fn read_blocking<F>(read: F, patience: Patience<'_>) -> Result<Vec<u8>, ParseErrorKind>
where
    F: FnOnce() -> Result<Vec<u8>, ParseErrorKind> + Send + 'static,
{
    if patience.cancel.is_none() && patience.deadline.is_none() {
        return read();
    }
    if let Some(reason) = patience.exhausted() {
        return Err(reason);
    }
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        // The receiver is gone when the read was abandoned: nothing to do.
        let _ = sender.send(read());
    });
    loop {
        if let Some(reason) = patience.exhausted() {
            return Err(reason);
        }
        match receiver.recv_timeout(CANCEL_POLL) {
            Ok(result) => return result,
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(ParseErrorKind::Io("the reading thread stopped".to_owned()));
            }
        }
    }
}

/// Reading to the end, refusing more than a limit.
trait ReadLimited {
    fn read_limited(self, limit: u64) -> Result<Vec<u8>, ParseErrorKind>;
}

impl<R: Read> ReadLimited for R {
    fn read_limited(self, limit: u64) -> Result<Vec<u8>, ParseErrorKind> {
        let mut bytes = Vec::new();
        self.take(limit + 1).read_to_end(&mut bytes).map_err(|e| io_error(&e))?;
        check_limit(bytes, limit)
    }
}

fn check_limit(bytes: Vec<u8>, limit: u64) -> Result<Vec<u8>, ParseErrorKind> {
    if bytes.len() as u64 > limit { Err(ParseErrorKind::TooLarge(limit)) } else { Ok(bytes) }
}

fn io_error(e: &io::Error) -> ParseErrorKind {
    ParseErrorKind::Io(io_message(e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn a_regular_file_is_read_whole_and_refused_past_the_limit() {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        file.write_all(b"1 2 5\n3 4 0\n6 7 \xFF8\n").unwrap();
        let input = Input::File(file.path().to_path_buf());
        assert_eq!(read_text(&input, 100, None).unwrap(), "1 2 5\n3 4 0\n6 7 \u{FFFD}8\n");
        assert_eq!(read_text(&input, 10, None), Err(ParseErrorKind::TooLarge(10)));
        let missing = Input::File("no/such/file".into());
        assert!(
            matches!(read_text(&missing, 100, None), Err(ParseErrorKind::Io(m)) if m.contains("No such"))
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_read_to_its_end_and_a_cancelled_wait_gives_up() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(made.success());
        let input = Input::File(fifo.clone());
        let writer = std::thread::spawn(move || fs::write(fifo, "0 1\n2 3\n").unwrap());
        assert_eq!(read_text(&input, 100, Some(&AtomicBool::new(false))).unwrap(), "0 1\n2 3\n");
        writer.join().unwrap();
        // Nobody writes now: only the flag ends the wait.
        let cancel = std::sync::Arc::new(AtomicBool::new(false));
        let setter = std::sync::Arc::clone(&cancel);
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            setter.store(true, Ordering::Relaxed);
        });
        assert_eq!(read_text(&input, 100, Some(&cancel)), Err(ParseErrorKind::Interrupted));
    }
}
