//! What the spawn path does to a student process between `fork` and `exec`, after its process
//! group and resource limits: its cgroup, the descriptor on which a sandbox reports that it
//! started, its own unprivileged user with no supplementary groups, no way to gain privileges
//! (set-user-id programs), no kernel key store (see [`syscalls`]), and death with the grader.
//! The parent side clears the environment (see [`Confinement::clean_env`]).

use std::ffi::CString;
use std::io;
use std::mem::ManuallyDrop;
use std::os::fd::{BorrowedFd, FromRawFd, OwnedFd, RawFd};

use rustix::fs::{Mode, OFlags};
use rustix::io::FdFlags;
use rustix::process::Signal;
use rustix::process::{Gid, Uid};
use rustix::thread::{set_thread_groups, set_thread_res_gid, set_thread_res_uid};

use super::isolation::Isolation;
use super::student::StudentId;
use super::syscalls;

/// The descriptor number a sandbox's start report is written to in the child.
pub const STARTED_FD: RawFd = 3;

/// How a student process is confined, besides its resource limits. The default confines
/// nothing (the `none` sandbox).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Confinement {
    /// Only the launch's own variables reach the program (the grader's are cleared).
    pub clean_env: bool,
    /// Run as this user and group, with no supplementary groups (the grader is root).
    pub user: Option<StudentId>,
    /// The `cgroup.procs` files of the run's cgroups, joined before anything runs.
    pub cgroup_procs: Vec<CString>,
    /// A pipe's write end, handed to the child as descriptor [`STARTED_FD`]; the owner of the
    /// launch keeps it open while the launch is used.
    pub started_fd: Option<RawFd>,
    /// Namespaces of its own (no network, no System V IPC shared), entered before the
    /// change of user.
    pub isolation: Option<Isolation>,
}

impl Confinement {
    /// Whether this confines anything at all.
    fn is_empty(&self) -> bool {
        *self == Confinement::default()
    }

    /// Makes, before the fork, what [`Confinement::apply_in_child`] will need (the system
    /// call filter, assembled once).
    pub(crate) fn prepare_in_parent(&self) {
        if !self.is_empty() {
            syscalls::prepare();
        }
    }

    /// Runs in the child between fork and exec: only system calls, on values made before the
    /// fork (no allocation, no locks), as a child of a multi-threaded process must.
    pub(crate) fn apply_in_child(&self) -> io::Result<()> {
        if self.is_empty() {
            return Ok(());
        }
        for path in &self.cgroup_procs {
            let file = rustix::fs::open(path.as_c_str(), OFlags::WRONLY, Mode::empty())?;
            rustix::io::write(&file, b"0")?;
        }
        if let Some(fd) = self.started_fd {
            // SAFETY: the launch's owner keeps `fd` open until the child has started.
            let source = unsafe { BorrowedFd::borrow_raw(fd) };
            if fd == STARTED_FD {
                rustix::io::fcntl_setfd(source, FdFlags::empty())?;
            } else {
                // SAFETY: descriptor 3 is replaced by dup2 and never closed here (the program
                // inherits it); ManuallyDrop keeps this handle from closing it.
                let mut target = ManuallyDrop::new(unsafe { OwnedFd::from_raw_fd(STARTED_FD) });
                rustix::io::dup2(source, &mut target)?;
            }
        }
        if let Some(isolation) = &self.isolation {
            isolation.enter()?;
        }
        if let Some(id) = self.user {
            // Per-thread system calls: the child of a fork has one thread, this one.
            set_thread_groups(&[])?;
            let gid = Gid::from_raw(id.gid);
            set_thread_res_gid(gid, gid, gid)?;
            let uid = Uid::from_raw(id.uid);
            set_thread_res_uid(uid, uid, uid)?;
        }
        // After the change of user, which clears it.
        rustix::process::set_parent_process_death_signal(Some(Signal::KILL))?;
        rustix::thread::set_no_new_privs(true)?;
        syscalls::refuse_in_child()
    }
}
