//! The command line as a user meets it: exit codes, bad scenario files, JSON fields, the
//! engine command and the bundled specs.

mod common;

use common::{boardgrade, test_json};
use predicates::prelude::*;

fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

const GOOD: &str = "game = \"one-d-chess\"\ndialect = \"project5\"\n\n[[scenario]]\nname = \"valid\"\nsteps = [{ send = \"create_board\" }]\n";

#[test]
fn the_bundled_specs_pass_on_the_reference() {
    boardgrade()
        .args(["test", "-q"])
        .assert()
        .success()
        .stdout(predicate::str::contains(" 0 failed"));
}

#[test]
fn a_typo_in_a_key_fails_with_exit_2_naming_file_line_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let bad = write(&dir, "bad.toml", &GOOD.replace("[{ send", "[{ sned"));
    let good = write(&dir, "good.toml", GOOD);
    boardgrade()
        .args(["test", &bad, &good])
        .assert()
        .code(2)
        .stdout(predicate::str::contains(format!(
            "{bad}:6:12: key `sned`: unknown field `sned`"
        )))
        // the other file still loads and runs
        .stdout(predicate::str::contains("PASS         valid"));
}

#[test]
fn bad_values_name_their_key() {
    let dir = tempfile::tempdir().unwrap();
    let bad = write(&dir, "bad.toml", &GOOD.replace("project5", "projet5"));
    boardgrade()
        .args(["test", &bad])
        .assert()
        .code(2)
        .stdout(predicate::str::contains(format!(
            "{bad}:2:11: key `dialect`: unknown dialect \"projet5\""
        )));
}

#[test]
fn specs_with_no_valid_scenario_name_each_file_and_never_blame_the_submission() {
    let head = "game = \"one-d-chess\"\ndialect = \"project5\"\n\n[[scenario]]\nname = \"x\"\n";
    let board = "steps = [{ send = \"board\" }]\n";
    let cases = [
        ("points", format!("points = -5\n{board}")),
        ("points", format!("points = nan\n{board}")),
        ("points", format!("points = inf\n{board}")),
        ("points", format!("points = 1e300\n{board}")),
        ("time_limit", format!("time_limit = 0\n{board}")),
        ("steps", "steps = []\n".to_string()),
        (
            "send",
            "steps = [{ send = \"board\\nboard\" }]\n".to_string(),
        ),
    ];
    let correct = "fixtures/one-d-chess/project5/one_d_chess.py";
    let dir = tempfile::tempdir().unwrap();
    let broken = write(&dir, "broken.py", "def f(:\n");
    for (key, body) in &cases {
        let specs = dir.path().join("specs");
        std::fs::create_dir_all(&specs).unwrap();
        std::fs::write(specs.join("s.toml"), format!("{head}{body}")).unwrap();
        for submission in [correct, broken.as_str()] {
            let output = boardgrade()
                .arg("test")
                .arg(&specs)
                .args(["--python", submission])
                .output()
                .unwrap();
            let stdout = String::from_utf8_lossy(&output.stdout);
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(output.status.code(), Some(2), "{key}: {stdout}{stderr}");
            assert!(
                stdout.starts_with("INVALID") && stdout.contains(&format!(": key `{key}`: ")),
                "{key}: {stdout}"
            );
            assert!(stdout.contains("s.toml:"), "{key}: {stdout}");
            assert!(
                stderr
                    .contains("no valid scenario remains to run: 1 scenario file(s) did not load"),
                "{key}: {stderr}"
            );
            assert!(!stderr.contains("asks for"), "{key}: {stderr}");
        }
        std::fs::remove_dir_all(&specs).unwrap();
    }

    // The JSON report lists the files; `grade` names every one and grades nothing.
    let specs = dir.path().join("specs");
    std::fs::create_dir_all(&specs).unwrap();
    for (name, (_, body)) in ["a.toml", "b.toml"].iter().zip(&cases) {
        std::fs::write(specs.join(name), format!("{head}{body}")).unwrap();
    }
    let output = boardgrade()
        .arg("test")
        .arg(&specs)
        .args(["--python", correct, "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        report["invalid_files"].as_array().unwrap().len(),
        2,
        "{report}"
    );
    assert_eq!(report["scenarios"], serde_json::json!([]), "{report}");
    let out = dir.path().join("out");
    let output = boardgrade()
        .args(["grade", correct, "--specs"])
        .arg(&specs)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("2 scenario files do not load"), "{stderr}");
    assert!(stderr.contains("a.toml:6:10: key `points`"), "{stderr}");
    assert!(stderr.contains("b.toml:6:10: key `points`"), "{stderr}");
    assert!(!out.exists());
}

#[test]
fn a_self_check_hears_of_the_scenarios_left_out_of_its_own_dialect_only() {
    let stderr = |args: &[&str]| {
        let output = boardgrade().args(args).output().unwrap();
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let pown_note = "pown-chess/pown test optional parts the course does not set";
    let chess_note = "code checks of chess/ecs198f that the handout does not grade";
    // The reference runs every bundled scenario: every note.
    let all = stderr(&["test", "--format", "json"]);
    assert!(all.contains(pown_note) && all.contains(chess_note), "{all}");
    let project5 = stderr(&[
        "test",
        "--python",
        "fixtures/one-d-chess/project5/one_d_chess.py",
        "--format",
        "json",
    ]);
    assert!(!project5.contains("left out"), "{project5}");
    let pown = stderr(&[
        "test",
        "--python",
        "fixtures/pown-chess/pown-chess.py",
        "--format",
        "json",
    ]);
    assert!(
        pown.contains(pown_note) && !pown.contains(chess_note),
        "{pown}"
    );
    // Nothing left to run: the notes say why.
    boardgrade()
        .args(["test", "specs/pown-chess/challenges"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(pown_note));
}

#[test]
fn bad_invocations_exit_2_with_a_message() {
    boardgrade()
        .args(["test", "no/such/folder"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no/such/folder: cannot read"));
    boardgrade()
        .args(["test", "--python", "missing.py"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("missing.py: no such file"));
    boardgrade()
        .args([
            "test",
            "--python",
            "fixtures/one-d-chess/project5/one_d_chess.py",
            "--game",
            "one-d-chess",
        ])
        .assert()
        .success();
    boardgrade()
        .args(["test", "--python", "fixtures/selftest/selftest.py"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "choose one with --game and --dialect",
        ));
    boardgrade().args(["frobnicate"]).assert().code(2);
    // No job is not one job: refused, whatever runs jobs.
    for args in [
        &["test", "--jobs", "0"][..],
        &["grade", "-j", "0", "class"],
        &["perft", "--suite", "--jobs", "0"],
    ] {
        boardgrade()
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("a run needs at least 1 job"));
    }
    for (python, said) in [
        (
            "/bin/true",
            "/bin/true did not answer as a Python 3 interpreter",
        ),
        ("no-such-python", "cannot run Python ("),
    ] {
        boardgrade()
            .args([
                "test",
                "--python",
                "fixtures/one-d-chess/project5/one_d_chess.py",
                "--python-bin",
                python,
            ])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(said));
    }
    boardgrade()
        .args(["engine", "checkers"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown game \"checkers\""));
}

#[test]
fn json_has_the_fields_of_the_design() {
    let (code, report) = test_json(&[
        "specs/one-d-chess/project5",
        "--python",
        "fixtures/one-d-chess/project5/bug-negative-index.py",
    ]);
    assert_eq!(code, 1);
    assert_eq!(report["schema_version"], 2);
    for key in ["passed", "failed", "score", "max_score"] {
        assert!(report["summary"][key].is_number(), "summary.{key}");
    }
    let scenarios = report["scenarios"].as_array().unwrap();
    for s in scenarios {
        for key in [
            "file",
            "name",
            "game",
            "dialect",
            "verdict",
            "score",
            "max_score",
            "first_divergence",
        ] {
            assert!(s.get(key).is_some(), "scenarios[].{key}");
        }
    }
    // The handout's asserts (the rule battery's families fail too, in their own file).
    let failed = scenarios
        .iter()
        .find(|s| s["verdict"] == "wrong" && !s["file"].as_str().unwrap().ends_with("battery.toml"))
        .unwrap();
    let d = &failed["first_divergence"];
    assert_eq!(d["step"], 5);
    assert_eq!(d["send"], "is_valid_move -1 BLACK");
    assert_eq!(d["expected"], "False\n");
    assert_eq!(d["actual"], "True\n");
    assert_eq!(
        report["summary"]["passed"].as_u64().unwrap()
            + report["summary"]["failed"].as_u64().unwrap(),
        scenarios.len() as u64
    );
}

#[test]
fn the_engine_serves_the_call_protocol() {
    boardgrade()
        .args(["engine", "one-d-chess", "--dialect", "project5"])
        .write_stdin("create_board\nis_valid_move -1 BLACK\nmove 2 RIGHT\nboard\n")
        .assert()
        .success()
        .stdout(
            "=['WKi', 'WKn', 'WKn', 'EMPTY', 'EMPTY', 'EMPTY', 'BKn', 'BKn', 'BKi']\n.\n\
             =False\n.\n\
             .\n\
             =['WKi', 'WKn', 'EMPTY', 'EMPTY', 'WKn', 'EMPTY', 'BKn', 'BKn', 'BKi']\n.\n",
        );
}

#[test]
fn the_engine_passes_the_scenarios_as_a_program() {
    for dialect in ["project5", "csc110"] {
        let engine = format!(
            "{} engine one-d-chess --dialect {dialect}",
            env!("CARGO_BIN_EXE_boardgrade")
        );
        let (code, report) =
            test_json(&[&format!("specs/one-d-chess/{dialect}"), "--cmd", &engine]);
        assert_eq!(code, 0, "{dialect}: {report:#}");
    }
}

#[test]
fn games_are_listed() {
    boardgrade()
        .arg("games")
        .assert()
        .success()
        .stdout(predicate::str::contains("one-d-chess    csc110"));
}

#[test]
fn the_format_documentation_example_runs_and_passes() {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/specs/README.md")).unwrap();
    let example = doc
        .split("```toml\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("a toml example");
    let dir = tempfile::tempdir().unwrap();
    let file = write(&dir, "example.toml", example);
    let (code, report) = test_json(&[&file]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["summary"]["passed"], 2);
    assert_eq!(report["summary"]["max_score"], 3.0);
}

#[test]
fn partial_credit_and_all_or_nothing_groups() {
    let dir = tempfile::tempdir().unwrap();
    let specs = write(
        &dir,
        "scores.toml",
        r#"game = "one-d-chess"
dialect = "project5"

[[scenario]]
name = "partial"
points = 4
partial_credit = true
steps = [
  { send = "create_board" },
  { send = "is_valid_move 6 BLACK" },
  { send = "is_valid_move -1 BLACK" },
  { send = "is_valid_move 2 WHITE" },
]

[[scenario]]
name = "grouped and failing"
group = "validity"
steps = [{ send = "is_valid_move -1 BLACK" }]

[[scenario]]
name = "grouped and passing"
group = "validity"
points = 2
steps = [{ send = "is_valid_move 0 WHITE" }]
"#,
    );
    let (code, report) = test_json(&[
        &specs,
        "--python",
        "fixtures/one-d-chess/project5/bug-negative-index.py",
    ]);
    assert_eq!(code, 1);
    let score = |name: &str| {
        report["scenarios"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name)
            .unwrap()["score"]
            .as_f64()
            .unwrap()
    };
    // Two of four steps matched before the divergence at step 3.
    assert_eq!(score("partial"), 2.0);
    assert_eq!(score("grouped and failing"), 0.0);
    // It passed, but its group did not.
    assert_eq!(score("grouped and passing"), 0.0);
    assert_eq!(report["summary"]["score"], 2.0);
    assert_eq!(report["summary"]["max_score"], 7.0);
}

#[test]
fn a_submission_picks_its_dialect_and_tags_filter_scenarios() {
    // The bundled specs of every game: the dialect comes from the submission's entry file,
    // the handout's optional challenges are left out unless a course sets them.
    for submission in [
        "fixtures/pown-chess/pown-chess.py",
        "fixtures/chess/ecs198f/correct/pychess",
        "fixtures/minichess/ecs10/prog67.py",
    ] {
        let (code, report) = test_json(&["--python", submission]);
        assert_eq!(code, 0, "{submission}: {report:#}");
    }
    let dir = tempfile::tempdir().unwrap();
    let course = dir.path().join("course.toml");
    std::fs::write(
        &course,
        "[pown-chess.pown]\nchallenges = [\"score_header\", \"six_by_six\"]\n",
    )
    .unwrap();
    let course = course.display().to_string();
    let (_, report) = test_json(&[
        "specs/pown-chess",
        "--tag",
        "challenge",
        "--policy",
        &course,
    ]);
    let scenarios = report["scenarios"].as_array().unwrap();
    assert!(!scenarios.is_empty());
    assert!(scenarios.iter().all(|s| s["tags"]
        .as_array()
        .unwrap()
        .iter()
        .any(|t| t == "challenge")));
}
