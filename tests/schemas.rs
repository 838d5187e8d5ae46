//! The published formats' JSON Schemas (`schemas/`): generated from the types, checked in,
//! and followed by every bundled scenario file and every output the binary writes.
//! `UPDATE_SCHEMAS=1 cargo test --test schemas` rewrites them after a deliberate change.

mod common;

use std::path::{Path, PathBuf};

use boardgrade::report::format::published_formats;
use common::boardgrade;
use common::schema::assert_valid;
use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn the_checked_in_schemas_are_the_types_schemas() {
    let dir = root().join("schemas");
    let update = std::env::var_os("UPDATE_SCHEMAS").is_some();
    let mut expected_files = Vec::new();
    for format in published_formats() {
        let file = format!("{}.schema.json", format.name);
        let mut generated = serde_json::to_string_pretty(&format.schema).unwrap();
        generated.push('\n');
        let path = dir.join(&file);
        if update {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &generated).unwrap();
        }
        let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            checked_in == generated,
            "schemas/{file} differs from its type: run `UPDATE_SCHEMAS=1 cargo test --test \
             schemas` and commit the change (raise SCHEMA_VERSION if a field was removed, \
             renamed or changed meaning)"
        );
        expected_files.push(file);
    }
    let mut present: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    present.sort();
    expected_files.sort();
    assert_eq!(
        present, expected_files,
        "a schema without a format in schemas/"
    );
}

/// A scenario file as the JSON value its schema describes.
fn scenario_value(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap();
    let table: toml::Table = text
        .parse()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::to_value(table).unwrap()
}

#[test]
fn every_bundled_scenario_file_follows_the_scenario_schema() {
    let mut checked = 0;
    for entry in walkdir::WalkDir::new(root().join("specs")) {
        let entry = entry.unwrap();
        // A variant file (`variant.toml`) is no scenario file: its game reads its keys.
        let variant = entry.file_name() == "variant.toml";
        if entry.path().extension().is_some_and(|e| e == "toml") && !variant {
            let shown = entry
                .path()
                .strip_prefix(root())
                .unwrap()
                .display()
                .to_string();
            assert_valid("scenario", &scenario_value(entry.path()), &shown);
            checked += 1;
        }
    }
    assert!(checked > 20, "only {checked} scenario files found");
}

#[test]
fn the_scenario_schema_refuses_what_the_loader_refuses() {
    let schema_of = |text: &str| -> Value {
        serde_json::to_value(text.parse::<toml::Table>().unwrap()).unwrap()
    };
    let good = schema_of(
        "game = \"one-d-chess\"\nname = \"n\"\n[[steps]]\nsend = \"board\"\nexpect = \"x\\n\"\n",
    );
    assert_valid("scenario", &good, "a scenario");
    // A typo in a key, a wrong type, a visibility that does not exist.
    for bad in [
        "game = \"one-d-chess\"\nname = \"n\"\n[[steps]]\nsend = \"board\"\nexpcet = \"x\"\n",
        "game = \"one-d-chess\"\npoints = \"two\"\n",
        "visibility = \"secret\"\n",
    ] {
        let value = schema_of(bad);
        let result = std::panic::catch_unwind(|| assert_valid("scenario", &value, "bad"));
        assert!(result.is_err(), "the schema accepts:\n{bad}");
    }
}

#[test]
fn test_writes_json_and_junit_from_one_run_and_the_json_follows_its_schema() {
    let dir = tempfile::tempdir().unwrap();
    let (json, junit) = (dir.path().join("r.json"), dir.path().join("j.xml"));
    let output = boardgrade()
        .args([
            "test",
            "specs/one-d-chess/project5",
            "--python",
            "fixtures/one-d-chess/project5/bug-king-short-of-edge.py",
            "--quiet",
            "--report",
        ])
        .arg(format!("junit={}", junit.display()))
        .arg("--report")
        .arg(format!("json={}", json.display()))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let report = read_json(&json);
    assert_valid("test", &report, "test --report json");
    assert_eq!(report["schema_version"], 2);
    let failed = report["summary"]["failed"].as_u64().unwrap();
    assert!(failed > 0);
    // The same run: JUnit counts the same failures.
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(
        xml.contains(&format!("failures=\"{failed}\"")),
        "{failed} failures in r.json; j.xml:\n{xml}"
    );
}

#[test]
fn grade_outputs_follow_their_schemas() {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    for (student, fixture) in [
        ("alice", "one_d_chess.py"),
        ("bob", "bug-king-short-of-edge.py"),
    ] {
        std::fs::create_dir_all(class.join(student)).unwrap();
        std::fs::copy(
            root().join("fixtures/one-d-chess/project5").join(fixture),
            class.join(student).join("one_d_chess.py"),
        )
        .unwrap();
    }
    let out = dir.path().join("out");
    let report = dir.path().join("all.json");
    let (code, stdout_report, stderr) = common::grade_json(&[
        class.to_str().unwrap(),
        "--specs",
        "specs/one-d-chess/project5",
        "--out",
        out.to_str().unwrap(),
        "--report",
        &format!("json={}", report.display()),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout_report["grader"]["jobs"].as_u64().is_some());
    let document = read_json(&report);
    assert_valid("grade", &document, "grade --report json");
    assert!(
        document.get("grader").is_none(),
        "--report json is the same for merged runs"
    );
    assert_valid(
        "summary",
        &read_json(&out.join("summary.json")),
        "summary.json",
    );
    assert_valid("run", &read_json(&out.join("run.json")), "run.json");

    // One submission's platform results, as --report files from the same run.
    let (gradescope, prairielearn) = (dir.path().join("gs.json"), dir.path().join("pl.json"));
    let output = boardgrade()
        .arg("grade")
        .arg(class.join("bob"))
        .args(["--specs", "specs/one-d-chess/project5", "--out"])
        .arg(dir.path().join("one"))
        .arg("--report")
        .arg(format!("gradescope={}", gradescope.display()))
        .arg("--report")
        .arg(format!("prairielearn={}", prairielearn.display()))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let gradescope = read_json(&gradescope);
    assert_valid("gradescope", &gradescope, "--report gradescope");
    assert!(gradescope["tests"].as_array().unwrap().len() > 1);
    assert_valid(
        "prairielearn",
        &read_json(&prairielearn),
        "--report prairielearn",
    );

    // A class has no one platform results file.
    let output = boardgrade()
        .arg("grade")
        .arg(&class)
        .args(["--specs", "specs/one-d-chess/project5", "--out"])
        .arg(dir.path().join("two"))
        .arg("--report")
        .arg(format!(
            "gradescope={}",
            dir.path().join("x.json").display()
        ))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("one submission's, and 2 were"));
}
