//! The command-line conventions users expect: colours as NO_COLOR and CLICOLOR_FORCE say,
//! shell completions, man pages, and a list of the bundled scenarios.

mod common;

use common::boardgrade;

/// `test` on a failing submission with `args`, and whether its report is coloured.
fn coloured(args: &[&str], env: &[(&str, &str)]) -> bool {
    let mut cmd = boardgrade();
    cmd.env_remove("NO_COLOR").env_remove("CLICOLOR_FORCE");
    for (key, value) in env {
        cmd.env(key, value);
    }
    let output = cmd
        .args([
            "test",
            "specs/one-d-chess/project5/move_king.toml",
            "--python",
            "fixtures/one-d-chess/project5/bug-king-short-of-edge.py",
        ])
        .args(args)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    String::from_utf8_lossy(&output.stdout).contains("\x1b[")
}

#[test]
fn colours_follow_the_flag_then_no_color_then_clicolor_force() {
    // Not a terminal: no colours unless forced.
    assert!(!coloured(&[], &[]));
    assert!(coloured(&[], &[("CLICOLOR_FORCE", "1")]));
    // An empty NO_COLOR is as if it were unset.
    assert!(coloured(&[], &[("NO_COLOR", ""), ("CLICOLOR_FORCE", "1")]));
    assert!(!coloured(
        &[],
        &[("NO_COLOR", "1"), ("CLICOLOR_FORCE", "1")]
    ));
    // The flag overrides the environment.
    assert!(coloured(&["--color", "always"], &[("NO_COLOR", "1")]));
    assert!(!coloured(&["--color", "never"], &[("CLICOLOR_FORCE", "1")]));
}

#[test]
fn completions_are_generated_for_the_shells() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let output = boardgrade().args(["completions", shell]).output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{shell}");
        let script = String::from_utf8_lossy(&output.stdout);
        for word in ["boardgrade", "list", "report", "skip-tag"] {
            assert!(script.contains(word), "{shell} completions lack {word}");
        }
    }
    // The bash script is valid bash.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("boardgrade.bash");
    let output = boardgrade().args(["completions", "bash"]).output().unwrap();
    std::fs::write(&file, &output.stdout).unwrap();
    let status = std::process::Command::new("bash")
        .arg("-n")
        .arg(&file)
        .status()
        .unwrap();
    assert!(status.success());
    let output = boardgrade().args(["completions", "tcsh"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn man_pages_are_written_for_the_command_and_each_subcommand() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("man1");
    let output = boardgrade().arg("man").arg(&out).output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    let page = std::fs::read_to_string(out.join("boardgrade.1")).unwrap();
    assert!(
        page.starts_with(".ie \\n(.g") || page.contains(".TH boardgrade"),
        "{page}"
    );
    assert!(
        page.contains("Exit codes"),
        "the exit codes in boardgrade.1"
    );
    let test = std::fs::read_to_string(out.join("boardgrade-test.1")).unwrap();
    assert!(test.contains(".TH boardgrade-test"), "{test}");
    assert!(test.contains("\\-\\-report"), "{test}");
    for sub in ["grade", "list", "completions", "fuzz", "play"] {
        assert!(out.join(format!("boardgrade-{sub}.1")).exists(), "{sub}");
    }
}

#[test]
fn list_shows_the_scenarios_a_test_run_would_run() {
    let filter = [
        "--game",
        "one-d-chess",
        "--dialect",
        "project5",
        "--skip-tag",
        "random",
    ];
    let output = boardgrade().arg("list").args(filter).output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8_lossy(&output.stdout).to_string();
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("one-d-chess"))
        .collect();
    let (_, report) = common::test_json(&filter);
    let scenarios = report["scenarios"].as_array().unwrap();
    assert_eq!(lines.len(), scenarios.len(), "{text}");
    assert!(text.ends_with(&format!("{} scenario(s)\n", scenarios.len())));
    for s in scenarios {
        let place = format!(
            "{}:{}  {}",
            s["file"].as_str().unwrap(),
            s["line"],
            s["name"].as_str().unwrap()
        );
        assert!(text.contains(&place), "{place} missing from:\n{text}");
    }
    // Every game is bundled.
    let all = boardgrade().arg("list").output().unwrap();
    let all = String::from_utf8_lossy(&all.stdout);
    for game in ["one-d-chess", "pown-chess", "minichess", "chess"] {
        assert!(
            all.lines().any(|l| l.starts_with(&format!("{game} "))),
            "{game}"
        );
    }
    let output = boardgrade()
        .args(["list", "--game", "go"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
}
