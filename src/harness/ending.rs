//! The one mapping from how a student process ended to a verdict, shared by scenarios
//! ([`super::judge`]) and matches ([`super::matchplay`]).

use rustix::process::Signal;

use super::outcome::Verdict;
use crate::execution::Ending;

/// Texts on stderr that mean the program ran out of memory under the address-space limit.
const OUT_OF_MEMORY: &[&str] = &[
    "MemoryError",
    "Cannot allocate memory",
    "std::bad_alloc",
    "memory allocation of",
    "out of memory",
];

/// How a call protocol's adapter ends a call that ran past the dialect's call limit: exit
/// status 124, its last stderr line this prefix and what did not return.
const CALL_LIMIT_STATUS: i32 = 124;
const CALL_LIMIT: &str = "boardgrade: call limit: ";

/// What did not return within the call limit (`is_game_over did not return within 2 s`),
/// when the run ended at it.
pub(crate) fn call_overran(ending: &Ending, stderr: &str) -> Option<String> {
    if *ending != Ending::Exited(CALL_LIMIT_STATUS) {
        return None;
    }
    let last = stderr.trim_end().lines().last()?;
    Some(last.strip_prefix(CALL_LIMIT)?.to_string())
}

/// The verdict an ending decides by itself, whatever the output, with its detail: a harness
/// problem or a cancelled run (`error`, never the student's), or a limit hit.
/// `timeout_detail` says which time limit ran out. `None` when the program ended by itself
/// and its output decides (a crash if it died: see [`describe_ending`]).
pub(crate) fn decided_by_ending(
    ending: &Ending,
    stderr: &str,
    timeout_detail: impl FnOnce() -> String,
    output_bytes: usize,
) -> Option<(Verdict, String)> {
    if let Some(what) = call_overran(ending, stderr) {
        return Some((Verdict::Timeout, what));
    }
    Some(match ending {
        Ending::Cancelled => (Verdict::Error, "cancelled before it finished".into()),
        Ending::NotStarted(why) => (
            Verdict::Error,
            format!("could not start the program: {why}"),
        ),
        Ending::TimedOut => (Verdict::Timeout, timeout_detail()),
        Ending::Signaled(signal) if *signal == Signal::XCPU.as_raw() => {
            (Verdict::Timeout, "killed at the CPU-time limit".into())
        }
        Ending::OutputLimit => (
            Verdict::OutputLimit,
            format!("printed more than {output_bytes} bytes"),
        ),
        Ending::OutOfMemory => (
            Verdict::MemoryLimit,
            "killed at the memory limit (all its processes together)".into(),
        ),
        Ending::Exited(0) => return None,
        _ if OUT_OF_MEMORY.iter().any(|m| stderr.contains(m)) => (
            Verdict::MemoryLimit,
            "ran out of memory under the memory limit".into(),
        ),
        _ => return None,
    })
}

/// How a program that died ended, in words.
pub(crate) fn describe_ending(ending: &Ending) -> String {
    match ending {
        Ending::Exited(code) => format!("exited with status {code}"),
        Ending::Signaled(signal) => format!("killed by signal {signal} ({})", signal_name(*signal)),
        other => format!("{other:?}"),
    }
}

fn signal_name(signal: i32) -> &'static str {
    const NAMES: [(Signal, &str); 7] = [
        (Signal::SEGV, "SIGSEGV, a memory fault"),
        (Signal::ABORT, "SIGABRT, aborted"),
        (Signal::KILL, "SIGKILL"),
        (Signal::FPE, "SIGFPE"),
        (Signal::BUS, "SIGBUS"),
        (Signal::PIPE, "SIGPIPE"),
        (Signal::XFSZ, "SIGXFSZ, file size limit"),
    ];
    NAMES
        .iter()
        .find(|(s, _)| s.as_raw() == signal)
        .map_or("signal", |(_, name)| name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decided(ending: Ending, stderr: &str) -> Option<Verdict> {
        decided_by_ending(&ending, stderr, || "late".into(), 10).map(|(v, _)| v)
    }

    #[test]
    fn harness_problems_are_errors_and_limits_their_own_verdicts() {
        assert_eq!(decided(Ending::Cancelled, ""), Some(Verdict::Error));
        assert_eq!(
            decided(Ending::NotStarted("x".into()), ""),
            Some(Verdict::Error)
        );
        assert_eq!(decided(Ending::TimedOut, ""), Some(Verdict::Timeout));
        assert_eq!(
            decided(Ending::Signaled(Signal::XCPU.as_raw()), ""),
            Some(Verdict::Timeout)
        );
        assert_eq!(decided(Ending::OutputLimit, ""), Some(Verdict::OutputLimit));
        assert_eq!(decided(Ending::OutOfMemory, ""), Some(Verdict::MemoryLimit));
        assert_eq!(
            decided(Ending::Exited(1), "MemoryError"),
            Some(Verdict::MemoryLimit)
        );
    }

    #[test]
    fn a_call_past_its_limit_is_a_timeout_naming_the_call() {
        let stderr =
            "Traceback...\nboardgrade: call limit: is_game_over did not return within 2 s\n";
        let decided = decided_by_ending(&Ending::Exited(124), stderr, || "late".into(), 10);
        assert_eq!(
            decided,
            Some((
                Verdict::Timeout,
                "is_game_over did not return within 2 s".to_string()
            ))
        );
        // The words alone, from a program that exits otherwise, decide nothing.
        assert_eq!(
            decided_by_ending(&Ending::Exited(1), stderr, || "late".into(), 10),
            None
        );
    }

    #[test]
    fn a_normal_end_leaves_the_verdict_to_the_output() {
        assert_eq!(decided(Ending::Exited(0), "MemoryError"), None);
        assert_eq!(decided(Ending::Exited(1), "Traceback"), None);
        assert_eq!(decided(Ending::Signaled(Signal::SEGV.as_raw()), ""), None);
        assert!(describe_ending(&Ending::Signaled(Signal::SEGV.as_raw())).contains("SIGSEGV"));
    }
}
