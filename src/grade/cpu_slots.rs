//! The CPU slots of a class run: `--jobs` submissions run their scenarios at once, and a
//! submission takes a slot only for its scenarios. Its import check mostly waits on the wall
//! clock (a module that sleeps at import uses no CPU for its whole import limit), so it runs
//! before the submission asks for a slot: a submission whose import sleeps or hangs then
//! leaves the slot to the next one instead of holding back every result behind it. A busy
//! import is cut by its limit; a timeout seen beside it is run again alone before it counts.

use std::sync::{Condvar, Mutex, MutexGuard};

/// How many of a run's submissions may run their scenarios at once.
#[derive(Debug)]
pub struct CpuSlots {
    free: Mutex<usize>,
    freed: Condvar,
}

/// A slot taken: given back when dropped.
#[derive(Debug)]
pub struct Slot<'a> {
    slots: &'a CpuSlots,
}

impl CpuSlots {
    /// `jobs` slots (one at least).
    pub fn new(jobs: usize) -> CpuSlots {
        CpuSlots {
            free: Mutex::new(jobs.max(1)),
            freed: Condvar::new(),
        }
    }

    fn free(&self) -> MutexGuard<'_, usize> {
        self.free.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A slot, once one is free.
    pub fn take(&self) -> Slot<'_> {
        let mut free = self.free();
        while *free == 0 {
            free = self.freed.wait(free).unwrap_or_else(|e| e.into_inner());
        }
        *free -= 1;
        Slot { slots: self }
    }
}

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        *self.slots.free() += 1;
        self.slots.freed.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn no_more_than_the_slots_are_held_at_once_and_each_is_given_back() {
        let slots = CpuSlots::new(2);
        let (held, most) = (AtomicUsize::new(0), AtomicUsize::new(0));
        std::thread::scope(|scope| {
            for _ in 0..8 {
                scope.spawn(|| {
                    for _ in 0..50 {
                        let _slot = slots.take();
                        let now = held.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                        std::thread::yield_now();
                        held.fetch_sub(1, Ordering::SeqCst);
                    }
                });
            }
        });
        assert!(most.load(Ordering::SeqCst) <= 2);
        assert_eq!(*slots.free(), 2);
        let both = (slots.take(), slots.take());
        assert_eq!(*slots.free(), 0);
        drop(both);
        assert_eq!(*slots.free(), 2);
    }
}
