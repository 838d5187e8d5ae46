//! What an interpreter said of itself, kept between runs: asking costs a Python start on
//! every `test --python` and `grade`, and the answer of a given program stays the same.
//!
//! An answer is kept only for a compiled program (an ELF file), whose answer depends on
//! nothing but itself, the path it is run by, the `pyvenv.cfg` that path finds and
//! `PYTHONHOME`: all of which the key holds (the program's file by device, inode, size and
//! change times). A script (a shim of pyenv, asdf or conda, a wrapper) may run another
//! program on every start, depending on its folder or environment, and is asked each time.
//! A cache that cannot be read or written is the same as none.

use std::collections::BTreeMap;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::Interpreter;

/// The most answers kept: a machine has a few interpreters; past this the file starts over.
const MOST: usize = 64;

/// The file of kept answers.
#[derive(Debug, Clone)]
pub struct Answers {
    file: PathBuf,
}

#[derive(Serialize, Deserialize)]
struct Kept {
    executable: PathBuf,
    version: String,
    prefixes: Vec<PathBuf>,
}

impl Answers {
    /// The answers in the user's cache folder (`$XDG_CACHE_HOME/boardgrade`, else
    /// `~/.cache/boardgrade`); none without either.
    pub fn of_user() -> Option<Answers> {
        let env = |name| {
            std::env::var_os(name)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        let folder = env("XDG_CACHE_HOME").or_else(|| Some(env("HOME")?.join(".cache")))?;
        Some(Answers::in_folder(&folder.join("boardgrade")))
    }

    /// The answers kept in `folder`.
    pub fn in_folder(folder: &Path) -> Answers {
        Answers {
            file: folder.join("interpreters.json"),
        }
    }

    /// The answer of `program` (the file that would run, found on PATH for a bare name):
    /// the one kept for it, or `ask`'s, kept when it is an answer.
    pub fn answer<E>(
        &self,
        program: &Path,
        ask: impl FnOnce() -> Result<Interpreter, E>,
    ) -> Result<Interpreter, E> {
        let Some(key) = key(program) else {
            return ask();
        };
        let mut kept = self.read();
        if let Some(found) = kept.remove(&key) {
            return Ok(Interpreter {
                executable: found.executable,
                version: found.version,
                prefixes: found.prefixes,
            });
        }
        let answer = ask()?;
        // Read again: another run may have kept an answer meanwhile.
        let mut kept = self.read();
        if kept.len() >= MOST {
            kept.clear();
        }
        kept.insert(
            key,
            Kept {
                executable: answer.executable.clone(),
                version: answer.version.clone(),
                prefixes: answer.prefixes.clone(),
            },
        );
        if let Ok(text) = serde_json::to_vec(&kept) {
            let _ = crate::atomic::write(&self.file, &text);
        }
        Ok(answer)
    }

    /// The answers kept, when the file and its folder are this user's alone: an answer
    /// names the program that runs student code and the folders a sandbox shows, and
    /// another user who could write them could choose both.
    fn read(&self) -> BTreeMap<String, Kept> {
        let own = |path: &Path| {
            std::fs::metadata(path).is_ok_and(|m| {
                m.uid() == rustix::process::geteuid().as_raw() && m.mode() & 0o022 == 0
            })
        };
        let folder = self.file.parent().unwrap_or(Path::new("."));
        if !own(&self.file) || !own(folder) {
            return BTreeMap::new();
        }
        std::fs::read(&self.file)
            .ok()
            .and_then(|text| serde_json::from_slice(&text).ok())
            .unwrap_or_default()
    }
}

/// What `program`'s answer depends on, as text; `None` when it is not a compiled program
/// (or cannot be looked at).
fn key(program: &Path) -> Option<String> {
    let path = locate(program, &std::env::var_os("PATH")?)?;
    let file = std::fs::metadata(&path).ok()?;
    let mut head = [0u8; 4];
    use std::io::Read;
    std::fs::File::open(&path)
        .ok()?
        .read_exact(&mut head)
        .ok()?;
    if &head != b"\x7fELF" {
        return None;
    }
    let folder = path.parent()?;
    // Where the interpreter looks for a virtual environment's settings.
    let settings = [
        folder.join("pyvenv.cfg"),
        folder.parent()?.join("pyvenv.cfg"),
    ]
    .map(|cfg| {
        std::fs::metadata(cfg).map_or_else(
            |_| "-".to_string(),
            |m| format!("{}:{}:{}:{}", m.ino(), m.size(), m.mtime(), m.mtime_nsec()),
        )
    });
    let home = std::env::var_os("PYTHONHOME").unwrap_or_default();
    Some(format!(
        "{}|{}|{}:{}:{}:{}.{}:{}.{}|{}|{}|{}",
        rustix::process::geteuid().as_raw(),
        path.to_str()?,
        file.dev(),
        file.ino(),
        file.size(),
        file.mtime(),
        file.mtime_nsec(),
        file.ctime(),
        file.ctime_nsec(),
        settings[0],
        settings[1],
        home.to_str()?,
    ))
}

/// The file `program` names: itself when it has a folder, else the first executable file
/// of that name on `path` (the PATH), as a program is started. `None` where that file
/// depends on the folder the program is started from (a relative path, or a relative PATH
/// entry before the file is found).
fn locate(program: &Path, path: &std::ffi::OsStr) -> Option<PathBuf> {
    if program.components().count() > 1 {
        return program.is_absolute().then(|| program.to_path_buf());
    }
    for folder in std::env::split_paths(path) {
        if !folder.is_absolute() {
            return None;
        }
        let file = folder.join(program);
        if crate::execution::sys::is_executable_file(&file) {
            return Some(file);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    fn answered(version: &str) -> Interpreter {
        Interpreter {
            executable: PathBuf::from("/opt/python/bin/python3"),
            version: version.to_string(),
            prefixes: vec![PathBuf::from("/opt/python")],
        }
    }

    /// A copy of a compiled program (this test's own binary) at `path`.
    fn compiled_program(path: &Path) {
        std::fs::copy(std::env::current_exe().unwrap(), path).unwrap();
    }

    #[test]
    fn a_compiled_program_is_asked_once_until_it_or_its_settings_change() {
        let dir = tempfile::tempdir().unwrap();
        let answers = Answers::in_folder(&dir.path().join("cache"));
        let bin = dir.path().join("venv/bin");
        std::fs::create_dir_all(&bin).unwrap();
        let python = bin.join("python3");
        compiled_program(&python);
        let asked = Cell::new(0);
        let ask = |version: &'static str| {
            let asked = &asked;
            move || {
                asked.set(asked.get() + 1);
                Ok::<_, ()>(answered(version))
            }
        };
        assert_eq!(
            answers.answer(&python, ask("3.11.2")).unwrap().version,
            "3.11.2"
        );
        assert_eq!(
            answers.answer(&python, ask("3.12.0")).unwrap().version,
            "3.11.2"
        );
        assert_eq!(asked.get(), 1);
        // A virtual environment's settings beside it are another answer.
        std::fs::write(dir.path().join("venv/pyvenv.cfg"), "home = /usr/bin\n").unwrap();
        assert_eq!(
            answers.answer(&python, ask("3.12.0")).unwrap().version,
            "3.12.0"
        );
        // So is another program at the same path.
        std::fs::remove_file(&python).unwrap();
        compiled_program(&python);
        assert_eq!(
            answers.answer(&python, ask("3.13.0")).unwrap().version,
            "3.13.0"
        );
        assert_eq!(
            answers.answer(&python, ask("3.8.0")).unwrap().version,
            "3.13.0"
        );
        assert_eq!(asked.get(), 3);
    }

    #[test]
    fn a_script_and_a_failed_answer_are_asked_every_time() {
        let dir = tempfile::tempdir().unwrap();
        let answers = Answers::in_folder(dir.path());
        let shim = dir.path().join("python3");
        std::fs::write(&shim, "#!/bin/sh\nexec python3 \"$@\"\n").unwrap();
        let asked = Cell::new(0);
        let ask = || {
            asked.set(asked.get() + 1);
            Ok::<_, ()>(answered("3.11.2"))
        };
        answers.answer(&shim, ask).unwrap();
        answers.answer(&shim, ask).unwrap();
        assert_eq!(asked.get(), 2);
        let python = dir.path().join("python");
        compiled_program(&python);
        assert!(answers
            .answer(&python, || Err::<Interpreter, _>("no"))
            .is_err());
        assert!(answers.answer(&python, ask).is_ok());
        assert_eq!(asked.get(), 3);
    }

    #[test]
    fn answers_another_user_could_have_written_are_not_taken() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("cache");
        let answers = Answers::in_folder(&folder);
        let python = dir.path().join("python3");
        compiled_program(&python);
        let first = answers.answer(&python, || Ok::<_, ()>(answered("3.11.2")));
        assert_eq!(first.unwrap().version, "3.11.2");
        let file = folder.join("interpreters.json");
        for (path, mode) in [(&file, 0o666), (&folder, 0o777)] {
            let before = std::fs::metadata(path).unwrap().permissions().mode();
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
            let asked = answers.answer(&python, || Ok::<_, ()>(answered("3.12.0")));
            assert_eq!(asked.unwrap().version, "3.12.0", "{}", path.display());
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(before)).unwrap();
        }
        let kept = answers.answer(&python, || Ok::<_, ()>(answered("3.13.0")));
        assert_eq!(kept.unwrap().version, "3.12.0");
    }

    #[test]
    fn a_program_is_found_as_it_would_be_started_or_not_at_all() {
        let dir = tempfile::tempdir().unwrap();
        let (first, second) = (dir.path().join("first"), dir.path().join("second"));
        std::fs::create_dir_all(&first).unwrap();
        std::fs::create_dir_all(&second).unwrap();
        compiled_program(&second.join("python3"));
        let path = |folders: &[&Path]| std::env::join_paths(folders).unwrap();
        let python = Path::new("python3");
        let found = locate(python, &path(&[&first, &second]));
        assert_eq!(found, Some(second.join("python3")));
        // A relative folder searched first would be searched from where the program starts.
        let relative = locate(python, &path(&[Path::new("bin"), &second]));
        assert_eq!(relative, None);
        assert_eq!(
            locate(Path::new("venv/bin/python3"), &path(&[&second])),
            None
        );
        let absolute = second.join("python3");
        assert_eq!(locate(&absolute, &path(&[])), Some(absolute.clone()));
    }

    #[test]
    fn an_unreadable_cache_is_no_cache() {
        let dir = tempfile::tempdir().unwrap();
        let answers = Answers::in_folder(dir.path());
        std::fs::write(dir.path().join("interpreters.json"), "not json").unwrap();
        let python = dir.path().join("python3");
        compiled_program(&python);
        let answer = answers.answer(&python, || Ok::<_, ()>(answered("3.11.2")));
        assert_eq!(answer.unwrap().version, "3.11.2");
        let again = answers.answer(&python, || Ok::<_, ()>(answered("3.12.0")));
        assert_eq!(again.unwrap().version, "3.11.2");
    }
}
