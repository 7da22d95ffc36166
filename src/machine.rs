/*!
What the machine offers a search: its cores, its memory, and a way to ask
its caches for a line ahead of a read. The ground floor: searches, pattern
databases and batches all size themselves from here, and it depends on
nothing in the crate.
*/

use std::sync::OnceLock;

/// The machine's cores (1 if unknown): what IDA* splits a pass between by
/// default, and what building and verifying pattern databases use.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// The machine's memory in bytes, read once per process from
/// `/proc/meminfo`; `None` where it cannot be read.
pub fn memory() -> Option<u64> {
    static TOTAL: OnceLock<Option<u64>> = OnceLock::new();
    *TOTAL.get_or_init(|| {
        let info = std::fs::read_to_string("/proc/meminfo").ok()?;
        let kib = info.lines().find_map(|l| l.strip_prefix("MemTotal:"))?.trim().strip_suffix("kB")?;
        kib.trim().parse::<u64>().ok().map(|k| k * 1024)
    })
}

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
