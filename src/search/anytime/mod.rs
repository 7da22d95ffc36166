/*!
Anytime search: an answer at once, better ones while the time lasts, and
at the end the best answer found with the lower bound the run proved.

Boards of up to 25 cells are searched whole, and so are larger ones that
pattern databases serve whole (6×6 with its tables built).

1. A first answer: on boards searched whole greedy search (its path
   shortened), or where pattern databases serve the board a bounded
   search at B = 2, which they guide as fast and to paths a third
   shorter; the constructive solver on larger boards or when the first
   search runs out of room or time. The constructive solver answers every
   board, whatever the budget.
2. On boards searched whole, bounded searches with falling bounds
   (Dynamic Potential Search, see `focal.rs`): each answer is at most B
   times the shortest, usually much less, and the smallest f each leaves
   open raises the proven lower bound. On larger boards, staged search
   (`staged.rs`): the outer lines placed in several plans side by side on
   as many threads as the run has, then the blocks of the most promising
   solved; then weighted A* with falling weights.
3. Where pattern databases serve the goal, IDA* with the rest of the time:
   every pass it finishes raises the lower bound, and its answer, if it
   finds one, is the shortest.

The run stops as soon as its best answer equals the lower bound (proven
optimal), or when its time is up. Each improvement (a shorter answer, with
the bound proven by then and the time) is handed to the caller as it comes.

The same race serves `--within F` where tables serve a board searched whole ([`within`]):
it stops as soon as the best answer is at most F times the bound proven,
with no budget but the caller's limits. Its answers come from searches at
every bound, not only F's, so it is done as soon as one answer and one
bound meet, whichever searches found them.

| file       | holds                                                                      |
| ---------- | -------------------------------------------------------------------------- |
| `mod.rs`   | the run: its plans, its answers one better than the last, its lower bound  |
| `race.rs`  | the race of answers against IDA*'s proven bounds, and its referee          |
| `board.rs` | [`OneBoard`]: one board's searches as the dispatch hands them to a run     |
| `tests.rs` | the run held to its promises on scripted searches                          |
*/

mod board;
mod race;
#[cfg(test)]
mod tests;

pub(crate) use board::OneBoard;

use super::algorithm::Algorithm;
use super::algorithm::Selection;
use super::budget::Budget;
use super::monitor::Improvement;
use super::outcome::{LimitKind, Limits, Outcome, Stats, Status};
use super::staged::{self, Lines, Order, Stages};
use super::weight::Weight;
use crate::board::Shape;
use race::{Race, race};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

/// The searches an anytime run is made of, as the caller provides them for
/// one board (the dispatch, with its goal, heuristic and tables).
pub(crate) trait Searches {
    /// Runs `algorithm` on the board under `limits`, its path shortened
    /// where the algorithm's paths are.
    fn run(&self, algorithm: Algorithm, limits: &Limits) -> Outcome;
    /// The constructive solver's answer, which every solvable board has.
    fn construct(&self, limits: &Limits) -> Outcome;
    /// Staged search's first half (see `staged.rs`): the board's outer
    /// lines placed as `stages` says, or `None` if `stop` said to give up.
    fn lines(&self, stages: &Stages, stop: &mut dyn FnMut() -> bool) -> Option<Lines>;
    /// How long an answer `lines` promises (see [`Lines::promise`]).
    fn promise(&self, lines: &Lines) -> u64;
    /// Staged search's answer from `lines`: the block left solved within
    /// `limits`, the whole path shortened.
    fn finish(&self, lines: Lines, limits: &Limits) -> Outcome;
    /// The board's strongest estimate, a lower bound.
    fn start_bound(&self) -> u32;
    /// Whether the searches take the board (else only the constructive
    /// solver does).
    fn searchable(&self) -> bool;
    /// Cells of the board.
    fn cells(&self) -> usize;
    /// Whether the heuristic is strong enough for IDA* to close the gap in
    /// the time (pattern databases).
    fn tables(&self) -> bool;
}

/// Anytime search's time when no timeout is given.
pub const DEFAULT_BUDGET: Duration = Duration::from_secs(1);

/// Boards of up to this many cells (the 24-puzzle) go through bounded
/// searches, which prove their bounds; larger ones through weighted A*,
/// which finds its first answer sooner where the frontier is wide.
const SMALL: usize = 25;

/// The bounds of the bounded searches on boards searched whole, in order. Each
/// search's time grows by about four times from one bound to the next on
/// the 24-puzzle, its path shrinks by a tenth or less.
const SMALL_BOUNDS: [(u64, u64); 9] =
    [(3, 1), (2, 1), (3, 2), (4, 3), (5, 4), (6, 5), (11, 10), (21, 20), (51, 50)];

/// The bounds of the bounded searches on boards larger than the 24-puzzle
/// searched whole (6×6 with its tables), after the first at B = 2: closer
/// together than [`SMALL_BOUNDS`], since a search at 3/2 on such a board
/// often spends the rest of a second and finds nothing: on 79 test
/// 35-puzzles at 1 s on one thread, 11,559 moves in all against 12,517 with
/// [`SMALL_BOUNDS`] (docs/design-notes.md).
const LARGE_WHOLE_BOUNDS: [(u64, u64); 10] =
    [(7, 4), (8, 5), (3, 2), (7, 5), (4, 3), (5, 4), (6, 5), (11, 10), (21, 20), (51, 50)];

/// The first search where pattern databases serve a board searched whole.
const TABLES_FIRST: Weight = Weight::ratio(2, 1);

/// Staged search's layouts of parts: three to six tiles, with the tiles
/// to come watched at half weight up to fifteen in all; all leave a 5×5
/// block. Each is planned in every [`Order`]: on 100 7×7 boards at 1 s on
/// two threads, these four layouts gave 1.842 times the Manhattan distance
/// where the first two alone gave 1.853. A part's search goes on at twice
/// the weight after every 50,000 expansions: on the same boards (a host
/// slower than that of the figures above), 1.839 and 1.840 against 1.846
/// twice at 25,000, 1.854 at 12,000 and 1.866 at 100,000; searched again
/// from the start at 100,000 instead, 1.867 and 1.879. Half the nodes
/// of the searches that start again go into the searches that hit the cap.
const LAYOUTS: [Stages; 4] = [stages(4, 11), stages(6, 9), stages(5, 10), stages(3, 12)];

const fn stages(part: usize, watch: usize) -> Stages {
    Stages {
        weight: Weight::ratio(3, 1),
        part,
        watch,
        lambda: 8,
        cap: 50_000,
        block: 5,
        order: Order::ALL[0],
    }
}

/// Every layout in every order, the layouts and the orders taking turns
/// so that a run stopped early has tried some of each.
pub(crate) fn plans() -> impl Iterator<Item = Stages> {
    (0..LAYOUTS.len() * Order::ALL.len()).map(|i| Stages {
        order: Order::ALL[(i / LAYOUTS.len() + i % LAYOUTS.len()) % Order::ALL.len()],
        ..LAYOUTS[i % LAYOUTS.len()]
    })
}

/// The share of the budget in which staged search starts placing lines:
/// one plan's lines take a tenth to a quarter of a second on a 7×7 board,
/// and the blocks of the most promising want the rest.
const PLANNING: (u32, u32) = (3, 5);

/// The goals and shapes of the blocks the staged searches leave on a board
/// of `shape` towards `goal` (row-major, 0 the blank), each once.
pub(crate) fn block_goals(goal: &[u16], shape: Shape) -> Vec<(Vec<u16>, Shape)> {
    if !staged_size(shape.cells()) {
        return Vec::new();
    }
    let mut goals: Vec<(Vec<u16>, Shape)> = Vec::new();
    for stages in &LAYOUTS {
        if let Some(block) = staged::block_goal(goal, shape, stages.block)
            && !goals.contains(&block)
        {
            goals.push(block);
        }
    }
    goals
}

/// Whether the board goes through the bounded searches whole (and, with
/// tables, IDA*): a searchable board of at most [`SMALL`] cells, or a
/// larger one that pattern databases serve whole (6×6), which guide the
/// bounded searches to shorter answers than staged search places.
fn searched_whole(searches: &impl Searches) -> bool {
    searches.searchable() && (searches.cells() <= SMALL || searches.tables())
}

/// Whether boards of `cells` cells go through staged searches (unless
/// searched whole): past the small boards, up to what staged search takes.
fn staged_size(cells: usize) -> bool {
    cells > SMALL && cells <= staged::MAX_CELLS
}

/// The weights of weighted A* on larger boards, in order.
const LARGE_WEIGHTS: [(u64, u64); 7] = [(5, 1), (4, 1), (3, 1), (5, 2), (2, 1), (3, 2), (5, 4)];

/// The best answer so far and what the run has proven.
struct Best {
    outcome: Option<Outcome>,
    lower_bound: u32,
    improvements: Vec<Improvement>,
    /// The figures of every search, summed.
    stats: Stats,
}

impl Best {
    fn cost(&self) -> Option<u32> {
        self.outcome.as_ref().and_then(Outcome::cost).map(|c| c as u32)
    }

    fn proven(&self) -> bool {
        self.cost().is_some_and(|c| c <= self.lower_bound)
    }

    /// Takes in what `outcome` found and proved; an answer shorter than the
    /// best is an improvement, handed to `report`.
    fn offer(&mut self, outcome: Outcome, budget: &Budget, report: &mut dyn FnMut(&Improvement)) {
        if let Some(bound) = outcome.lower_bound {
            self.lower_bound = self.lower_bound.max(bound);
        }
        // Every answer has the same parity, the shortest too.
        if let Some(cost) = outcome.cost().map(|c| c as u32).or(self.cost()) {
            self.lower_bound += (cost ^ self.lower_bound) & 1;
        }
        self.stats += outcome.stats;
        let shorter = outcome.cost().is_some_and(|c| self.cost().is_none_or(|best| (c as u32) < best));
        if shorter {
            self.outcome = Some(outcome);
            let improvement = Improvement {
                cost: self.cost().expect("an answer was just kept"),
                lower_bound: self.lower_bound,
                at: budget.elapsed(),
            };
            report(&improvement);
            self.improvements.push(improvement);
        }
    }
}

/// Runs the anytime search on the board of `searches` within `limits`
/// (the timeout is its budget; [`DEFAULT_BUDGET`] without one), handing
/// each improvement to `report`.
pub(crate) fn anytime(
    searches: &(impl Searches + Sync),
    limits: &Limits,
    report: &mut dyn FnMut(&Improvement),
) -> Outcome {
    let limits = Limits { timeout: Some(limits.timeout.unwrap_or(DEFAULT_BUDGET)), ..limits.clone() };
    improve(searches, &limits, Weight::ONE, report).0
}

/// Whether IDA* proves bounds beside the answers: with tables, on a board
/// searched whole, with a second core, and no expansion limit (which must
/// hold exactly, and would be shared by two searches).
pub(crate) fn races(searches: &impl Searches, limits: &Limits) -> bool {
    searched_whole(searches) && searches.tables() && limits.threads >= 2 && limits.max_expanded.is_none()
}

/// An answer at most `bound` times the shortest, on a board where
/// [`races`] holds: the anytime race run until its best answer is within
/// `bound` of the bound IDA* has proven, or IDA* finds a shortest one, or
/// `limits` stop it. Stopped before, it has no answer: its status says why
/// (the time, Ctrl-C, or no answer proven within the bound).
pub(crate) fn within(
    searches: &(impl Searches + Sync),
    limits: &Limits,
    bound: Weight,
    report: &mut dyn FnMut(&Improvement),
) -> Outcome {
    debug_assert!(races(searches, limits), "only the race proves bounds as it goes");
    let (outcome, stopped) = improve(searches, limits, bound, report);
    outcome.held_to(bound, stopped.unwrap_or(LimitKind::Unproven(bound)))
}

/// The anytime run within `limits` (no timeout: no budget but the
/// others), racing IDA* where [`races`] holds until the best answer is
/// within `target` of the bound proven. Returns the best answer, and the
/// limit that stopped the run, if one did.
fn improve(
    searches: &(impl Searches + Sync),
    limits: &Limits,
    target: Weight,
    report: &mut dyn FnMut(&Improvement),
) -> (Outcome, Option<LimitKind>) {
    let budget = Budget::start(limits, None);
    let mut best = Best {
        outcome: None,
        lower_bound: searches.start_bound(),
        improvements: Vec::new(),
        stats: Stats::default(),
    };
    let whole = searched_whole(searches);
    if races(searches, limits) {
        let floor = best.lower_bound;
        let ((), proved, floor) = race(
            limits,
            limits.threads,
            target,
            floor,
            |race| answers(searches, &race.limits(limits, 1), &budget, &mut best, report, Some(race)),
            |lane| searches.run(Algorithm::IdaStar, lane),
        );
        best.lower_bound = best.lower_bound.max(floor);
        best.offer(proved, &budget, report);
    } else {
        answers(searches, limits, &budget, &mut best, report, None);
        if whole && searches.tables() && budget.check_now().is_none() && !best.proven() {
            let left = Limits {
                timeout: limits.timeout.map(|t| t.saturating_sub(budget.elapsed())),
                ..limits.clone()
            };
            let outcome = searches.run(Algorithm::IdaStar, &left);
            best.offer(outcome, &budget, report);
        }
    }
    let stopped = budget.check_now();
    let Best { outcome, lower_bound, improvements, stats } = best;
    let mut outcome = outcome.unwrap_or_else(|| Outcome {
        status: Status::Limit(stopped.unwrap_or(LimitKind::Time(budget.elapsed()))),
        path: None,
        stats: Stats::default(),
        lower_bound: Some(lower_bound),
        improvements: Vec::new(),
    });
    outcome.stats = Stats { runtime: budget.elapsed(), shortened_by: outcome.stats.shortened_by, ..stats };
    if outcome.status == Status::Solved {
        outcome.lower_bound = Some(lower_bound.min(outcome.cost().map_or(u32::MAX, |c| c as u32)));
    }
    outcome.improvements = improvements;
    (outcome, stopped)
}

/// When, on `budget`'s clock, staged search stops placing lines: after
/// [`PLANNING`] of the time left, not of the timeout, since reading the
/// board and loading tables may have spent some of it before the budget
/// began (a single `solve`'s deadline counts from the command's start).
fn planning_ends(budget: &Budget) -> Option<Duration> {
    budget.time_left().map(|left| budget.elapsed() + left * PLANNING.0 / PLANNING.1)
}

/// Staged search on `lanes` threads, each search on one within `limits`:
/// first lines placed in every plan (see [`plans`]) until
/// [`planning_ends`], then the blocks of the `lanes` most promising
/// finished side by side with the rest of the time. Returns their
/// answers, and the figures of the plans not finished.
fn staged_lanes(
    searches: &(impl Searches + Sync),
    limits: &Limits,
    budget: &Budget,
    lanes: usize,
) -> (Vec<Outcome>, Stats) {
    let plans: Vec<Stages> = plans().collect();
    let planning = planning_ends(budget);
    let next = AtomicUsize::new(0);
    let left =
        || Limits { timeout: limits.timeout.map(|t| t.saturating_sub(budget.elapsed())), ..limits.clone() };
    let placed = Mutex::new(Vec::new());
    let placed_any = AtomicBool::new(false);
    let planned = || planning.is_some_and(|p| budget.elapsed() >= p);
    // A plan still placing lines when planning ends is given up once
    // another is placed: waiting for it would leave the blocks of the plans
    // chosen no time.
    let stop = || budget.check_now().is_some() || (planned() && placed_any.load(Ordering::Relaxed));
    side_by_side(lanes, &|| {
        while let Some(stages) = plans.get(next.fetch_add(1, Ordering::Relaxed)) {
            if planned() || budget.check_now().is_some() {
                break;
            }
            // A plan whose part found no way within its cap leaves the
            // lane to the next plan.
            let Some(lines) = searches.lines(stages, &mut || stop()) else { continue };
            let promise = searches.promise(&lines);
            placed.lock().unwrap_or_else(PoisonError::into_inner).push((promise, lines));
            placed_any.store(true, Ordering::Relaxed);
        }
    });
    let mut placed = placed.into_inner().unwrap_or_else(PoisonError::into_inner);
    placed.sort_by_key(|&(promise, _)| promise);
    let mut unfinished = Stats::default();
    for (_, lines) in placed.split_off(lanes.min(placed.len())) {
        unfinished.nodes_expanded += lines.placed.expanded;
        unfinished.nodes_generated += lines.placed.generated;
    }
    let chosen = Mutex::new(placed.into_iter().map(|(_, lines)| lines));
    let answers = Mutex::new(Vec::new());
    side_by_side(lanes, &|| {
        let lines = chosen.lock().unwrap_or_else(PoisonError::into_inner).next();
        if let Some(lines) = lines
            && budget.check_now().is_none()
        {
            let outcome = searches.finish(lines, &left());
            answers.lock().unwrap_or_else(PoisonError::into_inner).push(outcome);
        }
    });
    (answers.into_inner().unwrap_or_else(PoisonError::into_inner), unfinished)
}

/// Runs `work` on `lanes` threads at once, this one among them.
fn side_by_side(lanes: usize, work: &(impl Fn() + Sync)) {
    std::thread::scope(|scope| {
        for _ in 1..lanes {
            scope.spawn(work);
        }
        work();
    });
}

/// The answers of an anytime run, one better than the last, within
/// `limits` (whose timeout is the run's budget): a first answer, then on
/// boards searched whole bounded searches with falling bounds, on larger ones
/// staged searches and weighted A* with falling weights. In a `race`, each
/// answer is offered to it, and the answers stop when it is over.
fn answers(
    searches: &(impl Searches + Sync),
    limits: &Limits,
    budget: &Budget,
    best: &mut Best,
    report: &mut dyn FnMut(&Improvement),
    race: Option<&Race>,
) {
    // What is left of the budget for the next search, or a share of it.
    let left = |budget: &Budget, share: u32| Limits {
        timeout: limits.timeout.map(|t| t.saturating_sub(budget.elapsed()) / share),
        ..limits.clone()
    };
    let mut offer = |best: &mut Best, outcome: Outcome| {
        best.offer(outcome, budget, report);
        if let Some(race) = race {
            race.prove(best.lower_bound);
            if let Some(cost) = best.cost() {
                race.offer(cost);
            }
        }
    };
    let over = || race.is_some_and(Race::over);
    // Every solvable board gets an answer, however short the budget: the
    // constructive solver is linear in its path, and only Ctrl-C stops it.
    let unlimited = Limits { cancel: limits.cancel.clone(), ..Limits::default() };
    let whole = searched_whole(searches);
    if whole {
        let first = if searches.tables() {
            Algorithm::Bounded { bound: TABLES_FIRST, selection: Selection::Potential }
        } else {
            Algorithm::Greedy
        };
        // Greedy gets a quarter of the budget, the bounded search half: on
        // the 24-puzzle it takes a hundredth of a second or two.
        let share = if searches.tables() { 2 } else { 4 };
        offer(best, searches.run(first, &left(budget, share)));
    }
    if best.outcome.is_none() && !over() {
        offer(best, searches.construct(&unlimited));
    }
    if !whole && staged_size(searches.cells()) && !best.proven() && !over() {
        let lanes = limits.threads.clamp(1, LAYOUTS.len() * Order::ALL.len());
        let lane = Limits { threads: 1, ..limits.clone() };
        let (outcomes, unfinished) = staged_lanes(searches, &lane, budget, lanes);
        best.stats += unfinished;
        for outcome in outcomes {
            offer(best, outcome);
        }
    }
    if !searches.searchable() {
        return;
    }
    let bounds = match (whole, searches.cells() <= SMALL) {
        (true, true) => &SMALL_BOUNDS[..],
        (true, false) => &LARGE_WHOLE_BOUNDS[..],
        (false, _) => &LARGE_WEIGHTS[..],
    };
    for (p, q) in bounds {
        if budget.check_now().is_some() || best.proven() || over() {
            break;
        }
        let bound = Weight::ratio(*p, *q);
        // A bound no tighter than one already searched has nothing new
        // to show; an answer within this bound of what is proven may
        // still be improved on, since the searches find paths far
        // shorter than their bounds.
        if whole && searches.tables() && p * TABLES_FIRST.denominator() >= TABLES_FIRST.numerator() * q {
            continue;
        }
        let algorithm = if whole {
            Algorithm::Bounded { bound, selection: Selection::Potential }
        } else {
            Algorithm::WeightedAStar(bound)
        };
        // Only an answer shorter than the best is worth finding; every
        // answer of a board has the same parity (each move takes the blank
        // to a cell of the other colour of the chessboard), so the next is
        // two moves shorter at least.
        let ceiling = best.cost().map(|c| c.saturating_sub(2));
        let outcome = searches.run(algorithm, &Limits { ceiling, ..left(budget, 1) });
        // A search that ran out of time or room leaves the lower
        // bounds no chance; one that found nothing under the ceiling has
        // proven the best answer optimal.
        let stopped = matches!(outcome.status, Status::Limit(kind) if !matches!(kind, LimitKind::Cost(_)));
        offer(best, outcome);
        if stopped {
            break;
        }
    }
}
