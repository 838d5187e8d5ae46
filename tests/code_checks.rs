//! Code checks: rules about a submission's code, read from its parse tree without running
//! it. Each rule is graded, to the exact score and finding, on a module that keeps every rule
//! (`fixtures/code-checks/keeps.py`) and on that module with one line changed to break the
//! rule alone. The bundled checks of each handout give its correct fixture full marks and
//! catch what the handout forbids.

mod common;

use common::{boardgrade, failures, test_json, totals};
use serde_json::Value;

const RULES: &str = "fixtures/code-checks/rules.toml";

/// The findings of the scenario `name` in `report`, as `file:line: message`.
fn findings(report: &Value, name: &str) -> Vec<String> {
    let scenario = report["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("no scenario {name}"));
    scenario["findings"]
        .as_array()
        .map(|found| {
            found
                .iter()
                .map(|f| {
                    format!(
                        "{}:{}: {}",
                        f["file"].as_str().unwrap(),
                        f["line"],
                        f["message"].as_str().unwrap()
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

fn failed(report: &Value) -> Vec<String> {
    failures(report).into_iter().map(|f| f.0).collect()
}

#[test]
fn the_module_that_keeps_every_rule_scores_full_marks() {
    let (code, report) = test_json(&[RULES, "--python", "fixtures/code-checks/keeps.py"]);
    assert_eq!(failed(&report), Vec::<String>::new());
    assert_eq!(totals(&report), (11, 0, 11.0, 11.0));
    assert_eq!(code, 0);
}

/// `keeps.py` with one change that breaks `rule` alone (`old` becomes `new`), and the
/// findings expected: each rule's breaking fixture.
const BREAKS: &[(&str, &str, &str, &[&str])] = &[
    (
        "outside_functions",
        "if __name__ == \"__main__\":\n    main()\n",
        "board = create_board()\nprint_board(board)\n",
        &[
            "breaks-outside_functions.py:47: code outside functions: `board = create_board()`",
            "breaks-outside_functions.py:48: code outside functions: `print_board(board)`",
        ],
    ),
    (
        "unchanged",
        "    print(count(board, \"WKi\"))\n",
        "    print(count(board, \"BKi\"))\n",
        &["breaks-unchanged.py:38: function `main` differs from the starter code"],
    ),
    (
        "string_literals",
        "    total = 0\n",
        "    total = 0\n    piece = piece or 'WKi'\n",
        &["breaks-string_literals.py:21: string literal in `count`: `'WKi'`"],
    ),
    (
        "required",
        "        print(NAMES.get(cell, '-'))\n",
        "        print(cell)\n",
        &["breaks-required.py:9: required dictionary `NAMES` is created but never used"],
    ),
    (
        "docstrings",
        "# How many cells of board hold piece.\n",
        "",
        &["breaks-docstrings.py:18: function `count` has no docstring or comment"],
    ),
    (
        "header_comment",
        "# Date: 2026-11-27\n",
        "# Date: today\n",
        &["breaks-header_comment.py:1: the header comment does not give a date"],
    ),
    (
        "no_print",
        "    return list(START)\n",
        "    print(START)\n    return list(START)\n",
        &["breaks-no_print.py:15: function `create_board` prints: `print(START)`"],
    ),
    (
        "forbidden_imports",
        "import random\n",
        "import random\nimport subprocess\n",
        &["breaks-forbidden_imports.py:7: forbidden import: `subprocess`"],
    ),
    (
        "line_length",
        "as the game starts.'''",
        "as the game starts: the white king on the left, the black king on the right.'''",
        &["breaks-line_length.py:14: line is 99 characters long (at most 80)"],
    ),
    (
        "naming",
        "total",
        "Total",
        &["breaks-naming.py:20: variable name `Total` is not snake_case"],
    ),
    (
        "no_global",
        "    total = 0\n",
        "    global EMPTY\n    total = 0\n",
        &["breaks-no_global.py:20: `global` statement: `global EMPTY`"],
    ),
];

/// Writes `keeps.py` broken against `rule` into `dir` and returns its path.
fn breaking(dir: &std::path::Path, rule: &str) -> String {
    let (_, old, new, _) = BREAKS.iter().find(|b| b.0 == rule).unwrap();
    let keeps = std::fs::read_to_string("fixtures/code-checks/keeps.py").unwrap();
    assert!(keeps.contains(old), "{rule}: keeps.py has no {old:?}");
    let path = dir.join(format!("breaks-{rule}.py"));
    std::fs::write(&path, keeps.replace(old, new)).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn each_rule_broken_alone_costs_its_point_and_names_file_line_and_rule() {
    let dir = tempfile::tempdir().unwrap();
    for (rule, _, _, expected) in BREAKS {
        let fixture = breaking(dir.path(), rule);
        let (code, report) = test_json(&[RULES, "--python", &fixture]);
        assert_eq!(failed(&report), vec![rule.to_string()], "{rule}");
        assert_eq!(failures(&report)[0].1, "wrong", "{rule}");
        assert_eq!(totals(&report), (10, 1, 10.0, 11.0), "{rule}");
        assert_eq!(findings(&report, rule), *expected, "{rule}");
        assert_eq!(code, 1, "{rule}");
    }
}

#[test]
fn a_header_without_a_name_or_with_only_a_label_or_an_id_misses_the_name() {
    let dir = tempfile::tempdir().unwrap();
    let keeps = std::fs::read_to_string("fixtures/code-checks/keeps.py").unwrap();
    for (header, found) in [
        ("# Name:\n", true),
        ("", true),
        ("# Student ID: 912345678\n", true),
        ("# ECS 10 Winter 2016\n", true),
        ("# by Ann Lee\n", false),
        ("# Ann Lee\n", false),
        ("# Author - ann lee\n", false),
        // As students write it: an ID or a course beside the name, a name in lower case.
        ("# Jane Doe (SID 912345678), ECS 10 Winter 2016\n", false),
        ("# Jane Doe (912345678)\n", false),
        ("# by jane doe\n", false),
        ("# jane doe <jdoe@ucdavis.edu>\n", false),
    ] {
        let path = dir.path().join("breaks-header_comment.py");
        std::fs::write(&path, keeps.replace("# Name: A. Student\n", header)).unwrap();
        let (_, report) = test_json(&[RULES, "--python", path.to_str().unwrap()]);
        let expected: &[&str] = if found {
            &["breaks-header_comment.py:1: the header comment does not give a name (such as `Name: A. Student`)"]
        } else {
            &[]
        };
        assert_eq!(findings(&report, "header_comment"), expected, "{header:?}");
        let score = if found { 10.0 } else { 11.0 };
        assert_eq!(totals(&report).2, score, "{header:?}");
    }
}

#[test]
fn a_failure_lists_its_findings_in_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = breaking(dir.path(), "outside_functions");
    let output = boardgrade()
        .args(["test", RULES, "--python", &fixture])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains(
            "    breaks-outside_functions.py:47: code outside functions: `board = create_board()`"
        ),
        "{text}"
    );
    assert!(
        text.contains("2 finding(s) against the rule `outside_functions`"),
        "{text}"
    );
}

#[test]
fn code_made_to_overflow_the_checker_is_graded_never_an_error() {
    // How much the checker finds, and how deep it walks, is the student's code: a hundred
    // thousand badly named variables, or a chain of a thousand attributes in `main`, fail
    // their rules; they never make the checks the grader's error (not graded, re-run forever).
    let dir = tempfile::tempdir().unwrap();
    let keeps = std::fs::read_to_string("fixtures/code-checks/keeps.py").unwrap();
    let chain: String = (0..1000).map(|_| "         .x\n").collect();
    let call = "    print(count(board, \"WKi\"))\n";
    let deep = format!("{call}    if board:\n        (board\n{chain}         )()\n");
    let names: String = (0..120_000).map(|i| format!("    nA{i}=0\n")).collect();
    let padded = format!(
        "{}\n\ndef pad():\n    \"\"\"Names.\"\"\"\n{names}",
        keeps.replace(call, &deep)
    );
    let path = dir.path().join("overflows.py");
    std::fs::write(&path, padded).unwrap();
    let (_, report) = test_json(&[RULES, "--python", path.to_str().unwrap()]);
    let verdicts: Vec<(String, String)> = (failures(&report).into_iter())
        .map(|(name, verdict, _)| (name, verdict))
        .collect();
    let wrong = |name: &str| (name.to_string(), "wrong".to_string());
    assert_eq!(verdicts, vec![wrong("unchanged"), wrong("naming")]);
    assert_eq!(
        findings(&report, "unchanged"),
        ["overflows.py:1: the code is nested too deeply to be checked"]
    );
    let naming = (report["scenarios"].as_array().unwrap().iter())
        .find(|s| s["name"] == "naming")
        .unwrap();
    assert_eq!(findings(&report, "naming").len(), 20);
    let detail = naming["detail"].as_str().unwrap();
    assert!(
        detail.starts_with("120000 finding(s)")
            && detail.ends_with("(the first 20 are shown; 119980 more)"),
        "{detail}"
    );
}

#[test]
fn a_file_without_a_function_earns_no_code_points() {
    let (_, report) = test_json(&[
        "specs/one-d-chess/project5/code.toml",
        "--python",
        "fixtures/hostile/infinite_loop.py",
    ]);
    assert_eq!(totals(&report), (0, 3, 0.0, 3.0));
    assert_eq!(
        findings(&report, "code: style: names"),
        ["infinite_loop.py:1: the file defines no function: no code to check"]
    );
}

#[test]
fn the_reference_has_no_code_and_a_command_is_not_checked() {
    let (code, report) = test_json(&[RULES]);
    assert_eq!(totals(&report), (11, 0, 11.0, 11.0));
    assert_eq!(code, 0);
    // A command may be written in any language: the checks are left out, with a note.
    let engine = format!(
        "{} engine one-d-chess --dialect csc110",
        env!("CARGO_BIN_EXE_boardgrade")
    );
    let output = boardgrade()
        .args([
            "test",
            "specs/one-d-chess/csc110",
            "--cmd",
            &engine,
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let names: Vec<&str> = report["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert!(
        !names.is_empty() && names.iter().all(|n| !n.starts_with("code:")),
        "{names:?}"
    );
    assert_eq!(output.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("7 code check(s) left out"), "{stderr}");
}

/// The bundled checks of a dialect against one of its fixtures: (passed, failed, score, max).
fn bundled(dialect: &str, fixture: &str) -> (Value, (u64, u64, f64, f64)) {
    let (_, report) = test_json(&[&format!("specs/{dialect}/code.toml"), "--python", fixture]);
    let t = totals(&report);
    (report, t)
}

#[test]
fn every_correct_fixture_keeps_its_handouts_code_rules() {
    for (dialect, fixture, max) in [
        (
            "one-d-chess/csc110",
            "fixtures/one-d-chess/csc110/chess.py",
            7.0,
        ),
        (
            "one-d-chess/project5",
            "fixtures/one-d-chess/project5/one_d_chess.py",
            3.0,
        ),
        ("pown-chess/pown", "fixtures/pown-chess/pown-chess.py", 2.0),
        ("minichess/ecs10", "fixtures/minichess/ecs10/prog67.py", 4.0),
    ] {
        let (report, t) = bundled(dialect, fixture);
        assert_eq!(failed(&report), Vec::<String>::new(), "{fixture}");
        assert_eq!((t.2, t.3), (max, max), "{fixture}");
    }
}

#[test]
fn csc110_grades_what_its_handout_forbids() {
    let dir = tempfile::tempdir().unwrap();
    let correct = std::fs::read_to_string("fixtures/one-d-chess/csc110/chess.py").unwrap();
    // main changed (not only its graphics commented out), and code outside functions.
    let changed = correct
        .replace(
            "        draw_board(board, gui)\n",
            "        # draw_board(board, gui)\n",
        )
        .replace("    player = WHITE\n", "    player = BLACK\n");
    let file = dir.path().join("chess.py");
    std::fs::write(&file, &changed).unwrap();
    let (report, t) = bundled("one-d-chess/csc110", file.to_str().unwrap());
    assert_eq!(failed(&report), vec!["code: main is the starter's"]);
    assert_eq!(t.2, 6.0);
    // Only the graphics commented out, and a main guard instead of the bare call: full marks.
    let allowed = correct
        .replace(
            "        draw_board(board, gui)\n",
            "        # draw_board(board, gui)\n",
        )
        .replace("\nmain()", "\nif __name__ == \"__main__\":\n    main()");
    std::fs::write(&file, &allowed).unwrap();
    let (report, t) = bundled("one-d-chess/csc110", file.to_str().unwrap());
    assert_eq!(failed(&report), Vec::<String>::new());
    assert_eq!(t.2, 7.0);
    // The debug print of this fixture is a string literal outside the allowed functions.
    let (report, t) = bundled(
        "one-d-chess/csc110",
        "fixtures/one-d-chess/csc110/bug-debug-print.py",
    );
    assert_eq!(
        failed(&report),
        vec!["code: string literals only where the handout allows them"]
    );
    assert_eq!(t.2, 6.0);
}

#[test]
fn pown_names_other_than_the_handouts_cost_the_two_code_points_only() {
    let (report, t) = bundled(
        "pown-chess/pown",
        "fixtures/pown-chess/pown-chess-variant.py",
    );
    assert_eq!(t, (0, 2, 0.0, 2.0));
    assert_eq!(
        findings(
            &report,
            "code: display_board and moves_remaining defined and used"
        ),
        ["pown-chess-variant.py:1: required function `display_board` is not defined"]
    );
}

#[test]
fn ecs10_functions_that_print_lose_that_point() {
    let (report, t) = bundled(
        "minichess/ecs10",
        "fixtures/minichess/ecs10/bug-chooser-prints.py",
    );
    assert_eq!(
        failed(&report),
        vec!["code: functions do not print or ask for input"]
    );
    assert_eq!(t.2, 3.0);
}

#[test]
fn an_ecs10_play_program_left_in_costs_the_only_the_functions_point_alone() {
    // "Do not include the program that lets a human play against the computer": a `main()`
    // that asks for a board and prints the choice, called at the bottom, is that check's
    // failure; the functions asked for print nothing, so the no-print point stays.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("prog67.py");
    let correct = std::fs::read_to_string("fixtures/minichess/ecs10/prog67.py").unwrap();
    std::fs::write(
        &file,
        format!(
            "{correct}\n\ndef main():\n    \"\"\"Plays against a human.\"\"\"\n    board = eval(input('board? '))\n    print(move_chooser(move_maker(board, 2), 2))\n\n\nmain()\n"
        ),
    )
    .unwrap();
    let (report, t) = bundled("minichess/ecs10", file.to_str().unwrap());
    assert_eq!(failed(&report), vec!["code: only the functions"]);
    let found = findings(&report, "code: only the functions");
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].contains(
        "function `main` is none of those asked for, nor run by one, and asks for input"
    ));
    assert!(found[1].ends_with("code outside functions: `main()`"));
    assert_eq!((t.2, t.3), (3.0, 4.0));
}

#[test]
fn an_ecs10_table_the_functions_keep_is_no_code_outside_functions() {
    // "Do not include your test data": a memo table at the top level, in any case, is
    // neither test data nor a play program; a board left from testing and a test call are.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("prog67.py");
    let correct = std::fs::read_to_string("fixtures/minichess/ecs10/prog67.py").unwrap();
    let cached = correct
        .replace(
            "def move_chooser(mlist, color):\n",
            "memo = {}\ncache = dict()\n\n\ndef move_chooser(mlist, color):\n",
        )
        .replace(
            "    depth = 7 if len(mlist[0]) <= 3 else 3\n",
            "    depth = 7 if len(mlist[0]) <= 3 else 3\n    memo[len(mlist)] = depth\n",
        );
    assert_ne!(cached, correct);
    std::fs::write(&file, &cached).unwrap();
    let (report, t) = bundled("minichess/ecs10", file.to_str().unwrap());
    assert_eq!(failed(&report), Vec::<String>::new());
    assert_eq!((t.2, t.3), (4.0, 4.0));
    std::fs::write(
        &file,
        format!(
            "{cached}\n\nboard = [[0, 1, 1], [1, 0, 0], [2, 2, 2]]\nprint(move_maker(board, 2))\n"
        ),
    )
    .unwrap();
    let (report, t) = bundled("minichess/ecs10", file.to_str().unwrap());
    assert_eq!(failed(&report), vec!["code: only the functions"]);
    let found = findings(&report, "code: only the functions");
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].ends_with(
        "code outside functions: `board = [[0, 1, 1], [1, 0, 0], [2, 2, 2]]` (a value that no function reads, such as test data)"
    ), "{found:?}");
    assert!(found[1].ends_with("code outside functions: `print(move_maker(board, 2))`"));
    assert_eq!((t.2, t.3), (3.0, 4.0));
}

#[test]
fn the_course_turns_checks_off_and_optional_ones_on() {
    let dir = tempfile::tempdir().unwrap();
    let specs = dir.path().join("specs");
    std::fs::create_dir(&specs).unwrap();
    let mut rules = std::fs::read_to_string(RULES).unwrap();
    rules = rules.replace(
        "code = { rule = \"no_global\" }",
        "code = { rule = \"no_global\", optional = true }",
    );
    std::fs::write(specs.join("rules.toml"), &rules).unwrap();
    let spec = specs.join("rules.toml");
    let keeps = &breaking(dir.path(), "no_global");
    // The optional check is left out by default, with a note naming the line that grades it.
    let output = boardgrade()
        .args([
            "test",
            spec.to_str().unwrap(),
            "--python",
            keeps,
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(totals(&report), (10, 0, 10.0, 10.0));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("code_checks = [\"handout\", \"no_global\"]"),
        "{stderr}"
    );
    // On when the course adds it.
    let course = dir.path().join("course.toml");
    std::fs::write(&course, "code_checks = [\"handout\", \"no_global\"]\n").unwrap();
    let (_, report) = test_json(&[spec.to_str().unwrap(), "--python", keeps]);
    assert_eq!(totals(&report), (10, 1, 10.0, 11.0));
    // Only the rules a course names.
    std::fs::write(
        &course,
        "[one-d-chess.project5]\ncode_checks = [\"naming\", \"no_global\"]\n",
    )
    .unwrap();
    let (_, report) = test_json(&[spec.to_str().unwrap(), "--python", keeps]);
    assert_eq!(totals(&report), (1, 1, 1.0, 2.0));
    assert_eq!(failed(&report), vec!["no_global"]);
    // A word that is no rule is an error naming the key.
    std::fs::write(&course, "code_checks = [\"no_globals\"]\n").unwrap();
    let output = boardgrade()
        .args(["test", spec.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        stderr.contains("course.toml:1:") && stderr.contains("code_checks"),
        "{stderr}"
    );
}

#[test]
fn a_bad_code_table_names_file_line_column_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("bad.toml");
    for (table, key, words) in [
        (
            "code = { rule = \"naming\", allow = [\"imports\"] }",
            "code.allow",
            "not a setting of rule `naming`",
        ),
        (
            "code = { rule = \"no_prints\" }",
            "code.rule",
            "unknown rule \"no_prints\"",
        ),
        (
            "code = { rule = \"outside_functions\", allow = [\"main\"] }",
            "code.allow",
            "unknown word \"main\"",
        ),
        (
            "code = { rule = \"unchanged\", function = \"main\" }",
            "code.starter",
            "needs `starter`",
        ),
        (
            "code = { rule = \"no_global\", colour = 1 }",
            "colour",
            "unknown field",
        ),
    ] {
        let text = format!(
            "game = \"one-d-chess\"\ndialect = \"project5\"\n\n[[scenario]]\nname = \"x\"\n{table}\n"
        );
        std::fs::write(&spec, text).unwrap();
        let output = boardgrade()
            .args(["test", spec.to_str().unwrap()])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{table}");
        let stderr = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(stderr.contains("bad.toml:6:"), "{table}: {stderr}");
        assert!(
            stderr.contains(key) && stderr.contains(words),
            "{table}: {stderr}"
        );
    }
}

#[test]
fn code_made_to_outlast_the_checker_is_graded_never_an_error() {
    // A header line built to make a pattern slow (150 KB of `a-a-a-`), helper files past what
    // the checks read, and a file too large to parse within the memory limit: each is the
    // student's `wrong` or nothing, never the grader's `error` (not graded, re-run forever).
    let dir = tempfile::tempdir().unwrap();
    let keeps = std::fs::read_to_string("fixtures/code-checks/keeps.py").unwrap();
    let slow = dir.path().join("slow.py");
    std::fs::write(&slow, format!("# {}\n{keeps}", "a-".repeat(75_000))).unwrap();
    let (_, report) = test_json(&[RULES, "--python", slow.to_str().unwrap()]);
    let verdicts: Vec<(String, String)> = (failures(&report).into_iter())
        .map(|(name, verdict, _)| (name, verdict))
        .collect();
    // Only the length of that line is against a rule.
    assert_eq!(verdicts, [("line_length".to_string(), "wrong".to_string())]);

    let folder = dir.path().join("folder");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(folder.join("one_d_chess.py"), &keeps).unwrap();
    for i in 0..5 {
        let note = format!("# {}\n", "x".repeat((2 << 20) - 100));
        std::fs::write(folder.join(format!("notes_{i}.py")), note).unwrap();
    }
    let (_, report) = test_json(&[RULES, "--python", folder.to_str().unwrap()]);
    assert_eq!(failed(&report), ["forbidden_imports"]);
    assert_eq!(
        findings(&report, "forbidden_imports"),
        ["notes_3.py:1: not read: past the first 8 MiB of .py files, which is all the checks read",
         "notes_4.py:1: not read: past the first 8 MiB of .py files, which is all the checks read"]
    );

    let numbers: String = (0..60_000).map(|i| format!("    n{i} = {i}\n")).collect();
    let large = dir.path().join("large.py");
    std::fs::write(
        &large,
        format!("{keeps}\n\ndef pad():\n    \"\"\"Numbers.\"\"\"\n{numbers}"),
    )
    .unwrap();
    let (_, report) = test_json(&[
        RULES,
        "--python",
        large.to_str().unwrap(),
        "--memory-limit",
        "64",
    ]);
    let verdicts: Vec<String> = failures(&report).into_iter().map(|f| f.1).collect();
    assert!(
        !verdicts.is_empty() && verdicts.iter().all(|v| v == "wrong"),
        "{verdicts:?}"
    );
    assert_eq!(
        findings(&report, "unchanged"),
        ["large.py:1: the file does not parse: it is too large to parse within the memory limit"]
    );
}
