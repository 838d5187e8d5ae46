//! What the spawn path does to a student process between `fork` and `exec`, beyond resource
//! limits: a clean environment, its cgroup, its own unprivileged user with no supplementary
//! groups, no way to gain privileges (set-user-id programs), death with the grader, and the
//! descriptor on which a sandbox reports that it started.

use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::Command;

use super::student::StudentId;

/// The descriptor number a sandbox's start report is written to in the child.
pub const STARTED_FD: RawFd = 3;

/// How a student process is confined, besides its resource limits.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Confinement {
    /// Run as this user and group, with no supplementary groups (the grader is root).
    pub user: Option<StudentId>,
    /// The `cgroup.procs` file of the run's cgroup, joined before anything runs.
    pub cgroup_procs: Option<PathBuf>,
    /// A pipe's write end, handed to the child as descriptor [`STARTED_FD`]; the owner of the
    /// launch keeps it open while the launch is used.
    pub started_fd: Option<RawFd>,
}

impl Confinement {
    /// Sets `command` up to confine its process (after its resource limits are set).
    pub fn apply(&self, command: &mut Command) -> io::Result<()> {
        let cgroup = match &self.cgroup_procs {
            Some(path) => Some(File::options().write(true).open(path)?),
            None => None,
        };
        let (user, started) = (self.user, self.started_fd);
        // SAFETY: the closure makes only raw system calls (no allocation, no locks), as a
        // child of a multi-threaded process must between fork and exec.
        unsafe {
            command.pre_exec(move || {
                if let Some(file) = &cgroup {
                    check(libc::write(file.as_raw_fd(), b"0".as_ptr().cast(), 1) as i64)?;
                }
                if let Some(fd) = started {
                    if fd == STARTED_FD {
                        check(libc::fcntl(fd, libc::F_SETFD, 0) as i64)?;
                    } else {
                        check(libc::dup2(fd, STARTED_FD) as i64)?;
                    }
                }
                if let Some(id) = user {
                    check(libc::syscall(
                        libc::SYS_setgroups,
                        0,
                        std::ptr::null::<libc::gid_t>(),
                    ))?;
                    check(libc::syscall(libc::SYS_setresgid, id.gid, id.gid, id.gid))?;
                    check(libc::syscall(libc::SYS_setresuid, id.uid, id.uid, id.uid))?;
                }
                // After the change of user, which clears it.
                check(libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) as i64)?;
                check(libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) as i64)?;
                Ok(())
            });
        }
        Ok(())
    }
}

fn check(result: i64) -> io::Result<()> {
    if result < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(())
    }
}
