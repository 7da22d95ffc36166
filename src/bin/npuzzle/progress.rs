/*!
Progress on standard error: a bar (done/total, elapsed time and an estimate
of the time left) or the status of a long search. On a terminal it is one
line redrawn in place, at most ten times a second; for a log (`--progress
always` when standard error is not a terminal) it is a plain line at the
start and then one every [`LOG_EVERY`]. How it is shown is decided once per
process, from `--progress` and whether standard error is a terminal.
*/

use crate::cli::ProgressWhen;
use npuzzle::batch::UnderWay;
use npuzzle::search::{Improvement, Monitor, Snapshot};
use std::fmt::Write as _;
use std::io::{self, IsTerminal, Write};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, OnceLock};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// Cells of the bar itself.
const BAR: usize = 30;
/// Least time between two redraws.
const EVERY: Duration = Duration::from_millis(100);
/// Time between two lines of progress written to a log.
const LOG_EVERY: Duration = Duration::from_secs(10);
/// Columns a line redrawn on a terminal may take: one that wraps cannot be
/// drawn over.
const WIDTH: usize = 80;

/// How progress is shown, decided once per process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Display {
    /// Not at all.
    Hidden,
    /// One line redrawn in place.
    Terminal,
    /// Plain lines, for a log.
    Log,
}

static DISPLAY: OnceLock<Display> = OnceLock::new();

impl Display {
    /// Decides how progress is shown for the rest of the process.
    pub fn init(when: ProgressWhen) {
        let terminal = io::stderr().is_terminal();
        let display = match when {
            ProgressWhen::Never => Display::Hidden,
            _ if terminal => Display::Terminal,
            ProgressWhen::Always => Display::Log,
            ProgressWhen::Auto => Display::Hidden,
        };
        let _ = DISPLAY.set(display);
    }

    /// How progress is shown: as [`Display::init`] decided, else on a
    /// terminal only.
    pub fn get() -> Display {
        *DISPLAY.get_or_init(|| if io::stderr().is_terminal() { Display::Terminal } else { Display::Hidden })
    }

    /// Least time between two updates.
    fn every(self) -> Duration {
        if self == Display::Log { LOG_EVERY } else { EVERY }
    }
}

/// The bar's state.
pub struct Progress {
    display: Display,
    /// What the bar is about, drawn before it (may be empty).
    label: String,
    /// Show done/total as a percentage (for large unit counts such as bytes).
    percent: bool,
    /// Steps in all, when known (a list on standard input is not counted).
    total: Option<usize>,
    done: usize,
    started: Instant,
    drawn: Option<Instant>,
    line: Line,
    /// The long search under way, shown after the counts.
    search: Option<Search>,
}

/// What the line shows of a long search under way: its puzzle's name and
/// its figures.
struct Search {
    name: String,
    figures: String,
}

/// The line on the terminal, drawn over itself and cleared when done; in a
/// log, each draw is a line of its own.
#[derive(Default)]
struct Line {
    visible: bool,
}

impl Line {
    fn draw(&mut self, display: Display, text: &str) {
        // Errors writing to standard error only lose the line.
        match display {
            Display::Hidden => {}
            Display::Terminal => {
                let _ = write!(io::stderr(), "\r\x1b[2K{text}");
                self.visible = true;
            }
            Display::Log => {
                let _ = writeln!(io::stderr(), "npuzzle: {text}");
            }
        }
    }

    fn clear(&mut self) {
        if self.visible {
            let _ = io::stderr().write_all(b"\r\x1b[2K");
            self.visible = false;
        }
    }
}

impl Progress {
    /// A bar for `total` steps (`None`: not known), shown as
    /// [`Display::get`] says.
    pub fn new(total: impl Into<Option<usize>>) -> Progress {
        Progress {
            display: Display::get(),
            label: String::new(),
            percent: false,
            total: total.into(),
            done: 0,
            started: Instant::now(),
            drawn: None,
            line: Line::default(),
            search: None,
        }
    }

    /// A bar that shows its counts as a percentage of `total`.
    pub fn percent(total: usize) -> Progress {
        Progress { percent: true, ..Progress::new(total) }
    }

    /// Starts a new step: a new label and total, the clock reset, the
    /// old step's line gone.
    pub fn restart(&mut self, label: String, total: impl Into<Option<usize>>) {
        self.line.clear();
        self.label = label;
        self.total = total.into();
        self.done = 0;
        self.started = Instant::now();
        self.drawn = None;
    }

    /// Changes what the bar says it is doing, keeping its counts; redrawn
    /// when the last draw is old enough.
    pub fn relabel(&mut self, label: String) {
        if label != self.label {
            self.label = label;
            self.refresh();
        }
    }

    /// Shows the search that has run longest of those under way, once it
    /// has run [`STATUS_AFTER`] (most are over by then), with its figures
    /// (`max_expanded` being the limit on its expansions); `None` when
    /// none is under way. Drawn with the next redraw.
    pub fn under_way(&mut self, longest: Option<UnderWay<'_>>, max_expanded: Option<u64>) {
        self.search = longest.filter(|search| search.running >= STATUS_AFTER).map(|search| Search {
            name: search.name.to_owned(),
            figures: format!("{}  {}", clock(search.running), figures(&search.figures, max_expanded)),
        });
    }

    /// Records `done` steps finished without drawing anything.
    pub fn count(&mut self, done: usize) {
        self.done = done;
    }

    /// Records `done` steps finished; redraws if the last draw is old enough.
    pub fn set(&mut self, done: usize) {
        self.done = done;
        if self.drawn.is_none_or(|at| at.elapsed() >= self.display.every()) {
            self.draw();
        }
    }

    /// Redraws the bar if the last draw is old enough, so the clocks move
    /// while a long puzzle runs.
    pub fn refresh(&mut self) {
        self.set(self.done);
    }

    /// Runs `write` (which prints to the terminal) with the bar out of the way.
    pub fn suspend<T>(&mut self, write: impl FnOnce() -> T) -> T {
        let was_visible = self.line.visible;
        self.line.clear();
        let result = write();
        if was_visible {
            self.draw();
        }
        result
    }

    /// Removes the bar for good.
    pub fn finish(&mut self) {
        self.line.clear();
        self.display = Display::Hidden;
    }

    fn draw(&mut self) {
        if self.display == Display::Hidden {
            return;
        }
        let terminal = self.display == Display::Terminal;
        let mut line = match &self.search {
            // On a terminal a long search's figures take the place of the
            // bar and the clocks (whose estimate means little then).
            Some(_) if terminal => match self.total {
                Some(total) => format!("{}/{total}", self.done),
                None => format!("{} done", self.done),
            },
            _ => render(self.done, self.total, self.started.elapsed(), self.percent, terminal),
        };
        if !self.label.is_empty() {
            line = format!("{}  {line}", self.label);
        }
        if let Some(search) = &self.search {
            line = with_search(&line, &search.name, &search.figures, terminal.then_some(WIDTH));
        }
        self.line.draw(self.display, &line);
        self.drawn = Some(Instant::now());
    }
}

/// Quiet time before a search's status line appears: most searches are
/// over by then, and a line that flashes up and vanishes only distracts.
const STATUS_AFTER: Duration = Duration::from_secs(1);
/// Time between two redraws of the status line.
const STATUS_EVERY: Duration = Duration::from_millis(250);
/// How often the status thread looks for an anytime search's improvements.
const IMPROVEMENTS_EVERY: Duration = Duration::from_millis(50);

/// The status line of one running search, drawn by a thread of its own
/// from the figures the search leaves in its [`Monitor`]; cleared, and the
/// thread ended, by [`SearchStatus::finish`] or when dropped.
pub struct SearchStatus {
    /// Dropping it wakes the thread to clear the line and end.
    done: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl SearchStatus {
    /// Watches `monitor` (the limit on expansions, if any, is
    /// `max_expanded`): on a terminal, after [`STATUS_AFTER`] it draws the
    /// figures a few times a second; in a log it writes them at once and
    /// then every [`LOG_EVERY`]. `None` when progress is hidden: then
    /// nothing watches and nothing is drawn.
    pub fn start(max_expanded: Option<u64>) -> (Option<Arc<Monitor>>, SearchStatus) {
        let idle = SearchStatus { done: None, thread: None };
        let display = Display::get();
        let (first, every) = match display {
            Display::Hidden => return (None, idle),
            Display::Terminal => (STATUS_AFTER, STATUS_EVERY),
            Display::Log => (Duration::ZERO, LOG_EVERY),
        };
        let monitor = Arc::new(Monitor::default());
        let watched = Arc::clone(&monitor);
        let (done, finished) = mpsc::channel::<()>();
        let started = Instant::now();
        let thread = thread::Builder::new().name("status".into()).spawn(move || {
            let mut line = Line::default();
            let mut next_draw = started + first;
            // Woken early (the sender dropped) only when the search is over;
            // otherwise often enough that an anytime search's improvements
            // are shown as they come.
            loop {
                let wait = next_draw.saturating_duration_since(Instant::now()).min(IMPROVEMENTS_EVERY);
                let over = !matches!(finished.recv_timeout(wait), Err(RecvTimeoutError::Timeout));
                for better in watched.take_improvements() {
                    line.clear();
                    Line::default().draw(Display::Log, &improvement(&better));
                    line.visible = false;
                }
                if over {
                    break;
                }
                if Instant::now() >= next_draw {
                    line.draw(display, &status(&watched.snapshot(), started.elapsed(), max_expanded));
                    next_draw = Instant::now() + every;
                }
            }
            line.clear();
        });
        // Without a thread the search simply runs unwatched.
        match thread {
            Ok(thread) => (Some(monitor), SearchStatus { done: Some(done), thread: Some(thread) }),
            Err(_) => (None, idle),
        }
    }

    /// Clears the line (if it was drawn) and waits until it is gone.
    pub fn finish(mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        drop(self.done.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for SearchStatus {
    fn drop(&mut self) {
        self.stop();
    }
}

/// `better answer: 112 moves, lower bound 98 (1.1429 times it), at 0.021 s`:
/// one of an anytime search's improvements.
fn improvement(better: &Improvement) -> String {
    let ratio =
        if better.lower_bound == 0 { 1.0 } else { f64::from(better.cost) / f64::from(better.lower_bound) };
    format!(
        "better answer: {} moves, lower bound {} ({ratio:.4} times it), at {:.3} s",
        better.cost,
        better.lower_bound,
        better.at.as_secs_f64()
    )
}

/// `searching  elapsed 0:07  expanded 48.2M of 100M  stored 12.6M of 134M  f bound 52`:
/// what is known of a search, short enough for an 80-column terminal.
fn status(figures: &Snapshot, elapsed: Duration, max_expanded: Option<u64>) -> String {
    format!("searching  elapsed {}  {}", clock(elapsed), self::figures(figures, max_expanded))
}

/// `solving  3/50  korf24/50.txt  2:13:05  expanded 23.4G  f bound 111`: a
/// batch's `line` with the search under way that has run longest. With a
/// `width`, the name loses its head (a path's end tells files apart) so
/// that the line fits.
fn with_search(line: &str, name: &str, figures: &str, width: Option<usize>) -> String {
    let whole = format!("{line}  {name}  {figures}");
    let Some(width) = width else { return whole };
    let over = whole.chars().count().saturating_sub(width);
    let chars = name.chars().count();
    if over == 0 || chars <= 1 {
        return whole;
    }
    // At least the last 12 characters of the name stay, after the '…'.
    let keep = chars.saturating_sub(over + 1).max(12.min(chars - 1));
    let tail: String = name.chars().skip(chars - keep).collect();
    format!("{line}  …{tail}  {figures}")
}

/// `expanded 48.2M of 100M  stored 12.6M of 134M  f bound 52`: a search's
/// figures, each only when it has one.
fn figures(figures: &Snapshot, max_expanded: Option<u64>) -> String {
    // Writing to a String cannot fail.
    let mut line = format!("expanded {}", count(figures.expanded));
    if let Some(limit) = max_expanded {
        let _ = write!(line, " of {}", count(limit));
    }
    if let Some(limit) = figures.node_limit {
        let _ = write!(line, "  stored {} of {}", count(figures.stored), count(limit));
    }
    if let Some(bound) = figures.bound {
        let digits = if bound.fract() == 0.0 { 0 } else { 2 };
        let _ = write!(line, "  f bound {bound:.digits$}");
    }
    line
}

/// A count in three significant digits and a unit: `950`, `12.3k`, `48.2M`, `1.23G`.
fn count(n: u64) -> String {
    if n < 1000 {
        return n.to_string();
    }
    for (scale, unit) in [(1e3, "k"), (1e6, "M"), (1e9, "G"), (1e12, "T"), (1e15, "P")] {
        let value = n as f64 / scale;
        // Rounding may carry into the next unit (999,999 is 1.00M).
        if value < 999.5 {
            let digits = usize::from(value < 9.995) + usize::from(value < 99.95);
            return format!("{value:.digits$}{unit}");
        }
    }
    format!("{:.2}E", n as f64 / 1e18)
}

/// `[#######-------]  312/1000  elapsed 0:03  ETA 0:07`, or `  31%` in
/// place of the counts; without the bar when `bar` is false (a log). With
/// no total, `312 done  elapsed 0:03  104/s`.
fn render(done: usize, total: Option<usize>, elapsed: Duration, percent: bool, bar: bool) -> String {
    let Some(total) = total else {
        let seconds = elapsed.as_secs_f64();
        let rate = if seconds > 0.0 { format!("  {:.0}/s", done as f64 / seconds) } else { String::new() };
        return format!("{done} done  elapsed {}{rate}", clock(elapsed));
    };
    let fraction = if total == 0 { 1.0 } else { done as f64 / total as f64 };
    let filled = ((fraction * BAR as f64) as usize).min(BAR);
    let eta = if done == 0 {
        "?".to_owned()
    } else {
        let left = elapsed.as_secs_f64() / done as f64 * total.saturating_sub(done) as f64;
        clock(Duration::from_secs_f64(left))
    };
    let count = if percent { format!("{:3.0}%", fraction * 100.0) } else { format!("{done}/{total}") };
    let counts = format!("{count}  elapsed {}  ETA {eta}", clock(elapsed));
    if bar { format!("[{}{}]  {counts}", "#".repeat(filled), "-".repeat(BAR - filled)) } else { counts }
}

/// `m:ss`, or `h:mm:ss` from an hour on.
fn clock(time: Duration) -> String {
    let s = time.as_secs();
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shows_done_of_total_elapsed_and_time_left() {
        let line = render(250, Some(1000), Duration::from_secs(5), false, true);
        assert_eq!(line, format!("[{}{}]  250/1000  elapsed 0:05  ETA 0:15", "#".repeat(7), "-".repeat(23)));
        assert!(render(0, Some(10), Duration::ZERO, false, true).ends_with("ETA ?"));
        assert!(
            render(1, Some(3), Duration::from_secs(1), true, true)
                .contains("]   33%  elapsed 0:01  ETA 0:02")
        );
        assert_eq!(
            render(250, Some(1000), Duration::from_secs(5), false, false),
            "250/1000  elapsed 0:05  ETA 0:15"
        );
        assert_eq!(render(250, None, Duration::from_secs(5), false, true), "250 done  elapsed 0:05  50/s");
        assert_eq!(clock(Duration::from_secs(3723)), "1:02:03");
    }

    #[test]
    fn a_batch_line_names_its_longest_search_and_fits_a_terminal() {
        let (counts, figures) = ("solving  3/50", "2:13:05  expanded 23.4G  f bound 111");
        let short = "puzzles/korf24/50.txt";
        assert_eq!(with_search(counts, short, figures, Some(WIDTH)), format!("{counts}  {short}  {figures}"));
        let long = "a/very/long/folder/name/where/the/instances/live/korf24/50.txt";
        let line = with_search(counts, long, figures, Some(WIDTH));
        assert_eq!(line, "solving  3/50  …stances/live/korf24/50.txt  2:13:05  expanded 23.4G  f bound 111");
        assert_eq!(line.chars().count(), WIDTH);
        assert_eq!(
            with_search(counts, long, figures, None),
            format!("{counts}  {long}  {figures}"),
            "a log's lines are not cut"
        );
        let crowded =
            with_search(&format!("{counts}  and a label too long for any name"), long, figures, Some(WIDTH));
        assert!(crowded.contains("  …orf24/50.txt  "), "at least the name's last 12 characters: {crowded}");
    }

    #[test]
    fn the_status_line_shows_what_limits_the_search() {
        let astar =
            Snapshot { expanded: 48_213_504, stored: 12_582_912, node_limit: Some(134_217_728), bound: None };
        assert_eq!(
            status(&astar, Duration::from_secs(7), Some(100_000_000)),
            "searching  elapsed 0:07  expanded 48.2M of 100M  stored 12.6M of 134M"
        );
        let idastar = Snapshot { expanded: 1_234_567_890, stored: 0, node_limit: None, bound: Some(52.0) };
        assert_eq!(
            status(&idastar, Duration::from_secs(83), None),
            "searching  elapsed 1:23  expanded 1.23G  f bound 52"
        );
        let weighted = Snapshot { bound: Some(40.5), ..idastar };
        assert!(status(&weighted, Duration::ZERO, None).ends_with("f bound 40.50"));
        assert_eq!(
            [count(950), count(12_345), count(99_960), count(999_999), count(u64::MAX)],
            ["950", "12.3k", "100k", "1.00M", "18.45E"]
        );
    }
}
