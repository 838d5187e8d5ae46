//! A `--cmd` program outside the current folder runs under bubblewrap: the folder it lives
//! in is shown read-only, so the instructor's engine passes its scenarios there as it does
//! without a sandbox, never a `crash` for a program the sandbox hid.

mod common;

use std::os::unix::fs::PermissionsExt;

use common::test_json;

#[test]
fn a_command_outside_the_current_folder_passes_under_bubblewrap() {
    if !boardgrade::execution::sandbox::bwrap_works() {
        eprintln!("SKIPPED: bubblewrap cannot run on this machine");
        return;
    }
    // A folder every user may enter, outside the crate (the folder the test runs in).
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let engine = dir.path().join("engine.sh");
    std::fs::write(
        &engine,
        format!(
            "#!/bin/sh\nexec '{}' engine one-d-chess --dialect project5\n",
            env!("CARGO_BIN_EXE_boardgrade")
        ),
    )
    .unwrap();
    std::fs::set_permissions(&engine, std::fs::Permissions::from_mode(0o755)).unwrap();
    for command in [
        engine.display().to_string(),
        format!("sh {}", engine.display()),
    ] {
        let (code, report) = test_json(&[
            "specs/one-d-chess/project5",
            "--sandbox",
            "bwrap",
            "--cmd",
            &command,
        ]);
        let verdicts: std::collections::BTreeSet<&str> = report["scenarios"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["verdict"].as_str().unwrap())
            .collect();
        assert_eq!(code, 0, "{command}: {verdicts:?}");
        assert_eq!(verdicts, ["pass"].into(), "{command}");
    }
}
