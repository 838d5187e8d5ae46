//! `boardgrade record`: a transcript (file or stdin) becomes a scenario whose expectations
//! are the reference's answers; refused lines are shown and left out.

mod common;

use common::{boardgrade, test_json};
use predicates::prelude::*;

#[test]
fn a_transcript_file_becomes_a_passing_scenario() {
    let dir = tempfile::tempdir().unwrap();
    let transcript = dir.path().join("moves.txt");
    std::fs::write(
        &transcript,
        "# the Italian opening\nplay_move e2e4\nplay_move e7e5\n\nplay_move e4e5\nplay_move g1f3\nboard\nresult\n",
    )
    .unwrap();
    let file = dir.path().join("opening.toml");
    boardgrade()
        .args(["record", "chess", "--input"])
        .arg(&transcript)
        .args(["--name", "a short opening", "--section", "Section 2", "-o"])
        .arg(&file)
        .assert()
        .code(0)
        .stderr(predicate::str::contains(
            "not played: \"play_move e4e5\" (the reference answers \"''\"): refused by the rules",
        ))
        .stderr(predicate::str::contains("recorded 5 line(s)"));
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(!text.contains("e4e5"), "{text}");
    assert!(text.contains("expect = \"'ng1f3'\\n\""), "{text}");
    assert!(text.contains("name = \"a short opening\""), "{text}");
    assert!(text.contains("section = \"Section 2\""), "{text}");
    let (code, report) = test_json(&[file.to_str().unwrap()]);
    assert_eq!(code, 0, "{report}");
    let (code, _) = test_json(&[
        file.to_str().unwrap(),
        "--python",
        "fixtures/chess/ecs198f/correct",
    ]);
    assert_eq!(code, 0);
}

#[test]
fn stdin_records_a_program_protocol_game() {
    // White's index 7 is Black's knight: refused, and so never followed by a direction.
    let output = boardgrade()
        .args(["record", "one-d-chess", "--dialect", "csc110"])
        .write_stdin("7\n2\nr\n6\nl\n")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("input 1: not played: \"7\""), "{stderr}");
    let text = String::from_utf8(output.stdout).unwrap();
    assert_eq!(text.matches("send = ").count(), 4, "{text}");
    assert!(text.contains("opening = \"\"\"\n+---"), "{text}");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.toml");
    std::fs::write(&file, &text).unwrap();
    let path = file.to_str().unwrap();
    assert_eq!(test_json(&[path]).0, 0);
    assert_eq!(
        test_json(&[path, "--python", "fixtures/one-d-chess/csc110/chess.py"]).0,
        0
    );
}

#[test]
fn refused_moves_are_kept_on_request() {
    let output = boardgrade()
        .args(["record", "pown-chess", "--keep-refused", "--input", "-"])
        .write_stdin("B1\nB1\nA1\n")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8(output.stdout).unwrap();
    assert_eq!(text.matches("send = ").count(), 3, "{text}");
    assert!(text.contains("INVALID MOVE"), "{text}");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.toml");
    std::fs::write(&file, &text).unwrap();
    let path = file.to_str().unwrap();
    assert_eq!(
        test_json(&[path, "--python", "fixtures/pown-chess/pown-chess.py"]).0,
        0
    );
    assert_eq!(
        test_json(&[path, "--python", "fixtures/pown-chess/bug-same-player.py"]).0,
        1
    );
}

#[test]
fn bad_input_is_an_error_naming_it() {
    boardgrade()
        .args(["record", "chess", "--input", "no/such/moves.txt"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no/such/moves.txt"));
    boardgrade()
        .args(["record", "chess", "--points=-1"])
        .write_stdin("board\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--points"));
    boardgrade()
        .args(["record", "chess"])
        .write_stdin("play_move e2e5\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("nothing was recorded"));
}
