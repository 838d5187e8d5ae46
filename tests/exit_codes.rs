//! The exit codes of the README's table, as a user meets them: a stop by SIGTERM or Ctrl-C,
//! a reader that goes away, names the games do not know.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::boardgrade;

/// `boardgrade test ARGS` started with stdout piped.
fn spawn_test(args: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_boardgrade"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .arg("test")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("boardgrade runs")
}

fn signal(child: &std::process::Child, name: &str) {
    let status = Command::new("kill")
        .args([name, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// Waits for the child, failing the test if it does not end within a minute.
fn wait(child: &mut std::process::Child) -> std::process::ExitStatus {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("boardgrade did not stop after the signal");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_test_run_stopped_by_a_signal_exits_130() {
    for name in ["-TERM", "-INT"] {
        // A program that never answers: the run is still going when the signal comes.
        let mut child = spawn_test(&[
            "specs/one-d-chess/project5",
            "--cmd",
            "sleep 30",
            "--jobs",
            "1",
        ]);
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        assert!(first.starts_with("running "), "{first}");
        signal(&child, name);
        let status = wait(&mut child);
        assert_eq!(status.code(), Some(130), "after {name}");
    }
}

#[test]
fn a_cut_pipe_after_failures_is_never_success() {
    // `cat` fails every scenario; the report is long, and its reader leaves after a line.
    let mut child = spawn_test(&["specs/one-d-chess/project5", "--cmd", "cat"]);
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let status = wait(&mut child);
    assert_ne!(status.code(), Some(0));
    assert_eq!(status.code(), Some(141));
}

#[test]
fn filters_naming_no_game_or_dialect_are_refused_with_the_known_names() {
    let output = boardgrade()
        .args(["test", "--game", "checkers"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("unknown game \"checkers\"") && stderr.contains("one-d-chess"),
        "{stderr}"
    );

    let output = boardgrade()
        .args(["test", "--game", "one-d-chess", "--dialect", "csc111"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("unknown dialect \"csc111\"") && stderr.contains("project5"),
        "{stderr}"
    );

    let output = boardgrade()
        .args(["grade", "fixtures", "--dialect", "csc111"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("unknown dialect \"csc111\""));
}

#[test]
fn help_ends_with_the_exit_codes() {
    let output = boardgrade().arg("--help").output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    // The help is wrapped to the terminal: its words, whatever the line breaks.
    let help = String::from_utf8_lossy(&output.stdout)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for code in [
        "0 all scenarios passed",
        "3 (grade, merge) a submission could not be graded",
        "130 interrupted",
        "141 stdout closed",
    ] {
        assert!(help.contains(code), "{code} missing from:\n{help}");
    }
}
