/*!
Live figures of a running search, for a display that another thread draws
(the binary's status line). Searches print nothing: they store their
figures here at the periodic limit check they make anyway, every
[`Budget::TICKS_PER_CHECK`](super::Budget) nodes, so a watched search does
no more work per node than an unwatched one.
*/

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

/// A shorter answer an anytime search found, with the lower bound proven
/// by then and the time it came at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Improvement {
    /// Moves of the answer.
    pub cost: u32,
    /// The lower bound proven when it came.
    pub lower_bound: u32,
    /// Time since the search started.
    pub at: Duration,
}

/// Stands for "none" in a field that may have no value.
const NONE: u64 = u64::MAX;

/// Figures one search shares while it runs; put it in
/// [`Limits::monitor`](super::Limits) and read it with [`Monitor::snapshot`].
#[derive(Debug)]
pub struct Monitor {
    expanded: AtomicU64,
    stored: AtomicU64,
    node_limit: AtomicU64,
    /// IDA*'s bound, as the bits of an `f64`.
    bound: AtomicU64,
    /// An anytime search's improvements not yet taken by the display.
    improvements: Mutex<Vec<Improvement>>,
}

/// What a [`Monitor`] held at one moment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Snapshot {
    /// Nodes expanded so far (IDA*: over all passes).
    pub expanded: u64,
    /// States stored now; 0 for searches that store only a path.
    pub stored: u64,
    /// The limit on stored states, for searches it bounds.
    pub node_limit: Option<u64>,
    /// IDA*'s bound on f = g + W·h in the current pass, in moves.
    pub bound: Option<f64>,
}

impl Default for Monitor {
    fn default() -> Monitor {
        Monitor {
            expanded: AtomicU64::new(0),
            stored: AtomicU64::new(0),
            node_limit: AtomicU64::new(NONE),
            bound: AtomicU64::new(NONE),
            improvements: Mutex::new(Vec::new()),
        }
    }
}

impl Monitor {
    /// The figures as last stored. Each is read on its own (relaxed), so
    /// two may be one check apart: enough for a display.
    pub fn snapshot(&self) -> Snapshot {
        let some = |value: u64| (value != NONE).then_some(value);
        Snapshot {
            expanded: self.expanded.load(Ordering::Relaxed),
            stored: self.stored.load(Ordering::Relaxed),
            node_limit: some(self.node_limit.load(Ordering::Relaxed)),
            bound: some(self.bound.load(Ordering::Relaxed)).map(f64::from_bits),
        }
    }

    /// Clears every figure, for the next search watched through the same
    /// monitor (a batch's job keeps one for all its puzzles).
    pub(crate) fn reset(&self) {
        self.record(0, 0);
        self.node_limit.store(NONE, Ordering::Relaxed);
        self.bound.store(NONE, Ordering::Relaxed);
        self.improvements.lock().unwrap_or_else(PoisonError::into_inner).clear();
    }

    pub(crate) fn set_node_limit(&self, limit: u64) {
        self.node_limit.store(limit, Ordering::Relaxed);
    }

    pub(crate) fn record(&self, expanded: u64, stored: u64) {
        self.expanded.store(expanded, Ordering::Relaxed);
        self.stored.store(stored, Ordering::Relaxed);
    }

    pub(crate) fn set_bound(&self, moves: f64) {
        self.bound.store(moves.to_bits(), Ordering::Relaxed);
    }

    /// The improvements an anytime search found since the last call, in
    /// order.
    pub fn take_improvements(&self) -> Vec<Improvement> {
        std::mem::take(&mut *self.improvements.lock().unwrap_or_else(PoisonError::into_inner))
    }

    pub(crate) fn improved(&self, improvement: Improvement) {
        self.improvements.lock().unwrap_or_else(PoisonError::into_inner).push(improvement);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fresh_monitor_has_no_limit_and_no_bound() {
        let monitor = Monitor::default();
        let empty = Snapshot { expanded: 0, stored: 0, node_limit: None, bound: None };
        assert_eq!(monitor.snapshot(), empty);
        monitor.set_node_limit(5000);
        monitor.record(1024, 3000);
        monitor.set_bound(52.5);
        let seen = Snapshot { expanded: 1024, stored: 3000, node_limit: Some(5000), bound: Some(52.5) };
        assert_eq!(monitor.snapshot(), seen);
    }

    #[test]
    fn a_reset_monitor_is_as_good_as_fresh() {
        let monitor = Monitor::default();
        monitor.set_node_limit(5000);
        monitor.record(1024, 3000);
        monitor.set_bound(52.5);
        monitor.improved(Improvement { cost: 60, lower_bound: 52, at: Duration::from_millis(3) });
        monitor.reset();
        assert_eq!(monitor.snapshot(), Monitor::default().snapshot());
        assert!(monitor.take_improvements().is_empty());
    }
}
