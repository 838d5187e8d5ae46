//! Course variants of a dialect, through the real binary: the Fall 2023 text of project5
//! graded under its variant and against the later text, a class holding both, a variant an
//! instructor writes with `variant new` and edits, and variants that ask for new rules.

mod common;

use common::{boardgrade, failures, grade_json, test_json};
use predicates::prelude::*;

const FALL2023: &str = "specs/one-d-chess/project5-fall2023";
const PROJECT5: &str = "specs/one-d-chess/project5";

fn fixture(name: &str) -> String {
    format!("fixtures/one-d-chess/project5-fall2023/{name}")
}

fn failed_names(report: &serde_json::Value) -> Vec<String> {
    failures(report)
        .into_iter()
        .map(|(name, _, _)| name)
        .collect()
}

#[test]
fn the_fall_2023_submission_scores_full_marks_under_its_variant() {
    let (code, report) = test_json(&[FALL2023, "--python", &fixture("one_d_chess.py")]);
    assert_eq!(failed_names(&report), Vec::<String>::new());
    assert_eq!(code, 0);
    let scenarios = report["scenarios"].as_array().unwrap();
    // Seed 000's scenarios run under the variant, and whos_the_winner's own.
    assert_eq!(scenarios.len(), 38);
    assert!(scenarios
        .iter()
        .all(|s| s["dialect"] == "project5-fall2023"));
    assert!(scenarios
        .iter()
        .any(|s| s["name"] == "whos_the_winner: the handout's game, White wins"));
    assert_eq!(report["summary"]["score"], report["summary"]["max_score"]);
}

#[test]
fn the_reference_runs_the_scenarios_a_variant_inherits() {
    let (code, report) = test_json(&[FALL2023]);
    assert_eq!(code, 0);
    let scenarios = report["scenarios"].as_array().unwrap();
    assert_eq!(
        scenarios.len(),
        38,
        "seed 000's 34 (3 of them code checks) and whos_the_winner's 4"
    );
    assert!(scenarios.iter().all(|s| s["verdict"] == "pass"));
    boardgrade()
        .args(["list", "specs/chess/ecs198f-castling-o"])
        .assert()
        .success()
        .stdout(predicate::str::contains("the handout's e1g1 and e8g8"));
}

#[test]
fn under_the_later_text_it_is_told_what_differs() {
    let (code, report) = test_json(&[PROJECT5, "--python", &fixture("one_d_chess.py")]);
    assert_eq!(code, 1);
    // The rule battery's game-over family fails too; the handout's scenarios say what differs.
    let (battery, found): (Vec<_>, Vec<_>) = failures(&report)
        .into_iter()
        .partition(|(name, _, _)| name.starts_with("rules: "));
    assert_eq!(battery.len(), 1);
    assert_eq!(battery[0].0, "rules: game over");
    let names: Vec<&str> = found.iter().map(|(n, _, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "is_game_over: the handout's game, White wins",
            "is_game_over: Black wins",
            "is_game_over: a knight that takes its own king loses the game",
        ]
    );
    let (_, verdict, divergence) = &found[0];
    assert_eq!(verdict, "wrong");
    assert_eq!(divergence["send"], "is_game_over");
    assert_eq!(divergence["actual"], "True\n");
    assert!(divergence["expected"]
        .as_str()
        .unwrap()
        .starts_with("White wins!\n"));
}

/// (fixture, the scenarios it fails under the variant, the step of the first).
const BUGS: &[(&str, &[&str], u64)] = &[
    (
        "bug-winner-lowercase.py",
        &[
            "whos_the_winner: the handout's game, White wins",
            "whos_the_winner: a knight that takes its own king loses the game",
        ],
        20,
    ),
    (
        "bug-winner-string-none.py",
        &[
            "whos_the_winner: the handout's game, White wins",
            "whos_the_winner: Black wins",
            "whos_the_winner: None while both kings stand, wherever they are",
        ],
        2,
    ),
    (
        "bug-game-over-prints.py",
        &[
            "is_game_over: the handout's game, White wins",
            "is_game_over: Black wins",
            "is_game_over: a knight that takes its own king loses the game",
        ],
        30,
    ),
];

#[test]
fn each_fall_2023_bug_fails_exactly_its_scenarios() {
    for (name, expected, step) in BUGS {
        let (code, report) = test_json(&[FALL2023, "--python", &fixture(name)]);
        assert_eq!(code, 1, "{name}");
        assert_eq!(failed_names(&report), *expected, "{name}");
        let (_, verdict, divergence) = &failures(&report)[0];
        assert_eq!(verdict, "wrong", "{name}");
        assert_eq!(divergence["step"], *step, "{name}");
    }
}

/// A class folder with a Fall 2024 and a Fall 2023 submission, and a course file.
fn class(course: Option<&str>) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = env!("CARGO_MANIFEST_DIR");
    for (student, from) in [
        ("alice", "fixtures/one-d-chess/project5/one_d_chess.py"),
        (
            "bob",
            "fixtures/one-d-chess/project5-fall2023/one_d_chess.py",
        ),
    ] {
        let folder = dir.path().join("class").join(student);
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::copy(
            std::path::Path::new(root).join(from),
            folder.join("one_d_chess.py"),
        )
        .unwrap();
    }
    if let Some(text) = course {
        std::fs::write(dir.path().join("course.toml"), text).unwrap();
    }
    dir
}

fn graded(dir: &tempfile::TempDir, with_course: bool) -> (serde_json::Value, String) {
    let class = dir.path().join("class");
    let out = dir.path().join("out");
    let course = dir.path().join("course.toml");
    let mut args = vec![
        class.to_str().unwrap(),
        "--specs",
        "specs/one-d-chess",
        "--out",
        out.to_str().unwrap(),
    ];
    if with_course {
        args.extend(["--policy", course.to_str().unwrap()]);
    }
    let (_, report, stderr) = grade_json(&args);
    (report, stderr)
}

fn student<'a>(report: &'a serde_json::Value, id: &str) -> &'a serde_json::Value {
    report["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == id)
        .unwrap_or_else(|| panic!("{id} in {report}"))
}

#[test]
fn a_class_holding_both_texts_grades_each_under_its_own() {
    let dir = class(Some("variants = [\"project5-fall2023\"]\n"));
    let (report, _) = graded(&dir, true);
    let alice = student(&report, "alice");
    let bob = student(&report, "bob");
    assert_eq!(alice["dialect"], "project5");
    assert_eq!(bob["dialect"], "project5-fall2023");
    assert_eq!(alice["score"], alice["max_score"]);
    assert_eq!(bob["score"], bob["max_score"]);
    assert_eq!(bob["max_score"], 41.0);
    assert_eq!(
        bob["notes"][0],
        "graded as variant project5-fall2023 of project5: one_d_chess.py defines `whos_the_winner`"
    );
    // Both have full marks out of different maxima: the class mean is not put over one of
    // them.
    let summary = std::fs::read_to_string(dir.path().join("out/summary.txt")).unwrap();
    let alice_max = alice["max_score"].as_f64().unwrap();
    assert!(
        summary.contains(&format!(
            "mean score {} (maxima {alice_max} to 41), mean share 100%",
            (alice_max + 41.0) / 2.0
        )),
        "{summary}"
    );
}

#[test]
fn a_variant_the_course_does_not_enable_is_left_out_and_said_so() {
    let dir = class(None);
    let (report, stderr) = graded(&dir, false);
    assert!(
        stderr.contains("the specs hold variant one-d-chess/project5-fall2023 (38 scenario(s)), which the course does not enable"),
        "{stderr}"
    );
    let bob = student(&report, "bob");
    assert_eq!(bob["dialect"], "project5");
    // project5's 36 and its rule battery's 4 families; graded as project5, bob's
    // `whos_the_winner` file passes three of the families.
    assert_eq!(bob["max_score"], 40.0);
    assert_eq!(bob["score"], 33.0);
    // A typo in the course's list is an error, not a silent choice.
    let dir = class(Some("variants = [\"project5-fall2032\"]\n"));
    let course = dir.path().join("course.toml");
    boardgrade()
        .args(["grade", dir.path().join("class").to_str().unwrap()])
        .args(["--specs", "specs/one-d-chess", "--policy", course.to_str().unwrap()])
        .args(["--out", dir.path().join("out").to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "key `variants`: no variant \"project5-fall2032\" among the specs graded (they hold project5-fall2023)",
        ));
}

/// `variant new` in a fresh folder, then the file edited as an instructor would.
fn new_variant(edit: impl Fn(String) -> String) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let exe = assert_cmd::cargo::cargo_bin("boardgrade");
    let output = std::process::Command::new(&exe)
        .args(["variant", "new", "one-d-chess/project5", "spring2022"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(output.status.success());
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "wrote specs/one-d-chess/spring2022/variant.toml (a variant of one-d-chess/project5); scenarios name it as dialect = \"spring2022\"\n"
    );
    let file = dir.path().join("specs/one-d-chess/spring2022/variant.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, edit(text)).unwrap();
    let folder = file.parent().unwrap().to_path_buf();
    (dir, folder)
}

#[test]
fn variant_new_writes_every_key_and_loads_as_written() {
    let (_dir, folder) = new_variant(|text| text);
    let text = std::fs::read_to_string(folder.join("variant.toml")).unwrap();
    for key in [
        "name = \"spring2022\"",
        "scenarios = { from = \"bundled\", skip = [] }",
        "entry_file = \"one_d_chess.py\"",
        "is_valid_move = { name = \"is_valid_move\", args = [\"board\", \"position\", \"player\"] }",
        "# whos_the_winner = { name = \"whos_the_winner\", args = [\"board\"] }",
        "empty = \"EMPTY\"",
        "white_wins = \"White wins!\"",
        "black_wins_prints = [\"board\", \"message\"]",
        "cells = 9",
    ] {
        assert!(text.contains(key), "{key} in\n{text}");
    }
    // Unchanged, it is seed 000 under another name: the bundled scenarios pass on the
    // reference and on the handout's correct submission.
    let (code, report) = test_json(&[folder.to_str().unwrap()]);
    assert_eq!((code, failed_names(&report)), (0, vec![]));
    assert_eq!(report["scenarios"][0]["dialect"], "spring2022");
    // The course's own variant is a dialect the filter knows, as a built-in one is.
    let (code, filtered) = test_json(&[folder.to_str().unwrap(), "--dialect", "spring2022"]);
    assert_eq!(code, 0);
    assert_eq!(
        filtered["scenarios"].as_array().map(Vec::len),
        report["scenarios"].as_array().map(Vec::len)
    );
    let (code, _) = test_json(&[
        folder.to_str().unwrap(),
        "--python",
        "fixtures/one-d-chess/project5/one_d_chess.py",
    ]);
    assert_eq!(code, 0);
    // It is never written over.
    boardgrade()
        .args(["variant", "new", "one-d-chess/project5", "spring2022", "-o"])
        .arg(folder.join("variant.toml"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("already exists"));
}

#[test]
fn a_renamed_function_and_message_grade_with_the_bundled_scenarios() {
    let (dir, folder) = new_variant(|text| {
        text.replace(
            "is_valid_move = { name = \"is_valid_move\", args = [\"board\", \"position\", \"player\"] }",
            "is_valid_move = { name = \"can_move\", args = [\"player\", \"board\", \"position\"] }",
        )
        .replace("white_wins = \"White wins!\"", "white_wins = \"White is the winner\"")
        .replace("white = \"WHITE\"", "white = \"White\"")
    });
    let handout = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/one-d-chess/project5/one_d_chess.py"),
    )
    .unwrap();
    let renamed = handout
        .replace(
            "def is_valid_move(board, position, player):",
            "def can_move(player, board, position):",
        )
        .replace("WHITE = \"WHITE\"", "WHITE = \"White\"")
        .replace("print(\"White wins!\")", "print(\"White is the winner\")");
    let submission = dir.path().join("one_d_chess.py");
    std::fs::write(&submission, renamed).unwrap();
    let folder = folder.to_str().unwrap();
    let (code, report) = test_json(&[folder, "--python", submission.to_str().unwrap()]);
    assert_eq!((code, failed_names(&report)), (0, vec![]));
    // The handout's own submission answers the old names: told where.
    let (code, report) = test_json(&[
        folder,
        "--python",
        "fixtures/one-d-chess/project5/one_d_chess.py",
    ]);
    assert_eq!(code, 1);
    let found = failures(&report);
    let valid = found
        .iter()
        .find(|(n, _, _)| n == "is_valid_move: the handout's asserts")
        .expect("is_valid_move fails");
    assert_eq!(
        valid.2["actual"],
        "!error NameError: name 'can_move' is not defined\n"
    );
    let over = found
        .iter()
        .find(|(n, _, _)| n == "is_game_over: the handout's game, White wins")
        .expect("is_game_over fails");
    assert!(over.2["expected"]
        .as_str()
        .unwrap()
        .starts_with("White is the winner\n"));
}

#[test]
fn a_variant_asking_for_new_rules_is_refused_naming_the_key() {
    // (the text changed, the new text, the key's word in it, the message)
    for (from, to, word, place) in [
        ("cells = 9", "cells = 10", "cells", "key `board.cells`: the reference plays 1D chess on 9 cells; a board of 10 needs new rules"),
        (
            "[functions]\n",
            "[functions]\ncastle = { name = \"castle\", args = [\"board\"] }\n",
            "castle",
            "key `functions.castle`: the reference has no rules for a function `castle`",
        ),
        (
            "move = { name = \"move\", args = [\"board\", \"position\", \"direction\"] }",
            "move = { name = \"move\", args = [\"board\", \"position\", \"steps\"] }",
            "args",
            "key `functions.move.args`: takes board, position, direction, each once, in any order",
        ),
    ] {
        let (_dir, folder) = new_variant(|text| text.replace(from, to));
        let text = std::fs::read_to_string(folder.join("variant.toml")).unwrap();
        let changed = to.lines().last().unwrap();
        let (line, column) = text
            .lines()
            .enumerate()
            .find_map(|(i, l)| l.contains(changed).then(|| (i + 1, l.find(word).unwrap() + 1)))
            .unwrap();
        boardgrade()
            .arg("test")
            .arg(&folder)
            .assert()
            .code(2)
            .stdout(predicate::str::contains(format!(
                "variant.toml:{line}:{column}: {place}"
            )));
    }
}

#[test]
fn games_lists_the_variants_found() {
    boardgrade()
        .arg("games")
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "one-d-chess    project5-fall2023 variant of project5, entry file one_d_chess.py, defines create_board, printable_board, is_valid_move, move, move_king, move_knight, is_game_over, whos_the_winner, file specs/one-d-chess/project5-fall2023/variant.toml",
        ));
}

#[test]
fn authoring_commands_work_on_a_variant() {
    // `engine` answers the variant's own function; `gen` writes scenarios that name it.
    boardgrade()
        .args(["engine", "one-d-chess", "--dialect", "project5-fall2023"])
        .write_stdin("set_board WKi EMPTY EMPTY EMPTY EMPTY EMPTY EMPTY EMPTY EMPTY\nwhos_the_winner\nis_game_over\n")
        .assert()
        .success()
        .stdout(".\n='White'\n.\n=True\n.\n");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("gen.toml");
    boardgrade()
        .args([
            "gen",
            "one-d-chess",
            "--dialect",
            "project5-fall2023",
            "--seed",
            "3",
            "--count",
            "2",
            "-o",
        ])
        .arg(&out)
        .assert()
        .success();
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("dialect = \"project5-fall2023\""), "{text}");
    let (code, report) = test_json(&[out.to_str().unwrap()]);
    assert_eq!((code, failed_names(&report)), (0, vec![]));
}

#[test]
fn a_package_ships_the_base_scenarios_a_variant_inherits() {
    let dir = tempfile::tempdir().unwrap();
    boardgrade()
        .args(["gradescope", "--specs", FALL2023, "--out"])
        .arg(dir.path().join("alone.zip"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "specs/variant.toml inherits the scenarios of ../project5, which the package would not hold",
        ));
    let zip = dir.path().join("both.zip");
    boardgrade()
        .args(["gradescope", "--specs", "specs/one-d-chess", "--out"])
        .arg(&zip)
        .assert()
        .success();
    let unpacked = dir.path().join("unpacked");
    common::unzip(&zip, &unpacked);
    assert!(unpacked
        .join("specs/project5-fall2023/variant.toml")
        .is_file());
    assert!(unpacked.join("specs/project5/move.toml").is_file());
}

const CASTLING_O: &str = "specs/chess/ecs198f-castling-o";

#[test]
fn the_castling_o_variant_grades_o_o_as_right_and_0_0_as_the_one_bug() {
    // The team that spells castling O-O is the variant's correct submission.
    let o_team = "fixtures/chess/ecs198f/bug-castling-o-spelling";
    let (code, report) = test_json(&[CASTLING_O, "--python", o_team]);
    assert_eq!((code, failed_names(&report)), (0, vec![]));
    assert!(report["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .all(|s| s["dialect"] == "ecs198f-castling-o"));
    // Seed 004's correct team, under the variant, has one bug: its 0-0.
    let (code, report) = test_json(&[CASTLING_O, "--python", "fixtures/chess/ecs198f/correct"]);
    assert_eq!(code, 1);
    assert_eq!(
        failed_names(&report),
        [
            "every piece's letter, with and without capture; castling as O-O and O-O-O",
            "castling returns O-O on the king side",
            "castling returns O-O-O on the queen side",
        ]
    );
    let (_, _, divergence) = &failures(&report)[1];
    assert_eq!(divergence["expected"], "'O-O'\n");
    assert_eq!(divergence["actual"], "'0-0'\n");
    // A rule bug fails the same scenarios under the variant as under seed 004 (and the team
    // spells castling 0-0, the variant's three castling answers).
    let (_, report) = test_json(&[
        CASTLING_O,
        "--python",
        "fixtures/chess/ecs198f/bug-no-en-passant",
    ]);
    let (_, base) = test_json(&[
        "specs/chess/ecs198f",
        "--python",
        "fixtures/chess/ecs198f/bug-no-en-passant",
    ]);
    assert!(!failed_names(&base).is_empty());
    let castling: Vec<String> = failed_names(&report).into_iter().take(3).collect();
    assert_eq!(castling[1], "castling returns O-O on the king side");
    // The rule battery included: a variant that plays one inherits it.
    assert!(failed_names(&base).contains(&"rules: en passant".to_string()));
    assert_eq!(failed_names(&report)[3..], failed_names(&base)[..]);
}

#[test]
fn a_rule_bug_of_a_team_that_spells_castling_o_o_fails_the_rule_battery() {
    // A team whose only difference from a rule bug's is castling spelled O-O, graded as the
    // castling-o variant, has its rule bug caught by the battery as seed 004's is.
    let dir = tempfile::tempdir().unwrap();
    let team = dir.path().join("team");
    common::copy_tree(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/chess/ecs198f/bug-false-check-capture"),
        &team,
    );
    let logic = team.join("pychess/logic/chess_logic.py");
    let source = std::fs::read_to_string(&logic).unwrap();
    assert!(source.contains("\"0-0\" if king_side else \"0-0-0\""));
    let spelled_o = source.replace(
        "\"0-0\" if king_side else \"0-0-0\"",
        "\"O-O\" if king_side else \"O-O-O\"",
    );
    std::fs::write(&logic, spelled_o).unwrap();
    let (code, report) = test_json(&[
        "--dialect",
        "ecs198f-castling-o",
        "--python",
        team.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    assert_eq!(failed_names(&report), ["rules: check and pins"]);
    assert!(report["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .all(|s| s["dialect"] == "ecs198f-castling-o"));
}

#[test]
fn an_enabled_variant_that_code_cannot_tell_apart_takes_its_bases_place() {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    for team in ["correct", "bug-castling-o-spelling"] {
        common::copy_tree(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("fixtures/chess/ecs198f")
                .join(team),
            &class.join(team),
        );
    }
    let course = dir.path().join("course.toml");
    std::fs::write(&course, "variants = [\"ecs198f-castling-o\"]\n").unwrap();
    let out = dir.path().join("out");
    let (_, report, stderr) = grade_json(&[
        class.to_str().unwrap(),
        "--specs",
        "specs/chess",
        "--policy",
        course.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(
        stderr.contains(
            "variant chess/ecs198f-castling-o asks for the same names as ecs198f (ChessLogic)"
        ),
        "{stderr}"
    );
    let o_team = student(&report, "bug-castling-o-spelling");
    let zeros = student(&report, "correct");
    assert_eq!(o_team["dialect"], "ecs198f-castling-o");
    assert_eq!(zeros["dialect"], "ecs198f-castling-o");
    assert_eq!(o_team["score"], o_team["max_score"]);
    assert_ne!(zeros["score"], zeros["max_score"]);
}

/// Seed 000 followed to the letter, with a helper of its own named `whos_the_winner` (a name
/// the handout leaves free, and the one the Fall 2023 text adds).
const HELPER: &str = "fixtures/one-d-chess/project5/quirk-helper-whos-the-winner.py";
const FALL2023_CORRECT: &str = "fixtures/one-d-chess/project5-fall2023/one_d_chess.py";

/// carol (HELPER) and bob (the Fall 2023 text) in a class whose course enables the variant.
fn helper_class() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let class = common::make_class(
        &dir.path().join("class"),
        &[
            (
                "carol",
                "one-d-chess/project5/quirk-helper-whos-the-winner.py",
                "one_d_chess.py",
            ),
            (
                "bob",
                "one-d-chess/project5-fall2023/one_d_chess.py",
                "one_d_chess.py",
            ),
        ],
    );
    let course = dir.path().join("course.toml");
    std::fs::write(&course, "variants = [\"project5-fall2023\"]\n").unwrap();
    (dir, class, course)
}

#[test]
fn a_file_that_answers_both_texts_keeps_the_better_grade_in_every_class_output() {
    let (dir, class, course) = helper_class();
    let out = dir.path().join("out");
    let args = [
        class.to_str().unwrap(),
        "--specs",
        "specs/one-d-chess",
        "--policy",
        course.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    let (code, report, _) = grade_json(&args);
    assert_eq!(code, 0);
    // carol is routed to the variant (her file defines all its names) but keeps project5's
    // full marks, and is told what the variant would have given.
    let carol = student(&report, "carol");
    assert_eq!(carol["dialect"], "project5");
    assert_eq!(
        (carol["score"].as_f64(), carol["max_score"].as_f64()),
        (Some(40.0), Some(40.0))
    );
    assert!(carol["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .all(|s| s["dialect"] == "project5" && s["verdict"] == "pass"));
    assert_eq!(
        common::notes(carol),
        ["graded as project5 (also tried project5-fall2023: 31/41)"]
    );
    assert_eq!(
        carol["also_tried"],
        serde_json::json!([{ "dialect": "project5-fall2023", "score": 31.0, "max_score": 41.0 }])
    );
    // The Fall 2023 submission answers project5's names too: graded as both, the variant kept.
    let bob = student(&report, "bob");
    assert_eq!(bob["dialect"], "project5-fall2023");
    assert_eq!(
        (bob["score"].as_f64(), bob["max_score"].as_f64()),
        (Some(41.0), Some(41.0))
    );
    assert_eq!(
        common::notes(bob),
        [
            "graded as variant project5-fall2023 of project5: one_d_chess.py defines `whos_the_winner`",
            "graded as project5-fall2023 (also tried project5: 33/40)",
        ]
    );
    // The class files hold the kept grades.
    let gradebook = std::fs::read_to_string(out.join("gradebook.csv")).unwrap();
    assert!(gradebook.lines().any(|l| l == "carol,40"), "{gradebook}");
    assert!(gradebook.lines().any(|l| l == "bob,41"), "{gradebook}");
    // --resume reuses the kept results as they were.
    let json = dir.path().join("again.json");
    let output = boardgrade()
        .arg("grade")
        .args(args)
        .arg("--resume")
        .arg("--report")
        .arg(format!("json={}", json.display()))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("(2 already graded)"), "{stdout}");
    let again: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    for id in ["carol", "bob"] {
        let (before, after) = (student(&report, id), student(&again, id));
        for key in ["dialect", "score", "max_score", "notes", "also_tried"] {
            assert_eq!(before[key], after[key], "{id}: {key}");
        }
    }
}

#[test]
fn a_self_check_keeps_the_better_grade_as_the_class_run_does() {
    let (_dir, _class, course) = helper_class();
    for (file, dialect, score) in [
        (HELPER, "project5", 40.0),
        (FALL2023_CORRECT, "project5-fall2023", 41.0),
    ] {
        let output = boardgrade()
            .args(["test", "specs/one-d-chess", "--python", file, "--policy"])
            .arg(&course)
            .args(["--format", "json"])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "{file}: {stderr}");
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert!(report["scenarios"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["dialect"] == dialect && s["verdict"] == "pass"));
        assert_eq!(report["summary"]["score"], score, "{file}");
        assert_eq!(report["summary"]["max_score"], score, "{file}");
        assert!(
            stderr.contains(&format!(
                "boardgrade: note: graded as {dialect} (also tried "
            )),
            "{file}: {stderr}"
        );
    }
}

#[test]
fn a_self_check_without_the_course_grades_as_a_class_run_without_it() {
    // No course enables the variant: the self-check grades the base, as `grade` would, and
    // tells the student which variant the file answers, with the command that tests it.
    let output = boardgrade()
        .args(["test", "specs/one-d-chess", "--python", FALL2023_CORRECT])
        .args(["--format", "json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let scenarios = report["scenarios"].as_array().unwrap();
    assert!(scenarios.iter().all(|s| s["dialect"] == "project5"));
    assert_eq!(report["summary"]["max_score"], 40.0);
    assert!(
        stderr.contains("your course may use project5-fall2023; run `boardgrade test --dialect project5-fall2023 --python"),
        "{stderr}"
    );
    assert!(!stderr.contains("also tried"), "{stderr}");
}

#[test]
fn gradescope_says_which_text_was_kept_without_the_others_score() {
    let (dir, class, course) = helper_class();
    let out = dir.path().join("gradescope");
    boardgrade()
        .arg("grade")
        .arg(class.join("carol"))
        .args([
            "--one-submission",
            "--specs",
            "specs/one-d-chess",
            "--policy",
        ])
        .arg(&course)
        .arg("--out")
        .arg(&out)
        .args(["--format", "gradescope"])
        .assert()
        .success();
    let results: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    assert_eq!(results["score"], 40.0);
    let output = results["output"].as_str().unwrap();
    // The variant's score counts hidden scenarios: the student is not shown it.
    assert!(
        output.contains(
            "graded as project5 (also tried project5-fall2023; the better result is kept)"
        ),
        "{output}"
    );
    assert!(!output.contains("31/41"), "{output}");
}
