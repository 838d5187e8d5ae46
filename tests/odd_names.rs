//! Folder names a class export may hold that are not UTF-8 (a Windows zip's `café` in
//! Latin-1): the member is graded like any other, and its name never keeps the rest of the
//! class from being graded; and names a spreadsheet would read as a formula, kept as text in
//! every CSV file.

mod common;

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;

use common::{grade_json, make_class};

#[test]
fn a_member_whose_name_is_not_utf8_is_graded_with_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let class = make_class(
        &dir.path().join("class"),
        &[("alice", "one-d-chess/csc110/chess.py", "chess.py")],
    );
    for name in [&b"caf\xe9"[..], &b"caf\xe8"[..]] {
        let member = class.join(OsStr::from_bytes(name));
        std::fs::create_dir(&member).unwrap();
        std::fs::copy(
            common::root().join("fixtures/one-d-chess/csc110/chess.py"),
            member.join("chess.py"),
        )
        .unwrap();
    }
    let (_, report, stderr) = grade_json(&[
        class.to_str().unwrap(),
        "--specs",
        "tests/selftest/hostile_game.toml",
        "--out",
        dir.path().join("out").to_str().unwrap(),
    ]);
    let results = report["submissions"].as_array().unwrap();
    let ids: Vec<&str> = results.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), 3, "{stderr}");
    // Two names that read alike are still two students.
    assert!(
        ids.contains(&"caf\u{fffd}") && ids.contains(&"caf\u{fffd} (2)"),
        "{ids:?}"
    );
    for result in results {
        assert_eq!(result["score"], result["max_score"], "{result:#}");
        assert!(result["error"].is_null(), "{result:#}");
    }
}

#[test]
fn a_member_named_like_a_formula_is_text_in_every_csv() {
    let dir = tempfile::tempdir().unwrap();
    let names = ["=HYPERLINK(\"http:x\")", "+cmd", "-2", "@SUM(A1)", "alice"];
    let members: Vec<_> = names
        .iter()
        .map(|name| (*name, "one-d-chess/csc110/chess.py", "chess.py"))
        .collect();
    let class = make_class(&dir.path().join("class"), &members);
    let out = dir.path().join("out");
    let (_, _, stderr) = grade_json(&[
        class.to_str().unwrap(),
        "--specs",
        "tests/selftest/hostile_game.toml",
        "--assignment",
        "=1+1",
        "--out",
        out.to_str().unwrap(),
    ]);
    let rows = |file: &str| -> Vec<Vec<String>> {
        let text =
            std::fs::read_to_string(out.join(file)).unwrap_or_else(|e| panic!("{e}: {stderr}"));
        csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(text.as_bytes())
            .records()
            .map(|r| r.unwrap().iter().map(String::from).collect())
            .collect()
    };
    for (file, total_column) in [("grades.csv", 2), ("gradebook.csv", 1)] {
        let rows = rows(file);
        assert_eq!(rows.len(), names.len() + 1, "{file}: {rows:?}");
        for row in &rows[1..] {
            let name = &row[0];
            let as_named = name.strip_prefix('\'').unwrap_or(name);
            assert!(names.contains(&as_named), "{file}: {row:?}");
            // Text that a spreadsheet would evaluate starts with a quote; the rest is as named.
            let formula = as_named.starts_with(['=', '+', '-', '@']);
            assert_eq!(name.starts_with('\''), formula, "{file}: {row:?}");
            // The scores are numbers, as they were.
            assert!(row[total_column].parse::<f64>().is_ok(), "{file}: {row:?}");
        }
    }
    assert_eq!(rows("gradebook.csv")[0], ["student", "'=1+1"]);
}
