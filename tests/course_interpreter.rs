//! A course's own interpreter (a virtual environment with the course's packages) under
//! bubblewrap: its installation and its base are shown read-only, so a correct submission
//! that imports a course package gets full marks; an interpreter that cannot start inside
//! the sandbox is the grader's `error`, naming it, never a student's `crash`.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::test_json;

/// Whether bubblewrap works here; says loudly why the test does nothing where it does not.
fn bwrap_or_skip(test: &str) -> bool {
    let works = boardgrade::execution::sandbox::bwrap_works();
    if !works {
        eprintln!("SKIPPED {test}: bubblewrap cannot run on this machine");
    }
    works
}

/// A folder every user may enter (student users must reach the interpreter in it).
fn open_tempdir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

/// A wheel of the package `coursehelp` (one module with one function), made by
/// hand: installing it needs no network and no build tools.
fn course_wheel(dir: &Path) -> PathBuf {
    let wheel = dir.join("coursehelp-0.1-py3-none-any.whl");
    let script = r#"
import base64, hashlib, sys, zipfile
files = {
    "coursehelp/__init__.py": "def checked(board):\n    return list(board)\n",
    "coursehelp-0.1.dist-info/METADATA": "Metadata-Version: 2.1\nName: coursehelp\nVersion: 0.1\n",
    "coursehelp-0.1.dist-info/WHEEL":
        "Wheel-Version: 1.0\nGenerator: hand\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
}
record = ""
for name, text in files.items():
    digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=")
    record += "%s,sha256=%s,%d\n" % (name, digest.decode(), len(text.encode()))
files["coursehelp-0.1.dist-info/RECORD"] = record + "coursehelp-0.1.dist-info/RECORD,,\n"
with zipfile.ZipFile(sys.argv[1], "w") as wheel:
    for name, text in files.items():
        wheel.writestr(name, text)
"#;
    let status = Command::new("python3")
        .args(["-c", script])
        .arg(&wheel)
        .status()
        .expect("python3 runs");
    assert!(status.success());
    wheel
}

/// The project5 reference solution, whose `create_board` uses the course package.
fn submission_using_course_package(dir: &Path) -> PathBuf {
    let correct = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/one-d-chess/project5/one_d_chess.py"
    ))
    .unwrap();
    let path = dir.join("one_d_chess.py");
    std::fs::write(
        &path,
        format!(
            "import coursehelp\n{correct}\n_made_here = create_board\n\n\n\
             def create_board():\n    return coursehelp.checked(_made_here())\n"
        ),
    )
    .unwrap();
    path
}

#[test]
fn a_virtualenv_with_a_course_package_grades_full_marks_under_bubblewrap() {
    if !bwrap_or_skip("a_virtualenv_with_a_course_package_grades_full_marks_under_bubblewrap") {
        return;
    }
    let dir = open_tempdir();
    let venv = dir.path().join("venv");
    // The system's Python: a student user can reach it whoever the grader is.
    let made = Command::new("/usr/bin/python3")
        .args(["-m", "venv"])
        .arg(&venv)
        .status()
        .expect("python3 -m venv runs");
    assert!(made.success(), "python3 -m venv failed");
    let wheel = course_wheel(dir.path());
    let installed = Command::new(venv.join("bin/python3"))
        .args(["-m", "pip", "install", "--no-index", "--quiet"])
        .arg(&wheel)
        .status()
        .expect("pip runs");
    assert!(
        installed.success(),
        "pip install of the course wheel failed"
    );
    let submission = submission_using_course_package(dir.path());
    let python = venv.join("bin/python3");

    for runner in ["fork", "fresh"] {
        let (code, report) = test_json(&[
            "specs/one-d-chess/project5",
            "--python",
            submission.to_str().unwrap(),
            "--python-bin",
            python.to_str().unwrap(),
            "--sandbox",
            "bwrap",
            "--python-runner",
            runner,
        ]);
        let summary = &report["summary"];
        assert_eq!(
            (code, summary["failed"].as_u64(), summary["errors"].as_u64()),
            (0, Some(0), Some(0)),
            "{runner}: {summary}\n{:#?}",
            common::failures(&report)
        );
        assert_eq!(
            summary["score"], summary["max_score"],
            "{runner}: {summary}"
        );
        assert!(summary["passed"].as_u64().unwrap() > 20, "{summary}");
    }

    // The same submission with the system's Python, which lacks the course package, fails.
    let (_, report) = test_json(&[
        "specs/one-d-chess/project5",
        "--python",
        submission.to_str().unwrap(),
        "--python-bin",
        "/usr/bin/python3",
        "--sandbox",
        "bwrap",
        "--filter",
        "create_board",
    ]);
    assert_eq!(report["summary"]["passed"], 0, "{}", report["summary"]);
}

#[test]
fn an_interpreter_that_cannot_start_in_the_sandbox_is_an_error_naming_it() {
    if !bwrap_or_skip("an_interpreter_that_cannot_start_in_the_sandbox_is_an_error_naming_it") {
        return;
    }
    let dir = open_tempdir();
    // An interpreter that answers the grader's question outside the sandbox but runs, for
    // everything else, a Python in a folder the sandbox does not show.
    let hidden = dir.path().join("elsewhere");
    std::fs::create_dir(&hidden).unwrap();
    std::os::unix::fs::symlink("/usr/bin/python3", hidden.join("python3")).unwrap();
    let bin = dir.path().join("course/bin");
    std::fs::create_dir_all(&bin).unwrap();
    let python = bin.join("python3");
    std::fs::write(
        &python,
        format!(
            "#!/bin/sh\ncase \"$2\" in\n  'import sys; print(sys.executable)'*)\n    \
             printf '%s\\n' {me} 3.11.0 {prefix} {prefix} {prefix} {prefix}; exit 0;;\nesac\n\
             exec {hidden}/python3 \"$@\"\n",
            me = python.display(),
            prefix = dir.path().join("course").display(),
            hidden = hidden.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&python, std::fs::Permissions::from_mode(0o755)).unwrap();
    let (_, report) = test_json(&[
        "specs/one-d-chess/project5",
        "--python",
        "fixtures/one-d-chess/project5/one_d_chess.py",
        "--python-bin",
        python.to_str().unwrap(),
        "--sandbox",
        "bwrap",
    ]);
    let scenarios = report["scenarios"].as_array().unwrap();
    assert!(!scenarios.is_empty());
    for scenario in scenarios {
        assert_eq!(scenario["verdict"], "error", "{scenario}");
        let text = scenario.to_string();
        assert!(
            text.contains(&python.display().to_string()) && text.contains("does not start"),
            "{text}"
        );
    }
}
