//! The README's Slurm job array on a real single-node Slurm (started by `.ci/slurm`): every
//! array task of a class with failing students ends COMPLETED, and `merge` of the parts
//! writes byte for byte what one run over the whole class writes. Skipped, loudly, only
//! where Slurm is not installed.

mod common;

use std::path::Path;
use std::process::Command;

use common::{boardgrade, root};

/// Whether Slurm runs here, started by `.ci/slurm` if it is installed but not running.
fn slurm_or_skip() -> bool {
    let installed = Command::new("sbatch").arg("--version").output().is_ok();
    if !installed {
        eprintln!(
            "SKIPPED tests/slurm.rs: Slurm is not installed here (sbatch not found); CI \
             installs slurm-wlm and munge and runs .ci/slurm"
        );
        return false;
    }
    let started = Command::new(root().join(".ci/slurm")).status().unwrap();
    assert!(
        started.success(),
        "Slurm is installed but .ci/slurm could not start it"
    );
    true
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn the_readme_job_array_completes_every_task_and_merges_to_one_run() {
    if !slurm_or_skip() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    let fixtures = [
        "one-d-chess/project5/one_d_chess.py",
        "one-d-chess/project5/bug-negative-index.py",
        "one-d-chess/project5/bug-king-short-of-edge.py",
        "one-d-chess/project5/bug-move-raises.py",
    ];
    for i in 0..10 {
        let student = class.join(format!("student{i:02}"));
        std::fs::create_dir_all(&student).unwrap();
        std::fs::copy(
            root().join("fixtures").join(fixtures[i % fixtures.len()]),
            student.join("one_d_chess.py"),
        )
        .unwrap();
    }
    let specs = common::project5_specs(dir.path(), &["is_valid_move.toml", "move_king.toml"]);
    let binary = env!("CARGO_BIN_EXE_boardgrade");
    // The README's array, as written there, with this test's paths.
    let script = dir.path().join("grade.sbatch");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\n#SBATCH --array=1-4\n#SBATCH --output={out}/log-%a.txt\n\
             {binary} grade {class} --specs {specs} --jobs 1 \
             --partition $SLURM_ARRAY_TASK_ID/4 --out {out}/part-$SLURM_ARRAY_TASK_ID\n",
            out = dir.path().display(),
            class = class.display(),
            specs = specs.display(),
        ),
    )
    .unwrap();
    let submitted = Command::new("sbatch")
        .args(["--parsable", "--wait", "--chdir"])
        .arg(dir.path())
        .arg(&script)
        .output()
        .unwrap();
    let logs: String = (1..=4)
        .map(|k| read(&dir.path().join(format!("log-{k}.txt"))))
        .collect();
    assert!(
        submitted.status.success(),
        "sbatch --wait: {submitted:?}\nlogs:\n{logs}"
    );
    let job = String::from_utf8_lossy(&submitted.stdout)
        .trim()
        .split(';')
        .next()
        .unwrap()
        .to_string();
    // Every task of the array, as Slurm records it.
    let shown = Command::new("scontrol")
        .args(["show", "job", &job])
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&shown.stdout);
    let states: Vec<&str> = shown
        .split_whitespace()
        .filter_map(|word| word.strip_prefix("JobState="))
        .collect();
    assert_eq!(states, ["COMPLETED"; 4], "{shown}");

    let parts: Vec<_> = (1..=4)
        .map(|k| dir.path().join(format!("part-{k}")))
        .collect();
    let merged = dir.path().join("merged");
    let output = boardgrade()
        .arg("merge")
        .args(&parts)
        .arg("--out")
        .arg(&merged)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let whole = dir.path().join("whole");
    let output = boardgrade()
        .arg("grade")
        .arg(&class)
        .arg("--specs")
        .arg(&specs)
        .arg("--out")
        .arg(&whole)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    for file in ["grades.csv", "gradebook.csv", "summary.txt", "summary.json"] {
        let (one, joined) = (read(&whole.join(file)), read(&merged.join(file)));
        assert!(joined == one, "{file} differs:\n{one}\n---\n{joined}");
    }
    // Failing students were graded, not failed jobs.
    assert!(read(&whole.join("grades.csv")).contains("student01"));
}
