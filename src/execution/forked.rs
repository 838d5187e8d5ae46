//! A scenario's process forked by a loaded runner, as the grader sees it. The grader is not
//! its parent, so it learns everything from the kernel: a pidfd to wait on and kill through,
//! and, once the process has ended, its wait status from `/proc/PID/stat` while the runner
//! keeps it as a zombie (the runner reaps it only when asked for the next scenario), checked
//! against the pidfd (a zombie still unreaped is the process the status belongs to, not
//! another that took its pid). A runner that reaps it early (its import ignores SIGCHLD or
//! waits for its children), or a process that is not the runner's child, yields no status:
//! the runner is marked as unable to vouch for the scenario, which then runs in a fresh
//! process; never a verdict against the student.

use std::io;
use std::os::fd::AsRawFd;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use rustix::process::{pidfd_send_signal, waitpid, Pid, Signal, WaitOptions};

use crate::execution::sys::{poll, Interest};

/// How long a killed process may take to end before its status is given up on.
const REAP_WAIT: Duration = Duration::from_secs(2);

/// A forked scenario process.
#[derive(Debug)]
pub(crate) struct Forked {
    pid: Pid,
    pidfd: OwnedFd,
    /// The runner that forked it: its parent while it is a zombie.
    parent: Pid,
    /// Set when its exit status could not be read: the runner took it.
    lost: Arc<AtomicBool>,
    /// Its `/proc/PID/stat` line, once read while it was a zombie: it changes no more, and
    /// gives both its CPU time and its status.
    zombie_stat: OnceLock<String>,
}

impl Forked {
    pub(crate) fn new(pid: Pid, pidfd: OwnedFd, parent: Pid, lost: Arc<AtomicBool>) -> Forked {
        Forked {
            pid,
            pidfd,
            parent,
            lost,
            zombie_stat: OnceLock::new(),
        }
    }

    /// CPU time (user and system) it has used; once it has ended, until it is reaped.
    pub(crate) fn cpu_time(&self) -> Option<Duration> {
        self.with_stat(cpu_time_in).ok()?
    }

    /// `read` of its `/proc/PID/stat` line (read once it is a zombie).
    fn with_stat<T>(&self, read: impl FnOnce(&str) -> T) -> io::Result<T> {
        if let Some(stat) = self.zombie_stat.get() {
            return Ok(read(stat));
        }
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.id()))?;
        if state_of(&stat) != Some("Z") {
            return Ok(read(&stat));
        }
        Ok(read(self.zombie_stat.get_or_init(|| stat)))
    }

    pub(crate) fn id(&self) -> u32 {
        self.pid.as_raw_nonzero().get() as u32
    }

    /// A descriptor that becomes readable when the process ends.
    pub(crate) fn exit_fd(&self) -> Option<OwnedFd> {
        self.pidfd.try_clone().ok()
    }

    /// Kills the process itself (its group is killed by the caller).
    pub(crate) fn kill(&self) {
        let _ = pidfd_send_signal(&self.pidfd, Signal::KILL);
    }

    fn ended(&self, wait: Duration) -> bool {
        poll(&[Some((self.pidfd.as_fd(), Interest::Readable))], wait)[0]
    }

    pub(crate) fn try_wait(&mut self) -> io::Result<Option<ExitStatus>> {
        if self.ended(Duration::ZERO) {
            self.status().map(Some)
        } else {
            Ok(None)
        }
    }

    /// Waits (a little) for the process to end, for its status: callers kill it first.
    pub(crate) fn wait(&mut self) -> io::Result<ExitStatus> {
        let deadline = Instant::now() + REAP_WAIT;
        while !self.ended(Duration::from_millis(50)) {
            if Instant::now() >= deadline {
                return Err(io::Error::other("the process did not end when killed"));
            }
        }
        self.status()
    }

    /// The wait status of the ended process; when it cannot be had, the runner is told.
    fn status(&self) -> io::Result<ExitStatus> {
        let status = self.read_status();
        if status.is_err() {
            self.lost.store(true, Ordering::Relaxed);
        }
        status
    }

    fn read_status(&self) -> io::Result<ExitStatus> {
        // Its runner died and the process was handed to the grader: reaped like any child.
        if let Ok(Some((_, status))) = waitpid(Some(self.pid), WaitOptions::NOHANG) {
            return Ok(ExitStatus::from_raw(status.as_raw()));
        }
        // Read by pid: the pidfd, checked after, says whether the pid was still its own.
        match self.with_stat(zombie_status)? {
            Some((parent, status))
                if parent == self.parent.as_raw_nonzero().get() && self.unreaped() =>
            {
                Ok(ExitStatus::from_raw(status))
            }
            _ => Err(io::Error::other(
                "the Python runner took the exit status of the scenario's process",
            )),
        }
    }
}

impl Forked {
    /// Whether the process the pidfd holds is not reaped yet (signal 0 reaches a zombie, not
    /// a reaped process), so that its pid is still its own.
    pub(crate) fn unreaped(&self) -> bool {
        // SAFETY: pidfd_send_signal with signal 0 and no siginfo reads and writes no memory of
        // this process; the descriptor is owned by `self` and open.
        let sent = unsafe {
            libc::syscall(
                libc::SYS_pidfd_send_signal,
                self.pidfd.as_raw_fd(),
                0,
                std::ptr::null::<libc::siginfo_t>(),
                0,
            )
        };
        sent == 0
    }
}

impl Drop for Forked {
    fn drop(&mut self) {
        self.kill();
    }
}

/// From a `/proc/PID/stat` line of a zombie: its parent and its wait status (field 52).
fn zombie_status(stat: &str) -> Option<(i32, i32)> {
    // The command name (field 2) may hold spaces and parentheses: fields follow its last `)`.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    // fields[0] is field 3 (the state).
    if fields.first() != Some(&"Z") {
        return None;
    }
    let parent = fields.get(1)?.parse().ok()?;
    let status = fields.get(52 - 3)?.parse().ok()?;
    Some((parent, status))
}

/// The parent of process `pid`, from `/proc`.
pub(crate) fn parent_of(pid: i32) -> Option<i32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat.rsplit_once(')')?
        .1
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// CPU time (user and system) process `pid` has used, from `/proc`.
pub(crate) fn cpu_time_of(pid: i32) -> Option<Duration> {
    cpu_time_in(&std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?)
}

/// The state (field 3) of a `/proc/PID/stat` line.
fn state_of(stat: &str) -> Option<&str> {
    stat.rsplit_once(')')?.1.split_whitespace().next()
}

/// CPU time (user and system) from a `/proc/PID/stat` line.
fn cpu_time_in(stat: &str) -> Option<Duration> {
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    // utime and stime are fields 14 and 15, in clock ticks.
    let ticks: u64 =
        fields.get(14 - 3)?.parse::<u64>().ok()? + fields.get(15 - 3)?.parse::<u64>().ok()?;
    let per_second = rustix::param::clock_ticks_per_second();
    Some(Duration::from_micros(ticks * 1_000_000 / per_second.max(1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zombie_line_gives_parent_and_status() {
        let mut fields = vec!["0"; 52 - 3 + 1];
        fields[0] = "Z";
        fields[1] = "77";
        fields[52 - 3] = "256";
        let line = format!("42 (odd) name)) {}", fields.join(" "));
        assert_eq!(zombie_status(&line), Some((77, 256)));
        fields[0] = "S";
        let line = format!("42 (x) {}", fields.join(" "));
        assert_eq!(zombie_status(&line), None);
    }

    #[test]
    fn this_process_has_a_parent_and_cpu_time() {
        let me = std::process::id() as i32;
        assert!(parent_of(me).is_some());
        assert!(cpu_time_of(me).is_some());
    }
}
