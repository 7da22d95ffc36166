/*!
Anytime search held to what it promises: every plan tried early, the time
shared between planning and finishing, and the race that ends `--within`
as soon as an answer and a proven bound meet.
*/

use super::*;

#[test]
fn every_layout_is_planned_in_every_order_once() {
    let plans: Vec<(usize, Order)> = plans().map(|s| (s.part, s.order)).collect();
    assert_eq!(plans.len(), LAYOUTS.len() * Order::ALL.len());
    for layout in &LAYOUTS {
        for order in Order::ALL {
            assert_eq!(plans.iter().filter(|&&p| p == (layout.part, order)).count(), 1);
        }
    }
}

#[test]
fn planning_takes_its_share_of_the_time_left_not_of_the_timeout() {
    // A deadline that comes long before the timeout: time spent ahead
    // of the search (loading tables) is gone from both shares.
    let limits = Limits {
        timeout: Some(Duration::from_secs(100)),
        deadline: Some(std::time::Instant::now() + Duration::from_secs(10)),
        ..Limits::default()
    };
    let ends = planning_ends(&Budget::start(&limits, None)).expect("a deadline");
    // Its share of ten seconds, give or take the time the test takes.
    let share = Duration::from_secs(10) * PLANNING.0 / PLANNING.1;
    assert!(ends.abs_diff(share) < Duration::from_secs(1), "{ends:?} against {share:?}");
    assert_eq!(planning_ends(&Budget::start(&Limits::default(), None)), None);
}

/// A 6×6 board whose plans of three-tile parts never end by
/// themselves, and whose blocks' finishing records the time it is
/// given.
struct Straggling {
    start: Vec<u16>,
    goal: Vec<u16>,
    finishing: Mutex<Vec<Duration>>,
}

impl Searches for Straggling {
    fn run(&self, _: Algorithm, _: &Limits) -> Outcome {
        unreachable!("the staged lanes alone are run")
    }
    fn construct(&self, _: &Limits) -> Outcome {
        unreachable!("the staged lanes alone are run")
    }
    fn lines(&self, stages: &Stages, stop: &mut dyn FnMut() -> bool) -> Option<Lines> {
        if stages.part == 3 {
            let given_up = std::time::Instant::now() + Duration::from_secs(60);
            while !stop() && std::time::Instant::now() < given_up {
                std::thread::sleep(Duration::from_millis(1));
            }
            return None;
        }
        staged::place_lines(&self.start, &self.goal, Shape::square(6), *stages, stop)
    }
    fn promise(&self, _: &Lines) -> u64 {
        0
    }
    fn finish(&self, _: Lines, limits: &Limits) -> Outcome {
        self.finishing.lock().unwrap().push(limits.timeout.unwrap_or_default());
        Outcome {
            status: Status::Solved,
            path: Some(Vec::new()),
            stats: Stats::default(),
            lower_bound: None,
            improvements: Vec::new(),
        }
    }
    fn start_bound(&self) -> u32 {
        0
    }
    fn searchable(&self) -> bool {
        true
    }
    fn cells(&self) -> usize {
        36
    }
    fn tables(&self) -> bool {
        false
    }
}

#[test]
fn a_plan_still_placing_lines_when_planning_ends_leaves_the_blocks_their_time() {
    use crate::board::{Goal, GoalSpec, Scramble, SplitMix64, generate};
    let goal = Goal::new(&GoalSpec::BlankFirst, Shape::square(6)).unwrap();
    let start = generate(&goal, Scramble::Uniform, true, &mut SplitMix64::new(5));
    let searches = Straggling {
        start: start.cells().to_vec(),
        goal: goal.tiles().cells().to_vec(),
        finishing: Mutex::new(Vec::new()),
    };
    let limits = Limits { timeout: Some(Duration::from_secs(2)), threads: 1, ..Limits::default() };
    let budget = Budget::start(&limits, None);
    let (answers, _) = staged_lanes(&searches, &limits, &budget, 2);
    // Planning ends at 1.2 s; each lane's straggler is given up there,
    // so the two blocks chosen have most of the 0.8 s left.
    assert_eq!(answers.len(), 2);
    for given in searches.finishing.into_inner().unwrap() {
        assert!(given >= Duration::from_millis(400), "{given:?}");
    }
}

/// A board of `cells` cells with tables whose every answer costs
/// `answer` moves and whose IDA* proves `proves` at once, and `lent`
/// once a thread is lent to it (as the spare of [`Limits`]), then finds
/// nothing more until it is stopped.
struct Scripted {
    cells: usize,
    answer: u32,
    proves: u32,
    lent: u32,
}

impl Scripted {
    /// The 15-puzzle's case.
    fn small(answer: u32, proves: u32, lent: u32) -> Scripted {
        Scripted { cells: 16, answer, proves, lent }
    }
}

impl Searches for Scripted {
    fn run(&self, algorithm: Algorithm, limits: &Limits) -> Outcome {
        let outcome = |status, path, lower_bound| Outcome {
            status,
            path,
            stats: Stats::default(),
            lower_bound,
            improvements: Vec::new(),
        };
        if algorithm != Algorithm::IdaStar {
            return match limits.ceiling {
                Some(ceiling) if ceiling < self.answer => {
                    outcome(Status::Limit(LimitKind::Nodes(1)), None, None)
                }
                _ => outcome(Status::Solved, Some(vec![crate::board::Move::Up; self.answer as usize]), None),
            };
        }
        let proven = || if limits.spare_lent() { self.lent } else { self.proves };
        let given_up = std::time::Instant::now() + Duration::from_secs(60);
        let stopped = || {
            let now = std::time::Instant::now();
            limits.cancelled() || limits.deadline.is_some_and(|d| now >= d) || now >= given_up
        };
        while !stopped() {
            if let Some(floor) = &limits.floor {
                floor.fetch_max(proven(), Ordering::Relaxed);
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        outcome(Status::Limit(LimitKind::Interrupted), None, Some(proven()))
    }
    fn construct(&self, _: &Limits) -> Outcome {
        unreachable!("the bounded searches answer first")
    }
    fn lines(&self, _: &Stages, _: &mut dyn FnMut() -> bool) -> Option<Lines> {
        unreachable!("a board with tables is searched whole")
    }
    fn promise(&self, _: &Lines) -> u64 {
        unreachable!("a board with tables is searched whole")
    }
    fn finish(&self, _: Lines, _: &Limits) -> Outcome {
        unreachable!("a board with tables is searched whole")
    }
    fn start_bound(&self) -> u32 {
        0
    }
    fn searchable(&self) -> bool {
        true
    }
    fn cells(&self) -> usize {
        self.cells
    }
    fn tables(&self) -> bool {
        true
    }
}

#[test]
fn within_ends_as_soon_as_an_answer_is_within_the_bound_of_what_idastar_proved() {
    // 12 moves against a proven 10: within 1.2, with no timeout to end
    // the run and an IDA* that would go on for a minute.
    let searches = Scripted::small(12, 10, 10);
    let limits = Limits { threads: 2, ..Limits::default() };
    assert!(races(&searches, &limits));
    let started = std::time::Instant::now();
    let outcome = within(&searches, &limits, Weight::ratio(6, 5), &mut |_| {});
    assert!(started.elapsed() < Duration::from_secs(30), "{:?}", started.elapsed());
    assert_eq!(outcome.status, Status::Solved);
    assert_eq!((outcome.cost(), outcome.lower_bound), (Some(12), Some(10)));
}

#[test]
fn within_gives_no_answer_that_it_has_not_proven_within_the_bound() {
    // 12 moves against a proven 10 is not within 1.1: the time ends
    // the run with the bound proven and no path.
    let searches = Scripted::small(12, 10, 10);
    let limits = Limits { threads: 2, timeout: Some(Duration::from_millis(200)), ..Limits::default() };
    let outcome = within(&searches, &limits, Weight::ratio(11, 10), &mut |_| {});
    assert!(matches!(outcome.status, Status::Limit(LimitKind::Time(_))), "{:?}", outcome.status);
    assert_eq!((outcome.path, outcome.lower_bound), (None, Some(10)));
}

#[test]
fn once_the_answers_are_found_their_thread_helps_idastar_prove_the_bound() {
    // 12 moves is within 1.2 of 10, which IDA* proves only with the
    // answers' thread: without it the run would last a minute.
    let searches = Scripted::small(12, 8, 10);
    let limits = Limits { threads: 2, ..Limits::default() };
    let started = std::time::Instant::now();
    let outcome = within(&searches, &limits, Weight::ratio(6, 5), &mut |_| {});
    assert!(started.elapsed() < Duration::from_secs(30), "{:?}", started.elapsed());
    assert_eq!(outcome.status, Status::Solved);
    assert_eq!((outcome.cost(), outcome.lower_bound), (Some(12), Some(10)));
}

#[test]
fn a_larger_board_that_tables_serve_is_searched_whole_and_its_bound_proven() {
    // A 6×6 board: no lines placed (they would panic), the bounded
    // searches' answer and IDA*'s bound instead.
    let searches = Scripted { cells: 36, answer: 120, proves: 104, lent: 104 };
    let limits = Limits { threads: 2, timeout: Some(Duration::from_millis(200)), ..Limits::default() };
    assert!(races(&searches, &limits));
    let outcome = anytime(&searches, &limits, &mut |_| {});
    assert_eq!(outcome.status, Status::Solved);
    assert_eq!((outcome.cost(), outcome.lower_bound), (Some(120), Some(104)));
}

#[test]
fn a_run_stopped_early_has_tried_every_layout_and_every_order() {
    let first: Vec<(usize, Order)> = plans().take(LAYOUTS.len()).map(|s| (s.part, s.order)).collect();
    for layout in &LAYOUTS {
        assert!(first.iter().any(|&(part, _)| part == layout.part));
    }
    for order in Order::ALL {
        assert!(first.iter().any(|&(_, o)| o == order));
    }
}
