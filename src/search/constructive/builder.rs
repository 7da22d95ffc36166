/*!
The constructive pass: the board as it is being solved, peeling lines from
the unsolved region and carrying each tile home one step at a time, the
blank routed by box searches, until a block is left that a search
finishes (see [`solve_block`]).
*/

use super::block::{SEARCHED_SIDE, solve_block};
use super::box_search::{Aim, BOX, BOX_CELLS, BoxSearch, FIXED, NO_CELL, UNSEEN, chebyshev};
use super::pricing::Pricing;
use super::region::{Frame, Region, Side};
use super::window::{WINDOW_CELLS, WINDOW_STATES, solve_window};
use crate::board::{Move, Shape};

/// The parent of a cell a detour has not reached.
const NOT_REACHED: u32 = u32::MAX;

/// Cells of the region past which the path is not searched for shorter
/// windows ([`Builder::small_from`]): windows pay on small regions only.
/// Measured with windows of 16 moves: on 20×20 boards searching the whole
/// path saves 0.6% more and doubles the time, to 10 ms.
const WINDOW_REGION: usize = 400;

/// The board while the constructive pass runs.
pub(super) struct Builder<'a> {
    shape: Shape,
    goal: &'a [u16],
    /// `tiles[cell]`: the tile there, 0 for the blank.
    tiles: Vec<u16>,
    /// `at[tile]`: the tile's cell.
    at: Vec<u32>,
    blank: usize,
    /// `homes[cell]`: the goal row and column of the tile in the cell, as
    /// `row << 16 | col`, or [`FIXED`] once the tile is placed for good (so
    /// everything outside the region). One array for both keeps the box
    /// searches' reads to one cache line per row of the box.
    homes: Vec<u32>,
    pub(super) path: Vec<Move>,
    pub(super) detours: u64,
    /// Where the path reaches a region of at most [`WINDOW_REGION`] cells.
    pub(super) small_from: usize,
    /// The prices of blank moves in the current region.
    pricing: Pricing,
}

/// The direction the blank moves from `from` to the neighbouring `to`.
#[inline]
fn direction(shape: Shape, from: usize, to: usize) -> Move {
    debug_assert_eq!(shape.distance(from, to), 1);
    if to + shape.width() == from {
        Move::Up
    } else if from + shape.width() == to {
        Move::Down
    } else if to + 1 == from {
        Move::Left
    } else {
        Move::Right
    }
}

impl<'a> Builder<'a> {
    pub(super) fn new(start: &[u16], goal: &'a [u16], shape: Shape) -> Builder<'a> {
        let mut at = vec![0; start.len()];
        for (cell, &tile) in start.iter().enumerate() {
            at[usize::from(tile)] = cell as u32;
        }
        let mut home = vec![0; goal.len()];
        for (cell, &tile) in goal.iter().enumerate() {
            home[usize::from(tile)] = (shape.row(cell) as u32) << 16 | shape.col(cell) as u32;
        }
        Builder {
            shape,
            goal,
            homes: start.iter().map(|&tile| home[usize::from(tile)]).collect(),
            tiles: start.to_vec(),
            blank: at[0] as usize,
            at,
            path: Vec::new(),
            detours: 0,
            small_from: 0,
            pricing: Pricing::new(shape),
        }
    }

    /// Peels lines until a block around the blank's goal cell is left that
    /// a search solves, then plays its solution: as soon as the region is
    /// at most 5×5 weighted A* is tried (and tried again on each smaller
    /// region while it gives up), and a block of at most 3×3 is solved
    /// optimally. Returns the block searches' expanded and generated node
    /// counts, or `None` when `stop`, asked at every step a tile takes,
    /// said to give up or they needed more than `max_expanded` expansions.
    pub(super) fn solve(&mut self, max_expanded: u64, stop: &mut dyn FnMut() -> bool) -> Option<(u64, u64)> {
        let shape = self.shape;
        let blank_goal = self.goal.iter().position(|&t| t == 0).unwrap_or(0);
        let blank_goal = (shape.row(blank_goal), shape.col(blank_goal));
        let mut region = Region::whole(shape);
        let (mut expanded, mut generated) = (0, 0);
        loop {
            // The path so far was made in a region too large to search
            // windows in.
            if region.width() * region.height() > WINDOW_REGION {
                self.small_from = self.path.len();
            }
            let last = region.width() <= 3 && region.height() <= 3;
            if last || region.width().max(region.height()) <= SEARCHED_SIDE {
                let block = solve_block(shape, self.goal, &self.tiles, &region, max_expanded - expanded)?;
                expanded += block.expanded;
                generated += block.generated;
                for &mv in &block.path {
                    let to = shape.neighbour(self.blank, mv).expect("block moves stay on the board");
                    self.slide_to(to);
                }
                if block.solved || last {
                    return Some((expanded, generated));
                }
            }
            self.pricing.update(&region);
            let side = self.choose_side(&region, blank_goal);
            if !self.place_line(region.frame(side), stop) {
                return None;
            }
            region.peel(side);
        }
    }

    /// The side to peel next: of the longer dimension's sides (any side
    /// when square), the eligible one whose tiles are nearest their cells
    /// Keeping the region square pays: measured on random 50×50
    /// boards (mean moves / n³, 16 boards, blank first / snail), taking the
    /// nearest of all eligible sides gives 1.86 / 1.85 against 1.78 / 1.80;
    /// which end of a line is placed first makes no difference.
    fn choose_side(&self, region: &Region, blank_goal: (usize, usize)) -> Side {
        let sides: &[Side] = match region.height().cmp(&region.width()) {
            std::cmp::Ordering::Greater => &[Side::Top, Side::Bottom],
            std::cmp::Ordering::Less => &[Side::Left, Side::Right],
            std::cmp::Ordering::Equal => &[Side::Top, Side::Bottom, Side::Left, Side::Right],
        };
        let mut best = None;
        for &side in sides {
            if !region.can_peel(side, blank_goal) {
                continue;
            }
            let frame = region.frame(side);
            let cost: usize = (0..frame.len)
                .map(|j| {
                    let cell = frame.cell(self.shape, 0, j);
                    self.shape.distance(self.at[usize::from(self.goal[cell])] as usize, cell)
                })
                .sum();
            if best.is_none_or(|(_, c)| cost < c) {
                best = Some((side, cost));
            }
        }
        best.expect("a region larger than its final block has a side to peel").0
    }

    /// Places every tile of the line in `frame` and fixes them; false if
    /// `stop` said to give up first.
    fn place_line(&mut self, frame: Frame, stop: &mut dyn FnMut() -> bool) -> bool {
        for j in 0..frame.len - 2 {
            let cell = frame.cell(self.shape, 0, j);
            if !self.carry(self.goal[cell], cell, NO_CELL, stop) {
                return false;
            }
            self.homes[cell] = FIXED;
        }
        self.last_two(frame, stop)
    }

    /// Places the last two tiles of a line: the far one into its own cell,
    /// the other into the window at the line's end, then a breadth-first
    /// search over the window finishes both. False if `stop` said to give
    /// up first.
    fn last_two(&mut self, frame: Frame, stop: &mut dyn FnMut() -> bool) -> bool {
        let shape = self.shape;
        let len = frame.len;
        let (far, near) = (frame.cell(shape, 0, len - 1), frame.cell(shape, 0, len - 2));
        let (a, b) = (self.goal[far], self.goal[near]);
        if self.at[usize::from(a)] as usize != far || self.at[usize::from(b)] as usize != near {
            let mut window = [NO_CELL; WINDOW_CELLS];
            let mut size = 0;
            for i in 0..3 {
                for j in len.saturating_sub(3)..len {
                    let cell = frame.cell(shape, i, j);
                    if self.homes[cell] != FIXED {
                        window[size] = cell;
                        size += 1;
                    }
                }
            }
            let window = &window[..size];
            if !self.carry(a, far, NO_CELL, stop) {
                return false;
            }
            let b_at = self.at[usize::from(b)] as usize;
            if !window.contains(&b_at) {
                let target = nearest(shape, window.iter().copied().filter(|&c| c != far), b_at);
                if !self.carry(b, target, far, stop) {
                    return false;
                }
            }
            if !window.contains(&self.blank) {
                let b_at = self.at[usize::from(b)] as usize;
                let target =
                    nearest(shape, window.iter().copied().filter(|&c| c != far && c != b_at), self.blank);
                self.route_blank(target, [far, b_at]);
            }
            let (a_at, b_at) = (self.at[usize::from(a)] as usize, self.at[usize::from(b)] as usize);
            let mut moves = [Move::Up; WINDOW_STATES];
            let count = solve_window(shape, window, [a_at, b_at, self.blank], [far, near], &mut moves)
                .expect("every arrangement of two tiles and the blank in the window can be finished");
            for &mv in &moves[..count] {
                let to = shape.neighbour(self.blank, mv).expect("window moves stay on the board");
                self.slide_to(to);
            }
        }
        self.homes[far] = FIXED;
        self.homes[near] = FIXED;
        true
    }

    /// Moves the blank into the neighbouring cell `to`.
    #[inline]
    fn slide_to(&mut self, to: usize) {
        let mv = direction(self.shape, self.blank, to);
        let tile = self.tiles[to];
        self.tiles[self.blank] = tile;
        self.at[usize::from(tile)] = self.blank as u32;
        self.tiles[to] = 0;
        self.at[0] = to as u32;
        self.homes.swap(self.blank, to);
        self.blank = to;
        self.path.push(mv);
    }

    #[inline]
    fn free(&self, cell: usize, blocked: [usize; 2]) -> bool {
        self.homes[cell] != FIXED && cell != blocked[0] && cell != blocked[1]
    }

    /// The steps (up to two) that bring a tile at `p` nearer `target`
    /// without entering a fixed cell or `obstacle`, each with the distance
    /// left along its axis; and how many there are.
    fn steps_toward(&self, p: usize, target: usize, obstacle: usize) -> ([(usize, usize); 2], usize) {
        let shape = self.shape;
        let (rows_left, cols_left) = shape.offsets(p, target);
        let far = shape.distance(p, target);
        let mut steps = [(NO_CELL, 0); 2];
        let mut count = 0;
        for mv in Move::ALL {
            if let Some(next) = shape.neighbour(p, mv)
                && shape.distance(next, target) < far
                && self.free(next, [obstacle, NO_CELL])
            {
                let spare = if matches!(mv, Move::Up | Move::Down) { rows_left } else { cols_left };
                steps[count] = (next, spare);
                count += 1;
            }
        }
        (steps, count)
    }

    /// Brings `tile` to `target` one step at a time, never into a fixed
    /// cell or `obstacle`. Each step goes where the blank gets in front of
    /// the tile most cheaply (see [`Pricing`]), counting what the blank will
    /// then need for the step after ([`Builder::next_step_cost`]): a step
    /// that leaves the blank behind the tile makes the next straight step
    /// dear. Ties go to the axis with more still to go, so that later steps
    /// can keep alternating. Looking one step ahead, measured on random
    /// boards (moves / Manhattan distance): 20×20 2.460 to 2.441 and 50×50
    /// 2.307 to 2.295 (20 boards), 100×100 2.302 to 2.292 (3 boards), for
    /// about 50% more time.
    ///
    /// `stop` is asked before every step: a tile crossing a 256×256 board
    /// takes hundreds, and a line hundreds of tiles. False if it said to
    /// give up.
    fn carry(&mut self, tile: u16, target: usize, obstacle: usize, stop: &mut dyn FnMut() -> bool) -> bool {
        let shape = self.shape;
        loop {
            let p = self.at[usize::from(tile)] as usize;
            if p == target {
                return true;
            }
            if stop() {
                return false;
            }
            let blocked = [p, obstacle];
            let (steps, count) = self.steps_toward(p, target, obstacle);
            assert!(count > 0, "a monotone way to the target stays inside the free region");
            let steps = &steps[..count];
            if chebyshev(shape, self.blank, p) <= BOX {
                let cells = [steps[0].0, steps.get(1).map_or(steps[0].0, |s| s.0)];
                let search = self.search_box(p, blocked, Aim::SettleAll(&cells[..count]));
                let mut best = None;
                for &(next, spare) in steps {
                    let cost = search.cost[search.index(shape, next).expect("the steps lie in the box")];
                    if cost == UNSEEN {
                        continue;
                    }
                    // With a choice, play the step, price the one after it,
                    // and take both back.
                    let later = if count == 2 {
                        let mark = self.path.len();
                        self.follow(&search, next);
                        self.slide_to(p);
                        let later = self.next_step_cost(tile, target, obstacle);
                        self.undo_to(mark);
                        later
                    } else {
                        0
                    };
                    let key = (u32::from(cost) + later, usize::MAX - spare);
                    if best.is_none_or(|(least, _)| key < least) {
                        best = Some((key, next));
                    }
                }
                match best {
                    Some((_, next)) => self.follow(&search, next),
                    None => self.detour(steps[0].0, blocked),
                }
                self.slide_to(p);
            } else {
                let (_, _, next) = steps
                    .iter()
                    .map(|&(next, spare)| (shape.distance(self.blank, next), usize::MAX - spare, next))
                    .min()
                    .expect("at least one step");
                if !self.walk_toward(next, blocked) {
                    self.detour(next, blocked);
                }
            }
        }
    }

    /// What the blank, next to `tile`, needs to get in front of it for its
    /// cheapest next step towards `target`: 0 once it is there, [`UNSEEN`]
    /// if no way inside the box.
    fn next_step_cost(&self, tile: u16, target: usize, obstacle: usize) -> u32 {
        let p = self.at[usize::from(tile)] as usize;
        if p == target {
            return 0;
        }
        let (steps, count) = self.steps_toward(p, target, obstacle);
        let cells = steps.map(|(next, _)| next);
        let search = self.search_box(p, [p, obstacle], Aim::Settle(&cells[..count]));
        cells[..count]
            .iter()
            .map(|&next| {
                u32::from(search.cost[search.index(self.shape, next).expect("the steps lie in the box")])
            })
            .min()
            .unwrap_or(u32::from(UNSEEN))
    }

    /// Takes back the moves of the path past `mark`.
    fn undo_to(&mut self, mark: usize) {
        while self.path.len() > mark {
            let mv = self.path.pop().expect("the path is longer than the mark");
            let back = self.shape.neighbour(self.blank, mv.inverse()).expect("the move was made");
            self.slide_to(back);
            self.path.pop();
        }
    }

    /// Walks the blank to `target` avoiding fixed cells and `blocked`.
    fn route_blank(&mut self, target: usize, blocked: [usize; 2]) {
        while self.blank != target {
            if !self.walk_toward(target, blocked) {
                self.detour(target, blocked);
            }
        }
    }

    /// Moves the blank nearer `target` by a hop inside the box around it:
    /// to the cell where the cost of getting there plus
    /// [`AHEAD`](super::pricing::AHEAD) per step
    /// still to go is least or, when no cell beats staying (the way round
    /// an obstacle is dear), to the reachable cell nearest the target. Either
    /// way the blank ends nearer, so hops end at the target. False if no
    /// cell of the box is nearer.
    fn walk_toward(&mut self, target: usize, blocked: [usize; 2]) -> bool {
        let shape = self.shape;
        let search = self.search_box(self.blank, blocked, Aim::Toward(target));
        if search.best != search.source {
            self.follow(&search, search.cell(shape, search.best));
            return true;
        }
        let search = self.search_box(self.blank, blocked, Aim::All);
        let (tr, tc) = (shape.row(target), shape.col(target));
        let mut nearest = (shape.distance(self.blank, target), u16::MAX, search.source);
        for r in 0..search.rows {
            for c in 0..search.cols {
                let i = r * search.cols + c;
                let cost = search.cost[i];
                if cost != UNSEEN {
                    let ahead = (search.row0 + r).abs_diff(tr) + (search.col0 + c).abs_diff(tc);
                    nearest = nearest.min((ahead, cost, i));
                }
            }
        }
        if nearest.2 == search.source {
            return false;
        }
        self.follow(&search, search.cell(shape, nearest.2));
        true
    }

    /// The cheapest ways of the blank, from where it is, inside the box
    /// around `centre` (see [`BoxSearch::run`]).
    fn search_box(&self, centre: usize, blocked: [usize; 2], aim: Aim<'_>) -> BoxSearch {
        BoxSearch::run(self.shape, &self.homes, self.blank, centre, blocked, aim, &self.pricing)
    }
    /// Walks the blank along `search`'s cheapest way to `target`.
    fn follow(&mut self, search: &BoxSearch, target: usize) {
        let shape = self.shape;
        let mut chain = [0u8; BOX_CELLS];
        let mut len = 0;
        let mut i = search.index(shape, target).expect("the target is inside the box");
        while i != search.source {
            chain[len] = i as u8;
            len += 1;
            i = usize::from(search.parent[i]);
        }
        for k in (0..len).rev() {
            self.slide_to(search.cell(shape, usize::from(chain[k])));
        }
    }

    /// The safety net when the local rules find no way: a breadth-first
    /// search over the free region. Counted in [`RowsOutcome::detours`].
    #[cold]
    fn detour(&mut self, target: usize, blocked: [usize; 2]) {
        self.detours += 1;
        let cells = self.shape.cells();
        let mut parent = vec![NOT_REACHED; cells];
        let mut queue = std::collections::VecDeque::from([self.blank]);
        parent[self.blank] = self.blank as u32;
        while let Some(cell) = queue.pop_front() {
            if cell == target {
                break;
            }
            for (_, next) in self.shape.neighbours(cell) {
                if parent[next] == NOT_REACHED && self.free(next, blocked) {
                    parent[next] = cell as u32;
                    queue.push_back(next);
                }
            }
        }
        assert!(
            parent[target] != NOT_REACHED,
            "the free region stays connected around the tiles being placed"
        );
        let mut way = vec![target];
        while *way.last().expect("starts non-empty") != self.blank {
            let back = parent[*way.last().expect("starts non-empty")] as usize;
            way.push(back);
        }
        for &cell in way.iter().rev().skip(1) {
            self.slide_to(cell);
        }
    }
}

/// The cell of `cells` nearest `from`.
fn nearest(shape: Shape, cells: impl Iterator<Item = usize>, from: usize) -> usize {
    cells.min_by_key(|&c| shape.distance(c, from)).expect("the window has room")
}
