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
pub fn probe(
    interpreter: &Interpreter,
    files: &[ProbeFile],
    provided: &[String],
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
    // The probe runs in its own folder: relative paths are made absolute first.
    let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let absolute: Vec<(PathBuf, PathBuf)> = files
        .iter()
        .map(|f| (absolute(&f.path), absolute(&f.root)))
        .collect();
    let request = Request {
        files: absolute
            .iter()
            .map(|(path, root)| (path_bytes(path), path_bytes(root)))
            .collect(),
        provided,
    };
    let input =
        serde_json::to_vec(&request).map_err(|e| Error::encode("the probe's request", e))?;
    let mut launch = Launch::new(
        &interpreter.executable,
        vec!["-B".into(), script.into()],
        scratch.path().to_path_buf(),
    );
    launch.env = vec![("PYTHONIOENCODING".into(), "utf-8".into())];
    let limits = Limits {
        // Compiling is fast; a generous budget per file for very large uploads.
        wall: Duration::from_secs(30) + Duration::from_millis(200) * files.len() as u32,
        output_bytes: 64 << 20,
        ..Limits::default()
    };
    let run = execution::run(&launch, &input, &limits);
    let failed = |why: String| {
        Error::from(ClassError::Probe {
            why,
            stderr: String::from_utf8_lossy(&run.stderr_tail).trim().to_string(),
        })
    };
    if run.ending != Ending::Exited(0) {
        return Err(failed(format!("{:?}", run.ending)));
    }
    let text = String::from_utf8_lossy(&run.stdout);
    let answers: Vec<Definitions> = text
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
    if answers.len() != files.len() {
        return Err(failed(format!(
            "{} answers for {} files",
            answers.len(),
            files.len()
        )));
    }
    Ok(answers)
}
