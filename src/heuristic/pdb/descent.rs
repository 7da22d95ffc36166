/*!
The value of a state of a table in bits with no neighbour's value to start
from: bit 1 of the value and the parity of the pattern's Manhattan distance
give it modulo 4, and so tell which successor is one move closer to the
goal; following those to the goal, the steps taken are the value (see
`encoding.rs`).

Each step reads an entry scattered over the whole table, so a walk is a
chain of cache misses; a board's walks (one per table, on the board and its
mirror image) therefore go down together, a step of each in turn, so that
their reads overlap instead of queueing. Every successor a move closer
leads to the goal in as many steps, so which one is taken does not change
the value. Ranking a successor costs more than waiting for its entry while
the other walks work, so a step asks for one successor at a time, the moves
that bring a tile nearer its goal cell first (the first of those is most
often closer): a third of the time of asking for every such move at once
(measured on the 15-puzzle's tables).
*/

use super::database::{PatternDatabase, Ranks};
use super::encoding::{self, bit_at};
use super::index::MAX_CELLS;
use super::region_index::{MAX_TILES, RegionIndex};
use crate::board::TileCells;

/// One walk down a table in bits, a step at a time.
#[derive(Clone, Copy)]
pub(super) struct Descent {
    /// The pattern's tiles' cells and the blank's, as the walk stands.
    cells: [u8; MAX_TILES],
    blank: u8,
    /// The parity of the pattern's Manhattan distance there.
    parity: u8,
    /// Its value modulo 4, once read.
    residue: u8,
    /// Moves walked: the value, once at the goal.
    steps: u8,
    /// The blank's goal cell.
    goal_blank: u8,
    phase: Phase,
    /// The entry of the state reached, and the free cells of its blank's
    /// region.
    here: u32,
    region: u64,
    /// Where [`Descent::next_successor`] stands among the state's
    /// successors: among the moves that bring a tile nearer its goal cell
    /// (false) or the others (true), the next tile, and the cells of the
    /// tile before still to be tried.
    others: bool,
    tile: u8,
    targets: u64,
    /// The entry asked for: the walk's own, then a successor's, with the
    /// tile (its index in the pattern) moved and its new cell.
    asked: (u8, u8, u32),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Its own map's record asked for: its entry, from the map's rank and
    /// the tiles' order, is still to be asked for.
    Ranked {
        map: u32,
        order: u32,
    },
    /// Its own entry asked for: the residue is still to be read.
    Start,
    /// At a state whose residue is known: its first successor is next.
    Walking,
    /// A successor asked for: taken if it is a move closer.
    Asked,
    /// The successor asked for was not closer: the next one is.
    Next,
    Done,
}

impl Default for Descent {
    fn default() -> Self {
        Descent {
            cells: [0; MAX_TILES],
            blank: 0,
            parity: 0,
            residue: 0,
            steps: 0,
            goal_blank: 0,
            phase: Phase::Done,
            here: 0,
            region: 0,
            others: false,
            tile: 0,
            targets: 0,
            asked: (0, 0, 0),
        }
    }
}

impl Descent {
    /// A walk from the state with the pattern's tiles on `cell_of[tile]`
    /// and the blank on `cell_of[0]`, its first read asked for.
    pub(super) fn new<C: TileCells>(db: &PatternDatabase, cell_of: &C) -> Descent {
        let cell_of = cell_of.bytes();
        let mut walk = Descent::default();
        let Ranks::Regions(index) = &db.ranks else {
            return walk;
        };
        let shape = db.shape();
        let colour = |cell: u8| (shape.row(cell.into()) + shape.col(cell.into())) as u8 & 1;
        let k = db.tiles().len().min(MAX_TILES);
        for (i, &tile) in db.tiles().iter().take(k).enumerate() {
            walk.cells[i] = cell_of[usize::from(tile) & (C::LEN - 1)];
        }
        walk.blank = cell_of[0];
        walk.goal_blank = db.goal().iter().position(|&t| t == 0).unwrap_or(0) as u8;
        walk.parity =
            walk.cells[..k].iter().zip(db.goal_cells()).fold(0, |p, (&c, &g)| p ^ colour(c) ^ colour(g));
        // The map's record is read in the first round, when the other
        // walks have asked for theirs.
        let (map, order) = index.parts_placed(&walk.cells);
        index.prefetch_map(map);
        walk.phase = Phase::Ranked { map, order };
        walk
    }

    /// Its value: the moves walked to the goal (or as far as a damaged
    /// table let it go).
    pub(super) fn value(&self) -> u8 {
        self.steps
    }

    /// Walks `walks` (each down `db_of(i)`, the table of walk `i`) to the
    /// goal together.
    pub(super) fn walk_all<'a>(walks: &mut [Descent], db_of: impl Fn(usize) -> &'a PatternDatabase) {
        loop {
            let mut busy = false;
            for (i, walk) in walks.iter_mut().enumerate() {
                busy |= walk.ask_successor(db_of(i));
            }
            if !busy {
                return;
            }
            for (i, walk) in walks.iter_mut().enumerate() {
                walk.take(db_of(i));
            }
        }
    }

    /// Records entry `at` (of the tile at index `tile` moved to `to`) as
    /// asked for, and starts loading it and its region's record.
    fn ask(&mut self, db: &PatternDatabase, index: &RegionIndex, tile: u8, to: u8, at: u32) {
        self.asked = (tile, to, at);
        if let Some(byte) = db.entries().get(at as usize / 8) {
            crate::machine::prefetch(byte);
        }
        index.prefetch_region_of(at as usize);
    }

    /// Asks for the entry of the next successor of the state reached (see
    /// [`Descent::next_successor`]), unless it is the goal; false when the
    /// walk has nothing to read.
    fn ask_successor(&mut self, db: &PatternDatabase) -> bool {
        match self.phase {
            Phase::Start => return true,
            Phase::Ranked { .. } | Phase::Walking | Phase::Next => {}
            Phase::Asked | Phase::Done => return false,
        }
        let Ranks::Regions(index) = &db.ranks else {
            self.phase = Phase::Done;
            return false;
        };
        if let Phase::Ranked { map, order } = self.phase {
            // Tables have fewer than 2³² entries.
            let at = index.entry(map, order, u32::from(self.blank)) as u32;
            self.ask(db, index, 0, 0, at);
            self.phase = Phase::Start;
            return true;
        }
        let (goal_cells, k) = (db.goal_cells(), db.tiles().len().min(MAX_TILES));
        if self.phase == Phase::Walking {
            self.region = index.region_of(self.here as usize);
            let home = self.cells[..k] == goal_cells[..] && self.region & (1 << self.goal_blank) != 0;
            if self.steps == u8::MAX || home {
                self.phase = Phase::Done;
                return false;
            }
            (self.others, self.tile, self.targets) = (false, 0, 0);
        }
        let Some((i, to)) = self.next_successor(index, goal_cells, k) else {
            self.phase = Phase::Done;
            return false;
        };
        let mut moved = self.cells;
        let from = std::mem::replace(&mut moved[usize::from(i) % MAX_TILES], to);
        // Tables have fewer than 2³² entries.
        let at = index.rank_placed(&moved, u32::from(from)) as u32;
        self.ask(db, index, i, to, at);
        self.phase = Phase::Asked;
        true
    }

    /// The next successor of the state reached, as the tile moved (its
    /// index in the pattern) and its new cell: the moves that bring a tile
    /// nearer its goal cell, then the others; `None` once all are tried.
    fn next_successor(&mut self, index: &RegionIndex, goal_cells: &[u8], k: usize) -> Option<(u8, u8)> {
        while self.targets == 0 {
            if usize::from(self.tile) >= k {
                if self.others {
                    return None;
                }
                (self.others, self.tile) = (true, 0);
            }
            let i = usize::from(self.tile) % MAX_TILES;
            let at = usize::from(self.cells[i]) & (MAX_CELLS - 1);
            let nearer = index.nearer(goal_cells.get(i).copied().unwrap_or(0))[at];
            self.targets = index.neighbours()[at] & self.region & if self.others { !nearer } else { nearer };
            self.tile += 1;
        }
        let to = self.targets.trailing_zeros() as u8;
        self.targets &= self.targets - 1;
        Some((self.tile - 1, to))
    }

    /// Reads what the walk asked for: its own residue, or whether the
    /// successor is a move closer to the goal, and if so steps to it. With
    /// no successor closer (a damaged or forged table) the walk stops
    /// there.
    fn take(&mut self, db: &PatternDatabase) {
        let (i, to, at) = self.asked;
        match self.phase {
            Phase::Start => {
                self.residue = encoding::residue(bit_at(db.entries(), at as usize), self.parity);
                self.here = at;
                self.phase = Phase::Walking;
            }
            Phase::Asked => {
                let down = (self.residue + 3) % 4;
                if encoding::residue(bit_at(db.entries(), at as usize), self.parity ^ 1) == down {
                    let i = usize::from(i) % MAX_TILES;
                    self.blank = self.cells[i];
                    self.cells[i] = to;
                    self.parity ^= 1;
                    self.residue = down;
                    self.steps += 1;
                    self.here = at;
                    self.phase = Phase::Walking;
                } else {
                    self.phase = Phase::Next;
                }
            }
            Phase::Ranked { .. } | Phase::Walking | Phase::Next | Phase::Done => {}
        }
    }
}
