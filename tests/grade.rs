//! Grading a class through the real binary: verdicts and scores per submission, the CSV and
//! class summary, --resume after an interrupted run, JUnit, and the Gradescope zip run in a
//! scratch /autograder layout.

mod common;

use std::process::Stdio;
use std::time::Duration;

use common::{boardgrade, copy_tree, make_class, root, unzip};
use serde_json::Value;

const ONE_D: &str = "one_d_chess.py";

fn grade_json(args: &[&str]) -> (i32, Value) {
    let (code, report, _) = common::grade_json(args);
    (code, report)
}

fn scores(report: &Value) -> Vec<(String, f64, Option<String>)> {
    report["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["id"].as_str().unwrap().to_string(),
                r["score"].as_f64().unwrap(),
                r["dialect"].as_str().map(str::to_string),
            )
        })
        .collect()
}

#[test]
fn a_mixed_class_is_graded_with_csv_and_summary() {
    let dir = tempfile::tempdir().unwrap();
    let class = make_class(
        &dir.path().join("class"),
        &[
            ("alice", "one-d-chess/project5/one_d_chess.py", ONE_D),
            ("bob", "one-d-chess/project5/bug-negative-index.py", ONE_D),
            ("carol", "one-d-chess/project5/bug-negative-index.py", ONE_D),
            ("dave", "one-d-chess/csc110/chess.py", "chess.py"),
            ("erin", "pown-chess/pown-chess.py", "pown-chess.py"),
            ("frank", "pown-chess/bug-no-powns.py", "pown-chess.py"),
            ("gina", "hostile/infinite_loop.py", ONE_D),
        ],
    );
    std::fs::create_dir_all(class.join("harry")).unwrap(); // nothing handed in
    std::fs::create_dir_all(class.join("ivan")).unwrap();
    std::fs::copy(
        root().join("fixtures/minichess/ecs10/prog67.py"),
        class.join("ivan/prog67.py"),
    )
    .unwrap();
    std::fs::create_dir_all(class.join("judy")).unwrap();
    std::fs::copy(
        root().join("fixtures/minichess/ecs10/bug-wrap-capture.py"),
        class.join("judy/prog67.py"),
    )
    .unwrap();
    copy_tree(
        &root().join("fixtures/chess/ecs198f/correct"),
        &class.join("kim"),
    );
    copy_tree(
        &root().join("fixtures/chess/ecs198f/bug-no-en-passant"),
        &class.join("leo"),
    );
    let out = dir.path().join("out");
    let (code, report) = grade_json(&[
        class.to_str().unwrap(),
        "--specs",
        "specs/one-d-chess",
        "--specs",
        "specs/pown-chess/pown",
        "--specs",
        "specs/minichess/ecs10",
        "--specs",
        "specs/chess/ecs198f",
        "--out",
        out.to_str().unwrap(),
        "--jobs",
        "2",
    ]);
    assert_eq!(code, 0);
    let got = scores(&report);
    let find = |id: &str| got.iter().find(|(i, _, _)| i == id).cloned().unwrap();
    assert_eq!(
        find("alice"),
        ("alice".into(), 40.0, Some("project5".into()))
    );
    // 36 for the project5 scenarios and code checks, 4 for the rule battery's families, of
    // which bob fails the valid-move one along with the two handout asserts he breaks.
    assert_eq!(find("bob").1, 37.0);
    // 15 for the game (csc110's game scenarios) and 4 for its rule battery's families, 6 for
    // seed 001's functions called one by one (csc110-functions) and 4 for their rule
    // battery's families, 7 for the code checks.
    assert_eq!(find("dave"), ("dave".into(), 36.0, Some("csc110".into())));
    // 23 for the game scenarios (the one about printing among them), 2 for the code checks,
    // 4 for the rule battery's families.
    assert_eq!(find("erin"), ("erin".into(), 29.0, Some("pown".into())));
    assert!(find("frank").1 < 29.0);
    assert_eq!(find("harry").2, None);
    let full = |id: &str| {
        let r = report["submissions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == id)
            .unwrap();
        (
            r["score"].as_f64().unwrap(),
            r["max_score"].as_f64().unwrap(),
            r["dialect"].as_str().unwrap().to_string(),
        )
    };
    let (score, max, dialect) = full("ivan");
    assert_eq!((score, dialect.as_str()), (max, "ecs10"));
    let (score, max, _) = full("judy");
    assert!(score < max);
    let (score, max, dialect) = full("kim");
    assert_eq!((score, dialect.as_str()), (max, "ecs198f"));
    let (score, max, _) = full("leo");
    assert!(score < max && score > 0.0);
    // The looping submission: every scenario timed out, none passed.
    let gina = report["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "gina")
        .unwrap();
    assert_eq!(gina["score"], 0.0);
    // The adapter never runs the top-level loop, so the module loads and each call times out
    // or answers; either way nothing passes and the run came back.
    assert!(gina["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .all(|s| s["verdict"] != "pass"));

    let csv = std::fs::read_to_string(out.join("grades.csv")).unwrap();
    let header = csv.lines().next().unwrap();
    assert!(header.starts_with("submission,dialect,score,max_score,"));
    assert!(header.contains("is_valid_move: the handout's asserts"));
    assert_eq!(csv.lines().count(), 13, "{csv}");
    assert!(csv.lines().any(|l| l.starts_with("alice,project5,40,40,")));
    assert!(
        csv.lines()
            .any(|l| l.starts_with("harry,,0,") && l.contains(",no Python file (.py) to grade")),
        "{csv}"
    );

    // bob and carol made the same mistake: grouped in the summary.
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let groups = summary["common_failures"].as_array().unwrap();
    let negative = groups
        .iter()
        .find(|g| {
            g["send"]
                .as_str()
                .is_some_and(|send| send.starts_with("is_valid_move -"))
        })
        .expect("a group for the negative index");
    assert_eq!(negative["submissions"], serde_json::json!(["bob", "carol"]));
    let text = std::fs::read_to_string(out.join("summary.txt")).unwrap();
    assert!(text.contains("common mistakes"), "{text}");
    // Each submission's result was stored as it finished, under its name and its hash.
    let stored: Vec<String> = std::fs::read_dir(out.join("submissions"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    for id in ["alice", "bob", "gina", "harry"] {
        assert!(
            stored
                .iter()
                .any(|f| f.starts_with(&format!("{id}-")) && f.ends_with(".json")),
            "{id} in {stored:?}"
        );
    }
}

#[test]
fn an_interrupted_run_resumes_to_the_same_results() {
    let dir = tempfile::tempdir().unwrap();
    let mut members: Vec<(String, &str, &str)> = Vec::new();
    for i in 0..8 {
        members.push((
            format!("s{i}"),
            "one-d-chess/project5/bug-king-short-of-edge.py",
            ONE_D,
        ));
    }
    let borrowed: Vec<(&str, &str, &str)> = members
        .iter()
        .map(|(a, b, c)| (a.as_str(), *b, *c))
        .collect();
    let class = make_class(&dir.path().join("class"), &borrowed);
    let specs = ["--specs", "specs/one-d-chess/project5"];
    let (full_out, part_out) = (dir.path().join("full"), dir.path().join("part"));

    let (_, full) = grade_json(
        &[
            &[class.to_str().unwrap()],
            &specs[..],
            &["--out", full_out.to_str().unwrap(), "--jobs", "2"],
        ]
        .concat(),
    );

    // A grades.csv from last week must not survive looking current.
    std::fs::create_dir_all(&part_out).unwrap();
    std::fs::write(part_out.join("grades.csv"), "submission,score\nold,1\n").unwrap();
    // Start the same run, interrupt it partway, then resume it.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_boardgrade"))
        .current_dir(root())
        .arg("grade")
        .arg(&class)
        .args(specs)
        .args([
            "--out",
            part_out.to_str().unwrap(),
            "--jobs",
            "1",
            "--format",
            "json",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stored = part_out.join("submissions");
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while std::fs::read_dir(&stored).map_or(0, |d| d.count()) < 2
        && std::time::Instant::now() < deadline
    {
        std::thread::sleep(Duration::from_millis(50));
    }
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    assert!(
        !part_out.join("grades.csv").exists(),
        "no class file after an interruption"
    );
    let manifest = std::fs::read_to_string(part_out.join("run.json")).unwrap();
    assert!(manifest.contains("\"complete\": false"), "{manifest}");
    let kept = std::fs::read_dir(&stored).unwrap().count();
    assert!((2..8).contains(&kept), "{kept} results kept");

    let output = boardgrade()
        .arg("grade")
        .arg(&class)
        .args(specs)
        .args([
            "--out",
            part_out.to_str().unwrap(),
            "--resume",
            "--format",
            "human",
            "--jobs",
            "2",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains(&format!("({kept} already graded)")), "{text}");
    assert_eq!(std::fs::read_dir(&stored).unwrap().count(), 8);
    let (_, resumed) = grade_json(
        &[
            &[class.to_str().unwrap()],
            &specs[..],
            &["--out", part_out.to_str().unwrap(), "--resume"],
        ]
        .concat(),
    );
    assert_eq!(scores(&resumed), scores(&full));
}

#[test]
fn junit_lists_a_case_per_scenario() {
    let dir = tempfile::tempdir().unwrap();
    let class = make_class(
        &dir.path().join("class"),
        &[("bob", "one-d-chess/project5/bug-negative-index.py", ONE_D)],
    );
    let output = boardgrade()
        .args([
            "grade",
            class.to_str().unwrap(),
            "--specs",
            "specs/one-d-chess/project5",
            "--format",
            "junit",
            "--out",
        ])
        .arg(dir.path().join("out"))
        .output()
        .unwrap();
    let xml = String::from_utf8(output.stdout).unwrap();
    assert!(xml.starts_with("<?xml"));
    // 34 project5 scenarios and code checks, 4 rule battery families.
    assert_eq!(xml.matches("<testcase ").count(), 38);
    assert_eq!(
        xml.matches("<failure message=\"wrong\" type=\"wrong\">")
            .count(),
        3
    );
    assert!(
        xml.contains(
            "<testsuite name=\"bob\" tests=\"38\" disabled=\"0\" errors=\"0\" failures=\"3\""
        ),
        "{xml}"
    );
}

#[test]
fn the_gradescope_zip_grades_a_scratch_autograder_layout() {
    let dir = tempfile::tempdir().unwrap();
    // Hidden scenarios never show their steps to students.
    let specs = common::project5_specs(dir.path(), &["is_valid_move.toml", "move_king.toml"]);
    let hidden =
        std::fs::read_to_string(root().join("specs/one-d-chess/project5/create_and_print.toml"))
            .unwrap()
            .replace(
                "tags = [\"handout\"]",
                "tags = [\"handout\"]\nvisibility = \"hidden\"\ntime_limit = 3",
            );
    std::fs::write(specs.join("hidden.toml"), hidden).unwrap();
    let zip = dir.path().join("autograder.zip");
    boardgrade()
        .args(["gradescope", "--specs"])
        .arg(&specs)
        .arg("--out")
        .arg(&zip)
        .assert()
        .success();

    // An upload is one student's whatever its files are named: a solution under a name of
    // its own beside a test file is graded, not taken for a class of two.
    for (name, fixture, file) in [
        ("correct", "one-d-chess/project5/one_d_chess.py", ONE_D),
        ("buggy", "one-d-chess/project5/bug-trailing-space.py", ONE_D),
        ("hanging", "hostile/sleep_forever.py", ONE_D),
        (
            "renamed",
            "one-d-chess/project5/one_d_chess.py",
            "My Solution (2).py",
        ),
    ] {
        let layout = dir.path().join(name).join("autograder");
        std::fs::create_dir_all(layout.join("submission")).unwrap();
        unzip(&zip, &layout.join("source"));
        std::fs::copy(
            root().join("fixtures").join(fixture),
            layout.join("submission").join(file),
        )
        .unwrap();
        if name == "renamed" {
            std::fs::write(
                layout.join("submission/test_chess.py"),
                "from one_d_chess import *\n\ndef test_board():\n    assert create_board()\n",
            )
            .unwrap();
        }
        let status = std::process::Command::new("bash")
            .arg(layout.join("source/run_autograder"))
            .env("AUTOGRADER_ROOT", &layout)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "{name}");
        let results: Value = serde_json::from_str(
            &std::fs::read_to_string(layout.join("results/results.json")).unwrap(),
        )
        .unwrap();
        let tests = results["tests"].as_array().unwrap();
        assert_eq!(tests.len(), 14, "{name}");
        for test in tests {
            for key in [
                "name",
                "number",
                "score",
                "max_score",
                "status",
                "output",
                "visibility",
                "tags",
            ] {
                assert!(test.get(key).is_some(), "{name}: tests[].{key}");
            }
        }
        assert!(results["execution_time"].is_number() && results["output"].is_string());
        let score = results["score"].as_f64().unwrap();
        match name {
            "correct" | "renamed" => assert_eq!(score, 14.0, "{name}: {results}"),
            "buggy" => {
                assert!(score > 0.0 && score < 14.0);
                let hidden = tests
                    .iter()
                    .find(|t| {
                        t["name"]
                            .as_str()
                            .unwrap()
                            .ends_with("printable_board returns the starting board")
                    })
                    .unwrap();
                assert_eq!(hidden["visibility"], "hidden");
                assert_eq!(hidden["status"], "failed");
                // Gradescope shows hidden tests to instructors only: the details are for them,
                // and the output students see says nothing of the test.
                let output = hidden["output"].as_str().unwrap();
                assert!(output.contains("shown to instructors only"), "{hidden}");
                assert!(
                    !results["output"]
                        .as_str()
                        .unwrap()
                        .contains("printable_board returns"),
                    "{results}"
                );
                let visible = tests
                    .iter()
                    .find(|t| t["status"] == "failed" && t["visibility"] == "visible");
                assert!(
                    visible.is_none()
                        || visible.unwrap()["output"]
                            .as_str()
                            .unwrap()
                            .contains("first divergence")
                );
            }
            _ => {
                // The module loads (its loop is never run), so every call answers or times out.
                assert!(score < 12.0);
            }
        }
    }
}

#[test]
fn nothing_to_grade_scores_0_out_of_a_maximum_a_submission_could_reach() {
    let dir = tempfile::tempdir().unwrap();
    let class = make_class(
        &dir.path().join("class"),
        &[
            ("alice", "one-d-chess/project5/one_d_chess.py", ONE_D),
            ("carol", "one-d-chess/csc110/chess.py", "chess.py"),
        ],
    );
    std::fs::create_dir_all(class.join("empty")).unwrap();
    std::fs::create_dir_all(class.join("notes")).unwrap();
    std::fs::write(class.join("notes/readme.txt"), "hi\n").unwrap();
    std::fs::create_dir_all(class.join("other")).unwrap();
    std::fs::write(class.join("other/main.py"), "def hello():\n    return 1\n").unwrap();
    let out = dir.path().join("out");
    // project5's is_valid_move (4 points) and csc110's code checks (7 points).
    let (code, report) = grade_json(&[
        class.to_str().unwrap(),
        "--specs",
        "specs/one-d-chess/project5/is_valid_move.toml",
        "--specs",
        "specs/one-d-chess/csc110/code.toml",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{report}");
    let result = |id: &str| {
        report["submissions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == id)
            .unwrap()
            .clone()
    };
    assert_eq!(
        (
            result("alice")["score"].as_f64(),
            result("alice")["max_score"].as_f64()
        ),
        (Some(4.0), Some(4.0))
    );
    assert_eq!(
        (
            result("carol")["score"].as_f64(),
            result("carol")["max_score"].as_f64()
        ),
        (Some(7.0), Some(7.0))
    );
    // The student's own: scored 0 out of the largest of the dialects' totals, never their sum.
    for id in ["empty", "notes", "other"] {
        let r = result(id);
        assert_eq!(r["score"], 0.0, "{r}");
        assert_eq!(r["max_score"], 7.0, "{r}");
        assert_eq!(r["needs_rerun"], false, "{r}");
    }
    let class_summary = &report["class"];
    assert_eq!(class_summary["min_max_score"], 4.0, "{class_summary}");
    assert_eq!(class_summary["max_score"], 7.0, "{class_summary}");
    // Each counts in the mean, and gets its 0 in the gradebook.
    assert_eq!(class_summary["mean_score"], 11.0 / 5.0, "{class_summary}");
    let gradebook = std::fs::read_to_string(out.join("gradebook.csv")).unwrap();
    for id in ["empty", "notes", "other"] {
        assert!(
            gradebook.lines().any(|l| l == format!("{id},0")),
            "{gradebook}"
        );
    }
    let summary = std::fs::read_to_string(out.join("summary.txt")).unwrap();
    assert!(summary.contains("(maxima 4 to 7)"), "{summary}");
}

#[test]
fn a_spent_budget_leaves_the_rest_not_run_and_the_results_written() {
    let dir = tempfile::tempdir().unwrap();
    let specs = common::project5_specs(
        dir.path(),
        &[
            "create_and_print.toml",
            "is_valid_move.toml",
            "move_king.toml",
        ],
    );
    // A correct solution whose every call to create_board takes 1.5 s (within the call limit).
    let correct =
        std::fs::read_to_string(root().join("fixtures/one-d-chess/project5/one_d_chess.py"))
            .unwrap();
    let slow = format!(
        "import time\n{correct}\n_made = create_board\n\n\ndef create_board():\n    \
         time.sleep(1.5)\n    return _made()\n"
    );
    let submission = dir.path().join(ONE_D);
    std::fs::write(&submission, slow).unwrap();
    let out = dir.path().join("out");
    let grade = |budget: &str| {
        let (_, report) = grade_json(&[
            submission.to_str().unwrap(),
            "--specs",
            specs.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--jobs",
            "1",
            "--budget",
            budget,
        ]);
        report["submissions"][0].clone()
    };
    let scenarios = |result: &Value| result["scenarios"].as_array().unwrap().clone();
    let not_run = |result: &Value| -> Vec<Value> {
        scenarios(result)
            .into_iter()
            .filter(|s| s["detail"] == "not run: the submission's time budget was spent")
            .collect()
    };

    let roomy = grade("600");
    assert!(not_run(&roomy).is_empty(), "{roomy}");
    assert_eq!(roomy["score"], roomy["max_score"], "{roomy}");

    // Less than one create_board call: spent by the first scenario that calls it,
    // however fast the rest run.
    let tight = grade("1");
    let skipped = not_run(&tight);
    let total = scenarios(&tight).len();
    assert!(
        !skipped.is_empty() && skipped.len() < total,
        "{} of {total} not run",
        skipped.len()
    );
    for scenario in &skipped {
        assert_eq!(scenario["verdict"], "timeout", "{scenario}");
        assert_eq!(scenario["score"], 0.0, "{scenario}");
        assert!(scenario["max_score"].as_f64().unwrap() > 0.0, "{scenario}");
    }
    assert_eq!(tight["max_score"], roomy["max_score"]);
    assert!(tight["score"].as_f64() < roomy["score"].as_f64(), "{tight}");
    // The results are written whatever the budget.
    assert!(out.join("grades.csv").is_file());

    boardgrade()
        .args(["grade", "--budget", "0"])
        .arg(&submission)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("'0' for '--budget"))
        .stderr(predicates::str::contains("below 1 s"));
}
