//! What `grade` writes: several reports from one run, a gradebook for the LMS, CSV columns
//! that never repeat, partitioned runs merged equal to one run, and a cut pipe never taken
//! for success.

mod common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::Stdio;

use common::{boardgrade, root};

/// A class of `count` one-file submissions, correct and buggy in turn.
fn class(dir: &Path, count: usize) -> PathBuf {
    let class = dir.join("class");
    std::fs::create_dir_all(&class).unwrap();
    let fixtures = [
        "one-d-chess/project5/one_d_chess.py",
        "one-d-chess/project5/bug-negative-index.py",
        "one-d-chess/project5/bug-king-short-of-edge.py",
    ];
    for i in 0..count {
        let student = class.join(format!("student.{i}"));
        std::fs::create_dir_all(&student).unwrap();
        std::fs::copy(
            root().join("fixtures").join(fixtures[i % fixtures.len()]),
            student.join("one_d_chess.py"),
        )
        .unwrap();
    }
    class
}

fn grade(class: &Path, specs: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    boardgrade()
        .arg("grade")
        .arg(class)
        .arg("--specs")
        .arg(specs)
        .arg("--out")
        .arg(out)
        .args(["--jobs", "2"])
        .args(extra)
        .output()
        .unwrap()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn three_partitions_merged_equal_one_whole_run() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(dir.path(), 9);
    let specs = common::project5_specs(dir.path(), &["is_valid_move.toml", "move_king.toml"]);
    let whole = dir.path().join("whole");
    let report = format!("json={}", whole.join("all.json").display());
    let output = grade(&class, &specs, &whole, &["--report", &report]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");

    let mut parts = Vec::new();
    let mut sizes = Vec::new();
    for k in 1..=3 {
        let out = dir.path().join(format!("part{k}"));
        let share = format!("{k}/3");
        grade(&class, &specs, &out, &["--partition", &share]);
        let manifest: serde_json::Value =
            serde_json::from_str(&read(&out.join("run.json"))).unwrap();
        assert_eq!(manifest["complete"], true);
        sizes.push(manifest["submissions"].as_array().unwrap().len());
        parts.push(out);
    }
    assert_eq!(sizes, [3, 3, 3], "shares differ by one at most");

    let merged = dir.path().join("merged");
    let output = boardgrade()
        .arg("merge")
        .args(&parts)
        .arg("--out")
        .arg(&merged)
        .args([
            "--report",
            &format!("json={}", merged.join("all.json").display()),
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    for file in ["grades.csv", "gradebook.csv", "summary.txt", "summary.json"] {
        let (one, joined) = (read(&whole.join(file)), read(&merged.join(file)));
        assert!(joined == one, "{file} differs:\n{one}\n---\n{joined}");
    }
    // The full document too, but for the times measured (two whole runs differ in those).
    let untimed = |path: PathBuf| {
        let mut value: serde_json::Value = serde_json::from_str(&read(&path)).unwrap();
        drop_times(&mut value);
        value
    };
    assert!(untimed(whole.join("all.json")) == untimed(merged.join("all.json")));

    // A share missing, or given twice, is refused.
    let output = boardgrade()
        .arg("merge")
        .args([&parts[0], &parts[0]])
        .arg("--out")
        .arg(dir.path().join("bad"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("given twice"));
}

fn drop_times(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(map) => {
            map.retain(|key, _| !key.ends_with("_ms"));
            map.values_mut().for_each(drop_times);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(drop_times),
        _ => {}
    }
}

#[test]
fn several_reports_from_one_run_and_a_gradebook() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(dir.path(), 2);
    // Two files holding scenarios of the same names: the CSV keeps them apart.
    let specs = common::project5_specs(dir.path(), &["is_valid_move.toml"]);
    std::fs::copy(specs.join("is_valid_move.toml"), specs.join("again.toml")).unwrap();
    let out = dir.path().join("out");
    let (junit, json, csv) = (
        dir.path().join("reports/junit.xml"),
        dir.path().join("reports/all.json"),
        dir.path().join("reports/grades.csv"),
    );
    let output = grade(
        &class,
        &specs,
        &out,
        &[
            "--assignment",
            "Project 5",
            "--report",
            &format!("junit={}", junit.display()),
            "--report",
            &format!("json={}", json.display()),
            "--report",
            &format!("csv={}", csv.display()),
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let xml = read(&junit);
    assert!(xml.contains("<testsuite name=\"student.0\""), "{xml}");
    let document: serde_json::Value = serde_json::from_str(&read(&json)).unwrap();
    assert_eq!(document["submissions"].as_array().unwrap().len(), 2);
    assert_eq!(read(&csv), read(&out.join("grades.csv")));

    let mut table = csv_rows(&read(&csv));
    let header = table.remove(0);
    let mut titles = header.clone();
    titles.sort();
    titles.dedup();
    assert_eq!(titles.len(), header.len(), "no repeated column: {header:?}");
    assert!(
        header.iter().any(|t| t.contains("again.toml)")),
        "{header:?}"
    );

    let gradebook = csv_rows(&read(&out.join("gradebook.csv")));
    assert_eq!(gradebook[0], ["student", "Project 5"]);
    let students: Vec<&str> = gradebook[1..].iter().map(|r| r[0].as_str()).collect();
    assert_eq!(students, ["student.0", "student.1"]);
    let total: f64 = gradebook[1][1].parse().unwrap();
    assert!(total > 0.0);
}

/// Rows of a CSV text, quoted fields read as the `csv` crate writes them.
fn csv_rows(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    for line in text.lines() {
        let mut fields = Vec::new();
        let (mut field, mut quoted, mut chars) = (String::new(), false, line.chars().peekable());
        while let Some(c) = chars.next() {
            match (c, quoted) {
                ('"', true) if chars.peek() == Some(&'"') => {
                    field.push('"');
                    chars.next();
                }
                ('"', _) => quoted = !quoted,
                (',', false) => fields.push(std::mem::take(&mut field)),
                _ => field.push(c),
            }
        }
        fields.push(field);
        rows.push(fields);
    }
    rows
}

#[test]
fn a_cut_pipe_is_never_success_and_the_files_are_complete() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(dir.path(), 1); // one correct submission: a full run would exit 0
    let specs = common::project5_specs(dir.path(), &["is_valid_move.toml"]);
    let out = dir.path().join("out");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_boardgrade"))
        .current_dir(root())
        .arg("grade")
        .arg(&class)
        .arg("--specs")
        .arg(&specs)
        .arg("--out")
        .arg(&out)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Like `| head -1`: read one line, then go away.
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("grading 1 submission"), "{first}");
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(141));
    assert!(read(&out.join("grades.csv")).contains("student.0,project5,"));
}

/// Grades a class of chess teams, each `(name, fixture)` a copy of a fixture of
/// `fixtures/chess/ecs198f`, with the bundled chess specs: the output folder and the summary.
fn chess_class_summary(dir: &Path, teams: &[(&str, &str)]) -> (PathBuf, serde_json::Value) {
    let class = dir.join("class");
    for (team, fixture) in teams {
        common::copy_tree(
            &root().join("fixtures/chess/ecs198f").join(fixture),
            &class.join(team),
        );
    }
    let out = dir.join("out");
    grade(&class, &root().join("specs/chess"), &out, &[]);
    let summary = serde_json::from_str(&read(&out.join("summary.json"))).unwrap();
    (out, summary)
}

#[test]
fn one_mistake_across_many_scenarios_is_one_group() {
    let dir = tempfile::tempdir().unwrap();
    let bug = "bug-uppercase-letter";
    let (out, summary) = chess_class_summary(dir.path(), &[("team1", bug), ("team2", bug)]);
    let groups = summary["common_failures"].as_array().unwrap();
    assert_eq!(groups.len(), 1, "{groups:#?}");
    let group = &groups[0];
    assert_eq!(group["submissions"], serde_json::json!(["team1", "team2"]));
    let named = group["scenarios"].as_array().unwrap().len();
    assert!(named > 1, "{group:#}");
    let (expected, actual) = (
        &group["difference"]["expected"],
        &group["difference"]["actual"],
    );
    assert_ne!(expected, actual);
    assert_eq!(
        expected.as_str().unwrap().to_lowercase(),
        actual.as_str().unwrap().to_lowercase()
    );
    let text = read(&out.join("summary.txt"));
    assert!(
        text.contains(&format!("2 x wrong in {named} scenarios")),
        "{text}"
    );
}

#[test]
fn a_mistakes_values_are_quoted_once() {
    // Two teams that refuse a legal queen-side castle: `play_move` answers `''` where the
    // reference answers `'0-0-0'`.
    let dir = tempfile::tempdir().unwrap();
    let bug = "bug-queen-side-castle-refused";
    let (out, summary) = chess_class_summary(dir.path(), &[("team1", bug), ("team2", bug)]);
    let refused = summary["common_failures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["difference"]["actual_line"] == "''")
        .unwrap_or_else(|| panic!("{summary:#}"));
    // The value as the program wrote it, for each output to quote in its own way.
    assert_eq!(refused["difference"]["actual"], "''", "{refused:#}");
    let text = read(&out.join("summary.txt"));
    assert!(text.contains(r#"got "''""#), "{text}");
    assert!(!text.contains(r#"\""#), "{text}");
}

#[test]
fn test_writes_junit_and_json_from_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let (junit, json) = (dir.path().join("j.xml"), dir.path().join("r/r.json"));
    let output = boardgrade()
        .args([
            "test",
            "specs/one-d-chess/project5/is_valid_move.toml",
            "--python",
            "fixtures/one-d-chess/project5/bug-negative-index.py",
            "--report",
            &format!("junit={}", junit.display()),
            "--report",
            &format!("json={}", json.display()),
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stdout).contains("WRONG"));
    let xml = read(&junit);
    let document: serde_json::Value = serde_json::from_str(&read(&json)).unwrap();
    let scenarios = document["scenarios"].as_array().unwrap();
    let wrong = scenarios.iter().filter(|s| s["verdict"] == "wrong").count();
    assert_eq!(xml.matches("<testcase ").count(), scenarios.len());
    assert_eq!(xml.matches("<failure ").count(), wrong);
    assert!(wrong > 0);

    let refused = boardgrade()
        .args(["test", "--report", "csv=x.csv"])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
}

#[test]
fn one_bug_is_one_group_and_each_group_names_only_what_its_submissions_failed() {
    // The pawn that takes nothing answers a capture of its own in each game (`f7xg6`,
    // `c7xb6`): one bug, one group. Refusing en passant and refusing a king step are both a
    // move answered `''`, but two bugs of different teams: never one group.
    let dir = tempfile::tempdir().unwrap();
    let teams = [
        ("pawn1", "bug-pawn-takes-nothing"),
        ("pawn2", "bug-pawn-takes-nothing"),
        ("passant1", "bug-no-en-passant"),
        ("passant2", "bug-no-en-passant"),
        ("king1", "bug-king-step-refused"),
        ("king2", "bug-king-step-refused"),
    ];
    let (out, summary) = chess_class_summary(dir.path(), &teams);
    let groups = summary["common_failures"].as_array().unwrap();
    let named = |group: &serde_json::Value| -> Vec<String> {
        let names = group["submissions"].as_array().unwrap();
        names
            .iter()
            .map(|n| n.as_str().unwrap().to_string())
            .collect()
    };
    let pawn: Vec<_> = groups
        .iter()
        .filter(|g| named(g).iter().any(|n| n.starts_with("pawn")))
        .collect();
    assert_eq!(pawn.len(), 1, "{pawn:#?}");
    assert_eq!(named(pawn[0]), ["pawn1", "pawn2"]);
    assert!(
        pawn[0]["scenarios"].as_array().unwrap().len() >= 3,
        "{pawn:#?}"
    );
    // No group joins teams with different bugs, and none lists a submission under a scenario
    // it passed.
    let mut failed: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for file in std::fs::read_dir(out.join("submissions")).unwrap() {
        let result: serde_json::Value = serde_json::from_str(&read(&file.unwrap().path())).unwrap();
        let scenarios = result["scenarios"].as_array().unwrap();
        failed.insert(
            result["id"].as_str().unwrap().to_string(),
            scenarios
                .iter()
                .filter(|s| s["verdict"] != "pass")
                .map(|s| s["name"].as_str().unwrap().to_string())
                .collect(),
        );
    }
    for group in groups {
        let teams = named(group);
        let bug = |team: &str| team.trim_end_matches(char::is_numeric).to_string();
        assert!(teams.iter().all(|t| bug(t) == bug(&teams[0])), "{group:#}");
        for scenario in group["scenarios"].as_array().unwrap() {
            for team in &teams {
                assert!(
                    failed[team].iter().any(|f| f == scenario.as_str().unwrap()),
                    "{team} passed {scenario} yet is listed under it: {group:#}"
                );
            }
        }
    }
}
