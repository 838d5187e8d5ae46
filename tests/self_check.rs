//! A student's self-check (`test --python`) takes the submission through the pipeline a class
//! run (`grade`) takes it through: a file that does not load, or whose import does not
//! finish, is one line in both, with the same message, and a variant of the course the
//! file answers better is named, with the command that tests it. A file checked in its own
//! folder brings the helper modules beside it, as Python would find them; in a class folder
//! the files beside it are other students', and never come.

mod common;

use std::path::Path;

use common::{boardgrade, grade_json};

/// `boardgrade test ARGS` run: (exit code, stdout, stderr).
fn test(args: &[&str]) -> (i32, String, String) {
    let output = boardgrade()
        .arg("test")
        .args(args)
        .args(["--sandbox", "none"])
        .output()
        .expect("boardgrade runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// The student's file `name` with `text`, in a fresh folder.
fn hand_in(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// `test --python` and `grade` of a file that does not load: one line each, the same finding.
fn does_not_load_once(text: &str, finding: &str) {
    let dir = tempfile::tempdir().unwrap();
    let file = hand_in(dir.path(), "one_d_chess.py", text);
    let (code, stdout, stderr) = test(&["--dialect", "project5", "--python", &file]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    let lines: Vec<&str> = stdout.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(
        lines.len(),
        1,
        "one line, not a block per scenario:\n{stdout}"
    );
    assert!(
        lines[0].starts_with("DOES NOT LOAD one_d_chess.py:") && lines[0].contains(finding),
        "{stdout}"
    );
    assert!(lines[0].contains(" scenario(s) ran; score 0/"), "{stdout}");
    assert!(!stdout.contains("CRASH"), "{stdout}");

    let out = dir.path().join("out");
    let (code, report, stderr) = grade_json(&[
        "--dialect",
        "project5",
        "--sandbox",
        "none",
        "--one-submission",
        "--out",
        out.to_str().unwrap(),
        &file,
    ]);
    assert_eq!(code, 0, "{stderr}");
    let result = &report["submissions"][0];
    let error = &result["does_not_load"];
    assert_eq!(error["file"], "one_d_chess.py", "{report:#}");
    let same = format!(
        "one_d_chess.py:{}: {}",
        error["line"],
        error["message"].as_str().unwrap()
    );
    assert!(same.contains(finding), "{report:#}");
    assert!(
        lines[0].contains(&same),
        "test says what grade says: {same}\n{stdout}"
    );
    assert_eq!(result["scenarios"].as_array().unwrap().len(), 0);
}

#[test]
fn a_syntax_error_is_one_line_in_test_as_in_grade() {
    does_not_load_once(
        "def create_board():\n    return [\n\ndef move(board):\n    pass\n",
        "SyntaxError",
    );
}

#[test]
fn a_missing_module_is_one_line_in_test_as_in_grade() {
    does_not_load_once(
        "import numpy_the_course_never_had\n\ndef create_board():\n    return []\n",
        "ModuleNotFoundError: No module named 'numpy_the_course_never_had'",
    );
}

#[test]
fn an_import_that_does_not_finish_is_one_line_in_test_as_in_grade() {
    let correct = std::fs::read_to_string("fixtures/one-d-chess/project5/one_d_chess.py").unwrap();
    does_not_load_once(
        &format!("import time\ntime.sleep(3600)\n{correct}"),
        "one_d_chess.py:2: the import did not finish in 10 s; it was in `time.sleep`",
    );
}

#[test]
fn a_file_that_does_not_load_is_a_failing_scenario_in_every_machine_report() {
    let dir = tempfile::tempdir().unwrap();
    let file = hand_in(dir.path(), "one_d_chess.py", "def create_board(:\n");
    let (code, report) = common::test_json(&[
        "--dialect",
        "project5",
        "--sandbox",
        "none",
        "--python",
        &file,
    ]);
    assert_eq!(code, 1);
    let scenarios = report["scenarios"].as_array().unwrap();
    assert!(
        scenarios.len() > 30,
        "every project5 scenario: {}",
        scenarios.len()
    );
    for scenario in scenarios {
        assert_eq!(scenario["verdict"], "crash", "{scenario:#}");
        assert_eq!(scenario["score"], 0.0);
        let detail = scenario["detail"].as_str().unwrap();
        assert!(
            detail.starts_with("not run: the file does not load: one_d_chess.py:1: SyntaxError"),
            "{detail}"
        );
    }
    assert_eq!(report["summary"]["passed"], 0);
}

#[test]
fn test_names_the_variant_a_file_answers_better_and_the_command_that_tests_it() {
    let fall = "fixtures/one-d-chess/project5-fall2023/one_d_chess.py";
    let (_, _, stderr) = test(&["--dialect", "project5", "-q", "--python", fall]);
    let expected = format!(
        "boardgrade: note: your file defines `whos_the_winner`: your course may use \
         project5-fall2023; run `boardgrade test --dialect project5-fall2023 --python {fall}`"
    );
    assert!(stderr.contains(&expected), "{stderr}");

    // The command suggested runs, and the file passes everything under its own variant.
    let (code, stdout, stderr) = test(&["--dialect", "project5-fall2023", "-q", "--python", fall]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(!stderr.contains("your course may use"), "{stderr}");

    // The other way round: a later text's file tested as the earlier variant.
    let later = "fixtures/one-d-chess/project5/one_d_chess.py";
    let (_, _, stderr) = test(&["--dialect", "project5-fall2023", "-q", "--python", later]);
    assert!(
        stderr.contains(
            "your file does not define `whos_the_winner`: your course may use project5; run \
             `boardgrade test --dialect project5 --python"
        ),
        "{stderr}"
    );
    // A file that answers the dialect asked for is told nothing of the kind.
    let (code, _, stderr) = test(&["--dialect", "project5", "-q", "--python", later]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("your course may use"), "{stderr}");
}

#[test]
fn grade_notes_the_variant_a_file_answers_better() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let (code, report, stderr) = grade_json(&[
        "--dialect",
        "project5",
        "--sandbox",
        "none",
        "--one-submission",
        "--out",
        out.to_str().unwrap(),
        "fixtures/one-d-chess/project5-fall2023/one_d_chess.py",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let notes = report["submissions"][0]["notes"].as_array().unwrap();
    assert!(
        notes.iter().any(|n| n
            == "one_d_chess.py defines `whos_the_winner`: the course may use \
                project5-fall2023 (graded here as project5)"),
        "{report:#}"
    );
}

#[test]
fn test_points_out_a_missing_name_with_the_closest_one_defined() {
    let dir = tempfile::tempdir().unwrap();
    let correct = std::fs::read_to_string("fixtures/one-d-chess/project5/one_d_chess.py").unwrap();
    let renamed = correct.replace("move_king", "moveKing");
    let file = hand_in(dir.path(), "one_d_chess.py", &renamed);
    let (code, _, stderr) = test(&["--dialect", "project5", "-q", "--python", &file]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains(
            "boardgrade: note: one_d_chess.py does not define `move_king` (did you mean \
             `moveKing`?)"
        ),
        "{stderr}"
    );
}

/// The correct project5 file, importing a helper module and a package it needs beside it.
fn with_helpers() -> String {
    let correct = std::fs::read_to_string("fixtures/one-d-chess/project5/one_d_chess.py").unwrap();
    format!("from helpers import EMPTY_CELL\nfrom tools.words import SIDES\n{correct}")
}

#[test]
fn a_students_helper_modules_beside_the_file_come_with_it_and_a_classmates_never_do() {
    // A project folder: the file, a helper module (which imports another), and a package.
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    std::fs::create_dir_all(project.join("tools")).unwrap();
    hand_in(&project, "one_d_chess.py", &with_helpers());
    hand_in(
        &project,
        "helpers.py",
        "from shared import EMPTY\nEMPTY_CELL = EMPTY\n",
    );
    hand_in(&project, "shared.py", "EMPTY = 'EMPTY'\n");
    hand_in(&project.join("tools"), "__init__.py", "");
    hand_in(
        &project.join("tools"),
        "words.py",
        "SIDES = ('WHITE', 'BLACK')\n",
    );
    for sandbox in ["none", "limits"] {
        let output = boardgrade()
            .current_dir(&project)
            .args([
                "test",
                "--dialect",
                "project5",
                "--python",
                "one_d_chess.py",
            ])
            .args(["--sandbox", sandbox])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert_eq!(output.status.code(), Some(0), "{sandbox}: {stdout}");
        assert!(stdout.contains(" passed, 0 failed"), "{sandbox}: {stdout}");
    }
    // In a class folder, the files beside a one-file submission are other students': never
    // importable by it.
    let class = dir.path().join("class");
    std::fs::create_dir_all(&class).unwrap();
    hand_in(&class, "alice.py", &with_helpers());
    hand_in(&class, "helpers.py", "EMPTY_CELL = 'EMPTY'\n");
    let out = dir.path().join("out");
    let (_, report, stderr) = grade_json(&[
        "--dialect",
        "project5",
        "--sandbox",
        "none",
        "--out",
        out.to_str().unwrap(),
        class.to_str().unwrap(),
    ]);
    let alice = report["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == "alice")
        .unwrap_or_else(|| panic!("{report:#}{stderr}"));
    assert!(
        alice["does_not_load"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("No module named 'helpers'")),
        "{alice:#}"
    );
}
