/*!
Making a [`Pdb`]: its databases loaded, built or both, checked against the
goal and against each other, and combined into partitions.
*/

use super::mirror::Mirror;
use super::{MAX_PARTITIONS, MAX_TABLES, Pdb, Plan};
use crate::board::Goal;
use crate::heuristic::pdb::cache::refuse_non_file;
use crate::heuristic::pdb::index::MAX_CELLS;
use crate::heuristic::pdb::progress::{Event, relabel};
use crate::heuristic::pdb::store::goal_bytes;
use crate::heuristic::pdb::{PartitionSet, PatternDatabase, Patterns, PdbError};
use crate::machine::InstructionSets;
use std::path::{Path, PathBuf};

impl Pdb {
    /// Loads the databases of `set` for `goal` from `dir`, building (and
    /// saving) each one that is missing or fails verification.
    ///
    /// # Errors
    /// [`PdbError::WrongShape`] unless the goal has the set's shape;
    /// [`PdbError::Io`] when a rebuilt file cannot be written;
    /// [`PdbError::Memory`] when a table cannot be allocated.
    pub fn load_or_build(
        goal: &Goal,
        set: PartitionSet,
        dir: &Path,
        report: &mut dyn FnMut(Event<'_>),
    ) -> Result<Pdb, PdbError> {
        Self::refuse_non_files(goal, set, dir)?;
        Self::assemble(goal, set, report, |tiles, report| {
            PatternDatabase::load_or_build(goal, tiles, set.kind(), dir, report)
        })
    }

    /// Loads the databases of `set` for `goal` from `dir`, building none.
    ///
    /// # Errors
    /// [`PdbError::WrongShape`] unless the goal has the set's shape;
    /// [`PdbError::Io`] when a file is missing or unreadable;
    /// [`PdbError::Corrupt`] when one fails verification.
    pub fn load(
        goal: &Goal,
        set: PartitionSet,
        dir: &Path,
        report: &mut dyn FnMut(Event<'_>),
    ) -> Result<Pdb, PdbError> {
        let kind = set.kind();
        Self::assemble(goal, set, report, |tiles, report| {
            PatternDatabase::load(&PatternDatabase::path(dir, goal, tiles, kind)?, goal, tiles, kind, report)
        })
    }

    /// Makes every database of `set` for `goal` in `dir` and keeps it
    /// there: the explicit `pdb build` step, which fails early when `dir`
    /// cannot be written, keeps the files that verify and rebuilds all of
    /// them when `force`.
    ///
    /// # Errors
    /// As [`Pdb::load_or_build`], and [`PdbError::Io`] when `dir` or a file
    /// cannot be written.
    pub fn build(
        goal: &Goal,
        set: PartitionSet,
        dir: &Path,
        force: bool,
        report: &mut dyn FnMut(Event<'_>),
    ) -> Result<Pdb, PdbError> {
        Self::refuse_non_files(goal, set, dir)?;
        Self::assemble(goal, set, report, |tiles, report| {
            PatternDatabase::build_and_save(goal, tiles, set.kind(), dir, force, report)
        })
    }

    /// A folder or FIFO under any of the set's names is refused before
    /// the first table is built, not minutes later.
    fn refuse_non_files(goal: &Goal, set: PartitionSet, dir: &Path) -> Result<(), PdbError> {
        Self::paths(goal, set, dir)?.iter().try_for_each(|path| refuse_non_file(path))
    }

    /// The databases of `set`'s patterns, each from `each`, combined;
    /// `each` reports through `report` as if its database were alone.
    fn assemble(
        goal: &Goal,
        set: PartitionSet,
        report: &mut dyn FnMut(Event<'_>),
        mut each: impl FnMut(&[u8], &mut dyn FnMut(Event<'_>)) -> Result<PatternDatabase, PdbError>,
    ) -> Result<Pdb, PdbError> {
        let Patterns { patterns, partitions } = set.tables(goal)?;
        let databases = patterns
            .iter()
            .enumerate()
            .map(|(pattern, tiles)| each(tiles, &mut relabel(pattern, patterns.len(), report)))
            .collect::<Result<Vec<_>, _>>()?;
        let mut pdb = Pdb::from_partitions(goal, databases, &partitions)?;
        pdb.set = Some(set);
        Ok(pdb)
    }

    /// The files the databases of `set` for `goal` use in `dir`.
    ///
    /// # Errors
    /// [`PdbError::WrongShape`] unless the goal has the set's shape.
    pub fn paths(goal: &Goal, set: PartitionSet, dir: &Path) -> Result<Vec<PathBuf>, PdbError> {
        let patterns = set.tables(goal)?.patterns;
        patterns.iter().map(|tiles| PatternDatabase::path(dir, goal, tiles, set.kind())).collect()
    }

    /// Combines databases built for `goal` over disjoint tile sets (the
    /// tiles need not cover the board) into one additive partition.
    ///
    /// # Errors
    /// As [`Pdb::from_partitions`].
    pub fn from_databases(goal: &Goal, databases: Vec<PatternDatabase>) -> Result<Pdb, PdbError> {
        let all: Vec<usize> = (0..databases.len()).collect();
        Pdb::from_partitions(goal, databases, &[all])
    }

    /// Combines databases built for `goal` into partitions, each a list of
    /// indices into `databases` whose tiles are disjoint (they need not
    /// cover the board); the value is the largest partition's sum.
    ///
    /// # Errors
    /// [`PdbError::BadPattern`] when a database was built for another
    /// goal, two of one partition share a tile, an index is out of range,
    /// or there are more than [`MAX_TABLES`] databases or
    /// [`MAX_PARTITIONS`] partitions.
    pub fn from_partitions(
        goal: &Goal,
        databases: Vec<PatternDatabase>,
        partitions: &[Vec<usize>],
    ) -> Result<Pdb, PdbError> {
        let mut tables_of = [0u16; MAX_CELLS];
        for (i, db) in databases.iter().enumerate() {
            let bad = |why| PdbError::BadPattern { tiles: db.tiles().to_vec(), why };
            if db.shape() != goal.shape() || db.goal() != goal_bytes(goal) {
                return Err(bad("built for another goal"));
            }
            if i >= MAX_TABLES {
                return Err(bad("too many patterns"));
            }
            for &t in db.tiles() {
                tables_of[usize::from(t)] |= 1 << i;
            }
        }
        let mut masks = Vec::with_capacity(partitions.len());
        let mut member_masks = Vec::with_capacity(partitions.len());
        for (p, members) in partitions.iter().enumerate() {
            let tiles = |i: usize| databases.get(i).map_or(&[][..], PatternDatabase::tiles).to_vec();
            let bad = |i, why| PdbError::BadPattern { tiles: tiles(i), why };
            if p >= MAX_PARTITIONS {
                return Err(bad(members.first().copied().unwrap_or(0), "too many partitions"));
            }
            let (mut taken, mut mask, mut member_mask) = (0u64, 0u128, 0u16);
            for &i in members {
                let Some(db) = databases.get(i) else {
                    return Err(bad(i, "no such database"));
                };
                let own = db.tiles().iter().fold(0u64, |m, &t| m | 1 << t);
                if own & taken != 0 {
                    return Err(bad(i, "shares a tile with another pattern"));
                }
                taken |= own;
                mask |= 0xFF << (8 * i);
                member_mask |= 1 << i;
            }
            masks.push(mask);
            member_masks.push(member_mask);
        }
        Ok(Pdb {
            plan: Plan::of(&databases, &member_masks),
            set: None,
            cells: goal.cells(),
            databases,
            partitions: masks,
            members: member_masks,
            tables_of,
            mirror: Mirror::new(goal),
            popcnt_bmi_ssse3: InstructionSets::detect().popcnt_bmi_ssse3(),
        })
    }

    /// The same tables, read into huge pages: for tables in bits still in
    /// their files' 4 KiB pages, which a long batch's lookups miss the TLB
    /// on; `None` unless every one of them is such a table and was copied.
    pub fn in_huge_pages(&self) -> Option<Pdb> {
        let databases =
            self.databases.iter().map(PatternDatabase::in_huge_pages).collect::<Option<Vec<_>>>()?;
        Some(Pdb {
            set: self.set,
            cells: self.cells,
            databases,
            partitions: self.partitions.clone(),
            members: self.members.clone(),
            tables_of: self.tables_of,
            plan: self.plan,
            mirror: self.mirror.clone(),
            popcnt_bmi_ssse3: self.popcnt_bmi_ssse3,
        })
    }
}
