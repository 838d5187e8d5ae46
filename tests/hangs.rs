//! Hanging code costs one limit, not one per scenario: a class of correct project5
//! submissions with a module that sleeps at import, one whose `is_game_over` loops, one that
//! reads its input at import and one whose import takes a second, graded with `--jobs 2`
//! under both Python runners. The grades are asserted, not the time (the time is measured by
//! the `hangs` section of `benches/grading.rs`).

mod common;

use std::collections::BTreeSet;

use boardgrade::scenario::sources;
use common::{grade_json, hangs};
use serde_json::Value;

/// The submission `id` of a grade report.
fn member<'a>(report: &'a Value, id: &str) -> &'a Value {
    report["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == id)
        .unwrap_or_else(|| panic!("{id} is graded"))
}

/// The names of the scenarios of `submission` that did not pass, with verdict and detail.
fn not_passed(submission: &Value) -> Vec<(String, String, String)> {
    submission["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["verdict"] != "pass")
        .map(|s| {
            (
                s["name"].as_str().unwrap().to_string(),
                s["verdict"].as_str().unwrap().to_string(),
                s["detail"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

fn grade_class(correct: usize, runner: &str) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let class = hangs::write_class(dir.path(), correct);
    let out = dir.path().join("out");
    let (code, report, stderr) = grade_json(&[
        class.to_str().unwrap(),
        "--specs",
        "specs/one-d-chess/project5",
        "--jobs",
        "2",
        "--python-runner",
        runner,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "every submission is graded: {stderr}");
    report
}

/// The names of the bundled project5 scenarios whose input calls `is_game_over`.
fn calling_is_game_over() -> BTreeSet<String> {
    let files = sources::from_paths(&[common::root().join("specs/one-d-chess/project5")]).unwrap();
    sources::load_all(&files)
        .scenarios
        .iter()
        .filter(|s| {
            s.steps
                .iter()
                .any(|step| step.send.starts_with("is_game_over"))
        })
        .map(|s| s.name.clone())
        .collect()
}

/// The looper's failures are exactly the scenarios whose input calls `is_game_over`, each
/// a timeout naming the call.
fn assert_looper(report: &Value) {
    let looper = member(report, "looper");
    let failed = not_passed(looper);
    for (name, verdict, detail) in &failed {
        assert_eq!(verdict, "timeout", "{name}");
        assert_eq!(detail, "is_game_over did not return within 2 s", "{name}");
    }
    let failed: BTreeSet<String> = failed.into_iter().map(|(name, _, _)| name).collect();
    let calling = calling_is_game_over();
    assert!(!calling.is_empty());
    assert_eq!(failed, calling);
    assert!(looper["does_not_load"].is_null());
}

fn assert_grades(report: &Value, correct: usize) {
    for n in 1..=correct {
        let s = member(report, &format!("correct-{n:02}"));
        assert_eq!(s["score"], s["max_score"], "{s}");
    }
    // Slow but correct: full marks.
    let slow = member(report, "slow");
    assert_eq!(slow["score"], slow["max_score"], "{:?}", not_passed(slow));
    assert!(slow["does_not_load"].is_null());
    // Reading input at import meets the end of an empty input at once (never the protocol's
    // commands, never a wait): its functions are graded as they are.
    let reader = member(report, "reader");
    assert_eq!(
        reader["score"],
        reader["max_score"],
        "{:?}",
        not_passed(reader)
    );
    // The sleeper does not load: one finding that says where it was, no scenario run.
    let sleeper = member(report, "sleeper");
    assert_eq!(sleeper["score"], 0.0);
    assert_eq!(sleeper["scenarios"].as_array().unwrap().len(), 0);
    assert_eq!(
        sleeper["does_not_load"],
        serde_json::json!({
            "file": "one_d_chess.py",
            "line": 3,
            "message": "the import did not finish in 10 s; it was in `time.sleep`"
        })
    );
    assert_looper(report);
}

#[test]
fn a_class_with_hangs_grades_each_hang_once_under_the_loaded_runner() {
    let report = grade_class(20, "fork");
    assert_eq!(report["submissions"].as_array().unwrap().len(), 24);
    assert_grades(&report, 20);
}

#[test]
fn a_class_with_hangs_grades_each_hang_once_under_fresh_processes() {
    let report = grade_class(1, "fresh");
    assert_grades(&report, 1);
}

/// A class of two folders, `a-...` graded first, and its `grade --jobs 1` report on the
/// specs `specs`, with the order the submissions finished in.
fn grade_in_order(first: (&str, &str), second: (&str, &str), specs: &str) -> (Value, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    for (name, text) in [first, second] {
        std::fs::create_dir_all(class.join(name)).unwrap();
        std::fs::write(class.join(name).join("one_d_chess.py"), text).unwrap();
    }
    let out = dir.path().join("out");
    let (code, report, stderr) = grade_json(&[
        class.to_str().unwrap(),
        "--specs",
        specs,
        "--jobs",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    // Each submission's line on stderr, as it finishes: `[1/2] b-correct 6/6`.
    let finished = stderr
        .lines()
        .filter(|l| l.starts_with('['))
        .filter_map(|l| l.split_whitespace().nth(1))
        .map(str::to_string)
        .collect();
    (report, finished)
}

#[test]
fn a_scenario_that_sleeps_leaves_its_job_slot_to_the_next_submission() {
    // With one job, `a-slow` comes first; each of its `move_king` calls sleeps 0.8 s (within
    // the 2 s call limit): its slot is lent while a scenario sleeps, and `b-correct` is
    // graded meanwhile. Both get full marks.
    let correct = std::fs::read_to_string(
        common::root().join("fixtures/one-d-chess/project5/one_d_chess.py"),
    )
    .unwrap();
    let slow = correct.replacen(
        "def move_king(board, position, direction):\n",
        "def move_king(board, position, direction):\n    __import__('time').sleep(0.8)\n",
        1,
    );
    assert_ne!(slow, correct);
    let (report, finished) = grade_in_order(
        ("a-slow", &slow),
        ("b-correct", &correct),
        "specs/one-d-chess/project5/move_king.toml",
    );
    for id in ["a-slow", "b-correct"] {
        assert_eq!(
            member(&report, id)["score"],
            member(&report, id)["max_score"],
            "{id}"
        );
    }
    assert_eq!(finished, ["b-correct", "a-slow"]);
}

#[test]
fn an_import_that_sleeps_leaves_its_job_slot_to_the_next_submission() {
    // With one job, `a-sleeper` comes first; its import check waits out its limit on the
    // wall clock while `b-correct` takes the slot and is graded.
    let correct = std::fs::read_to_string(
        common::root().join("fixtures/one-d-chess/project5/one_d_chess.py"),
    )
    .unwrap();
    let sleeper = hangs::hanging_members(&correct)
        .into_iter()
        .find(|(name, _)| *name == "sleeper")
        .unwrap()
        .1;
    let (report, finished) = grade_in_order(
        ("a-sleeper", &sleeper),
        ("b-correct", &correct),
        "specs/one-d-chess/project5/move_king.toml",
    );
    assert_eq!(
        member(&report, "b-correct")["score"],
        member(&report, "b-correct")["max_score"]
    );
    assert!(member(&report, "a-sleeper")["does_not_load"].is_object());
    assert_eq!(finished, ["b-correct", "a-sleeper"]);
}

/// An import that turns the adapter's alarm off and computes on is ended by the CPU-time
/// limit, not its import limit: the import check takes that as an import that did not
/// finish, one finding for the submission, not a timeout in every scenario.
#[test]
fn an_import_that_outlasts_its_alarm_is_one_finding() {
    let dir = tempfile::tempdir().unwrap();
    let class = common::make_class(
        &dir.path().join("class"),
        &[(
            "spinner",
            "one-d-chess/project5/one_d_chess.py",
            "one_d_chess.py",
        )],
    );
    // A correct submission, then the alarm turned off and a loop that never ends (a `for`
    // of assignments, which the adapter keeps at load).
    let entry = class.join("spinner/one_d_chess.py");
    let correct = std::fs::read_to_string(&entry).unwrap();
    let spins = "import itertools\nimport signal\n\nsignal.signal(signal.SIGALRM, signal.SIG_IGN)\n\
                 signal.setitimer(signal.ITIMER_REAL, 0)\nfor _ in itertools.count():\n    SPIN = 1\n";
    std::fs::write(&entry, format!("{correct}\n{spins}")).unwrap();
    let specs = common::project5_specs(dir.path(), &["move.toml"]);
    let (code, report, stderr) = grade_json(&[
        class.to_str().unwrap(),
        "--specs",
        specs.to_str().unwrap(),
        "--import-limit",
        "1",
        "--jobs",
        "1",
        "--out",
        dir.path().join("out").to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let spinner = member(&report, "spinner");
    let why = spinner["does_not_load"]["message"]
        .as_str()
        .unwrap_or_default();
    assert!(
        why.contains("still computing at the CPU-time limit"),
        "{spinner}"
    );
    assert_eq!(spinner["score"].as_f64(), Some(0.0), "{spinner}");
}

/// An import that takes 2 s against an import limit of 1 s does not load under either
/// runner (the loaded runner's load is held to the import limit too, where its own wait is
/// longer), and loads under both against a limit of 4 s.
#[test]
fn both_runners_hold_an_import_to_the_import_limit() {
    let dir = tempfile::tempdir().unwrap();
    let class = class_of_one(dir.path(), "slow", "import time\nSLOW = time.sleep(2)\n");
    let specs = common::project5_specs(dir.path(), &["move.toml"]);
    for runner in ["fork", "fresh"] {
        for (limit, loads) in [("1", false), ("4", true)] {
            let out = dir.path().join(format!("out-{runner}-{limit}"));
            let (code, report, stderr) = grade_json(&[
                class.to_str().unwrap(),
                "--specs",
                specs.to_str().unwrap(),
                "--import-limit",
                limit,
                "--python-runner",
                runner,
                "--out",
                out.to_str().unwrap(),
            ]);
            assert_eq!(code, 0, "{stderr}");
            let slow = member(&report, "slow");
            let context = format!("{runner}, limit {limit}: {slow}");
            if loads {
                assert!(slow["does_not_load"].is_null(), "{context}");
                assert_eq!(slow["score"], slow["max_score"], "{context}");
            } else {
                let why = slow["does_not_load"]["message"]
                    .as_str()
                    .unwrap_or_default();
                assert_eq!(
                    why, "the import did not finish in 1 s; it was in `time.sleep`",
                    "{context}"
                );
                assert_eq!(slow["score"].as_f64(), Some(0.0), "{context}");
            }
        }
    }
}

/// An import that spends 2 s of CPU, against a scenario's limit of 1 s: a fresh process
/// spends the limit importing, and a copy of the loaded runner could not be held to less
/// than a second of its own (the kernel takes a CPU limit of 0 as 1), so the scenario runs
/// in a fresh process under both runners: `timeout` both ways, where the fork once passed.
#[test]
fn an_imports_cpu_time_counts_against_each_scenario_under_both_runners() {
    let dir = tempfile::tempdir().unwrap();
    // A top-level assignment, which the adapter runs (a bare loop it would not).
    let spin = "import time\n\n\ndef _spin(seconds):\n    start = time.process_time()\n\
                \x20   while time.process_time() - start < seconds:\n        pass\n\
                \x20   return seconds\n\n\nBUSY = _spin(2.0)\n";
    let class = class_of_one(dir.path(), "busy", spin);
    let specs = dir.path().join("specs");
    std::fs::create_dir_all(&specs).unwrap();
    std::fs::write(
        specs.join("start.toml"),
        "game = \"one-d-chess\"\ndialect = \"project5\"\ntime_limit = 1\n\
         [[scenario]]\nname = \"the start\"\npoints = 1\nsteps = [{ send = \"create_board\" }]\n",
    )
    .unwrap();
    for runner in ["fork", "fresh"] {
        let out = dir.path().join(format!("out-{runner}"));
        let (code, report, stderr) = grade_json(&[
            class.to_str().unwrap(),
            "--specs",
            specs.to_str().unwrap(),
            "--python-runner",
            runner,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{stderr}");
        let busy = member(&report, "busy");
        assert!(busy["does_not_load"].is_null(), "{runner}: {busy}");
        let verdicts: Vec<&Value> = (busy["scenarios"].as_array().into_iter().flatten())
            .map(|s| &s["verdict"])
            .collect();
        assert_eq!(verdicts, ["timeout"], "{runner}: {busy}");
    }
}

/// A class folder in `dir` of one member, `id`: the correct project5 file with `prefix`
/// before its first line.
fn class_of_one(dir: &std::path::Path, id: &str, prefix: &str) -> std::path::PathBuf {
    let entry = "one_d_chess.py";
    let class = common::make_class(
        &dir.join("class"),
        &[(id, "one-d-chess/project5/one_d_chess.py", entry)],
    );
    let file = class.join(id).join(entry);
    let correct = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, format!("{prefix}{correct}")).unwrap();
    class
}
