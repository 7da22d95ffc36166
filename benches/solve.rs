//! Micro-benchmarks of the searches and heuristics on named instances.
//! Every iteration asserts the optimal cost, so a fast wrong answer fails.
//!
//! `cargo bench --bench solve` (criterion; results in target/criterion).

#![expect(missing_docs, reason = "criterion's macros generate undocumented functions")]

use criterion::{Criterion, criterion_group, criterion_main};
use npuzzle::{
    Board, Goal, GoalSpec, Heuristic, Limits, LinearConflict, Manhattan, Packed, PartitionSet, Pdb, astar,
    bfs, idastar,
};
use std::hint::black_box;

const HARDEST_8: [u16; 9] = [8, 0, 6, 5, 4, 7, 2, 3, 1];
/// Korf's instance 55, the easiest of his 100 (41 moves).
const KORF_55: [u16; 16] = [13, 8, 14, 3, 9, 1, 0, 7, 15, 5, 4, 10, 12, 2, 6, 11];

fn searches(c: &mut Criterion) {
    let goal3 = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
    let goal4 = Goal::new(&GoalSpec::BlankFirst, 4).unwrap();
    let hardest = Packed::from_tiles(&HARDEST_8);
    let korf55 = Packed::from_tiles(&KORF_55);
    let limits = Limits::default();
    let m3 = Manhattan::new(&goal3);
    let m4 = Manhattan::new(&goal4);
    let lc4 = LinearConflict::new(&goal4);

    c.bench_function("bfs/8p_hardest_31", |b| {
        b.iter(|| assert_eq!(bfs(black_box(&hardest), &goal3, &limits).cost(), Some(31)));
    });
    c.bench_function("astar_manhattan/8p_hardest_31", |b| {
        b.iter(|| assert_eq!(astar(black_box(&hardest), &goal3, &m3, &limits).cost(), Some(31)));
    });
    c.bench_function("idastar_manhattan/8p_hardest_31", |b| {
        b.iter(|| assert_eq!(idastar(black_box(&hardest), &goal3, &m3, &limits).cost(), Some(31)));
    });
    let mut slow = c.benchmark_group("15-puzzle");
    slow.sample_size(10);
    slow.bench_function("idastar_manhattan/korf_55", |b| {
        b.iter(|| assert_eq!(idastar(black_box(&korf55), &goal4, &m4, &limits).cost(), Some(41)));
    });
    slow.bench_function("idastar_linear_conflict/korf_55", |b| {
        b.iter(|| assert_eq!(idastar(black_box(&korf55), &goal4, &lc4, &limits).cost(), Some(41)));
    });
    slow.bench_function("astar_manhattan/korf_55", |b| {
        b.iter(|| assert_eq!(astar(black_box(&korf55), &goal4, &m4, &limits).cost(), Some(41)));
    });
    slow.finish();
}

fn heuristics(c: &mut Criterion) {
    let goal4 = Goal::new(&GoalSpec::BlankFirst, 4).unwrap();
    let board = Packed::from_tiles(&KORF_55);
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
    let board = Packed::from_tiles(&KORF_55);
    let limits = Limits::default();
    c.bench_function("pdb_6-6-3/estimate_4x4", |b| b.iter(|| pdb.estimate(black_box(&board))));
    c.bench_function("idastar_pdb_6-6-3/korf_55", |b| {
        b.iter(|| assert_eq!(idastar(black_box(&board), &goal4, &pdb, &limits).cost(), Some(41)));
    });
    c.bench_function("astar_pdb_6-6-3/korf_55", |b| {
        b.iter(|| assert_eq!(astar(black_box(&board), &goal4, &pdb, &limits).cost(), Some(41)));
    });
}

criterion_group!(benches, searches, heuristics, pattern_databases);
criterion_main!(benches);
