//! The packages fit their platforms: the release binary (no debug information)
//! under 10 MB, and the Gradescope zip and the PrairieLearn course files that carry it under
//! 15 MB. Measured on `target/release/boardgrade`, which CI builds before the tests; skipped,
//! loudly, where there is no release build as new as the build settings.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

const MB: u64 = 1_000_000;

/// The release binary beside this test's debug one, when it is built from the current
/// build settings.
fn release_binary() -> Option<PathBuf> {
    let debug = Path::new(env!("CARGO_BIN_EXE_boardgrade"));
    let release = debug.parent()?.parent()?.join("release/boardgrade");
    let built = std::fs::metadata(&release).and_then(|m| m.modified()).ok();
    let settings = std::fs::metadata(common::root().join("Cargo.toml"))
        .and_then(|m| m.modified())
        .ok();
    match (built, settings) {
        (Some(built), Some(settings)) if built >= settings => Some(release),
        _ => {
            eprintln!(
                "SKIPPED tests/package_size.rs: no release build newer than Cargo.toml at {} \
                 (run cargo build --release first; CI does)",
                release.display()
            );
            None
        }
    }
}

fn size_of_tree(path: &Path) -> u64 {
    walkdir::WalkDir::new(path)
        .into_iter()
        .flatten()
        .filter_map(|e| e.metadata().ok())
        .filter(|m| m.is_file())
        .map(|m| m.len())
        .sum()
}

#[test]
fn the_release_binary_and_the_platform_packages_fit() {
    let Some(binary) = release_binary() else {
        return;
    };
    let size = std::fs::metadata(&binary).unwrap().len();
    assert!(size < 10 * MB, "{}: {size} bytes", binary.display());

    let dir = tempfile::tempdir().unwrap();
    let package = |command: &str, out: &Path| {
        let made = Command::new(&binary)
            .current_dir(common::root())
            .args([command, "--specs", "specs/chess/ecs198f", "--out"])
            .arg(out)
            .output()
            .unwrap();
        assert!(made.status.success(), "{command}: {made:?}");
    };
    let zip = dir.path().join("autograder.zip");
    package("gradescope", &zip);
    let zipped = std::fs::metadata(&zip).unwrap().len();
    assert!(zipped < 15 * MB, "the Gradescope zip: {zipped} bytes");
    let course = dir.path().join("pl");
    package("prairielearn", &course);
    let files = size_of_tree(&course);
    assert!(
        files < 15 * MB,
        "the PrairieLearn course files: {files} bytes"
    );
}
