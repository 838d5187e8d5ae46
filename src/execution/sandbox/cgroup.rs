//! A cgroup per student run, where the grader may make one: a kill that no process can escape
//! (`cgroup.kill`, v2), and, where the controllers are handed to us, a memory cap over every
//! process of the run together (with out-of-memory kills counted, so they read as
//! `memory-limit`) and a process-count cap that holds whoever the processes run as.
//!
//! The unified (v2) hierarchy gives the group its kill and CPU accounting. Memory and process
//! caps come from v2 where its controllers are delegated, else from the v1 `memory` and
//! `pids` hierarchies that hybrid hosts (many container platforms) still mount.
//!
//! The groups live under `boardgrade-PID` in the grader's own cgroup of each hierarchy; a
//! folder left by a grader that no longer runs is emptied and removed by the next grader.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Where a controller's limits are set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Controller {
    /// In the run's own unified (v2) group.
    Unified,
    /// In a group of its own under this folder of a v1 hierarchy.
    Legacy(PathBuf),
}

/// What the machine offers.
#[derive(Debug, Clone)]
pub struct Support {
    /// This grader's folder of unified (v2) groups, when one could be made.
    pub folder: Option<PathBuf>,
    /// Whether a group can be killed whole (`cgroup.kill`, Linux 5.14+).
    pub kill: bool,
    /// Where a process-count cap (`pids.max`) can be set.
    pub pids: Option<Controller>,
    /// Where a memory cap can be set.
    pub memory: Option<Controller>,
    /// Why there is no unified cgroup, when there is none.
    pub missing: Option<String>,
}

/// The grader's cgroup support, found (and its folders made) once per run.
pub fn support() -> &'static Support {
    static SUPPORT: OnceLock<Support> = OnceLock::new();
    SUPPORT.get_or_init(probe)
}

fn probe() -> Support {
    let mut support = Support {
        folder: None,
        kill: false,
        pids: None,
        memory: None,
        missing: None,
    };
    match unified_folder() {
        Ok(folder) => {
            // Controllers must be handed down to our groups; where the grader's own group
            // holds processes the kernel refuses, and the v1 hierarchies are tried instead.
            for controller in ["pids", "memory"] {
                let enable = format!("+{controller}");
                let _ = write(
                    &folder
                        .parent()
                        .unwrap_or(&folder)
                        .join("cgroup.subtree_control"),
                    &enable,
                );
                let _ = write(&folder.join("cgroup.subtree_control"), &enable);
            }
            let delegated = read(&folder.join("cgroup.subtree_control"));
            let has = |name: &str| delegated.split_whitespace().any(|c| c == name);
            support.pids = has("pids").then_some(Controller::Unified);
            support.memory = has("memory").then_some(Controller::Unified);
            support.kill = folder.join("cgroup.kill").exists();
            support.folder = Some(folder);
        }
        Err(why) => support.missing = Some(why),
    }
    if support.pids.is_none() {
        support.pids = legacy_folder("pids").map(Controller::Legacy);
    }
    if support.memory.is_none() {
        support.memory = legacy_folder("memory").map(Controller::Legacy);
    }
    support
}

/// This grader's folder in the unified hierarchy (made), or why there is none.
fn unified_folder() -> Result<PathBuf, String> {
    let mount = mount_of(|fs_type, _| fs_type == "cgroup2")
        .ok_or_else(|| "no cgroup v2 file system is mounted".to_string())?;
    let own = own_group(|controllers| controllers.is_empty())
        .ok_or_else(|| "the grader's cgroup is unknown".to_string())?;
    grader_folder(&mount.join(own.trim_start_matches('/'))).map_err(|e| {
        format!(
            "cannot create a cgroup in {}: {e}",
            mount.join(own.trim_start_matches('/')).display()
        )
    })
}

/// This grader's folder in the v1 hierarchy of `controller` (made), if the machine mounts
/// one the grader may write.
fn legacy_folder(controller: &str) -> Option<PathBuf> {
    let has = |options: &str| options.split(',').any(|o| o == controller);
    let mount = mount_of(|fs_type, options| fs_type == "cgroup" && has(options))?;
    let own = own_group(|controllers| controllers.split(',').any(|c| c == controller))?;
    grader_folder(&mount.join(own.trim_start_matches('/'))).ok()
}

/// Makes `boardgrade-PID` in `parent`, after removing the folders of graders that are gone.
fn grader_folder(parent: &Path) -> std::io::Result<PathBuf> {
    reap_stale(parent);
    let folder = parent.join(format!("boardgrade-{}", std::process::id()));
    match fs::create_dir(&folder) {
        Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => Err(e),
        _ => Ok(folder),
    }
}

/// The grader's own group in the hierarchy whose controller list (the second field of
/// `/proc/self/cgroup`, empty for v2) satisfies `wanted`.
fn own_group(wanted: impl Fn(&str) -> bool) -> Option<String> {
    fs::read_to_string("/proc/self/cgroup")
        .ok()?
        .lines()
        .find_map(|line| {
            let mut fields = line.splitn(3, ':');
            let (_, controllers, path) = (fields.next()?, fields.next()?, fields.next()?);
            wanted(controllers).then(|| path.to_string())
        })
}

/// Where a file system is mounted whose type and super-block options satisfy `wanted`: e.g.
/// the unified hierarchy at `/sys/fs/cgroup` on most systems, `/sys/fs/cgroup/unified` on
/// hybrid ones.
fn mount_of(wanted: impl Fn(&str, &str) -> bool) -> Option<PathBuf> {
    let mounts = fs::read_to_string("/proc/self/mountinfo").ok()?;
    mounts.lines().find_map(|line| {
        let (before, after) = line.split_once(" - ")?;
        let mount_point = before.split_whitespace().nth(4)?;
        let mut after = after.split_whitespace();
        let fs_type = after.next()?;
        let options = after.nth(1).unwrap_or("");
        wanted(fs_type, options).then(|| PathBuf::from(mount_point))
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
                Group {
                    dirs: vec![group.path()],
                    memory: None,
                }
                .remove();
            }
        }
        let _ = fs::remove_dir(entry.path());
    }
}

/// One run's cgroup: its unified group and the v1 groups that carry its caps. Dropping it
/// kills whatever is still in it and removes it.
#[derive(Debug)]
pub struct Group {
    /// The unified group first (when there is one), then the v1 groups.
    dirs: Vec<PathBuf>,
    /// The group that holds the memory cap and counts out-of-memory kills.
    memory: Option<Memory>,
}

/// Where a group's memory cap is and how its kernel interface spells things.
#[derive(Debug)]
struct Memory {
    dir: PathBuf,
    legacy: bool,
}

impl Group {
    /// A new empty group, capped at `processes` where the controller allows.
    pub fn new(processes: Option<u64>) -> Option<Group> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let support = support();
        let name = format!("run-{}", NEXT.fetch_add(1, Ordering::Relaxed));
        let mut group = Group {
            dirs: Vec::new(),
            memory: None,
        };
        if let Some(folder) = &support.folder {
            let dir = folder.join(&name);
            if fs::create_dir(&dir).is_ok() {
                group.dirs.push(dir);
            }
        }
        let unified = group.dirs.first().cloned();
        let place = |controller: &Option<Controller>, group: &mut Group| -> Option<PathBuf> {
            match controller.as_ref()? {
                Controller::Unified => unified.clone(),
                Controller::Legacy(folder) => {
                    let dir = folder.join(&name);
                    fs::create_dir(&dir).ok()?;
                    group.dirs.push(dir.clone());
                    Some(dir)
                }
            }
        };
        if let Some(max) = processes {
            if let Some(dir) = place(&support.pids, &mut group) {
                let _ = write(&dir.join("pids.max"), &max.to_string());
            }
        }
        if let Some(dir) = place(&support.memory, &mut group) {
            let legacy = matches!(support.memory, Some(Controller::Legacy(_)));
            group.memory = Some(Memory { dir, legacy });
        }
        (!group.dirs.is_empty()).then_some(group)
    }

    /// Caps the memory of all the group's processes together at `bytes`, where the
    /// controller allows; whether it could.
    pub fn cap_memory(&self, bytes: u64) -> bool {
        let Some(memory) = &self.memory else {
            return false;
        };
        let (cap, swap, no_swap) = if memory.legacy {
            // v1 counts memory and swap together: the same figure allows no swap.
            (
                "memory.limit_in_bytes",
                "memory.memsw.limit_in_bytes",
                bytes.to_string(),
            )
        } else {
            ("memory.max", "memory.swap.max", "0".to_string())
        };
        let capped = write(&memory.dir.join(cap), &bytes.to_string()).is_ok();
        let _ = write(&memory.dir.join(swap), &no_swap);
        capped
    }

    /// The `cgroup.procs` files a process writes `0` to, to join the group.
    pub fn procs_files(&self) -> Vec<PathBuf> {
        self.dirs.iter().map(|d| d.join("cgroup.procs")).collect()
    }

    /// CPU time used by every process of the group so far (unified hierarchy only).
    pub fn cpu_time(&self) -> Option<Duration> {
        read(&self.dirs.first()?.join("cpu.stat"))
            .lines()
            .find_map(|l| l.strip_prefix("usage_usec "))
            .and_then(|v| v.trim().parse().ok())
            .map(Duration::from_micros)
    }

    /// How many of the group's processes the kernel killed for going over its memory cap.
    pub fn out_of_memory_kills(&self) -> u64 {
        let Some(memory) = &self.memory else {
            return 0;
        };
        let file = if memory.legacy {
            "memory.oom_control"
        } else {
            "memory.events"
        };
        read(&memory.dir.join(file))
            .lines()
            .find_map(|l| l.strip_prefix("oom_kill "))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0)
    }

    /// Kills every process in the group.
    pub fn kill(&self) {
        let unified_kill = self
            .dirs
            .first()
            .is_some_and(|d| write(&d.join("cgroup.kill"), "1").is_ok());
        if !unified_kill {
            let _ = self.kill_all_but(&[]);
        }
    }

    /// Kills every process in the group but `spared` (a loaded runner and the sandbox around
    /// it), and waits (up to a second) until no other is left. A process that has exited is
    /// no longer listed, though its parent has not reaped it. Whether none is left.
    pub fn kill_all_but(&self, spared: &[i32]) -> bool {
        let deadline = Instant::now() + Duration::from_secs(1);
        loop {
            let others = self.members_besides(spared);
            if others.is_empty() || Instant::now() >= deadline {
                return others.is_empty();
            }
            for pid in others {
                let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// The processes in the group now but `spared`. A process that has exited is not
    /// listed, though its parent has not reaped it.
    pub fn members_besides(&self, spared: &[i32]) -> Vec<rustix::process::Pid> {
        let Some(procs) = self.dirs.first().map(|d| d.join("cgroup.procs")) else {
            return Vec::new();
        };
        read(&procs)
            .lines()
            .filter_map(|pid| pid.trim().parse::<i32>().ok())
            .filter(|pid| !spared.contains(pid))
            .filter_map(rustix::process::Pid::from_raw)
            .collect()
    }

    fn remove(&self) {
        let deadline = Instant::now() + Duration::from_secs(1);
        loop {
            self.kill();
            let gone = self
                .dirs
                .iter()
                .all(|dir| fs::remove_dir(dir).is_ok() || !dir.exists());
            if gone || Instant::now() >= deadline {
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::{Child, Command};

    fn sleeper_in(group: &Group) -> Child {
        let child = Command::new("sleep").arg("30").spawn().expect("sleep");
        for procs in group.procs_files() {
            write(&procs, &child.id().to_string()).expect("join the group");
        }
        child
    }

    fn gone(child: &mut Child) -> bool {
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            if child.try_wait().expect("wait").is_some() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        false
    }

    #[test]
    fn the_end_of_a_guest_run_kills_all_but_the_runner() {
        // Where the grader may make no cgroup (not root, none delegated) there is nothing to
        // test: the per-user search of the process table does the work there.
        let Some(group) = Group::new(Some(16)) else {
            return;
        };
        let mut runner = sleeper_in(&group);
        let mut left = [sleeper_in(&group), sleeper_in(&group)];
        assert!(group.kill_all_but(&[runner.id() as i32]));
        for child in &mut left {
            assert!(gone(child), "a process of the run outlived it");
        }
        assert_eq!(
            runner.try_wait().expect("wait"),
            None,
            "the runner was killed"
        );
        drop(group);
        assert!(gone(&mut runner), "the runner outlived its cgroup");
    }
}
