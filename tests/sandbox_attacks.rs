//! The attacks of fixtures/hostile/ on a Gradescope layout unpacked to a scratch root, and
//! on the sandbox itself: the final results.json is the submission's real grade, nothing of
//! the grader is readable, and nothing is left running. Run under `limits` (bubblewrap made
//! unavailable) and under bubblewrap where it works.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{boardgrade, is_root, root, unzip};
use serde_json::Value;

/// The sandboxes to try: `limits` (bubblewrap pointed at nothing, so its probe fails) and
/// bubblewrap where it works. Each comes with the environment that makes it.
fn sandboxes() -> Vec<(&'static str, Vec<(&'static str, &'static str)>)> {
    let mut found = vec![("limits", vec![("BOARDGRADE_BWRAP", "/nonexistent/bwrap")])];
    if boardgrade::execution::sandbox::bwrap_works() {
        found.push(("bwrap", Vec::new()));
    }
    found
}

/// Live processes (not zombies) whose working folder or command line is under `folder`.
fn processes_under(folder: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let status = std::fs::read_to_string(entry.path().join("status")).unwrap_or_default();
        if status
            .lines()
            .any(|l| l.starts_with("State:") && l.contains('Z'))
        {
            continue;
        }
        let cwd = std::fs::read_link(entry.path().join("cwd")).unwrap_or_default();
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let folder_text = folder.to_string_lossy();
        if cwd.starts_with(folder) || String::from_utf8_lossy(&cmdline).contains(&*folder_text) {
            found.push(format!(
                "{:?}: {}",
                entry.file_name(),
                String::from_utf8_lossy(&cmdline).replace('\0', " ")
            ));
        }
    }
    found
}

/// An autograder zip for the one-scenario csc110 game (1 point), built in `dir`.
fn package(dir: &Path) -> PathBuf {
    let zip = dir.join("autograder.zip");
    boardgrade()
        .args(["gradescope", "--specs"])
        .arg(root().join("tests/selftest/hostile_game.toml"))
        .arg("--out")
        .arg(&zip)
        .assert()
        .success();
    zip
}

/// Unpacks `zip` to a layout under `dir`, puts `files` (name, fixture) in its submission and
/// runs `run_autograder` as Gradescope would; returns the layout, the results and the log.
fn autograde(
    dir: &Path,
    zip: &Path,
    files: &[(&str, &str)],
    env: &[(&str, &str)],
) -> (PathBuf, Value, String) {
    let layout = dir.join("autograder");
    std::fs::create_dir_all(layout.join("submission")).unwrap();
    unzip(zip, &layout.join("source"));
    for (name, fixture) in files {
        std::fs::copy(
            root().join("fixtures").join(fixture),
            layout.join("submission").join(name),
        )
        .unwrap();
    }
    let scratch = dir.join("tmp");
    std::fs::create_dir_all(&scratch).unwrap();
    let output = Command::new("bash")
        .arg(layout.join("source/run_autograder"))
        .env("AUTOGRADER_ROOT", &layout)
        .env("TMPDIR", &scratch)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&output.stdout).into_owned();
    let results = std::fs::read_to_string(layout.join("results/results.json")).unwrap();
    let results = serde_json::from_str(&results).unwrap();
    // Whatever happened, Gradescope gets a results.json it reads.
    common::schema::assert_valid("gradescope", &results, "the autograder's results.json");
    (layout, results, log)
}

#[test]
fn no_submission_forges_leaks_or_outlives_its_grade_on_gradescope() {
    if !is_root() {
        // The package refuses to grade without root (its own test below).
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let zip = package(dir.path());
    for (sandbox, env) in sandboxes() {
        let attacks: &[(&str, f64)] = &[
            ("one-d-chess/csc110/chess.py", 1.0),
            ("hostile/forge_and_kill.py", 0.0),
            ("hostile/setsid_daemon.py", 0.0),
            ("hostile/oracle_grader.py", 0.0),
            ("hostile/snoop.py", 0.0),
        ];
        for (fixture, real) in attacks {
            let case = dir
                .path()
                .join(format!("{sandbox}-{}", fixture.replace('/', "-")));
            let (layout, results, log) = autograde(&case, &zip, &[("chess.py", fixture)], &env);
            // A daemon would rewrite results.json every 0.1 s for 20 s if it were alive.
            std::thread::sleep(Duration::from_millis(600));
            let now: Value = serde_json::from_str(
                &std::fs::read_to_string(layout.join("results/results.json")).unwrap(),
            )
            .unwrap();
            assert_eq!(now, results, "{sandbox} {fixture}: results.json changed");
            assert_eq!(
                results["score"].as_f64(),
                Some(*real),
                "{sandbox} {fixture}: {results:#}"
            );
            let named = results["extra_data"]["sandbox"]
                .as_str()
                .unwrap_or_default();
            assert!(named.starts_with(sandbox), "{sandbox} {fixture}: {named}");
            assert!(
                log.contains(&format!("under the sandbox {sandbox}")),
                "{log}"
            );
            assert_eq!(
                processes_under(&case),
                Vec::<String>::new(),
                "{sandbox} {fixture}"
            );
            let source = std::fs::metadata(layout.join("source")).unwrap();
            assert_eq!(source.permissions().mode() & 0o077, 0, "source left open");
            if fixture.ends_with("snoop.py") {
                let shown = results["tests"][0]["output"].as_str().unwrap();
                assert!(shown.contains("no leaks"), "{sandbox}: {shown}");
                assert!(shown.contains("uid 19"), "{sandbox}: {shown}");
            }
        }
    }
}

#[test]
fn the_package_refuses_to_grade_below_its_sandbox() {
    let dir = tempfile::tempdir().unwrap();
    let zip = dir.path().join("autograder.zip");
    boardgrade()
        .args(["gradescope", "--sandbox", "bwrap", "--specs"])
        .arg(root().join("tests/selftest/hostile_game.toml"))
        .arg("--out")
        .arg(&zip)
        .assert()
        .success();
    let (_, results, log) = autograde(
        dir.path(),
        &zip,
        &[("chess.py", "one-d-chess/csc110/chess.py")],
        &[("BOARDGRADE_BWRAP", "/nonexistent/bwrap")],
    );
    assert_eq!(results["score"].as_f64(), Some(0.0), "{results:#}");
    assert!(results["output"]
        .as_str()
        .unwrap()
        .contains("could not grade"));
    let reason = &results["tests"][0];
    assert_eq!(reason["visibility"], "hidden");
    assert!(
        reason["output"].as_str().unwrap().contains("bubblewrap"),
        "{reason:#}"
    );
    assert!(log.contains("NOT GRADED"), "{log}");
}

#[test]
fn a_sandbox_that_fails_at_run_time_gives_errors_not_crashes() {
    if !boardgrade::execution::sandbox::bwrap_works() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let fake = common::bwrap_failing_after_probe(dir.path());
    let output = boardgrade()
        .env("BOARDGRADE_BWRAP", &fake)
        .args(["test", "tests/selftest/hostile_game.toml", "--python"])
        .arg(root().join("fixtures/one-d-chess/csc110/chess.py"))
        .args(["--format", "json"])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let scenario = &report["scenarios"][0];
    assert_eq!(scenario["verdict"], "error", "{report:#}");
    let detail = scenario["detail"].as_str().unwrap();
    assert!(detail.contains("sandbox (bubblewrap) failed"), "{detail}");
    assert!(detail.contains("mount proc"), "{detail}");
}

#[test]
fn a_huge_memory_limit_is_refused_not_wrapped_around() {
    let output = boardgrade()
        .args(["test", "tests/selftest/hostile_game.toml", "--memory-limit"])
        .arg(u64::MAX.to_string())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--memory-limit"), "{stderr}");
}

#[test]
fn a_scratch_folder_left_by_a_killed_grader_goes_with_the_next_run() {
    let dir = tempfile::tempdir().unwrap();
    let scratch = dir.path().join("tmp");
    std::fs::create_dir_all(&scratch).unwrap();
    // `boardgrade test` of one submission, its scratch folders in `scratch`.
    let grader_of = |fixture: &str| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_boardgrade"));
        command
            .current_dir(root())
            .env("TMPDIR", &scratch)
            .args(["test", "tests/selftest/hostile_game.toml"])
            .args(["--sandbox", "limits", "--python"])
            .arg(root().join("fixtures").join(fixture));
        command
    };
    let mut grader = grader_of("hostile/sleep_forever.py")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let left = |scratch: &Path| -> Vec<PathBuf> {
        std::fs::read_dir(scratch)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                p.file_name()
                    .unwrap()
                    .to_string_lossy()
                    .starts_with("boardgrade-")
            })
            .collect()
    };
    let started = Instant::now();
    let student_running = |scratch: &Path| {
        processes_under(scratch)
            .iter()
            .any(|p| p.contains("sleep_forever"))
    };
    // Its scratch folder must exist too: a process the grader is starting may show the
    // grader's own command line (naming the fixture) before its scratch folder is made.
    while (left(&scratch).is_empty() || !student_running(&scratch))
        && started.elapsed() < Duration::from_secs(20)
    {
        std::thread::sleep(Duration::from_millis(50));
    }
    grader.kill().unwrap(); // SIGKILL: the grader cleans up nothing
    grader.wait().unwrap();
    assert_eq!(
        left(&scratch).len(),
        1,
        "the killed grader's scratch folder"
    );
    let next = grader_of("one-d-chess/csc110/chess.py").output().unwrap();
    assert!(next.status.success());
    assert_eq!(left(&scratch), Vec::<PathBuf>::new());
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(processes_under(&scratch), Vec::<String>::new());
}

/// `boardgrade test` of one fixture against the one-scenario game, as JSON: its scenario.
fn test_one(fixture: &str, sandbox: &str, env: &[(&str, &str)]) -> Value {
    let output = boardgrade()
        .envs(env.iter().copied())
        .args(["test", "tests/selftest/hostile_game.toml", "--python"])
        .arg(root().join("fixtures").join(fixture))
        .args(["--sandbox", sandbox, "--format", "json"])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    report["scenarios"][0].clone()
}

#[test]
fn a_fork_bomb_is_capped_and_a_cpu_limit_kill_is_a_timeout() {
    for (sandbox, env) in sandboxes() {
        let bomb = test_one("hostile/fork_count.py", sandbox, &env);
        let said = bomb["first_divergence"]["actual"].as_str().unwrap();
        let forked: usize = said
            .trim()
            .strip_prefix("forked ")
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{sandbox}: {said}"));
        if is_root() {
            // RLIMIT_NPROC binds the student user (it never binds root).
            assert!(forked < 300, "{sandbox}: {forked} processes");
        }
        let stubborn = test_one("hostile/ignores_cpu_signal.py", sandbox, &env);
        assert_eq!(stubborn["verdict"], "timeout", "{sandbox}: {stubborn:#}");
        let detail = stubborn["detail"].as_str().unwrap();
        // Killed at its CPU limit, or (on a machine too loaded to give it that much CPU time)
        // at the wall-clock limit beside it: a timeout either way, never a crash.
        assert!(detail.contains("CPU"), "{sandbox}: {detail}");
    }
}

#[test]
fn a_run_writes_a_bounded_amount_in_its_folder() {
    for (sandbox, env) in sandboxes() {
        let filler = test_one("hostile/fills_disk.py", sandbox, &env);
        let said = filler["first_divergence"]["actual"].as_str().unwrap();
        let written: u64 = said
            .trim()
            .strip_prefix("wrote ")
            .and_then(|n| n.strip_suffix(" MiB"))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{sandbox}: {said}"));
        if is_root() {
            // Its folder is a tmpfs with 256 MiB of room (charged to its memory limit too).
            assert!(written <= 256, "{sandbox}: {written} MiB");
        } else {
            // On the grader's disk: only each file is held to its size.
            assert!(written > 256, "{sandbox}: {written} MiB");
        }
    }
}

#[test]
fn a_run_is_capped_in_memory_for_all_its_processes_together() {
    for (sandbox, env) in sandboxes() {
        let output = boardgrade()
            .envs(env.iter().copied())
            .args(["test", "tests/selftest/hostile_game.toml", "--python"])
            .arg(root().join("fixtures/hostile/memory_by_children.py"))
            .args([
                "--sandbox",
                sandbox,
                "--format",
                "json",
                "--memory-limit",
                "400",
            ])
            .output()
            .unwrap();
        let report: Value = serde_json::from_slice(&output.stdout).unwrap();
        let capped = !report["target"]
            .as_str()
            .unwrap()
            .contains("no memory cgroup");
        let scenario = &report["scenarios"][0];
        // Six children of 150 MiB each stay under the per-process limit of 400 MiB; only a cap on the
        // whole run stops them, and then it is the memory limit, not a crash.
        let expected = if capped { "memory-limit" } else { "wrong" };
        assert_eq!(scenario["verdict"], expected, "{sandbox}: {scenario:#}");
    }
}

/// Grades a class of `students` (name, files as (name, fixture)) with `args`; the report.
fn grade_class(dir: &Path, students: &[(String, Vec<(&str, &str)>)], args: &[&str]) -> Value {
    let class = dir.join("class");
    for (name, files) in students {
        let folder = class.join(name);
        std::fs::create_dir_all(&folder).unwrap();
        for (file, fixture) in files {
            std::fs::copy(root().join("fixtures").join(fixture), folder.join(file)).unwrap();
        }
    }
    let output = boardgrade()
        .arg("grade")
        .arg(&class)
        .args(["--specs", "tests/selftest/hostile_game.toml", "--out"])
        .arg(dir.join("out"))
        .args(["--format", "json"])
        .args(args)
        .output()
        .unwrap();
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!("{e}: {}", String::from_utf8_lossy(&output.stderr));
    })
}

#[test]
fn a_cpu_bound_correct_submission_passes_with_more_jobs_than_cores() {
    let dir = tempfile::tempdir().unwrap();
    // Each spends 1.2 s of CPU of its 3 s limit: eight at once on two cores take about 5 s of
    // wall-clock time each.
    let students: Vec<(String, Vec<(&str, &str)>)> = (0..8)
        .map(|i| {
            (
                format!("student{i}"),
                vec![
                    ("chess.py", "hostile/cpu_bound_correct.py"),
                    ("correct_game.py", "one-d-chess/csc110/chess.py"),
                ],
            )
        })
        .collect();
    let report = grade_class(
        dir.path(),
        &students,
        &["--jobs", "8", "--sandbox", "limits"],
    );
    for result in report["submissions"].as_array().unwrap() {
        let scenario = &result["scenarios"][0];
        assert_eq!(
            scenario["verdict"], "pass",
            "{}: {scenario:#}",
            result["id"]
        );
    }
}

#[test]
fn floods_leave_the_grader_and_the_stored_results_small() {
    let dir = tempfile::tempdir().unwrap();
    let students = vec![
        (
            "endless".to_string(),
            vec![("chess.py", "hostile/endless_line.py")],
        ),
        (
            "flood".to_string(),
            vec![("chess.py", "hostile/stderr_flood.py")],
        ),
    ];
    let report = grade_class(dir.path(), &students, &["--sandbox", "limits"]);
    let rss = report["grader"]["max_rss_kib"].as_u64().unwrap();
    assert!(rss < 100 * 1024, "grader peak memory {rss} KiB");
    for stored in std::fs::read_dir(dir.path().join("out/submissions"))
        .unwrap()
        .flatten()
    {
        let size = stored.metadata().unwrap().len();
        assert!(size < 64 << 10, "{:?}: {size} bytes", stored.path());
    }
}

/// A miniChess match whose program would keep the grader waiting for a minute (its one call
/// may take that long).
const SLOW_MATCH: &str = r#"game = "minichess"
dialect = "ecs10"

[[scenario]]
name = "strength"
time_limit = 60

[scenario.match]
opponents = ["random"]
sizes = [3]
seed = 5
call_time_limit = 60

[[scenario.match.award]]
points = 1
min_win_rate = 0.0
"#;

/// The grader command line for `command` against the sleeping fixture, run in `dir`.
fn sleeping_run(command: &str, dir: &Path) -> Command {
    let fixture = root().join("fixtures/hostile/sleep_forever.py");
    let class = dir.join("class/a");
    std::fs::create_dir_all(&class).unwrap();
    std::fs::copy(&fixture, class.join("chess.py")).unwrap();
    let mut grader = Command::new(env!("CARGO_BIN_EXE_boardgrade"));
    grader.current_dir(root());
    match command {
        "test" => {
            grader.args(["test", "tests/selftest/hostile_game.toml", "--python"]);
            grader.arg(&fixture);
        }
        "grade" => {
            grader.arg("grade").arg(dir.join("class"));
            grader.args(["--specs", "tests/selftest/hostile_game.toml", "--out"]);
            grader.arg(dir.join("out"));
        }
        "match" => {
            let spec = dir.join("match.toml");
            std::fs::write(&spec, SLOW_MATCH).unwrap();
            // A chooser that sleeps on its first move.
            let chooser =
                std::fs::read_to_string(root().join("fixtures/minichess/ecs10/random-chooser.py"))
                    .unwrap()
                    .replace(
                        "    return random.choice(mlist)\n",
                        "    import time\n    time.sleep(600)\n",
                    );
            let program = dir.join("prog67.py");
            std::fs::write(&program, chooser).unwrap();
            grader.arg("test").arg(&spec).arg("--python").arg(&program);
        }
        "fuzz" => {
            grader.args([
                "fuzz",
                "one-d-chess",
                "--dialect",
                "csc110",
                "--time-limit",
                "60",
            ]);
            grader.arg("--python").arg(&fixture).arg("--out").arg(dir);
        }
        other => panic!("no such command {other}"),
    }
    grader
}

#[test]
fn a_signal_stops_every_command_at_once_with_every_child_killed() {
    use rustix::process::Signal;
    let every_mode = sandboxes().into_iter().chain([("none", Vec::new())]);
    for (sandbox, env) in every_mode {
        for command in ["test", "grade", "match", "fuzz"] {
            for signal in [Signal::TERM, Signal::INT] {
                let dir = tempfile::tempdir().unwrap();
                let scratch = dir.path().join("tmp");
                std::fs::create_dir_all(&scratch).unwrap();
                let mut grader = sleeping_run(command, dir.path())
                    .env("TMPDIR", &scratch)
                    .envs(env.iter().copied())
                    .args(["--sandbox", sandbox])
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .spawn()
                    .unwrap();
                let started = Instant::now();
                // The student program itself (not, say, the interpreter's version check), or
                // the loaded runner it is forked from.
                let student = |p: &String| {
                    ["boardgrade_launch", "adapter_", "boardgrade_fork"]
                        .iter()
                        .any(|name| p.contains(name))
                };
                while !processes_under(&scratch).iter().any(student)
                    && started.elapsed() < Duration::from_secs(20)
                {
                    std::thread::sleep(Duration::from_millis(50));
                }
                let case = format!("{sandbox} {command} {signal:?}");
                assert!(
                    started.elapsed() < Duration::from_secs(20),
                    "{case}: the program never started"
                );
                std::thread::sleep(Duration::from_millis(300)); // into its sleep
                let pid = rustix::process::Pid::from_raw(grader.id() as i32).unwrap();
                rustix::process::kill_process(pid, signal).unwrap();
                let asked = Instant::now();
                let status = grader.wait().unwrap();
                assert!(
                    asked.elapsed() < Duration::from_secs(1),
                    "{case}: took {:?}",
                    asked.elapsed()
                );
                assert_eq!(status.code(), Some(130), "{case}: interrupted");
                std::thread::sleep(Duration::from_millis(200));
                assert_eq!(processes_under(&scratch), Vec::<String>::new(), "{case}");
            }
        }
    }
}

/// A dropped terminal or SSH session (SIGHUP) stops a run like Ctrl-C, leaving no student
/// process, also where nothing else would kill them (`--sandbox none`).
#[test]
fn a_hang_up_stops_a_run_and_leaves_no_student_process() {
    use rustix::process::Signal;
    for command in ["test", "grade"] {
        let dir = tempfile::tempdir().unwrap();
        let scratch = dir.path().join("tmp");
        std::fs::create_dir_all(&scratch).unwrap();
        let mut grader = sleeping_run(command, dir.path())
            .env("TMPDIR", &scratch)
            .args(["--sandbox", "none"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let started = Instant::now();
        let student = |p: &String| {
            ["boardgrade_launch", "adapter_", "boardgrade_fork"]
                .iter()
                .any(|name| p.contains(name))
        };
        while !processes_under(&scratch).iter().any(student)
            && started.elapsed() < Duration::from_secs(20)
        {
            std::thread::sleep(Duration::from_millis(50));
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "{command}: never started"
        );
        std::thread::sleep(Duration::from_millis(300));
        let pid = rustix::process::Pid::from_raw(grader.id() as i32).unwrap();
        rustix::process::kill_process(pid, Signal::HUP).unwrap();
        let asked = Instant::now();
        let status = grader.wait().unwrap();
        assert!(asked.elapsed() < Duration::from_secs(1), "{command}");
        assert_eq!(status.code(), Some(130), "{command}: interrupted");
        std::thread::sleep(Duration::from_millis(200));
        assert_eq!(processes_under(&scratch), Vec::<String>::new(), "{command}");
    }
}

#[test]
fn a_signal_stops_play_at_once() {
    use rustix::process::Signal;
    use std::os::unix::process::CommandExt;
    for signal in [Signal::TERM, Signal::INT] {
        let mut command = Command::new(env!("CARGO_BIN_EXE_boardgrade"));
        command
            .args(["play", "minichess", "--against"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        // Started as from a terminal, whatever ran these tests: a shell's background job
        // ignores SIGINT, and `play` keeps the signal handling it is given.
        // SAFETY: only async-signal-safe calls between fork and exec.
        unsafe {
            command.pre_exec(|| {
                libc::signal(libc::SIGINT, libc::SIG_DFL);
                libc::signal(libc::SIGTERM, libc::SIG_DFL);
                Ok(())
            });
        }
        let mut play = command.spawn().unwrap();
        // Waiting for a move (stdin is open and silent).
        std::thread::sleep(Duration::from_millis(300));
        let pid = rustix::process::Pid::from_raw(play.id() as i32).unwrap();
        rustix::process::kill_process(pid, signal).unwrap();
        let asked = Instant::now();
        let status = play.wait().unwrap();
        assert!(asked.elapsed() < Duration::from_secs(1), "{signal:?}");
        assert!(!status.success(), "{signal:?}: {status:?}");
    }
}

#[test]
fn specs_every_user_can_read_are_named_under_limits_as_root() {
    if !is_root() {
        return;
    }
    let output = boardgrade()
        .args([
            "test",
            "tests/selftest/hostile_game.toml",
            "--sandbox",
            "limits",
        ])
        .arg("--python")
        .arg(root().join("fixtures/one-d-chess/csc110/chess.py"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let readable = std::fs::metadata(root().join("tests/selftest/hostile_game.toml"))
        .unwrap()
        .permissions()
        .mode()
        & 0o004
        != 0;
    assert_eq!(
        stderr.contains("hostile_game.toml can be read by every user"),
        readable && Path::new("/").metadata().unwrap().permissions().mode() & 0o001 != 0,
        "{stderr}"
    );
}

/// What of the things `leaves_residue.py` said it left (`said`: "left: uid U pid P FOLDER...
/// shm=ID msg=ID sem=ID") is still there: only its own files and objects are looked at, since
/// other graders may run beside.
fn residue_left(said: &str) -> Vec<String> {
    let words: Vec<&str> = said.split_whitespace().collect();
    let (uid, pid) = (words[2], words[4]);
    let mut left = Vec::new();
    for word in &words[5..] {
        match word.split_once('=') {
            None => {
                let file = Path::new(word).join(format!("bg-residue-{pid}"));
                if file.exists() {
                    left.push(file.display().to_string());
                }
            }
            Some((kind, id)) => {
                let list = std::fs::read_to_string(format!("/proc/sysvipc/{kind}")).unwrap();
                let mut lines = list.lines();
                let header: Vec<&str> = lines.next().unwrap().split_whitespace().collect();
                let column = |name: &str| header.iter().position(|c| *c == name).unwrap();
                let (id_column, owner) = (
                    column(&format!("{kind}id").replace("msgid", "msqid")),
                    column("cuid"),
                );
                for line in lines {
                    let fields: Vec<&str> = line.split_whitespace().collect();
                    if fields[id_column] == id && fields[owner] == uid {
                        left.push(format!("{kind}: {line}"));
                    }
                }
            }
        }
    }
    left
}

#[test]
fn nothing_a_run_leaves_in_the_shared_folders_or_ipc_outlives_it() {
    if !is_root() {
        // Without root the program runs as the grader's own user, whose files are not the
        // grader's to remove (the report says the protection is missing).
        return;
    }
    for (sandbox, env) in sandboxes() {
        for runner in ["fork", "fresh"] {
            let output = boardgrade()
                .envs(env.iter().copied())
                .args(["test", "tests/selftest/hostile_game.toml", "--python"])
                .arg(root().join("fixtures/hostile/leaves_residue.py"))
                .args(["--sandbox", sandbox, "--python-runner", runner])
                .args(["--format", "json"])
                .output()
                .unwrap();
            let report: Value = serde_json::from_slice(&output.stdout).unwrap();
            let run = &report["scenarios"][0];
            let said = run["first_divergence"]["actual"].as_str().unwrap_or("");
            assert!(said.starts_with("left: uid "), "{said}");
            if sandbox == "limits" {
                // It did leave them (the test would prove nothing otherwise).
                assert!(said.contains(" /tmp /var/tmp /dev/shm"), "{said}");
                for kind in ["shm=", "msg=", "sem="] {
                    assert!(said.contains(kind), "{said}");
                }
            }
            assert_eq!(
                residue_left(said),
                Vec::<String>::new(),
                "{sandbox} {runner}"
            );
        }
    }
}

/// A spec file in `dir` holding the hostile game's scenario `count` times, named 1 to `count`.
fn hostile_game_times(dir: &Path, count: usize) -> PathBuf {
    let game = std::fs::read_to_string(root().join("tests/selftest/hostile_game.toml")).unwrap();
    let (head, scenario) = game.split_once("[[scenario]]").unwrap();
    let scenarios: String = (1..=count)
        .map(|n| {
            format!(
                "[[scenario]]{}",
                scenario.replace("example game", &n.to_string())
            )
        })
        .collect();
    let specs = dir.join(format!("{count}.toml"));
    std::fs::write(&specs, format!("{head}{scenarios}")).unwrap();
    specs
}

/// What each scenario of `specs` saw `fixtures/hostile/{fixture}` print where the scenario
/// expected otherwise (its first divergence), run under `sandbox` (with `env`), `runner` and
/// `jobs`; and the whole report.
fn what_each_said(
    specs: &Path,
    fixture: &str,
    sandbox: &str,
    env: &[(&str, &str)],
    runner: &str,
    jobs: usize,
) -> (Vec<String>, Value) {
    let output = boardgrade()
        .envs(env.iter().copied())
        .arg("test")
        .arg(specs)
        .arg("--python")
        .arg(root().join("fixtures/hostile").join(fixture))
        .args(["--sandbox", sandbox, "--python-runner", runner])
        .args(["--jobs", &jobs.to_string(), "--format", "json"])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let said = report["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            s["first_divergence"]["actual"]
                .as_str()
                .unwrap_or("?")
                .to_string()
        })
        .collect();
    (said, report)
}

#[test]
fn each_scenario_finds_no_mark_an_earlier_one_left() {
    let dir = tempfile::tempdir().unwrap();
    let specs = hostile_game_times(dir.path(), 3);
    let mut sandboxes = sandboxes();
    sandboxes.push(("none", Vec::new()));
    for (sandbox, env) in sandboxes {
        for runner in ["fork", "fresh"] {
            // One job, so that each scenario after the first reuses the folder of the one
            // before.
            let (found, report) =
                what_each_said(&specs, "leaves_marks.py", sandbox, &env, runner, 1);
            assert_eq!(
                found,
                vec!["found 0 left"; 3],
                "{sandbox} {runner}: {report:#}"
            );
        }
    }
}

#[test]
fn two_scenarios_of_one_submission_never_meet_in_the_shared_folders() {
    let dir = tempfile::tempdir().unwrap();
    // Enough scenarios for the loaded runner to load one runner per job.
    let count = 2 * boardgrade::execution::target::SCENARIOS_PER_RUNNER_START;
    let specs = hostile_game_times(dir.path(), count);
    for (sandbox, env) in sandboxes() {
        for runner in ["fork", "fresh"] {
            // Jobs enough for every scenario to run beside another.
            let (met, report) =
                what_each_said(&specs, "meets_its_twin.py", sandbox, &env, runner, 2);
            assert_eq!(met, vec!["met 0"; count], "{sandbox} {runner}: {report:#}");
        }
    }
}

#[test]
fn jobs_that_limits_cannot_use_are_said_to_be_unused() {
    let said = |sandbox: &str, env: &[(&str, &str)], jobs: &str| {
        let output = boardgrade()
            .envs(env.iter().copied())
            .arg("test")
            .arg(root().join("specs/one-d-chess/project5/move.toml"))
            .arg("--python")
            .arg(root().join("fixtures/one-d-chess/project5/one_d_chess.py"))
            .args(["--sandbox", sandbox, "--jobs", jobs, "--quiet"])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{output:?}");
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    for (sandbox, env) in sandboxes() {
        let unused = said(sandbox, &env, "2").contains("--jobs 2 is not used");
        assert_eq!(unused, sandbox == "limits", "{sandbox}");
        assert!(
            !said(sandbox, &env, "1").contains("is not used"),
            "{sandbox}"
        );
    }
}

/// What `snoop.py`, graded as a member of a class beside a classmate under `limits`, found,
/// and the warnings `grade` gave. The class folder gets `mode`.
fn snoop_in_class(mode: u32) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let class = common::make_class(
        &dir.path().join("class"),
        &[
            ("snoop", "hostile/snoop.py", "chess.py"),
            ("classmate", "one-d-chess/csc110/chess.py", "chess.py"),
        ],
    );
    std::fs::set_permissions(&class, std::fs::Permissions::from_mode(mode)).unwrap();
    let (_, report, stderr) = common::grade_json(&[
        class.to_str().unwrap(),
        "--specs",
        "tests/selftest/hostile_game.toml",
        "--out",
        dir.path().join("out").to_str().unwrap(),
        "--sandbox",
        "limits",
    ]);
    let snoop = report["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "snoop")
        .unwrap();
    let said = snoop["scenarios"][0]["first_divergence"]["actual"]
        .as_str()
        .unwrap()
        .to_string();
    (said, stderr)
}

#[test]
fn a_class_folder_every_user_can_read_is_named_and_closing_it_keeps_classmates_apart() {
    if !is_root() {
        return;
    }
    // Open: the student reads the classmate's code through the grader's command line, and the
    // grader says so beforehand.
    let (said, stderr) = snoop_in_class(0o755);
    assert!(said.contains("leak: class submissions"), "{said}");
    assert!(
        stderr.contains("class can be read by every user"),
        "{stderr}"
    );
    // Closed as the warning asks: nothing of the classmate is reachable, and no warning.
    let (said, stderr) = snoop_in_class(0o750);
    assert!(said.starts_with("uid 19"), "{said}");
    assert!(!said.contains("class submissions"), "{said}");
    assert!(!stderr.contains("class can be read"), "{stderr}");
}

#[test]
fn a_descriptor_the_grader_inherited_never_reaches_a_program() {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("wrapper.log");
    let file = std::fs::File::create(&log).unwrap();
    let mut sandboxes = sandboxes();
    sandboxes.push(("none", Vec::new()));
    for (sandbox, env) in sandboxes {
        for runner in ["fork", "fresh"] {
            let mut command = Command::new(env!("CARGO_BIN_EXE_boardgrade"));
            command
                .current_dir(root())
                .envs(env.iter().copied())
                .args(["test", "tests/selftest/hostile_game.toml", "--python"])
                .arg(root().join("fixtures/hostile/inherited_fds.py"))
                .args(["--sandbox", sandbox, "--python-runner", runner])
                .args(["--format", "json"]);
            // As a wrapper script's `exec 7>>wrapper.log` would leave it: open, inherited.
            let source = std::os::fd::AsRawFd::as_raw_fd(&file);
            // SAFETY: dup2 only, between fork and exec.
            unsafe {
                command.pre_exec(move || match libc::dup2(source, 7) {
                    7 => Ok(()),
                    _ => Err(std::io::Error::last_os_error()),
                });
            }
            let output = command.output().unwrap();
            let report: Value = serde_json::from_slice(&output.stdout).unwrap();
            let said = report["scenarios"][0]["first_divergence"]["actual"]
                .as_str()
                .unwrap_or("?");
            assert!(said.starts_with("inherited"), "{sandbox} {runner}: {said}");
            assert!(!said.contains("wrapper.log"), "{sandbox} {runner}: {said}");
            assert_eq!(
                std::fs::read_to_string(&log).unwrap(),
                "",
                "{sandbox} {runner}"
            );
        }
    }
}
