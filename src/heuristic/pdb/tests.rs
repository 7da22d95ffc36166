/*!
Pattern databases against independent brute force: every entry of small
databases, additivity and the mirror on exactly solved boards, the file
format's defences, and incremental updates.
*/

use super::*;
use crate::board::{
    Board, Geometry, Goal, GoalSpec, Packed, PackedWords, Shape, Tiles, Wide, distances_within,
};
use crate::heuristic::{Heuristic, Slide};
use build::UNSET;
use std::collections::{HashMap, VecDeque};

fn goal(spec: &GoalSpec, shape: impl Into<Shape>) -> Goal {
    Goal::new(spec, shape).unwrap()
}

fn custom(tiles: &[u16]) -> Goal {
    let t = Tiles::new(tiles).unwrap();
    Goal::new(&GoalSpec::Board(t.clone()), t.width()).unwrap()
}

fn quiet(_: Event<'_>) {}

fn build(goal: &Goal, tiles: &[u8]) -> PatternDatabase {
    PatternDatabase::build(goal, tiles, TableKind::Minimised, &mut quiet).unwrap()
}

/// Minimum pattern moves from every abstract board (pattern tiles named,
/// other tiles `X`, blank 0) to the goal's, by a 0-1 BFS that lets the
/// blank move freely and counts only moves of pattern tiles, sharing no
/// code with the builders. Keyed by the cells of the pattern tiles in
/// order and the blank's cell.
fn abstract_distances(goal: &Goal, tiles: &[u8]) -> HashMap<(Vec<u8>, u8), u32> {
    const X: u8 = u8::MAX;
    let (width, height) = (goal.shape().width(), goal.shape().height());
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
        if row + 1 < height {
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
    let mut best: HashMap<(Vec<u8>, u8), u32> = HashMap::new();
    for (board, d) in dist {
        let cells: Vec<u8> =
            tiles.iter().map(|&t| board.iter().position(|&x| x == t).unwrap() as u8).collect();
        let blank = board.iter().position(|&x| x == 0).unwrap() as u8;
        let e = best.entry((cells, blank)).or_insert(d);
        *e = (*e).min(d);
    }
    best
}

/// The blank-minimised truth: [`abstract_distances`] minimised over the
/// blank. Keyed by the cells of the pattern tiles in order.
fn brute_force(goal: &Goal, tiles: &[u8]) -> HashMap<Vec<u8>, u32> {
    let mut best: HashMap<Vec<u8>, u32> = HashMap::new();
    for ((cells, _), d) in abstract_distances(goal, tiles) {
        let e = best.entry(cells).or_insert(d);
        *e = (*e).min(d);
    }
    best
}

#[test]
fn every_entry_of_small_databases_equals_brute_force() {
    for (goal, tiles) in small_patterns() {
        let db = build(&goal, &tiles);
        let truth = brute_force(&goal, &tiles);
        assert_eq!(truth.len(), db.len(), "{tiles:?}: every placement reachable");
        for (cells, &d) in &truth {
            let blank = (0..goal.cells() as u8).find(|c| !cells.contains(c)).unwrap();
            assert_eq!(u32::from(db.value(cells, blank)), d, "{tiles:?} at {cells:?}");
        }
        assert!(db.entries().iter().copied().min() == Some(0) && db.entries().iter().all(|&v| v != UNSET));
    }
}

/// Small patterns of 3×3, 3×4, 4×3, 4×4 and 5×5 boards, blanks walled off
/// in corners and along edges included.
fn small_patterns() -> Vec<(Goal, Vec<u8>)> {
    vec![
        (goal(&GoalSpec::BlankFirst, 3), vec![1, 2]),
        // Tiles 1 and 3 wall the blank's goal cell off from the rest.
        (goal(&GoalSpec::BlankFirst, 3), vec![1, 3]),
        (goal(&GoalSpec::BlankFirst, 3), vec![3, 1, 5]),
        (goal(&GoalSpec::BlankLast, 3), vec![2, 4, 6, 8]),
        (goal(&GoalSpec::Snail, 3), vec![1, 2, 3, 4, 5]),
        (goal(&GoalSpec::BlankFirst, 3), vec![1, 2, 3, 4, 5, 6]),
        (goal(&GoalSpec::BlankFirst, 2), vec![3]),
        (goal(&GoalSpec::BlankFirst, 4), vec![1, 4]),
        (goal(&GoalSpec::BlankFirst, 4), vec![1, 2, 3]),
        (goal(&GoalSpec::Snail, 4), vec![15, 13, 14]),
        (goal(&GoalSpec::BlankLast, 4), vec![11, 12, 14, 15]),
        (goal(&GoalSpec::BlankFirst, 4), vec![1, 4, 5, 8]),
        (goal(&GoalSpec::BlankFirst, Shape::new(4, 3)), vec![1, 5, 6, 11]),
        (goal(&GoalSpec::Snail, Shape::new(3, 4)), vec![2, 4, 9, 10]),
        (goal(&GoalSpec::BlankLast, Shape::new(3, 4)), vec![1, 2, 3]),
        (goal(&GoalSpec::BlankFirst, 5), vec![1, 2]),
        (goal(&GoalSpec::BlankLast, 5), vec![24, 19, 23]),
        (goal(&GoalSpec::Snail, 5), vec![7, 13, 20]),
    ]
}

/// Patterns of boards of more than 32 cells: zero-aware only, since a
/// blank-minimised table needs a placement's free cells to fit a word.
fn patterns_beyond_32_cells() -> Vec<(Goal, Vec<u8>)> {
    vec![
        (goal(&GoalSpec::BlankFirst, 6), vec![1, 6]),
        (goal(&GoalSpec::Snail, 6), vec![35, 20]),
        (goal(&GoalSpec::BlankLast, Shape::new(7, 5)), vec![33, 27]),
    ]
}

#[test]
fn every_zero_aware_entry_equals_brute_force_region_by_region() {
    for (goal, tiles) in small_patterns().into_iter().chain(patterns_beyond_32_cells()) {
        let truth = abstract_distances(&goal, &tiles);
        let bytes = PatternDatabase::build(&goal, &tiles, TableKind::ZeroAware, &mut quiet).unwrap();
        let bits = PatternDatabase::build(&goal, &tiles, TableKind::ZeroAwareBits, &mut quiet).unwrap();
        let placements: usize = (0..tiles.len()).map(|i| goal.cells() - i).product();
        assert_eq!(
            truth.len(),
            placements * (goal.cells() - tiles.len()),
            "{tiles:?}: every state reachable"
        );
        let mut walled_off = 0;
        for ((cells, blank), &d) in &truth {
            // Every blank cell of a region reads the region's one entry,
            // which is the truth for each of them.
            assert_eq!(u32::from(bytes.value(cells, *blank)), d, "{tiles:?} at {cells:?}, blank {blank}");
            // The bits give the same value, walking down to the goal.
            assert_eq!(
                u32::from(bits.value(cells, *blank)),
                d,
                "bits: {tiles:?} at {cells:?}, blank {blank}"
            );
            let least = (0..goal.cells() as u8)
                .filter(|c| !cells.contains(c))
                .map(|c| truth[&(cells.clone(), c)])
                .min()
                .unwrap();
            walled_off += u32::from(d > least);
        }
        assert!(bytes.entries().iter().all(|&v| v != UNSET), "{tiles:?}: every entry reached");
        // The bits are bit 1 of the bytes.
        let mut packed = vec![0u8; bytes.len().div_ceil(8)];
        encoding::pack(bytes.entries(), &mut packed);
        assert_eq!(bits.entries(), &packed[..]);
        if tiles.len() >= 3 && goal.shape().width() > 2 {
            assert!(walled_off > 0, "{tiles:?}: some region counts for more than the best one");
        }
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

/// Zero-aware databases of `patterns` for `goal` in `kind`, grouped into
/// `partitions` (indices into `patterns`).
fn maxed(goal: &Goal, patterns: &[&[u8]], partitions: &[Vec<usize>], kind: TableKind) -> Pdb {
    let dbs = patterns.iter().map(|t| PatternDatabase::build(goal, t, kind, &mut quiet).unwrap()).collect();
    Pdb::from_partitions(goal, dbs, partitions).unwrap()
}

/// The largest of several partitions' sums of zero-aware tables, each also
/// read on the mirror image, on every board of the 8-puzzle against its
/// true distance: never above it (admissible), never changing by more than
/// one move along a move (consistent), and the maximum of what each
/// partition gives alone, which it beats somewhere.
#[test]
fn several_zero_aware_partitions_maxed_are_admissible_and_consistent_on_the_whole_3x3_space() {
    let patterns: [&[u8]; 7] =
        [&[1, 2, 3, 4], &[5, 6, 7, 8], &[1, 4, 7], &[2, 5, 8], &[3, 6], &[1, 2, 5, 6], &[3, 4, 7, 8]];
    let partitions = [vec![0, 1], vec![2, 3, 4], vec![5, 6]];
    let geometry = Geometry::new(3);
    for spec in [GoalSpec::BlankFirst, GoalSpec::BlankLast, GoalSpec::Snail] {
        let goal = goal(&spec, 3);
        let pdb = maxed(&goal, &patterns, &partitions, TableKind::ZeroAwareBits);
        let bytes = maxed(&goal, &patterns, &partitions, TableKind::ZeroAware);
        let alone: Vec<Pdb> = partitions
            .iter()
            .map(|p| {
                maxed(
                    &goal,
                    &p.iter().map(|&i| patterns[i]).collect::<Vec<_>>(),
                    &[(0..p.len()).collect()],
                    TableKind::ZeroAware,
                )
            })
            .collect();
        let dist = solve_3x3(&goal);
        let h: HashMap<Packed, u32> = dist.keys().map(|b| (*b, pdb.value(b))).collect();
        let mut beats_each = vec![0; partitions.len()];
        for (b, &d) in &dist {
            let value = h[b];
            assert!(value <= d, "{spec:?} {b:?}: {value} > {d}");
            assert_eq!(bytes.value(b), value, "bits and bytes agree");
            let each: Vec<u32> = alone.iter().map(|p| p.value(b)).collect();
            assert_eq!(value, each.iter().copied().max().unwrap(), "the largest partition");
            for (i, &e) in each.iter().enumerate() {
                beats_each[i] += u32::from(value > e);
            }
            for (_, to) in geometry.moves(b.blank()) {
                let child = b.slide(b.blank(), to);
                assert!(value.abs_diff(h[&child]) <= 1, "{spec:?} {b:?}: consistent");
            }
        }
        assert!(
            beats_each.iter().all(|&n| n > 0),
            "{spec:?}: every partition is beaten somewhere: {beats_each:?}"
        );
        walk_checking_updates::<Packed>(&goal, &pdb, 5_000);
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

/// A random walk of `steps` moves from `goal`, checking at every board that
/// the value is the per-pattern lookups combined, that the incremental
/// value (memo and two lookups) equals a fresh one, and that all children
/// estimated at once get what each gets alone.
/// A node's children estimated as IDA*'s walkers do: begun, then finished
/// in as many calls as the heuristic asks for (a few at most).
fn estimate_apart<B: Board>(
    pdb: &Pdb,
    h: u32,
    memo: &PdbMemo<B::Places>,
    blank: usize,
    slides: &[Slide<B>],
    cut: u32,
) -> ([u32; 4], [PdbMemo<B::Places>; 4]) {
    let n = slides.len();
    let (mut estimates, mut memos, mut pending) = ([0; 4], [PdbMemo::default(); 4], PdbPending::default());
    Heuristic::<B>::begin_children(pdb, h, memo, blank, slides, &mut memos[..n], &mut pending, cut);
    let mut calls = 1;
    while !Heuristic::<B>::end_children(
        pdb,
        h,
        memo,
        blank,
        slides,
        &mut pending,
        &mut estimates[..n],
        &mut memos[..n],
    ) {
        calls += 1;
        assert!(calls <= 4, "the estimates are complete after a few calls");
    }
    (estimates, memos)
}

fn walk_checking_updates<B: Board>(goal: &Goal, pdb: &Pdb, steps: usize) {
    let geometry = Geometry::new(goal.shape());
    let mut b = B::from_tiles(goal.tiles().cells());
    let (mut h, mut memo) = pdb.estimate_memo(&b);
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    for step in 0..steps {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let blank = b.blank();
        let moves: Vec<_> = geometry.moves(blank).collect();
        let slides: Vec<Slide<B>> = moves
            .iter()
            .map(|&(_, from)| Slide { board: b.slide(blank, from), tile: b.tile(from), from })
            .collect();
        let (mut estimates, mut memos) = ([0; 4], [PdbMemo::default(); 4]);
        pdb.update_memos(h, &memo, blank, &slides, &mut estimates, &mut memos);
        for (i, slide) in slides.iter().enumerate() {
            let (alone, alone_memo) = pdb.update_memo(&slide.board, h, &memo, slide.tile, slide.from, blank);
            assert_eq!(estimates[i], alone, "child {i} after {step} moves");
            assert_eq!(memos[i], alone_memo, "child {i}'s memo after {step} moves");
        }
        // Begun and finished apart, as IDA*'s walkers estimate them: with
        // no cut, the same estimates and memos; with one, a child estimated
        // above it may be settled on any smaller estimate still above it,
        // and the others are exact.
        let n = slides.len();
        let (halves, half_memos) = estimate_apart(pdb, h, &memo, blank, &slides, u32::MAX);
        assert_eq!(halves[..n], estimates[..n], "begun and finished after {step} moves");
        assert_eq!(half_memos[..n], memos[..n], "begun and finished after {step} moves");
        for cut in h.saturating_sub(2)..=h + 1 {
            let (cut_estimates, cut_memos) = estimate_apart(pdb, h, &memo, blank, &slides, cut);
            for i in 0..n {
                if estimates[i] > cut {
                    assert!(cut_estimates[i] > cut, "child {i} under cut {cut} after {step} moves");
                    assert!(cut_estimates[i] <= estimates[i], "child {i} under cut {cut} after {step} moves");
                } else {
                    assert_eq!(
                        cut_estimates[i], estimates[i],
                        "child {i} under cut {cut} after {step} moves"
                    );
                    assert_eq!(cut_memos[i], memos[i], "child {i} under cut {cut} after {step} moves");
                }
            }
        }
        let (_, from) = moves[(rng % moves.len() as u64) as usize];
        let tile = b.tile(from);
        let plain = pdb.update(&b.slide(blank, from), h, tile, from, blank);
        b = b.slide(blank, from);
        (h, memo) = pdb.update_memo(&b, h, &memo, tile, from, blank);
        let parts = pdb.parts(&b);
        for (i, db) in pdb.databases().iter().enumerate() {
            assert_eq!(parts.direct[i], db.lookup(&b), "pattern {i} after {step} moves");
        }
        assert_eq!(parts.value(), pdb.value(&b));
        assert_eq!(h, pdb.value(&b), "incremental value after {step} moves");
        assert_eq!(memo, pdb.estimate_memo(&b).1, "memo after {step} moves");
        assert_eq!(plain, h);
    }
}

#[test]
fn values_combine_the_per_pattern_lookups_along_random_walks() {
    for spec in [GoalSpec::BlankFirst, GoalSpec::Snail] {
        let goal = goal(&spec, 4);
        let partition = [vec![1, 2, 3, 4], vec![5, 6, 7, 8], vec![9, 10, 11], vec![13, 14, 15]];
        let dbs = partition.iter().map(|t| build(&goal, t)).collect();
        let pdb = Pdb::from_databases(&goal, dbs).unwrap();
        walk_checking_updates::<Packed>(&goal, &pdb, 20_000);
    }
    // 5×5, mirrored (blank on the diagonal) and not, with tiles in no
    // pattern.
    let off_diagonal = (0..25).map(|c| [1, 0][..].get(c).copied().unwrap_or(c as u16)).collect::<Vec<_>>();
    for goal in [goal(&GoalSpec::BlankFirst, 5), goal(&GoalSpec::Snail, 5), custom(&off_diagonal)] {
        let partition = [vec![2, 3, 4], vec![5, 10, 15], vec![6, 7, 11], vec![23, 24, 19], vec![12, 13, 18]];
        let dbs = partition.iter().map(|t| build(&goal, t)).collect();
        let pdb = Pdb::from_databases(&goal, dbs).unwrap();
        assert_eq!(pdb.mirrored(), goal.cell_of(0) != 1);
        walk_checking_updates::<Wide<32>>(&goal, &pdb, 20_000);
        // Zero-aware, in bits, two partitions sharing a table.
        let patterns: [&[u8]; 5] = [&[2, 3, 4], &[5, 10, 15], &[6, 7, 11], &[3, 4, 9], &[1, 2, 6]];
        let pdb = maxed(&goal, &patterns, &[vec![0, 1, 2], vec![1, 3, 4]], TableKind::ZeroAwareBits);
        walk_checking_updates::<Wide<32>>(&goal, &pdb, 5_000);
    }
    // 6×6, past 32 cells, mirrored and not: zero-aware in bits and
    // blank-minimised, on the encoding a search of 6×6 uses.
    for goal in [goal(&GoalSpec::BlankFirst, 6), goal(&GoalSpec::Snail, 6)] {
        let patterns: [&[u8]; 3] = [&[2, 3, 4], &[6, 12, 13], &[34, 35, 29]];
        let pdb = maxed(&goal, &patterns, &[vec![0, 1, 2], vec![1]], TableKind::ZeroAwareBits);
        assert_eq!(pdb.mirrored(), goal.cell_of(0) == 0);
        walk_checking_updates::<PackedWords<4>>(&goal, &pdb, 5_000);
        let dbs = [&[1, 2, 7, 8][..], &[28, 29, 34, 35]].iter().map(|t| build(&goal, t)).collect();
        walk_checking_updates::<PackedWords<4>>(&goal, &Pdb::from_databases(&goal, dbs).unwrap(), 5_000);
    }
    // Zero-aware, one partition of two patterns on 4×4, mirrored and not:
    // children in one pass, against the general path's lone updates.
    for spec in [GoalSpec::BlankFirst, GoalSpec::Snail] {
        let goal = goal(&spec, 4);
        let pdb = maxed(&goal, &[&[1, 2, 3, 4, 5], &[8, 9, 12, 13]], &[vec![0, 1]], TableKind::ZeroAwareBits);
        assert!(pdb.single());
        walk_checking_updates::<Packed>(&goal, &pdb, 20_000);
    }
}

/// Additivity beyond 4×4: disjoint patterns of a rectangle and of the 5×5
/// board, summed (and mirrored where the goal allows), never exceed the
/// true distance of any board near the goal, and are often exact there.
#[test]
fn partitions_of_rectangles_and_5x5_are_admissible_near_the_goal() {
    fn check<B: Board>(goal: &Goal, partition: &[&[u8]], radius: u32) {
        let dbs = partition.iter().map(|t| build(goal, t)).collect();
        let pdb = Pdb::from_databases(goal, dbs).unwrap();
        let dist = distances_within(B::from_tiles(goal.tiles().cells()), goal.shape(), radius);
        let mut exact = 0;
        for (b, &d) in &dist {
            let h = pdb.value(b);
            assert!(h <= d, "{}: {b:?}: {h} > {d}", goal.shape());
            assert_eq!(h % 2, d % 2, "parity: every move changes one pattern by one");
            exact += u32::from(h == d);
        }
        assert!(exact * 4 > dist.len() as u32, "{}: {exact} of {} exact", goal.shape(), dist.len());
    }
    let wide = goal(&GoalSpec::BlankFirst, Shape::new(4, 3));
    check::<Packed>(&wide, &[&[1, 2, 3, 4, 5, 6], &[7, 8, 9, 10, 11]], 16);
    let tall = goal(&GoalSpec::Snail, Shape::new(3, 4));
    check::<Packed>(&tall, &[&[1, 2, 3, 4, 5], &[6, 7, 8, 9, 10, 11]], 16);
    let five = goal(&GoalSpec::BlankFirst, 5);
    let threes: [&[u8]; 8] = [
        &[1, 2, 3],
        &[4, 8, 9],
        &[5, 10, 15],
        &[6, 7, 11],
        &[12, 13, 14],
        &[16, 17, 20],
        &[18, 21, 22],
        &[19, 23, 24],
    ];
    check::<Wide<32>>(&five, &threes, 11);
}

#[test]
fn lookups_by_board_and_by_cells_agree() {
    let goal = goal(&GoalSpec::BlankFirst, 4);
    let db = build(&goal, &[5, 9, 2]);
    let b = Packed::from_tiles(&[5, 1, 3, 4, 0, 9, 6, 7, 8, 2, 10, 11, 12, 13, 14, 15]);
    assert_eq!(db.lookup(&b), db.value(&[0, 5, 9], 4));
    assert_eq!(db.lookup(&Packed::from_tiles(goal.tiles().cells())), 0);
}

/// Files of every shape the format serves, 12 to 25 cells, round-trip, and
/// every header byte and every truncation of them is caught.
#[test]
fn files_round_trip_and_damage_is_detected_and_rebuilt() {
    for kind in TableKind::ALL {
        damage_is_detected_and_rebuilt(&goal(&GoalSpec::BlankFirst, 4), &[3, 7, 11], kind);
        damage_is_detected_and_rebuilt(&goal(&GoalSpec::BlankLast, 5), &[24, 18, 12], kind);
        damage_is_detected_and_rebuilt(&goal(&GoalSpec::Snail, Shape::new(3, 4)), &[1, 5, 9], kind);
        damage_is_detected_and_rebuilt(&goal(&GoalSpec::BlankFirst, Shape::new(4, 3)), &[4, 8, 11], kind);
    }
}

#[expect(clippy::too_many_lines, reason = "one file's whole life, in the order it happens")]
fn damage_is_detected_and_rebuilt(goal: &Goal, tiles: &[u8], kind: TableKind) {
    // 40 fixed bytes, the goal's cells, the tiles, padded to 64.
    let header = (40 + goal.cells() + tiles.len()).next_multiple_of(64);
    let dir = tempfile::tempdir().unwrap();
    let db = PatternDatabase::load_or_build(goal, tiles, kind, dir.path(), &mut quiet).unwrap();
    let path = PatternDatabase::path(dir.path(), goal, tiles, kind).unwrap();
    let good = std::fs::read(&path).unwrap();
    let payload = db.entries().len();
    assert_eq!(payload as u64, kind.bytes(db.len() as u64));
    assert_eq!(good.len(), header + payload);
    assert_eq!(&good[..8], b"NPZLPDB\0");
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 1, "no temporary file left behind");
    // A killed writer's temporary file is cleaned up by the next write.
    let name = path.file_name().unwrap().to_str().unwrap();
    let stale = dir.path().join(format!(".{name}.4000000000.tmp"));
    std::fs::write(&stale, b"half a file").unwrap();
    db.save(&path, &mut quiet).unwrap();
    assert!(!stale.exists());
    let loaded = PatternDatabase::load(&path, goal, tiles, kind, &mut quiet).unwrap();
    assert_eq!(loaded.entries(), db.entries());

    let damaged = |edit: &dyn Fn(&mut Vec<u8>)| {
        let mut bytes = good.clone();
        edit(&mut bytes);
        std::fs::write(&path, &bytes).unwrap();
        PatternDatabase::load(&path, goal, tiles, kind, &mut quiet).unwrap_err()
    };
    let corrupt = |e: PdbError| match e {
        PdbError::Corrupt { why, .. } => why,
        other => panic!("expected Corrupt, got {other}"),
    };
    let last = good.len() - 1;
    assert_eq!(corrupt(damaged(&|b| b[last] ^= 0x10)), "checksum mismatch");
    assert_eq!(corrupt(damaged(&|b| b[header + 36] = b[header + 36].wrapping_add(1))), "checksum mismatch");
    assert_eq!(corrupt(damaged(&|b| b[header + 6] ^= 1)), "checksum mismatch");
    assert!(corrupt(damaged(&|b| b.push(0))).contains("length"));
    assert!(corrupt(damaged(&|b| b[0] = b'X')).contains("not a pattern database"));
    assert!(corrupt(damaged(&|b| b[8] = 9)).contains("version"));
    // Every byte of the header is checked.
    for at in 0..header {
        let why = corrupt(damaged(&|b| b[at] ^= 0x41));
        let expected = match at {
            0..8 => "not a pattern database file",
            8..12 => "written by another format version",
            12..32 => "built for another shape, pattern or size",
            32..40 => "checksum mismatch",
            _ => "built for another goal or pattern",
        };
        assert_eq!(why, expected, "byte {at}");
    }
    // Files of the earlier versions are refused by their version.
    for version in [1u32, 2, 3] {
        let old = corrupt(damaged(&|b| b[8..12].copy_from_slice(&version.to_le_bytes())));
        assert!(old.contains("version"), "version {version}");
    }
    // Another kind of table of the same tiles is another file, and refused.
    for other in TableKind::ALL.into_iter().filter(|&k| k != kind) {
        assert_ne!(PatternDatabase::path(dir.path(), goal, tiles, other).unwrap(), path);
        std::fs::write(&path, &good).unwrap();
        assert!(PatternDatabase::load(&path, goal, tiles, other, &mut quiet).is_err());
    }
    for len in [0, 7, 31, 40, header - 1] {
        assert_eq!(corrupt(damaged(&|b| b.truncate(len))), "shorter than its header", "{len} bytes");
    }
    for len in [header, header + 1, header + payload / 2, last] {
        assert_eq!(
            corrupt(damaged(&|b| b.truncate(len))),
            "length does not match its entry count",
            "{len} bytes"
        );
    }
    // Asked for another pattern or goal, the same bytes are foreign.
    std::fs::write(&path, &good).unwrap();
    let reordered: Vec<u8> = tiles.iter().rev().copied().collect();
    assert!(PatternDatabase::load(&path, goal, &reordered, kind, &mut quiet).is_err());
    // The goal with two tiles outside the pattern swapped.
    let mut layout = goal.tiles().cells().to_vec();
    let outside: Vec<usize> = (0..layout.len())
        .filter(|&c| layout[c] != 0 && !tiles.contains(&(layout[c] as u8)))
        .take(2)
        .collect();
    layout.swap(outside[0], outside[1]);
    let other =
        Goal::new(&GoalSpec::Board(Tiles::with_shape(goal.shape(), &layout).unwrap()), goal.shape()).unwrap();
    assert!(PatternDatabase::load(&path, &other, tiles, kind, &mut quiet).is_err());
    let missing = PatternDatabase::load(&dir.path().join("nope"), goal, tiles, kind, &mut quiet).unwrap_err();
    assert!(matches!(missing, PdbError::Io { .. }));

    // A damaged or truncated file is rebuilt, never trusted, and the
    // rebuild is announced.
    let flip = |at: usize| {
        let mut bytes = good.clone();
        bytes[at] ^= 0xFF;
        bytes
    };
    let cut = |len: usize| good[..len].to_vec();
    for bytes in [flip(last), flip(13), flip(16), flip(40), cut(header + 7), cut(20)] {
        std::fs::write(&path, &bytes).unwrap();
        let (mut phases, mut notices) = (Vec::new(), Vec::new());
        let again = PatternDatabase::load_or_build(goal, tiles, kind, dir.path(), &mut |event| match event {
            Event::Progress(p) if phases.last() != Some(&p.phase) => phases.push(p.phase),
            Event::Progress(_) => {}
            Event::Notice(Notice::Rebuilding { path: p, why }) => {
                notices.push((p.to_owned(), why.to_owned()));
            }
            Event::Notice(other) => panic!("unexpected {other:?}"),
        })
        .unwrap();
        // A bad header is refused before any entry is read.
        assert!(phases.ends_with(&[Phase::Building, Phase::Saving]), "{phases:?}");
        assert_eq!(notices.len(), 1);
        assert_eq!(notices[0].0, path);
        assert_eq!(again.entries(), db.entries());
        assert_eq!(std::fs::read(&path).unwrap(), good);
    }
}

#[test]
fn five_by_five_files_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let goal = goal(&GoalSpec::BlankLast, 5);
    let tiles = [24, 18, 12];
    let minimised = TableKind::Minimised;
    let db = PatternDatabase::load_or_build(&goal, &tiles, minimised, dir.path(), &mut quiet).unwrap();
    let path = PatternDatabase::path(dir.path(), &goal, &tiles, minimised).unwrap();
    let name = path.file_name().unwrap().to_str().unwrap().to_owned();
    // Two hex digits per tile beyond 16 cells: the goal 1, 2, … 24, 0.
    let layout: String = (1..25).chain([0]).map(|t: u8| format!("{t:02x}")).collect::<Vec<_>>().concat();
    assert_eq!(name, format!("pdb-5x5-goal-{layout}-tiles-18120c.bin"));
    // 40 fixed bytes, 25 of goal, 3 tiles: 68, padded to 128.
    assert_eq!(std::fs::metadata(&path).unwrap().len(), 128 + 25 * 24 * 23);
    let loaded = PatternDatabase::load(&path, &goal, &tiles, minimised, &mut quiet).unwrap();
    assert_eq!(loaded.entries(), db.entries());
    assert_eq!(loaded.shape(), Shape::square(5));
    // The same goal cells on a 4×4 board are another file entirely.
    let small = Goal::new(&GoalSpec::BlankLast, 4).unwrap();
    assert_ne!(PatternDatabase::path(dir.path(), &small, &[12, 8, 4], minimised).unwrap(), path);
    // Zero-aware tables of the same tiles say so in their names.
    let zero = PatternDatabase::path(dir.path(), &goal, &tiles, TableKind::ZeroAwareBits).unwrap();
    assert_eq!(zero.file_name().unwrap().to_str().unwrap(), name.replace(".bin", "-zero-bits.bin"));
}

/// The cache is the user's folder: what is found there is checked before
/// it is opened or waited on.
#[test]
fn cache_entries_that_are_not_files_are_refused_and_unwritable_caches_fall_back_to_memory() {
    let dir = tempfile::tempdir().unwrap();
    let goal = goal(&GoalSpec::BlankFirst, 3);
    let tiles = [1, 2, 3];
    let kind = TableKind::Minimised;
    let path = PatternDatabase::path(dir.path(), &goal, &tiles, kind).unwrap();
    std::fs::create_dir(&path).unwrap();
    let err = PatternDatabase::load_or_build(&goal, &tiles, kind, dir.path(), &mut quiet).unwrap_err();
    assert!(matches!(err, PdbError::NotAFile { kind: "a folder", .. }), "{err}");
    assert!(err.to_string().contains("remove it"));
    std::fs::remove_dir(&path).unwrap();
    #[cfg(unix)]
    {
        // A FIFO would block the reader forever; it is never opened.
        let made = std::process::Command::new("mkfifo").arg(&path).status();
        if made.is_ok_and(|s| s.success()) {
            let err =
                PatternDatabase::load_or_build(&goal, &tiles, kind, dir.path(), &mut quiet).unwrap_err();
            assert!(matches!(err, PdbError::NotAFile { kind: "a FIFO", .. }), "{err}");
            std::fs::remove_file(&path).unwrap();
        }
    }
    // A cache that cannot be written: the tables are built for this run
    // and the caller is told they were not saved.
    let blocked = dir.path().join("file-in-the-way");
    std::fs::write(&blocked, b"").unwrap();
    let mut notices = Vec::new();
    let db = PatternDatabase::load_or_build(&goal, &tiles, kind, &blocked.join("cache"), &mut |event| {
        if let Event::Notice(Notice::NotSaved { path, .. }) = event {
            notices.push(path.to_owned());
        }
    })
    .unwrap();
    assert_eq!(notices.len(), 1);
    assert_eq!(db.entries(), build(&goal, &tiles).entries());
}

#[test]
fn partitions_follow_the_goal_cells() {
    let first = goal(&GoalSpec::BlankFirst, 4);
    assert_eq!(
        Partition::SEVEN_EIGHT.patterns(&first).unwrap(),
        [vec![1, 2, 3, 4, 5, 6, 7], vec![8, 9, 10, 11, 12, 13, 14, 15]]
    );
    assert_eq!(
        Partition::SIX_SIX_THREE.patterns(&first).unwrap(),
        [vec![1, 4, 5, 8, 9, 12], vec![2, 3, 6, 7, 10, 11], vec![13, 14, 15]]
    );
    let last = goal(&GoalSpec::BlankLast, 4);
    assert_eq!(
        Partition::SIX_SIX_THREE.patterns(&last).unwrap(),
        [vec![4, 7, 8, 11, 12, 15], vec![5, 6, 9, 10, 13, 14], vec![1, 2, 3]]
    );
    let five = goal(&GoalSpec::BlankFirst, 5);
    assert_eq!(
        Partition::SIX_SIX_SIX_SIX.patterns(&five).unwrap(),
        [
            vec![1, 5, 6, 10, 11, 12],
            vec![2, 3, 4, 7, 8, 9],
            vec![13, 14, 18, 19, 23, 24],
            vec![15, 16, 17, 20, 21, 22]
        ]
    );
    // Every tile in exactly one pattern, for every goal, blank anywhere.
    let centre =
        custom(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24]);
    for &partition in &Partition::ALL {
        let shape = partition.shape();
        let mut goals: Vec<Goal> = [GoalSpec::BlankFirst, GoalSpec::BlankLast, GoalSpec::Snail]
            .iter()
            .map(|s| goal(s, shape))
            .collect();
        if shape == Shape::square(5) {
            goals.push(centre.clone());
        }
        for g in &goals {
            let mut all: Vec<u8> = partition.patterns(g).unwrap().concat();
            all.sort_unstable();
            assert_eq!(all, (1..shape.cells() as u8).collect::<Vec<u8>>(), "{partition} {:?}", g.tiles());
        }
        for estimates in [Estimates::FromParent, Estimates::FromScratch] {
            assert_eq!(PartitionSet::default_for(shape, estimates).map(PartitionSet::shape), Some(shape));
        }
        // The data itself: every cell but the corner, once.
        let mut cells: Vec<u8> = partition.groups().concat();
        cells.sort_unstable();
        assert_eq!(cells, (1..shape.cells() as u8).collect::<Vec<u8>>(), "{partition}");
    }
    let (ida, best_first) = (Estimates::FromParent, Estimates::FromScratch);
    assert_eq!(PartitionSet::default_for(Shape::square(4), ida), Some(PartitionSet::ZERO_SEVEN_EIGHT));
    assert_eq!(PartitionSet::default_for(Shape::square(4), best_first), Some(PartitionSet::SEVEN_EIGHT));
    assert_eq!(PartitionSet::default_for(Shape::square(5), ida), Some(PartitionSet::ZERO_MAX_SEVEN));
    assert_eq!(PartitionSet::default_for(Shape::square(5), best_first), Some(PartitionSet::SIX_SIX_SIX_SIX));
    assert_eq!(PartitionSet::default_for(Shape::new(5, 4), ida), None);
    assert_eq!(
        PartitionSet::defaults_for(Shape::square(4)).collect::<Vec<_>>(),
        [PartitionSet::ZERO_SEVEN_EIGHT, PartitionSet::SEVEN_EIGHT]
    );
    assert_eq!(PartitionSet::defaults_for(Shape::new(5, 4)).count(), 0);
    // Each default's tables suit the estimates: bits only where a parent's value is at hand.
    for shape in [Shape::square(4), Shape::square(5)] {
        assert_eq!(
            PartitionSet::default_for(shape, ida).map(PartitionSet::kind),
            Some(TableKind::ZeroAwareBits)
        );
        assert_eq!(
            PartitionSet::default_for(shape, best_first).map(PartitionSet::kind),
            Some(TableKind::Minimised)
        );
    }
    // 6×6 has one set, in bits: a blank-minimised six-tile table does not fit an index.
    let six = Shape::square(6);
    for estimates in [ida, best_first] {
        assert_eq!(PartitionSet::default_for(six, estimates), Some(PartitionSet::ZERO_SIX_BY_SIX_BLOCKS));
    }
    assert_eq!(PartitionSet::defaults_for(six).collect::<Vec<_>>(), [PartitionSet::ZERO_SIX_BY_SIX_BLOCKS]);
    assert_eq!(
        catalogue(),
        "4x4: 7-8, 6-6-3, zero-7-8; 5x5: 6-6-6-6, zero-6-6-6-6, zero-max7; 6x6: zero-6-6-6-6-6-5"
    );
    for set in PartitionSet::ALL {
        assert_eq!(set.name().parse::<PartitionSet>().unwrap(), set);
    }
    assert!(matches!("5-5-5".parse::<PartitionSet>(), Err(PdbError::UnknownPartition { .. })));
    let small = goal(&GoalSpec::BlankFirst, 3);
    let dir = std::env::temp_dir();
    let err = Pdb::load_or_build(&small, PartitionSet::SIX_SIX_THREE, &dir, &mut quiet).unwrap_err();
    assert!(matches!(err, PdbError::WrongShape { partition: "6-6-3", .. }), "{err}");
    assert!(err.to_string().contains("not for 3x3 boards"), "{err}");
    assert!(err.to_string().contains("5x5: 6-6-6-6"), "{err}");
}

/// On a board of more than 32 cells, a blank-minimised table equals the
/// zero-aware one minimised over the blank's regions (two builders that
/// share no search).
#[test]
fn blank_minimised_tables_of_6x6_are_the_zero_aware_ones_minimised_over_the_blank() {
    let goal = goal(&GoalSpec::BlankFirst, 6);
    let tiles = [1, 2, 7, 8];
    let minimised = build(&goal, &tiles);
    let zero_aware = PatternDatabase::build(&goal, &tiles, TableKind::ZeroAware, &mut quiet).unwrap();
    let mut cells = [0u8; 4];
    for placement in (0..36 * 35 * 34 * 33).step_by(97) {
        let mut rest = placement;
        for (i, cell) in cells.iter_mut().enumerate() {
            *cell = (rest % (36 - i)) as u8;
            rest /= 36 - i;
        }
        let mut taken: Vec<u8> = Vec::new();
        for cell in &mut cells {
            // The d-th cell not yet taken.
            *cell = (0..36).filter(|c| !taken.contains(c)).nth(usize::from(*cell)).unwrap();
            taken.push(*cell);
        }
        let least = (0..36u8).filter(|c| !cells.contains(c)).map(|b| zero_aware.value(&cells, b)).min();
        let free = (0..36u8).find(|c| !cells.contains(c)).unwrap();
        assert_eq!(Some(minimised.value(&cells, free)), least, "{cells:?}");
    }
    // Three tiles leave 33 free cells: refused, not built wrong.
    assert!(matches!(
        PatternDatabase::build(&goal, &[1, 2, 3], TableKind::Minimised, &mut quiet),
        Err(PdbError::BadPattern { .. })
    ));
}

#[test]
fn bad_patterns_and_combinations_are_refused() {
    let g = goal(&GoalSpec::BlankFirst, 3);
    for tiles in [&[][..], &[0, 1], &[1, 9], &[2, 2], &[1, 2, 3, 4, 5, 6, 7]] {
        assert!(
            matches!(
                PatternDatabase::build(&g, tiles, TableKind::Minimised, &mut quiet),
                Err(PdbError::BadPattern { .. })
            ),
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

/// The best-first searches read tables in bits through the memo each open
/// board keeps: the same answers and the same figures as with the same
/// tables in bytes, which they read afresh, for A*, weighted A*, greedy
/// and bounded search.
#[test]
fn best_first_searches_read_tables_in_bits_as_they_read_bytes() {
    use crate::board::{Scramble, SplitMix64, generate};
    use crate::search::{Limits, Selection, Weight, astar, bounded_astar, greedy, weighted_astar};
    let goal = goal(&GoalSpec::BlankFirst, 4);
    let patterns: [&[u8]; 4] = [&[1, 2, 3, 4], &[5, 6, 7, 8], &[9, 10, 11], &[12, 13, 14, 15]];
    let partitions = [vec![0, 1, 2, 3]];
    let bits = maxed(&goal, &patterns, &partitions, TableKind::ZeroAwareBits);
    let bytes = maxed(&goal, &patterns, &partitions, TableKind::ZeroAware);
    assert!(Heuristic::<Packed>::estimates_from_parent(&bits));
    assert!(!Heuristic::<Packed>::estimates_from_parent(&bytes));
    let mut rng = SplitMix64::new(29);
    let limits = Limits::default();
    let w = Weight::ratio(3, 2);
    for _ in 0..4 {
        let start = Packed::from_tiles(generate(&goal, Scramble::Walk(70), true, &mut rng).cells());
        let runs = [
            (astar(&start, &goal, &bits, &limits), astar(&start, &goal, &bytes, &limits)),
            (
                weighted_astar(&start, &goal, &bits, w, &limits),
                weighted_astar(&start, &goal, &bytes, w, &limits),
            ),
            (greedy(&start, &goal, &bits, &limits), greedy(&start, &goal, &bytes, &limits)),
            (
                bounded_astar(&start, &goal, &bits, w, Selection::Potential, &limits),
                bounded_astar(&start, &goal, &bytes, w, Selection::Potential, &limits),
            ),
        ];
        for (i, (from_bits, from_bytes)) in runs.into_iter().enumerate() {
            assert!(from_bits.path.is_some(), "search {i}");
            assert_eq!(from_bits.path, from_bytes.path, "search {i}");
            assert_eq!(from_bits.lower_bound, from_bytes.lower_bound, "search {i}");
            assert_eq!(from_bits.stats.nodes_expanded, from_bytes.stats.nodes_expanded, "search {i}");
        }
    }
}

#[test]
fn tables_in_bits_read_into_huge_pages_give_the_same_values_and_are_copied_once() {
    let goal = goal(&GoalSpec::BlankFirst, 4);
    let dir = tempfile::tempdir().unwrap();
    let patterns: [&[u8]; 2] = [&[1, 2, 3], &[4, 5, 8]];
    let mut loaded = Vec::new();
    for tiles in patterns {
        let built = PatternDatabase::build(&goal, tiles, TableKind::ZeroAwareBits, &mut quiet).unwrap();
        let path = PatternDatabase::path(dir.path(), &goal, tiles, TableKind::ZeroAwareBits).unwrap();
        built.save(&path, &mut quiet).unwrap();
        // Built in memory, it already asked for huge pages.
        assert!(built.in_huge_pages().is_none());
        loaded
            .push(PatternDatabase::load(&path, &goal, tiles, TableKind::ZeroAwareBits, &mut quiet).unwrap());
    }
    let mapped = Pdb::from_databases(&goal, loaded).unwrap();
    let copied = mapped.in_huge_pages().expect("mapped tables in bits are copied");
    assert!(copied.in_huge_pages().is_none(), "a copy is not copied again");
    for (a, b) in mapped.databases().iter().zip(copied.databases()) {
        assert_eq!(a.entries(), b.entries());
    }
    let geometry = Geometry::new(goal.shape());
    let mut board = Packed::from_tiles(goal.tiles().cells());
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..2_000 {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let moves: Vec<_> = geometry.moves(board.blank()).collect();
        let (_, from) = moves[(rng % moves.len() as u64) as usize];
        board = board.slide(board.blank(), from);
        assert_eq!(copied.value(&board), mapped.value(&board));
    }
    // Blank-minimised tables have nothing to gain.
    let bytes = Pdb::from_databases(&goal, vec![build(&goal, &[1, 2, 3])]).unwrap();
    assert!(bytes.in_huge_pages().is_none());
}
