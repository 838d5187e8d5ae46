//! A job folder of bounded size: a tmpfs of its own, where the grader may mount one (as
//! root).
//!
//! Each file a student process writes is held to a size (`RLIMIT_FSIZE`), but not how many
//! it writes: on the grader's disk, one scenario could write gigabytes a second until the
//! disk is full, and the next submission's copy, or the grader's own results, would fail.
//! On a tmpfs the job folder holds what was laid out and [`WRITE_ROOM`] more; a program
//! that writes past it gets "No space left on device", its own failure. A tmpfs's pages
//! are charged to the memory cgroup of the process that writes them, so what a scenario
//! writes counts against its memory limit as well. Where no tmpfs can be mounted (a
//! grader that is not root, a container without the right), the folder stays on disk, as
//! before.

use std::path::{Path, PathBuf};

use rustix::mount::{MountFlags, UnmountFlags};

/// What a job folder holds before anything is laid out in it: room for the largest
/// submission graded (1 GiB, the grader's bound on a submission) and its harness.
const LAYOUT_ROOM: u64 = 2 << 30;

/// What the programs of a job may write in its folder beyond what was laid out there.
pub const WRITE_ROOM: u64 = 256 << 20;

/// How many files and folders they may make there beyond those laid out: each one costs
/// the grader a look when the folder is put back, and its own room counts none of them.
pub const ENTRY_ROOM: u64 = 10_000;

/// Mounts a tmpfs at `dir` (an empty folder) with room for a layout: whether it did.
pub fn bound(dir: &Path) -> bool {
    let options = format!("size={LAYOUT_ROOM},mode=0700");
    rustix::mount::mount(
        "boardgrade",
        dir,
        "tmpfs",
        MountFlags::NOSUID | MountFlags::NODEV,
        Some(c_text(&options).as_c_str()),
    )
    .is_ok()
}

/// Shrinks the tmpfs at `dir` to what it holds now and [`WRITE_ROOM`] more, and
/// [`ENTRY_ROOM`] more files and folders: whether it did.
pub fn leave_room(dir: &Path) -> bool {
    let Ok(stat) = rustix::fs::statvfs(dir) else {
        return false;
    };
    let used = stat.f_blocks.saturating_sub(stat.f_bfree) * stat.f_frsize;
    let entries = stat.f_files.saturating_sub(stat.f_ffree);
    let options = format!(
        "size={},nr_inodes={}",
        used + WRITE_ROOM,
        entries + ENTRY_ROOM
    );
    rustix::mount::mount_remount(
        dir,
        MountFlags::NOSUID | MountFlags::NODEV,
        options.as_str(),
    )
    .is_ok()
}

/// Unmounts the tmpfs at `dir`, at once for whatever still has it open.
pub fn release(dir: &Path) {
    let _ = rustix::mount::unmount(dir, UnmountFlags::DETACH);
}

/// Unmounts every tmpfs of a job folder under `root` (the scratch folder of a grader that
/// was killed before it could), deepest first.
pub fn release_under(root: &Path) {
    let Ok(table) = std::fs::read_to_string("/proc/self/mountinfo") else {
        return;
    };
    let mut points: Vec<PathBuf> = table
        .lines()
        .filter_map(|line| line.split(' ').nth(4))
        .map(unescape)
        .filter(|point| point.starts_with(root) && point != root)
        .collect();
    points.sort_by_key(|point| std::cmp::Reverse(point.components().count()));
    for point in points {
        release(&point);
    }
}

/// A mount point as the kernel writes it in mountinfo (space, tab, newline and backslash as
/// octal escapes).
fn unescape(field: &str) -> PathBuf {
    use std::os::unix::ffi::OsStringExt;
    let bytes = field.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let octal = bytes.get(i + 1..i + 4).and_then(|digits| {
            let text = std::str::from_utf8(digits).ok()?;
            u8::from_str_radix(text, 8).ok()
        });
        match (bytes[i], octal) {
            (b'\\', Some(byte)) => {
                out.push(byte);
                i += 4;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    PathBuf::from(std::ffi::OsString::from_vec(out))
}

fn c_text(text: &str) -> std::ffi::CString {
    std::ffi::CString::new(text).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mount_points_are_read_as_the_kernel_escapes_them() {
        assert_eq!(
            unescape(r"/tmp/a\040b/job-0"),
            PathBuf::from("/tmp/a b/job-0")
        );
        assert_eq!(unescape(r"/x\134y"), PathBuf::from(r"/x\y"));
        assert_eq!(unescape(r"/odd\9"), PathBuf::from(r"/odd\9"));
    }
}
