//! A grader-side failure is never a grade: a sandbox that passes its check and then fails
//! every scenario leaves the submission "not graded: needs a re-run" in every output, with
//! the scenarios' points kept in the maximum, exit code 3, a refusal on Gradescope and
//! `gradable: false` on PrairieLearn; and a submission that does not load is said so on
//! both platforms.

mod common;

use std::path::Path;

use common::{boardgrade, root};
use serde_json::Value;

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&read(path)).unwrap()
}

/// Points of the scenario files given, from the specs (every scenario of project5's
/// `is_valid_move.toml` and `move_king.toml`).
fn points_of(specs: &Path) -> f64 {
    let output = boardgrade()
        .arg("test")
        .arg(specs)
        .args(["--format", "json"])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    report["summary"]["max_score"].as_f64().unwrap()
}

#[test]
fn a_sandbox_that_fails_mid_run_marks_the_submission_for_a_rerun_everywhere() {
    if !boardgrade::execution::sandbox::bwrap_works() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let specs = common::project5_specs(dir.path(), &["is_valid_move.toml", "move_king.toml"]);
    let maximum = points_of(&specs);
    assert!(maximum > 0.0);
    let class = common::make_class(
        &dir.path().join("class"),
        &[(
            "ana",
            "one-d-chess/project5/one_d_chess.py",
            "one_d_chess.py",
        )],
    );
    let fake = common::bwrap_failing_after_probe(&dir.path().join("fake"));
    let out = dir.path().join("out");
    let reports = [
        format!("json={}", dir.path().join("all.json").display()),
        format!("html={}", dir.path().join("report.html").display()),
    ];
    let output = boardgrade()
        .env("BOARDGRADE_BWRAP", &fake)
        .arg("grade")
        .arg(&class)
        .args(["--specs"])
        .arg(&specs)
        .args(["--sandbox", "bwrap", "--out"])
        .arg(&out)
        .args(["--report", &reports[0], "--report", &reports[1]])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(3), "{output:?}");
    assert!(
        stdout.contains("not graded: needs a re-run"),
        "the terminal line: {stdout}"
    );

    // Every scenario is a grader `error` that keeps its points in the maximum.
    let document = read_json(&dir.path().join("all.json"));
    let ana = &document["submissions"][0];
    assert_eq!(ana["needs_rerun"], true, "{ana:#}");
    assert_eq!(ana["score"].as_f64(), Some(0.0));
    assert_eq!(ana["max_score"].as_f64(), Some(maximum));
    for scenario in ana["scenarios"].as_array().unwrap() {
        assert_eq!(scenario["verdict"], "error", "{scenario:#}");
        assert!(
            scenario["max_score"].as_f64().unwrap() > 0.0,
            "{scenario:#}"
        );
    }
    assert!(ana["error"]
        .as_str()
        .unwrap()
        .contains("sandbox (bubblewrap) failed"));

    let grades = read(&out.join("grades.csv"));
    let row = grades.lines().nth(1).unwrap();
    assert!(
        row.starts_with(&format!("ana,project5,0,{maximum},")),
        "{grades}"
    );
    assert!(row.contains("not graded: needs a re-run"), "{grades}");
    assert_eq!(
        read(&out.join("gradebook.csv")),
        "student,boardgrade\nana,\n"
    );
    let summary = read(&out.join("summary.txt"));
    assert!(summary.contains("1 not graded"), "{summary}");
    assert!(summary.contains("needs a re-run"), "{summary}");
    assert!(summary.contains(": ana\n"), "{summary}");
    let summary_json = read_json(&out.join("summary.json"));
    assert_eq!(summary_json["needs_rerun"], serde_json::json!(["ana"]));
    let html = read(&dir.path().join("report.html"));
    assert!(
        html.contains("not graded: needs a re-run"),
        "the class report"
    );

    // One submission's platform files say the same: no grade.
    let single = dir.path().join("single");
    let (gradescope, prairielearn) = (dir.path().join("gs.json"), dir.path().join("pl.json"));
    let output = boardgrade()
        .env("BOARDGRADE_BWRAP", &fake)
        .arg("grade")
        .arg(class.join("ana"))
        .args(["--specs"])
        .arg(&specs)
        .args(["--sandbox", "bwrap", "--out"])
        .arg(&single)
        .arg("--report")
        .arg(format!("gradescope={}", gradescope.display()))
        .arg("--report")
        .arg(format!("prairielearn={}", prairielearn.display()))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(3), "{output:?}");
    let gradescope = read_json(&gradescope);
    common::schema::assert_valid("gradescope", &gradescope, "--report gradescope");
    assert_eq!(gradescope["extra_data"]["needs_rerun"], true);
    assert_eq!(gradescope["tests"][0]["visibility"], "hidden");
    assert!(gradescope["output"]
        .as_str()
        .unwrap()
        .contains("This is not a grade"));
    let prairielearn = read_json(&prairielearn);
    common::schema::assert_valid("prairielearn", &prairielearn, "--report prairielearn");
    assert_eq!(prairielearn["gradable"], false, "{prairielearn:#}");
    assert!(prairielearn["message"]
        .as_str()
        .unwrap()
        .contains("needs a re-run"));

    // Once the sandbox works again, --resume grades it (a result that needs a re-run is
    // never reused) and the class is whole: exit 0.
    let output = boardgrade()
        .arg("grade")
        .arg(&class)
        .args(["--specs"])
        .arg(&specs)
        .args(["--sandbox", "bwrap", "--resume", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let grades = read(&out.join("grades.csv"));
    assert!(
        grades.contains(&format!("ana,project5,{maximum},{maximum},")),
        "{grades}"
    );
    assert_eq!(
        read(&out.join("gradebook.csv")),
        format!("student,boardgrade\nana,{maximum}\n")
    );
}

#[test]
fn grade_and_merge_exit_0_for_a_class_with_failing_students() {
    let dir = tempfile::tempdir().unwrap();
    let specs = common::project5_specs(dir.path(), &["is_valid_move.toml"]);
    let class = common::make_class(
        &dir.path().join("class"),
        &[
            (
                "ana",
                "one-d-chess/project5/one_d_chess.py",
                "one_d_chess.py",
            ),
            (
                "bo",
                "one-d-chess/project5/bug-negative-index.py",
                "one_d_chess.py",
            ),
        ],
    );
    let mut parts = Vec::new();
    for k in 1..=2 {
        let out = dir.path().join(format!("part{k}"));
        let output = boardgrade()
            .arg("grade")
            .arg(&class)
            .arg("--specs")
            .arg(&specs)
            .args(["--partition", &format!("{k}/2"), "--out"])
            .arg(&out)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{output:?}");
        parts.push(out);
    }
    let merged = dir.path().join("merged");
    let output = boardgrade()
        .arg("merge")
        .args(&parts)
        .arg("--out")
        .arg(&merged)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let grades = read(&merged.join("grades.csv"));
    let bo = grades.lines().find(|l| l.starts_with("bo,")).unwrap();
    let fields: Vec<&str> = bo.split(',').collect();
    assert_ne!(fields[2], fields[3], "bo fails a scenario: {grades}");
}

#[test]
fn gradescope_refuses_to_grade_when_the_sandbox_fails_after_its_check() {
    if !boardgrade::execution::sandbox::bwrap_works() || !common::is_root() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let zip = dir.path().join("autograder.zip");
    boardgrade()
        .args(["gradescope", "--specs"])
        .arg(root().join("tests/selftest/hostile_game.toml"))
        .arg("--out")
        .arg(&zip)
        .assert()
        .success();
    let layout = dir.path().join("autograder");
    std::fs::create_dir_all(layout.join("submission")).unwrap();
    common::unzip(&zip, &layout.join("source"));
    std::fs::copy(
        root().join("fixtures/one-d-chess/csc110/chess.py"),
        layout.join("submission/chess.py"),
    )
    .unwrap();
    let fake = common::bwrap_failing_after_probe(&dir.path().join("fake"));
    let output = std::process::Command::new("bash")
        .arg(layout.join("source/run_autograder"))
        .env("AUTOGRADER_ROOT", &layout)
        .env("BOARDGRADE_BWRAP", &fake)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let log = String::from_utf8_lossy(&output.stdout);
    assert!(log.contains("NOT GRADED"), "{log}");
    let results = read_json(&layout.join("results/results.json"));
    common::schema::assert_valid("gradescope", &results, "the refusal");
    assert_eq!(results["score"].as_f64(), Some(0.0));
    assert!(results["output"]
        .as_str()
        .unwrap()
        .contains("so this is not a grade"));
    let reason = &results["tests"][0];
    assert_eq!(reason["visibility"], "hidden");
    let reason = reason["output"].as_str().unwrap();
    assert!(
        reason.contains("the grader failed while grading"),
        "{reason}"
    );
    assert!(reason.contains("mount proc"), "{reason}");
}

#[test]
fn a_submission_that_does_not_load_is_not_gradable_on_prairielearn_and_one_failing_test_on_gradescope(
) {
    let dir = tempfile::tempdir().unwrap();
    let specs = common::project5_specs(dir.path(), &["is_valid_move.toml"]);
    let maximum = points_of(&specs);
    let student = dir.path().join("student");
    std::fs::create_dir_all(&student).unwrap();
    std::fs::write(
        student.join("one_d_chess.py"),
        "def is_valid_move(board, index, direction):\n    return (\n",
    )
    .unwrap();
    let (gradescope, prairielearn) = (dir.path().join("gs.json"), dir.path().join("pl.json"));
    let output = boardgrade()
        .arg("grade")
        .arg(&student)
        .arg("--specs")
        .arg(&specs)
        .arg("--out")
        .arg(dir.path().join("out"))
        .arg("--report")
        .arg(format!("gradescope={}", gradescope.display()))
        .arg("--report")
        .arg(format!("prairielearn={}", prairielearn.display()))
        .output()
        .unwrap();
    // The submission was graded (it scores 0): a batch job that did its work.
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let prairielearn = read_json(&prairielearn);
    common::schema::assert_valid("prairielearn", &prairielearn, "--report prairielearn");
    assert_eq!(prairielearn["gradable"], false, "{prairielearn:#}");
    let message = prairielearn["message"].as_str().unwrap();
    assert!(message.contains("does not load"), "{message}");
    assert!(message.contains("one_d_chess.py:2"), "{message}");
    assert!(message.contains("costs no attempt"), "{message}");

    let gradescope = read_json(&gradescope);
    common::schema::assert_valid("gradescope", &gradescope, "--report gradescope");
    let tests = gradescope["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 1, "{gradescope:#}");
    assert_eq!(tests[0]["visibility"], "visible");
    assert_eq!(tests[0]["status"], "failed");
    assert_eq!(tests[0]["score"].as_f64(), Some(0.0));
    assert_eq!(tests[0]["max_score"].as_f64(), Some(maximum));
    let shown = tests[0]["output"].as_str().unwrap();
    assert!(shown.contains("does not load"), "{shown}");
    assert!(shown.contains("one_d_chess.py:2"), "{shown}");
}

/// A submission too large or too deep to grade (a terabyte sparse file, folders nested past
/// what a jail can open) is never read: it scores 0, the student's own result, with the
/// reason, and the classmates beside it are graded at once, never left waiting or marked
/// for a re-run. A student's self-check says the same in one line.
#[test]
fn a_submission_too_large_or_too_deep_to_grade_scores_0_without_stalling_the_class() {
    let dir = tempfile::tempdir().unwrap();
    let specs = common::project5_specs(dir.path(), &["is_valid_move.toml"]);
    let fixture = "one-d-chess/project5/one_d_chess.py";
    let class = common::make_class(
        &dir.path().join("class"),
        &[
            ("ana", fixture, "one_d_chess.py"),
            ("bea", fixture, "one_d_chess.py"),
            ("cid", fixture, "one_d_chess.py"),
        ],
    );
    let sparse = std::fs::File::create(class.join("bea/data.bin")).unwrap();
    sparse.set_len(1 << 40).unwrap();
    let mut deep = class.join("cid");
    for _ in 0..25 {
        deep.push("d".repeat(100));
    }
    std::fs::create_dir_all(&deep).unwrap();
    std::fs::write(deep.join("notes.txt"), "hi").unwrap();

    let started = std::time::Instant::now();
    let (code, report, stderr) = common::grade_json(&[
        class.to_str().unwrap(),
        "--specs",
        specs.to_str().unwrap(),
        "--jobs",
        "1",
    ]);
    assert_eq!(code, 0, "{stderr}");
    // Reading the terabyte would take hours: the class is graded as if it were not there.
    assert!(started.elapsed() < std::time::Duration::from_secs(60));
    let result = |id: &str| {
        let all = report["submissions"].as_array().unwrap();
        all.iter().find(|s| s["id"] == id).unwrap().clone()
    };
    let ana = result("ana");
    assert_eq!(ana["score"], ana["max_score"], "{ana}");
    for (id, why) in [
        (
            "bea",
            "too large to grade: its files hold more than 1 GiB (data.bin",
        ),
        (
            "cid",
            "too deep to grade: a path inside it is longer than 2048 bytes",
        ),
    ] {
        let failed = result(id);
        assert_eq!(failed["score"].as_f64(), Some(0.0), "{failed}");
        assert_eq!(failed["needs_rerun"], false, "{failed}");
        let error = failed["error"].as_str().unwrap_or_default();
        assert!(error.contains(why), "{id}: {failed}");
    }

    let output = boardgrade()
        .args(["test", "--python"])
        .arg(class.join("bea"))
        .arg(&specs)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("too large to grade"), "{stderr}");
}
