//! Gradescope's results.json as Gradescope means it, through the real binary: a specs folder
//! with every visibility graded for one buggy submission, each rule of the autograder
//! specification checked; and the miniChess leaderboard against the choosers' match results.

mod common;

use std::path::{Path, PathBuf};

use common::{boardgrade, root};
use serde_json::Value;

/// A king that slides one cell too few: fails every scenario below that moves a lone king.
const BUGGY: &str = "fixtures/one-d-chess/project5/bug-king-short-of-edge.py";

const KING_SLIDE: &str = r#"steps = [
  { send = "create_board" },
  { send = "move_king 0 RIGHT" },
  { send = "move_king 1 RIGHT" },
  { send = "move_king 2 LEFT" },
  { send = "printable_board" },
]"#;
const START: &str = r#"steps = [{ send = "create_board" }, { send = "printable_board" }]"#;

/// Writes the specs folder: every visibility, a failing hidden scenario with the course's
/// message, an all-or-nothing group, and scenarios in two handout sections.
fn specs(dir: &Path) -> PathBuf {
    let specs = dir.join("specs");
    std::fs::create_dir_all(&specs).unwrap();
    let header = "game = \"one-d-chess\"\ndialect = \"project5\"\n";
    let files = [
        (
            "visible.toml",
            format!(
                "{header}handout.section = \"Create the board\"\n\
                 [[scenario]]\nname = \"the start position\"\npoints = 1\n{START}\n\
                 [[scenario]]\nname = \"a king slides to the edge\"\npoints = 2\n\
                 handout.section = \"Move a king\"\ntags = [\"king\"]\n{KING_SLIDE}\n"
            ),
        ),
        (
            "hidden.toml",
            format!(
                "{header}visibility = \"hidden\"\nhandout.section = \"Move a king\"\n\
                 hidden_message = \"Think about a king next to the board's edge.\"\n\
                 [[scenario]]\nname = \"SECRET-KING-SLIDE\"\npoints = 3\n{KING_SLIDE}\n\
                 [[scenario]]\nname = \"SECRET-START\"\npoints = 4\n{START}\n"
            ),
        ),
        (
            "after.toml",
            format!(
                "{header}handout.section = \"Move a king\"\n\
                 [[scenario]]\nname = \"released king slide\"\npoints = 5\n\
                 visibility = \"after_due_date\"\n{KING_SLIDE}\n\
                 [[scenario]]\nname = \"published start\"\npoints = 6\n\
                 visibility = \"after_published\"\n{START}\n"
            ),
        ),
        (
            "group.toml",
            format!(
                "{header}handout.section = \"Create the board\"\ngroup = \"all of it\"\n\
                 [[scenario]]\nname = \"group start\"\npoints = 7\n{START}\n\
                 [[scenario]]\nname = \"group king\"\npoints = 8\n{KING_SLIDE}\n"
            ),
        ),
    ];
    for (name, text) in files {
        std::fs::write(specs.join(name), text).unwrap();
    }
    specs
}

fn gradescope(submission: &Path, specs: &Path, out: &Path, extra: &[&str]) -> Value {
    let output = boardgrade()
        .arg("grade")
        .arg(submission)
        .arg("--specs")
        .arg(specs)
        .arg("--out")
        .arg(out)
        .args(["--format", "gradescope"])
        .args(
            ["--sandbox", "none"]
                .iter()
                .filter(|_| !extra.contains(&"--sandbox")),
        )
        .args(extra)
        .output()
        .unwrap();
    let file = out.join("results.json");
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| {
        panic!(
            "{e}: {}\n{}",
            file.display(),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    let results = serde_json::from_str(&text).unwrap();
    common::schema::assert_valid("gradescope", &results, "results.json");
    results
}

/// The boards drawn in a test's HTML feedback: the SVG its image's `data:` URL holds.
fn picture(html: &str) -> Option<String> {
    use base64::Engine as _;
    const START: &str = "<img src=\"data:image/svg+xml;base64,";
    let data = &html[html.find(START)? + START.len()..];
    let data = &data[..data.find('"')?];
    let svg = base64::engine::general_purpose::STANDARD
        .decode(data)
        .expect("base64");
    Some(String::from_utf8(svg).expect("UTF-8"))
}

/// The text a browser shows for `html`: tags left out, character references decoded.
fn text_of(html: &str) -> String {
    let mut text = String::new();
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        text.push_str(&rest[..open]);
        rest = &rest[open..];
        rest = &rest[rest.find('>').map_or(rest.len(), |end| end + 1)..];
    }
    text.push_str(rest);
    [
        ("&lt;", "<"),
        ("&gt;", ">"),
        ("&quot;", "\""),
        ("&#39;", "'"),
        ("&apos;", "'"),
        ("&#x27;", "'"),
        ("&nbsp;", "\u{a0}"),
        ("&amp;", "&"),
    ]
    .iter()
    .fold(text, |text, (entity, plain)| text.replace(entity, plain))
}

/// `html` as a conservative sanitiser leaves it: the `ammonia` crate with its default
/// rules (`p`, `pre` and `img` kept, a `data:` source dropped, other tags such as `svg`
/// removed with their text kept, `style` and `script` dropped with their content).
fn sanitised(html: &str) -> String {
    ammonia::clean(html)
}

fn test<'a>(results: &'a Value, name: &str) -> &'a Value {
    results["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"].as_str().unwrap().ends_with(name))
        .unwrap_or_else(|| panic!("no test {name} in {results:#}"))
}

/// Everything a student sees before any release: the top-level output and visible tests.
fn seen_by_student_now(results: &Value) -> String {
    let mut seen = results["output"].as_str().unwrap().to_string();
    for t in results["tests"].as_array().unwrap() {
        if t["visibility"] == "visible" {
            seen.push_str(&t.to_string());
        }
    }
    seen
}

#[test]
fn every_visibility_follows_gradescopes_rules() {
    let dir = tempfile::tempdir().unwrap();
    let specs = specs(dir.path());
    let results = gradescope(&root().join(BUGGY), &specs, &dir.path().join("out"), &[]);

    // Nothing the grader prints reaches a student.
    assert_eq!(results["stdout_visibility"], "hidden");

    // The student-visible text never counts, names or scores what the student cannot see.
    let seen = seen_by_student_now(&results);
    for secret in [
        "SECRET",
        "released king slide",
        "published start",
        "8 scenarios",
        "of 8",
        "/36",
    ] {
        assert!(!seen.contains(secret), "{secret:?} leaks in {seen}");
    }
    let output = results["output"].as_str().unwrap();
    assert!(
        output.contains("Tests shown now: 1 of 4 passed, 1/18 of their points."),
        "{output}"
    );
    // The course's message for the failed hidden scenario, said once.
    assert_eq!(
        output
            .matches("Think about a king next to the board's edge.")
            .count(),
        1,
        "{output}"
    );

    // Hidden tests carry their details for instructors (Gradescope never shows them to
    // students).
    let hidden = test(&results, "SECRET-KING-SLIDE");
    assert_eq!(hidden["visibility"], "hidden");
    assert_eq!(hidden["status"], "failed");
    let hidden_output = hidden["output"].as_str().unwrap();
    assert!(hidden_output.contains("shown to instructors only"));
    assert!(hidden_output.contains("first divergence at step 5"));

    // Tests released later carry the full feedback: the divergence and the boards.
    let released = test(&results, "released king slide");
    assert_eq!(released["visibility"], "after_due_date");
    let released_output = released["output"].as_str().unwrap();
    assert!(released_output.contains("first divergence at step 5"));
    assert!(picture(released_output).is_some(), "{released_output}");
    assert_eq!(
        test(&results, "published start")["visibility"],
        "after_published"
    );

    // Statuses agree with scores: the passing member of a failed group scores 0 and failed.
    let member = test(&results, "group start");
    assert_eq!(member["score"], 0.0);
    assert_eq!(member["status"], "failed");
    assert!(member["output"]
        .as_str()
        .unwrap()
        .contains("all-or-nothing group"));
    for t in results["tests"].as_array().unwrap() {
        let full = t["score"].as_f64() == t["max_score"].as_f64();
        assert_eq!(t["status"] == "passed", full, "{t:#}");
    }

    // Numbered by handout section, visible tests first with no gaps, named after the
    // section, tags carried, times set.
    let numbered: Vec<(String, String, String)> = results["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["number"].as_str().unwrap().to_string(),
                t["visibility"].as_str().unwrap().to_string(),
                t["name"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let visible: Vec<&str> = numbered
        .iter()
        .filter(|(_, v, _)| v == "visible")
        .map(|(n, _, _)| n.as_str())
        .collect();
    assert_eq!(visible, ["1.1", "1.2", "1.3", "2.1"], "{numbered:?}");
    assert!(numbered
        .iter()
        .any(|(n, _, name)| n == "2.1" && name == "Move a king: a king slides to the edge"));
    assert_eq!(numbered.len(), 8);
    let visible_king = test(&results, "a king slides to the edge");
    assert_eq!(visible_king["tags"], serde_json::json!(["king"]));
    assert!(visible_king["execution_time"].as_f64().unwrap() > 0.0);
}

#[test]
fn text_feedback_is_available_by_option() {
    let dir = tempfile::tempdir().unwrap();
    let specs = specs(dir.path());
    let results = gradescope(
        &root().join(BUGGY),
        &specs,
        &dir.path().join("out"),
        &["--feedback", "text"],
    );
    let visible = test(&results, "a king slides to the edge");
    assert_eq!(visible["output_format"], "text");
    let text = visible["output"].as_str().unwrap();
    assert!(!text.contains('<'), "{text}");
    assert!(text.contains("cell 0: expected WKi, got empty"), "{text}");
}

#[test]
fn a_failing_chess_scenario_shows_both_boards_with_the_differing_squares_marked() {
    let dir = tempfile::tempdir().unwrap();
    let submission = root().join("fixtures/chess/ecs198f/bug-promotion-not-applied");
    let results = gradescope(
        &submission,
        &root().join("specs/chess/ecs198f"),
        &dir.path().join("out"),
        &[],
    );
    let failed: Vec<&Value> = results["tests"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["status"] == "failed" && t["visibility"] == "visible")
        .collect();
    assert!(!failed.is_empty(), "{results:#}");
    let with_boards = failed
        .iter()
        .find(|t| picture(t["output"].as_str().unwrap()).is_some())
        .expect("a failed chess test with boards");
    let html = with_boards["output"].as_str().unwrap();
    let svg = picture(html).unwrap();
    assert_eq!(with_boards["output_format"], "html");
    assert!(
        svg.matches("class=\"square differs\"").count() >= 2,
        "{svg}"
    );
    assert!(svg.contains(">expected</text>") && svg.contains(">your program</text>"));
    // Chess pieces as glyphs, the diff below the picture.
    assert!(svg.contains('♙') || svg.contains('♕'), "{svg}");
    assert!(html.find("<img").unwrap() < html.find("<pre>").unwrap());
}

#[test]
fn sanitised_feedback_reads_in_full_and_its_pictures_vanish_whole() {
    let dir = tempfile::tempdir().unwrap();
    let chess = gradescope(
        &root().join("fixtures/chess/ecs198f/bug-promotion-not-applied"),
        &root().join("specs/chess/ecs198f"),
        &dir.path().join("chess"),
        &[],
    );
    let one_d = gradescope(
        &root().join(BUGGY),
        &specs(dir.path()),
        &dir.path().join("one-d"),
        &[],
    );
    let outputs: Vec<&str> = [&chess, &one_d]
        .iter()
        .flat_map(|results| results["tests"].as_array().unwrap())
        .filter(|t| t["output_format"] == "html")
        .map(|t| t["output"].as_str().unwrap())
        .collect();
    let with_pictures = outputs.iter().filter(|o| picture(o).is_some()).count();
    assert!(with_pictures >= 2, "{outputs:#?}");
    for html in outputs {
        // Gradescope-like sanitising: the default rules of a conservative sanitiser.
        let clean = sanitised(html);
        assert!(
            !clean.contains("data:") && !clean.contains("svg"),
            "{clean}"
        );
        // Everything the feedback says in text is still there, and nothing more: no label,
        // piece or caption of a picture is left behind as stray text.
        let without_pictures = match html.find("<img") {
            Some(start) => {
                let end = start + html[start..].find('>').unwrap() + 1;
                format!("{}{}", &html[..start], &html[end..])
            }
            None => html.to_string(),
        };
        assert_eq!(text_of(&clean), text_of(&without_pictures), "{html}");
        // The text diff is whole, in its own preformatted block.
        let pre = |h: &str| {
            let start = h.find("<pre>").map(|i| i + 5)?;
            Some(text_of(&h[start..start + h[start..].find("</pre>")?]))
        };
        if let Some(diff) = pre(html) {
            assert_eq!(pre(&clean), Some(diff));
        }
    }
}

/// (student, fixture) of the chooser class, strongest first by the match results.
const CHOOSERS: [(&str, &str); 3] = [
    ("strong", "fixtures/minichess/ecs10/prog67.py"),
    ("coin", "fixtures/minichess/ecs10/random-chooser.py"),
    (
        "forfeits",
        "fixtures/minichess/ecs10/bug-chooser-not-in-list.py",
    ),
];

#[test]
fn the_chooser_leaderboard_follows_the_match_results_and_the_csv_agrees() {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    for (name, fixture) in CHOOSERS {
        std::fs::create_dir_all(class.join(name)).unwrap();
        std::fs::copy(root().join(fixture), class.join(name).join("prog67.py")).unwrap();
    }
    let out = dir.path().join("out");
    let specs = root().join("specs/minichess/ecs10/match.toml");
    let status = boardgrade()
        .arg("grade")
        .arg(&class)
        .arg("--specs")
        .arg(&specs)
        .arg("--out")
        .arg(&out)
        .args(["--format", "gradescope", "--sandbox", "none"])
        .output()
        .unwrap();
    let board = |name: &str| -> Vec<(String, f64)> {
        let path = out.join("gradescope").join(format!("{name}.json"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!("{e}: {}", String::from_utf8_lossy(&status.stderr));
        });
        let results: Value = serde_json::from_str(&text).unwrap();
        results["leaderboard"]
            .as_array()
            .unwrap_or_else(|| panic!("no leaderboard in {results:#}"))
            .iter()
            .map(|e| {
                (
                    e["name"].as_str().unwrap().to_string(),
                    e["value"].as_f64().unwrap(),
                )
            })
            .collect()
    };
    let boards: Vec<Vec<(String, f64)>> = CHOOSERS.iter().map(|(n, _)| board(n)).collect();
    // The first column, Gradescope's default order, ranks the choosers by their games.
    let firsts: Vec<f64> = boards.iter().map(|b| b[0].1).collect();
    assert_eq!(boards[0][0].0, "points");
    assert!(firsts[0] > firsts[1] && firsts[1] > firsts[2], "{boards:?}");
    let names: Vec<&str> = boards[0].iter().map(|(n, _)| n.as_str()).collect();
    assert!(names.contains(&"points vs random"), "{names:?}");
    assert!(names.contains(&"points vs perfect 3x3"), "{names:?}");
    assert!(names.contains(&"points vs perfect 4x4"), "{names:?}");
    // Each student's columns add up: every game is against one opponent.
    for b in &boards {
        let per_opponent: f64 = b
            .iter()
            .filter(|(n, _)| n.starts_with("points vs ") && !n.contains('x'))
            .map(|(_, v)| v)
            .sum();
        assert_eq!(per_opponent, b[0].1, "{b:?}");
    }

    // grades.csv carries the same numbers.
    let csv = std::fs::read_to_string(out.join("grades.csv")).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    for line in lines {
        let cells: Vec<&str> = line.split(',').collect();
        let at = CHOOSERS.iter().position(|(n, _)| *n == cells[0]).unwrap();
        for (name, value) in &boards[at] {
            let column = header.iter().position(|h| h == name).unwrap();
            assert_eq!(cells[column].parse::<f64>().unwrap(), *value, "{csv}");
        }
    }
}

#[test]
fn a_minichess_chooser_that_returns_another_board_is_drawn_on_its_n_by_n_board() {
    let dir = tempfile::tempdir().unwrap();
    let results = gradescope(
        &root().join("fixtures/minichess/ecs10/bug-chooser-not-in-list.py"),
        &root().join("specs/minichess/ecs10/chooser.toml"),
        &dir.path().join("out"),
        &[],
    );
    let drawn = test(&results, "returns one of the boards from the 3x3 start");
    let html = &picture(drawn["output"].as_str().unwrap()).expect("the boards are drawn");
    assert_eq!(drawn["status"], "failed");
    // Two 3 x 3 boards, pawns as glyphs, the squares that differ marked.
    assert_eq!(html.matches("<title>(").count(), 18, "{html}");
    assert!(
        html.contains("square differs") && html.contains('♟'),
        "{html}"
    );
}

#[test]
fn a_test_is_named_after_its_section_unless_its_name_begins_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let specs = dir.path().join("specs");
    std::fs::create_dir_all(&specs).unwrap();
    std::fs::write(
        specs.join("named.toml"),
        format!(
            "game = \"one-d-chess\"\ndialect = \"project5\"\nhandout.section = \"Game over\"\n\
             [[scenario]]\nname = \"the handout's game of \\\"Game over\\\"\"\n{START}\n\
             [[scenario]]\nname = \"game over: the start is not over\"\n{START}\n"
        ),
    )
    .unwrap();
    let results = gradescope(&root().join(BUGGY), &specs, &dir.path().join("out"), &[]);
    let names: Vec<&str> = results["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    // Quoting the section further on is not naming it; beginning with it is.
    assert!(
        names.contains(&"Game over: the handout's game of \"Game over\""),
        "{names:?}"
    );
    assert!(
        names.contains(&"game over: the start is not over"),
        "{names:?}"
    );
}

#[test]
fn how_hidden_scenarios_treated_the_runner_is_told_to_the_staff_alone() {
    let dir = tempfile::tempdir().unwrap();
    let specs = dir.path().join("specs");
    std::fs::create_dir_all(&specs).unwrap();
    let header = "game = \"one-d-chess\"\ndialect = \"project5\"\n";
    let board = r#"steps = [{ send = "create_board" }]"#;
    // Each hidden scenario's printable_board kills the runner that forked it: after three,
    // the submission is graded with a fresh process per scenario. The visible scenario
    // never calls it. The runner is started three times per job (each job has a folder of its
    // own): eight scenarios give one of two jobs at least four, however they share them.
    let mut hidden = format!("{header}visibility = \"hidden\"\n");
    for n in 0..8 {
        hidden.push_str(&format!(
            "[[scenario]]\nname = \"SECRET-{n}\"\npoints = 1\n{START}\n"
        ));
    }
    std::fs::write(specs.join("hidden.toml"), hidden).unwrap();
    std::fs::write(
        specs.join("visible.toml"),
        format!("{header}[[scenario]]\nname = \"the board\"\npoints = 1\n{board}\n"),
    )
    .unwrap();
    let submission = dir.path().join("one_d_chess.py");
    std::fs::copy(root().join("fixtures/runner/kills_runner.py"), &submission).unwrap();
    // A sandbox: without one, a fresh process's parent is the grader itself.
    let sandboxed = ["--sandbox", "bwrap"];
    let results = gradescope(&submission, &specs, &dir.path().join("out"), &sandboxed);
    assert_eq!(results["score"], 9.0, "{results:#}");
    let staff = test(&results, "autograder: how it was run");
    assert_eq!(staff["visibility"], "hidden");
    assert_eq!(staff["max_score"], 0.0);
    let said = staff["output"].as_str().unwrap();
    assert!(said.contains("fresh Python process per scenario"), "{said}");
    let seen = seen_by_student_now(&results);
    assert!(
        !seen.contains("fresh Python") && !seen.contains("runner"),
        "{seen}"
    );
}
