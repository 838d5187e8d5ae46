//! The class report in a real browser: a class of 20 mixed submissions graded by the real
//! binary, its `report.html` opened in headless Chromium (the Debian package `chromium`),
//! which must load it with no console error and show the distribution, the failure rates,
//! the common mistakes with their boards and every student.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{boardgrade, copy_tree, root};

/// (student, fixture under fixtures/, entry file): four games' worth of correct, buggy,
/// quirky and hostile submissions, and one that holds no entry file at all.
const CLASS: [(&str, &str, &str); 20] = [
    (
        "ada",
        "one-d-chess/project5/one_d_chess.py",
        "one_d_chess.py",
    ),
    (
        "bo",
        "one-d-chess/project5/bug-negative-index.py",
        "one_d_chess.py",
    ),
    (
        "cy",
        "one-d-chess/project5/bug-king-short-of-edge.py",
        "one_d_chess.py",
    ),
    (
        "di",
        "one-d-chess/project5/bug-king-short-of-edge.py",
        "one_d_chess.py",
    ),
    (
        "ed",
        "one-d-chess/project5/bug-knight-right-edge.py",
        "one_d_chess.py",
    ),
    (
        "fa",
        "one-d-chess/project5/bug-empty-text.py",
        "one_d_chess.py",
    ),
    (
        "gu",
        "one-d-chess/project5/bug-trailing-space.py",
        "one_d_chess.py",
    ),
    (
        "hu",
        "one-d-chess/project5/bug-knight-spares-own.py",
        "one_d_chess.py",
    ),
    (
        "io",
        "one-d-chess/project5/bug-winner-message.py",
        "one_d_chess.py",
    ),
    (
        "jo",
        "one-d-chess/project5/quirk-toplevel-prints.py",
        "one_d_chess.py",
    ),
    (
        "ki",
        "one-d-chess/project5/bug-negative-index.py",
        "one_d_chess.py",
    ),
    (
        "lu",
        "one-d-chess/project5/bug-print-mutates-board.py",
        "one_d_chess.py",
    ),
    ("mo", "hostile/exits_nonzero.py", "one_d_chess.py"),
    ("ny", "hostile/invalid_utf8.py", "one_d_chess.py"),
    ("ol", "chess/ecs198f/correct", "pychess"),
    ("pa", "chess/ecs198f/bug-promotion-not-applied", "pychess"),
    ("qi", "chess/ecs198f/bug-promotion-not-applied", "pychess"),
    ("ru", "chess/ecs198f/bug-no-en-passant", "pychess"),
    ("sa", "chess/ecs198f/bug-uppercase-letter", "pychess"),
    ("tu", "", "notes.txt"),
];

/// Grades the class with `--report html=...` and returns the report's path.
fn graded_class(dir: &Path) -> PathBuf {
    let class = dir.join("class");
    for (name, fixture, entry) in CLASS {
        let folder = class.join(name);
        std::fs::create_dir_all(&folder).unwrap();
        let source = root().join("fixtures").join(fixture);
        if fixture.is_empty() {
            std::fs::write(folder.join(entry), "my notes\n").unwrap();
        } else if source.is_dir() {
            copy_tree(&source, &folder);
        } else {
            std::fs::copy(&source, folder.join(entry)).unwrap();
        }
    }
    let report = dir.join("report.html");
    let output = boardgrade()
        .arg("grade")
        .arg(&class)
        .args([
            "--specs",
            "specs/one-d-chess/project5",
            "--specs",
            "specs/chess/ecs198f",
        ])
        .arg("--out")
        .arg(dir.join("out"))
        .arg("--report")
        .arg(format!("html={}", report.display()))
        .args(["--sandbox", "none"])
        .output()
        .unwrap();
    assert!(
        report.is_file(),
        "no report: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    report
}

/// Chromium's flags for a headless run that touches nothing outside `profile`.
fn chromium(profile: &Path) -> Command {
    let mut command = Command::new("chromium");
    command.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--enable-logging=stderr",
        "--v=0",
    ]);
    command.arg(format!("--user-data-dir={}", profile.display()));
    command
}

/// Opens `page` in headless Chromium: (the DOM after its scripts ran, the console's errors
/// and failed loads).
fn open_in_chromium(page: &Path, profile: &Path) -> (String, Vec<String>) {
    let output = chromium(profile)
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs (apt-get install chromium; .ci/run installs it)");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let problems = stderr
        .lines()
        .filter(|l| {
            l.contains(":CONSOLE")
                || l.contains("Uncaught")
                || l.contains("Failed to load")
                || l.contains("ERR_FILE_NOT_FOUND")
                || l.contains("net::ERR")
        })
        .map(str::to_string)
        .collect();
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        problems,
    )
}

#[test]
fn the_class_report_opens_in_chromium_with_everything_and_no_error() {
    let dir = tempfile::tempdir().unwrap();
    let report = graded_class(dir.path());
    let html = std::fs::read_to_string(&report).unwrap();
    // Self-contained: nothing fetched, from anywhere.
    for external in ["src=", "href=\"http", "@import", "url("] {
        assert!(!html.contains(external), "{external} in the report");
    }

    let (dom, problems) = open_in_chromium(&report, &dir.path().join("profile"));
    assert!(problems.is_empty(), "console: {problems:#?}");
    assert!(dom.contains("<h1>"), "no page: {dom:.400}");
    for section in [
        "Score distribution",
        "Scenarios by failure rate",
        "Common mistakes",
        "Students",
    ] {
        assert!(dom.contains(section), "{section} missing");
    }
    // Every student has a row and a section.
    for (name, _, _) in CLASS {
        assert!(dom.contains(&format!("id=\"student-{name}\"")), "{name}");
        assert!(dom.contains(&format!("href=\"#student-{name}\"")), "{name}");
    }
    // The scripted filter shows itself only when scripts run, and ran.
    assert!(dom.contains("id=\"filter\""));
    assert!(!dom.contains("id=\"filter\" placeholder=\"filter students and scenarios\" hidden"));
    // A common mistake (two students with the same king bug) drawn with its boards.
    let mistakes = &dom[dom.find("id=\"mistakes\"").unwrap()..dom.find("id=\"students\"").unwrap()];
    assert!(mistakes.contains("<svg"), "no boards among common mistakes");
    // Read by the course staff: a student's board is the submission's, never "your program".
    assert!(
        dom.contains(">submission</text>"),
        "the actual board's caption"
    );
    assert!(!dom.contains("your program"));
    assert!(mistakes.contains("square differs"));
    assert!(mistakes.contains("href=\"#student-cy\"") && mistakes.contains("href=\"#student-di\""));
    // Chess boards too: the promotion bug is shared by two students.
    assert!(
        mistakes.contains("♕") || mistakes.contains("♙"),
        "no chess board"
    );

    // And it renders: a screenshot of the page is a real picture.
    let shot = dir.path().join("report.png");
    let run = chromium(&dir.path().join("profile"))
        .arg(format!("--screenshot={}", shot.display()))
        .arg("--window-size=1200,1600")
        .arg(format!("file://{}", report.display()))
        .output()
        .unwrap();
    let png = std::fs::read(&shot)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&run.stderr)));
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
    assert!(png.len() > 20_000, "a blank page? {} bytes", png.len());
}

#[test]
fn a_page_with_an_error_or_a_missing_file_is_caught() {
    // The check above would pass a broken page if it saw nothing: here it must see both.
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("broken.html");
    std::fs::write(
        &page,
        "<!DOCTYPE html><html><body><img src=\"missing.png\"><script>nope();</script></body></html>",
    )
    .unwrap();
    let (_, problems) = open_in_chromium(&page, &dir.path().join("profile"));
    assert!(
        problems.iter().any(|p| p.contains("nope")),
        "the script error went unseen: {problems:#?}"
    );
}

/// Names that read alike once shared their section's link: the link of one student led to
/// another's results.
#[test]
fn each_students_link_leads_to_their_own_section() {
    let dir = tempfile::tempdir().unwrap();
    let names = ["a b", "a-b", "a_b", "a.b"];
    let members: Vec<(&str, &str, &str)> = names
        .iter()
        .map(|n| (*n, "one-d-chess/csc110/chess.py", "chess.py"))
        .collect();
    let class = common::make_class(&dir.path().join("class"), &members);
    let report = dir.path().join("report.html");
    let output = boardgrade()
        .arg("grade")
        .arg(&class)
        .args(["--specs", "tests/selftest/hostile_game.toml", "--out"])
        .arg(dir.path().join("out"))
        .arg("--report")
        .arg(format!("html={}", report.display()))
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let html = std::fs::read_to_string(&report).unwrap();
    let mut sections = Vec::new();
    for name in names {
        // The section whose heading names the student, and the links with the name as text.
        let heading = format!("<h3>{name}: ");
        let before = &html[..html.find(&heading).unwrap_or_else(|| panic!("no {name}"))];
        let id = before
            .rsplit("<section class=\"student\" id=\"")
            .next()
            .unwrap();
        let id = &id[..id.find('"').unwrap()];
        assert!(
            html.contains(&format!("<a href=\"#{id}\">{name}</a>")),
            "{name}: no link to #{id}"
        );
        assert_eq!(html.matches(&format!("id=\"{id}\"")).count(), 1, "{name}");
        sections.push(id.to_string());
    }
    sections.sort();
    sections.dedup();
    assert_eq!(sections.len(), names.len(), "{sections:?}");
}
