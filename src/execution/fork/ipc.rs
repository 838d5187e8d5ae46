//! The runner's IPC namespace, emptied after each scenario.
//!
//! Both sandboxes give the runner an IPC namespace of its own, and every process forked from
//! it shares that namespace. A System V shared memory segment, message queue or semaphore set,
//! or a POSIX message queue, that a scenario makes outlives the scenario's processes (that is
//! what they are for), so the next scenario could read what the last one saw: a fresh process,
//! in a namespace of its own, never could. The grader empties the namespace once each
//! scenario's processes are dead, and will not fork from a runner whose import made such
//! objects (a scenario could change them for the next one).
//!
//! Only a process inside a namespace can list or remove its objects, and joining it takes
//! privilege there. So each runner gets a helper: a child of the grader, forked once, that
//! joins the namespace (with its user namespace first when the grader is not root: the
//! grader's user made that one, so the helper holds every capability in it), mounts its
//! message-queue file system once in a mount namespace of its own, and then empties the
//! namespace each time the grader asks over a pipe, answering how many objects it found. A
//! scenario then costs a pipe round trip, not a process. The helper makes system calls only
//! (the grader has threads, and a forked child of a threaded process may do nothing else),
//! keeps no descriptor of the grader's but its two pipe ends (a scenario's pipe held open
//! would hide its end), and ends when the grader closes its pipe.

use std::fs::File;
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::os::unix::fs::MetadataExt;
use std::time::Duration;

use rustix::pipe::{pipe_with, PipeFlags};

use crate::execution::sys::{poll, Interest};

/// The `*ctl` commands the `libc` crate lacks (Linux's `<linux/shm.h>`).
const SHM_STAT: libc::c_int = 13;

/// The answer of a helper that could not join the namespace or remove an object.
const FAILED: u8 = 255;
/// The highest count an answer reports (more is reported as this many).
const MOST: usize = 254;
/// How long the helper may take to answer (it makes a few hundred system calls at most).
const ANSWER_WAIT: Duration = Duration::from_secs(10);

/// The IPC namespace of a runner, when it has one of its own, with the helper that empties it.
#[derive(Debug)]
pub(crate) struct IpcNamespace {
    helper: libc::pid_t,
    /// The pipe the grader asks on; closed first when dropped, which ends the helper.
    ask: Option<OwnedFd>,
    answers: OwnedFd,
}

impl IpcNamespace {
    /// The IPC namespace of process `pid` with its helper started, or `None` when it is the
    /// grader's own (a namespace the grader shares with everything else on the machine is
    /// never emptied).
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
        let user = (own("user").ok() != Some(user_inode)).then_some(user);
        let no_pipe = |e| format!("no pipe for the runner's IPC helper: {e}");
        let (ask_read, ask) = pipe_with(PipeFlags::CLOEXEC).map_err(no_pipe)?;
        let (answers, answer_write) = pipe_with(PipeFlags::CLOEXEC).map_err(no_pipe)?;
        let ends = Ends {
            ipc: ipc.as_raw_fd(),
            user: user.as_ref().map(|u| u.as_raw_fd()),
            ask: ask_read.as_raw_fd(),
            answer: answer_write.as_raw_fd(),
        };
        // SAFETY: the child runs only system calls on descriptors opened before the fork,
        // then `_exit`s: nothing that could wait on a lock another thread of the grader held.
        let helper = unsafe { libc::fork() };
        if helper < 0 {
            return Err(format!(
                "cannot start the runner's IPC helper: {}",
                std::io::Error::last_os_error()
            ));
        }
        if helper == 0 {
            // SAFETY: as above; `_exit` never returns.
            unsafe { libc::_exit(serve(ends)) }
        }
        Ok(Some(IpcNamespace {
            helper,
            ask: Some(ask),
            answers,
        }))
    }

    /// Removes every object in the namespace; how many there were (at most 254 is told).
    pub(crate) fn clear(&self) -> Result<usize, String> {
        let failed = |why: &str| format!("cannot empty the runner's IPC namespace: {why}");
        let ask = self
            .ask
            .as_ref()
            .ok_or_else(|| failed("its helper ended"))?;
        rustix::io::write(ask, b"c").map_err(|_| failed("its helper ended"))?;
        if !poll(
            &[Some((self.answers.as_fd(), Interest::Readable))],
            ANSWER_WAIT,
        )[0]
        {
            return Err(failed("its helper did not answer"));
        }
        let mut answer = [0u8];
        match rustix::io::read(&self.answers, &mut answer) {
            Ok(1) if answer[0] != FAILED => Ok(usize::from(answer[0])),
            Ok(1) => Err(failed(
                "an object stayed, or the namespace could not be joined",
            )),
            _ => Err(failed("its helper ended")),
        }
    }
}

impl Drop for IpcNamespace {
    fn drop(&mut self) {
        // The helper reads the end of its pipe and exits; a kill makes sure of it.
        self.ask.take();
        // SAFETY: the helper is this process's child, waited for here only.
        unsafe {
            libc::kill(self.helper, libc::SIGKILL);
            libc::waitpid(self.helper, std::ptr::null_mut(), 0);
        }
    }
}

/// The descriptors a helper keeps, as numbers (taken before the fork).
#[derive(Clone, Copy)]
struct Ends {
    ipc: libc::c_int,
    user: Option<libc::c_int>,
    ask: libc::c_int,
    answer: libc::c_int,
}

/// The helper, in the forked child: closes what it inherited, joins the namespace, mounts its
/// message queues, then answers each request until the grader closes the pipe. Its exit
/// status.
fn serve(ends: Ends) -> libc::c_int {
    keep_only(&[Some(ends.ipc), ends.user, Some(ends.ask), Some(ends.answer)]);
    // SAFETY (every block below): system calls on descriptors this process holds, and
    // buffers on its stack.
    for signal in [libc::SIGINT, libc::SIGHUP, libc::SIGTERM, libc::SIGQUIT] {
        // Ctrl-C ends the grader, whose closed pipe then ends the helper.
        unsafe { libc::signal(signal, libc::SIG_IGN) };
    }
    let joined = join(ends.ipc, ends.user);
    unsafe { libc::close(ends.ipc) };
    if let Some(user) = ends.user {
        unsafe { libc::close(user) };
    }
    let queues = if joined { mount_message_queues() } else { None };
    loop {
        let mut request = [0u8];
        let read = unsafe { libc::read(ends.ask, request.as_mut_ptr().cast(), 1) };
        if read == 0 {
            return 0;
        }
        if read < 0 {
            if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return 1;
        }
        let answer = match queues {
            Some(queues) => empty(queues),
            None => FAILED,
        };
        if unsafe { libc::write(ends.answer, [answer].as_ptr().cast(), 1) } != 1 {
            return 1;
        }
    }
}

/// Closes every descriptor but those of `keep`.
fn keep_only(keep: &[Option<libc::c_int>; 4]) {
    for (first, last) in ranges_to_close(keep).into_iter().flatten() {
        // SAFETY: closes descriptors of this (single-threaded) child only.
        unsafe { libc::syscall(libc::SYS_close_range, first, last, 0) };
    }
}

/// The descriptor ranges (first, last, both closed) that hold none of `keep`, from 0 to the
/// highest a process can have. A fixed array: the forked helper may not allocate.
fn ranges_to_close(keep: &[Option<libc::c_int>; 4]) -> [Option<(libc::c_uint, libc::c_uint)>; 5] {
    // One slot more than `keep` can fill: the last is always the end, so the range above
    // the highest kept descriptor is closed however many are kept.
    let mut bounds = [libc::c_uint::MAX; 5];
    for (bound, fd) in bounds.iter_mut().zip(keep.iter().flatten()) {
        *bound = libc::c_uint::try_from(*fd).unwrap_or(libc::c_uint::MAX);
    }
    bounds.sort_unstable();
    let mut ranges = [None; 5];
    let mut from: libc::c_uint = 0;
    for (range, bound) in ranges.iter_mut().zip(bounds) {
        if bound > from {
            *range = Some((from, bound - 1));
        }
        from = bound.saturating_add(1);
    }
    ranges
}

/// Joins the namespace: as it is where the helper holds privilege over it (root), else
/// through the runner's user namespace.
fn join(ipc: libc::c_int, user: Option<libc::c_int>) -> bool {
    // SAFETY: setns on descriptors this process holds.
    unsafe {
        libc::setns(ipc, libc::CLONE_NEWIPC) == 0
            || user.is_some_and(|user| {
                libc::setns(user, libc::CLONE_NEWUSER) == 0
                    && libc::setns(ipc, libc::CLONE_NEWIPC) == 0
            })
    }
}

/// Removes every object of the namespace the helper is in; the answer: how many there were,
/// or [`FAILED`]. `queues` is the message-queue file system's folder.
fn empty(queues: libc::c_int) -> u8 {
    let mut buffer = [0u64; 64];
    let buffer = buffer.as_mut_ptr();
    // SAFETY (each closure): a `*ctl` call with a buffer large enough for any answer.
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
        remove_message_queues(queues),
    ];
    let mut found = 0usize;
    for removed in kinds {
        match removed {
            Some(count) => found += count,
            None => return FAILED,
        }
    }
    // At most MOST: never read as FAILED.
    found.min(MOST) as u8
}

/// The namespace's message-queue file system, mounted over `/dev` in a mount namespace of
/// the helper's own (private, so nothing propagates; it dies with the helper): its folder.
fn mount_message_queues() -> Option<libc::c_int> {
    // SAFETY: system calls on C strings; the mount namespace is this helper's own.
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
        (folder >= 0).then_some(folder)
    }
}

/// Removes every POSIX message queue in `folder` (the namespace's message-queue file system):
/// passes over it from its start until one finds nothing (a removal during a pass may hide
/// an entry from it). How many there were; `None` if one stayed.
fn remove_message_queues(folder: libc::c_int) -> Option<usize> {
    let mut found = 0;
    loop {
        match remove_listed(folder)? {
            0 => return Some(found),
            removed => found += removed,
        }
    }
}

/// One pass of [`remove_message_queues`]: removes what `folder` lists from its start.
fn remove_listed(folder: libc::c_int) -> Option<usize> {
    // SAFETY: system calls on a descriptor this process holds and a buffer on its stack.
    unsafe {
        if libc::lseek(folder, 0, libc::SEEK_SET) != 0 {
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
    fn every_descriptor_but_the_kept_ones_is_closed_however_many_are_kept() {
        let closed = |keep: [Option<i32>; 4]| -> Vec<(u32, u32)> {
            ranges_to_close(&keep).into_iter().flatten().collect()
        };
        let top = libc::c_uint::MAX - 1;
        assert_eq!(
            closed([Some(15), Some(17), Some(16), Some(20)]),
            [(0, 14), (18, 19), (21, top)]
        );
        assert_eq!(
            closed([Some(3), None, Some(4), Some(9)]),
            [(0, 2), (5, 8), (10, top)]
        );
        assert_eq!(closed([Some(0), Some(1), Some(2), Some(3)]), [(4, top)]);
    }

    /// A helper started while a scenario's pipes are open in the grader (another runner's
    /// scenario starting on another thread) must not hold them: a scenario whose stdin
    /// never closes waits out its time limit.
    #[test]
    fn the_helper_keeps_none_of_the_graders_descriptors() {
        let mut runner = std::process::Command::new("unshare")
            .args(["--user", "--map-root-user", "--ipc", "sleep", "30"])
            .spawn()
            .unwrap();
        let pid = i32::try_from(runner.id()).unwrap();
        // Until unshare has made the namespaces and become `sleep`.
        let mine = std::fs::metadata("/proc/self/ns/ipc").unwrap().ino();
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        while std::fs::metadata(format!("/proc/{pid}/ns/ipc"))
            .unwrap()
            .ino()
            == mine
        {
            assert!(std::time::Instant::now() < deadline, "no namespace made");
            std::thread::sleep(Duration::from_millis(10));
        }
        // A descriptor above the helper's own, as a scenario's pipe may be.
        let (read, _write) = pipe_with(PipeFlags::CLOEXEC).unwrap();
        let open = rustix::io::fcntl_dupfd_cloexec(&read, 900).unwrap();
        let namespace = IpcNamespace::of(pid)
            .unwrap()
            .expect("a namespace of its own");
        drop(open);
        assert_eq!(namespace.clear(), Ok(0));
        let held: Vec<String> = std::fs::read_dir(format!("/proc/{}/fd", namespace.helper))
            .unwrap()
            .map(|entry| {
                std::fs::read_link(entry.unwrap().path())
                    .unwrap()
                    .display()
                    .to_string()
            })
            .collect();
        drop(namespace);
        runner.kill().unwrap();
        runner.wait().unwrap();
        // Its two pipe ends and its message-queue folder.
        assert_eq!(held.len(), 3, "{held:?}");
        assert_eq!(held.iter().filter(|h| h.starts_with("pipe:")).count(), 2);
    }

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
