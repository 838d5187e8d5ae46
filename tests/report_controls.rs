//! What a submission printed, and what its folder is called, reach the instructor's terminal
//! as visible text: no escape sequence, carriage return, 8-bit control or bidirectional
//! override of a student's gets through to clear, retitle or redraw it.

mod common;

use std::path::Path;

use common::{boardgrade, root};

/// The characters that command a terminal (with `--color never` boardgrade prints none of
/// its own) found in `text`.
fn commands(text: &str) -> Vec<char> {
    text.chars()
        .filter(|&c| {
            (c.is_control() && c != '\n' && c != '\t') || ('\u{202a}'..='\u{202e}').contains(&c)
        })
        .collect()
}

/// `boardgrade grade CLASS --specs SPECS --out OUT`, with no colour of its own.
fn grade_without_color(class: &Path, specs: &Path, out: &Path) -> std::process::Output {
    boardgrade()
        .arg("grade")
        .arg(class)
        .arg("--specs")
        .arg(specs)
        .arg("--out")
        .arg(out)
        .args(["--color", "never"])
        .output()
        .unwrap()
}

#[test]
fn a_report_shows_a_programs_terminal_controls_instead_of_obeying_them() {
    let output = boardgrade()
        .args(["test", "tests/selftest/hostile_game.toml", "--python"])
        .arg(root().join("fixtures/hostile/terminal_escapes.py"))
        .args(["--color", "never"])
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("WRONG"), "{text}");
    assert_eq!(commands(&text), Vec::<char>::new(), "{text}");
    // Shown, not dropped: in the diff, the transcript and the stderr tail alike.
    assert!(text.matches("␛[2J␛]0;pwned␇").count() >= 3, "{text}");
    assert!(text.contains("␍PASS \\u{9b}31m \\u{202e}evil"), "{text}");
}

#[test]
fn a_class_members_name_and_output_cannot_command_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    let member = class.join("eve\u{1b}]0;pwned\u{7}\u{1b}[2J\r");
    std::fs::create_dir_all(&member).unwrap();
    std::fs::copy(
        root().join("fixtures/hostile/terminal_escapes.py"),
        member.join("chess.py"),
    )
    .unwrap();
    // A name that would start a line of its own, forging another student's grade.
    let forger = class.join("mallory\nalice                          1/1  all passed");
    std::fs::create_dir_all(&forger).unwrap();
    std::fs::write(forger.join("chess.py"), "print('nothing')\n").unwrap();
    // A member skipped for its name is named as visibly.
    std::os::unix::fs::symlink(&member, class.join("link\u{1b}[8m")).unwrap();
    let specs = dir.path().join("specs");
    std::fs::create_dir(&specs).unwrap();
    std::fs::copy(
        root().join("tests/selftest/hostile_game.toml"),
        specs.join("game.toml"),
    )
    .unwrap();
    let output = grade_without_color(&class, &specs, &dir.path().join("out"));
    let (stdout, stderr) = (
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    );
    assert!(stdout.contains("eve␛]0;pwned␇␛[2J␍"), "{stdout}");
    assert!(stdout.contains("mallory␊alice"), "{stdout}");
    assert!(!stdout.lines().any(|l| l.starts_with("alice")), "{stdout}");
    assert!(stderr.contains("link␛[8m"), "{stderr}");
    assert_eq!(commands(&stdout), Vec::<char>::new(), "{stdout}");
    assert_eq!(commands(&stderr), Vec::<char>::new(), "{stderr}");
    let summary = std::fs::read_to_string(dir.path().join("out/summary.txt")).unwrap();
    assert_eq!(commands(&summary), Vec::<char>::new(), "{summary}");
}

#[test]
fn a_file_name_in_a_note_cannot_start_a_line_of_its_own() {
    // The file graded is named to end one line of the report and forge the next: the note
    // that names it stays one line, in a class run's report and in a self-check alike.
    let dir = tempfile::tempdir().unwrap();
    let mallory = dir.path().join("class/mallory");
    std::fs::create_dir_all(&mallory).unwrap();
    std::fs::write(
        mallory.join("one_d_chess.py"),
        "def create_board():\n    pass\n",
    )
    .unwrap();
    std::fs::copy(
        root().join("fixtures/one-d-chess/project5/one_d_chess.py"),
        mallory.join("solution\n\nzed                           40\u{2215}40  all passed\n.py"),
    )
    .unwrap();
    let specs = root().join("specs/one-d-chess/project5");
    let graded = grade_without_color(&dir.path().join("class"), &specs, &dir.path().join("out"));
    let stdout = String::from_utf8(graded.stdout).unwrap();
    assert!(stdout.contains("graded solution␊␊zed"), "{stdout}");
    assert!(!stdout.lines().any(|l| l.starts_with("zed")), "{stdout}");
    let checked = boardgrade()
        .arg("test")
        .arg(&specs)
        .arg("--python")
        .arg(&mallory)
        .args(["--color", "never"])
        .output()
        .unwrap();
    let stderr = String::from_utf8(checked.stderr).unwrap();
    assert!(
        stderr.contains("boardgrade: note: graded solution␊␊zed"),
        "{stderr}"
    );
    assert!(!stderr.lines().any(|l| l.starts_with("zed")), "{stderr}");
}
