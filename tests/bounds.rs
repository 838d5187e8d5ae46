//! Every command line is honoured or refused and every command ends: bounded perft depths,
//! limits no correct program could keep to refused by flag or key,
//! course file names that stay in their folder, and non-UTF-8 files named by the line and
//! column of their first bad byte.

mod common;

use common::{boardgrade, root};

#[test]
fn perft_refuses_a_depth_that_would_never_end() {
    let started = std::time::Instant::now();
    let output = boardgrade()
        .args(["perft", "--depth", "99"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--depth \"99\": at most 7"), "{stderr}");
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
    boardgrade()
        .args(["perft", "--depth", "2"])
        .assert()
        .success()
        .stdout(predicates::str::contains("400"));
}

#[test]
fn a_question_name_never_writes_outside_the_course_folder() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("course");
    for name in ["../x", "a/b", "..", ".", "/tmp/x", ""] {
        let output = boardgrade()
            .arg("prairielearn")
            .arg("--specs")
            .arg(root().join("tests/selftest/hostile_game.toml"))
            .arg("--out")
            .arg(&out)
            .args(["--question", name])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{name:?}: {output:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains("is not a folder name"),
            "{name:?}: {stderr}"
        );
        assert!(!dir.path().join("x").exists(), "{name:?} wrote outside");
        assert!(!out.exists(), "{name:?} wrote part of the course");
    }
}

#[test]
fn a_file_that_is_not_utf8_is_named_by_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let specs = dir.path().join("specs");
    std::fs::create_dir_all(&specs).unwrap();
    let good = std::fs::read(root().join("tests/selftest/hostile_game.toml")).unwrap();
    let mut bad = b"# caf".to_vec();
    bad.push(0xe9);
    bad.extend_from_slice(b"\n");
    bad.extend_from_slice(&good);
    let file = specs.join("game.toml");
    std::fs::write(&file, &bad).unwrap();
    let output = boardgrade().arg("test").arg(&file).output().unwrap();
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("game.toml"), "{stderr}");
    assert!(stderr.contains("line 1, column 6"), "{stderr}");

    // A course file beside the scenarios: its first bad byte is named the same way.
    std::fs::write(&file, &good).unwrap();
    std::fs::write(specs.join("course.toml"), b"# ok\n\n  \xff = 1\n").unwrap();
    let output = boardgrade().arg("test").arg(&file).output().unwrap();
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    // Said where each invalid file is (the report's INVALID line).
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(said.contains("course.toml:3:3: "), "{said}");
    assert!(said.contains("line 3, column 3"), "{said}");

    // A variant file beside them: named the same way, not skipped in silence.
    std::fs::remove_file(specs.join("course.toml")).unwrap();
    std::fs::write(specs.join("variant.toml"), b"# ok\n# caf\xe9\n").unwrap();
    let output = boardgrade().arg("test").arg(&file).output().unwrap();
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(said.contains("variant.toml:2:6: "), "{said}");
    assert!(said.contains("line 2, column 6"), "{said}");
}

#[test]
fn a_limit_no_correct_program_can_keep_to_is_refused_naming_the_flag() {
    let spec = "specs/one-d-chess/project5/is_valid_move.toml";
    let submission = "fixtures/one-d-chess/project5/one_d_chess.py";
    for (command, flag, value, why) in [
        ("test", "--output-limit", "0", "below 1024 bytes"),
        ("test", "--output-limit", "1", "below 1024 bytes"),
        ("grade", "--output-limit", "1023", "below 1024 bytes"),
        ("test", "--memory-limit", "1", "below 64 MiB"),
        ("grade", "--memory-limit", "63", "below 64 MiB"),
        ("grade", "--import-limit", "0.001", "below 1 s"),
        ("grade", "--import-limit", "nan", "below 1 s"),
        ("grade", "--budget", "0", "below 1 s"),
        ("grade", "--budget", "0.5", "below 1 s"),
        ("fuzz", "--time-limit", "0", "below 1 s"),
        ("fuzz", "--time-limit", "3601", "from 1 to 3600"),
    ] {
        let mut grader = boardgrade();
        match command {
            "test" => grader.args(["test", spec, "--python", submission]),
            "grade" => grader.args(["grade", submission, "--specs", spec]),
            _ => grader.args(["fuzz", "one-d-chess", "--python", submission]),
        };
        let output = grader.args([flag, value]).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{command} {flag} {value}: {stderr}"
        );
        assert!(
            stderr.contains(&format!("'{value}' for '{flag}")) && stderr.contains(why),
            "{command} {flag} {value}: {stderr}"
        );
    }
    // 0 turns the memory limit off, as the help says; the floors themselves are accepted.
    boardgrade()
        .args([
            "test",
            spec,
            "--memory-limit",
            "0",
            "--output-limit",
            "1024",
        ])
        .assert()
        .success();
}

#[test]
fn a_scenario_time_limit_below_a_second_names_the_file_line_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("s.toml");
    for limit in ["0", "0.0001", "nan", "3601"] {
        std::fs::write(
            &file,
            format!(
                "game = \"one-d-chess\"\ndialect = \"project5\"\n\n[[scenario]]\nname = \"x\"\n\
                 time_limit = {limit}\nsteps = [{{ send = \"board\" }}]\n"
            ),
        )
        .unwrap();
        let output = boardgrade().arg("test").arg(&file).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{limit}: {output:?}");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            stdout.contains(":6:14: key `time_limit`: ") && stdout.contains("from 1 to 3600"),
            "{limit}: {stdout}"
        );
    }
}
