//! Builds (or loads) the 15-puzzle pattern databases and prints figures:
//! build or load time, entry statistics, lookup speed and, optionally, IDA*
//! node counts on Korf's 100 instances.
//!
//! ```text
//! cargo run --release --example pdb_build -- 7-8 /tmp/pdb [--rebuild] [--no-bench] [--korf N] [--first I]
//! ```

use npuzzle::heuristic::pdb::{Partition, Pdb, Phase, Progress};
use npuzzle::{Board, Geometry, Goal, GoalSpec, Heuristic, Packed};
use std::path::PathBuf;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let partition: Partition = args.first().map_or("7-8", String::as_str).parse().unwrap();
    let dir = PathBuf::from(args.get(1).map_or("/tmp/npuzzle-pdb", String::as_str));
    let flag = |name: &str| args.iter().position(|a| a == name);
    let number =
        |name: &str, default: usize| flag(name).map_or(default, |i| args[i + 1].parse().expect("a number"));
    let korf = number("--korf", 0);
    let first = number("--first", 0);
    let goal = Goal::new(&GoalSpec::BlankFirst, 4).unwrap();

    let started = Instant::now();
    let mut last = (Phase::Saving, usize::MAX, Instant::now());
    let mut progress = |p: Progress<'_>| {
        if (p.phase, p.pattern) != (last.0, last.1) || p.done == p.total {
            eprintln!(
                "  [{:7.2}s] {:?} pattern {}/{} {:?}: {}/{}",
                started.elapsed().as_secs_f64(),
                p.phase,
                p.pattern + 1,
                p.patterns,
                p.tiles,
                p.done,
                p.total
            );
            last = (p.phase, p.pattern, last.2);
        } else if last.2.elapsed().as_secs() >= 10 {
            eprintln!("  [{:7.2}s]   … {}/{}", started.elapsed().as_secs_f64(), p.done, p.total);
            last.2 = Instant::now();
        }
    };
    let pdb = if flag("--rebuild").is_some() {
        Pdb::build(&goal, partition, &dir, &mut progress)
    } else {
        Pdb::load_or_build(&goal, partition, &dir, &mut progress)
    }
    .unwrap_or_else(|e| panic!("{e}"));
    println!("{partition}: ready in {:.3} s (mirror: {})", started.elapsed().as_secs_f64(), pdb.mirrored());
    for (db, path) in pdb.databases().iter().zip(Pdb::paths(&goal, partition, &dir).unwrap()) {
        let entries = db.entries();
        let max = entries.iter().copied().max().unwrap_or(0);
        let mean = entries.iter().map(|&v| f64::from(v)).sum::<f64>() / entries.len() as f64;
        let size = std::fs::metadata(&path).map_or(0, |m| m.len());
        println!(
            "  tiles {:?}: {} entries, max {max}, mean {mean:.3}, file {} bytes ({})",
            db.tiles(),
            db.len(),
            size,
            path.display()
        );
    }

    if flag("--no-bench").is_none() {
        lookup_speed(&pdb, &goal);
    }
    if korf > 0 {
        korf_ida(&pdb, &goal, first, korf);
    }
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn lookup_speed(pdb: &Pdb, goal: &Goal) {
    let geometry = Geometry::new(4);
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let walk = |b: Packed, steps: usize, rng: &mut Rng| {
        let mut b = b;
        for _ in 0..steps {
            let moves: Vec<_> = geometry.moves(b.blank()).collect();
            let (_, to) = moves[(rng.next() % moves.len() as u64) as usize];
            b = b.slide(b.blank(), to);
        }
        b
    };
    let start = Packed::from_tiles(goal.tiles().cells());
    let mut boards = Vec::with_capacity(1 << 20);
    let mut b = walk(start, 1000, &mut rng);
    for _ in 0..1 << 20 {
        b = walk(b, 37, &mut rng);
        boards.push(b);
    }
    let t = Instant::now();
    let sum: u64 = boards.iter().map(|b| u64::from(pdb.estimate(b))).sum();
    let per = t.elapsed().as_nanos() as f64 / boards.len() as f64;
    println!(
        "  estimate on unrelated random boards: {per:.1} ns (mean h {:.2})",
        sum as f64 / boards.len() as f64
    );

    // The compute part alone: a few boards whose entries stay in cache.
    let hot = &boards[..64];
    let rounds = 1 << 15;
    let t = Instant::now();
    let mut sum = 0u64;
    for _ in 0..rounds {
        for b in hot {
            sum += u64::from(pdb.estimate(std::hint::black_box(b)));
        }
    }
    let per = t.elapsed().as_nanos() as f64 / (rounds * hot.len()) as f64;
    println!("  estimate with entries in cache: {per:.1} ns ({sum})");

    // A long walk: each board is the previous one plus one move, as in a search.
    let n = 1 << 22;
    let mut steps = Vec::with_capacity(n);
    let mut b = boards[0];
    for _ in 0..n {
        let blank = b.blank();
        let moves: Vec<_> = geometry.moves(blank).collect();
        let (_, from) = moves[(rng.next() % moves.len() as u64) as usize];
        let tile = b.tile(from);
        b = b.slide(blank, from);
        steps.push((b, tile, from, blank));
    }
    let t = Instant::now();
    let mut h = pdb.estimate(&boards[0]);
    let mut check = 0u64;
    for &(child, tile, from, to) in &steps {
        h = pdb.update(&child, h, tile, from, to);
        check += u64::from(h);
    }
    let per_update = t.elapsed().as_nanos() as f64 / n as f64;
    let t = Instant::now();
    let mut parts = pdb.parts(&boards[0]);
    let mut check2 = 0u64;
    for &(child, tile, _, _) in &steps {
        parts = pdb.update_parts(&parts, &child, tile);
        check2 += u64::from(parts.value());
    }
    let per_parts = t.elapsed().as_nanos() as f64 / n as f64;
    assert_eq!(check, check2);
    println!("  along a random walk: update {per_update:.1} ns, update_parts {per_parts:.1} ns");
}

struct Ida<'a> {
    pdb: &'a Pdb,
    geometry: Geometry,
    goal: Packed,
    expanded: u64,
    generated: u64,
    next_bound: u32,
}

impl Ida<'_> {
    fn search(&mut self, b: Packed, blank: usize, back: usize, g: u32, h: u32, bound: u32) -> bool {
        let f = g + h;
        if f > bound {
            self.next_bound = self.next_bound.min(f);
            return false;
        }
        if h == 0 && b == self.goal {
            return true;
        }
        self.expanded += 1;
        for i in 0..4 {
            let Some(to) = self.geometry.target(blank, npuzzle::Move::from_index(i)) else {
                continue;
            };
            if to == back {
                continue;
            }
            self.generated += 1;
            let tile = b.tile(to);
            let child = b.slide(blank, to);
            let ch = self.pdb.update(&child, h, tile, to, blank);
            if self.search(child, to, blank, g + 1, ch, bound) {
                return true;
            }
        }
        false
    }
}

fn korf_ida(pdb: &Pdb, goal: &Goal, first: usize, count: usize) {
    let path = ["/work/shared/bench/korf100.txt", "../shared/bench/korf100.txt"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())
        .expect("korf100.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let (mut total_gen, mut total_exp, mut total_time) = (0u64, 0u64, 0f64);
    let mut solved = 0;
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).skip(first).take(count) {
        let nums: Vec<u32> = line.split_whitespace().map(|x| x.parse().unwrap()).collect();
        let (id, optimal) = (nums[0], nums[1]);
        let tiles: Vec<u8> = nums[2..18].iter().map(|&x| x as u8).collect();
        let start = Packed::from_tiles(&tiles);
        let mut ida = Ida {
            pdb,
            geometry: Geometry::new(4),
            goal: Packed::from_tiles(goal.tiles().cells()),
            expanded: 0,
            generated: 0,
            next_bound: 0,
        };
        let t = Instant::now();
        let h0 = pdb.estimate(&start);
        let mut bound = h0;
        loop {
            ida.next_bound = u32::MAX;
            if ida.search(start, start.blank(), usize::MAX, 0, h0, bound) {
                break;
            }
            bound = ida.next_bound;
        }
        let secs = t.elapsed().as_secs_f64();
        assert_eq!(bound, optimal, "instance {id}");
        println!(
            "  korf {id:3}: h0 {h0:2} optimal {optimal:2} generated {:>10} expanded {:>10} {secs:.3} s",
            ida.generated, ida.expanded
        );
        total_gen += ida.generated;
        total_exp += ida.expanded;
        total_time += secs;
        solved += 1;
    }
    println!(
        "  {solved} instances: mean generated {:.0}, mean expanded {:.0}, mean {:.3} s, total {:.1} s",
        total_gen as f64 / f64::from(solved),
        total_exp as f64 / f64::from(solved),
        total_time / f64::from(solved),
        total_time
    );
}
