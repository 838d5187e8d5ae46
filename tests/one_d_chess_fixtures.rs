//! Every 1D chess fixture graded through the real binary: correct and quirky submissions pass,
//! each buggy one fails where its bug is, and the report names the step and cells at fault.

mod common;

use common::{boardgrade, cells, failures, test_json, totals};
use predicates::prelude::*;

const PROJECT5: &str = "specs/one-d-chess/project5";
const CSC110: &str = "specs/one-d-chess/csc110";

fn grade(specs: &str, fixture: &str) -> (i32, serde_json::Value) {
    test_json(&[
        specs,
        "--python",
        &format!("fixtures/one-d-chess/{fixture}"),
    ])
}

#[test]
fn correct_and_quirky_project5_submissions_pass() {
    for fixture in [
        "one_d_chess.py",
        "quirk-main-at-import.py",
        "quirk-bom-crlf.py",
        "quirk-input-at-import.py",
        "quirk-toplevel-tables.py",
        "quirk-returns-board.py",
        "quirk-toplevel-prints.py",
        "quirk-winner-message-only.py",
        "quirk-prints-board.py",
        "quirk-helper-whos-the-winner.py",
    ] {
        let (code, report) = grade(PROJECT5, &format!("project5/{fixture}"));
        assert_eq!(failures(&report), vec![], "{fixture}");
        assert_eq!(code, 0, "{fixture}");
        assert!(report["summary"]["passed"].as_u64().unwrap() >= 20);
    }
}

/// The totals of `fixture` graded by the project5 specs under a course file holding `line`
/// (none when empty); every run is out of 40 (3 of them the style guide's code checks, 4 the
/// rule battery's families).
fn project5_totals(line: &str, fixture: &str) -> (u64, u64, f64, f64) {
    let dir = tempfile::tempdir().unwrap();
    let course = dir.path().join("course.toml");
    std::fs::write(&course, format!("[one-d-chess.project5]\n{line}\n")).unwrap();
    let course = course.display().to_string();
    let fixture = format!("fixtures/one-d-chess/project5/{fixture}");
    let mut args = vec![PROJECT5, "--python", fixture.as_str()];
    if !line.is_empty() {
        args.extend(["--policy", course.as_str()]);
    }
    totals(&test_json(&args).1)
}

#[test]
fn the_order_of_the_winner_and_the_board_is_a_course_option() {
    let handout = "game_over_order = \"handout\"";
    // The rule battery's game-over family judges the order too: the board first fails it.
    for (line, fixture, passed, failed, score) in [
        ("", "one_d_chess.py", 38, 0, 40.0),
        ("", "quirk-board-then-winner.py", 38, 0, 40.0),
        (handout, "one_d_chess.py", 38, 0, 40.0),
        (handout, "quirk-board-then-winner.py", 36, 2, 36.0),
    ] {
        assert_eq!(
            project5_totals(line, fixture),
            (passed, failed, score, 40.0),
            "{line} {fixture}"
        );
    }
}

#[test]
fn printable_board_returns_or_prints_as_the_course_reads_it() {
    let returns = "printable_board = \"return\"";
    let prints = "printable_board = \"print\"";
    for (line, fixture, passed, failed, score) in [
        ("", "one_d_chess.py", 38, 0, 40.0),
        ("", "quirk-prints-board.py", 38, 0, 40.0),
        (returns, "one_d_chess.py", 38, 0, 40.0),
        (returns, "quirk-prints-board.py", 36, 2, 38.0),
        (prints, "one_d_chess.py", 36, 2, 38.0),
        (prints, "quirk-prints-board.py", 38, 0, 40.0),
    ] {
        assert_eq!(
            project5_totals(line, fixture),
            (passed, failed, score, 40.0),
            "{line} {fixture}"
        );
    }
}

#[test]
fn a_debug_print_in_a_csc110_program_fails_the_scenarios_about_printing_only() {
    let debug = "fixtures/one-d-chess/csc110/bug-debug-print.py";
    let (_, report) = test_json(&[CSC110, "--python", debug]);
    // The game's rule battery (4 families) leaves the stray line out as the games do.
    assert_eq!(totals(&report), (19, 3, 22.0, 26.0));
    let failed: Vec<String> = failures(&report).into_iter().map(|f| f.0).collect();
    assert_eq!(
        failed,
        [
            "code: string literals only where the handout allows them",
            "the program prints the game and nothing else",
            "invalid moves prompt the same player again, silently",
        ]
    );
    let game = report["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "first moves: the turn passes after each valid move")
        .unwrap();
    assert_eq!(game["verdict"], "pass");
    assert!(
        game["notes"][0]
            .as_str()
            .unwrap()
            .starts_with("printed 2 line(s) the game never prints: `checking 2 White`"),
        "{game}"
    );
    // A course that judges every line in every scenario.
    let dir = tempfile::tempdir().unwrap();
    let course = dir.path().join("course.toml");
    std::fs::write(&course, "[one-d-chess.csc110]\nextra_lines = \"judged\"\n").unwrap();
    let (_, report) = test_json(&[
        CSC110,
        "--python",
        debug,
        "--policy",
        course.to_str().unwrap(),
    ]);
    assert_eq!(totals(&report), (7, 15, 7.0, 26.0));
    // A board printed twice is no stray line: it fails wherever boards are printed.
    let correct = std::fs::read_to_string("fixtures/one-d-chess/csc110/chess.py").unwrap();
    let twice = dir.path().join("chess.py");
    let doubled = correct.replacen(
        "    print(border)\n",
        "    print(border)\n    print(border)\n",
        1,
    );
    assert_ne!(doubled, correct);
    std::fs::write(&twice, doubled).unwrap();
    let (_, report) = test_json(&[CSC110, "--python", twice.to_str().unwrap()]);
    let game = report["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "first moves: the turn passes after each valid move")
        .unwrap();
    assert_ne!(game["verdict"], "pass", "{game}");
}

#[test]
fn a_debug_print_in_a_csc110_move_function_costs_the_invalid_moves_scenario_nothing() {
    // It prints after valid moves only: the scenario about invalid moves' silence notes it
    // there, and judges what is printed after each invalid move.
    let correct = std::fs::read_to_string("fixtures/one-d-chess/csc110/chess.py").unwrap();
    let debug = correct.replacen(
        "    if 0 <= target < len(board):\n",
        "    print('knight to', target)\n    if 0 <= target < len(board):\n",
        1,
    );
    assert_ne!(debug, correct);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("chess.py");
    std::fs::write(&file, debug).unwrap();
    let (_, report) = test_json(&[CSC110, "--python", file.to_str().unwrap()]);
    let failed: Vec<String> = failures(&report).into_iter().map(|f| f.0).collect();
    assert_eq!(
        failed,
        [
            "code: string literals only where the handout allows them",
            "the program prints the game and nothing else",
        ]
    );
    let invalid = report["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "invalid moves prompt the same player again, silently")
        .unwrap();
    assert!(
        invalid["notes"][0]
            .as_str()
            .unwrap()
            .starts_with("printed 1 line(s) the game never prints: `knight to 4`"),
        "{invalid}"
    );
}

#[test]
fn the_csc110_program_with_its_starter_main_passes() {
    let (code, report) = grade(CSC110, "csc110/chess.py");
    assert_eq!(failures(&report), vec![]);
    assert_eq!(code, 0);
}

#[test]
fn csc110_reads_a_negative_position_either_way_and_project5_as_off_the_board() {
    // Seed 001's "a valid index into the board list" leaves open whether -1 is the last cell,
    // as Python's lists read it: a program reading it so scores full marks.
    let (code, report) = test_json(&[
        "specs/one-d-chess",
        "--python",
        "fixtures/one-d-chess/csc110/quirk-negative-from-the-end.py",
    ]);
    assert_eq!(failures(&report), vec![]);
    assert_eq!(code, 0);
    // No lower bound at all: -10 is no index either way, and its IndexError is the student's.
    let dir = tempfile::tempdir().unwrap();
    let unbounded = dir.path().join("chess.py");
    let source = std::fs::read_to_string("fixtures/one-d-chess/csc110/chess.py").unwrap();
    let source = source.replace(
        "if position < 0 or position >= len(board):",
        "if position >= len(board):",
    );
    std::fs::write(&unbounded, source).unwrap();
    let (_, report) = test_json(&["specs/one-d-chess", "--python", unbounded.to_str().unwrap()]);
    let failed = failures(&report);
    assert_eq!(failed.len(), 1, "{failed:?}");
    assert_eq!(
        failed[0].0,
        "is_valid_move: the player's own pieces, on the board"
    );
    assert_eq!(failed[0].2["send"], "is_valid_move -10 WHITE", "{failed:?}");
    // Seed 000 asserts `is_valid_move(board, -1, "BLACK") == False`: see BUGS below.
}

/// (fixture, scenario name, verdict, step, cells named) for the first failure the bug causes.
const BUGS: &[(&str, &str, &str, u64, &[&str])] = &[
    (
        "project5/bug-negative-index.py",
        "is_valid_move: the handout's asserts",
        "wrong",
        5,
        &[],
    ),
    (
        "project5/bug-any-piece-valid.py",
        "is_valid_move: the handout's asserts",
        "wrong",
        3,
        &[],
    ),
    (
        "project5/bug-king-short-of-edge.py",
        "move_king: a lone king slides to an empty edge",
        "wrong",
        5,
        &["cell 0: WKi>empty", "cell 1: empty>WKi"],
    ),
    (
        "project5/bug-knight-right-edge.py",
        "move_knight: knights at 1 and 7 moving outwards stay",
        "wrong",
        // The IndexError of `move_knight 7 RIGHT` is that step's divergence.
        4,
        &[],
    ),
    (
        "project5/bug-knight-spares-own.py",
        "move_knight: captures its own piece",
        "wrong",
        3,
        &["cell 0: WKn>WKi", "cell 2: empty>WKn"],
    ),
    (
        "project5/bug-empty-text.py",
        "printable_board returns the starting board",
        "presentation",
        2,
        &[],
    ),
    (
        "project5/bug-trailing-space.py",
        "printable_board returns the starting board",
        "presentation",
        2,
        &[],
    ),
    (
        "project5/bug-print-mutates-board.py",
        "printable_board does not change the board list",
        "wrong",
        3,
        &["cell 3: empty>\"   \""],
    ),
    (
        "project5/bug-winner-message.py",
        "is_game_over: the handout's game, White wins",
        "wrong",
        30,
        &[],
    ),
    (
        "project5/bug-missing-move-knight.py",
        "move_knight: jumps over pieces",
        "wrong",
        // `move_knight 1 RIGHT` raises NameError: that step is the divergence.
        2,
        &[],
    ),
    (
        "csc110/bug-any-piece-valid.py",
        "invalid moves prompt the same player again, silently",
        "wrong",
        2,
        &["cell 4: empty>BKn", "cell 6: BKn>empty"],
    ),
    (
        "csc110/bug-king-short-of-edge.py",
        "a lone king slides to an empty edge",
        "wrong",
        10,
        &["cell 0: WKi>empty", "cell 1: empty>WKi"],
    ),
    (
        "csc110/bug-knight-right-edge.py",
        "knights at the edges moving outwards stay",
        "crash",
        4,
        &[],
    ),
    (
        "csc110/bug-print-empty-cells.py",
        "the opening board and White's prompt",
        "presentation",
        0,
        &[],
    ),
    (
        "csc110/bug-winner-message.py",
        "the example game: White wins",
        "wrong",
        18,
        &[],
    ),
];

#[test]
fn each_buggy_fixture_fails_where_its_bug_is() {
    for &(fixture, scenario, verdict, step, named) in BUGS {
        let specs = if fixture.starts_with("project5") {
            PROJECT5
        } else {
            CSC110
        };
        let (code, report) = grade(specs, fixture);
        assert_eq!(code, 1, "{fixture} must fail");
        let failed = failures(&report);
        let (_, got_verdict, divergence) = failed
            .iter()
            .find(|(name, _, _)| name == scenario)
            .unwrap_or_else(|| {
                panic!("{fixture}: scenario {scenario:?} passed; failures: {failed:?}")
            });
        assert_eq!(got_verdict, verdict, "{fixture}");
        assert_eq!(divergence["step"], step, "{fixture}: {divergence}");
        let got_cells = cells(divergence);
        for cell in named {
            assert!(
                got_cells.iter().any(|c| c == cell),
                "{fixture}: {cell} not in {got_cells:?}"
            );
        }
    }
}

/// Each one-function bug of project5 and every scenario it fails, with the step charged
/// (all others pass): the scenarios start from boards set up without the submission and
/// judge one part each, and an error or a print is the step of the call that made it.
const ONLY_ITS_SCENARIOS: &[(&str, &[(&str, u64)])] = &[
    (
        "bug-create-board-cell.py",
        &[("create_board returns the starting list", 1)],
    ),
    (
        "bug-negative-index.py",
        &[
            ("is_valid_move: the handout's asserts", 5),
            ("is_valid_move: a negative index is off the board", 2),
            // The rule battery: `is_valid_move -9 WHITE` on a set-up board.
            ("rules: valid move", 9),
        ],
    ),
    (
        "bug-king-short-of-edge.py",
        &[
            ("move_king: a lone king slides to an empty edge", 5),
            ("move_king: a white king slides right to an empty edge", 3),
            // The seeded battery of random play catches it too.
            ("random game 1 of seed 2026", 16),
            ("random game 2 of seed 2026", 18),
            ("random game 4 of seed 2026", 28),
            ("rules: king", 15),
        ],
    ),
    (
        "bug-knight-spares-own.py",
        &[
            ("move_knight: captures its own piece", 3),
            ("random game 3 of seed 2026", 4),
            ("rules: knight", 5),
        ],
    ),
    (
        // Raises at every `move`: each move scenario fails at its first `move`.
        "bug-move-raises.py",
        &[
            ("move: the handout's test cases", 4),
            ("move: dispatches knights and kings", 2),
            ("move: the handout's game of \"Game over\", White wins", 4),
            ("move, move_king and move_knight print nothing", 2),
            ("random game 1 of seed 2026", 3),
            ("random game 2 of seed 2026", 2),
            ("random game 3 of seed 2026", 3),
            ("random game 4 of seed 2026", 2),
            ("rules: knight", 6),
            ("rules: king", 6),
        ],
    ),
    (
        // A debug print in move_king: the print scenario fails at the move_king step.
        "bug-debug-print.py",
        &[("move, move_king and move_knight print nothing", 4)],
    ),
    (
        "bug-print-mutates-board.py",
        &[("printable_board does not change the board list", 3)],
    ),
    (
        "bug-trailing-space.py",
        &[
            ("printable_board returns the starting board", 2),
            ("printable_board draws any position", 2),
        ],
    ),
    (
        "bug-winner-message.py",
        &[
            ("is_game_over: the handout's game, White wins", 30),
            ("rules: game over", 2),
        ],
    ),
    (
        // Prints too little: charged to the is_game_over step, never to the next command.
        "bug-game-over-silent.py",
        &[
            ("is_game_over: the handout's game, White wins", 30),
            ("is_game_over: Black wins", 9),
            (
                "is_game_over: a knight that takes its own king loses the game",
                3,
            ),
            ("rules: game over", 2),
        ],
    ),
];

#[test]
fn a_project5_bug_fails_only_the_scenarios_of_its_function() {
    for (fixture, expected) in ONLY_ITS_SCENARIOS {
        let (_, report) = grade(PROJECT5, &format!("project5/{fixture}"));
        let mut failed: Vec<(String, u64)> = failures(&report)
            .into_iter()
            .map(|(name, _, divergence)| (name, divergence["step"].as_u64().unwrap_or(0)))
            .collect();
        failed.sort();
        let mut expected: Vec<(String, u64)> = expected
            .iter()
            .map(|(name, step)| (name.to_string(), *step))
            .collect();
        expected.sort();
        assert_eq!(failed, expected, "{fixture}");
    }
}

#[test]
fn an_error_or_a_print_is_reported_at_the_call_that_made_it() {
    let (_, report) = grade(PROJECT5, "project5/bug-move-raises.py");
    let (_, _, divergence) = failures(&report)
        .into_iter()
        .find(|(name, _, _)| name == "move: dispatches knights and kings")
        .unwrap();
    assert_eq!(divergence["send"], "move 1 RIGHT");
    assert_eq!(
        divergence["actual"],
        "!error AttributeError: 'str' object has no attribute 'endwith'\n"
    );
    // A debug print is a note wherever printing is not judged.
    let (_, report) = grade(PROJECT5, "project5/bug-debug-print.py");
    let king = report["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "move_king: a king already at the edge stays")
        .unwrap();
    assert_eq!(king["verdict"], "pass");
    assert_eq!(
        king["notes"][0],
        "step 2 `move_king 8 RIGHT`: printed differs: expected nothing, got \"king from 8 to 8\" (not judged by this scenario)"
    );
    // A message printed too little is that step's, not the next command's.
    let (_, report) = grade(PROJECT5, "project5/bug-game-over-silent.py");
    let (_, _, divergence) = failures(&report)
        .into_iter()
        .find(|(name, _, _)| name == "is_game_over: Black wins")
        .unwrap();
    assert_eq!(divergence["send"], "is_game_over");
    assert_eq!(divergence["actual"], "True\n");
    assert!(divergence["expected"]
        .as_str()
        .unwrap()
        .ends_with("Black wins!\nTrue\n"));
}

#[test]
fn the_human_report_names_step_command_and_cells() {
    boardgrade()
        .args([
            "test",
            PROJECT5,
            "--python",
            "fixtures/one-d-chess/project5/bug-king-short-of-edge.py",
        ])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("WRONG"))
        .stdout(predicate::str::contains(
            "first divergence at step 5 (line 74): sent `board`",
        ))
        .stdout(predicate::str::contains(
            "after: set_board WKi WKn WKn EMPTY EMPTY EMPTY BKn BKn BKi; move_king 0 RIGHT; move_king 1 RIGHT; move_king 2 LEFT",
        ))
        .stdout(predicate::str::contains("cell 0: expected WKi, got empty"))
        .stdout(predicate::str::contains("- ['WKi', 'EMPTY',"))
        .stdout(predicate::str::contains("+ ['EMPTY', 'WKi',"));
}

#[test]
fn invisible_differences_are_shown() {
    boardgrade()
        .args([
            "test",
            PROJECT5,
            "--python",
            "fixtures/one-d-chess/project5/bug-trailing-space.py",
            "--filter",
            "starting board",
        ])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("PRESENTATION"))
        .stdout(predicate::str::contains("| BKi |·"))
        .stdout(predicate::str::contains(
            "the content is right (board positions included) but it is printed differently",
        ));
}

#[test]
fn a_program_transcript_shows_typed_input_after_its_prompt() {
    boardgrade()
        .args([
            "test",
            CSC110,
            "--python",
            "fixtures/one-d-chess/csc110/bug-king-short-of-edge.py",
            "--filter",
            "lone king",
        ])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "White enter direction (l or r):\n      l\n",
        ));
}
