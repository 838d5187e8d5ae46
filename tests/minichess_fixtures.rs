//! The miniChess fixtures graded through the real binary and the Python adapter: the correct
//! submissions pass, each buggy one fails exactly where its bug is, and the reports name
//! the boards that are missing, extra, duplicated or changed.

use std::collections::BTreeMap;

use assert_cmd::Command;
use serde_json::Value;

/// The step-based ecs10 specs (everything but the match).
const STEP_SPECS: [&str; 4] = [
    "specs/minichess/ecs10/handout.toml",
    "specs/minichess/ecs10/start.toml",
    "specs/minichess/ecs10/moves.toml",
    "specs/minichess/ecs10/chooser.toml",
];
const MATCH_SPEC: &str = "specs/minichess/ecs10/match.toml";

fn fixture(name: &str) -> String {
    format!("fixtures/minichess/ecs10/{name}")
}

/// The JSON report of `boardgrade test ARGS... --python submission`.
fn test_json(args: &[&str], submission: &str) -> Value {
    let output = Command::cargo_bin("boardgrade")
        .unwrap()
        .arg("test")
        .args(args)
        .args(["--python", submission, "--format", "json"])
        .output()
        .unwrap();
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "{submission}: {output:?}"
    );
    serde_json::from_slice(&output.stdout).expect("a JSON report")
}

/// Verdict and score of each scenario, by name, after grading `submission` on `specs`.
fn grade(submission: &str, specs: &[&str]) -> BTreeMap<String, (String, f64)> {
    test_json(specs, submission)["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap().to_string(),
                (
                    s["verdict"].as_str().unwrap().to_string(),
                    s["score"].as_f64().unwrap(),
                ),
            )
        })
        .collect()
}

/// The notes of the scenario named `name` after grading `submission` on `spec`.
fn grade_notes(submission: &str, spec: &str, name: &str) -> Vec<String> {
    let report = test_json(&[spec], submission);
    let scenario = (report["scenarios"].as_array().unwrap().iter())
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("{name} not in {report:#}"));
    assert_eq!(scenario["verdict"], "pass", "{scenario:#}");
    (scenario["notes"].as_array().unwrap().iter())
        .map(|note| note.as_str().unwrap().to_string())
        .collect()
}

/// The names of the scenarios that did not pass.
fn failures(results: &BTreeMap<String, (String, f64)>) -> Vec<&str> {
    results
        .iter()
        .filter(|(_, (verdict, _))| verdict != "pass")
        .map(|(name, _)| name.as_str())
        .collect()
}

/// The human report of `submission` on the scenarios of `spec` whose name holds `filter`.
fn report(submission: &str, spec: &str, filter: &str) -> String {
    let output = Command::cargo_bin("boardgrade")
        .unwrap()
        .args(["test", spec, "--python", submission, "--filter", filter])
        .args(["--color", "never", "-q"])
        .output()
        .unwrap();
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn assert_fails_only(submission: &str, failing: &[&str], passing: &[&str]) {
    let results = grade(&fixture(submission), &STEP_SPECS);
    let failed = failures(&results);
    for name in failing {
        assert!(
            failed.contains(name),
            "{submission} should fail {name:?}: {failed:?}"
        );
        assert_eq!(results[*name].0, "wrong", "{submission}: {name}");
    }
    for name in passing {
        assert!(
            results.contains_key(*name) && !failed.contains(name),
            "{submission} should pass {name:?}: {failed:?}"
        );
    }
}

const HANDOUT_MAKER: &str = "move_maker: the handout's example, black to move";
const WHITE_EDGES: &str = "move_maker: white captures on both edges, never around them";
const BLACK_EDGES: &str = "move_maker: black captures on both edges, never around them";
const NO_MOVE: &str = "move_maker: a position with no move answers an empty list";
const UNCHANGED: &str = "move_maker: leaves the board it was given unchanged";
const FAR_ROW: &str = "move_maker: a pawn one step from the far row";
const START_3: &str = "move_maker: 3x3 start, both colours";
const HANDOUT_CHOOSER: &str =
    "move_chooser: the handout's example, the one board that does not lose";
const CHOOSER_ONE: &str = "move_chooser: a list of one board returns that board";
const CHOOSER_3X3: &str = "move_chooser: returns one of the boards from the 3x3 start";
const CHOOSER_4X4: &str = "move_chooser: returns one of the boards for black on 4x4";
const CHOOSER_DRIVER: &str =
    "move_chooser: chooses among the moves move_maker found, as the driver does";

#[test]
fn the_correct_submission_passes_everything() {
    let results = grade(
        &fixture("prog67.py"),
        &[&STEP_SPECS[..], &[MATCH_SPEC]].concat(),
    );
    assert_eq!(failures(&results), Vec::<&str>::new());
    assert_eq!(results.len(), 17);
}

#[test]
fn the_hexapawn_submission_passes_its_dialect() {
    let results = grade(
        "fixtures/minichess/hexapawn/hexapawn.py",
        &["specs/minichess/hexapawn"],
    );
    assert_eq!(failures(&results), Vec::<&str>::new());
    assert!(results.len() >= 5);
}

#[test]
fn a_diagonal_step_onto_an_empty_square_is_an_extra_board() {
    assert_fails_only(
        "bug-diagonal-empty.py",
        &[HANDOUT_MAKER, START_3, NO_MOVE],
        // The input board is its own scenario's concern: extra boards returned do not fail it.
        &[
            WHITE_EDGES,
            BLACK_EDGES,
            FAR_ROW,
            CHOOSER_ONE,
            CHOOSER_3X3,
            CHOOSER_DRIVER,
            UNCHANGED,
        ],
    );
    let text = report(
        &fixture("bug-diagonal-empty.py"),
        STEP_SPECS[0],
        "move_maker",
    );
    assert!(
        text.contains("extra: boards that are not moves of the position (3 board(s)"),
        "{text}"
    );
    // The black pawn from (2,1) on the empty (1,2), marked.
    assert!(text.contains(" w  . [b]"), "{text}");
    assert!(!text.contains("missing:"), "{text}");
}

#[test]
fn a_straight_capture_is_an_extra_board() {
    assert_fails_only(
        "bug-straight-capture.py",
        &[HANDOUT_MAKER, WHITE_EDGES, BLACK_EDGES, NO_MOVE],
        &[START_3, FAR_ROW, CHOOSER_ONE, CHOOSER_DRIVER, UNCHANGED],
    );
    let text = report(
        &fixture("bug-straight-capture.py"),
        STEP_SPECS[2],
        "white captures",
    );
    assert!(
        text.contains("extra: boards that are not moves of the position (1 board(s)"),
        "{text}"
    );
    assert!(text.contains(" .  b  b [w]"), "{text}");
}

#[test]
fn white_moving_up_misses_every_white_move() {
    assert_fails_only(
        "bug-white-moves-up.py",
        &[START_3, WHITE_EDGES, FAR_ROW],
        &[
            HANDOUT_MAKER,
            BLACK_EDGES,
            CHOOSER_ONE,
            CHOOSER_DRIVER,
            UNCHANGED,
        ],
    );
    let text = report(
        &fixture("bug-white-moves-up.py"),
        STEP_SPECS[2],
        "white captures",
    );
    assert!(
        text.contains("missing: moves it did not return (3 board(s)"),
        "{text}"
    );
    assert!(text.contains("[w] b  b  b"), "{text}");
}

#[test]
fn captures_around_the_edge_are_extra_boards() {
    assert_fails_only(
        "bug-wrap-capture.py",
        &[WHITE_EDGES, BLACK_EDGES, HANDOUT_MAKER],
        &[START_3, FAR_ROW, CHOOSER_ONE, CHOOSER_DRIVER],
    );
    let text = report(&fixture("bug-wrap-capture.py"), STEP_SPECS[2], "edges");
    // White's pawn from (0,0) lands on (1,3), black's from (3,3) on (2,0).
    assert!(text.contains(" .  b  b [w]"), "{text}");
    assert!(text.contains("[b] w  w  ."), "{text}");
}

#[test]
fn duplicate_boards_are_named_with_their_count() {
    assert_fails_only(
        "bug-duplicates.py",
        &[START_3, WHITE_EDGES, BLACK_EDGES, HANDOUT_MAKER],
        &[NO_MOVE, CHOOSER_ONE, CHOOSER_DRIVER],
    );
    let text = report(
        &fixture("bug-duplicates.py"),
        STEP_SPECS[2],
        "white captures",
    );
    assert!(
        text.contains("duplicated: moves returned more than once"),
        "{text}"
    );
    assert!(text.contains("2 times:"), "{text}");
    assert!(
        !text.contains("extra:") && !text.contains("missing:"),
        "{text}"
    );
}

#[test]
fn a_board_changed_in_place_is_shown_as_given_and_after() {
    // Only black's moves turn the board over: white's scenarios pass.
    assert_fails_only(
        "bug-mutates-input.py",
        &[UNCHANGED, HANDOUT_MAKER, BLACK_EDGES],
        &[WHITE_EDGES, CHOOSER_ONE, CHOOSER_DRIVER],
    );
    let text = report(&fixture("bug-mutates-input.py"), STEP_SPECS[2], "unchanged");
    assert!(text.contains("first divergence at step 2"), "{text}");
    assert!(
        text.contains("move_maker changed the board it was given"),
        "{text}"
    );
    assert!(
        text.contains("given:") && text.contains("after the call:"),
        "{text}"
    );
    assert!(
        text.contains("!changed-input [[2, 2, 2], [1, 0, 0], [0, 1, 1]]"),
        "{text}"
    );
}

#[test]
fn the_driver_scenario_notes_move_maker_and_judges_the_chooser() {
    // The scenario calls move_maker before move_chooser, as the driver does, and judges the
    // chooser alone: a wrong move_maker (or one that changes its board) is a note there, and
    // fails the scenarios about moves.
    for (submission, step) in [
        (
            "bug-white-moves-up.py",
            "step 3 `move_maker [[0,0,0,0],[0,0,0,0],[0,1,0,0],[2,0,2,0]] 1`: ",
        ),
        (
            "bug-straight-capture.py",
            "step 1 `move_maker [[0,1,1],[1,0,0],[2,2,2]] 2`: ",
        ),
        (
            "bug-mutates-input.py",
            "step 1 `move_maker [[0,1,1],[1,0,0],[2,2,2]] 2`: ",
        ),
    ] {
        let notes = grade_notes(&fixture(submission), STEP_SPECS[3], CHOOSER_DRIVER);
        assert!(
            notes
                .iter()
                .any(|n| n.starts_with(step) && n.ends_with("(not judged by this scenario)")),
            "{submission}: {notes:?}"
        );
    }
    // An error in move_maker is noted too.
    let source = std::fs::read_to_string(fixture("prog67.py")).unwrap();
    let raising = source.replace(
        "def move_maker(board, color):\n",
        "def move_maker(board, color):\n    if board == [[0, 0, 0, 0], [0, 0, 0, 0], [0, 1, 0, 0], [2, 0, 2, 0]]:\n        raise ValueError('no 4x4')\n",
    );
    assert_ne!(raising, source);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("prog67.py");
    std::fs::write(&path, raising).unwrap();
    let notes = grade_notes(path.to_str().unwrap(), STEP_SPECS[3], CHOOSER_DRIVER);
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("step 3 ") && n.contains("ValueError: no 4x4")),
        "{notes:?}"
    );
}

#[test]
fn a_chooser_answer_outside_its_list_fails_the_chooser_only() {
    assert_fails_only(
        "bug-chooser-not-in-list.py",
        &[CHOOSER_3X3, CHOOSER_4X4, CHOOSER_ONE, CHOOSER_DRIVER],
        &[HANDOUT_MAKER, START_3, WHITE_EDGES, NO_MOVE, UNCHANGED],
    );
    let text = report(
        &fixture("bug-chooser-not-in-list.py"),
        STEP_SPECS[3],
        "3x3 start",
    );
    assert!(
        text.contains("it returned a board that is not in the list"),
        "{text}"
    );
}

#[test]
fn a_chooser_that_prints_returns_none() {
    assert_fails_only(
        "bug-chooser-prints.py",
        &[CHOOSER_3X3, CHOOSER_4X4, CHOOSER_ONE, CHOOSER_DRIVER],
        &[HANDOUT_MAKER, START_3, NO_MOVE, UNCHANGED],
    );
    let text = report(
        &fixture("bug-chooser-prints.py"),
        STEP_SPECS[3],
        "one board",
    );
    assert!(text.contains("move_chooser returned None"), "{text}");
    assert!(text.contains("+ None"), "{text}");
    // What it printed is part of the step's response, noted as the part the scenario does
    // not judge.
    assert!(
        text.contains("printed differs: expected nothing, got \"[[0, 1, 0, 0], [0, 0, 0, 0], [1, 0, 0, 2], [0, 0, 2, 0]]\" (not judged here)"),
        "{text}"
    );
}

#[test]
fn boards_returned_as_tuples_cost_the_handout_example_alone() {
    // The correct submission with its boards made tuples of tuples. The handout represents a
    // board as a list of lists and shows lists in its example: that scenario charges the
    // form; every other one judges the boards' content, noting what was returned.
    let submission = fixture("quirk-tuple-boards.py");
    let bundled = test_json(&["--game", "minichess", "--dialect", "ecs10"], &submission);
    assert_eq!(
        bundled["summary"]["score"], 32.0,
        "{:#}",
        bundled["summary"]
    );
    assert_eq!(bundled["summary"]["max_score"], 34.0);
    let failed: Vec<&Value> = (bundled["scenarios"].as_array().unwrap().iter())
        .filter(|s| s["verdict"] != "pass")
        .map(|s| &s["name"])
        .collect();
    assert_eq!(failed, [HANDOUT_MAKER]);
    let start = &grade_notes(&submission, STEP_SPECS[1], START_3)[0];
    assert!(
        start.starts_with(
            "step 1 `move_maker [[1,1,1],[0,0,0],[2,2,2]] 1`: lists differs: expected \
             nothing, got \"!tuples [((0, 1, 1), (1, 0, 0), (2, 2, 2)), "
        ),
        "{start}"
    );
    let text = report(&submission, STEP_SPECS[0], "move_maker");
    assert!(
        text.contains(
            "move_maker returned tuples where the handout has lists (\"the board is \
             represented as a list of lists\"): it returned `[((0, 1, 1), (1, 2, 0), (2, 0, 2)), "
        ),
        "{text}"
    );
    assert!(text.contains("differs in: lists"), "{text}");
    assert!(
        !text.contains("missing:") && !text.contains("extra:"),
        "{text}"
    );
}

#[test]
fn a_tuple_row_is_judged_as_a_list_and_wrong_tuples_stay_wrong() {
    let source = std::fs::read_to_string(fixture("quirk-tuple-boards.py")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let variant = |name: &str, from: &str, to: &str| {
        let changed = source.replace(from, to);
        assert_ne!(changed, source, "{name}");
        let path = dir.path().join(name);
        std::fs::write(&path, changed).unwrap();
        path.to_string_lossy().into_owned()
    };
    // A list of rows where the rows a move changed are tuples.
    let tuple_row = variant(
        "tuple_row.py",
        "    return frozen(rows)",
        "    for changed in {row, new_row}:\n        rows[changed] = tuple(rows[changed])\n    return rows",
    );
    let results = grade(&tuple_row, &STEP_SPECS);
    assert_eq!(failures(&results), [HANDOUT_MAKER]);
    // Tuples holding the wrong boards: the pawn is copied, not moved.
    let wrong = variant("wrong.py", "    rows[row][col] = 0\n", "");
    let results = grade(&wrong, &STEP_SPECS);
    let failed = failures(&results);
    for name in [HANDOUT_MAKER, START_3, WHITE_EDGES, BLACK_EDGES, FAR_ROW] {
        assert!(failed.contains(&name), "{name}: {failed:?}");
        assert_eq!(results[name].0, "wrong", "{name}");
    }
    let text = report(&wrong, STEP_SPECS[1], "3x3");
    assert!(
        text.contains("extra: boards that are not moves of the position"),
        "{text}"
    );
}

#[test]
fn a_random_chooser_is_legal_but_scores_lower_on_strength() {
    // Every move it returns is legal; the handout's example alone asks for the one board of
    // three that does not lose, which a random pick returns one time in three.
    let legal = grade(&fixture("random-chooser.py"), &STEP_SPECS);
    let failed = failures(&legal);
    assert!(
        failed.is_empty() || failed == [HANDOUT_CHOOSER],
        "{failed:?}"
    );
    let random = grade(&fixture("random-chooser.py"), &[MATCH_SPEC]);
    let sensible = grade(&fixture("prog67.py"), &[MATCH_SPEC]);
    let (verdict, random_score) = random.values().next().unwrap().clone();
    let (_, sensible_score) = sensible.values().next().unwrap().clone();
    assert_eq!(verdict, "wrong");
    assert_eq!(sensible_score, 6.0);
    assert!(random_score.is_sign_positive(), "{random_score}");
    assert!(
        random_score < sensible_score,
        "{random_score} vs {sensible_score}"
    );
}

#[test]
fn the_handout_chooser_example_accepts_only_the_board_that_does_not_lose() {
    // The example's list is handed over as the handout shows it: the first board is the one
    // that does not lose, the other two lose against perfect play.
    let source = std::fs::read_to_string(fixture("random-chooser.py")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    for (pick, verdict) in [(0, "pass"), (1, "wrong"), (2, "wrong")] {
        let chooser = source.replace("random.choice(mlist)", &format!("mlist[{pick}]"));
        assert_ne!(chooser, source);
        let path = dir.path().join(format!("prog67_{pick}.py"));
        std::fs::write(&path, chooser).unwrap();
        let results = grade(path.to_str().unwrap(), &[STEP_SPECS[0]]);
        assert_eq!(results[HANDOUT_CHOOSER].0, verdict, "mlist[{pick}]");
    }
}

#[test]
fn the_match_report_shows_records_awards_and_a_lost_game() {
    let text = report(&fixture("random-chooser.py"), MATCH_SPEC, "plays well");
    for expected in [
        "match: 120 game(s)",
        "vs greedy     as white",
        "not met    2 pt(s)  against greedy as the side that wins in theory",
        "lost games (one against each opponent in each colour, a failure first):",
        "final board:",
    ] {
        assert!(text.contains(expected), "{expected:?} not in:\n{text}");
    }
    // A lost game's moves, colour by colour.
    assert!(text.contains("white (0,"), "{text}");
}
