//! The rule batteries of 1D chess, miniChess and pown chess graded through the real binary: a correct
//! submission keeps every family's points, and each buggy fixture fails exactly the family
//! of the rule it breaks (one bug, one family), whatever else the battery plays.

mod common;

use std::collections::BTreeSet;

use common::{failures, notes, test_json};

/// The battery families a fixture fails under `specs`.
fn failed_families(specs: &str, fixture: &str) -> BTreeSet<String> {
    let (_, report) = test_json(&[specs, "--python", fixture]);
    let all = report["scenarios"].as_array().expect("scenarios").len();
    assert!(all >= 4, "{fixture}: {report}");
    failures(&report)
        .into_iter()
        .map(|(name, verdict, _)| {
            assert_eq!(verdict, "wrong", "{fixture}: {name}");
            name.strip_prefix("rules: ").unwrap_or(&name).to_string()
        })
        .collect()
}

fn check(specs: &str, folder: &str, cases: &[(&str, &[&str])]) {
    for (fixture, families) in cases {
        let expected: BTreeSet<String> = families.iter().map(|f| f.to_string()).collect();
        let got = failed_families(specs, &format!("{folder}/{fixture}"));
        assert_eq!(got, expected, "{fixture}");
    }
}

#[test]
fn one_d_chess_bugs_fail_exactly_their_family() {
    check(
        "specs/one-d-chess/project5/battery.toml",
        "fixtures/one-d-chess/project5",
        &[
            ("one_d_chess.py", &[]),
            ("quirk-returns-board.py", &[]),
            ("quirk-winner-message-only.py", &[]),
            ("bug-knight-right-edge.py", &["knight"]),
            ("bug-knight-spares-own.py", &["knight"]),
            ("bug-missing-move-knight.py", &["knight"]),
            ("bug-king-short-of-edge.py", &["king"]),
            ("bug-negative-index.py", &["valid move"]),
            ("bug-any-piece-valid.py", &["valid move"]),
            ("bug-winner-message.py", &["game over"]),
            ("bug-game-over-silent.py", &["game over"]),
            // `move` itself raises: both families that move pieces through it.
            ("bug-move-raises.py", &["knight", "king"]),
        ],
    );
}

#[test]
fn csc110_function_bugs_fail_exactly_their_family() {
    // Seed 001's functions, called in the whole program; a debug print or a board drawn
    // wrong is the business of other scenarios.
    check(
        "specs/one-d-chess/csc110-functions/battery.toml",
        "fixtures/one-d-chess/csc110",
        &[
            ("chess.py", &[]),
            ("bug-debug-print.py", &[]),
            ("bug-print-empty-cells.py", &[]),
            ("bug-knight-right-edge.py", &["knight"]),
            ("bug-knight-spares-own.py", &["knight"]),
            ("bug-king-short-of-edge.py", &["king"]),
            ("bug-move-king-unused.py", &["king"]),
            ("bug-any-piece-valid.py", &["valid move"]),
            ("bug-winner-message.py", &["game over"]),
        ],
    );
}

#[test]
fn csc110_program_bugs_fail_exactly_their_family_in_games_typed_into_main() {
    // Each family one game typed into the whole program: a rule broken there is wrong (or
    // a crash, where the program dies of it) in its own family and no other.
    let specs = "specs/one-d-chess/csc110/battery.toml";
    for (fixture, expected) in [
        ("chess.py", &[][..]),
        ("bug-debug-print.py", &[]),
        ("quirk-trailing-space.py", &[]),
        // The game calls `move`, which slides kings right itself.
        ("bug-move-king-unused.py", &[]),
        // A knight keeps the parity of its cell and the two knights of a side start on
        // cells of different parity, so in a game a knight can take only its own king,
        // which ends the game: game.toml and the functions' battery find this one.
        ("bug-knight-spares-own.py", &[]),
        ("bug-knight-right-edge.py", &[("knight", "crash")]),
        ("bug-king-short-of-edge.py", &[("king", "wrong")]),
        ("bug-any-piece-valid.py", &[("input", "wrong")]),
        ("bug-black-win-missed.py", &[("game over", "wrong")]),
    ] {
        let path = format!("fixtures/one-d-chess/csc110/{fixture}");
        let (_, report) = test_json(&[specs, "--python", &path]);
        assert_eq!(
            report["scenarios"].as_array().unwrap().len(),
            4,
            "{fixture}"
        );
        let got: Vec<(String, String)> = failures(&report)
            .into_iter()
            .map(|(name, verdict, _)| (name.replace("game rules: ", ""), verdict))
            .collect();
        let expected: Vec<(String, String)> = expected
            .iter()
            .map(|(family, verdict)| (family.to_string(), verdict.to_string()))
            .collect();
        assert_eq!(got, expected, "{fixture}");
    }
    // A board right in every cell but printed differently keeps the rules' points: the
    // scenarios about printing judge it.
    let (_, report) = test_json(&[
        specs,
        "--python",
        "fixtures/one-d-chess/csc110/bug-print-empty-cells.py",
    ]);
    for scenario in report["scenarios"].as_array().unwrap() {
        assert_eq!(scenario["verdict"], "presentation", "{scenario:#}");
        assert_eq!(scenario["score"], scenario["max_score"], "{scenario:#}");
    }
}

#[test]
fn minichess_bugs_fail_exactly_their_family() {
    check(
        "specs/minichess/ecs10/battery.toml",
        "fixtures/minichess/ecs10",
        &[
            ("prog67.py", &[]),
            ("random-chooser.py", &[]),
            // Boards returned as tuples are judged on their content.
            ("quirk-tuple-boards.py", &[]),
            ("bug-straight-capture.py", &["steps"]),
            ("bug-duplicates.py", &["steps"]),
            ("bug-diagonal-empty.py", &["captures"]),
            ("bug-wrap-capture.py", &["captures"]),
            ("bug-mutates-input.py", &["input board"]),
            ("bug-chooser-not-in-list.py", &["chooser"]),
            ("bug-chooser-prints.py", &["chooser"]),
            // Every move goes the wrong way: steps and captures alike.
            ("bug-white-moves-up.py", &["steps", "captures"]),
        ],
    );
    check(
        "specs/minichess/hexapawn/battery.toml",
        "fixtures/minichess/hexapawn",
        &[
            ("hexapawn.py", &[]),
            ("bug-straight-capture.py", &["steps"]),
            ("bug-wrap-capture.py", &["captures"]),
            ("bug-chooser-not-in-list.py", &["chooser"]),
            // The chooser searches with the generator that turns its boards over.
            ("bug-mutates-input.py", &["input board", "chooser"]),
        ],
    );
}

#[test]
fn pown_bugs_fail_their_family_in_games_typed_into_the_whole_program() {
    check(
        "specs/pown-chess/pown/battery.toml",
        "fixtures/pown-chess",
        &[
            ("pown-chess.py", &[]),
            ("quirk-readline-loop.py", &[]),
            ("quirk-title-banner.py", &[]),
            ("bug-no-board-after-invalid.py", &["input"]),
            ("bug-same-player.py", &["input"]),
            // Which powns can move: only the moves family plays every column to facing.
            ("bug-facing-counts-stuck.py", &["moves"]),
            ("bug-wrong-winner.py", &["game end"]),
            ("bug-last-row.py", &["game end"]),
            // Every whole game captures on its way to the end, but the capture line is
            // judged by the family about captures alone.
            ("bug-no-powns.py", &["captures"]),
        ],
    );
}

#[test]
fn a_battery_failure_shows_the_family_the_call_and_the_rule() {
    let (_, report) = test_json(&[
        "specs/minichess/ecs10/battery.toml",
        "--python",
        "fixtures/minichess/ecs10/bug-wrap-capture.py",
    ]);
    let failed = failures(&report);
    let (name, _, divergence) = &failed[0];
    assert_eq!(name, "rules: captures");
    assert!(
        divergence["send"]
            .as_str()
            .unwrap()
            .starts_with("move_maker "),
        "{divergence}"
    );
    // The rule the extra board breaks, in words, with the pawn that broke it.
    let notes = notes(divergence);
    assert!(
        notes.iter().any(|n| n.starts_with(
            "rule broken: a pawn never wraps around the board's edge to the other side: "
        )),
        "{notes:?}"
    );
}

#[test]
fn a_pown_battery_failure_names_the_rule_of_the_move_typed() {
    let (_, report) = test_json(&[
        "specs/pown-chess/pown/battery.toml",
        "--python",
        "fixtures/pown-chess/bug-no-powns.py",
    ]);
    let failed = failures(&report);
    let (_, _, divergence) = failed
        .iter()
        .find(|(name, _, _)| name == "rules: captures")
        .expect("the captures family fails");
    let notes = notes(divergence);
    // The move that should have printed `b powns a w`, named by its rule.
    assert!(
        notes.iter().any(|n| n.starts_with("line ")
            && n.contains("a pown steps one square straight forward, taking (powning)")),
        "{notes:?}"
    );
    // And the fewest lines that reach such a capture, fewer than the game typed before it.
    let typed_before = |prefix: &str| -> Option<usize> {
        let note = notes.iter().find(|n| n.starts_with(prefix))?;
        note[prefix.len()..].split(' ').next()?.parse().ok()
    };
    let game = typed_before("line ").expect("the rule note") - 1;
    let shortest = typed_before("shortest case (").expect("a shortest case");
    assert!(shortest * 4 <= game * 3, "{notes:?}");
    // A game the program ended too soon: the note says who can still move, and how.
    let (_, report) = test_json(&[
        "specs/pown-chess/pown/battery.toml",
        "--python",
        "fixtures/pown-chess/bug-facing-counts-stuck.py",
    ]);
    let failed = failures(&report);
    let (_, _, divergence) = failed
        .iter()
        .find(|(name, _, _)| name == "rules: moves")
        .expect("the moves family fails");
    let said = common::notes(divergence);
    assert!(
        said.iter()
            .any(|n| n.contains("; then the game goes on: ") && n.contains(" and can take ")),
        "{said:?}"
    );
}
