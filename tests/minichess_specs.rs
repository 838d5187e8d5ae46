//! The miniChess specs against the reference, through the real binary: bundled and on disk,
//! in-process and as a program over stdin/stdout, and match tables that are rejected with
//! their place in the file.

use assert_cmd::Command;
use predicates::prelude::*;

fn boardgrade() -> Command {
    Command::cargo_bin("boardgrade").expect("the binary is built")
}

#[test]
fn the_specs_pass_against_the_reference() {
    boardgrade()
        .args(["test", "specs/minichess", "--color", "never"])
        .assert()
        .success()
        .stdout(predicate::str::contains("0 failed"))
        .stdout(predicate::str::contains(
            "move_chooser: plays well against the reference players",
        ))
        .stdout(predicate::str::contains("vs perfect"));
}

#[test]
fn the_specs_are_bundled_into_the_binary() {
    let dir = tempfile::tempdir().unwrap();
    boardgrade()
        .current_dir(dir.path())
        .args(["test", "--game", "minichess", "--dialect", "hexapawn", "-q"])
        .assert()
        .success()
        .stdout(predicate::str::contains("0 failed"));
}

#[test]
fn the_engine_is_a_correct_program_in_both_dialects() {
    let engine = assert_cmd::cargo::cargo_bin("boardgrade");
    for dialect in ["ecs10", "hexapawn"] {
        let cmd = format!("{} engine minichess --dialect {dialect}", engine.display());
        boardgrade()
            .args([
                "test",
                "specs/minichess",
                "--dialect",
                dialect,
                "--cmd",
                &cmd,
                "-q",
            ])
            .assert()
            .success()
            .stdout(predicate::str::contains("0 failed"));
    }
}

#[test]
fn the_engine_answers_the_handouts_example() {
    boardgrade()
        .args(["engine", "minichess"])
        .write_stdin("move_maker [[0,1,1],[1,0,0],[2,2,2]] 2\nmove_maker [[0,1],[1,0]] 2\n")
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "=[[[0, 1, 1], [2, 0, 0], [2, 0, 2]], [[0, 1, 1], [1, 2, 0], [2, 0, 2]], \
             [[0, 1, 1], [1, 0, 2], [2, 2, 0]]]\n.\n!error ValueError: board size 2",
        ));
}

const MATCH: &str = r#"game = "minichess"
dialect = "ecs10"

[[scenario]]
name = "strength"

[scenario.match]
opponents = ["random", "greedy"]
sizes = [3]

[[scenario.match.award]]
points = 1
opponent = "random"
max_losses = 0
"#;

/// Runs `test` on a scenario file holding `text` and returns stdout and stderr together.
fn load_error(text: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.toml");
    std::fs::write(&file, text).unwrap();
    let output = boardgrade()
        .args(["test", file.to_str().unwrap(), "--color", "never"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

#[test]
fn a_valid_match_table_loads_and_plays() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("match.toml");
    std::fs::write(&file, MATCH).unwrap();
    boardgrade()
        .args(["test", file.to_str().unwrap(), "--format", "json"])
        .assert()
        .success()
        .stdout(predicate::str::contains("\"matches\""))
        .stdout(predicate::str::contains("\"max_score\": 1.0"));
}

#[test]
fn a_step_not_judged_needs_a_call_protocol_and_a_judged_step_beside_it() {
    let none_judged = "game = \"minichess\"\ndialect = \"ecs10\"\n\n[[scenario]]\nname = \"nothing\"\n\
                       steps = [{ send = \"move_maker [[0,1,1],[1,0,0],[2,2,2]] 2\", judged = false }]\n";
    let output = load_error(none_judged);
    assert!(output.contains("bad.toml:4:1: key `steps`"), "{output}");
    assert!(output.contains("it would judge nothing"), "{output}");
    let program = "game = \"pown-chess\"\n\n[[scenario]]\nname = \"a line\"\n\
                   steps = [{ send = \"A2\", judged = false }, { send = \"A7\" }]\n";
    let output = load_error(program);
    assert!(output.contains("key `judged`"), "{output}");
    assert!(output.contains("is for call protocols"), "{output}");
}

#[test]
fn bad_match_tables_name_their_key_and_place() {
    let cases = [
        (
            MATCH.replace("\"greedy\"]", "\"greedy\", \"grredy\"]"),
            "bad.toml:7:1: key `match.opponents[2]`",
            "unknown player \"grredy\"",
        ),
        (
            MATCH.replace("name = \"strength\"", "name = \"strength\"\npoints = 3"),
            "bad.toml:6:10: key `points`",
            "sum of its awards",
        ),
        (
            MATCH.replace("name = \"strength\"", "name = \"strength\"\nsteps = []"),
            "key `steps`",
            "no `steps`",
        ),
        (
            MATCH.replace("opponent = \"random\"", "opponent = \"perfect\""),
            "key `match.award[0].opponent`",
            "not one of the match's opponents",
        ),
        (
            MATCH
                .replace("max_losses = 0", "side = \"winning\"\nmax_losses = 0")
                .replace("sizes = [3]", "sizes = [3, 7]"),
            "key `match.sizes[1]`",
            "in theory",
        ),
        (
            MATCH.replace("max_losses = 0", ""),
            "key `match.award[0].min_win_rate`",
            "give min_win_rate, max_losses or both",
        ),
        (
            MATCH.replace("points = 1\n", "points = 1e308\n"),
            "key `match.award[0].points`",
            "from 0 to 10000",
        ),
        (
            format!(
                "{MATCH}\n[[scenario.match.award]]\npoints = 6000\nopponent = \"greedy\"\n\
                 max_losses = 0\n[[scenario.match.award]]\npoints = 6000\nopponent = \"random\"\n\
                 max_losses = 0\n"
            ),
            "key `match.award`",
            "add up to 12001, above the 10000",
        ),
        (
            MATCH.replace("max_losses = 0", "max_loses = 0"),
            "key `max_loses`",
            "unknown field",
        ),
        (
            MATCH.replace("sizes = [3]", "sizes = [3]\ncall_time_limit = 0.5"),
            "key `match.call_time_limit`",
            "give seconds from 1 to 3600; found 0.5",
        ),
    ];
    for (text, place, message) in cases {
        let output = load_error(&text);
        assert!(output.contains(place), "{place} not in:\n{output}");
        assert!(output.contains(message), "{message} not in:\n{output}");
    }
}
