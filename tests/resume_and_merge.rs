//! A stored result is reused by `--resume` only under the run's own sandbox, limits and
//! runner, and `merge` refuses shares graded against different scenarios, naming the files.

mod common;

use std::path::Path;

use common::boardgrade;

fn grade(class: &Path, specs: &Path, out: &Path, extra: &[&str]) -> String {
    let output = boardgrade()
        .arg("grade")
        .arg(class)
        .arg("--specs")
        .arg(specs)
        .arg("--out")
        .arg(out)
        .args(extra)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn resume_reuses_a_result_only_under_the_same_sandbox_limits_and_runner() {
    let dir = tempfile::tempdir().unwrap();
    let specs = common::project5_specs(dir.path(), &["move_king.toml"]);
    let class = common::make_class(
        &dir.path().join("class"),
        &[(
            "ana",
            "one-d-chess/project5/one_d_chess.py",
            "one_d_chess.py",
        )],
    );
    let out = dir.path().join("out");
    let base = ["--sandbox", "limits", "--memory-limit", "512"];
    grade(&class, &specs, &out, &base);
    let again = grade(&class, &specs, &out, &[&base[..], &["--resume"]].concat());
    assert!(again.contains("(1 already graded)"), "{again}");
    for changed in [
        &["--sandbox", "none", "--memory-limit", "512", "--resume"][..],
        &["--sandbox", "limits", "--memory-limit", "256", "--resume"][..],
        &[
            "--sandbox",
            "limits",
            "--memory-limit",
            "512",
            "--python-runner",
            "fresh",
            "--resume",
        ][..],
    ] {
        // Graded again under the new conditions, then reused under them.
        let regraded = grade(&class, &specs, &out, changed);
        assert!(
            !regraded.contains("already graded"),
            "{changed:?}: {regraded}"
        );
        let reused = grade(&class, &specs, &out, changed);
        assert!(
            reused.contains("(1 already graded)"),
            "{changed:?}: {reused}"
        );
    }
}

#[test]
fn merge_refuses_shares_graded_against_different_scenarios() {
    let dir = tempfile::tempdir().unwrap();
    let specs = common::project5_specs(dir.path(), &["move_king.toml", "is_valid_move.toml"]);
    let class = common::make_class(
        &dir.path().join("class"),
        &[
            (
                "ana",
                "one-d-chess/project5/one_d_chess.py",
                "one_d_chess.py",
            ),
            (
                "bo",
                "one-d-chess/project5/one_d_chess.py",
                "one_d_chess.py",
            ),
            (
                "cy",
                "one-d-chess/project5/one_d_chess.py",
                "one_d_chess.py",
            ),
        ],
    );
    let (one, two) = (dir.path().join("part1"), dir.path().join("part2"));
    grade(&class, &specs, &one, &["--partition", "1/2"]);
    // A scenario file edited between the two shares.
    let edited = specs.join("move_king.toml");
    let text = std::fs::read_to_string(&edited).unwrap();
    let first_name = text
        .lines()
        .find(|l| l.starts_with("name = "))
        .unwrap()
        .to_string();
    std::fs::write(
        &edited,
        text.replacen(&first_name, "name = \"renamed between the shares\"", 1),
    )
    .unwrap();
    grade(&class, &specs, &two, &["--partition", "2/2"]);
    let merged = dir.path().join("merged");
    let output = boardgrade()
        .arg("merge")
        .arg(&one)
        .arg(&two)
        .arg("--out")
        .arg(&merged)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("different scenarios"), "{stderr}");
    assert!(stderr.contains("move_king.toml"), "{stderr}");
    assert!(!stderr.contains("is_valid_move.toml"), "{stderr}");
    assert!(
        stderr.contains("part1") && stderr.contains("part2"),
        "{stderr}"
    );
    assert!(!merged.join("grades.csv").exists());
}
