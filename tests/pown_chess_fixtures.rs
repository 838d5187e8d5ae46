//! Pown chess fixtures graded through the real binary: the correct scripts pass, each buggy
//! one fails where its bug is.

mod common;

use common::{boardgrade, cells, failures, test_json, totals};
use predicates::prelude::*;

const SPECS: &str = "specs/pown-chess/pown";

fn grade(specs: &str, fixture: &str) -> (i32, serde_json::Value) {
    test_json(&[specs, "--python", &format!("fixtures/pown-chess/{fixture}")])
}

#[test]
fn correct_scripts_pass_under_either_naming() {
    // `bug-own-piece.py` is a control: no reachable position puts a pown behind one of
    // its own colour, so its bug can never show and it must pass too.
    for fixture in [
        "pown-chess.py",
        "bug-own-piece.py",
        "quirk-readline-loop.py",
    ] {
        let (code, report) = grade(SPECS, fixture);
        assert_eq!(failures(&report), vec![], "{fixture}");
        assert_eq!(code, 0);
    }
    // Its own names for the board and its display play every game right; the handout's
    // "you MUST define and use" display_board() and game_board cost the two code checks.
    let (code, report) = grade(SPECS, "pown-chess-variant.py");
    let failed: Vec<String> = failures(&report).into_iter().map(|f| f.0).collect();
    assert_eq!(
        failed,
        [
            "code: display_board and moves_remaining defined and used",
            "code: one game_board dictionary"
        ]
    );
    let (_, _, score, max) = totals(&report);
    assert_eq!(max - score, 2.0);
    assert_eq!(code, 1);
}

/// What a correct program does after `GAME OVER`. A wait for Enter
/// (`input('Press Enter to quit')`, which keeps a console window open) is stopped by the end
/// of input, and neither it nor its prompt is judged: every scenario passes. Any other failure
/// after `GAME OVER` is a crash in every scenario whose game ends: without asking for
/// anything, with a read marker of its own making, or after taking the end of input in its
/// stride.
#[test]
fn after_game_over_a_pause_is_forgiven_and_a_crash_is_not() {
    let dir = tempfile::tempdir().unwrap();
    let correct = std::fs::read_to_string("fixtures/pown-chess/pown-chess.py").unwrap();
    for (name, ending, passes) in [
        ("pauses", "input('Press Enter to quit')", true),
        ("exits", "raise SystemExit(3)", false),
        (
            "forges",
            "import sys\nsys.stdout.write('\\0boardgrade:read\\0')\nraise RuntimeError('cleanup')",
            false,
        ),
        (
            "reads",
            "try:\n    input()\nexcept EOFError:\n    raise RuntimeError('cleanup')",
            false,
        ),
    ] {
        let program = dir.path().join(format!("{name}.py"));
        std::fs::write(&program, format!("{correct}\n{ending}\n")).unwrap();
        let (code, report) = test_json(&[SPECS, "--python", program.to_str().unwrap()]);
        let failed = failures(&report);
        if passes {
            assert_eq!(failed, vec![], "{name}");
            assert_eq!(code, 0, "{name}");
            continue;
        }
        assert!(!failed.is_empty(), "{name}: {report}");
        let crashed = failed.iter().all(|(_, verdict, _)| verdict == "crash");
        assert!(crashed, "{name}: {failed:?}");
        assert_eq!(code, 1, "{name}");
    }
}

#[test]
fn a_title_before_the_board_costs_the_opening_scenario_only() {
    let (code, report) = grade(SPECS, "quirk-title-banner.py");
    assert_eq!(code, 1);
    let failed: Vec<String> = failures(&report).into_iter().map(|f| f.0).collect();
    assert_eq!(failed, vec!["the opening board and w's prompt".to_string()]);
    let noted = report["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        // The code checks read the code: they see no output to note.
        .filter(|s| s["verdict"] == "pass" && !s["tags"].to_string().contains("\"code\""))
        .all(|s| s["notes"].to_string().contains("`*** POWN CHESS ***`"));
    assert!(noted, "{report:#}");
}

/// The scenarios `fixture` fails under a course file holding `line` for pown.
fn failed_under(line: &str, fixture: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let course = dir.path().join("course.toml");
    std::fs::write(&course, format!("[pown-chess.pown]\n{line}\n")).unwrap();
    let fixture = format!("fixtures/pown-chess/{fixture}");
    let policy = course.to_str().unwrap();
    let (_, report) = test_json(&[SPECS, "--python", &fixture, "--policy", policy]);
    failures(&report).into_iter().map(|f| f.0).collect()
}

/// A debug print left in a function the game calls at its end costs the scenario about
/// printing only: the other games are judged without its lines, and say so. A course that
/// judges every line (`extra_lines = "judged"`) fails every game that ends instead.
#[test]
fn a_debug_print_costs_the_scenario_about_printing_only() {
    let (code, report) = grade(SPECS, "quirk-debug-print.py");
    assert_eq!(code, 1);
    let failed: Vec<String> = failures(&report).into_iter().map(|f| f.0).collect();
    assert_eq!(failed, ["the program prints the game and nothing else"]);
    let noted: Vec<&str> = report["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| {
            s["notes"]
                .to_string()
                .contains("the game never prints: `counting")
        })
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert!(
        noted.contains(&"the end of the game: counts, then the winner"),
        "{noted:?}"
    );
    let failed = failed_under("extra_lines = \"judged\"", "quirk-debug-print.py");
    for ending in [
        "the end of the game: counts, then the winner",
        "a player with no pieces left",
        "the program prints the game and nothing else",
    ] {
        assert!(failed.iter().any(|f| f == ending), "{ending}: {failed:?}");
    }
}

/// A board shown once more before the end lines costs the handout's scenario about the
/// end only (the battery's game end family and every other game accept it), and every game
/// that ends where the course reads the handout's example as the only end
/// (`board_before_end = "never"`).
#[test]
fn a_board_shown_before_the_end_lines_costs_the_scenario_about_the_end_s_form_only() {
    let (code, report) = grade(SPECS, "quirk-board-before-end.py");
    assert_eq!(code, 1);
    let failed: Vec<String> = failures(&report).into_iter().map(|f| f.0).collect();
    assert_eq!(failed, ["the end of the game: counts, then the winner"]);
    let failed = failed_under("board_before_end = \"never\"", "quirk-board-before-end.py");
    for ending in [
        "rules: game end",
        "a tie",
        "the program prints the game and nothing else",
        "the end of the game: counts, then the winner",
    ] {
        assert!(failed.iter().any(|f| f == ending), "{ending}: {failed:?}");
    }
    // Each ending is still judged: one that names the wrong winner fails them.
    let quirk = std::fs::read_to_string("fixtures/pown-chess/quirk-board-before-end.py").unwrap();
    let wrong = quirk.replacen("print('w wins!!')", "print('b wins!!')", 1);
    assert_ne!(wrong, quirk);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pown-chess.py");
    std::fs::write(&file, wrong).unwrap();
    let (_, report) = test_json(&[SPECS, "--python", file.to_str().unwrap()]);
    let failed: Vec<String> = failures(&report).into_iter().map(|f| f.0).collect();
    for ending in [
        "a player with no pieces left",
        "a player left with pieces only on its last row",
    ] {
        assert!(failed.iter().any(|f| f == ending), "{ending}: {failed:?}");
    }
}

/// A course file in a fresh folder that sets `challenges`, and its path.
fn course(challenges: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("course.toml");
    std::fs::write(
        &path,
        format!("[pown-chess.pown]\nchallenges = {challenges}\n"),
    )
    .unwrap();
    let path = path.display().to_string();
    (dir, path)
}

#[test]
fn the_required_program_scores_full_marks_from_the_shipped_specs() {
    // The bundled specs hold the challenges and the 6 x 6 board; without a course that
    // sets them they are left out, with a note naming the line that grades them.
    let output = boardgrade()
        .args(["test", "specs/pown-chess", "--format", "json", "--python"])
        .arg("fixtures/pown-chess/pown-chess.py")
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(0), "{report:#}");
    assert_eq!(totals(&report), (27, 0, 34.0, 34.0));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("6 scenario(s) of pown-chess/pown test optional parts the course does not set")
            && stderr.contains(
                "write `challenges = [\"score_header\", \"move_counter\", \"reprompt_invalid\", \"six_by_six\"]` under [pown-chess.pown]"
            ),
        "{stderr}"
    );
    // The same from the specs built into the binary.
    let (code, report) = test_json(&["--python", "fixtures/pown-chess/pown-chess.py"]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(totals(&report), (27, 0, 34.0, 34.0));
}

#[test]
fn challenges_are_graded_where_the_course_sets_them() {
    let (_dir, all) =
        course(r#"["score_header", "move_counter", "reprompt_invalid", "six_by_six"]"#);
    let under = |policy: &str, fixture: &str| {
        test_json(&[
            "specs/pown-chess",
            "--policy",
            policy,
            "--python",
            &format!("fixtures/pown-chess/{fixture}"),
        ])
    };
    // The required program does none of them: it fails the six scenarios about them.
    let (code, report) = under(&all, "pown-chess.py");
    assert_eq!(code, 1);
    assert_eq!(totals(&report), (27, 6, 34.0, 41.0));
    // Both ways of doing challenge 2 pass everything but the 6 x 6 board they do not play.
    for fixture in [
        "pown-chess-challenges.py",
        "pown-chess-counter-beside-score.py",
    ] {
        let (code, report) = under(&all, fixture);
        assert_eq!(code, 1, "{fixture}");
        assert_eq!(totals(&report), (31, 2, 38.0, 41.0), "{fixture}");
        let failed: Vec<String> = failures(&report).into_iter().map(|f| f.0).collect();
        assert!(
            failed
                .iter()
                .all(|name| name.contains("6 x 6") || name.contains("stuck player")),
            "{fixture}: {failed:?}"
        );
    }
    // One challenge set: only its scenario joins the required ones.
    let (_dir, one) = course(r#"["reprompt_invalid"]"#);
    let (code, report) = under(&one, "pown-chess.py");
    assert_eq!(code, 1);
    assert_eq!(totals(&report), (27, 1, 34.0, 35.0));
    let failed: Vec<String> = failures(&report).into_iter().map(|f| f.0).collect();
    assert_eq!(
        failed,
        ["challenge 3: an invalid move prompts the same player again"]
    );
}

#[test]
fn the_challenges_script_passes_the_challenge_it_implements() {
    let (_dir, all) = course(r#"["score_header", "move_counter", "reprompt_invalid"]"#);
    for fixture in [
        "pown-chess-challenges.py",
        "pown-chess-counter-beside-score.py",
    ] {
        let (code, report) = test_json(&[
            "specs/pown-chess/challenges",
            "--filter",
            "all three",
            "--policy",
            &all,
            "--python",
            &format!("fixtures/pown-chess/{fixture}"),
        ]);
        assert_eq!(failures(&report), vec![], "{fixture}");
        assert_eq!(totals(&report), (1, 0, 1.0, 1.0), "{fixture}");
        assert_eq!(code, 0);
    }
}

#[test]
fn the_count_order_and_strict_input_are_graded_as_the_course_reads_them() {
    // (course line, fixture, passed, failed, score); every run, on the shipped specs/pown-chess
    // (the challenges left out), is out of 34: 2 of them code checks, 5 the handout's required
    // functions called one by one (pown-functions), 4 the rule battery's families (its
    // game-end family ends with differing counts; its input family types lower-case squares,
    // which strict input refuses).
    let runs: &[(&str, &str, u64, u64, f64)] = &[
        ("", "pown-chess.py", 27, 0, 34.0),
        ("", "bug-count-order.py", 27, 0, 34.0),
        ("", "quirk-strict-input.py", 27, 0, 34.0),
        (
            "count_order = \"opponent_first\"",
            "pown-chess.py",
            27,
            0,
            34.0,
        ),
        (
            "count_order = \"opponent_first\"",
            "bug-count-order.py",
            20,
            7,
            21.0,
        ),
        (
            "count_order = \"opponent_first\"",
            "quirk-strict-input.py",
            27,
            0,
            34.0,
        ),
        ("input = \"forgiving\"", "pown-chess.py", 27, 0, 34.0),
        ("input = \"forgiving\"", "bug-count-order.py", 27, 0, 34.0),
        (
            "input = \"forgiving\"",
            "quirk-strict-input.py",
            25,
            2,
            32.0,
        ),
        // The handout's own reading ("be MEAN to players who can't type"), required.
        ("input = \"strict\"", "pown-chess.py", 25, 2, 32.0),
        ("input = \"strict\"", "bug-count-order.py", 25, 2, 32.0),
        ("input = \"strict\"", "quirk-strict-input.py", 27, 0, 34.0),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (index, &(line, fixture, passed, failed, score)) in runs.iter().enumerate() {
        let path = dir.path().join(format!("course{index}.toml"));
        std::fs::write(&path, format!("[pown-chess.pown]\n{line}\n")).unwrap();
        let (_, report) = test_json(&[
            "specs/pown-chess",
            "--policy",
            &path.display().to_string(),
            "--python",
            &format!("fixtures/pown-chess/{fixture}"),
        ]);
        assert_eq!(
            totals(&report),
            (passed, failed, score, 34.0),
            "{line:?} {fixture}"
        );
    }
}

/// (fixture, scenario, verdict, step)
const BUGS: &[(&str, &str, &str, u64)] = &[
    (
        "bug-last-row.py",
        "INVALID MOVE: a pown on its last row",
        "crash",
        15,
    ),
    (
        "bug-w-direction.py",
        "w moves down the board and b moves up",
        "wrong",
        0,
    ),
    (
        "bug-wrong-winner.py",
        "the stuck player can still win on pieces",
        "wrong",
        98,
    ),
    ("bug-no-powns.py", "a capture: b powns a w", "wrong", 10),
    (
        "bug-same-player.py",
        "the turn passes after an invalid move",
        "wrong",
        1,
    ),
    (
        "bug-misaligned.py",
        "the opening board and w's prompt",
        "presentation",
        0,
    ),
];

#[test]
fn each_buggy_script_fails_where_its_bug_is() {
    for &(fixture, scenario, verdict, step) in BUGS {
        let (code, report) = grade(SPECS, fixture);
        assert_eq!(code, 1, "{fixture}");
        let failed = failures(&report);
        let (_, got, divergence) = failed
            .iter()
            .find(|(name, _, _)| name == scenario)
            .unwrap_or_else(|| panic!("{fixture}: {scenario:?} passed; failures: {failed:?}"));
        assert_eq!(got, verdict, "{fixture}");
        assert_eq!(divergence["step"], step, "{fixture}: {divergence}");
        // A failure before anything is typed is named by what the opening shows.
        if step == 0 {
            let notes = common::notes(divergence);
            assert!(
                notes
                    .iter()
                    .any(|n| n.starts_with("the opening: the game opens with ")),
                "{fixture}: {notes:?}"
            );
        }
    }
}

#[test]
fn a_wrong_or_missing_capture_line_costs_the_scenarios_about_captures_only() {
    // `b powns a w` is printed at every capture of every game; a program that leaves it out,
    // or names the mover twice, fails the scenarios about captures and no other game.
    let about_captures = [
        "rules: captures",
        "a capture: b powns a w",
        "powns meeting in a column: the mover captures",
    ];
    let dir = tempfile::tempdir().unwrap();
    let twice = dir.path().join("pown-chess.py");
    let source = std::fs::read_to_string("fixtures/pown-chess/pown-chess.py").unwrap();
    let source = source.replace(
        "print(player + ' powns a ' + captured)",
        "print(player + ' powns a ' + player)",
    );
    assert!(source.contains("' powns a ' + player"));
    std::fs::write(&twice, source).unwrap();
    for fixture in [
        "fixtures/pown-chess/bug-no-powns.py",
        twice.to_str().unwrap(),
    ] {
        let (code, report) = test_json(&[SPECS, "--python", fixture]);
        assert_eq!(code, 1);
        let failed: Vec<String> = failures(&report).into_iter().map(|f| f.0).collect();
        assert_eq!(failed, about_captures, "{fixture}");
        // The games it passes say what they left out.
        let ending = (report["scenarios"].as_array().unwrap().iter())
            .find(|s| s["name"] == "a player with no pieces left")
            .unwrap();
        assert_eq!(ending["verdict"], "pass");
        let notes = common::notes(ending);
        assert!(
            notes.iter().any(|n| n
                .starts_with("its lines about captures differ from the reference's")
                && n.contains("expected `")),
            "{fixture}: {notes:?}"
        );
    }
}

#[test]
fn the_report_shows_typed_squares_after_their_prompts() {
    let (_, report) = grade(SPECS, "bug-same-player.py");
    let turn = report["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "the turn passes after an invalid move")
        .unwrap();
    let transcript = turn["transcript"].as_str().unwrap();
    assert!(
        transcript.contains("w move: E4\nINVALID MOVE"),
        "{transcript}"
    );
    boardgrade()
        .args([
            "test",
            SPECS,
            "--python",
            "fixtures/pown-chess/bug-no-powns.py",
            "--filter",
            "a capture",
        ])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("step 10 (line"))
        .stdout(predicate::str::contains(
            "after: C1; C8; C2; C7; H1; C6; H2; C5; H3",
        ))
        .stdout(predicate::str::contains("- b powns a w"))
        .stdout(predicate::str::contains(
            "b move: C4\n      b moves from C4 to C3",
        ));
}

#[test]
fn cells_are_named_like_the_handout() {
    // Expect the board after B1 with the pown on B3 instead of B2: the reference disagrees,
    // and the report names both squares.
    let reference = boardgrade()
        .args(["engine", "pown-chess"])
        .write_stdin("B1\n")
        .output()
        .unwrap();
    let text = String::from_utf8(reference.stdout).unwrap();
    let after_move = text.split_once("w move: ").unwrap().1;
    let wrong = after_move
        .replacen("2  |   | w |", "2  |   |   |", 1)
        .replacen("3  |   |   |", "3  |   | w |", 1);
    assert_ne!(wrong, after_move);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("moved.toml");
    std::fs::write(&file, format!("game = \"pown-chess\"\nname = \"x\"\nsteps = [{{ send = \"B1\", expect = {wrong:?} }}]\n")).unwrap();
    let (code, report) = test_json(&[file.to_str().unwrap()]);
    assert_eq!(code, 1);
    let divergence = &report["scenarios"][0]["first_divergence"];
    assert_eq!(cells(divergence), ["B2: empty>w", "B3: w>empty"]);
}
