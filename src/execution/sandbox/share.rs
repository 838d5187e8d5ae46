//! Whether a run had the machine to itself: a timeout seen while other student programs ran
//! beside it may be the other programs' doing, so it is run again alone before it counts.

use std::cell::Cell;
use std::sync::{Condvar, Mutex, MutexGuard};

/// Runs in progress, and whether one thread holds the machine alone.
#[derive(Debug)]
struct Machine {
    active: usize,
    alone: bool,
    /// Threads waiting to have the machine alone: new runs wait for them.
    wanted: usize,
    /// Counts the runs that started while another was in progress.
    overlaps: u64,
}

static MACHINE: Mutex<Machine> = Mutex::new(Machine {
    active: 0,
    alone: false,
    wanted: 0,
    overlaps: 0,
});
static CHANGED: Condvar = Condvar::new();

thread_local! {
    /// Whether this thread holds the machine alone (its own runs then do not wait).
    static HOLDS_ALONE: Cell<bool> = const { Cell::new(false) };
}

fn machine() -> MutexGuard<'static, Machine> {
    MACHINE.lock().unwrap_or_else(|e| e.into_inner())
}

/// A run in progress, sharing the machine with whatever else runs.
#[derive(Debug)]
pub struct Share {
    company_at_start: bool,
    overlaps_at_start: u64,
}

impl Share {
    /// Starts a run that shares the machine (waiting while another thread has it alone).
    pub fn begin() -> Share {
        let mut machine = machine();
        if !HOLDS_ALONE.get() {
            while machine.alone || machine.wanted > 0 {
                machine = CHANGED.wait(machine).unwrap_or_else(|e| e.into_inner());
            }
        }
        let company_at_start = machine.active > 0;
        machine.active += 1;
        if company_at_start {
            machine.overlaps += 1;
        }
        Share {
            company_at_start,
            overlaps_at_start: machine.overlaps,
        }
    }

    /// Whether another run was in progress at some time during this one.
    pub fn had_company(&self) -> bool {
        self.company_at_start || machine().overlaps != self.overlaps_at_start
    }
}

impl Drop for Share {
    fn drop(&mut self) {
        machine().active -= 1;
        CHANGED.notify_all();
    }
}

/// The machine held by one thread: no other run is in progress until this is dropped.
#[derive(Debug)]
pub struct Alone {
    _private: (),
}

/// Waits until no other run is in progress, and keeps new ones from starting until dropped.
/// The caller must not hold a [`Share`] itself.
pub fn alone() -> Alone {
    let mut machine = machine();
    machine.wanted += 1;
    while machine.alone || machine.active > 0 {
        machine = CHANGED.wait(machine).unwrap_or_else(|e| e.into_inner());
    }
    machine.wanted -= 1;
    machine.alone = true;
    HOLDS_ALONE.set(true);
    Alone { _private: () }
}

impl Drop for Alone {
    fn drop(&mut self) {
        machine().alone = false;
        HOLDS_ALONE.set(false);
        CHANGED.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_beside_another_had_company_and_one_alone_did_not() {
        let alone = alone();
        let first = Share::begin();
        assert!(!first.had_company());
        drop(first);
        drop(alone);
        let first = Share::begin();
        let second = Share::begin();
        assert!(first.had_company() && second.had_company());
    }
}
