//! Folder names a class export may hold that are not UTF-8 (a Windows zip's `café` in
//! Latin-1): the member is graded like any other, and its name never keeps the rest of the
//! class from being graded.

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
