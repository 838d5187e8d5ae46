//! What a student user leaves behind outside its scratch folder, removed when its run ends.
//!
//! Without namespaces (`limits`) a student process shares the machine's temporary folders and
//! System V IPC with everyone. Files it writes in `/tmp`, `/var/tmp`, `/dev/shm` or
//! `/run/lock`, and the shared memory segments, message queues and semaphores it creates,
//! outlive it: the next submission given the same user would find them (a channel between
//! students), and a few hundred scenarios could fill the disk or, through `/dev/shm` and
//! shared memory, the machine's memory. Once every process of the user is dead, nothing
//! it owns in those places is left.

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The folders every user may write to on a usual system (those missing here are skipped).
const SHARED_FOLDERS: &[&str] = &["/tmp", "/var/tmp", "/dev/shm", "/run/lock", "/dev/mqueue"];

/// How deep below a shared folder other world-writable folders (`/tmp/.X11-unix`) are
/// searched for what the student left in them.
const DEPTH: usize = 3;

/// Removes every file, folder and System V IPC object user `uid` owns in the places every
/// user may write to. Call it only when no process of the user runs (none could add more).
pub fn remove_left_by(uid: u32) {
    for folder in shared_folders() {
        remove_owned_in(folder, uid, DEPTH);
    }
    remove_ipc_of(uid);
}

/// The shared folders of this machine: world-writable, each once (`/var/lock` is often
/// `/run/lock`), and the grader's temporary folder if it is another one.
fn shared_folders() -> &'static [PathBuf] {
    static FOLDERS: OnceLock<Vec<PathBuf>> = OnceLock::new();
    FOLDERS.get_or_init(|| {
        let mut folders: Vec<PathBuf> = Vec::new();
        let candidates = SHARED_FOLDERS
            .iter()
            .map(PathBuf::from)
            .chain([std::env::temp_dir()]);
        for candidate in candidates {
            let Ok(real) = std::fs::canonicalize(&candidate) else {
                continue;
            };
            if world_writable_folder(&real) && !folders.contains(&real) {
                folders.push(real);
            }
        }
        folders
    })
}

fn world_writable_folder(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir() && m.permissions().mode() & 0o002 != 0)
}

/// Removes what `uid` owns in `folder`, and in the world-writable folders below it that
/// others own, down to `depth` levels. Links are removed, never followed.
fn remove_owned_in(folder: &Path, uid: u32, depth: usize) {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return;
    };
    for entry in entries.flatten() {
        let Ok(meta) = entry.metadata() else {
            continue;
        };
        let path = entry.path();
        if meta.uid() == uid {
            let _ = super::snapshot::remove_entry(&path, meta.is_dir());
        } else if depth > 0 && meta.is_dir() && meta.permissions().mode() & 0o002 != 0 {
            remove_owned_in(&path, uid, depth - 1);
        }
    }
}

/// The kinds of System V IPC objects: the `/proc/sysvipc` file that lists them, its column
/// of ids, and the call that removes one.
const IPC_KINDS: &[(&str, &str, IpcKind)] = &[
    ("/proc/sysvipc/shm", "shmid", IpcKind::SharedMemory),
    ("/proc/sysvipc/msg", "msqid", IpcKind::MessageQueue),
    ("/proc/sysvipc/sem", "semid", IpcKind::Semaphores),
];

#[derive(Clone, Copy)]
enum IpcKind {
    SharedMemory,
    MessageQueue,
    Semaphores,
}

/// Removes the System V IPC objects `uid` owns or created.
fn remove_ipc_of(uid: u32) {
    for &(list, id_column, kind) in IPC_KINDS {
        let Ok(text) = std::fs::read_to_string(list) else {
            continue;
        };
        for id in ipc_ids_of(&text, id_column, uid) {
            remove_ipc(kind, id);
        }
    }
}

/// The ids in a `/proc/sysvipc` listing of the objects whose owner or creator is `uid` (an
/// owner may hand an object to another user id; its creator stays).
fn ipc_ids_of(listing: &str, id_column: &str, uid: u32) -> Vec<i32> {
    let mut lines = listing.lines();
    let Some(header) = lines.next() else {
        return Vec::new();
    };
    let columns: Vec<&str> = header.split_whitespace().collect();
    let column = |name: &str| columns.iter().position(|c| *c == name);
    let (Some(id), Some(owner), Some(creator)) = (column(id_column), column("uid"), column("cuid"))
    else {
        return Vec::new();
    };
    let uid = uid.to_string();
    lines
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let theirs = fields.get(owner) == Some(&uid.as_str())
                || fields.get(creator) == Some(&uid.as_str());
            theirs.then(|| fields.get(id)?.parse().ok()).flatten()
        })
        .collect()
}

fn remove_ipc(kind: IpcKind, id: i32) {
    // SAFETY: IPC_RMID takes no buffer (a null pointer is allowed) and touches no memory of
    // this process; an id already gone fails harmlessly.
    unsafe {
        match kind {
            IpcKind::SharedMemory => {
                libc::shmctl(id, libc::IPC_RMID, std::ptr::null_mut());
            }
            IpcKind::MessageQueue => {
                libc::msgctl(id, libc::IPC_RMID, std::ptr::null_mut());
            }
            IpcKind::Semaphores => {
                libc::semctl(id, 0, libc::IPC_RMID);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_objects_a_user_owns_or_created_are_found_by_their_columns() {
        let listing = "       key      shmid perms                  size  cpid  lpid nattch   uid   gid  cuid  cgid\n\
                       0          7   666 1048576 11281 0 0 1900000000 1900000000 1900000000 1900000000\n\
                       0          8   666 1048576 11281 0 0 0 0 1900000000 1900000000\n\
                       0          9   600 1048576 1 0 0 0 0 0 0\n";
        assert_eq!(ipc_ids_of(listing, "shmid", 1_900_000_000), vec![7, 8]);
        assert_eq!(
            ipc_ids_of(listing, "shmid", 1_900_000_001),
            Vec::<i32>::new()
        );
        assert_eq!(ipc_ids_of("", "shmid", 0), Vec::<i32>::new());
    }

    #[test]
    fn owned_entries_go_and_others_stay_also_in_world_writable_subfolders() {
        let temp = tempfile::tempdir().unwrap();
        let me = rustix::process::geteuid().as_raw();
        let shared = temp.path().join("shared");
        std::fs::create_dir_all(shared.join("mine/deep")).unwrap();
        std::fs::write(shared.join("mine.txt"), "x").unwrap();
        std::os::unix::fs::symlink("/etc/hostname", shared.join("link")).unwrap();
        let open = shared.join("open");
        std::fs::create_dir(&open).unwrap();
        std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o1777)).unwrap();
        std::fs::write(open.join("inner.txt"), "x").unwrap();
        // Owned by someone else: kept (as root, give the file away; otherwise skip).
        let kept = shared.join("theirs.txt");
        std::fs::write(&kept, "x").unwrap();
        let other = me.wrapping_add(1);
        let given_away = std::os::unix::fs::lchown(&kept, Some(other), None).is_ok();
        if given_away {
            std::os::unix::fs::lchown(&open, Some(other), None).unwrap();
        }
        remove_owned_in(&shared, me, DEPTH);
        assert!(!shared.join("mine").exists());
        assert!(!shared.join("mine.txt").exists());
        assert!(std::fs::symlink_metadata(shared.join("link")).is_err());
        assert!(std::path::Path::new("/etc/hostname").exists());
        assert!(!open.join("inner.txt").exists());
        assert_eq!(kept.exists(), given_away);
    }
}
