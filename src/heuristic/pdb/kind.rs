/*!
The kinds of table: what one entry stands for and how many bits it takes.
A blank-minimised table forgets where the blank is; a zero-aware one keeps
the region of free cells it is in, which is worth several moves wherever
the pattern walls the blank off, and makes the values consistent, which in
turn lets them be stored in one bit each.
*/

use std::fmt;

/// What a table holds per entry, and so how it is built, stored and read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableKind {
    /// One byte per placement of the pattern's tiles: the fewest pattern
    /// moves over every position of the blank. Not consistent: one move
    /// can change the value by several.
    Minimised,
    /// One byte per placement and region of the blank (zero-aware):
    /// consistent, every move of a pattern tile changes it by one.
    ZeroAware,
    /// Zero-aware, one bit per entry: a search reads each value from its
    /// parent's (see `encoding.rs`).
    ZeroAwareBits,
}

impl TableKind {
    /// Every kind.
    pub const ALL: [TableKind; 3] = [TableKind::Minimised, TableKind::ZeroAware, TableKind::ZeroAwareBits];

    /// Whether entries are per blank region.
    pub const fn zero_aware(self) -> bool {
        !matches!(self, TableKind::Minimised)
    }

    /// Bits per stored entry.
    pub const fn bits(self) -> u8 {
        match self {
            TableKind::Minimised | TableKind::ZeroAware => 8,
            TableKind::ZeroAwareBits => 1,
        }
    }

    /// The code in a file's header.
    pub(crate) const fn code(self) -> u8 {
        match self {
            TableKind::Minimised => 0,
            TableKind::ZeroAware => 1,
            TableKind::ZeroAwareBits => 2,
        }
    }

    /// What file names of this kind end in, before `.bin`, so tables of
    /// the same tiles never share a file.
    pub(crate) const fn suffix(self) -> &'static str {
        match self {
            TableKind::Minimised => "",
            TableKind::ZeroAware => "-zero",
            TableKind::ZeroAwareBits => "-zero-bits",
        }
    }

    /// Bytes that `entries` entries take on disk and in memory.
    pub const fn bytes(self, entries: u64) -> u64 {
        (entries * self.bits() as u64).div_ceil(8)
    }
}

impl fmt::Display for TableKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TableKind::Minimised => "blank-minimised",
            TableKind::ZeroAware => "zero-aware",
            TableKind::ZeroAwareBits => "zero-aware, 1 bit",
        })
    }
}
