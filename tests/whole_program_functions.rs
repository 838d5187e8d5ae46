//! A whole csc110 program is graded on its game and on each of its handout functions, called
//! one by one: a program whose game runs but whose function is wrong loses that function's
//! points only, and a debug print in a function no longer costs the function scenarios.

mod common;

use common::grade_json;
use serde_json::Value;

const SPECS: [&str; 2] = [
    "specs/one-d-chess/csc110",
    "specs/one-d-chess/csc110-functions",
];

/// The report of grading one csc110 fixture with the program's and the functions' specs.
fn grade(fixture: &str) -> Value {
    let path = format!("fixtures/one-d-chess/csc110/{fixture}");
    let (_, report, stderr) = grade_json(&[&path, "--specs", SPECS[0], "--specs", SPECS[1]]);
    let submission = report["submissions"][0].clone();
    assert_eq!(submission["dialect"], "csc110", "{stderr}");
    submission
}

/// (score, max score) and the names of the scenarios that did not pass, by dialect.
fn scores(submission: &Value) -> (f64, f64, Vec<(String, String)>) {
    let failed = submission["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["verdict"] != "pass")
        .map(|s| {
            (
                s["dialect"].as_str().unwrap().to_string(),
                s["name"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    (
        submission["score"].as_f64().unwrap(),
        submission["max_score"].as_f64().unwrap(),
        failed,
    )
}

#[test]
fn a_correct_program_scores_its_game_and_its_functions() {
    let submission = grade("chess.py");
    let (score, max, failed) = scores(&submission);
    // 15 for the games, 4 for the games' rule battery's families, 6 for the functions, 4 for
    // their rule battery's families, 7 for the code checks.
    assert_eq!((score, max), (36.0, 36.0), "{failed:?}");
    let functions = submission["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["dialect"] == "csc110-functions")
        .count();
    assert_eq!(functions, 10);
}

#[test]
fn a_game_that_runs_with_a_wrong_function_loses_that_function_only() {
    let (score, max, failed) = scores(&grade("bug-move-king-unused.py"));
    assert_eq!((score, max), (34.0, 36.0));
    assert_eq!(
        failed,
        [
            ("csc110-functions".to_string(), "rules: king".to_string()),
            (
                "csc110-functions".to_string(),
                "move_king: slides to a piece or the edge".to_string()
            ),
        ]
    );
}

#[test]
fn a_wrong_function_the_game_uses_fails_the_games_that_reach_it_and_its_own_scenario() {
    let (score, max, failed) = scores(&grade("bug-king-short-of-edge.py"));
    assert_eq!((score, max), (30.0, 36.0), "{failed:?}");
    assert_eq!(
        failed,
        [
            ("csc110".to_string(), "game rules: king".to_string()),
            (
                "csc110".to_string(),
                "Black wins: the board, then Black wins!".to_string()
            ),
            (
                "csc110".to_string(),
                "a lone king slides to an empty edge".to_string()
            ),
            ("csc110-functions".to_string(), "rules: king".to_string()),
            (
                "csc110-functions".to_string(),
                "move_king: slides to a piece or the edge".to_string()
            ),
        ]
    );
}

#[test]
fn a_debug_print_costs_the_scenarios_about_printing_but_not_the_functions() {
    let submission = grade("bug-debug-print.py");
    let (score, max, failed) = scores(&submission);
    // The scenarios about printing (the games leave the stray line out and note it), and the
    // code check of string literals: the debug print's literal is outside the functions the
    // handout allows them in.
    assert_eq!((score, max), (32.0, 36.0), "{failed:?}");
    let names: Vec<&str> = failed
        .iter()
        .map(|(dialect, name)| {
            assert_eq!(dialect, "csc110", "{failed:?}");
            name.as_str()
        })
        .collect();
    assert_eq!(
        names,
        [
            "code: string literals only where the handout allows them",
            "the program prints the game and nothing else",
            "invalid moves prompt the same player again, silently",
        ]
    );
    let valid = submission["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "is_valid_move: the player's own pieces, on the board")
        .unwrap();
    assert_eq!(valid["verdict"], "pass");
    assert!(
        valid["notes"][0]
            .as_str()
            .unwrap()
            .contains("got \"checking 1 Black\" (not judged by this scenario)"),
        "{valid}"
    );
}

#[test]
fn the_functions_dialect_is_never_routed_to_by_itself() {
    // A project5 file defines csc110's function names too; it is still graded as project5,
    // with none of the csc110 function scenarios.
    let (_, report, stderr) = grade_json(&[
        "fixtures/one-d-chess/project5/one_d_chess.py",
        "--specs",
        "specs/one-d-chess",
    ]);
    let submission = &report["submissions"][0];
    assert_eq!(submission["dialect"], "project5", "{stderr}");
    assert!(submission["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .all(|s| s["dialect"] != "csc110-functions"));
}

/// The report of grading one pown fixture with the shipped pown specs.
fn grade_pown(fixture: &str) -> Value {
    let path = format!("fixtures/pown-chess/{fixture}");
    let (_, report, stderr) = grade_json(&[&path, "--specs", "specs/pown-chess"]);
    let submission = report["submissions"][0].clone();
    assert_eq!(submission["dialect"], "pown", "{stderr}");
    submission
}

/// The points a pown submission scored on its required functions' scenarios.
fn pown_function_points(submission: &Value) -> f64 {
    submission["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["dialect"] == "pown-functions")
        .map(|s| s["score"].as_f64().unwrap())
        .sum()
}

#[test]
fn a_correct_pown_program_scores_its_games_and_its_required_functions() {
    let submission = grade_pown("pown-chess.py");
    let (score, max, failed) = scores(&submission);
    // 22 for the games, 2 for the code checks, 5 for the functions, 4 for the rule battery.
    assert_eq!((score, max), (34.0, 34.0), "{failed:?}");
    // moves_remaining('w') and ('b') at the start (2), on set positions (1), display_board (2).
    assert_eq!(pown_function_points(&submission), 5.0);
}

#[test]
fn a_pown_board_filled_by_a_function_called_at_the_top_level_is_there_for_the_functions() {
    // The handout's "Initialize your board" written as `init_board()` at the top level: the
    // functions are called without the game loop, but that call plays nothing and still runs,
    // so moves_remaining('w') is 8 and display_board shows the start.
    let submission = grade_pown("quirk-init-board.py");
    let (score, max, failed) = scores(&submission);
    assert_eq!((score, max), (34.0, 34.0), "{failed:?}");
    assert_eq!(pown_function_points(&submission), 5.0);
}

#[test]
fn a_pown_board_filled_at_the_start_of_main_is_the_start_position_for_the_functions() {
    // The board filled by `main()` before it plays, and `main()` called at the bottom: the
    // functions are called without `main()`, on the handout's starting position.
    let submission = grade_pown("quirk-board-in-main.py");
    let (score, max, failed) = scores(&submission);
    assert_eq!((score, max), (34.0, 34.0), "{failed:?}");
    assert_eq!(pown_function_points(&submission), 5.0);
    // A board the file leaves holding anything is its own: it is left as it is.
    let dir = tempfile::tempdir().unwrap();
    let started = dir.path().join("pown-chess.py");
    let source = std::fs::read_to_string("fixtures/pown-chess/quirk-board-in-main.py").unwrap();
    let source = source.replace("game_board = {}\n", "game_board = {'A1': 'w'}\n");
    std::fs::write(&started, source).unwrap();
    let (_, report, stderr) =
        grade_json(&[started.to_str().unwrap(), "--specs", "specs/pown-chess"]);
    let (_, _, failed) = scores(&report["submissions"][0]);
    assert!(
        failed.contains(&(
            "pown-functions".to_string(),
            "moves_remaining('w') and ('b') are 8 at the start".to_string()
        )),
        "{failed:?} {stderr}"
    );
}

#[test]
fn a_pown_moves_remaining_that_counts_stuck_powns_fails_its_own_function_scenario() {
    let (score, max, failed) = scores(&grade_pown("bug-last-row.py"));
    // Its games fail where a pown stands on its last row, the rule battery's game-end family
    // among them (1 of its 4 points).
    assert_eq!((score, max), (21.0, 34.0), "{failed:?}");
    let functions: Vec<&str> = failed
        .iter()
        .filter(|(dialect, _)| dialect == "pown-functions")
        .map(|(_, name)| name.as_str())
        .collect();
    assert_eq!(
        functions,
        ["moves_remaining counts only the powns that can move"]
    );
}

#[test]
fn a_pown_blocked_by_its_own_colour_is_no_reading_a_function_scenario_charges() {
    // Play never puts a pown behind one of its own colour, and the handout's "can be moved"
    // does not say whether it can: a moves_remaining that counts such a pown is graded as
    // its games are, in full.
    let (score, max, failed) = scores(&grade_pown("bug-own-piece.py"));
    assert_eq!((score, max), (34.0, 34.0), "{failed:?}");
}

#[test]
fn a_display_board_with_the_challenges_score_line_passes_the_function_scenarios() {
    let (_, _, failed) = scores(&grade_pown("pown-chess-challenges.py"));
    assert!(
        failed.iter().all(|(dialect, _)| dialect == "pown"),
        "{failed:?}"
    );
}

#[test]
fn naming_the_program_s_dialect_grades_its_functions_too() {
    // `--dialect csc110` names the program's dialect: a submission of it is graded on the
    // function scenarios graded with it, in `test` as in `grade`.
    let fixture = "fixtures/one-d-chess/csc110/bug-move-king-unused.py";
    let (_, report) = common::test_json(&[
        "--game",
        "one-d-chess",
        "--dialect",
        "csc110",
        "--python",
        fixture,
    ]);
    let ran = report["scenarios"].as_array().unwrap();
    assert_eq!(ran.len(), 32);
    let failed: Vec<String> = common::failures(&report).into_iter().map(|f| f.0).collect();
    assert_eq!(
        failed,
        ["rules: king", "move_king: slides to a piece or the edge"]
    );
    // The handout's `from graphics import graphics` loads for the functions as for the game:
    // nothing of it is shown under the failures.
    let output = common::boardgrade()
        .args(["test", "--game", "one-d-chess", "--dialect", "csc110"])
        .args(["--quiet", "--python", fixture])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("WRONG        rules: king"), "{text}");
    assert!(!text.contains("graphics"), "{text}");

    let (_, report, stderr) = grade_json(&[fixture, "--dialect", "csc110"]);
    let (score, max, failed) = scores(&report["submissions"][0]);
    assert_eq!((score, max, failed.len()), (34.0, 36.0, 2), "{stderr}");
    // Naming the functions' dialect itself keeps only its scenarios, for a reference run.
    let (_, report) = common::test_json(&["--dialect", "csc110-functions"]);
    let dialects: Vec<&str> = report["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s["dialect"].as_str())
        .collect();
    assert!(dialects.len() == 10 && dialects.iter().all(|d| *d == "csc110-functions"));
}
