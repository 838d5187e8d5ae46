//! Scratch folders for student code: `boardgrade-PID-XXXXXX` in the temporary folder, named
//! after the grader that made it, so that a folder left by a grader that was killed (and can
//! no longer clean up) is removed by the next one.
//!
//! A scratch folder is the grader's (mode 0711): a student user can pass through it to its own
//! private folder inside, but cannot list it or reach another student's folder.

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;

use crate::error::Error;

const PREFIX: &str = "boardgrade-";

/// Whether process `pid` exists.
pub fn alive(pid: i32) -> bool {
    rustix::process::Pid::from_raw(pid).is_some_and(|pid| match rustix::process::test_kill_process(
        pid,
    ) {
        Ok(()) => true,
        Err(e) => e == rustix::io::Errno::PERM,
    })
}

/// A new scratch folder of this grader, after removing those of graders that are gone.
pub fn create() -> Result<tempfile::TempDir, Error> {
    let temp = std::env::temp_dir();
    reap_stale(&temp);
    let dir = tempfile::Builder::new()
        .prefix(&format!("{PREFIX}{}-", std::process::id()))
        .tempdir()
        .map_err(|e| Error::io("cannot create a scratch folder", e))?;
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o711))
        .map_err(|e| Error::io(format!("cannot protect {}", dir.path().display()), e))?;
    Ok(dir)
}

/// Removes the scratch folders in `temp` whose grader no longer runs. Only this user's
/// folders are touched.
pub fn reap_stale(temp: &Path) {
    let Ok(entries) = std::fs::read_dir(temp) else {
        return;
    };
    let me = rustix::process::geteuid().as_raw();
    for entry in entries.flatten() {
        let Some(pid) = owner_pid(&entry.file_name().to_string_lossy()) else {
            continue;
        };
        let mine =
            std::fs::symlink_metadata(entry.path()).is_ok_and(|m| m.is_dir() && m.uid() == me);
        if mine && !alive(pid) {
            super::disk::release_under(&entry.path());
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// The grader pid in a scratch folder's name (`boardgrade-PID-XXXXXX`).
fn owner_pid(name: &str) -> Option<i32> {
    let (pid, random) = name.strip_prefix(PREFIX)?.split_once('-')?;
    (!random.is_empty() && !random.contains('-')).then_some(())?;
    pid.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scratch_folder_names_its_grader() {
        assert_eq!(owner_pid("boardgrade-1234-AbC9xz"), Some(1234));
        assert_eq!(owner_pid("boardgrade-AbC9xz"), None);
        assert_eq!(owner_pid("boardgrade-students"), None);
        assert_eq!(owner_pid("other-1234-abc"), None);
    }

    #[test]
    fn folders_of_dead_graders_are_reaped_and_live_ones_kept() {
        let temp = tempfile::tempdir().unwrap();
        // A pid that cannot exist (above the kernel's maximum).
        let dead = temp.path().join("boardgrade-2147483600-left");
        let live = temp
            .path()
            .join(format!("boardgrade-{}-mine", std::process::id()));
        let other = temp.path().join("unrelated-1-x");
        for dir in [&dead, &live, &other] {
            std::fs::create_dir_all(dir.join("submission")).unwrap();
        }
        reap_stale(temp.path());
        assert!(!dead.exists());
        assert!(live.exists());
        assert!(other.exists());
    }
}
