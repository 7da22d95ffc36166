/*!
The box searches' priority queue: Dial's buckets, linked through the box
cells themselves, for the small integer costs of the blank's moves.
*/

/// Lists of the box searches' queue ([`Queue`]), one bit each in a `u128`:
/// more than a move can raise a value (its cost, plus one for the
/// estimate).
pub(super) const BUCKETS: usize = 128;
/// The box searches' priority queue (Dial's): a list of box cells per
/// value modulo [`BUCKETS`], linked through the cells themselves so that a
/// cheaper way moves a cell rather than queueing it twice, and a bit per
/// non-empty list. Values pop in order as long as none is queued more than
/// `BUCKETS − 1` above the last popped, which the dearest move keeps to.
/// It holds up to `CELLS` cells, numbered from 0.
pub(super) struct Queue<const CELLS: usize> {
    pub(super) heads: [u8; BUCKETS],
    pub(super) next: [u8; CELLS],
    pub(super) prev: [u8; CELLS],
    /// The list each queued cell is in.
    pub(super) bucket: [u8; CELLS],
    pub(super) occupied: u128,
    pub(super) value: u32,
}

impl<const CELLS: usize> Queue<CELLS> {
    pub(super) const END: u8 = u8::MAX;

    pub(super) fn new() -> Self {
        Queue {
            heads: [Self::END; BUCKETS],
            next: [Self::END; CELLS],
            prev: [Self::END; CELLS],
            bucket: [Self::END; CELLS],
            occupied: 0,
            value: 0,
        }
    }

    /// Queues box cell `i` at `value`, taking it out of its list if queued.
    #[inline]
    pub(super) fn push(&mut self, value: u32, i: usize) {
        if self.bucket[i] != Self::END {
            self.unlink(i);
        }
        let bucket = value as usize % BUCKETS;
        let head = self.heads[bucket];
        self.next[i] = head;
        self.prev[i] = Self::END;
        if head != Self::END {
            self.prev[usize::from(head)] = i as u8;
        }
        self.heads[bucket] = i as u8;
        self.bucket[i] = bucket as u8;
        self.occupied |= 1 << bucket;
    }

    #[inline]
    pub(super) fn unlink(&mut self, i: usize) {
        let bucket = usize::from(self.bucket[i]);
        let (prev, next) = (self.prev[i], self.next[i]);
        if prev == Self::END {
            self.heads[bucket] = next;
            if next == Self::END {
                self.occupied &= !(1 << bucket);
            }
        } else {
            self.next[usize::from(prev)] = next;
        }
        if next != Self::END {
            self.prev[usize::from(next)] = prev;
        }
        self.bucket[i] = Self::END;
    }

    /// The cell of least value, with its value.
    #[inline]
    pub(super) fn pop(&mut self) -> Option<(u32, usize)> {
        if self.occupied == 0 {
            return None;
        }
        // The next non-empty list at or after the last value popped.
        self.value += self.occupied.rotate_right(self.value % BUCKETS as u32).trailing_zeros();
        let i = usize::from(self.heads[self.value as usize % BUCKETS]);
        self.unlink(i);
        Some((self.value, i))
    }
}
