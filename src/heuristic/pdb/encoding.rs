/*!
One bit per zero-aware entry: what it stores and how a value comes back.

In a zero-aware table every move of a pattern tile changes the value by
exactly one. By at most one, because the value is an exact distance in a
graph where that move is one edge; by an odd amount, because each such move
changes the pattern's Manhattan distance by one, the goal's is 0, so every
value has the parity of the Manhattan distance (moves of the blank within
its region change neither). So a search that knows a state's value knows
its child's is one more or one less, and those two differ in their second
lowest bit: storing bit 1 of each value is enough. A value with no parent
to start from (a search's first board) is found by walking down: bit 1 and
the Manhattan parity give the value modulo 4, so among a state's
successors the one a move closer to the goal can be told apart, and the
number of steps to the goal is the value (see `PatternDatabase`).

This is Clausecker and Reinefeld's compression ("Zero-aware pattern
databases with 1-bit compression for sliding tile puzzles", Symposium on
Combinatorial Search 2019).
It needs consistency, so the blank-minimised tables keep a byte per entry.
*/

/// The bit stored for `value`.
#[inline(always)]
#[expect(clippy::inline_always, reason = "part of every lookup")]
pub(crate) const fn bit_of(value: u8) -> u8 {
    (value >> 1) & 1
}

/// The value of a state whose neighbour has value `parent` and whose
/// stored bit is `bit`: one more or one less than `parent`, whichever has
/// that bit. Wraps rather than panics on values no table holds.
#[inline(always)]
#[expect(clippy::inline_always, reason = "part of every lookup")]
pub(crate) const fn step(parent: u8, bit: u8) -> u8 {
    let up = parent.wrapping_add(1);
    if bit_of(up) == bit { up } else { parent.wrapping_sub(1) }
}

/// A value modulo 4, from its stored bit and its parity.
#[inline]
pub(crate) const fn residue(bit: u8, parity: u8) -> u8 {
    (bit << 1) | (parity & 1)
}

/// The bit of entry `index` of a packed table, bit `index % 8` of byte
/// `index / 8`.
#[inline(always)]
#[expect(clippy::inline_always, reason = "part of every lookup")]
pub(crate) fn bit_at(packed: &[u8], index: usize) -> u8 {
    (packed[index / 8] >> (index % 8)) & 1
}

/// Packs `values` (one byte each) into their bits, eight entries a byte.
pub(crate) fn pack(values: &[u8], packed: &mut [u8]) {
    debug_assert_eq!(packed.len(), values.len().div_ceil(8));
    for (byte, eight) in packed.iter_mut().zip(values.chunks(8)) {
        *byte = eight.iter().enumerate().fold(0, |acc, (i, &v)| acc | bit_of(v) << i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_comes_back_from_either_neighbour_and_from_its_residue() {
        for value in 0..=253u8 {
            let bit = bit_of(value);
            if value > 0 {
                assert_eq!(step(value - 1, bit), value, "from below");
            }
            assert_eq!(step(value + 1, bit), value, "from above");
            assert_eq!(residue(bit, value % 2), value % 4);
        }
    }

    #[test]
    fn packing_keeps_every_entry_in_place() {
        let values: Vec<u8> = (0..1_003u32).map(|i| (i * 37 % 61) as u8).collect();
        let mut packed = vec![0u8; values.len().div_ceil(8)];
        pack(&values, &mut packed);
        for (i, &v) in values.iter().enumerate() {
            assert_eq!(bit_at(&packed, i), bit_of(v), "entry {i}");
        }
    }
}
