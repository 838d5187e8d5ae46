//! The harness tested through its own scenario format: `tests/selftest/verdicts.toml` drives
//! `fixtures/selftest/selftest.py` to every verdict, each scenario naming the verdict (and
//! step) it must get in its tags.

mod common;

use std::time::{Duration, Instant};

use common::{boardgrade, test_json};
use predicates::prelude::*;
use serde_json::Value;

const SCENARIOS: &str = "tests/selftest/verdicts.toml";

fn selftest(marker: &str) -> String {
    format!("python3 fixtures/selftest/selftest.py {marker}")
}

fn tag<'a>(scenario: &'a Value, prefix: &str) -> Option<&'a str> {
    scenario["tags"]
        .as_array()?
        .iter()
        .filter_map(Value::as_str)
        .find_map(|t| t.strip_prefix(prefix))
}

/// Processes still alive (not zombies) whose command line contains `marker`.
fn live_processes(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let status = std::fs::read_to_string(entry.path().join("status")).unwrap_or_default();
        let zombie = status
            .lines()
            .any(|l| l.starts_with("State:") && l.contains('Z'));
        let text = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if !zombie && text.contains(marker) && !text.contains("cargo") {
            found.push(text);
        }
    }
    found
}

#[test]
fn every_scenario_gets_the_verdict_it_names() {
    let cmd = selftest("verdicts");
    let (code, report) = test_json(&[
        SCENARIOS,
        "--cmd",
        &cmd,
        "--output-limit",
        "65536",
        "--memory-limit",
        "512",
    ]);
    assert_eq!(code, 1, "some scenarios must fail");
    let scenarios = report["scenarios"].as_array().unwrap();
    assert!(scenarios.len() >= 15);
    let mut verdicts_seen = std::collections::BTreeSet::new();
    for s in scenarios {
        let name = s["name"].as_str().unwrap();
        let want = tag(s, "expect:").unwrap_or_else(|| panic!("{name} names no verdict"));
        assert_eq!(s["verdict"], want, "{name}: {s:#}");
        verdicts_seen.insert(want.to_string());
        if let Some(step) = tag(s, "step:") {
            assert_eq!(
                s["first_divergence"]["step"].to_string(),
                step,
                "{name}: {s:#}"
            );
        }
        if want == "timeout" {
            // A 1 s limit of CPU time: a sleeping program is cut at the wall-clock limit
            // beside it, 3 s.
            assert!(
                s["duration_ms"].as_u64().unwrap() < 4500,
                "{name} took {}",
                s["duration_ms"]
            );
        }
    }
    for verdict in [
        "pass",
        "wrong",
        "presentation",
        "timeout",
        "crash",
        "output-limit",
        "memory-limit",
    ] {
        assert!(verdicts_seen.contains(verdict), "no scenario for {verdict}");
    }
}

#[test]
fn crashes_show_the_exit_and_stderr() {
    let (_, report) = test_json(&[
        SCENARIOS,
        "--cmd",
        &selftest("crashes"),
        "--filter",
        "crash",
    ]);
    let by_name = |needle: &str| {
        report["scenarios"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"].as_str().unwrap().contains(needle))
            .cloned()
            .unwrap()
    };
    let exception = by_name("an exception");
    assert!(exception["stderr_tail"]
        .as_str()
        .unwrap()
        .contains("RuntimeError: boom"));
    assert_eq!(exception["detail"], "exited with status 1");
    let exit = by_name("non-zero exit");
    assert_eq!(exit["detail"], "exited with status 3");
}

#[test]
fn a_timeout_comes_within_its_limit_and_leaves_no_process() {
    let marker = format!("timeout-marker-{}", std::process::id());
    let started = Instant::now();
    let (_, report) = test_json(&[
        SCENARIOS,
        "--cmd",
        &selftest(&marker),
        "--filter",
        "sleeps past its limit",
    ]);
    // The wall-clock limit of a 1 s scenario is 3 s.
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "took {:?}",
        started.elapsed()
    );
    assert_eq!(report["scenarios"][0]["verdict"], "timeout");
    assert_eq!(live_processes(&marker), Vec::<String>::new());
}

#[test]
fn a_background_child_is_killed_with_its_parent() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("child.toml");
    std::fs::write(&file, "game = \"one-d-chess\"\ndialect = \"project5\"\nname = \"child\"\nsteps = [{ send = \"go\", expect = \"started\\n\" }]\n").unwrap();
    for (sandbox, seconds) in [("none", 3041), ("limits", 3042), ("bwrap", 3043)] {
        if sandbox == "bwrap" && !boardgrade::execution::sandbox::bwrap_works() {
            continue;
        }
        let marker = format!("sleep {seconds}");
        // The parent answers, then exits; its child would sleep on, holding the pipes.
        let cmd = format!("sh -c '{marker} & echo =started; echo .'");
        let started = Instant::now();
        let (code, report) =
            test_json(&[file.to_str().unwrap(), "--cmd", &cmd, "--sandbox", sandbox]);
        assert_eq!(code, 0, "{sandbox}: {report:#}");
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{sandbox}: the child held the run"
        );
        assert_eq!(live_processes(&marker), Vec::<String>::new(), "{sandbox}");
    }
}

#[test]
fn trailing_spaces_are_made_visible() {
    boardgrade()
        .args([
            "test",
            SCENARIOS,
            "--cmd",
            &selftest("spaces"),
            "--filter",
            "trailing spaces",
        ])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("+ text··"));
}
