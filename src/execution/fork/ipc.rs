//! The runner's IPC namespace, emptied after each scenario.
//!
//! Both sandboxes give the runner an IPC namespace of its own, and every process forked from
//! it shares that namespace. A System V shared memory segment, message queue or semaphore set,
//! or a POSIX message queue, that a scenario makes outlives the scenario's processes (that is what System V IPC is for), so the
//! next scenario could read what the last one saw: a fresh process, in a namespace of its own,
//! never could. The grader empties the namespace once each scenario's processes are dead, and
//! will not fork from a runner whose import made such objects (a scenario could change them
//! for the next one).
//!
//! Only a process inside a namespace can list or remove its objects, and joining it takes
//! privilege there. A child of the grader joins it (with its user namespace first when the
//! grader is not root: the grader's user made that one, so the child holds every capability
//! in it), removes everything, and reports how many objects it found in its exit status. The
//! child makes system calls only: the grader has threads, and a forked child of a threaded
//! process may do nothing else.

use std::fs::File;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::fs::MetadataExt;

/// The `*ctl` commands the `libc` crate lacks (Linux's `<linux/shm.h>`).
const SHM_STAT: libc::c_int = 13;

/// The exit status of a child that could not join the namespace or remove an object.
const FAILED: i32 = 255;
/// The highest count an exit status reports (more is reported as this many).
const MOST: usize = 254;

/// The IPC namespace of a runner, when it has one of its own.
#[derive(Debug)]
pub(crate) struct IpcNamespace {
    ipc: OwnedFd,
    /// The runner's user namespace, when it is not the grader's: joined first.
    user: Option<OwnedFd>,
}

impl IpcNamespace {
    /// The IPC namespace of process `pid`, or `None` when it is the grader's own (a
    /// namespace the grader shares with everything else on the machine is never emptied).
    pub(crate) fn of(pid: i32) -> Result<Option<IpcNamespace>, String> {
        let open = |kind: &str| -> Result<(File, u64), String> {
            let path = format!("/proc/{pid}/ns/{kind}");
            let file = File::open(&path).map_err(|e| format!("cannot open {path}: {e}"))?;
            let inode = file
                .metadata()
                .map_err(|e| format!("cannot read {path}: {e}"))?
                .ino();
            Ok((file, inode))
        };
        let own = |kind: &str| std::fs::metadata(format!("/proc/self/ns/{kind}")).map(|m| m.ino());
        let (ipc, ipc_inode) = open("ipc")?;
        if own("ipc").ok() == Some(ipc_inode) {
            return Ok(None);
        }
        let (user, user_inode) = open("user")?;
        let user = (own("user").ok() != Some(user_inode)).then(|| OwnedFd::from(user));
        Ok(Some(IpcNamespace {
            ipc: OwnedFd::from(ipc),
            user,
        }))
    }

    /// Removes every object in the namespace; how many there were (at most 254 is told).
    pub(crate) fn clear(&self) -> Result<usize, String> {
        let (ipc, user) = (
            self.ipc.as_raw_fd(),
            self.user.as_ref().map(|fd| fd.as_raw_fd()),
        );
        // SAFETY: the child runs only system calls on descriptors opened before the fork,
        // then `_exit`s: nothing that could wait on a lock another thread of the grader held.
        let child = unsafe { libc::fork() };
        if child < 0 {
            return Err(format!(
                "cannot start a process to empty the runner's IPC: {}",
                std::io::Error::last_os_error()
            ));
        }
        if child == 0 {
            // SAFETY: as above; `_exit` never returns.
            unsafe { libc::_exit(clear_from_child(ipc, user)) }
        }
        let mut status = 0;
        // SAFETY: waits for the child just forked, with a valid status pointer.
        let waited = loop {
            let waited = unsafe { libc::waitpid(child, &mut status, 0) };
            if waited >= 0
                || std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted
            {
                break waited;
            }
        };
        if waited != child || !libc::WIFEXITED(status) {
            return Err("the process emptying the runner's IPC did not end normally".into());
        }
        match libc::WEXITSTATUS(status) {
            FAILED => Err("cannot empty the runner's IPC namespace".into()),
            count => Ok(usize::try_from(count).unwrap_or(MOST)),
        }
    }
}

/// In a forked child: joins the namespace and removes every object in it. The exit status:
/// how many there were, or [`FAILED`].
fn clear_from_child(ipc: libc::c_int, user: Option<libc::c_int>) -> libc::c_int {
    // SAFETY (every block below): system calls on descriptors this process holds, and a
    // buffer on its stack large enough for any `*ctl` answer.
    // A grader with privilege over the namespace (root) joins it as it is; another joins
    // the runner's user namespace first, to hold that privilege there.
    let joined = unsafe { libc::setns(ipc, libc::CLONE_NEWIPC) } == 0
        || user.is_some_and(|user| unsafe {
            libc::setns(user, libc::CLONE_NEWUSER) == 0 && libc::setns(ipc, libc::CLONE_NEWIPC) == 0
        });
    if !joined {
        return FAILED;
    }
    let mut buffer = [0u64; 64];
    let buffer = buffer.as_mut_ptr();
    let kinds = [
        remove_all(
            || unsafe { libc::shmctl(0, libc::IPC_INFO, buffer.cast()) },
            |index| unsafe { libc::shmctl(index, SHM_STAT, buffer.cast()) },
            |id| unsafe { libc::shmctl(id, libc::IPC_RMID, std::ptr::null_mut()) },
        ),
        remove_all(
            || unsafe { libc::msgctl(0, libc::IPC_INFO, buffer.cast()) },
            |index| unsafe { libc::msgctl(index, libc::MSG_STAT, buffer.cast()) },
            |id| unsafe { libc::msgctl(id, libc::IPC_RMID, std::ptr::null_mut()) },
        ),
        remove_all(
            || unsafe { libc::semctl(0, 0, libc::IPC_INFO, buffer) },
            |index| unsafe { libc::semctl(index, 0, libc::SEM_STAT, buffer) },
            |id| unsafe { libc::semctl(id, 0, libc::IPC_RMID) },
        ),
        remove_message_queues(),
    ];
    let mut found = 0usize;
    for removed in kinds {
        match removed {
            Some(count) => found += count,
            None => return FAILED,
        }
    }
    // At most MOST: never read as FAILED.
    found.min(MOST) as libc::c_int
}

/// Removes every POSIX message queue of the namespace (they live in it too, in a file system
/// of their own): in a mount namespace of this process's own, mounts that file system over
/// `/dev` and removes every file in it. How many there were; `None` if one stayed.
fn remove_message_queues() -> Option<usize> {
    // SAFETY: system calls on C strings and a buffer on this process's stack; the mount
    // namespace is this child's own (private, so nothing propagates) and dies with it.
    unsafe {
        if libc::unshare(libc::CLONE_NEWNS) != 0
            || libc::mount(
                std::ptr::null(),
                c"/".as_ptr(),
                std::ptr::null(),
                libc::MS_REC | libc::MS_PRIVATE,
                std::ptr::null(),
            ) != 0
            || libc::mount(
                c"mqueue".as_ptr(),
                c"/dev".as_ptr(),
                c"mqueue".as_ptr(),
                libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
                std::ptr::null(),
            ) != 0
        {
            return None;
        }
        let folder = libc::open(c"/dev".as_ptr(), libc::O_RDONLY | libc::O_DIRECTORY);
        if folder < 0 {
            return None;
        }
        let mut found = 0;
        let mut buffer = [0u64; 512];
        loop {
            let read = libc::syscall(
                libc::SYS_getdents64,
                folder,
                buffer.as_mut_ptr(),
                std::mem::size_of_val(&buffer),
            );
            if read < 0 {
                return None;
            }
            if read == 0 {
                return Some(found);
            }
            let bytes = buffer.as_ptr().cast::<u8>();
            let mut at = 0usize;
            // Each entry: inode (8 bytes), offset (8), its length (2), type (1), name.
            while at < read as usize {
                let length = usize::from(u16::from_ne_bytes([
                    *bytes.add(at + 16),
                    *bytes.add(at + 17),
                ]));
                let name = bytes.add(at + 19).cast::<libc::c_char>();
                let dots = *name == b'.' as libc::c_char
                    && (*name.add(1) == 0
                        || (*name.add(1) == b'.' as libc::c_char && *name.add(2) == 0));
                if !dots {
                    found += 1;
                    if libc::unlinkat(folder, name, 0) != 0 {
                        return None;
                    }
                }
                at += length;
            }
        }
    }
}

/// Removes every object of one kind: `highest` gives the highest index in use (the kernel
/// says 0 when none is), `stat` the id of the object at an index (or fails where there is
/// none), `remove` removes an id. How many there were; `None` if one stayed.
fn remove_all(
    highest: impl Fn() -> libc::c_int,
    stat: impl Fn(libc::c_int) -> libc::c_int,
    remove: impl Fn(libc::c_int) -> libc::c_int,
) -> Option<usize> {
    let highest = highest();
    if highest < 0 {
        return None;
    }
    let mut found = 0;
    for index in 0..=highest {
        let id = stat(index);
        if id >= 0 {
            found += 1;
            if remove(id) != 0 {
                return None;
            }
        }
    }
    Some(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_graders_own_namespace_is_never_emptied() {
        let me = i32::try_from(std::process::id()).unwrap();
        assert!(IpcNamespace::of(me).unwrap().is_none());
    }

    #[test]
    fn a_process_gone_is_an_error_not_a_namespace() {
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = i32::try_from(child.id()).unwrap();
        child.wait().unwrap();
        assert!(IpcNamespace::of(pid).unwrap_err().contains("/ns/ipc"));
    }
}
