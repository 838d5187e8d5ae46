//! A class of hostile submissions graded in one run: each gets its verdict, the run comes
//! back within its limits, and nothing the submissions started is left running.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::boardgrade;
use serde_json::Value;

/// (fixture, verdict) against a whole csc110 game.
const HOSTILE: &[(&str, &str)] = &[
    ("infinite_loop.py", "timeout"),
    ("sleep_forever.py", "timeout"),
    ("fork_bomb.py", "timeout"),
    ("memory_hog.py", "memory-limit"),
    ("endless_line.py", "output-limit"),
    ("background_child.py", "wrong"),
    ("reads_specs.py", "wrong"),
    ("writes_outside.py", "wrong"),
    ("closes_stdout.py", "wrong"),
    ("invalid_utf8.py", "wrong"),
    ("exits_nonzero.py", "wrong"),
];

/// Live processes (not zombies) whose working folder is under `root`.
fn processes_under(root: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(cwd) = std::fs::read_link(entry.path().join("cwd")) else {
            continue;
        };
        let status = std::fs::read_to_string(entry.path().join("status")).unwrap_or_default();
        let zombie = status
            .lines()
            .any(|l| l.starts_with("State:") && l.contains('Z'));
        if !zombie && cwd.starts_with(root) {
            found.push(format!("{:?} in {}", entry.file_name(), cwd.display()));
        }
    }
    found
}

fn copy_as(fixture: &Path, class: &Path, name: &str) {
    let folder = class.join(name);
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::copy(fixture, folder.join("chess.py")).unwrap();
}

fn grade_class(sandbox: &str) -> (Value, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let (class, specs, out) = (
        dir.path().join("class"),
        dir.path().join("specs"),
        dir.path().join("out"),
    );
    let scratch = dir.path().join("scratch");
    std::fs::create_dir_all(&specs).unwrap();
    std::fs::create_dir_all(&scratch).unwrap();
    std::fs::copy(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/selftest/hostile_game.toml"
        ),
        specs.join("game.toml"),
    )
    .unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (fixture, _) in HOSTILE {
        copy_as(
            &root.join("fixtures/hostile").join(fixture),
            &class,
            fixture.trim_end_matches(".py"),
        );
    }
    copy_as(
        &root.join("fixtures/one-d-chess/csc110/chess.py"),
        &class,
        "correct",
    );
    let started = Instant::now();
    let output = boardgrade()
        // Scratch folders go here, so leftovers of this run alone can be found.
        .env("TMPDIR", &scratch)
        .args([
            "grade",
            class.to_str().unwrap(),
            "--specs",
            specs.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .args([
            "--format",
            "json",
            "--jobs",
            "2",
            "--memory-limit",
            "512",
            "--output-limit",
            "65536",
            "--sandbox",
            sandbox,
        ])
        .output()
        .unwrap();
    // Three timeouts of 3 s each on two workers, plus Python start-ups.
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{sandbox}: took {:?}",
        started.elapsed()
    );
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    (serde_json::from_slice(&output.stdout).unwrap(), dir)
}

fn verdict_of<'a>(report: &'a Value, id: &str) -> &'a Value {
    let result = report["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == id)
        .unwrap_or_else(|| panic!("no {id}"));
    &result["scenarios"][0]
}

#[test]
fn every_hostile_submission_gets_its_verdict_and_leaves_nothing_behind() {
    let mut sandboxes = vec!["limits"];
    if boardgrade::execution::sandbox::bwrap_works() {
        sandboxes.push("bwrap");
    }
    for sandbox in sandboxes {
        let outside = Path::new("/tmp/pwned-by-submission.txt");
        let _ = std::fs::remove_file(outside);
        let (report, dir) = grade_class(sandbox);
        assert_eq!(
            verdict_of(&report, "correct")["verdict"],
            "pass",
            "{sandbox}"
        );
        // The grader kept the floods and the hog out of its own memory.
        let rss = report["grader"]["max_rss_kib"].as_u64().unwrap();
        assert!(rss > 0 && rss < 100 * 1024, "grader peak memory {rss} KiB");
        assert_eq!(report["grader"]["sandbox"], sandbox);
        for (fixture, verdict) in HOSTILE {
            let outcome = verdict_of(&report, fixture.trim_end_matches(".py"));
            assert_eq!(
                outcome["verdict"], *verdict,
                "{sandbox} {fixture}: {outcome:#}"
            );
        }
        let utf8 = verdict_of(&report, "invalid_utf8");
        assert!(utf8["first_divergence"]["actual"]
            .as_str()
            .unwrap()
            .contains("\\xFF\\xFE bad \\x80"));
        std::thread::sleep(Duration::from_millis(300));
        assert_eq!(
            processes_under(dir.path()),
            Vec::<String>::new(),
            "{sandbox}"
        );
        assert!(!dir.path().join("class/writes_outside/pwned.txt").exists());
        assert!(!dir.path().join("class/pwned.txt").exists());
        if sandbox != "bwrap" {
            // Without bubblewrap, /tmp is shared: the program could write there (the grader
            // removes it when the run ends, but graders of other checkouts may run beside).
            let _ = std::fs::remove_file(outside);
        } else {
            // Under bubblewrap the program saw neither the specs nor the real /tmp.
            let found = verdict_of(&report, "reads_specs")["first_divergence"]["actual"]
                .as_str()
                .unwrap()
                .to_string();
            assert!(
                !found.contains(dir.path().join("specs").to_str().unwrap()),
                "{found}"
            );
            // It may have written to its private /tmp, never to the real one.
            assert!(!outside.exists());
        }
    }
}

/// An endless loop killed at its CPU-time limit used all of its own time, whatever ran beside
/// it: it is not run again alone (a class with endless loops would wait for each one twice).
#[test]
fn a_loop_killed_at_its_cpu_limit_runs_once_beside_others() {
    // The runs are counted in a file the student users can append to.
    let dir = tempfile::Builder::new().tempdir_in("/tmp").unwrap();
    let shared = dir.path().join("shared");
    std::fs::create_dir(&shared).unwrap();
    for (path, mode) in [(dir.path(), 0o755), (shared.as_path(), 0o755)] {
        std::fs::set_permissions(path, std::os::unix::fs::PermissionsExt::from_mode(mode)).unwrap();
    }
    let runs = shared.join("runs.txt");
    std::fs::write(&runs, "").unwrap();
    std::fs::set_permissions(&runs, std::os::unix::fs::PermissionsExt::from_mode(0o666)).unwrap();
    let (class, specs, out) = (
        dir.path().join("class"),
        dir.path().join("specs"),
        dir.path().join("out"),
    );
    std::fs::create_dir_all(&specs).unwrap();
    let game = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/selftest/hostile_game.toml"
    ))
    .unwrap()
    .replace("time_limit = 3", "time_limit = 1");
    std::fs::write(specs.join("game.toml"), game).unwrap();
    let program = format!(
        "with open({:?}, 'a') as runs:\n    runs.write('run\\n')\nwhile True:\n    pass\n",
        runs.to_str().unwrap()
    );
    for name in ["first", "second"] {
        std::fs::create_dir_all(class.join(name)).unwrap();
        std::fs::write(class.join(name).join("chess.py"), &program).unwrap();
    }
    let (_, report, _) = common::grade_json(&[
        class.to_str().unwrap(),
        "--specs",
        specs.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--jobs",
        "2",
        "--sandbox",
        "limits",
    ]);
    for name in ["first", "second"] {
        let scenario = verdict_of(&report, name);
        assert_eq!(scenario["verdict"], "timeout", "{name}: {scenario:#}");
        assert!(
            scenario["detail"]
                .as_str()
                .is_some_and(|d| d.contains("CPU-time limit")),
            "{name}: {scenario:#}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(&runs).unwrap().lines().count(),
        2,
        "each loop ran once"
    );
}
