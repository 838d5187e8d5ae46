//! Grading speed, measured (not asserted):
//!
//! 1. the harness's overhead per scenario against running the same program with the same
//!    input by hand (the adapter under `python3`, piped input, output read);
//! 2. `--jobs 2` against `--jobs 1` on a folder of submissions;
//! 3. a class of submissions times 40 scenarios, as wall time (`BENCH_CLASS` submissions,
//!    default 200).
//!
//! Run with `cargo bench --bench grading`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use boardgrade::execution::{python, Limits, Sandbox, Target, TargetSpec};
use boardgrade::grade::{self, GradeConfig, Submission};
use boardgrade::harness::{expectation, run_one};
use boardgrade::scenario::sources;
use boardgrade::scenario::Scenario;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const FIXTURE: &str = "fixtures/one-d-chess/project5/one_d_chess.py";

fn project5_scenarios() -> Vec<Scenario> {
    let files =
        sources::from_paths(&[Path::new(ROOT).join("specs/one-d-chess/project5")]).expect("specs");
    sources::load_all(&files).scenarios
}

/// 40 scenarios: the project5 specs, then as many again (renamed) as needed.
fn forty_scenarios() -> Vec<Scenario> {
    let base = project5_scenarios();
    let mut all = base.clone();
    for (i, s) in base.iter().cycle().take(40 - base.len()).enumerate() {
        let mut copy = s.clone();
        copy.name = format!("{} (again {i})", s.name);
        all.push(copy);
    }
    all
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

/// (through the harness, by hand) median time of one scenario.
fn overhead(
    interpreter: &python::Interpreter,
    scenario: &Scenario,
    rounds: usize,
) -> (Duration, Duration) {
    let target = Target::with_interpreter(
        TargetSpec::Python(PathBuf::from(ROOT).join(FIXTURE)),
        Some(interpreter.clone()),
    )
    .expect("target")
    .with_sandbox(Sandbox::Limits, Vec::new());
    let limits = Limits::default();
    run_one(scenario, &target, &limits); // lays out the adapter once
    let harness = median(
        (0..rounds)
            .map(|_| {
                let start = Instant::now();
                let outcome = run_one(scenario, &target, &limits);
                assert!(outcome.verdict.passed(), "{outcome:?}");
                start.elapsed()
            })
            .collect(),
    );
    let launch = target
        .program(scenario.game, scenario.dialect, &limits)
        .expect("launch")
        .expect("a process")
        .launch;
    let input = expectation::input(scenario);
    let by_hand = median(
        (0..rounds)
            .map(|_| {
                let start = Instant::now();
                let mut child = Command::new(&launch.program)
                    .args(&launch.args)
                    .current_dir(&launch.cwd)
                    .envs(launch.env.iter().map(|(k, v)| (k, v)))
                    .stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::null())
                    .spawn()
                    .expect("spawn");
                child
                    .stdin
                    .take()
                    .expect("stdin")
                    .write_all(&input)
                    .expect("write");
                let output = child.wait_with_output().expect("wait");
                assert!(output.status.success());
                start.elapsed()
            })
            .collect(),
    );
    (harness, by_hand)
}

fn class(dir: &Path, size: usize) -> Vec<Submission> {
    (0..size)
        .map(|i| {
            let folder = dir.join(format!("student{i:03}"));
            std::fs::create_dir_all(&folder).expect("folder");
            std::fs::copy(Path::new(ROOT).join(FIXTURE), folder.join("one_d_chess.py"))
                .expect("copy");
            Submission {
                id: format!("student{i:03}"),
                path: folder,
            }
        })
        .collect()
}

fn grade_class(
    submissions: &[Submission],
    scenarios: &[Scenario],
    interpreter: &python::Interpreter,
    jobs: usize,
) -> Duration {
    let config = GradeConfig {
        jobs,
        limits: Limits::default(),
        interpreter: interpreter.clone(),
        entry: None,
        store: None,
        resume: false,
        sandbox: Sandbox::Limits,
        hidden: Vec::new(),
    };
    let start = Instant::now();
    let results = grade::grade_all(submissions, scenarios, &config, &mut |_| {});
    let elapsed = start.elapsed();
    assert!(
        results.iter().all(|r| r.passed()),
        "every copy of the correct fixture passes"
    );
    elapsed
}

fn main() {
    let interpreter = python::resolve(Path::new("python3")).expect("python3");
    let scenarios = project5_scenarios();
    println!(
        "boardgrade grading benchmark (Python {})",
        interpreter.version
    );

    let scenario = scenarios
        .iter()
        .find(|s| s.name.contains("the handout's game"))
        .expect("the handout's game");
    let (harness, by_hand) = overhead(&interpreter, scenario, 30);
    println!(
        "overhead per scenario: harness {:.1} ms, by hand {:.1} ms, overhead {:+.1}%  ({} steps, median of 30)",
        harness.as_secs_f64() * 1e3,
        by_hand.as_secs_f64() * 1e3,
        (harness.as_secs_f64() / by_hand.as_secs_f64() - 1.0) * 100.0,
        scenario.steps.len()
    );

    let dir = tempfile::tempdir().expect("tempdir");
    let twenty = class(&dir.path().join("twenty"), 20);
    let one = grade_class(&twenty, &scenarios, &interpreter, 1);
    let two = grade_class(&twenty, &scenarios, &interpreter, 2);
    println!(
        "20 submissions x {} scenarios: --jobs 1 {:.2} s, --jobs 2 {:.2} s, speedup {:.2}x",
        scenarios.len(),
        one.as_secs_f64(),
        two.as_secs_f64(),
        one.as_secs_f64() / two.as_secs_f64()
    );

    let size: usize = std::env::var("BENCH_CLASS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let forty = forty_scenarios();
    let big = class(&dir.path().join("class"), size);
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let wall = grade_class(&big, &forty, &interpreter, jobs);
    println!(
        "class of {size} submissions x {} scenarios (--jobs {jobs}): {:.1} s wall, {:.1} ms per scenario run",
        forty.len(),
        wall.as_secs_f64(),
        wall.as_secs_f64() * 1e3 / (size * forty.len()) as f64 * jobs as f64
    );
}
