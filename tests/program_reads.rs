//! Whole programs (csc110, pown): the Python launcher marks where the program asks for input,
//! so each typed line is shown with exactly what followed it; programs run with `--cmd` have
//! no marks and are matched as one stream.

mod common;

use std::path::Path;

use common::test_json;
use serde_json::Value;

fn scenario<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"].as_str().unwrap().starts_with(name))
        .unwrap_or_else(|| panic!("no scenario {name}: {report:#}"))
}

fn write_scenario(dir: &Path, text: &str) -> String {
    let path = dir.join("scenario.toml");
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

const INVALID_THEN_MOVE: &str = r#"
game = "pown-chess"
[[scenario]]
name = "an invalid move, then the next player's"
steps = [{ send = "A8" }, { send = "B8" }, { send = "C1" }]
"#;

#[test]
fn output_is_never_charged_to_the_next_typed_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = write_scenario(dir.path(), INVALID_THEN_MOVE);
    let program = "fixtures/pown-chess/bug-no-board-after-invalid.py";
    let (code, report) = test_json(&[&file, "--python", program]);
    assert_eq!(code, 1);
    let divergence = &scenario(&report, "an invalid move")["first_divergence"];
    assert_eq!(divergence["step"], 1);
    assert_eq!(divergence["send"], "A8");
    // Exactly what followed `A8`: no board, then the prompt; not the next move.
    assert_eq!(divergence["actual"], "INVALID MOVE\nb move: ");
    assert_eq!(divergence["cells"], serde_json::json!([]));

    // The same program run as a command has no marks: one stream, as before, and the next
    // move's text is read as the missing board.
    let command = format!(
        "python3 {}",
        std::fs::canonicalize(program).unwrap().display()
    );
    let (code, report) = test_json(&[&file, "--cmd", &command]);
    assert_eq!(code, 1);
    let divergence = &scenario(&report, "an invalid move")["first_divergence"];
    assert_eq!(divergence["step"], 1);
    assert!(divergence["actual"]
        .as_str()
        .unwrap()
        .contains("b moves from B8 to B7"));
}

#[test]
fn a_fault_is_shown_at_the_typed_line_that_caused_it() {
    // A knight moved off the right edge raises IndexError: the crash is the `r` typed for it.
    let (code, report) = test_json(&[
        "specs/one-d-chess/csc110",
        "--python",
        "fixtures/one-d-chess/csc110/bug-knight-right-edge.py",
    ]);
    assert_eq!(code, 1);
    let outcome = scenario(&report, "knights at the edges moving outwards stay");
    assert_eq!(outcome["verdict"], "crash");
    let divergence = &outcome["first_divergence"];
    assert_eq!(
        (divergence["step"].as_u64(), divergence["send"].as_str()),
        (Some(4), Some("r"))
    );
    assert_eq!(
        divergence["sent_before"],
        serde_json::json!(["1", "l", "7"])
    );
    assert!(outcome["transcript"]
        .as_str()
        .unwrap()
        .ends_with("Black enter direction (l or r):\nr"));
    // The steps after the crash were never reached: nothing more to say about them.
    assert_eq!(divergence["notes"], serde_json::json!([]));

    // A debug line printed once both inputs are read is that move's divergence, where every
    // line is judged (csc110 notes such lines in its game scenarios by default).
    let dir = tempfile::tempdir().unwrap();
    let course = dir.path().join("course.toml");
    std::fs::write(&course, "[one-d-chess.csc110]\nextra_lines = \"judged\"\n").unwrap();
    let (_, report) = test_json(&[
        "specs/one-d-chess/csc110",
        "--python",
        "fixtures/one-d-chess/csc110/bug-debug-print.py",
        "--policy",
        course.to_str().unwrap(),
    ]);
    let divergence = &scenario(&report, "first moves")["first_divergence"];
    assert_eq!(
        (divergence["step"].as_u64(), divergence["line"].as_u64()),
        (Some(2), Some(1))
    );
    let actual = divergence["actual"].as_str().unwrap();
    assert!(actual.starts_with("checking 2 White\n+---"), "{actual}");
    assert!(actual.ends_with("Black enter index:\n"), "{actual}");
    // Every later move prints it too: the report says so once, under the first.
    let game = &scenario(&report, "the example game")["first_divergence"];
    assert_eq!(game["step"], 2);
    assert!(
        game["notes"]
            .as_array()
            .unwrap()
            .contains(&serde_json::json!("and 8 later steps differ")),
        "{game:#}"
    );
}

#[test]
fn student_habits_that_python_3_runs_pass() {
    for program in [
        "fixtures/one-d-chess/csc110/quirk-print-space-paren.py",
        "fixtures/one-d-chess/csc110/chess.py",
    ] {
        let (code, report) = test_json(&["specs/one-d-chess/csc110", "--python", program]);
        assert_eq!(code, 0, "{program}: {report:#}");
    }
}

/// A program that reads the rest of its input at once after its first line cannot be split
/// any more: it is matched as one stream and still passes.
#[test]
fn a_program_that_reads_everything_at_once_is_matched_as_one_stream() {
    let dir = tempfile::tempdir().unwrap();
    let source = std::fs::read_to_string("fixtures/pown-chess/pown-chess.py").unwrap();
    let reading_all = source.replace(
        "    square = input(player + ' move: ').strip().upper()",
        "    if typed is None:
        square = input(player + ' move: ').strip().upper()
        typed = sys.stdin.read().splitlines()
    else:
        print(player + ' move: ', end='')
        square = typed.pop(0).strip().upper() if typed else exit()",
    );
    assert_ne!(reading_all, source);
    let program = dir.path().join("pown-chess.py");
    std::fs::write(&program, format!("import sys\ntyped = None\n{reading_all}")).unwrap();
    let (code, report) = test_json(&[
        "specs/pown-chess/pown",
        "--python",
        program.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{report:#}");
}
