/*!
A one-line progress bar on standard error: done/total, elapsed time and an
estimate of the time left. Drawn only when asked to (the caller checks that
standard error is a terminal), at most ten times a second.
*/

use std::io::{self, Write};
use std::time::{Duration, Instant};

/// Cells of the bar itself.
const BAR: usize = 30;
/// Least time between two redraws.
const EVERY: Duration = Duration::from_millis(100);

/// The bar's state.
pub struct Progress {
    enabled: bool,
    /// What the bar is about, drawn before it (may be empty).
    label: String,
    /// Show done/total as a percentage (for large unit counts such as bytes).
    percent: bool,
    total: usize,
    done: usize,
    started: Instant,
    drawn: Option<Instant>,
    visible: bool,
}

impl Progress {
    /// A bar for `total` steps, drawn only if `enabled`.
    pub fn new(total: usize, enabled: bool) -> Progress {
        Progress {
            enabled,
            label: String::new(),
            percent: false,
            total,
            done: 0,
            started: Instant::now(),
            drawn: None,
            visible: false,
        }
    }

    /// A bar that shows its counts as a percentage of `total`.
    pub fn percent(total: usize, enabled: bool) -> Progress {
        Progress { percent: true, ..Progress::new(total, enabled) }
    }

    /// Starts a new step: a new label and total, the clock reset.
    pub fn restart(&mut self, label: String, total: usize) {
        self.label = label;
        self.total = total;
        self.done = 0;
        self.started = Instant::now();
        self.drawn = None;
    }

    /// Records `done` steps finished; redraws if the last draw is old enough.
    pub fn set(&mut self, done: usize) {
        self.done = done;
        if self.drawn.is_none_or(|at| at.elapsed() >= EVERY) {
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
        let was_visible = self.visible;
        self.clear();
        let result = write();
        if was_visible {
            self.draw();
        }
        result
    }

    /// Removes the bar for good.
    pub fn finish(&mut self) {
        self.clear();
        self.enabled = false;
    }

    fn clear(&mut self) {
        if self.visible {
            // Errors writing to the terminal only lose the bar.
            let _ = io::stderr().write_all(b"\r\x1b[2K");
            self.visible = false;
        }
    }

    fn draw(&mut self) {
        if !self.enabled {
            return;
        }
        let mut line = render(self.done, self.total, self.started.elapsed(), self.percent);
        if !self.label.is_empty() {
            line = format!("{}  {line}", self.label);
        }
        let _ = write!(io::stderr(), "\r\x1b[2K{line}");
        self.visible = true;
        self.drawn = Some(Instant::now());
    }
}

/// `[#######-------]  312/1000  elapsed 0:03  ETA 0:07`, or `  31%` in
/// place of the counts.
fn render(done: usize, total: usize, elapsed: Duration, percent: bool) -> String {
    let fraction = if total == 0 { 1.0 } else { done as f64 / total as f64 };
    let filled = ((fraction * BAR as f64) as usize).min(BAR);
    let eta = if done == 0 {
        "?".to_owned()
    } else {
        let left = elapsed.as_secs_f64() / done as f64 * total.saturating_sub(done) as f64;
        clock(Duration::from_secs_f64(left))
    };
    let count = if percent { format!("{:3.0}%", fraction * 100.0) } else { format!("{done}/{total}") };
    format!(
        "[{}{}]  {count}  elapsed {}  ETA {eta}",
        "#".repeat(filled),
        "-".repeat(BAR - filled),
        clock(elapsed),
    )
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
        let line = render(250, 1000, Duration::from_secs(5), false);
        assert_eq!(line, format!("[{}{}]  250/1000  elapsed 0:05  ETA 0:15", "#".repeat(7), "-".repeat(23)));
        assert!(render(0, 10, Duration::ZERO, false).ends_with("ETA ?"));
        assert!(render(1, 3, Duration::from_secs(1), true).contains("]   33%  elapsed 0:01  ETA 0:02"));
        assert_eq!(clock(Duration::from_secs(3723)), "1:02:03");
    }
}
