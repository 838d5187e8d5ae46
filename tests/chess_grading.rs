//! Grading chess (`ecs198f`) submissions through the real binary: the bundled scenarios
//! against the reference, the correct team given three ways, each buggy team failing where
//! its bug is, the adapter's messages, and reports that name squares, moves and positions.

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use predicates::prelude::*;
use serde_json::Value;

use common::{boardgrade, cells, copy_tree, failures, test_json, totals};

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
fn a_message_for_a_refused_move_passes_where_the_course_accepts_one() {
    let dir = tempfile::tempdir().unwrap();
    let course = course_file(dir.path(), "invalid_move_answer = \"empty_or_message\"");
    // (course, team, passed, failed, score); every run is out of 82.5.
    for (policy, team, passed, failed, score) in [
        (None, "correct", 86, 0, 82.5),
        (None, "quirk-invalid-message", 32, 54, 32.0),
        (Some(&course), "correct", 86, 0, 82.5),
        (Some(&course), "quirk-invalid-message", 86, 0, 82.5),
        // A wrong notation for a move is still wrong, under either reading.
        (Some(&course), "bug-castling-notation", 83, 3, 79.5),
    ] {
        let submission = format!("{FIXTURES}/{team}/pychess");
        let mut args = vec![SCENARIOS, "--python", submission.as_str()];
        if let Some(policy) = policy {
            args.extend(["--policy", policy.as_str()]);
        }
        let (_, report) = test_json(&args);
        assert_eq!(
            totals(&report),
            (passed, failed, score, 82.5),
            "{policy:?} {team}"
        );
    }
}

/// A course file for ecs198f holding `line`, in `dir`.
fn course_file(dir: &Path, line: &str) -> String {
    let course = dir.join(format!("course-{}.toml", line.len()));
    std::fs::write(&course, format!("[chess.ecs198f]\n{line}\n")).unwrap();
    course.display().to_string()
}

#[test]
fn draws_by_repetition_pass_or_fail_as_the_course_reads_draws() {
    let dir = tempfile::tempdir().unwrap();
    let stalemate_only = course_file(dir.path(), "draw_rules = \"stalemate_only\"");
    let required = course_file(dir.path(), "draw_rules = \"required\"");
    // (course, team: None for the reference, passed, failed, score); out of 82.5.
    for (policy, team, passed, wrong, score) in [
        (None, Some("correct"), 86, 0, 82.5),
        (None, Some("quirk-draw-rules"), 86, 0, 82.5),
        (Some(&stalemate_only), Some("correct"), 86, 0, 82.5),
        (Some(&stalemate_only), Some("quirk-draw-rules"), 85, 1, 81.5),
        (Some(&required), None, 86, 0, 82.5),
        (Some(&required), Some("correct"), 85, 1, 81.5),
        (Some(&required), Some("quirk-draw-rules"), 86, 0, 82.5),
    ] {
        let submission = team.map(|team| format!("{FIXTURES}/{team}/pychess"));
        let mut args = vec![SCENARIOS];
        if let Some(submission) = &submission {
            args.extend(["--python", submission.as_str()]);
        }
        if let Some(policy) = policy {
            args.extend(["--policy", policy.as_str()]);
        }
        let (_, report) = test_json(&args);
        assert_eq!(
            totals(&report),
            (passed, wrong, score, 82.5),
            "{policy:?} {team:?}"
        );
        if wrong == 1 {
            let repetition = "a repetition ends the game only where the course requires draw rules";
            assert_eq!(failed(&report), BTreeSet::from([repetition.to_string()]));
        }
    }
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
    // The reference also runs the bundled variants' scenarios; a team is graded as ecs198f.
    let reference = grade(SPECS, None).1;
    let all = scenarios(&reference)
        .iter()
        .filter(|s| s["dialect"] == "ecs198f" && s["verdict"] == "pass")
        .count();
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

/// Every scenario of the handout's dialect a team fails: (file, scenario name).
fn failed_everywhere(team: &str) -> BTreeSet<(String, String)> {
    let (_, report) = grade(SCENARIOS, Some(&fixture(team)));
    scenarios(&report)
        .iter()
        .filter(|s| s["verdict"] != "pass")
        .map(|s| {
            let file = s["file"].as_str().unwrap().rsplit('/').next().unwrap();
            (file.to_string(), s["name"].as_str().unwrap().to_string())
        })
        .collect()
}

#[test]
fn each_buggy_team_fails_exactly_the_scenarios_of_its_bug() {
    // Over every scenario of the handout's dialect: rule scenarios judge the position, notation scenarios
    // the strings returned, so one bug costs the scenarios about it and nothing else.
    let cases: &[(&str, &[(&str, &str)])] = &[
        (
            // The check only an en passant capture answers is a mate to a team without it.
            "bug-no-en-passant",
            &[
                ("en_passant.toml", "White takes en passant right after the double step"),
                ("en_passant.toml", "Black takes en passant right after the double step"),
                ("notation.toml", "en passant is written as a capture"),
                ("checkmate.toml", "a check only an en passant capture answers does not end the game"),
                ("battery.toml", "rules: en passant"),
            ],
        ),
        (
            "bug-castling-through-check",
            &[
                ("castling.toml", "refused through an attacked square"),
                ("battery.toml", "rules: castling"),
            ],
        ),
        (
            "bug-promotion-not-applied",
            &[
                ("promotion.toml", "the handout's g7g8=Q: White promotes without capture"),
                ("promotion.toml", "the handout's g7xh8=Q: White promotes with a capture"),
                ("promotion.toml", "the handout's e7 to e8: a white pawn becomes a queen"),
                ("promotion.toml", "Black promotes without capture"),
                ("promotion.toml", "Black promotes with a capture"),
                ("battery.toml", "rules: promotion"),
            ],
        ),
        (
            // The king steps into check: onto the queen's e1, and onto f1 on its way to g1.
            "bug-king-capturable",
            &[
                ("castling.toml", "refused through an attacked square"),
                (
                    "check.toml",
                    "the handout's example: the king may not step onto e1 while the queen attacks it",
                ),
                ("check.toml", "the king may not take a defended piece"),
                ("battery.toml", "rules: check and pins"),
            ],
        ),
        (
            "bug-no-checkmate",
            &[
                ("checkmate.toml", "fool's mate: Black wins"),
                ("checkmate.toml", "scholar's mate: White wins"),
                ("checkmate.toml", "a back-rank mate: the king is shut in by its own pawns"),
                (
                    "checkmate.toml",
                    "a double check is mate when the king cannot step, though one checker can be taken",
                ),
                ("checkmate.toml", "mate when the only piece that could take the checker is pinned"),
                ("checkmate.toml", "mate when the square the king needs is guarded by a pinned piece"),
                ("checkmate.toml", "a smothered mate: the king's own pieces shut it in"),
                ("battery.toml", "rules: game end"),
            ],
        ),
        (
            // A check the king cannot step out of is called mate: only the scenarios about
            // the game's end give one (the battery's other families and the notation
            // scenarios avoid it), so the false mate costs those and nothing else.
            "bug-king-only-mate",
            &[
                ("check.toml", "a check that can be answered does not end the game"),
                ("checkmate.toml", "a check only a capture of the checker answers does not end the game"),
                ("checkmate.toml", "a check only an en passant capture answers does not end the game"),
                ("battery.toml", "rules: game end"),
            ],
        ),
        (
            // Notation only: every rule scenario passes with the strings as notes.
            "bug-uppercase-letter",
            &[
                ("notation.toml", "the handout's ng1f3"),
                ("notation.toml", "the handout's ng1xf3"),
                ("notation.toml", "every piece's letter, with and without capture"),
                ("notation.toml", "castling returns 0-0 on the king side"),
                ("notation.toml", "castling returns 0-0-0 on the queen side"),
                ("notation.toml", "the handout's g7g8=Q and g7xh8=Q: promotion is written =Q"),
                ("notation.toml", "a capture that promotes is written with x and =Q"),
                ("notation.toml", "Black's promotions are written =Q too"),
                ("battery.toml", "rules: notation"),
            ],
        ),
        (
            // Raises on a move from an empty square: told at that move, nowhere else.
            "bug-raises-from-empty",
            &[
                ("impossible_moves.toml", "moves from empty squares are refused, the other side's pieces too"),
                ("start.toml", "a move from an empty square is refused"),
                ("battery.toml", "rules: move shape"),
            ],
        ),
        (
            // Castling's string costs the two castling scenarios, not the piece letters'.
            "bug-castling-notation",
            &[
                ("notation.toml", "castling returns 0-0 on the king side"),
                ("notation.toml", "castling returns 0-0-0 on the queen side"),
                ("options.toml", "lenient_notation: piece letters and castling spelled either way"),
            ],
        ),
        // The bugs real teams hid from the handout's scenarios: only the battery finds them,
        // each in its own rule family.
        (
            "bug-false-check-capture",
            &[("battery.toml", "rules: check and pins")],
        ),
        // The random games also step pawns diagonally now and then; the battery names the
        // rule.
        (
            "bug-pawn-takes-nothing",
            &[
                ("battery.toml", "rules: en passant"),
                ("random_play.toml", "random game 1 of seed 2026"),
                ("random_play.toml", "random game 2 of seed 2026"),
                ("random_play.toml", "random game 3 of seed 2026"),
                ("random_play.toml", "random game 4 of seed 2026"),
            ],
        ),
        // Found by the battery alone until a scenario walked the king up the board:
        // `the king may not take a defended piece` steps it to e3, in front of Black's pawn.
        (
            "bug-king-step-refused",
            &[
                ("check.toml", "the king may not take a defended piece"),
                ("battery.toml", "rules: check and pins"),
            ],
        ),
        (
            "bug-queen-side-castle-refused",
            &[("battery.toml", "rules: castling")],
        ),
        // Bugs the handout's scenarios and the battery both missed, each now reached by a
        // scenario of its own.
        (
            "bug-castle-rook-attacked",
            &[("castling.toml", "allowed when the king-side rook stands attacked")],
        ),
        // Its check test keeps the pawn taken en passant: an en passant that opens the king's
        // rank is played, and one that takes a checking pawn seems to leave the check.
        (
            "bug-en-passant-opens-rank",
            &[
                ("en_passant.toml", "en passant is refused when it would open the king's rank"),
                ("checkmate.toml", "a check only an en passant capture answers does not end the game"),
            ],
        ),
        // A king's capture never tested for check: the scholar's mate is no mate for it (the
        // king takes the defended queen), nor the mate whose queen a pinned bishop defends, and
        // the battery meets it in check and pins.
        (
            "bug-king-takes-defended",
            &[
                ("check.toml", "the king may not take a defended piece"),
                ("checkmate.toml", "scholar's mate: White wins"),
                ("checkmate.toml", "mate when the square the king needs is guarded by a pinned piece"),
                ("battery.toml", "rules: check and pins"),
                ("battery.toml", "rules: game end"),
            ],
        ),
        (
            "bug-en-passant-by-any-piece",
            &[(
                "en_passant.toml",
                "only a pawn takes en passant: a knight on the skipped square takes nothing",
            )],
        ),
        (
            "bug-diagonal-index-error",
            &[
                ("battery.toml", "rules: en passant"),
                (
                    "impossible_moves.toml",
                    "moves no piece can make are refused: a pawn from b6 to h3, a knight straight ahead",
                ),
                ("random_play.toml", "random game 1 of seed 2026"),
                ("random_play.toml", "random game 2 of seed 2026"),
                ("random_play.toml", "random game 3 of seed 2026"),
            ],
        ),
    ];
    for (team, bug) in cases {
        let expected: BTreeSet<(String, String)> = bug
            .iter()
            .map(|(file, name)| (file.to_string(), name.to_string()))
            .collect();
        assert_eq!(failed_everywhere(team), expected, "{team}");
    }
}

#[test]
fn a_submission_that_raises_on_an_illegal_move_is_told_which_move() {
    let (_, report) = grade(
        &format!("{SCENARIOS}/impossible_moves.toml"),
        Some(&fixture("bug-raises-from-empty")),
    );
    let divergence = &scenario(
        &report,
        "moves from empty squares are refused, the other side's pieces too",
    )["first_divergence"];
    assert_eq!(divergence["step"], 1);
    assert_eq!(divergence["send"], "play_move e4e5");
    assert_eq!(
        divergence["actual"],
        "!error IndexError: string index out of range\n"
    );
    assert_eq!(divergence["expected"], "''\n");
}

#[test]
fn a_notation_bug_is_a_note_in_the_rule_scenarios() {
    let (code, report) = grade(
        &format!("{SCENARIOS}/castling.toml"),
        Some(&fixture("bug-uppercase-letter")),
    );
    assert_eq!(code, 0, "{:?}", failed(&report));
    let handout = scenario(
        &report,
        "the handout's e1g1 and e8g8: both sides castle king side",
    );
    assert_eq!(handout["verdict"], "pass");
    assert_eq!(
        handout["notes"][0],
        "step 3 `play_move g1f3`: notation differs: expected \"'ng1f3'\", got \"'Ng1f3'\" (not judged by this scenario)"
    );
    boardgrade()
        .args(["test", &format!("{SCENARIOS}/castling.toml")])
        .args(["--python", &fixture("bug-uppercase-letter")])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "    note: step 3 `play_move g1f3`: notation differs",
        ));
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
            "promotion: the board after a legal promotion g7g8 is wrong",
            "moves played before this step (9): h2h4 g7g5 h4g5 a7a6 g5g6 a6a5 g6g7 g8f6 g7g8",
            "position before this step (FEN): rnbqkbQr/1ppppp1p/5n2/p7/8/8/PPPPPPP1/RNBQKBNR b KQkq - 0 5",
            "rnbqkbQr\n.ppppp.p\n.....n..\np.......\n........\n........\nPPPPPPP.\nRNBQKBNR",
            "differs in: board",
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
            "first divergence at step 5 (line 18): sent `play_move e5d6`",
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
    // A rule scenario judges the position: the letter is a note there.
    let rules = scenario(
        &report,
        "a repetition ends the game only where the course requires draw rules",
    );
    assert_eq!(rules["verdict"], "pass");
    let (_, report) = grade(
        &format!("{SCENARIOS}/notation.toml"),
        Some(&fixture("bug-uppercase-letter")),
    );
    let strict = scenario(&report, "the handout's ng1f3");
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
        .args([
            "--python",
            &format!("{}/pychess/logic/chess_logic.py", fixture("bug-no-class")),
        ])
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
fn a_test_game_left_at_the_bottom_of_the_class_file_does_not_matter() {
    let (code, report) = grade(SCENARIOS, Some(&fixture("quirk-test-game-at-bottom")));
    assert_eq!(code, 0, "{:?}", failed(&report));
    assert!(report["summary"]["passed"].as_u64().unwrap() > 50);
}

#[test]
fn a_team_laid_out_as_packages_with_a_relative_import_above_logic_scores_full_marks() {
    // `__init__.py` in `pychess/` and `pychess/logic/`, and an import reaching above `logic`:
    // it resolves only when the class file is imported as `pychess.logic.chess_logic`.
    let dir = tempfile::tempdir().unwrap();
    copy_tree(Path::new(&fixture("correct")), dir.path());
    let pychess = dir.path().join("pychess");
    for package in [pychess.clone(), pychess.join("logic")] {
        std::fs::write(package.join("__init__.py"), "").unwrap();
    }
    let entry = pychess.join("logic/chess_logic.py");
    let source = std::fs::read_to_string(&entry).unwrap();
    let relative = source.replacen("from logic.utils import", "from ..logic.utils import", 1);
    assert_ne!(relative, source, "the fixture's import moved");
    std::fs::write(&entry, relative).unwrap();
    let team = dir.path().display().to_string();
    for runner in ["fork", "fresh"] {
        let (code, report) = test_json(&[SCENARIOS, "--python", &team, "--python-runner", runner]);
        assert_eq!(code, 0, "{runner}: {:?}", failed(&report));
        assert_eq!(totals(&report), (86, 0, 82.5, 82.5), "{runner}");
    }
}

#[test]
fn a_folder_without_the_class_file_fails_each_scenario_naming_the_class() {
    // Routed as `grade` routes it: its one file is graded, and the adapter names what is
    // missing; the fault is the submission's.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("helpers.py"), "def helper():\n    pass\n").unwrap();
    let folder = dir.path().display().to_string();
    let (code, report) = grade(&format!("{SCENARIOS}/start.toml"), Some(&folder));
    assert_eq!(code, 1);
    assert!(!scenarios(&report).is_empty());
    for s in scenarios(&report) {
        assert_eq!(s["verdict"], "crash");
        let stderr = s["stderr_tail"].as_str().unwrap();
        assert!(
            stderr.contains("helpers.py defines no class ChessLogic (classes defined there: none)"),
            "{stderr}"
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
    assert_eq!(teams, 26);
}

#[test]
fn a_battery_failure_names_its_family_and_rule_with_a_shortest_case_to_replay() {
    let battery = format!("{SCENARIOS}/battery.toml");
    let (_, report) = grade(&battery, Some(&fixture("bug-queen-side-castle-refused")));
    assert_eq!(
        failed(&report),
        BTreeSet::from(["rules: castling".to_string()])
    );
    let castling = scenario(&report, "rules: castling");
    assert_eq!(castling["score"], 0.0);
    assert_eq!(castling["max_score"], 1.0);
    let divergence = &castling["first_divergence"];
    let notes = common::notes(divergence);
    assert_eq!(
        notes[0], "castling: a legal queen-side castle e8c8 was refused",
        "{notes:#?}"
    );
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("position before this step (FEN): ")),
        "{notes:#?}"
    );
    // The moves listed replay the case with `boardgrade test` on a scenario of its own.
    let moves = notes
        .iter()
        .find_map(|n| n.strip_prefix("moves played before this step ("))
        .and_then(|n| n.split_once("): "))
        .map(|(_, moves)| moves)
        .expect("the moves played");
    let dir = tempfile::tempdir().unwrap();
    let steps: Vec<String> = moves
        .split(' ')
        .chain(["e8c8"])
        .map(|m| format!("  {{ send = \"play_move {m}\" }},\n"))
        .collect();
    let file = dir.path().join("replay.toml");
    std::fs::write(
        &file,
        format!(
            "game = \"chess\"\ndialect = \"ecs198f\"\nname = \"replay\"\njudge = [\"accepted\"]\nsteps = [\n{}]\n",
            steps.concat()
        ),
    )
    .unwrap();
    let replay = file.to_str().unwrap();
    let (code, reference) = grade(replay, None);
    assert_eq!(code, 0, "{reference:#}");
    let (code, team) = grade(replay, Some(&fixture("bug-queen-side-castle-refused")));
    assert_eq!(code, 1);
    assert_eq!(failed(&team), BTreeSet::from(["replay".to_string()]));
}

#[test]
fn the_battery_seed_changes_the_games_and_keeps_the_verdicts() {
    let battery = format!("{SCENARIOS}/battery.toml");
    let first = grade(&battery, None).1;
    let (code, other) = test_json(&[&battery, "--seed", "7"]);
    assert_eq!(code, 0, "{other:#}");
    assert_eq!(other["summary"]["passed"], 7);
    let (_, team) = test_json(&[
        &battery,
        "--seed",
        "7",
        "--python",
        &fixture("bug-queen-side-castle-refused"),
    ]);
    assert_eq!(
        failed(&team),
        BTreeSet::from(["rules: castling".to_string()])
    );
    assert_eq!(first["summary"]["passed"], 7);

    // A course file's seed plays the games `--seed` plays.
    let dir = tempfile::tempdir().unwrap();
    let course = dir.path().join("course.toml");
    std::fs::write(&course, "battery_seed = 7\n").unwrap();
    let team = fixture("bug-queen-side-castle-refused");
    let divergence = |args: &[&str]| {
        let mut all = vec![battery.as_str(), "--python", team.as_str()];
        all.extend(args);
        let (_, report) = test_json(&all);
        scenario(&report, "rules: castling")["first_divergence"]["step"].clone()
    };
    let by_course = divergence(&["--policy", course.to_str().unwrap()]);
    assert_eq!(by_course, divergence(&["--seed", "7"]));
    assert_ne!(by_course, divergence(&[]));
}

/// The correct team with its logic file renamed to `game_logic.py`, which the course's GUI
/// script (`main.py`, importing pygame) now imports the class from.
fn renamed_logic(dir: &Path) -> std::path::PathBuf {
    let team = dir.join("class/renamed");
    common::copy_tree(&common::root().join(fixture("correct")), &team);
    let logic = team.join("pychess/logic");
    std::fs::rename(logic.join("chess_logic.py"), logic.join("game_logic.py")).unwrap();
    let main = team.join("pychess/main.py");
    let text = std::fs::read_to_string(&main).unwrap();
    let edited = text.replace("from logic.chess_logic ", "from logic.game_logic ");
    assert_ne!(edited, text, "main.py imports the logic");
    std::fs::write(&main, edited).unwrap();
    team
}

#[test]
fn a_logic_file_given_alone_runs_in_its_folders_whatever_it_is_called_and_wherever_from() {
    // `from logic.utils import ...` resolves when the file is handed in alone, renamed or
    // not, by its whole path or from inside `logic/` as a student runs a self-check.
    let dir = tempfile::tempdir().unwrap();
    let team = renamed_logic(dir.path());
    let logic = team.join("pychess/logic");
    for (folder, file) in [
        (common::root().to_path_buf(), logic.join("game_logic.py")),
        (logic.clone(), "game_logic.py".into()),
        (
            common::root()
                .join(fixture("correct"))
                .join("pychess/logic"),
            "chess_logic.py".into(),
        ),
    ] {
        let output = boardgrade()
            .current_dir(&folder)
            .arg("test")
            .arg(common::root().join(SCENARIOS))
            .arg("--python")
            .arg(&file)
            .args(["--format", "json"])
            .output()
            .unwrap();
        let report: serde_json::Value = serde_json::from_slice(&output.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&output.stderr)));
        assert_eq!(
            totals(&report),
            (86, 0, 82.5, 82.5),
            "{}: {report:#}",
            file.display()
        );
    }
}

#[test]
fn a_team_folder_standing_for_pychess_under_its_own_name_scores_full_marks() {
    // The team handed in `pychess/` itself, named its own way: its `logic/` still holds
    // the class, whose relative imports resolve from above `logic/`.
    let dir = tempfile::tempdir().unwrap();
    let team = dir.path().join("team 7 FINAL");
    common::copy_tree(
        &common::root().join(fixture("correct")).join("pychess"),
        &team,
    );
    let (_, report) = grade(SCENARIOS, Some(team.to_str().unwrap()));
    assert_eq!(totals(&report), (86, 0, 82.5, 82.5), "{report:#}");
}

#[test]
fn a_renamed_logic_file_is_graded_not_the_gui_script_that_imports_it() {
    let dir = tempfile::tempdir().unwrap();
    let team = renamed_logic(dir.path());
    let (_, report) = grade(SCENARIOS, Some(team.to_str().unwrap()));
    assert_eq!(totals(&report), (86, 0, 82.5, 82.5), "{report:#}");
    let class = dir.path().join("class");
    let out = dir.path().join("out");
    let (code, report, stderr) = common::grade_json(&[
        class.to_str().unwrap(),
        "--specs",
        SCENARIOS,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let renamed = &report["submissions"][0];
    assert_eq!(
        renamed["file"], "pychess/logic/game_logic.py",
        "{renamed:#}"
    );
    assert_eq!(renamed["score"], 82.5, "{renamed:#}");
}

/// The correct team with its class moved to `pychess/logic/core/game.py`, and the file the
/// handout names re-exporting it (`from .core.game import ChessLogic`).
fn class_kept_in_core(dir: &Path) -> std::path::PathBuf {
    let team = dir.join("team");
    copy_tree(&common::root().join(fixture("correct")), &team);
    let logic = team.join("pychess/logic");
    std::fs::create_dir(logic.join("core")).unwrap();
    for package in [logic.clone(), logic.join("core")] {
        std::fs::write(package.join("__init__.py"), "").unwrap();
    }
    let class = std::fs::read_to_string(logic.join("chess_logic.py")).unwrap();
    let moved = class.replacen("from .moves import", "from ..moves import", 1);
    assert_ne!(moved, class, "the fixture's relative import moved");
    std::fs::write(logic.join("core/game.py"), moved).unwrap();
    std::fs::write(
        logic.join("chess_logic.py"),
        "# The class lives in core/.\nfrom .core.game import ChessLogic  # noqa: F401\n",
    )
    .unwrap();
    team
}

/// `boardgrade test` of the start scenarios against the team folder or file `given`.
fn start_scenarios_against(given: &Path) -> std::process::Output {
    boardgrade()
        .arg("test")
        .arg(common::root().join(SCENARIOS).join("start.toml"))
        .arg("--python")
        .arg(given)
        .output()
        .unwrap()
}

#[test]
fn a_class_file_that_re_exports_the_class_is_graded_given_any_of_the_team_s_folders() {
    // The file the handout names is the one graded, not the file that defines more, and it
    // runs with its package around it whichever folder of the team is handed in.
    let dir = tempfile::tempdir().unwrap();
    let team = class_kept_in_core(dir.path());
    let quirk = common::root().join(fixture("quirk-debug-prints"));
    for given in [
        team.clone(),
        team.join("pychess"),
        team.join("pychess/logic"),
        team.join("pychess/logic/chess_logic.py"),
        // `from pychess.logic.utils import`: the package above the given folder is found.
        quirk.join("pychess"),
        quirk.join("pychess/logic"),
        quirk.join("pychess/logic/chess_logic.py"),
    ] {
        let output = start_scenarios_against(&given);
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{}: {stdout}{stderr}",
            given.display()
        );
        assert!(!stderr.contains("note: graded"), "{stderr}");
    }
}

#[test]
fn a_class_file_with_a_syntax_error_is_what_does_not_load_not_the_gui_importing_it() {
    let dir = tempfile::tempdir().unwrap();
    let team = dir.path().join("team");
    copy_tree(&common::root().join(fixture("correct")), &team);
    let class = team.join("pychess/logic/chess_logic.py");
    let source = std::fs::read_to_string(&class).unwrap();
    std::fs::write(
        &class,
        source.replacen("class ChessLogic", "class ChessLogic(", 1),
    )
    .unwrap();
    for given in [team.clone(), team.join("pychess")] {
        let output = start_scenarios_against(&given);
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            stdout.contains("DOES NOT LOAD") && stdout.contains("logic/chess_logic.py:"),
            "{stdout}"
        );
        assert!(
            stdout.contains("SyntaxError") && !stdout.contains("pygame"),
            "{stdout}"
        );
    }
}
