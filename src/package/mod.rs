//! `boardgrade gradescope`: the zip an instructor uploads to Gradescope, holding `setup.sh`,
//! `run_autograder`, the specs and the boardgrade binary itself; [`autograder`] is what
//! `run_autograder` runs. [`prairielearn`] writes PrairieLearn's external grader, and
//! [`prairielearn_grader`] is what its entrypoint runs.

pub mod autograder;
pub mod prairielearn;
pub mod prairielearn_grader;

use std::io::Write;
use std::path::{Path, PathBuf};

use zip::write::SimpleFileOptions;

use crate::error::{Error, PackageError};
use crate::execution::Sandbox;

const RUN_AUTOGRADER: &str = include_str!("run_autograder.sh");
const SETUP: &str = include_str!("setup.sh");
/// Where the course policy goes: above every scenario file, so the grader finds it.
const POLICY_NAME: &str = "specs/course.toml";

/// What goes into the zip.
#[derive(Debug, Clone)]
pub struct Package {
    /// Scenario files or folders, copied under `specs/`.
    pub specs: Vec<PathBuf>,
    /// The boardgrade binary to ship (normally the running one).
    pub binary: PathBuf,
    /// Extra arguments for `boardgrade grade` (`--game`, `--dialect`, ...), each a word.
    pub grade_args: Vec<String>,
    /// The least protection acceptable: where the machine cannot give it, the autograder
    /// refuses to grade and says why.
    pub sandbox: Sandbox,
    /// Whether student programs may keep the network where the sandbox cannot close it.
    pub network: Network,
    /// The course policy, shipped as `specs/course.toml` so that it governs every scenario
    /// (a course file of that name inside the specs gives way to it).
    pub policy: Option<PathBuf>,
    /// The course's `requirements.txt`: shipped, and installed by `setup.sh` into a virtual
    /// environment whose interpreter grades the submissions.
    pub requirements: Option<PathBuf>,
}

/// Whether a platform package grades where student programs would keep the network (under
/// `limits`, on a kernel that gives them no network namespace of their own): hidden steps
/// could then be sent anywhere, so it refuses unless the course allows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Network {
    /// Refuse to grade, saying why (the default).
    #[default]
    MustBeClosed,
    /// The course allows it (`--allow-open-network`); the report still says it is open.
    MayBeOpen,
}

impl Network {
    /// The course's choice from the packaging command's flag.
    pub fn allowing_open(allow: bool) -> Network {
        if allow {
            Network::MayBeOpen
        } else {
            Network::MustBeClosed
        }
    }

    /// The entrypoint's flag that carries the choice into the platform (empty, or the flag
    /// with a space before it).
    pub fn flag(self) -> &'static str {
        match self {
            Network::MustBeClosed => "",
            Network::MayBeOpen => " --allow-open-network",
        }
    }

    /// Why grading must be refused when `open` says why the network stays open here.
    pub fn refusal(self, open: Option<String>) -> Option<String> {
        let open = open.filter(|_| self == Network::MustBeClosed)?;
        Some(format!(
            "student programs would keep the network ({open}), so hidden tests could be sent \
             anywhere; use bubblewrap, a kernel with unprivileged network namespaces, or build \
             the package with --allow-open-network"
        ))
    }
}

/// Every file of the spec files and folders given, each with its path below its folder
/// (`/`-separated), in name order: what a package copies under its `specs/`.
fn spec_files(specs: &[PathBuf]) -> Result<Vec<(PathBuf, String)>, Error> {
    let mut files = Vec::new();
    for spec in specs {
        let base = if spec.is_dir() {
            spec.clone()
        } else {
            spec.parent().map(Path::to_path_buf).unwrap_or_default()
        };
        for entry in walkdir::WalkDir::new(spec).sort_by_file_name() {
            let entry = entry.map_err(|e| Error::path(spec, format!("cannot read: {e}")))?;
            if !entry.file_type().is_file() {
                continue;
            }
            let relative = entry.path().strip_prefix(&base).unwrap_or(entry.path());
            let relative = relative.to_string_lossy().replace('\\', "/");
            files.push((entry.path().to_path_buf(), relative));
        }
    }
    Ok(files)
}

/// The files a package ships under `specs/`, each as (path in the package, contents): the
/// spec files, and the course policy as `specs/course.toml` in place of any file of that
/// name among them.
pub(crate) fn packaged_specs(
    specs: &[PathBuf],
    policy: Option<&Path>,
) -> Result<Vec<(String, Vec<u8>)>, Error> {
    let read = |path: &Path| {
        std::fs::read(path).map_err(|e| Error::io(format!("cannot read {}", path.display()), e))
    };
    let mut files = Vec::new();
    for (path, relative) in spec_files(specs)? {
        let name = format!("specs/{relative}");
        if name != POLICY_NAME || policy.is_none() {
            files.push((name, read(&path)?));
        }
    }
    if let Some(policy) = policy {
        files.push((POLICY_NAME.to_string(), read(policy)?));
    }
    check_inherited(&files)?;
    Ok(files)
}

/// Every variant in a package finds the base scenarios it inherits: a folder its file names
/// must be in the package too (the variant would not load on the platform otherwise).
fn check_inherited(files: &[(String, Vec<u8>)]) -> Result<(), Error> {
    for (name, bytes) in files {
        let path = Path::new(name);
        if path.file_name() != Some(std::ffi::OsStr::new(crate::games::variant::FILE_NAME)) {
            continue;
        }
        let text = String::from_utf8_lossy(bytes);
        let from = text.parse::<toml::Table>().ok().and_then(|t| {
            t.get("scenarios")?
                .get("from")?
                .as_str()
                .map(str::to_string)
        });
        let Some(from) = from.filter(|f| f != crate::games::variant::FROM_BUNDLED) else {
            continue;
        };
        let mut folder = path.parent().map(Path::to_path_buf).unwrap_or_default();
        for part in Path::new(&from).components() {
            match part {
                std::path::Component::ParentDir => {
                    folder.pop();
                }
                std::path::Component::Normal(word) => folder.push(word),
                _ => {}
            }
        }
        let prefix = format!("{}/", folder.to_string_lossy().replace('\\', "/"));
        if !files.iter().any(|(other, _)| other.starts_with(&prefix)) {
            return Err(PackageError::BaseLeftOut {
                variant: name.to_string(),
                from: from.to_string(),
            }
            .into());
        }
    }
    Ok(())
}

/// The name a course's requirements file has in a package.
pub const REQUIREMENTS: &str = "requirements.txt";

/// The course's requirements file, read to be shipped.
pub(crate) fn read_requirements(path: &Path) -> Result<Vec<u8>, Error> {
    std::fs::read(path).map_err(|e| Error::io(format!("cannot read {}", path.display()), e))
}

/// Quotes a word for a POSIX shell.
pub(crate) fn shell_quote(word: &str) -> String {
    if !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:@".contains(c))
    {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// The `run_autograder` script with the grade arguments, the sandbox and the course's
/// choice about the network filled in.
pub fn run_autograder(grade_args: &[String], sandbox: Sandbox, network: Network) -> String {
    let args: Vec<String> = grade_args.iter().map(|a| shell_quote(a)).collect();
    RUN_AUTOGRADER
        .replace("@SANDBOX@", sandbox.as_str())
        .replace("@NETWORK@", network.flag())
        .replace("@ARGS@", &args.join(" "))
}

/// Writes the zip to `out`.
pub fn write_zip(package: &Package, out: &Path) -> Result<(), Error> {
    let io = |what: &str, e: std::io::Error| {
        Error::io(format!("cannot write {} ({what})", out.display()), e)
    };
    let file = std::fs::File::create(out).map_err(|e| io("create", e))?;
    let mut zip = zip::ZipWriter::new(file);
    let text = SimpleFileOptions::default().unix_permissions(0o644);
    let executable = SimpleFileOptions::default().unix_permissions(0o755);
    let zip_error = |source: zip::result::ZipError| {
        Error::from(PackageError::Zip {
            path: out.to_path_buf(),
            source,
        })
    };

    zip.start_file("setup.sh", executable).map_err(zip_error)?;
    zip.write_all(SETUP.as_bytes())
        .map_err(|e| io("setup.sh", e))?;
    zip.start_file("run_autograder", executable)
        .map_err(zip_error)?;
    zip.write_all(run_autograder(&package.grade_args, package.sandbox, package.network).as_bytes())
        .map_err(|e| io("run_autograder", e))?;
    zip.start_file("boardgrade", executable)
        .map_err(zip_error)?;
    let binary = std::fs::read(&package.binary)
        .map_err(|e| Error::io(format!("cannot read {}", package.binary.display()), e))?;
    zip.write_all(&binary).map_err(|e| io("boardgrade", e))?;

    if let Some(requirements) = &package.requirements {
        zip.start_file(REQUIREMENTS, text).map_err(zip_error)?;
        zip.write_all(&read_requirements(requirements)?)
            .map_err(|e| io(REQUIREMENTS, e))?;
    }
    for (name, bytes) in packaged_specs(&package.specs, package.policy.as_deref())? {
        zip.start_file(name, text).map_err(zip_error)?;
        zip.write_all(&bytes).map_err(|e| io("specs", e))?;
    }
    zip.finish().map_err(zip_error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_open_network_is_refused_with_its_reason_unless_the_course_allows_it() {
        let open = || Some("network open: no namespace here".to_string());
        let why = Network::MustBeClosed.refusal(open()).unwrap();
        assert!(why.contains("network open: no namespace here"), "{why}");
        assert!(why.contains("--allow-open-network"), "{why}");
        assert_eq!(Network::MayBeOpen.refusal(open()), None);
        assert_eq!(Network::MustBeClosed.refusal(None), None);
        let script = run_autograder(&[], Sandbox::Limits, Network::MayBeOpen);
        assert!(
            script.contains("--sandbox limits --allow-open-network --"),
            "{script}"
        );
        let script = run_autograder(&[], Sandbox::Limits, Network::MustBeClosed);
        assert!(script.contains("--sandbox limits --"), "{script}");
    }
}
