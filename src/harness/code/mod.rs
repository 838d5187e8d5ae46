//! Running a code check: the submission's files are read by the grader, their bytes handed
//! to a Python script (`checks.py`) that decodes them as Python does, parses them with
//! Python's own `ast` and applies the scenario's rule, in one of the target's jails under its
//! sandbox. Nothing of the submission runs. The check passes with no finding, fails (`wrong`) with its findings, each
//! naming file, line and rule; a checker that cannot run is the grader's `error`.

mod sources;

use std::borrow::Borrow;
use std::collections::BTreeMap;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde::Deserialize;

use super::outcome::{base_outcome, error_outcome};
use super::outcome::{Finding, Outcome, Verdict};
use crate::execution::{Company, Ending, Limits, Target, TargetSpec};
use crate::scenario::code::CodeCheck;
use crate::scenario::Scenario;

const CHECKER: &str = include_str!("checks.py");

/// The checker as the interpreter runs it, with the module it reads files with.
fn program() -> &'static str {
    static PROGRAM: OnceLock<String> = OnceLock::new();
    PROGRAM.get_or_init(|| crate::execution::python::with_source_reading(CHECKER))
}

/// Most findings a report keeps (the count of the others is said).
const MAX_FINDINGS: usize = 20;
/// Wall-clock limit of the checker: parsing is fast, a large upload included.
const CHECK_WALL: Duration = Duration::from_secs(20);
/// Python code in a submission's files past which a checker that cannot finish is the
/// submission's doing (its code outgrew the checker's time or memory), not the grader's:
/// a hundred times a handout's answer.
const STUDENT_SIZED_BYTES: usize = 512 << 10;

/// Why the checker gave no answer.
#[derive(Debug, Clone)]
enum CheckFailure {
    /// The grader's fault: the check is an `error`.
    Grader(String),
    /// The checker ran out of its limits on more code than any answer to a handout holds:
    /// the check is the submission's `wrong`, never a harness error it could hide behind.
    TooMuchCode { bytes: usize, why: String },
}

#[derive(Deserialize)]
struct Answers {
    answers: Vec<Answer>,
}

#[derive(Clone, Deserialize)]
struct Answer {
    /// The first findings, at most [`MAX_FINDINGS`].
    findings: Vec<Finding>,
    /// How many more the checker found.
    #[serde(default)]
    more: usize,
}

/// Checks the target's code against `check`.
pub fn run(scenario: &Scenario, check: &CodeCheck, target: &Target, limits: &Limits) -> Outcome {
    let mut judged = check_all(&[scenario], target, limits, Company::Scenarios);
    judged.pop().flatten().unwrap_or_else(|| {
        error_outcome(
            scenario,
            format!("the code check `{}` gave no answer", check.rule),
        )
    })
}

/// The code checks among a run's scenarios, judged together ([`check_all`]) once for the run
/// ([`Checks::around`]): with more than one job, on a thread of their own while the other
/// scenarios run, in a jail of their own (starting Python for the checker then costs no
/// scenario any time; a code check's scenario waits for the result, and comes last among
/// the scenarios of its secrecy, `run::level`, so that no job waits while others are left);
/// with one job (a class run's submission), before the scenarios, in the runner's jail
/// (a jail made for the checker costs more grader time than the check).
pub struct Checks<'a, S> {
    scenarios: &'a [S],
    target: &'a Target,
    limits: &'a Limits,
    company: Company,
    judged: OnceLock<Vec<Option<Outcome>>>,
}

impl<'a, S: Borrow<Scenario>> Checks<'a, S> {
    /// The checks of `scenarios`, which run in up to `jobs` jobs.
    pub fn new(scenarios: &'a [S], target: &'a Target, limits: &'a Limits, jobs: usize) -> Self {
        Checks {
            scenarios,
            target,
            limits,
            company: if jobs > 1 {
                Company::Scenarios
            } else {
                Company::Alone
            },
            judged: OnceLock::new(),
        }
    }

    /// The checks of `scenarios` already judged (by [`check_all`] of the same scenarios and
    /// target, while its runners loaded): nothing is judged again.
    pub fn judged_before(mut self, judged: Option<Vec<Option<Outcome>>>) -> Self {
        if let Some(judged) = judged.filter(|judged| judged.len() == self.scenarios.len()) {
            self.judged = OnceLock::from(judged);
        }
        self
    }

    /// Runs `scenarios` (the run's scenarios, which ask [`Checks::outcome`]) with the code
    /// checks judged beside them, or before them.
    pub fn around<R>(&self, scenarios: impl FnOnce() -> R) -> R
    where
        S: Sync,
    {
        let any = (self.scenarios.iter()).any(|s| s.borrow().code_check().is_some());
        if !any || self.judged.get().is_some() {
            return scenarios();
        }
        if self.company == Company::Alone {
            self.judged();
            return scenarios();
        }
        std::thread::scope(|scope| {
            scope.spawn(|| self.judged());
            scenarios()
        })
    }

    /// The outcome of scenario `index` when it is a code check (waiting for the checker);
    /// `None` for any other.
    pub fn outcome(&self, index: usize) -> Option<Outcome> {
        self.scenarios.get(index)?.borrow().code_check()?;
        self.judged().get(index).cloned().flatten()
    }

    fn judged(&self) -> &[Option<Outcome>] {
        (self.judged)
            .get_or_init(|| check_all(self.scenarios, self.target, self.limits, self.company))
    }
}

/// Judges every code check among `scenarios` against the target's code, with one run of the
/// checker per entry file (starting Python is most of a check's cost): each check's outcome
/// at its scenario's index, `None` for the other scenarios.
pub fn check_all<S: Borrow<Scenario>>(
    scenarios: &[S],
    target: &Target,
    limits: &Limits,
    company: Company,
) -> Vec<Option<Outcome>> {
    let TargetSpec::Python(path) = target.spec() else {
        return (scenarios.iter().map(Borrow::borrow))
            .map(|s: &Scenario| s.code_check().map(|_| unreadable(s, target.spec())))
            .collect();
    };
    let mut judged: Vec<Option<Outcome>> = vec![None; scenarios.len()];
    let mut by_entry: BTreeMap<String, Vec<(usize, &Scenario, &CodeCheck)>> = BTreeMap::new();
    for (index, scenario) in scenarios.iter().enumerate() {
        let scenario = scenario.borrow();
        let Some(check) = scenario.code_check() else {
            continue;
        };
        let layout = scenario.dialect.layout(scenario.game);
        let entry = target.entry_file(&layout).to_string();
        by_entry
            .entry(entry)
            .or_default()
            .push((index, scenario, check));
    }
    for (entry, checks) in by_entry {
        let started = Instant::now();
        let answers = match sources::read(path, &entry) {
            Err(e) => Err(CheckFailure::Grader(e.to_string())),
            Ok(files) => findings(&checks, &files, target, limits, company).map_err(|why| {
                let bytes = files.iter().map(|f| f.source.chars().count()).sum();
                match bytes > STUDENT_SIZED_BYTES {
                    true => CheckFailure::TooMuchCode { bytes, why },
                    false => CheckFailure::Grader(why),
                }
            }),
        };
        let elapsed = started.elapsed().as_millis() as u64 / checks.len() as u64;
        let found: Vec<Result<Answer, CheckFailure>> = match answers {
            Ok(answers) => answers.into_iter().map(Ok).collect(),
            Err(why) => vec![Err(why); checks.len()],
        };
        for ((index, scenario, check), found) in checks.into_iter().zip(found) {
            let mut outcome = verdict(scenario, check, found);
            outcome.duration_ms = elapsed;
            judged[index] = Some(outcome);
        }
    }
    judged
}

/// A code check of a target with no Python code to read.
fn unreadable(scenario: &Scenario, spec: &TargetSpec) -> Outcome {
    match spec {
        TargetSpec::Command(_) => error_outcome(
            scenario,
            "a code check reads a Python submission's code: a command gives none (use --python)"
                .into(),
        ),
        _ => Outcome {
            score: scenario.points,
            detail: Some("not checked: the reference has no code to read".into()),
            ..base_outcome(scenario, Verdict::Pass)
        },
    }
}

/// The check's outcome from its findings (or why the checker could not run).
fn verdict(scenario: &Scenario, check: &CodeCheck, found: Result<Answer, CheckFailure>) -> Outcome {
    match found {
        Err(CheckFailure::Grader(why)) => {
            error_outcome(scenario, format!("the code check could not run: {why}"))
        }
        Err(CheckFailure::TooMuchCode { bytes, why }) => Outcome {
            detail: Some(format!(
                "the code check could not read the submission's {} KiB of Python within its \
                 limits ({why}): no answer to the handout is that large",
                bytes >> 10
            )),
            ..base_outcome(scenario, Verdict::Wrong)
        },
        Ok(found) if found.findings.is_empty() && found.more == 0 => Outcome {
            score: scenario.points,
            ..base_outcome(scenario, Verdict::Pass)
        },
        Ok(Answer {
            findings: mut found,
            more,
        }) => {
            let total = found.len() + more;
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
    }
}

/// The checker's answers on `files`, one per check in order.
fn findings(
    checks: &[(usize, &Scenario, &CodeCheck)],
    files: &[sources::SourceFile],
    target: &Target,
    limits: &Limits,
    company: Company,
) -> Result<Vec<Answer>, String> {
    let rules: Vec<&serde_json::Value> = checks.iter().map(|(_, _, c)| &c.settings).collect();
    let request = serde_json::json!({ "rules": rules, "files": files, "keep": MAX_FINDINGS });
    let limits = Limits {
        wall: CHECK_WALL,
        output_bytes: 8 << 20,
        ..limits.clone()
    };
    let execution = target
        .inspect(program(), request.to_string().as_bytes(), &limits, company)
        .map_err(|e| e.to_string())?;
    if execution.ending != Ending::Exited(0) {
        let stderr = String::from_utf8_lossy(&execution.stderr_tail);
        let last = stderr.trim().lines().last().unwrap_or_default().to_string();
        return Err(match last.is_empty() {
            true => format!("the checker ended with {:?}", execution.ending),
            false => format!("the checker ended with {:?}: {last}", execution.ending),
        });
    }
    let answer: Answers = serde_json::from_slice(&execution.stdout)
        .map_err(|e| format!("the checker's answer does not read: {e}"))?;
    if answer.answers.len() != checks.len() {
        return Err(format!(
            "the checker answered {} of {} checks",
            answer.answers.len(),
            checks.len()
        ));
    }
    Ok(answer.answers)
}
