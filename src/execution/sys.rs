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

/// The absolute folders of `path` (a PATH), in order. A relative entry (`.`, an empty one)
/// is left out: the grader starts programs from folders of its own (the temporary folder),
/// where such an entry would find whatever any user put there.
pub(crate) fn path_folders(
    path: &std::ffi::OsStr,
) -> impl Iterator<Item = std::path::PathBuf> + '_ {
    std::env::split_paths(path).filter(|folder| folder.is_absolute())
}

/// The program `name` names: itself when it is a path, else the first executable file of
/// that name in the absolute folders of `path` (see [`path_folders`]).
pub(crate) fn find_program(
    name: &std::path::Path,
    path: &std::ffi::OsStr,
) -> Option<std::path::PathBuf> {
    if name.components().count() > 1 {
        return is_executable_file(name).then(|| name.to_path_buf());
    }
    path_folders(path)
        .map(|folder| folder.join(name))
        .find(|file| is_executable_file(file))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;
    use std::path::Path;

    #[test]
    fn a_bare_name_is_found_in_the_absolute_folders_of_the_path_alone() {
        let dir = tempfile::tempdir().unwrap();
        let (first, second) = (dir.path().join("first"), dir.path().join("second"));
        for folder in [&first, &second] {
            std::fs::create_dir_all(folder).unwrap();
        }
        let program = second.join("python3");
        std::fs::write(&program, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
        let path = |folders: &[&Path]| std::env::join_paths(folders).unwrap();
        let name = Path::new("python3");
        let found = find_program(name, &path(&[&first, &second]));
        assert_eq!(found, Some(program.clone()));
        // A relative entry (`.`, an empty one) is passed over wherever it stands.
        let relative = path(&[Path::new(""), Path::new("."), &first, &second]);
        assert_eq!(find_program(name, &relative), Some(program.clone()));
        assert_eq!(find_program(name, &path(&[&first])), None);
        // A path is itself, where it is a program.
        assert_eq!(find_program(&program, &path(&[])), Some(program));
    }
}
