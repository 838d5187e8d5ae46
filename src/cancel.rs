//! Stopping a run cleanly: Ctrl-C sets a flag that running student processes and the
//! runners check, so every child is killed and nothing half-done is stored.

use std::sync::atomic::{AtomicBool, Ordering};

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// Asks every run in progress to stop.
pub fn request() {
    REQUESTED.store(true, Ordering::SeqCst);
}

pub fn is_requested() -> bool {
    REQUESTED.load(Ordering::Relaxed)
}

extern "C" fn on_interrupt(_signal: libc::c_int) {
    // Only async-signal-safe work here: an atomic store, and restoring the default so a
    // second Ctrl-C ends the process at once.
    REQUESTED.store(true, Ordering::SeqCst);
    // SAFETY: signal() is async-signal-safe.
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_DFL);
    }
}

/// Turns Ctrl-C (SIGINT) and SIGTERM into a stop request.
pub fn install_interrupt_handler() {
    let handler = on_interrupt as extern "C" fn(libc::c_int) as libc::sighandler_t;
    // SAFETY: installs a handler that only stores to an atomic and calls signal().
    unsafe {
        libc::signal(libc::SIGINT, handler);
        libc::signal(libc::SIGTERM, handler);
    }
}
