//! `boardgrade fuzz` against the fixtures: a buggy submission of each game gets a short
//! scenario that fails for it and passes for the correct one; correct submissions get none.

mod common;

use common::boardgrade;
use std::path::Path;

/// (game, dialect, buggy fixture, correct fixture, most steps in the shrunk scenario)
const BUGGY: &[(&str, &str, &str, &str, usize)] = &[
    (
        "one-d-chess",
        "project5",
        "fixtures/one-d-chess/project5/bug-king-short-of-edge.py",
        "fixtures/one-d-chess/project5/one_d_chess.py",
        3,
    ),
    (
        "one-d-chess",
        "csc110",
        "fixtures/one-d-chess/csc110/bug-any-piece-valid.py",
        "fixtures/one-d-chess/csc110/chess.py",
        2,
    ),
    (
        "pown-chess",
        "pown",
        "fixtures/pown-chess/bug-same-player.py",
        "fixtures/pown-chess/pown-chess.py",
        2,
    ),
    (
        "minichess",
        "ecs10",
        "fixtures/minichess/ecs10/bug-diagonal-empty.py",
        "fixtures/minichess/ecs10/prog67.py",
        1,
    ),
    (
        "chess",
        "ecs198f",
        "fixtures/chess/ecs198f/bug-uppercase-letter",
        "fixtures/chess/ecs198f/correct",
        2,
    ),
];

fn fuzz(game: &str, dialect: &str, python: &str, out: &Path, games: &str) -> (i32, String) {
    let output = boardgrade()
        .args(["fuzz", game, "--dialect", dialect, "--python", python])
        .args(["--seed", "1", "--games", games, "--max-steps", "60"])
        .args(["--max-failures", "1", "--shrink-budget", "60"])
        .arg("--out")
        .arg(out)
        .output()
        .expect("boardgrade runs");
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.code().unwrap_or(-1), stdout)
}

fn test_code(file: &Path, python: Option<&str>) -> i32 {
    let mut cmd = boardgrade();
    cmd.arg("test").arg(file);
    if let Some(python) = python {
        cmd.args(["--python", python]);
    }
    cmd.output()
        .expect("boardgrade runs")
        .status
        .code()
        .unwrap_or(-1)
}

#[test]
fn each_game_has_a_bug_found_and_shrunk_to_a_few_steps() {
    for &(game, dialect, buggy, correct, most) in BUGGY {
        let out = tempfile::tempdir().unwrap();
        let (code, stdout) = fuzz(game, dialect, buggy, out.path(), "8");
        assert_eq!(code, 1, "{buggy}: {stdout}");
        let file = out
            .path()
            .join(format!("fuzz-{game}-{dialect}-seed1-1.toml"));
        let text =
            std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{buggy}: {e}; {stdout}"));
        assert!(
            text.contains("--seed 1"),
            "the file names its seed:\n{text}"
        );
        let steps = text.matches("send = ").count();
        assert!(
            (1..=most).contains(&steps),
            "{buggy}: {steps} steps\n{text}"
        );
        assert_eq!(
            test_code(&file, Some(buggy)),
            1,
            "fails for {buggy}:\n{text}"
        );
        assert_eq!(
            test_code(&file, Some(correct)),
            0,
            "passes for {correct}:\n{text}"
        );
        assert_eq!(
            test_code(&file, None),
            0,
            "passes on the reference:\n{text}"
        );
    }
}

#[test]
fn correct_submissions_have_nothing_to_find() {
    for &(game, dialect, _, correct, _) in BUGGY {
        let out = tempfile::tempdir().unwrap();
        let (code, stdout) = fuzz(game, dialect, correct, out.path(), "3");
        assert_eq!(code, 0, "{correct}: {stdout}");
        assert!(
            stdout.contains("3 game(s), 0 distinct failure(s)"),
            "{stdout}"
        );
        assert_eq!(std::fs::read_dir(out.path()).unwrap().count(), 0);
    }
}

#[test]
fn distinct_failures_are_reported_once_each() {
    // The knight that spares its own pieces shows in many games; each kind of failing step
    // is written once.
    let out = tempfile::tempdir().unwrap();
    let output = boardgrade()
        .args(["fuzz", "one-d-chess", "--python"])
        .arg("fixtures/one-d-chess/project5/bug-knight-spares-own.py")
        .args(["--seed", "1", "--games", "8", "--max-steps", "30", "--out"])
        .arg(out.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    let files = std::fs::read_dir(out.path()).unwrap().count();
    assert!(
        stdout.contains(&format!("{files} distinct failure(s)")),
        "{stdout}"
    );
    assert!(
        stdout.contains("more game(s) failed the same way"),
        "{stdout}"
    );
}

#[test]
fn a_command_target_is_fuzzed_too() {
    // The reference served as a program agrees with itself.
    let out = tempfile::tempdir().unwrap();
    let binary = env!("CARGO_BIN_EXE_boardgrade");
    boardgrade()
        .args(["fuzz", "pown-chess", "--cmd"])
        .arg(format!("{binary} engine pown-chess"))
        .args(["--games", "2", "--out"])
        .arg(out.path())
        .assert()
        .code(0);
}

#[test]
fn bad_invocations_exit_2() {
    boardgrade()
        .args(["fuzz", "checkers", "--cmd", "true"])
        .assert()
        .code(2);
    boardgrade()
        .args(["fuzz", "chess", "--python", "no/such/file.py"])
        .assert()
        .code(2);
    boardgrade().args(["fuzz", "chess"]).assert().code(2);
}

#[test]
fn the_same_seed_finds_the_same_failure_whatever_the_jobs() {
    let files: Vec<String> = ["1", "2"]
        .iter()
        .map(|jobs| {
            let out = tempfile::tempdir().unwrap();
            boardgrade()
                .args(["fuzz", "one-d-chess", "--python"])
                .arg("fixtures/one-d-chess/project5/bug-king-short-of-edge.py")
                .args([
                    "--seed",
                    "1",
                    "--games",
                    "4",
                    "--max-steps",
                    "40",
                    "-j",
                    jobs,
                ])
                .arg("--out")
                .arg(out.path())
                .assert()
                .code(1);
            let file = out.path().join("fuzz-one-d-chess-project5-seed1-1.toml");
            std::fs::read_to_string(file).unwrap()
        })
        .collect();
    assert_eq!(files[0], files[1]);
}
