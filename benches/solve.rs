//! Micro-benchmarks of the searches and heuristics on named instances.
//! Every iteration checks its answer, so a fast wrong answer fails: the
//! optimal searches' cost, the bounded and weighted searches' bound, and
//! every suboptimal path replayed to the goal.
//!
//! `cargo bench --bench solve` (criterion; results in target/criterion);
//! see benches/README.md for one family at a time.

#![expect(missing_docs, reason = "criterion's macros generate undocumented functions")]

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, criterion_group, criterion_main};
use npuzzle::board::{Scramble, SplitMix64, generate, stated_optimum};
use npuzzle::{
    Algorithm, Board, Goal, GoalSpec, Heuristic, HeuristicKind, Limits, LinearConflict, Manhattan, Outcome,
    Packed, PartitionSet, Pdb, Prepared, Status, Tables, Tiles, Weight, astar, bfs, fringe, idastar,
    parse_board, replay_each,
};
use std::hint::black_box;
use std::time::Duration;

fn searches(c: &mut Criterion) {
    let goal3 = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
    let goal4 = Goal::new(&GoalSpec::BlankFirst, 4).unwrap();
    // One of the two hardest 8-puzzles, and Korf's instance 55, the
    // easiest of his 100.
    let (hardest, optimum8) = puzzle("3x3/hardest-31a.txt");
    let (korf55, optimum55) = puzzle("korf100/055.txt");
    let (hardest, korf55) = (Packed::from_tiles(hardest.cells()), Packed::from_tiles(korf55.cells()));
    let (optimum8, optimum55) = (Some(optimum8 as usize), Some(optimum55 as usize));
    let limits = Limits::default();
    let m3 = Manhattan::new(&goal3);
    let m4 = Manhattan::new(&goal4);
    let lc4 = LinearConflict::new(&goal4);

    c.bench_function("bfs/8p_hardest_31", |b| {
        b.iter(|| assert_eq!(bfs(black_box(&hardest), &goal3, &limits).cost(), optimum8));
    });
    c.bench_function("astar_manhattan/8p_hardest_31", |b| {
        b.iter(|| assert_eq!(astar(black_box(&hardest), &goal3, &m3, &limits).cost(), optimum8));
    });
    c.bench_function("idastar_manhattan/8p_hardest_31", |b| {
        b.iter(|| assert_eq!(idastar(black_box(&hardest), &goal3, &m3, &limits).cost(), optimum8));
    });
    let mut slow = c.benchmark_group("15-puzzle");
    slow.sample_size(10);
    slow.bench_function("idastar_manhattan/korf_55", |b| {
        b.iter(|| assert_eq!(idastar(black_box(&korf55), &goal4, &m4, &limits).cost(), optimum55));
    });
    slow.bench_function("idastar_linear_conflict/korf_55", |b| {
        b.iter(|| assert_eq!(idastar(black_box(&korf55), &goal4, &lc4, &limits).cost(), optimum55));
    });
    slow.bench_function("fringe_manhattan/korf_55", |b| {
        b.iter(|| assert_eq!(fringe(black_box(&korf55), &goal4, &m4, &limits).cost(), optimum55));
    });
    slow.bench_function("fringe_linear_conflict/korf_55", |b| {
        b.iter(|| assert_eq!(fringe(black_box(&korf55), &goal4, &lc4, &limits).cost(), optimum55));
    });
    slow.bench_function("astar_manhattan/korf_55", |b| {
        b.iter(|| assert_eq!(astar(black_box(&korf55), &goal4, &m4, &limits).cost(), optimum55));
    });
    slow.finish();
}

fn heuristics(c: &mut Criterion) {
    let goal4 = Goal::new(&GoalSpec::BlankFirst, 4).unwrap();
    let board = Packed::from_tiles(puzzle("korf100/055.txt").0.cells());
    let blank = board.blank();
    let from = blank + 1;
    let child = board.slide(blank, from);
    let tile = board.tile(from);
    let m4 = Manhattan::new(&goal4);
    let lc4 = LinearConflict::new(&goal4);
    let (hm, hl) = (m4.estimate(&board), lc4.estimate(&board));
    c.bench_function("manhattan/estimate_4x4", |b| b.iter(|| m4.estimate(black_box(&board))));
    c.bench_function("manhattan/update_4x4", |b| {
        b.iter(|| m4.update(black_box(&child), hm, tile, from, blank));
    });
    c.bench_function("linear_conflict/estimate_4x4", |b| b.iter(|| lc4.estimate(black_box(&board))));
    c.bench_function("linear_conflict/update_4x4", |b| {
        b.iter(|| lc4.update(black_box(&child), hl, tile, from, blank));
    });
}

/// The 6-6-3 databases (built on the first run, then loaded): the 7-8 ones
/// take minutes to build, and their figures come from `benches/korf.sh`.
fn pattern_databases(c: &mut Criterion) {
    let goal4 = Goal::new(&GoalSpec::BlankFirst, 4).unwrap();
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("pdb-6-6-3");
    let pdb = Pdb::load_or_build(&goal4, PartitionSet::SIX_SIX_THREE, &dir, &mut |_| {}).unwrap();
    let (board, optimum55) = puzzle("korf100/055.txt");
    let (board, optimum55) = (Packed::from_tiles(board.cells()), Some(optimum55 as usize));
    let limits = Limits::default();
    c.bench_function("pdb_6-6-3/estimate_4x4", |b| b.iter(|| pdb.estimate(black_box(&board))));
    c.bench_function("idastar_pdb_6-6-3/korf_55", |b| {
        b.iter(|| assert_eq!(idastar(black_box(&board), &goal4, &pdb, &limits).cost(), optimum55));
    });
    c.bench_function("astar_pdb_6-6-3/korf_55", |b| {
        b.iter(|| assert_eq!(astar(black_box(&board), &goal4, &pdb, &limits).cost(), optimum55));
    });
}

/// A puzzle file under `puzzles/`: its board and its `# optimal:` length.
fn puzzle(relative: &str) -> (Tiles, u32) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles").join(relative);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let tiles = parse_board(&text).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
    let optimum = stated_optimum(&text).unwrap_or_else(|| panic!("{relative} has no '# optimal:' line"));
    (tiles, optimum)
}

/// The cost of a solved `outcome`, once its path is played from `start`
/// and found to end at `goal`.
fn replayed(start: &Tiles, goal: &Goal, outcome: &Outcome) -> u64 {
    assert_eq!(outcome.status, Status::Solved);
    let path = outcome.path.as_deref().expect("a solved search has a path");
    let (mut boards, mut at_goal) = (0, false);
    replay_each(start.cells(), start.shape(), path, |board| {
        boards += 1;
        // Only the last board is compared: a 100×100 path has a million.
        at_goal = boards == path.len() + 1 && board == goal.tiles().cells();
    })
    .unwrap_or_else(|i| panic!("move {i} leaves the board"));
    assert!(at_goal, "the path ends at the goal");
    path.len() as u64
}

/// A group whose iterations take tens of milliseconds to a second or two:
/// ten samples after a second's warm-up, so that each takes seconds.
fn ten_samples<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, WallTime> {
    let mut group = c.benchmark_group(name);
    group.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(5));
    group
}

/// The searches without a shortest-path promise, run as `npuzzle solve`
/// runs them (the path shortened, the lower bound raised) with linear
/// conflicts.
fn beyond_optimal(c: &mut Criterion) {
    let goal4 = Goal::new(&GoalSpec::BlankFirst, 4).unwrap();
    let goal5 = Goal::new(&GoalSpec::BlankFirst, 5).unwrap();
    let limits = Limits::default();
    let solve = |prepared: &Prepared, start: &Tiles| prepared.solve(start, &limits, &Tables::NONE).unwrap();
    let lc = HeuristicKind::LinearConflict;

    let mut bounded = ten_samples(c, "bounded");
    // The five of Korf's first twenty with the shortest paths (42 to 46
    // moves; the others take seconds each) at B = 1.1: each answer within B
    // of the lower bound its run proved, which is no more than the optimum.
    let bound = Weight::ratio(11, 10);
    let within = Prepared::new(goal4.clone(), Algorithm::within(bound), lc);
    let five: Vec<_> = [9, 12, 13, 16, 19].map(|i| puzzle(&format!("korf100/{i:03}.txt"))).into();
    bounded.bench_function("within_1.1_linear_conflict/korf_9_12_13_16_19", |b| {
        b.iter(|| {
            for (start, optimum) in &five {
                let outcome = solve(&within, black_box(start));
                let cost = replayed(start, &goal4, &outcome);
                let lower = outcome.lower_bound.expect("a solved search has a lower bound");
                assert!(bound.covers(cost, u64::from(lower)), "{cost} moves over a lower bound of {lower}");
                assert!(lower <= *optimum && u64::from(*optimum) <= cost, "{lower} <= {optimum} <= {cost}");
            }
        });
    });
    bounded.finish();

    // Korf and Felner's 24-puzzles: greedy on all 50, weighted A* on the
    // first five, each within W of the published optimum.
    let mut twenty_four = ten_samples(c, "24-puzzle");
    let korf24: Vec<_> = (1..=50).map(|i| puzzle(&format!("korf24/{i:02}.txt"))).collect();
    let greedy = Prepared::new(goal5.clone(), Algorithm::Greedy, lc);
    twenty_four.bench_function("greedy_linear_conflict/korf24_1-50", |b| {
        b.iter(|| {
            for (start, optimum) in &korf24 {
                let cost = replayed(start, &goal5, &solve(&greedy, black_box(start)));
                assert!(cost >= u64::from(*optimum), "{cost} moves, under the optimum of {optimum}");
            }
        });
    });
    let weight = Weight::ratio(2, 1);
    let weighted = Prepared::new(goal5.clone(), Algorithm::WeightedAStar(weight), lc);
    twenty_four.bench_function("weighted_astar_2_linear_conflict/korf24_1-5", |b| {
        b.iter(|| {
            for (start, optimum) in &korf24[..5] {
                let cost = replayed(start, &goal5, &solve(&weighted, black_box(start)));
                let optimum = u64::from(*optimum);
                assert!(optimum <= cost && weight.covers(cost, optimum), "{cost} moves for {optimum}");
            }
        });
    });
    twenty_four.finish();

    // The constructive solver on uniformly random boards (seeded).
    let mut large = ten_samples(c, "large");
    for side in [30, 100] {
        let goal = Goal::new(&GoalSpec::BlankFirst, side).unwrap();
        let start = generate(&goal, Scramble::Uniform, true, &mut SplitMix64::new(side as u64));
        let rows = Prepared::new(goal.clone(), Algorithm::Rows, HeuristicKind::Manhattan);
        large.bench_function(format!("rows/random_{side}x{side}"), |b| {
            b.iter(|| {
                let outcome = solve(&rows, black_box(&start));
                let cost = replayed(&start, &goal, &outcome);
                let lower = outcome.lower_bound.expect("a solved search has a lower bound");
                assert!(u64::from(lower) <= cost, "{cost} moves under a lower bound of {lower}");
            });
        });
    }
    large.finish();
}

criterion_group!(benches, searches, heuristics, pattern_databases, beyond_optimal);
criterion_main!(benches);
