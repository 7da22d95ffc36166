/*!
The bucket queue: the open list for whole-number priorities close together,
in the order `open.rs` documents.
*/

use super::open::OpenList;
use super::rules::Rule;
use crate::search::spare;

/// The boards of one (priority, g), and their h.
struct Bucket<B> {
    h: u32,
    boards: Vec<B>,
}

/// Buckets indexed by priority, then by g; each bucket a stack. A small
/// queue's vectors are kept for the thread's next search (see `spare.rs`).
pub(crate) struct BucketQueue<B: 'static> {
    buckets: Vec<Vec<Bucket<B>>>,
    /// `filled[key]`: bit g set when the bucket (key, g) holds a board, kept
    /// by weighted and greedy search, whose pops find the next g in these
    /// words: stepping bucket by bucket through a priority's empty ones
    /// took a tenth of weighted A*'s time on 7×7 boards, where a row spans
    /// hundreds of depths. A*'s rows fill one depth after the next, and the
    /// bits cost its 8-puzzle 6 %; it steps.
    filled: Vec<Vec<u64>>,
    /// `next[key]`: the g bucket at `key` to look in first, at or beyond
    /// which (in the order g is taken) every non-empty bucket lies.
    next: Vec<usize>,
    /// The lowest priority that may hold an entry.
    min_key: usize,
    len: usize,
    deeper_first: bool,
    /// A*'s order ([`Rule::MONOTONE`]): an exhausted priority's row is
    /// freed, and a row's depths are stepped through, not tracked in bits.
    monotone: bool,
}

/// The most boards a queue's buckets may have room for to be kept for the
/// thread's next search: a small search's worth.
const KEPT_BOARDS: usize = 1 << 14;

/// The most boards an exhausted priority's row of A* may have room for to
/// stay allocated.
const KEPT_ROW: usize = 1 << 12;

/// The vectors of a [`BucketQueue`], kept between searches.
type Spare<B> = (Vec<Vec<Bucket<B>>>, Vec<Vec<u64>>, Vec<usize>);

impl<B: 'static> Drop for BucketQueue<B> {
    fn drop(&mut self) {
        let room: usize = self.buckets.iter().flatten().map(|bucket| bucket.boards.capacity()).sum();
        if room <= KEPT_BOARDS {
            let (buckets, filled, next) = (&mut self.buckets, &mut self.filled, &mut self.next);
            spare::keep::<Spare<B>>((std::mem::take(buckets), std::mem::take(filled), std::mem::take(next)));
        }
    }
}

impl<B: 'static> OpenList<B> for BucketQueue<B> {
    const ENTRY_BYTES: u64 = std::mem::size_of::<B>() as u64;

    /// The top of the bucket the last pop took from, unless a child pushed
    /// since sorts before it.
    #[inline]
    fn upcoming(&self) -> Option<&B> {
        let key = self.min_key;
        let g = *self.next.get(key)?;
        self.buckets.get(key)?.get(g)?.boards.last()
    }

    fn floor(&self) -> Option<u64> {
        (self.len > 0).then_some(self.min_key as u64)
    }

    fn new<R: Rule>(_: R) -> Self {
        let (mut buckets, mut filled, mut next) = spare::take::<Spare<B>>().unwrap_or_default();
        buckets.iter_mut().flatten().for_each(|bucket| bucket.boards.clear());
        for words in &mut filled {
            words.fill(0);
        }
        next.fill(if R::DEEPER_FIRST { 0 } else { usize::MAX });
        BucketQueue {
            buckets,
            filled,
            next,
            // Nothing below the first priority pushed is looked at, so rows
            // kept from the last search are not scanned.
            min_key: usize::MAX,
            len: 0,
            deeper_first: R::DEEPER_FIRST,
            monotone: R::MONOTONE,
        }
    }

    #[inline]
    fn len(&self) -> usize {
        self.len
    }

    #[inline]
    fn push(&mut self, key: u64, g: u32, h: u32, board: B) {
        let (key, g) = (key as usize, g as usize);
        if key >= self.buckets.len() {
            self.buckets.resize_with(key + 1, Vec::new);
            self.filled.resize_with(key + 1, Vec::new);
            self.next.resize(key + 1, if self.deeper_first { 0 } else { usize::MAX });
        }
        if !self.monotone {
            let words = &mut self.filled[key];
            if g / 64 >= words.len() {
                words.resize(g / 64 + 1, 0);
            }
            words[g / 64] |= 1 << (g % 64);
        }
        let row = &mut self.buckets[key];
        if g >= row.len() {
            row.resize_with(g + 1, || Bucket { h: 0, boards: Vec::new() });
        }
        let bucket = &mut row[g];
        debug_assert!(bucket.boards.is_empty() || bucket.h == h, "one h per priority and g");
        bucket.h = h;
        bucket.boards.push(board);
        self.len += 1;
        let next = &mut self.next[key];
        *next = if self.deeper_first { (*next).max(g) } else { (*next).min(g) };
        self.min_key = self.min_key.min(key);
    }

    #[inline]
    fn pop(&mut self) -> Option<(u64, u32, u32, B)> {
        while self.min_key < self.buckets.len() {
            let key = self.min_key;
            if self.monotone {
                // A*: step down from the deepest g that may hold a board.
                let row = &mut self.buckets[key];
                loop {
                    let g = self.next[key];
                    if let Some(bucket) = row.get_mut(g)
                        && let Some(board) = bucket.boards.pop()
                    {
                        self.len -= 1;
                        return Some((key as u64, g as u32, bucket.h, board));
                    }
                    match (self.deeper_first, g) {
                        (true, 0) => break,
                        (true, _) => self.next[key] = g - 1,
                        (false, _) if g >= row.len().saturating_sub(1) => break,
                        (false, _) => self.next[key] = g + 1,
                    }
                }
            } else {
                let words = &mut self.filled[key];
                if let Some(g) = next_filled(words, self.next[key], self.deeper_first) {
                    let bucket = &mut self.buckets[key][g];
                    let board = bucket.boards.pop().expect("a filled bucket holds a board");
                    // The new top is read at once (`upcoming`); the one
                    // beneath it, if this bucket is taken from again, is
                    // loaded meanwhile.
                    if let Some(beneath) = bucket.boards.len().checked_sub(2) {
                        crate::machine::prefetch(&bucket.boards[beneath]);
                    }
                    if bucket.boards.is_empty() {
                        words[g / 64] &= !(1 << (g % 64));
                    }
                    self.next[key] = g;
                    self.len -= 1;
                    return Some((key as u64, g as u32, bucket.h, board));
                }
            }
            self.next[key] = if self.deeper_first { 0 } else { usize::MAX };
            // This priority is exhausted. A*'s stays empty, so a large row's
            // memory (millions of boards at a 15-puzzle's f) goes back; a
            // small one is kept for the next search on this thread, which
            // would otherwise grow it again (measured: a sixth of a batch of
            // 8-puzzles' instructions). Weighted and greedy search refill
            // priorities all the time, and freeing their rows would
            // reallocate them over and over (an eighth of greedy search's
            // instructions).
            let row = &mut self.buckets[key];
            if self.monotone && row.iter().map(|bucket| bucket.boards.capacity()).sum::<usize>() > KEPT_ROW {
                *row = Vec::new();
            }
            self.min_key += 1;
        }
        None
    }
}

/// The g of the bucket to take next among the set bits of `words`: the
/// highest when deeper nodes come first, else the lowest. The queue keeps
/// every set bit on `from`'s side (at or below it, or at or above it), so
/// the scan starts at `from`'s word.
#[inline]
fn next_filled(words: &[u64], from: usize, deeper_first: bool) -> Option<usize> {
    let start = from / 64;
    if deeper_first {
        let below = &words[..words.len().min(start + 1)];
        let at = below.iter().rposition(|&word| word != 0)?;
        Some(at * 64 + 63 - below[at].leading_zeros() as usize)
    } else {
        let above = words.get(start..)?;
        let at = above.iter().position(|&word| word != 0)?;
        Some((start + at) * 64 + above[at].trailing_zeros() as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::best_first::{Greedy, Plain, Rule, Weighted};

    /// Pushes `entries` (priority, g, h, board) and pops them all.
    fn order<R: Rule>(rule: R, entries: &[(u64, u32, u32, u64)]) -> Vec<(u64, u32, u32, u64)> {
        let mut queue = BucketQueue::<u64>::new(rule);
        for &(key, g, h, board) in entries {
            queue.push(key, g, h, board);
        }
        std::iter::from_fn(|| queue.pop()).collect()
    }

    /// Pushes and pops interleaved, with depths spread over several words of
    /// the occupancy bits, against a model that sorts every entry.
    fn matches_a_sorted_model<R: Rule>(rule: R) {
        let mut queue = BucketQueue::<u64>::new(rule);
        let mut model: Vec<(u64, u32, u64)> = Vec::new();
        let mut x = 12345u64;
        for step in 0..20_000u64 {
            x = crate::board::mix64(x);
            if !x.is_multiple_of(3) || model.is_empty() {
                let (key, g) = (x % 40, (x >> 8) as u32 % 300);
                queue.push(key, g, (key * 1000 + u64::from(g)) as u32, step);
                model.push((key, g, step));
                continue;
            }
            // Lowest key, then the preferred g, then the latest pushed.
            let best = model
                .iter()
                .enumerate()
                .min_by_key(|&(_, &(key, g, seq))| {
                    (key, if R::DEEPER_FIRST { u32::MAX - g } else { g }, u64::MAX - seq)
                })
                .map(|(i, _)| i)
                .unwrap();
            let (key, g, seq) = model.swap_remove(best);
            assert_eq!(queue.pop(), Some((key, g, (key * 1000 + u64::from(g)) as u32, seq)), "step {step}");
            assert_eq!(queue.len(), model.len());
        }
    }

    #[test]
    fn weighted_and_greedy_queues_pop_in_the_documented_order_across_sparse_depths() {
        matches_a_sorted_model(Weighted { p: 2, q: 1 });
        matches_a_sorted_model(Greedy);
        matches_a_sorted_model(Plain);
    }

    #[test]
    fn a_queue_kept_for_the_next_search_holds_nothing_from_the_last_and_keeps_its_order() {
        let entries = [(5, 2, 3, 10), (4, 1, 3, 11), (5, 3, 2, 12), (7, 0, 7, 13), (4, 1, 3, 14)];
        let first = order(Plain, &entries);
        assert_eq!(first.iter().map(|e| e.3).collect::<Vec<_>>(), [14, 11, 12, 10, 13]);
        // Left with entries in it, then taken back by the next queue.
        let mut queue = BucketQueue::<u64>::new(Plain);
        queue.push(9, 4, 5, 99);
        drop(queue);
        let mut queue = BucketQueue::<u64>::new(Greedy);
        assert_eq!((queue.len(), queue.pop()), (0, None));
        drop(queue);
        assert_eq!(order(Plain, &entries), first);
        // Greedy takes the shallower of equal priorities.
        let greedy = order(Greedy, &[(3, 5, 3, 1), (3, 2, 3, 2)]);
        assert_eq!(greedy.iter().map(|e| e.3).collect::<Vec<_>>(), [2, 1]);
    }
}
