//! `grade` routes each submission by what its code defines: two courses' `prog67.py` apart,
//! the solution among several files, names kept whole, a file that does not load reported
//! once; and `--resume` keyed by the exact submission, its files and its scenarios.

mod common;

use std::path::{Path, PathBuf};

use common::{boardgrade, grade_json as grade, root};
use serde_json::Value;

/// Copies fixture `fixture` to `class/student/file`.
fn hand_in(class: &Path, student: &str, fixture: &str, file: &str) -> PathBuf {
    let dest = class.join(student).join(file);
    std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
    std::fs::copy(root().join("fixtures").join(fixture), &dest).unwrap();
    dest
}

fn result<'a>(report: &'a Value, id: &str) -> &'a Value {
    report["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == id)
        .unwrap_or_else(|| panic!("no result for {id}: {report:#}"))
}

#[test]
fn a_class_is_routed_by_the_names_its_code_defines() {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    hand_in(&class, "ecs", "minichess/ecs10/prog67.py", "prog67.py");
    // The older course named its file prog67.py too.
    hand_in(&class, "hex", "minichess/hexapawn/hexapawn.py", "prog67.py");
    hand_in(
        &class,
        "john.smith",
        "minichess/ecs10/prog67.py",
        "prog67.py",
    );
    hand_in(
        &class,
        "john.doe",
        "minichess/ecs10/bug-duplicates.py",
        "prog67.py",
    );
    let upload = "odd upload";
    hand_in(
        &class,
        upload,
        "minichess/ecs10/prog67.py",
        "My Solution (2).py",
    );
    std::fs::write(
        class.join(upload).join("test_solution.py"),
        "from prog67 import move_maker\n\ndef test_start():\n    assert move_maker\n",
    )
    .unwrap();
    let broken = hand_in(&class, "broken", "minichess/ecs10/prog67.py", "prog67.py");
    let mut source = std::fs::read_to_string(&broken).unwrap();
    source.push_str("\nprint \"done\"\n");
    std::fs::write(&broken, source).unwrap();
    std::fs::create_dir_all(class.join("_template")).unwrap();
    let out = class.join("results");

    let (code, report, stderr) = grade(&[
        class.to_str().unwrap(),
        "--specs",
        "specs/minichess",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let summary = |id: &str| {
        let r = result(&report, id);
        (
            r["dialect"].as_str().unwrap_or("-").to_string(),
            r["file"].as_str().unwrap_or("-").to_string(),
            r["score"].as_f64().unwrap(),
            r["max_score"].as_f64().unwrap(),
        )
    };
    // ecs10: 26 for the handout's scenarios, 4 for the code checks, 4 for the rule battery's
    // families; hexapawn: 8.5 and 4 for its battery's families.
    assert_eq!(
        summary("ecs"),
        ("ecs10".into(), "prog67.py".into(), 34.0, 34.0)
    );
    assert_eq!(
        summary("hex"),
        ("hexapawn".into(), "prog67.py".into(), 12.5, 12.5)
    );
    assert_eq!(summary("john.smith").2, 34.0);
    assert!(summary("john.doe").2 < 34.0);
    assert_eq!(
        summary(upload),
        ("ecs10".into(), "My Solution (2).py".into(), 34.0, 34.0)
    );
    let broken = result(&report, "broken");
    assert_eq!(broken["score"], 0.0);
    assert_eq!(
        broken["scenarios"].as_array().unwrap().len(),
        0,
        "no scenario ran"
    );
    let load = &broken["does_not_load"];
    assert_eq!(load["file"], "prog67.py");
    assert!(load["line"].as_u64().unwrap() > 100, "{load}");
    assert!(
        load["message"].as_str().unwrap().starts_with("SyntaxError"),
        "{load}"
    );
    assert!(
        stderr.contains("_template: its name starts with"),
        "{stderr}"
    );

    // The summary keeps it apart: one line, and out of every scenario's failure rate.
    let class_summary = &report["class"];
    assert_eq!(class_summary["did_not_load"][0]["submission"], "broken");
    for stat in class_summary["scenarios"].as_array().unwrap() {
        if stat["file"].as_str().unwrap().contains("ecs10") {
            assert_eq!(stat["graded"], 4, "{stat}");
        }
    }
    let text = std::fs::read_to_string(out.join("summary.txt")).unwrap();
    assert_eq!(text.matches("SyntaxError").count(), 1, "{text}");
    let csv = std::fs::read_to_string(out.join("grades.csv")).unwrap();
    let ids: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap())
        .collect();
    for id in [
        "john.smith",
        "john.doe",
        "odd upload",
        "broken",
        "hex",
        "ecs",
    ] {
        assert!(ids.contains(&id), "{id} in {ids:?}");
    }
    assert!(csv.contains("does not load: prog67.py:"), "{csv}");
}

#[test]
fn a_whole_program_is_routed_by_the_names_it_binds_whatever_its_file_is_called() {
    // A pown program defines `display_board` and `moves_remaining` and keeps its board in a
    // top-level `game_board = {}`, as its handout asks; saved under another name, in a class
    // graded under every game, those names route it, and no other game's file is taken for
    // one.
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    hand_in(&class, "snake", "pown-chess/pown-chess.py", "pown_chess.py");
    hand_in(&class, "camel", "pown-chess/pown-chess.py", "PownChess.py");
    hand_in(
        &class,
        "oned",
        "one-d-chess/project5/one_d_chess.py",
        "one_d_chess.py",
    );
    common::copy_tree(
        &root().join("fixtures/chess/ecs198f/correct"),
        &class.join("team"),
    );
    let (code, report, stderr) = grade(&[
        class.to_str().unwrap(),
        "--out",
        dir.path().join("out").to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    for (id, dialect, file) in [
        ("snake", "pown", "pown_chess.py"),
        ("camel", "pown", "PownChess.py"),
        ("oned", "project5", "one_d_chess.py"),
        ("team", "ecs198f", "pychess/logic/chess_logic.py"),
    ] {
        let r = result(&report, id);
        assert_eq!(
            (r["dialect"].as_str(), r["file"].as_str()),
            (Some(dialect), Some(file)),
            "{r:#}"
        );
        assert_eq!(r["score"], r["max_score"], "{r:#}");
    }
}

#[test]
fn a_missing_module_does_not_load_and_a_renamed_function_is_suggested() {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    let importer = hand_in(&class, "importer", "minichess/ecs10/prog67.py", "prog67.py");
    let source = std::fs::read_to_string(&importer).unwrap();
    std::fs::write(&importer, format!("import numpy_not_installed\n{source}")).unwrap();
    hand_in(&class, "hex", "minichess/hexapawn/hexapawn.py", "prog67.py");
    let (_, report, stderr) = grade(&[
        class.to_str().unwrap(),
        "--specs",
        "specs/minichess/ecs10",
        "--out",
        dir.path().join("out").to_str().unwrap(),
    ]);
    let load = &result(&report, "importer")["does_not_load"];
    assert_eq!(load["line"], 1, "{stderr}");
    assert_eq!(
        load["message"],
        "ModuleNotFoundError: No module named 'numpy_not_installed'"
    );
    // Only the ecs10 scenarios are graded: the hexapawn names are pointed out.
    let hex = result(&report, "hex");
    assert_eq!(hex["dialect"], "ecs10");
    let notes = common::notes(hex);
    assert_eq!(
        notes,
        [
            "prog67.py does not define `move_maker` (did you mean `generateMoves`, the hexapawn dialect's name for it?)",
            "prog67.py does not define `move_chooser` (did you mean `chooseBestMove`, the hexapawn dialect's name for it?)",
        ]
    );
}

#[test]
fn entry_keeps_a_submission_folder_one_submission() {
    let dir = tempfile::tempdir().unwrap();
    let alice = dir.path().join("alice");
    hand_in(
        dir.path(),
        "alice",
        "one-d-chess/project5/one_d_chess.py",
        "solution.py",
    );
    hand_in(
        dir.path(),
        "alice",
        "one-d-chess/project5/bug-negative-index.py",
        "old.py",
    );
    let (code, report, stderr) = grade(&[
        alice.to_str().unwrap(),
        "--entry",
        "solution.py",
        "--specs",
        "specs/one-d-chess/project5",
        "--out",
        dir.path().join("out").to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let all = report["submissions"].as_array().unwrap();
    assert_eq!(all.len(), 1, "{report:#}");
    assert_eq!(all[0]["id"], "alice");
    assert_eq!(all[0]["file"], "solution.py");
    assert_eq!(all[0]["score"], 40.0);
}

/// `(student, score, whether the stored result was reused)` per submission of a `--resume` run.
fn stored_markers(class: &Path, specs: &Path, out: &Path) -> Vec<(String, String, bool)> {
    let output = boardgrade()
        .arg("grade")
        .arg(class)
        .arg("--specs")
        .arg(specs)
        .args([
            "--out",
            out.to_str().unwrap(),
            "--resume",
            "--color",
            "never",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    // Result lines: the student's name padded to 24 columns, then `score/max`.
    let mut lines: Vec<(String, String, bool)> = text
        .lines()
        .filter_map(|l| {
            let (id, rest) = (l.get(..24)?, l.get(24..)?);
            let score = rest.split_whitespace().next()?;
            score.contains('/').then(|| {
                (
                    id.trim().to_string(),
                    score.to_string(),
                    l.contains("(stored result)"),
                )
            })
        })
        .collect();
    lines.sort();
    lines
}

#[test]
fn resume_is_keyed_by_the_exact_submission_its_files_and_its_scenarios() {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    let specs = common::project5_specs(dir.path(), &["is_valid_move.toml", "move_king.toml"]);
    let out = dir.path().join("out");
    let plus = hand_in(
        &class,
        "a+b",
        "one-d-chess/project5/bug-negative-index.py",
        "one_d_chess.py",
    );
    let first = stored_markers(&class, &specs, &out);
    assert_eq!(first.len(), 1);
    assert!(!first[0].2);

    // A late student whose name cleans up to the same file name gets their own grade.
    hand_in(
        &class,
        "a b",
        "one-d-chess/project5/one_d_chess.py",
        "one_d_chess.py",
    );
    let second = stored_markers(&class, &specs, &out);
    assert_eq!(second.len(), 2, "{second:?}");
    let (a_b, a_plus_b) = (&second[0], &second[1]);
    assert_eq!((a_b.0.as_str(), a_plus_b.0.as_str()), ("a b", "a+b"));
    assert!(!a_b.2 && a_plus_b.2, "{second:?}");
    assert_ne!(a_b.1, a_plus_b.1, "each has their own score");

    // An edited submission is graded again, and only it.
    std::fs::copy(
        root().join("fixtures/one-d-chess/project5/one_d_chess.py"),
        &plus,
    )
    .unwrap();
    let third = stored_markers(&class, &specs, &out);
    let reused: Vec<bool> = third.iter().map(|(_, _, stored)| *stored).collect();
    assert_eq!(reused, [true, false], "{third:?}");
    assert_eq!(third[0].1, third[1].1, "both correct now");

    // A changed scenario regrades every submission it applies to.
    let file = specs.join("move_king.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, format!("{text}\n# a comment does not count\n")).unwrap();
    assert!(stored_markers(&class, &specs, &out).iter().all(|r| r.2));
    let edited = text.replacen("name = \"", "name = \"renamed: ", 1);
    assert_ne!(edited, text, "the scenario file names its scenarios");
    std::fs::write(&file, edited).unwrap();
    let fourth = stored_markers(&class, &specs, &out);
    assert!(fourth.iter().all(|r| !r.2), "{fourth:?}");
}

#[test]
fn a_function_taken_from_a_helper_module_counts_as_defined() {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    let mary = class.join("Mary O'Neil");
    std::fs::create_dir_all(&mary).unwrap();
    let source =
        std::fs::read_to_string(root().join("fixtures/one-d-chess/project5/one_d_chess.py"))
            .unwrap();
    let knight = function(&source, "move_knight");
    std::fs::write(
        mary.join("helpers.py"),
        format!("EMPTY = 'EMPTY'\nLEFT = 'LEFT'\nRIGHT = 'RIGHT'\n{knight}"),
    )
    .unwrap();
    std::fs::write(
        mary.join("my_1d_chess.py"),
        format!(
            "from helpers import move_knight\n{}",
            source.replace(knight, "\n")
        ),
    )
    .unwrap();
    let out = dir.path().join("results");
    let (code, report, stderr) = grade(&[
        class.to_str().unwrap(),
        "--specs",
        "specs/one-d-chess/project5",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let mary = result(&report, "Mary O'Neil");
    assert_eq!(mary["dialect"], "project5");
    assert_eq!(mary["score"], mary["max_score"]);
    assert!(
        !mary.to_string().contains("does not define"),
        "an imported function is defined: {mary:#}"
    );
}

#[test]
fn a_file_saved_with_a_byte_order_mark_loads_and_is_graded() {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    hand_in(
        &class,
        "notepad",
        "one-d-chess/project5/quirk-bom-crlf.py",
        "one_d_chess.py",
    );
    let (_, report, stderr) = grade(&[
        class.to_str().unwrap(),
        "--specs",
        "specs/one-d-chess/project5",
        "--out",
        dir.path().join("out").to_str().unwrap(),
    ]);
    let notepad = result(&report, "notepad");
    assert!(notepad["does_not_load"].is_null(), "{notepad:#} {stderr}");
    assert_eq!(notepad["dialect"], "project5", "{stderr}");
    assert!(notepad["score"].as_f64().unwrap() > 0.0, "{stderr}");
    assert_eq!(notepad["score"], notepad["max_score"], "{stderr}");
}

/// The function `name` of `source` (from its `def` to the next top-level `def`).
fn function<'a>(source: &'a str, name: &str) -> &'a str {
    let start = source.find(&format!("\ndef {name}(")).unwrap();
    let end = start + 1 + source[start + 1..].find("\ndef ").unwrap();
    &source[start..end]
}

#[test]
fn the_file_the_handout_names_is_graded_with_what_it_star_imports() {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    let correct =
        std::fs::read_to_string(root().join("fixtures/one-d-chess/project5/one_d_chess.py"))
            .unwrap();
    // An older, wrong version kept beside the file the handout names, which takes all of
    // it with a star import and fixes the one function that was wrong.
    let star = class.join("star");
    hand_in(
        &class,
        "star",
        "one-d-chess/project5/bug-negative-index.py",
        "old_version.py",
    );
    std::fs::write(
        star.join("one_d_chess.py"),
        format!(
            "from old_version import *\n{}",
            function(&correct, "is_valid_move")
        ),
    )
    .unwrap();
    // The handout's file name with its extension in capitals.
    hand_in(
        &class,
        "upper",
        "one-d-chess/project5/one_d_chess.py",
        "one_d_chess.PY",
    );
    // A file of the handout's name that holds little, beside the solution: the solution is
    // graded, and the note says why.
    let other = hand_in(
        &class,
        "other",
        "one-d-chess/project5/one_d_chess.py",
        "solution.py",
    );
    std::fs::write(
        other.with_file_name("one_d_chess.py"),
        "def main():\n    pass\n",
    )
    .unwrap();
    // Star imports Python does not make count nothing: a module whose `__all__` is empty,
    // and a relative one in a file loaded as a top-level module.
    let all = hand_in(
        &class,
        "all",
        "one-d-chess/project5/one_d_chess.py",
        "old.py",
    );
    std::fs::write(&all, format!("{correct}\n__all__ = []\n")).unwrap();
    std::fs::write(all.with_file_name("final.py"), "from old import *\n").unwrap();
    let relative = hand_in(
        &class,
        "relative",
        "one-d-chess/project5/one_d_chess.py",
        "impl.py",
    );
    std::fs::write(
        relative.with_file_name("one_d_chess.py"),
        "from .impl import *\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let (code, report, stderr) = grade(&[
        class.to_str().unwrap(),
        "--specs",
        "specs/one-d-chess/project5",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(result(&report, "all")["file"], "old.py");
    assert_eq!(result(&report, "relative")["file"], "impl.py");
    for id in ["star", "upper", "other", "all", "relative"] {
        let r = result(&report, id);
        assert_eq!(r["dialect"], "project5", "{r:#}");
        assert_eq!(r["score"], r["max_score"], "{r:#}");
    }
    assert_eq!(result(&report, "star")["file"], "one_d_chess.py");
    assert_eq!(result(&report, "upper")["file"], "one_d_chess.PY");
    let notes = result(&report, "other")["notes"].to_string();
    assert!(
        notes.contains(
            "graded solution.py, which defines more of what project5 asks for than one_d_chess.py"
        ),
        "{notes}"
    );
    // The self-check of the folder grades the same file.
    let checked = boardgrade()
        .args(["test", "specs/one-d-chess/project5", "--python"])
        .arg(&star)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&checked.stdout);
    assert!(text.contains("score 40/40"), "{text}");
}

#[test]
fn a_file_of_functions_is_never_taken_for_a_program_it_cannot_play() {
    // project5's functions with seed 001's name `print_board` and a test `main()` define every
    // name csc110 asks for; but csc110 is a game typed into a program, and nothing in the file
    // reads what a player types. It is graded as project5, its renamed function pointed out.
    // A csc110 program that reads its moves in a helper module still plays csc110.
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    let renamed = hand_in(
        &class,
        "renamed",
        "one-d-chess/project5/one_d_chess.py",
        "one_d_chess.py",
    );
    let source = std::fs::read_to_string(&renamed).unwrap();
    let source = source.replace("printable_board", "print_board")
        + "\n\ndef main():\n    board = create_board()\n    print(print_board(board))\n\n\nmain()\n";
    std::fs::write(&renamed, source).unwrap();
    hand_in(&class, "plain", "one-d-chess/csc110/chess.py", "chess.py");
    let helper = hand_in(&class, "helper", "one-d-chess/csc110/chess.py", "chess.py");
    let source = std::fs::read_to_string(&helper).unwrap();
    assert!(source.contains("input()"));
    std::fs::write(
        &helper,
        format!(
            "from prompts import ask\n{}",
            source.replace("input()", "ask()")
        ),
    )
    .unwrap();
    std::fs::write(
        class.join("helper/prompts.py"),
        "def ask():\n    \"\"\"One line the player types.\"\"\"\n    return input()\n",
    )
    .unwrap();
    let (code, report, stderr) = grade(&[
        class.to_str().unwrap(),
        "--specs",
        "specs/one-d-chess",
        "--out",
        dir.path().join("out").to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let renamed = result(&report, "renamed");
    assert_eq!(renamed["dialect"], "project5", "{renamed:#}");
    assert_eq!(
        common::notes(renamed),
        ["one_d_chess.py does not define `printable_board` (did you mean `print_board`?)"]
    );
    for id in ["plain", "helper"] {
        let r = result(&report, id);
        assert_eq!(r["dialect"], "csc110", "{r:#}");
    }
    let plain = result(&report, "plain");
    assert_eq!(plain["score"], plain["max_score"], "{plain:#}");
}
