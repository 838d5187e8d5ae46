//! Scores are exact in every output: ten scenarios worth 0.1 each add up to 1, and seven of
//! them to 0.7, in the terminal, the JSON of `test` and `grade`, grades.csv, the gradebook,
//! the summaries, the HTML report, Gradescope's results.json and PrairieLearn's. Floating
//! point would write 0.9999999999999999 and 0.7000000000000001.

mod common;

use std::path::{Path, PathBuf};

use common::{boardgrade, test_json};
use serde_json::Value;

const CORRECT: &str = "fixtures/one-d-chess/project5/one_d_chess.py";
/// Passes the seven scenarios that set the board, fails the three that create it.
const SEVEN: &str = "fixtures/one-d-chess/project5/bug-create-board-cell.py";

/// Ten project5 scenarios worth 0.1 each: seven set the board and read it back, three call
/// `create_board`.
fn tenths(dir: &Path) -> PathBuf {
    let mut text = String::from("game = \"one-d-chess\"\ndialect = \"project5\"\npoints = 0.1\n");
    for i in 0..7 {
        text.push_str(&format!(
            "\n[[scenario]]\nname = \"set and read {i}\"\nsteps = [{{ send = \"set_board WKi \
             WKn WKn EMPTY EMPTY EMPTY BKn BKn BKi\" }}, {{ send = \"board\" }}]\n"
        ));
    }
    for i in 0..3 {
        text.push_str(&format!(
            "\n[[scenario]]\nname = \"create {i}\"\nsteps = [{{ send = \"create_board\" }}]\n"
        ));
    }
    let specs = dir.join("specs");
    std::fs::create_dir_all(&specs).unwrap();
    std::fs::write(specs.join("tenths.toml"), text).unwrap();
    specs
}

/// No output may carry a float sum's error.
fn no_drift(what: &str, text: &str) {
    for drift in [
        "0.9999",
        "0.7000000",
        "0.6999999",
        "1.0000000",
        "0.30000000",
    ] {
        assert!(!text.contains(drift), "{what} has {drift}:\n{text}");
    }
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn ten_tenths_make_one_in_test_output() {
    let dir = tempfile::tempdir().unwrap();
    let specs = tenths(dir.path());
    let specs = specs.to_str().unwrap();
    for (file, summary) in [
        (CORRECT, "10 passed, 0 failed; score 1/1"),
        (SEVEN, "7 passed, 3 failed (3 wrong); score 0.7/1"),
    ] {
        let output = boardgrade()
            .args(["test", specs, "--sandbox", "none", "--python", file])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(stdout.contains(summary), "{stdout}");
    }

    let (code, report) = test_json(&[specs, "--sandbox", "none", "--python", CORRECT]);
    assert_eq!(code, 0);
    assert_eq!(report["summary"]["score"].as_f64(), Some(1.0));
    assert_eq!(report["summary"]["max_score"].as_f64(), Some(1.0));
    no_drift("test --format json", &report.to_string());
    let (_, report) = test_json(&[specs, "--sandbox", "none", "--python", SEVEN]);
    assert_eq!(report["summary"]["score"].as_f64(), Some(0.7));
    for scenario in report["scenarios"].as_array().unwrap() {
        assert_eq!(scenario["max_score"].as_f64(), Some(0.1), "{scenario:#}");
    }
    no_drift("test --format json", &report.to_string());
}

#[test]
fn ten_tenths_make_one_in_every_class_output() {
    let dir = tempfile::tempdir().unwrap();
    let specs = tenths(dir.path());
    let class = dir.path().join("class");
    for (student, file) in [("alice", CORRECT), ("bob", SEVEN)] {
        std::fs::create_dir_all(class.join(student)).unwrap();
        std::fs::copy(file, class.join(student).join("one_d_chess.py")).unwrap();
    }
    let out = dir.path().join("out");
    let report = |name: &str| format!("{name}={}", dir.path().join(name).display());
    let output = boardgrade()
        .arg("grade")
        .arg(&class)
        .arg("--specs")
        .arg(&specs)
        .arg("--out")
        .arg(&out)
        .args(["--sandbox", "none"])
        .args(["--report", &report("html")])
        .args(["--report", &report("json")])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    no_drift("grade's terminal report", &stdout);
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("alice") && l.contains(" 1/1 ")),
        "{stdout}"
    );
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("bob") && l.contains(" 0.7/1 ")),
        "{stdout}"
    );
    assert!(stdout.contains("mean score 0.85/1"), "{stdout}");

    let grades = read(&out.join("grades.csv"));
    no_drift("grades.csv", &grades);
    assert!(grades.contains("\nalice,project5,1,1,"), "{grades}");
    assert!(grades.contains("\nbob,project5,0.7,1,"), "{grades}");
    let gradebook = read(&out.join("gradebook.csv"));
    assert_eq!(
        gradebook.lines().skip(1).collect::<Vec<_>>(),
        ["alice,1", "bob,0.7"]
    );
    for file in ["summary.txt", "summary.json", "run.json"] {
        no_drift(file, &read(&out.join(file)));
    }
    let summary: Value = serde_json::from_str(&read(&out.join("summary.json"))).unwrap();
    assert_eq!(summary["max_score"].as_f64(), Some(1.0), "{summary:#}");
    let all: Value = serde_json::from_str(&read(&dir.path().join("json"))).unwrap();
    no_drift("--report json", &all.to_string());
    let scores: Vec<Option<f64>> = all["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["score"].as_f64())
        .collect();
    assert_eq!(scores, [Some(1.0), Some(0.7)], "{all:#}");
    let html = read(&dir.path().join("html"));
    no_drift("the HTML report", &html);
    assert!(
        html.contains(">0.7/1<"),
        "the HTML report shows bob's 0.7/1"
    );
}

#[test]
fn ten_tenths_make_one_on_the_platforms() {
    let dir = tempfile::tempdir().unwrap();
    let specs = tenths(dir.path());
    for (format, student, file) in [
        ("gradescope", "alice", CORRECT),
        ("gradescope", "bob", SEVEN),
        ("prairielearn", "bob", SEVEN),
    ] {
        let out = dir.path().join(format!("{format}-{student}"));
        let output = boardgrade()
            .arg("grade")
            .arg(file)
            .arg("--one-submission")
            .arg("--specs")
            .arg(&specs)
            .arg("--out")
            .arg(&out)
            .args(["--sandbox", "none", "--format", format])
            .output()
            .unwrap();
        assert_eq!(
            output.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let text = read(&out.join("results.json"));
        no_drift(format, &text);
        let results: Value = serde_json::from_str(&text).unwrap();
        match (format, student) {
            ("gradescope", "alice") => assert_eq!(results["score"].as_f64(), Some(1.0)),
            ("gradescope", _) => {
                assert_eq!(results["score"].as_f64(), Some(0.7), "{results:#}");
                let tests = results["tests"].as_array().unwrap();
                assert_eq!(tests.len(), 10);
                let sum: Vec<f64> = tests
                    .iter()
                    .map(|t| t["max_score"].as_f64().unwrap())
                    .collect();
                assert!(sum.iter().all(|m| *m == 0.1), "{sum:?}");
            }
            _ => {
                assert_eq!(results["score"].as_f64(), Some(0.7), "{results:#}");
                let message = results["message"].as_str().unwrap();
                assert!(message.contains("0.7/1 points"), "{message}");
            }
        }
    }
}
