/*!
The job pool: a batch's puzzles solved on several threads, their rows handed
out in input order as soon as each and every one before it are done.
Memory stays bounded however long the run: a puzzle waits to start while
[`AHEAD_OF_ORDER`] rows finished after it are still waiting for an earlier
one, so only ordering keeps rows, and only that many.
*/

use super::{Feed, Settings, Worker, solve_item};
use crate::machine::{MAX_THREADS, cores, threads_to_plan};
use crate::report::{Record, Summary};
use crate::search::{Limits, Monitor, Snapshot};
use std::collections::BTreeMap;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// Rows that may finish ahead of the next one to hand out: while one long
/// puzzle runs, the other jobs go on this far past it and then wait.
pub const AHEAD_OF_ORDER: usize = 1 << 16;

/// What [`run`] reports while it works.
#[derive(Debug)]
pub enum Event<'a> {
    /// Another puzzle finished (not necessarily the next row).
    Progress {
        /// Puzzles finished so far.
        done: usize,
        /// Puzzles in the batch, when known (not for standard input).
        total: Option<usize>,
    },
    /// Another puzzle's search is about to start.
    Started {
        /// Puzzles started so far.
        started: usize,
    },
    /// The next row, in input order.
    Row(&'a Record),
    /// Something the user should hear of that is not a row: a puzzle's
    /// saved progress that could not be taken up.
    Notice(&'a str),
    /// Another [`TICK`] passed: the moment to push buffered rows out (so a
    /// reader, or a job runner that kills the process, never waits long for
    /// them) and to redraw a clock. One more comes just before [`run`]
    /// returns.
    Tick {
        /// The search that has run longest of those under way, when the
        /// run is watched ([`Settings::watch`]).
        longest: Option<UnderWay<'a>>,
    },
}

/// How often [`run`] sends [`Event::Tick`].
pub const TICK: Duration = Duration::from_millis(100);

/// How a run ended.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Finished {
    /// Totals over the rows, with the wall time.
    pub summary: Summary,
    /// Puzzles never started because the run was cancelled, when the
    /// batch's size is known.
    pub not_run: Option<usize>,
    /// Rows handed out.
    pub rows: usize,
}

/// A puzzle whose search is under way.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UnderWay<'a> {
    /// The puzzle's name, as its row's `file` will be.
    pub name: &'a str,
    /// How long its search has run in this process (a search taken up
    /// from saved progress ran before, and its counts say so).
    pub running: Duration,
    /// The search's figures as it last left them.
    pub figures: Snapshot,
}

/// What one job of a watched run is solving, for the clock to show.
struct Slot {
    /// The puzzle's name; its buffer is kept from puzzle to puzzle.
    name: String,
    /// When its search started; `None` between puzzles.
    since: Option<Instant>,
    monitor: Arc<Monitor>,
}

impl Slot {
    fn lock(slot: &Mutex<Slot>) -> MutexGuard<'_, Slot> {
        slot.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The searches under way in a watched run, a slot per job; no slots when
/// the run is not watched.
struct Watch {
    slots: Vec<Mutex<Slot>>,
}

impl Watch {
    fn new(watched: bool, jobs: usize) -> Watch {
        let slot = || Mutex::new(Slot { name: String::new(), since: None, monitor: Arc::default() });
        Watch { slots: if watched { (0..jobs).map(|_| slot()).collect() } else { Vec::new() } }
    }

    fn slot(&self, job: usize) -> Option<MutexGuard<'_, Slot>> {
        self.slots.get(job).map(Slot::lock)
    }

    /// The worker of `job`, its searches watched if the run is.
    fn worker(&self, job: usize) -> Worker {
        self.slot(job).map_or_else(Worker::default, |slot| Worker::watched(Arc::clone(&slot.monitor)))
    }

    /// Runs `solve`, the search of the puzzle `name` on `job`, as under way.
    fn during<T>(&self, job: usize, name: &str, solve: impl FnOnce() -> T) -> T {
        if let Some(mut slot) = self.slot(job) {
            slot.monitor.reset();
            slot.name.clear();
            slot.name.push_str(name);
            slot.since = Some(Instant::now());
        }
        // Over even if the search panics: the run goes on without it.
        let _over = Over { watch: self, job };
        solve()
    }

    /// The search that started first of those under way, its name copied
    /// to `name`.
    fn longest<'a>(&self, name: &'a mut String) -> Option<UnderWay<'a>> {
        let mut first: Option<(Instant, Snapshot)> = None;
        for slot in self.slots.iter().map(Slot::lock) {
            if let Some(since) = slot.since
                && first.is_none_or(|(earliest, _)| since < earliest)
            {
                first = Some((since, slot.monitor.snapshot()));
                name.clear();
                name.push_str(&slot.name);
            }
        }
        first.map(|(since, figures)| UnderWay { name, running: since.elapsed(), figures })
    }
}

/// Marks a job's search over when dropped.
struct Over<'w> {
    watch: &'w Watch,
    job: usize,
}

impl Drop for Over<'_> {
    fn drop(&mut self) {
        if let Some(mut slot) = self.watch.slot(self.job) {
            slot.since = None;
        }
    }
}

/// The in-order end of a run: finished records wait here until every
/// earlier one is out.
struct Emitter<F> {
    on_event: F,
    waiting: BTreeMap<usize, Record>,
    next_row: usize,
    started: usize,
    done: usize,
    total: Option<usize>,
    summary: Summary,
    failure: Option<io::Error>,
    /// Jobs waiting for rows to go out before they take their next puzzle:
    /// only then is anyone woken when rows do.
    ahead: usize,
}

impl<F: FnMut(Event<'_>) -> io::Result<()>> Emitter<F> {
    fn finished(&mut self, position: usize, record: Record) -> io::Result<()> {
        self.done += 1;
        (self.on_event)(Event::Progress { done: self.done, total: self.total })?;
        self.waiting.insert(position, record);
        while let Some(record) = self.waiting.remove(&self.next_row) {
            self.summary.add(&record);
            (self.on_event)(Event::Row(&record))?;
            self.next_row += 1;
        }
        Ok(())
    }

    fn tick(&mut self, longest: Option<UnderWay<'_>>) -> io::Result<()> {
        (self.on_event)(Event::Tick { longest })
    }
}

/// `emitter` once the row at `position` is fewer than [`AHEAD_OF_ORDER`]
/// rows past the next to go out, or the run has stopped.
fn wait_for_turn<'a, F>(
    mut emitter: MutexGuard<'a, Emitter<F>>,
    moved: &Condvar,
    position: usize,
    stopped: &AtomicBool,
) -> MutexGuard<'a, Emitter<F>> {
    while position >= emitter.next_row + AHEAD_OF_ORDER && !stopped.load(Ordering::Relaxed) {
        emitter.ahead += 1;
        emitter = moved.wait_timeout(emitter, TICK).unwrap_or_else(PoisonError::into_inner).0;
        emitter.ahead -= 1;
    }
    emitter
}

/// Unlocks `emitter`, waking the jobs that wait for their turn (rows may
/// have gone out): none, and no call, in a run whose jobs keep in order.
fn release<F>(emitter: MutexGuard<'_, Emitter<F>>, moved: &Condvar) {
    let wake = emitter.ahead > 0;
    drop(emitter);
    if wake {
        moved.notify_all();
    }
}

/// How many puzzles a run solves at once and how many threads each search
/// may have at most: what it was asked for, less where the machine cannot
/// start so many threads ([`threads_to_plan`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Plan {
    jobs: usize,
    threads: usize,
    /// Whether the machine refused threads, rather than the run keeping to
    /// [`MAX_THREADS`].
    refused: bool,
}

impl Plan {
    /// The plan of a run asked for `jobs` at once with `threads` each
    /// (`None`: the cores shared out, up to all of them for the last
    /// puzzle). Each job is a thread, and its search starts as many more
    /// as it has threads when it has more than one; the clock and the
    /// feed take two. Threads per search give way first, then jobs.
    fn of(jobs: usize, threads: Option<usize>, cores: usize) -> Plan {
        let most = threads.unwrap_or(cores).max(1);
        let of_job = |threads: usize| if threads > 1 { 1 + threads } else { 1 };
        let wanted = jobs.saturating_mul(of_job(most)).saturating_add(2);
        let room = threads_to_plan(wanted);
        if room >= wanted {
            return Plan { jobs, threads: most, refused: false };
        }
        let refused = room < MAX_THREADS;
        let jobs_room = room.saturating_sub(2).max(1);
        match (jobs_room / jobs).saturating_sub(1) {
            fit if fit >= 2 => Plan { jobs, threads: fit.min(most), refused },
            _ => Plan { jobs: jobs.min(jobs_room), threads: 1, refused },
        }
    }

    /// What the plan cuts from what was asked, for the user to hear.
    fn cut(self, jobs: usize, threads: Option<usize>, cores: usize) -> Option<String> {
        let mut cuts = Vec::new();
        if self.jobs < jobs {
            cuts.push(format!("{} puzzles are solved at once, not {jobs}", self.jobs));
        }
        if self.threads < threads.unwrap_or(cores) {
            cuts.push(match self.threads {
                1 => "each search runs on one thread".to_owned(),
                n => format!("each search runs on {n} threads at most"),
            });
        }
        let why = if self.refused {
            "no more threads can start here".to_owned()
        } else {
            format!("a run keeps to {MAX_THREADS} threads at once")
        };
        (!cuts.is_empty()).then(|| format!("{}: {why}", cuts.join(", and ")))
    }
}

/// Runs `work` on `jobs` threads, the calling one among them, beside
/// `clock`, which `stop` (the flag it watches, and the signal of rows gone
/// out) ends however the jobs end. Jobs that cannot start are left out:
/// `refused` hears how many did, and they share the puzzles. `work` is
/// given its job's number and how many were asked for.
///
/// # Errors
/// When not even the clock's thread can start.
fn on_threads<W, C>(
    jobs: usize,
    work: &W,
    clock: C,
    (stopped, moved): (&AtomicBool, &Condvar),
    mut refused: impl FnMut(usize, &io::Error),
) -> io::Result<()>
where
    W: Fn(usize, usize) + Sync,
    C: FnOnce() + Send,
{
    std::thread::scope(|scope| {
        let clock = std::thread::Builder::new()
            .name("clock".into())
            .spawn_scoped(scope, clock)
            .map_err(|e| io::Error::new(e.kind(), format!("cannot start a thread: {e}")))?;
        // However the scope is left, the clock stops and the scope's end
        // does not wait for it for ever.
        let _stop = Stop { stopped, moved, clock: clock.thread() };
        let mut others = Vec::with_capacity(jobs);
        for job in 1..jobs {
            match std::thread::Builder::new().spawn_scoped(scope, move || work(job, jobs)) {
                Ok(other) => others.push(other),
                Err(e) => {
                    refused(job, &e);
                    break;
                }
            }
        }
        work(0, jobs);
        for other in others {
            // A panicking search would already have been reported by the
            // panic hook; the run goes on without that thread.
            let _ = other.join();
        }
        Ok(())
    })
}

/// Stops the clock when dropped.
struct Stop<'a> {
    stopped: &'a AtomicBool,
    moved: &'a Condvar,
    clock: &'a std::thread::Thread,
}

impl Drop for Stop<'_> {
    fn drop(&mut self) {
        self.stopped.store(true, Ordering::Relaxed);
        self.moved.notify_all();
        self.clock.unpark();
    }
}

/// The threads of a search that starts with `left` puzzles (itself
/// included) still to start, `jobs` at once: the `cores` split between the
/// puzzles that can still run side by side.
fn share_of_cores(cores: usize, jobs: usize, left: usize) -> usize {
    (cores / jobs.min(left).max(1)).max(1)
}

/// Solves the puzzles of `feed` with `settings.jobs` threads (the calling
/// one included), each taking the next puzzle when it is free. Whichever
/// thread finishes a puzzle hands `on_event` the progress and every row now
/// ready, in input order, under a lock, so no thread waits on another to
/// report. A further thread sends [`Event::Tick`] every [`TICK`].
///
/// # Errors
/// The first error `on_event` returns (say, a closed pipe): the run then
/// cancels the searches under way and stops.
pub fn run<F>(feed: &Feed, settings: &Settings, on_event: F) -> io::Result<Finished>
where
    F: FnMut(Event<'_>) -> io::Result<()> + Send,
{
    let started = Instant::now();
    let total = feed.total();
    let asked = settings.jobs.clamp(1, total.unwrap_or(usize::MAX).max(1));
    // Asked once: the answer reads the process's CPU affinity and cgroup.
    let cores = cores();
    let plan = Plan::of(asked, settings.threads, cores);
    let cancel = settings.limits.cancel.clone().unwrap_or_default();
    let settings = Settings {
        limits: Limits { cancel: Some(Arc::clone(&cancel)), ..settings.limits.clone() },
        ..settings.clone()
    };
    let Plan { jobs, threads: most_threads, .. } = plan;
    let stopped = AtomicBool::new(false);
    let emitter = Mutex::new(Emitter {
        on_event,
        waiting: BTreeMap::new(),
        next_row: 0,
        started: 0,
        done: 0,
        total,
        summary: Summary::default(),
        failure: None,
        ahead: 0,
    });
    // Signalled whenever rows go out, for the jobs that ran ahead.
    let moved = Condvar::new();
    let lock = || emitter.lock().unwrap_or_else(PoisonError::into_inner);
    let fail = |emitter: &mut Emitter<F>, e: io::Error| {
        emitter.failure.get_or_insert(e);
        stopped.store(true, Ordering::Relaxed);
        cancel.store(true, Ordering::Relaxed);
    };
    // An event that is neither a row nor a tick, unless the run has failed.
    let send = |emitter: &mut Emitter<F>, event: Event<'_>| {
        if emitter.failure.is_none()
            && let Err(e) = (emitter.on_event)(event)
        {
            fail(emitter, e);
        }
    };

    if let Some(cut) = plan.cut(asked, settings.threads, cores) {
        send(&mut lock(), Event::Notice(&cut));
    }
    let watch = Watch::new(settings.watch, jobs);

    let work = &|job: usize, jobs: usize| {
        let mut worker = watch.worker(job);
        while !stopped.load(Ordering::Relaxed) {
            let Some(fed) = feed.next(&cancel) else { break };
            let position = fed.position;
            {
                let mut emitter = wait_for_turn(lock(), &moved, position, &stopped);
                emitter.started += 1;
                let started = emitter.started;
                send(&mut emitter, Event::Started { started });
            }
            // The last puzzles share the cores the finished jobs leave.
            let left = total.map_or(jobs, |total| total.saturating_sub(position));
            let threads =
                settings.threads.unwrap_or_else(|| share_of_cores(cores, jobs, left)).min(most_threads);
            let mut notice = |message: &str| send(&mut lock(), Event::Notice(message));
            let record = watch.during(job, fed.item.name(), || {
                solve_item(&fed.item, &settings, jobs, threads, &mut worker, &mut notice)
            });
            let mut emitter = lock();
            if emitter.failure.is_none()
                && let Err(e) = emitter.finished(position, record)
            {
                fail(&mut emitter, e);
            }
            release(emitter, &moved);
        }
    };
    let clock = || {
        let mut name = String::new();
        while !stopped.load(Ordering::Relaxed) {
            std::thread::park_timeout(TICK);
            let mut emitter = lock();
            if emitter.failure.is_none()
                && let Err(e) = emitter.tick(watch.longest(&mut name))
            {
                fail(&mut emitter, e);
            }
        }
    };
    let refused = |started: usize, e: &io::Error| {
        let refused =
            format!("{started} puzzles are solved at once, not {jobs}: no more threads could start ({e})");
        send(&mut lock(), Event::Notice(&refused));
    };
    on_threads(jobs, work, clock, (&stopped, &moved), refused)?;

    let mut emitter = emitter.into_inner().unwrap_or_else(PoisonError::into_inner);
    if emitter.failure.is_none()
        && let Err(e) = emitter.tick(None)
    {
        emitter.failure = Some(e);
    }
    if let Some(e) = emitter.failure {
        return Err(e);
    }
    let mut summary = emitter.summary;
    summary.wall = Some(started.elapsed());
    let rows = emitter.next_row;
    Ok(Finished { summary, not_run: total.map(|total| total.saturating_sub(rows)), rows })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::{Item, SAVE_EVERY, Source, TableSource};
    use crate::board::{GoalSpec, Tiles};
    use crate::heuristic::HeuristicKind;
    use crate::search::Algorithm;

    /// Settings for Korf's 15-puzzle 88 by IDA* with Manhattan distance on
    /// one thread: 1.1·10⁹ expansions, seconds on any machine, far longer
    /// than a tick; the run stops when `cancel` is set.
    fn one_long_search(watch: bool, cancel: &Arc<AtomicBool>) -> (Feed, Settings) {
        let board = Tiles::new(&[15, 2, 12, 11, 14, 13, 9, 5, 1, 3, 8, 7, 0, 10, 6, 4]).unwrap();
        let item = Item { name: "korf-88".to_owned(), source: Source::Listed { board, expected: Some(65) } };
        let settings = Settings {
            goal: GoalSpec::BlankFirst,
            size: None,
            algorithm: Algorithm::IdaStar,
            heuristic: HeuristicKind::Manhattan,
            limits: Limits { cancel: Some(Arc::clone(cancel)), ..Limits::default() },
            shorten: false,
            flags: Arc::from(""),
            jobs: 1,
            threads: Some(1),
            tables: Arc::new(TableSource::none()),
            strongest: false,
            saved_progress: None,
            save_every: SAVE_EVERY,
            watch,
        };
        (Feed::of(vec![item]), settings)
    }

    #[test]
    fn a_watched_run_names_the_search_under_way_with_its_figures() {
        let cancel = Arc::new(AtomicBool::new(false));
        let (feed, settings) = one_long_search(true, &cancel);
        let mut seen = None;
        run(&feed, &settings, |event| {
            if let Event::Tick { longest: Some(search) } = event
                && search.figures.expanded > 0
                && search.figures.bound.is_some()
            {
                seen.get_or_insert((search.name.to_owned(), search.figures.bound));
                cancel.store(true, Ordering::Relaxed);
            }
            Ok(())
        })
        .unwrap();
        let (name, bound) = seen.expect("a tick came while the search ran");
        assert_eq!(name, "korf-88");
        assert!(bound.is_some_and(|b| (41.0..=65.0).contains(&b)), "IDA*'s bound: {bound:?}");
    }

    #[test]
    fn an_unwatched_run_names_no_search() {
        let cancel = Arc::new(AtomicBool::new(false));
        let (feed, settings) = one_long_search(false, &cancel);
        let mut ticks = 0;
        run(&feed, &settings, |event| {
            if let Event::Tick { longest } = event {
                assert_eq!(longest, None);
                ticks += 1;
                cancel.store(ticks >= 3, Ordering::Relaxed);
            }
            Ok(())
        })
        .unwrap();
        assert!(ticks >= 3);
    }

    #[test]
    fn a_run_asked_for_more_threads_than_it_keeps_to_says_what_it_runs() {
        let plan = Plan::of(1_000_000, Some(1), 2);
        assert_eq!((plan.jobs, plan.threads), (MAX_THREADS - 2, 1), "{plan:?}");
        let cut = plan.cut(1_000_000, Some(1), 2).unwrap();
        assert_eq!(cut, "1022 puzzles are solved at once, not 1000000: a run keeps to 1024 threads at once");
        let plan = Plan::of(2, Some(1000), 2);
        assert_eq!((plan.jobs, plan.threads), (2, 510), "{plan:?}");
        let modest = Plan::of(2, Some(2), 2);
        assert_eq!((modest.jobs, modest.threads, modest.cut(2, Some(2), 2)), (2, 2, None));
    }

    #[test]
    fn the_cores_are_shared_among_the_jobs_and_the_last_puzzles_get_the_rest() {
        assert_eq!(share_of_cores(8, 1, 50), 8);
        assert_eq!(share_of_cores(8, 2, 50), 4);
        assert_eq!(share_of_cores(8, 4, 3), 2, "three left to start share the cores three ways");
        assert_eq!(share_of_cores(8, 2, 1), 8, "the last puzzle may use every core");
        assert_eq!(share_of_cores(2, 4, 100), 1, "never fewer than one thread");
    }
}
