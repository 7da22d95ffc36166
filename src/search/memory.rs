/*!
Hints to the memory system, the one place the searches use the platform's.

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
or on an older kernel, the hints do nothing.
*/

use std::alloc::{Layout, alloc, dealloc, handle_alloc_error};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// Starts loading every cache line of `value` (two for a board that
/// straddles a line boundary), so that a later read finds it there.
#[inline]
pub(crate) fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let first = std::ptr::from_ref(value).cast::<i8>();
        // SAFETY: a prefetch is a hint that never faults, and these
        // addresses lie within `value` anyway.
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(first);
            if size_of::<T>() > 1 {
                _mm_prefetch::<_MM_HINT_T0>(first.wrapping_add(size_of::<T>() - 1));
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

/// Blocks smaller than this fault in too few pages to be worth a call.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
const POPULATE_FROM: usize = 1 << 18;

/// A huge page on x86-64 and most other Linux targets; blocks this large
/// are aligned to it so that every page of theirs can be one.
const HUGE_PAGE: usize = 2 << 20;

/// A fixed-length array whose pages are mapped when it is made, in huge
/// pages from [`HUGE_PAGE`] bytes (see the module documentation): the
/// slots of a closed set's shard.
pub(crate) struct Block<T: Copy> {
    start: NonNull<T>,
    len: usize,
}

// SAFETY: a block owns its elements as a `Vec` does.
unsafe impl<T: Copy + Send> Send for Block<T> {}
// SAFETY: shared access only reads the elements.
unsafe impl<T: Copy + Sync> Sync for Block<T> {}

impl<T: Copy> Block<T> {
    /// `len` copies of `value`.
    pub(crate) fn filled(len: usize, value: T) -> Block<T> {
        let layout = Self::layout(len);
        if layout.size() == 0 {
            return Block { start: NonNull::dangling(), len };
        }
        // SAFETY: the layout has a non-zero size.
        let Some(start) = NonNull::new(unsafe { alloc(layout) }.cast::<T>()) else {
            handle_alloc_error(layout)
        };
        advise(start.as_ptr().cast(), layout.size());
        // SAFETY: the allocation holds `len` elements of `T`, each written
        // here before the block is read.
        unsafe {
            for i in 0..len {
                start.as_ptr().add(i).write(value);
            }
        }
        Block { start, len }
    }

    fn layout(len: usize) -> Layout {
        let size = len.checked_mul(size_of::<T>()).expect("a block fits the address space");
        let align = if size >= HUGE_PAGE { HUGE_PAGE } else { align_of::<T>() };
        Layout::from_size_align(size, align).expect("a block fits the address space")
    }
}

impl<T: Copy> Deref for Block<T> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        // SAFETY: `start` holds `len` initialised elements (or is dangling
        // with a size of zero).
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

impl<T: Copy> Drop for Block<T> {
    fn drop(&mut self) {
        let layout = Self::layout(self.len);
        if layout.size() > 0 {
            // SAFETY: allocated in `filled` with this very layout.
            unsafe { dealloc(self.start.as_ptr().cast(), layout) };
        }
    }
}

/// Asks for huge pages and then maps the pages of a fresh allocation.
#[cfg(target_os = "linux")]
fn advise(start: *mut libc::c_void, size: usize) {
    if size >= HUGE_PAGE {
        // SAFETY: advice on memory this process owns; it changes how the
        // pages are backed, never their contents, and an error (no huge
        // pages configured) leaves them as they were.
        unsafe { libc::madvise(start, size, libc::MADV_HUGEPAGE) };
    }
    if size >= POPULATE_FROM {
        const PAGE: usize = 4096;
        let (first, end) = ((start as usize).next_multiple_of(PAGE), (start as usize + size) / PAGE * PAGE);
        if end > first {
            // SAFETY: whole pages inside the allocation; mapping them
            // keeps their contents (an older kernel refuses, harmlessly).
            unsafe { libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_POPULATE_WRITE) };
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise(_: *mut u8, _: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_of_any_size_holds_its_value_and_what_is_written_to_it() {
        for len in [0, 1, 64, POPULATE_FROM / 40 + 1, 3 * HUGE_PAGE / 40] {
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
