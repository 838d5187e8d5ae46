//! The Python versions boardgrade promises: a submission runs on Python 3.8 or later, and an
//! older interpreter (Python 2.7, 3.6, 3.7, still found on students' and graders' machines)
//! is refused before any scenario, in one line naming its version, never a crash of every
//! scenario. Checked on the old interpreters pyenv has here; one it lacks is skipped, said
//! loudly. (The embedded Python's own unit tests run on 3.8 and the newest Python in
//! `.ci/python`.) Every game's correct fixture gets full marks, and a buggy one fails without
//! an `error`, on the oldest supported Python and the newest one pyenv has, run as the
//! student user under the strongest sandbox: adapters, the loaded runner, the probe and the
//! code checks, end to end.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use common::{boardgrade, failures, test_json};
use predicates::prelude::*;

/// The newest installed release of `minor` (`"2.7"`, `"3.6"`; `"3"`: of every Python 3)
/// under pyenv, if any.
fn pyenv_python(minor: &str) -> Option<(String, PathBuf)> {
    let root = std::env::var_os("PYENV_ROOT")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".pyenv")))?;
    let mut found: Vec<(Vec<u32>, String)> = std::fs::read_dir(root.join("versions"))
        .ok()?
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.starts_with(&format!("{minor}.")))
        .filter_map(|name| {
            let numbers = name
                .split('.')
                .map(|p| p.parse().ok())
                .collect::<Option<_>>()?;
            Some((numbers, name))
        })
        .collect();
    found.sort();
    let (_, version) = found.pop()?;
    let python = root
        .join("versions")
        .join(&version)
        .join("bin")
        .join("python");
    python.exists().then_some((version, python))
}

#[test]
fn an_interpreter_older_than_3_8_is_refused_naming_its_version() {
    let mut checked = 0;
    for minor in ["2.7", "3.6", "3.7"] {
        let Some((version, python)) = pyenv_python(minor) else {
            eprintln!("SKIPPED Python {minor}: pyenv has no such interpreter here");
            continue;
        };
        boardgrade()
            .args([
                "test",
                "--game",
                "one-d-chess",
                "--dialect",
                "project5",
                "--python",
                "fixtures/one-d-chess/project5/one_d_chess.py",
                "--python-bin",
            ])
            .arg(&python)
            .assert()
            .code(2)
            .stdout(predicate::str::is_empty())
            .stderr(predicate::str::contains(format!(
                "{} is Python {version}; boardgrade needs Python 3.8 or later",
                python.display()
            )));
        checked += 1;
    }
    if checked == 0 {
        eprintln!("SKIPPED: no Python older than 3.8 under pyenv; the refusal is not checked");
    }
}

/// Each game's correct fixture and one with a bug: (its specs, the fixture, whether it
/// passes).
const FIXTURES: &[(&str, &str, bool)] = &[
    (
        "one-d-chess/project5",
        "one-d-chess/project5/one_d_chess.py",
        true,
    ),
    ("one-d-chess/csc110", "one-d-chess/csc110/chess.py", true),
    (
        "one-d-chess/csc110",
        "one-d-chess/csc110/bug-winner-message.py",
        false,
    ),
    ("pown-chess/pown", "pown-chess/pown-chess.py", true),
    ("minichess/ecs10", "minichess/ecs10/prog67.py", true),
    (
        "chess/ecs198f",
        "chess/ecs198f/correct/pychess/logic/chess_logic.py",
        true,
    ),
    (
        "chess/ecs198f",
        "chess/ecs198f/bug-no-en-passant/pychess/logic/chess_logic.py",
        false,
    ),
];

/// A copy of the pyenv installation `python` belongs to (`.../versions/X/bin/python`) that a
/// student user can run: in a folder open to every user, its library found beside it rather
/// than where pyenv built it (pyenv's own folder is root's). `None` where `patchelf`, which
/// rewrites that path, is missing.
fn reachable_copy(python: &Path, into: &Path) -> Option<PathBuf> {
    let installation = python.parent()?.parent()?;
    let copy = into.join(installation.file_name()?);
    let copied = std::process::Command::new("cp")
        .arg("-a")
        .arg(installation)
        .arg(&copy)
        .status()
        .ok()?;
    assert!(copied.success(), "cannot copy {}", installation.display());
    let executable = std::fs::canonicalize(copy.join("bin").join(python.file_name()?)).ok()?;
    let patched = std::process::Command::new("patchelf")
        .args(["--set-rpath", "$ORIGIN/../lib"])
        .arg(&executable)
        .status()
        .ok()?;
    assert!(
        patched.success(),
        "patchelf failed on {}",
        executable.display()
    );
    Some(executable)
}

#[test]
fn every_game_is_graded_alike_on_the_oldest_and_the_newest_python() {
    let folder = tempfile::tempdir().unwrap();
    std::fs::set_permissions(folder.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut checked = 0;
    for minor in ["3.8", "3"] {
        let Some((version, python)) = pyenv_python(minor) else {
            eprintln!("SKIPPED Python {minor}: pyenv has no such interpreter here");
            continue;
        };
        if checked > 0 && version.starts_with("3.8.") {
            continue; // 3.8 is the newest here too
        }
        let Some(python) = reachable_copy(&python, folder.path()) else {
            eprintln!("SKIPPED Python {version}: patchelf is missing (`apt-get install patchelf`)");
            continue;
        };
        for (specs, fixture, passes) in FIXTURES {
            let (specs, fixture) = (format!("specs/{specs}"), format!("fixtures/{fixture}"));
            let args = [
                specs.as_str(),
                "--python",
                &fixture,
                "--python-bin",
                python.to_str().unwrap(),
            ];
            let (code, report) = test_json(&args);
            let failed = failures(&report);
            let errors: Vec<_> = failed.iter().filter(|f| f.1 == "error").collect();
            assert!(errors.is_empty(), "Python {version} {args:?}: {errors:#?}");
            assert_eq!(
                failed.is_empty(),
                *passes,
                "Python {version} {args:?}: {failed:#?}"
            );
            assert_eq!(code == 0, *passes, "Python {version} {args:?}");
            let ran = report["scenarios"].as_array().map_or(0, Vec::len);
            assert!(ran > 10, "Python {version} {args:?}: {ran} scenarios");
        }
        checked += 1;
    }
    if checked == 0 {
        eprintln!("SKIPPED: no Python 3 under pyenv here; no other version is checked end to end");
    }
}
