//! The shortest case of a failure: the game offers the divergent step's case, shortened on
//! its reference ([`CaseShrink`]); each shorter candidate the reference still takes for the
//! same case is run on the submission, and kept only when it fails there the same way. The
//! reference alone cannot tell: a bug may need more than the rule the step exercises (a move
//! typed by the player whose turn it is, an en passant square left from an earlier double
//! step), and a case it shortened past that passes when a student replays it.

use super::expectation::{expectations, Expectation};
use super::outcome::{Outcome, Verdict};
use crate::games::{CaseShrink, DivergentStep};
use crate::scenario::{Kind, Scenario, Step, Steps};
use crate::shrink::ddmin;
use std::time::{Duration, Instant};

/// Most tests while shortening, on the reference or the submission.
const SHRINK_BUDGET: usize = 400;
/// Most runs of the submission while shortening one failure past the reference's case (each
/// is a scenario's run: a class's failures must not cost it many times its grading).
const MOST_RUNS: usize = 12;
/// Most wall-clock time the runs of the submission take, together, while shortening one
/// failure: a program can tell a shortened case from the scenario (its lines differ) and
/// stall in each, which must cost the class run no more than this. A run past it counts as
/// not failing alike, and no hint is worse than a hint that does not reproduce.
const SHORTENING_WALL: Duration = Duration::from_secs(2);

/// Adds to `outcome`'s divergence the shortest case of it that failed as it did when `run`
/// (the submission's program, judged) ran it.
pub fn note_shortest_case(
    scenario: &Scenario,
    outcome: &mut Outcome,
    run: impl Fn(&Scenario, &[Expectation]) -> Outcome,
) {
    // A timeout's case would cost a time limit a run; an error is no failure of the program.
    if matches!(
        outcome.verdict,
        Verdict::Timeout | Verdict::Error | Verdict::Pass
    ) {
        return;
    }
    let Some(divergence) = &outcome.first_divergence else {
        return;
    };
    let sent: Vec<&str> = (scenario.steps.iter().take(divergence.step))
        .map(|s| s.send.as_str())
        .collect();
    if divergence.step == 0 || sent.len() < divergence.step {
        return;
    }
    let Some(case) = scenario.game.shortest_case(&DivergentStep {
        dialect: scenario.dialect,
        options: &scenario.options,
        sent: &sent,
        expected: &divergence.expected,
        actual: &divergence.actual,
        differing: &[],
    }) else {
        return;
    };
    let verdict = outcome.verdict;
    let deadline = Instant::now() + SHORTENING_WALL;
    let fails = |lines: Vec<String>| fails_alike(scenario, &run, lines, verdict, deadline);
    let Some(note) = verified_note(case.as_ref(), fails) else {
        return;
    };
    if let Some(divergence) = &mut outcome.first_divergence {
        let at = case.after_notes().min(divergence.notes.len());
        divergence.notes.insert(at, note);
    }
}

/// The note of the shortest case `case` offers that the reference takes for the same case and
/// `fails` confirms: the reference's own shortest when the submission fails it, else one
/// shortened with the submission run at most [`MOST_RUNS`] times; `None` when none shorter
/// was confirmed.
fn verified_note(
    case: &dyn CaseShrink,
    mut fails: impl FnMut(Vec<String>) -> bool,
) -> Option<String> {
    let items = case.items().to_vec();
    // A list shorter than the case's, and short enough to note.
    let noted = |kept: &[String]| kept.len() < items.len() && case.worth_noting(kept);
    // The case the reference alone shortens to, tried first: one run of the submission,
    // and mostly the bug's case too.
    let by_reference = ddmin(items.clone(), SHRINK_BUDGET, &mut |kept: &[String]| {
        case.same_case(kept)
    });
    if noted(&by_reference.items) && fails(case.lines(&by_reference.items)) {
        return Some(case.note(&by_reference.items));
    }
    let mut runs = 0;
    let shrunk = ddmin(items.clone(), SHRINK_BUDGET, &mut |kept: &[String]| {
        if !case.same_case(kept) || runs >= MOST_RUNS {
            return false;
        }
        runs += 1;
        fails(case.lines(kept))
    });
    // Each shortening ddmin keeps passed the test: a shorter list is one the submission
    // failed. The whole list was never run in this form (a battery's game may hold lines the
    // reference refused), so it is no case to note.
    noted(&shrunk.items).then(|| case.note(&shrunk.items))
}

/// Whether `lines`, sent from the start of a scenario like `scenario`, fail with `verdict` at
/// their last line when `run` before `deadline` (the scenario's own time limit no longer).
fn fails_alike(
    scenario: &Scenario,
    run: &impl Fn(&Scenario, &[Expectation]) -> Outcome,
    lines: Vec<String>,
    verdict: Verdict,
    deadline: Instant,
) -> bool {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return false;
    }
    let mut replay = replay_scenario(scenario, lines);
    replay.time_limit = replay.time_limit.min(left);
    let Ok(expected) = expectations(&replay) else {
        return false;
    };
    let outcome = run(&replay, &expected);
    let at = outcome.first_divergence.as_ref().map(|d| d.step);
    outcome.verdict == verdict && at == Some(replay.steps.len())
}

/// `scenario` sending `lines` alone, each expecting what the reference answers.
fn replay_scenario(scenario: &Scenario, lines: Vec<String>) -> Scenario {
    let line = scenario.steps.first().map_or(scenario.line, |s| s.line);
    let steps: Vec<Step> = lines
        .into_iter()
        .map(|send| Step::sending(send, line))
        .collect();
    // It stays about what the scenario is about: a battery family's topic is its name.
    let mut tags = scenario.tags.clone();
    if let Kind::Battery(source) = &scenario.kind {
        tags.push(source.family.name.to_string());
    }
    Scenario {
        steps: Steps::written(steps),
        kind: Kind::Steps,
        tags,
        ..scenario.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Items `0..n`; the reference takes any list holding 7 for the same case.
    struct Case(Vec<String>);

    impl CaseShrink for Case {
        fn items(&self) -> &[String] {
            &self.0
        }
        fn same_case(&self, kept: &[String]) -> bool {
            kept.iter().any(|k| k == "7")
        }
        fn lines(&self, kept: &[String]) -> Vec<String> {
            kept.iter().cloned().chain(["step".to_string()]).collect()
        }
        fn worth_noting(&self, kept: &[String]) -> bool {
            kept.len() < self.0.len()
        }
        fn note(&self, kept: &[String]) -> String {
            kept.join(" ")
        }
        fn after_notes(&self) -> usize {
            0
        }
    }

    fn case() -> Case {
        Case((0..10).map(|i| i.to_string()).collect())
    }

    #[test]
    fn notes_the_shortest_case_the_submission_failed() {
        // The submission fails only when 3 comes before 7.
        let fails = |lines: Vec<String>| {
            let at = |x: &str| lines.iter().position(|l| l == x);
            matches!((at("3"), at("7")), (Some(a), Some(b)) if a < b)
        };
        assert_eq!(verified_note(&case(), fails).as_deref(), Some("3 7"));
    }

    /// The note when the submission always (or never) fails, and how many runs it took.
    fn always(failing: bool) -> (Option<String>, usize) {
        let mut runs = 0;
        let note = verified_note(&case(), |_| {
            runs += 1;
            failing
        });
        (note, runs)
    }

    #[test]
    fn notes_nothing_the_submission_did_not_fail() {
        let (note, runs) = always(false);
        assert_eq!(note, None);
        assert!(runs <= 1 + MOST_RUNS, "{runs} runs");
    }

    #[test]
    fn the_runs_while_shortening_share_one_deadline() {
        let source = "game = \"counter\"\ndialect = \"tally\"\ntime_limit = 10\n\n\
                      [[scenario]]\nname = \"adds up\"\nsteps = [{ send = \"add 2\" }]\n";
        let scenarios = crate::scenario::load::parse_file("counter.toml", source).unwrap();
        let limits = std::cell::RefCell::new(Vec::new());
        let run = |replay: &Scenario, _: &[Expectation]| {
            limits.borrow_mut().push(replay.time_limit);
            super::super::outcome::base_outcome(replay, Verdict::Wrong)
        };
        let lines = || vec!["add 2".to_string()];
        let soon = Instant::now() + Duration::from_millis(500);
        fails_alike(&scenarios[0], &run, lines(), Verdict::Wrong, soon);
        // A run is given what is left of the deadline, not the scenario's 10 s.
        assert!(limits.borrow()[0] <= Duration::from_millis(500));
        // Past the deadline, nothing more runs: a stalling program is not waited for.
        assert!(!fails_alike(
            &scenarios[0],
            &run,
            lines(),
            Verdict::Wrong,
            Instant::now()
        ));
        assert_eq!(limits.borrow().len(), 1);
    }

    #[test]
    fn the_references_case_failed_costs_one_run() {
        let (note, runs) = always(true);
        assert_eq!((note.as_deref(), runs), (Some("7"), 1));
    }
}
