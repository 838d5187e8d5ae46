//! Stopping a run cleanly: Ctrl-C (or a hang-up) sets a flag that running student processes and the
//! runners check, so every child is killed and nothing half-done is stored.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};

/// The exit status of a process stopped by a second signal: 128 + SIGINT, as shells report
/// an interrupted program.
const INTERRUPTED_STATUS: i32 = 130;

/// The stop flag, shared with the signal handlers.
fn flag() -> &'static Arc<AtomicBool> {
    static REQUESTED: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    REQUESTED.get_or_init(|| Arc::new(AtomicBool::new(false)))
}

/// Asks every run in progress to stop.
pub fn request() {
    flag().store(true, Ordering::SeqCst);
}

pub fn is_requested() -> bool {
    flag().load(Ordering::Relaxed)
}

/// Turns Ctrl-C (SIGINT), SIGTERM and SIGHUP (the terminal or SSH session went away) into a
/// stop request; a second one, once a stop is requested, ends the process at once, with the
/// status of an interrupted run (130).
pub fn install_interrupt_handler() -> std::io::Result<()> {
    for signal in [SIGINT, SIGTERM, SIGHUP] {
        // Registered first, so it sees the flag as it was before this signal set it.
        signal_hook::flag::register_conditional_shutdown(
            signal,
            INTERRUPTED_STATUS,
            Arc::clone(flag()),
        )?;
        signal_hook::flag::register(signal, Arc::clone(flag()))?;
    }
    Ok(())
}
