//! The bubblewrap command line that shows a student program only its submission: the system's
//! read-only folders (`/usr` and the `/bin`, `/lib` links), its scratch folder, a private
//! `/tmp`, `/dev/shm`, `/dev` and `/proc` (its own root and `/dev` read-only, so that the
//! scratch folder, `/tmp` and `/dev/shm` are all it writes), every namespace unshared, a
//! clean environment, and nothing of the grader (no binary, specs, results or checkout; a
//! copy of the grader binary in a system folder is covered by an empty file).
//!
//! Inside, a shell reports on descriptor 3 that the sandbox is set up before it runs the
//! program (and closes that descriptor, so the program cannot report anything): a run with
//! no report is a sandbox that failed, the harness's fault and not the student's.

use std::ffi::{OsStr, OsString};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::confine::STARTED_FD;
use crate::execution::spawn::Launch;

/// What the start report says.
pub const STARTED: &str = "sandbox-started";

/// Folders of the system a program needs (read-only), or links to them.
pub const SYSTEM: &[&str] = &[
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
];
/// Folders of the sandbox's own that no program writes in, made read-only last (each mount
/// alone: what is mounted under them keeps its own mode).
const READ_ONLY: &[&str] = &["/dev", "/"];
/// Files of `/etc` that programs and Python read, when present.
const ETC: &[&str] = &[
    "/etc/alternatives",
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/localtime",
];

/// The bubblewrap program (`BOARDGRADE_BWRAP` names another one).
pub fn program() -> PathBuf {
    std::env::var_os("BOARDGRADE_BWRAP")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("bwrap"))
}

/// What a wrapped program may see besides the system.
#[derive(Debug, Clone, Default)]
pub struct View {
    /// Its scratch folder, writable.
    pub writable: PathBuf,
    /// Folders or files shown read-only (an interpreter outside the system folders, the
    /// folder a `--cmd` runs in).
    pub readable: Vec<PathBuf>,
    /// Paths covered even where a folder above is shown (specs, copies of the grader).
    pub hidden: Vec<PathBuf>,
}

/// `launch` inside bubblewrap, showing it `view` only.
pub fn wrap(launch: &Launch, view: &View) -> Launch {
    let mut args: Vec<OsString> = [
        "--unshare-all",
        "--die-with-parent",
        "--new-session",
        "--clearenv",
        "--dev",
        "/dev",
        "--proc",
        "/proc",
        "--tmpfs",
        "/tmp",
        // A `/dev/shm` of its own: the rest of `/dev` is made read-only below.
        "--tmpfs",
        "/dev/shm",
    ]
    .iter()
    .map(OsString::from)
    .collect();
    args.extend(system_args().iter().cloned());
    for path in &view.readable {
        pair(&mut args, "--ro-bind", path.as_os_str(), path.as_os_str());
    }
    pair(
        &mut args,
        "--bind",
        view.writable.as_os_str(),
        view.writable.as_os_str(),
    );
    let shown = |path: &Path| {
        SYSTEM.iter().any(|d| path.starts_with(d))
            || view.readable.iter().any(|r| path.starts_with(r))
            || path.starts_with(&view.writable)
    };
    for path in view
        .hidden
        .iter()
        .chain(grader_copies())
        .filter(|p| shown(p))
    {
        if path.is_dir() {
            args.extend(["--tmpfs".into(), path.into()]);
        } else if path.exists() {
            pair(
                &mut args,
                "--ro-bind",
                OsStr::new("/dev/null"),
                path.as_os_str(),
            );
        }
    }
    // Bubblewrap's own root and `/dev` are folders of the student's user: a file left there
    // would outlive its scenario, and a loaded runner's scenarios all share them (only `/tmp`,
    // `/dev/shm` and the scratch folder are put back after each). Read-only once every
    // mount point is made, so those three are all a program may write (a device such as
    // `/dev/null` is still written to).
    for folder in READ_ONLY {
        args.extend(["--remount-ro".into(), folder.into()]);
    }
    for (key, value) in &launch.env {
        args.extend(["--setenv".into(), key.clone(), value.clone()]);
    }
    args.extend(["--chdir".into(), launch.cwd.clone().into(), "--".into()]);
    // The shell reports the sandbox set up, closes the report's descriptor, becomes the program.
    args.extend([
        "/bin/sh".into(),
        "-c".into(),
        format!("printf {STARTED} >&{STARTED_FD}; exec {STARTED_FD}>&-; exec \"$@\"").into(),
        "sh".into(),
        launch.program.clone().into(),
    ]);
    args.extend(launch.args.iter().cloned());
    Launch {
        program: program(),
        args,
        env: Vec::new(),
        ..launch.clone()
    }
}

fn pair(args: &mut Vec<OsString>, flag: &str, a: &OsStr, b: &OsStr) {
    args.extend([flag.into(), a.to_os_string(), b.to_os_string()]);
}

/// The arguments that show the system (its folders or their links, the files of `/etc`
/// programs read), read from the machine once per run: every sandbox of a class shows the
/// same system, and reading it again (links, `/etc`'s listing) cost each start.
fn system_args() -> &'static [OsString] {
    static ARGS: OnceLock<Vec<OsString>> = OnceLock::new();
    ARGS.get_or_init(|| {
        let mut args = Vec::new();
        for dir in SYSTEM.iter().map(Path::new) {
            match std::fs::read_link(dir) {
                Ok(target) => pair(&mut args, "--symlink", target.as_os_str(), dir.as_os_str()),
                Err(_) if dir.is_dir() => {
                    pair(&mut args, "--ro-bind", dir.as_os_str(), dir.as_os_str())
                }
                Err(_) => {}
            }
        }
        let etc = ETC.iter().map(PathBuf::from).filter(|p| p.exists());
        for file in etc.chain(etc_python()) {
            pair(&mut args, "--ro-bind", file.as_os_str(), file.as_os_str());
        }
        args
    })
}

/// `/etc/python3*` (Debian's Python reads its `sitecustomize` there).
fn etc_python() -> Vec<PathBuf> {
    std::fs::read_dir("/etc")
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| e.file_name().to_string_lossy().starts_with("python"))
                .map(|e| e.path())
                .collect()
        })
        .unwrap_or_default()
}

/// Copies of the running grader in the system's program folders: a student program must not
/// use the grader's reference engine as its oracle. Found once per run (see [`copies_of`]).
fn grader_copies() -> &'static [PathBuf] {
    static COPIES: OnceLock<Vec<PathBuf>> = OnceLock::new();
    COPIES.get_or_init(|| {
        let Ok(me) = std::env::current_exe() else {
            return Vec::new();
        };
        let path = std::env::var_os("PATH")
            .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
            .unwrap_or_default();
        let standard = ["/usr/local/bin", "/usr/bin", "/usr/local/sbin"].map(PathBuf::from);
        copies_of(&me, path.iter().chain(&standard))
    })
}

/// The files of `folders` that are `me`: named `boardgrade*`, or of its size and content.
/// Each folder is read once however often it is named or linked (`/bin` is `/usr/bin` on
/// most systems, and the PATH repeats folders): the size of each entry is asked of its
/// folder, not walked to from the root, and content is compared only for an equal size.
fn copies_of<'a>(me: &Path, folders: impl IntoIterator<Item = &'a PathBuf>) -> Vec<PathBuf> {
    let Ok(size) = std::fs::metadata(me).map(|m| m.size()) else {
        return Vec::new();
    };
    let mut own: Option<Vec<u8>> = None;
    let mut read: Vec<PathBuf> = Vec::new();
    let mut found = Vec::new();
    for folder in folders {
        let Ok(real) = folder.canonicalize() else {
            continue;
        };
        if read.contains(&real) {
            continue;
        }
        let Ok(entries) = std::fs::read_dir(&real) else {
            continue;
        };
        read.push(real);
        for entry in entries.flatten() {
            let named = entry
                .file_name()
                .to_string_lossy()
                .starts_with("boardgrade");
            // A link is judged by what it names, as running it would.
            let metadata = match entry.file_type() {
                Ok(kind) if kind.is_symlink() => std::fs::metadata(entry.path()),
                _ => entry.metadata(),
            };
            let same_size = metadata.is_ok_and(|m| m.is_file() && m.size() == size);
            if !(same_size || named) {
                continue;
            }
            let path = entry.path();
            let same = named || {
                let own = own.get_or_insert_with(|| std::fs::read(me).unwrap_or_default());
                std::fs::read(&path).is_ok_and(|bytes| bytes == *own)
            };
            if same && !found.contains(&path) {
                found.push(path);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_of_the_grader_is_found_once_by_content_or_name() {
        let dir = tempfile::tempdir().unwrap();
        let me = dir.path().join("grader");
        std::fs::write(&me, b"the grader's bytes").unwrap();
        let bin = dir.path().join("bin");
        std::fs::create_dir(&bin).unwrap();
        std::fs::write(bin.join("renamed"), b"the grader's bytes").unwrap();
        std::fs::write(bin.join("same-size"), b"another program!!!").unwrap();
        std::fs::write(bin.join("boardgrade-old"), b"an older grader").unwrap();
        std::fs::write(bin.join("python3"), b"an interpreter").unwrap();
        std::os::unix::fs::symlink(&me, bin.join("linked")).unwrap();
        // The same folder under another name, as `/bin` is `/usr/bin`.
        let alias = dir.path().join("alias");
        std::os::unix::fs::symlink(&bin, &alias).unwrap();
        let mut found = copies_of(&me, [&bin, &alias, &bin, &dir.path().join("none")]);
        found.sort();
        let names: Vec<_> = found
            .iter()
            .map(|p| p.strip_prefix(&bin).unwrap().to_str().unwrap())
            .collect();
        assert_eq!(names, ["boardgrade-old", "linked", "renamed"]);
    }
}
