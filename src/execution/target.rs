//! What scenarios run against: the reference (in-process), any command, or a Python
//! submission laid out with the dialect's adapter or launcher; and the [`Program`] every use
//! starts, with the sandbox applied.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rustix::process::Signal;

use super::child::{self, Ending, Execution, Running};
use super::fork::{PythonRunner, Server, Vouch, LOAD_WAIT};
use super::layout::{Layout, PythonLaunch, Secrecy};
use super::python;
use super::sandbox::bwrap::View;
use super::sandbox::jail::{Jail, Run, Start};
use super::sandbox::{self, Sandbox};
use super::spawn::{Launch, Limits};
use super::start_check::StartCheck;
use crate::error::{Error, SetupError};

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

/// About how many scenarios of a loaded runner cost what starting it does (the interpreter,
/// the harness and the submission's import, against a forked scenario's few milliseconds).
pub const SCENARIOS_PER_RUNNER_START: usize = 8;

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
    /// Files and folders copied beside a one-file submission (its own helper modules).
    beside: Vec<PathBuf>,
    sandbox: Sandbox,
    /// Paths a sandboxed program must not see (the specs).
    hidden: Vec<PathBuf>,
    runner: PythonRunner,
    /// Whether the interpreter starts inside the sandbox: shared by the targets of a run.
    start_check: StartCheck,
    /// The wall-clock time a Python submission's import may take (call protocols).
    import_limit: Option<Duration>,
    /// Calls of the submission seen running past their dialect's call limit with the
    /// machine to themselves (`is_game_over did not return within 2 s`).
    overruns: Mutex<HashSet<String>>,
}

impl Drop for Target {
    /// Each jail is emptied at once, on a thread of its own: ending a runner and removing
    /// its cgroup and folder is mostly waiting on the kernel, and a run with several jobs
    /// ends when the last is gone.
    fn drop(&mut self) {
        let slots = std::mem::take(&mut *self.free.lock().unwrap_or_else(|e| e.into_inner()));
        if slots.len() < 2 {
            return;
        }
        std::thread::scope(|scope| {
            for slot in slots {
                scope.spawn(move || drop(slot));
            }
        });
    }
}

/// A game and dialect.
type Key = (&'static str, &'static str);

/// How many times a loaded runner is started for one jail and dialect: one that keeps being
/// ended (by the scenarios' own processes) gives way to a fresh process per scenario.
const RUNNER_STARTS: u32 = 3;

/// A jail and what is laid out in it.
struct Slot {
    /// The loaded runner of what is laid out, or why there is none (dropped before the jail
    /// whose user it runs as).
    runner: Option<RunnerState>,
    jail: Jail,
    /// The one game and dialect laid out: one a jail, so that its folder has one state as
    /// laid out and one as a runner's import left it (see [`Start`]).
    laid: Option<(Key, Laid)>,
}

/// A target laid out in a jail for one dialect.
struct Laid {
    launch: Launch,
    view: View,
    /// The loaded runner's launch (Python submissions).
    runner: Option<Launch>,
}

/// Which free slot a use of the target takes.
#[derive(Clone, Copy)]
enum Wanted {
    /// A scenario's run: a slot whose runner for the key has loaded (starting one costs the
    /// interpreter and the import), else any free slot, else a new one.
    RunnerFor(Key),
    /// A script that reads the code (a code check) while scenarios run: a slot with no
    /// loaded runner, else a new one, so that it never holds the runner a scenario beside
    /// it could use.
    NoRunner,
    /// The same with no scenario running: a slot with no loaded runner, else any free one
    /// (its runner is idle meanwhile), else a new one (a new jail costs more than the check).
    Idle,
}

/// What runs while [`Target::inspect`] reads the code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Company {
    /// Nothing else of the target.
    Alone,
    /// Scenarios, which need the loaded runners.
    Scenarios,
}

impl Wanted {
    /// Whether `slot` is the one wanted.
    fn fits(self, slot: &Slot) -> bool {
        let loaded = matches!(slot.runner, Some(RunnerState::Loaded { .. }));
        match self {
            Wanted::RunnerFor(key) => loaded && slot.holds(key),
            Wanted::NoRunner | Wanted::Idle => !loaded,
        }
    }

    /// Whether `slot` will do where no free slot [fits](Wanted::fits).
    fn makes_do_with(self, slot: &Slot) -> bool {
        match self {
            Wanted::RunnerFor(key) => slot.holds(key) || slot.laid.is_none(),
            Wanted::Idle => true,
            Wanted::NoRunner => false,
        }
    }
}

impl Slot {
    /// Whether `key` is laid out here.
    fn holds(&self, key: Key) -> bool {
        self.laid.as_ref().is_some_and(|(laid, _)| *laid == key)
    }

    /// What is laid out here for `key` (an error if it is not what is laid out).
    fn laid(&self, key: Key) -> Result<&Laid, Error> {
        match &self.laid {
            Some((laid, launches)) if *laid == key => Ok(launches),
            _ => Err(SetupError::Misuse("a jail holds one laid-out dialect").into()),
        }
    }
}

enum RunnerState {
    Loaded {
        server: Arc<Server>,
        starts: u32,
        /// The most secret scenario it has served.
        served: Secrecy,
    },
    /// A fresh process per scenario, and why.
    Fresh(String),
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
            beside: Vec::new(),
            sandbox: Sandbox::Limits,
            hidden: Vec::new(),
            runner: PythonRunner::default(),
            start_check: StartCheck::new(),
            import_limit: None,
            overruns: Mutex::new(HashSet::new()),
        })
    }

    /// Shares `check` (whether the interpreter starts inside the sandbox) with the run's
    /// other targets, so that it is asked once per run.
    pub fn with_start_check(mut self, check: StartCheck) -> Self {
        self.start_check = check;
        self
    }

    /// Runs Python submissions with `runner`.
    pub fn with_runner(mut self, runner: PythonRunner) -> Self {
        self.runner = runner;
        self
    }

    /// How many of `scenarios` scenarios to run at once, at most `jobs`. Each job of a Python
    /// submission under the loaded runner needs a runner of its own, and starting one costs
    /// about what [`SCENARIOS_PER_RUNNER_START`] of its scenarios do: a job with fewer to run
    /// would keep the others waiting for its runner longer than they take to run them all.
    /// Runners already loaded (by earlier scenarios) cost nothing more. (A self-check of one
    /// spec file then starts one runner, not one per core.)
    pub fn jobs_for(&self, scenarios: usize, jobs: usize) -> usize {
        let jobs = self.at_once(jobs);
        let loaded =
            self.runner == PythonRunner::Fork && matches!(self.spec, TargetSpec::Python(_));
        if !loaded {
            return jobs;
        }
        let free = self.free.lock().unwrap_or_else(|e| e.into_inner());
        let warm = free
            .iter()
            .filter(|slot| match &slot.runner {
                Some(RunnerState::Loaded { server, .. }) => server.alive(),
                _ => false,
            })
            .count();
        jobs.min(warm.max(scenarios / SCENARIOS_PER_RUNNER_START))
            .max(1)
    }

    /// How many of this program's runs may be under way at once, at most `jobs`: one under
    /// `limits`, where runs share the machine's `/tmp`, `/var/tmp` and `/dev/shm` (and,
    /// for a grader that is not root, one user, and with it each other's scratch folders)
    /// until each one's leftovers are removed as it ends. Two scenarios (or fuzzed games) of
    /// one submission run side by side could hand each other files there: a hidden
    /// scenario's steps to a visible one's output, or answers remembered from one scenario
    /// for the next. One at a time, each starts from what the one before left removed.
    /// Bubblewrap gives each run folders of its own; `none` fences nothing in, by request;
    /// the reference engine runs no student code.
    pub fn at_once(&self, jobs: usize) -> usize {
        let student = !matches!(self.spec, TargetSpec::Reference);
        if student && self.sandbox == Sandbox::Limits {
            1
        } else {
            jobs.max(1)
        }
    }

    /// Why the loaded runner gave way to a fresh process per scenario, where it did (one
    /// line per reason), for the report.
    pub fn runner_notes(&self) -> Vec<String> {
        let free = self.free.lock().unwrap_or_else(|e| e.into_inner());
        let mut notes: Vec<String> = free
            .iter()
            .filter_map(|slot| slot.runner.as_ref())
            .filter_map(|state| match state {
                RunnerState::Fresh(why) => Some(format!(
                    "graded with a fresh Python process per scenario: {why}"
                )),
                RunnerState::Loaded { .. } => None,
            })
            .collect();
        notes.sort();
        notes.dedup();
        notes
    }

    /// Bounds the import of a Python submission under a call protocol by `limit` of
    /// wall-clock time (see [`Target::check_import`]).
    pub fn with_import_limit(mut self, limit: Option<Duration>) -> Self {
        self.import_limit = limit;
        self
    }

    /// Notes that `call` ran past its call limit with the machine to itself.
    pub fn note_overrun(&self, call: String) {
        self.overruns
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(call);
    }

    /// Whether `call` was seen past its call limit with the machine to itself: a later
    /// scenario's run past it is not timed alone again.
    pub fn overran(&self, call: &str) -> bool {
        self.overruns
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains(call)
    }

    pub fn import_limit(&self) -> Option<Duration> {
        self.import_limit
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

    /// Copies `beside` (files and folders) next to a one-file submission: the student's own
    /// helper modules.
    pub fn with_beside(mut self, beside: Vec<PathBuf>) -> Self {
        self.beside = beside;
        self
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

    /// The entry file a submission folder holds for `layout`: the target's own, else the
    /// dialect's.
    pub fn entry_file<'a>(&'a self, layout: &'a Layout) -> &'a str {
        self.entry.as_deref().unwrap_or(layout.entry_file)
    }

    /// A free jail slot, the one `wanted` if there is one, or a new one.
    fn take_slot(&self, wanted: Wanted) -> Result<Slot, Error> {
        let free = {
            let mut free = self.free.lock().unwrap_or_else(|e| e.into_inner());
            let index = (free.iter().rposition(|slot| wanted.fits(slot)))
                .or_else(|| free.iter().rposition(|slot| wanted.makes_do_with(slot)));
            index.map(|index| free.remove(index))
        };
        match free {
            Some(slot) => Ok(slot),
            None => Ok(Slot {
                jail: Jail::new(
                    self.scratch.path(),
                    self.sandbox,
                    &format!("job-{}", self.made.fetch_add(1, Ordering::Relaxed)),
                )?,
                laid: None,
                runner: None,
            }),
        }
    }

    /// Runs the Python `script` with `input` on stdin in one of this target's jails, under its
    /// sandbox and `limits`: how the grader reads a submission's code without running it (the
    /// script gets the code's text on stdin; nothing of the submission is laid out). An
    /// error when the target has no interpreter or the sandbox failed. The script runs
    /// isolated (`-I`) and without `site` (`-S`): it needs the standard library alone, and a
    /// course's site-packages (a `.pth` file runs code at every start) only cost it time.
    pub fn inspect(
        &self,
        script: &str,
        input: &[u8],
        limits: &Limits,
        company: Company,
    ) -> Result<Execution, Error> {
        let interpreter = self
            .interpreter
            .as_ref()
            .ok_or(SetupError::Misuse("no Python interpreter was resolved"))?;
        let slot = self.take_slot(match company {
            Company::Alone => Wanted::Idle,
            Company::Scenarios => Wanted::NoRunner,
        })?;
        let view = View {
            writable: slot.jail.dir().to_path_buf(),
            readable: interpreter.installations(),
            hidden: self.hidden.clone(),
        };
        let mut launch = Launch::new(
            &interpreter.executable,
            vec![
                "-I".into(),
                "-S".into(),
                "-B".into(),
                "-c".into(),
                script.into(),
            ],
            slot.jail.dir().to_path_buf(),
        );
        launch.env = slot.jail.environment(&[]);
        let limits = self.sandbox.limits(limits);
        let ran = slot.jail.prepare(&launch, &view).map(|run| {
            let execution = child::run(&run.launch, input, &limits);
            let failure = run.sandbox_failure(&execution.stderr_tail);
            (execution, failure)
        });
        // An interpreter that does not start in the sandbox is named as such, here as for a
        // scenario, rather than read as the script's failure. It is asked only when the
        // script did not end well: a script that answered shows the interpreter starts, and
        // asking first would start a second interpreter on every check.
        let ran = match ran {
            Ok((execution, None)) if execution.ending != Ending::Exited(0) => self
                .start_check
                .check(self.sandbox, &slot.jail, interpreter, &view)
                .map(|()| (execution, None)),
            other => other,
        };
        restore_and_give_back(&self.free, slot);
        let (execution, failure) = ran?;
        match failure {
            Some(why) => Err(SetupError::PythonInSandbox {
                python: interpreter.executable.clone(),
                sandbox: self.sandbox.as_str(),
                why,
            }
            .into()),
            None => Ok(execution),
        }
    }

    /// The program for one run of a scenario laid out as `layout` under `limits` and this
    /// target's sandbox (`None`: the reference answers in-process). Keep it while the run
    /// lasts: dropping it kills whatever the run left and frees its jail.
    pub fn program(&self, layout: &Layout, limits: &Limits) -> Result<Option<Program>, Error> {
        self.program_with(layout, limits, true)
    }

    /// [`Target::program`] with every process started afresh, never forked by a loaded
    /// runner.
    pub(super) fn fresh_program(
        &self,
        layout: &Layout,
        limits: &Limits,
    ) -> Result<Option<Program>, Error> {
        self.program_with(layout, limits, false)
    }

    /// [`Target::program`], its processes forked by a loaded runner where `loaded` and the
    /// target runs them so, else started afresh.
    fn program_with(
        &self,
        layout: &Layout,
        limits: &Limits,
        loaded: bool,
    ) -> Result<Option<Program>, Error> {
        if self.is_reference() {
            return Ok(None);
        }
        let key = (layout.game, layout.dialect);
        let mut slot = self.take_slot(Wanted::RunnerFor(key))?;
        let limits = self.sandbox.limits(limits);
        let prepared = self.prepare(&mut slot, key, layout, &limits, loaded);
        let (run, server) = match prepared {
            Ok(prepared) => prepared,
            Err(error) => {
                give_back(&self.free, slot);
                return Err(error);
            }
        };
        run.cap_memory(limits.memory_bytes);
        Ok(Some(Program {
            launch: run.launch.clone(),
            limits,
            run: Some(Arc::new(JailRun {
                run: Some(run),
                server,
                spawned: AtomicBool::new(false),
                forked: AtomicBool::new(false),
                slot: Mutex::new(Some(slot)),
                free: Arc::clone(&self.free),
            })),
        }))
    }

    /// [`Target::runner_loaded`] in `count` jails at once (one at least), each its own
    /// runner: whether the first loaded.
    pub(crate) fn runners_loaded(
        &self,
        layout: &Layout,
        limits: &Limits,
        count: usize,
    ) -> Result<bool, Error> {
        std::thread::scope(|scope| {
            let others: Vec<_> = (1..count)
                .map(|_| scope.spawn(|| self.runner_loaded(layout, limits)))
                .collect();
            let first = self.runner_loaded(layout, limits);
            // The others only make their jobs' runners ready: the first says for them all.
            for other in others {
                let _ = other.join();
            }
            first
        })
    }

    /// Whether the loaded runner for `layout` is running: started now if it was not, it has
    /// imported the submission within its load wait. `false` under the fresh runner.
    pub(crate) fn runner_loaded(&self, layout: &Layout, limits: &Limits) -> Result<bool, Error> {
        if self.runner != PythonRunner::Fork || self.is_reference() {
            return Ok(false);
        }
        let key = (layout.game, layout.dialect);
        let mut slot = self.take_slot(Wanted::RunnerFor(key))?;
        let limits = self.sandbox.limits(limits);
        let loaded = self.ready(&mut slot, key, layout, &limits, true);
        give_back(&self.free, slot);
        Ok(loaded?.is_some())
    }

    /// One run in `slot` for `key` (laid out first if it is not yet) and the loaded runner
    /// that forks its processes, if there is one: the run is then a guest of the runner's.
    fn prepare(
        &self,
        slot: &mut Slot,
        key: Key,
        layout: &Layout,
        limits: &Limits,
        loaded: bool,
    ) -> Result<(Run, Option<Arc<Server>>), Error> {
        let server = self.ready(slot, key, layout, limits, loaded)?;
        let laid = slot.laid(key)?;
        let run = match &server {
            Some(server) => {
                slot.jail
                    .prepare_guest(&laid.launch, &laid.view, server.run(), server.chain())?
            }
            None => {
                // A fresh interpreter: one that cannot start in the sandbox is named as such
                // (the start of a runner that loaded already said it can).
                if let (TargetSpec::Python(_), Some(interpreter)) = (&self.spec, &self.interpreter)
                {
                    self.start_check
                        .check(self.sandbox, &slot.jail, interpreter, &laid.view)?;
                }
                slot.jail.prepare(&laid.launch, &laid.view)?
            }
        };
        Ok((run, server))
    }

    /// Lays out `key` in `slot` if it is not yet, and starts its loaded runner when `loaded`
    /// asks for one and it is not running: the runner that will fork the run, if any. The
    /// folder is left as the run starts from it: as the runner's import left it, or as laid
    /// out for a fresh process.
    fn ready(
        &self,
        slot: &mut Slot,
        key: Key,
        layout: &Layout,
        limits: &Limits,
        loaded: bool,
    ) -> Result<Option<Arc<Server>>, Error> {
        if slot.laid.is_none() {
            let laid = self.lay_out(&slot.jail, layout)?;
            slot.jail.mark_laid_out()?;
            slot.laid = Some((key, laid));
        }
        let server = match loaded {
            true => self.loaded_runner(slot, key, layout, limits)?,
            false => None,
        };
        // A scenario whose CPU limit the import spends runs as a fresh process: a copy of
        // the runner could only be given more (see `Server::leaves_cpu_for`).
        let server = server.filter(|server| server.leaves_cpu_for(limits));
        let start = match server {
            Some(_) => Start::Loaded,
            None => Start::LaidOut,
        };
        slot.jail.begin(start)?;
        Ok(server)
    }

    /// How long a loaded runner of `layout` may take to load: at most [`LOAD_WAIT`], and
    /// under a call protocol at most the import limit a fresh process's import is held to.
    /// A runner that loads later does not load, and the import is then checked in a fresh
    /// process, as under the fresh runner: both runners give an import past its limit the
    /// same finding.
    fn load_wait(&self, layout: &Layout) -> Duration {
        match (layout.python, self.import_limit) {
            (PythonLaunch::Adapter { .. }, Some(limit)) => LOAD_WAIT.min(limit),
            _ => LOAD_WAIT,
        }
    }

    /// The loaded runner of `slot` for `key`, started (again) if it is not running; none
    /// when the target runs a fresh process per scenario.
    fn loaded_runner(
        &self,
        slot: &mut Slot,
        key: Key,
        layout: &Layout,
        limits: &Limits,
    ) -> Result<Option<Arc<Server>>, Error> {
        let audience = layout.audience;
        if self.runner != PythonRunner::Fork {
            return Ok(None);
        }
        let Some(launch) = slot.laid(key)?.runner.clone() else {
            return Ok(None);
        };
        let distrusted = match &slot.runner {
            Some(RunnerState::Loaded { server, .. }) => server.distrusted(),
            _ => None,
        };
        if let Some(why) = distrusted {
            slot.runner = Some(RunnerState::Fresh(why));
            return Ok(None);
        }
        let starts = match &mut slot.runner {
            Some(RunnerState::Fresh(_)) => return Ok(None),
            Some(RunnerState::Loaded { server, served, .. })
                if server.alive() && *served <= audience =>
            {
                *served = audience;
                return Ok(Some(Arc::clone(server)));
            }
            // It served a more secret scenario: it is replaced, which is not an end.
            Some(RunnerState::Loaded { server, starts, .. }) if server.alive() => {
                starts.saturating_sub(1)
            }
            Some(RunnerState::Loaded { starts, .. }) => *starts,
            None => 0,
        };
        // A runner that ended, or served more secret scenarios, is gone with what it held,
        // and what its import wrote with it: the next one imports in the folder as laid out.
        slot.runner = None;
        slot.jail.begin(Start::LaidOut)?;
        let state = if starts >= RUNNER_STARTS {
            RunnerState::Fresh(format!(
                "its loaded runner was ended {starts} times by the scenarios"
            ))
        } else {
            let view = &slot.laid(key)?.view;
            match Server::start(
                &slot.jail,
                &launch,
                view,
                limits,
                limits.wall.min(self.load_wait(layout)),
            ) {
                Ok(server) => {
                    if let Some(interpreter) = &self.interpreter {
                        self.start_check.started(self.sandbox, interpreter);
                    }
                    match slot.jail.mark_loaded() {
                        Ok(()) => RunnerState::Loaded {
                            server: Arc::new(server),
                            starts: starts + 1,
                            served: audience,
                        },
                        // What its import wrote cannot be kept for its copies (more than
                        // a copy may take, sparse files and links counted whole): each
                        // scenario imports afresh, from the folder as laid out, and its
                        // writes are its own, in the room its folder has.
                        Err(_) => {
                            drop(server);
                            slot.jail.begin(Start::LaidOut)?;
                            RunnerState::Fresh(format!(
                                "its import left more in its folder than its forked copies may \
                                 start from ({} MiB or {} entries beyond the submission)",
                                sandbox::disk::WRITE_ROOM >> 20,
                                sandbox::disk::ENTRY_ROOM
                            ))
                        }
                    }
                }
                Err(why) => RunnerState::Fresh(why),
            }
        };
        let server = match &state {
            RunnerState::Loaded { server, .. } => Some(Arc::clone(server)),
            RunnerState::Fresh(_) => None,
        };
        slot.runner = Some(state);
        Ok(server)
    }

    /// Lays out the target in `jail` as `layout`: the launch, what a bubblewrap sandbox
    /// shows it, and the loaded runner's launch for a Python submission.
    fn lay_out(&self, jail: &Jail, layout: &Layout) -> Result<Laid, Error> {
        let mut view = View {
            writable: jail.dir().to_path_buf(),
            readable: Vec::new(),
            hidden: self.hidden.clone(),
        };
        let mut runner = None;
        let mut launch = match &self.spec {
            TargetSpec::Reference => {
                return Err(SetupError::Misuse("the reference runs in-process").into())
            }
            TargetSpec::Command(command) => {
                let here = std::env::current_dir()
                    .map_err(|e| Error::io("cannot read the current folder", e))?;
                // A command is the instructor's: it runs where it was given, read-only, and
                // sees the programs it names outside that folder, read-only too.
                view.readable.push(here.clone());
                view.readable
                    .extend(super::command_paths::needed(command, &here));
                Launch::shell(command, here)
            }
            TargetSpec::Python(path) => {
                let launches = self.python_launch(jail, layout, path)?;
                if let Some(interpreter) = &self.interpreter {
                    view.readable.extend(interpreter.installations());
                }
                let mut loaded = launches.runner;
                loaded.env = jail.environment(&loaded.env);
                runner = Some(loaded);
                launches.fresh
            }
        };
        launch.env = jail.environment(&launch.env);
        jail.hand_over()?;
        Ok(Laid {
            launch,
            view,
            runner,
        })
    }

    fn python_launch(
        &self,
        jail: &Jail,
        layout: &Layout,
        path: &Path,
    ) -> Result<python::Launches, Error> {
        let interpreter = self
            .interpreter
            .as_ref()
            .ok_or(SetupError::Misuse("no Python interpreter was resolved"))?;
        if jail.user().is_some() {
            python::check_reachable(interpreter)?;
        }
        let slot = jail
            .dir()
            .join(format!("{}-{}", layout.game, layout.dialect));
        let (harness, work) = (slot.join("harness"), slot.join("submission"));
        for dir in [&harness, &work] {
            std::fs::create_dir_all(dir)
                .map_err(|e| Error::io(format!("cannot create {}", dir.display()), e))?;
        }
        let entry_name = self.entry.as_deref().unwrap_or(layout.entry_file);
        let entry = copy_submission(path, entry_name, &work)?;
        copy_beside(&self.beside, &entry)?;
        python::launch(
            interpreter,
            layout,
            &harness,
            &entry,
            &work,
            self.import_limit,
        )
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
        let started = Instant::now();
        let mut execution = child::drive(self.start(started + self.limits.wall), input, started);
        if !self.forked_processes_stand() {
            // The runner ended while the scenario ran (the scenario killed it, and under
            // bubblewrap itself with it), or may have touched it (took its exit status, worked
            // for it): the scenario runs again in a fresh process.
            let started = Instant::now();
            let fresh = Running::start(&self.launch, &self.limits, started + self.limits.wall);
            execution = child::drive(fresh, input, started);
        }
        execution.ending = self.ending_under_memory_cap(execution.ending, kills);
        execution
    }

    /// Whether every process a loaded runner forked for this program so far ran as a fresh
    /// one would (see [`Vouch`]); ask once they have ended. When not, the program's next
    /// processes start afresh: the caller runs the scenario again.
    pub fn forked_processes_stand(&self) -> bool {
        let Some(jail_run) = &self.run else {
            return true;
        };
        let Some(server) = jail_run.server.as_deref() else {
            return true;
        };
        if !jail_run.forked.load(Ordering::Relaxed) || server.vouch() == Vouch::Stands {
            return true;
        }
        jail_run.start_afresh();
        jail_run.forked.store(false, Ordering::Relaxed);
        false
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
    /// A Python submission's process is forked by its loaded runner, or, where there is
    /// none or it fails to give one, started afresh.
    pub fn start(&self, deadline: Instant) -> Result<Running, Ending> {
        if let Some(jail_run) = &self.run {
            if let Some(server) = &jail_run.server {
                if server.alive() {
                    // A runner that cannot give a process is not used again: this run, and the
                    // next ones, start afresh (or from a runner started again).
                    if let Ok(running) = server.fork(&self.limits, deadline) {
                        jail_run.forked.store(true, Ordering::Relaxed);
                        return Ok(running);
                    }
                }
            }
            if !jail_run.start_afresh() {
                return Err(Ending::NotStarted(
                    "the job folder could not be put back as laid out".to_string(),
                ));
            }
        }
        Running::start(&self.launch, &self.limits, deadline)
    }

    fn jail_run(&self) -> Option<&Run> {
        self.run.as_ref()?.run.as_ref()
    }

    /// The loaded runner that forked every process of this program so far, if one did.
    fn forked_by(&self) -> Option<&Server> {
        let jail_run = self.run.as_ref()?;
        let server = jail_run.server.as_deref()?;
        (!jail_run.spawned.load(Ordering::Relaxed)).then_some(server)
    }

    /// CPU time the run's processes used, where a cgroup measured it; a forked process is
    /// charged what its runner used to start and load, as a fresh one would be.
    fn cpu_time(&self) -> Option<Duration> {
        let cpu = self.jail_run()?.cpu_time()?;
        Some(cpu + self.forked_by().map_or(Duration::ZERO, Server::loaded_cpu))
    }

    /// Why the sandbox failed before the program started (the harness's fault), if it did;
    /// `stderr` is the end of what the program's side wrote there. (A forked process runs in
    /// its runner's sandbox, which reported its start before the runner loaded.)
    pub fn sandbox_failure(&self, stderr: &[u8]) -> Option<String> {
        if self.forked_by().is_some() {
            return None;
        }
        self.jail_run()?.sandbox_failure(stderr)
    }

    /// Whether the run ended at the CPU-time limit `limit`: it died of SIGXCPU (which only
    /// that limit sends), or of SIGKILL (the limit's hard kill, a second later, of a program
    /// that ignores SIGXCPU) having used its time, directly or as a shell reports it (exit
    /// status 128 + signal).
    pub fn hit_cpu_limit(&self, execution: &Execution, limit: Duration) -> bool {
        let signal = match execution.ending {
            Ending::Signaled(signal) => Some(signal),
            Ending::Exited(code) if code > 128 => Some(code - 128),
            _ => None,
        };
        if signal == Some(Signal::XCPU.as_raw()) {
            return true;
        }
        let killed = signal == Some(Signal::KILL.as_raw());
        // The cgroup's count of all the run's processes, else the process's own (a forked
        // one's limit was lowered by what its runner used to load). Both are precise, where
        // the limit counts clock ticks: a busy program sharing the CPU is ended with a little
        // less than its limit by these counts.
        let loaded = self.forked_by().map_or(Duration::ZERO, Server::loaded_cpu);
        let used = self
            .cpu_time()
            .or_else(|| execution.cpu.map(|own| own + loaded));
        match used {
            Some(cpu) => cpu >= limit || (killed && cpu * 5 >= limit * 4),
            None => killed && execution.elapsed >= limit,
        }
    }

    /// Whether a timeout of this run may be the doing of other programs: it was using the
    /// CPU, not sleeping (where a cgroup measured it), and other programs of this grader ran
    /// beside it, or it got less CPU than its limit while busy (others on the machine).
    pub fn slowed_by_company(&self, elapsed: Duration) -> bool {
        let cpu_limit = self.limits.cpu_seconds.map(Duration::from_secs);
        let cpu_time = self.cpu_time();
        self.jail_run().is_some_and(|run| match cpu_time {
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
    /// The loaded runner that forks the run's processes.
    server: Option<Arc<Server>>,
    /// Set once a process of the run was started afresh instead.
    spawned: AtomicBool,
    /// Set once the runner forked a process of the run not yet vouched for.
    forked: AtomicBool,
    /// Taken back when the run ends.
    slot: Mutex<Option<Slot>>,
    free: Arc<Mutex<Vec<Slot>>>,
}

impl JailRun {
    /// Makes ready to start the run's processes afresh from now on: the first time, what
    /// the runner's forked processes left is killed, and the folder put back as laid out,
    /// as a fresh process finds it (not as the runner's import left it). False when the
    /// folder could not be put back: nothing is to start in it.
    fn start_afresh(&self) -> bool {
        if self.spawned.swap(true, Ordering::Relaxed) {
            return true;
        }
        // (A runner that loaded waits on its gate between copies: it writes nothing.)
        let (Some(_), Some(run)) = (&self.server, &self.run) else {
            return true;
        };
        let mut slot = self.slot.lock().unwrap_or_else(|e| e.into_inner());
        match slot.as_mut() {
            Some(slot) => run.end_leftovers() && slot.jail.begin(Start::LaidOut).is_ok(),
            None => false,
        }
    }
}

/// Returns `slot` to a target's free slots, for its next run.
fn give_back(free: &Mutex<Vec<Slot>>, slot: Slot) {
    free.lock().unwrap_or_else(|e| e.into_inner()).push(slot);
}

/// Puts `slot`'s folder back as the run found it and returns the slot for the next run. A
/// folder that cannot be put back is not used again: the slot is dropped (its runners, its
/// folder and its user go), and the next run lays the submission out in a new one.
fn restore_and_give_back(free: &Mutex<Vec<Slot>>, mut slot: Slot) {
    if slot.jail.restore() {
        give_back(free, slot);
    }
}

impl Drop for JailRun {
    fn drop(&mut self) {
        // The run's processes die before the jail can be handed to another scenario, which
        // gets the folder (and a runner's /tmp and /dev/shm) as this run found it.
        self.run.take();
        if let Some(server) = &self.server {
            server.clear_after_scenario();
        }
        let slot = self
            .slot
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        if let Some(slot) = slot {
            restore_and_give_back(&self.free, slot);
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
    if let Some(laid) = layout_tree(path, entry_name) {
        let place = work.join(&laid.place);
        std::fs::create_dir_all(&place)
            .map_err(|e| Error::io(format!("cannot create {}", place.display()), e))?;
        copy_tree(&laid.tree, &place)?;
        return Ok(work.join(laid.entry));
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

/// Copies `beside` (files, and folders whole) into the folder of the copied `entry`.
fn copy_beside(beside: &[PathBuf], entry: &Path) -> Result<(), Error> {
    let Some(folder) = entry.parent() else {
        return Ok(());
    };
    for path in beside {
        let Some(name) = path.file_name() else {
            continue;
        };
        let dest = folder.join(name);
        if dest.exists() {
            continue;
        }
        if path.is_dir() {
            std::fs::create_dir_all(&dest)
                .map_err(|e| Error::io(format!("cannot create {}", dest.display()), e))?;
            copy_tree(path, &dest)?;
        } else {
            std::fs::copy(path, &dest)
                .map_err(|e| Error::io(format!("cannot copy {}", path.display()), e))?;
        }
    }
    Ok(())
}

/// A submission inside a layout of folders: what to copy, and where it and its entry land.
struct LaidOut {
    /// The folder of the submission to copy.
    tree: PathBuf,
    /// Where it goes in the scratch folder.
    place: PathBuf,
    /// Where the entry file is in the scratch folder (a file given alone keeps its name).
    entry: PathBuf,
}

/// For an entry file inside folders (`pychess/logic/chess_logic.py`): the folder of the
/// submission to copy, and where it goes in the scratch folder, so that the entry file lands
/// at its place in the layout. `path` may be a folder holding the layout's top folder (only
/// that folder is copied), a folder of the layout itself, or a file in the layout's folders,
/// under the handout's name or its own (then the enclosing folders whose names fit the
/// layout come too, for its helper modules). `None` for a one-file layout or a path that
/// does not fit the layout.
fn layout_tree(path: &Path, entry_file: &str) -> Option<LaidOut> {
    let layout: Vec<&str> = entry_file.split('/').collect();
    if layout.len() < 2 {
        return None;
    }
    if path.is_dir() {
        let level = (0..layout.len()).find(|&k| path.join(layout[k..].join("/")).is_file())?;
        let (tree, place) = match level {
            0 => (path.join(layout[0]), PathBuf::from(layout[0])),
            _ => (path.to_path_buf(), layout[..level].iter().collect()),
        };
        let entry = PathBuf::from(entry_file);
        return Some(LaidOut { tree, place, entry });
    }
    let file = std::fs::canonicalize(path).ok()?;
    let folders = super::layout::folders_in_layout(&file, entry_file);
    if folders == 0 {
        return None;
    }
    let tree = file.ancestors().nth(folders)?.to_path_buf();
    let place: PathBuf = layout[..layout.len() - folders].iter().collect();
    // The file lands where its folders put it, under its own name.
    let entry = place.join(file.strip_prefix(&tree).ok()?);
    Some(LaidOut { tree, place, entry })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_of_the_loaded_runner_has_a_runner_start_worth_of_scenarios() {
        let file = tempfile::NamedTempFile::new().unwrap();
        let python = TargetSpec::Python(file.path().to_path_buf());
        let loaded = Target::with_interpreter(python.clone(), None)
            .unwrap()
            .with_sandbox(Sandbox::Bwrap, Vec::new());
        let fresh = Target::with_interpreter(python, None)
            .unwrap()
            .with_sandbox(Sandbox::Bwrap, Vec::new())
            .with_runner(PythonRunner::Fresh);
        let reference = Target::with_interpreter(TargetSpec::Reference, None).unwrap();
        let per = SCENARIOS_PER_RUNNER_START;
        // One spec file's few scenarios: one runner, not one per core.
        assert_eq!(loaded.jobs_for(4, 2), 1);
        assert_eq!(loaded.jobs_for(2 * per - 1, 2), 1);
        assert_eq!(loaded.jobs_for(2 * per, 2), 2);
        assert_eq!(loaded.jobs_for(38, 4), 4);
        assert_eq!(loaded.jobs_for(0, 2), 1);
        // Nothing to start per job: every core.
        assert_eq!(fresh.jobs_for(4, 2), 2);
        assert_eq!(reference.jobs_for(4, 2), 2);
    }

    #[test]
    fn under_limits_a_programs_runs_are_made_one_at_a_time() {
        let file = tempfile::NamedTempFile::new().unwrap();
        for spec in [
            TargetSpec::Python(file.path().to_path_buf()),
            TargetSpec::Command("true".to_string()),
        ] {
            for runner in [PythonRunner::Fork, PythonRunner::Fresh] {
                let target = |sandbox| {
                    Target::with_interpreter(spec.clone(), None)
                        .unwrap()
                        .with_sandbox(sandbox, Vec::new())
                        .with_runner(runner)
                };
                // Runs that share the machine's /tmp: never two at once.
                assert_eq!(target(Sandbox::Limits).jobs_for(38, 4), 1);
                assert_eq!(target(Sandbox::Limits).at_once(4), 1);
                // A /tmp of their own, or no fence asked for: as many as the jobs.
                assert_eq!(target(Sandbox::Bwrap).at_once(4), 4);
                assert_eq!(target(Sandbox::None).at_once(4), 4);
            }
        }
        // The reference engine runs no student code.
        let reference = Target::with_interpreter(TargetSpec::Reference, None)
            .unwrap()
            .with_sandbox(Sandbox::Limits, Vec::new());
        assert_eq!(reference.at_once(2), 2);
    }
}
