/*!
The value of a state of a table in bits with no neighbour's value to start
from: bit 1 of the value and the parity of the pattern's Manhattan distance
give it modulo 4, and so tell which successor is one move closer to the
goal; following those to the goal, the steps taken are the value (see
`encoding.rs`).

Each step reads entries scattered over the whole table, so a walk is a
chain of cache misses. A step therefore asks for the successors' entries
before it reads any, and a board's walks (one per table, on the board and
its mirror image) go down together, a step of each in turn: their reads
overlap instead of queueing. Every successor a move closer leads to the
goal in as many steps, so which one is taken does not change the value:
a step first asks only for the moves that bring a tile nearer its goal
cell, where a closer successor nearly always is, and for the others only
when none of those is closer. Ranking a successor costs more than waiting
for its entry, and this halves the successors ranked.
*/

use super::database::{PatternDatabase, Ranks};
use super::encoding::{self, bit_at};
use super::index::MAX_CELLS;
use super::region_index::MAX_TILES;
use crate::board::TileCells;

/// Most successors one state has: four moves of each pattern tile.
const MOST_SUCCESSORS: usize = 4 * MAX_TILES;

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
    /// The successors of this step asked for so far: those that move a
    /// tile nearer its goal cell (false), then the others (true).
    others: bool,
    /// The successors asked for: the tile (its index in the pattern) moved,
    /// its new cell, and their entry; or the walk's own entry, first.
    asked: [(u8, u8, u32); MOST_SUCCESSORS],
    count: u8,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Its own entry asked for: the residue is still to be read.
    Start,
    /// At a state whose residue is known: its successors are next.
    Walking,
    /// Its successors asked for: the one a move closer is to be taken.
    Asked,
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
            others: false,
            asked: [(0, 0, 0); MOST_SUCCESSORS],
            count: 0,
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
        // Tables have fewer than 2³² entries.
        let at = index.rank(&walk.cells, u32::from(walk.blank)) as u32;
        walk.ask(db, 0, 0, at);
        walk.phase = Phase::Start;
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
                busy |= walk.ask_successors(db_of(i));
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
    /// asked for, and starts loading it.
    fn ask(&mut self, db: &PatternDatabase, tile: u8, to: u8, at: u32) {
        self.asked[usize::from(self.count) % MOST_SUCCESSORS] = (tile, to, at);
        self.count += 1;
        if let Some(byte) = db.entries().get(at as usize / 8) {
            crate::machine::prefetch(byte);
        }
    }

    /// Asks for the entries of every successor of the state reached,
    /// unless it is the goal; false when the walk has nothing to read.
    fn ask_successors(&mut self, db: &PatternDatabase) -> bool {
        match self.phase {
            Phase::Start => return true,
            Phase::Walking => {}
            Phase::Asked | Phase::Done => return false,
        }
        let Ranks::Regions(index) = &db.ranks else {
            self.phase = Phase::Done;
            return false;
        };
        let (goal_cells, k) = (db.goal_cells(), db.tiles().len().min(MAX_TILES));
        let occupied = self.cells[..k].iter().fold(0u64, |m, &c| m | 1 << c);
        let region = index.region_cells(occupied, u32::from(self.blank));
        if self.steps == u8::MAX || self.cells[..k] == goal_cells[..] && region & (1 << self.goal_blank) != 0
        {
            self.phase = Phase::Done;
            return false;
        }
        let neighbours = index.neighbours();
        self.count = 0;
        for i in 0..k {
            let from = self.cells[i];
            let at = usize::from(from) & (MAX_CELLS - 1);
            let nearer = index.nearer(goal_cells[i])[at];
            let mut targets = neighbours[at] & region & if self.others { !nearer } else { nearer };
            while targets != 0 {
                let to = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                let mut moved = self.cells;
                moved[i] = to;
                // Tables have fewer than 2³² entries.
                let at = index.rank(&moved, u32::from(from)) as u32;
                self.ask(db, i as u8, to, at);
            }
        }
        self.phase = Phase::Asked;
        true
    }

    /// Reads what the walk asked for: its own residue, or the first
    /// successor a move closer to the goal, which it steps to. With none
    /// (a damaged or forged table) the walk stops there.
    fn take(&mut self, db: &PatternDatabase) {
        let count = usize::from(self.count).min(MOST_SUCCESSORS);
        self.count = 0;
        match self.phase {
            Phase::Start => {
                let (_, _, at) = self.asked[0];
                self.residue = encoding::residue(bit_at(db.entries(), at as usize), self.parity);
                self.phase = Phase::Walking;
            }
            Phase::Asked => {
                let down = (self.residue + 3) % 4;
                let closer = self.asked[..count].iter().find(|&&(_, _, at)| {
                    encoding::residue(bit_at(db.entries(), at as usize), self.parity ^ 1) == down
                });
                match closer {
                    Some(&(i, to, _)) => {
                        let i = usize::from(i) % MAX_TILES;
                        self.blank = self.cells[i];
                        self.cells[i] = to;
                        self.parity ^= 1;
                        self.residue = down;
                        self.steps += 1;
                        self.phase = Phase::Walking;
                        self.others = false;
                    }
                    None if !self.others => {
                        self.others = true;
                        self.phase = Phase::Walking;
                    }
                    None => self.phase = Phase::Done,
                }
            }
            Phase::Walking | Phase::Done => {}
        }
    }
}
