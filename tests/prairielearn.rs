//! PrairieLearn's external grader through the real binary: `boardgrade prairielearn` writes
//! the course files, and its entrypoint, run with PrairieLearn's mount layout (`/grade/...`)
//! under a scratch root, grades a correct, a buggy and a hostile submission and always
//! writes `results.json`.

mod common;

use std::path::{Path, PathBuf};
use std::process::Stdio;

use common::{boardgrade, copy_tree, root};
use serde_json::Value;

const ONE_D: &str = "one_d_chess.py";

/// A submission that forges a perfect result where PrairieLearn reads it, then hangs.
const FORGER: &str = r#"import os, time


def move_king(board, position, direction):
    root = os.environ.get("PL_GRADE_ROOT", "/grade")
    try:
        with open(root + "/results/results.json", "w") as f:
            f.write('{"gradable": true, "score": 1.0, "message": "forged"}')
    except OSError:
        pass
    time.sleep(60)
"#;

/// The course files for two scenario files of one-d-chess, one of them hidden, with short
/// time limits so that a hanging submission is cut quickly.
fn course(dir: &Path) -> PathBuf {
    course_with(dir, &[])
}

/// The same course files, written with `extra` arguments.
fn course_with(dir: &Path, extra: &[&std::ffi::OsStr]) -> PathBuf {
    let specs = dir.join("specs");
    std::fs::create_dir_all(&specs).unwrap();
    let limit = |text: String| {
        text.replace(
            "dialect = \"project5\"",
            "dialect = \"project5\"\ntime_limit = 3",
        )
    };
    let visible =
        std::fs::read_to_string(root().join("specs/one-d-chess/project5/move_king.toml")).unwrap();
    std::fs::write(specs.join("move_king.toml"), limit(visible)).unwrap();
    let hidden =
        std::fs::read_to_string(root().join("specs/one-d-chess/project5/is_valid_move.toml"))
            .unwrap()
            .replace(
                "dialect = \"project5\"",
                "dialect = \"project5\"\nvisibility = \"hidden\"\nhidden_message = \"Check the board's bounds.\"",
            );
    std::fs::write(specs.join("is_valid_move.toml"), limit(hidden)).unwrap();
    let out = dir.join("course");
    let output = boardgrade()
        .arg("prairielearn")
        .arg("--specs")
        .arg(&specs)
        .arg("--out")
        .arg(&out)
        .args(["--question", "one-d-chess"])
        .args(extra)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    out
}

/// Runs the entrypoint as PrairieLearn would, with `/grade` moved under `scratch`, and
/// returns results.json.
fn grade_in_layout(course: &Path, scratch: &Path, submission: &str) -> Value {
    run_in_layout(course, scratch, submission, true)
}

/// The same, with or without the question's tests (its specs) mounted.
fn run_in_layout(course: &Path, scratch: &Path, submission: &str, with_tests: bool) -> Value {
    let student = Student {
        file: ONE_D,
        source: submission,
        env: &[],
    };
    run_student(course, scratch, &student, with_tests)
}

/// A student's file, and the environment the entrypoint runs in.
struct Student<'a> {
    file: &'a str,
    source: &'a str,
    env: &'a [(&'a str, &'a str)],
}

fn run_student(course: &Path, scratch: &Path, student: &Student, with_tests: bool) -> Value {
    let (submission, file) = (student.source, student.file);
    let grade = scratch.join("grade");
    copy_tree(
        &course.join("serverFilesCourse"),
        &grade.join("serverFilesCourse"),
    );
    std::fs::create_dir_all(grade.join("tests")).unwrap();
    if with_tests {
        copy_tree(
            &course.join("questions/one-d-chess/tests"),
            &grade.join("tests"),
        );
    }
    std::fs::create_dir_all(grade.join("student")).unwrap();
    std::fs::write(grade.join("student").join(file), submission).unwrap();
    let status = std::process::Command::new("bash")
        .arg(grade.join("serverFilesCourse/boardgrade/run.sh"))
        .env("PL_GRADE_ROOT", &grade)
        .envs(student.env.iter().copied())
        // The system's programs only, as in PrairieLearn's image (not a user's own Python).
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let text = std::fs::read_to_string(grade.join("results/results.json")).unwrap();
    let results = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    common::schema::assert_valid("prairielearn", &results, "results.json");
    results
}

fn fixture_text(path: &str) -> String {
    fixture(path)
}

fn fixture(path: &str) -> String {
    std::fs::read_to_string(root().join("fixtures").join(path)).unwrap()
}

#[test]
fn the_course_files_ask_for_external_grading() {
    let dir = tempfile::tempdir().unwrap();
    let course = course(dir.path());
    let info: Value = serde_json::from_str(
        &std::fs::read_to_string(course.join("questions/one-d-chess/info.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(info["gradingMethod"], "External");
    let options = &info["externalGradingOptions"];
    assert_eq!(options["enabled"], true);
    assert_eq!(
        options["entrypoint"],
        "/grade/serverFilesCourse/boardgrade/run.sh"
    );
    assert_eq!(
        options["serverFilesCourse"],
        serde_json::json!(["boardgrade/"])
    );
    assert!(options["image"].as_str().unwrap().contains("python"));
    assert_eq!(info["uuid"].as_str().unwrap().len(), 36);
    let html = std::fs::read_to_string(course.join("questions/one-d-chess/question.html")).unwrap();
    assert!(html.contains("file-names=\"one_d_chess.py\""), "{html}");
    assert!(course
        .join("questions/one-d-chess/tests/specs/move_king.toml")
        .is_file());
}

#[test]
fn correct_buggy_and_hostile_submissions_get_their_scores_and_always_a_result() {
    let dir = tempfile::tempdir().unwrap();
    let course = course(dir.path());

    let correct = grade_in_layout(
        &course,
        &dir.path().join("correct"),
        &fixture("one-d-chess/project5/one_d_chess.py"),
    );
    assert_eq!(correct["gradable"], true);
    assert_eq!(correct["score"], 1.0, "{correct:#}");
    assert!(correct["output"].as_str().unwrap().starts_with("sandbox: "));

    let buggy = grade_in_layout(
        &course,
        &dir.path().join("buggy"),
        &fixture("one-d-chess/project5/bug-negative-index.py"),
    );
    let score = buggy["score"].as_f64().unwrap();
    assert!(score > 0.0 && score < 1.0, "{buggy:#}");
    let tests = buggy["tests"].as_array().unwrap();
    let points: f64 = tests.iter().map(|t| t["points"].as_f64().unwrap()).sum();
    let max: f64 = tests
        .iter()
        .map(|t| t["max_points"].as_f64().unwrap())
        .sum();
    assert!((points / max - score).abs() < 1e-3, "{buggy:#}");
    // The hidden scenario it fails shows its name, points and the course's message only.
    let hidden = tests
        .iter()
        .find(|t| t["output"] == "Check the board's bounds.")
        .unwrap_or_else(|| panic!("{buggy:#}"));
    assert_eq!(hidden["points"], 0.0);
    assert!(hidden.get("images").is_none());

    let king = grade_in_layout(
        &course,
        &dir.path().join("king"),
        &fixture("one-d-chess/project5/bug-king-short-of-edge.py"),
    );
    let drawn = king["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t.get("images").is_some())
        .unwrap_or_else(|| panic!("no picture: {king:#}"));
    let url = drawn["images"][0]["url"].as_str().unwrap();
    assert!(url.starts_with("data:image/svg+xml;base64,"));
    assert!(drawn["output"]
        .as_str()
        .unwrap()
        .contains("first divergence"));

    // A hostile submission forges a perfect result and hangs: its result is the grader's.
    let hostile = grade_in_layout(&course, &dir.path().join("hostile"), FORGER);
    assert_eq!(hostile["gradable"], true);
    assert_eq!(hostile["score"], 0.0, "{hostile:#}");
    assert_ne!(hostile["message"], "forged");
    assert!(hostile["tests"]
        .as_array()
        .unwrap()
        .iter()
        .any(|t| t["message"] == "timeout"));
}

#[test]
fn a_grader_failure_still_writes_a_result() {
    let dir = tempfile::tempdir().unwrap();
    let course = course(dir.path());
    // Broken course files: the specs are gone, so boardgrade cannot grade at all.
    let result = run_in_layout(&course, &dir.path().join("broken"), "x = 1\n", false);
    assert_eq!(result["gradable"], false);
    assert!(result["message"]
        .as_str()
        .unwrap()
        .contains("could not grade"));
}

#[test]
fn the_course_requirements_are_installed_before_grading() {
    let scratch = tempfile::tempdir().unwrap();
    // Every user may enter: the wheel is read by the grader, the submission by a student.
    std::fs::set_permissions(
        scratch.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let wheel = common::course_wheel(scratch.path());
    let requirements = scratch.path().join("requirements.txt");
    std::fs::write(&requirements, format!("{}\n", wheel.display())).unwrap();
    let course = course_with(
        scratch.path(),
        &["--requirements".as_ref(), requirements.as_os_str()],
    );
    let info: Value = serde_json::from_str(
        &std::fs::read_to_string(course.join("questions/one-d-chess/info.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(info["externalGradingOptions"]["enableNetworking"], true);
    let shipped = course.join("serverFilesCourse/boardgrade/requirements.txt");
    assert_eq!(
        std::fs::read_to_string(shipped).unwrap(),
        std::fs::read_to_string(&requirements).unwrap()
    );
    let source = common::submission_using_course_package(scratch.path());
    let results = grade_in_layout(
        &course,
        scratch.path(),
        &std::fs::read_to_string(source).unwrap(),
    );
    assert_eq!(results["gradable"], true, "{results}");
    assert_eq!(results["score"], 1.0, "{results}");

    // Without its package (an install that fails), the submission is not gradable.
    std::fs::write(
        &requirements,
        "/nonexistent/coursehelp-0.1-py3-none-any.whl\n",
    )
    .unwrap();
    let other = tempfile::tempdir().unwrap();
    let course = course_with(
        other.path(),
        &["--requirements".as_ref(), requirements.as_os_str()],
    );
    let results = grade_in_layout(
        &course,
        other.path(),
        &fixture("one-d-chess/project5/one_d_chess.py"),
    );
    assert_eq!(results["gradable"], false, "{results}");
    assert!(
        results["message"]
            .as_str()
            .unwrap()
            .contains("requirements.txt"),
        "{results}"
    );
}

/// Course files for the one-scenario csc110 game the hostile fixtures play (`chess.py`),
/// written with `extra` arguments, under a folder every user may enter (so that what the
/// grader closes is closed by it, not by the test's scratch folder).
fn hostile_course(dir: &Path, extra: &[&str]) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::set_permissions(dir, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let out = dir.join("course");
    boardgrade()
        .arg("prairielearn")
        .arg("--specs")
        .arg(root().join("tests/selftest/hostile_game.toml"))
        .arg("--out")
        .arg(&out)
        .args(["--question", "one-d-chess"])
        .args(extra)
        .assert()
        .success();
    out
}

/// Bubblewrap made unavailable: its probe fails.
const NO_BWRAP: &[(&str, &str)] = &[("BOARDGRADE_BWRAP", "/nonexistent/bwrap")];

#[test]
fn without_bubblewrap_nothing_is_graded_unless_the_course_allowed_limits() {
    let dir = tempfile::tempdir().unwrap();
    let strict = hostile_course(&dir.path().join("strict"), &[]);
    let script =
        std::fs::read_to_string(strict.join("serverFilesCourse/boardgrade/run.sh")).unwrap();
    assert!(script.contains("--run-grader --sandbox bwrap"), "{script}");
    for fixture in ["hostile/oracle_grader.py", "hostile/snoop.py"] {
        let student = Student {
            file: "chess.py",
            source: &fixture_text(fixture),
            env: NO_BWRAP,
        };
        let scratch = dir.path().join(fixture.replace('/', "-"));
        let results = run_student(&strict, &scratch, &student, true);
        assert_eq!(results["gradable"], false, "{fixture}: {results:#}");
        let message = results["message"].as_str().unwrap();
        assert!(message.contains("bubblewrap"), "{fixture}: {message}");
        assert!(message.contains("costs no attempt"), "{fixture}: {message}");
        assert_eq!(results["tests"], serde_json::json!([]));
    }
    if !common::is_root() {
        // `limits` runs student programs as users of their own: root only.
        return;
    }
    // The course allowed `limits`: the oracle finds no binary and the snoop nothing.
    let allowed = hostile_course(&dir.path().join("allowed"), &["--sandbox", "limits"]);
    let oracle = Student {
        file: "chess.py",
        source: &fixture_text("hostile/oracle_grader.py"),
        env: NO_BWRAP,
    };
    let results = run_student(&allowed, &dir.path().join("oracle"), &oracle, true);
    assert_eq!(results["gradable"], true, "{results:#}");
    assert_eq!(results["score"].as_f64(), Some(0.0), "{results:#}");
    assert!(results["output"].as_str().unwrap().contains("limits"));
    let snoop = Student {
        file: "chess.py",
        source: &fixture_text("hostile/snoop.py"),
        env: NO_BWRAP,
    };
    let results = run_student(&allowed, &dir.path().join("snoop"), &snoop, true);
    let shown = results["tests"][0]["output"].as_str().unwrap();
    assert!(shown.contains("no leaks"), "{shown}");
    let course = dir.path().join("snoop/grade/serverFilesCourse/boardgrade");
    let mode =
        std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(course).unwrap().permissions());
    assert_eq!(mode & 0o077, 0, "the binary's folder left open");
}

#[test]
fn a_sandbox_that_fails_after_its_check_is_not_gradable() {
    if !boardgrade::execution::sandbox::bwrap_works() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let course = hostile_course(&dir.path().join("course"), &[]);
    let fake = common::bwrap_failing_after_probe(&dir.path().join("fake"));
    let env = [("BOARDGRADE_BWRAP", fake.to_str().unwrap())];
    let student = Student {
        file: "chess.py",
        source: &fixture_text("one-d-chess/csc110/chess.py"),
        env: &env,
    };
    let results = run_student(&course, &dir.path().join("run"), &student, true);
    assert_eq!(results["gradable"], false, "{results:#}");
    let message = results["message"].as_str().unwrap();
    assert!(message.contains("needs a re-run"), "{message}");
    assert!(message.contains("mount proc"), "{message}");
}

#[test]
fn arguments_after_the_double_dash_are_refused_not_dropped() {
    let dir = tempfile::tempdir().unwrap();
    for command in ["prairielearn", "gradescope"] {
        let output = boardgrade()
            .arg(command)
            .arg("--specs")
            .arg(root().join("tests/selftest/hostile_game.toml"))
            .arg("--out")
            .arg(dir.path().join(command))
            .args(["--", "--memory-limit", "64"])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{command}: {output:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("--memory-limit 64"), "{command}: {stderr}");
        assert!(
            !dir.path().join(command).exists(),
            "{command} wrote its package"
        );
    }
}
