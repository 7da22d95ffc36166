/*!
Hints to the memory system, the one place the searches use the platform's.

Fresh memory mapped in one call rather than page by page. A large search
writes its closed set and open list into memory it has just allocated, and
the kernel maps each 4 KiB page on its first write, one fault at a time: on
a 7×7 board at W = 4.75 that was 200,000 faults and a quarter of the
process's time. Asking for a new block's pages together
(`MADV_POPULATE_WRITE`, Linux 5.14) maps them in one pass, without a fault
per page. The pages are written soon anyway (a doubled table is filled by
the rehash, a vector by the pushes), so no memory is taken earlier than it
would be; elsewhere, or on an older kernel, this does nothing.
*/

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
const FROM_BYTES: usize = 1 << 18;

/// Maps the whole pages inside `block` now, if it is large enough.
#[inline]
pub(crate) fn populate<T>(block: &[T]) {
    let bytes = std::mem::size_of_val(block);
    if bytes >= FROM_BYTES {
        populate_bytes(block.as_ptr() as usize, bytes);
    }
}

#[cfg(target_os = "linux")]
#[cold]
fn populate_bytes(address: usize, bytes: usize) {
    const PAGE: usize = 4096;
    let start = address.next_multiple_of(PAGE);
    let end = (address + bytes) / PAGE * PAGE;
    if end > start {
        // SAFETY: the range lies inside a block this process owns, and the
        // advice only maps its pages (their contents stay as they are);
        // an error (an older kernel) leaves them to fault in as before.
        unsafe { libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_POPULATE_WRITE) };
    }
}

#[cfg(not(target_os = "linux"))]
fn populate_bytes(_: usize, _: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn populating_keeps_what_a_block_holds() {
        let mut block: Vec<u64> = (0..1 << 18).collect();
        block.reserve(1 << 20);
        populate(&block);
        populate(block.spare_capacity_mut());
        assert!(block.iter().enumerate().all(|(i, &x)| x == i as u64));
        block.extend(0..1 << 20);
        assert_eq!(block[(1 << 18) + 5], 5);
    }
}
