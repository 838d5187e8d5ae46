//! Running scenarios against a target, in parallel, and telling a listener as each one
//! finishes (in the scenarios' order, so reports are stable whatever `--jobs` is).

use std::collections::BTreeMap;
use std::ops::ControlFlow;

use super::classify::cpu_limit_outcome;
use super::code::Checks;
use super::ending::call_overran;
use super::expectation::{input, Expectation, Expected};
use super::judge::judge;
use super::outcome::error_outcome;
use super::outcome::{Outcome, Verdict};
use super::scoring;
use crate::execution::{Ending, Execution, Layout, Limits, Secrecy, Target};
use crate::points::Points;
use crate::scenario::Scenario;

/// What the harness tells its listener.
#[derive(Debug)]
pub enum Event<'a> {
    /// The run begins.
    Started { scenarios: usize, target: &'a str },
    /// One scenario is done.
    Finished { index: usize, outcome: &'a Outcome },
    /// Every scenario is done: the final outcomes (group scores applied) and totals.
    Done {
        summary: &'a Summary,
        outcomes: &'a [Outcome],
    },
}

/// Totals of a set of scenarios. The JSON formats publish this type itself, as `Totals`.
#[derive(
    Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[schemars(rename = "Totals")]
pub struct Summary {
    /// Scenarios that passed.
    pub passed: usize,
    /// Scenarios that did not pass (errors included).
    pub failed: usize,
    /// Scenarios whose verdict is `error` (a harness or scenario problem).
    pub errors: usize,
    /// Points earned.
    pub score: Points,
    /// Points there were to earn.
    pub max_score: Points,
    /// How many scenarios got each verdict, by verdict.
    pub verdicts: BTreeMap<String, usize>,
}

impl Summary {
    pub fn of(outcomes: &[Outcome]) -> Summary {
        let mut summary = Summary::default();
        for o in outcomes {
            if o.verdict.passed() {
                summary.passed += 1;
            } else {
                summary.failed += 1;
            }
            if o.verdict == Verdict::Error {
                summary.errors += 1;
            }
            summary.score += o.score;
            summary.max_score += o.max_score;
            *summary
                .verdicts
                .entry(o.verdict.as_str().to_string())
                .or_default() += 1;
        }
        summary
    }

    pub fn all_passed(&self) -> bool {
        self.failed == 0
    }
}

/// How to run.
#[derive(Debug, Clone)]
pub struct RunConfig {
    /// Scenarios run at once.
    pub jobs: usize,
    /// Limits for each student process (the wall-clock limit comes from each scenario).
    pub limits: Limits,
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig {
            jobs: crate::pool::default_jobs(),
            limits: Limits::default(),
        }
    }
}

/// Runs one scenario against the target, judged against its expectations as `expected` keeps
/// them.
pub fn run_one(
    scenario: &Scenario,
    expected: &Expected<'_>,
    target: &Target,
    limits: &Limits,
) -> Outcome {
    if let Some(play) = scenario.play() {
        return super::matchplay::run(scenario, play, target, limits);
    }
    if let Some(check) = scenario.code_check() {
        return super::code::run(scenario, check, target, limits);
    }
    let expectations = match expected.expectations(scenario) {
        Ok(expectations) => expectations,
        Err(problem) => {
            return error_outcome(scenario, format!("the scenario cannot run: {problem}"))
        }
    };
    let mut outcome = run_timed_fairly(scenario, &expectations, target, limits);
    super::shortest::note_shortest_case(scenario, &mut outcome, |replay, expected| {
        run_program(replay, expected, target, limits).outcome
    });
    outcome
}

/// One run of a scenario, judged; a timeout while other programs ran is run again alone.
fn run_timed_fairly(
    scenario: &Scenario,
    expectations: &[Expectation],
    target: &Target,
    limits: &Limits,
) -> Outcome {
    let run = run_program(scenario, expectations, target, limits);
    // A call already seen past its limit with the machine alone is not timed alone again.
    let known = run
        .overran
        .as_ref()
        .is_some_and(|call| target.overran(call));
    if !run.slowed_by_company || known {
        if let Some(call) = run.overran.filter(|_| !run.slowed_by_company) {
            target.note_overrun(call);
        }
        return run.outcome;
    }
    // Other programs may have slowed it down: only a timeout seen alone counts.
    let _alone = crate::execution::sandbox::share::alone();
    let alone = run_program(scenario, expectations, target, limits);
    if let Some(call) = alone.overran {
        target.note_overrun(call);
    }
    alone.outcome
}

/// One run of a scenario, judged.
struct Ran {
    outcome: Outcome,
    /// It timed out while other programs ran beside it: it must be run again alone before
    /// the timeout counts.
    slowed_by_company: bool,
    /// The call that did not return within the dialect's call limit, if one did.
    overran: Option<String>,
}

/// One run of a scenario, judged.
fn run_program(
    scenario: &Scenario,
    expectations: &[Expectation],
    target: &Target,
    limits: &Limits,
) -> Ran {
    let judged = |outcome, slowed_by_company| Ran {
        outcome,
        slowed_by_company,
        overran: None,
    };
    let limits = Limits {
        wall: scenario.time_limit,
        ..limits.clone()
    };
    let layout = Layout {
        audience: scenario.visibility.secrecy(),
        ..scenario.dialect.layout(scenario.game)
    };
    let program = match target.program(&layout, &limits) {
        Err(error) => return judged(error_outcome(scenario, error.to_string()), false),
        Ok(None) => {
            let execution = reference_execution(&expectations[0]);
            return judged(best_outcome(scenario, expectations, &execution), false);
        }
        Ok(Some(program)) => program,
    };
    let execution = program.run(&input(scenario));
    if let Some(why) = program.sandbox_failure(&execution.stderr_tail) {
        return judged(error_outcome(scenario, why), false);
    }
    let outcome = best_outcome(scenario, expectations, &execution);
    if matches!(outcome.verdict, Verdict::Crash | Verdict::Timeout)
        && program.hit_cpu_limit(&execution, scenario.time_limit)
    {
        // It used all of its own CPU time: company does not change that, so it is not run
        // again (a class with endless loops would otherwise wait for each one twice, alone).
        return judged(cpu_limit_outcome(scenario, outcome), false);
    }
    let slowed =
        outcome.verdict == Verdict::Timeout && program.slowed_by_company(execution.elapsed);
    let stderr = String::from_utf8_lossy(&execution.stderr_tail);
    Ran {
        overran: call_overran(&execution.ending, &stderr),
        ..judged(outcome, slowed)
    }
}

/// The run judged under each expectation (the scenario's own, then the optional rules the
/// course credits): the first that passes, else the one matched furthest, the scenario's own
/// on a tie.
fn best_outcome(scenario: &Scenario, expectations: &[Expectation], run: &Execution) -> Outcome {
    let mut outcomes = expectations.iter().map(|e| judge(scenario, e, run));
    let Some(mut best) = outcomes.next() else {
        return error_outcome(scenario, "the scenario has no expectation".into());
    };
    for outcome in outcomes {
        if best.verdict == Verdict::Pass {
            break;
        }
        if outcome.verdict == Verdict::Pass || outcome.steps_matched > best.steps_matched {
            best = outcome;
        }
    }
    best
}

/// The reference's own answers, as if it had been a program.
fn reference_execution(expectation: &Expectation) -> Execution {
    Execution {
        stdout: expectation.reference.concat().into_bytes(),
        stderr_tail: Vec::new(),
        ending: Ending::Exited(0),
        elapsed: std::time::Duration::ZERO,
        cpu: None,
    }
}

/// The level a scenario runs at (see `pool::ordered_by_level`): the least secret run first,
/// so that a loaded runner serves them all and never a visible scenario after a hidden one
/// (see `Secrecy`), nor beside it; within a secrecy, the code checks come last, so that no
/// job waits for the checker (judged beside the others, see [`Checks`]) while scenarios
/// are left.
pub fn level(scenario: &Scenario) -> (Secrecy, bool) {
    (
        scenario.visibility.secrecy(),
        scenario.code_check().is_some(),
    )
}

/// Runs every scenario and returns the outcomes in order, telling `listen` as it goes.
pub fn run_all(
    scenarios: &[Scenario],
    target: &Target,
    config: &RunConfig,
    target_name: &str,
    listen: &mut dyn FnMut(Event<'_>),
) -> Vec<Outcome> {
    run_all_checked(scenarios, target, config, target_name, listen, None)
}

/// [`run_all`], the code checks among `scenarios` taken from `checked` when they were
/// judged already ([`crate::harness::code::check_all`] of the same scenarios and target).
pub fn run_all_checked(
    scenarios: &[Scenario],
    target: &Target,
    config: &RunConfig,
    target_name: &str,
    listen: &mut dyn FnMut(Event<'_>),
    checked: Option<Vec<Option<Outcome>>>,
) -> Vec<Outcome> {
    listen(Event::Started {
        scenarios: scenarios.len(),
        target: target_name,
    });
    let mut outcomes = Vec::with_capacity(scenarios.len());
    let checks = Checks::new(scenarios, target, &config.limits, config.jobs).judged_before(checked);
    let expected = Expected::of(scenarios);
    checks.around(|| {
        crate::pool::ordered_by_level(
            scenarios,
            level,
            |count| target.jobs_for(count, config.jobs),
            |index, scenario| {
                (checks.outcome(index))
                    .unwrap_or_else(|| run_one(scenario, &expected, target, &config.limits))
            },
            |index, outcome| {
                listen(Event::Finished {
                    index,
                    outcome: &outcome,
                });
                outcomes.push(outcome);
                ControlFlow::Continue(())
            },
        )
    });
    scoring::apply_groups(&mut outcomes);
    let summary = Summary::of(&outcomes);
    listen(Event::Done {
        summary: &summary,
        outcomes: &outcomes,
    });
    outcomes
}
