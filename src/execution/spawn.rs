//! Starting one student process: its own process group, resource limits, then the sandbox's
//! per-spawn confinement, all applied in the child before the program runs. Every student
//! process of every use (scenarios, matches, fuzz, the Python runner) starts here.

use std::ffi::OsString;
use std::io;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use rustix::process::{setrlimit, Resource, Rlimit};

use super::sandbox::confine::Confinement;

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
    /// What the sandbox does in the child just before the program runs (see
    /// [`Confinement`]); empty by default.
    pub confinement: Confinement,
}

impl Launch {
    /// `program ARGS...` in `cwd`, with the environment inherited.
    pub fn new(program: impl Into<PathBuf>, args: Vec<OsString>, cwd: PathBuf) -> Launch {
        Launch {
            program: program.into(),
            args,
            cwd,
            env: Vec::new(),
            confinement: Confinement::default(),
        }
    }

    /// `sh -c SCRIPT` in `cwd`.
    pub fn shell(script: &str, cwd: PathBuf) -> Launch {
        Launch::new("sh", vec!["-c".into(), script.into()], cwd)
    }
}

/// Starts `launch` with piped stdin, stdout and stderr, in a process group of its own (so
/// the whole group can be killed), under `limits`.
pub(crate) fn spawn(launch: &Launch, limits: &Limits) -> io::Result<Child> {
    spawn_with(
        launch,
        limits,
        [Stdio::piped(), Stdio::piped(), Stdio::piped()],
    )
}

/// [`spawn`] with the given stdin, stdout and stderr.
pub(crate) fn spawn_with(
    launch: &Launch,
    limits: &Limits,
    [stdin, stdout, stderr]: [Stdio; 3],
) -> io::Result<Child> {
    let mut command = Command::new(&launch.program);
    if launch.confinement.clean_env {
        command.env_clear(); // the launch's own variables are all a confined program gets
    }
    command
        .args(&launch.args)
        .current_dir(&launch.cwd)
        .envs(launch.env.iter().map(|(k, v)| (k, v)))
        .stdin(stdin)
        .stdout(stdout)
        .stderr(stderr)
        .process_group(0);
    let limits = limits.clone();
    let confinement = launch.confinement.clone();
    confinement.prepare_in_parent();
    // SAFETY: the closure runs between fork and exec. It only makes setrlimit system calls
    // on values computed before the fork, then runs the confinement, whose contract is the
    // same (no allocation, no locks).
    unsafe {
        command.pre_exec(move || {
            close_inherited_on_exec()?;
            apply_limits(&limits)?;
            confinement.apply_in_child()
        });
    }
    command.spawn()
}

/// Marks every descriptor above stderr close-on-exec, in the child before the confinement
/// hands on the one it passes: the program gets its stdin, stdout and stderr, never a
/// descriptor the grader inherited from whoever started it (a log or results file a wrapper
/// opened, a pipe), which it could otherwise write into. Only system calls, as between fork
/// and exec.
fn close_inherited_on_exec() -> io::Result<()> {
    const CLOSE_RANGE_CLOEXEC: libc::c_uint = 1 << 2;
    // SAFETY: close_range (Linux 5.11+ for this flag) only changes descriptor flags.
    let marked = unsafe {
        libc::syscall(
            libc::SYS_close_range,
            3 as libc::c_uint,
            libc::c_uint::MAX,
            CLOSE_RANGE_CLOEXEC,
        )
    };
    if marked == 0 {
        return Ok(());
    }
    // Older kernels: each possible descriptor in turn (a closed one fails harmlessly).
    let most = rustix::process::getrlimit(Resource::Nofile)
        .current
        .unwrap_or(1 << 16)
        .min(1 << 16);
    for fd in 3..most as i32 {
        // SAFETY: fcntl on a number that may not be open is EBADF, nothing else.
        let fd = unsafe { std::os::fd::BorrowedFd::borrow_raw(fd) };
        if let Ok(flags) = rustix::io::fcntl_getfd(fd) {
            rustix::io::fcntl_setfd(fd, flags | rustix::io::FdFlags::CLOEXEC)?;
        }
    }
    Ok(())
}

/// A resource limit's soft and hard values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Bounds {
    pub soft: u64,
    pub hard: u64,
}

impl Bounds {
    fn exactly(value: u64) -> Bounds {
        Bounds {
            soft: value,
            hard: value,
        }
    }

    /// The CPU-time limit: SIGXCPU at `seconds`, SIGKILL a second later. Only this limit
    /// sends SIGXCPU, so a program it ends is known to have used its time. That matters
    /// because the kernel counts time for the limit in whole clock ticks, which charge a
    /// busy program that shares the CPU for more than it ran: its own precise count (and
    /// its cgroup's) may show a fifth less when the limit ends it. The hard limit ends a
    /// program that ignores SIGXCPU.
    fn cpu(seconds: u64) -> Bounds {
        Bounds {
            soft: seconds,
            hard: seconds + 1,
        }
    }
}

/// The resource limits `limits` sets, with their values (none: left as they are).
pub(crate) fn resource_limits(limits: &Limits) -> [(Resource, Option<Bounds>); 5] {
    [
        (Resource::Core, Some(Bounds::exactly(0))),
        (Resource::As, limits.memory_bytes.map(Bounds::exactly)),
        (Resource::Cpu, limits.cpu_seconds.map(Bounds::cpu)),
        (Resource::Fsize, limits.file_bytes.map(Bounds::exactly)),
        (Resource::Nproc, limits.processes.map(Bounds::exactly)),
    ]
}

/// Sets the resource limits of the calling process (in a child, before it runs the program).
pub(crate) fn apply_limits(limits: &Limits) -> io::Result<()> {
    for (resource, bounds) in resource_limits(limits) {
        if let Some(Bounds { soft, hard }) = bounds {
            let limit = Rlimit {
                current: Some(soft),
                maximum: Some(hard),
            };
            setrlimit(resource, limit).map_err(io::Error::from)?;
        }
    }
    Ok(())
}
