//! Running scenarios against a target, in parallel, and telling a listener as each one
//! finishes (in the scenarios' order, so reports are stable whatever `--jobs` is).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use super::expectation::{expect, input, Expectation};
use super::judge::{cpu_limit_outcome, error_outcome, judge};
use super::outcome::{Outcome, Verdict};
use super::scoring;
use crate::scenario::Scenario;
use crate::target::{process, Ending, Execution, Limits, Target};

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

/// Totals of a run.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Summary {
    pub passed: usize,
    /// Scenarios that did not pass (errors included).
    pub failed: usize,
    pub errors: usize,
    pub score: f64,
    pub max_score: f64,
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
            jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
            limits: Limits::default(),
        }
    }
}

/// Runs one scenario against the target.
pub fn run_one(scenario: &Scenario, target: &Target, limits: &Limits) -> Outcome {
    if let Some(play) = &scenario.play {
        return super::matchplay::run(scenario, play, target, limits);
    }
    let expectation = match expect(scenario) {
        Ok(expectation) => expectation,
        Err(problem) => {
            return error_outcome(scenario, format!("the scenario cannot run: {problem}"))
        }
    };
    let (outcome, slowed_by_company) = run_process(scenario, &expectation, target, limits);
    if !slowed_by_company {
        return outcome;
    }
    // Other programs may have slowed it down: only a timeout seen alone counts.
    let _alone = crate::target::sandbox::share::alone();
    run_process(scenario, &expectation, target, limits).0
}

/// One run of a program scenario, judged; and whether it timed out while other programs ran
/// beside it (then it must be run again alone before the timeout counts).
fn run_process(
    scenario: &Scenario,
    expectation: &Expectation,
    target: &Target,
    limits: &Limits,
) -> (Outcome, bool) {
    let launch = match target.launch(scenario.game, scenario.dialect) {
        Err(error) => return (error_outcome(scenario, error.to_string()), false),
        Ok(None) => {
            let execution = reference_execution(expectation);
            return (judge(scenario, expectation, &execution), false);
        }
        Ok(Some(launch)) => launch,
    };
    let limits = target.sandbox().limits(&Limits {
        wall: scenario.time_limit,
        ..limits.clone()
    });
    let execution = process::run(&launch, &input(scenario), &limits);
    if let Some(why) = launch.sandbox_failure(&execution) {
        return (error_outcome(scenario, why), false);
    }
    let mut outcome = judge(scenario, expectation, &execution);
    if outcome.verdict == Verdict::Crash && launch.hit_cpu_limit(&execution, scenario.time_limit) {
        outcome = cpu_limit_outcome(scenario, outcome);
    }
    let slowed = outcome.verdict == Verdict::Timeout && launch.slowed_by_company(execution.elapsed);
    (outcome, slowed)
}

/// The reference's own answers, as if it had been a program.
fn reference_execution(expectation: &Expectation) -> Execution {
    Execution {
        stdout: expectation.reference.concat().into_bytes(),
        stderr_tail: Vec::new(),
        ending: Ending::Exited(0),
        elapsed: std::time::Duration::ZERO,
    }
}

/// Runs every scenario and returns the outcomes in order, telling `listen` as it goes.
pub fn run_all(
    scenarios: &[Scenario],
    target: &Target,
    config: &RunConfig,
    target_name: &str,
    listen: &mut dyn FnMut(Event<'_>),
) -> Vec<Outcome> {
    listen(Event::Started {
        scenarios: scenarios.len(),
        target: target_name,
    });
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel::<(usize, Outcome)>();
    let mut outcomes: Vec<Option<Outcome>> = vec![None; scenarios.len()];
    std::thread::scope(|scope| {
        for _ in 0..config.jobs.clamp(1, scenarios.len().max(1)) {
            let sender = sender.clone();
            let next = &next;
            scope.spawn(move || loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(scenario) = scenarios.get(index) else {
                    break;
                };
                if sender
                    .send((index, run_one(scenario, target, &config.limits)))
                    .is_err()
                {
                    break;
                }
            });
        }
        drop(sender);
        let mut reported = 0;
        for (index, outcome) in receiver {
            outcomes[index] = Some(outcome);
            while let Some(Some(outcome)) = outcomes.get(reported) {
                listen(Event::Finished {
                    index: reported,
                    outcome,
                });
                reported += 1;
            }
        }
    });
    let mut outcomes: Vec<Outcome> = outcomes.into_iter().flatten().collect();
    scoring::apply_groups(&mut outcomes);
    let summary = Summary::of(&outcomes);
    listen(Event::Done {
        summary: &summary,
        outcomes: &outcomes,
    });
    outcomes
}
