/*!
What the machine offers a search: its cores, its memory, the threads it
lets a command start, and a way to ask its caches for a line ahead of a
read. The ground floor: searches, pattern
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

/// Most threads a command keeps at once, whatever counts it is asked for:
/// past the cores threads only take turns, and each holds a stack and a
/// process id, of which a system may have as few as 32,768 for everyone.
pub const MAX_THREADS: usize = 1024;

/// How many threads a command may plan on of the `wanted` (counting the
/// one asking, at most [`MAX_THREADS`]): all of them when twice as many
/// can start now, else half of those that could, so that the searches
/// keep room for their memory under a limit on the address space
/// (`ulimit -v`) or on processes; at least 1.
pub fn threads_to_plan(wanted: usize) -> usize {
    let wanted = wanted.clamp(1, MAX_THREADS);
    let started = 1 + threads_that_start(2 * wanted - 1);
    if started >= 2 * wanted { wanted } else { (started / 2).max(1) }
}

/// How many of `count` more threads start now, each with the stack every
/// thread of the crate gets: started one by one up to the first refusal,
/// each waiting until all are, then let go.
fn threads_that_start(count: usize) -> usize {
    use std::sync::{Arc, Condvar, Mutex, PoisonError};
    let gate = Arc::new((Mutex::new(false), Condvar::new()));
    let mut started = Vec::new();
    for _ in 0..count {
        let gate = Arc::clone(&gate);
        let thread = std::thread::Builder::new().spawn(move || {
            let (open, opened) = &*gate;
            let mut open = open.lock().unwrap_or_else(PoisonError::into_inner);
            while !*open {
                open = opened.wait(open).unwrap_or_else(PoisonError::into_inner);
            }
        });
        match thread {
            Ok(thread) => started.push(thread),
            Err(_) => break,
        }
    }
    *gate.0.lock().unwrap_or_else(PoisonError::into_inner) = true;
    gate.1.notify_all();
    let count = started.len();
    for thread in started {
        let _ = thread.join();
    }
    count
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
