//! Python submissions: finding the interpreter once, and laying out the adapter, launcher
//! and stub modules a dialect needs beside a scratch copy of the submission.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::child::{self, Ending};
use super::layout::{Layout, PythonLaunch};
use super::spawn::{Launch, Limits};
use crate::error::{Error, SetupError};

mod answers;

const ADAPTER_CORE: &str = include_str!("python/boardgrade_adapter.py");
/// How a source file is read, shared by the adapters and the probe.
pub const SOURCE_READING: (&str, &str) = (
    "boardgrade_source.py",
    include_str!("python/boardgrade_source.py"),
);

/// `script` as one program for `python -I -c`, the source-reading module it imports
/// (`boardgrade_source`) made first from its text: an isolated interpreter imports nothing
/// from a folder, and nothing is laid out for a script that only reads code. The text goes
/// in as hexadecimal, which no character of it can end early.
pub fn with_source_reading(script: &str) -> String {
    let (name, text) = SOURCE_READING;
    let hex: String = text.bytes().map(|b| format!("{b:02x}")).collect();
    let module = name.trim_end_matches(".py");
    format!(
        "import sys as _sys\n\
         _module = type(_sys)(\"{module}\")\n\
         exec(compile(bytes.fromhex(\"{hex}\").decode(\"utf-8\"), \"{name}\", \"exec\"), _module.__dict__)\n\
         _sys.modules[\"{module}\"] = _module\n\
         del _sys, _module\n\
         {script}"
    )
}

const LAUNCHER: &str = include_str!("python/boardgrade_launch.py");
const RUNNER: &str = include_str!("python/boardgrade_fork.py");

/// How long an interpreter may take to start (asking its version, or inside the sandbox).
pub const START_WAIT: Duration = Duration::from_secs(60);

/// A resolved Python interpreter (kept between runs as its own answer, see `answers.rs`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Interpreter {
    /// The real executable (`sys.executable`), so a slow shim on PATH runs only once.
    pub executable: PathBuf,
    pub version: String,
    /// The installations it reads (`sys.prefix` and `sys.base_prefix`, and their
    /// `exec_prefix` twins): a virtual environment and the Python it was made from.
    pub prefixes: Vec<PathBuf>,
}

/// Folders a sandbox always shows: an interpreter inside them needs nothing more.
const SYSTEM: &[&str] = &["/usr", "/bin", "/lib", "/lib64"];

impl Interpreter {
    /// An interpreter known only by its program, not yet asked anything.
    fn at(program: &Path) -> Interpreter {
        Interpreter {
            executable: program.to_path_buf(),
            version: String::new(),
            prefixes: Vec::new(),
        }
    }

    /// The installations the interpreter lives in that are outside the system folders a
    /// sandbox always shows (a virtual environment and its base, conda, pyenv, /opt), as
    /// given and as their links resolve, outermost first and none inside another.
    pub fn installations(&self) -> Vec<PathBuf> {
        let mut found: Vec<PathBuf> = Vec::new();
        let executable_folder = std::fs::canonicalize(&self.executable)
            .ok()
            .and_then(|real| Some(real.parent()?.to_path_buf()));
        let candidates = self.prefixes.iter().cloned().chain(executable_folder);
        for prefix in candidates {
            let real = std::fs::canonicalize(&prefix).unwrap_or_else(|_| prefix.clone());
            for path in [prefix, real] {
                let system = SYSTEM.iter().any(|d| path.starts_with(d));
                if !system && path.is_absolute() && path != Path::new("/") {
                    found.push(path);
                }
            }
        }
        found.sort();
        found.dedup();
        let all = found.clone();
        found.retain(|path| !all.iter().any(|o| o != path && path.starts_with(o)));
        found
    }
}

/// Checks that a student user (anyone but the grader) can run the interpreter: every folder
/// on the way open to others, and the program executable by them.
pub fn check_reachable(interpreter: &Interpreter) -> Result<(), Error> {
    use std::os::unix::fs::PermissionsExt;
    let real = std::fs::canonicalize(&interpreter.executable).map_err(|e| {
        Error::io(
            format!("cannot find {}", interpreter.executable.display()),
            e,
        )
    })?;
    let closed = std::iter::once(real)
        .chain(interpreter.installations())
        .find_map(|path| {
            path.ancestors()
                .find(|folder| {
                    let mode = std::fs::metadata(folder).map_or(0, |m| m.permissions().mode());
                    mode & 0o001 == 0
                })
                .map(Path::to_path_buf)
        });
    match closed {
        None => Ok(()),
        Some(path) => Err(SetupError::PythonUnreachable {
            python: interpreter.executable.clone(),
            closed: path,
        }
        .into()),
    }
}

/// Asks `candidate` (a path or a name on PATH) for its real executable and version. A root
/// grader runs student programs as another user: a bare name then resolves to the first
/// program of that name on PATH that such a user can run (root's own pyenv is closed to
/// them), and fails if there is none.
pub fn resolve(candidate: &Path) -> Result<Interpreter, Error> {
    let root = super::sandbox::student::grader_is_root();
    let shimmed = shimmed_program(candidate);
    // What a pyenv shim would run, closed to a student user, is not asked at all.
    let closed = match &shimmed {
        Some(program) if root => check_reachable(&Interpreter::at(program)).err(),
        _ => None,
    };
    let unreachable = match closed {
        Some(error) => error,
        None => {
            let interpreter = resolve_as_given(candidate, shimmed.as_deref())?;
            match check_reachable(&interpreter) {
                Err(error) if root => error,
                _ => return Ok(interpreter),
            }
        }
    };
    let bare = candidate.components().count() == 1;
    if bare {
        let path = std::env::var_os("PATH").unwrap_or_default();
        // Each file is run once: the first `python3` on the PATH is the one just run (a
        // pyenv shim takes a fifth of a second to answer).
        let mut tried: Vec<PathBuf> = Vec::new();
        for folder in
            super::sys::path_folders(&path).chain(["/usr/local/bin", "/usr/bin"].map(PathBuf::from))
        {
            let other = folder.join(candidate);
            let executable = super::sys::is_executable_file(&other);
            let Ok(file) = std::fs::canonicalize(&other) else {
                continue;
            };
            if !executable {
                continue;
            }
            if tried.contains(&file) {
                continue;
            }
            let first = tried.is_empty();
            tried.push(file);
            if first {
                // The PATH's first, which `candidate` named.
                continue;
            }
            if let Ok(found) = resolve_as_given(&other, shimmed_program(&other).as_deref()) {
                if check_reachable(&found).is_ok() {
                    return Ok(found);
                }
            }
        }
    }
    Err(unreachable)
}

/// What `candidate` runs when it is a pyenv shim whose choice its version files settle,
/// read as the shim would from where interpreters are asked (the temporary folder).
fn shimmed_program(candidate: &Path) -> Option<PathBuf> {
    let env = |name: &str| std::env::var_os(name);
    super::pyenv::shimmed_program(candidate, &env, &std::env::temp_dir())
}

/// Asks `candidate` (or `shimmed`, the program it would run) for its executable and version,
/// or takes what it answered before (`python/answers.rs`). A bare name is looked for in the
/// PATH's absolute folders alone, and that file is asked: it is asked from the temporary
/// folder, where a relative entry (`.`, an empty one) would find what any user put there.
fn resolve_as_given(candidate: &Path, shimmed: Option<&Path>) -> Result<Interpreter, Error> {
    let given = shimmed.unwrap_or(candidate);
    let program = match given.components().count() {
        1 => {
            let path = std::env::var_os("PATH").unwrap_or_default();
            super::sys::find_program(given, &path).ok_or_else(|| SetupError::PythonNotStarted {
                why: format!("no `{}` in the folders of PATH", given.display()),
            })?
        }
        _ => given.to_path_buf(),
    };
    match answers::Answers::of_user() {
        Some(answers) => answers.answer(&program, || ask(candidate, &program)),
        None => ask(candidate, &program),
    }
}

/// Asks `program` (what `candidate` names) for its executable and version.
fn ask(candidate: &Path, program: &Path) -> Result<Interpreter, Error> {
    let launch = Launch::new(
        program,
        vec![
            "-c".into(),
            "import sys; print(sys.executable); print('%d.%d.%d' % sys.version_info[:3]); \
             print(sys.prefix); print(getattr(sys, 'base_prefix', sys.prefix)); \
             print(sys.exec_prefix); print(getattr(sys, 'base_exec_prefix', sys.exec_prefix))"
                .into(),
        ],
        std::env::temp_dir(),
    );
    let limits = Limits {
        wall: START_WAIT,
        ..Limits::default()
    };
    let run = child::run(&launch, b"", &limits);
    let text = String::from_utf8_lossy(&run.stdout);
    let mut lines = text.lines();
    match (&run.ending, lines.next(), lines.next()) {
        (Ending::Exited(0), Some(executable), Some(version)) if !executable.is_empty() => {
            let major_minor: Vec<u32> = version
                .split('.')
                .take(2)
                .filter_map(|p| p.parse().ok())
                .collect();
            if major_minor.as_slice() < [3, 8].as_slice() {
                return Err(SetupError::PythonTooOld {
                    python: candidate.to_path_buf(),
                    version: version.to_string(),
                }
                .into());
            }
            Ok(Interpreter {
                executable: PathBuf::from(executable),
                version: version.to_string(),
                prefixes: lines
                    .filter(|line| !line.is_empty())
                    .map(PathBuf::from)
                    .collect(),
            })
        }
        (Ending::NotStarted(why), _, _) => {
            Err(SetupError::PythonNotStarted { why: why.clone() }.into())
        }
        _ => Err(SetupError::NotPython {
            python: candidate.to_path_buf(),
            stderr: String::from_utf8_lossy(&run.stderr_tail).trim().to_string(),
        }
        .into()),
    }
}

/// Writes `text` to `dir/name`.
fn write(dir: &Path, name: &str, text: &str) -> Result<PathBuf, Error> {
    let path = dir.join(name);
    std::fs::write(&path, text)
        .map_err(|e| Error::io(format!("cannot write {}", path.display()), e))?;
    Ok(path)
}

fn python_env() -> Vec<(OsString, OsString)> {
    [
        ("PYTHONDONTWRITEBYTECODE", "1"),
        ("PYTHONIOENCODING", "utf-8"),
        ("PYTHONHASHSEED", "0"),
        ("PYTHONUNBUFFERED", "1"),
    ]
    .into_iter()
    .map(|(k, v)| (k.into(), v.into()))
    .collect()
}

/// How to start a Python submission: a fresh interpreter per scenario, or the loaded
/// runner that forks one per scenario ([`super::fork`]).
#[derive(Debug, Clone)]
pub struct Launches {
    pub fresh: Launch,
    pub runner: Launch,
}

/// Lays out the harness files of `layout` in `harness_dir` and returns how to start the
/// submission at `entry` (a file inside its scratch folder `cwd`). A call protocol's fresh
/// process imports the submission within `import_limit` (the loaded runner's import is
/// bounded by the grader), and each call is bounded by the dialect's call limit.
pub fn launch(
    interpreter: &Interpreter,
    layout: &Layout,
    harness_dir: &Path,
    entry: &Path,
    cwd: &Path,
    import_limit: Option<Duration>,
) -> Result<Launches, Error> {
    let mut args: Vec<OsString> = vec!["-B".into()];
    let runner = write(harness_dir, "boardgrade_fork.py", RUNNER)?;
    let mut runner_args: Vec<OsString> = vec!["-B".into(), runner.into()];
    let mut env = python_env();
    let mut fresh_env = Vec::new();
    // How the adapters read a submission, and how the launcher translates a Python 2 one.
    write(harness_dir, SOURCE_READING.0, SOURCE_READING.1)?;
    // A program's launcher always takes the folder; an adapter only where it has stubs.
    let stub_dir = harness_dir.join(format!("stubs_{}", layout.dialect));
    let stubs = layout.python.stubs();
    if !stubs.is_empty() || matches!(layout.python, PythonLaunch::Program { .. }) {
        std::fs::create_dir_all(&stub_dir)
            .map_err(|e| Error::io(format!("cannot create {}", stub_dir.display()), e))?;
    }
    for (name, text) in stubs {
        write(&stub_dir, name, text)?;
    }
    match layout.python {
        PythonLaunch::Adapter {
            script,
            call_limit,
            stubs,
        } => {
            let seconds = |d: Duration| OsString::from(format!("{}", d.as_secs_f64()));
            env.extend(call_limit.map(|d| ("BOARDGRADE_CALL_LIMIT".into(), seconds(d))));
            fresh_env.extend(import_limit.map(|d| ("BOARDGRADE_IMPORT_LIMIT".into(), seconds(d))));
            write(harness_dir, "boardgrade_adapter.py", ADAPTER_CORE)?;
            let adapter = write(
                harness_dir,
                &format!("adapter_{}.py", layout.dialect),
                script,
            )?;
            if !stubs.is_empty() {
                env.push(("BOARDGRADE_STUBS".into(), stub_dir.into()));
            }
            runner_args.extend(["adapter".into(), adapter.clone().into()]);
            args.push(adapter.into());
        }
        PythonLaunch::Program { .. } => {
            args.push(write(harness_dir, "boardgrade_launch.py", LAUNCHER)?.into());
            runner_args.extend(["program".into(), stub_dir.clone().into()]);
            args.push(stub_dir.into());
        }
    }
    args.push(entry.into());
    runner_args.push(entry.into());
    let start = |args, env| Launch {
        env,
        ..Launch::new(&interpreter.executable, args, cwd.to_path_buf())
    };
    Ok(Launches {
        fresh: start(args, [env.clone(), fresh_env].concat()),
        runner: start(runner_args, env),
    })
}
