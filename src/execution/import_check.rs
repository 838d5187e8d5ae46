//! The import of a call protocol's Python submission, checked once before its scenarios.
//!
//! A module that sleeps, loops or waits at import would otherwise cost every scenario its
//! whole time limit (and, under the loaded runner, a wait for the runner first). One fresh
//! process imports it, inside the sandbox, with empty input and the import limit the adapter
//! keeps itself (`BOARDGRADE_IMPORT_LIMIT`: when it runs out, the adapter reports where the
//! student's code was and ends). An import that did not finish is one finding for the
//! submission; an import that finished, however slowly, leaves the verdicts to the
//! scenarios. Under the loaded runner the runner's own load is the check, and a fresh process
//! imports the submission only when the runner did not load. A busy import that other programs slowed down is tried again alone before it
//! counts, as a scenario's timeout is.

use std::time::Duration;

use serde::Deserialize;

use super::child::{Ending, Execution};
use super::layout::{Layout, PythonLaunch};
use super::sandbox::share;
use super::spawn::Limits;
use super::target::{Target, TargetSpec};
use crate::error::Error;

/// What the adapter's last stderr line starts with when its import limit ran out, followed
/// by the place as JSON.
const MARKER: &str = "boardgrade: import limit: ";
/// The exit status of an adapter whose own limit ran out.
const OVERRAN_STATUS: i32 = 124;
/// Time for the interpreter and the adapter to start, on top of the import's limit: past
/// it, the import hangs where the adapter cannot report it (in a C call).
const START_MARGIN: Duration = Duration::from_secs(5);

/// An import that did not finish within its limit: where the student's code was.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ImportStall {
    /// The student's file it was in, relative to the submission (unknown when the adapter
    /// could not say).
    pub file: Option<String>,
    pub line: usize,
    /// `the import did not finish in 10 s; it was in `time.sleep``.
    pub message: String,
}

impl Target {
    /// Imports the submission once under `layout` (a call protocol's adapter) and `limits`
    /// within the target's import limit: `Some` when the import did not finish. `None` for
    /// anything else (no limit set, not a Python call protocol, an import that finished or
    /// failed otherwise: the scenarios then judge it). Under the loaded runner, `runners`
    /// runners load at once (the jobs the first scenarios will run in), each in a jail of
    /// its own, so that every job finds its runner loaded.
    pub fn check_import(
        &self,
        layout: &Layout,
        limits: &Limits,
        runners: usize,
    ) -> Result<Option<ImportStall>, Error> {
        let Some(limit) = self.import_limit() else {
            return Ok(None);
        };
        let applies = matches!(self.spec(), TargetSpec::Python(_))
            && matches!(layout.python, PythonLaunch::Adapter { .. });
        if !applies {
            return Ok(None);
        }
        // A loaded runner that loads has done the import: it finished.
        if self.runners_loaded(layout, limits, runners)? {
            return Ok(None);
        }
        match self.import_once(layout, limits, limit)? {
            Some((_, true)) => {
                let _alone = share::alone();
                Ok(self
                    .import_once(layout, limits, limit)?
                    .map(|(stall, _)| stall))
            }
            other => Ok(other.map(|(stall, _)| stall)),
        }
    }

    /// One import: the stall, if it stalled, and whether other programs may have slowed it.
    fn import_once(
        &self,
        layout: &Layout,
        limits: &Limits,
        limit: Duration,
    ) -> Result<Option<(ImportStall, bool)>, Error> {
        let limits = Limits {
            wall: limit + START_MARGIN,
            ..limits.clone()
        };
        let Some(program) = self.fresh_program(layout, &limits)? else {
            return Ok(None);
        };
        let execution = program.run(b"");
        if program.sandbox_failure(&execution.stderr_tail).is_some() {
            return Ok(None);
        }
        if let Some(stall) = stall_of(&execution, limit) {
            return Ok(Some((stall, program.slowed_by_company(execution.elapsed))));
        }
        // An import that turned its alarm off and computes on is ended by the CPU-time limit
        // before the wall-clock one: it did not finish either, whatever other programs did.
        Ok((program.limits.cpu_seconds)
            .map(Duration::from_secs)
            .filter(|&cpu| program.hit_cpu_limit(&execution, cpu))
            .map(|cpu| (at_cpu_limit(cpu), false)))
    }
}

/// The stall of an import ended at the CPU-time limit `cpu`.
fn at_cpu_limit(cpu: Duration) -> ImportStall {
    ImportStall {
        file: None,
        line: 1,
        message: format!(
            "the import did not finish: it was still computing at the CPU-time limit ({} s)",
            cpu.as_secs()
        ),
    }
}

/// The stall an import check's run shows, if it shows one.
fn stall_of(execution: &Execution, limit: Duration) -> Option<ImportStall> {
    match execution.ending {
        Ending::Exited(OVERRAN_STATUS) => {
            let stderr = String::from_utf8_lossy(&execution.stderr_tail);
            let last = stderr.trim_end().lines().last()?;
            serde_json::from_str(last.strip_prefix(MARKER)?).ok()
        }
        Ending::TimedOut => Some(ImportStall {
            file: None,
            line: 1,
            message: format!("the import did not finish in {} s", limit.as_secs_f64()),
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ended(ending: Ending, stderr: &str) -> Execution {
        Execution {
            stdout: Vec::new(),
            stderr_tail: stderr.as_bytes().to_vec(),
            ending,
            elapsed: Duration::from_secs(10),
            cpu: None,
        }
    }

    #[test]
    fn the_adapters_report_names_the_place_and_a_plain_end_is_no_stall() {
        let report = "noise\nboardgrade: import limit: {\"file\": \"helpers.py\", \"line\": 3, \
                      \"message\": \"the import did not finish in 10 s; it was in `time.sleep`\"}\n";
        let stall = stall_of(
            &ended(Ending::Exited(OVERRAN_STATUS), report),
            Duration::from_secs(10),
        )
        .unwrap();
        assert_eq!(stall.file.as_deref(), Some("helpers.py"));
        assert_eq!(stall.line, 3);
        assert!(stall.message.ends_with("it was in `time.sleep`"));
        // The same words from a program that merely exits so are not a stall.
        let forged = ended(Ending::Exited(1), report);
        assert_eq!(stall_of(&forged, Duration::from_secs(10)), None);
        assert_eq!(
            stall_of(&ended(Ending::Exited(0), ""), Duration::from_secs(10)),
            None
        );
        let hung = stall_of(&ended(Ending::TimedOut, ""), Duration::from_secs(10)).unwrap();
        assert_eq!(hung.message, "the import did not finish in 10 s");
    }
}
