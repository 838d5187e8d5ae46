//! The few system calls the driver needs, through `rustix`: a pidfd to wait on, `poll`,
//! non-blocking pipes and killing a process group.

use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::time::Duration;

use rustix::event::{PollFd, PollFlags, Timespec};
use rustix::fs::{fcntl_getfl, fcntl_setfl, OFlags};
use rustix::process::{kill_process_group, pidfd_open, Pid, PidfdFlags, Signal};

/// How long a poll with nothing to watch sleeps.
const IDLE: Duration = Duration::from_millis(10);

/// A pollable descriptor that becomes readable when the process ends (Linux 5.3+).
pub(crate) fn pidfd(pid: u32) -> Option<OwnedFd> {
    let pid = Pid::from_raw(i32::try_from(pid).ok()?)?;
    pidfd_open(pid, PidfdFlags::empty()).ok()
}

/// Kills the process group `pgid` (a child started in its own group has its pid as group).
/// A group already gone is fine.
pub(crate) fn kill_group(pgid: u32) {
    if let Some(pid) = i32::try_from(pgid).ok().and_then(Pid::from_raw) {
        let _ = kill_process_group(pid, Signal::KILL);
    }
}

/// Makes reads and writes on `fd` return at once instead of blocking; if that fails the
/// descriptor stays blocking, which poll tolerates.
pub(crate) fn set_nonblocking(fd: impl AsFd) {
    if let Ok(flags) = fcntl_getfl(&fd) {
        let _ = fcntl_setfl(&fd, flags | OFlags::NONBLOCK);
    }
}

/// What to wait for on one descriptor.
#[derive(Clone, Copy)]
pub(crate) enum Interest {
    Readable,
    Writable,
}

/// Polls the given descriptors (any may be absent) for up to `wait`; which ones fired.
pub(crate) fn poll(fds: &[Option<(BorrowedFd<'_>, Interest)>], wait: Duration) -> Vec<bool> {
    let mut polled: Vec<PollFd<'_>> = Vec::with_capacity(fds.len());
    let mut slots = Vec::with_capacity(fds.len());
    for entry in fds {
        slots.push(entry.map(|(fd, interest)| {
            let events = match interest {
                Interest::Readable => PollFlags::IN,
                Interest::Writable => PollFlags::OUT,
            };
            polled.push(PollFd::from_borrowed_fd(fd, events));
            polled.len() - 1
        }));
    }
    if polled.is_empty() {
        std::thread::sleep(wait.min(IDLE));
        return vec![false; fds.len()];
    }
    // A zero wait asks whether anything is ready now, without waiting.
    let timeout = Timespec::try_from(wait).ok();
    let fired = rustix::event::poll(&mut polled, timeout.as_ref()).unwrap_or(0);
    slots
        .iter()
        .map(|slot| fired > 0 && slot.is_some_and(|i| !polled[i].revents().is_empty()))
        .collect()
}

/// Whether this process runs as root.
pub(crate) fn is_root() -> bool {
    rustix::process::geteuid().is_root()
}

/// The peak resident memory of this process (the grader itself, not its children), in KiB,
/// from `/proc/self/status` (0 where that cannot be read).
pub fn own_peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
            line.split_whitespace().nth(1)?.parse().ok()
        })
        .unwrap_or(0)
}

/// Whether `path` is a file with an execute bit set (a program someone may run).
pub(crate) fn is_executable_file(path: &std::path::Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}
