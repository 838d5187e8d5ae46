//! Whether a run had the machine to itself: a timeout seen while other student programs ran
//! beside it may be the other programs' doing, so it is run again alone before it counts.

use std::cell::Cell;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

/// Held shared by every run, and exclusively by a run that must be alone.
static MACHINE: RwLock<()> = RwLock::new(());
/// Runs in progress.
static ACTIVE: AtomicUsize = AtomicUsize::new(0);
/// Counts the runs that started while another was in progress.
static OVERLAPS: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// Whether this thread holds the machine alone (its own runs then take no shared turn).
    static ALONE: Cell<bool> = const { Cell::new(false) };
}

/// A run in progress, sharing the machine with whatever else runs.
#[derive(Debug)]
pub struct Share {
    _turn: Option<RwLockReadGuard<'static, ()>>,
    company_at_start: bool,
    overlaps_at_start: u64,
}

impl Share {
    /// Starts a run that shares the machine (waiting while a run has it alone).
    pub fn begin() -> Share {
        let turn = (!ALONE.get()).then(|| MACHINE.read().unwrap_or_else(|e| e.into_inner()));
        let company_at_start = ACTIVE.fetch_add(1, Ordering::SeqCst) > 0;
        if company_at_start {
            OVERLAPS.fetch_add(1, Ordering::SeqCst);
        }
        Share {
            _turn: turn,
            company_at_start,
            overlaps_at_start: OVERLAPS.load(Ordering::SeqCst),
        }
    }

    /// Whether another run was in progress at some time during this one.
    pub fn had_company(&self) -> bool {
        self.company_at_start || OVERLAPS.load(Ordering::SeqCst) != self.overlaps_at_start
    }
}

impl Drop for Share {
    fn drop(&mut self) {
        ACTIVE.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The machine held by one thread: no other run is in progress until this is dropped.
#[derive(Debug)]
pub struct Alone {
    _machine: RwLockWriteGuard<'static, ()>,
}

/// Waits until no other run is in progress, and keeps new ones from starting until dropped.
/// The caller must not hold a [`Share`] itself.
pub fn alone() -> Alone {
    let machine = MACHINE.write().unwrap_or_else(|e| e.into_inner());
    ALONE.set(true);
    Alone { _machine: machine }
}

impl Drop for Alone {
    fn drop(&mut self) {
        ALONE.set(false);
    }
}
