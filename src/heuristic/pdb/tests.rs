/*!
Pattern databases against independent brute force: every entry of small
databases, additivity and the mirror on exactly solved boards, the file
format's defences, and incremental updates.
*/

use super::*;
use crate::board::{Board, Geometry, Goal, GoalSpec, Packed, Tiles, distances_within};
use crate::heuristic::Heuristic;
use build::UNSET;
use std::collections::{HashMap, VecDeque};

fn goal(spec: &GoalSpec, width: usize) -> Goal {
    Goal::new(spec, width).unwrap()
}

fn custom(tiles: &[u16]) -> Goal {
    let t = Tiles::new(tiles).unwrap();
    Goal::new(&GoalSpec::Board(t.clone()), t.width()).unwrap()
}

fn quiet(_: Progress<'_>) {}

fn build(goal: &Goal, tiles: &[u8]) -> PatternDatabase {
    PatternDatabase::build(goal, tiles, &mut quiet).unwrap()
}

/// Minimum pattern moves per placement by a 0-1 BFS over explicit abstract
/// boards (pattern tiles named, other tiles `X`, blank 0), sharing no code
/// with the builder. Keyed by the cells of the pattern tiles in order.
fn brute_force(goal: &Goal, tiles: &[u8]) -> HashMap<Vec<u8>, u32> {
    const X: u8 = u8::MAX;
    let width = goal.width();
    let start: Vec<u8> = goal
        .tiles()
        .cells()
        .iter()
        .map(|&t| t as u8)
        .map(|t| if t == 0 || tiles.contains(&t) { t } else { X })
        .collect();
    let mut dist: HashMap<Vec<u8>, u32> = HashMap::from([(start.clone(), 0)]);
    let mut deque = VecDeque::from([(start, 0u32)]);
    while let Some((board, d)) = deque.pop_front() {
        if dist[&board] < d {
            continue;
        }
        let blank = board.iter().position(|&t| t == 0).unwrap();
        let (row, col) = (blank / width, blank % width);
        let mut next = Vec::new();
        if row > 0 {
            next.push(blank - width);
        }
        if row + 1 < width {
            next.push(blank + width);
        }
        if col > 0 {
            next.push(blank - 1);
        }
        if col + 1 < width {
            next.push(blank + 1);
        }
        for to in next {
            let cost = u32::from(board[to] != X);
            let mut child = board.clone();
            child.swap(blank, to);
            let nd = d + cost;
            if dist.get(&child).is_none_or(|&old| nd < old) {
                dist.insert(child.clone(), nd);
                if cost == 0 {
                    deque.push_front((child, nd));
                } else {
                    deque.push_back((child, nd));
                }
            }
        }
    }
    let mut best: HashMap<Vec<u8>, u32> = HashMap::new();
    for (board, d) in dist {
        let cells: Vec<u8> =
            tiles.iter().map(|&t| board.iter().position(|&x| x == t).unwrap() as u8).collect();
        let e = best.entry(cells).or_insert(d);
        *e = (*e).min(d);
    }
    best
}

#[test]
fn every_entry_of_small_databases_equals_brute_force() {
    let cases: Vec<(Goal, Vec<u8>)> = vec![
        (goal(&GoalSpec::BlankFirst, 3), vec![1, 2]),
        // Tiles 1 and 3 wall the blank's goal cell off from the rest.
        (goal(&GoalSpec::BlankFirst, 3), vec![1, 3]),
        (goal(&GoalSpec::BlankFirst, 3), vec![3, 1, 5]),
        (goal(&GoalSpec::BlankLast, 3), vec![2, 4, 6, 8]),
        (goal(&GoalSpec::Snail, 3), vec![1, 2, 3, 4, 5]),
        (goal(&GoalSpec::BlankFirst, 2), vec![3]),
        (goal(&GoalSpec::BlankFirst, 4), vec![1, 4]),
        (goal(&GoalSpec::BlankFirst, 4), vec![1, 2, 3]),
        (goal(&GoalSpec::Snail, 4), vec![15, 13, 14]),
        (goal(&GoalSpec::BlankLast, 4), vec![11, 12, 14, 15]),
    ];
    for (goal, tiles) in cases {
        let db = build(&goal, &tiles);
        let truth = brute_force(&goal, &tiles);
        assert_eq!(truth.len(), db.len(), "{tiles:?}: every placement reachable");
        for (cells, &d) in &truth {
            assert_eq!(u32::from(db.value(cells)), d, "{tiles:?} at {cells:?}");
        }
        assert!(db.entries().iter().copied().min() == Some(0) && db.entries().iter().all(|&v| v != UNSET));
    }
}

/// Exact distances of every board of a 3×3 goal (all 181,440).
fn solve_3x3(goal: &Goal) -> HashMap<Packed, u32> {
    distances_within(Packed::from_tiles(goal.tiles().cells()), 3, u32::MAX)
}

/// The mirror of a board, from the definition (independent of `Mirror`).
fn mirror_board(goal: &Goal, b: Packed) -> Packed {
    let w = goal.width();
    let t = |c: usize| (c % w) * w + c / w;
    let layout = goal.tiles().cells();
    let mut out = vec![0u16; goal.cells()];
    for c in 0..goal.cells() {
        out[t(c)] = layout[t(goal.cell_of(u16::from(b.tile(c))))];
    }
    Packed::from_tiles(&out)
}

#[test]
fn a_partition_symmetric_under_the_mirror_gains_nothing_from_it() {
    // {1,2,4,5} and {3,6,7,8} map onto themselves, so the mirror lookup is
    // the same sum read through the transposed databases.
    let goal = goal(&GoalSpec::BlankLast, 3);
    let dbs = [[1, 2, 4, 5], [3, 6, 7, 8]].iter().map(|t| build(&goal, t)).collect();
    let pdb = Pdb::from_databases(&goal, dbs).unwrap();
    for b in solve_3x3(&goal).keys() {
        let parts = pdb.parts(b);
        let sum = |v: &[u8]| v.iter().map(|&x| u32::from(x)).sum::<u32>();
        assert_eq!(sum(&parts.direct), sum(&parts.mirrored));
    }
}

#[test]
fn sums_and_mirror_never_exceed_the_true_distance_on_the_whole_3x3_space() {
    for (spec, partition) in [
        (GoalSpec::BlankFirst, vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8]]),
        (GoalSpec::BlankLast, vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8]]),
        (GoalSpec::Snail, vec![vec![1, 2, 3], vec![4, 5, 6], vec![7, 8]]),
    ] {
        let goal = goal(&spec, 3);
        let dbs = partition.iter().map(|t| build(&goal, t)).collect();
        let pdb = Pdb::from_databases(&goal, dbs).unwrap();
        assert!(pdb.mirrored(), "{spec:?}: blank on the diagonal");
        let dist = solve_3x3(&goal);
        assert_eq!(dist.len(), 181_440);
        let (mut mirror_wins, mut total_h) = (0, 0u64);
        for (b, &d) in &dist {
            let parts = pdb.parts(b);
            let direct: u32 = parts.direct.iter().map(|&x| u32::from(x)).sum();
            let mirrored: u32 = parts.mirrored.iter().map(|&x| u32::from(x)).sum();
            assert!(direct <= d && mirrored <= d, "{b:?}: {direct}/{mirrored} > {d}");
            assert_eq!(pdb.value(b), direct.max(mirrored));
            assert_eq!(pdb.estimate(b), parts.value());
            // The mirror is a symmetry: same distance, and its direct sum is
            // this board's mirrored sum.
            let m = mirror_board(&goal, *b);
            assert_eq!(dist[&m], d, "mirror keeps the distance");
            let pm = pdb.parts(&m);
            assert_eq!(pm.direct, parts.mirrored);
            mirror_wins += u32::from(mirrored > direct);
            total_h += u64::from(pdb.value(b));
        }
        assert!(mirror_wins > 0, "{spec:?}: the mirror adds information");
        // Not a vacuous bound: far above Manhattan's 3×3 mean of about 14.
        assert!(total_h / 181_440 >= 14, "{spec:?}: mean {}", total_h / 181_440);
    }
}

/// Exact distances of every 4×4 board within `radius` moves of the goal.
fn ball_4x4(goal: &Goal, radius: u32) -> HashMap<Packed, u32> {
    distances_within(Packed::from_tiles(goal.tiles().cells()), 4, radius)
}

#[test]
fn four_by_four_partitions_are_admissible_near_the_goal() {
    for (spec, partition) in [
        (
            GoalSpec::BlankFirst,
            vec![vec![1, 2, 3], vec![4, 5, 8, 9], vec![6, 7, 10, 11], vec![12, 13, 14, 15]],
        ),
        (GoalSpec::Snail, vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8], vec![9, 10, 11], vec![12, 13, 14, 15]]),
    ] {
        let goal = goal(&spec, 4);
        let dbs = partition.iter().map(|t| build(&goal, t)).collect();
        let pdb = Pdb::from_databases(&goal, dbs).unwrap();
        assert_eq!(pdb.mirrored(), spec == GoalSpec::BlankFirst);
        let dist = ball_4x4(&goal, 15);
        assert!(dist.len() > 100_000);
        let mut exact = 0;
        for (b, &d) in &dist {
            let h = pdb.value(b);
            assert!(h <= d, "{b:?}: {h} > {d}");
            assert_eq!(h % 2, d % 2, "parity: every move changes one pattern by one");
            exact += u32::from(h == d);
        }
        assert!(exact * 2 > dist.len() as u32, "mostly exact this close");
    }
}

#[test]
fn values_combine_the_per_pattern_lookups_along_random_walks() {
    for spec in [GoalSpec::BlankFirst, GoalSpec::Snail] {
        let goal = goal(&spec, 4);
        let partition = [vec![1, 2, 3, 4], vec![5, 6, 7, 8], vec![9, 10, 11], vec![13, 14, 15]];
        let dbs = partition.iter().map(|t| build(&goal, t)).collect();
        let pdb = Pdb::from_databases(&goal, dbs).unwrap();
        let geometry = Geometry::new(4);
        let mut b = Packed::from_tiles(goal.tiles().cells());
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..20_000 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let blank = b.blank();
            let moves: Vec<_> = geometry.moves(blank).collect();
            let (_, from) = moves[(rng % moves.len() as u64) as usize];
            let (h, tile) = (pdb.estimate(&b), b.tile(from));
            b = b.slide(blank, from);
            let parts = pdb.parts(&b);
            for (i, db) in pdb.databases().iter().enumerate() {
                assert_eq!(parts.direct[i], db.lookup(&b), "{spec:?}: pattern {i}");
            }
            assert_eq!(parts.value(), pdb.estimate(&b));
            assert_eq!(pdb.update(&b, h, tile, from, blank), pdb.estimate(&b));
        }
    }
}

#[test]
fn lookups_by_board_and_by_cells_agree() {
    let goal = goal(&GoalSpec::BlankFirst, 4);
    let db = build(&goal, &[5, 9, 2]);
    let b = Packed::from_tiles(&[5, 1, 3, 4, 0, 9, 6, 7, 8, 2, 10, 11, 12, 13, 14, 15]);
    assert_eq!(db.lookup(&b), db.value(&[0, 5, 9]));
    assert_eq!(db.lookup(&Packed::from_tiles(goal.tiles().cells())), 0);
}

#[test]
fn files_round_trip_and_damage_is_detected_and_rebuilt() {
    let dir = tempfile::tempdir().unwrap();
    let goal = goal(&GoalSpec::BlankFirst, 4);
    let tiles = [3, 7, 11];
    let db = PatternDatabase::load_or_build(&goal, &tiles, dir.path(), &mut quiet).unwrap();
    let path = PatternDatabase::path(dir.path(), &goal, &tiles).unwrap();
    let good = std::fs::read(&path).unwrap();
    assert_eq!(good.len(), store::HEADER_LEN + db.len());
    assert_eq!(&good[..8], b"NPZLPDB\0");
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 1, "no temporary file left behind");
    // A killed writer's temporary file is cleaned up by the next write.
    let name = path.file_name().unwrap().to_str().unwrap();
    let stale = dir.path().join(format!(".{name}.4000000000.tmp"));
    std::fs::write(&stale, b"half a file").unwrap();
    db.save(&path, &mut quiet).unwrap();
    assert!(!stale.exists());
    let loaded = PatternDatabase::load(&path, &goal, &tiles, &mut quiet).unwrap();
    assert_eq!(loaded.entries(), db.entries());

    let damaged = |edit: &dyn Fn(&mut Vec<u8>)| {
        let mut bytes = good.clone();
        edit(&mut bytes);
        std::fs::write(&path, &bytes).unwrap();
        PatternDatabase::load(&path, &goal, &tiles, &mut quiet).unwrap_err()
    };
    let corrupt = |e: PdbError| match e {
        PdbError::Corrupt { why, .. } => why,
        other => panic!("expected Corrupt, got {other}"),
    };
    let last = good.len() - 1;
    assert_eq!(corrupt(damaged(&|b| b[last] ^= 0x10)), "checksum mismatch");
    assert_eq!(corrupt(damaged(&|b| b[100] = b[100].wrapping_add(1))), "checksum mismatch");
    assert_eq!(corrupt(damaged(&|b| b[60] ^= 1)), "checksum mismatch");
    assert!(corrupt(damaged(&|b| b.truncate(last))).contains("length"));
    assert!(corrupt(damaged(&|b| b.push(0))).contains("length"));
    assert!(corrupt(damaged(&|b| b.truncate(10))).contains("header"));
    assert!(corrupt(damaged(&|b| b[0] = b'X')).contains("not a pattern database"));
    assert!(corrupt(damaged(&|b| b[8] = 9)).contains("version"));
    for field in [12, 13, 14, 15, 20, 33, 48, 55] {
        assert!(corrupt(damaged(&|b| b[field] ^= 1)).contains("another"), "byte {field}");
    }
    // Asked for another pattern or goal, the same bytes are foreign.
    std::fs::write(&path, &good).unwrap();
    assert!(PatternDatabase::load(&path, &goal, &[3, 11, 7], &mut quiet).is_err());
    let other = custom(&[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 14]);
    assert!(PatternDatabase::load(&path, &other, &tiles, &mut quiet).is_err());
    let missing = PatternDatabase::load(&dir.path().join("nope"), &goal, &tiles, &mut quiet).unwrap_err();
    assert!(matches!(missing, PdbError::Io { .. }));

    // A damaged file is rebuilt, never trusted.
    let mut bytes = good.clone();
    bytes[last] ^= 0xFF;
    std::fs::write(&path, &bytes).unwrap();
    let mut phases = Vec::new();
    let again = PatternDatabase::load_or_build(&goal, &tiles, dir.path(), &mut |p| {
        if phases.last() != Some(&p.phase) {
            phases.push(p.phase);
        }
    })
    .unwrap();
    assert_eq!(phases, [Phase::Loading, Phase::Building, Phase::Saving]);
    assert_eq!(again.entries(), db.entries());
    assert_eq!(std::fs::read(&path).unwrap(), good);
}

#[test]
fn partitions_follow_the_goal_cells() {
    let first = goal(&GoalSpec::BlankFirst, 4);
    assert_eq!(
        Partition::SevenEight.patterns(&first).unwrap(),
        [vec![1, 2, 3, 4, 5, 6, 7], vec![8, 9, 10, 11, 12, 13, 14, 15]]
    );
    assert_eq!(
        Partition::SixSixThree.patterns(&first).unwrap(),
        [vec![1, 4, 5, 8, 9, 12], vec![2, 3, 6, 7, 10, 11], vec![13, 14, 15]]
    );
    let last = goal(&GoalSpec::BlankLast, 4);
    assert_eq!(
        Partition::SixSixThree.patterns(&last).unwrap(),
        [vec![4, 7, 8, 11, 12, 15], vec![5, 6, 9, 10, 13, 14], vec![1, 2, 3]]
    );
    for spec in [GoalSpec::BlankFirst, GoalSpec::BlankLast, GoalSpec::Snail] {
        let g = goal(&spec, 4);
        for partition in Partition::ALL {
            let mut all: Vec<u8> = partition.patterns(&g).unwrap().concat();
            all.sort_unstable();
            assert_eq!(all, (1..16).collect::<Vec<u8>>(), "{spec:?} {partition}");
        }
    }
    for partition in Partition::ALL {
        assert_eq!(partition.name().parse::<Partition>().unwrap(), partition);
    }
    assert!(matches!("5-5-5".parse::<Partition>(), Err(PdbError::UnknownPartition(_))));
    let small = goal(&GoalSpec::BlankFirst, 3);
    let dir = std::env::temp_dir();
    let err = Pdb::load_or_build(&small, Partition::SixSixThree, &dir, &mut quiet).unwrap_err();
    assert!(matches!(err, PdbError::UnsupportedWidth { width: 3 }));
    assert!(err.to_string().contains("4×4"));
}

#[test]
fn bad_patterns_and_combinations_are_refused() {
    let g = goal(&GoalSpec::BlankFirst, 3);
    for tiles in [&[][..], &[0, 1], &[1, 9], &[2, 2], &[1, 2, 3, 4, 5, 6, 7]] {
        assert!(
            matches!(PatternDatabase::build(&g, tiles, &mut quiet), Err(PdbError::BadPattern { .. })),
            "{tiles:?}"
        );
    }
    let overlap = vec![build(&g, &[1, 2]), build(&g, &[2, 3])];
    assert!(Pdb::from_databases(&g, overlap).is_err());
    let other = goal(&GoalSpec::BlankLast, 3);
    assert!(Pdb::from_databases(&other, vec![build(&g, &[1, 2])]).is_err());
    assert!(!Pdb::from_databases(&goal(&GoalSpec::Snail, 4), vec![]).unwrap().mirrored());
}

#[test]
fn the_default_directory_is_named_after_the_program() {
    if let Some(dir) = default_dir() {
        assert!(dir.ends_with("npuzzle"));
        assert!(dir.is_absolute());
    }
}

/// Minimising over the blank's position keeps every entry admissible but
/// not consistent: one move can change the value by several units (here up
/// to 7), so A* must reopen closed states and IDA* may use pathmax.
#[test]
fn values_are_admissible_but_not_consistent() {
    let geometry = Geometry::new(3);
    let goal = goal(&GoalSpec::BlankFirst, 3);
    let dbs = [[1, 2, 3, 4], [5, 6, 7, 8]].iter().map(|t| build(&goal, t)).collect();
    let pdb = Pdb::from_databases(&goal, dbs).unwrap();
    let mut worst = 0;
    for b in solve_3x3(&goal).keys() {
        for (_, to) in geometry.moves(b.blank()) {
            let child = b.slide(b.blank(), to);
            worst = worst.max(pdb.value(b).abs_diff(pdb.value(&child)));
        }
    }
    assert!(worst > 1, "documented as inconsistent; worst jump {worst}");
}
