//! Copies a loaded runner from outside it. Once loaded, the runner blocks every signal and
//! reads the gate, a pipe only the grader can write, and never runs again. For each scenario
//! the grader stops it (ptrace), checks it is still there, and has it make one system call at
//! a time: `wait4` for each copy that ended since the last one, then a `clone`. The copy
//! starts as the runner was, with its read ended and nothing read; the runner reads the gate
//! again. The grader holds the copy by a pidfd opened while the copy is still stopped under
//! its trace.
//!
//! So no code runs in the runner between two scenarios: not a fork hook, not a patched
//! builtin, not a trace function, not an audit hook. Each scenario's process is a copy of
//! the same state, the one right after the import, as closed as a fresh process. The check
//! comes from the kernel, not from anything the runner says: the system call it is blocked
//! in, on which file, how many threads it has, and which signals it blocks.
//!
//! ptrace needs the right to trace the runner: root's CAP_SYS_PTRACE, or bubblewrap's user
//! namespace, which the grader owns. Without it, or on a machine other than x86-64, the
//! runner cannot be copied and its submission gets a fresh process per scenario.

use std::os::fd::AsFd;
use std::os::unix::fs::MetadataExt;

/// The gate as the kernel knows it: the device and inode of the pipe.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Gate {
    device: u64,
    inode: u64,
}

impl Gate {
    /// The pipe `end` belongs to.
    pub(crate) fn of(end: impl AsFd) -> std::io::Result<Gate> {
        let stat = rustix::fs::fstat(end)?;
        Ok(Gate {
            device: stat.st_dev,
            inode: stat.st_ino,
        })
    }

    /// Its device and inode.
    pub(crate) fn file(self) -> (u64, u64) {
        (self.device, self.inode)
    }

    /// Whether descriptor `fd` of process `pid` is this gate.
    fn held_as(self, pid: i32, fd: u64) -> bool {
        std::fs::metadata(format!("/proc/{pid}/fd/{fd}"))
            .is_ok_and(|meta| meta.dev() == self.device && meta.ino() == self.inode)
    }
}

/// Why a runner was not copied.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Refusal {
    /// Not (yet) blocked in a read of its gate: on its way there, or never going.
    #[error("the runner is not waiting on its gate")]
    NotWaiting,
    /// Waiting there, but what its import left makes it unfit to copy (the reason): it
    /// would be the same in any runner of this submission.
    #[error("{0}")]
    Unfit(String),
    #[error("{0}")]
    Failed(String),
}

impl From<String> for Refusal {
    fn from(why: String) -> Refusal {
        Refusal::Failed(why)
    }
}

/// A copy of the runner: its pid, and a pidfd opened while the grader still held it stopped
/// (traced) as it started, so that the descriptor is the copy's whatever happens to the pid
/// later.
#[derive(Debug)]
pub(crate) struct Copied {
    pub(crate) pid: i32,
    pub(crate) pidfd: std::os::fd::OwnedFd,
    /// How many earlier copies the runner reaped first.
    pub(crate) reaped: usize,
}

/// A check run while the runner is stopped at its gate, before it is copied.
pub(crate) type AtGate<'a> = &'a dyn Fn() -> Result<(), String>;

/// Where a runner was found waiting on its gate: the instruction after its `read` and the
/// descriptor it reads. Once the kernel has shown it there (one thread, every signal
/// blocked), it cannot have moved: a later copy needs only its registers to match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Waiting {
    rip: u64,
    fd: u64,
}

#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
pub(crate) use x86_64::{copy, find};

/// Without an implementation for this machine, no runner is found at its gate.
#[cfg(not(all(target_os = "linux", target_arch = "x86_64")))]
pub(crate) fn find(_runner: i32, _gate: Gate, _check: AtGate<'_>) -> Result<Waiting, Refusal> {
    Err(Refusal::Failed(
        "the grader cannot copy a runner on this machine".into(),
    ))
}

/// Without an implementation for this machine, no runner is copied.
#[cfg(not(all(target_os = "linux", target_arch = "x86_64")))]
pub(crate) fn copy(_runner: i32, _at: Waiting, _unreaped: usize) -> Result<Copied, Refusal> {
    Err(Refusal::Failed(
        "the grader cannot copy a runner on this machine".into(),
    ))
}

#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
mod x86_64 {
    use nix::libc::user_regs_struct;
    use nix::sys::ptrace::{self, Event, Options};
    use nix::sys::signal::Signal;
    use nix::sys::wait::{waitpid, WaitPidFlag, WaitStatus};
    use nix::unistd::Pid;

    use super::super::inspect::check_still;
    use super::{AtGate, Copied, Gate, Refusal, Waiting};

    const SYSCALL_INSTRUCTION: u16 = 0x050f; // `syscall`: 0f 05, read as a little-endian word
    const SYS_READ: u64 = 0;
    const SYS_CLONE: u64 = 56;
    const SYS_WAIT4: u64 = 61;
    /// `wait4` options: do not block, and reap any kind of child.
    const WAIT_ANY: u64 = (nix::libc::WNOHANG | nix::libc::__WALL) as u32 as u64;
    /// At most this many ended scenarios are reaped before each copy.
    const REAP_AT_MOST: usize = 64;

    /// A copy of runner `runner`, found waiting on its gate `at` (see [`find`]). The runner
    /// first reaps what has ended of the `unreaped` copies it made before (each call to
    /// `wait4` is a round trip through the stopped runner: none is made for a copy that
    /// cannot be there).
    pub(crate) fn copy(runner: i32, at: Waiting, unreaped: usize) -> Result<Copied, Refusal> {
        let pid = Pid::from_raw(runner);
        ptrace::seize(
            pid,
            Options::PTRACE_O_TRACESYSGOOD | Options::PTRACE_O_TRACEFORK,
        )
        .map_err(|e| format!("cannot trace the runner to copy it: {e}"))?;
        let copied = stop(pid)
            .map_err(Refusal::from)
            .and_then(|()| copy_stopped(pid, at, unreaped));
        // Detached whatever happened: a runner left stopped under trace would hang its jail.
        let _ = ptrace::detach(pid, None);
        copied
    }

    /// Where runner `runner` waits on `gate`, once the kernel shows it blocked there with one
    /// thread and every signal blocked and `check` passes while it is held stopped: from
    /// then on it cannot run, and it is left waiting as it was.
    pub(crate) fn find(runner: i32, gate: Gate, check: AtGate<'_>) -> Result<Waiting, Refusal> {
        let pid = Pid::from_raw(runner);
        ptrace::seize(pid, Options::PTRACE_O_TRACESYSGOOD)
            .map_err(|e| format!("cannot trace the runner to look at it: {e}"))?;
        let found = stop(pid).map_err(Refusal::from).and_then(|()| {
            let blocked = registers(pid)?;
            let (here, instruction) = at_gate(pid, &blocked, gate, check)?;
            restart(pid, blocked, instruction)?;
            Ok(here)
        });
        let _ = ptrace::detach(pid, None);
        found
    }

    /// Where the stopped runner, `blocked`, waits and the address of its `syscall`
    /// instruction, if it waits on `gate` as a loaded runner must and passes `check`.
    fn at_gate(
        pid: Pid,
        blocked: &user_regs_struct,
        gate: Gate,
        check: AtGate<'_>,
    ) -> Result<(Waiting, u64), Refusal> {
        let here = Waiting {
            rip: blocked.rip,
            fd: blocked.rdi,
        };
        if blocked.orig_rax != SYS_READ {
            return Err(Refusal::NotWaiting);
        }
        let instruction = blocked.rip.wrapping_sub(2);
        // Blocked in `read` on the gate, at a `syscall` instruction, one thread, every
        // signal blocked: it has not run since it was loaded and cannot.
        let word = ptrace::read(pid, instruction as ptrace::AddressType)
            .map_err(|e| format!("cannot read the runner's code: {e}"))?;
        if !gate.held_as(pid.as_raw(), here.fd) || word as u16 != SYSCALL_INSTRUCTION {
            return Err(Refusal::NotWaiting);
        }
        check_still(pid.as_raw()).map_err(Refusal::Unfit)?;
        check().map_err(Refusal::Unfit)?;
        Ok((here, instruction))
    }

    /// Sets the stopped runner back into its read of the gate, as if never stopped.
    fn restart(pid: Pid, blocked: user_regs_struct, instruction: u64) -> Result<(), String> {
        let restart = user_regs_struct {
            rax: SYS_READ,
            orig_rax: u64::MAX,
            rip: instruction,
            ..blocked
        };
        ptrace::setregs(pid, restart).map_err(|e| format!("cannot restore the runner: {e}"))
    }

    fn stop(pid: Pid) -> Result<(), String> {
        ptrace::interrupt(pid).map_err(|e| format!("cannot stop the runner: {e}"))?;
        match wait(pid)? {
            WaitStatus::PtraceEvent(_, Signal::SIGTRAP, event)
                if event == Event::PTRACE_EVENT_STOP as i32 =>
            {
                Ok(())
            }
            other => Err(format!("the runner stopped as {other:?}, not as asked")),
        }
    }

    fn copy_stopped(pid: Pid, known: Waiting, unreaped: usize) -> Result<Copied, Refusal> {
        let blocked = registers(pid)?;
        let here = Waiting {
            rip: blocked.rip,
            fd: blocked.rdi,
        };
        // Found at its gate once, it cannot have moved: its registers say it is there.
        if blocked.orig_rax != SYS_READ || known != here {
            return Err(Refusal::NotWaiting);
        }
        let instruction = blocked.rip.wrapping_sub(2);
        let at = |nr: u64, args: [u64; 5]| user_regs_struct {
            rax: nr,
            orig_rax: u64::MAX,
            rip: instruction,
            rdi: args[0],
            rsi: args[1],
            rdx: args[2],
            r10: args[3],
            r8: args[4],
            ..blocked
        };
        let copied = reap(pid, &at, unreaped).and_then(|reaped| {
            clone(
                pid,
                at(SYS_CLONE, [nix::libc::SIGCHLD as u64, 0, 0, 0, 0]),
                blocked,
            )
            .map(|(pid, pidfd)| Copied { pid, pidfd, reaped })
        });
        // The runner reads its gate again, as if never stopped (whatever failed above).
        restart(pid, blocked, instruction)?;
        Ok(copied?)
    }

    /// Has the runner reap what ended of its `unreaped` copies (their status was read
    /// meanwhile); how many it reaped.
    fn reap(
        pid: Pid,
        at: &dyn Fn(u64, [u64; 5]) -> user_regs_struct,
        unreaped: usize,
    ) -> Result<usize, String> {
        let mut reaped = 0;
        while reaped < unreaped.min(REAP_AT_MOST) {
            if (call(pid, at(SYS_WAIT4, [u64::MAX, 0, WAIT_ANY, 0, 0]))? as i64) <= 0 {
                break;
            }
            reaped += 1;
        }
        Ok(reaped)
    }

    /// Has the stopped runner make the system call `regs` set up; its result.
    fn call(pid: Pid, regs: user_regs_struct) -> Result<u64, String> {
        ptrace::setregs(pid, regs)
            .map_err(|e| format!("cannot set the runner's registers: {e}"))?;
        to_syscall_stop(pid)?; // entry
        to_syscall_stop(pid)?; // exit
        Ok(registers(pid)?.rax)
    }

    /// Has the stopped runner `clone` itself (`regs`); the copy is set to return from the
    /// read the runner was `blocked` in, with nothing read, and let go.
    fn clone(
        pid: Pid,
        regs: user_regs_struct,
        blocked: user_regs_struct,
    ) -> Result<(i32, std::os::fd::OwnedFd), String> {
        ptrace::setregs(pid, regs)
            .map_err(|e| format!("cannot set the runner's registers: {e}"))?;
        to_syscall_stop(pid)?; // entry
        resume(pid)?;
        let child = match wait(pid)? {
            WaitStatus::PtraceEvent(_, _, event) if event == Event::PTRACE_EVENT_FORK as i32 => {
                ptrace::getevent(pid).map_err(|e| format!("the copy has no pid: {e}"))? as i32
            }
            other => return Err(format!("the runner did not copy itself: {other:?}")),
        };
        let child_pid = Pid::from_raw(child);
        let released = release_copy(child_pid, blocked);
        to_syscall_stop(pid)?; // exit
                               // The pid as the runner's namespace numbers it (bubblewrap's): only its sign tells.
        let returned = registers(pid)?.rax as i64;
        if returned <= 0 {
            let _ = nix::sys::signal::kill(child_pid, Signal::SIGKILL);
            return Err(format!("the runner's clone returned {returned}"));
        }
        released.map(|pidfd| (child, pidfd))
    }

    /// The copy, stopped as it starts (traced, as the runner's fork was): it returns from the
    /// runner's read with 0 (nothing read), its other registers as the runner's were. Its
    /// pidfd is opened while it is stopped under the grader's trace: nothing can have reaped
    /// it, so the descriptor holds the copy itself.
    fn release_copy(child: Pid, blocked: user_regs_struct) -> Result<std::os::fd::OwnedFd, String> {
        let started = wait(child)?;
        let stopped = matches!(started, WaitStatus::PtraceEvent(_, _, event)
            if event == Event::PTRACE_EVENT_STOP as i32);
        let set = stopped.then(|| {
            ptrace::setregs(
                child,
                user_regs_struct {
                    rax: 0,
                    orig_rax: u64::MAX,
                    ..blocked
                },
            )
        });
        let pidfd = rustix::process::Pid::from_raw(child.as_raw())
            .filter(|_| stopped)
            .and_then(|copy| {
                rustix::process::pidfd_open(copy, rustix::process::PidfdFlags::empty()).ok()
            });
        let _ = ptrace::detach(child, None);
        match (set, pidfd) {
            (Some(Ok(())), Some(pidfd)) => Ok(pidfd),
            _ => {
                let _ = nix::sys::signal::kill(child, Signal::SIGKILL);
                Err(format!("the copy did not start as expected: {started:?}"))
            }
        }
    }

    fn resume(pid: Pid) -> Result<(), String> {
        ptrace::syscall(pid, None).map_err(|e| format!("cannot resume the runner: {e}"))
    }

    fn to_syscall_stop(pid: Pid) -> Result<(), String> {
        resume(pid)?;
        match wait(pid)? {
            WaitStatus::PtraceSyscall(_) => Ok(()),
            other => Err(format!("the runner stopped as {other:?} in a system call")),
        }
    }

    fn wait(pid: Pid) -> Result<WaitStatus, String> {
        loop {
            match waitpid(pid, Some(WaitPidFlag::__WALL)) {
                Err(nix::errno::Errno::EINTR) => continue,
                Err(e) => return Err(format!("cannot wait for the runner: {e}")),
                Ok(status @ (WaitStatus::Exited(..) | WaitStatus::Signaled(..))) => {
                    return Err(format!("the runner ended: {status:?}"))
                }
                Ok(status) => return Ok(status),
            }
        }
    }

    fn registers(pid: Pid) -> Result<user_regs_struct, String> {
        ptrace::getregs(pid).map_err(|e| format!("cannot read the runner's registers: {e}"))
    }
}
