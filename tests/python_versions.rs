//! The Python versions boardgrade promises: a submission runs on Python 3.8 or later, and an
//! older interpreter (Python 2.7, 3.6, 3.7, still found on students' and graders' machines)
//! is refused before any scenario, in one line naming its version, never a crash of every
//! scenario. Checked on the old interpreters pyenv has here; one it lacks is skipped, said
//! loudly. (The embedded Python's own unit tests run on 3.8 and the newest Python in
//! `.ci/python`.)

mod common;

use std::path::PathBuf;

use common::boardgrade;
use predicates::prelude::*;

/// The newest installed release of `minor` (`"2.7"`, `"3.6"`) under pyenv, if any.
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
