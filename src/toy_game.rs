//! The test-only toy game (`games/toy`, registered for the library's own tests) run end to
//! end: loaded from a scenario file, run by the harness against the reference and against
//! programs, its matches played through its trait. It lives at the top of the crate, above
//! every layer it goes through.

use crate::execution::{Target, TargetSpec};
use crate::harness::{run_all, Outcome, RunConfig, Verdict};
use crate::scenario::load::parse_file;

const STEPS: &str = r#"
game = "counter"
dialect = "tally"

[[scenario]]
name = "adds up"
steps = [{ send = "add 2" }, { send = "add 3", expect = "5\n" }]
"#;

const MATCH: &str = r#"
game = "counter"
dialect = "tally"

[[scenario]]
name = "keeps adding"
time_limit = 10

[scenario.match]
opponents = ["adder"]
sizes = [3]

[[scenario.match.award]]
points = 2
min_win_rate = 1.0
"#;

fn run(source: &str, target: TargetSpec) -> Vec<Outcome> {
    let scenarios = parse_file("counter.toml", source).expect("the toy's file loads");
    let target = Target::new(target, std::path::Path::new("python3")).expect("target");
    let config = RunConfig {
        jobs: 2,
        ..RunConfig::default()
    };
    run_all(&scenarios, &target, &config, "toy", &mut |_| {})
}

fn program(script: &str) -> TargetSpec {
    TargetSpec::Command(script.into())
}

const CORRECT: &str = "t=0; while read c n; do t=$((t+n)); echo =$t; echo .; done";
const BUGGY: &str = "t=0; while read c n; do t=$((t+n+1)); echo =$t; echo .; done";

#[test]
fn a_scenario_of_the_toy_game_runs_against_the_reference_and_programs() {
    assert_eq!(run(STEPS, TargetSpec::Reference)[0].verdict, Verdict::Pass);
    assert_eq!(run(STEPS, program(CORRECT))[0].verdict, Verdict::Pass);
    let wrong = &run(STEPS, program(BUGGY))[0];
    assert_eq!(wrong.verdict, Verdict::Wrong);
    assert_eq!(wrong.first_divergence.as_ref().map(|d| d.step), Some(1));
}

#[test]
fn the_toy_game_plays_matches_through_its_trait() {
    let passed = &run(MATCH, program(CORRECT))[0];
    assert_eq!(passed.verdict, Verdict::Pass, "{passed:?}");
    assert_eq!(passed.score, crate::points::Points::whole(2));
    assert_eq!(passed.matches.as_ref().map(|m| m.games), Some(2));
    let crashed = &run(MATCH, program("read line; exit 3"))[0];
    assert_eq!(crashed.verdict, Verdict::Crash, "{crashed:?}");
    assert_eq!(crashed.score, crate::points::Points::ZERO);
    let wrong = &run(MATCH, program("while read c n; do echo =x; echo .; done"))[0];
    assert_eq!(wrong.verdict, Verdict::Wrong, "{wrong:?}");
}

#[test]
fn the_toy_game_checks_its_own_match_table() {
    let bad = MATCH.replace("[\"adder\"]", "[\"nobody\"]");
    let error = parse_file("counter.toml", &bad).unwrap_err().to_string();
    assert!(error.contains("match.opponents[0]"), "{error}");
    assert!(error.contains("the only player"), "{error}");
}

const CODE_CHECK: &str = r#"
game = "counter"
dialect = "tally"

[[scenario]]
name = "no global statement"
code = { rule = "no_global" }
"#;

#[test]
fn code_checks_judged_while_the_runners_loaded_are_not_judged_again() {
    use crate::execution::Company;
    use crate::harness::{check_all, run_all_checked};
    let scenarios = parse_file("counter.toml", CODE_CHECK).expect("the toy's file loads");
    let target = Target::new(program(CORRECT), std::path::Path::new("python3")).expect("target");
    let config = RunConfig {
        jobs: 2,
        ..RunConfig::default()
    };
    let mut judged = check_all(&scenarios, &target, &config.limits, Company::Scenarios);
    // A command has no code to read: the check is the grader's error, run or not.
    let outcome = judged[0].as_mut().expect("a code check's outcome");
    assert_eq!(outcome.verdict, Verdict::Error);
    outcome.detail = Some("judged before".into());
    let run = |checked| run_all_checked(&scenarios, &target, &config, "toy", &mut |_| {}, checked);
    assert_eq!(
        run(Some(judged))[0].detail.as_deref(),
        Some("judged before")
    );
    assert_ne!(run(None)[0].detail.as_deref(), Some("judged before"));
}
