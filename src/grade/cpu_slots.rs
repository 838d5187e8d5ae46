//! The CPU slots of a class run: `--jobs` submissions run their scenarios at once, and a
//! submission holds a slot only while its scenarios make progress.
//!
//! Its import check mostly waits on the wall clock (a module that sleeps at import uses no
//! CPU for its whole import limit), so it runs before the submission asks for a slot. And a
//! submission none of whose scenarios started or ended for [`LEND_AFTER`] (a function that
//! sleeps, a program waiting on the wall clock, or one busy up to its CPU limit) lends its
//! slot to the next submission, and takes one again before its next scenario. One slow
//! submission then never holds back every result behind it.
//!
//! Running more at once costs wall time only, never a grade: every limit a scenario is judged
//! by is CPU time or generous wall time, and a timeout seen while other programs ran beside it
//! is run again alone before it counts (`execution::sandbox::share`).

use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How long a submission may go without a scenario starting or ending before its slot is
/// lent (a project5 or chess scenario takes milliseconds).
pub const LEND_AFTER: Duration = Duration::from_millis(500);

/// How often the watcher looks for slots to lend.
const WATCH_EVERY: Duration = Duration::from_millis(100);

/// How many of a run's submissions may run their scenarios at once.
#[derive(Debug)]
pub struct CpuSlots {
    state: Mutex<State>,
    changed: Condvar,
}

#[derive(Debug)]
struct State {
    free: usize,
    leases: Vec<Lease>,
    next: u64,
    /// Set once the run is over: the watcher stops.
    closed: bool,
}

/// A slot taken by one submission.
#[derive(Debug)]
struct Lease {
    id: u64,
    /// When a scenario of the submission last started or ended.
    since: Instant,
    /// Scenarios of the submission running now.
    running: usize,
    /// Whether the slot is lent to another submission meanwhile.
    lent: bool,
}

/// A slot taken: given back when dropped.
#[derive(Debug)]
pub struct Slot<'a> {
    slots: &'a CpuSlots,
    id: u64,
}

impl CpuSlots {
    /// `jobs` slots (one at least).
    pub fn new(jobs: usize) -> CpuSlots {
        CpuSlots {
            state: Mutex::new(State {
                free: jobs.max(1),
                leases: Vec::new(),
                next: 0,
                closed: false,
            }),
            changed: Condvar::new(),
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits, holding `state`, until a slot is free, and takes it.
    fn wait_free<'s>(&'s self, mut state: MutexGuard<'s, State>) -> MutexGuard<'s, State> {
        while state.free == 0 {
            state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
        state.free -= 1;
        state
    }

    /// A slot, once one is free.
    pub fn take(&self) -> Slot<'_> {
        let mut state = self.wait_free(self.state());
        let id = state.next;
        state.next += 1;
        state.leases.push(Lease {
            id,
            since: Instant::now(),
            running: 0,
            lent: false,
        });
        Slot { slots: self, id }
    }

    /// Runs `run` while a thread beside it lends the slots of submissions stuck in a
    /// scenario (see [`watch`](Self::watch)).
    pub fn watching<T>(&self, run: impl FnOnce() -> T) -> T {
        /// Stops the watcher however `run` ends (a panic included), so the scope can end.
        struct Closer<'a>(&'a CpuSlots);
        impl Drop for Closer<'_> {
            fn drop(&mut self) {
                self.0.close();
            }
        }
        std::thread::scope(|scope| {
            scope.spawn(|| self.watch());
            let _closer = Closer(self);
            run()
        })
    }

    /// Lends the slots of submissions stuck in a scenario for [`LEND_AFTER`], until
    /// [`close`](Self::close) is called. Run it on a thread of its own beside the run.
    fn watch(&self) {
        let mut state = self.state();
        while !state.closed {
            let now = Instant::now();
            let mut lent = 0;
            for lease in &mut state.leases {
                if !lease.lent && lease.running > 0 && now - lease.since >= LEND_AFTER {
                    lease.lent = true;
                    lent += 1;
                }
            }
            if lent > 0 {
                state.free += lent;
                self.changed.notify_all();
            }
            state = self
                .changed
                .wait_timeout(state, WATCH_EVERY)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    /// Ends [`watch`](Self::watch).
    fn close(&self) {
        self.state().closed = true;
        self.changed.notify_all();
    }
}

impl Slot<'_> {
    /// Runs `scenario` in this slot: taken back first if it was lent.
    pub fn run<T>(&self, scenario: impl FnOnce() -> T) -> T {
        let slots = self.slots;
        let mut state = slots.state();
        if state.leases.iter().any(|l| l.id == self.id && l.lent) {
            state = slots.wait_free(state);
        }
        if let Some(lease) = state.leases.iter_mut().find(|l| l.id == self.id) {
            lease.lent = false;
            lease.since = Instant::now();
            lease.running += 1;
        }
        drop(state);
        let value = scenario();
        // A slot lent meanwhile stays lent until the next scenario.
        if let Some(lease) = slots.state().leases.iter_mut().find(|l| l.id == self.id) {
            lease.since = Instant::now();
            lease.running -= 1;
        }
        value
    }
}

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        let mut state = self.slots.state();
        if let Some(at) = state.leases.iter().position(|l| l.id == self.id) {
            let lease = state.leases.swap_remove(at);
            if !lease.lent {
                state.free += 1;
            }
        }
        self.slots.changed.notify_all();
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
                        let slot = slots.take();
                        slot.run(|| {
                            let now = held.fetch_add(1, Ordering::SeqCst) + 1;
                            most.fetch_max(now, Ordering::SeqCst);
                            std::thread::yield_now();
                            held.fetch_sub(1, Ordering::SeqCst);
                        });
                    }
                });
            }
        });
        assert!(most.load(Ordering::SeqCst) <= 2);
        assert_eq!(slots.state().free, 2);
        let both = (slots.take(), slots.take());
        assert_eq!(slots.state().free, 0);
        drop(both);
        assert_eq!(slots.state().free, 2);
    }

    #[test]
    fn a_submission_stuck_in_a_scenario_lends_its_slot_and_takes_one_back_before_the_next() {
        let slots = CpuSlots::new(1);
        slots.watching(|| {
            let slow = slots.take();
            let order = Mutex::new(Vec::new());
            std::thread::scope(|inner| {
                inner.spawn(|| {
                    slow.run(|| std::thread::sleep(LEND_AFTER * 3));
                    order.lock().unwrap().push("slow scenario ended");
                    // Its next scenario waits for the slot the other submission holds.
                    slow.run(|| order.lock().unwrap().push("slow's next scenario"));
                });
                // Lent while the slow scenario sleeps: the other submission runs meanwhile.
                let other = slots.take();
                other.run(|| order.lock().unwrap().push("other ran"));
                std::thread::sleep(LEND_AFTER * 4);
                order.lock().unwrap().push("other gives its slot back");
                drop(other);
            });
            assert_eq!(
                *order.lock().unwrap(),
                [
                    "other ran",
                    "slow scenario ended",
                    "other gives its slot back",
                    "slow's next scenario"
                ]
            );
            drop(slow);
            assert_eq!(slots.state().free, 1);
        });
    }

    #[test]
    fn a_slot_between_scenarios_is_never_lent() {
        let slots = CpuSlots::new(1);
        slots.watching(|| {
            let idle = slots.take();
            std::thread::sleep(LEND_AFTER * 2);
            assert_eq!(slots.state().free, 0);
            drop(idle);
        });
        assert_eq!(slots.state().free, 1);
    }
}
