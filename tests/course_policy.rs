//! The course policy through the real binary: the file found beside the specs or given with
//! `--policy`, each option applied to written expectations as well as to the reference's,
//! unknown options refused with their place, and the file shipped in the Gradescope zip.

mod common;

use std::io::Read;
use std::path::Path;

use common::{boardgrade, test_json};
use predicates::prelude::*;

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

fn verdicts(report: &serde_json::Value) -> Vec<String> {
    report["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["verdict"].as_str().unwrap().to_string())
        .collect()
}

const TRAILING_SPACE: &str = "fixtures/one-d-chess/csc110/quirk-trailing-space.py";

#[test]
fn csc110_forgives_a_trailing_space_by_default_and_a_course_can_make_it_exact() {
    let (code, report) = test_json(&["specs/one-d-chess/csc110", "--python", TRAILING_SPACE]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["summary"]["score"], report["summary"]["max_score"]);

    // The course file beside the specs (found by walking up from the scenario file) makes
    // whitespace exact and gives half the points for a presentation verdict.
    let dir = tempfile::tempdir().unwrap();
    let specs = dir.path().join("specs");
    let game = std::fs::read_to_string("specs/one-d-chess/csc110/game.toml").unwrap();
    let file = write(&specs, "one-d-chess/csc110/game.toml", &game);
    write(
        &specs,
        "course.toml",
        "whitespace = \"exact\"\npresentation_credit = 0.5\n",
    );
    let (code, report) = test_json(&[&file, "--python", TRAILING_SPACE]);
    assert_eq!(code, 1);
    assert!(
        verdicts(&report).iter().all(|v| v == "presentation"),
        "{report:#}"
    );
    let max = report["summary"]["max_score"].as_f64().unwrap();
    assert_eq!(report["summary"]["score"].as_f64().unwrap(), max / 2.0);
    // The correct program passes under either.
    let (code, _) = test_json(&[&file, "--python", "fixtures/one-d-chess/csc110/chess.py"]);
    assert_eq!(code, 0);
}

/// The handout's chess dialect alone (its variant that spells castling with the letter O
/// not enabled).
const HANDOUT: &str = "specs/chess/ecs198f";

/// The chess teams whose only fault is a spelling a course may accept, and the option.
const SPELLINGS: &[(&str, &str)] = &[
    ("bug-uppercase-letter", "accept_upper_piece_letter"),
    ("bug-castling-o-spelling", "accept_castling_o"),
    ("bug-upper-case-moves", "accept_upper_case_moves"),
];

#[test]
fn a_chess_spelling_fails_under_the_handout_and_passes_with_its_option() {
    let dir = tempfile::tempdir().unwrap();
    for (team, option) in SPELLINGS {
        let team = format!("fixtures/chess/ecs198f/{team}");
        let (code, report) = test_json(&[HANDOUT, "--python", &team]);
        assert_eq!(code, 1, "{team} must fail under the handout's spelling");
        // The bundled specs write every answer out: the option applies to written
        // expectations too.
        let written = report["scenarios"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["verdict"] != "pass")
            .count();
        assert!(written > 0);
        let policy = write(
            dir.path(),
            &format!("{option}.toml"),
            &format!("[chess.ecs198f]\n{option} = true\n"),
        );
        let (code, report) = test_json(&[HANDOUT, "--python", &team, "--policy", &policy]);
        assert_eq!(code, 0, "{team} under {option}: {report:#}");
        // Another option does not forgive it.
        let other = SPELLINGS.iter().find(|(_, o)| o != option).unwrap().1;
        let policy = write(
            dir.path(),
            &format!("other-{option}.toml"),
            &format!("[chess.ecs198f]\n{other} = true\n"),
        );
        let (code, _) = test_json(&[HANDOUT, "--python", &team, "--policy", &policy]);
        assert_eq!(code, 1, "{team} under {other}");
    }
    // Where the course grades the variant that spells castling with the letter O, that
    // spelling is graded as the variant, whole.
    let team = "fixtures/chess/ecs198f/bug-castling-o-spelling";
    let enables = write(
        dir.path(),
        "castling-o.toml",
        "variants = [\"ecs198f-castling-o\"]\n",
    );
    let (code, report) = test_json(&["specs/chess", "--python", team, "--policy", &enables]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["summary"]["score"], report["summary"]["max_score"]);
    // The correct team passes under all three.
    let all = write(
        dir.path(),
        "all.toml",
        "[chess.ecs198f]\naccept_upper_piece_letter = true\naccept_castling_o = true\naccept_upper_case_moves = true\n",
    );
    let (code, _) = test_json(&[
        HANDOUT,
        "--python",
        "fixtures/chess/ecs198f/correct",
        "--policy",
        &all,
    ]);
    assert_eq!(code, 0);
}

#[test]
fn an_option_the_dialect_does_not_know_is_an_error_with_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let game = std::fs::read_to_string("specs/one-d-chess/csc110/game.toml").unwrap();
    let file = write(dir.path(), "specs/csc110/game.toml", &game);
    let course = write(
        dir.path(),
        "specs/course.toml",
        "# the course's choices\n[one-d-chess.csc110]\nwhitespace = \"exact\"\naccept_castling_o = true\n",
    );
    boardgrade()
        .args(["test", &file])
        .assert()
        .code(2)
        .stdout(predicate::str::contains(format!(
            "{course}:4:1: key `one-d-chess.csc110.accept_castling_o`: one-d-chess/csc110 has no such option"
        )));
    // Given with --policy, the same file stops the run before anything is graded.
    boardgrade()
        .args([
            "grade",
            "fixtures/one-d-chess/csc110/chess.py",
            "--specs",
            &file,
            "--policy",
            &course,
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!(
            "{course}:4:1: key `one-d-chess.csc110.accept_castling_o`"
        )));
}

#[test]
fn pown_challenges_set_by_the_course_are_graded_wherever_a_submission_implements_them() {
    let reprompting = "fixtures/pown-chess/bug-same-player.py";
    let (code, _) = test_json(&["specs/pown-chess/pown", "--python", reprompting]);
    assert_eq!(code, 1, "the handout's required program passes the turn");
    let dir = tempfile::tempdir().unwrap();
    let policy = write(
        dir.path(),
        "course.toml",
        "[pown-chess.pown]\nchallenges = [\"reprompt_invalid\"]\n",
    );
    let (code, report) = test_json(&[
        "specs/pown-chess/pown",
        "--python",
        reprompting,
        "--policy",
        &policy,
    ]);
    assert_eq!(code, 0, "{report:#}");
    let (code, _) = test_json(&[
        "specs/pown-chess/pown",
        "--python",
        "fixtures/pown-chess/pown-chess.py",
        "--policy",
        &policy,
    ]);
    assert_eq!(code, 0, "the required program still passes");
}

#[test]
fn the_gradescope_zip_ships_the_course_file_found_above_the_specs() {
    let dir = tempfile::tempdir().unwrap();
    let game = std::fs::read_to_string("specs/one-d-chess/csc110/game.toml").unwrap();
    write(dir.path(), "specs/csc110/game.toml", &game);
    write(dir.path(), "specs/course.toml", "whitespace = \"exact\"\n");
    let zip_path = dir.path().join("autograder.zip");
    boardgrade()
        .args(["gradescope", "--specs"])
        .arg(dir.path().join("specs/csc110"))
        .arg("--out")
        .arg(&zip_path)
        .assert()
        .success();
    let mut zip = zip::ZipArchive::new(std::fs::File::open(&zip_path).unwrap()).unwrap();
    let mut text = String::new();
    zip.by_name("specs/course.toml")
        .unwrap()
        .read_to_string(&mut text)
        .unwrap();
    assert_eq!(text, "whitespace = \"exact\"\n");
    assert!(zip.by_name("specs/game.toml").is_ok());
}

#[test]
fn pown_tie_wording_is_any_tie_line_unless_the_course_names_its_own() {
    // The handout shows no tie: by default any line that says the game is tied passes; a
    // course that names its wordings (none: only `It's a tie!!`) holds students to them.
    let dir = tempfile::tempdir().unwrap();
    let source = std::fs::read_to_string("fixtures/pown-chess/pown-chess.py").unwrap();
    let worded = source.replace("print(\"It's a tie!!\")", "print(\"It's a tie!\")");
    assert_ne!(worded, source);
    let program = write(dir.path(), "pown-chess.py", &worded);
    let run = |policy: Option<&str>| {
        let mut args = vec!["specs/pown-chess/pown", "--python", &program];
        args.extend(["--filter", "a tie"]);
        let written;
        if let Some(text) = policy {
            written = write(dir.path(), "course.toml", text);
            args.extend(["--policy", &written]);
        }
        test_json(&args)
    };
    let (code, report) = run(None);
    assert_eq!(code, 0, "{report:#}");
    let (code, report) = run(Some("[pown-chess.pown]\ntie_wording = []\n"));
    assert_eq!(code, 1, "{report:#}");
    let (code, report) = run(Some(
        "[pown-chess.pown]\ntie_wording = [\"It's a tie!\", \"Tie!!\"]\n",
    ));
    assert_eq!(code, 0, "{report:#}");
}
