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

use super::Interpreter;

/// The most answers kept: a machine has a few interpreters; past this the file starts over.
const MOST: usize = 64;

/// The file of kept answers.
#[derive(Debug, Clone)]
pub struct Answers {
    file: PathBuf,
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
        if let Some(found) = self.read().remove(&key) {
            return Ok(found);
        }
        let answer = ask()?;
        // Read again: another run may have kept an answer meanwhile.
        let mut kept = self.read();
        if kept.len() >= MOST {
            kept.clear();
        }
        kept.insert(key, answer.clone());
        if let Ok(text) = serde_json::to_vec(&kept) {
            let _ = crate::atomic::write(&self.file, &text);
        }
        Ok(answer)
    }

    /// The answers kept, or none when the file or its folder is not this user's alone.
    fn read(&self) -> BTreeMap<String, Interpreter> {
        self.read_own().unwrap_or_default()
    }

    /// The answers, read through descriptors: the folder, then the file in it, each opened
    /// without following a link and checked before a byte is read. An answer names the
    /// program that runs student code and the folders a sandbox shows: another user who
    /// could write the file, or swap it or its folder, could choose both.
    fn read_own(&self) -> Option<BTreeMap<String, Interpreter>> {
        use rustix::fs::{fstat, openat, Mode, OFlags, CWD};
        use std::io::Read;
        let folder = self.file.parent()?;
        let name = self.file.file_name()?;
        let own = |fd: &std::os::fd::OwnedFd| {
            fstat(fd).is_ok_and(|status| {
                status.st_uid == rustix::process::geteuid().as_raw() && status.st_mode & 0o022 == 0
            })
        };
        let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let dir = openat(CWD, folder, flags | OFlags::DIRECTORY, Mode::empty()).ok()?;
        if !own(&dir) {
            return None;
        }
        let file = openat(&dir, name, flags, Mode::empty()).ok()?;
        if !own(&file) {
            return None;
        }
        let mut text = Vec::new();
        std::fs::File::from(file)
            .take(1 << 20)
            .read_to_end(&mut text)
            .ok()?;
        serde_json::from_slice(&text).ok()
    }
}

/// What `program`'s answer depends on, as text; `None` when it is not a compiled program
/// named by an absolute path (or cannot be looked at).
fn key(program: &Path) -> Option<String> {
    if !program.is_absolute() {
        return None;
    }
    let real = std::fs::canonicalize(program).ok()?;
    let mut opened = std::fs::File::open(&real).ok()?;
    let mut head = [0u8; 4];
    std::io::Read::read_exact(&mut opened, &mut head).ok()?;
    if &head != b"\x7fELF" {
        return None;
    }
    let file = opened.metadata().ok()?;
    // Where the interpreter looks for a virtual environment's settings: beside the path
    // that runs it, and one folder up.
    let folder = program.parent()?;
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
        "{}|{}|{}|{}:{}:{}:{}.{}:{}.{}|{}|{}|{}",
        rustix::process::geteuid().as_raw(),
        program.to_str()?,
        real.to_str()?,
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

    /// The version `answers` gives for `program`, where asking would answer `asked`.
    fn version(answers: &Answers, program: &Path, asked: &str) -> String {
        let answer = answers.answer(program, || Ok::<_, ()>(answered(asked)));
        answer.unwrap().version
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
        let given = |version: &str| {
            let answer = answers.answer(&python, || {
                asked.set(asked.get() + 1);
                Ok::<_, ()>(answered(version))
            });
            answer.unwrap().version
        };
        assert_eq!(given("3.11.2"), "3.11.2");
        assert_eq!(given("3.12.0"), "3.11.2");
        assert_eq!(asked.get(), 1);
        // A virtual environment's settings beside it are another answer.
        std::fs::write(dir.path().join("venv/pyvenv.cfg"), "home = /usr/bin\n").unwrap();
        assert_eq!(given("3.12.0"), "3.12.0");
        // So is another program at the same path.
        std::fs::remove_file(&python).unwrap();
        compiled_program(&python);
        assert_eq!(given("3.13.0"), "3.13.0");
        assert_eq!(given("3.8.0"), "3.13.0");
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
        assert_eq!(version(&answers, &python, "3.11.2"), "3.11.2");
        let file = folder.join("interpreters.json");
        for (path, mode) in [(&file, 0o666), (&folder, 0o777)] {
            let before = std::fs::metadata(path).unwrap().permissions().mode();
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
            assert_eq!(
                version(&answers, &python, "3.12.0"),
                "3.12.0",
                "{}",
                path.display()
            );
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(before)).unwrap();
        }
        assert_eq!(version(&answers, &python, "3.13.0"), "3.12.0");
    }

    #[test]
    fn a_link_moved_to_another_install_of_the_same_program_is_asked_again() {
        let dir = tempfile::tempdir().unwrap();
        let answers = Answers::in_folder(&dir.path().join("cache"));
        // Two installs holding one program (hard links, as conda makes), and the path that
        // runs it a link to one of them.
        let (one, other) = (dir.path().join("one"), dir.path().join("other"));
        for install in [&one, &other] {
            std::fs::create_dir_all(install.join("bin")).unwrap();
        }
        compiled_program(&one.join("bin/python3"));
        std::fs::hard_link(one.join("bin/python3"), other.join("bin/python3")).unwrap();
        let python = dir.path().join("python3");
        std::os::unix::fs::symlink(one.join("bin/python3"), &python).unwrap();
        assert_eq!(version(&answers, &python, "3.11.2"), "3.11.2");
        std::fs::remove_file(&python).unwrap();
        std::os::unix::fs::symlink(other.join("bin/python3"), &python).unwrap();
        assert_eq!(version(&answers, &python, "3.12.0"), "3.12.0");
    }

    #[test]
    fn an_unreadable_cache_is_no_cache() {
        let dir = tempfile::tempdir().unwrap();
        let answers = Answers::in_folder(dir.path());
        std::fs::write(dir.path().join("interpreters.json"), "not json").unwrap();
        let python = dir.path().join("python3");
        compiled_program(&python);
        assert_eq!(version(&answers, &python, "3.11.2"), "3.11.2");
        assert_eq!(version(&answers, &python, "3.12.0"), "3.11.2");
    }
}
