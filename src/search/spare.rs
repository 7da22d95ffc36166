/*!
Containers a thread keeps from one search for the next. A batch worker
solves thousands of small puzzles in a row, and each search used to
allocate its closed set and open list afresh and free them after its clock
stopped: sixty-odd allocations and frees per 8-puzzle, a few per cent of a
batch's time. A container a search no longer needs is put aside here, one
per type and thread, if it is small; the next search of that type on the
thread takes it back and clears it. Large containers are always freed, so a
big search's memory goes back to the system.
*/

use rustc_hash::FxHashMap;
use std::any::{Any, TypeId};
use std::cell::RefCell;

thread_local! {
    static SPARE: RefCell<FxHashMap<TypeId, Box<dyn Any>>> = RefCell::new(FxHashMap::default());
}

/// The `T` this thread put aside, if any.
pub(crate) fn take<T: 'static>() -> Option<T> {
    let spare = SPARE.try_with(|spare| spare.borrow_mut().remove(&TypeId::of::<T>())).ok().flatten()?;
    spare.downcast::<T>().ok().map(|boxed| *boxed)
}

/// Puts `value` aside for this thread's next [`take`] of its type.
pub(crate) fn keep<T: 'static>(value: T) {
    // A thread that is ending has nothing to keep it for.
    let _ = SPARE.try_with(|spare| spare.borrow_mut().insert(TypeId::of::<T>(), Box::new(value)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_a_thread_keeps_it_takes_back_once_and_other_threads_never_see() {
        keep(vec![1u64, 2, 3]);
        std::thread::spawn(|| assert_eq!(take::<Vec<u64>>(), None)).join().unwrap();
        assert_eq!(take::<Vec<u32>>(), None, "kept by type");
        assert_eq!(take::<Vec<u64>>(), Some(vec![1, 2, 3]));
        assert_eq!(take::<Vec<u64>>(), None);
    }
}
