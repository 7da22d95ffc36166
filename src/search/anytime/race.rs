/*!
Two searches of one board at once, one finding answers and one proving
lower bounds, until the best answer is proven good enough. An anytime or
bounded search with pattern databases spends most of its time raising the
lower bound its answer is measured against, which best-first searches do
slowly (the smallest f left open climbs one layer of a huge frontier at a
time) and IDA* quickly. So on a second thread IDA* runs its passes and
shares what each proves ([`Limits::floor`]); the best-first searches widen
their focal lists with it, and a referee ends the race as soon as an
answer is within the target factor of the proven bound.
*/

use crate::search::{Limits, Outcome, Status, Weight};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// How often the referee looks at the lanes: a fraction of the shortest
/// budgets anyone gives an anytime search.
const REFEREE_PERIOD: Duration = Duration::from_millis(1);

/// What the two lanes of a race share.
pub(crate) struct Race {
    /// Set when the race is over: every search of both lanes stops at its
    /// next check.
    halt: Arc<AtomicBool>,
    /// The lower bound proven so far, in moves.
    floor: Arc<AtomicU32>,
    /// The cost of the best answer so far (`u32::MAX`: none yet).
    best: AtomicU32,
    /// The race is won once the best answer costs at most this factor
    /// times the floor.
    target: Weight,
    /// When the caller's time runs out, whichever search of a lane is
    /// running then.
    deadline: Option<Instant>,
    /// Set once the answers' lane has returned: IDA* takes its thread on.
    spare: Arc<AtomicBool>,
}

impl Race {
    /// The limits of a search in a lane: `limits`' own, stopped by the
    /// race's end and sharing its floor, on `threads` threads.
    pub(crate) fn limits(&self, limits: &Limits, threads: usize) -> Limits {
        Limits {
            cancel: Some(Arc::clone(&self.halt)),
            floor: Some(Arc::clone(&self.floor)),
            threads,
            deadline: self.deadline,
            ..limits.clone()
        }
    }

    /// Records an answer of `cost` moves, ending the race at once if it is
    /// within the target of the floor (the referee would only see it at
    /// its next look, which on easy boards is most of the run).
    pub(crate) fn offer(&self, cost: u32) {
        self.best.fetch_min(cost, Ordering::Relaxed);
        if self.won() {
            self.end();
        }
    }

    /// Raises the floor to `bound`, a lower bound proven in a lane.
    pub(crate) fn prove(&self, bound: u32) {
        self.floor.fetch_max(bound, Ordering::Relaxed);
    }

    /// The lower bound proven so far.
    pub(crate) fn floor(&self) -> u32 {
        self.floor.load(Ordering::Relaxed)
    }

    /// Whether the best answer is within the target of the floor.
    pub(crate) fn won(&self) -> bool {
        let best = self.best.load(Ordering::Relaxed);
        best != u32::MAX && self.target.covers(u64::from(best), u64::from(self.floor()))
    }

    /// Ends the race: both lanes stop.
    pub(crate) fn end(&self) {
        self.halt.store(true, Ordering::Relaxed);
    }

    /// Whether the race is over.
    pub(crate) fn over(&self) -> bool {
        self.halt.load(Ordering::Relaxed)
    }
}

/// Runs `answer` on this thread and `prove` (IDA*, on `threads − 1`
/// threads) on another, sharing a floor that starts at `floor`, until an
/// answer costs at most `target` times the floor, or both lanes are done,
/// or the caller cancels (`limits.cancel`). `answer` returning does not
/// end it: IDA* goes on raising the floor, on this thread too from then on
/// ([`Limits::spare`]). Returns what each lane returned and the floor at
/// the end.
pub(crate) fn race<A>(
    limits: &Limits,
    threads: usize,
    target: Weight,
    floor: u32,
    answer: impl FnOnce(&Race) -> A,
    prove: impl FnOnce(&Limits) -> Outcome + Send,
) -> (A, Outcome, u32) {
    let started = Instant::now();
    let deadline = match (limits.timeout.map(|t| started + t), limits.deadline) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (one, other) => one.or(other),
    };
    let race = Race {
        halt: Arc::new(AtomicBool::new(false)),
        floor: Arc::new(AtomicU32::new(floor)),
        best: AtomicU32::new(u32::MAX),
        target,
        deadline,
        spare: Arc::new(AtomicBool::new(false)),
    };
    let done = AtomicBool::new(false);
    let (answered, proved) = std::thread::scope(|scope| {
        let (race, done) = (&race, &done);
        let prover = scope.spawn(move || {
            // The caller's monitor shows the answers' search, not this one.
            let lane = Limits {
                monitor: None,
                spare: Some(Arc::clone(&race.spare)),
                ..race.limits(limits, threads.saturating_sub(1).max(1))
            };
            let outcome = prove(&lane);
            if let Some(bound) = outcome.lower_bound {
                race.prove(bound);
            }
            if outcome.status == Status::Solved {
                // Its answer is a shortest one.
                race.end();
            }
            outcome
        });
        scope.spawn(move || {
            while !done.load(Ordering::Relaxed) {
                if limits.cancelled() || race.won() {
                    race.end();
                }
                std::thread::sleep(REFEREE_PERIOD);
            }
        });
        let answered = answer(race);
        // Nothing left to find answers with: the proofs get this thread.
        race.spare.store(true, Ordering::Relaxed);
        let proved = prover.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
        done.store(true, Ordering::Relaxed);
        (answered, proved)
    });
    let floor = race.floor();
    (answered, proved, floor)
}
