/*!
What the machine offers a search: its cores and its memory. The ground
floor: searches, pattern databases and batches all size themselves from
here, and it depends on nothing in the crate.
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
