//! Unprivileged users for student processes, when the grader runs as root.
//!
//! Each parallel job borrows a user and group of its own from a pool of numeric ids that no
//! account uses (no passwd entry is needed). Because nothing else ever runs under that id,
//! "kill every process of this user" ends a scenario with nothing left, whether a process
//! called `setsid` or not, and RLIMIT_NPROC (which does not bind root) caps a fork bomb.
//!
//! A lease is a `flock` on a file in a root-only folder, so grader processes running side by
//! side never share an id, and a lease dies with its grader (even under `kill -9`). Every
//! process of an id is killed when it is leased and when it is given back, so what a killed
//! grader left behind is ended by the next run that takes the id. An id given back (with
//! nothing left running under it) stays locked by its grader for the grader's next lease,
//! which then needs no search of the process table.

use std::fs::File;
use std::io;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use rustix::fs::{flock, FlockOperation};
use rustix::process::{kill_process, set_child_subreaper, waitpid, Pid, Signal, WaitOptions};

use super::residue;
use crate::error::{Error, SetupError};

/// The first id of the pool: above the ranges distributions, systemd and container tools
/// hand out, below 2^31 (which some tools read as negative).
pub const FIRST_ID: u32 = 1_900_000_000;
/// How many ids the pool holds (parallel jobs of every grader on the machine).
pub const POOL_SIZE: u32 = 1024;
/// Where the lease files live when the system has no root-only run folder.
const LOCK_FOLDER: &str = "boardgrade-students";

/// A user and group id for student processes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct StudentId {
    pub uid: u32,
    pub gid: u32,
}

/// An id borrowed from the pool: no other grader uses it until this is dropped, and every
/// process running under it is killed when it is dropped.
#[derive(Debug)]
pub struct Lease {
    id: StudentId,
    lock: Option<File>,
}

impl Lease {
    pub fn id(&self) -> StudentId {
        self.id
    }
}

/// Ids this grader has given back with nothing running under them, still locked.
static GIVEN_BACK: Mutex<Vec<(StudentId, File)>> = Mutex::new(Vec::new());

impl Drop for Lease {
    fn drop(&mut self) {
        if kill_all(self.id) {
            residue::remove_left_by(self.id.uid);
            if let Some(lock) = self.lock.take() {
                GIVEN_BACK
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push((self.id, lock));
            }
        }
    }
}

/// Whether the grader runs as root (and student processes must run as someone else).
pub fn grader_is_root() -> bool {
    crate::execution::sys::is_root()
}

/// Takes the lease file's lock without waiting; false when another grader holds it.
fn try_lock(file: &File) -> bool {
    flock(file, FlockOperation::NonBlockingLockExclusive).is_ok()
}

/// Borrows an id no other grader holds, with nothing left running under it.
pub fn lease() -> Result<Lease, Error> {
    let kept = GIVEN_BACK.lock().unwrap_or_else(|e| e.into_inner()).pop();
    if let Some((id, lock)) = kept {
        return Ok(Lease {
            id,
            lock: Some(lock),
        });
    }
    let folder = lock_folder()?;
    become_subreaper();
    let taken = ids_with_accounts();
    for offset in 0..POOL_SIZE {
        let id = FIRST_ID + offset;
        if taken.contains(&id) {
            continue;
        }
        let path = folder.join(id.to_string());
        let file = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| Error::io(format!("cannot open {}", path.display()), e))?;
        if try_lock(&file) {
            let id = StudentId { uid: id, gid: id };
            // A grader killed while this id was its own may have left processes and files
            // behind.
            if kill_all(id) {
                residue::remove_left_by(id.uid);
            }
            return Ok(Lease {
                id,
                lock: Some(file),
            });
        }
    }
    Err(SetupError::NoStudentIds {
        first: FIRST_ID,
        size: POOL_SIZE,
    }
    .into())
}

/// Kills every process running under a pool id that no live grader holds (what a grader left
/// when it ended, a daemon that escaped its scenario); returns how many there were.
pub fn kill_unleased() -> usize {
    let mut by_id: std::collections::BTreeMap<u32, usize> = std::collections::BTreeMap::new();
    for process in processes() {
        if !process.ended && (FIRST_ID..FIRST_ID + POOL_SIZE).contains(&process.uid) {
            *by_id.entry(process.uid).or_default() += 1;
        }
    }
    let Ok(folder) = lock_folder() else {
        return 0;
    };
    let mut killed = 0;
    for (uid, count) in by_id {
        let Ok(file) = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(folder.join(uid.to_string()))
        else {
            continue;
        };
        if try_lock(&file) {
            let id = StudentId { uid, gid: uid };
            if kill_all(id) {
                residue::remove_left_by(id.uid);
            }
            killed += count;
        }
    }
    killed
}

/// A process as its `/proc/PID/status` file tells.
struct Process {
    pid: Pid,
    /// Its real user id.
    uid: u32,
    parent: i32,
    /// A zombie (or dying): it has exited, and only its parent's wait is missing.
    ended: bool,
}

/// Every process of the machine (one pass over `/proc`, each status file read at once).
fn processes() -> Vec<Process> {
    use std::io::Read;
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut buffer = Vec::with_capacity(4096);
    entries
        .flatten()
        .filter_map(|entry| {
            let pid = Pid::from_raw(entry.file_name().to_str()?.parse::<i32>().ok()?)?;
            buffer.clear();
            File::open(entry.path().join("status"))
                .and_then(|mut file| file.read_to_end(&mut buffer))
                .ok()?;
            let status = std::str::from_utf8(&buffer).ok()?;
            let field = |name: &str| {
                status
                    .lines()
                    .find_map(|l| l.strip_prefix(name))
                    .and_then(|l| l.split_whitespace().next())
            };
            Some(Process {
                pid,
                uid: field("Uid:")?.parse().ok()?,
                parent: field("PPid:")?.parse().ok()?,
                ended: matches!(field("State:"), Some("Z" | "X")),
            })
        })
        .collect()
}

/// The root-only folder of lease files, made on first use. A folder that someone else could
/// have planted or can write to is refused rather than trusted.
fn lock_folder() -> Result<PathBuf, Error> {
    static FOLDER: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    FOLDER
        .get_or_init(|| {
            let base = ["/run", "/var/run"]
                .into_iter()
                .map(Path::new)
                .find(|p| root_only_writable(p))
                .map(Path::to_path_buf)
                .unwrap_or_else(std::env::temp_dir);
            let folder = base.join(LOCK_FOLDER);
            match std::fs::create_dir(&folder) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(format!("cannot create {}: {e}", folder.display())),
            }
            let _ = std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o700));
            match std::fs::symlink_metadata(&folder) {
                Ok(m) if m.is_dir() && m.uid() == 0 && m.mode() & 0o077 == 0 => Ok(folder),
                _ => Err(format!(
                    "{} is not a folder that only root can use; remove it",
                    folder.display()
                )),
            }
        })
        .clone()
        .map_err(|why| SetupError::LeaseFolder(why).into())
}

fn root_only_writable(path: &Path) -> bool {
    std::fs::symlink_metadata(path)
        .is_ok_and(|m| m.is_dir() && m.uid() == 0 && m.mode() & 0o022 == 0)
}

/// Ids the system's account files name: never borrowed, so no real user's process is killed.
fn ids_with_accounts() -> Vec<u32> {
    let mut ids = Vec::new();
    for file in ["/etc/passwd", "/etc/group"] {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        for line in text.lines() {
            if let Some(id) = line.split(':').nth(2).and_then(|f| f.parse().ok()) {
                ids.push(id);
            }
        }
    }
    ids
}

/// How many live (not zombie) processes have `uid` as their real user id.
pub fn processes_of(uid: u32) -> usize {
    processes()
        .iter()
        .filter(|p| p.uid == uid && !p.ended)
        .count()
}

/// Makes the grader the parent of the processes its children orphan (a sandbox's inner
/// process, a daemon), so that once killed they are reaped at once: a zombie still counts
/// against its user's process limit, and a slow init would let them pile up.
fn become_subreaper() {
    static DONE: OnceLock<()> = OnceLock::new();
    DONE.get_or_init(|| {
        let _ = set_child_subreaper(Some(rustix::process::getpid()));
    });
}

/// Kills every process of `id` and waits (up to a second) until none is left; whether none
/// is.
pub fn kill_all(id: StudentId) -> bool {
    kill_all_but(id, &[])
}

/// Kills every process of `id` but `spared` (a loaded runner), and waits (up to a second)
/// until no other is left; whether none is. The killed processes that were handed to the
/// grader (orphans) are reaped, found in the same pass over the process table.
pub fn kill_all_but(id: StudentId, spared: &[i32]) -> bool {
    let deadline = Instant::now() + Duration::from_secs(1);
    let me = std::process::id() as i32;
    loop {
        let (ended, live): (Vec<Process>, Vec<Process>) =
            processes_of_but(id, spared).partition(|p| p.ended);
        for orphan in ended.iter().filter(|p| p.parent == me) {
            let _ = waitpid(Some(orphan.pid), WaitOptions::NOHANG);
        }
        if live.is_empty() {
            return true;
        }
        for process in live {
            let _ = kill_process(process.pid, Signal::KILL);
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// The living processes of `id` but `spared`.
pub fn living_besides(id: StudentId, spared: &[i32]) -> Vec<Pid> {
    processes_of_but(id, spared)
        .filter(|p| !p.ended)
        .map(|p| p.pid)
        .collect()
}

/// The processes of `id` but `spared`, ended or not (one pass over the process table).
fn processes_of_but(id: StudentId, spared: &[i32]) -> impl Iterator<Item = Process> + '_ {
    processes()
        .into_iter()
        .filter(move |p| p.uid == id.uid && !spared.contains(&p.pid.as_raw_nonzero().get()))
}

/// Gives `path` (and everything under it) to `id`, private to it.
pub fn hand_over(path: &Path, id: StudentId) -> Result<(), Error> {
    for entry in walkdir::WalkDir::new(path).follow_links(false) {
        let entry = entry.map_err(|e| Error::path(path, format!("cannot read: {e}")))?;
        let what = entry.path();
        std::os::unix::fs::lchown(what, Some(id.uid), Some(id.gid)).map_err(|e| {
            Error::io(
                format!("cannot give {} to the student user", what.display()),
                e,
            )
        })?;
    }
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o700))
        .map_err(|e| Error::io(format!("cannot protect {}", path.display()), e))
}
