/*!
What the machine offers a search: its cores, its memory, the threads it
lets a command start, the instruction sets its CPU has, and a way to ask
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

/// The instruction sets past x86-64's baseline that some hot loops are
/// compiled for (`#[target_feature(enable = …)]`), as this CPU has them:
/// the one place that asks. Such a loop runs only where every set it
/// enables was found here: its caller holds a token ([`PopcntBmi`],
/// [`PopcntBmiSsse3`]) that only that finding makes, or asked
/// [`InstructionSets::popcnt_ssse3`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct InstructionSets {
    /// The sets found, a bit each.
    found: u8,
}

const POPCNT: u8 = 1;
const BMI1: u8 = 2;
const BMI2: u8 = 4;
const SSSE3: u8 = 8;

impl InstructionSets {
    /// This CPU's (none off x86-64).
    pub(crate) fn detect() -> InstructionSets {
        #[cfg(target_arch = "x86_64")]
        {
            let found = [
                (POPCNT, is_x86_feature_detected!("popcnt")),
                (BMI1, is_x86_feature_detected!("bmi1")),
                (BMI2, is_x86_feature_detected!("bmi2")),
                (SSSE3, is_x86_feature_detected!("ssse3")),
            ];
            let found = found.iter().filter(|(_, here)| *here).fold(0, |sets, (set, _)| sets | set);
            InstructionSets { found }
        }
        #[cfg(not(target_arch = "x86_64"))]
        InstructionSets::default()
    }

    /// Whether this CPU has every set of `sets`.
    fn has(self, sets: u8) -> bool {
        self.found & sets == sets
    }

    /// popcnt, BMI1 and BMI2, if this CPU has all three: what ranking a
    /// placement (a popcount per tile, BMI's bit fields) is compiled for.
    pub(crate) fn popcnt_bmi(self) -> Option<PopcntBmi> {
        self.has(POPCNT | BMI1 | BMI2).then_some(PopcntBmi(()))
    }

    /// Whether this CPU has popcnt and SSSE3: what ranking in byte lanes is
    /// compiled for (a function of SSSE3's intrinsics, which enables them
    /// itself).
    pub(crate) fn popcnt_ssse3(self) -> bool {
        self.has(POPCNT | SSSE3)
    }

    /// popcnt, BMI1, BMI2 and SSSE3, if this CPU has all four: what the
    /// pattern databases' lookups are compiled for, so that both kinds of
    /// ranking inline into them.
    pub(crate) fn popcnt_bmi_ssse3(self) -> Option<PopcntBmiSsse3> {
        self.has(POPCNT | BMI1 | BMI2 | SSSE3).then_some(PopcntBmiSsse3(()))
    }
}

/// Proof that this CPU has popcnt, BMI1 and BMI2, made only by
/// [`InstructionSets::popcnt_bmi`]: what a function compiled for them is
/// called with, and what the call's SAFETY comment points to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PopcntBmi(());

/// Proof that this CPU has popcnt, BMI1, BMI2 and SSSE3, made only by
/// [`InstructionSets::popcnt_bmi_ssse3`]: the pattern databases hold one
/// where their lookups run compiled for the four.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PopcntBmiSsse3(());

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_instruction_set_token_is_made_only_where_every_set_it_names_was_detected() {
        let all = InstructionSets { found: POPCNT | BMI1 | BMI2 | SSSE3 };
        assert!(all.popcnt_bmi().is_some() && all.popcnt_ssse3() && all.popcnt_bmi_ssse3().is_some());
        let without_bmi1 = InstructionSets { found: all.found & !BMI1 };
        assert_eq!(without_bmi1.popcnt_bmi(), None);
        assert_eq!(without_bmi1.popcnt_bmi_ssse3(), None);
        assert!(without_bmi1.popcnt_ssse3());
        let without_ssse3 = InstructionSets { found: all.found & !SSSE3 };
        assert!(without_ssse3.popcnt_bmi().is_some());
        assert_eq!((without_ssse3.popcnt_ssse3(), without_ssse3.popcnt_bmi_ssse3()), (false, None));
        let without_popcnt = InstructionSets { found: all.found & !POPCNT };
        assert_eq!(without_popcnt.popcnt_bmi(), None);
        assert!(!without_popcnt.popcnt_ssse3());
        assert_eq!(InstructionSets::default().popcnt_bmi_ssse3(), None);
    }
}
