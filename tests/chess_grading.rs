//! Grading chess (`ecs198f`) submissions through the real binary: the bundled scenarios
//! against the reference, the correct team given three ways, each buggy team failing where
//! its bug is, the adapter's messages, and reports that name squares, moves and positions.

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use predicates::prelude::*;
use serde_json::Value;

use common::{boardgrade, cells, failures, test_json};

const SPECS: &str = "specs/chess";
const SCENARIOS: &str = "specs/chess/ecs198f";
const FIXTURES: &str = "fixtures/chess/ecs198f";

/// Runs the scenarios at `specs` against `submission` (the reference if `None`).
fn grade(specs: &str, submission: Option<&str>) -> (i32, Value) {
    match submission {
        Some(submission) => test_json(&[specs, "--python", submission]),
        None => test_json(&[specs]),
    }
}

fn scenarios(report: &Value) -> &Vec<Value> {
    report["scenarios"].as_array().expect("a scenario list")
}

/// Names of the scenarios that did not pass.
fn failed(report: &Value) -> BTreeSet<String> {
    failures(report)
        .into_iter()
        .map(|(name, _, _)| name)
        .collect()
}

fn scenario<'a>(report: &'a Value, name: &str) -> &'a Value {
    scenarios(report)
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("no scenario {name:?}"))
}

fn fixture(name: &str) -> String {
    format!("{FIXTURES}/{name}")
}

#[test]
fn the_reference_passes_every_chess_scenario() {
    let (code, report) = grade(SPECS, None);
    assert_eq!(code, 0, "{report:#}");
    let passed = report["summary"]["passed"].as_u64().unwrap();
    assert!(passed >= 45, "only {passed} chess scenarios");
    assert_eq!(report["summary"]["failed"], 0);
}

#[test]
fn the_correct_team_passes_given_its_repository_its_pychess_folder_or_its_file() {
    let correct = fixture("correct");
    let all = grade(SPECS, None).1["summary"]["passed"].clone();
    for submission in [
        correct.clone(),
        format!("{correct}/pychess/logic/chess_logic.py"),
    ] {
        let (code, report) = grade(SPECS, Some(&submission));
        assert_eq!(code, 0, "{submission}: {:?}", failed(&report));
        assert_eq!(report["summary"]["passed"], all, "{submission}");
    }
    let folder = format!("{correct}/pychess");
    let (code, report) = grade(&format!("{SCENARIOS}/castling.toml"), Some(&folder));
    assert_eq!(code, 0, "{folder}: {:?}", failed(&report));
}

#[test]
fn each_buggy_team_fails_exactly_the_scenarios_of_its_bug() {
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "bug-no-en-passant",
            "en_passant.toml",
            &[
                "White takes en passant right after the double step",
                "Black takes en passant right after the double step",
            ],
        ),
        (
            "bug-castling-through-check",
            "castling.toml",
            &["refused through an attacked square"],
        ),
        (
            "bug-promotion-not-applied",
            "promotion.toml",
            &[
                "the handout's g7g8=Q: White promotes without capture",
                "the handout's g7xh8=Q: White promotes with a capture",
                "Black promotes without capture",
                "Black promotes with a capture",
            ],
        ),
        (
            "bug-king-capturable",
            "check.toml",
            &["the handout's example: the king may not step onto e1 while the queen attacks it"],
        ),
        (
            "bug-no-checkmate",
            "checkmate.toml",
            &[
                "fool's mate: Black wins",
                "scholar's mate: White wins",
                "a back-rank mate: the king is shut in by its own pawns",
            ],
        ),
        (
            "bug-uppercase-letter",
            "notation.toml",
            &[
                "the handout's ng1f3",
                "the handout's ng1xf3",
                "every piece's letter, with and without capture",
            ],
        ),
        (
            "bug-castling-notation",
            "castling.toml",
            &[
                "the handout's e1g1 and e8g8: both sides castle king side",
                "both sides castle queen side",
                "allowed when only the rook passes an attacked square",
            ],
        ),
    ];
    for (team, file, bug) in cases {
        let (code, report) = grade(&format!("{SCENARIOS}/{file}"), Some(&fixture(team)));
        assert_eq!(code, 1, "{team}");
        let expected: BTreeSet<String> = bug.iter().map(|s| s.to_string()).collect();
        assert_eq!(failed(&report), expected, "{team} on {file}");
        for name in bug.iter() {
            assert_eq!(
                scenario(&report, name)["verdict"],
                "wrong",
                "{team}: {name}"
            );
        }
        // Away from its bug the team is right.
        let (code, report) = grade(
            &format!("{SCENARIOS}/invalid_strings.toml"),
            Some(&fixture(team)),
        );
        assert_eq!(
            code,
            0,
            "{team} on invalid_strings.toml: {:?}",
            failed(&report)
        );
    }
}

#[test]
fn the_report_names_squares_moves_and_the_position() {
    let (_, report) = grade(
        &format!("{SCENARIOS}/promotion.toml"),
        Some(&fixture("bug-promotion-not-applied")),
    );
    let divergence = &scenario(
        &report,
        "the handout's g7g8=Q: White promotes without capture",
    )["first_divergence"];
    assert_eq!(divergence["send"], "board");
    assert_eq!(cells(divergence), ["g8: Q>P"]);
    assert_eq!(
        divergence["notes"],
        serde_json::json!([
            "moves played before this step (9): h2h4 g7g5 h4g5 a7a6 g5g6 a6a5 g6g7 g8f6 g7g8",
            "position before this step (FEN): rnbqkbQr/1ppppp1p/5n2/p7/8/8/PPPPPPP1/RNBQKBNR b KQkq - 0 5",
            "and 1 later step differs",
        ])
    );

    // The human report says the same.
    boardgrade()
        .args(["test", &format!("{SCENARIOS}/en_passant.toml")])
        .args(["--python", &fixture("bug-no-en-passant")])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "first divergence at step 5 (line 15): sent `play_move e5d6`",
        ))
        .stdout(predicate::str::contains(
            "moves played before this step (4): e2e4 a7a6 e4e5 d7d5",
        ))
        .stdout(predicate::str::contains(
            "position before this step (FEN): rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
        ))
        .stdout(predicate::str::contains("- 'e5xd6'\n    + ''"));
}

#[test]
fn lenient_notation_accepts_an_upper_case_piece_letter() {
    let (_, report) = grade(
        &format!("{SCENARIOS}/options.toml"),
        Some(&fixture("bug-uppercase-letter")),
    );
    let lenient = "lenient_notation: piece letters and castling spelled either way";
    assert_eq!(scenario(&report, lenient)["verdict"], "pass");
    let strict = scenario(
        &report,
        "without draw_rules a repetition does not end the game",
    );
    assert_eq!(strict["first_divergence"]["actual"], "'Ng1f3'\n");
}

#[test]
fn draw_rules_is_an_option_the_handout_does_not_ask_for() {
    let specs = "tests/data/chess-draw-rules.toml";
    assert_eq!(grade(specs, None).0, 0);
    let (code, report) = grade(specs, Some(&fixture("correct")));
    assert_eq!(code, 1);
    let divergence = &scenarios(&report)[0]["first_divergence"];
    assert_eq!(divergence["send"], "result");
    assert_eq!(divergence["expected"], "'d'\n");
}

#[test]
fn a_renamed_board_field_is_named_in_the_answer() {
    let (code, report) = grade(
        &format!("{SCENARIOS}/start.toml"),
        Some(&fixture("bug-renamed-board")),
    );
    assert_eq!(code, 1);
    let first = scenario(&report, "the starting board and an empty result");
    assert_eq!(first["verdict"], "wrong");
    let actual = first["first_divergence"]["actual"].as_str().unwrap();
    assert!(
        actual.starts_with(
            "!error AttributeError: ChessLogic has no field 'board' (its fields: castling, \
             chess_board, en_passant, result, turn); the handout names it 'board'\n"
        ),
        "{actual}"
    );
}

#[test]
fn a_missing_class_stops_the_adapter_with_the_classes_found() {
    let (code, report) = grade(
        &format!("{SCENARIOS}/start.toml"),
        Some(&fixture("bug-no-class")),
    );
    assert_eq!(code, 1);
    for s in scenarios(&report) {
        assert_eq!(s["verdict"], "crash");
    }
    boardgrade()
        .args(["test", &format!("{SCENARIOS}/start.toml"), "-q"])
        .args(["--python", &fixture("bug-no-class")])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "boardgrade: pychess/logic/chess_logic.py defines no class ChessLogic \
             (classes defined there: ChessGame)",
        ));
}

#[test]
fn debug_prints_and_a_top_level_package_import_do_not_matter() {
    let (code, report) = grade(
        &format!("{SCENARIOS}/start.toml"),
        Some(&fixture("quirk-debug-prints")),
    );
    assert_eq!(code, 0, "{:?}", failed(&report));
}

#[test]
fn a_folder_without_the_class_file_is_a_harness_error() {
    let (code, report) = grade(&format!("{SCENARIOS}/start.toml"), Some("fixtures/chess"));
    assert_eq!(code, 1);
    for s in scenarios(&report) {
        assert_eq!(s["verdict"], "error");
        let detail = s["detail"].as_str().unwrap();
        assert!(
            detail.contains("fixtures/chess: no pychess/logic/chess_logic.py in this folder"),
            "{detail}"
        );
    }
}

/// Relative paths of the files under `root`, sorted.
fn files_under(root: &Path) -> Vec<String> {
    walkdir::WalkDir::new(root)
        .sort_by_file_name()
        .into_iter()
        .map(|e| e.expect("a readable fixture folder"))
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            e.path()
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect()
}

#[test]
fn every_other_team_is_the_correct_one_with_one_file_changed() {
    let root = Path::new(FIXTURES);
    let correct = root.join("correct");
    let layout = files_under(&correct);
    let mut teams = 0;
    for entry in std::fs::read_dir(root).unwrap() {
        let team = entry.unwrap().path();
        if !team.is_dir() || team == correct {
            continue;
        }
        teams += 1;
        assert_eq!(files_under(&team), layout, "{}", team.display());
        let changed: Vec<&String> = layout
            .iter()
            .filter(|f| {
                std::fs::read(correct.join(f)).unwrap() != std::fs::read(team.join(f)).unwrap()
            })
            .collect();
        assert_eq!(changed.len(), 1, "{}: {changed:?}", team.display());
        let text = std::fs::read_to_string(team.join(changed[0])).unwrap();
        assert!(
            text.starts_with("# Bug: ") || text.starts_with("# Quirk (correct): "),
            "{}: the change is described at the top of {}",
            team.display(),
            changed[0]
        );
    }
    assert_eq!(teams, 12);
}
