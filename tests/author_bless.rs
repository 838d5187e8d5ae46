//! `boardgrade bless`: expectations rewritten from the reference, in place, comments and
//! layout kept; the bundled specs need nothing.

mod common;

use common::boardgrade;
use predicates::prelude::*;

#[test]
fn the_bundled_specs_need_no_blessing() {
    boardgrade()
        .args(["bless", "--check", "specs"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("would change 0 expectation(s)"));
}

#[test]
fn wrong_expectations_are_rewritten_in_place() {
    let original =
        std::fs::read_to_string("specs/one-d-chess/project5/is_valid_move.toml").unwrap();
    let broken = original
        .replacen(
            "{ send = \"is_valid_move 6 BLACK\", expect = \"True\\n\" },",
            "{ send = \"is_valid_move 6 BLACK\", expect = \"False\\n\" },  # kept",
            1,
        )
        .replacen(
            "{ send = \"is_valid_move 10 BLACK\", expect = \"False\\n\" },",
            "{ send = \"is_valid_move 10 BLACK\", expect = \"True\\n\" },",
            1,
        );
    assert_ne!(broken, original);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("is_valid_move.toml");
    std::fs::write(&file, &broken).unwrap();

    boardgrade()
        .args(["bless", "--check"])
        .arg(&file)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("step 6 (`is_valid_move 6 BLACK`)"))
        .stdout(predicate::str::contains("    - False\n    + True"))
        .stdout(predicate::str::contains("would change 2 expectation(s)"));
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        broken,
        "--check writes nothing"
    );

    boardgrade().arg("bless").arg(&file).assert().code(0);
    let blessed = std::fs::read_to_string(&file).unwrap();
    let expected = original.replacen(
        "{ send = \"is_valid_move 6 BLACK\", expect = \"True\\n\" },",
        "{ send = \"is_valid_move 6 BLACK\", expect = \"True\\n\" },  # kept",
        1,
    );
    assert_eq!(blessed, expected);
    boardgrade()
        .args(["bless", "--check"])
        .arg(&file)
        .assert()
        .code(0);
}

#[test]
fn wildcards_and_accepted_forms_that_still_match_are_left_alone() {
    let text = r#"# comments stay
game = "one-d-chess"
dialect = "project5"

[[scenario]]
name = "wildcards"
steps = [
  { send = "create_board" },
  { send = "printable_board", expect = "...\n| WKi | WKn | WKn |     |     |     | BKn | BKn | BKi |\n...\n" },
]

[[scenario]]
name = "the message, the board before it allowed"
steps = [
  { send = "move 8 LEFT" }, { send = "move 7 LEFT" }, { send = "move 6 LEFT" },
  { send = "move 0 RIGHT" }, { send = "move 2 LEFT" },
  { send = "is_game_over", expect = "Black wins!\nTrue\n", accept = ["...\nBlack wins!\nTrue\n"] },
]

[[scenario]]
name = "a program's opening"
dialect = "csc110"
opening = "...\nWhite enter index:\n"
steps = [{ send = "2", expect = "White enter direction (l or r):\n" }]
"#;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("lenient.toml");
    std::fs::write(&file, text).unwrap();
    boardgrade()
        .arg("bless")
        .arg(&file)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("changed 0 expectation(s)"));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);

    // A stale opening is rewritten as a multi-line string.
    let stale = text.replace("White enter index", "White enter a number");
    std::fs::write(&file, &stale).unwrap();
    boardgrade().arg("bless").arg(&file).assert().code(0);
    let blessed = std::fs::read_to_string(&file).unwrap();
    assert!(blessed.contains("opening = \"\"\"\n+-----"), "{blessed}");
    boardgrade().arg("test").arg(&file).assert().code(0);
}

#[test]
fn an_invalid_file_is_named_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.toml");
    let text = "game = \"chess\"\nname = \"x\"\nsteps = [{ sned = \"board\" }]\n";
    std::fs::write(&file, text).unwrap();
    boardgrade()
        .arg("bless")
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("bad.toml:3:"))
        .stderr(predicate::str::contains("sned"));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
}

#[test]
fn fill_writes_the_missing_expectations_and_openings() {
    let text = r#"# comments stay
game = "one-d-chess"
dialect = "project5"

[[scenario]]
name = "calls"
steps = [
  { send = "set_board WKi WKn WKn EMPTY EMPTY EMPTY BKn BKn BKi" },
  # the handout's first assert
  { send = "is_valid_move 1 BLACK" },
  { send = "printable_board" },
  { send = "is_valid_move 6 BLACK", expect = "True\n" },
]

[[scenario]]
name = "a program's opening"
dialect = "csc110"
steps = [{ send = "2" }]
"#;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("fill.toml");
    std::fs::write(&file, text).unwrap();
    // Without --fill, a missing expectation is nothing to rewrite.
    boardgrade()
        .args(["bless", "--check"])
        .arg(&file)
        .assert()
        .code(0);
    boardgrade()
        .args(["bless", "--check", "--fill"])
        .arg(&file)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("would change 5 expectation(s)"));
    boardgrade()
        .args(["bless", "--fill"])
        .arg(&file)
        .assert()
        .code(0);
    let filled = std::fs::read_to_string(&file).unwrap();
    let expected = r#"# comments stay
game = "one-d-chess"
dialect = "project5"

[[scenario]]
name = "calls"
steps = [
  { send = "set_board WKi WKn WKn EMPTY EMPTY EMPTY BKn BKn BKi", expect = "" },
  # the handout's first assert
  { send = "is_valid_move 1 BLACK", expect = "False\n" },
  { send = "printable_board", expect = """
+-----------------------------------------------------+
| WKi | WKn | WKn |     |     |     | BKn | BKn | BKi |
+-----------------------------------------------------+
""" },
  { send = "is_valid_move 6 BLACK", expect = "True\n" },
]

[[scenario]]
name = "a program's opening"
dialect = "csc110"
opening = """
+-----------------------------------------------------+
| WKi | WKn | WKn |     |     |     | BKn | BKn | BKi |
+-----------------------------------------------------+
White enter index:
"""
steps = [{ send = "2", expect = "White enter direction (l or r):\n" }]
"#;
    assert_eq!(filled, expected);
    boardgrade()
        .args(["bless", "--check", "--fill"])
        .arg(&file)
        .assert()
        .code(0);
    boardgrade().arg("test").arg(&file).assert().code(0);
}
