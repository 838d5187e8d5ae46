//! A course's own interpreter (a virtual environment with the course's packages) under
//! bubblewrap: its installation and its base are shown read-only, so a correct submission
//! that imports a course package gets full marks; an interpreter that cannot start inside
//! the sandbox is the grader's `error`, naming it, never a student's `crash`.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

use common::{course_wheel, submission_using_course_package, test_json};

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

/// `FOLDER/bin/python3`, a shell script that answers the grader's question about the
/// interpreter (its executable, version 3.11.0 and `prefix` as every installation it reads)
/// and, for anything else, runs `body`.
fn course_python(folder: &Path, prefix: &Path, body: &str) -> std::path::PathBuf {
    let bin = folder.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let python = bin.join("python3");
    std::fs::write(
        &python,
        format!(
            "#!/bin/sh\ncase \"$2\" in\n  'import sys; print(sys.executable)'*)\n    \
             printf '%s\\n' {me} 3.11.0 {prefix} {prefix} {prefix} {prefix}; exit 0;;\nesac\n\
             {body}\n",
            me = python.display(),
            prefix = prefix.display(),
        ),
    )
    .unwrap();
    std::fs::set_permissions(&python, std::fs::Permissions::from_mode(0o755)).unwrap();
    python
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
    let prefix = dir.path().join("course");
    let python = course_python(
        &prefix,
        &prefix,
        &format!("exec {}/python3 \"$@\"", hidden.display()),
    );
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

#[test]
fn the_gradescope_zip_ships_the_requirements_and_grades_with_their_interpreter() {
    let dir = tempfile::tempdir().unwrap();
    let requirements = dir.path().join("requirements.txt");
    std::fs::write(&requirements, "numpy==1.26.4\n").unwrap();
    let zip = dir.path().join("autograder.zip");
    common::boardgrade()
        .args([
            "gradescope",
            "--specs",
            "specs/one-d-chess/project5",
            "--out",
        ])
        .arg(&zip)
        .arg("--requirements")
        .arg(&requirements)
        .assert()
        .success();
    let unpacked = dir.path().join("source");
    common::unzip(&zip, &unpacked);
    assert_eq!(
        std::fs::read_to_string(unpacked.join("requirements.txt")).unwrap(),
        "numpy==1.26.4\n"
    );
    let setup = std::fs::read_to_string(unpacked.join("setup.sh")).unwrap();
    assert!(setup.contains("-m venv /opt/boardgrade-python"), "{setup}");
    assert!(
        setup.contains("/opt/boardgrade-python/bin/pip install --no-cache-dir \\\n        -r /autograder/source/requirements.txt"),
        "{setup}"
    );
    let run = std::fs::read_to_string(unpacked.join("run_autograder")).unwrap();
    let export = run.find("BOARDGRADE_PYTHON=/opt/boardgrade-python/bin/python3");
    let exec = run.find("exec \"$bin\"");
    assert!(export.is_some() && export < exec, "{run}");
    // Both scripts are valid shell.
    for script in ["setup.sh", "run_autograder"] {
        let status = Command::new("bash")
            .arg("-n")
            .arg(unpacked.join(script))
            .status()
            .unwrap();
        assert!(status.success(), "{script}");
    }
}

/// A `python3` on the PATH that the student user cannot reach (a pyenv shim, say, over an
/// installation under root's home) is run once to learn so, not once more while the PATH is
/// searched for one the student can reach: a shim takes a fifth of a second to answer.
#[test]
fn an_unreachable_python_on_the_path_is_run_once() {
    if !common::is_root() {
        eprintln!("SKIPPED an_unreachable_python_on_the_path_is_run_once: only a root grader looks for a reachable interpreter");
        return;
    }
    let closed = tempfile::tempdir().unwrap();
    std::fs::set_permissions(closed.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    let venv = bare_venv(closed.path());
    let open = open_tempdir();
    let shims = open.path().join("shims");
    let runs = open.path().join("runs");
    write_shim(
        &shims,
        &format!(
            "#!/bin/sh\necho run >> '{}'\nexec '{}' \"$@\"\n",
            runs.display(),
            venv.join("bin/python3").display()
        ),
    );
    let output = code_checks_with_shims(&shims, &[]);
    assert!(output.status.success(), "{output:?}");
    // Graded with the PATH's next one, /usr/bin's.
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(said.contains("3 passed"), "{said}");
    assert_eq!(std::fs::read_to_string(&runs).unwrap(), "run\n");
}

/// A bare `python3` is looked for in the PATH's absolute folders alone. The interpreter is
/// asked from the temporary folder, where an empty or `.` entry of the PATH would find a
/// `python3` any user can leave in `/tmp`, and run it as the grader.
#[test]
fn a_relative_path_entry_never_finds_a_program_in_the_temporary_folder() {
    let temporary = open_tempdir();
    let runs = temporary.path().join("runs");
    write_shim(
        temporary.path(),
        &format!(
            "#!/bin/sh\necho run >> '{}'\nexec /usr/bin/python3 \"$@\"\n",
            runs.display()
        ),
    );
    for path in [":/usr/bin:/bin", ".:/usr/bin:/bin"] {
        let output = Command::new(env!("CARGO_BIN_EXE_boardgrade"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("PATH", path)
            .env("TMPDIR", temporary.path())
            .env_remove("BOARDGRADE_PYTHON")
            .args(["test", "specs/one-d-chess/project5/code.toml", "--python"])
            .arg("fixtures/one-d-chess/project5/one_d_chess.py")
            .args(["--python-bin", "python3", "--quiet"])
            .output()
            .unwrap();
        assert!(output.status.success(), "{path}: {output:?}");
        let said = String::from_utf8_lossy(&output.stdout);
        assert!(said.contains("3 passed"), "{path}: {said}");
        assert!(!runs.exists(), "{path}: the temporary folder's python3 ran");
    }
}

/// A pyenv shim is read, not run: the version its files name is asked directly, so `python3`
/// on a pyenv machine costs what the interpreter costs (through the shim, pyenv's scripts
/// take a fifth of a second). Here the shim would note its run and fail. (The version is a
/// link to the system's Python, which bubblewrap would not show by that name: `limits`.)
#[test]
fn a_pyenv_shim_is_read_and_its_version_asked_directly() {
    let root_folder = open_tempdir();
    let root = root_folder.path().join("pyenv");
    let bin = root.join("versions/3.99.1/bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink("/usr/bin/python3", bin.join("python3")).unwrap();
    std::fs::write(root.join("version"), "3.99.1\n").unwrap();
    let shims = root.join("shims");
    let runs = root_folder.path().join("runs");
    write_shim(
        &shims,
        &format!(
            "#!/usr/bin/env bash\nset -e\nprogram=\"${{0##*/}}\"\n\nexport PYENV_ROOT=\"{root}\"\necho run >> '{runs}'; exit 1\nexec \"{root}/libexec/pyenv\" exec \"$program\" \"$@\"\n",
            root = root.display(),
            runs = runs.display(),
        ),
    );
    let output = code_checks_with_shims(&shims, &["--sandbox", "limits"]);
    assert!(output.status.success(), "{output:?}");
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(said.contains("3 passed"), "{said}");
    assert!(!runs.exists(), "the shim ran");
}

/// Writes the program `shims/python3` (executable) with `script`.
/// A virtual environment of the system's Python (which a student user can reach whoever the
/// grader is), without pip, made in `folder`.
fn bare_venv(folder: &Path) -> std::path::PathBuf {
    let venv = folder.join("venv");
    let made = Command::new("/usr/bin/python3")
        .args(["-m", "venv", "--without-pip"])
        .arg(&venv)
        .status()
        .unwrap();
    assert!(made.success());
    venv
}

fn write_shim(shims: &Path, script: &str) {
    std::fs::create_dir_all(shims).unwrap();
    let shim = shims.join("python3");
    std::fs::write(&shim, script).unwrap();
    std::fs::set_permissions(&shim, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// `boardgrade test` of project5's code checks with `python3` looked up on a PATH that
/// starts with `shims`.
fn code_checks_with_shims(shims: &Path, more: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_boardgrade"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("PATH", format!("{}:/usr/bin:/bin", shims.display()))
        .env_remove("BOARDGRADE_PYTHON")
        .env_remove("PYENV_VERSION")
        .env_remove("PYENV_DIR")
        .args(["test", "specs/one-d-chess/project5/code.toml", "--python"])
        .arg("fixtures/one-d-chess/project5/one_d_chess.py")
        .args(["--python-bin", "python3", "--quiet"])
        .args(more)
        .output()
        .unwrap()
}

/// The interpreter is not started only to ask whether it starts in the sandbox where a loaded
/// runner's start already said so; a run of fresh processes asks once. Each start of the
/// course's interpreter (a virtual environment, whose `.pth` file notes the command line) is
/// counted; `limits` lets the student's processes note theirs in a file outside their folder.
#[test]
fn the_start_check_is_left_to_a_runner_that_loads() {
    let dir = open_tempdir();
    let venv = bare_venv(dir.path());
    let site = std::fs::read_dir(venv.join("lib"))
        .unwrap()
        .flatten()
        .map(|python| python.path().join("site-packages"))
        .find(|site| site.is_dir())
        .expect("the venv's site-packages");
    let starts = dir.path().join("starts");
    for runner in ["fork", "fresh"] {
        std::fs::write(&starts, "").unwrap();
        std::fs::set_permissions(&starts, std::fs::Permissions::from_mode(0o666)).unwrap();
        std::fs::write(
            site.join("note_starts.pth"),
            format!(
                // Once per start, though the venv's `lib64` link shows the file twice.
                "import sys; 'noted' in vars(sys) or [vars(sys).setdefault('noted', 1), \
                 open('{}', 'a').write(' '.join(sys.orig_argv[1:3]) + '\\n')]\n",
                starts.display()
            ),
        )
        .unwrap();
        let output = Command::new(env!("CARGO_BIN_EXE_boardgrade"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args([
                "test",
                "specs/one-d-chess/project5/create_and_print.toml",
                "--python",
            ])
            .arg("fixtures/one-d-chess/project5/one_d_chess.py")
            .arg("--python-bin")
            .arg(venv.join("bin/python3"))
            .args(["--sandbox", "limits", "--python-runner", runner, "--quiet"])
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "{runner}: {output:?}");
        assert!(said.contains("4 passed"), "{runner}: {said}");
        let noted = std::fs::read_to_string(&starts).unwrap();
        let checks = noted
            .lines()
            .filter(|line| *line == "-c import encodings, sys")
            .count();
        // Under `fork` the scenarios ran in runners (the probe, the runners and more noted).
        assert!(noted.lines().count() >= 2, "{runner}: {noted}");
        let expected = if runner == "fork" { 0 } else { 1 };
        assert_eq!(checks, expected, "{runner}: {noted}");
    }
}

#[test]
fn a_code_check_that_answers_starts_one_interpreter_and_no_start_check() {
    // An interpreter that notes each start, then runs the system's Python. Under `limits`
    // it sees the whole file system, and may run as a student user: its notes go to a
    // folder every user may write.
    let dir = open_tempdir();
    let notes = dir.path().join("notes");
    std::fs::create_dir(&notes).unwrap();
    std::fs::set_permissions(&notes, std::fs::Permissions::from_mode(0o777)).unwrap();
    let python = course_python(
        &dir.path().join("course"),
        Path::new("/usr"),
        &format!(
            "printf '%s\\n' \"$*\" | head -c 60 >> {notes}/$$; echo >> {notes}/$$\n\
             exec /usr/bin/python3 \"$@\"",
            notes = notes.display()
        ),
    );
    let (_, report) = test_json(&[
        "specs/one-d-chess/project5/code.toml",
        "--python",
        "fixtures/one-d-chess/project5/one_d_chess.py",
        "--python-bin",
        python.to_str().unwrap(),
        "--sandbox",
        "limits",
    ]);
    assert_eq!(report["summary"]["passed"], 3, "{}", report["summary"]);
    let starts: Vec<String> = std::fs::read_dir(&notes)
        .unwrap()
        .map(|note| std::fs::read_to_string(note.unwrap().path()).unwrap())
        .collect();
    let checkers = starts
        .iter()
        .filter(|s| s.starts_with("-I -S -B -c"))
        .count();
    let start_checks = starts
        .iter()
        .filter(|s| s.contains("import encodings"))
        .count();
    assert_eq!((checkers, start_checks), (1, 0), "{starts:#?}");
}
