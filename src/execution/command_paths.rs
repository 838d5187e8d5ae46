//! The folders a `--cmd` program needs to see under bubblewrap besides the folder it runs in.
//!
//! A command is the instructor's (a reference engine, a build of their own), and it often
//! names a program outside the current folder: `/opt/engine/bin/engine`, `python3
//! /home/ta/course/engine.py`. Bubblewrap shows only the system folders and the current one,
//! so such a program would not be found inside and its run would read as the program's
//! failure. Each word of the command that is a path (it holds a `/`) to an existing file or
//! folder outside those is shown read-only: a file's folder, so the files beside it (its
//! modules, its data) come with it. A bare program name is left to the sandbox's own `PATH`
//! (the grader's `PATH` may hold wrappers, such as pyenv's shims, that cannot run inside).

use std::path::{Path, PathBuf};

use super::sandbox::bwrap::SYSTEM;

/// The folders `command`, run in `here`, names outside the system folders and `here`:
/// outermost first, none inside another.
pub fn needed(command: &str, here: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = command
        .split_whitespace()
        .map(|w| w.trim_matches(['\'', '"']))
        .filter(|w| w.contains('/'))
        .filter_map(|word| {
            let path = here.join(word);
            let real = std::fs::canonicalize(&path).ok()?;
            let folder = if real.is_dir() {
                real
            } else {
                real.parent()?.to_path_buf()
            };
            let shown = folder.starts_with(here) || SYSTEM.iter().any(|d| folder.starts_with(d));
            (!shown && folder != Path::new("/")).then_some(folder)
        })
        .collect();
    found.sort();
    found.dedup();
    let all = found.clone();
    found.retain(|path| !all.iter().any(|o| o != path && path.starts_with(o)));
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_outside_the_folder_brings_its_own_folder_and_nothing_shown_already() {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("engine");
        let here = dir.path().join("here");
        std::fs::create_dir_all(outside.join("lib")).unwrap();
        std::fs::create_dir_all(&here).unwrap();
        std::fs::write(outside.join("run.py"), "").unwrap();
        std::fs::write(here.join("local.py"), "").unwrap();
        let outside = std::fs::canonicalize(outside).unwrap();
        let here = std::fs::canonicalize(here).unwrap();
        let command = format!(
            "/usr/bin/env python3 '{}' --data {} ./local.py missing/x",
            outside.join("run.py").display(),
            outside.join("lib").display()
        );
        // The script's folder once (its `lib` inside it), not the system program, the
        // current folder nor a path that does not exist.
        assert_eq!(needed(&command, &here), vec![outside]);
    }
}
