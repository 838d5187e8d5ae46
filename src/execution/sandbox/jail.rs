//! A place student processes run from: a private folder in the grader's scratch folder and,
//! when the grader is root, a user of its own. A [`Run`] is one use of it: the launch confined
//! (and wrapped in bubblewrap under that mode), its cgroup, and, when it ends, every process
//! of its user and cgroup killed.

use std::ffi::{CString, OsString};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::ffi::OsStringExt;
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use rustix::process::Pid;

use super::bwrap::{self, View};
use super::cgroup::Group;
use super::confine::Confinement;
use super::disk;
use super::isolation::Isolation;
use super::residue;
use super::share::Share;
use super::snapshot::{Most, Snapshot};
use super::student::{self, Lease, StudentId};
use super::Sandbox;
use crate::error::Error;
use crate::execution::child::{Ending, Execution};
use crate::execution::spawn::Launch;

/// A private folder and the user that owns it.
#[derive(Debug)]
pub struct Jail {
    dir: PathBuf,
    /// Where the folder's two recorded states keep copies of its files (the grader's alone).
    kept: PathBuf,
    lease: Option<Lease>,
    sandbox: Sandbox,
    /// Whether the folder is a tmpfs of bounded size ([`disk`]).
    bounded: bool,
    /// The folder as laid out, before anything of the submission ran.
    laid_out: Snapshot,
    /// The folder as a loaded runner's import left it, once one loaded.
    loaded: Option<Snapshot>,
    /// The state the current or last run started from: the one a restore puts back.
    start: Start,
    /// Whether the folder holds `start`: recorded or restored, and nothing run or handed
    /// over in it since.
    at_start: AtomicBool,
}

/// Which recorded state of its folder a run in a jail starts from.
///
/// A fresh process finds the folder as laid out; so does a loaded runner about to import
/// the submission. The processes a runner forks find it as the runner's import left it: a
/// fresh process would have made those writes itself before reaching the same point. Each
/// start is restored exactly, so that a runner's import (a module it planted, say) never
/// reaches a fresh process or a runner started again, and a forked scenario is as closed
/// as a fresh one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    LaidOut,
    Loaded,
}

impl Jail {
    /// A new folder `name` in `scratch` (the grader's, mode 0711), with a user of its own
    /// when the grader is root and the sandbox is not `none`.
    pub fn new(scratch: &Path, sandbox: Sandbox, name: &str) -> Result<Jail, Error> {
        let dir = scratch.join(name);
        let kept = scratch.join(format!("{name}.kept"));
        std::fs::create_dir_all(&dir)
            .map_err(|e| Error::io(format!("cannot create {}", dir.display()), e))?;
        std::fs::DirBuilder::new()
            .mode(0o700)
            .create(&kept)
            .map_err(|e| Error::io(format!("cannot create {}", kept.display()), e))?;
        let confined = sandbox != Sandbox::None && student::grader_is_root();
        let bounded = confined && disk::bound(&dir);
        let lease = if confined {
            Some(student::lease()?)
        } else {
            None
        };
        if let Some(lease) = &lease {
            student::hand_over(&dir, lease.id())?;
        }
        // Given to its user, empty: what a run finds until something is laid out here.
        let empty = Most {
            bytes: 0,
            entries: usize::MAX,
        };
        let laid_out = Snapshot::of_folder(&dir, &kept.join("laid-out"), empty)?;
        Ok(Jail {
            dir,
            kept,
            lease,
            sandbox,
            bounded,
            laid_out,
            loaded: None,
            start: Start::LaidOut,
            at_start: AtomicBool::new(true),
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The user student processes run as here (none: the grader's own).
    pub fn user(&self) -> Option<StudentId> {
        self.lease.as_ref().map(Lease::id)
    }

    /// Gives everything in the folder to its user (after files were copied in).
    pub fn hand_over(&self) -> Result<(), Error> {
        self.at_start.store(false, Ordering::Relaxed);
        match self.user() {
            Some(id) => student::hand_over(&self.dir, id),
            None => Ok(()),
        }
    }

    /// Notes what the folder holds now (the submission and the harness, handed over) as
    /// [`Start::LaidOut`]. A runner's recorded import is dropped with the old layout.
    pub fn mark_laid_out(&mut self) -> Result<(), Error> {
        if self.bounded {
            disk::leave_room(&self.dir);
        }
        // The grader's own copy of a submission whose size was bounded before it was read.
        self.laid_out = Snapshot::of_folder(&self.dir, &self.kept.join("laid-out"), Most::ANY)?;
        self.loaded = None;
        self.start = Start::LaidOut;
        self.at_start.store(true, Ordering::Relaxed);
        Ok(())
    }

    /// Notes what the folder holds now, just after a loaded runner imported the submission
    /// in it (from [`Start::LaidOut`]), as [`Start::Loaded`]. An error where the import left
    /// files holding more than [`disk::WRITE_ROOM`] beyond the layout (sparse files and
    /// links counted whole, as their copies would be), or more than [`disk::ENTRY_ROOM`]
    /// entries beyond it (links to one file too): the runner is then not to be used.
    pub fn mark_loaded(&mut self) -> Result<(), Error> {
        let most = Most {
            bytes: self.laid_out.bytes().saturating_add(disk::WRITE_ROOM),
            entries: (self.laid_out.entries()).saturating_add(disk::ENTRY_ROOM as usize),
        };
        self.loaded = Some(Snapshot::of_folder(
            &self.dir,
            &self.kept.join("loaded"),
            most,
        )?);
        self.start = Start::Loaded;
        self.at_start.store(true, Ordering::Relaxed);
        Ok(())
    }

    /// Makes the folder hold `start` for the next run (call it once no process can write
    /// to it). Nothing is read where it is known to hold it already: restored after the last
    /// run from the same start, nothing run or handed over since. An error when it could
    /// not be put back (the jail must not be used again) or `start` was never recorded.
    pub fn begin(&mut self, start: Start) -> Result<(), Error> {
        if self.start == start && self.at_start.load(Ordering::Relaxed) {
            return Ok(());
        }
        self.start = start;
        if !self.restore() {
            return Err(Error::path(
                &self.dir,
                "cannot put the folder back as a run starts from it",
            ));
        }
        Ok(())
    }

    /// Puts the folder back as the current run found it (call it once the run's processes
    /// are dead), so that the next run starts from the same folder: nothing one scenario
    /// wrote, removed or changed there reaches the next, and files written scenario after
    /// scenario do not pile up until the disk is full. False when it could not be put back:
    /// the jail must not be used again.
    #[must_use]
    pub fn restore(&mut self) -> bool {
        let snapshot = match self.start {
            Start::LaidOut => Some(&mut self.laid_out),
            Start::Loaded => self.loaded.as_mut(),
        };
        let restored = snapshot.is_some_and(|snapshot| snapshot.restore().is_ok());
        self.at_start.store(restored, Ordering::Relaxed);
        restored
    }

    /// The environment a confined program gets: nothing of the grader's, only what programs
    /// and Python expect, with its home and temporary folder in its own folder.
    pub fn environment(&self, extra: &[(OsString, OsString)]) -> Vec<(OsString, OsString)> {
        if self.sandbox == Sandbox::None {
            return extra.to_vec();
        }
        let mut env: Vec<(OsString, OsString)> = vec![
            ("PATH".into(), "/usr/local/bin:/usr/bin:/bin".into()),
            ("LANG".into(), "C.UTF-8".into()),
            ("HOME".into(), self.dir.clone().into()),
            ("TMPDIR".into(), self.dir.clone().into()),
        ];
        env.extend(extra.iter().cloned());
        env
    }

    /// Prepares one run of `launch` (whose environment is already [`Jail::environment`]).
    pub fn prepare(&self, launch: &Launch, view: &View) -> Result<Run, Error> {
        self.prepare_sharing(
            launch,
            view,
            Some(Share::begin()),
            Err(super::STUDENT_PROCESSES),
        )
    }

    /// Prepares a run that does not count as a program using the machine: a loaded runner,
    /// which mostly waits for requests (the processes it forks run in runs of their own).
    /// Its scenarios' processes share its cgroup, whose process cap has room for the runner
    /// besides what a fresh process's cgroup holds.
    pub fn prepare_idle(&self, launch: &Launch, view: &View) -> Result<Run, Error> {
        self.prepare_sharing(launch, view, None, Err(super::STUDENT_PROCESSES + 1))
    }

    /// Prepares a run whose processes a loaded runner forks: they are born in the runner's
    /// cgroup (`host`'s), so no process has to be moved between cgroups, which costs the
    /// kernel milliseconds each time. `runner` (the runner and the sandbox processes around
    /// it) outlives the run; every other process in the cgroup dies when the run ends.
    pub fn prepare_guest(
        &self,
        launch: &Launch,
        view: &View,
        host: &Run,
        runner: &[i32],
    ) -> Result<Run, Error> {
        let host = Host {
            group: host.group.clone(),
            runner: runner.to_vec(),
        };
        self.prepare_sharing(launch, view, Some(Share::begin()), Ok(host))
    }

    /// A run in the cgroup of `cgroup`: a loaded runner's, or a new one with this process cap.
    fn prepare_sharing(
        &self,
        launch: &Launch,
        view: &View,
        share: Option<Share>,
        cgroup: Result<Host, u64>,
    ) -> Result<Run, Error> {
        // What the run writes is the folder's until a restore says otherwise.
        self.at_start.store(false, Ordering::Relaxed);
        if self.sandbox == Sandbox::None {
            return Ok(Run {
                launch: launch.clone(),
                sandbox: Sandbox::None,
                group: None,
                cpu_before: None,
                report: None,
                user: None,
                spared: Vec::new(),
                guest: false,
                share,
            });
        }
        let guest = cgroup.is_ok();
        let (group, spared) = match cgroup {
            Ok(host) => (host.group, host.runner),
            Err(processes) => (Group::new(Some(processes)).map(Arc::new), Vec::new()),
        };
        let mut launch = launch.clone();
        let mut report = None;
        if self.sandbox == Sandbox::Bwrap {
            launch = bwrap::wrap(&launch, view);
            report = Some(report_pipe()?);
        }
        launch.confinement = Confinement {
            clean_env: true,
            user: self.user(),
            cgroup_procs: group
                .iter()
                .flat_map(|group| group.procs_files())
                .filter_map(|file| CString::new(file.into_os_string().into_vec()).ok())
                .collect(),
            started_fd: report
                .as_ref()
                .map(|(_, write): &(OwnedFd, OwnedFd)| write.as_raw_fd()),
            // Bubblewrap unshares every namespace itself.
            isolation: (self.sandbox == Sandbox::Limits)
                .then(Isolation::available)
                .flatten(),
        };
        Ok(Run {
            launch,
            sandbox: self.sandbox,
            cpu_before: guest.then(|| group.as_ref()?.cpu_time()).flatten(),
            group,
            report,
            user: self.user(),
            spared,
            guest,
            share,
        })
    }

    /// Prepares a run, hands its launch to `run`, and ends it: the execution and, if the
    /// sandbox failed before the program started, why.
    pub fn run(
        &mut self,
        launch: &Launch,
        view: &View,
        run: impl FnOnce(&Launch) -> Execution,
    ) -> (Execution, Option<String>) {
        let mut launch = launch.clone();
        launch.env = self.environment(&launch.env);
        let view = View {
            writable: self.dir.clone(),
            ..view.clone()
        };
        match self.prepare(&launch, &view) {
            Ok(prepared) => {
                let execution = run(&prepared.launch);
                let failure = prepared.sandbox_failure(&execution.stderr_tail);
                (execution, failure)
            }
            Err(error) => (
                Execution {
                    stdout: Vec::new(),
                    stderr_tail: Vec::new(),
                    ending: Ending::NotStarted(error.to_string()),
                    elapsed: std::time::Duration::ZERO,
                    cpu: None,
                },
                Some(error.to_string()),
            ),
        }
    }
}

impl Drop for Jail {
    fn drop(&mut self) {
        // Before its user is given back (and taken by another submission's jail), nothing of
        // this submission is left for that user to read.
        if self.bounded {
            disk::release(&self.dir);
        }
        let _ = std::fs::remove_dir_all(&self.dir);
        let _ = std::fs::remove_dir_all(&self.kept);
    }
}

/// The loaded runner whose cgroup a run's processes share.
struct Host {
    group: Option<Arc<Group>>,
    runner: Vec<i32>,
}

/// One run in a jail. Dropping it kills every process the run left.
#[derive(Debug)]
pub struct Run {
    pub launch: Launch,
    /// The sandbox it runs in.
    sandbox: Sandbox,
    /// The run's cgroup: its own, or its loaded runner's.
    group: Option<Arc<Group>>,
    /// The CPU time the cgroup had used when the run began (a runner's cgroup, shared).
    cpu_before: Option<Duration>,
    /// Read and write ends of the pipe the sandbox reports its start on.
    report: Option<(OwnedFd, OwnedFd)>,
    user: Option<StudentId>,
    /// Processes of the user that outlive the run (a loaded runner and its sandbox).
    spared: Vec<i32>,
    /// Whether the cgroup is a loaded runner's, which outlives the run.
    guest: bool,
    share: Option<Share>,
}

impl Run {
    /// The user the run's processes have (none: the grader's own).
    pub fn user(&self) -> Option<StudentId> {
        self.user
    }

    /// Why the sandbox failed before the program started, if it did (bubblewrap only: its
    /// shell never reported the start). `stderr` is the end of what the run wrote there.
    pub fn sandbox_failure(&self, stderr: &[u8]) -> Option<String> {
        let (read, _) = self.report.as_ref()?;
        let mut buffer = [0u8; 64];
        let n = rustix::io::read(read, &mut buffer).unwrap_or(0);
        if buffer[..n].starts_with(bwrap::STARTED.as_bytes()) {
            return None;
        }
        let stderr = String::from_utf8_lossy(stderr);
        let why = stderr
            .lines()
            .rfind(|l| l.starts_with("bwrap"))
            .unwrap_or("it reported no start");
        Some(format!(
            "the sandbox (bubblewrap) failed before the program started: {why}"
        ))
    }

    /// Whether other student programs ran at some time during this run.
    pub fn had_company(&self) -> bool {
        self.share.as_ref().is_some_and(Share::had_company)
    }

    /// Caps the memory of all the run's processes together, where a cgroup can.
    pub fn cap_memory(&self, bytes: Option<u64>) {
        if let (Some(group), Some(bytes)) = (&self.group, bytes) {
            group.cap_memory(bytes);
        }
    }

    /// How many of the run's processes the kernel killed for going over the memory cap.
    pub fn out_of_memory_kills(&self) -> u64 {
        self.group
            .as_ref()
            .map_or(0, |group| group.out_of_memory_kills())
    }

    /// The run's living processes but `spared` (a loaded runner and the sandbox around it),
    /// found in its cgroup or, without one, among its user's processes; none where the run
    /// has neither (no sandbox: nothing tells its processes from the grader's).
    pub fn living_besides(&self, spared: &[i32]) -> Vec<Pid> {
        match (&self.group, self.user) {
            (Some(group), _) => group.members_besides(spared),
            (None, Some(id)) => student::living_besides(id, spared),
            (None, None) => Vec::new(),
        }
    }

    /// CPU time the run's processes used, where a cgroup measured it.
    pub fn cpu_time(&self) -> Option<Duration> {
        let used = self.group.as_ref()?.cpu_time()?;
        Some(used.saturating_sub(self.cpu_before.unwrap_or_default()))
    }
}

impl Run {
    /// Kills every process the run left (`setsid` or not), sparing a loaded runner's: whether
    /// none is left. No process leaves its cgroup (the student's user may write to none), so
    /// where there is one it holds them all; elsewhere every process of the run's user is
    /// found and killed.
    pub fn end_leftovers(&self) -> bool {
        match &self.group {
            Some(group) if self.guest => group.kill_all_but(&self.spared),
            // Killed at once, then waited for: the folder is put back next, as root maybe,
            // and no process may be left to change it meanwhile.
            Some(group) => {
                group.kill();
                group.kill_all_but(&[])
            }
            None => self
                .user
                .is_none_or(|id| student::kill_all_but(id, &self.spared)),
        }
    }
}

impl Drop for Run {
    fn drop(&mut self) {
        let all_dead = self.end_leftovers();
        self.group.take();
        // Then what it left in the machine's shared folders and IPC, so that nothing of it
        // reaches the run after it (another submission, maybe) or piles up. Under bubblewrap
        // it could reach none of them (its own /tmp, /dev and IPC namespace, nothing of the
        // machine writable but its job folder, restored after the run): the sweep, a look at
        // every file of /tmp, would cost each scenario for nothing.
        if let (Some(id), true, false) = (self.user, all_dead, self.sandbox == Sandbox::Bwrap) {
            residue::remove_left_by(id.uid);
        }
    }
}

/// A pipe whose read end does not block, both ends closed on exec (the child gets its own copy
/// of the write end as descriptor 3).
fn report_pipe() -> Result<(OwnedFd, OwnedFd), Error> {
    use rustix::pipe::{pipe_with, PipeFlags};
    pipe_with(PipeFlags::CLOEXEC | PipeFlags::NONBLOCK)
        .map_err(|e| Error::io("cannot make a pipe for the sandbox", e.into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(jail: &Jail) -> Vec<String> {
        let mut names: Vec<String> = walkdir::WalkDir::new(jail.dir())
            .min_depth(1)
            .into_iter()
            .map(|entry| {
                let entry = entry.unwrap();
                let path = entry.path().strip_prefix(jail.dir()).unwrap();
                path.display().to_string()
            })
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_restored_folder_is_not_read_again_until_a_run_or_a_hand_over() {
        let scratch = tempfile::tempdir().unwrap();
        let mut jail = Jail::new(scratch.path(), Sandbox::None, "job").unwrap();
        let dir = jail.dir().to_path_buf();
        std::fs::write(dir.join("submission.py"), "print(1)").unwrap();
        jail.hand_over().unwrap();
        jail.mark_laid_out().unwrap();
        // A run adds a file and a folder and removes the submission; the restore takes the
        // first two away and puts the submission back.
        drop(jail.prepare(&Launch::shell("true", dir.clone()), &View::default()));
        std::fs::create_dir(dir.join("made")).unwrap();
        std::fs::write(dir.join("made/inside"), "").unwrap();
        std::fs::write(dir.join("left.txt"), "").unwrap();
        std::fs::remove_file(dir.join("submission.py")).unwrap();
        assert!(jail.restore());
        assert_eq!(names(&jail), ["submission.py"]);
        assert_eq!(
            std::fs::read_to_string(dir.join("submission.py")).unwrap(),
            "print(1)"
        );
        // Restored: beginning a run from the same start does not read the folder (a file
        // put there behind the jail's back is not seen, and not taken into the record).
        std::fs::write(dir.join("unseen"), "").unwrap();
        jail.begin(Start::LaidOut).unwrap();
        assert_eq!(names(&jail), ["submission.py", "unseen"]);
        assert!(jail.restore());
        assert_eq!(names(&jail), ["submission.py"]);
        // After a hand-over the folder is read again: what was put there is laid out.
        std::fs::write(dir.join("harness.py"), "").unwrap();
        jail.hand_over().unwrap();
        jail.mark_laid_out().unwrap();
        drop(jail.prepare(&Launch::shell("true", dir.clone()), &View::default()));
        std::fs::write(dir.join("left.txt"), "").unwrap();
        assert!(jail.restore());
        assert_eq!(names(&jail), ["harness.py", "submission.py"]);
    }

    #[test]
    fn what_a_runners_import_wrote_is_where_its_forks_start_and_nowhere_else() {
        let scratch = tempfile::tempdir().unwrap();
        let mut jail = Jail::new(scratch.path(), Sandbox::None, "job").unwrap();
        let dir = jail.dir().to_path_buf();
        std::fs::write(dir.join("submission.py"), "print(1)").unwrap();
        jail.hand_over().unwrap();
        jail.mark_laid_out().unwrap();
        // A loaded runner's import plants a module beside the submission and changes it.
        std::fs::write(dir.join("json.py"), "import os; os._exit(0)").unwrap();
        std::fs::write(dir.join("submission.py"), "print(2)").unwrap();
        jail.mark_loaded().unwrap();
        // Its forked scenarios start from what the import left, each one afresh.
        drop(jail.prepare(&Launch::shell("true", dir.clone()), &View::default()));
        std::fs::write(dir.join("left.txt"), "").unwrap();
        assert!(jail.restore());
        assert_eq!(names(&jail), ["json.py", "submission.py"]);
        // A fresh process (or a runner about to import again) finds the folder as laid out.
        jail.begin(Start::LaidOut).unwrap();
        assert_eq!(names(&jail), ["submission.py"]);
        let source = std::fs::read_to_string(dir.join("submission.py")).unwrap();
        assert_eq!(source, "print(1)");
        drop(jail.prepare(&Launch::shell("true", dir.clone()), &View::default()));
        std::fs::write(dir.join("left.txt"), "").unwrap();
        assert!(jail.restore());
        assert_eq!(names(&jail), ["submission.py"]);
        // And the runner's forks find its import's writes again.
        jail.begin(Start::Loaded).unwrap();
        assert_eq!(names(&jail), ["json.py", "submission.py"]);
        // A new layout forgets the import recorded on the old one.
        jail.hand_over().unwrap();
        jail.mark_laid_out().unwrap();
        assert!(jail.begin(Start::Loaded).is_err());
    }
}
