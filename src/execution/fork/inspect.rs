//! What the grader reads of a loaded runner from `/proc`, to vouch for the scenarios it forks.
//! The runner holds student code once its import ran, so nothing it says counts: before the
//! import the grader notes what the runner holds (its signal dispositions, open files and
//! shared mappings), and after it checks that the import added none of them. A signal the
//! import ignores or catches can take a scenario's exit status or run code in the runner
//! for a scenario; a file or a shared mapping kept open can carry what one scenario saw into
//! the next. Any of these, and the submission is graded with a fresh process per scenario.
//!
//! Under bubblewrap the runner has a `/tmp` and `/dev/shm` of its own, which its scenarios
//! share: they must hold what they held before the import (the folders bubblewrap made for
//! the paths it binds there) once it has loaded, and are brought back to that after each
//! scenario.

use std::collections::HashSet;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::execution::sandbox::snapshot::Snapshot;

/// The folders of a private mount namespace that every process in it may share.
const TEMPORARY: &[&str] = &["tmp", "dev/shm"];

/// What a runner held before its import ran.
#[derive(Debug)]
pub(crate) struct Baseline {
    signals: Signals,
    /// Its open files, by device and inode.
    files: HashSet<(u64, u64)>,
    /// What its shared mappings map, by device and inode.
    shared: HashSet<(String, u64)>,
    /// Its own `/tmp` and `/dev/shm`, each with what it held.
    temporary: Vec<(PathBuf, HashSet<PathBuf>)>,
    /// The same as each scenario must find them: recorded once the import has run.
    settled: Mutex<Vec<Snapshot>>,
}

/// Which signals a process ignores and which it catches (bit N-1: signal N).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Signals {
    ignored: u64,
    caught: u64,
}

impl Baseline {
    /// What runner `pid` holds now (call it before its import runs).
    pub(crate) fn of(pid: i32) -> Result<Baseline, String> {
        Ok(Baseline {
            signals: signals(pid)?,
            files: files(pid)?,
            shared: shared_mappings(pid)?,
            temporary: private_temporary(pid)
                .into_iter()
                .map(|folder| {
                    let held = held_in(&folder);
                    (folder, held)
                })
                .collect(),
            settled: Mutex::new(Vec::new()),
        })
    }

    /// Records the runner's own `/tmp` and `/dev/shm` as its scenarios must find them: as
    /// its import left them (call it once [`Baseline::check_loaded`] found nothing added).
    /// Under bubblewrap they belong to the student's user, who could otherwise leave a mark
    /// on them for the next scenario (a mode, a time, an attribute).
    pub(crate) fn settle_temporary(&mut self) -> Result<(), String> {
        let settled = self
            .temporary
            .iter()
            .map(|(folder, _)| Snapshot::of_private_folder(folder).map_err(|e| e.to_string()))
            .collect::<Result<Vec<_>, _>>()?;
        self.settled = Mutex::new(settled);
        Ok(())
    }

    /// The same, holding also the file `(device, inode)` (given to the runner with `on`).
    pub(crate) fn holding(mut self, file: (u64, u64)) -> Baseline {
        self.files.insert(file);
        self
    }

    /// Why scenario process `pid`, a copy of the runner that says it is ready, cannot run
    /// its scenario, if it cannot: it maps shared memory the runner did not before its import
    /// (a mapping outlives the descriptor it was made from, which the copy then closes, and
    /// memory every copy maps carries one scenario's steps into the next).
    pub(crate) fn check_copy(&self, pid: i32) -> Result<(), String> {
        self.check_no_new_sharing(pid, "a copy of the runner maps shared memory")
    }

    fn check_no_new_sharing(&self, pid: i32, why: &str) -> Result<(), String> {
        if shared_mappings(pid)?.is_subset(&self.shared) {
            Ok(())
        } else {
            Err(why.to_string())
        }
    }

    /// Why runner `pid`, loaded, cannot be forked from, if it cannot.
    pub(crate) fn check_loaded(&self, pid: i32) -> Result<(), String> {
        self.check_signals(pid)?;
        if !files(pid)?.is_subset(&self.files) {
            return Err("its import keeps a file open".into());
        }
        self.check_no_new_sharing(pid, "its import maps shared memory")?;
        for (folder, held) in &self.temporary {
            if let Some(left) = added_in(folder, held).first() {
                let name = left.strip_prefix(folder).unwrap_or(left);
                return Err(format!(
                    "its import leaves files in /tmp or /dev/shm ({})",
                    name.display()
                ));
            }
        }
        Ok(())
    }

    /// Why runner `pid`'s signal dispositions are not those it started with, if they are not.
    pub(crate) fn check_signals(&self, pid: i32) -> Result<(), String> {
        self.compare_signals(&read_status(pid)?)
    }

    fn compare_signals(&self, status: &str) -> Result<(), String> {
        let now = parse_signals(status).ok_or("the runner's status has no signal masks")?;
        if now.ignored & SIGCHLD_BIT != self.signals.ignored & SIGCHLD_BIT {
            return Err("its import ignores SIGCHLD".into());
        }
        if now != self.signals {
            return Err("its import handles signals".into());
        }
        Ok(())
    }
}

const SIGCHLD_BIT: u64 = 1 << (17 - 1);
const SIGKILL_BIT: u64 = 1 << (9 - 1);

impl Baseline {
    /// Brings the runner's own `/tmp` and `/dev/shm` back to what they were once its import
    /// had run (none under `limits`, where a student user's leftovers are removed by owner).
    pub(crate) fn clear_temporary(&self) -> Result<(), String> {
        let mut settled = self.settled.lock().unwrap_or_else(|e| e.into_inner());
        // A runner that died took its folders with it (its death is dealt with elsewhere).
        for snapshot in settled.iter_mut().filter(|s| s.root().exists()) {
            snapshot.restore().map_err(|e| e.to_string())?;
        }
        Ok(())
    }
}

/// Why runner `pid`, running as `uid`, is open to its scenarios, if it is. A dumpable
/// process can be traced, and its memory read and written through `/proc/PID/mem`, by any
/// process of its user: by its scenarios, which would then carry one into the next. The
/// runner makes itself not dumpable once its import has run, which the import could keep
/// it from doing; the kernel shows the files of a process that is not dumpable as root's
/// (no user namespace of the grader's maps root), and those of one that is as its user's.
/// A runner run as root (no sandbox) is told apart by nothing, and closed to nothing.
pub(crate) fn check_closed(pid: i32, uid: u32) -> Result<(), String> {
    if uid == 0 {
        return Ok(());
    }
    let owner = std::fs::metadata(format!("/proc/{pid}/mem"))
        .map_err(|e| format!("cannot look at the runner: {e}"))?
        .uid();
    if owner == uid {
        return Err("its import keeps the runner open to its scenarios (dumpable)".into());
    }
    Ok(())
}

/// A descriptor's file, as the kernel knows it: its device and inode.
pub(crate) fn identity(fd: &impl std::os::fd::AsFd) -> Option<(u64, u64)> {
    let stat = rustix::fs::fstat(fd).ok()?;
    Some((stat.st_dev, stat.st_ino))
}

/// Why scenario process `pid`, set up and about to run, holds a descriptor besides those it
/// was `given` (stdin, stdout, stderr, and its handshake), if it does. Each copy closes the
/// runner's own descriptors before it says `ready`, but the import could have duplicated
/// one (its output's memory file, a pipe's end) under another number, the same file to the
/// runner's look at what it holds: every copy would then share it, and read in it what an
/// earlier scenario wrote.
pub(crate) fn check_descriptors(pid: i32, given: &[Option<(u64, u64)>]) -> Result<(), String> {
    let folder = format!("/proc/{pid}/fd");
    let entries =
        std::fs::read_dir(&folder).map_err(|e| format!("cannot look at the scenario: {e}"))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot look at the scenario: {e}"))?;
        let file = std::fs::metadata(entry.path())
            .map_err(|e| format!("cannot look at the scenario: {e}"))?;
        if !given.contains(&Some((file.dev(), file.ino()))) && !holds_nothing(&file) {
            return Err("its import keeps a copy of the runner's own files".into());
        }
    }
    Ok(())
}

/// Whether `file` is a device that keeps nothing written to it for a later reader:
/// `/dev/null`, `/dev/zero`, `/dev/full`, `/dev/random` or `/dev/urandom` (an adapter keeps
/// `/dev/null` open for student code's reads).
fn holds_nothing(file: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::FileTypeExt;
    const MEMORY_DEVICES: u32 = 1;
    let device = file.rdev();
    file.file_type().is_char_device()
        && rustix::fs::major(device) == MEMORY_DEVICES
        && [3, 5, 7, 8, 9].contains(&rustix::fs::minor(device))
}

/// Every path below `folder` on its own file system (a folder bound there is not looked in).
fn held_in(folder: &Path) -> HashSet<PathBuf> {
    let mut held = HashSet::new();
    walk(folder, &mut |path| {
        held.insert(path.to_path_buf());
        true
    });
    held
}

/// The paths below `folder` (on its own file system) that are not in `held`, each without
/// what lies below it.
fn added_in(folder: &Path, held: &HashSet<PathBuf>) -> Vec<PathBuf> {
    let mut added = Vec::new();
    walk(folder, &mut |path| {
        if held.contains(path) {
            return true;
        }
        added.push(path.to_path_buf());
        false
    });
    added
}

/// Calls `visit` on each path below `folder` on the same file system, descending into a
/// folder when `visit` says so.
fn walk(folder: &Path, visit: &mut dyn FnMut(&Path) -> bool) {
    let Ok(device) = std::fs::symlink_metadata(folder).map(|m| m.dev()) else {
        return;
    };
    let mut pending = vec![folder.to_path_buf()];
    while let Some(current) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&current) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(meta) = entry.metadata() else {
                continue;
            };
            if meta.dev() != device {
                continue;
            }
            let path = entry.path();
            if visit(&path) && meta.is_dir() {
                pending.push(path);
            }
        }
    }
}

/// `/proc/PID/root/tmp` and `/proc/PID/root/dev/shm` where process `pid` has a mount
/// namespace of its own (bubblewrap's).
fn private_temporary(pid: i32) -> Vec<PathBuf> {
    let namespace = |path: String| std::fs::metadata(path).map(|m| m.ino()).ok();
    let theirs = namespace(format!("/proc/{pid}/ns/mnt"));
    if theirs.is_none() || theirs == namespace("/proc/self/ns/mnt".into()) {
        return Vec::new();
    }
    TEMPORARY
        .iter()
        .map(|folder| PathBuf::from(format!("/proc/{pid}/root/{folder}")))
        .filter(|path| path.is_dir())
        .collect()
}

fn read_status(pid: i32) -> Result<String, String> {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .map_err(|e| format!("cannot read the runner's status: {e}"))
}

fn signals(pid: i32) -> Result<Signals, String> {
    parse_signals(&read_status(pid)?)
        .ok_or_else(|| "the runner's status has no signal masks".into())
}

/// Every signal a process can block (1 to 64 but SIGKILL and SIGSTOP, and the two the C
/// library keeps for itself, 32 and 33), as a mask.
const BLOCKABLE: u64 = !((1 << (9 - 1)) | (1 << (19 - 1)) | (1 << (32 - 1)) | (1 << (33 - 1)));

/// Why runner `pid` could run code while it waits on its gate, if it could: more than one
/// thread, or a signal it does not block (a handler would run).
pub(crate) fn check_still(pid: i32) -> Result<(), String> {
    still(&read_status(pid)?)
}

fn still(status: &str) -> Result<(), String> {
    let threads = status
        .lines()
        .find_map(|line| line.strip_prefix("Threads:"))
        .map(str::trim);
    if threads != Some("1") {
        return Err("the runner has more than one thread".into());
    }
    if mask(status, "SigBlk:").is_none_or(|blocked| blocked & BLOCKABLE != BLOCKABLE) {
        return Err("the runner does not block every signal".into());
    }
    Ok(())
}

/// Why runner `pid` holds a signal a scenario sent it, if it does. The runner blocks every
/// signal, so one sent to it stays pending, and a later scenario could read it in the
/// runner's status: a mark from one scenario to the next. Only `SIGCHLD`, which the end of
/// every scenario raises, is expected. A runner that is gone, or dying (`SIGKILL` pending),
/// serves no scenario again (its end is dealt with elsewhere).
pub(crate) fn check_nothing_pending(pid: i32) -> Result<(), String> {
    match read_status(pid) {
        Ok(status) => nothing_pending(&status),
        Err(_) => Ok(()),
    }
}

fn nothing_pending(status: &str) -> Result<(), String> {
    let (Some(own), Some(shared)) = (mask(status, "SigPnd:"), mask(status, "ShdPnd:")) else {
        return Err("the runner's status has no pending signals".into());
    };
    let pending = own | shared;
    if pending & !SIGCHLD_BIT == 0 || pending & SIGKILL_BIT != 0 {
        Ok(())
    } else {
        Err("a scenario left a signal pending for the runner".into())
    }
}

/// The signal mask `name` (`SigIgn:`, `SigPnd:`, ...) of a `/proc/PID/status` text.
fn mask(status: &str, name: &str) -> Option<u64> {
    status
        .lines()
        .find_map(|line| line.strip_prefix(name))
        .and_then(|hex| u64::from_str_radix(hex.trim(), 16).ok())
}

fn parse_signals(status: &str) -> Option<Signals> {
    Some(Signals {
        ignored: mask(status, "SigIgn:")?,
        caught: mask(status, "SigCgt:")?,
    })
}

fn files(pid: i32) -> Result<HashSet<(u64, u64)>, String> {
    let folder = format!("/proc/{pid}/fd");
    let entries = std::fs::read_dir(&folder)
        .map_err(|e| format!("cannot read the runner's descriptors: {e}"))?;
    let mut files = HashSet::new();
    for entry in entries.flatten() {
        // A descriptor closed meanwhile is not held.
        if let Ok(meta) = std::fs::metadata(entry.path()) {
            files.insert((meta.dev(), meta.ino()));
        }
    }
    Ok(files)
}

fn shared_mappings(pid: i32) -> Result<HashSet<(String, u64)>, String> {
    let maps = std::fs::read_to_string(format!("/proc/{pid}/maps"))
        .map_err(|e| format!("cannot read the runner's mappings: {e}"))?;
    Ok(parse_shared(&maps))
}

/// The device and inode of each shared mapping of a `/proc/PID/maps` text.
fn parse_shared(maps: &str) -> HashSet<(String, u64)> {
    maps.lines()
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let shared = fields.get(1)?.as_bytes().get(3) == Some(&b's');
            let (device, inode) = (fields.get(3)?.to_string(), fields.get(4)?.parse().ok()?);
            shared.then_some((device, inode))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signal_masks_are_read_from_a_status_text() {
        let status = "Name:\tpython3\nSigBlk:\t0000000000000000\nSigIgn:\t0000000001011000\n\
                      SigCgt:\t0000000000000002\n";
        let signals = parse_signals(status).unwrap();
        assert_eq!(signals.caught, 2);
        assert_ne!(signals.ignored & SIGCHLD_BIT, 0);
        assert_eq!(parse_signals("Name:\tx\n"), None);
    }

    #[test]
    fn a_runner_with_one_thread_and_every_signal_blocked_is_still() {
        let status = "Name:\tpython3\nThreads:\t1\nSigBlk:\tfffffffe7ffbfeff\n";
        assert_eq!(still(status), Ok(()));
        let two = status.replace("Threads:\t1", "Threads:\t2");
        assert!(still(&two).unwrap_err().contains("thread"));
        // SIGINT (2) not blocked: a handler could run.
        let sigint = status.replace("fffffffe7ffbfeff", "fffffffe7ffbfefd");
        assert!(still(&sigint).unwrap_err().contains("signal"));
        assert!(still("Threads:\t1\n").is_err());
    }

    #[test]
    fn a_signal_left_pending_for_the_runner_shows_and_sigchld_does_not() {
        let status = |shared: &str| format!("SigPnd:\t0000000000000000\nShdPnd:\t{shared}\n");
        assert!(nothing_pending(&status("0000000000000000")).is_ok());
        assert!(nothing_pending(&status("0000000000010000")).is_ok());
        // A runner being killed serves nothing again.
        assert!(nothing_pending(&status("0000000000010300")).is_ok());
        let sigusr1 = nothing_pending(&status("0000000000010200")).unwrap_err();
        assert!(sigusr1.contains("signal pending"), "{sigusr1}");
        assert!(nothing_pending("SigPnd:\t0000000000000000\n").is_err());
    }

    #[test]
    fn only_shared_mappings_count() {
        let maps = "7f53-7f54 r--s 00000000 fe:00 325745    /usr/lib/gconv/gconv-modules.cache\n\
                    7f55-7f56 rw-p 00000000 00:00 0 \n\
                    7f57-7f58 rw-s 00000000 00:01 4242    /dev/zero (deleted)\n";
        let shared = parse_shared(maps);
        assert_eq!(shared.len(), 2);
        assert!(shared.contains(&("00:01".to_string(), 4242)));
        assert!(!shared.contains(&("00:00".to_string(), 0)));
    }

    #[test]
    fn this_process_holds_what_it_held_and_a_new_file_shows() {
        let me = std::process::id() as i32;
        let before = Baseline::of(me).unwrap();
        // This test process shares the grader's mount namespace: no private /tmp to check.
        assert!(private_temporary(me).is_empty());
        let file = tempfile::tempfile().unwrap();
        assert!(!files(me).unwrap().is_subset(&before.files));
        drop(file);
    }
}
