//! How far a student process is fenced in.
//!
//! - `none`: only the wall-clock limit, the output cap and the process-group kill.
//! - `limits`: also resource limits (address space, CPU time, file size, processes when not
//!   root) applied with setrlimit.
//! - `bwrap`: also bubblewrap: no network, a read-only system, a private `/tmp`, a new PID
//!   namespace (every process it starts dies with it), `--die-with-parent`, and the specs and
//!   the boardgrade binary hidden. Only the submission's scratch folder is writable.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::spawn::{Launch, Limits};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, clap::ValueEnum)]
pub enum Sandbox {
    None,
    Limits,
    Bwrap,
}

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

    /// The resource limits to apply under this sandbox.
    pub fn limits(self, limits: &Limits) -> Limits {
        match self {
            Sandbox::None => Limits {
                memory_bytes: None,
                cpu_seconds: None,
                file_bytes: None,
                processes: None,
                ..limits.clone()
            },
            Sandbox::Limits | Sandbox::Bwrap => Limits {
                // CPU time a little over the wall clock: a busy loop is cut even if the
                // wall clock is not looked at in time.
                cpu_seconds: limits.cpu_seconds.or(Some(limits.wall.as_secs() + 2)),
                // RLIMIT_NPROC counts every process of the user and does not bind root.
                processes: limits.processes.or_else(|| (!is_root()).then_some(4096)),
                ..limits.clone()
            },
        }
    }
}

fn is_root() -> bool {
    super::sys::is_root()
}

/// What the sandbox does in each student process just before it runs the program, after
/// its process group and resource limits are set (see [`super::spawn`]): the place for a
/// per-job user and group, a cgroup to join, and the like. It travels with the
/// [`Launch`], so every use (scenarios, matches, fuzz, the Python runner) gets it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Confinement {}

impl Confinement {
    /// Runs in the child between fork and exec: only async-signal-safe system calls (no
    /// allocation, no locks).
    pub(crate) fn apply_in_child(&self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Whether bubblewrap is installed and can make its namespaces here (containers may forbid
/// it). Asked once per run.
pub fn bwrap_works() -> bool {
    static WORKS: OnceLock<bool> = OnceLock::new();
    *WORKS.get_or_init(|| {
        std::process::Command::new("bwrap")
            .args([
                "--ro-bind",
                "/",
                "/",
                "--unshare-net",
                "--unshare-pid",
                "--die-with-parent",
                "--",
                "true",
            ])
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    })
}

/// Wraps `launch` in bubblewrap. `writable` is the submission's scratch folder, `readable`
/// the harness files beside it, `hidden` what the program must not see (specs, the binary).
pub fn wrap_in_bwrap(
    launch: &Launch,
    writable: &Path,
    readable: &[PathBuf],
    hidden: &[PathBuf],
) -> Launch {
    let mut args: Vec<OsString> = [
        "--die-with-parent",
        "--unshare-net",
        "--unshare-ipc",
        "--unshare-pid",
        "--unshare-uts",
        "--ro-bind",
        "/",
        "/",
        "--dev",
        "/dev",
        "--proc",
        "/proc",
        "--tmpfs",
        "/tmp",
    ]
    .iter()
    .map(OsString::from)
    .collect();
    for path in hidden {
        if path.is_dir() {
            args.extend(["--tmpfs".into(), path.into()]);
        } else if path.exists() {
            args.extend(["--ro-bind".into(), "/dev/null".into(), path.into()]);
        }
    }
    for path in readable {
        args.extend(["--ro-bind".into(), path.into(), path.into()]);
    }
    args.extend([
        "--bind".into(),
        writable.into(),
        writable.into(),
        "--chdir".into(),
        launch.cwd.clone().into(),
        "--".into(),
    ]);
    args.push(launch.program.clone().into());
    args.extend(launch.args.iter().cloned());
    Launch {
        program: PathBuf::from("bwrap"),
        args,
        ..launch.clone()
    }
}
