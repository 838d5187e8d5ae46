//! What each Python file of a class defines, read by the grading interpreter itself.
//!
//! A small Python script (`probe.py`) compiles every candidate file once, in one process for
//! the whole class, and lists its top-level function, class and variable names and the first
//! reason it cannot load (a syntax error, a module no finder can locate). Python's own parser
//! is the only one that agrees with the interpreter the submission runs on (version-specific
//! syntax, Python 2 leftovers, encoding errors), and the probe runs none of the student's
//! code.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::error::{ClassError, Error};
use crate::execution::python::Interpreter;
use crate::execution::{self, Ending, Launch, Limits};

const PROBE: &str = include_str!("probe.py");
/// The probe's file name in its scratch folder.
const SCRIPT: &str = "boardgrade_probe.py";
/// Time a run of the probe has, and 0.2 s more per file: compiling is fast, and this is
/// generous for very large uploads.
const PROBE_WALL: Duration = Duration::from_secs(30);
/// Address space the probe may use: far more than compiling any real submission takes.
const PROBE_MEMORY_BYTES: u64 = 4 << 30;

/// Why a file cannot be loaded: the interpreter's message at a line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct LoadError {
    /// The file, relative to its submission.
    pub file: String,
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.message)
    }
}

/// What one file defines.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Definitions {
    /// Top-level `def` and `class` names.
    pub names: Vec<String>,
    /// Top-level variable names (`game_board = {}`): what a handout may ask for besides
    /// functions. Apart from `names`, so no variable is suggested for a missing function.
    pub variables: Vec<String>,
    /// The first reason the file does not load (line and message; the file is the caller's).
    pub error: Option<(usize, String)>,
    /// Top-level modules it imports unconditionally.
    pub imports: Vec<String>,
    /// Modules it takes every name of (`from helpers import *`), as written.
    pub star_imports: Vec<String>,
    /// The names of its literal `__all__`, where it has one: what a star import of it takes.
    pub exports: Option<Vec<String>>,
    /// The names of `names` it only takes with `from module import name`, each with its
    /// module as written (a relative one with its dots).
    pub taken: Vec<(String, String)>,
    /// Whether its code reads standard input anywhere (`input`, `sys.stdin`): a file that
    /// reads none cannot play a game typed into it.
    pub reads_stdin: bool,
    /// For a Python 2 program, read (and run) as its 2to3 translation: the error Python 3
    /// gives on it (line and message).
    pub python2: Option<(usize, String)>,
}

impl Definitions {
    /// Whether the file binds `name` at its top level, as a function, a class or a variable.
    pub fn binds(&self, name: &str) -> bool {
        self.names.iter().chain(&self.variables).any(|n| n == name)
    }
}

/// One file to read, and the folder its own modules are imported from.
#[derive(Debug, Clone)]
pub struct ProbeFile {
    pub path: PathBuf,
    pub root: PathBuf,
}

/// What the probe reads on stdin: the modules the harness provides on a first line, then a
/// line per file, `PATH ROOT`, each as base64 of the path's bytes (a folder name need not
/// be UTF-8, and one such name must not keep the whole class from being read). Lines, not
/// JSON: the probe's start is on every class run's way, and `json` would double it.
fn request(files: &[(&Path, &Path)], provided: &[String]) -> Vec<u8> {
    let mut text = provided.join(" ");
    for (path, root) in files {
        text.push('\n');
        text.push_str(&path_bytes(path));
        text.push(' ');
        text.push_str(&path_bytes(root));
    }
    text.push('\n');
    text.into_bytes()
}

fn path_bytes(path: &Path) -> String {
    use base64::Engine;
    use std::os::unix::ffi::OsStrExt;
    base64::engine::general_purpose::STANDARD.encode(path.as_os_str().as_bytes())
}

#[derive(Deserialize)]
struct Answer {
    names: Vec<String>,
    #[serde(default)]
    variables: Vec<String>,
    error: Option<AnswerError>,
    #[serde(default)]
    imports: Vec<String>,
    #[serde(default)]
    star: Vec<String>,
    #[serde(default)]
    all: Option<Vec<String>>,
    #[serde(default)]
    taken: Vec<(String, String)>,
    #[serde(default)]
    stdin: bool,
    #[serde(default)]
    python2: Option<AnswerError>,
}

#[derive(Deserialize)]
struct AnswerError {
    line: usize,
    message: String,
}

/// Reads `files` with `interpreter`; `provided` are modules the harness supplies (stubs).
/// The answer is in the order of `files`.
///
/// One probe reads the whole class, answering file by file. A file the probe stops on, and
/// stops on again alone (one too slow to compile, say: megabytes of statements take Python
/// minutes), is that student's: it is answered as a file that does not load, and the probe
/// goes on from the next file, so no submission can keep a class from being read. A probe
/// that cannot read an ordinary file either is the grader's failure.
pub fn probe(
    interpreter: &Interpreter,
    files: &[ProbeFile],
    provided: &[String],
) -> Result<Vec<Definitions>, Error> {
    probe_within(interpreter, files, provided, PROBE_WALL)
}

/// [`probe`], each run of the probe given `wall` and a little more per file.
fn probe_within(
    interpreter: &Interpreter,
    files: &[ProbeFile],
    provided: &[String],
    wall: Duration,
) -> Result<Vec<Definitions>, Error> {
    if files.is_empty() {
        return Ok(Vec::new());
    }
    Probe::new(interpreter, provided, wall)?.read(files)
}

/// The probe of one class: its script, in a scratch folder of its own, and what each of its
/// runs is given.
struct Probe<'a> {
    interpreter: &'a Interpreter,
    provided: &'a [String],
    wall: Duration,
    scratch: tempfile::TempDir,
}

/// A run of the probe that ended before answering every file.
struct Stopped {
    /// Why the file it stopped on does not load, when the file is found to be the cause.
    why: String,
    /// The grader's failure, when it is not.
    failure: Error,
}

impl<'a> Probe<'a> {
    fn new(
        interpreter: &'a Interpreter,
        provided: &'a [String],
        wall: Duration,
    ) -> Result<Self, Error> {
        let scratch = tempfile::Builder::new()
            .prefix("boardgrade-probe-")
            .tempdir()
            .map_err(|e| Error::io("cannot create a scratch folder", e))?;
        let probe = Probe {
            interpreter,
            provided,
            wall,
            scratch,
        };
        probe.write(SCRIPT, PROBE)?;
        let (reading, text) = crate::execution::python::SOURCE_READING;
        probe.write(reading, text)?;
        Ok(probe)
    }

    /// Writes `text` to the file `name` of the scratch folder, and gives its path.
    fn write(&self, name: &str, text: &str) -> Result<PathBuf, Error> {
        let path = self.scratch.path().join(name);
        std::fs::write(&path, text)
            .map_err(|e| Error::io(format!("cannot write {}", path.display()), e))?;
        Ok(path)
    }

    /// Every file's answer, going on past the files the probe stops on.
    fn read(&self, files: &[ProbeFile]) -> Result<Vec<Definitions>, Error> {
        let mut answers: Vec<Definitions> = Vec::with_capacity(files.len());
        let mut reads_ordinary_files = None;
        while answers.len() < files.len() {
            let (answered, stopped) = self.run(&files[answers.len()..])?;
            answers.extend(answered);
            if stopped.is_none() {
                continue;
            }
            // Stopped on the next file: it is tried alone, with the whole time and output to
            // itself, before the failure is called the student's (a machine busy with other
            // work, or the answers of a large class, are not).
            let (alone, stopped) = self.run(&files[answers.len()..=answers.len()])?;
            answers.extend(alone);
            let Some(stopped) = stopped else {
                continue;
            };
            // Alone too: the file's, if the probe reads an ordinary file at all; else the
            // interpreter fails, whatever it reads, and that is the grader's.
            let ordinary = match reads_ordinary_files {
                Some(reads) => reads,
                None => *reads_ordinary_files.insert(self.reads_an_ordinary_file()?),
            };
            if !ordinary {
                return Err(stopped.failure);
            }
            answers.push(Definitions {
                error: Some((1, stopped.why)),
                ..Definitions::default()
            });
        }
        Ok(answers)
    }

    /// Whether the probe reads an ordinary file (one assignment) in its own folder.
    fn reads_an_ordinary_file(&self) -> Result<bool, Error> {
        let file = ProbeFile {
            path: self.write("ordinary.py", "x = 1\n")?,
            root: self.scratch.path().to_path_buf(),
        };
        let (_, stopped) = self.run(&[file])?;
        Ok(stopped.is_none())
    }

    /// One run of the probe over `files`: the answers it gave, in order, and how it stopped
    /// when it did not answer them all.
    fn run(&self, files: &[ProbeFile]) -> Result<(Vec<Definitions>, Option<Stopped>), Error> {
        // The probe runs in its own folder: relative paths are made absolute first.
        let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
        let absolute: Vec<(PathBuf, PathBuf)> = (files.iter())
            .map(|f| (absolute(&f.path), absolute(&f.root)))
            .collect();
        let paths: Vec<(&Path, &Path)> = (absolute.iter())
            .map(|(path, root)| (path.as_path(), root.as_path()))
            .collect();
        let input = request(&paths, self.provided);
        let folder = self.scratch.path();
        let script = folder.join(SCRIPT);
        let mut launch = Launch::new(
            &self.interpreter.executable,
            vec!["-B".into(), script.into()],
            folder.to_path_buf(),
        );
        launch.env = vec![("PYTHONIOENCODING".into(), "utf-8".into())];
        let limits = Limits {
            wall: self.wall + Duration::from_millis(200) * files.len() as u32,
            output_bytes: 64 << 20,
            // A file whose tree would take more is a MemoryError, answered as not loading.
            memory_bytes: Some(PROBE_MEMORY_BYTES),
            ..Limits::default()
        };
        let run = execution::run(&launch, &input, &limits);
        let failed = |why: String| {
            Error::from(ClassError::Probe {
                why,
                stderr: String::from_utf8_lossy(&run.stderr_tail).trim().to_string(),
            })
        };
        // Each answer is a whole line, written as its file is read.
        let text = String::from_utf8_lossy(&run.stdout);
        let complete = text.rfind('\n').map_or("", |end| &text[..end]);
        let answers: Vec<Definitions> = complete
            .lines()
            .map(|line| {
                serde_json::from_str::<Answer>(line).map(|a| Definitions {
                    names: a.names,
                    variables: a.variables,
                    error: a.error.map(|e| (e.line, e.message)),
                    imports: a.imports,
                    star_imports: a.star,
                    exports: a.all,
                    taken: a.taken,
                    reads_stdin: a.stdin,
                    python2: a.python2.map(|e| (e.line, e.message)),
                })
            })
            .collect::<Result<_, _>>()
            .map_err(|e| failed(e.to_string()))?;
        if answers.len() == files.len() {
            return Ok((answers, None));
        }
        let stopped = Stopped {
            why: stopped_on(&run.ending, limits.wall),
            failure: failed(match run.ending {
                Ending::Exited(0) => format!("{} answers for {} files", answers.len(), files.len()),
                ref ending => format!("{ending:?}"),
            }),
        };
        Ok((answers, Some(stopped)))
    }
}

/// Why a file the probe stopped on (at `ending`, given `wall`) does not load.
fn stopped_on(ending: &Ending, wall: Duration) -> String {
    match ending {
        Ending::TimedOut => format!(
            "the file cannot be compiled within {} s (it is too large to load)",
            wall.as_secs()
        ),
        Ending::OutputLimit => "the file defines more than the grader can list".to_string(),
        ending => format!("the grader cannot read the file's definitions ({ending:?})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(dir: &Path, name: &str, text: &str) -> ProbeFile {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        ProbeFile {
            path,
            root: dir.to_path_buf(),
        }
    }

    fn python3() -> Interpreter {
        crate::execution::python::resolve(Path::new("python3"))
            .expect("python3 is needed to read submissions")
    }

    /// Folders nested past Python's recursion limit, and names too long to list, are read
    /// like any other submission: the probe answers for every file of the class.
    #[test]
    fn no_submission_tree_or_name_stops_the_probe() {
        let dir = tempfile::tempdir().unwrap();
        let mut deep = dir.path().join("mallory");
        std::fs::create_dir_all(&deep).unwrap();
        let mallory = file(&deep, "one_d_chess.py", "def create_board():\n    pass\n");
        for _ in 0..1100 {
            deep.push("a");
        }
        std::fs::create_dir_all(&deep).unwrap();
        let long = format!(
            "def {}():\n    pass\ndef move():\n    pass\n",
            "n".repeat(100_000)
        );
        let names = file(dir.path(), "names.py", &long);
        let answers = probe(&python3(), &[mallory, names], &[]).unwrap();
        assert_eq!(answers[0].names, ["create_board"]);
        assert_eq!(answers[0].error, None);
        assert_eq!(answers[1].names, ["move"]);
    }

    #[test]
    fn a_file_too_slow_to_compile_is_its_own_and_the_files_after_it_are_read() {
        let interpreter = python3();
        let dir = tempfile::tempdir().unwrap();
        let files = [
            file(dir.path(), "first.py", "def create_board():\n    pass\n"),
            // Python takes seconds to compile a million statements.
            file(dir.path(), "table.py", &"x = 1\n".repeat(1_500_000)),
            file(dir.path(), "last.py", "def move(board):\n    pass\n"),
        ];
        let answers = probe_within(&interpreter, &files, &[], Duration::from_secs(2)).unwrap();
        assert_eq!(answers.len(), 3);
        assert_eq!(answers[0].names, ["create_board"]);
        let (line, message) = answers[1].error.clone().unwrap();
        assert_eq!(line, 1);
        assert!(message.contains("cannot be compiled within"), "{message}");
        assert_eq!(answers[2].names, ["move"]);
        assert_eq!(answers[2].error, None);
    }
}
