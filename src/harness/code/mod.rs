//! Running a code check: the submission's files are read by the grader, their text handed to
//! a Python script (`checks.py`) that parses them with Python's own `ast` and applies the
//! scenario's rule, in one of the target's jails under its sandbox. Nothing of the
//! submission runs. The check passes with no finding, fails (`wrong`) with its findings, each
//! naming file, line and rule; a checker that cannot run is the grader's `error`.

mod sources;

use std::time::{Duration, Instant};

use serde::Deserialize;

use super::judge::{base_outcome, error_outcome};
use super::outcome::{Finding, Outcome, Verdict};
use crate::execution::{Ending, Limits, Target, TargetSpec};
use crate::scenario::code::CodeCheck;
use crate::scenario::Scenario;

const CHECKER: &str = include_str!("checks.py");

/// Most findings a report keeps (the count of the others is said).
const MAX_FINDINGS: usize = 20;
/// Wall-clock limit of the checker: parsing is fast, a large upload included.
const CHECK_WALL: Duration = Duration::from_secs(20);

#[derive(Deserialize)]
struct Answer {
    findings: Vec<Finding>,
}

/// Checks the target's code against `check`.
pub fn run(scenario: &Scenario, check: &CodeCheck, target: &Target, limits: &Limits) -> Outcome {
    let started = Instant::now();
    let path = match target.spec() {
        TargetSpec::Python(path) => path,
        TargetSpec::Reference => {
            return Outcome {
                score: scenario.points,
                detail: Some("not checked: the reference has no code to read".into()),
                ..base_outcome(scenario, Verdict::Pass)
            }
        }
        TargetSpec::Command(_) => return error_outcome(
            scenario,
            "a code check reads a Python submission's code: a command gives none (use --python)"
                .into(),
        ),
    };
    let layout = scenario.dialect.layout(scenario.game);
    let outcome = sources::read(path, target.entry_file(&layout))
        .map_err(|e| e.to_string())
        .and_then(|files| findings(check, &files, target, limits));
    let mut outcome = match outcome {
        Err(why) => error_outcome(scenario, format!("the code check could not run: {why}")),
        Ok(found) if found.is_empty() => Outcome {
            score: scenario.points,
            ..base_outcome(scenario, Verdict::Pass)
        },
        Ok(mut found) => {
            let total = found.len();
            found.truncate(MAX_FINDINGS);
            let more = match total - found.len() {
                0 => String::new(),
                n => format!(" (the first {MAX_FINDINGS} are shown; {n} more)"),
            };
            Outcome {
                detail: Some(format!(
                    "{} finding(s) against the rule `{}`: {}{more}",
                    total,
                    check.rule,
                    check.about()
                )),
                findings: found,
                ..base_outcome(scenario, Verdict::Wrong)
            }
        }
    };
    outcome.duration_ms = started.elapsed().as_millis() as u64;
    outcome
}

/// The checker's findings on `files`.
fn findings(
    check: &CodeCheck,
    files: &[sources::SourceFile],
    target: &Target,
    limits: &Limits,
) -> Result<Vec<Finding>, String> {
    let request = serde_json::json!({ "rule": check.settings, "files": files });
    let limits = Limits {
        wall: CHECK_WALL,
        output_bytes: 8 << 20,
        ..limits.clone()
    };
    let execution = target
        .inspect(CHECKER, request.to_string().as_bytes(), &limits)
        .map_err(|e| e.to_string())?;
    if execution.ending != Ending::Exited(0) {
        let stderr = String::from_utf8_lossy(&execution.stderr_tail);
        let last = stderr.trim().lines().last().unwrap_or_default().to_string();
        return Err(format!(
            "the checker ended with {:?}: {last}",
            execution.ending
        ));
    }
    let answer: Answer = serde_json::from_slice(&execution.stdout)
        .map_err(|e| format!("the checker's answer does not read: {e}"))?;
    Ok(answer.findings)
}
