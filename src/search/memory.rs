/*!
Hints to the memory system: prefetches, and the blocks a large closed set
is made of.

A large closed set is one random access per expansion into hundreds of
megabytes, and two costs dominate it besides the cache miss itself. The
kernel maps each fresh 4 KiB page on its first write, one fault at a time:
on a 7×7 board at W = 4.75 that was 200,000 faults and a quarter of the
process's time; asking for a new block's pages together
(`MADV_POPULATE_WRITE`, Linux 5.14) maps them in one pass. And with 4 KiB
pages no translation buffer covers such a table, so nearly every access
also walks the page tables; a [`Block`] of 2 MiB or more is aligned to
2 MiB and asks for huge pages (`MADV_HUGEPAGE`), which the kernel grants
when it has them. The pages are written at once anyway (a table is filled
as it is made), so no memory is taken earlier than it would be; elsewhere,
or on an older kernel, the hints do nothing. The advice goes through
`memmap2`, as the pattern databases' tables do (`heuristic/pdb/database.rs`).
*/

use memmap2::MmapMut;
use std::alloc::{Layout, handle_alloc_error};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// Blocks smaller than this are plain heap vectors: they fault in too few
/// pages to be worth a mapping of their own.
const MAPPED_FROM: usize = 1 << 18;

/// A huge page on x86-64 and most other Linux targets; blocks this large
/// are aligned to it so that every page of theirs can be one.
const HUGE_PAGE: usize = 2 << 20;

/// A fixed-length array whose pages are mapped when it is made, in huge
/// pages from [`HUGE_PAGE`] bytes (see the module documentation): the
/// slots of a closed set's shard.
pub(crate) struct Block<T: Copy> {
    /// The first element, inside `_owner`, which is never touched again
    /// until it is dropped.
    start: NonNull<T>,
    len: usize,
    _owner: Owner<T>,
}

/// What holds a [`Block`]'s elements.
#[expect(dead_code, reason = "held only to be dropped: the elements are reached through `start`")]
enum Owner<T> {
    Heap(Vec<T>),
    /// A mapping padded to start the elements on a huge-page boundary.
    Mapped(MmapMut),
}

// SAFETY: a block owns its elements as a `Vec` does.
unsafe impl<T: Copy + Send> Send for Block<T> {}
// SAFETY: shared access only reads the elements.
unsafe impl<T: Copy + Sync> Sync for Block<T> {}

impl<T: Copy> Block<T> {
    /// `len` copies of `value`.
    pub(crate) fn filled(len: usize, value: T) -> Block<T> {
        let size = len.checked_mul(size_of::<T>()).expect("a block fits the address space");
        if size < MAPPED_FROM {
            let mut heap = vec![value; len];
            let start = NonNull::new(heap.as_mut_ptr()).expect("a vector's buffer is never null");
            return Block { start, len, _owner: Owner::Heap(heap) };
        }
        let pad = if size >= HUGE_PAGE { HUGE_PAGE } else { 0 };
        let Ok(mut map) = MmapMut::map_anon(size + pad) else {
            // Out of memory, as a vector would report it.
            handle_alloc_error(Layout::array::<T>(len).expect("a block fits the address space"))
        };
        // The first huge-page boundary in the padding (none asked: at 0).
        let offset = map.as_ptr().align_offset(HUGE_PAGE).min(pad);
        advise(&map, offset, size, pad > 0);
        // A mapping is page-aligned, and so is `offset`: the elements are
        // aligned for any `T` a closed set holds.
        let first = map[offset..].as_mut_ptr().cast::<T>();
        // SAFETY: the mapping holds `size` bytes from `offset`, room for
        // `len` elements, each written here before the block is read.
        unsafe {
            for i in 0..len {
                first.add(i).write(value);
            }
        }
        let start = NonNull::new(first).expect("a mapping is never null");
        Block { start, len, _owner: Owner::Mapped(map) }
    }
}

impl<T: Copy> Deref for Block<T> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        // SAFETY: `start` holds `len` initialised elements, owned by `_owner`.
        unsafe { std::slice::from_raw_parts(self.start.as_ptr(), self.len) }
    }
}

impl<T: Copy> DerefMut for Block<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` makes the access unique.
        unsafe { std::slice::from_raw_parts_mut(self.start.as_ptr(), self.len) }
    }
}

/// Asks for huge pages, if `huge`, and then maps the pages of `size` bytes
/// of `map` from `offset`. Only hints: without them the block is the same.
#[cfg(target_os = "linux")]
fn advise(map: &MmapMut, offset: usize, size: usize, huge: bool) {
    use memmap2::Advice;
    if huge {
        let _ = map.advise_range(Advice::HugePage, offset, size);
    }
    let _ = map.advise_range(Advice::PopulateWrite, offset, size);
}

#[cfg(not(target_os = "linux"))]
fn advise(_: &MmapMut, _: usize, _: usize, _: bool) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_of_any_size_holds_its_value_and_what_is_written_to_it() {
        for len in [0, 1, 64, MAPPED_FROM / 40 + 1, 3 * HUGE_PAGE / 40] {
            let mut block = Block::filled(len, [7u64; 5]);
            assert_eq!(block.len(), len);
            assert!(block.iter().all(|&slot| slot == [7; 5]));
            for (i, slot) in block.iter_mut().enumerate() {
                slot[i % 5] = i as u64;
            }
            assert!(block.iter().enumerate().all(|(i, slot)| slot[i % 5] == i as u64));
            if len * 40 >= HUGE_PAGE {
                assert_eq!(block.as_ptr() as usize % HUGE_PAGE, 0, "aligned for huge pages");
            }
        }
    }
}
