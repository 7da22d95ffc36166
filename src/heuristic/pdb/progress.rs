/*!
Progress reports of the long steps, and notices: loading, building and
saving a database take from a fraction of a second to minutes, and a file
may have to be rebuilt or cannot be saved; the library never prints, so
callers draw their own bars and say what happened from these events.

A database reports as the only pattern of its set; a caller combining
several relabels the reports with the pattern's place, so one database's
code serves alone and within a partition.
*/

use std::path::Path;

/// The step a [`Progress`] report is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Reading and verifying a file; counts bytes.
    Loading,
    /// Breadth-first construction; counts placements reached.
    Building,
    /// Writing a file; counts bytes.
    Saving,
}

/// A progress report, for drawing a bar: `done` of `total` in `phase` for
/// the database of `tiles`, the `pattern`-th (from 0) of `patterns`. A
/// [`PatternDatabase`](super::PatternDatabase) on its own is pattern 0 of 1.
#[derive(Clone, Copy, Debug)]
pub struct Progress<'a> {
    /// What is happening.
    pub phase: Phase,
    /// Index of the database within its partition.
    pub pattern: usize,
    /// Number of databases in the partition.
    pub patterns: usize,
    /// The database's tiles.
    pub tiles: &'a [u8],
    /// Units done.
    pub done: u64,
    /// Units in all.
    pub total: u64,
}

/// Something the user should know about the tables, besides progress.
#[derive(Clone, Copy, Debug)]
pub enum Notice<'a> {
    /// A file did not verify (`why`) and is being built again.
    Rebuilding {
        /// The file.
        path: &'a Path,
        /// What was wrong with it.
        why: &'a str,
    },
    /// The tables were built but cannot be kept in the cache (`why`): they
    /// serve this run only.
    NotSaved {
        /// The file that could not be written.
        path: &'a Path,
        /// Why not.
        why: &'a str,
    },
}

/// What loading or building tables reports as it goes.
#[derive(Clone, Copy, Debug)]
pub enum Event<'a> {
    /// How far a step has got.
    Progress(Progress<'a>),
    /// Something to tell the user.
    Notice(Notice<'a>),
}

/// A callback taking the units done so far and reporting them as `phase` of
/// the database of `tiles`, out of `total`: the shape `build.rs` and
/// `store.rs` count in, so they need not know about [`Progress`].
pub(super) fn reporter<'a>(
    phase: Phase,
    tiles: &'a [u8],
    total: u64,
    report: &'a mut dyn FnMut(Event<'_>),
) -> impl FnMut(u64) + 'a {
    move |done| report(Event::Progress(Progress { phase, pattern: 0, patterns: 1, tiles, done, total }))
}

/// `report`, with every progress report relabelled as the `pattern`-th of
/// `patterns`: only the caller combining databases knows which one it is
/// on.
pub(super) fn relabel(
    pattern: usize,
    patterns: usize,
    report: &mut dyn FnMut(Event<'_>),
) -> impl FnMut(Event<'_>) + '_ {
    move |event: Event<'_>| {
        report(match event {
            Event::Progress(progress) => Event::Progress(Progress { pattern, patterns, ..progress }),
            notice @ Event::Notice(_) => notice,
        });
    }
}
