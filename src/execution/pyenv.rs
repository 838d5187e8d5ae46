//! What a pyenv shim would run, read the way pyenv reads it, so that `python3` on a pyenv
//! machine is asked for its version directly: through the shim (a shell script that starts
//! pyenv's own scripts) the question takes a fifth of a second, each run of boardgrade.
//!
//! pyenv picks the version from `PYENV_VERSION`, else the nearest `.python-version` from the
//! current folder up, else `$PYENV_ROOT/version`; the program is then
//! `$PYENV_ROOT/versions/VERSION/bin/NAME`. Anything this reading does not settle (the
//! system's Python, several versions, a version that is not installed under that name, a
//! shim this does not recognise) is left to the shim itself: `None`.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::sys::{find_program, is_executable_file};

/// The program the pyenv shim `candidate` (a path, or a name on `PATH`) would run, for a
/// process in `cwd` whose environment `env` answers; `None` when it is not a shim or pyenv's
/// choice is not settled by its version files alone.
pub fn shimmed_program(
    candidate: &Path,
    env: &dyn Fn(&str) -> Option<OsString>,
    cwd: &Path,
) -> Option<PathBuf> {
    if env("PYENV_DIR").is_some() {
        return None; // pyenv then looks from another folder than `cwd`
    }
    let shim = find_program(candidate, &env("PATH")?)?;
    let root = shim_root(&script_head(&shim)?)?;
    let version = match env("PYENV_VERSION").filter(|v| !v.is_empty()) {
        Some(named) => one_version(named.to_str()?)?,
        None => {
            let file = cwd
                .ancestors()
                .map(|dir| dir.join(".python-version"))
                .find(|file| file.is_file())
                .unwrap_or_else(|| root.join("version"));
            one_version(&std::fs::read_to_string(file).ok()?)?
        }
    };
    if version == "system" || version.contains('/') || version.starts_with('.') {
        return None;
    }
    let program = root
        .join("versions")
        .join(version)
        .join("bin")
        .join(shim.file_name()?);
    is_executable_file(&program).then_some(program)
}

/// The most of a file read to tell whether it is a shim: a shim's script is a few hundred
/// bytes, and the interpreters it stands beside are megabytes of machine code, which need
/// not be read to be told apart.
const SHIM_HEAD: u64 = 4096;

/// The start of the file `path`, as text (a character cut at the end is replaced).
fn script_head(path: &Path) -> Option<String> {
    use std::io::Read;
    let mut head = Vec::new();
    std::fs::File::open(path)
        .ok()?
        .take(SHIM_HEAD)
        .read_to_end(&mut head)
        .ok()?;
    Some(String::from_utf8_lossy(&head).into_owned())
}

/// The `PYENV_ROOT` a pyenv shim's script sets, when `script` is one.
fn shim_root(script: &str) -> Option<PathBuf> {
    if !script.starts_with("#!") || !script.contains("/libexec/pyenv\" exec ") {
        return None;
    }
    script
        .lines()
        .find_map(|line| line.trim().strip_prefix("export PYENV_ROOT=\""))
        .and_then(|rest| rest.strip_suffix('"'))
        .filter(|root| root.starts_with('/') && !root.contains(['$', '`', '\\']))
        .map(PathBuf::from)
}

/// The one version a version file (or `PYENV_VERSION`, `:`-separated) names; `None` for
/// none or several. Comment lines (`#`) are skipped, as pyenv skips them.
fn one_version(text: &str) -> Option<String> {
    let mut versions = text
        .lines()
        .filter(|line| !line.trim_start().starts_with('#'))
        .flat_map(|line| line.split(|c: char| c.is_whitespace() || c == ':'))
        .filter(|word| !word.is_empty());
    let first = versions.next()?;
    versions.next().is_none().then(|| first.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;
    use std::os::unix::fs::PermissionsExt;

    const SHIM: &str = "#!/usr/bin/env bash\nset -e\nprogram=\"${0##*/}\"\n\nexport PYENV_ROOT=\"{root}\"\nexec \"{root}/libexec/pyenv\" exec \"$program\" \"$@\"\n";

    /// A pyenv root with versions `3.11.7` and `3.12.1` (each a `python3` that is a script),
    /// its shims folder, and a project folder below `work`.
    fn machine() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("pyenv");
        for version in ["3.11.7", "3.12.1"] {
            let bin = root.join("versions").join(version).join("bin");
            std::fs::create_dir_all(&bin).unwrap();
            make_executable(&bin.join("python3"), "#!/bin/sh\n");
        }
        std::fs::create_dir_all(root.join("shims")).unwrap();
        let shim = SHIM.replace("{root}", root.to_str().unwrap());
        make_executable(&root.join("shims/python3"), &shim);
        std::fs::write(root.join("version"), "3.11.7\n").unwrap();
        std::fs::create_dir_all(dir.path().join("work/project/src")).unwrap();
        (dir, root)
    }

    fn make_executable(path: &Path, text: &str) {
        std::fs::write(path, text).unwrap();
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    fn program(root: &Path, vars: &[(&str, &str)], cwd: &Path) -> Option<PathBuf> {
        let mut env: HashMap<String, OsString> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), OsString::from(v)))
            .collect();
        let shims = root.join("shims");
        env.insert(
            "PATH".into(),
            format!("/nowhere:{}", shims.display()).into(),
        );
        shimmed_program(Path::new("python3"), &|name| env.get(name).cloned(), cwd)
    }

    fn version_bin(root: &Path, version: &str) -> Option<PathBuf> {
        Some(root.join("versions").join(version).join("bin/python3"))
    }

    #[test]
    fn the_global_version_file_then_the_nearest_local_one_then_the_variable() {
        let (dir, root) = machine();
        let src = dir.path().join("work/project/src");
        assert_eq!(program(&root, &[], &src), version_bin(&root, "3.11.7"));
        std::fs::write(
            dir.path().join("work/project/.python-version"),
            "# pinned\n3.12.1\n",
        )
        .unwrap();
        assert_eq!(program(&root, &[], &src), version_bin(&root, "3.12.1"));
        let named = [("PYENV_VERSION", "3.11.7")];
        assert_eq!(program(&root, &named, &src), version_bin(&root, "3.11.7"));
    }

    #[test]
    fn what_only_the_shim_can_settle_is_left_to_it() {
        let (dir, root) = machine();
        let cwd = dir.path().join("work");
        for version in ["system", "3.11", "3.11.7:3.12.1", "../../etc", ""] {
            let named = [("PYENV_VERSION", version)];
            let expected = (version.is_empty())
                .then(|| version_bin(&root, "3.11.7"))
                .flatten();
            assert_eq!(program(&root, &named, &cwd), expected, "{version:?}");
        }
        std::fs::write(root.join("version"), "3.11.7\n3.12.1\n").unwrap();
        assert_eq!(program(&root, &[], &cwd), None, "two versions");
        // A `python3` that is not a shim.
        make_executable(
            &root.join("shims/python3"),
            "#!/bin/sh\nexec /usr/bin/python3 \"$@\"\n",
        );
        assert_eq!(program(&root, &[], &cwd), None);
    }

    #[test]
    fn an_interpreter_beside_the_shims_is_told_apart_by_its_first_bytes() {
        let (dir, root) = machine();
        // Machine code, as a real `python3` is: the shim's test reads its start only.
        let mut binary = b"\x7fELF\x02\x01".to_vec();
        binary.resize(3 << 20, 0x90);
        let program = dir.path().join("python3");
        std::fs::write(&program, &binary).unwrap();
        std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert!(script_head(&program).is_some_and(|head| head.len() as u64 <= 3 * SHIM_HEAD));
        let env = |name: &str| (name == "PATH").then(|| OsString::from("/nowhere"));
        assert_eq!(shimmed_program(&program, &env, dir.path()), None);
        let shim = root.join("shims/python3");
        assert_eq!(
            shimmed_program(&shim, &env, dir.path()),
            version_bin(&root, "3.11.7")
        );
    }
}
