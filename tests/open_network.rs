//! The platform packages refuse to grade under `--sandbox limits` where student programs
//! would keep the network (a kernel that gives them no network namespace of their own):
//! Gradescope takes its refusal path with the reason, PrairieLearn says `gradable: false`
//! with it; a course that built its package with `--allow-open-network` is not refused for it.
//!
//! Such a kernel is made for real: the grader runs in a user namespace of its own whose
//! limit on network namespaces is 0, with bubblewrap made unavailable.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::{boardgrade, root};
use serde_json::Value;

/// The shell words that run the rest of the command line where no network namespace can be
/// made (the user namespace maps the caller to root, as a platform's container runs).
const WITHOUT_NETNS: &str = "echo 0 > /proc/sys/user/max_net_namespaces && exec \"$@\"";

/// `program args` run where no network namespace can be made, bubblewrap unavailable.
fn without_network_namespaces(program: &str, args: &[&Path]) -> Command {
    let mut command = Command::new("unshare");
    command
        .args(["--user", "--map-root-user", "sh", "-c", WITHOUT_NETNS, "sh"])
        .arg(program)
        .args(args)
        .env("BOARDGRADE_BWRAP", "/nonexistent/bwrap")
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .stdin(Stdio::null());
    command
}

/// Whether this machine can make such a place (a user namespace of one's own whose limit
/// holds): else there is nothing to try here.
fn can_close_network_namespaces() -> bool {
    Command::new("unshare")
        .args(["--user", "--map-root-user", "sh", "-c"])
        .arg("echo 0 > /proc/sys/user/max_net_namespaces && ! unshare --net true")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// An unpacked Gradescope autograder for the one-scenario csc110 game, built with `extra`,
/// with the correct submission in place; returns its root.
fn gradescope_layout(dir: &Path, extra: &[&str]) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let zip = dir.join("autograder.zip");
    boardgrade()
        .args(["gradescope", "--sandbox", "limits", "--specs"])
        .arg(root().join("tests/selftest/hostile_game.toml"))
        .arg("--out")
        .arg(&zip)
        .args(extra)
        .assert()
        .success();
    let layout = dir.join("autograder");
    std::fs::create_dir_all(layout.join("submission")).unwrap();
    common::unzip(&zip, &layout.join("source"));
    std::fs::copy(
        root().join("fixtures/one-d-chess/csc110/chess.py"),
        layout.join("submission/chess.py"),
    )
    .unwrap();
    layout
}

/// PrairieLearn's `/grade` for the same game, built with `extra`, the correct submission in
/// place; returns it.
fn prairielearn_layout(dir: &Path, extra: &[&str]) -> PathBuf {
    let out = dir.join("course");
    boardgrade()
        .args(["prairielearn", "--sandbox", "limits", "--specs"])
        .arg(root().join("tests/selftest/hostile_game.toml"))
        .arg("--out")
        .arg(&out)
        .args(["--question", "one-d-chess"])
        .args(extra)
        .assert()
        .success();
    let grade = dir.join("grade");
    common::copy_tree(
        &out.join("serverFilesCourse"),
        &grade.join("serverFilesCourse"),
    );
    common::copy_tree(
        &out.join("questions/one-d-chess/tests"),
        &grade.join("tests"),
    );
    std::fs::create_dir_all(grade.join("student")).unwrap();
    std::fs::copy(
        root().join("fixtures/one-d-chess/csc110/chess.py"),
        grade.join("student/chess.py"),
    )
    .unwrap();
    grade
}

/// What the refusal says: the network, and how a course may allow it.
fn assert_names_the_network(why: &str) {
    assert!(why.contains("network open"), "{why}");
    assert!(why.contains("--allow-open-network"), "{why}");
}

#[test]
fn gradescope_refuses_limits_with_the_network_open_unless_the_course_allows_it() {
    if !common::is_root() || !can_close_network_namespaces() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let layout = gradescope_layout(&dir.path().join("strict"), &[]);
    let output = without_network_namespaces("bash", &[&layout.join("source/run_autograder")])
        .env("AUTOGRADER_ROOT", &layout)
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
    assert_names_the_network(results["extra_data"]["refused"].as_str().unwrap());

    // Built allowing it, the same machine is not refused for the network.
    let layout = gradescope_layout(&dir.path().join("allowed"), &["--allow-open-network"]);
    let script = std::fs::read_to_string(layout.join("source/run_autograder")).unwrap();
    assert!(
        script.contains("--sandbox limits --allow-open-network --"),
        "{script}"
    );
    without_network_namespaces("bash", &[&layout.join("source/run_autograder")])
        .env("AUTOGRADER_ROOT", &layout)
        .output()
        .unwrap();
    let results = read_json(&layout.join("results/results.json"));
    let refused = results["extra_data"]["refused"].as_str().unwrap_or("");
    assert!(!refused.contains("network"), "{results:#}");
}

#[test]
fn prairielearn_says_not_gradable_with_the_network_open_unless_the_course_allows_it() {
    if !common::is_root() || !can_close_network_namespaces() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let grade = prairielearn_layout(&dir.path().join("strict"), &[]);
    let run = grade.join("serverFilesCourse/boardgrade/run.sh");
    let status = without_network_namespaces("bash", &[&run])
        .env("PL_GRADE_ROOT", &grade)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let results = read_json(&grade.join("results/results.json"));
    common::schema::assert_valid("prairielearn", &results, "results.json");
    assert_eq!(results["gradable"], false, "{results:#}");
    let message = results["message"].as_str().unwrap();
    assert_names_the_network(message);
    assert!(message.contains("costs no attempt"), "{message}");

    let grade = prairielearn_layout(&dir.path().join("allowed"), &["--allow-open-network"]);
    let run = grade.join("serverFilesCourse/boardgrade/run.sh");
    without_network_namespaces("bash", &[&run])
        .env("PL_GRADE_ROOT", &grade)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    let results = read_json(&grade.join("results/results.json"));
    let message = results["message"].as_str().unwrap_or("");
    assert!(!message.contains("network"), "{results:#}");
}
