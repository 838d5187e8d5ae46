//! Grading speed, measured (not asserted), against the floor: the student's code itself.
//!
//! 1. per scenario, side by side: the student's code alone (a call protocol: one adapter
//!    process answering the scenario's input many times over, per repetition; a whole
//!    program: the program run many times in one interpreter, per run), the harness (one
//!    scenario through `run_one`) with the loaded runner (`fork`) and with a fresh
//!    interpreter per scenario (`fresh`), and their ratio; for a call-protocol dialect
//!    (project5), a whole-program one (csc110) and chess;
//! 2. one chess team's scenarios (all of specs/chess/ecs198f, the battery included) through
//!    `grade`, under the strongest sandbox;
//! 3. `--jobs 2` against `--jobs 1` on a folder of submissions;
//! 4. the loaded runner's cost per submission: 20 project5 submissions (its hidden
//!    scenarios included: one runner serves them after the visible ones) at `--jobs 1`,
//!    fork against fresh (`runner`);
//! 5. a class of submissions times 40 scenarios, as wall time (`BENCH_CLASS` submissions,
//!    default 200);
//! 6. a class of 20 correct project5 submissions and four that hang (a module that sleeps
//!    at import, an `is_game_over` that loops, a module that reads its input at import, an
//!    import of one second: `tests/common/hangs.rs`) with `--jobs 2`, as wall time (the
//!    target is under 60 s; `tests/hangs.rs` checks the grades);
//! 7. the grader's own CPU time per scenario (`grader`): 20 project5 submissions with
//!    `--jobs 2` under the strongest sandbox, the CPU time of this process's threads (not of
//!    the programs it starts) divided by the scenarios run, beside the student's code alone;
//! 8. a student's self-check (`selfcheck`): `boardgrade test --python` on the project5
//!    fixture, the whole bundled specs (the submission routed among every dialect) and one
//!    spec file, as wall time from the command's start to its exit, under the strongest
//!    sandbox, beside the student's code alone for the same scenarios.
//!
//! Run with `cargo bench --bench grading`; name sections to run only those (`cargo bench
//! --bench grading -- scenario jobs`: `scenario`, `chess`, `jobs`, `runner`, `class`,
//! `hangs`, `grader`, `selfcheck`).

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use boardgrade::execution::{
    python, Launch, Limits, PythonRunner, Sandbox, StartCheck, Target, TargetSpec,
};
use boardgrade::grade::{self, GradeConfig, Submission};
use boardgrade::harness::{expectation, run_one, Expected};
use boardgrade::scenario::sources;
use boardgrade::scenario::{Scenario, Visibility};

#[path = "../tests/common/hangs.rs"]
mod hangs;

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

fn target(interpreter: &python::Interpreter, submission: &Path, runner: PythonRunner) -> Target {
    Target::with_interpreter(
        TargetSpec::Python(submission.to_path_buf()),
        Some(interpreter.clone()),
    )
    .expect("target")
    .with_sandbox(Sandbox::Limits, Vec::new())
    .with_runner(runner)
}

/// The median time of one scenario through the harness.
fn through_harness(target: &Target, scenario: &Scenario, rounds: usize) -> Duration {
    let limits = Limits::default();
    // As in a class: the reference plays the scenario once, for every round.
    let expected = Expected::of(std::slice::from_ref(scenario));
    run_one(scenario, &expected, target, &limits); // lays out the adapter once
    median(
        (0..rounds)
            .map(|_| {
                let start = Instant::now();
                let outcome = run_one(scenario, &expected, target, &limits);
                assert!(outcome.verdict.passed(), "{outcome:?}");
                start.elapsed()
            })
            .collect(),
    )
}

/// Runs `launch` with `input` on stdin to its end; the wall time.
fn by_hand(launch: &Launch, input: &[u8]) -> Duration {
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
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let output = child.wait_with_output().expect("wait");
    writer.join().expect("writer").expect("write");
    assert!(output.status.success());
    start.elapsed()
}

/// A call protocol's student code alone: one adapter process answers the scenario's input
/// `repeat` times in a row; its time beyond an adapter given no input, per repetition. (A
/// scenario that does not start from a fresh state, as chess games do not, is answered once.)
fn call_protocol_code_alone(target: &Target, scenario: &Scenario, repeat: usize) -> Duration {
    let launch = target
        .program(&scenario.dialect.layout(scenario.game), &Limits::default())
        .expect("launch")
        .expect("a process")
        .launch;
    let input = expectation::input(scenario);
    let idle = median((0..9).map(|_| by_hand(&launch, b"")).collect());
    let busy = median(
        (0..9)
            .map(|_| by_hand(&launch, &input.repeat(repeat)))
            .collect(),
    );
    busy.saturating_sub(idle) / repeat as u32
}

/// Runs a whole program many times in one interpreter (stdin and stdout replaced by strings
/// each time), and prints the median time of one run in seconds.
const PROGRAM_LOOP: &str = r#"
import io, os, runpy, sys, time
stubs, script, data, rounds = sys.argv[1], sys.argv[2], open(sys.argv[3]).read(), int(sys.argv[4])
sys.argv = [script]
sys.path[0:1] = [stubs, os.path.dirname(script)]
real, times = sys.stdout, []
for _ in range(rounds):
    sys.stdin, sys.stdout = io.StringIO(data), io.StringIO()
    start = time.perf_counter()
    try:
        runpy.run_path(script, run_name="__main__")
    except (SystemExit, EOFError):
        pass
    times.append(time.perf_counter() - start)
sys.stdout = real
times.sort()
print(times[len(times) // 2])
"#;

/// A whole program's code alone: the median of `rounds` runs in one interpreter.
fn program_code_alone(target: &Target, scenario: &Scenario, rounds: usize) -> Duration {
    let launch = target
        .program(&scenario.dialect.layout(scenario.game), &Limits::default())
        .expect("launch")
        .expect("a process")
        .launch;
    // The launcher's arguments: -B, the launcher, the stubs folder, the entry file.
    let (stubs, entry) = (&launch.args[2], &launch.args[3]);
    let input_file = launch.cwd.join("bench-input.txt");
    std::fs::write(&input_file, expectation::input(scenario)).expect("input");
    let output = Command::new(&launch.program)
        .arg("-c")
        .arg(PROGRAM_LOOP)
        .arg(stubs)
        .arg(entry)
        .arg(&input_file)
        .arg(rounds.to_string())
        .current_dir(&launch.cwd)
        .output()
        .expect("python");
    let text = String::from_utf8_lossy(&output.stdout);
    let seconds: f64 = text
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("{text}{}", String::from_utf8_lossy(&output.stderr)));
    Duration::from_secs_f64(seconds)
}

fn side_by_side(label: &str, code: Duration, harness: Duration, steps: usize) {
    println!(
        "{label}: student code alone {:.2} ms, harness {:.1} ms per scenario, {:.0}x, {:+.1} ms  ({steps} steps, medians)",
        code.as_secs_f64() * 1e3,
        harness.as_secs_f64() * 1e3,
        harness.as_secs_f64() / code.as_secs_f64().max(1e-6),
        (harness.as_secs_f64() - code.as_secs_f64()) * 1e3,
    );
}

/// The student's code alone against the harness with each runner, for one scenario.
fn both_runners(
    label: &str,
    interpreter: &python::Interpreter,
    submission: &Path,
    scenario: &Scenario,
    code_alone: impl Fn(&Target) -> Duration,
) {
    let fresh = target(interpreter, submission, PythonRunner::Fresh);
    let code = code_alone(&fresh);
    for (runner, target) in [
        ("fork", target(interpreter, submission, PythonRunner::Fork)),
        ("fresh", fresh),
    ] {
        side_by_side(
            &format!("{label}, {runner}"),
            code,
            through_harness(&target, scenario, 30),
            scenario.steps.len(),
        );
    }
}

fn specs(folder: &str) -> Vec<Scenario> {
    let files = sources::from_paths(&[Path::new(ROOT).join(folder)]).expect("specs");
    sources::load_all(&files).scenarios
}

fn pick<'a>(scenarios: &'a [Scenario], name: &str) -> &'a Scenario {
    scenarios
        .iter()
        .find(|s| s.name.contains(name))
        .unwrap_or_else(|| panic!("no scenario named {name:?}"))
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
                own_folder: false,
            }
        })
        .collect()
}

fn grade_class(
    submissions: &[Submission],
    scenarios: &[Scenario],
    interpreter: &python::Interpreter,
    jobs: usize,
    runner: PythonRunner,
) -> Duration {
    grade_class_in(
        submissions,
        scenarios,
        interpreter,
        jobs,
        runner,
        Sandbox::Limits,
    )
}

fn grade_class_in(
    submissions: &[Submission],
    scenarios: &[Scenario],
    interpreter: &python::Interpreter,
    jobs: usize,
    runner: PythonRunner,
    sandbox: Sandbox,
) -> Duration {
    let config = GradeConfig {
        jobs,
        limits: Limits::default(),
        interpreter: interpreter.clone(),
        entry: None,
        store: None,
        resume: false,
        sandbox,
        hidden: Vec::new(),
        runner,
        budget: None,
        import_limit: Some(grade::DEFAULT_IMPORT_LIMIT),
        start_check: StartCheck::new(),
        variants: boardgrade::games::variant::Catalogue::with_bundled(),
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

/// Whether the section `name` runs: every one when none is named on the command line.
fn wanted(name: &str) -> bool {
    let named: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    named.is_empty() || named.iter().any(|n| n == name)
}

fn main() {
    let interpreter = python::resolve(Path::new("python3")).expect("python3");
    let scenarios = project5_scenarios();
    println!(
        "boardgrade grading benchmark (Python {})",
        interpreter.version
    );

    if wanted("scenario") {
        per_scenario(&interpreter, &scenarios);
    }
    if wanted("chess") {
        chess_team(&interpreter);
    }
    let dir = tempfile::tempdir().expect("tempdir");
    if wanted("jobs") {
        jobs_scaling(&interpreter, &scenarios, dir.path());
    }
    if wanted("runner") {
        runner_per_submission(&interpreter, &scenarios, dir.path());
    }
    if wanted("class") {
        whole_class(&interpreter, dir.path());
    }
    if wanted("hangs") {
        class_with_hangs(&interpreter, &scenarios, dir.path());
    }
    if wanted("grader") {
        grader_time(&interpreter, &scenarios, dir.path());
    }
    if wanted("selfcheck") {
        self_check(&interpreter, &scenarios);
    }
}

/// `boardgrade test --python` on the fixture, as a student runs it (the loaded runner, the
/// strongest sandbox, the default jobs), beside the student's code alone for the scenarios
/// it runs.
fn self_check(interpreter: &python::Interpreter, scenarios: &[Scenario]) {
    let sandbox = Sandbox::strongest();
    let alone_per_scenario = fixture_code_alone(interpreter, scenarios);
    for (label, paths) in [
        ("the bundled specs", vec![]),
        (
            "one spec file",
            vec!["specs/one-d-chess/project5/move.toml"],
        ),
    ] {
        let mut ran = 0;
        let samples: Vec<Duration> = (0..9)
            .map(|_| {
                let started = Instant::now();
                let output = Command::new(env!("CARGO_BIN_EXE_boardgrade"))
                    .current_dir(ROOT)
                    .args(["test", "--python", FIXTURE, "--format", "json"])
                    .args(["--sandbox", sandbox.as_str()])
                    .args(&paths)
                    .stderr(Stdio::null())
                    .output()
                    .expect("boardgrade runs");
                let elapsed = started.elapsed();
                let report: serde_json::Value =
                    serde_json::from_slice(&output.stdout).expect("a JSON report");
                ran = report["scenarios"].as_array().map_or(0, Vec::len);
                elapsed
            })
            .collect();
        let (least, most) = (samples.iter().min(), samples.iter().max());
        println!(
            "self-check, {label}: {ran} scenarios ({}), median {:.0} ms wall ({:.0} to {:.0}, 9 runs); the student's code alone, {ran} handout scenarios: {:.1} ms",
            sandbox.as_str(),
            median(samples.clone()).as_secs_f64() * 1e3,
            least.map_or(0.0, |d| d.as_secs_f64() * 1e3),
            most.map_or(0.0, |d| d.as_secs_f64() * 1e3),
            alone_per_scenario.as_secs_f64() * 1e3 * ran as f64,
        );
    }
}

/// The CPU time this process's threads have used (the programs they start not counted).
fn own_cpu() -> Duration {
    // SAFETY: getrusage only writes the struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    };
    let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    time(usage.ru_utime) + time(usage.ru_stime)
}

/// The fixture's code alone answering the handout's game, per scenario: the floor the
/// grader's figures are set beside.
fn fixture_code_alone(interpreter: &python::Interpreter, scenarios: &[Scenario]) -> Duration {
    call_protocol_code_alone(
        &target(
            interpreter,
            &Path::new(ROOT).join(FIXTURE),
            PythonRunner::Fork,
        ),
        pick(scenarios, "the handout's game"),
        50,
    )
}

fn grader_time(interpreter: &python::Interpreter, scenarios: &[Scenario], dir: &Path) {
    let twenty = class(&dir.join("grader"), 20);
    let sandbox = Sandbox::strongest();
    let runs = twenty.len() * scenarios.len();
    let samples: Vec<Duration> = (0..5)
        .map(|_| {
            let before = own_cpu();
            grade_class_in(
                &twenty,
                scenarios,
                interpreter,
                2,
                PythonRunner::Fork,
                sandbox,
            );
            (own_cpu() - before) / runs as u32
        })
        .collect();
    let (least, most) = (samples.iter().min(), samples.iter().max());
    let alone = fixture_code_alone(interpreter, scenarios);
    println!(
        "grader's own CPU per scenario, 20 submissions x {} scenarios (--jobs 2, {}): median {:.2} ms ({:.2} to {:.2}, 5 runs); the student's code alone, one handout scenario: {:.2} ms",
        scenarios.len(),
        sandbox.as_str(),
        median(samples.clone()).as_secs_f64() * 1e3,
        least.map_or(0.0, |d| d.as_secs_f64() * 1e3),
        most.map_or(0.0, |d| d.as_secs_f64() * 1e3),
        alone.as_secs_f64() * 1e3,
    );
}

fn class_with_hangs(interpreter: &python::Interpreter, scenarios: &[Scenario], dir: &Path) {
    let class = hangs::write_class(&dir.join("hangs"), 20);
    let found = grade::discover(&[class], &["one_d_chess.py"], None, false).expect("the class");
    for runner in [PythonRunner::Fork, PythonRunner::Fresh] {
        let wall = grade_class(&found.submissions, scenarios, interpreter, 2, runner);
        println!(
            "20 correct project5 submissions and 4 that hang x {} scenarios (--jobs 2, {}): {:.1} s wall",
            scenarios.len(),
            runner.as_str(),
            wall.as_secs_f64()
        );
    }
}

fn runner_per_submission(interpreter: &python::Interpreter, scenarios: &[Scenario], dir: &Path) {
    let twenty = class(&dir.join("runner"), 20);
    let hidden = scenarios
        .iter()
        .filter(|s| s.visibility == Visibility::Hidden)
        .count();
    for runner in [PythonRunner::Fork, PythonRunner::Fresh] {
        let wall = median(
            (0..3)
                .map(|_| grade_class(&twenty, scenarios, interpreter, 1, runner))
                .collect(),
        );
        println!(
            "20 submissions x {} scenarios ({hidden} hidden), --jobs 1, {}: {:.2} s, {:.0} ms per submission (median of 3)",
            scenarios.len(),
            runner.as_str(),
            wall.as_secs_f64(),
            wall.as_secs_f64() * 1e3 / 20.0
        );
    }
}

fn per_scenario(interpreter: &python::Interpreter, scenarios: &[Scenario]) {
    let scenario = pick(scenarios, "the handout's game");
    both_runners(
        "project5 (call protocol)",
        interpreter,
        &Path::new(ROOT).join(FIXTURE),
        scenario,
        |target| call_protocol_code_alone(target, scenario, 50),
    );
    let csc110_specs = specs("specs/one-d-chess/csc110");
    let game = csc110_specs
        .iter()
        .max_by_key(|s| s.steps.len())
        .expect("a csc110 scenario");
    both_runners(
        "csc110 (whole program)",
        interpreter,
        &Path::new(ROOT).join("fixtures/one-d-chess/csc110/chess.py"),
        game,
        |target| program_code_alone(target, game, 50),
    );
    let chess_specs = specs("specs/chess/ecs198f");
    let chess_game = pick(&chess_specs, "the handout's e1g1 and e8g8");
    both_runners(
        "chess (call protocol)",
        interpreter,
        &Path::new(ROOT).join("fixtures/chess/ecs198f/correct"),
        chess_game,
        |target| call_protocol_code_alone(target, chess_game, 1),
    );
}

/// One chess team's whole grading: every scenario of the dialect it is graded under, the
/// battery's families included (not the variant's too, which a course grades instead).
fn chess_team(interpreter: &python::Interpreter) {
    let chess = specs("specs/chess/ecs198f");
    let team = [Submission {
        id: "team".into(),
        path: Path::new(ROOT).join("fixtures/chess/ecs198f/correct"),
        own_folder: false,
    }];
    // The strongest sandbox: under `limits` one submission's scenarios run one at a time,
    // so `--jobs 2` would measure nothing more than `--jobs 1`.
    let sandbox = Sandbox::strongest();
    for runner in [PythonRunner::Fork, PythonRunner::Fresh] {
        for jobs in [1, 2] {
            let wall = grade_class_in(&team, &chess, interpreter, jobs, runner, sandbox);
            println!(
                "one chess team x {} scenarios through grade (--jobs {jobs}, {}, {}): {:.2} s",
                chess.len(),
                runner.as_str(),
                sandbox.as_str(),
                wall.as_secs_f64()
            );
        }
    }
}

fn jobs_scaling(interpreter: &python::Interpreter, scenarios: &[Scenario], dir: &Path) {
    let twenty = class(&dir.join("twenty"), 20);
    for runner in [PythonRunner::Fork, PythonRunner::Fresh] {
        let one = grade_class(&twenty, scenarios, interpreter, 1, runner);
        let two = grade_class(&twenty, scenarios, interpreter, 2, runner);
        println!(
            "20 submissions x {} scenarios ({}): --jobs 1 {:.2} s, --jobs 2 {:.2} s, speedup {:.2}x",
            scenarios.len(),
            runner.as_str(),
            one.as_secs_f64(),
            two.as_secs_f64(),
            one.as_secs_f64() / two.as_secs_f64()
        );
    }
}

fn whole_class(interpreter: &python::Interpreter, dir: &Path) {
    let size: usize = std::env::var("BENCH_CLASS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let forty = forty_scenarios();
    let big = class(&dir.join("class"), size);
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let wall = grade_class(&big, &forty, interpreter, jobs, PythonRunner::Fork);
    println!(
        "class of {size} submissions x {} scenarios (--jobs {jobs}): {:.1} s wall, {:.1} ms per scenario run",
        forty.len(),
        wall.as_secs_f64(),
        wall.as_secs_f64() * 1e3 / (size * forty.len()) as f64 * jobs as f64
    );
}
