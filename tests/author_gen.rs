//! `boardgrade gen`: random games for every game and dialect that load, pass on the
//! reference and the correct submissions, and come out the same from the same seed.

mod common;

use common::{boardgrade, test_json};

const DIALECTS: &[(&str, &str)] = &[
    ("one-d-chess", "project5"),
    ("one-d-chess", "csc110"),
    ("pown-chess", "pown"),
    ("minichess", "ecs10"),
    ("minichess", "hexapawn"),
    ("chess", "ecs198f"),
];

fn gen(args: &[&str]) -> String {
    let output = boardgrade().arg("gen").args(args).output().unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn generated_games_pass_on_the_reference_for_every_dialect() {
    let dir = tempfile::tempdir().unwrap();
    for &(game, dialect) in DIALECTS {
        let file = dir.path().join(format!("{game}-{dialect}.toml"));
        let text = gen(&[game, "--dialect", dialect, "--seed", "5", "--count", "4"]);
        assert!(text.contains("seed 5"), "{text}");
        assert!(text.contains("visibility = \"hidden\""), "{text}");
        assert_eq!(text.matches("[[scenario]]").count(), 4, "{text}");
        std::fs::write(&file, &text).unwrap();
        let (code, report) = test_json(&[file.to_str().unwrap()]);
        assert_eq!(code, 0, "{game}/{dialect}: {report}");
        assert_eq!(report["summary"]["passed"], 4, "{report}");
    }
}

#[test]
fn the_same_seed_makes_the_same_file() {
    for &(game, dialect) in DIALECTS {
        let args = [game, "--dialect", dialect, "--seed", "9", "--count", "2"];
        let first = gen(&args);
        assert_eq!(first, gen(&args), "{game}/{dialect}");
        let other = gen(&[game, "--dialect", dialect, "--seed", "10", "--count", "2"]);
        assert_ne!(first, other, "{game}/{dialect}");
    }
}

#[test]
fn generated_games_pass_for_correct_submissions_and_catch_a_buggy_one() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("games.toml");
    boardgrade()
        .args(["gen", "one-d-chess", "--seed", "3", "--count", "6", "-o"])
        .arg(&file)
        .assert()
        .code(0);
    let path = file.to_str().unwrap();
    let (code, report) = test_json(&[
        path,
        "--python",
        "fixtures/one-d-chess/project5/one_d_chess.py",
    ]);
    assert_eq!(code, 0, "{report}");
    let (code, _) = test_json(&[
        path,
        "--python",
        "fixtures/one-d-chess/project5/bug-knight-spares-own.py",
    ]);
    assert_eq!(code, 1);
}

#[test]
fn lines_only_files_are_small_and_pass_for_a_correct_program() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pown.toml");
    let text = gen(&["pown-chess", "--seed", "2", "--count", "3", "--lines-only"]);
    assert!(!text.contains("expect ="), "{text}");
    assert!(text.contains("--lines-only"), "{text}");
    std::fs::write(&file, &text).unwrap();
    let path = file.to_str().unwrap();
    assert_eq!(test_json(&[path]).0, 0);
    let (code, report) = test_json(&[path, "--python", "fixtures/pown-chess/pown-chess.py"]);
    assert_eq!(code, 0, "{report}");
    let (code, _) = test_json(&[path, "--python", "fixtures/pown-chess/bug-same-player.py"]);
    assert_eq!(code, 1);
}

#[test]
fn options_and_file_keys_are_written() {
    let text = gen(&[
        "pown-chess",
        "--option",
        "size=6",
        "--count",
        "1",
        "--points",
        "2.5",
        "--visibility",
        "after_due_date",
        "--section",
        "Challenge 4",
    ]);
    assert!(text.contains("options = { size = 6 }"), "{text}");
    assert!(text.contains("points = 2.5"), "{text}");
    assert!(text.contains("visibility = \"after_due_date\""), "{text}");
    assert!(text.contains("section = \"Challenge 4\""), "{text}");
    assert!(text.contains("F  \n"), "a 6 x 6 board: {text}");
}

#[test]
fn bad_invocations_exit_2() {
    for args in [
        &["gen", "checkers"][..],
        &["gen", "chess", "--dialect", "ecs199"],
        &["gen", "chess", "--count", "0"],
        &["gen", "pown-chess", "--option", "size=7"],
        &["gen", "chess", "--visibility", "secret"],
    ] {
        let output = boardgrade().args(args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&output.stderr).contains("error:"),
            "{args:?}"
        );
    }
}

#[test]
fn a_flag_out_of_range_is_named_with_its_value() {
    for (flag, args) in [
        ("--count", ["--count", "0", "--max-steps", "5"]),
        ("--max-steps", ["--count", "2", "--max-steps", "0"]),
    ] {
        let output = boardgrade()
            .args(["gen", "one-d-chess"])
            .args(args)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains(&format!("{flag} \"0\": expected at least 1")),
            "{stderr}"
        );
    }
}
