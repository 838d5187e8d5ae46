//! What each Python file of a class defines, read by the grading interpreter itself.
//!
//! A small Python script (`probe.py`) compiles every candidate file once, in one process for
//! the whole class, and lists its top-level function and class names and the first reason it
//! cannot load (a syntax error, a module no finder can locate). Python's own parser is the
//! only one that agrees with the interpreter the submission runs on (version-specific syntax,
//! Python 2 leftovers, encoding errors), and the probe runs none of the student's code.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::error::{ClassError, Error};
use crate::execution::python::Interpreter;
use crate::execution::{self, Ending, Launch, Limits};

const PROBE: &str = include_str!("probe.py");
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
    /// The first reason the file does not load (line and message; the file is the caller's).
    pub error: Option<(usize, String)>,
    /// Top-level modules it imports unconditionally.
    pub imports: Vec<String>,
}

/// One file to read, and the folder its own modules are imported from.
#[derive(Debug, Clone)]
pub struct ProbeFile {
    pub path: PathBuf,
    pub root: PathBuf,
}

#[derive(Serialize)]
struct Request<'a> {
    /// Each file and its root as base64 of the path's bytes (a folder name need not be UTF-8,
    /// and one such name must not keep the whole class from being read).
    files: Vec<(String, String)>,
    provided: &'a [String],
}

fn path_bytes(path: &Path) -> String {
    use base64::Engine;
    use std::os::unix::ffi::OsStrExt;
    base64::engine::general_purpose::STANDARD.encode(path.as_os_str().as_bytes())
}

#[derive(Deserialize)]
struct Answer {
    names: Vec<String>,
    error: Option<AnswerError>,
    #[serde(default)]
    imports: Vec<String>,
}

#[derive(Deserialize)]
struct AnswerError {
    line: usize,
    message: String,
}

/// Reads `files` with `interpreter`; `provided` are modules the harness supplies (stubs).
/// The answer is in the order of `files`.
///
/// One probe reads the whole class, answering file by file. A file it cannot compile
/// within the run's time (megabytes of statements take Python minutes) is that student's:
/// it is answered as a file that does not load, and the probe goes on from the next file, so
/// no submission can keep a class from being read. Any other failure is the grader's.
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
    let scratch = tempfile::Builder::new()
        .prefix("boardgrade-probe-")
        .tempdir()
        .map_err(|e| Error::io("cannot create a scratch folder", e))?;
    let script = scratch.path().join("boardgrade_probe.py");
    std::fs::write(&script, PROBE)
        .map_err(|e| Error::io(format!("cannot write {}", script.display()), e))?;
    let mut answers: Vec<Definitions> = Vec::with_capacity(files.len());
    while answers.len() < files.len() {
        let rest = &files[answers.len()..];
        let (answered, stopped) = probe_run(interpreter, &script, rest, provided, wall)?;
        answers.extend(answered);
        if stopped.is_none() {
            continue;
        }
        // Stopped on the next file: it is tried alone, with the whole time to itself, before
        // its slowness is called the student's (a machine busy with other work is not).
        let next = &files[answers.len()..=answers.len()];
        let (alone, stopped) = probe_run(interpreter, &script, next, provided, wall)?;
        answers.extend(alone);
        if let Some(wall) = stopped {
            answers.push(Definitions {
                error: Some((1, too_slow(wall))),
                ..Definitions::default()
            });
        }
    }
    Ok(answers)
}

/// Why a file the probe could not compile in `wall` does not load.
fn too_slow(wall: Duration) -> String {
    format!(
        "the file cannot be compiled within {} s (it is too large to load)",
        wall.as_secs()
    )
}

/// One run of the probe (`script`) over `files`: the answers it gave, in order, and the
/// time limit it was stopped at when it timed out on the file after them.
fn probe_run(
    interpreter: &Interpreter,
    script: &Path,
    files: &[ProbeFile],
    provided: &[String],
    wall: Duration,
) -> Result<(Vec<Definitions>, Option<Duration>), Error> {
    // The probe runs in its own folder: relative paths are made absolute first.
    let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let request = Request {
        files: files
            .iter()
            .map(|f| {
                (
                    path_bytes(&absolute(&f.path)),
                    path_bytes(&absolute(&f.root)),
                )
            })
            .collect(),
        provided,
    };
    let input =
        serde_json::to_vec(&request).map_err(|e| Error::encode("the probe's request", e))?;
    let folder = script.parent().unwrap_or(script);
    let mut launch = Launch::new(
        &interpreter.executable,
        vec!["-B".into(), script.into()],
        folder.to_path_buf(),
    );
    launch.env = vec![("PYTHONIOENCODING".into(), "utf-8".into())];
    let limits = Limits {
        wall: wall + Duration::from_millis(200) * files.len() as u32,
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
                error: a.error.map(|e| (e.line, e.message)),
                imports: a.imports,
            })
        })
        .collect::<Result<_, _>>()
        .map_err(|e| failed(e.to_string()))?;
    match run.ending {
        Ending::Exited(0) if answers.len() == files.len() => Ok((answers, None)),
        Ending::Exited(0) => Err(failed(format!(
            "{} answers for {} files",
            answers.len(),
            files.len()
        ))),
        Ending::TimedOut if answers.len() < files.len() => Ok((answers, Some(limits.wall))),
        ending => Err(failed(format!("{ending:?}"))),
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

    #[test]
    fn a_file_too_slow_to_compile_is_its_own_and_the_files_after_it_are_read() {
        let Ok(interpreter) = crate::execution::python::resolve(Path::new("python3")) else {
            panic!("python3 is needed to read submissions");
        };
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
