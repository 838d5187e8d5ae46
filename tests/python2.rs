//! Python 2 programs: run translated to Python 3 by 2to3 where the handout names no version
//! (and the interpreter has `lib2to3`, Python 3.12 and before), refused where the handout
//! asks for Python 3, the report saying which and why in both cases.

mod common;

use common::{failures, totals};

/// The interpreter the tests name, and whether it can translate Python 2.
const PYTHON: &str = "/usr/bin/python3";

fn translates() -> bool {
    std::process::Command::new(PYTHON)
        .args(["-c", "import lib2to3"])
        .output()
        .is_ok_and(|out| out.status.success())
}

fn test(fixture: &str) -> (serde_json::Value, String) {
    let output = common::boardgrade()
        .args([
            "test",
            "--format",
            "json",
            "--python-bin",
            PYTHON,
            "--python",
        ])
        .arg(fixture)
        .output()
        .unwrap();
    let report = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (report, String::from_utf8_lossy(&output.stderr).into_owned())
}

#[test]
fn a_python2_program_runs_translated_where_the_handout_names_no_version() {
    let (report, stderr) = test("fixtures/pown-chess/quirk-python2.py");
    if translates() {
        assert_eq!(
            totals(&report),
            (27, 0, 34.0, 34.0),
            "{:#?}",
            failures(&report)
        );
        assert!(
            stderr.contains("quirk-python2.py is Python 2: it runs translated to Python 3 by 2to3"),
            "{stderr}"
        );
    } else {
        // No 2to3 to translate with: Python 3's own error, as for any file that does not load.
        assert_eq!(report["summary"]["score"], 0.0, "{report:#}");
        assert!(
            report.to_string().contains("Missing parentheses"),
            "{report:#}"
        );
    }
}

#[test]
fn a_python2_file_does_not_load_where_the_handout_asks_for_python3() {
    let (report, _) = test("fixtures/minichess/ecs10/quirk-python2.py");
    assert_eq!(report["summary"]["score"], 0.0, "{report:#}");
    let scenarios = report["scenarios"].as_array().unwrap();
    assert!(!scenarios.is_empty());
    for scenario in scenarios {
        assert_eq!(scenario["verdict"], "crash", "{scenario}");
        let detail = scenario["detail"].as_str().unwrap_or_default();
        assert!(
            detail.contains("quirk-python2.py:")
                && detail.contains("Missing parentheses in call to 'print'")
                && detail.contains("the file is Python 2; the handout asks for Python 3"),
            "{scenario}"
        );
    }
}

/// A folder holding `program` (pown-chess.py, importing `helpers`) and a Python 2
/// `helpers.py`.
fn with_python2_helper(program: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let program = std::fs::read_to_string(program).unwrap();
    let program = program.replacen("rows = ", "import helpers\nrows = ", 1);
    std::fs::write(dir.path().join("pown-chess.py"), program).unwrap();
    std::fs::write(
        dir.path().join("helpers.py"),
        "def banner():\n    print 'Pown Chess'\n",
    )
    .unwrap();
    dir
}

#[test]
fn a_python2_program_s_own_modules_import_translated_too() {
    if !translates() {
        return;
    }
    let dir = with_python2_helper("fixtures/pown-chess/quirk-python2.py");
    let (report, _) = test(dir.path().to_str().unwrap());
    assert_eq!(
        totals(&report),
        (27, 0, 34.0, 34.0),
        "{:#?}",
        failures(&report)
    );
}

#[test]
fn a_python2_helper_of_a_python3_program_is_named_as_what_does_not_load() {
    if !translates() {
        return;
    }
    let dir = with_python2_helper("fixtures/pown-chess/pown-chess.py");
    let (report, _) = test(dir.path().to_str().unwrap());
    assert_eq!(report["summary"]["score"], 0.0, "{report:#}");
    let detail = report["scenarios"][0]["detail"]
        .as_str()
        .unwrap_or_default();
    assert!(
        detail.contains("helpers.py:2:")
            && detail.contains("a helper module in Python 2, imported by a Python 3 file"),
        "{detail}"
    );
}
