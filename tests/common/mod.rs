//! Helpers shared by the integration tests: run the real binary and read its JSON report.
#![allow(dead_code)]

pub mod hangs;
pub mod schema;

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

/// The boardgrade binary, run from the crate root.
pub fn boardgrade() -> Command {
    let mut cmd = Command::cargo_bin("boardgrade").expect("the boardgrade binary is built");
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1");
    cmd
}

/// Unpacks `zip` into `into` (with Python's zipfile, as a platform's unzip would).
pub fn unzip(zip: &std::path::Path, into: &std::path::Path) {
    let status = std::process::Command::new("python3")
        .args([
            "-c",
            "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])",
        ])
        .arg(zip)
        .arg(into)
        .status()
        .expect("python3 runs");
    assert!(status.success(), "cannot unzip {}", zip.display());
}

/// Runs `boardgrade test ARGS --format json` and returns (exit code, report).
pub fn test_json(args: &[&str]) -> (i32, Value) {
    let output = boardgrade()
        .arg("test")
        .args(args)
        .args(["--format", "json"])
        .output()
        .expect("boardgrade runs");
    let report: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}):\n{}\nstderr:\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    schema::assert_valid("test", &report, "test --format json");
    (output.status.code().unwrap_or(-1), report)
}

/// The scenarios of a report that did not pass: (name, verdict, first divergence).
pub fn failures(report: &Value) -> Vec<(String, String, Value)> {
    report["scenarios"]
        .as_array()
        .expect("scenarios")
        .iter()
        .filter(|s| s["verdict"] != "pass")
        .map(|s| {
            (
                s["name"].as_str().unwrap_or_default().to_string(),
                s["verdict"].as_str().unwrap_or_default().to_string(),
                s["first_divergence"].clone(),
            )
        })
        .collect()
}

/// The notes of a divergence or a result, in order.
pub fn notes(value: &Value) -> Vec<&str> {
    value["notes"]
        .as_array()
        .map(|notes| notes.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// The cells a divergence names, as `cell: expected>actual`.
pub fn cells(divergence: &Value) -> Vec<String> {
    divergence["cells"]
        .as_array()
        .map(|cells| {
            cells
                .iter()
                .map(|c| {
                    format!(
                        "{}: {}>{}",
                        c["cell"].as_str().unwrap_or(""),
                        c["expected"].as_str().unwrap_or(""),
                        c["actual"].as_str().unwrap_or("")
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Copies some of the bundled project5 scenario files into `dir/specs` and returns that folder.
pub fn project5_specs(dir: &std::path::Path, files: &[&str]) -> std::path::PathBuf {
    let specs = dir.join("specs");
    std::fs::create_dir_all(&specs).unwrap();
    let bundled =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("specs/one-d-chess/project5");
    for file in files {
        std::fs::copy(bundled.join(file), specs.join(file)).unwrap();
    }
    specs
}

/// Runs `boardgrade grade ARGS --format json` and returns (exit code, report, stderr).
pub fn grade_json(args: &[&str]) -> (i32, Value, String) {
    let output = boardgrade()
        .arg("grade")
        .args(args)
        .args(["--format", "json"])
        .output()
        .expect("boardgrade runs");
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    let report = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    schema::assert_valid("grade", &report, "grade --format json");
    (output.status.code().unwrap_or(-1), report, stderr)
}

/// Copies the folder `from` to `to`, sub-folders included.
pub fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let dest = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&dest).unwrap();
        } else {
            std::fs::copy(entry.path(), &dest).unwrap();
        }
    }
}

/// Whether the tests run as root (student programs then run as users of their own).
pub fn is_root() -> bool {
    rustix::process::geteuid().is_root()
}

/// The crate's root folder.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Makes the class folder `class` of `(submission, fixture under fixtures/, entry file)`,
/// and gives it back.
pub fn make_class(class: &Path, members: &[(&str, &str, &str)]) -> std::path::PathBuf {
    for (name, fixture, entry) in members {
        std::fs::create_dir_all(class.join(name)).unwrap();
        std::fs::copy(
            root().join("fixtures").join(fixture),
            class.join(name).join(entry),
        )
        .unwrap();
    }
    class.to_path_buf()
}

/// A bubblewrap that passes every probe of the sandbox (the command `true`) and then fails
/// every real run as Docker's default profile makes it fail, mounting /proc: a sandbox that
/// breaks after its check. Written as `dir/bwrap`; give it as `BOARDGRADE_BWRAP`.
pub fn bwrap_failing_after_probe(dir: &Path) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(dir).unwrap();
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    let script = dir.join("bwrap");
    std::fs::write(
        &script,
        "#!/bin/sh\nfor last; do :; done\nif [ \"$last\" = true ]; then exec bwrap \"$@\"; fi\n\
         echo \"bwrap: Can't mount proc on /newroot/proc: Operation not permitted\" >&2\nexit 1\n",
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

/// A wheel of the package `coursehelp` (one module with one function), made by
/// hand: installing it needs no network and no build tools.
pub fn course_wheel(dir: &Path) -> PathBuf {
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
    let status = std::process::Command::new("python3")
        .args(["-c", script])
        .arg(&wheel)
        .status()
        .expect("python3 runs");
    assert!(status.success());
    wheel
}

/// The project5 reference solution, whose `create_board` uses the course package.
pub fn submission_using_course_package(dir: &Path) -> PathBuf {
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

/// (passed, failed, score, max_score) of a `test --format json` report.
pub fn totals(report: &Value) -> (u64, u64, f64, f64) {
    let summary = &report["summary"];
    (
        summary["passed"].as_u64().unwrap(),
        summary["failed"].as_u64().unwrap(),
        summary["score"].as_f64().unwrap(),
        summary["max_score"].as_f64().unwrap(),
    )
}
