//! `boardgrade play` with stdin from a pipe: the board after each move, illegal input
//! explained, the reference answering with `--against`.

mod common;

use common::boardgrade;
use predicates::prelude::*;

#[test]
fn a_call_protocol_game_against_the_reference() {
    boardgrade()
        .args(["play", "one-d-chess", "--against"])
        .write_stdin("create_board\nmove 4 LEFT\nmove 2 RIGHT\n")
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "not played: \"move 4 LEFT\" (the reference answers \"!error InvalidMove",
        ))
        .stdout(predicate::str::contains("legal now: move 0 LEFT"))
        .stdout(predicate::str::contains(
            "| WKi | WKn |     |     | WKn |     | BKn | BKn | BKi |",
        ))
        .stdout(predicate::str::contains("reference: move"));
}

#[test]
fn a_program_protocol_game_explains_an_invalid_move() {
    boardgrade()
        .args(["play", "pown-chess"])
        .write_stdin("B1\nB1\nB8\n")
        .assert()
        .code(0)
        .stdout(predicate::str::contains("w moves from B1 to B2"))
        .stdout(predicate::str::contains(
            "not played: \"B1\" (the reference answers \"INVALID MOVE",
        ))
        .stdout(predicate::str::contains("b moves from B8 to B7"));
}

#[test]
fn minichess_moves_are_chosen_by_number_and_the_game_ends() {
    let output = boardgrade()
        .args(["play", "minichess", "--against"])
        .write_stdin(":1\n:2\n:1\n:1\n:1\n")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0));
    assert!(
        stdout.contains(" w  w  w\n .  .  .\n b  b  b\nwhite (1) to move"),
        "{stdout}"
    );
    assert!(stdout.contains("reference: "), "{stdout}");
    // Black wins 3 x 3 with perfect play.
    assert!(stdout.contains("black (2) won"), "{stdout}");
    assert!(stdout.ends_with("the game is over\n"), "{stdout}");
}

#[test]
fn an_unknown_game_exits_2() {
    boardgrade().args(["play", "go"]).assert().code(2);
}
