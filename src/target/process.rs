//! Running one student process under limits: input written, output read and capped, a
//! wall-clock deadline, and the whole process group killed at the end, whatever it did.
//!
//! One thread drives everything with `poll(2)`: stdin is written as the program reads it,
//! stdout and stderr are drained as they fill, and a pidfd says when the process has ended,
//! so a program that never reads, floods, or exits while a background child holds its pipes
//! cannot stall the grader.

use std::ffi::OsString;
use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use super::sandbox::Confinement;

/// What a student process may use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    pub wall: Duration,
    /// Most bytes of stdout kept; more is an `output-limit`.
    pub output_bytes: usize,
    /// Most bytes of the end of stderr kept.
    pub stderr_tail_bytes: usize,
    /// Address-space limit (RLIMIT_AS).
    pub memory_bytes: Option<u64>,
    /// CPU-time limit in seconds (RLIMIT_CPU).
    pub cpu_seconds: Option<u64>,
    /// Largest file the program may write (RLIMIT_FSIZE).
    pub file_bytes: Option<u64>,
    /// Process limit (RLIMIT_NPROC; counts every process of the user, and root is exempt).
    pub processes: Option<u64>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            wall: Duration::from_secs(10),
            output_bytes: 1 << 20,
            stderr_tail_bytes: 16 << 10,
            memory_bytes: Some(2 << 30),
            cpu_seconds: None,
            file_bytes: Some(16 << 20),
            processes: None,
        }
    }
}

/// A program to start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Launch {
    pub program: PathBuf,
    pub args: Vec<OsString>,
    pub cwd: PathBuf,
    pub env: Vec<(OsString, OsString)>,
    /// User, cgroup and clean environment for a student process (see [`Confinement`]).
    pub confinement: Option<Confinement>,
}

impl Launch {
    /// `sh -c SCRIPT` in `cwd`.
    pub fn shell(script: &str, cwd: PathBuf) -> Launch {
        Launch {
            program: "sh".into(),
            args: vec!["-c".into(), script.into()],
            cwd,
            env: Vec::new(),
            confinement: None,
        }
    }
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    Exited(i32),
    Signaled(i32),
    /// Killed at the wall-clock limit.
    TimedOut,
    /// Killed for writing more than the output cap.
    OutputLimit,
    /// The program could not be started.
    NotStarted(String),
    /// Killed because the run was cancelled (Ctrl-C).
    Cancelled,
}

/// Everything a run produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Execution {
    pub stdout: Vec<u8>,
    /// The last bytes of stderr.
    pub stderr_tail: Vec<u8>,
    pub ending: Ending,
    pub elapsed: Duration,
}

/// How long to keep draining pipes after the process ended (a child that escaped its
/// process group may hold them open forever).
pub(crate) const DRAIN_GRACE: Duration = Duration::from_millis(200);
const CHUNK: usize = 64 << 10;

fn set_limit(resource: libc::__rlimit_resource_t, value: Option<u64>) -> io::Result<()> {
    if let Some(value) = value {
        let limit = libc::rlimit {
            rlim_cur: value as libc::rlim_t,
            rlim_max: value as libc::rlim_t,
        };
        // SAFETY: setrlimit only reads the struct we pass.
        if unsafe { libc::setrlimit(resource, &limit) } != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

pub(crate) fn set_nonblocking(fd: RawFd) {
    // SAFETY: fcntl on a descriptor we own; failure leaves it blocking, which poll tolerates.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags >= 0 {
            libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
        }
    }
}

/// A pollable descriptor that becomes readable when the process ends (Linux 5.3+).
pub(crate) fn pidfd(pid: u32) -> Option<OwnedFd> {
    // SAFETY: pidfd_open takes a pid and flags and returns a new descriptor or -1.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid as libc::pid_t, 0) };
    // SAFETY: a non-negative return is a descriptor we now own.
    (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd as RawFd) })
}

pub(crate) fn kill_group(pgid: u32) {
    // SAFETY: signals the process group we created; ESRCH (already gone) is fine.
    unsafe {
        libc::kill(-(pgid as libc::pid_t), libc::SIGKILL);
    }
}

pub(crate) fn start(launch: &Launch, limits: &Limits) -> io::Result<Child> {
    let mut command = Command::new(&launch.program);
    if launch.confinement.is_some() {
        command.env_clear(); // the launch's own variables are all a confined program gets
    }
    command
        .args(&launch.args)
        .current_dir(&launch.cwd)
        .envs(launch.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let limits = limits.clone();
    // SAFETY: the closure runs between fork and exec and only calls setrlimit, which is
    // async-signal-safe.
    unsafe {
        command.pre_exec(move || {
            set_limit(libc::RLIMIT_CORE, Some(0))?;
            set_limit(libc::RLIMIT_AS, limits.memory_bytes)?;
            set_limit(libc::RLIMIT_CPU, limits.cpu_seconds)?;
            set_limit(libc::RLIMIT_FSIZE, limits.file_bytes)?;
            set_limit(libc::RLIMIT_NPROC, limits.processes)?;
            Ok(())
        });
    }
    // After the limits, which need the grader's privileges to be raised.
    if let Some(confinement) = &launch.confinement {
        confinement.apply(&mut command)?;
    }
    command.spawn()
}

/// The peak resident memory of this process (the grader itself, not its children), in KiB.
pub fn own_peak_rss_kib() -> u64 {
    // SAFETY: getrusage fills the struct we pass.
    unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        if libc::getrusage(libc::RUSAGE_SELF, &mut usage) == 0 {
            usage.ru_maxrss as u64
        } else {
            0
        }
    }
}

/// Runs the program with `input` on stdin (then closed) under `limits`.
pub fn run(launch: &Launch, input: &[u8], limits: &Limits) -> Execution {
    let started = Instant::now();
    let mut child = match start(launch, limits) {
        Ok(child) => child,
        Err(error) => {
            return Execution {
                stdout: Vec::new(),
                stderr_tail: Vec::new(),
                ending: Ending::NotStarted(format!("{}: {error}", launch.program.display())),
                elapsed: started.elapsed(),
            }
        }
    };
    let pid = child.id();
    let mut io = Pipes::new(&mut child, input);
    let exit_fd = pidfd(pid);
    let deadline = started + limits.wall;
    let mut stdout = Vec::new();
    let mut stderr = Vec::new();
    let mut ending = None;
    let mut exited = false;

    while ending.is_none() && !exited {
        let now = Instant::now();
        if now >= deadline {
            ending = Some(Ending::TimedOut);
            break;
        }
        if crate::cancel::is_requested() {
            ending = Some(Ending::Cancelled);
            break;
        }
        // Without a pidfd, wake up regularly to ask whether the process ended.
        // Wake up now and then to notice a cancelled run.
        let wait = if exit_fd.is_some() {
            (deadline - now).min(Duration::from_millis(100))
        } else {
            (deadline - now).min(Duration::from_millis(10))
        };
        let ready = io.poll(exit_fd.as_ref().map(AsRawFd::as_raw_fd), wait);
        io.pump(&ready, &mut stdout, &mut stderr, limits);
        if stdout.len() > limits.output_bytes {
            stdout.truncate(limits.output_bytes);
            ending = Some(Ending::OutputLimit);
        } else if ready.exited || (exit_fd.is_none() && matches!(child.try_wait(), Ok(Some(_)))) {
            exited = true;
        }
    }
    // Whatever happened, nothing of the program outlives this call.
    kill_group(pid);
    if exited {
        let grace = Instant::now() + DRAIN_GRACE;
        while io.output_open() && Instant::now() < grace {
            let ready = io.poll(None, grace - Instant::now());
            io.pump(&ready, &mut stdout, &mut stderr, limits);
        }
        if stdout.len() > limits.output_bytes {
            stdout.truncate(limits.output_bytes);
            ending = Some(Ending::OutputLimit);
        }
    }
    let status = child.wait();
    let ending = ending.unwrap_or_else(|| ending_of(status));
    Execution {
        stdout,
        stderr_tail: stderr,
        ending,
        elapsed: started.elapsed(),
    }
}

/// How a process that ended by itself ended, from its wait status.
pub(crate) fn ending_of(status: io::Result<std::process::ExitStatus>) -> Ending {
    match status {
        Ok(status) => match (status.code(), status.signal()) {
            (Some(code), _) => Ending::Exited(code),
            (None, Some(signal)) => Ending::Signaled(signal),
            (None, None) => Ending::Exited(-1),
        },
        Err(error) => Ending::NotStarted(format!("wait failed: {error}")),
    }
}

/// Which descriptors poll found ready.
#[derive(Debug, Default)]
struct Ready {
    stdin: bool,
    stdout: bool,
    stderr: bool,
    exited: bool,
}

/// The child's three pipes, any of which may already be closed.
struct Pipes<'a> {
    stdin: Option<std::process::ChildStdin>,
    stdout: Option<std::process::ChildStdout>,
    stderr: Option<std::process::ChildStderr>,
    input: &'a [u8],
    written: usize,
}

/// The child's three pipes, taken from it and made non-blocking.
pub(crate) fn take_pipes(
    child: &mut Child,
) -> (Option<ChildStdin>, Option<ChildStdout>, Option<ChildStderr>) {
    let (stdin, stdout, stderr) = (child.stdin.take(), child.stdout.take(), child.stderr.take());
    let fds = [
        stdin.as_ref().map(AsRawFd::as_raw_fd),
        stdout.as_ref().map(AsRawFd::as_raw_fd),
        stderr.as_ref().map(AsRawFd::as_raw_fd),
    ];
    for fd in fds.into_iter().flatten() {
        set_nonblocking(fd);
    }
    (stdin, stdout, stderr)
}

impl<'a> Pipes<'a> {
    fn new(child: &mut Child, input: &'a [u8]) -> Self {
        let (stdin, stdout, stderr) = take_pipes(child);
        let stdin = stdin.filter(|_| !input.is_empty());
        Pipes {
            stdin,
            stdout,
            stderr,
            input,
            written: 0,
        }
    }

    fn output_open(&self) -> bool {
        self.stdout.is_some() || self.stderr.is_some()
    }

    fn poll(&self, exit_fd: Option<RawFd>, wait: Duration) -> Ready {
        let mut fds = Vec::with_capacity(4);
        let mut slots = [None; 4];
        let mut add = |slot: usize, fd: Option<RawFd>, events: libc::c_short| {
            if let Some(fd) = fd {
                slots[slot] = Some(fds.len());
                fds.push(libc::pollfd {
                    fd,
                    events,
                    revents: 0,
                });
            }
        };
        add(
            0,
            self.stdin.as_ref().map(AsRawFd::as_raw_fd),
            libc::POLLOUT,
        );
        add(
            1,
            self.stdout.as_ref().map(AsRawFd::as_raw_fd),
            libc::POLLIN,
        );
        add(
            2,
            self.stderr.as_ref().map(AsRawFd::as_raw_fd),
            libc::POLLIN,
        );
        add(3, exit_fd, libc::POLLIN);
        let millis = wait.as_millis().clamp(1, i32::MAX as u128) as libc::c_int;
        if fds.is_empty() {
            std::thread::sleep(wait.min(Duration::from_millis(10)));
            return Ready::default();
        }
        // SAFETY: fds is a valid array of pollfd of the given length.
        let n = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, millis) };
        if n <= 0 {
            return Ready::default();
        }
        let fired = |slot: usize| slots[slot].is_some_and(|i| fds[i].revents != 0);
        Ready {
            stdin: fired(0),
            stdout: fired(1),
            stderr: fired(2),
            exited: fired(3),
        }
    }

    fn pump(&mut self, ready: &Ready, stdout: &mut Vec<u8>, stderr: &mut Vec<u8>, limits: &Limits) {
        if ready.stdin {
            self.write_input();
        }
        if ready.stdout && !drain(&mut self.stdout, stdout, limits.output_bytes + 1) {
            self.stdout = None;
        }
        if ready.stderr {
            let open = drain(&mut self.stderr, stderr, usize::MAX);
            if stderr.len() > limits.stderr_tail_bytes {
                let cut = stderr.len() - limits.stderr_tail_bytes;
                stderr.drain(..cut);
            }
            if !open {
                self.stderr = None;
            }
        }
    }

    fn write_input(&mut self) {
        let Some(pipe) = self.stdin.as_mut() else {
            return;
        };
        loop {
            match pipe.write(&self.input[self.written..]) {
                Ok(n) => {
                    self.written += n;
                    if self.written >= self.input.len() {
                        self.stdin = None; // all sent: close, so the program sees end of input
                        return;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => {
                    // The program closed its stdin (or exited): it reads no more.
                    self.stdin = None;
                    return;
                }
            }
        }
    }
}

/// Reads what is available into `into` (up to `cap` bytes in all); false at end of stream.
pub(crate) fn drain<R: Read>(pipe: &mut Option<R>, into: &mut Vec<u8>, cap: usize) -> bool {
    let Some(reader) = pipe.as_mut() else {
        return false;
    };
    let mut buf = [0u8; CHUNK];
    loop {
        match reader.read(&mut buf) {
            Ok(0) => return false,
            Ok(n) => {
                into.extend_from_slice(&buf[..n]);
                if into.len() >= cap {
                    return true;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => return true,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => return false,
        }
    }
}
