//! What scenarios run against: the reference (in-process), any command, or a Python
//! submission laid out with the dialect's adapter or launcher; and the [`Program`] every use
//! starts, with the sandbox applied.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use super::child::{self, Ending, Execution, Running};
use super::python;
use super::sandbox::{self, Sandbox};
use super::spawn::{Launch, Limits};
use crate::error::Error;
use crate::games::{Dialect, Game};

/// What the user asked to test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TargetSpec {
    /// The reference engine, in-process.
    Reference,
    /// Any program, run by `sh -c`.
    Command(String),
    /// A Python submission: a file, or a folder holding the dialect's entry file.
    Python(PathBuf),
}

/// A target ready to run: scratch folders made once and reused for every scenario.
pub struct Target {
    spec: TargetSpec,
    interpreter: Option<python::Interpreter>,
    /// Launches already laid out, by dialect.
    launches: Mutex<HashMap<(&'static str, &'static str), Launch>>,
    /// Scratch space, removed when the target is dropped.
    scratch: tempfile::TempDir,
    /// The entry file to look for in a submission folder, instead of the dialect's.
    entry: Option<String>,
    sandbox: Sandbox,
    /// Paths a sandboxed program must not see (the specs, the boardgrade binary).
    hidden: Vec<PathBuf>,
}

impl Target {
    /// Prepares `spec`; `python` names the interpreter for Python submissions.
    pub fn new(spec: TargetSpec, python: &Path) -> Result<Target, Error> {
        if let TargetSpec::Python(path) = &spec {
            if !path.exists() {
                return Err(Error::path(path, "no such file or folder"));
            }
        }
        let interpreter = match &spec {
            TargetSpec::Python(_) => Some(python::resolve(python)?),
            _ => None,
        };
        Target::with_interpreter(spec, interpreter)
    }

    /// Prepares `spec` with an interpreter already resolved (grading a class resolves it once).
    pub fn with_interpreter(
        spec: TargetSpec,
        interpreter: Option<python::Interpreter>,
    ) -> Result<Target, Error> {
        let scratch = tempfile::Builder::new()
            .prefix("boardgrade-")
            .tempdir()
            .map_err(|e| Error::io("cannot create a scratch folder", e))?;
        Ok(Target {
            spec,
            interpreter,
            launches: Mutex::new(HashMap::new()),
            scratch,
            entry: None,
            sandbox: Sandbox::Limits,
            hidden: Vec::new(),
        })
    }

    /// Runs student processes under `sandbox`, hiding `hidden` where the sandbox can.
    pub fn with_sandbox(mut self, sandbox: Sandbox, hidden: Vec<PathBuf>) -> Self {
        self.sandbox = sandbox;
        self.hidden = hidden;
        self
    }

    pub fn sandbox(&self) -> Sandbox {
        self.sandbox
    }

    /// Looks for `entry` in a submission folder instead of the dialect's entry file.
    pub fn with_entry(mut self, entry: Option<String>) -> Self {
        self.entry = entry;
        self
    }

    pub fn spec(&self) -> &TargetSpec {
        &self.spec
    }

    pub fn interpreter(&self) -> Option<&python::Interpreter> {
        self.interpreter.as_ref()
    }

    pub fn is_reference(&self) -> bool {
        self.spec == TargetSpec::Reference
    }

    /// The program to run for scenarios of `dialect` under `limits` and this target's
    /// sandbox (`None`: the reference answers in-process).
    pub fn program(
        &self,
        game: &dyn Game,
        dialect: &'static Dialect,
        limits: &Limits,
    ) -> Result<Option<Program>, Error> {
        Ok(self.launch(game, dialect)?.map(|launch| Program {
            launch,
            limits: self.sandbox.limits(limits),
        }))
    }

    /// How to start this target for scenarios of `dialect` (`None` for the reference).
    pub fn launch(
        &self,
        game: &dyn Game,
        dialect: &'static Dialect,
    ) -> Result<Option<Launch>, Error> {
        let key = (game.name(), dialect.name);
        let mut launches = self.launches.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(launch) = launches.get(&key) {
            return Ok(Some(launch.clone()));
        }
        let launch = match &self.spec {
            TargetSpec::Reference => return Ok(None),
            TargetSpec::Command(command) => Launch::shell(
                command,
                std::env::current_dir()
                    .map_err(|e| Error::io("cannot read the current folder", e))?,
            ),
            TargetSpec::Python(path) => self.python_launch(game, dialect, path)?,
        };
        let launch = match (self.sandbox, &self.spec) {
            (Sandbox::Bwrap, TargetSpec::Python(_)) => {
                let slot = launch
                    .cwd
                    .parent()
                    .map(Path::to_path_buf)
                    .unwrap_or_else(|| launch.cwd.clone());
                let mut hidden = self.hidden.clone();
                hidden.extend(std::env::current_exe().ok());
                sandbox::wrap_in_bwrap(&launch, &launch.cwd, &[slot.join("harness")], &hidden)
            }
            (Sandbox::Bwrap, TargetSpec::Command(_)) => {
                sandbox::wrap_in_bwrap(&launch, &launch.cwd, &[], &self.hidden)
            }
            _ => launch,
        };
        launches.insert(key, launch.clone());
        Ok(Some(launch))
    }

    fn python_launch(
        &self,
        game: &dyn Game,
        dialect: &'static Dialect,
        path: &Path,
    ) -> Result<Launch, Error> {
        let interpreter = self
            .interpreter
            .as_ref()
            .ok_or_else(|| Error::Usage("no Python interpreter was resolved".into()))?;
        let slot = self
            .scratch
            .path()
            .join(format!("{}-{}", game.name(), dialect.name));
        let (harness, work) = (slot.join("harness"), slot.join("submission"));
        for dir in [&harness, &work] {
            std::fs::create_dir_all(dir)
                .map_err(|e| Error::io(format!("cannot create {}", dir.display()), e))?;
        }
        let entry_name = self.entry.as_deref().unwrap_or(dialect.entry_file);
        let entry = copy_submission(path, entry_name, &work)?;
        python::launch(interpreter, dialect, &harness, &entry, &work)
    }
}

/// A target's program with the sandbox's limits applied: how every use (scenarios,
/// matches, fuzz) starts a student process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Program {
    pub launch: Launch,
    pub limits: Limits,
}

impl Program {
    /// Runs the program to its end with `input` on stdin, within its wall-clock limit.
    pub fn run(&self, input: &[u8]) -> Execution {
        child::run(&self.launch, input, &self.limits)
    }

    /// Starts the program to be driven a line at a time; it must be done by `deadline`.
    pub fn start(&self, deadline: Instant) -> Result<Running, Ending> {
        Running::start(&self.launch, &self.limits, deadline)
    }
}

/// Copies the submission into `work` (a file alone, or a folder's contents) and returns its
/// entry file there.
fn copy_submission(path: &Path, entry_name: &str, work: &Path) -> Result<PathBuf, Error> {
    if let Some((tree, place)) = layout_tree(path, entry_name) {
        let place = work.join(place);
        std::fs::create_dir_all(&place)
            .map_err(|e| Error::io(format!("cannot create {}", place.display()), e))?;
        copy_tree(&tree, &place)?;
        return Ok(work.join(entry_name));
    }
    if path.is_dir() {
        copy_tree(path, work)?;
        let entry = work.join(entry_name);
        if !entry.is_file() {
            return Err(Error::path(path, format!("no {entry_name} in this folder")));
        }
        Ok(entry)
    } else {
        let name = path
            .file_name()
            .ok_or_else(|| Error::path(path, "not a file"))?;
        let entry = work.join(name);
        std::fs::copy(path, &entry)
            .map_err(|e| Error::io(format!("cannot copy {}", path.display()), e))?;
        Ok(entry)
    }
}

/// For an entry file inside folders (`pychess/logic/chess_logic.py`): the folder of the
/// submission to copy, and where it goes in the scratch folder, so that the entry file lands
/// at its place in the layout. `path` may be a folder holding the layout's top folder (only
/// that folder is copied), a folder of the layout itself, or the entry file (then the
/// enclosing folders whose names fit the layout come too, for its helper modules). `None`
/// for a one-file layout or a path that does not fit the layout.
fn layout_tree(path: &Path, entry_file: &str) -> Option<(PathBuf, PathBuf)> {
    let layout: Vec<&str> = entry_file.split('/').collect();
    if layout.len() < 2 {
        return None;
    }
    if path.is_dir() {
        let level = (0..layout.len()).find(|&k| path.join(layout[k..].join("/")).is_file())?;
        return Some(match level {
            0 => (path.join(layout[0]), PathBuf::from(layout[0])),
            _ => (path.to_path_buf(), layout[..level].iter().collect()),
        });
    }
    let file = std::fs::canonicalize(path).ok()?;
    // How many of the layout's names, from the file up, the path repeats.
    let matched = file
        .components()
        .rev()
        .zip(layout.iter().rev())
        .take_while(|(c, name)| c.as_os_str() == **name)
        .count();
    if matched < 2 {
        return None;
    }
    let tree = file.ancestors().nth(matched - 1)?.to_path_buf();
    let place: PathBuf = layout[..=layout.len() - matched].iter().collect();
    Some((tree, place))
}

fn copy_tree(from: &Path, to: &Path) -> Result<(), Error> {
    for entry in walkdir::WalkDir::new(from).follow_links(false) {
        let entry = entry.map_err(|e| Error::path(from, format!("cannot read: {e}")))?;
        let relative = entry.path().strip_prefix(from).unwrap_or(entry.path());
        let dest = to.join(relative);
        let result = if entry.file_type().is_dir() {
            std::fs::create_dir_all(&dest)
        } else if entry.file_type().is_file() {
            std::fs::copy(entry.path(), &dest).map(|_| ())
        } else {
            Ok(()) // links and special files are not part of a submission
        };
        result.map_err(|e| Error::io(format!("cannot copy {}", entry.path().display()), e))?;
    }
    Ok(())
}
