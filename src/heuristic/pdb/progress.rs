/*!
Progress reports of the long steps: loading, building and saving a
database take from a fraction of a second to minutes, and the library never
prints, so callers draw their own bars from these reports.

Each report says which database of how many it is for; a database loaded,
built or saved on its own is the only one of its set.
*/

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
/// the database of `tiles`, the `pattern`-th (from 0) of `patterns`.
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

/// Which database of how many a long step is for, to label progress.
#[derive(Clone, Copy)]
pub(super) struct Job {
    pub(super) pattern: usize,
    pub(super) patterns: usize,
}

pub(super) const SINGLE: Job = Job { pattern: 0, patterns: 1 };

impl Job {
    /// A callback taking the units done so far and reporting them as
    /// `phase` of this job, out of `total`.
    pub(super) fn reporter<'a>(
        self,
        phase: Phase,
        tiles: &'a [u8],
        total: u64,
        progress: &'a mut dyn FnMut(Progress<'_>),
    ) -> impl FnMut(u64) + 'a {
        move |done| {
            progress(Progress { phase, pattern: self.pattern, patterns: self.patterns, tiles, done, total });
        }
    }
}
