//! From what judging found to the outcome: the verdict a run earns from how it ended and
//! whether its output matched, and its score. Shared by the judges of whole programs
//! (`judge.rs`) and of call protocols (`calls.rs`).

use std::time::Duration;

use super::ending::{decided_by_ending, describe_ending};
use super::outcome::{base_outcome, Divergence, Outcome, Verdict};
use crate::compare::visible;
use crate::execution::{Ending, Execution};
use crate::scenario::{Kind, Scenario};

/// The note that says how many steps after the first divergence differ too, if any.
pub(crate) fn later_steps_note(later: usize) -> Option<String> {
    match later {
        0 => None,
        1 => Some("and 1 later step differs".to_string()),
        n => Some(format!("and {n} later steps differ")),
    }
}

/// What judging found, before scoring.
pub(crate) struct Judged {
    pub verdict: Verdict,
    pub detail: Option<String>,
    pub first_divergence: Option<Divergence>,
    pub steps_matched: usize,
    pub transcript: Option<String>,
    /// Divergences in parts the scenario does not judge.
    pub notes: Vec<String>,
}

/// The verdict of a run from how it ended and whether its output matched: `failed` is
/// `None` when it matched, else whether the output stopped short of the expectation.
pub(crate) fn classify(
    scenario: &Scenario,
    run: &Execution,
    failed: Option<bool>,
    exit_ignored: bool,
    same_positions: impl FnOnce() -> bool,
) -> (Verdict, Option<String>) {
    let stderr = visible::lossless(&run.stderr_tail);
    let decided = decided_by_ending(
        &run.ending,
        &stderr,
        || {
            format!(
                "no end after {} of wall-clock time (the scenario's time limit is {} of CPU \
                 time)",
                seconds(run.elapsed),
                seconds(scenario.time_limit)
            )
        },
        run.stdout.len(),
    );
    if let Some((verdict, detail)) = decided {
        return (verdict, Some(detail));
    }
    let abnormal = !matches!(run.ending, Ending::Exited(0));
    let crashed = abnormal
        && match failed {
            None => !exit_ignored,
            // Output that differs is wrong however the program then ended; output that
            // stops short is a crash when the program died.
            Some(output_ended) => output_ended,
        };
    if crashed {
        (Verdict::Crash, Some(describe_ending(&run.ending)))
    } else if failed.is_none() {
        (Verdict::Pass, None)
    } else if same_positions() {
        let detail =
            "the content is right (board positions included) but it is printed differently";
        (Verdict::Presentation, Some(detail.to_string()))
    } else {
        (Verdict::Wrong, None)
    }
}

/// The outcome with its score.
pub(crate) fn scored(scenario: &Scenario, run: &Execution, judged: Judged) -> Outcome {
    let stderr = visible::lossless(&run.stderr_tail);
    let verdict = judged.verdict;
    let steps_total = scenario.steps.len();
    let mut outcome = base_outcome(scenario, verdict);
    if verdict == Verdict::Pass {
        outcome.score = scenario.points;
    } else if scenario.partial_credit && verdict != Verdict::Error && steps_total > 0 {
        outcome.score = scenario.points.share(judged.steps_matched, steps_total);
    }
    if verdict == Verdict::Presentation {
        // A rule battery judges rules: a board right in every cell but printed differently
        // kept them (the scenarios about printing judge the rest).
        let share = match scenario.kind {
            Kind::Battery(_) => 1.0,
            _ => scenario.policy.presentation_credit(),
        };
        outcome.score = outcome.score.max(scenario.points.scaled(share));
    }
    Outcome {
        first_divergence: judged.first_divergence,
        steps_matched: judged.steps_matched,
        detail: judged.detail,
        stderr_tail: (verdict != Verdict::Pass && !stderr.trim().is_empty())
            .then(|| stderr.trim_end().to_string()),
        transcript: judged.transcript,
        notes: judged.notes,
        duration_ms: run.elapsed.as_millis() as u64,
        ..outcome
    }
}

/// `outcome` (a crash, or a timeout) seen for what it was: the program used up its CPU time.
pub fn cpu_limit_outcome(scenario: &Scenario, outcome: Outcome) -> Outcome {
    Outcome {
        verdict: Verdict::Timeout,
        detail: Some(format!(
            "killed at the CPU-time limit ({})",
            seconds(scenario.time_limit)
        )),
        ..outcome
    }
}

fn seconds(d: Duration) -> String {
    format!("{}s", (d.as_secs_f64() * 100.0).round() / 100.0)
}
