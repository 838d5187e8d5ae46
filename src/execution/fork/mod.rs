//! The loaded Python runner, the grader's side: one interpreter per submission, jail and
//! dialect loads the harness (and a call protocol's student module) once; each scenario's
//! process is a copy of that state (`python/boardgrade_fork.py`).
//!
//! The runner holds student code, so the grader trusts nothing it says after its first
//! message. What the import did to the runner is checked before any scenario is copied
//! from it ([`inspect`]). Then the runner blocks every signal and waits on its gate, a pipe
//! only the grader writes, and never runs again: the grader makes each scenario's process
//! itself, by having the stopped runner `clone` ([`inject`]), after checking from the kernel
//! that it is still waiting there. So nothing the import left in the runner (a fork hook, a
//! patched builtin, a trace or audit hook, a signal handler) runs between scenarios: each
//! one starts from the state right after the import, as closed as a fresh process.
//!
//! For each scenario the grader makes the pipes and passes the copy's ends in a `run`
//! message the copy reads, learns the copy from the kernel (the credentials of the `ready`
//! message it sends), checks that it is the runner's child of the expected user, opens a
//! pidfd and checks the resource limits the process set itself (the runner has no CPU limit:
//! RLIMIT_CPU is per process), all before the process runs anything of the scenario. The
//! process is born in the runner's cgroup, which caps them together (a fresh process's
//! interpreter counts against its cap too). At the scenario's end the grader kills the
//! process's session and every process of the cgroup but the runner, and reads the exit
//! status itself (the runner reaps it only when the next copy is made). Anything amiss: the
//! scenario runs in a fresh process instead, and so do the submission's next ones; it gets
//! the grade fresh processes give, never `error`. Once a scenario's processes are dead, what
//! it left in the runner's own `/tmp`, `/dev/shm` and IPC namespace is removed ([`ipc`]),
//! so the next scenario starts from the state right after the import.

mod channel;
mod inject;
mod inspect;
mod ipc;
mod limits;

use std::os::fd::{AsFd, OwnedFd};
use std::process::{Child, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use rustix::pipe::{pipe_with, PipeFlags};
use rustix::process::{pidfd_open, Pid, PidfdFlags};

use super::child::Running;
use super::forked::{self, Forked};
use super::sandbox::bwrap::View;
use super::sandbox::jail::{Jail, Run};
use super::spawn::{spawn_with, Launch, Limits};
use super::sys::kill_group;
use channel::{Message, Silence};

/// How the Python submissions of a target are run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum PythonRunner {
    // A fresh interpreter per scenario.
    Fresh,
    // One loaded interpreter per submission, forked per scenario.
    #[default]
    Fork,
}

impl PythonRunner {
    pub fn as_str(self) -> &'static str {
        match self {
            PythonRunner::Fresh => "fresh",
            PythonRunner::Fork => "fork",
        }
    }
}

/// How long a forked process may take to say it is ready.
const READY_WAIT: Duration = Duration::from_secs(5);
/// The longest a runner may take to load before the submission gets a fresh process per
/// scenario instead (an import that blocks, or a slow one: either is graded the same way).
pub const LOAD_WAIT: Duration = Duration::from_secs(5);

/// A loaded runner. Dropping it ends it and everything it started.
#[derive(Debug)]
pub struct Server {
    control: OwnedFd,
    process: Child,
    /// The runner's run in its jail: its cgroup (its scenarios' too) and confinement;
    /// dropping it kills every process of the cgroup.
    run: Run,
    /// The interpreter (its pid as the grader sees it).
    pid: Pid,
    pidfd: OwnedFd,
    /// The interpreter and the processes between it and the grader (a sandbox's): spared
    /// when a scenario's leftovers are killed.
    chain: Vec<i32>,
    /// The user its processes run as.
    uid: u32,
    /// CPU time used by the time it was loaded, charged to every scenario as a fresh
    /// process would be charged for its start and import.
    loaded_cpu: Duration,
    /// Set when the runner misbehaved: it is not used again.
    broken: AtomicBool,
    /// What the runner held before its import, checked again after each scenario.
    baseline: inspect::Baseline,
    /// The runner's own IPC namespace, emptied after each scenario (none when the runner
    /// shares the grader's).
    ipc: Option<ipc::IpcNamespace>,
    /// Set by a forked process whose exit status the runner took.
    status_lost: Arc<AtomicBool>,
    /// The gate's write end, never written: the runner waits on its read end.
    _gate: OwnedFd,
    /// Where it was found waiting on its gate, and checked, before its folder was recorded.
    at: inject::Waiting,
    /// How many of its copies it has not reaped (each ends as its zombie until it does);
    /// held while the runner is copied.
    unreaped: Mutex<usize>,
    /// Why the grader cannot vouch for scenarios this runner forks, once it cannot: the
    /// submission gets a fresh process per scenario from then on.
    distrust: Mutex<Option<String>>,
}

/// Whether a forked scenario's run stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Vouch {
    /// The grader read all of it itself.
    Stands,
    /// The runner ended while the scenario ran (killed by it, maybe).
    RunnerEnded,
    /// The runner may have touched the scenario: why.
    Distrusted(String),
}

impl Server {
    /// Starts `launch` (the runner's command line, laid out beside the submission) in
    /// `jail` and waits up to `wait` for it to load. The error says why this submission
    /// needs a fresh process per scenario.
    pub fn start(
        jail: &Jail,
        launch: &Launch,
        view: &View,
        limits: &Limits,
        wait: Duration,
    ) -> Result<Server, String> {
        let deadline = Instant::now() + wait;
        let (control, theirs) =
            channel::pair().map_err(|e| format!("no control socket for the runner: {e}"))?;
        let (gate_read, gate_write) =
            pipe_with(PipeFlags::CLOEXEC).map_err(|e| format!("no gate for the runner: {e}"))?;
        let gate = inject::Gate::of(&gate_read).map_err(|e| format!("no gate: {e}"))?;
        let run = jail.prepare_idle(launch, view).map_err(|e| e.to_string())?;
        run.cap_memory(limits.memory_bytes);
        // The runner has no CPU limit of its own: each scenario's process gets one. It counts
        // against the user's process limit, so it has room for one process more.
        let limits = Limits {
            cpu_seconds: None,
            processes: limits.processes.map(|n| n + 1),
            ..limits.clone()
        };
        let mut process = spawn_from_keeper(
            &run.launch,
            &limits,
            [Stdio::from(theirs), Stdio::null(), Stdio::null()],
        )
        .map_err(|e| format!("the runner did not start: {e}"))?;
        let end = |process: &mut Child, why: String| {
            kill_group(process.id());
            let _ = process.kill();
            let _ = process.wait();
            why
        };
        // The first message comes before any student code runs: its sender is the runner.
        let hello = match channel::receive(control.as_fd(), deadline, None) {
            Ok(message) if message.bytes == b"hello" => message,
            other => return Err(end(&mut process, silence("start", other))),
        };
        let uid = run
            .user()
            .map_or_else(|| rustix::process::geteuid().as_raw(), |u| u.uid);
        let pidfd = match pidfd_open(hello.pid, PidfdFlags::empty()) {
            Ok(pidfd) if hello.uid == uid => pidfd,
            _ => {
                return Err(end(
                    &mut process,
                    "the runner is not who it should be".into(),
                ))
            }
        };
        let pid = hello.pid.as_raw_nonzero().get();
        // The runner waits for `on` before it imports anything: what it holds now is its own.
        let mut baseline = match inspect::Baseline::of(pid) {
            Ok(baseline) => baseline.holding(gate.file()),
            Err(why) => return Err(end(&mut process, why)),
        };
        if let Err(e) = channel::send(&control, b"on", &[gate_read.as_fd()]) {
            return Err(end(&mut process, format!("the runner went away: {e}")));
        }
        match channel::receive(control.as_fd(), deadline, Some(pidfd.as_fd())) {
            Ok(message) if message.bytes == b"loaded" && message.pid == hello.pid => {}
            Ok(message) => {
                let text = String::from_utf8_lossy(&message.bytes).into_owned();
                let why = match text.strip_prefix("fallback ") {
                    Some(reason) => reason.to_string(),
                    None => format!("the runner said {text:?}"),
                };
                return Err(end(&mut process, why));
            }
            Err(Silence::TimedOut) => {
                return Err(end(
                    &mut process,
                    format!(
                        "its import did not finish within {:.0} s",
                        wait.as_secs_f64()
                    ),
                ))
            }
            other => return Err(end(&mut process, silence("load", other))),
        }
        // Its folders are recorded next, as root maybe: first the runner must be found where
        // it runs nothing (on its way there it could run code its import patched in, a
        // `prctl` or a read of its own), alone in its run (a process left beside it could
        // put a link where a file was, and have the grader write through it), and holding
        // nothing its import added. Found there once, it cannot move.
        let chain = chain_to_grader(pid);
        let check = || {
            baseline.check_loaded(pid)?;
            inspect::check_closed(pid, uid)?;
            alone(&run, &chain)
        };
        let at = match until_at_gate(|| inject::find(pid, gate, &check)) {
            Ok(at) => at,
            Err(refusal) => return Err(end(&mut process, refusal.to_string())),
        };
        if let Err(why) = baseline.settle_temporary() {
            return Err(end(&mut process, why));
        }
        let ipc = match ipc::IpcNamespace::of(pid) {
            Ok(ipc) => ipc,
            Err(why) => return Err(end(&mut process, why)),
        };
        match ipc.as_ref().map(ipc::IpcNamespace::clear) {
            None | Some(Ok(0)) => {}
            Some(Ok(_)) => {
                return Err(end(
                    &mut process,
                    "its import makes IPC objects (System V, or POSIX message queues)".into(),
                ))
            }
            Some(Err(why)) => return Err(end(&mut process, why)),
        }
        let server = Server {
            control,
            loaded_cpu: forked::cpu_time_of(pid).unwrap_or_default(),
            chain,
            process,
            run,
            pid: hello.pid,
            pidfd,
            uid,
            broken: AtomicBool::new(false),
            baseline,
            ipc,
            status_lost: Arc::new(AtomicBool::new(false)),
            _gate: gate_write,
            at,
            unreaped: Mutex::new(0),
            distrust: Mutex::new(None),
        };
        Ok(server)
    }

    /// Whether the runner can serve another scenario: it runs and never misbehaved.
    pub fn alive(&self) -> bool {
        !self.broken.load(Ordering::Relaxed) && self.distrusted().is_none() && self.running()
    }

    /// Why the grader can no longer vouch for this runner's scenarios, if it cannot.
    pub fn distrusted(&self) -> Option<String> {
        self.distrust
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    fn distrust(&self, why: String) {
        self.distrust
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_or_insert(why);
    }

    /// Whether the scenarios the runner was copied for, now ended, stand as they ran: see
    /// [`Vouch`]. The runner cannot have run meanwhile (it was checked waiting on its gate
    /// at each copy); what is left is whether a scenario's exit status was lost and whether
    /// the runner still lives. Asked again before the next copy, it gives the same answer.
    pub fn vouch(&self) -> Vouch {
        if !self.running() {
            return Vouch::RunnerEnded;
        }
        if self.status_lost.swap(false, Ordering::Relaxed) {
            self.distrust("its import takes its scenarios' exit status".to_string());
        }
        match self.distrusted() {
            Some(why) => Vouch::Distrusted(why),
            None => Vouch::Stands,
        }
    }

    /// A copy of the runner, from where it waits on its gate (one copy at a time).
    fn copy(&self) -> Result<inject::Copied, String> {
        let mut unreaped = self.unreaped.lock().unwrap_or_else(|e| e.into_inner());
        let pid = self.pid.as_raw_nonzero().get();
        match until_at_gate(|| inject::copy(pid, self.at, *unreaped)) {
            Ok(copied) => {
                *unreaped = *unreaped - copied.reaped + 1;
                Ok(copied)
            }
            // Any runner of this submission would be the same: fresh processes from now.
            Err(inject::Refusal::Unfit(why)) => {
                self.distrust(why.clone());
                Err(why)
            }
            Err(refusal) => Err(refusal.to_string()),
        }
    }

    /// Empties the runner's own `/tmp`, `/dev/shm` and IPC namespace for the next scenario;
    /// call it once every process of the last one is dead. A runner that cannot be emptied is
    /// not used again.
    pub fn clear_after_scenario(&self) {
        let pid = self.pid.as_raw_nonzero().get();
        let cleared = inspect::check_nothing_pending(pid)
            .and_then(|()| self.baseline.clear_temporary())
            .and_then(|()| {
                self.ipc
                    .as_ref()
                    .map_or(Ok(0), ipc::IpcNamespace::clear)
                    .map(drop)
            });
        if let Err(why) = cleared {
            self.distrust(why);
        }
    }

    fn running(&self) -> bool {
        !self.ends_within(Duration::ZERO)
    }

    /// Whether the runner has ended, or ends within `wait`.
    fn ends_within(&self, wait: Duration) -> bool {
        use super::sys::{poll, Interest};
        poll(&[Some((self.pidfd.as_fd(), Interest::Readable))], wait)[0]
    }

    /// The runner and the processes between it and the grader, to spare when a scenario's
    /// leftovers are killed.
    pub fn chain(&self) -> &[i32] {
        &self.chain
    }

    /// The runner's run, whose cgroup its scenarios share.
    pub fn run(&self) -> &Run {
        &self.run
    }

    /// CPU time the runner used to start and load, charged to each scenario.
    pub fn loaded_cpu(&self) -> Duration {
        self.loaded_cpu
    }

    /// Whether a copy of the runner can be held to `limits` as a fresh process is: its CPU
    /// limit is what the import left of the scenario's, and the kernel sets none below a
    /// second (a limit of 0 is taken as 1). Where the import spent the limit to within a
    /// second, a fresh process, which spends it importing, is the only faithful run.
    pub fn leaves_cpu_for(&self, limits: &Limits) -> bool {
        limits
            .cpu_seconds
            .is_none_or(|cpu| Duration::from_secs(cpu) >= self.loaded_cpu + Duration::from_secs(1))
    }

    /// A process forked for one scenario, under `limits`, driven until `deadline`. The error
    /// says why the runner could not give one (it is then not used again).
    pub fn fork(&self, limits: &Limits, deadline: Instant) -> Result<Running, String> {
        let started = Instant::now();
        let forked = self.fork_inner(limits);
        if forked.is_err() {
            self.broken.store(true, Ordering::Relaxed);
        }
        let (forked, pipes) = forked?;
        Ok(Running::forked(forked, pipes, limits, started, deadline))
    }

    fn fork_inner(&self, limits: &Limits) -> Result<(Forked, [OwnedFd; 3]), String> {
        // The last scenario was not vouched for by its caller (a match's process that ended
        // before the match did): it is now, before the runner is woken for another.
        match self.vouch() {
            Vouch::Stands => {}
            Vouch::RunnerEnded => return Err("the runner ended".into()),
            Vouch::Distrusted(why) => return Err(why),
        }
        let io = |e: rustix::io::Errno| format!("cannot make a pipe: {e}");
        let (stdin_read, stdin_write) = pipe_with(PipeFlags::CLOEXEC).map_err(io)?;
        let (stdout_read, stdout_write) = pipe_with(PipeFlags::CLOEXEC).map_err(io)?;
        let (stderr_read, stderr_write) = pipe_with(PipeFlags::CLOEXEC).map_err(io)?;
        let (handshake, theirs) =
            channel::pair().map_err(|e| format!("no socket for the handshake: {e}"))?;
        // RLIMIT_CPU counts from the fork: what the runner used to start and load is taken
        // off (to the second, the limit's own unit; a run whose limit the import spent is
        // not forked, see `leaves_cpu_for`). RLIMIT_NPROC counts every process of the user:
        // the runner is one more than a fresh process has beside it.
        let scenario_limits = Limits {
            cpu_seconds: limits
                .cpu_seconds
                .map(|cpu| cpu.saturating_sub(self.loaded_cpu.as_secs())),
            processes: limits.processes.map(|n| n + 1),
            ..limits.clone()
        };
        channel::send(
            &self.control,
            &limits::request(&scenario_limits),
            &[
                stdin_read.as_fd(),
                stdout_write.as_fd(),
                stderr_write.as_fd(),
                theirs.as_fd(),
            ],
        )
        .map_err(|e| format!("the runner does not take requests: {e}"))?;
        let given = [&stdin_read, &stdout_write, &stderr_write, &theirs].map(inspect::identity);
        drop((stdin_read, stdout_write, stderr_write, theirs));
        // The copy reads the request just sent: the runner itself reads only its gate.
        let copy = self.copy()?;
        let ready = channel::receive(
            handshake.as_fd(),
            Instant::now() + READY_WAIT,
            Some(self.pidfd.as_fd()),
        );
        let ready = match ready {
            Ok(message)
                if message.bytes == b"ready" && message.pid.as_raw_nonzero().get() == copy.pid =>
            {
                message
            }
            other => return Err(silence("fork", other)),
        };
        let forked = self.adopt(&ready, copy)?;
        limits::verify(ready.pid, &scenario_limits)?;
        // Any runner of this submission would hold the same: fresh processes from now.
        let pid = ready.pid.as_raw_nonzero().get();
        let checked =
            inspect::check_descriptors(pid, &given).and_then(|()| self.baseline.check_copy(pid));
        if let Err(why) = checked {
            self.distrust(why.clone());
            return Err(why);
        }
        channel::send(&handshake, b"go", &[])
            .map_err(|e| format!("the scenario's process went away: {e}"))?;
        Ok((forked, [stdin_write, stdout_read, stderr_read]))
    }

    /// The copy, once the grader has checked that it is the process that said `ready`, with
    /// the expected user. Its pidfd was opened while the grader held it stopped, and the
    /// message carries its pid as the kernel saw the sender: while the copy is not reaped no
    /// other process can hold that pid, so the sender was the copy.
    fn adopt(&self, ready: &Message, copy: inject::Copied) -> Result<Forked, String> {
        if ready.uid != self.uid {
            return Err("a process other than the runner's child answered".into());
        }
        let forked = Forked::new(
            ready.pid,
            copy.pidfd,
            self.pid,
            Arc::clone(&self.status_lost),
        );
        if !forked.unreaped() {
            return Err("the scenario's process went away".into());
        }
        Ok(forked)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // Its run (dropped next) kills every process of the jail's user.
        kill_group(self.process.id());
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

/// A job for the keeper thread.
type Spawn = Box<dyn FnOnce() + Send>;

/// [`spawn_with`] on a thread that lives as long as the grader. A runner dies with the thread
/// that started it (its death signal, and bubblewrap's `--die-with-parent`, follow the parent
/// thread), and it outlives the worker thread that first needed it.
fn spawn_from_keeper(
    launch: &Launch,
    limits: &Limits,
    stdio: [Stdio; 3],
) -> std::io::Result<Child> {
    static KEEPER: OnceLock<Mutex<mpsc::Sender<Spawn>>> = OnceLock::new();
    let keeper = KEEPER.get_or_init(|| {
        let (jobs, receiver) = mpsc::channel::<Spawn>();
        std::thread::spawn(move || receiver.iter().for_each(|job| job()));
        Mutex::new(jobs)
    });
    let (launch, limits) = (launch.clone(), limits.clone());
    let (reply, answer) = mpsc::channel();
    let job: Spawn = Box::new(move || {
        let _ = reply.send(spawn_with(&launch, &limits, stdio));
    });
    keeper
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .send(job)
        .map_err(|_| std::io::Error::other("the thread that starts runners is gone"))?;
    answer
        .recv()
        .map_err(|_| std::io::Error::other("the thread that starts runners is gone"))?
}

/// Why a message did not come (or was the wrong one), at `stage`.
fn silence(stage: &str, got: Result<Message, Silence>) -> String {
    match got {
        Ok(message) => format!(
            "the runner answered {:?} at {stage}",
            String::from_utf8_lossy(&message.bytes)
        ),
        Err(Silence::Closed) => format!("the runner ended at {stage}"),
        Err(Silence::TimedOut) => format!("the runner did not answer at {stage}"),
        Err(Silence::Failed(e)) => format!("the runner's channel failed at {stage}: {e}"),
    }
}

/// `attempt` on a runner until it finds it at its gate. A runner found on its way there is
/// let go and looked at again: the first time, on its way from `loaded`; later, just set
/// back into its read by the last copy and not yet run again (a busy machine may not have
/// run it since).
fn until_at_gate<T>(
    attempt: impl Fn() -> Result<T, inject::Refusal>,
) -> Result<T, inject::Refusal> {
    let deadline = Instant::now() + READY_WAIT;
    let mut pause = Duration::from_micros(100);
    loop {
        match attempt() {
            Err(inject::Refusal::NotWaiting) if Instant::now() < deadline => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(5));
            }
            done => return done,
        }
    }
}

/// Why a loaded runner is not alone in `run`, if it is not: a process its import left
/// beside it (not its child, so the runner's own look at its children misses it) could
/// write the runner's memory while it waits, or the folder while the grader records it, and
/// so carry one scenario into the next. `chain`: the runner and the sandbox around it.
fn alone(run: &Run, chain: &[i32]) -> Result<(), String> {
    if run.living_besides(chain).is_empty() {
        Ok(())
    } else {
        Err("its import leaves a process running beside it".into())
    }
}

/// `pid` and its ancestors up to (not including) the grader.
fn chain_to_grader(pid: i32) -> Vec<i32> {
    let me = std::process::id() as i32;
    let mut chain = Vec::new();
    let mut current = pid;
    while current > 1 && current != me && chain.len() < 16 {
        chain.push(current);
        match forked::parent_of(current) {
            Some(parent) => current = parent,
            None => break,
        }
    }
    chain
}
