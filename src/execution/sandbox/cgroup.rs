//! A cgroup (v2) per student run, where the grader may make one: a kill that no process can
//! escape (`cgroup.kill`), and, where the controllers are delegated, a process-count cap
//! (`pids.max`) that holds whoever the processes run as.
//!
//! The groups live under `boardgrade-PID` in the grader's own cgroup; a folder left by a
//! grader that no longer runs is emptied and removed by the next grader.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// What the machine offers.
#[derive(Debug, Clone)]
pub struct Support {
    /// This grader's folder of groups, when one could be made.
    pub folder: Option<PathBuf>,
    /// Whether a group can be killed whole (`cgroup.kill`, Linux 5.14+).
    pub kill: bool,
    /// Whether `pids.max` can be set.
    pub pids: bool,
    /// Why there is no cgroup, when there is none.
    pub missing: Option<String>,
}

/// The grader's cgroup support, found (and its folder made) once per run.
pub fn support() -> &'static Support {
    static SUPPORT: OnceLock<Support> = OnceLock::new();
    SUPPORT.get_or_init(probe)
}

fn probe() -> Support {
    let none = |why: String| Support {
        folder: None,
        kill: false,
        pids: false,
        missing: Some(why),
    };
    let Some(mount) = cgroup2_mount() else {
        return none("no cgroup v2 file system is mounted".into());
    };
    let own = fs::read_to_string("/proc/self/cgroup")
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("0::").map(str::to_string))
        .unwrap_or_default();
    let parent = mount.join(own.trim_start_matches('/'));
    reap_stale(&parent);
    let folder = parent.join(format!("boardgrade-{}", std::process::id()));
    if let Err(e) = fs::create_dir(&folder) {
        if e.kind() != std::io::ErrorKind::AlreadyExists {
            return none(format!(
                "cannot create a cgroup in {}: {e}",
                parent.display()
            ));
        }
    }
    // Process-count limits need the pids controller handed down to our groups; where the
    // grader's own group holds processes the kernel refuses, and only the kill remains.
    let _ = write(&parent.join("cgroup.subtree_control"), "+pids");
    let _ = write(&folder.join("cgroup.subtree_control"), "+pids");
    let pids = read(&folder.join("cgroup.subtree_control")).contains("pids");
    Support {
        kill: folder.join("cgroup.kill").exists(),
        folder: Some(folder),
        pids,
        missing: None,
    }
}

/// Where the unified (v2) hierarchy is mounted: `/sys/fs/cgroup` on most systems,
/// `/sys/fs/cgroup/unified` on hybrid ones.
fn cgroup2_mount() -> Option<PathBuf> {
    let mounts = fs::read_to_string("/proc/self/mountinfo").ok()?;
    mounts.lines().find_map(|line| {
        let (before, after) = line.split_once(" - ")?;
        let mount_point = before.split_whitespace().nth(4)?;
        (after.split_whitespace().next()? == "cgroup2").then(|| PathBuf::from(mount_point))
    })
}

/// Removes the folders of graders that no longer run (and kills what is left in them).
fn reap_stale(parent: &Path) {
    let Ok(entries) = fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix("boardgrade-"))
            .and_then(|p| p.parse::<i32>().ok())
        else {
            continue;
        };
        if super::scratch::alive(pid) {
            continue;
        }
        if let Ok(groups) = fs::read_dir(entry.path()) {
            for group in groups.flatten().filter(|g| g.path().is_dir()) {
                Group { dir: group.path() }.remove();
            }
        }
        let _ = fs::remove_dir(entry.path());
    }
}

/// One run's cgroup. Dropping it kills whatever is still in it and removes it.
#[derive(Debug)]
pub struct Group {
    dir: PathBuf,
}

impl Group {
    /// A new empty group, capped at `processes` where the controller allows.
    pub fn new(processes: Option<u64>) -> Option<Group> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let support = support();
        let folder = support.folder.as_ref()?;
        let dir = folder.join(format!("run-{}", NEXT.fetch_add(1, Ordering::Relaxed)));
        fs::create_dir(&dir).ok()?;
        if let (true, Some(max)) = (support.pids, processes) {
            let _ = write(&dir.join("pids.max"), &max.to_string());
        }
        Some(Group { dir })
    }

    /// The file a process writes `0` to, to join the group.
    pub fn procs_file(&self) -> PathBuf {
        self.dir.join("cgroup.procs")
    }

    /// CPU time used by every process of the group so far.
    pub fn cpu_time(&self) -> Option<Duration> {
        read(&self.dir.join("cpu.stat"))
            .lines()
            .find_map(|l| l.strip_prefix("usage_usec "))
            .and_then(|v| v.trim().parse().ok())
            .map(Duration::from_micros)
    }

    /// Kills every process in the group.
    pub fn kill(&self) {
        if write(&self.dir.join("cgroup.kill"), "1").is_err() {
            for pid in read(&self.procs_file()).lines() {
                if let Some(pid) = pid
                    .trim()
                    .parse()
                    .ok()
                    .and_then(rustix::process::Pid::from_raw)
                {
                    let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
                }
            }
        }
    }

    fn remove(&self) {
        let deadline = Instant::now() + Duration::from_secs(1);
        loop {
            self.kill();
            if fs::remove_dir(&self.dir).is_ok() || !self.dir.exists() {
                return;
            }
            if Instant::now() >= deadline {
                return;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        self.remove();
    }
}

fn write(path: &Path, text: &str) -> std::io::Result<()> {
    fs::OpenOptions::new()
        .write(true)
        .open(path)?
        .write_all(text.as_bytes())
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_default()
}
