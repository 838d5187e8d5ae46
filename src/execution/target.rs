//! What scenarios run against: the reference (in-process), any command, or a Python
//! submission laid out with the dialect's adapter or launcher; and the [`Program`] every use
//! starts, with the sandbox applied.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rustix::process::Signal;

use super::child::{self, Ending, Execution, Running};
use super::python;
use super::sandbox::bwrap::View;
use super::sandbox::jail::{Jail, Run};
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

/// A target ready to run. Student processes run from jails (a private folder and, for a root
/// grader, a user of their own), one per program running at once, each reused for the
/// target's later scenarios.
pub struct Target {
    spec: TargetSpec,
    interpreter: Option<python::Interpreter>,
    /// Jails not in use, with the launches already laid out in them.
    free: Arc<Mutex<Vec<Slot>>>,
    /// Jails made so far (names them).
    made: AtomicUsize,
    /// Scratch space, removed when the target is dropped.
    scratch: tempfile::TempDir,
    /// The entry file to look for in a submission folder, instead of the dialect's.
    entry: Option<String>,
    sandbox: Sandbox,
    /// Paths a sandboxed program must not see (the specs).
    hidden: Vec<PathBuf>,
}

/// A jail and the launches laid out in it, by game and dialect.
struct Slot {
    jail: Jail,
    launches: HashMap<(&'static str, &'static str), (Launch, View)>,
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
        Ok(Target {
            spec,
            interpreter,
            free: Arc::new(Mutex::new(Vec::new())),
            made: AtomicUsize::new(0),
            scratch: sandbox::scratch::create()?,
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

    /// The program for one run of a scenario of `dialect` under `limits` and this target's
    /// sandbox (`None`: the reference answers in-process). Keep it while the run lasts:
    /// dropping it kills whatever the run left and frees its jail.
    pub fn program(
        &self,
        game: &dyn Game,
        dialect: &'static Dialect,
        limits: &Limits,
    ) -> Result<Option<Program>, Error> {
        if self.is_reference() {
            return Ok(None);
        }
        let mut slot = match self.free.lock().unwrap_or_else(|e| e.into_inner()).pop() {
            Some(slot) => slot,
            None => Slot {
                jail: Jail::new(
                    self.scratch.path(),
                    self.sandbox,
                    &format!("job-{}", self.made.fetch_add(1, Ordering::Relaxed)),
                )?,
                launches: HashMap::new(),
            },
        };
        let key = (game.name(), dialect.name);
        let prepared = match slot.launches.get(&key) {
            Some((launch, view)) => slot.jail.prepare(launch, view),
            None => self
                .lay_out(&slot.jail, game, dialect)
                .and_then(|(launch, view)| {
                    let run = slot.jail.prepare(&launch, &view);
                    slot.launches.insert(key, (launch, view));
                    run
                }),
        };
        let run = match prepared {
            Ok(run) => run,
            Err(error) => {
                self.free
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(slot);
                return Err(error);
            }
        };
        let limits = self.sandbox.limits(limits);
        run.cap_memory(limits.memory_bytes);
        Ok(Some(Program {
            launch: run.launch.clone(),
            limits,
            run: Some(Arc::new(JailRun {
                run: Some(run),
                slot: Some(slot),
                free: Arc::clone(&self.free),
            })),
        }))
    }

    /// Lays out the target in `jail` for `dialect`: the launch and what a bubblewrap sandbox
    /// shows it.
    fn lay_out(
        &self,
        jail: &Jail,
        game: &dyn Game,
        dialect: &'static Dialect,
    ) -> Result<(Launch, View), Error> {
        let mut view = View {
            writable: jail.dir().to_path_buf(),
            readable: Vec::new(),
            hidden: self.hidden.clone(),
        };
        let mut launch = match &self.spec {
            TargetSpec::Reference => {
                return Err(Error::Usage("the reference runs in-process".into()))
            }
            TargetSpec::Command(command) => {
                let here = std::env::current_dir()
                    .map_err(|e| Error::io("cannot read the current folder", e))?;
                // A command is the instructor's: it runs where it was given, read-only.
                view.readable.push(here.clone());
                Launch::shell(command, here)
            }
            TargetSpec::Python(path) => {
                let launch = self.python_launch(jail, game, dialect, path)?;
                let prefix = self
                    .interpreter
                    .as_ref()
                    .and_then(python::Interpreter::prefix);
                view.readable.extend(prefix);
                launch
            }
        };
        launch.env = jail.environment(&launch.env);
        jail.hand_over()?;
        Ok((launch, view))
    }

    fn python_launch(
        &self,
        jail: &Jail,
        game: &dyn Game,
        dialect: &'static Dialect,
        path: &Path,
    ) -> Result<Launch, Error> {
        let interpreter = self
            .interpreter
            .as_ref()
            .ok_or_else(|| Error::Usage("no Python interpreter was resolved".into()))?;
        if jail.user().is_some() {
            python::check_reachable(interpreter)?;
        }
        let slot = jail.dir().join(format!("{}-{}", game.name(), dialect.name));
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
/// matches, fuzz) starts a student process. A program of a target holds its jail while it
/// lives (clones share it).
#[derive(Debug, Clone)]
pub struct Program {
    pub launch: Launch,
    pub limits: Limits,
    run: Option<Arc<JailRun>>,
}

impl Program {
    /// `launch` under `limits`, outside any jail.
    pub fn new(launch: Launch, limits: Limits) -> Program {
        Program {
            launch,
            limits,
            run: None,
        }
    }

    /// Runs the program to its end with `input` on stdin, within its wall-clock limit.
    pub fn run(&self, input: &[u8]) -> Execution {
        let kills = self.out_of_memory_kills();
        let mut execution = child::run(&self.launch, input, &self.limits);
        execution.ending = self.ending_under_memory_cap(execution.ending, kills);
        execution
    }

    /// How many of the program's processes the kernel killed so far for going over the
    /// memory cap of its cgroup (0 where there is none).
    pub fn out_of_memory_kills(&self) -> u64 {
        self.jail_run().map_or(0, Run::out_of_memory_kills)
    }

    /// `ending` as [`Ending::OutOfMemory`] when the program died and the kernel killed one of
    /// its processes for memory since the count was `kills_before`.
    pub fn ending_under_memory_cap(&self, ending: Ending, kills_before: u64) -> Ending {
        let died = matches!(ending, Ending::Signaled(_) | Ending::Exited(1..));
        if died && self.out_of_memory_kills() > kills_before {
            Ending::OutOfMemory
        } else {
            ending
        }
    }

    /// Starts the program to be driven a line at a time; it must be done by `deadline`.
    pub fn start(&self, deadline: Instant) -> Result<Running, Ending> {
        Running::start(&self.launch, &self.limits, deadline)
    }

    fn jail_run(&self) -> Option<&Run> {
        self.run.as_ref()?.run.as_ref()
    }

    /// Why the sandbox failed before the program started (the harness's fault), if it did;
    /// `stderr` is the end of what the program's side wrote there.
    pub fn sandbox_failure(&self, stderr: &[u8]) -> Option<String> {
        self.jail_run()?.sandbox_failure(stderr)
    }

    /// Whether the run ended at the CPU-time limit `limit`: its processes used that much CPU
    /// (where a cgroup measured it), or it died of the limit's signals (SIGXCPU, then
    /// SIGKILL), directly or as a shell reports them (exit status 128 + signal).
    pub fn hit_cpu_limit(&self, execution: &Execution, limit: Duration) -> bool {
        let cpu_signal = |s: i32| s == Signal::XCPU.as_raw() || s == Signal::KILL.as_raw();
        let by_signal = match execution.ending {
            Ending::Signaled(signal) => cpu_signal(signal),
            Ending::Exited(code) => code > 128 && cpu_signal(code - 128),
            _ => false,
        };
        // A cgroup's count runs a little behind the kernel's per-process one.
        match self.jail_run().and_then(Run::cpu_time) {
            Some(cpu) => cpu >= limit || (by_signal && cpu * 5 >= limit * 4),
            None => by_signal && execution.elapsed >= limit,
        }
    }

    /// Whether a timeout of this run may be the doing of other programs: it was using the
    /// CPU, not sleeping (where a cgroup measured it), and other programs of this grader ran
    /// beside it, or it got less CPU than its limit while busy (others on the machine).
    pub fn slowed_by_company(&self, elapsed: Duration) -> bool {
        let cpu_limit = self.limits.cpu_seconds.map(Duration::from_secs);
        self.jail_run().is_some_and(|run| match run.cpu_time() {
            Some(cpu) => {
                let starved = cpu_limit.is_some_and(|limit| cpu < limit);
                cpu * 10 >= elapsed && (run.had_company() || starved)
            }
            None => run.had_company(),
        })
    }
}

/// A run in a jail of a target. When it ends, whatever it left is killed and the jail goes
/// back to the target for the next run.
#[derive(Debug)]
struct JailRun {
    run: Option<Run>,
    slot: Option<Slot>,
    free: Arc<Mutex<Vec<Slot>>>,
}

impl Drop for JailRun {
    fn drop(&mut self) {
        // The run's processes die before the jail can be handed to another scenario.
        self.run.take();
        if let Some(slot) = self.slot.take() {
            self.free
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(slot);
        }
    }
}

impl std::fmt::Debug for Slot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Slot").field("jail", &self.jail).finish()
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
