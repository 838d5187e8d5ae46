//! The chess commands of the binary: `perft` (one position, divide, the suite against its
//! published counts) and `engine chess` (the reference on the call protocol).

mod common;

use predicates::prelude::*;

use common::boardgrade;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

#[test]
fn perft_counts_the_start_position_by_default() {
    boardgrade()
        .args(["perft", "--depth", "3"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("depth 3: 8902 nodes in "));
}

#[test]
fn perft_divides_by_first_move() {
    let output = boardgrade()
        .args([
            "perft", "--fen", KIWIPETE, "--depth", "2", "--divide", "-j", "2",
        ])
        .output()
        .unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 50, "{text}");
    assert!(lines.contains(&"e1g1: 43"), "{text}");
    assert_eq!(lines[48], "48 moves");
    assert!(lines[49].starts_with("depth 2: 2039 nodes in "));
}

#[test]
fn perft_checks_the_suite_within_a_node_budget() {
    boardgrade()
        .args(["perft", "--suite", "--max-nodes", "200000"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "ok       Kiwipete (Perft Results: Position 2): D1 D2 D3 (skipped D4 D5)",
        ))
        .stdout(predicate::str::contains("0 mismatch(es)"))
        .stdout(predicate::str::contains("above --max-nodes 200000 skipped"));
}

#[test]
fn perft_exits_1_on_a_wrong_count() {
    let dir = tempfile::tempdir().unwrap();
    let epd = dir.path().join("wrong.epd");
    std::fs::write(
        &epd,
        "# Start, one count wrong\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 401\n",
    )
    .unwrap();
    boardgrade()
        .args(["perft", "--suite", "--epd"])
        .arg(&epd)
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "MISMATCH Start, one count wrong: D1",
        ))
        .stdout(predicate::str::contains(
            "depth 2: expected 401, counted 400",
        ))
        .stdout(predicate::str::contains("1 mismatch(es)"));
}

#[test]
fn perft_refuses_bad_input() {
    boardgrade()
        .args(["perft", "--fen", "8/8/8 w - - 0 1", "--depth", "1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--fen \"8/8/8 w - - 0 1\""));
    boardgrade().arg("perft").assert().code(2);
    boardgrade()
        .args(["perft", "--suite", "--depth", "2"])
        .assert()
        .code(2);
    let dir = tempfile::tempdir().unwrap();
    let epd = dir.path().join("bad.epd");
    std::fs::write(&epd, "8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 three\n").unwrap();
    boardgrade()
        .args(["perft", "--suite", "--epd"])
        .arg(&epd)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("line 1: bad count `D1 three`"));
}

#[test]
fn the_chess_engine_serves_the_call_protocol() {
    boardgrade()
        .args(["engine", "chess"])
        .write_stdin(
            "play_move e2e4\nplay_move e2e4\nplay_move\nplay_move g8f6\nresult\nboard\nundo\n",
        )
        .assert()
        .success()
        .stdout(
            "='e2e4'\n.\n=''\n.\n=''\n.\n='ng8f6'\n.\n=''\n.\n\
             =rnbqkb.r\n=pppppppp\n=.....n..\n=........\n=....P...\n=........\n=PPPP.PPP\n=RNBQKBNR\n.\n\
             !error UnknownCommand: 'undo'\n.\n",
        );
}
