//! How far a student process is fenced in.
//!
//! - `none`: only the wall-clock limit, the output cap and the process-group kill.
//! - `limits`: also resource limits (address space, CPU time, file size, process count)
//!   applied with setrlimit, a clean environment, and, when the grader runs as root, a user
//!   of its own per parallel job ([`student`]) in a private scratch folder, plus a cgroup where
//!   one can be made ([`cgroup`]), and no network or shared System V IPC where the kernel
//!   allows the namespaces ([`isolation`]).
//! - `bwrap`: also bubblewrap, showing the program only the system and its submission
//!   ([`bwrap`]).

pub mod bwrap;
pub mod cgroup;
pub mod confine;
pub mod disk;
pub mod isolation;
pub mod jail;
pub mod residue;
pub mod scratch;
pub mod share;
pub mod snapshot;
pub mod student;
pub mod syscalls;

use std::sync::OnceLock;
use std::time::Duration;

use super::spawn::{Launch, Limits};
pub use confine::Confinement;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, clap::ValueEnum)]
pub enum Sandbox {
    None,
    Limits,
    Bwrap,
}

/// The wall-clock limit is this many times the scenario's time limit (which is judged as CPU
/// time where a CPU limit applies), and at least [`WALL_MARGIN`] more: a program slowed by
/// other jobs is not cut short.
pub const WALL_FACTOR: u32 = 2;
pub const WALL_MARGIN: Duration = Duration::from_secs(2);
/// Processes (threads included) one scenario may run at once under a student user.
pub const STUDENT_PROCESSES: u64 = 256;

impl Sandbox {
    pub fn as_str(self) -> &'static str {
        match self {
            Sandbox::None => "none",
            Sandbox::Limits => "limits",
            Sandbox::Bwrap => "bwrap",
        }
    }

    /// The strongest sandbox this machine offers.
    pub fn strongest() -> Sandbox {
        if bwrap_works() {
            Sandbox::Bwrap
        } else {
            Sandbox::Limits
        }
    }

    /// The resource limits for a scenario whose time limit is `limits.wall`.
    pub fn limits(self, limits: &Limits) -> Limits {
        match self {
            Sandbox::None => Limits {
                memory_bytes: None,
                cpu_seconds: None,
                file_bytes: None,
                processes: None,
                ..limits.clone()
            },
            Sandbox::Limits | Sandbox::Bwrap => {
                let cpu = limits
                    .cpu_seconds
                    .unwrap_or_else(|| limits.wall.as_secs_f64().ceil().max(1.0) as u64);
                Limits {
                    cpu_seconds: Some(cpu),
                    wall: (limits.wall * WALL_FACTOR).max(limits.wall + WALL_MARGIN),
                    // RLIMIT_NPROC counts every process of the user: a student user's are
                    // the scenario's alone; the grader's own user is shared with the rest of
                    // its session, so its cap is loose.
                    processes: limits.processes.or(Some(if student::grader_is_root() {
                        STUDENT_PROCESSES
                    } else {
                        4096
                    })),
                    ..limits.clone()
                }
            }
        }
    }

    /// The protections this sandbox cannot give on this machine, for the report.
    pub fn missing(self) -> Vec<String> {
        let mut missing = Vec::new();
        if self == Sandbox::None {
            missing.push("no resource limits, no clean environment, no student user".into());
            return missing;
        }
        if !student::grader_is_root() {
            missing.push(
                "not run as root: student processes run as the grader's own user, so they can \
                 read what that user can (the binary, the specs, other submissions)"
                    .into(),
            );
        }
        let cgroups = cgroup::support();
        if let Some(why) = &cgroups.missing {
            missing.push(format!("no cgroup ({why})"));
        } else if !cgroups.kill {
            missing.push("no cgroup.kill (Linux 5.14+)".into());
        }
        if cgroups.memory.is_none() {
            missing.push(
                "no memory cgroup: memory is capped per process (address space), not for all \
                 of a run's processes together"
                    .into(),
            );
        }
        if self == Sandbox::Limits {
            missing.push("no namespaces: the system is visible (bubblewrap not used)".into());
        }
        missing.extend(self.open_network());
        missing
    }

    /// Why student programs keep the network under this sandbox here, if they do: `none`
    /// closes nothing, and `limits` closes it only where the kernel gives them a network
    /// namespace of their own (bubblewrap always does).
    pub fn open_network(self) -> Option<String> {
        let open = match self {
            Sandbox::None => return None,
            Sandbox::Limits => isolation::Isolation::available().is_none(),
            Sandbox::Bwrap => false,
        };
        open.then(|| {
            "network open: this kernel gives student processes no network namespace of their \
             own"
            .to_string()
        })
    }

    /// Warnings about `paths` (the specs; the grader's binary is added) that student programs
    /// could read under this sandbox here: under `limits` only file permissions keep a
    /// student user out, and a file every user may read is not kept out.
    pub fn exposed(self, paths: &[std::path::PathBuf]) -> Vec<String> {
        if self != Sandbox::Limits || !student::grader_is_root() {
            return Vec::new();
        }
        let binary = std::env::current_exe().ok();
        paths
            .iter()
            .chain(binary.iter())
            .filter(|path| readable_by_others(path))
            .map(|path| {
                format!(
                    "{} can be read by every user, student programs included, under `--sandbox \
                     limits`: close it (chmod o-rwx) or use bubblewrap",
                    path.display()
                )
            })
            .collect()
    }

    /// The name of the sandbox and what it lacks here, for reports.
    pub fn describe(self) -> String {
        let missing = self.missing();
        if missing.is_empty() {
            self.as_str().to_string()
        } else {
            format!("{} ({})", self.as_str(), missing.join("; "))
        }
    }
}

/// Whether a user other than the owner (and outside its group) can read `path`: every folder
/// above it open to others, and itself readable by them.
fn readable_by_others(path: &std::path::Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &std::path::Path| std::fs::metadata(p).map_or(0, |m| m.permissions().mode());
    let Ok(path) = std::fs::canonicalize(path) else {
        return false;
    };
    mode(&path) & 0o004 != 0 && path.ancestors().skip(1).all(|dir| mode(dir) & 0o001 != 0)
}

/// Whether bubblewrap can run the exact sandbox scenarios use here (containers may forbid
/// it). Asked once per run.
pub fn bwrap_works() -> bool {
    bwrap_probe().is_ok()
}

/// Runs the sandbox a scenario would get (same user, same command line, same checks) around
/// `/bin/sh -c true`; why it failed, if it did.
pub fn bwrap_probe() -> Result<(), String> {
    static RESULT: OnceLock<Result<(), String>> = OnceLock::new();
    RESULT
        .get_or_init(|| {
            let scratch = scratch::create().map_err(|e| e.to_string())?;
            let mut jail = jail::Jail::new(scratch.path(), Sandbox::Bwrap, "probe")
                .map_err(|e| e.to_string())?;
            let launch = Launch::shell("true", jail.dir().to_path_buf());
            let run = jail.run(&launch, &bwrap::View::default(), |launch| {
                let limits = Sandbox::Bwrap.limits(&Limits {
                    wall: Duration::from_secs(20),
                    ..Limits::default()
                });
                super::child::run(launch, b"", &limits)
            });
            match run {
                (execution, None) if execution.ending == super::child::Ending::Exited(0) => Ok(()),
                (execution, failure) => Err(failure.unwrap_or_else(|| {
                    format!(
                        "{:?}: {}",
                        execution.ending,
                        String::from_utf8_lossy(&execution.stderr_tail).trim()
                    )
                })),
            }
        })
        .clone()
}
