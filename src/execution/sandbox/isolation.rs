//! Under `--sandbox limits`, student processes get no network and no System V IPC shared
//! with other processes: each one starts in a network and an IPC namespace of its own (the
//! network one holds only a loopback that is down). A root grader makes them before the
//! change to the student's user; any other makes an unprivileged user namespace first, with
//! its own user and group mapped to themselves (a program sees the same ids, and gains no
//! capability it keeps past `exec`). Where the kernel allows neither, the report says the
//! network is open (see [`Sandbox::missing`](super::Sandbox::missing)).

use std::io;
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use rustix::fs::{Mode, OFlags};

/// How a student process is isolated: the namespaces to make, and for a grader that is not
/// root, the user namespace's maps (written by the child itself, so made before the fork).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Isolation {
    maps: Option<Maps>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Maps {
    uid_map: Vec<u8>,
    gid_map: Vec<u8>,
}

impl Isolation {
    /// The isolation for this grader's student processes, if the kernel allows it (asked
    /// once: the kernel's answer does not change while the grader runs).
    pub fn available() -> Option<Isolation> {
        static WORKS: OnceLock<bool> = OnceLock::new();
        let isolation = Isolation::for_this_grader();
        WORKS.get_or_init(|| isolation.works()).then_some(isolation)
    }

    fn for_this_grader() -> Isolation {
        let (uid, gid) = (rustix::process::geteuid(), rustix::process::getegid());
        let maps = (!uid.is_root()).then(|| Maps {
            uid_map: format!("{0} {0} 1\n", uid.as_raw()).into_bytes(),
            gid_map: format!("{0} {0} 1\n", gid.as_raw()).into_bytes(),
        });
        Isolation { maps }
    }

    /// Whether a child can enter the namespaces here.
    fn works(&self) -> bool {
        let isolation = self.clone();
        let mut probe = Command::new("true");
        probe
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // SAFETY: the closure only makes system calls on values made before the fork.
        unsafe {
            std::os::unix::process::CommandExt::pre_exec(&mut probe, move || isolation.enter());
        }
        probe.status().is_ok_and(|status| status.success())
    }

    /// Enters new namespaces: in a child between fork and exec, before any change of user.
    /// Only system calls, on values made before the fork.
    pub(crate) fn enter(&self) -> io::Result<()> {
        let mut flags = libc::CLONE_NEWNET | libc::CLONE_NEWIPC;
        if self.maps.is_some() {
            flags |= libc::CLONE_NEWUSER;
        }
        // SAFETY: unshare changes this process's namespaces only.
        if unsafe { libc::unshare(flags) } != 0 {
            return Err(io::Error::last_os_error());
        }
        if let Some(maps) = &self.maps {
            write(c"/proc/self/uid_map", &maps.uid_map)?;
            // An unprivileged process may map its group only once setgroups is denied.
            write(c"/proc/self/setgroups", b"deny")?;
            write(c"/proc/self/gid_map", &maps.gid_map)?;
        }
        Ok(())
    }
}

fn write(path: &std::ffi::CStr, bytes: &[u8]) -> io::Result<()> {
    let file = rustix::fs::open(path, OFlags::WRONLY, Mode::empty())?;
    rustix::io::write(&file, bytes)?;
    Ok(())
}
